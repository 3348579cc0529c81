"""The transposition table: what earlier searches learnt about a position, kept between moves of a game.

A fixed array of two-entry buckets, never emptied when full: a bucket's first entry keeps the
deepest result of the current search (an older search's entry gives way to any new one), its second
takes whatever comes. A position is found by its check number, the 64-bit hash of `table_key`, so
a probe compares one integer; a move read from the table is used only if it is among the moves
generated where it is read (a false match then costs nothing but ordering).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from dealers_chess.engine.position import Position

EXACT, LOWER, UPPER = 0, 1, 2  # the stored score is exact, a lower bound (it failed high) or an upper bound
QUIESCENCE_DEPTH = 0  # the depth a quiescence result is stored with (any main-search probe wants more)


def table_key(pos: Position) -> tuple:
    """The position's identity for the table: the referee's repetition key plus the en-passant state,
    which Position.key() leaves out (an en-passant capture changes the legal moves)."""
    return (pos.keys[-1] if pos.keys else pos.key(), pos.ep, pos.ep_victim)


def table_check(pos: Position) -> int:
    """The number a position is stored under: the hash of its table_key."""
    return hash((pos.keys[-1] if pos.keys else pos.key(), pos.ep, pos.ep_victim))


class TableEntry(NamedTuple):
    """What a search learnt about one position (read by unpacking:
    `check, depth, bound, score, move, generation = entry`)."""

    check: int  # table_check of the position
    depth: int  # plies searched below it (QUIESCENCE_DEPTH for a quiescence result)
    bound: int  # EXACT, LOWER or UPPER
    score: int  # from the side to move, mates as distance from this position (search._to_table)
    move: Any  # the best move found (a Move), or None
    generation: int  # the search that stored it (Searcher.search counts them)


_new_entry = tuple.__new__  # TableEntry from a tuple of its fields, without NamedTuple's keyword handling (hot)


class TranspositionTable:
    """Two-entry buckets in one list: bucket i is slots 2i (deepest of this search) and 2i+1 (newest)."""

    def __init__(self, capacity: int) -> None:
        buckets = 1 << max(9, (max(1024, capacity) // 2).bit_length() - 1)  # a power of two: index by mask
        self.capacity = buckets * 2
        self.mask = buckets - 1
        self.slots: list[TableEntry | None] = [None] * self.capacity
        self.generation = 0

    def new_search(self) -> None:
        """Age what is stored: entries of earlier searches give way to the next search's."""
        self.generation += 1

    def get(self, check: int) -> TableEntry | None:
        slots = self.slots
        index = (check & self.mask) << 1
        entry = slots[index]
        if entry is not None and entry[0] == check:
            return entry
        entry = slots[index + 1]
        if entry is not None and entry[0] == check:
            return entry
        return None

    def put(self, check: int, depth: int, bound: int, score: int, move) -> None:
        slots, generation = self.slots, self.generation
        index = (check & self.mask) << 1
        first = slots[index]
        if first is not None and first[0] == check:
            if move is None:
                move = first[4]  # keep the best move known when this result has none
            if depth >= first[1] or bound == EXACT or first[5] != generation:
                slots[index] = _new_entry(TableEntry, (check, depth, bound, score, move, generation))
            return
        if first is None or first[5] != generation or depth >= first[1]:
            if first is not None:
                slots[index + 1] = first  # the entry it replaces becomes the bucket's newest
            slots[index] = _new_entry(TableEntry, (check, depth, bound, score, move, generation))
            return
        second = slots[index + 1]
        if move is None and second is not None and second[0] == check:
            move = second[4]
        slots[index + 1] = _new_entry(TableEntry, (check, depth, bound, score, move, generation))

    def hashfull(self) -> int:
        """Per mille of the first thousand slots that hold an entry of the current search (UCI `hashfull`)."""
        sample = self.slots[:1000]
        return sum(1 for e in sample if e is not None and e[5] == self.generation) * 1000 // len(sample)

    def clear(self) -> None:
        self.slots = [None] * self.capacity
        self.generation = 0
