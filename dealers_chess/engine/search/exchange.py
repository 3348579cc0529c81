"""Static exchange evaluation (SEE): what a capture wins once both sides have recaptured on its square.

Generic over the fairy pieces: the attackers of a square are the pieces whose attack table (the
referee's compiled capture lines, engine.kernel.capture_lines) reaches it, and a line counts while
it is open on the board as the exchange leaves it, so a piece behind another (an x-ray, a hopper's
new screen) joins in once the front one has captured. Each side recaptures with its least valuable
attacker and may stop when going on would lose. Rules the exchange does not model (a Hyena's
freeze, the Dazzler's one-turn states, a Zombie converting its captor) make it an estimate, used
only to order and prune moves, never to decide legality.
"""

from __future__ import annotations

from collections.abc import Callable

from dealers_chess.engine.kernel import EMPTY, ray_captures_at
from dealers_chess.engine.move import Kind, Move
from dealers_chess.engine.position import Position

ROYAL_VALUE = 50_000  # a royal recaptures last, and a side never lets its royal be taken


def see(pos: Position, m: Move, value: Callable[[int], int], promoted: int = 0) -> int:
    """The material the side to move wins by the capture `m` and the exchange on its square
    (`value` gives a type index's value, 0 for a royal; `promoted`: what a promotion adds)."""
    occ, piece, types = pos.occ, pos.piece, pos.types.types
    frm, to = m.frm, m.to
    mover_side = occ[frm]
    victim_sq = m.extra if m.kind == Kind.EN_PASSANT else to
    victim = piece[victim_sq]
    first_gain = (value(victim) if victim >= 0 else 0) + promoted
    mover = piece[frm]
    if types[mover].uncapturable:
        return first_gain  # nothing can take it back
    on_square = _worth(types, mover, value) + promoted
    # Every piece that could ever capture on `to` (its line may be closed now and open later), the
    # defenders first: with none, the capture simply wins its victim.
    candidates: tuple[list, list] = ([], [])
    for side in (1 - mover_side, mover_side):
        found = candidates[side]
        for e in pos.squares[side]:
            if e == frm or e == victim_sq:
                continue
            t = piece[e]
            lines = types[t].attacks[side][e].get(to)
            if lines is not None:
                found.append((_worth(types, t, value), e, lines))
        if not found and side != mover_side:
            return first_gain
        found.sort(key=_first)
    removed = [(frm, mover_side)]
    occ[frm] = EMPTY
    if victim_sq != to:
        removed.append((victim_sq, occ[victim_sq]))
        occ[victim_sq] = EMPTY
    gains = [first_gain]
    side = 1 - mover_side
    moved = pos.moved
    try:
        while True:
            attacker = _least_valuable(candidates[side], occ, moved)
            if attacker is None:
                break
            worth, e = attacker
            gains.append(on_square - gains[-1])
            if max(-gains[-2], gains[-1]) < 0:
                break  # neither side can gain by going on
            on_square = worth
            removed.append((e, side))
            occ[e] = EMPTY
            side = 1 - side
    finally:
        for sq, who in reversed(removed):
            occ[sq] = who
    while len(gains) > 1:
        last = gains.pop()
        gains[-1] = -max(-gains[-1], last)
    return gains[0]


def _first(candidate: tuple) -> int:
    return candidate[0]


def _worth(types, t: int, value: Callable[[int], int]) -> int:
    return ROYAL_VALUE if types[t].royal else value(t)


def _least_valuable(candidates: list, occ: list[int], moved: list[bool]) -> tuple[int, int] | None:
    """The cheapest candidate still on the board with a line open to the square, as (worth, square)."""
    for worth, e, lines in candidates:
        if occ[e] == EMPTY:
            continue  # it has captured already
        for before, ray in lines:
            if ray is None:
                for sq in before:
                    if occ[sq] != EMPTY:
                        break
                else:
                    return worth, e
            elif (not ray.initial or not moved[e]) and ray_captures_at(ray, before, occ):
                return worth, e
    return None
