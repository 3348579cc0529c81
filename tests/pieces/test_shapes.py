"""The shape language of the 3D pieces: heads from the movement, nozzle-safe details measured on
cross-sections of the built meshes, top faces on 0.2 mm layers, and side silhouettes that differ."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from manifold3d import CrossSection, JoinType

from dealers_chess.pieces.catalogue import Group, ShapeFeature, load_catalogue
from dealers_chess.pieces.errors import CatalogueError
from dealers_chess.pieces.model3d.body import LAYER_MM, body_size
from dealers_chess.pieces.model3d.model import RELIEF_MM, ModelOptions, Part, build_piece
from dealers_chess.pieces.model3d.shape import Rim, shape_of

CATALOGUE = load_catalogue()
ALL = list(CATALOGUE)
ORTHODOX = ["king", "queen", "rook", "bishop", "knight", "standard-pawn"]
# the tightest top faces: rings and dashes on small grids, symbols beside bars, finials among markers
RISKY = ["pharaoh", "archbishop", "viceroy", "turtle", "hyena", "berolina-pawn", "crab", "spinal-pawn", "lance-pawn",
         "piglet-pawn", "linebacker-pawn", "cannon", "antelope", "lion", "shogun"]
NOZZLE_MM, WIDTH_MM, HOLE_MM = 0.4, 0.8, 1.0


def test_the_orthodox_six_wear_staunton_heads():
    shapes = {piece_id: shape_of(CATALOGUE.get(piece_id)) for piece_id in ORTHODOX}
    assert shapes["king"].rim is Rim.CROWN and shapes["king"].cross
    assert shapes["queen"].rim is Rim.CORONET and shapes["queen"].ball
    assert shapes["rook"].rim is Rim.TOWER and shapes["rook"].thick
    assert shapes["bishop"].mitre and shapes["bishop"].rim is Rim.PLAIN
    assert shapes["knight"].horse and not shapes["knight"].fins
    pawn = shapes["standard-pawn"]
    assert pawn.rim is Rim.PLAIN and not (pawn.horse or pawn.mitre or pawn.ball or pawn.cross)
    tops = {piece_id: build_piece(CATALOGUE.get(piece_id)).solid.bounding_box()[5] for piece_id in ORTHODOX}
    assert tops["king"] > tops["queen"] > tops["bishop"] > tops["knight"] > tops["rook"] > tops["standard-pawn"]


def test_compounds_combine_their_parts():
    archbishop, chancellor = shape_of(CATALOGUE.get("archbishop")), shape_of(CATALOGUE.get("chancellor"))
    assert archbishop.horse and archbishop.mitre
    assert chancellor.horse and chancellor.rim is Rim.TOWER
    lion = build_piece(CATALOGUE.get("lion"))  # its steps leave no room for a horse head: knight fins
    assert lion.shape.fins and not lion.shape.horse


def test_leaps_mark_the_stem_and_reach_sets_the_height():
    wazir, dabbaba, threeleaper = (shape_of(CATALOGUE.get(i)) for i in ("wazir", "dabbaba", "threeleaper"))
    assert [bool(c) for c in wazir.collars] == [True, False, False]
    assert [bool(c) for c in dabbaba.collars] == [False, True, False]
    assert [bool(c) for c in threeleaper.collars] == [False, False, True]
    tops = [build_piece(CATALOGUE.get(i)).top_mm for i in ("wazir", "dabbaba", "threeleaper")]
    assert tops[0] < tops[1] < tops[2]


def test_named_rules_mark_the_rim():
    rims = {i: shape_of(CATALOGUE.get(i)).rim
            for i in ("standard-pawn", "mecklenbeck-pawn", "chicken-pawn", "consuls-pawn")}
    assert rims == {"standard-pawn": Rim.PLAIN, "mecklenbeck-pawn": Rim.POINTS, "chicken-pawn": Rim.BAND,
                    "consuls-pawn": Rim.BATTLEMENT}


def test_a_shape_key_overrides_the_derived_head():
    wazir = CATALOGUE.get("wazir")
    towered = dataclasses.replace(wazir, shape=(ShapeFeature.TOWER, ShapeFeature.HORSE))
    spec = shape_of(towered)
    assert spec.rim is Rim.TOWER and spec.horse and spec.collars == shape_of(wazir).collars
    model = build_piece(towered, ModelOptions(40.0))
    assert len(model.solid.decompose()) == 1 and model.shape.rim is Rim.TOWER


def test_a_bad_shape_key_is_one_line_naming_file_piece_and_choices(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('[[piece]]\nid = "mole"\nname = "Mole"\ngroup = "piece"\ncode = "MOL"\nbetza = "W"\n'
                    'text = "Steps."\nshape = ["tower", "dragon"]\n')
    with pytest.raises(CatalogueError) as error:
        load_catalogue([path])
    message = str(error.value)
    assert "\n" not in message and "mine.toml" in message and "'mole'" in message and "shape[1]" in message
    assert "'dragon'" in message and "tower" in message and "horse" in message


def _on_layer(z_mm: float) -> bool:
    return abs(z_mm / LAYER_MM - round(z_mm / LAYER_MM)) * LAYER_MM <= 0.01


@pytest.mark.parametrize("square_mm", [40.0, 50.0, 57.0])
def test_top_faces_and_relief_tops_sit_on_layers(square_mm):
    for piece in ALL:
        size = body_size(piece.group, square_mm, spec=shape_of(piece))
        assert _on_layer(size.height) and _on_layer(size.height + RELIEF_MM), (piece.id, size.height)
    for piece_id in ("queen", "knight", "standard-pawn"):
        model = build_piece(CATALOGUE.get(piece_id), ModelOptions(square_mm))
        relief_top = model.parts[Part.RELIEF].bounding_box()[5]
        assert _on_layer(model.top_mm) and relief_top == pytest.approx(model.relief_top_mm, abs=1e-4)
        below, above = (model.solid.slice(model.top_mm + dz).area() for dz in (-0.05, 0.05))
        assert above < 0.8 * below, piece_id  # the top face is there: the section shrinks to the diagram


def _round(section: CrossSection, delta: float) -> CrossSection:
    return section.offset(delta, JoinType.Round, 2.0, 48)


def nozzle_problems(model, square_mm: float) -> list[str]:
    """What a 0.4 mm nozzle cannot print on the top face, from sections of the mesh: raised parts an
    opening by 0.4 mm removes (narrower than 0.8 mm), holes a closing by 0.5 mm fills (under 1.0 mm),
    symbols a closing by 0.4 mm joins (gaps under 0.8 mm); in the base code, grooves under 1.0 mm."""
    problems = []
    for name, z in (("relief", model.top_mm + RELIEF_MM / 2), ("top face", model.top_mm - 0.3), ("code", 0.3)):
        section = model.solid.slice(z)
        closed = _round(_round(section, HOLE_MM / 2), -HOLE_MM / 2)
        holes = section.num_contour() - len(section.decompose())
        if holes > closed.num_contour() - len(closed.decompose()):
            problems.append(f"{name}: a hole under {HOLE_MM} mm")
        if name == "code":
            continue  # the land between two letter strokes may end in a point
        # what an opening removes, less the rounding of sharp corners (thinner than 0.3 mm)
        lost = _round(section - _round(_round(section, -NOZZLE_MM), NOZZLE_MM), -0.15)
        if lost.area() > 0.01:
            problems.append(f"{name}: {lost.area():.2f} mm2 narrower than {WIDTH_MM} mm")
        joined = _round(_round(section, NOZZLE_MM), -NOZZLE_MM)
        if len(joined.decompose()) < len(section.decompose()):
            problems.append(f"{name}: a gap under {WIDTH_MM} mm")
    return [f"{model.piece_id} at {square_mm:g} mm: {problem}" for problem in problems]


@pytest.mark.parametrize("square_mm", [40.0, 50.0])
def test_top_faces_of_the_tightest_pieces_are_nozzle_safe(square_mm):
    problems = []
    for piece_id in ORTHODOX + RISKY:
        problems += nozzle_problems(build_piece(CATALOGUE.get(piece_id), ModelOptions(square_mm)), square_mm)
    assert problems == []


@pytest.mark.slow
@pytest.mark.parametrize("square_mm", [40.0, 50.0])
def test_every_top_face_is_nozzle_safe(square_mm):
    problems = []
    for piece in ALL:
        problems += nozzle_problems(build_piece(piece, ModelOptions(square_mm)), square_mm)
    assert problems == []


def test_a_thin_line_or_closed_hole_is_caught():
    """The cross-section checks fail on what they must catch: a 0.7 mm wall and a 0.9 mm hole."""
    from manifold3d import Manifold

    good = build_piece(CATALOGUE.get("wazir"))
    wall = Manifold.cube((0.7, 6.0, 2.0)).translate((0.0, 0.0, good.top_mm - 0.5))
    hole = Manifold.cylinder(5.0, 0.45, 0.45, 24).translate((0.0, 0.0, good.top_mm - 2.0))
    thin = dataclasses.replace(good, solid=good.solid + wall)
    holed = dataclasses.replace(good, solid=good.solid - hole)
    assert nozzle_problems(good, 50.0) == []
    assert any("narrower" in p for p in nozzle_problems(thin, 50.0))
    assert any("hole under" in p for p in nozzle_problems(holed, 50.0))


def silhouettes(model) -> tuple[CrossSection, CrossSection]:
    """The piece seen from the front (x, z) and from the side (y, z)."""
    return model.solid.rotate((90, 0, 0)).project(), model.solid.rotate((0, 90, 0)).project()


def unshared(a, b) -> float:
    """The share of the two silhouettes' union (both views together) that only one piece covers."""
    union = sum((x + y).area() for x, y in zip(a, b, strict=True))
    common = sum((x ^ y).area() for x, y in zip(a, b, strict=True))
    return (union - common) / union


def test_the_orthodox_six_differ_from_the_side_by_at_least_ten_percent():
    views = {piece_id: silhouettes(build_piece(CATALOGUE.get(piece_id))) for piece_id in ORTHODOX}
    for a, b in itertools.combinations(ORTHODOX, 2):
        assert unshared(views[a], views[b]) >= 0.10, (a, b)


def test_pieces_of_a_group_differ_from_the_side_by_at_least_five_percent():
    views = {piece.id: silhouettes(build_piece(piece)) for piece in ALL}
    close = []
    for group in Group:
        ids = [piece.id for piece in ALL if piece.group is group]
        for a, b in itertools.combinations(ids, 2):
            share = unshared(views[a], views[b])
            if share < 0.05:
                close.append((a, b, round(share, 3)))
    assert close == []  # 1,705 pairs, the closest 5.1 % (Bison and Giraffe, Spinal Pawn and Crab)


@pytest.mark.parametrize("square_mm", [40.0, 50.0])
def test_no_piece_tips_over_before_twenty_degrees(square_mm):
    import math

    import trimesh

    for piece in ALL:
        model = build_piece(piece, ModelOptions(square_mm))
        centre = trimesh.Trimesh(*model.mesh(), process=False).center_mass
        contact = model.size.base_radius - 0.6 - math.hypot(centre[0], centre[1])  # inside the base chamfer
        assert math.degrees(math.atan2(contact, centre[2])) >= 20.0, piece.id


def _steep_faces(model, limit_deg: float):
    """Triangles above the bed facing down more steeply than limit_deg from vertical, except the flat
    roofs of the 0.6 mm code grooves (bridges no wider than a stroke)."""
    import math

    import numpy as np

    vertices, faces = model.mesh()
    triangles = vertices[faces]
    normals = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    lengths = np.linalg.norm(normals, axis=1)
    nz = normals[:, 2] / np.where(lengths == 0, 1, lengths)
    steep = (nz < -math.cos(math.radians(limit_deg)) - 1e-4) & (triangles[:, :, 2].min(axis=1) > 1e-6) & (lengths > 0)
    roofs = np.all(np.isclose(triangles[:, :, 2], 0.6, atol=1e-6), axis=1)
    return triangles[steep & ~roofs]


@pytest.mark.parametrize("square_mm", [40.0, 50.0])
def test_no_head_collar_or_rib_overhangs_more_than_forty_degrees(square_mm):
    for piece in ALL:
        assert len(_steep_faces(build_piece(piece, ModelOptions(square_mm)), 40.0)) == 0, piece.id


@pytest.mark.slow
@pytest.mark.parametrize("square_mm", [40.0, 50.0])
def test_no_overhang_with_the_weight_pocket_either(square_mm):
    for piece in ALL:
        assert len(_steep_faces(build_piece(piece, ModelOptions(square_mm, weight_pocket=True)), 40.0)) == 0, piece.id


def test_a_pawn_that_may_step_back_stands_on_a_plinth():
    silver, iron, standard = (build_piece(CATALOGUE.get(i)) for i in ("silver-pawn", "iron-pawn", "standard-pawn"))
    assert silver.shape.plinth and not iron.shape.plinth and not standard.shape.plinth
    assert silver.top_mm - iron.top_mm == pytest.approx(2.5, abs=0.15)  # 0.05 squares, on a layer
    assert silver.size.foot_height - iron.size.foot_height == pytest.approx(2.5, abs=0.11)
    assert not shape_of(CATALOGUE.get("queen")).plinth  # pieces step back anyway: only pawns are marked


def test_bent_steps_wear_two_rings_and_fins_point_where_the_knight_leaps():
    from dealers_chess.pieces.model3d.body import Family, family_of

    assert family_of(CATALOGUE.get("patient-pawn").movement) is Family.BENT_STEP
    assert family_of(CATALOGUE.get("standard-pawn").movement) is Family.LEAPER
    assert shape_of(CATALOGUE.get("horse-pawn")).fin_vectors == ((-1, 2), (1, 2))
    assert shape_of(CATALOGUE.get("lance-pawn")).fin_vectors == ((-2, 1), (-1, 2), (1, 2), (2, 1))
    assert shape_of(CATALOGUE.get("nightrider")).fin_vectors == ((-1, -2), (-1, 2), (1, -2), (1, 2))


def test_mirror_image_pawns_differ_from_the_front_by_their_proud_ribs():
    left, right = (build_piece(CATALOGUE.get(i)) for i in ("left-end-pawn", "right-end-pawn"))
    assert unshared(silhouettes(left), silhouettes(right)) >= 0.05
    # low: its sideways rib is a move-only one
    low = left.size.foot_top + 0.1 * (left.size.flare_bottom - left.size.foot_top)
    (_, _, left_x, _), (right_x, _, _, _) = (m.solid.slice(low).bounds() for m in (left, right))
    assert left_x == pytest.approx(left.size.base_radius - 0.3, abs=0.05)  # the sideways rib, out to the foot's edge
    assert right_x == pytest.approx(-left_x, abs=0.05)


def _corner_share(model, z: float) -> float:
    """The section at height z: how far it reaches to the side, as a share of its farthest point."""
    import math

    points = [point for polygon in model.solid.slice(z).to_polygons() for point in polygon]
    return max(abs(x) for x, _ in points) / max(math.hypot(x, y) for x, y in points)


def test_a_leaper_stands_on_a_stem_whose_corners_point_where_it_leaps():
    from dealers_chess.pieces.model3d.body import Section, section_outline

    wazir, ferz = (build_piece(CATALOGUE.get(i)) for i in ("wazir", "ferz"))
    assert [a for a, _ in wazir.shape.corners] == [0.0, 90.0, 180.0, 270.0]
    assert [a for a, _ in ferz.shape.corners] == [45.0, 135.0, 225.0, 315.0]
    low = wazir.size.foot_top + 3.0  # the plain stem above the foot
    assert _corner_share(wazir, low) == pytest.approx(1.0, abs=0.01)  # a corner to each side
    assert _corner_share(ferz, low) == pytest.approx(0.3 + 0.7 * 0.7071, abs=0.02)  # a rounded flat
    zebra = shape_of(CATALOGUE.get("zebra"))
    assert [round(a, 1) for a, _ in zebra.corners][:2] == [33.7, 56.3] and len(zebra.corners) == 8
    phoenix = dict(shape_of(CATALOGUE.get("phoenix")).corners)  # W steps reach less far than A leaps
    assert phoenix[0.0] == 0.8 and phoenix[45.0] == 1.0
    outline = section_outline(Section(shape_of(CATALOGUE.get("phoenix")).corners, True))
    assert max(abs(x) for x, _ in outline) < 0.9  # so Phoenix WA and Alibaba DA differ from the front
    assert shape_of(CATALOGUE.get("rook")).corners == ()  # riders keep their family's octagon


def test_a_piece_that_moves_one_way_and_captures_another_splits_its_stem():
    from dealers_chess.pieces.model3d.body import _beads, _placed, _split, family_of

    piece = CATALOGUE.get("guardian")  # mFcW: moves like a Ferz, captures like a Wazir
    model = build_piece(piece)
    moves, captures = (tuple(a for a, _ in corners) for corners in model.shape.corners_by_mode)
    assert moves == (45.0, 135.0, 225.0, 315.0) and captures == (0.0, 90.0, 180.0, 270.0)
    size, spec, family = model.size, model.shape, family_of(piece.movement)
    bottom, top = size.foot_top - 1.0, size.flare_bottom + 1.0
    placed = _placed(sorted(_beads(family, spec), key=lambda b: b[0]), bottom, top, size.base_radius)
    split = _split(placed, bottom, top)
    assert _corner_share(model, bottom + 2.0) < 0.85 < _corner_share(model, top - 3.0)  # diamond below, square above
    assert len(model.solid.decompose()) == 1 and model.solid.genus() == 0
    assert bottom < split < top
    guard = build_piece(CATALOGUE.get("guard")).shape.corners_by_mode
    assert guard[0] == guard[1]


def test_single_steps_stand_below_longer_leaps_on_a_stem_of_two_sections():
    kirin, woody = (build_piece(CATALOGUE.get(i)) for i in ("kirin", "woody-rook"))  # FD and WD
    (steps, moves), (woody_steps, _) = kirin.shape.corners_by_mode, woody.shape.corners_by_mode
    assert [a for a, _ in steps] == [45.0, 135.0, 225.0, 315.0]
    assert [a for a, _ in woody_steps] == [0.0, 90.0, 180.0, 270.0]
    assert len(moves) == 8  # F's corners and D's
    low = kirin.size.foot_top + 3.0
    # a diamond under the Kirin, a square under the Woody Rook
    assert _corner_share(kirin, low) < 0.85 < _corner_share(woody, low)
    assert len(kirin.solid.decompose()) == 1 and kirin.solid.genus() == 0
    assert unshared(silhouettes(kirin), silhouettes(woody)) >= 0.05


def test_ribs_show_where_a_pawn_moves_low_and_where_it_also_captures_high():
    from dealers_chess.pieces.model3d.shape import Modality

    standard, crab = (build_piece(CATALOGUE.get(i)) for i in ("standard-pawn", "crab"))
    assert standard.shape.ribs == (((0, 1), Modality.MOVE),)  # it only captures diagonally: no rib there
    assert dict(crab.shape.ribs) == {(-1, 1): Modality.BOTH, (0, 1): Modality.MOVE, (1, 1): Modality.BOTH}
    size = standard.size
    low, high = (size.foot_top + share * (size.flare_bottom - size.foot_top) for share in (0.2, 0.7))
    forward = [standard.solid.slice(z).bounds()[3] for z in (low, high)]  # how far forward (+y) the section reaches
    assert forward[0] == pytest.approx(size.base_radius - 0.3, abs=0.05) and forward[1] < size.base_radius - 1.0


def test_the_longest_leap_sets_the_height_by_its_length():
    tops = {i: build_piece(CATALOGUE.get(i)).top_mm for i in ("camel", "zebra", "giraffe")}
    assert tops["camel"] < tops["zebra"] < tops["giraffe"]  # 3.2, 3.6 and 4.1 squares
