"""`values measure --until`: where the next pairs go, on planted results (engine.selfplay.allocate)."""

from __future__ import annotations

import numpy as np
import pytest

from dealers_chess.engine.game import default_catalogue
from dealers_chess.engine.measure.values import model_piece_value
from dealers_chess.engine.selfplay.allocate import MIN_PAIRS, first_pairs, logit_weights, plan_pairs
from dealers_chess.engine.selfplay.estimate import estimate
from dealers_chess.engine.selfplay.imbalance import base_for, matchups_for
from dealers_chess.engine.selfplay.results import Results, Settings, recorded, task_of, tasks_for_pairs

CATALOGUE = default_catalogue()
PIECES = ["archbishop", "mongolian-pawn", "wazir"]
# (games, score): about the shipped file's ladder, an Archbishop already played a lot, a Wazir and a pawn type a little
PLANTED = {"scale": (224, 0.607), "scale:3": (152, 0.763), "piece:knight": (218, 0.544), "piece:rook": (216, 0.412),
           "piece:queen": (168, 0.625), "piece:archbishop": (400, 0.5), "piece:wazir": (54, 0.306),
           "pawn:mongolian-pawn": (54, 0.481)}


def _plan():
    base = base_for("8x8")
    chosen = matchups_for([CATALOGUE.get(p) for p in PIECES], base, CATALOGUE,
                          lambda p: model_piece_value(CATALOGUE.get(p)))
    return [recorded(m, CATALOGUE) for m in chosen]


def _planted(planted: dict[str, tuple[int, float]]) -> tuple[Results, list]:
    """Results with these games and scores: wins and losses in a fixed shuffled order, as independent games give."""
    chosen = _plan()
    results = Results(settings=Settings("8x8", 300, 1), matchups={m.id: m for m in chosen})
    rng = np.random.default_rng(7)
    for matchup_id, (games, score) in planted.items():
        wins = round(score * games)
        scores = rng.permutation([1.0] * wins + [0.0] * (games - wins))
        results.games[matchup_id] = {i: {"score": float(s)} for i, s in enumerate(scores)}
    return results, chosen


def _widths(results: Results) -> dict[str, float]:
    found = estimate(results)
    return {p: found[p].half_width for p in PIECES}


def test_a_value_is_its_own_logit_and_its_yardsticks_down_the_ladder():
    weights = logit_weights(_plan())
    assert weights["archbishop"] == {"piece:archbishop": 1, "piece:queen": 1, "piece:rook": 1, "piece:knight": 2}
    assert weights["mongolian-pawn"] == {"pawn:mongolian-pawn": 1 / 8}  # eight swapped: an eighth of the gap each
    assert weights["queen"] == {"piece:queen": 1, "piece:rook": 1, "piece:knight": 2}


def test_a_piece_against_the_queen_gets_its_pairs_on_the_ladder_and_a_narrow_pawn_type_none():
    results, chosen = _planted(PLANTED)
    widths = _widths(results)
    assert widths["archbishop"] > 1.2 and widths["mongolian-pawn"] < 0.5  # the Queen is the wide part
    pairs = plan_pairs(results, chosen, {"archbishop": widths["archbishop"],
                                         "mongolian-pawn": widths["mongolian-pawn"]}, 0.75, 1000, 64)
    assert sum(pairs.values()) == 64 and "pawn:mongolian-pawn" not in pairs
    ladder = sum(pairs.get(m, 0) for m in ("piece:knight", "piece:rook", "piece:queen", "scale", "scale:3"))
    assert ladder > 3 * pairs.get("piece:archbishop", 0) and pairs.get("piece:knight", 0) > 0
    assert "piece:wazir" not in pairs  # not asked for


def test_pieces_within_the_goal_get_nothing_and_wider_ones_more():
    results, chosen = _planted(PLANTED)
    widths = _widths(results)
    assert plan_pairs(results, chosen, {"mongolian-pawn": widths["mongolian-pawn"]}, 0.75, 1000, 64) == {}
    wazir = plan_pairs(results, chosen, {"wazir": widths["wazir"]}, 0.75, 1000, 64)
    assert set(wazir) <= {"piece:wazir", "piece:knight", "scale", "scale:3"} and wazir["piece:wazir"] > 32
    # without a round's limit: about what the delta method says it takes, and a narrower goal takes more
    whole, half = (sum(plan_pairs(results, chosen, {"wazir": widths["wazir"]}, goal, 1000, None).values())
                   for goal in (0.75, 1.0))
    assert 64 < half < whole < 1000


def test_a_round_predicted_to_be_enough_stops_short_unless_every_player_needs_a_pair():
    results, chosen = _planted(PLANTED)
    widths = _widths(results)
    just_over = {"wazir": widths["wazir"]}
    goal = widths["wazir"] * 0.99
    assert sum(plan_pairs(results, chosen, just_over, goal, 1000, 64).values()) <= 2
    assert sum(plan_pairs(results, chosen, just_over, goal, 1000, 64, least=8).values()) == 8


def test_the_cap_holds_and_a_new_matchup_first_gets_its_first_pairs_alone():
    results, chosen = _planted(PLANTED)
    widths = _widths(results)
    capped = plan_pairs(results, chosen, {"wazir": widths["wazir"]}, 0.75, 56, 64)  # the Wazir has 54 games
    assert capped["piece:wazir"] == 1 and capped.get("piece:knight", 0) <= 3 and "scale" not in capped  # 224 a rung
    full = plan_pairs(results, chosen, {"wazir": widths["wazir"]}, 0.75, 54, 64)
    assert "piece:wazir" not in full and full  # what is left to narrow: the Knight's rung and the scale's k
    assert plan_pairs(results, chosen, {"wazir": widths["wazir"]}, 0.75, 38, 64) == {}  # every matchup full
    fresh, _ = _planted({m: g for m, g in PLANTED.items() if m != "piece:wazir"})
    pairs = plan_pairs(fresh, chosen, {"wazir": float("inf")}, 0.75, 1000, 64)
    assert pairs == first_pairs(fresh, chosen, {"wazir": float("inf")}, 0.75, 1000) == {"piece:wazir": MIN_PAIRS}


def test_the_next_pairs_are_the_lowest_not_yet_played_whatever_chose_them():
    results, chosen = _planted({"scale": (6, 0.5)})
    del results.games["scale"][3]  # a half-played pair (killed part-way) is finished first
    tasks = tasks_for_pairs(results, chosen, {"scale": 2, "piece:knight": 1})
    assert [(t.matchup, t.index) for t in tasks] == [("scale", 3), ("piece:knight", 0), ("piece:knight", 1),
                                                     ("scale", 6), ("scale", 7)]
    matchup = results.matchups["scale"]
    assert tasks[-1] == task_of(results.settings, matchup, 7) and tasks[-1].fen == matchup.fens[1]


@pytest.mark.parametrize("until", [0.5, 2.0])
def test_every_pair_goes_to_a_matchup_a_wide_piece_stands_on(until):
    results, chosen = _planted(PLANTED)
    widths = _widths(results)
    weights = logit_weights(chosen)
    pairs = plan_pairs(results, chosen, widths, until, 1000, 40)
    stands_on = {m for p, w in widths.items() if w > until for m in weights[p]} | {"scale", "scale:3"}
    assert set(pairs) <= stands_on
