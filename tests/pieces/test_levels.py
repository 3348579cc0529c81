"""The top-face levels file: every power band on exactly one level, low to high, read strictly."""

from __future__ import annotations

import re

import pytest

from dealers_chess.pieces.model3d.levels import Band, LevelError, load_levels, top_face_mm

GOOD = "".join(f'[[level]]\nname = "l{i}"\nsquares = {0.5 + i / 10}\nbands = ["{band.value}"]\n'
               for i, band in enumerate(Band))


def test_the_built_in_levels_give_every_band_one_level_low_to_high():
    levels = load_levels()
    assert [level.squares for level in levels] == sorted(level.squares for level in levels)
    assert sorted(band.value for level in levels for band in level.bands) == sorted(band.value for band in Band)


def test_a_good_file_reads(tmp_path):
    (tmp_path / "levels.toml").write_text(GOOD)
    assert [level.name for level in load_levels(tmp_path / "levels.toml")] == [f"l{i}" for i in range(len(Band))]


def test_a_body_that_needs_more_room_stands_on_the_next_level_up():
    assert top_face_mm(Band.HORSE, 21.0, 50.0) == 27.6  # the Knight
    assert top_face_mm(Band.HORSE, 36.8, 50.0) == 51.6  # a horse whose foot needs more room: the next level up
    assert top_face_mm(Band.ROYAL, 120.0, 50.0) == 120.0  # taller than every level: its own height


@pytest.mark.parametrize("text, says", [
    (GOOD.replace('bands = ["spear"]', "bands = []"), "band 'spear' stands on 0 levels (none); give it exactly one"),
    (GOOD.replace('bands = ["spear"]', 'bands = ["spear", "pawn"]'), "band 'pawn' stands on 2 levels"),
    (GOOD.replace("squares = 0.6", "squares = 0.5"), "list the levels from low to high"),
    (GOOD.replace('bands = ["spear"]', 'bands = ["lance"]'), "lance"),
])
def test_a_bad_levels_file_is_refused_naming_what_to_change(tmp_path, text, says):
    path = tmp_path / "levels.toml"
    path.write_text(text)
    with pytest.raises(LevelError, match=re.escape(says)):
        load_levels(path)
