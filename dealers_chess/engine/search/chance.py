"""The big-deck draw stack is chance: the search never reads its order.

A pawn that promotes from the draw stack (Dealer's big-deck option) gets the best of the three top
cards, which nobody knows before the draw. The search keeps one such move per pawn move and never
plays it (the position after it would show the card): it scores it from the position before, with
the card valued at what a player can expect, the best of three cards drawn at random from the
stack's cards counted as a multiset. Only once the pawn move is chosen at the root are the three
real cards looked at, as the player looks at them after drawing (docs/search.md).

"""

from __future__ import annotations

from functools import lru_cache
from math import comb

from dealers_chess.engine.game import Promotion
from dealers_chess.engine.move import Move
from dealers_chess.engine.position import Position


def draws_from_deck(pos: Position, m: Move) -> bool:
    """Whether the move promotes with a card from the hidden draw stack."""
    if m.promotion is None or pos.deck is None or pos.game.promotion is not Promotion.HAND:
        return False
    t = pos.piece[m.frm]
    return t >= 0 and not pos.types.types[t].piece.promotes_to


def one_per_draw(pos: Position, moves: list[Move]) -> list[Move]:
    """The moves with each drawing pawn move kept once (its first card), so no line depends on the order."""
    if pos.deck is None or not any(m.promotion is not None for m in moves):
        return moves
    seen: set[tuple] = set()
    kept = []
    for m in moves:
        if draws_from_deck(pos, m):
            shape = (m.frm, m.to, m.kind, m.extra)
            if shape in seen:
                continue
            seen.add(shape)
        kept.append(m)
    return kept


def expected_best_of_three(values: tuple[int, ...]) -> int:
    """The expected largest of three values drawn without replacement (all of them when fewer than three)."""
    return _expected(tuple(sorted(values, reverse=True)))


@lru_cache(maxsize=4096)
def _expected(ordered: tuple[int, ...]) -> int:
    n = len(ordered)
    if n == 0:
        return 0
    if n <= 3:
        return ordered[0]
    total = comb(n, 3)
    # the i-th largest is the best of the three when the other two come from the n-1-i below it
    return round(sum(v * comb(n - 1 - i, 2) for i, v in enumerate(ordered)) / total)


def deck_cards(pos: Position) -> tuple[str, ...]:
    """The cards a draw may bring, sorted (their order is the secret)."""
    return tuple(sorted(pos.deck.ready().draw)) if pos.deck is not None else ()
