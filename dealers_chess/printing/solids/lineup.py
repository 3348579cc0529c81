"""`dealer render --lineup`: an army standing in a row, seen from the side, as a PNG on a plain backdrop.

The pieces of a game's or a deal's army stand tallest group first (royal, pieces, spears, pawns),
each group strongest first; pieces named one by one keep the order given. Every row is drawn at
one scale, so heights compare across rows too.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from PIL import Image

from dealers_chess.engine.dealing.deal_file import read_deal_file
from dealers_chess.engine.measure.values import piece_value
from dealers_chess.pieces.catalogue import Catalogue, Group, PieceDef
from dealers_chess.pieces.errors import DealerError
from dealers_chess.pieces.model3d.render import render_lineup
from dealers_chess.printing.files import write_atomic
from dealers_chess.printing.solids.plates import army_pieces

GROUP_ORDER = {Group.ROYAL: 0, Group.PIECE: 1, Group.SPEAR: 2, Group.PAWN: 3}
BACKDROP = {"white": (104, 114, 130), "black": (178, 186, 196)}  # mid blue-grey behind white pieces, light behind black
MARGIN = 0.06  # of the picture's height, around every row
MAX_PIECES = 64
LINEUP_SQUARE_PX = 250  # default scale: pixels per board square
SIDES = ("white", "black")


class LineupError(DealerError):
    """A line-up that cannot be drawn as asked."""


def lineup_order(pieces: Sequence[PieceDef]) -> list[PieceDef]:
    """Each piece once: tallest group first, then by value (strongest first) and name."""
    unique = list({piece.id: piece for piece in pieces}.values())
    return sorted(unique, key=lambda p: (GROUP_ORDER[p.group], -piece_value(p), p.name))


def army_lineups(
    catalogue: Catalogue, game: str | None = None, deal_file: str | Path | None = None,
) -> dict[str, list[PieceDef]]:
    """Each side's pieces in line-up order: a game's starting army, or the pieces a saved deal sets on the board."""
    if deal_file:
        armies = deal_board_pieces(deal_file, catalogue)
    elif game is not None:
        armies = army_pieces(game, catalogue)
    else:
        raise LineupError("a line-up of armies needs a game or a saved deal")
    return {side: lineup_order(armies[side]) for side in SIDES}


def deal_board_pieces(path: str | Path, catalogue: Catalogue) -> dict[str, list[PieceDef]]:
    """The pieces each side of a saved deal starts with on the board: its rows, royal and pawns (not its hand)."""
    data = read_deal_file(path)
    armies = {}
    for side in SIDES:
        army = data.side(side)
        rows = army.back_ranks or (army.back_rank,)
        ids = [army.royal, *(piece_id for row in rows for piece_id in row), *army.extra_row, *army.pawns]
        armies[side] = [catalogue.get(piece_id) for piece_id in ids]
    return armies


def lineup_image(rows: Sequence[tuple[str, Sequence[PieceDef]]], px_per_mm: float, square_mm: float) -> Image.Image:
    """One row per (colour, pieces), stacked, on the colour's backdrop, at one scale."""
    for _, pieces in rows:
        if not pieces:
            raise LineupError("a line-up needs at least one piece")
        if len(pieces) > MAX_PIECES:
            raise LineupError(
                f"a line-up of {len(pieces)} pieces is too long; draw at most {MAX_PIECES} in one picture"
            )
    pictures = [(colour, Image.fromarray(render_lineup(pieces, px_per_mm, colour, square_mm)))
                for colour, pieces in rows]
    pad = max(4, round(MARGIN * max(p.height for _, p in pictures)))
    width = max(p.width for _, p in pictures) + 2 * pad
    sheet = Image.new("RGBA", (width, sum(p.height + 2 * pad for _, p in pictures)))
    y = 0
    for colour, picture in pictures:
        band = Image.new("RGBA", (width, picture.height + 2 * pad), BACKDROP[colour] + (255,))
        band.alpha_composite(picture, ((width - picture.width) // 2, pad))
        sheet.alpha_composite(band, (0, y))
        y += band.height
    return sheet.convert("RGB")


def write_lineup_png(
    rows: Sequence[tuple[str, Sequence[PieceDef]]], path: str | Path, px_per_mm: float, square_mm: float,
) -> Path:
    """Write the line-up picture as a PNG."""
    buffer = io.BytesIO()
    lineup_image(rows, px_per_mm, square_mm).save(buffer, format="PNG", optimize=True)
    return write_atomic(path, buffer.getvalue())
