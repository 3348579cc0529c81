"""`dealer perft` and `dealer moves` as a user runs them."""

from __future__ import annotations

import json

from click.testing import CliRunner

from dealers_chess.cli import cli


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
    assert run("deal", "--seed", "7", "--save", str(deal)).exit_code == 0
    saved = json.loads(deal.read_text())
    from_file = run("perft", "--deal", str(deal), "--depth", "2").output.strip().splitlines()[-1]
    from_fen = run("perft", saved["game"], "--fen", saved["fen"], "--depth", "2").output.strip().splitlines()[-1]
    assert from_file == from_fen and int(from_file) > 0
    listed = json.loads(run("moves", "--deal", str(deal), "--json").output)
    assert listed["game"] == saved["game"] == "dealers-8x8" and len(listed["moves"]) > 0


def test_a_deal_file_without_its_fields_is_refused_in_one_line(tmp_path):
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps({"board": "8x8", "fen": "4(sg)3/8/8/8/8/8/4P3/4(PR)3 w - - 0 1"}))
    result = run("perft", "--deal", str(deal), "--depth", "1")
    assert result.exit_code == 1 and result.output.strip() == f"error: {deal}: missing key 'seed'"


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
