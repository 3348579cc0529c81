"""`dealer perft` and `dealer moves` as a user runs them."""

from __future__ import annotations

import json

from click.testing import CliRunner

from dealer_cli import cli


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_perft_prints_the_leaf_count_last():
    result = run("perft", "chess", "--depth", "3")
    assert result.exit_code == 0 and result.output.strip().splitlines()[-1] == "8902"
    divided = run("perft", "chess", "--depth", "2", "--moves", "e2e4,e7e5", "--divide")
    lines = [line for line in divided.output.strip().splitlines() if " nodes in " not in line]
    assert lines[-1] == str(sum(int(line.split(": ")[1]) for line in lines[:-1]))
    assert "g1f3: " in divided.output


def test_perft_and_moves_from_a_deal_file(tmp_path):
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps({"board": "8x8", "fen": "4(sg)3/8/8/8/8/8/4P3/4(PR)3 w - - 0 1"}))
    assert run("perft", "--deal", str(deal), "--depth", "1").output.strip().splitlines()[-1] == "6"
    listed = json.loads(run("moves", "--deal", str(deal), "--json").output)
    assert listed["game"] == "dealers-8x8" and {m["move"] for m in listed["moves"]} >= {"e2e3", "e2e4", "e1d1"}


def test_moves_reports_mate_and_json():
    result = run("moves", "chess", "--moves", "f2f3,e7e5,g2g4,d8h4", "--json")
    data = json.loads(result.output)
    assert data["check"] and data["moves"] == [] and data["outcome"] == {"result": "0-1", "reason": "checkmate"}
    text = run("moves", "dealers-10x10").output
    assert text.strip().endswith("legal moves") and "Dealer's Chess 10x10" in text


def test_bad_input_is_one_line_and_exit_1():
    for args in (("moves", "chess", "--moves", "e2e5"), ("perft", "nochess", "--depth", "1"),
                 ("moves", "chess", "--fen", "8/8 w"), ("perft", "--depth", "1")):
        result = run(*args)
        assert result.exit_code == 1, args
        assert result.output.startswith("error: ") and len(result.output.strip().splitlines()) == 1
