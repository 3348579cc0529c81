"""`dealer render --board`: a starting set-up standing on its board, as a player sees it, as a PNG.

The position is a game's start or a saved deal's (its FEN); every piece on the board is its 3D model,
White's in the white palette, Black's in the black one and turned to face White. From White's chair the
camera looks down at the board's centre in perspective; from the top it looks straight down.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from PIL import Image

from dealers_chess.engine.dealing.deal_file import read_deal_file
from dealers_chess.engine.game import load_game
from dealers_chess.engine.notation import parse_fen
from dealers_chess.engine.position import WHITE
from dealers_chess.pieces.catalogue import Catalogue
from dealers_chess.pieces.errors import DealerError
from dealers_chess.pieces.model3d.render import BOARD_VIEWS, BoardView, PieceMesh, Placement, piece_mesh, render_board
from dealers_chess.printing.files import write_atomic
from dealers_chess.printing.parallel import each_on_every_core

BACKDROP = (112, 122, 138)  # a plain blue-grey behind the board
BOARD_WIDTH_PX = 1400
PARALLEL_FROM = 12  # distinct pieces from which they are built one process per core (a few hundredths of a second each)


@dataclass(frozen=True)
class BoardSetup:
    """The pieces of a position on their squares, and the board they stand on."""

    files: int
    ranks: int
    light_a1: bool
    placements: tuple[Placement, ...]


def board_setup(catalogue: Catalogue, game: str | None = None, deal_file: str | Path | None = None) -> BoardSetup:
    """The start position of a game (built-in id or game file), or the one a saved deal sets up."""
    if (game is None) == (deal_file is None):
        raise DealerError("a board takes its set-up from one of --game GAME or --deal FILE")
    if deal_file is not None:
        deal = read_deal_file(deal_file)
        definition = load_game(deal.game)
        position = parse_fen(deal.fen, definition, catalogue)
    else:
        assert game is not None  # one of the two, checked above
        definition = load_game(game)
        position = parse_fen(definition.start, definition, catalogue)
    board = definition.board
    placements = []
    for square in range(board.size):
        standing = position.piece_at(square)
        if standing is not None:
            piece_id, side = standing
            placements.append(Placement(catalogue.get(piece_id), board.file_of(square), board.rank_of(square),
                                        "white" if side == WHITE else "black"))
    return BoardSetup(board.files, board.ranks, definition.light_a1, tuple(placements))


def board_image(setup: BoardSetup, view: BoardView = "chair", width_px: int = BOARD_WIDTH_PX,
                square_mm: float = 50.0) -> Image.Image:
    """The set-up drawn on the backdrop, as an RGB picture width_px wide."""
    if view not in BOARD_VIEWS:
        raise DealerError(f"view {view!r} is not known; use {' or '.join(BOARD_VIEWS)}")
    drawn = Image.fromarray(render_board(setup.placements, setup.files, setup.ranks, square_mm, view, width_px,
                                         setup.light_a1, meshes=piece_meshes(setup, square_mm)))
    picture = Image.new("RGBA", drawn.size, BACKDROP + (255,))
    picture.alpha_composite(drawn)
    return picture.convert("RGB")


def piece_meshes(setup: BoardSetup, square_mm: float = 50.0) -> dict[str, PieceMesh]:
    """Each distinct piece of the set-up built, by id, one process per core when there are many (a dealt
    12x12 has over 50); none when there are few (the renderer builds them)."""
    distinct = list({placed.piece.id: placed.piece for placed in setup.placements}.values())
    if len(distinct) < PARALLEL_FROM:
        return {}
    built = each_on_every_core(partial(piece_mesh, square_mm=square_mm), distinct)
    return {piece.id: mesh for piece, mesh in zip(distinct, built, strict=True)}


def write_board_png(setup: BoardSetup, path: str | Path, view: BoardView = "chair", width_px: int = BOARD_WIDTH_PX,
                    square_mm: float = 50.0) -> Path:
    """Write the set-up's picture as a PNG."""
    buffer = io.BytesIO()
    board_image(setup, view, width_px, square_mm).save(buffer, format="PNG")
    return write_atomic(path, buffer.getvalue())
