"""Perft: count the leaves of the legal-move tree (bulk-counting the last ply), and divide."""

from __future__ import annotations

from dealers_chess.engine.position import Position
from dealers_chess.engine.rules import battle_moves, legal_moves


def moves_for_perft(pos: Position, battle: bool = False) -> list:
    """The moves perft counts: the legal moves, and with `battle` Spinal Tap's battle moves too."""
    moves = legal_moves(pos)
    return moves + list(battle_moves(pos)) if battle else moves


def perft(pos: Position, depth: int, battle: bool = False) -> int:
    """The number of legal move sequences of `depth` plies from the position (battle moves with `battle`)."""
    if depth <= 0:
        return 1
    moves = legal_moves(pos) if not battle else moves_for_perft(pos, battle)
    if depth == 1:
        return len(moves)  # the last ply counted in bulk, its moves not made
    total = 0
    push, pop = pos.push, pos.pop
    for m in moves:
        push(m)
        total += perft(pos, depth - 1, battle)
        pop()
    return total


def divide(pos: Position, depth: int, wrap=None, battle: bool = False) -> list[tuple[str, int]]:
    """Per legal move (coordinate form), the perft count of `depth - 1` below it.

    `wrap`, if given, wraps the list of root moves (e.g. in a progress bar) and must yield them.
    """
    from dealers_chess.engine.notation import format_move

    rows = []
    moves = moves_for_perft(pos, battle)
    for m in wrap(moves) if wrap is not None else moves:
        text = format_move(pos, m)
        pos.push(m)
        rows.append((text, perft(pos, depth - 1, battle)))
        pos.pop()
    return rows
