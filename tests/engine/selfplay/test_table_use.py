"""The measured table reaches everything that shows or deals by a value: piece, catalogue, values, cards, deals."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli as main
from dealers_chess.engine.board import board_of
from dealers_chess.engine.dealing.deal import balanced_deal, deck_for, find_procedure, hand_value, imbalance_margin
from dealers_chess.engine.dealing.deck import starter_deck
from dealers_chess.engine.game import default_catalogue
from dealers_chess.engine.measure import table
from dealers_chess.engine.measure.values import model_piece_value, piece_value, value_margin
from dealers_chess.pieces.movement import parse_movement
from dealers_chess.printing.cards.deck import face_info

CATALOGUE = default_catalogue()
EIGHT = board_of(8, 8)
TABLE = {
    "settings": {"board": "8x8", "nodes": 300, "seed": 1, "pawn_odds_score": 0.63},
    "piece": {
        "knight": {"value": 3.2, "low": 2.9, "high": 3.5, "games": 256, "betza": "N", "matchup": "piece:knight"},
        "archbishop": {"value": 7.9, "low": 7.3, "high": 8.5, "games": 130, "betza": "BN",
                       "matchup": "piece:archbishop"},
        "camel": {"value": 2.5, "low": 0.5, "high": 4.5, "games": 20, "betza": "C", "matchup": "piece:camel"},
    },
}


@pytest.fixture()
def measured(monkeypatch):
    monkeypatch.setattr(table, "shipped_table", lambda board: TABLE if board == "8x8" else {"settings": {},
                                                                                           "piece": {}})


def test_a_precise_measurement_is_the_value_and_a_wide_one_is_not(measured):
    assert piece_value(CATALOGUE.get("knight")) == 3.2 and value_margin(CATALOGUE.get("knight")) == 0.3
    assert piece_value(CATALOGUE.get("camel")) == model_piece_value(CATALOGUE.get("camel"))  # +-2: not yet
    assert value_margin(CATALOGUE.get("camel")) is None
    moved = replace(CATALOGUE.get("knight"), movement=parse_movement("NW"))  # your own knight: the model's
    assert value_margin(moved) is None
    assert piece_value(CATALOGUE.get("knight"), board_of(10, 10)) == model_piece_value(CATALOGUE.get("knight"),
                                                                                      board_of(10, 10))


def test_cards_print_the_measurement_with_its_margin(measured):
    info = face_info(CATALOGUE, CATALOGUE.get("archbishop"), "starter")
    assert (info.value, info.margin, info.value_text) == (7.9, 0.6, "7.9 \u00b1 0.6")
    assert face_info(CATALOGUE, CATALOGUE.get("camel"), "starter").value_text.startswith("\u2248")


def test_the_dealer_adds_measured_values_and_says_the_margin(measured):
    procedure = find_procedure("8x8")
    deal = balanced_deal(procedure, deck_for(procedure, starter_deck(CATALOGUE), True), 42, CATALOGUE, None)
    cards = [*deal.white.pieces, *deal.shared]
    expected = sum(piece_value(CATALOGUE.get(c)) for c in (deal.white.royal, *cards, *deal.white.pawns,
                                                          *deal.white.spears))
    assert hand_value(deal, "white", CATALOGUE) == pytest.approx(expected, abs=0.01)
    margin, model_cards = imbalance_margin(deal, CATALOGUE)
    dealt = [*deal.white.pieces, *deal.black.pieces, *deal.shared, *deal.shared]
    precise = [c for c in dealt if c in ("knight", "archbishop")]
    assert margin == pytest.approx(sum(value_margin(CATALOGUE.get(c)) ** 2 for c in precise) ** 0.5, abs=0.01)
    assert model_cards == 2 + 2 * len(deal.white.pawns) + len(dealt) - len(precise)


def test_the_commands_show_the_measurement(measured):
    runner = CliRunner()
    shown = runner.invoke(main, ["piece", "archbishop"])
    assert "7.90 \u00b1 0.60 (measured by self-play" in shown.output
    data = json.loads(runner.invoke(main, ["piece", "archbishop", "--json"]).output)
    assert (data["value"], data["value_margin"]) == (7.9, 0.6)
    listed = {row["id"]: row for row in json.loads(runner.invoke(main, ["catalogue", "--json"]).output)}
    assert listed["archbishop"]["measured"] and not listed["camel"]["measured"]
    rows = {row["id"]: row for row in json.loads(runner.invoke(main, ["values", "--json"]).output)}
    assert rows["camel"]["measured"]["value"] == 2.5 and rows["camel"]["uses"] == "model"
    assert rows["knight"]["uses"] == "measured" and rows["queen"]["measured"] is None
    dealt = runner.invoke(main, ["deal", "--seed", "42"])
    assert "\u00b1" in dealt.output.split("Imbalance")[1].split("\n")[0] or "model's estimates" in dealt.output
