"""A real slicer on the pieces as `dealer pieces` writes them: PrusaSlicer slices one piece of each group
at 50 mm squares without supports or warnings, and its filament estimate backs the weights HOW-TO states."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.model3d.model import ModelOptions, build_piece
from dealers_chess.printing.solids.colour_swap import piece_colour_changes
from dealers_chess.printing.solids.fdm import load_fdm_settings
from dealers_chess.printing.solids.piece_files import write_piece_stls
from dealers_chess.printing.solids.weight import piece_weight

pytestmark = pytest.mark.skipif(
    shutil.which("prusa-slicer") is None, reason="PrusaSlicer is not installed (apt-get install prusa-slicer)")

CATALOGUE = load_catalogue()
ONE_OF_EACH_GROUP = ["king", "knight", "standard-pawn"]  # royal, piece, pawn
TROUBLE = re.compile(r"support|overhang|thin wall|empty layer|detached|floating|not manifold|error", re.IGNORECASE)


def _slice(tmp_path, piece_id: str, *settings: str) -> tuple[str, str]:
    """The G-code PrusaSlicer writes for the piece's STL, and everything it printed at warning level or above."""
    (stl,) = write_piece_stls([CATALOGUE.get(piece_id)], tmp_path, ModelOptions(50.0))
    gcode = tmp_path / f"{piece_id}.gcode"
    run = subprocess.run(
        ["prusa-slicer", "--loglevel", "2", *settings, "--export-gcode", "--output", str(gcode), str(stl)],
        capture_output=True, text=True, timeout=300,
    )
    log = run.stdout + run.stderr
    assert run.returncode == 0, log
    return gcode.read_text(), log


@pytest.mark.slow  # 5-6 s a piece on a shared 2-core machine: 17 s for the three
@pytest.mark.parametrize("piece_id", ONE_OF_EACH_GROUP)
def test_prusaslicer_slices_one_piece_of_each_group_without_supports_or_warnings(tmp_path, piece_id):
    gcode, log = _slice(tmp_path, piece_id)  # PrusaSlicer's default profile: supports off
    assert not [line for line in log.splitlines() if TROUBLE.search(line)], log
    assert "; support_material = 0" in gcode
    assert ";TYPE:Support material" not in gcode and ";TYPE:Support material interface" not in gcode
    layers = [float(z) for z in re.findall(r"^;Z:([\d.]+)$", gcode, re.MULTILINE)]
    height = build_piece(CATALOGUE.get(piece_id)).solid.bounding_box()[5]
    assert layers and max(layers) == pytest.approx(height, abs=0.35)  # sliced to the top, no layer lost
    assert all(0 < b - a <= 0.35 + 1e-6 for a, b in zip(layers, layers[1:], strict=False))  # no empty layer skipped


@pytest.fixture(scope="module")
def sliced_at_fdm_settings(tmp_path_factory):
    """G-code of each piece sliced at the settings of assets/printer/fdm.toml (sliced once, on first use)."""
    s, done = load_fdm_settings(), {}

    def sliced(piece_id: str) -> str:
        if piece_id not in done:
            done[piece_id] = _slice(
                tmp_path_factory.mktemp(piece_id), piece_id, "--layer-height", str(s.layer_mm), "--first-layer-height",
                str(s.layer_mm), "--perimeters", str(s.perimeters), "--fill-density", f"{s.infill_percent:g}%",
                "--top-solid-layers", str(s.top_layers), "--bottom-solid-layers", str(s.bottom_layers),
                "--nozzle-diameter", "0.4",
            )[0]
        return done[piece_id]

    return sliced


@pytest.mark.slow
@pytest.mark.parametrize("piece_id", ONE_OF_EACH_GROUP)
def test_the_weight_estimate_is_within_10_percent_of_prusaslicers_own_at_the_same_settings(sliced_at_fdm_settings,
                                                                                           piece_id):
    gcode = sliced_at_fdm_settings(piece_id)
    sliced_cm3 = float(re.search(r"^; filament used \[cm3\] = ([\d.]+)$", gcode, re.MULTILINE)[1])
    estimate = piece_weight(build_piece(CATALOGUE.get(piece_id)))
    assert estimate.printed_cm3 == pytest.approx(sliced_cm3, rel=0.10)


@pytest.mark.slow
@pytest.mark.parametrize("piece_id", ONE_OF_EACH_GROUP)
def test_the_colour_changes_are_where_prusaslicer_stops_printing_the_top_face_and_the_relief(sliced_at_fdm_settings,
                                                                                           piece_id):
    changes = piece_colour_changes(build_piece(CATALOGUE.get(piece_id)))
    extruded = _extruded_by_layer(sliced_at_fdm_settings(piece_id))
    swap = changes[0]
    assert swap.z_mm in extruded
    top_face, first_coloured = extruded[round(swap.z_mm - swap.layer_mm, 2)], extruded[swap.z_mm]
    assert first_coloured < 0.5 * top_face  # from the swap on only the diagram (and a crown) is printed
    above = [e for z, e in extruded.items() if z > swap.z_mm]
    assert sum(above) + first_coloured < top_face * (len(above) + 1)  # and nothing as big again
    assert len(changes) == (2 if piece_id == "knight" else 1)  # the horse head prints in the body's colour
    for back in changes[1:]:  # the change back comes where the relief ends: less to print than its last layer
        last_relief, first_back = extruded[round(back.z_mm - back.layer_mm, 2)], extruded[back.z_mm]
        assert first_back < 0.9 * last_relief, (last_relief, first_back)


def _extruded_by_layer(gcode: str) -> dict[float, float]:
    """Filament (mm) extruded in each layer, by the layer's height."""
    per_layer: dict[float, float] = {}
    z, e, high = None, 0.0, 0.0  # E now, and the furthest E reached: a retraction and its undoing add nothing
    for line in gcode.splitlines():
        if line.startswith(";Z:"):
            z = round(float(line[3:]), 2)
        elif line.startswith("G92") and " E" in line:  # a reset keeps the retraction still to be undone
            reset = float(re.search(r" E(-?[\d.]+)", line)[1])
            e, high = reset, reset + (high - e)
        elif line.startswith("G1") and (move := re.search(r" E(-?[\d.]+)", line)):
            e = float(move[1])
            if z is not None and e > high:
                per_layer[z] = per_layer.get(z, 0.0) + e - high
            high = max(high, e)
    return per_layer
