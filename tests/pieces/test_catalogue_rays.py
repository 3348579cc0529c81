"""Every catalogue movement compiles to exactly the rays it compiled to before the XBetza bounds.

tests/data/catalogue-rays.json holds a digest of each movement's rays (both colours, every square)
on 8x8, 12x12 and 15x15. After a deliberate change to the kernel or the catalogue, rewrite it with
`.venv/bin/python -m tests.pieces.test_catalogue_rays` and say why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from dealers_chess.engine.board import board_of
from dealers_chess.engine.kernel import compile_movement
from dealers_chess.pieces.catalogue import PieceDef, load_catalogue

GOLDEN = Path(__file__).parents[1] / "data" / "catalogue-rays.json"
SIZES = (8, 12, 15)


def movements(piece: PieceDef):
    """(key, movement) for the piece's moves, rule moves and rank captures."""
    yield "betza", piece.movement
    for rule, movement in piece.rule_moves:
        yield rule.value, movement
    for back, movement in piece.rank_captures:
        yield f"rank-{back}", movement


def digest(movement, size: int) -> str:
    """A short hash of the compiled rays, in order, without the path objects they came from."""
    hashed = hashlib.sha256()
    for black in (False, True):
        for rays in compile_movement(movement, board_of(size, size), black):
            for ray in rays:
                hashed.update(repr(ray._replace(path=None)).encode())
            hashed.update(b"|")
    return hashed.hexdigest()[:16]


def digests() -> dict[str, str]:
    return {
        f"{piece.id} {key} {size}x{size}": digest(movement, size)
        for piece in load_catalogue() for key, movement in movements(piece) for size in SIZES
    }


def test_every_catalogue_movement_compiles_to_the_same_rays():
    expected = json.loads(GOLDEN.read_text())
    found = digests()
    assert found.keys() == expected.keys()
    changed = sorted(key for key in found if found[key] != expected[key])
    assert not changed, f"rays changed for {changed[:5]}"


if __name__ == "__main__" and sys.argv[1:] == []:
    GOLDEN.write_text(json.dumps(digests(), indent=0, sort_keys=True) + "\n")
