"""The transposition table: what earlier searches learnt about a position, kept between moves of a game."""

from __future__ import annotations

from dealers_chess.engine.position import Position

EXACT, LOWER, UPPER = 0, 1, 2  # the stored score is exact, a lower bound (it failed high) or an upper bound


def table_key(pos: Position) -> tuple:
    """The position's identity for the table: the referee's repetition key plus the en-passant state,
    which Position.key() leaves out (an en-passant capture changes the legal moves)."""
    return (pos.keys[-1] if pos.keys else pos.key(), pos.ep, pos.ep_victim)


class TranspositionTable:
    """A dict from table_key to (depth, bound, score, move); emptied when full (a new game clears it too)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = max(1024, capacity)
        self.entries: dict[tuple, tuple] = {}

    def get(self, key: tuple) -> tuple | None:
        return self.entries.get(key)

    def put(self, key: tuple, depth: int, bound: int, score: int, move) -> None:
        entries = self.entries
        old = entries.get(key)
        if old is not None and old[0] > depth and bound != EXACT:
            return  # keep the deeper result
        if old is None and len(entries) >= self.capacity:
            entries.clear()
        entries[key] = (depth, bound, score, move)

    def clear(self) -> None:
        self.entries.clear()
