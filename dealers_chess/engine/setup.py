"""Start positions: a game's own, or an explicit placement with hands, shared extras and a draw stack."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dealers_chess.engine.castling import grant_castling_rights
from dealers_chess.engine.errors import GameError
from dealers_chess.engine.game import GameDef, default_catalogue, load_game
from dealers_chess.engine.notation import parse_fen, piece_letters, placement_field
from dealers_chess.engine.position import DeckState, Position
from dealers_chess.pieces.catalogue import Catalogue


def start_position(
    game: GameDef | str,
    placement: Mapping[str, tuple[str, str]] | None = None,
    hands: Mapping[str, Sequence[str]] | None = None,
    shared: Sequence[str] = (),
    draw_stack: Sequence[str] | None = None,
    deck_seed: int = 0,
    pawn_rank: int | None = None,
    catalogue: Catalogue | None = None,
) -> Position:
    """A start position: the game's own, or an explicit placement {'e1': ('king', 'white'), ...} and hands.

    This is what the dealing code calls: every castling right with an unmoved corner piece (or
    partner) is granted, hands hold piece ids per side ('white'/'black'), `shared` names the two
    shared extras (already in both hands), `draw_stack` (top card first) turns on the big-deck
    option, and `pawn_rank` (1-based, White's view) says where the pawns start if not the game's.
    """
    game = load_game(game) if isinstance(game, str) else game
    catalogue = catalogue or default_catalogue()
    if placement is None:
        return parse_fen(game.start, game, catalogue)
    fields = [_placement_fen(game, placement, catalogue) + " w - - 0 1"]
    if pawn_rank is not None and pawn_rank - 1 != game.pawn_rank:
        fields.append(f"pawnrank={pawn_rank}")
    position = parse_fen(" ".join(fields), game, catalogue)
    grant_castling_rights(position)
    for side, name in enumerate(("white", "black")):
        position.hands[side] = tuple(sorted((hands or {}).get(name, ()), key=lambda i: catalogue.get(i).code))
    position.shared = tuple(sorted(shared, key=lambda i: catalogue.get(i).code))
    if draw_stack is not None:
        position.deck = DeckState(tuple(draw_stack), (), deck_seed, 0)
    position.reset_history()  # the hash now covers the rights, hands and deck set above
    return position


def _placement_fen(game: GameDef, placement: Mapping[str, tuple[str, str]], catalogue: Catalogue) -> str:
    grid: dict[int, str] = {}
    for name, (piece_id, side) in placement.items():
        if side not in ("white", "black"):
            raise GameError(f"square {name}: side {side!r} is not allowed; allowed: white, black")
        grid[game.board.parse_square(name)] = piece_letters(catalogue.get(piece_id).code, side == "black")
    return placement_field(game.board, grid.get)
