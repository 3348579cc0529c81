"""Perft: count the leaves of the legal-move tree (bulk-counting the last ply), and divide."""

from __future__ import annotations

from engine.position import Position
from engine.rules import legal_moves


def perft(pos: Position, depth: int) -> int:
    """The number of legal move sequences of `depth` plies from the position."""
    if depth <= 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    total = 0
    push, pop = pos.push, pos.pop
    for m in moves:
        push(m)
        total += perft(pos, depth - 1)
        pop()
    return total


def divide(pos: Position, depth: int) -> list[tuple[str, int]]:
    """Per legal move (coordinate form), the perft count of `depth - 1` below it."""
    from engine.notation import format_move

    rows = []
    for m in legal_moves(pos):
        text = format_move(pos, m)
        pos.push(m)
        rows.append((text, perft(pos, depth - 1)))
        pos.pop()
    return rows
