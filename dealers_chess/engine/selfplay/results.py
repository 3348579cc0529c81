"""A measuring run's results file: its settings, its matchups and every finished game, one JSON line each.

The file is the run: a run that stops (killed, or done) is resumed from it, and its values are
re-analysed from it (engine.selfplay.estimate). The first line holds the settings; each matchup is
written before its first game, so the file keeps the starts its games were played from even if the
catalogue or the model changes later. printing.value_results appends to it; this module reads it.
"""

from __future__ import annotations

import gzip
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from dealers_chess.engine.selfplay.imbalance import Matchup, MeasureError
from dealers_chess.engine.selfplay.play import GameTask
from dealers_chess.pieces.catalogue import Catalogue

FORMAT = "dealer-values-results"
VERSION = 1
LADDER_FACTOR = 4  # the scale and the orthodox ladder get this many times the games of a piece


@dataclass(frozen=True, slots=True)
class Settings:
    """What decides a run's games: the board, the engine's nodes a move and the seed of the openings."""

    board: str
    nodes: int
    seed: int

    def header(self) -> dict:
        return {"type": "run", "format": FORMAT, "version": VERSION, "board": self.board, "nodes": self.nodes,
                "seed": self.seed}


@dataclass(frozen=True, slots=True)
class RecordedMatchup:
    """A matchup as the file keeps it: enough to play its games and to solve its value."""

    id: str
    target: str
    form: str
    terms: tuple[tuple[str, int], ...]
    fens: tuple[str, str]  # the start with A as White, then with A as Black
    movements: tuple[tuple[str, str], ...]  # (piece id, XBetza) of every piece in it, as it was measured

    @property
    def needs(self) -> tuple[str, ...]:
        return tuple(piece for piece, _ in self.terms if piece != self.target)

    def line(self) -> dict:
        return {"type": "matchup", "id": self.id, "target": self.target, "form": self.form,
                "terms": [list(t) for t in self.terms], "fens": list(self.fens), "movements": dict(self.movements)}


def recorded(matchup: Matchup, catalogue: Catalogue) -> RecordedMatchup:
    """The matchup as the results file keeps it."""
    ids = sorted(set(matchup.a.count()) | set(matchup.b.count()))
    return RecordedMatchup(matchup.id, matchup.target, matchup.form, matchup.terms,
                           (matchup.fen(catalogue, True), matchup.fen(catalogue, False)),
                           tuple((p, catalogue.get(p).betza) for p in ids))


@dataclass
class Results:
    """What a results file holds: settings, matchups in the order they were recorded, games by matchup."""

    settings: Settings | None = None
    matchups: dict[str, RecordedMatchup] = field(default_factory=dict)
    games: dict[str, dict[int, dict]] = field(default_factory=dict)  # matchup -> game index -> game line

    def scores(self, matchup: str) -> dict[int, float]:
        return {index: line["score"] for index, line in self.games.get(matchup, {}).items()}

    @property
    def game_count(self) -> int:
        return sum(map(len, self.games.values()))


def read_results(path: str | Path) -> Results:
    """Every complete line of a results file (plain or .gz); a half-written last line is left out."""
    path = Path(path)
    results = Results()
    try:
        raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
    except OSError as error:
        raise MeasureError(f"{path}: cannot read the results file ({error.strerror})") from None
    except gzip.BadGzipFile:
        raise MeasureError(f"{path}: not a gzip file") from None
    for number, text in enumerate(raw.split(b"\n"), start=1):
        if not text.strip():
            continue
        try:
            line = json.loads(text)
        except ValueError:
            if not raw.endswith(b"\n") and number == raw.count(b"\n") + 1:
                break  # the run was stopped while writing this line
            raise MeasureError(f"{path}: line {number} is not JSON") from None
        _take(results, line, path, number)
    return results


def _take(results: Results, line: dict, path: Path, number: int) -> None:
    kind = line.get("type") if isinstance(line, dict) else None
    if kind == "run":
        if line.get("format") != FORMAT or line.get("version") != VERSION:
            raise MeasureError(f"{path}: not a {FORMAT} file of version {VERSION}")
        results.settings = Settings(line["board"], line["nodes"], line["seed"])
    elif kind == "matchup":
        results.matchups[line["id"]] = RecordedMatchup(
            line["id"], line["target"], line["form"], tuple((p, n) for p, n in line["terms"]),
            (line["fens"][0], line["fens"][1]), tuple(line["movements"].items()))
    elif kind == "game":
        results.games.setdefault(line["matchup"], {})[line["index"]] = line
    else:
        raise MeasureError(f"{path}: line {number}: expected a run, matchup or game line")
    if results.settings is None:
        raise MeasureError(f"{path}: the first line must hold the run's settings")


def opening_seed(seed: int, matchup: str, pair: int) -> int:
    """The seed of a pair's random openings: from the run's seed, the matchup and the pair alone."""
    digest = hashlib.blake2b(f"{seed}:{matchup}:{pair}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def games_wanted(matchup: RecordedMatchup, games: int) -> int:
    """How many games a matchup gets in a run of `games` a piece (even: whole pairs)."""
    wanted = games * LADDER_FACTOR if matchup.form in ("scale", "pair") or matchup.id in LADDER_IDS else games
    return wanted + wanted % 2


LADDER_IDS = ("piece:knight", "piece:rook", "piece:queen")


def tasks_to_play(results: Results, matchups: list[RecordedMatchup], games: int) -> list[GameTask]:
    """The games still to play, a pair of each matchup in turn (the ladder's share at once), so every
    value narrows together and a run stopped early leaves every piece measured a little."""
    settings = results.settings
    assert settings is not None
    queues = []
    for matchup in matchups:
        done = results.games.get(matchup.id, {})
        wanted = games_wanted(matchup, games)
        share = wanted // games if games else 1
        todo = [i for i in range(wanted) if i not in done]
        queues.append((matchup, share, todo))
    tasks: list[GameTask] = []
    while any(todo for _, _, todo in queues):
        for matchup, share, todo in queues:
            tasks += [task_of(settings, matchup, index) for index in todo[:2 * share]]
            del todo[:2 * share]
    return tasks


def task_of(settings: Settings, matchup: RecordedMatchup, index: int) -> GameTask:
    """Game `index` of a matchup: its start (A White at even indices) and its pair's openings."""
    return GameTask(matchup.id, index, matchup.fens[index % 2], opening_seed(settings.seed, matchup.id, index // 2),
                    settings.nodes)


def tasks_for_pairs(results: Results, matchups: list[RecordedMatchup], pairs: dict[str, int]) -> list[GameTask]:
    """The games of the next `pairs[m]` pairs of each matchup not yet (wholly) played, lowest pair first,
    a pair of each matchup in turn: the same games whatever decided how many pairs each gets."""
    settings = results.settings
    assert settings is not None
    queues = []
    for matchup in matchups:
        done, wanted = results.games.get(matchup.id, {}), pairs.get(matchup.id, 0)
        todo: list[list[int]] = []
        pair = 0
        while len(todo) < wanted:
            missing = [i for i in (2 * pair, 2 * pair + 1) if i not in done]
            if missing:
                todo.append(missing)
            pair += 1
        queues.append(todo)
    tasks: list[GameTask] = []
    for turn in range(max(map(len, queues), default=0)):
        for matchup, todo in zip(matchups, queues, strict=True):
            if turn < len(todo):
                tasks += [task_of(settings, matchup, index) for index in todo[turn]]
    return tasks


def check_matchup(old: RecordedMatchup, new: RecordedMatchup, path: str | Path) -> None:
    """A recorded matchup must still be played by the same pieces: MeasureError if a movement changed."""
    now = dict(new.movements)
    for piece, betza in old.movements:
        if piece in now and now[piece] != betza:
            raise MeasureError(f"{path}: {piece} moved as {betza!r} when its games were played, now as "
                               f"{now[piece]!r}; measure it into a new results file (--out)")
