"""`dealer values` and `dealer values measure`: real games on Ray, here and on a cluster started by the test."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from dealers_chess.engine.game import default_catalogue, load_game
from dealers_chess.engine.selfplay.estimate import estimate
from dealers_chess.engine.selfplay.play import GameTask, play_game
from dealers_chess.engine.selfplay.results import read_results, tasks_to_play

TINY = ["--piece", "wazir", "--games", "1", "--nodes", "16", "--seed", "5", "--fresh"]  # games of a few plies
TINY_GAMES = 3 * 4 + 2  # the two Pawn-odds scales and the Knight's rung (the Wazir's yardstick) at 4, the Wazir's pair
DEALER = [sys.executable, "-m", "dealers_chess"]


def dealer(*args: str, env: dict | None = None, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([*DEALER, *args], capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def game_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if '"type":"game"' in line]


def check_games_are_the_seed_s(path: Path, sample: int = 3, count: int | None = TINY_GAMES) -> None:
    """Every game is there once, and a few of them are the games the task alone gives (played here again)."""
    results = read_results(path)
    games = game_lines(path)
    assert len({(g["matchup"], g["index"]) for g in games}) == len(games)
    if count is not None:
        assert len(games) == count
        assert tasks_to_play(results, list(results.matchups.values()), 1) == []
    catalogue = default_catalogue()
    for line in games[:sample]:
        matchup = results.matchups[line["matchup"]]
        task = GameTask(matchup.id, line["index"], matchup.fens[line["index"] % 2],
                        _seed_of(results, matchup.id, line["index"]), 16)
        again = play_game(task, load_game("chess"), catalogue)
        assert (again.score, again.plies) == (line["score"], line["plies"]), line


def _seed_of(results, matchup: str, index: int) -> int:
    from dealers_chess.engine.selfplay.results import opening_seed

    return opening_seed(results.settings.seed, matchup, index // 2)


def test_values_shows_the_model_and_the_measurement_side_by_side():
    done = dealer("values", "--piece", "archbishop", "--piece", "ferz", "--json")
    assert done.returncode == 0, done.stderr
    rows = {row["id"]: row for row in json.loads(done.stdout)}
    assert rows["archbishop"]["model"] == pytest.approx(6.92)
    assert set(rows["ferz"]) >= {"model", "measured", "value", "betza"}
    text = dealer("values", "--group", "royal")
    assert text.returncode == 0 and "model" in text.stdout and "king" in text.stdout


def test_a_measurement_on_every_core_plays_each_game_once_as_its_task_says(tmp_path):
    whole = tmp_path / "whole.jsonl"
    done = dealer("values", "measure", *TINY, "--workers", "2", "--out", str(whole))
    assert done.returncode == 0, done.stderr
    assert "Wazir" in done.stdout and "Measuring" in done.stderr
    check_games_are_the_seed_s(whole)
    shipped = dealer("values", "table", str(whole), "--compressed", str(tmp_path / "r.jsonl.gz"), "--out",
                     str(tmp_path / "t.toml"))
    assert shipped.returncode == 0, shipped.stderr
    assert read_results(tmp_path / "r.jsonl.gz").games == read_results(whole).games


def test_a_measurement_until_an_interval_plays_rounds_where_they_narrow_it_and_then_stops(tmp_path):
    out = tmp_path / "until.jsonl"
    done = dealer("values", "measure", "--piece", "wazir", "--until", "3", "--nodes", "16", "--seed", "5", "--fresh",
                  "--workers", "2", "--out", str(out))
    assert done.returncode == 0, done.stderr
    rounds = [line for line in done.stderr.splitlines() if line.startswith("Round ")]
    assert rounds[0] == "Round 1: 1 of 1 pieces wider than +-3.0 Pawn; first pairs: scale 4, scale:3 4, " \
                        "piece:knight 4, piece:wazir 4"
    assert len(rounds) >= 2 and "games to go; pairs: " in rounds[1]  # then where they narrow the Wazir most
    assert done.stderr.rstrip().endswith("Every piece's interval is within +-3.0 Pawn.")
    results = read_results(out)
    assert estimate(results)["wazir"].half_width <= 3.0 and "Wazir" in done.stdout
    assert set(results.games) == {"scale", "scale:3", "piece:knight", "piece:wazir"}  # what the Wazir stands on
    for games in results.games.values():  # always the next pairs: a matchup's games are its first ones
        assert sorted(games) == list(range(len(games))) and len(games) % 2 == 0
    check_games_are_the_seed_s(out, sample=2, count=None)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def ray_cluster():
    """A real Ray cluster on 127.0.0.1, started as the README says (`ray start --head`, with a token), once for
    the tests that join it with --address: (address, the environment that holds the token)."""
    ray = Path(sys.executable).with_name("ray")
    if not ray.exists():
        pytest.skip("the ray command is not beside this Python")
    port = _free_port()
    token = {"RAY_AUTH_TOKEN": secrets.token_hex(32)}
    short = tempfile.mkdtemp(prefix="ray-", dir="/tmp")  # Ray's socket paths must stay under 108 bytes
    head = subprocess.Popen([str(ray), "start", "--head", "--block", "--port", str(port), "--num-cpus", "2",
                             "--disable-usage-stats", "--include-dashboard", "false", "--temp-dir", short],
                            env={**os.environ, **token}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        _wait_for_port(port, 90)
        yield f"127.0.0.1:{port}", token
    finally:  # SIGKILL: `ray start --block` takes half a minute over SIGTERM; its processes share its session
        _kill_session(head.pid)
        head.wait(60)
        shutil.rmtree(short, ignore_errors=True)


def _kill_session(session: int) -> None:
    """SIGKILL every process of the session the cluster was started in (Ray's daemons and workers among them)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session:  # the session id, after state, ppid and pgrp
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(stat.parent.name), signal.SIGKILL)


@pytest.mark.xdist_group("ray-cluster")
def test_a_measurement_on_a_ray_cluster_started_by_ray_start(tmp_path, ray_cluster):
    address, token = ray_cluster
    out = tmp_path / "cluster.jsonl"
    done = dealer("values", "measure", *TINY, "--address", address, "--out", str(out), env=token)
    assert done.returncode == 0, done.stderr
    check_games_are_the_seed_s(out, sample=2)


@pytest.mark.xdist_group("ray-cluster")
def test_a_measurement_killed_part_way_resumes_without_losing_or_repeating_a_game(tmp_path, ray_cluster):
    """Killed with SIGKILL while its games are played on the cluster, then run again with the same file."""
    address, token = ray_cluster
    killed = tmp_path / "killed.jsonl"
    command = [*DEALER, "values", "measure", *TINY, "--workers", "1", "--address", address, "--out", str(killed)]
    process = subprocess.Popen(command, env={**os.environ, **token}, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    ends = time.monotonic() + 120
    while (not killed.exists() or len(game_lines(killed)) < 4) and time.monotonic() < ends:
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    before = game_lines(killed)
    assert 4 <= len(before) < TINY_GAMES, "the run was to be stopped part-way"
    resumed = dealer(*command[3:], env=token)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(before)} games already" in resumed.stderr
    after = game_lines(killed)
    assert after[:len(before)] == before  # nothing lost or rewritten
    check_games_are_the_seed_s(killed, sample=2)  # and the same games a run never stopped plays


def _wait_for_port(port: int, seconds: float) -> None:
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"ray start --head did not listen on {port} in {seconds} s")


def test_an_unreachable_cluster_is_one_line(tmp_path):
    done = dealer("values", "measure", "--piece", "wazir", "--games", "1", "--address", "127.0.0.1:9",
                  "--out", str(tmp_path / "r.jsonl"), timeout=120)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "127.0.0.1:9" in done.stderr


def test_the_table_is_what_the_results_file_gives(tmp_path):
    source = Path(__file__).parents[3] / "dealers_chess" / "assets" / "values" / "results-8x8.jsonl.gz"
    if not source.exists():
        pytest.skip("no shipped results yet")
    table = tmp_path / "table.toml"
    done = dealer("values", "table", str(source), "--out", str(table))
    assert done.returncode == 0, done.stderr
    shipped = (source.parent / "table-8x8.toml").read_text()
    import tomllib

    mine, theirs = tomllib.loads(table.read_text()), tomllib.loads(shipped)
    assert mine["piece"] == theirs["piece"]
