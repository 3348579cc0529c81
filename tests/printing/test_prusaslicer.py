"""A real slicer on the pieces as `dealer pieces` writes them: PrusaSlicer slices one piece of each group
at 50 mm squares without supports or warnings, and its filament estimate backs the weights HOW-TO states."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from pieces.catalogue import load_catalogue
from pieces.model3d.model import ModelOptions, build_piece
from printing.solids.fdm import load_fdm_settings
from printing.solids.piece_files import write_piece_stls
from printing.solids.weight import piece_weight

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
    assert all(0 < b - a <= 0.35 + 1e-6 for a, b in zip(layers, layers[1:]))  # no empty layer skipped


@pytest.mark.slow
@pytest.mark.parametrize("piece_id", ONE_OF_EACH_GROUP)
def test_the_weight_estimate_is_within_10_percent_of_prusaslicers_own_at_the_same_settings(tmp_path, piece_id):
    s = load_fdm_settings()
    gcode, _ = _slice(
        tmp_path, piece_id, "--layer-height", str(s.layer_mm), "--first-layer-height", str(s.layer_mm),
        "--perimeters", str(s.perimeters), "--fill-density", f"{s.infill_percent:g}%", "--top-solid-layers",
        str(s.top_layers), "--bottom-solid-layers", str(s.bottom_layers), "--nozzle-diameter", "0.4",
    )
    sliced_cm3 = float(re.search(r"^; filament used \[cm3\] = ([\d.]+)$", gcode, re.MULTILINE)[1])
    estimate = piece_weight(build_piece(CATALOGUE.get(piece_id)))
    assert estimate.printed_cm3 == pytest.approx(sliced_cm3, rel=0.10)
