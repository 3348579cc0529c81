"""3D piece models: every catalogue piece prints as one closed solid of its group's size, looks unlike
pieces that move differently, and its top emblem says what the engine says on an empty board."""

from __future__ import annotations

import dataclasses
import math
import re

import numpy as np
import pytest
import trimesh
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dealers_chess.engine.measure.probe import probe
from dealers_chess.pieces.catalogue import Group, Rule, load_catalogue
from dealers_chess.pieces.model3d.body import BASES, body_size
from dealers_chess.pieces.model3d.emblem import Shape, emblem_of
from dealers_chess.pieces.model3d.model import (
    MIN_PITCH_MM,
    POCKET_DEPTH_MM,
    ModelError,
    ModelOptions,
    build_piece,
    identity_signature,
    size_limits,
)
from dealers_chess.pieces.movement import parse_movement
from dealers_chess.printing.solids.mesh_check import check_triangles, triangles_of
from dealers_chess.printing.solids.piece_files import write_piece_stls
from tests.built_once import shares_every_built_piece

CATALOGUE = load_catalogue()
ALL = list(CATALOGUE)


def _check_written(path, piece, square_mm: float) -> None:
    loaded = trimesh.load(path, file_type="stl")
    assert loaded.is_watertight, piece.id
    assert loaded.is_winding_consistent, piece.id
    assert loaded.is_volume, piece.id
    assert loaded.euler_number == 2, piece.id  # genus 0: no handles, no stray shells
    assert check_triangles(np.asarray(loaded.triangles, dtype=np.float32)).bodies == 1, piece.id
    diameter, height = size_limits(piece.group, square_mm)
    low, high = loaded.bounds
    assert low[2] == pytest.approx(0.0, abs=1e-4), piece.id
    assert high[0] - low[0] <= diameter + 1e-3 and high[1] - low[1] <= diameter + 1e-3, piece.id
    assert high[2] <= height + 1e-3, piece.id


@pytest.mark.xdist_group("readme-pieces")
def test_every_catalogue_piece_writes_a_closed_single_body_stl_within_its_group_size(readme_pieces):
    """What the README's `dealer pieces` wrote (every piece at 50 mm squares), run once per test run by
    tests/conftest.py: the same files a build here would write, built in the same processes a user's are."""
    assert readme_pieces.returncode == 0, readme_pieces.stderr[-2000:]
    folder = readme_pieces.folder / "build" / "pieces-50mm"
    assert sorted(path.name for path in folder.iterdir()) == sorted(f"{piece.id}.stl" for piece in ALL)
    assert len(ALL) == 87
    for piece in ALL:
        _check_written(folder / f"{piece.id}.stl", piece, 50.0)


@pytest.mark.slow  # 20 s; the default run checks every piece at 50 mm (the test above)
def test_every_catalogue_piece_writes_a_closed_single_body_stl_at_40_mm(tmp_path):
    paths = write_piece_stls(ALL, tmp_path, ModelOptions(40.0))
    assert [path.name for path in paths] == [f"{piece.id}.stl" for piece in ALL]
    for piece, path in zip(ALL, paths, strict=True):
        _check_written(path, piece, 40.0)


@pytest.mark.slow
@pytest.mark.parametrize("square_mm", [50.0, 40.0])
def test_every_piece_with_a_weight_pocket_is_still_one_closed_solid(tmp_path, square_mm):
    paths = write_piece_stls(ALL, tmp_path, ModelOptions(square_mm, weight_pocket=True))
    for piece, path in zip(ALL, paths, strict=True):
        _check_written(path, piece, square_mm)


def test_pieces_look_different_unless_they_move_identically():
    by_look: dict[tuple, list] = {}
    for piece in ALL:
        by_look.setdefault(identity_signature(piece), []).append(piece)
    for group in by_look.values():
        moves = {(frozenset(p.movement.paths), p.group) for p in group}
        assert len(moves) == 1, [p.id for p in group]
    assert len(by_look) >= 80  # only true twins (e.g. Standard and Mecklenbeck Pawn) share a look


@shares_every_built_piece
def test_no_two_pieces_have_identical_geometry_thanks_to_the_base_code():
    digests = {}
    for piece in ALL:
        vertices, _ = build_piece(piece).mesh()
        digest = np.round(np.sort(vertices, axis=0), 3).tobytes()
        assert digest not in digests, (piece.id, digests.get(digest))
        digests[digest] = piece.id


def test_pieces_that_move_alike_differ_by_their_rule_marks():
    standard, mecklenbeck = CATALOGUE.get("standard-pawn"), CATALOGUE.get("mecklenbeck-pawn")
    assert standard.movement == mecklenbeck.movement
    assert identity_signature(standard) != identity_signature(mecklenbeck)
    assert build_piece(standard).shape.marks == () and build_piece(mecklenbeck).shape.marks != ()


def _drawn_as_cells(piece) -> bool:
    """Unlimited slides are bars to the rim, not cells; a teleport is a rule, not a diagram."""
    return not piece.has(Rule.TELEPORT) and all(path.final.max_steps is not None for path in piece.movement.paths)


@pytest.mark.parametrize("piece", [p for p in ALL if _drawn_as_cells(p)], ids=lambda p: p.id)
def test_emblem_markers_match_the_engine_on_an_empty_board(piece):
    offsets = probe(piece)
    moves, captures = set(offsets.moves), set(offsets.captures)
    first = set(offsets.initial_moves) | set(offsets.initial_captures)
    markers = {m.cell: m for m in emblem_of(piece.movement).markers}
    assert set(markers) == moves | captures | first
    for cell, marker in markers.items():
        if cell in moves | captures:
            expected = (Shape.DOT if cell in moves and cell in captures
                        else Shape.RING if cell in moves else Shape.SQUARE)
            assert (marker.shape, marker.small) == (expected, False), cell
        else:
            assert marker.small, cell


def test_symbols_of_typical_pieces():
    pawn = emblem_of(CATALOGUE.get("standard-pawn").movement)
    shapes = {m.cell: (m.shape, m.small) for m in pawn.markers}
    assert shapes == {
        (0, 1): (Shape.RING, False), (0, 2): (Shape.RING, True),
        (1, 1): (Shape.SQUARE, False), (-1, 1): (Shape.SQUARE, False),
    }
    assert pawn.lines == (((0, 0), (0, 1), (0, 2)),)  # the double step may not leap
    rook = emblem_of(CATALOGUE.get("rook").movement)
    assert not rook.markers and len(rook.bars) == 4 and all(b.end is None and not b.gap for b in rook.bars)
    cannon = emblem_of(CATALOGUE.get("cannon").movement)
    assert all(b.gap and b.end_shape is Shape.SQUARE and b.gap_shape is Shape.RING for b in cannon.bars)
    gryffon = emblem_of(CATALOGUE.get("gryffon").movement)
    assert {b.start for b in gryffon.bars} == {(1, 1), (1, -1), (-1, 1), (-1, -1)} and len(gryffon.bars) == 8


def test_groups_differ_in_size_and_royals_wear_a_crown():
    from dealers_chess.pieces.model3d.shape import Finial, Rim

    king, guard = build_piece(CATALOGUE.get("king")), build_piece(CATALOGUE.get("guard"))
    pawn = build_piece(CATALOGUE.get("standard-pawn"))
    heights = [m.solid.bounding_box()[5] for m in (king, guard, pawn)]
    assert heights[0] > heights[1] > heights[2]
    assert king.shape.rim is Rim.CROWN and guard.shape.rim is Rim.PLAIN
    assert king.shape.finial is Finial.CROSS and guard.shape.finial is Finial.NONE
    assert heights[0] > king.top_mm + 14.0  # the cross stands above the crown


@shares_every_built_piece
@pytest.mark.parametrize("square_mm", [50.0, pytest.param(40.0, marks=pytest.mark.slow)])  # 40 mm: 15 s
def test_every_grid_is_at_least_the_printable_pitch(square_mm):
    for piece in ALL:
        assert build_piece(piece, ModelOptions(square_mm)).layout.pitch_mm >= MIN_PITCH_MM, piece.id


def test_too_small_squares_give_a_clear_error_naming_a_size_that_works():
    antelope = CATALOGUE.get("antelope")
    with pytest.raises(ModelError, match=r"antelope.*--square-mm (\d+)") as error:
        build_piece(antelope, ModelOptions(25.0))
    needed = int(error.value.args[0].rsplit("--square-mm ", 1)[1].split()[0])
    assert build_piece(antelope, ModelOptions(float(needed))).layout.pitch_mm >= MIN_PITCH_MM
    with pytest.raises(ModelError, match=f"--square-mm {needed} or more"):
        build_piece(antelope, ModelOptions(float(needed - 1)))
    with pytest.raises(ModelError, match="square size 500"):
        build_piece(antelope, ModelOptions(500.0))


def _overhang_faces(model) -> np.ndarray:
    """Triangles facing down more steeply than 45 degrees, above the bed."""
    vertices, faces = model.mesh()
    triangles = vertices[faces]
    normals = np.cross(triangles[:, 1] - triangles[:, 0], triangles[:, 2] - triangles[:, 0])
    lengths = np.linalg.norm(normals, axis=1)
    nz = normals[:, 2] / np.where(lengths == 0, 1, lengths)
    steep = nz < -math.cos(math.radians(45)) - 1e-4
    above_bed = triangles[:, :, 2].min(axis=1) > 1e-6
    return triangles[steep & above_bed & (lengths > 0)]


@pytest.mark.parametrize("piece_id", ["king", "knight", "rook", "cannon", "standard-pawn", "gryffon"])
@pytest.mark.parametrize("weight_pocket", [False, True])
def test_no_overhang_beyond_45_degrees_except_the_code_grooves(piece_id, weight_pocket):
    model = build_piece(CATALOGUE.get(piece_id), ModelOptions(40.0, weight_pocket))
    steep = _overhang_faces(model)
    # the only downward faces off the bed are the flat roofs of the 0.6 mm code grooves (short bridges)
    assert np.allclose(steep[:, :, 2], 0.6, atol=1e-6)


def test_weight_pocket_is_open_below_and_leaves_room_for_the_code():
    plain = build_piece(CATALOGUE.get("queen"), ModelOptions(50.0, weight_pocket=False))
    pocketed = build_piece(CATALOGUE.get("queen"), ModelOptions(50.0, weight_pocket=True))
    assert 4.0 <= pocketed.pocket_radius_mm <= 10.2
    lost = plain.solid.volume() - pocketed.solid.volume()
    r = pocketed.pocket_radius_mm
    depth = POCKET_DEPTH_MM  # two stacked washers
    assert lost == pytest.approx(math.pi * r * r * depth + math.pi * r**3 / math.tan(math.radians(40)) / 3, rel=0.03)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 4), st.integers(1, 4), st.sampled_from(["", "f", "m", "c"]))
def test_any_leaper_builds_a_valid_solid(short, long, modifier):
    short = min(short, long)
    movement = parse_movement(f"{modifier}({long},{short})")
    piece = CATALOGUE.get("knight")
    model = build_piece(dataclasses.replace(piece, movement=movement))
    vertices, faces = model.mesh()
    check = check_triangles(triangles_of(vertices, faces))
    assert check.problems() == []
    cells = {m.cell for m in emblem_of(movement).markers}
    assert all(max(abs(x), abs(y)) == long for x, y in cells)


def test_group_sizes_follow_the_reference_table():
    assert 2 * build_piece(CATALOGUE.get("king")).size.base_radius >= BASES[Group.ROYAL] * 50.0 - 1e-9
    assert 2 * build_piece(CATALOGUE.get("rook"), ModelOptions(40.0)).size.base_radius == pytest.approx(28.8)
    assert build_piece(CATALOGUE.get("standard-pawn"), ModelOptions(50.0)).top_mm == pytest.approx(51.6)  # a level
    spec = build_piece(CATALOGUE.get("wazir")).shape
    assert body_size(Group.PIECE, 50.0, spec).base_radius == pytest.approx(18.0)


TERM = st.tuples(
    st.sampled_from(["", "i"]), st.sampled_from(["", "m", "c"]), st.sampled_from(["", "f", "b", "s", "v", "fs", "bs"]),
    st.sampled_from(["W", "F", "D", "A", "N", "H", "C", "Z", "(1,4)", "(3,4)"]), st.sampled_from(["", "2", "3"]),
)


def _movement_of(terms):
    """The XBetza the drawn terms spell, and its movement (None when the mix is not valid XBetza)."""
    from dealers_chess.pieces.errors import BetzaError

    betza = "".join(
        initial + mode + direction + atom + (rng if atom in "WFDA" else "")
        for initial, mode, direction, atom, rng in terms
    )
    try:
        return betza, parse_movement(betza)
    except BetzaError:
        return betza, None


SQUARE_NEEDED = re.compile(r"use --square-mm (\d+) or more")


@settings(max_examples=40, deadline=None)
@given(st.lists(TERM, min_size=1, max_size=3))
@example([("", "", "", "W", ""), ("", "", "", "W", ""), ("", "", "", "(3,4)", "")])  # WW(3,4): reach exactly 5
@example([("", "", "f", "(3,4)", ""), ("i", "", "", "A", "2")])  # f(3,4)iA2: it said 40 at 40 (now 45)
def test_any_simple_emblem_matches_the_engine(terms):
    """A drawn piece builds at 40 mm into a valid mesh, or refuses with the square size it needs, and builds at
    that size (the test used to guess the refusal from the reach, > 5 squares, and WW(3,4) reaches 5.0; the
    size named was the pitch's alone, and 28 % of refusals named one too small, even 36 mm at 40)."""
    _, movement = _movement_of(terms)
    if movement is None:
        return
    piece = dataclasses.replace(CATALOGUE.get("knight"), movement=movement)
    if _drawn_as_cells(piece):  # "NN" (two knight terms) is a nightrider: bars, not cells
        test_emblem_markers_match_the_engine_on_an_empty_board(piece)
    try:
        vertices, faces = build_piece(piece, ModelOptions(40.0)).mesh()
    except ModelError as error:  # a long reach needs bigger squares: a clear error, never a broken mesh
        needed = SQUARE_NEEDED.search(str(error))
        assert needed is not None and int(needed[1]) > 40, str(error)
        vertices, faces = build_piece(piece, ModelOptions(float(needed[1]))).mesh()
    assert check_triangles(triangles_of(vertices, faces)).problems() == []


@pytest.mark.parametrize("square_mm", [50.0, 40.0])
def test_a_spear_gets_its_own_size_between_pawns_and_pieces(square_mm):
    lance = dataclasses.replace(CATALOGUE.get("standard-pawn"), id="test-lance", code="TL", group=Group.SPEAR,
                                movement=parse_movement("fRfceF"))
    model = build_piece(lance, ModelOptions(square_mm))
    low, high = np.asarray(model.solid.bounding_box()).reshape(2, 3)
    diameter, height = size_limits(Group.SPEAR, square_mm)
    assert high[2] <= height + 1e-3 and high[0] - low[0] <= diameter + 1e-3
    pawn = build_piece(CATALOGUE.get("standard-pawn"), ModelOptions(square_mm))
    rook = build_piece(CATALOGUE.get("rook"), ModelOptions(square_mm))
    assert pawn.top_mm == model.top_mm == rook.top_mm  # spears share the pawns' and rooks' top-face level
    assert 2 * pawn.size.base_radius < high[0] - low[0] < 2 * rook.size.base_radius  # a foot between theirs


@pytest.mark.slow
def test_every_size_from_20_to_80_mm_gives_a_closed_solid_or_a_clear_error():
    for square_mm in range(20, 81, 4):
        for piece in ALL:
            try:
                vertices, faces = build_piece(piece, ModelOptions(float(square_mm))).mesh()
            except ModelError as error:
                assert "--square-mm" in str(error) or "weight pocket" in str(error)
                continue
            assert check_triangles(triangles_of(vertices, faces)).problems() == [], (piece.id, square_mm)


def test_grasshoppers_and_cannons_hop_differently():
    grasshopper = emblem_of(parse_movement("gQ"))
    cannon = emblem_of(parse_movement("pQ"))
    assert all(b.gap and b.lands_behind and b.thin_before_gap for b in grasshopper.bars) and len(grasshopper.bars) == 8
    assert all(b.gap and not b.lands_behind for b in cannon.bars)
    for betza in ("gQ", "pQ", "mRcpR"):
        piece = dataclasses.replace(CATALOGUE.get("cannon"), movement=parse_movement(betza))
        model = build_piece(piece, ModelOptions(40.0))
        assert check_triangles(triangles_of(*model.mesh())).problems() == []


@settings(max_examples=30, deadline=None)
@given(st.lists(TERM, min_size=1, max_size=3), st.sampled_from([Group.PIECE, Group.PAWN, Group.ROYAL]))
def test_any_leaper_stem_is_one_closed_body_that_prints_without_support(terms, group):
    """Corners where the leaps go, moves below and captures above: whatever the terms, one body of genus 0
    with no face leaning more than 40 degrees (the code grooves' 0.6 mm roofs aside)."""
    from tests.pieces.test_shapes import _steep_faces

    betza, movement = _movement_of(terms)
    if movement is None:
        return
    piece = dataclasses.replace(CATALOGUE.get("wazir"), id="probe", group=group, movement=movement)
    try:
        model = build_piece(piece, ModelOptions(50.0))
    except ModelError:  # a diagram that cannot print at this size is refused in one line, tested elsewhere
        return
    assert len(model.solid.decompose()) == 1 and model.solid.genus() == 0, betza
    assert len(_steep_faces(model, 40.0)) == 0, betza
