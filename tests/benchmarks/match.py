"""Benchmark: a match between two UCI engines, refereed by the toolkit's own rules, in chess or any built-in game.

Both engines are driven line by line over UCI (`ucinewgame`, `position fen START moves ...`, `go ...`); the
toolkit's referee (engine.rules) checks every move and ends each game (checkmate, stalemate, dead
position, threefold repetition or the fifty-move rule claimed at once, a draw after MAX_PLIES plies). An
illegal move or no answer loses the game; on a clock, so does an answer that takes longer than the
time left (measured from sending `go` to reading `bestmove`).

Start positions: --start chess plays chess from a list of common openings (each twice, colours
swapped); --start deals plays Dealer's Chess 8x8 from balanced deals of the starter deck, seeds from
--seed on (each twice); --start GAME plays a built-in game from its start. Limits: --movetime S (seconds
per move), --clock S+I (a clock per game with an increment), --depth N, --nodes N, each for both
engines or, with --their-..., for the second engine alone.

Each toolkit engine runs as `PYTHON -P -m dealers_chess uci`, so it imports the dealers_chess its venv installs
(-P: not the one in the current folder), or with --ours-dir / --theirs-dir the one in that folder.
Run, e.g. against the engine at the branch point (a worktree of it with its own venv):
  .venv/bin/python tests/benchmarks/match.py --theirs /work/engine-baseline/.venv/bin/python \\
      --start chess --games 100 --movetime 0.2
  .venv/bin/python tests/benchmarks/match.py --theirs-command /path/to/fairy-stockfish --start chess \\
      --games 20 --movetime 1 --their-depth 6
It prints each game and a summary: the score of the first engine, W-D-L, an Elo estimate with its 95 %
interval, and each engine's time use per move.
"""

from __future__ import annotations

import argparse
import math
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

from dealers_chess.engine.game import default_catalogue, load_game
from dealers_chess.engine.move import Kind
from dealers_chess.engine.notation import format_fen, parse_fen, parse_move
from dealers_chess.engine.rules import claimable_draw, legal_moves, outcome, play
from dealers_chess.engine.session.uci import uci_move

OPENINGS = [  # 50 common openings, four plies each (UCI moves); each is played with both colours
    "e2e4 e7e5 g1f3 b8c6", "d2d4 d7d5 c2c4 e7e6", "e2e4 c7c5 g1f3 d7d6", "d2d4 g8f6 c2c4 g7g6",
    "e2e4 e7e6 d2d4 d7d5", "c2c4 e7e5 b1c3 g8f6", "e2e4 c7c6 d2d4 d7d5", "g1f3 d7d5 g2g3 g8f6",
    "e2e4 e7e5 f1c4 g8f6", "d2d4 f7f5 g2g3 g8f6", "e2e4 c7c5 b1c3 b8c6", "d2d4 d7d5 c2c4 c7c6",
    "d2d4 g8f6 c2c4 e7e6", "e2e4 d7d6 d2d4 g8f6", "e2e4 g7g6 d2d4 f8g7", "c2c4 c7c5 g1f3 g8f6",
    "e2e4 e7e5 g1f3 g8f6", "d2d4 g8f6 g1f3 d7d5", "e2e4 c7c5 c2c3 g8f6", "e2e4 d7d5 e4d5 d8d5",
    "d2d4 d7d5 g1f3 g8f6", "e2e4 e7e5 b1c3 g8f6", "c2c4 g8f6 b1c3 e7e6", "d2d4 e7e6 c2c4 f8b4",
    "e2e4 c7c5 g1f3 e7e6", "e2e4 c7c5 g1f3 b8c6", "d2d4 g8f6 c2c4 c7c5", "e2e4 e7e5 d2d4 e5d4",
    "e2e4 e7e5 f2f4 e5f4", "g1f3 g8f6 c2c4 g7g6", "b2b3 e7e5 c1b2 b8c6", "e2e4 b7b6 d2d4 c8b7",
    "d2d4 d7d5 c1f4 g8f6", "e2e4 g8f6 e4e5 f6d5", "d2d4 g8f6 c2c4 b7b6", "c2c4 e7e6 g1f3 d7d5",
    "e2e4 c7c6 b1c3 d7d5", "d2d4 d7d6 e2e4 g8f6", "e2e4 e7e5 g1f3 d7d6", "d2d4 c7c5 d4d5 e7e5",
    "f2f4 d7d5 g1f3 g8f6", "e2e4 d7d6 f2f4 g8f6", "d2d4 e7e5 d4e5 b8c6", "e2e4 c7c5 d2d4 c5d4",
    "g2g3 d7d5 f1g2 e7e5", "c2c4 c7c6 e2e4 d7d5", "d2d4 g8f6 g1f3 e7e6", "e2e4 e7e6 b1c3 f8b4",
    "d2d4 b8c6 c2c4 e7e5", "e2e4 a7a6 d2d4 b7b5",
]
MAX_PLIES = 400
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


class Engine:
    """A UCI engine in a process: lines out, lines in (read by a thread, so waits can time out)."""

    def __init__(self, command: list[str], name: str, folder: str | None = None) -> None:
        self.name = name
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=folder,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait_for("uciok", 60)
        self.options: dict[str, str] = {}

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def wait_for(self, prefix: str, seconds: float) -> tuple[str, list[str]]:
        """The first line starting with prefix and the lines before it; TimeoutError after `seconds`."""
        ends = time.perf_counter() + seconds
        seen = []
        while True:
            left = ends - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"{self.name}: no {prefix!r} in {seconds:g} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise EOFError(f"{self.name} ended")
            if line.startswith(prefix):
                return line, seen
            seen.append(line)

    def set_option(self, name: str, value: str) -> None:
        if self.options.get(name) != value:
            self.send(f"setoption name {name} value {value}")
            self.options[name] = value

    def new_game(self, variant: str | None) -> None:
        if variant is not None:
            self.set_option("UCI_Variant", variant)
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok", 120)

    def close(self) -> None:
        try:
            self.send("quit")
            self.process.wait(5)
        except Exception:
            self.process.kill()


@dataclass
class Limit:
    movetime: float | None = None
    depth: int | None = None
    nodes: int | None = None

    def words(self) -> str:
        parts = []
        if self.movetime is not None:
            parts.append(f"movetime {round(self.movetime * 1000)}")
        if self.depth is not None:
            parts.append(f"depth {self.depth}")
        if self.nodes is not None:
            parts.append(f"nodes {self.nodes}")
        return " ".join(parts)


@dataclass
class Usage:
    """One engine's effort over the match."""

    moves: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    depth_sum: int = 0
    nodes: int = 0
    clock_used: list[float] = field(default_factory=list)  # per game on a clock: share of (start + increments) used
    time_losses: int = 0
    illegal: int = 0

    def add(self, seconds: float, info: dict) -> None:
        self.moves += 1
        self.seconds += seconds
        self.slowest = max(self.slowest, seconds)
        self.depth_sum += int(info.get("depth", 0))
        self.nodes += int(info.get("nodes", 0))


def last_info(lines: list[str]) -> dict:
    """depth, nodes and score (centipawns for the side to move; a mate as +-100000) of the last `info` line
    with a score."""
    for line in reversed(lines):
        words = line.split()
        if words[:1] == ["info"] and "depth" in words and "score" in words:
            found: dict = {}
            for key in ("depth", "nodes"):
                if key in words:
                    found[key] = words[words.index(key) + 1]
            kind, value = words[words.index("score") + 1: words.index("score") + 3]
            if kind == "cp":
                found["score"] = int(value)
            elif kind == "mate":
                found["score"] = 100_000 if int(value) > 0 else -100_000
            return found
    return {}


RESIGN_CP, RESIGN_PLIES = 900, 8  # adjudicated won: both engines' scores past 9 pawns for 8 plies running
DRAW_CP, DRAW_PLIES, DRAW_FROM = 8, 24, 120  # adjudicated drawn: within 8 cp for 24 plies, after ply 120


def adjudicated(scores: list[int | None], plies: int) -> str | None:
    """A result both engines' own scores agree on (White's view per ply), or None."""
    recent = scores[-RESIGN_PLIES:]
    if len(recent) == RESIGN_PLIES and all(s is not None for s in recent):
        if all(s >= RESIGN_CP for s in recent):  # type: ignore[operator]
            return "1-0"
        if all(s <= -RESIGN_CP for s in recent):  # type: ignore[operator]
            return "0-1"
    recent = scores[-DRAW_PLIES:]
    if plies >= DRAW_FROM and len(recent) == DRAW_PLIES and all(s is not None and abs(s) <= DRAW_CP for s in recent):
        return "1/2-1/2"
    return None


def deal_fen(seed: int) -> str:
    """The start of a balanced Dealer's Chess 8x8 deal of the starter deck."""
    from dealers_chess.engine.dealing.arrangement import arrange
    from dealers_chess.engine.dealing.deal import balanced_deal, deck_for, find_procedure
    from dealers_chess.engine.dealing.deal_file import DealtGame
    from dealers_chess.engine.dealing.deck import starter_deck
    from dealers_chess.engine.dealing.start import starting_fen

    catalogue = default_catalogue()
    procedure = find_procedure("8x8")
    deck = deck_for(procedure, starter_deck(catalogue), default=True)
    dealt = balanced_deal(procedure, deck, seed, catalogue, 2.0)
    white, black = (arrange(dealt, side, catalogue) for side in ("white", "black"))
    return starting_fen(DealtGame(dealt, white, black), catalogue)


def starts(kind: str, games: int, seed: int) -> list[tuple[str, str, list[str]]]:
    """(game id, start FEN, opening moves) per pair of games."""
    pairs = (games + 1) // 2
    if kind == "chess":
        game = load_game("chess")
        return [("chess", game.start, OPENINGS[i % len(OPENINGS)].split()) for i in range(pairs)]
    if kind == "deals":
        return [("dealers-8x8", deal_fen(seed + i), []) for i in range(pairs)]
    game = load_game(kind)
    return [(kind, game.start, []) for _ in range(pairs)]


def play_game(engines: tuple[Engine, Engine], game_id: str, fen: str, opening: list[str], limits: tuple,
              clock: tuple[float, float] | None, usage: tuple[Usage, Usage], log, adjudicate: bool = False) -> str:
    """One game, engines[0] White; the result '1-0', '0-1' or '1/2-1/2'."""
    game = load_game(game_id)
    pos = parse_fen(fen, game)
    words: list[str] = []
    for text in opening:
        move = parse_move(pos, text)
        words.append(uci_move(pos, move))
        play(pos, move)
    for engine in engines:
        engine.new_game(None if game_id == "chess" else game_id)
    clocks = [clock[0], clock[0]] if clock else None
    budget = [clock[0], clock[0]] if clock else None
    scores: list[int | None] = []  # each move's score from White's view, as its engine reported it
    result = None
    while result is None:
        ended = outcome(pos)
        if ended is not None:
            result = ended.result.value
            log(f"    {ended.reason}")
            break
        if claimable_draw(pos) is not None:
            result = "1/2-1/2"
            log(f"    {claimable_draw(pos)}")
            break
        if len(pos.stack) >= MAX_PLIES:
            result = "1/2-1/2"
            log("    adjudicated: too long")
            break
        side = pos.turn
        engine, limit, used = engines[side], limits[side], usage[side]
        engine.send(f"position fen {fen}" + (" moves " + " ".join(words) if words else ""))
        if clocks is not None:
            assert clock is not None
            inc = clock[1]
            go = (f"go wtime {max(0, round(clocks[0] * 1000))} btime {max(0, round(clocks[1] * 1000))} "
                  f"winc {round(inc * 1000)} binc {round(inc * 1000)}")
        else:
            go = "go " + limit.words()
        started = time.perf_counter()
        engine.send(go)
        wait = (clocks[side] + 5) if clocks is not None else (limit.movetime or 0) * 4 + 120
        try:
            line, seen = engine.wait_for("bestmove", wait)
        except TimeoutError:
            log(f"    {engine.name} gave no bestmove")
            result = "0-1" if side == 0 else "1-0"
            used.time_losses += 1
            break
        spent = time.perf_counter() - started
        info = last_info(seen)
        used.add(spent, info)
        score = info.get("score")
        scores.append(None if score is None else (score if side == 0 else -score))
        if clocks is not None:
            assert budget is not None and clock is not None
            clocks[side] -= spent
            if clocks[side] < 0:
                log(f"    {engine.name} lost on time ({clocks[side]:.3f} s)")
                used.time_losses += 1
                result = "0-1" if side == 0 else "1-0"
                break
            clocks[side] += clock[1]
            budget[side] += clock[1]
        text = line.split()[1] if len(line.split()) > 1 else "(none)"
        try:
            move = parse_move(pos, text)
            if move not in legal_moves(pos) and move.kind != Kind.BATTLE:
                raise ValueError("not legal")
            play(pos, move)
        except Exception as error:
            log(f"    {engine.name} played an illegal move {text!r}: {error}")
            used.illegal += 1
            result = "0-1" if side == 0 else "1-0"
            break
        words.append(text)
        if adjudicate and result is None:
            result = adjudicated(scores, len(pos.stack))
            if result is not None:
                log(f"    adjudicated by both engines' scores: {result}")
    if clocks is not None:
        assert budget is not None
        for side in (0, 1):
            usage[side].clock_used.append(1 - max(clocks[side], 0) / budget[side])
    log(f"    moves: {' '.join(words)}")
    log(f"    scores (White's view, cp, each engine's own): {' '.join('-' if s is None else str(s) for s in scores)}")
    log(f"    final: {format_fen(pos)}")
    return result


def elo(score: float, games: int, wins: int, draws: int, losses: int) -> str:
    """Elo difference from a score, with a 95 % interval (trinomial normal approximation)."""
    if games == 0:
        return "-"
    p = score / games

    def to_elo(x: float) -> float:
        x = min(max(x, 1e-6), 1 - 1e-6)
        return -400 * math.log10(1 / x - 1)

    variance = (wins * (1 - p) ** 2 + draws * (0.5 - p) ** 2 + losses * (0 - p) ** 2) / games
    margin = 1.96 * math.sqrt(variance / games)
    return f"{to_elo(p):+.0f} [{to_elo(p - margin):+.0f}, {to_elo(p + margin):+.0f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ours", default=sys.executable, help="python of the first engine (`-m dealers_chess uci`)")
    parser.add_argument("--ours-command", help="the first engine's whole command instead")
    parser.add_argument("--theirs", help="python of the second engine (a toolkit worktree's venv)")
    parser.add_argument("--ours-dir", help="run the first engine in this folder: a copy of the toolkit's "
                        "dealers_chess/ there is imported first (`-m` puts the folder first on the path)")
    parser.add_argument("--theirs-dir", help="likewise for the second engine")
    parser.add_argument("--theirs-command", help="the second engine's whole command instead (e.g. Fairy-Stockfish)")
    parser.add_argument("--start", default="chess", help="chess (openings), deals (Dealer's 8x8) or a game id")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1, help="first deal seed for --start deals")
    parser.add_argument("--movetime", type=float)
    parser.add_argument("--depth", type=int)
    parser.add_argument("--nodes", type=int)
    parser.add_argument("--their-movetime", type=float)
    parser.add_argument("--their-depth", type=int)
    parser.add_argument("--their-nodes", type=int)
    parser.add_argument("--clock", help="S+I: seconds per game and increment per move, both engines")
    parser.add_argument("--option", action="append", default=[], help="NAME=VALUE for the first engine")
    parser.add_argument("--their-option", action="append", default=[], help="NAME=VALUE for the second engine")
    parser.add_argument("--log", help="write the games here too")
    parser.add_argument("--adjudicate", action="store_true",
                        help=f"end a game both engines score past {RESIGN_CP} cp for {RESIGN_PLIES} plies (won), or "
                             f"within {DRAW_CP} cp for {DRAW_PLIES} plies after ply {DRAW_FROM} (drawn)")
    args = parser.parse_args()
    # Without a folder, -P: `-m` would put the current folder first on the path, and a python run from a
    # checkout would import that checkout's dealers_chess/ instead of the one its venv installs.
    ours_command = (args.ours_command.split() if args.ours_command
                    else [args.ours, *([] if args.ours_dir else ["-P"]), "-m", "dealers_chess", "uci"])
    if args.theirs_command:
        theirs_command = args.theirs_command.split()
    elif args.theirs:
        theirs_command = [args.theirs, *([] if args.theirs_dir else ["-P"]), "-m", "dealers_chess", "uci"]
    else:
        sys.exit("say --theirs PYTHON or --theirs-command COMMAND")
    ours_limit = Limit(args.movetime, args.depth, args.nodes)
    their_limit = Limit(args.their_movetime if args.their_movetime is not None else args.movetime,
                        args.their_depth if args.their_depth is not None else args.depth,
                        args.their_nodes if args.their_nodes is not None else args.nodes)
    if args.their_depth is not None or args.their_nodes is not None:
        if args.their_movetime is None:
            their_limit.movetime = None
    clock = None
    if args.clock:
        base, _, inc = args.clock.partition("+")
        clock = (float(base), float(inc or 0))
    log_file = open(args.log, "a") if args.log else None  # noqa: SIM115

    def log(text: str) -> None:
        print(text, flush=True)
        if log_file is not None:
            log_file.write(text + "\n")
            log_file.flush()

    log(f"match: {' '.join(ours_command)} (in {args.ours_dir or '.'})  vs  {' '.join(theirs_command)} "
        f"(in {args.theirs_dir or '.'})")
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    log(f"start {args.start}, {args.games} games, ours {ours_limit.words() or '-'}, theirs "
        f"{their_limit.words() or '-'}, clock {args.clock or '-'}, adjudication {'on' if args.adjudicate else 'off'}; "
        f"load {load}")
    started = time.perf_counter()
    ours = Engine(ours_command, "ours", args.ours_dir)
    theirs = Engine(theirs_command, "theirs", args.theirs_dir)
    for engine, options in ((ours, args.option), (theirs, args.their_option)):
        for option in options:
            name, _, value = option.partition("=")
            engine.set_option(name, value)
    usage = {"ours": Usage(), "theirs": Usage()}
    wins = draws = losses = 0
    points = 0.0
    try:
        pairs = starts(args.start, args.games, args.seed)
        for index in range(args.games):
            pair, second = index // 2, index % 2
            game_id, fen, opening = pairs[pair]
            ours_white = second == 0
            engines = (ours, theirs) if ours_white else (theirs, ours)
            limits = (ours_limit, their_limit) if ours_white else (their_limit, ours_limit)
            uses = (usage["ours"], usage["theirs"]) if ours_white else (usage["theirs"], usage["ours"])
            log(f"game {index + 1}: ours {'White' if ours_white else 'Black'}, {game_id}"
                f"{' seed ' + str(args.seed + pair) if args.start == 'deals' else ''}"
                f"{', opening ' + ' '.join(opening) if opening else ''}")
            result = play_game(engines, game_id, fen, opening, limits, clock, uses, log, args.adjudicate)
            white, black = POINTS[result]
            mine = white if ours_white else black
            points += mine
            wins += mine == 1.0
            draws += mine == 0.5
            losses += mine == 0.0
            log(f"  {result}: ours {points:g}/{index + 1}  (+{wins} ={draws} -{losses})")
    finally:
        ours.close()
        theirs.close()
    games = wins + draws + losses
    log("")
    log(f"result: ours {points:g}/{games} ({100 * points / max(games, 1):.1f} %), +{wins} ={draws} -{losses}, "
        f"Elo {elo(points, games, wins, draws, losses)}")
    for name, used in usage.items():
        per_move = used.seconds / max(used.moves, 1)
        line = (f"  {name}: {used.moves} moves, {per_move * 1000:.0f} ms a move on average, slowest "
                f"{used.slowest * 1000:.0f} ms, mean depth {used.depth_sum / max(used.moves, 1):.1f}, "
                f"{used.time_losses} lost on time, {used.illegal} illegal moves")
        if used.clock_used:
            line += f", clock used {100 * sum(used.clock_used) / len(used.clock_used):.0f} % per game on average"
        log(line)
    log(f"load at the end {' '.join(f'{x:.1f}' for x in os.getloadavg())}; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
