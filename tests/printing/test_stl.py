"""STL writing, plates, pictures and the pieces/plate/render commands, checked on what lands on disk."""

from __future__ import annotations

import numpy as np
import pytest
import trimesh
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from dealers_chess.cli import cli
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.model3d.model import ModelOptions, build_piece
from dealers_chess.pieces.model3d.render import render_piece
from dealers_chess.printing import render_cache
from dealers_chess.printing.solids import mesh_check
from dealers_chess.printing.solids.mesh_check import check_mesh, check_triangles, triangles_of
from dealers_chess.printing.solids.plates import EDGE_MM, PlateError, parse_bed, plan_plates, write_plates
from dealers_chess.printing.solids.stl import StlError, write_mesh_stl, write_stl
from tests.built_once import shares_every_built_piece

CATALOGUE = load_catalogue()


def _triangles(piece_id: str = "knight") -> np.ndarray:
    vertices, faces = build_piece(CATALOGUE.get(piece_id)).mesh()
    return triangles_of(vertices, faces)


def test_a_valid_piece_is_written_and_reads_back_as_a_solid(tmp_path):
    path = tmp_path / "knight.stl"
    check = write_stl(path, _triangles(), "knight")
    assert check.problems() == [] and check.volume_mm3 > 10_000
    loaded = trimesh.load(path, file_type="stl")
    assert loaded.is_watertight and loaded.is_volume
    assert len(loaded.faces) == check.triangles
    assert [p.name for p in tmp_path.iterdir()] == ["knight.stl"]


STL_RECORD = np.dtype([("normal", "<f4", (3,)), ("corners", "<f4", (3, 3)), ("attribute", "<u2")])


def read_binary_stl(path) -> np.ndarray:
    """The facet records of a binary STL, read with the format's own layout (80-byte header, count, 50-byte records)."""
    raw = path.read_bytes()
    count = int(np.frombuffer(raw[80:84], "<u4")[0])
    assert len(raw) == 84 + 50 * count
    return np.frombuffer(raw[84:], dtype=STL_RECORD, count=count)


def test_every_facet_normal_is_the_outward_unit_normal_of_its_triangle(tmp_path):
    """The STL format stores a unit normal per facet, pointing out of the solid by the right-hand rule on its
    corners; slicers and viewers that shade or orient by it go wrong on zero or stray normals."""
    path = tmp_path / "knight.stl"
    write_stl(path, _triangles(), "knight")
    records = read_binary_stl(path)
    corners = records["corners"].astype(np.float64)
    cross = np.cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0])
    outward = cross / np.linalg.norm(cross, axis=1, keepdims=True)
    normals = records["normal"].astype(np.float64)
    assert np.allclose(np.linalg.norm(normals, axis=1), 1.0, atol=1e-5)
    assert np.einsum("ij,ij->i", normals, outward).min() > 0.9999
    # outward: a unit normal times its facet's area and centroid sums to the volume (divergence theorem)
    area = np.linalg.norm(cross, axis=1) / 2
    volume = np.sum(np.einsum("ij,ij->i", normals, corners.mean(axis=1)) * area) / 3
    assert volume == pytest.approx(check_triangles(records["corners"]).volume_mm3, rel=1e-4) and volume > 10_000


@pytest.mark.parametrize("damage, reason", [
    (lambda t: t[1:], "not shared by exactly two"),
    (lambda t: t[:, ::-1], "not positive"),
    (lambda t: np.concatenate([t[:1, ::-1], t[1:]]), "inconsistent winding"),
    (lambda t: np.concatenate([t, t + np.float32(100)]), "2 separate bodies"),
])
def test_a_broken_mesh_raises_and_leaves_no_file(tmp_path, damage, reason):
    path = tmp_path / "broken.stl"
    path_before = tmp_path / "keep.stl"
    path_before.write_bytes(b"old")
    with pytest.raises(StlError, match=reason):
        write_stl(path, damage(_triangles()), "knight")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.stl"]


def test_a_mesh_stl_is_checked_as_its_triangles_are(tmp_path):
    vertices, faces = build_piece(CATALOGUE.get("knight")).mesh()
    check = write_mesh_stl(tmp_path / "knight.stl", vertices, faces, "knight")
    assert check == check_triangles(triangles_of(vertices, faces)) and check.problems() == []
    assert (tmp_path / "knight.stl").read_bytes()[80:] == _stl_bytes(tmp_path, triangles_of(vertices, faces))[80:]
    with pytest.raises(StlError, match="3 edges not shared by exactly two triangles"):
        write_mesh_stl(tmp_path / "broken.stl", vertices, faces[:-1], "knight")
    assert not (tmp_path / "broken.stl").exists()


def _stl_bytes(folder, triangles) -> bytes:
    write_stl(folder / "soup.stl", triangles, "knight")
    return (folder / "soup.stl").read_bytes()


def test_an_existing_file_survives_a_failed_write(tmp_path):
    path = tmp_path / "knight.stl"
    write_stl(path, _triangles(), "knight")
    before = path.read_bytes()
    with pytest.raises(StlError):
        write_stl(path, _triangles()[5:], "knight")
    assert path.read_bytes() == before


def test_check_counts_bodies_and_degenerate_triangles():
    triangles = _triangles()
    check = check_triangles(np.concatenate([triangles, triangles + np.float32(60)]))
    assert check.bodies == 2 and check.open_edges == 0 and check.problems(expected_bodies=2) == []


@pytest.mark.parametrize("piece_id", ["knight", "standard-pawn", "cheetah"])
@pytest.mark.parametrize("damage, bodies", [
    (lambda t: t, 1), (lambda t: t[1:], 1), (lambda t: t[:, ::-1], 1),
    (lambda t: np.concatenate([t[:3, ::-1], t[3:]]), 1),
    (lambda t: np.concatenate([t, t + np.float32(60), t + np.float32(120)]), 3),
    (lambda t: np.concatenate([t, t[:2]]), 1),
])
def test_the_mesh_check_agrees_with_trimesh(piece_id, damage, bodies):
    """check_triangles is plain numpy for speed; trimesh, a well-kept library, referees it (bodies are known by
    construction: trimesh counts them only with SciPy or networkx, slowly)."""
    triangles = damage(_triangles(piece_id))
    ours = check_triangles(triangles)
    theirs = trimesh.Trimesh(triangles.reshape(-1, 3).astype(np.float64),
                             np.arange(3 * len(triangles)).reshape(-1, 3), process=True)
    assert ours.triangles == len(theirs.faces) and ours.bodies == bodies
    assert (ours.open_edges == 0) == theirs.is_watertight
    assert (ours.open_edges == ours.misoriented_edges == 0) == (theirs.is_watertight and theirs.is_winding_consistent)
    if theirs.is_watertight and theirs.is_winding_consistent:  # a volume means something
        assert ours.volume_mm3 == pytest.approx(theirs.volume, rel=1e-6)


@pytest.mark.parametrize("damage", [
    lambda v, f: (v, f), lambda v, f: (v, f[1:]), lambda v, f: (v, f[:, ::-1]),
    lambda v, f: (v, np.concatenate([f[:3, ::-1], f[3:]])), lambda v, f: (v, np.concatenate([f, f[:2]])),
    lambda v, f: (np.concatenate([v, v + 60.0]), np.concatenate([f, f + len(v)])),
    lambda v, f: (np.concatenate([v, v[:40]]), np.where(f < 40, f + len(v), f)),  # vertices doubled: merged again
])
def test_the_check_of_an_indexed_mesh_is_the_check_of_its_triangles(damage):
    vertices, faces = damage(*build_piece(CATALOGUE.get("knight")).mesh())
    assert check_mesh(vertices, faces) == check_triangles(triangles_of(vertices, faces))


def test_points_whose_sort_keys_collide_are_merged_exactly(monkeypatch):
    """With no mixing every point's key is its z: the merge must notice and sort on the coordinates."""
    triangles = _triangles()
    expected = check_triangles(triangles)
    monkeypatch.setattr(mesh_check, "KEY_MIX", 0)
    assert check_triangles(triangles) == expected and expected.bodies == 1 and expected.open_edges == 0


def test_plates_keep_pieces_on_the_bed_and_apart():
    items = [(f"p{i}", "X", 38.0 if i % 3 else 24.0) for i in range(40)]
    plates = plan_plates(items, (220.0, 180.0), 6.0)
    placed = [p for plate in plates for p in plate.placements]
    assert len(placed) == 40 and len(plates) >= 2
    for plate in plates:
        spots = plate.placements
        for p in spots:
            assert p.diameter_mm / 2 <= p.x_mm <= 220 - p.diameter_mm / 2
            assert p.diameter_mm / 2 <= p.y_mm <= 180 - p.diameter_mm / 2
        for i, a in enumerate(spots):
            for b in spots[i + 1:]:
                gap = np.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm) - (a.diameter_mm + b.diameter_mm) / 2
                assert gap >= 6.0 - 1e-9


def test_bad_beds_are_refused():
    assert parse_bed("250x210") == (250.0, 210.0)
    for text in ("220", "20x20", "axb"):
        with pytest.raises(PlateError, match="WIDTHxDEPTH"):
            parse_bed(text)
    with pytest.raises(PlateError, match="does not fit"):
        plan_plates([("king", "K", 38.0)], (45.0, 45.0))


def test_plate_files_hold_one_body_per_piece_and_a_listing(tmp_path):
    pieces = [CATALOGUE.get(i) for i in ("king", "knight", "standard-pawn")]
    paths = write_plates(pieces, tmp_path, ModelOptions(40.0), (120.0, 120.0), 5.0, copies=2)
    stls = [p for p in paths if p.suffix == ".stl"]
    listing = paths[-1].read_text()
    bodies = sum(check_triangles(np.asarray(trimesh.load(p, file_type="stl").triangles, np.float32)).bodies
                 for p in stls)
    assert bodies == 6
    assert listing.count("king ") == 2 and listing.count("standard-pawn") == 2
    assert all(p.name in listing for p in stls)


def test_pictures_are_rgba_with_a_transparent_background_and_two_colours():
    white = render_piece(CATALOGUE.get("knight"), 120, "white")
    black = render_piece(CATALOGUE.get("knight"), 120, "black")
    assert white.shape[1] == 120 and white.shape[2] == 4 and white.dtype == np.uint8
    assert white[0, 0, 3] == 0 and white[white.shape[0] // 2, 60, 3] == 255
    assert white[..., :3][white[..., 3] == 255].mean() > 2 * black[..., :3][black[..., 3] == 255].mean()


def test_render_cache_reuses_pictures_and_follows_the_definition(tmp_path, monkeypatch):
    calls = []
    real = render_cache.render_piece

    def counting(*args, **kwargs):
        calls.append(args[0].id)
        return real(*args, **kwargs)

    monkeypatch.setattr(render_cache, "render_piece", counting)
    knight = CATALOGUE.get("knight")
    first = render_cache.cached_render_png(knight, tmp_path, 80)
    second = render_cache.cached_render_png(knight, tmp_path, 80)
    assert calls == ["knight"] and first.size == second.size and first.mode == "RGBA"
    changed = CATALOGUE.get("nightrider")
    assert render_cache.render_key(knight, 80, "white", 50.0) != render_cache.render_key(changed, 80, "white", 50.0)


def test_commands_write_stls_plates_and_pictures(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["pieces", "--piece", "king", "--piece", "rook", "--square-mm", "40",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "pieces-40mm").iterdir()) == ["king.stl", "rook.stl"]
    result = runner.invoke(cli, ["plate", "--game", "chess", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    listing = (tmp_path / "plates-50mm" / "plates.txt").read_text()
    assert all(name in listing for name in ("king", "queen", "rook", "bishop", "knight", "standard-pawn"))
    picture = tmp_path / "rook.png"
    result = runner.invoke(cli, ["render", "rook", "--out", str(picture), "--width", "90", "--colour", "both"])
    assert result.exit_code == 0, result.output
    assert Image.open(picture).size[0] == 180


def test_commands_report_bad_input_in_one_line(tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, ["pieces", "--piece", "antelope", "--square-mm", "25", "--out", str(tmp_path)])
    assert result.exit_code == 1 and "error: piece 'antelope'" in result.output and "--square-mm" in result.output
    result = runner.invoke(cli, ["render", "kingg"])
    assert result.exit_code == 1 and "did you mean" in result.output
    result = runner.invoke(cli, ["plate", "--piece", "king", "--bed", "30x30", "--out", str(tmp_path)])
    assert result.exit_code == 1 and "WIDTHxDEPTH" in result.output


@shares_every_built_piece
def test_deal_plates_hold_every_piece_each_side_needs_in_its_colour(tmp_path):
    runner = CliRunner()
    deal = tmp_path / "deal.json"
    result = runner.invoke(cli, ["deal", "--seed", "7", "--save", str(deal)])
    assert result.exit_code == 0, result.output
    result = runner.invoke(cli, ["plate", "--deal", str(deal), "--square-mm", "40", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    import json

    data = json.loads(deal.read_text())
    for side in ("white", "black"):
        army = data[side]
        needed = len(army["back_rank"]) + len(army["pawns"]) + len(army["hand"]) + len(army["dopplegangers"])
        listing = (tmp_path / "plates-40mm" / "deal" / side / "plates.txt").read_text()
        assert f"Print these plates in {side}" in listing
        assert sum(int(line.split(": ")[1].split()[0])
                   for line in listing.splitlines() if line.startswith("plate-")) == needed
    result = runner.invoke(cli, ["plate", "--deal", str(deal), "--piece", "king", "--out", str(tmp_path)])
    assert result.exit_code == 1 and "--deal and --army choose the pieces themselves" in result.output


def test_army_plates_hold_a_games_starting_armies(tmp_path):
    result = CliRunner().invoke(cli, ["plate", "--army", "chess", "--square-mm", "40", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for side in ("white", "black"):
        listing = (tmp_path / "plates-40mm" / "army-chess" / side / "plates.txt").read_text()
        rows = [line.split()[0] for line in listing.splitlines() if line.startswith("  ")]
        assert len(rows) == 16 and rows.count("standard-pawn") == 8 and rows.count("rook") == 2
        assert rows.count("king") == 1 and rows.count("queen") == 1


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.floats(20.0, 60.0), min_size=1, max_size=60),
    st.tuples(st.floats(80.0, 300.0), st.floats(80.0, 300.0)), st.floats(1.0, 10.0),
)
def test_any_packing_keeps_every_piece_on_its_bed_clear_of_the_edges_and_apart(diameters, bed, spacing):
    items = [(f"p{i}", "X", d) for i, d in enumerate(diameters)]
    plates = plan_plates(items, bed, spacing)
    assert sorted(p.piece_id for plate in plates for p in plate.placements) == sorted(i[0] for i in items)
    for plate in plates:
        spots = plate.placements
        for p in spots:
            r = p.diameter_mm / 2 + EDGE_MM  # 10 mm clear of every edge (places are kept to a micron)
            assert r - 1e-3 <= p.x_mm <= bed[0] - r + 1e-3 and r - 1e-3 <= p.y_mm <= bed[1] - r + 1e-3
        for i, a in enumerate(spots):
            for b in spots[i + 1:]:
                apart = np.hypot(a.x_mm - b.x_mm, a.y_mm - b.y_mm)
                assert apart >= (a.diameter_mm + b.diameter_mm) / 2 + spacing - 1e-3  # to a micron


def test_a_piece_wider_than_the_bed_less_its_edges_is_one_line():
    with pytest.raises(PlateError, match="does not fit a 70x70 mm bed with 10 mm clear"):
        plan_plates([("p0", "X", 51.0)], (70.0, 70.0), 2.0)


def test_the_code_font_has_every_capital_inside_its_box():
    from dealers_chess.pieces.model3d.font import GLYPHS, text_section, text_width_mm

    assert sorted(GLYPHS) == [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    for letter in GLYPHS:
        section = text_section(letter, 5.0, 0.9, mirrored=False)
        x0, y0, x1, y1 = section.bounds()
        assert section.area() > 2.0, letter
        assert -2.5 - 1e-6 <= y0 and y1 <= 2.5 + 1e-6, letter
        assert x1 - x0 <= text_width_mm(letter, 5.0, 0.9) + 1e-6, letter
    plain, mirrored = text_section("RX", 5.0, 0.9, mirrored=False), text_section("RX", 5.0, 0.9)
    assert (mirrored - plain.mirror((1.0, 0.0))).area() == pytest.approx(0.0, abs=1e-6)  # x mirrored
    assert (mirrored - plain).area() > 5.0  # and so no longer the plain text


def test_prerender_fills_the_cache_on_every_core_and_then_renders_nothing(tmp_path, monkeypatch):
    from dealers_chess.printing.pictures import PICTURE_PX, prerender

    pieces = [CATALOGUE.get(piece_id) for piece_id in ("wazir", "ferz", "knight")]
    steps: list[int] = []
    prerender(pieces, tmp_path, steps.append)  # two worker processes on a 2-core machine
    cache = render_cache.default_cache_dir(tmp_path)
    paths = [render_cache.existing_render_path(piece, cache, width_px=PICTURE_PX) for piece in pieces]
    assert all(path is not None and Image.open(path).mode == "RGBA" for path in paths) and sum(steps) == 3
    monkeypatch.setattr(render_cache, "render_piece", lambda *args: pytest.fail("rendered again"))
    steps.clear()
    prerender(pieces, tmp_path, steps.append)
    assert steps == [3]  # all cached: one step of three, nothing rendered
