"""The transposition table: what earlier searches learnt about a position, kept between moves of a game."""

from __future__ import annotations

from typing import Any, NamedTuple

from dealers_chess.engine.position import Position

EXACT, LOWER, UPPER = 0, 1, 2  # the stored score is exact, a lower bound (it failed high) or an upper bound


def table_key(pos: Position) -> tuple:
    """The position's identity for the table: the referee's repetition key plus the en-passant state,
    which Position.key() leaves out (an en-passant capture changes the legal moves)."""
    return (pos.keys[-1] if pos.keys else pos.key(), pos.ep, pos.ep_victim)


class TableEntry(NamedTuple):
    """What a search learnt about one position (read by unpacking: `depth, bound, score, move = entry`)."""

    depth: int  # plies searched below it
    bound: int  # EXACT, LOWER or UPPER
    score: int  # from the side to move, mates as distance from this position (search._to_table)
    move: Any  # the best move found (a Move), or None


class TranspositionTable:
    """A dict from table_key to TableEntry; emptied when full (a new game clears it too)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = max(1024, capacity)
        self.entries: dict[tuple, TableEntry] = {}

    def get(self, key: tuple) -> TableEntry | None:
        return self.entries.get(key)

    def put(self, key: tuple, depth: int, bound: int, score: int, move) -> None:
        entries = self.entries
        old = entries.get(key)
        if old is not None and old.depth > depth and bound != EXACT:
            return  # keep the deeper result
        if old is None and len(entries) >= self.capacity:
            entries.clear()
        entries[key] = TableEntry(depth, bound, score, move)

    def clear(self) -> None:
        self.entries.clear()
