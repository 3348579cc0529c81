"""The self-play value method: imbalanced starts, the results file, the statistics and the playout."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from dealers_chess.engine.game import default_catalogue
from dealers_chess.engine.measure.values import model_piece_value
from dealers_chess.engine.notation import format_fen, parse_fen
from dealers_chess.engine.rules import legal_moves
from dealers_chess.engine.selfplay.estimate import estimate
from dealers_chess.engine.selfplay.imbalance import base_for, matchups_for
from dealers_chess.engine.selfplay.play import GameTask, play_game
from dealers_chess.engine.selfplay.playout import turned_round, verdict
from dealers_chess.engine.selfplay.results import (
    RecordedMatchup,
    Results,
    Settings,
    read_results,
    recorded,
    tasks_to_play,
)
from dealers_chess.printing.value_results import ResultsWriter

CATALOGUE = default_catalogue()
BASE = base_for("8x8")


def model(piece_id: str) -> float:
    return model_piece_value(CATALOGUE.get(piece_id))


def starter_plan():
    return matchups_for(CATALOGUE.select(sets=["starter"]), BASE, CATALOGUE, model)


def test_every_starter_piece_has_one_matchup_after_the_ones_it_needs():
    plan = starter_plan()
    targets = [m.target for m in plan]
    assert targets[:6] == ["standard-pawn", "standard-pawn", "knight", "rook", "queen", "bishop"]
    assert sorted(targets[1:]) == sorted(p.id for p in CATALOGUE.select(sets=["starter"])
                                                                if p.id != "king")
    seen = {"standard-pawn"}
    for matchup in plan:
        assert all(need in seen or need == "king" for need in matchup.needs), matchup.id
        seen.add(matchup.target)


def test_the_ladder_and_the_yardsticks_are_what_the_method_says():
    terms = {m.id: dict(m.terms) for m in starter_plan()}
    assert terms["scale"] == {"standard-pawn": 1} and terms["scale:3"] == {"standard-pawn": 3}
    assert terms["piece:knight"] == {"knight": 1, "standard-pawn": -3}
    assert terms["piece:rook"] == {"rook": 1, "knight": -1, "standard-pawn": -2}
    assert terms["piece:queen"] == {"queen": 1, "rook": -1, "knight": -1, "standard-pawn": -1}
    assert terms["pair:bishop"] == {"bishop": 2, "knight": -2}
    assert terms["piece:archbishop"] == {"archbishop": 1, "queen": -1, "standard-pawn": 2}  # A = Q - 2 + gap
    assert terms["royal:chef"] == {"chef": 1, "king": -1}
    assert terms["pawn:gold-pawn"] == {"gold-pawn": 1, "standard-pawn": -4}  # one Gold Pawn, A 3 Pawns down
    assert terms["pawn:mongolian-pawn"] == {"mongolian-pawn": 8, "standard-pawn": -8}  # all eight swapped


def test_every_start_is_a_legal_chess_position_and_the_colour_swap_mirrors_it():
    game = BASE.game_def()
    for matchup in starter_plan():
        as_white, as_black = (parse_fen(matchup.fen(CATALOGUE, a_is_white), game, CATALOGUE) for a_is_white in
                              (True, False))
        assert legal_moves(as_white) and legal_moves(as_black), matchup.id
        white_rows = matchup.fen(CATALOGUE, True).split(" ")[0].split("/")
        black_rows = matchup.fen(CATALOGUE, False).split(" ")[0].split("/")
        assert black_rows == [row.swapcase() for row in reversed(white_rows)], matchup.id


def test_a_game_depends_only_on_its_task():
    matchup = next(m for m in starter_plan() if m.id == "piece:wazir")
    task = GameTask(matchup.id, 1, matchup.fen(CATALOGUE, False), 7, 40)
    first = play_game(task, BASE.game_def(), CATALOGUE)
    again = play_game(task, BASE.game_def(), CATALOGUE)
    assert (first.score, first.plies, first.reason) == (again.score, again.plies, again.reason)
    assert first.score in (0.0, 0.5, 1.0) and first.plies > 4


def _results_with(scores: dict[str, list[float]]) -> Results:
    plan = starter_plan()
    results = Results(settings=Settings("8x8", 100, 1))
    for matchup in plan:
        if matchup.id in scores:
            results.matchups[matchup.id] = recorded(matchup, CATALOGUE)
            results.games[matchup.id] = {i: {"score": s} for i, s in enumerate(scores[matchup.id])}
    return results


def test_values_follow_from_the_scores_through_the_pawn_odds_scale():
    pawn_odds = [1, 1, 1, 0.5, 1, 0, 1, 1, 0.5, 1] * 8  # 80 %
    level = [1, 1, 0, 0, 0.5, 0.5, 1, 0] * 10  # 50 %, pairs that differ
    results = _results_with({"scale": pawn_odds, "piece:knight": level, "piece:rook": level,
                             "piece:queen": pawn_odds, "piece:archbishop": level})
    found = estimate(results)
    assert found["knight"].value == pytest.approx(3.0)  # level against 3 Pawns
    assert found["rook"].value == pytest.approx(5.0)  # level against N + 2 Pawns
    assert found["queen"].value == pytest.approx(10.0)  # a Pawn ahead of R + N + 1 Pawn
    assert found["archbishop"].value == pytest.approx(8.0)  # level against Q - 2 Pawns
    for measured in (found[p] for p in found if p != "standard-pawn"):
        assert measured.low < measured.value < measured.high
    # the archbishop's interval carries the queen's, which carries the rook's and the knight's
    assert found["archbishop"].half_width > found["queen"].half_width > found["knight"].half_width
    assert found["knight"].games == 80


def test_the_pawn_is_fitted_to_one_and_three_pawn_odds_together():
    from dealers_chess.engine.selfplay.estimate import pawn_logit

    one = [1, 1, 1, 0.5, 1, 0, 1, 1, 0.5, 1] * 8  # 80 %: logit 1.39
    three = [1] * 70 + [0] * 10  # 87.5 %: logit 1.95, 0.65 a Pawn
    k_one, k_three = math.log(0.8 / 0.2), math.log(0.875 / 0.125) / 3
    both = pawn_logit(_results_with({"scale": one, "scale:3": three}))
    assert min(k_one, k_three) < both < max(k_one, k_three)
    assert abs(both - k_three) < abs(both - k_one)  # three Pawns' odds weigh more (odds squared)
    assert pawn_logit(_results_with({"scale": one})) == pytest.approx(k_one)


def test_the_interval_narrows_as_games_come_in():
    few = estimate(_results_with({"scale": [1, 0.5, 1, 1] * 10, "piece:knight": [1, 1, 0, 0] * 10}))
    many = estimate(_results_with({"scale": [1, 0.5, 1, 1] * 160, "piece:knight": [1, 1, 0, 0] * 160}))
    assert many["knight"].half_width < few["knight"].half_width / 2.5


def test_a_results_file_survives_a_half_written_line_and_resumes_without_repeating(tmp_path):
    path = tmp_path / "results.jsonl"
    plan = starter_plan()[:2]
    with ResultsWriter(path) as writer:
        writer.append(Settings("8x8", 50, 3).header())
        for matchup in plan:
            writer.append(recorded(matchup, CATALOGUE).line())
        for index in range(3):
            writer.append({"type": "game", "matchup": "scale", "index": index, "score": 1.0, "reason": "x",
                           "plies": 10, "seconds": 0.1})
    with open(path, "ab") as file:
        file.write(b'{"type":"game","matchup":"scale","ind')  # killed while writing
    results = read_results(path)
    assert results.game_count == 3 and results.settings == Settings("8x8", 50, 3)
    chosen = list(results.matchups.values())
    todo = tasks_to_play(results, chosen, 2)
    assert [t.index for t in todo if t.matchup == "scale"] == [3, 4, 5, 6, 7]  # 8 = 2 games x 4 for the scale
    assert len({(t.matchup, t.index) for t in todo}) == len(todo)
    assert todo[0].fen == chosen[0].fens[1] and todo[1].fen == chosen[0].fens[0]  # odd index: A is Black
    with ResultsWriter(path) as writer:  # opening it again cuts the half line off
        writer.append({"type": "game", "matchup": "scale", "index": 3, "score": 0.0, "reason": "x", "plies": 9,
                       "seconds": 0.1})
    lines = path.read_text().splitlines()
    assert all(json.loads(line) for line in lines) and read_results(path).game_count == 4


def test_the_openings_are_the_seed_s_alone():
    results = Results(settings=Settings("8x8", 50, 3))
    chosen = [recorded(m, CATALOGUE) for m in starter_plan()[:3]]
    first = tasks_to_play(results, chosen, 2)
    other = tasks_to_play(Results(settings=Settings("8x8", 50, 4)), chosen, 2)
    assert first == tasks_to_play(results, list(chosen), 2)
    assert [t.opening_seed for t in first] != [t.opening_seed for t in other]


def test_a_recorded_matchup_reads_back_the_same():
    matchup = recorded(starter_plan()[7], CATALOGUE)
    line = json.loads(json.dumps(matchup.line()))
    back = RecordedMatchup(line["id"], line["target"], line["form"], tuple((p, n) for p, n in line["terms"]),
                           tuple(line["fens"]), tuple(line["movements"].items()))
    assert back == matchup


def test_a_deal_turned_round_is_a_legal_start_and_turns_back():
    from tests.benchmarks.match import deal_fen

    fen = deal_fen(42)
    turned = turned_round(fen)
    pos = parse_fen(turned, "dealers-8x8", CATALOGUE)
    assert legal_moves(pos)
    assert turned_round(turned) == fen
    assert format_fen(parse_fen(fen, "dealers-8x8", CATALOGUE)).split(" ")[0] == fen.split(" ")[0]


def test_the_playout_verdict_says_which_army_is_stronger():
    strong = verdict({i: 1.0 if i % 4 else 0.5 for i in range(40)}, math.log(0.65 / 0.35))
    assert strong.low > 0.5 and "White's army is stronger" in strong.line() and strong.pawns > 2
    level = verdict({i: [1.0, 0.0][i % 2] for i in range(40)}, math.log(0.65 / 0.35))
    assert "neither army" in level.line() and level.pawns == pytest.approx(0)
    assert math.isclose(level.score, 0.5)
    assert np.isfinite(verdict({0: 0.0, 1: 0.0}, None).low)


def test_a_piece_alone_brings_the_scale_and_just_the_rungs_of_the_ladder_it_stands_on():
    rungs = {m.target: m for m in starter_plan()[2:6]}
    alone_counts = set()
    for piece in CATALOGUE.select(sets=["starter"], groups=["piece"]):
        plan = matchups_for([piece], BASE, CATALOGUE, model)
        assert [m.id for m in plan[:2]] == ["scale", "scale:3"] and plan[-1].target == piece.id
        stands_on, todo = set(), list(plan[-1].needs)
        while todo:
            need = todo.pop()
            if need in rungs and need not in stands_on:
                stands_on.add(need)
                todo += rungs[need].needs
        assert [m.target for m in plan[2:-1]] == [r for r in rungs if r in stands_on], piece.id
        alone_counts.add(len(plan))
    assert {3, 4, 5, 6} <= alone_counts  # against Pawns alone, a Knight, a Rook and a Queen
