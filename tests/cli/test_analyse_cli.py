"""`dealer analyse`: best move, score and line in SAN, as text and JSON; errors in one line."""

from __future__ import annotations

import json

from click.testing import CliRunner

from dealers_chess.cli import cli

SCHOLAR = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4"


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_analyse_finds_the_mate_and_prints_the_line():
    result = run("analyse", "chess", "--fen", SCHOLAR, "--depth", "3")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Chess: r1bqkb1r")
    assert "score: mate in 1 for white" in result.output
    assert "line: Qxf7#" in result.output
    assert lines[-1] == "best move: Qxf7# (h5f7)"


def test_analyse_json_after_moves():
    result = run("analyse", "chess", "--moves", "e2e4,e7e5", "--depth", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["turn"] == "white" and data["depth"] == 3 and data["mate_in"] is None
    assert isinstance(data["score_cp"], int) and data["nodes"] > 0
    assert data["best"]["move"] == data["pv_moves"][0] and data["best"]["san"] == data["pv"][0]
    assert len(data["pv"]) == len(data["pv_moves"]) >= 3


def test_analyse_a_deal_with_time(tmp_path):
    deal = tmp_path / "deal.json"
    assert run("deal", "--seed", "4", "--board", "10x10", "--save", str(deal)).exit_code == 0
    result = run("analyse", "--deal", str(deal), "--time", "0.3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "dealers-10x10" and data["best"] is not None and data["seconds"] < 1.0


def test_analyse_a_finished_game_and_bad_input():
    over = run("analyse", "chess", "--fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1")
    assert over.exit_code == 0 and "no legal move for black: the game is over (checkmated)" in over.output
    over_json = json.loads(run("analyse", "chess", "--fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "--json").output)
    assert over_json["best"] is None and over_json["mate_in"] == 0 and over_json["pv"] == []
    for args, words in (
        (("analyse", "chess", "--fen", "bad"), "FEN 'bad'"),
        (("analyse", "chess", "--time", "-1"), "--time"),
        (("analyse", "chess", "--depth", "0"), "--depth"),
        (("analyse", "nosuchgame"), "nosuchgame"),
        (("analyse", "chess", "--moves", "e2e5"), "e2e5"),
    ):
        result = run(*args)
        assert result.exit_code != 0
        message = result.output.strip() or str(result.exception)
        assert words in message, message
