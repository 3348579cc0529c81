"""The UCI protocol over the toolkit's search: `dealer uci` for chess GUIs and python-chess.

One line in, zero or more lines out. `UciEngine.handle` reads a line; the search runs in a thread
of its own so that `stop`, `isready` and `quit` are read while it thinks; every answer goes out
through one `write` function (a lock keeps the lines of the two threads whole). A line that
cannot be read is answered with `info string <reason>` and never ends the engine.

Positions are the project's FEN (hands and extras included, docs/notation.md) and moves its
coordinate form, written the UCI way: e7e8q, a10a11ch (promotion code in lower case, no '=').
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from dealers_chess import installed_version
from dealers_chess.engine.game import GameDef, builtin_games, default_catalogue, load_game
from dealers_chess.engine.move import Kind, Move
from dealers_chess.engine.notation import format_move, parse_fen, parse_move
from dealers_chess.engine.position import Position
from dealers_chess.engine.rules import play
from dealers_chess.engine.search import Info, Limits, Searcher, SearchResult
from dealers_chess.pieces.catalogue import Catalogue
from dealers_chess.pieces.errors import DealerError

NAME = "Dealer's Chess toolkit"
AUTHOR = "the Dealer's Chess toolkit authors"
DEFAULT_VARIANT = "chess"
HASH_MB = (16, 1, 1024)  # default, min, max
LEVELS = (1, 8)  # Skill Level: 1 for a beginner ... 8, full strength (the search's levels, assets/search/engine.toml)
MOVES_TO_GO = 30  # moves the remaining time must last when the GUI does not say (movestogo)
INCREMENT_SHARE = 0.75  # of each increment spent on the move
MOST_OF_CLOCK = 0.5  # never more than this share of the remaining time on one move (unless it is the last)
OVERHEAD_S = 0.03  # kept back from every allotment: the answer must reach the GUI before the time is up
HARD_STOP_S = 0.01  # the search is stopped this long before its allotment ends, whatever it is doing
GO_NUMBERS = ("movetime", "depth", "nodes", "wtime", "btime", "winc", "binc", "movestogo")
GO_FLAGS = ("infinite",)


class UciError(DealerError):
    """A line of the UCI protocol that cannot be carried out; answered with `info string`."""


@dataclass(frozen=True, slots=True)
class Go:
    """What a `go` line asks for (times in milliseconds, as UCI writes them)."""

    movetime: int | None = None
    depth: int | None = None
    nodes: int | None = None
    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None
    infinite: bool = False


def parse_go(words: list[str]) -> Go:
    """The `go` command's words after `go`; UciError naming the word that cannot be read."""
    numbers: dict[str, int] = {}
    infinite = False
    index = 0
    while index < len(words):
        word = words[index]
        if word == "infinite":  # the one flag (GO_FLAGS)
            infinite = True
            index += 1
            continue
        if word not in GO_NUMBERS:
            raise UciError(f"go: unknown word {word[:40]!r}; allowed: {', '.join(GO_NUMBERS + GO_FLAGS)}")
        if index + 1 == len(words):
            raise UciError(f"go {word}: a number must follow")
        value = words[index + 1]
        if not value.lstrip("-").isdigit() or not value.isascii() or len(value) > 15:
            raise UciError(f"go {word}: {value[:40]!r} is not a whole number")
        number = int(value)
        if number < 0 and word not in ("wtime", "btime"):  # a clock may be overdrawn; nothing else is negative
            raise UciError(f"go {word}: {number} is negative")
        if word in ("depth", "nodes", "movestogo") and number == 0:
            raise UciError(f"go {word}: must be at least 1")
        numbers[word] = number
        index += 2
    return Go(**numbers, infinite=infinite)


def allotted_seconds(go: Go, side: int) -> float | None:
    """Seconds to think on a move: movetime, or a share of the side's clock; None without a time limit.

    From a clock: the remaining time over the moves to go (30 when not said) plus three quarters
    of the increment, at most half of what is left (all of it on the last move before a time
    control), less a margin for the answer to travel; never more than the time remaining.
    """
    if go.infinite:
        return None
    if go.movetime is not None:
        return max(go.movetime / 1000 - OVERHEAD_S, go.movetime / 2000)
    left_ms, inc_ms = (go.wtime, go.winc) if side == 0 else (go.btime, go.binc)
    if left_ms is None:
        return None
    left, inc = max(left_ms, 0) / 1000, (inc_ms or 0) / 1000
    moves = go.movestogo or MOVES_TO_GO
    share = left / moves + INCREMENT_SHARE * inc
    ceiling = left if moves == 1 else left * MOST_OF_CLOCK
    return max(min(share, ceiling) - OVERHEAD_S, min(0.005, left / 2))


def limits_for(go: Go, side: int, level: int | None) -> Limits:
    """The search's limits for a `go` line: its time (see allotted_seconds), depth and nodes, and the strength."""
    return Limits(seconds=allotted_seconds(go, side), depth=go.depth, nodes=go.nodes, level=level)


def uci_move(pos: Position, m: Move) -> str:
    """A legal move of `pos` the UCI way: e2e4, e7e8q, e1g1; the project's coordinate form with the
    promotion in lower case."""
    return _lower_promotion(format_move(pos, m))


def pv_text(pos: Position, pv: tuple[Move, ...]) -> str:
    """A principal variation in UCI form; moves after the first are written from their squares alone.

    The position is not changed: the search may still be using it when an iteration reports.
    """
    words = [uci_move(pos, pv[0])] if pv else []
    board, catalogue = pos.board, pos.catalogue
    for m in pv[1:]:
        steps = m.steps if m.kind == Kind.BATTLE else (m,)
        words.append("&".join(board.name(s.frm) + board.name(s.to) +
                              ("" if s.promotion is None else catalogue.get(s.promotion).code.lower()) for s in steps))
    return " ".join(words)


def _lower_promotion(text: str) -> str:
    parts = []
    for step in text.split("&"):
        squares, equals, code = step.partition("=")
        if equals:
            code, slash, partner = code.partition("/")
            step = squares + code.lower() + slash + partner
        parts.append(step)
    return "&".join(parts)


def info_line(pos: Position, info: Info) -> str:
    """`info depth D score cp X|mate N nodes N nps N time MS pv ...` for one finished iteration."""
    score = (f"mate {info.mate_in}" if info.mate_in is not None
             else f"cp {info.score_cp if info.score_cp is not None else 0}")
    line = (f"info depth {info.depth} score {score} nodes {info.nodes} nps {info.nps} "
            f"time {round(info.seconds * 1000)}")
    pv = pv_text(pos, info.pv)
    return f"{line} pv {pv}" if pv else line


def read_position(words: list[str], game: GameDef, catalogue: Catalogue) -> Position:
    """`position startpos | fen FEN [moves m1 m2 ...]` (the words after `position`) in `game`."""
    if not words:
        raise UciError("position: say startpos or fen FEN, then moves ... if any")
    moves_at = words.index("moves") if "moves" in words else len(words)
    head, moves = words[:moves_at], words[moves_at + 1:]
    if head == ["startpos"]:
        fen = game.start
    elif head[0] == "fen" and len(head) > 1:
        fen = " ".join(head[1:])
    else:
        raise UciError(f"position: {' '.join(head)[:60]!r}; allowed: startpos, fen FEN")
    pos = parse_fen(fen, game, catalogue)
    for number, text in enumerate(moves, 1):
        try:
            play(pos, parse_move(pos, text))
        except DealerError as error:
            raise UciError(f"position: move {number} ({text[:40]}): {error}") from None
    return pos


def _spin(name: str, value: str, low: int, high: int) -> int:
    if not value.isascii() or not value.lstrip("-").isdigit() or len(value) > 9:
        raise UciError(f"setoption {name}: {value[:40]!r} is not a whole number")
    number = int(value)
    if not low <= number <= high:
        raise UciError(f"setoption {name}: {number} is outside {low}..{high}")
    return number


class UciEngine:
    """One UCI conversation: options, the current position and at most one search running."""

    def __init__(self, write: Callable[[str], None], catalogue: Catalogue | None = None) -> None:
        self._write_raw = write
        self.catalogue = catalogue or default_catalogue()
        self._out = threading.Lock()
        self.game = load_game(DEFAULT_VARIANT)
        self.hash_mb = HASH_MB[0]
        self.searcher = Searcher(self.hash_mb)
        self.skill = LEVELS[1]
        self.position = parse_fen(self.game.start, self.game, self.catalogue)
        self.searcher.prepare(self.position)
        self._thread: threading.Thread | None = None
        self._stop: threading.Event | None = None
        self._infinite = False

    # --- output -------------------------------------------------------------------------
    def write(self, line: str) -> None:
        with self._out:
            self._write_raw(line)

    def say(self, reason: str) -> None:
        """`info string ...`: one line, whatever the reason holds."""
        self.write("info string " + " ".join(reason.split())[:400])

    # --- input --------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Carry out one line; False after `quit`. Errors are answered, never raised."""
        words = line.split()
        if not words:
            return True
        command = COMMANDS.get(words[0])
        if command is None:
            self.say(f"unknown command {words[0][:40]!r}; known: {', '.join(COMMANDS)}")
            return True
        try:
            return command(self, words[1:]) is not False
        except DealerError as error:
            self.say(str(error))
            return True

    def close(self) -> None:
        """At the end of input: let a running search finish (stop a `go infinite` one) and give its bestmove."""
        if self._infinite:
            self._halt()
        self._wait()

    @property
    def level(self) -> int | None:
        """The strength the search plays at: None for full strength (Skill Level 8), else the Skill Level."""
        return None if self.skill == LEVELS[1] else self.skill

    # --- commands -----------------------------------------------------------------------
    def uci(self, words: list[str]) -> None:
        games = sorted(builtin_games())
        self.write(f"id name {NAME} {installed_version()}")
        self.write(f"id author {AUTHOR}")
        self.write(
            f"option name UCI_Variant type combo default {DEFAULT_VARIANT} " + " ".join(f"var {g}" for g in games)
        )
        self.write(f"option name Hash type spin default {HASH_MB[0]} min {HASH_MB[1]} max {HASH_MB[2]}")
        self.write("option name Threads type spin default 1 min 1 max 1")
        self.write(f"option name Skill Level type spin default {LEVELS[1]} min {LEVELS[0]} max {LEVELS[1]}")
        self.write("uciok")

    def isready(self, words: list[str]) -> None:
        self.write("readyok")

    def setoption(self, words: list[str]) -> None:
        if not words or words[0] != "name":
            raise UciError("setoption: write setoption name NAME [value VALUE]")
        value_at = words.index("value") if "value" in words else len(words)
        name, value = " ".join(words[1:value_at]), " ".join(words[value_at + 1:])
        key = name.lower()
        if key not in OPTION_NAMES:
            raise UciError(f"setoption: unknown option {name[:40]!r}; known: {', '.join(OPTION_NAMES.values())}")
        self._wait()
        if key == "uci_variant":
            if value not in builtin_games():
                raise UciError(
                    f"setoption UCI_Variant: unknown game {value[:40]!r}; allowed: {', '.join(sorted(builtin_games()))}"
                )
            self.game = load_game(value)
            self.position = parse_fen(self.game.start, self.game, self.catalogue)
            self.searcher.new_game()
            self.searcher.prepare(self.position)  # the game's tables, before any clock runs
        elif key == "hash":
            self.hash_mb = _spin("Hash", value, HASH_MB[1], HASH_MB[2])
            self.searcher = Searcher(self.hash_mb)
        elif key == "threads":
            _spin("Threads", value, 1, 1)
        elif key == "skill level":
            self.skill = _spin("Skill Level", value, *LEVELS)

    def ucinewgame(self, words: list[str]) -> None:
        self._wait()
        self.searcher.new_game()
        self.position = parse_fen(self.game.start, self.game, self.catalogue)
        self.searcher.prepare(self.position)  # the game's tables, before any clock runs (a deal's FEN adds to them)

    def position_(self, words: list[str]) -> None:
        # for the next `go`; a running search keeps its own
        self.position = read_position(words, self.game, self.catalogue)

    def go(self, words: list[str]) -> None:
        go = parse_go(words)
        self._wait()
        pos = self.position
        limits = limits_for(go, pos.turn, self.level)
        stop = threading.Event()
        self._stop, self._infinite = stop, go.infinite
        self._thread = threading.Thread(target=self._think, args=(pos, limits, go.infinite, stop), daemon=True)
        self._thread.start()

    def stop(self, words: list[str]) -> None:
        self._halt()

    def quit(self, words: list[str]) -> bool:
        self._halt()
        return False

    # --- the search ---------------------------------------------------------------------
    def _think(self, pos: Position, limits: Limits, infinite: bool, stop: threading.Event) -> None:
        timer = None
        if limits.seconds is not None:  # the search keeps to its time; this is the guard if it does not
            timer = threading.Timer(max(limits.seconds - HARD_STOP_S, 0.001), stop.set)
            timer.daemon = True
            timer.start()
        try:
            result = self.searcher.search(pos, limits, lambda info: self.write(info_line(pos, info)), stop)
        except Exception as error:  # the engine must answer: report, then give the first legal move
            self.say(f"search failed: {type(error).__name__}: {error}")
            result = _fallback(pos)
        finally:
            if timer is not None:
                timer.cancel()
        if infinite:
            stop.wait()  # `go infinite` answers only after `stop`, even if it has searched all it can
        self.write("bestmove " + ("(none)" if result.move is None else uci_move(pos, result.move)))

    def _halt(self) -> None:
        """Stop the running search, if any, and wait until its `bestmove` is out."""
        if self._stop is not None:
            self._stop.set()
        self._wait()

    def _wait(self) -> None:
        """Wait until the running search, if any, has given its `bestmove` (a `go infinite` waits for `stop`)."""
        if self._thread is not None:
            self._thread.join()
            self._thread, self._stop, self._infinite = None, None, False



def _fallback(pos: Position) -> SearchResult:
    from dealers_chess.engine.rules import legal_moves

    moves = legal_moves(pos)
    info = Info(0, None, None, 0, 0, 0.0, ())
    return SearchResult(moves[0] if moves else None, info)


OPTION_NAMES = {"uci_variant": "UCI_Variant", "hash": "Hash", "threads": "Threads", "skill level": "Skill Level"}
COMMANDS: dict[str, Callable[[UciEngine, list[str]], bool | None]] = {
    "uci": UciEngine.uci, "isready": UciEngine.isready, "setoption": UciEngine.setoption,
    "ucinewgame": UciEngine.ucinewgame, "position": UciEngine.position_, "go": UciEngine.go,
    "stop": UciEngine.stop, "quit": UciEngine.quit,
}


def run_uci(lines: Iterable[str], write: Callable[[str], None], catalogue: Catalogue | None = None) -> None:
    """Read UCI lines until `quit` or the end of input; each answer goes to `write` (one line, no newline)."""
    engine = UciEngine(write, catalogue)
    try:
        for line in lines:
            if not engine.handle(line):
                break
    finally:
        engine.close()

