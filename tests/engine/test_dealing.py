"""Dealing: counts per procedure, no card twice, reproducibility, fairness, decks and errors."""

from __future__ import annotations

from collections import Counter

import pytest

from dealers_chess.engine.dealing.arrangement import Choice, arrange, placement, royal_file
from dealers_chess.engine.dealing.deal import (
    DealError,
    balanced_deal,
    deal,
    deck_for,
    find_procedure,
    hand_value,
    load_procedures,
)
from dealers_chess.engine.dealing.deck import DeckError, load_deck, starter_deck
from dealers_chess.engine.measure.values import piece_value
from dealers_chess.engine.rng import SplitMix64
from dealers_chess.pieces.catalogue import load_catalogue

CATALOGUE = load_catalogue()
STARTER = starter_deck(CATALOGUE)
PROCEDURES = [p for p in load_procedures() if p.extra_row.value != "spears"]


def dealt(procedure, seed=7, deck=None):
    deck = deck or deck_for(procedure, STARTER, default=True)
    return deal(procedure, deck, seed), deck


@pytest.mark.parametrize("procedure", PROCEDURES, ids=lambda p: f"{p.board_name}-{p.extra_row.value}")
def test_each_procedure_deals_the_right_counts_and_no_card_twice(procedure):
    the_deal, deck = dealt(procedure)
    for side in ("white", "black"):
        hand = the_deal.hand(side)
        assert len(hand.pieces) == procedure.pieces_dealt and len(hand.pawns) == procedure.pawns
        assert hand.royal in deck.royals
    assert len(the_deal.shared) == procedure.shared_extras
    pieces = the_deal.white.pieces + the_deal.black.pieces + the_deal.shared + the_deal.draw_stack
    assert Counter(pieces) == Counter(deck.pieces)  # every card exactly once, none invented
    assert Counter(the_deal.white.pawns + the_deal.black.pawns) <= Counter(deck.pawns)
    assert the_deal.white.royal != the_deal.black.royal or Counter(deck.royals)[the_deal.white.royal] > 1


@pytest.mark.parametrize("procedure", PROCEDURES, ids=lambda p: f"{p.board_name}-{p.extra_row.value}")
def test_arrangement_places_every_dealt_card_once(procedure):
    the_deal, _ = dealt(procedure, seed=11)
    for side in ("white", "black"):
        army = arrange(the_deal, side, CATALOGUE)
        hand = the_deal.hand(side)
        on_board = Counter(card for row in army.rows for card in row)
        assert all(len(row) == procedure.files for row in army.rows)
        assert len(army.pawns) == (8 if procedure.simplified else procedure.files)
        if procedure.simplified:
            assert (Counter(army.promotes_to) + Counter(army.discarded)
                    == Counter(hand.pieces) + Counter(hand.pawns) - Counter([army.pawns[0]]))
            continue
        assert on_board[hand.royal] >= 1 and army.rows[0][royal_file(procedure)] == hand.royal
        assert on_board - Counter([hand.royal]) + Counter(army.hand) == Counter(hand.pieces)
        assert len(army.hand) == procedure.pieces_dealt - procedure.pieces_on_board
        assert Counter(army.pawns) == Counter(hand.pawns)
        squares = placement(procedure, army)
        assert len(squares) == procedure.files * (len(army.rows) + 1)


def test_royal_stands_in_the_centre_on_the_opposing_colour():
    for board, expected in (("8x8", "e"), ("10x10", "e"), ("12x12", "g")):
        procedure = find_procedure(board)
        file = royal_file(procedure)
        assert "abcdefghijkl"[file] == expected
        board_ = procedure.board
        assert not board_.is_light(board_.square(file, 0))  # White's royal on a dark square
        assert board_.is_light(board_.square(file, board_.ranks - 1))  # Black's on a light one


def test_same_seed_same_deal_and_a_golden_deal():
    procedure = find_procedure("8x8")
    assert deal(procedure, STARTER, 2024) == deal(procedure, STARTER, 2024)
    assert deal(procedure, STARTER, 2024) != deal(procedure, STARTER, 2025)
    golden = deal(procedure, STARTER, 1)
    assert (golden.white.royal, golden.black.royal) == GOLDEN_ROYALS
    assert golden.white.pieces[:4] == GOLDEN_WHITE_PIECES


GOLDEN_ROYALS = ("rex", "shogun")
GOLDEN_WHITE_PIECES = ("chancellor", "zebra", "rook", "lion")


def test_splitmix64_matches_the_published_reference_values():
    rng = SplitMix64(1234567)
    assert [rng.next64() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]


CHI2_CRITICAL_P001 = {6: 22.46, 23: 49.73, 39: 72.05}


def chi_square(counts: Counter, cards, per_deal: int, deals: int) -> float:
    """Statistic for 'each card is dealt with probability per_deal/len(cards)'; approx chi2(len-1)."""
    p = per_deal / len(cards)
    expected, variance = deals * p, deals * p * (1 - p)
    return sum((counts[c] - expected) ** 2 / variance for c in cards) * (len(cards) - 1) / len(cards)


# 20k deals (about 2,900 per royal, 5,500 per piece card) in the default run; the 100k run is the same
# check with a finer tolerance for a small bias (slow: about 25 s on a 2-core machine).
@pytest.mark.parametrize("deals", [20_000, pytest.param(100_000, marks=pytest.mark.slow)])
def test_deals_give_every_card_its_fair_share(deals):
    procedure = find_procedure("8x8")
    royals, pieces, pawns = Counter(), Counter(), Counter()
    for seed in range(deals):
        hand = deal(procedure, STARTER, seed).white
        royals[hand.royal] += 1
        pieces.update(hand.pieces)
        pawns.update(hand.pawns)
    assert chi_square(royals, STARTER.royals, 1, deals) < CHI2_CRITICAL_P001[6]
    assert chi_square(pieces, STARTER.pieces, 11, deals) < CHI2_CRITICAL_P001[39]
    assert chi_square(pawns, STARTER.pawns, 8, deals) < CHI2_CRITICAL_P001[23]


def test_custom_deck_uses_only_its_cards(tmp_path):
    path = tmp_path / "deck.toml"
    pieces = ["knight", "bishop", "rook", "queen", "wazir", "ferz", "alfil", "dabbaba", "camel", "zebra", "giraffe",
              "gnu", "bison", "lion", "guard", "kirin", "phoenix", "knight", "bishop", "rook", "queen", "wazir",
              "ferz", "camel"]
    path.write_text(
        'royals = ["king", "rex", "pope"]\n'
        f"pieces = {pieces!r}\n".replace("'", '"')
        + 'pawns = ["standard-pawn", "standard-pawn", "standard-pawn", "standard-pawn", "standard-pawn",'
        ' "standard-pawn", "standard-pawn", "standard-pawn", "iron-pawn", "iron-pawn", "iron-pawn", "iron-pawn",'
        ' "iron-pawn", "iron-pawn", "iron-pawn", "iron-pawn"]\n'
    )
    deck = load_deck(path, CATALOGUE)
    procedure = find_procedure("8x8")
    for seed in range(50):
        the_deal = deal(procedure, deck_for(procedure, deck, default=False), seed)
        used = set(the_deal.white.pieces + the_deal.black.pieces + the_deal.shared)
        assert used <= set(pieces)
        assert {the_deal.white.royal, the_deal.black.royal} <= {"king", "rex", "pope"}
        assert set(the_deal.white.pawns) <= {"standard-pawn", "iron-pawn"}


@pytest.mark.parametrize(
    "text, fragment",
    [
        ('royals = ["king", "rex"]\npieces = []\npawns = []\n', "at least 3 different royal"),
        ('royals = ["king", "rex", "pope"]\npieces = ["knight"]\npawns = []\n', "at least 16 piece cards"),
        ('royals = ["king", "rex", "knight"]\n', "'knight' is a piece card"),
        ('royals = ["kong"]\n', "did you mean king"),
        ('kings = []\n', "unknown key 'kings'"),
    ],
)
def test_bad_decks_are_refused_in_one_line(tmp_path, text, fragment):
    path = tmp_path / "deck.toml"
    path.write_text(text)
    with pytest.raises(Exception) as error:
        deck = load_deck(path, CATALOGUE)
        deck_for(find_procedure("8x8"), deck, default=False)
    assert fragment in str(error.value) and "\n" not in str(error.value)


def test_impossible_set_ups_are_refused():
    with pytest.raises(DealError, match="allowed: 8x8, 10x10"):
        find_procedure("8x8", "spears")
    with pytest.raises(DealError):
        find_procedure("12x12", "pieces")
    with pytest.raises(DeckError, match="spear cards"):
        deck_for(find_procedure("10x10", "spears"), STARTER, default=True)
    with pytest.raises(DeckError, match="needs 58 piece cards"):
        deck_for(find_procedure("12x12"), STARTER, default=False)


def test_player_arrangements_are_checked_against_the_cards_dealt():
    the_deal, _ = dealt(find_procedure("8x8"), seed=3)
    cards = list(the_deal.white.pieces[:7])
    army = arrange(the_deal, "white", CATALOGUE, Choice(rows=(tuple(cards),)))
    assert army.rows[0][4] == the_deal.white.royal and list(army.rows[0][:4] + army.rows[0][5:]) == cards
    assert set(army.hand) == set(the_deal.white.pieces[7:])
    not_dealt = next(p for p in STARTER.pieces if p not in the_deal.white.pieces)
    with pytest.raises(DealError, match=f"'{not_dealt}' was not dealt to white"):
        arrange(the_deal, "white", CATALOGUE, Choice(rows=((not_dealt, *cards[1:]),)))
    with pytest.raises(DealError, match="row 1 has 6 cards"):
        arrange(the_deal, "white", CATALOGUE, Choice(rows=(tuple(cards[:6]),)))
    with pytest.raises(DealError, match="pawns must be exactly"):
        arrange(the_deal, "white", CATALOGUE, Choice(pawns=("standard-pawn",) * 8))


def test_max_imbalance_redeals_until_the_armies_are_close():
    procedure = find_procedure("8x8")
    the_deal = balanced_deal(procedure, STARTER, 5, CATALOGUE, 0.5)
    gap = abs(hand_value(the_deal, "white", CATALOGUE) - hand_value(the_deal, "black", CATALOGUE))
    assert gap <= 0.5 and the_deal.attempts >= 1
    assert balanced_deal(procedure, STARTER, 5, CATALOGUE, 0.5) == the_deal


def test_simplified_deal_builds_an_orthodox_row_of_stand_ins():
    the_deal, _ = dealt(find_procedure("simplified"), seed=9)
    army = arrange(the_deal, "white", CATALOGUE)
    queen, rook, bishop, knight = army.promotes_to
    assert army.rows[0] == (rook, knight, bishop, queen, the_deal.white.royal, bishop, knight, rook)
    assert len(set(army.pawns)) == 1 and army.pawns[0] in the_deal.white.pawns
    assert queen == max(the_deal.white.pieces, key=lambda card: piece_value(CATALOGUE.get(card)))
