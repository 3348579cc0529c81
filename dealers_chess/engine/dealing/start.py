"""The engine position a deal sets up: placement, both hands, the shared extras and any draw stack."""

from __future__ import annotations

from dealers_chess.engine.dealing.deal_file import DealtGame
from dealers_chess.engine.notation import format_fen
from dealers_chess.engine.position import Position
from dealers_chess.engine.setup import start_position
from dealers_chess.pieces.catalogue import Catalogue


def dealt_position(game: DealtGame, catalogue: Catalogue) -> Position:
    """The engine position a deal sets up, with both hands, the shared extras and any draw stack."""
    board = game.deal.procedure.board
    placement = {board.name(square): (card, side) for square, (card, side) in game.squares().items()}
    pawn_rank = len(game.white.rows) + 1
    hands = {side: game.hand(side) for side in ("white", "black")}
    return start_position(
        game.deal.procedure.game,
        placement,
        hands=hands,
        shared=game.deal.shared,
        draw_stack=game.deal.draw_stack if game.big_deck else None,
        deck_seed=game.deal.seed,
        pawn_rank=pawn_rank,
        catalogue=catalogue,
    )


def starting_fen(game: DealtGame, catalogue: Catalogue) -> str:
    """The FEN of the position a deal sets up."""
    return format_fen(dealt_position(game, catalogue))
