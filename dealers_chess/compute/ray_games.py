"""Games played on Ray: one warm player (a process with its engine) per core, results streamed back.

Each player is a Ray actor that loads the catalogue and the game once and keeps one search engine;
it is handed a small batch of games at a time and yields each finished game at once (a Ray
generator), so the caller can write it down before the batch ends. Without an address, Ray starts
on this machine with one player per core; with one, the players join that running cluster.
"""

from __future__ import annotations

import logging
import os
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from dealers_chess.engine.game import GameDef
from dealers_chess.engine.selfplay.play import GameTask, play_game
from dealers_chess.pieces.catalogue import Catalogue
from dealers_chess.pieces.errors import DealerError

BATCH = 2  # games handed to a player at a time: one pair
CONNECT_S = 5.0  # how long to wait for a cluster's address to answer


class ComputeError(DealerError):
    """Ray is missing, or the cluster cannot be reached."""


@dataclass(frozen=True, slots=True)
class Cluster:
    """Where games run: `address` None starts Ray here with `workers` players (None: one per core)."""

    address: str | None = None
    workers: int | None = None


class _Player:
    """A warm engine: the catalogue, the game and the searcher, kept between batches."""

    def __init__(self, catalogue: Catalogue, game: GameDef) -> None:
        from dealers_chess.engine.search.search import Searcher

        self.catalogue, self.game = catalogue, game
        self.searcher = Searcher(hash_mb=4)

    def play(self, tasks: list[GameTask]) -> Iterator[dict]:
        for task in tasks:
            yield play_game(task, self.game, self.catalogue, self.searcher).as_dict()


def _ray():
    try:
        import ray
    except ImportError:
        raise ComputeError("Ray is not installed: pip install 'ray[default]' (or the toolkit's own pyproject)") \
            from None
    return ray


def _use_token_if_there_is_one() -> None:
    """Joining a cluster: send the token if this machine has one (Ray itself asks only for clusters it starts)."""
    token_file = Path(os.environ.get("RAY_AUTH_TOKEN_PATH", Path.home() / ".ray" / "auth_token"))
    if "RAY_AUTH_MODE" not in os.environ and (os.environ.get("RAY_AUTH_TOKEN") or token_file.is_file()):
        os.environ["RAY_AUTH_MODE"] = "token"


def check_reachable(address: str) -> None:
    """ComputeError in one line when nothing answers at HOST:PORT (Ray itself would retry for a minute)."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ComputeError(f"--address {address!r}: expected HOST:PORT, as `ray start --head` prints it")
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_S).close()
    except OSError as error:
        raise ComputeError(f"cannot reach the Ray cluster at {address} ({error.strerror or error}); start one "
                           "with `ray start --head` there, or leave --address out to play on this machine") from None


def start(cluster: Cluster) -> int:
    """Connect to (or start) Ray; the number of players it has room for."""
    if cluster.address:
        check_reachable(cluster.address)
        _use_token_if_there_is_one()  # before Ray is imported: it reads the mode once
    ray = _ray()
    if not ray.is_initialized():
        options = dict(include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False,
                       configure_logging=True)
        try:
            if cluster.address:
                ray.init(address=cluster.address, **options)
            else:
                ray.init(num_cpus=cluster.workers or len(os.sched_getaffinity(0)), **options)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise ComputeError(f"cannot reach the Ray cluster at {cluster.address}: {error}".splitlines()[0]) \
                from None
    cpus = int(ray.cluster_resources().get("CPU", 1))
    return max(1, min(cpus, cluster.workers or cpus))


class Players:
    """Warm players on Ray for one run: Ray is started (or joined) once, when the first games are handed over,
    and the players are kept between task lists: a run that plays in rounds hands each round to `play`."""

    def __init__(self, catalogue: Catalogue, game: GameDef, cluster: Cluster) -> None:
        self._catalogue, self._game, self._cluster = catalogue, game, cluster
        self._count: int | None = None
        self._actors: list = []

    @property
    def count(self) -> int:
        """How many games run at once (asking starts Ray)."""
        if self._count is None:
            self._count = start(self._cluster)
            ray = _ray()
            self._remote = ray.remote(num_cpus=1)(_Player)
            self._shared = (ray.put(self._catalogue), ray.put(self._game))
        return self._count

    def play(self, tasks: list[GameTask], on_game: Callable[[dict], None]) -> None:
        """Play every task; `on_game` hears each finished game as it comes in (any order)."""
        if not tasks:
            return
        count, ray = self.count, _ray()
        pending = [tasks[i:i + BATCH] for i in range(0, len(tasks), BATCH)]
        pending.reverse()
        while len(self._actors) < min(count, len(pending)):
            self._actors.append(self._remote.remote(*self._shared))
        running = {}
        for actor in self._actors:
            if not pending:
                break
            running[actor.play.remote(pending.pop())] = actor
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            stream = ready[0]
            try:
                on_game(ray.get(next(stream)))
            except StopIteration:
                actor = running.pop(stream)
                if pending:
                    running[actor.play.remote(pending.pop())] = actor

    def close(self) -> None:
        """Let the players go (Ray itself stays up until `stop`)."""
        for actor in self._actors:
            _ray().kill(actor)
        self._actors = []

    def __enter__(self) -> Players:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def play_games(tasks: list[GameTask], catalogue: Catalogue, game: GameDef, cluster: Cluster,
               on_game: Callable[[dict], None]) -> None:
    """Play every task on the cluster; `on_game` hears each finished game as it comes in (any order)."""
    with Players(catalogue, game, cluster) as players:
        players.play(tasks, on_game)


def stop() -> None:
    """Leave Ray (a cluster started here stops with it)."""
    ray = _ray()
    if ray.is_initialized():
        ray.shutdown()
