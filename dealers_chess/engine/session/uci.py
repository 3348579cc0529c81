"""The UCI protocol over the toolkit's search: `dealer uci` for chess GUIs and python-chess.

One line in, zero or more lines out. `UciEngine.handle` reads a line; the search runs in a thread of
its own, so `stop`, `isready`, `ponderhit` and `quit` are read while it thinks. Any other command that
arrives during a search waits (in order) until that search has given its `bestmove`, so a GUI that
sends `setoption`, `ucinewgame` or `go` during `go infinite` is served once it sends `stop`; the engine
never stops reading. Every `go` ends in exactly one `bestmove`, whatever its words: a word that cannot
be read is named in an `info string` and left out. Every answer goes out through one `write`
function (a lock keeps the lines of the two threads whole). A line that cannot be carried out is
answered with `info string <reason>` and never ends the engine.

Positions are the project's FEN (hands and extras included, docs/notation.md) and moves its
coordinate form, written the UCI way: e7e8q, a10a11ch (promotion code in lower case, no '=').
An illegal move inside `position ... moves` keeps the moves before it, as Stockfish does, and says so.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from dealers_chess import installed_version
from dealers_chess.engine.game import GameDef, builtin_games, default_catalogue, load_game
from dealers_chess.engine.move import Kind, Move
from dealers_chess.engine.notation import format_move, parse_fen, parse_move
from dealers_chess.engine.position import Position
from dealers_chess.engine.rules import battle_moves, legal_moves, play
from dealers_chess.engine.search import Info, Limits, Searcher, SearchResult
from dealers_chess.pieces.catalogue import Catalogue
from dealers_chess.pieces.errors import DealerError

NAME = "Dealer's Chess toolkit"
AUTHOR = "the Dealer's Chess toolkit authors"
DEFAULT_VARIANT = "chess"
HASH_MB = (16, 1, 1024)  # default, min, max
LEVELS = (1, 8)  # Skill Level: 1 for a beginner ... 8, full strength (the search's levels, assets/search/engine.toml)
MULTIPV = (1, 1, 64)  # default, min, max lines
OVERHEAD_MS = (10, 0, 5000)  # Move Overhead: default, min, max milliseconds kept back for the answer to travel
MOVES_TO_GO = 30  # moves the remaining time must last when the GUI does not say (movestogo)
MOST_MOVES_TO_GO = 50  # a movestogo above this is read as this
TARGET_SCALE = 5.0  # on a clock the search may run to this many times its target, when an iteration needs it
MOST_OF_CLOCK = 0.25  # never more than this share of the remaining time on one move (unless it is the last)
RESERVE_S = 0.1  # kept out of the shared time on a clock (at most a quarter of it): room for a slow answer
HARD_STOP_S = 0.005  # the guard timer stops the search this long before its allotment ends, whatever it does
GO_NUMBERS = ("movetime", "depth", "nodes", "wtime", "btime", "winc", "binc", "movestogo", "mate")
GO_FLAGS = ("infinite", "ponder")
GO_LIST = "searchmoves"  # followed by moves up to the next word of GO_NUMBERS or GO_FLAGS
IMMEDIATE = ("stop", "isready", "quit", "ponderhit", "uci", "debug")  # read at once, even during a search


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
    mate: int | None = None
    infinite: bool = False
    ponder: bool = False
    searchmoves: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()  # what could not be read (said in `info string`, then left out)

    @property
    def endless(self) -> bool:
        """Whether its `bestmove` waits for `stop` (or `ponderhit`), even when the search has ended."""
        return self.infinite or self.ponder

    @property
    def bounded(self) -> bool:
        """Whether anything but `stop` ends the search: a time, depth, node or mate limit."""
        return any(v is not None for v in (self.movetime, self.depth, self.nodes, self.wtime, self.btime, self.mate))


def parse_go(words: list[str]) -> Go:
    """The `go` command's words after `go`. A word that cannot be read is left out and named in `problems`;
    a `go` whose every limit was unreadable searches one ply, so that it still answers soon."""
    numbers: dict[str, int] = {}
    flags = {"infinite": False, "ponder": False}
    searchmoves: list[str] = []
    problems: list[str] = []
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word in GO_FLAGS:
            flags[word] = True
            continue
        if word == GO_LIST:
            while index < len(words) and words[index] not in GO_NUMBERS + GO_FLAGS + (GO_LIST,):
                searchmoves.append(words[index][:20])
                index += 1
            continue
        if word not in GO_NUMBERS:
            problems.append(f"go: unknown word {word[:40]!r} left out; allowed: "
                            f"{', '.join(GO_NUMBERS + GO_FLAGS + (GO_LIST,))}")
            continue
        if index == len(words) or words[index] in GO_NUMBERS + GO_FLAGS + (GO_LIST,):
            problems.append(f"go {word}: a number must follow; left out")
            continue
        value = words[index]
        index += 1
        if not value.lstrip("-").isdigit() or not value.isascii() or len(value) > 15:
            problems.append(f"go {word}: {value[:40]!r} is not a whole number; left out")
            continue
        number = int(value)
        if number < 0 and word not in ("wtime", "btime"):  # a clock may be overdrawn; nothing else is negative
            problems.append(f"go {word}: {number} is negative; left out")
            continue
        if number == 0 and word in ("depth", "nodes", "mate"):
            problems.append(f"go {word} 0: searching the least there is ({word} 1)")
            number = 1
        if number == 0 and word == "movestogo":
            problems.append("go movestogo 0: read as 1")
            number = 1
        numbers[word] = number
    go = Go(**numbers, infinite=flags["infinite"], ponder=flags["ponder"],
            searchmoves=tuple(searchmoves), problems=tuple(problems))
    if problems and not go.bounded and not go.endless:
        go = replace(go, depth=1, problems=go.problems + ("go: nothing left to limit the search; searching depth 1",))
    return go


@dataclass(frozen=True, slots=True)
class TimePlan:
    """Seconds for one move: `hard`, the most it may take (None: no limit); `target`, what it aims at on a
    clock (None: all of `hard`, as with movetime)."""

    hard: float | None
    target: float | None = None


def plan_time(go: Go, side: int, overhead_ms: int = OVERHEAD_MS[0]) -> TimePlan:
    """The time to think on a move: movetime less the overhead, or a share of the side's clock.

    From a clock: the time left (less a reserve of 0.1 s, or a quarter of it) plus the increments to come
    over the moves to go (30 when not said), less the overhead of each answer, shared evenly: that is
    the target. The search may run up to five times the target to finish or use an iteration, never
    past a quarter of the time left (all of it but the reserve and the overhead on the last move before
    a time control).
    """
    overhead = overhead_ms / 1000
    if go.infinite:
        return TimePlan(None)
    if go.movetime is not None:
        return TimePlan(max(go.movetime / 1000 - overhead, go.movetime / 2000))
    left_ms, inc_ms = (go.wtime, go.winc) if side == 0 else (go.btime, go.binc)
    if left_ms is None:
        return TimePlan(None)
    left, inc = max(left_ms, 0) / 1000, (inc_ms or 0) / 1000
    moves = min(go.movestogo or MOVES_TO_GO, MOST_MOVES_TO_GO)
    reserve = min(RESERVE_S, left / 4)
    pool = max(0.0, left - reserve + inc * (moves - 1) - overhead * (moves + 2))
    target = pool / moves
    if moves == 1:
        hard = left - reserve - overhead  # the last move before the time control: all but the reserve
    else:
        hard = min(target * TARGET_SCALE, left * MOST_OF_CLOCK)
    floor = min(0.002, left / 4)  # even with nothing left, a move must come from some search
    hard = max(hard, floor)
    return TimePlan(hard, min(max(target, floor), hard))


def limits_for(go: Go, side: int, level: int | None, overhead_ms: int = OVERHEAD_MS[0], multipv: int = 1,
               root_moves: tuple[Move, ...] = ()) -> Limits:
    """The search's limits for a `go` line: its time (plan_time), depth, nodes, mate, lines and moves."""
    plan = plan_time(go, side, overhead_ms)
    return Limits(seconds=plan.hard, depth=go.depth, nodes=go.nodes, level=level, target=plan.target,
                  mate=go.mate, multipv=multipv, root_moves=root_moves)


def uci_move(pos: Position, m: Move) -> str:
    """A legal move of `pos` the UCI way: e2e4, e7e8q, e1g1; the project's coordinate form with the
    promotion in lower case."""
    return _lower_promotion(format_move(pos, m))


def pv_text(pos: Position, pv: tuple[Move, ...]) -> str:
    """A principal variation in UCI form; moves after the first are written from their squares alone.

    The position is not changed: the search may still be using it when an iteration reports.
    """
    words = [uci_move(pos, pv[0])] if pv else []
    words.extend(_squares_text(pos, m) for m in pv[1:])
    return " ".join(words)


def _squares_text(pos: Position, m: Move) -> str:
    """A move written from its squares and promotion alone (it need not be legal in `pos`)."""
    board, catalogue = pos.board, pos.catalogue
    steps = m.steps if m.kind == Kind.BATTLE else (m,)
    return "&".join(board.name(s.frm) + board.name(s.to) +
                    ("" if s.promotion is None else catalogue.get(s.promotion).code.lower()) for s in steps)


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
    """`info depth D seldepth S multipv K score cp X|mate N nodes N nps N hashfull H time MS pv ...`."""
    score = (f"mate {info.mate_in}" if info.mate_in is not None
             else f"cp {info.score_cp if info.score_cp is not None else 0}")
    line = (f"info depth {info.depth} seldepth {max(info.seldepth, info.depth)} multipv {info.multipv} "
            f"score {score} nodes {info.nodes} nps {info.nps} hashfull {info.hashfull} "
            f"time {round(info.seconds * 1000)}")
    pv = pv_text(pos, info.pv)
    return f"{line} pv {pv}" if pv else line


def split_position(words: list[str]) -> tuple[list[str], list[str]]:
    """`position` words as (head: startpos or fen ..., move words)."""
    if not words:
        raise UciError("position: say startpos or fen FEN, then moves ... if any")
    moves_at = words.index("moves") if "moves" in words else len(words)
    head, moves = words[:moves_at], words[moves_at + 1:]
    if head != ["startpos"] and not (head[0] == "fen" and len(head) > 1):
        raise UciError(f"position: {' '.join(head)[:60]!r}; allowed: startpos, fen FEN")
    return head, moves


def play_moves(pos: Position, moves: list[str], first_number: int = 1) -> tuple[int, str | None]:
    """Play move words on `pos` while they are legal: (how many were played, why the next was not)."""
    for number, text in enumerate(moves, first_number):
        try:
            play(pos, parse_move(pos, text))
        except DealerError as error:
            return number - first_number, f"move {number} ({text[:40]}): {error}"
    return len(moves), None


def read_position(words: list[str], game: GameDef, catalogue: Catalogue) -> Position:
    """`position startpos | fen FEN [moves m1 m2 ...]` (the words after `position`) in `game`; UciError
    if the FEN cannot be read or a move is not legal."""
    head, moves = split_position(words)
    pos = parse_fen(game.start if head == ["startpos"] else " ".join(head[1:]), game, catalogue)
    _, problem = play_moves(pos, moves)
    if problem is not None:
        raise UciError(f"position: {problem}")
    return pos


def _spin(name: str, value: str, low: int, high: int) -> int:
    if not value.isascii() or not value.lstrip("-").isdigit() or len(value) > 9:
        raise UciError(f"setoption {name}: {value[:40]!r} is not a whole number")
    number = int(value)
    if not low <= number <= high:
        raise UciError(f"setoption {name}: {number} is outside {low}..{high}")
    return number


def _check(name: str, value: str) -> bool:
    if value.lower() not in ("true", "false"):
        raise UciError(f"setoption {name}: {value[:40]!r}; allowed: true, false")
    return value.lower() == "true"


@dataclass
class _Running:
    """One `go`: its stop flag, the ponderhit that starts its clock, and what releases its `bestmove`."""

    go: Go
    pos: Position
    limits: Limits
    stop: threading.Event = field(default_factory=threading.Event)
    clock_starts: threading.Event = field(default_factory=threading.Event)  # set at once unless pondering
    release: threading.Event = field(default_factory=threading.Event)  # `stop` or `ponderhit` for endless ones
    thread: threading.Thread | None = None
    timer: threading.Timer | None = None


class UciEngine:
    """One UCI conversation: options, the current position and at most one search running; the commands
    that arrive during a search wait in order for its end."""

    def __init__(self, write: Callable[[str], None], catalogue: Catalogue | None = None) -> None:
        self._write_raw = write
        self.catalogue = catalogue or default_catalogue()
        self._out = threading.Lock()
        self._lock = threading.Lock()  # guards _running, _pending, _busy and the flags below
        self._idle = threading.Condition(self._lock)
        self._running: _Running | None = None
        self._pending: deque[tuple[list[str], threading.Event | None]] = deque()  # waiting lines (a go's stop)
        self._starting: threading.Event | None = None  # the stop of a waiting `go` taken out to start
        self._early_hit = False  # a `ponderhit` for a `go ponder` that was not running yet
        self._busy = False  # a search runs or waiting lines are being carried out
        self._quitting = False
        self._closing = False
        self.game = load_game(DEFAULT_VARIANT)
        self.hash_mb = HASH_MB[0]
        self.searcher = Searcher(self.hash_mb)
        self.skill = LEVELS[1]
        self.multipv = MULTIPV[0]
        self.ponder = False
        self.overhead_ms = OVERHEAD_MS[0]
        self.position = parse_fen(self.game.start, self.game, self.catalogue)
        self._position_words: tuple[list[str], list[str]] | None = None  # what self.position was built from
        self.searcher.prepare(self.position)

    # --- output -------------------------------------------------------------------------
    def write(self, line: str) -> None:
        with self._out:
            self._write_raw(line)

    def say(self, reason: str) -> None:
        """`info string ...`: one line, whatever the reason holds."""
        self.write("info string " + " ".join(reason.split())[:400])

    # --- input --------------------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Carry out one line, or keep it until the running search ends; False after `quit`.
        Errors are answered, never raised."""
        words = line.split()
        if not words:
            return True
        if words[0] not in COMMANDS:
            self.say(f"unknown command {words[0][:40]!r}; known: {', '.join(COMMANDS)}")
            return True
        if words[0] not in IMMEDIATE:
            with self._lock:
                waits = self._busy
                if waits:
                    self._pending.append((words, threading.Event() if words[0] == "go" else None))
                    running = self._running
                    endless = running is not None and running.go.endless and not running.release.is_set()
            if waits:
                if endless:
                    self.say(f"{words[0]} waits until the search ends (send stop)")
                return True
        return self._run(words, None)

    def _run(self, words: list[str], stop: threading.Event | None) -> bool:
        try:
            if words[0] == "go":
                self._go(words[1:], stop)
                return True
            return COMMANDS[words[0]](self, words[1:]) is not False
        except DealerError as error:
            self.say(str(error))
            return True

    def close(self) -> None:
        """At the end of input: let a running search finish (stop a `go infinite` or `go ponder` one, as no
        `stop` will come), carry out the waiting lines, and give every `bestmove`."""
        with self._lock:
            self._closing = True
            while self._busy:
                running = self._running
                if running is not None and running.go.endless:
                    running.stop.set()
                    running.release.set()
                self._idle.wait(0.05)

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
        self.write(f"option name MultiPV type spin default {MULTIPV[0]} min {MULTIPV[1]} max {MULTIPV[2]}")
        self.write("option name Ponder type check default false")
        self.write(f"option name Move Overhead type spin default {OVERHEAD_MS[0]} min {OVERHEAD_MS[1]} "
                   f"max {OVERHEAD_MS[2]}")
        self.write(f"option name Skill Level type spin default {LEVELS[1]} min {LEVELS[0]} max {LEVELS[1]}")
        self.write("uciok")

    def isready(self, words: list[str]) -> None:
        self.write("readyok")

    def debug(self, words: list[str]) -> None:
        """`debug on|off`: accepted; the engine says no more either way."""

    def setoption(self, words: list[str]) -> None:
        if not words or words[0] != "name":
            raise UciError("setoption: write setoption name NAME [value VALUE]")
        value_at = words.index("value") if "value" in words else len(words)
        name, value = " ".join(words[1:value_at]), " ".join(words[value_at + 1:])
        key = name.lower()
        if key not in OPTION_NAMES:
            raise UciError(f"setoption: unknown option {name[:40]!r}; known: {', '.join(OPTION_NAMES.values())}")
        if key == "uci_variant":
            if value not in builtin_games():
                raise UciError(
                    f"setoption UCI_Variant: unknown game {value[:40]!r}; allowed: {', '.join(sorted(builtin_games()))}"
                )
            self.game = load_game(value)
            self.position = parse_fen(self.game.start, self.game, self.catalogue)
            self._position_words = None
            self.searcher.new_game()
            self.searcher.prepare(self.position)  # the game's tables, before any clock runs
        elif key == "hash":
            self.hash_mb = _spin("Hash", value, HASH_MB[1], HASH_MB[2])
            self.searcher = Searcher(self.hash_mb)
        elif key == "threads":
            _spin("Threads", value, 1, 1)
        elif key == "multipv":
            self.multipv = _spin("MultiPV", value, MULTIPV[1], MULTIPV[2])
        elif key == "ponder":
            self.ponder = _check("Ponder", value)
        elif key == "move overhead":
            self.overhead_ms = _spin("Move Overhead", value, OVERHEAD_MS[1], OVERHEAD_MS[2])
        elif key == "skill level":
            self.skill = _spin("Skill Level", value, *LEVELS)

    def ucinewgame(self, words: list[str]) -> None:
        self.searcher.new_game()
        self.position = parse_fen(self.game.start, self.game, self.catalogue)
        self._position_words = None
        self.searcher.prepare(self.position)  # the game's tables, before any clock runs (a deal's FEN adds to them)

    def position_(self, words: list[str]) -> None:
        """Set the position for the next `go`. An illegal move keeps the moves before it (and says so); a
        FEN that cannot be read keeps the position there was. A GUI that sends the game so far each time
        (python-chess, most GUIs) has only the new moves played."""
        head, moves = split_position(words)
        known = self._position_words
        if known is not None and known[0] == head and moves[:len(known[1])] == known[1]:
            pos, done = self.position, known[1]  # the same game, moves added: play only those
        else:
            fen = self.game.start if head == ["startpos"] else " ".join(head[1:])
            pos, done = parse_fen(fen, self.game, self.catalogue), []
        played, problem = play_moves(pos, moves[len(done):], len(done) + 1)
        self.position = pos
        self._position_words = (head, moves[:len(done) + played])
        if problem is not None:
            self.say(f"position: {problem}; the position after the {len(done) + played} moves before it stands")

    def go(self, words: list[str]) -> None:
        self._go(words, None)

    def _go(self, words: list[str], stop: threading.Event | None) -> None:
        go = parse_go(words)
        for problem in go.problems:
            self.say(problem)
        pos = self.position
        root = self._root_moves(pos, go.searchmoves)
        running = _Running(go, pos, limits_for(go, pos.turn, self.level, self.overhead_ms, self.multipv, root))
        if stop is not None:
            running.stop = stop  # a `stop` came while this `go` waited
        if not go.ponder:
            running.clock_starts.set()
        if not go.endless:
            running.release.set()
        with self._lock:
            self._busy = True
            self._running = running
            self._starting = None
            hit, self._early_hit = self._early_hit and go.ponder, False
            if hit:  # its ponderhit came while it waited: it runs as a normal search
                running.clock_starts.set()
                if not go.infinite:
                    running.release.set()
            if running.stop.is_set():  # a `stop` came before this search was running: answer at once
                running.release.set()
            if self._closing and go.endless:
                running.stop.set()
                running.release.set()
        if running.limits.seconds is not None and (hit or not go.ponder):
            self._start_guard(running)
        running.thread = threading.Thread(target=self._think, args=(running,), daemon=True)
        running.thread.start()

    def _root_moves(self, pos: Position, texts: tuple[str, ...]) -> tuple[Move, ...]:
        """The legal moves `go searchmoves` names; a word that is no legal move is said and left out."""
        chosen: list[Move] = []
        if not texts:
            return ()
        legal = set(legal_moves(pos))
        for text in texts:
            try:
                m = parse_move(pos, text)
            except DealerError as error:
                self.say(f"go searchmoves {text}: {error}; left out")
                continue
            if m in legal or (m.kind == Kind.BATTLE and m in set(battle_moves(pos))):
                chosen.append(m)
            else:
                self.say(f"go searchmoves {text}: not a legal move here; left out")
        if not chosen:
            self.say("go searchmoves: no legal move named; searching every move")
        return tuple(chosen)

    def stop(self, words: list[str]) -> None:
        """Stop the running search (its `bestmove` comes at once) and any `go` waiting behind it."""
        with self._lock:
            running = self._running
            if running is not None:
                running.stop.set()
                running.release.set()
            for _, stop in self._pending:
                if stop is not None:
                    stop.set()
            if self._starting is not None:  # a `go` between the queue and running
                self._starting.set()

    def ponderhit(self, words: list[str]) -> None:
        """The opponent played the expected move: the pondering search goes on as a normal one, its clock
        running from now (its `bestmove` comes when its time is up, or at once if it has already ended)."""
        with self._lock:
            running = self._running
            if running is None or not running.go.ponder or running.clock_starts.is_set():
                waiting = self._starting is not None or any(
                    words[0] == "go" and "ponder" in words for words, _ in self._pending)
                if waiting:  # the `go ponder` it answers has not started yet: it starts as a normal search
                    self._early_hit = True
                else:
                    self.say("ponderhit: no search is pondering")
                return
            running.clock_starts.set()
            if not running.go.infinite:
                running.release.set()
        if running.limits.seconds is not None:
            self._start_guard(running)

    def quit(self, words: list[str]) -> bool:
        with self._lock:
            self._quitting = True
            self._pending.clear()
            running = self._running
            if running is not None:
                running.stop.set()
                running.release.set()
            while self._busy:
                self._idle.wait(0.05)
        return False

    # --- the search ---------------------------------------------------------------------
    def _start_guard(self, running: _Running) -> None:
        """The search keeps to its time; this timer stops it if it does not."""
        assert running.limits.seconds is not None
        running.timer = threading.Timer(max(running.limits.seconds - HARD_STOP_S, 0.001), running.stop.set)
        running.timer.daemon = True
        running.timer.start()

    def _think(self, running: _Running) -> None:
        pos, limits = running.pos, running.limits
        try:
            result = self.searcher.search(
                pos, limits, lambda info: self.write(info_line(pos, info)), running.stop,
                running.clock_starts if running.go.ponder else None, self._current_move(pos))
        except Exception as error:  # the engine must answer: report, then give the first legal move
            self.say(f"search failed: {type(error).__name__}: {error}")
            result = _fallback(pos)
        if running.go.endless:
            running.release.wait()  # `go infinite` and `go ponder` answer only after `stop` (or `ponderhit`)
        if running.timer is not None:
            running.timer.cancel()
        if result.move is None:
            checked = result.info.mate_in == 0
            self.write(f"info depth 0 score {'mate 0' if checked else 'cp 0'}")
            self.write("bestmove (none)")
        else:
            ponder = result.ponder
            self.write(f"bestmove {uci_move(pos, result.move)}"
                       + (f" ponder {_squares_text(pos, ponder)}" if ponder is not None else ""))
        self._finish()

    def _current_move(self, pos: Position) -> Callable[[int, Move, int], None]:
        def report(depth: int, move: Move, number: int) -> None:
            self.write(f"info depth {depth} currmove {_squares_text(pos, move)} currmovenumber {number}")
        return report

    def _finish(self) -> None:
        """After a `bestmove`: carry out the lines that waited, until one of them starts another search."""
        with self._lock:
            self._running = None
        while True:
            with self._lock:
                if self._running is not None:
                    return  # a waiting `go` started another search; it goes on from its own end
                if not self._pending or self._quitting:
                    self._pending.clear()
                    self._busy = False
                    self._idle.notify_all()
                    return
                words, stop = self._pending.popleft()
                self._starting = stop
            self._run(words, stop)


def _fallback(pos: Position) -> SearchResult:
    moves = legal_moves(pos)
    info = Info(0, None, None, 0, 0, 0.0, ())
    return SearchResult(moves[0] if moves else None, info)


OPTION_NAMES = {"uci_variant": "UCI_Variant", "hash": "Hash", "threads": "Threads", "multipv": "MultiPV",
                "ponder": "Ponder", "move overhead": "Move Overhead", "skill level": "Skill Level"}
COMMANDS: dict[str, Callable[[UciEngine, list[str]], bool | None]] = {
    "uci": UciEngine.uci, "debug": UciEngine.debug, "isready": UciEngine.isready,
    "setoption": UciEngine.setoption, "ucinewgame": UciEngine.ucinewgame, "position": UciEngine.position_,
    "go": UciEngine.go, "stop": UciEngine.stop, "ponderhit": UciEngine.ponderhit,
    "quit": UciEngine.quit,
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
