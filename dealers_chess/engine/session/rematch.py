"""A rematch at the board: the same start (the same deal), the players' colours swapped.

With two seats one side offers (`rematch`) once the game is over, and the other accepts (`rematch`
too) or declines (`decline rematch`); the table's own page, and a game against the computer, play
again at once. The new game keeps the time control and the computer's strength; its record names
the players the other way round and counts the round.
"""

from __future__ import annotations

import time
from dataclasses import replace

from dealers_chess.engine.position import SIDE_NAMES
from dealers_chess.engine.session.events import Event, EventKind, side_name
from dealers_chess.engine.session.session import PLAYER_TAGS, Report, Session, SessionError

KEPT_TAGS = ("Event", "Site", "DealSeed", "DealBoard")  # what a rematch's record keeps of the first game's


def offer_rematch(session: Session, side: int) -> bool:
    """`side` asks for a rematch: True when the other side's offer stood (play again now), else the offer stands."""
    require_over(session)
    if session.rematch_offer == 1 - side:
        return True
    if session.rematch_offer == side:
        raise SessionError(f"{side_name(side)} has already offered a rematch: {side_name(1 - side)} answers it")
    session.rematch_offer = side
    return False


def offer_words(side: int) -> Report:
    return Report((Event(EventKind.REMATCH, f"{side_name(side)} offers a rematch with colours swapped: "
                         f"{side_name(1 - side)} may accept or decline"),))


def decline_rematch(session: Session, side: int) -> Report:
    """The other side declines the standing rematch offer."""
    if session.rematch_offer is None or session.rematch_offer == side:
        raise SessionError("no rematch has been offered" if session.rematch_offer is None else
                           f"{side_name(side)} offered this rematch: the other side answers it")
    session.rematch_offer = None
    return Report((Event(EventKind.REMATCH, f"{side_name(side)} declines the rematch"),))


def rematch_session(session: Session, round_number: int) -> Session:
    """A new game from the same start, the players' names (and the computer's side) swapped."""
    require_over(session)
    pos = session.position
    tags = {name: session.tags[name] for name in KEPT_TAGS if name in session.tags}
    for side, tag in enumerate(PLAYER_TAGS):
        if session.computer is None or session.computer.side != side:
            tags[PLAYER_TAGS[1 - side]] = session.tags.get(tag, "?")
    tags["Round"] = str(round_number)
    clock = session.clock
    control, now = (None, time.monotonic) if clock is None else (clock.control, clock.now)
    again = Session.new(pos.game, session.start_fen, pos.catalogue, control, now, tags)
    if session.computer is not None:
        again.set_computer(replace(session.computer, side=1 - session.computer.side))
    return again


def rematch_words(session: Session) -> Report:
    names = [session.player_name(side) or SIDE_NAMES[side].capitalize() for side in (0, 1)]
    return Report((Event(EventKind.REMATCH, f"rematch, colours swapped: {names[0]} plays White, {names[1]} Black"),))


def require_over(session: Session) -> None:
    """Refuse a rematch while the game goes on."""
    if session.result is None:
        raise SessionError("a rematch is for a game that is over: finish this one first (resign, or offer a draw)")
