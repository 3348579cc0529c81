"""A move as a small immutable value: from, to, kind, promotion and the square a rule touches."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple


class Kind(IntEnum):
    """What a move does beyond taking what stands on its destination."""

    NORMAL = 0  # a move or a capture on the destination
    EN_PASSANT = 1  # extra = the square of the piece taken
    CASTLE = 2  # extra = the partner's square; the partner goes to the square `castle_partner_to` says
    PUSH = 3  # a Linebacker's push: extra = where the pushed enemy lands
    BATTLE = 4  # Spinal Tap's battle move: `steps` holds the pawn and crab moves, made together


class Move(NamedTuple):
    """One move. A NamedTuple (a frozen value) because perft creates millions of them."""

    frm: int
    to: int
    kind: int = Kind.NORMAL
    promotion: str | None = None  # piece id the mover becomes
    extra: int = -1  # en-passant victim, castling partner or push landing square
    partner_to: int = -1  # castling: where the partner lands
    steps: tuple = ()  # battle move: the single moves (Move values) it is made of



FRM, TO, KIND, PROMOTION, EXTRA, PARTNER_TO, STEPS = range(7)  # Move's fields by index, for the hottest loops
PLAIN_TAIL = (Kind.NORMAL, None, -1, -1, ())  # Move's fields after frm and to, for an ordinary move
