"""A session as a PGN game record and back: moves, start FEN (hands, shared extras, draw stack, deck seed),
deal tags, clock, a standing draw offer and the result with its reason (`Termination`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from dealers_chess.engine.errors import RecordError
from dealers_chess.engine.notation import parse_fen
from dealers_chess.engine.position import SIDE_NAMES
from dealers_chess.engine.record import GameRecord, record_of
from dealers_chess.engine.rules import Outcome, Result, outcome
from dealers_chess.engine.session.clock import Clock, TimeControl, format_hms, parse_hms
from dealers_chess.engine.session.session import Session
from dealers_chess.pieces.errors import DealerError

# Tags the session writes from its state; everything else in a record is kept as it was.
STATE_TAGS = ("Result", "Termination", "TimeControl", "WhiteClock", "BlackClock", "DrawOffer", "Checksum")
CLOCK_TAGS = ("WhiteClock", "BlackClock")


def session_record(session: Session) -> GameRecord:
    """The session as a record (cheap: the SAN of each move was written when it was played)."""
    start = parse_fen(session.start_fen, session.position.game, session.position.catalogue)
    tags = dict(session.tags)
    result = "*" if session.result is None else session.result.result.value
    if session.result is not None:
        tags["Termination"] = session.result.reason
    if session.clock is not None:
        tags["TimeControl"] = session.clock.control.tag()
        for side, name in enumerate(CLOCK_TAGS):
            tags[name] = format_hms(session.clock.left(side))
    if session.draw_offer is not None:
        tags["DrawOffer"] = SIDE_NAMES[session.draw_offer]
    base = record_of(start, tags, result)
    return GameRecord(base.tags, tuple(session.sans), session.position)


def session_from_record(
    record: GameRecord, now: Callable[[], float] = time.monotonic, source: str = "record",
) -> Session:
    """Continue the game a record holds, exactly where it stopped; raise RecordError naming `source`."""
    position, tags = record.position, record.tags
    if position is None:
        raise RecordError(f"{source}: the record holds no replayed position")
    start_fen = tags.get("FEN", position.game.start)
    session = Session(position, start_fen, list(record.moves), {k: v for k, v in tags.items() if k not in STATE_TAGS})
    try:
        session.clock = _clock(tags, now)
        session.result = _result(session, tags)
        session.draw_offer = _side(tags.get("DrawOffer"), source)
    except DealerError as error:
        raise RecordError(f"{source}: {error}") from None
    return session  # the clock stays paused until the interface starts it (Session.start_clock) or a move is made


def _clock(tags: dict[str, str], now: Callable[[], float]) -> Clock | None:
    if "TimeControl" not in tags:
        return None
    control = TimeControl.from_tag(tags["TimeControl"])
    white, black = (parse_hms(tags[name]) if name in tags else control.base_s for name in CLOCK_TAGS)
    return Clock(control, now, (white, black))


def _result(session: Session, tags: dict[str, str]) -> Outcome | None:
    on_board = outcome(session.position)
    value = tags.get("Result", "*")
    if value == "*":
        return on_board
    try:
        result = Result(value)
    except ValueError:
        raise RecordError(f"Result {value!r}; allowed: {', '.join(r.value for r in Result)}, *") from None
    if on_board is not None and on_board.result is result:
        return on_board
    return Outcome(result, tags.get("Termination", "unknown"))


def _side(value: str | None, source: str) -> int | None:
    if value is None:
        return None
    if value not in SIDE_NAMES:
        raise RecordError(f"{source}: DrawOffer {value!r}; allowed: {', '.join(SIDE_NAMES)}")
    return SIDE_NAMES.index(value)
