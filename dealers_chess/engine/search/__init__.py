"""The computer opponent: iterative deepening search and evaluation over the referee's own moves.

`Searcher` keeps its transposition table between the moves of one game; `choose_move` is the
one-shot form; `pv_san` writes a principal variation in SAN. docs/search.md describes the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealers_chess.engine.move import Kind, Move
from dealers_chess.engine.notation import format_san
from dealers_chess.engine.position import Position
from dealers_chess.engine.rules import battle_moves, legal_moves
from dealers_chess.engine.search.search import Info, Limits, Searcher, SearchResult

__all__ = ["Info", "Limits", "SearchResult", "Searcher", "choose_move", "pv_san"]


def choose_move(pos: Position, limits: Limits) -> SearchResult:
    """The best move within the limits, from a fresh searcher (pos is left as it was)."""
    return Searcher().search(pos, limits)


def pv_san(pos: Position, pv: Sequence[Move]) -> list[str]:
    """The moves of a principal variation in SAN, each in the position it is played in; pos is left unchanged.

    Stops at the first move that is not legal where it stands (a line cut short by the end of the game).
    """
    out: list[str] = []
    played = 0
    try:
        for m in pv:
            legal = legal_moves(pos)
            if m.kind == Kind.BATTLE:  # a battle move: SAN needs it among the legal ones
                legal = legal + list(battle_moves(pos))
            if m not in legal:
                break
            out.append(format_san(pos, m, legal))
            pos.push(m)
            played += 1
    finally:
        for _ in range(played):
            pos.pop()
    return out
