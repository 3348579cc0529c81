"""The computer at the board: which side it plays, how long it thinks, how strong it is, and its move.

A session with a computer (Session.computer) refuses the players' moves on the computer's side and
takes back a pair with undo; the interfaces ask `Session.computer_due` after every line and then
`Session.computer_move`, so a terminal, a script and the web page all play the computer alike.
The web page thinks off the session's lock: `Computer.choose` on a copy made by `replayed`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from dealers_chess.engine.errors import GameError
from dealers_chess.engine.move import Move
from dealers_chess.engine.notation import parse_fen
from dealers_chess.engine.position import SIDE_NAMES, Position
from dealers_chess.engine.search import Limits, Searcher

THINK_SECONDS = 2.0  # the default time per move
CLOCK_SHARE = 1 / 20  # on a clock, never more than this share of the time it has left on one move
LEVELS = range(1, 9)  # 1 for a beginner ... 8, full strength (assets/search/engine.toml says what each is)


@dataclass(slots=True)
class Computer:
    """The computer opponent of one game: its side (0 White, 1 Black), its time per move and level."""

    side: int
    seconds: float = THINK_SECONDS
    level: int | None = None  # None: full strength
    searcher: Searcher = field(default_factory=Searcher)

    @classmethod
    def create(cls, side: str, seconds: float | None = None, level: int | None = None) -> Computer:
        """From the words of --computer white|black, --think SECONDS and --level N;
        GameError naming the bad one."""
        if side not in SIDE_NAMES:
            raise GameError(f"--computer {side!r}; allowed: {', '.join(SIDE_NAMES)}")
        seconds = THINK_SECONDS if seconds is None else seconds
        if not 0.01 <= seconds <= 3600:
            raise GameError(f"--think {seconds:g}: the computer's seconds per move must be from 0.01 to 3600")
        if level is not None and level not in LEVELS:
            raise GameError(
                f"--level {level}; allowed: {LEVELS.start} (a beginner) to {LEVELS.stop - 1} (full strength)"
            )
        return cls(SIDE_NAMES.index(side), seconds, level)

    def limits(self, clock_left: float | None = None) -> Limits:
        """Its --think seconds, or less on a clock: a twentieth of the time it has left (at least 0.05 s)."""
        seconds = self.seconds if clock_left is None else min(self.seconds, max(0.05, clock_left * CLOCK_SHARE))
        return Limits(seconds=seconds, level=self.level)

    @property
    def name(self) -> str:
        """What the record's White or Black tag says."""
        strength = "full strength" if self.level in (None, LEVELS.stop - 1) else f"level {self.level}"
        return f"Computer ({strength}, {self.seconds:g} s a move)"

    def choose(
        self, pos: Position, stop: threading.Event | None = None, clock_left: float | None = None,
    ) -> Move | None:
        """The move it plays in `pos` (left as it was); None when it has no legal move."""
        return self.searcher.search(pos, self.limits(clock_left), stop=stop).move


def replayed(pos: Position, start_fen: str) -> Position:
    """A copy of `pos` made by playing its moves again from `start_fen`: the same position and history."""
    copy = parse_fen(start_fen, pos.game, pos.catalogue)
    for move, _, _ in pos.stack:  # (move, saved state, undo) per move made
        copy.push(move)
    return copy
