"""`dealer deal`: readable output, JSON with a FEN that sets up the deal, saved deals, errors."""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli
from dealers_chess.engine.notation import parse_fen
from dealers_chess.pieces.catalogue import load_catalogue

CATALOGUE = load_catalogue()
SIDES = {"white": 0, "black": 1}


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def deal_json(*args):
    result = run("deal", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_plain_deal_is_readable_and_names_its_seed():
    result = run("deal")
    assert result.exit_code == 0
    assert "Deal " in result.output and "White (value" in result.output and "FEN: " in result.output
    seed = int(result.output.split()[1].rstrip(":"))
    assert run("deal", "--seed", str(seed)).output == result.output


@pytest.mark.parametrize("board", ["8x8", "10x10", "12x12", "simplified"])
def test_json_fen_sets_up_exactly_what_the_deal_says(board):
    data = deal_json("--seed", "77", "--board", board)
    assert {"seed", "board", "white", "black", "fen"} <= set(data) and data["seed"] == 77
    position = parse_fen(data["fen"], data["game"], CATALOGUE)
    files = position.board.files
    ranks = position.board.ranks
    for side, index in SIDES.items():
        army = data[side]
        rows = army.get("back_ranks", [army["back_rank"]]) + ([army["extra_row"]] if "extra_row" in army else [])
        rows = rows + [army["pawns"]]
        for k, row in enumerate(rows):
            rank = k if side == "white" else ranks - 1 - k
            assert len(row) == files
            for file, card in enumerate(row):
                assert position.piece_at(position.board.square(file, rank)) == (card, index)
        assert Counter(position.hands[index]) == Counter(army["hand"])
    occupied = sum(1 for sq in range(position.board.size) if position.piece_at(sq))
    assert occupied == sum(len(r) for s in SIDES for r in
                           data[s].get("back_ranks", [data[s]["back_rank"]]) + [data[s]["pawns"]] +
                           ([data[s]["extra_row"]] if "extra_row" in data[s] else []))


def test_back_rank_lists_ids_by_file_with_the_royal_in_the_centre():
    data = deal_json("--seed", "5")
    assert data["white"]["back_rank"][4] == data["white"]["royal"]
    assert data["black"]["back_rank"][4] == data["black"]["royal"]
    assert len(data["white"]["pawns"]) == 8 and len(data["white"]["kept"]) == 4 and len(data["shared"]) == 2


def test_saved_deal_feeds_perft_and_moves(tmp_path):
    path = tmp_path / "deal.json"
    assert run("deal", "--seed", "9", "--save", str(path)).exit_code == 0
    saved = json.loads(path.read_text())
    assert saved["seed"] == 9
    perft = run("perft", "--deal", str(path), "--depth", "1")
    assert perft.exit_code == 0, perft.output
    moves = run("moves", "--deal", str(path), "--json")
    assert moves.exit_code == 0 and int(perft.output.split()[-1]) == len(json.loads(moves.output)["moves"])


def test_player_choice_from_the_command_line_and_a_bad_choice():
    data = deal_json("--seed", "3")
    dealt = data["white"]["dealt"]["pieces"]
    back = ",".join(dealt[:7])
    chosen = deal_json("--seed", "3", "--white-back", back)
    assert [c for c in chosen["white"]["back_rank"] if c != chosen["white"]["royal"]] == dealt[:7]
    stranger = next(c for c in data["black"]["dealt"]["pieces"] if c not in dealt)
    result = run("deal", "--seed", "3", "--white-back", ",".join([stranger] + dealt[1:7]))
    assert result.exit_code == 1 and f"'{stranger}' was not dealt to white" in result.output
    assert result.output.count("\n") == 1


def test_interactive_arrangement_asks_again_after_a_mistake():
    data = deal_json("--seed", "4")
    dealt = data["white"]["dealt"]["pieces"]
    wrong = ",".join(dealt[:6] + ["queen-of-hearts"])
    answers = wrong + "\n\n" + ",".join(dealt[:7]) + "\n\n\n\n"
    result = run("deal", "--seed", "4", "--interactive", input=answers)
    assert result.exit_code == 0, result.output
    assert "'queen-of-hearts' was not dealt to white" in result.output
    assert ", ".join(CATALOGUE.get(c).name for c in dealt[:3]) in result.output


def test_arrangement_file(tmp_path):
    data = deal_json("--seed", "8")
    pawns = list(reversed(data["black"]["dealt"]["pawns"]))
    path = tmp_path / "arrange.toml"
    path.write_text("[black]\npawns = " + json.dumps(pawns) + "\n")
    assert deal_json("--seed", "8", "--arrange", str(path))["black"]["pawns"] == pawns
    path.write_text("[grey]\n")
    assert "unknown key 'grey'; allowed: white, black" in run("deal", "--seed", "8", "--arrange", str(path)).output


def test_balance_and_big_deck():
    data = deal_json("--seed", "12", "--max-imbalance", "1")
    assert data["imbalance"] <= 1 and data["deals"] >= 1
    big = deal_json("--seed", "12", "--big-deck")
    assert big["big_deck"] and len(big["draw_stack"]) == 40 - 2 * 11 - 2
    assert "draw=" in big["fen"]


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--board", "8x8", "--extra-row", "spears"], "not a set-up in the rules"),
        (["--board", "10x10", "--extra-row", "spears"], "spear cards"),
        (["--board", "simplified", "--big-deck"], "--big-deck needs a full deal"),
        (["--deck", "missing.toml"], "no such deck file"),
    ],
)
def test_impossible_requests_are_one_line_errors(args, fragment):
    result = run("deal", *args)
    assert result.exit_code == 1 and fragment in result.output and result.output.count("\n") == 1


def test_deal_sheet_pdf(tmp_path):
    result = run("deal", "--seed", "21", "--sheet", "--out", str(tmp_path))
    assert result.exit_code == 0
    import pdfplumber

    with pdfplumber.open(tmp_path / "deal-21.pdf") as pdf:
        page = pdf.pages[0]
        assert (page.width, page.height) == (612, 792)
        text = page.extract_text()
    data = deal_json("--seed", "21")
    for side in SIDES:
        assert CATALOGUE.get(data[side]["royal"]).name in text
    assert "deal 21" in text


def test_cards_for_a_deal_print_just_the_cards_in_play(tmp_path):
    import pdfplumber

    deal_file = tmp_path / "deal.json"
    assert run("deal", "--seed", "42", "--save", str(deal_file)).exit_code == 0
    data = json.loads(deal_file.read_text())
    result = run("cards", "--deal", str(deal_file), "--pictures", "silhouette", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    with pdfplumber.open(next(tmp_path.glob("cards/*.pdf"))) as pdf:
        text = "\n".join(page.extract_text() for page in pdf.pages)
    in_play = {data[s]["royal"] for s in SIDES} | set(data["shared"])
    for side in SIDES:
        in_play |= set(data[side]["dealt"]["pieces"]) | set(data[side]["dealt"]["pawns"])
    for piece in CATALOGUE.select(sets=["starter"]):
        named = re.search(rf"\b{re.escape(piece.name)}\b", text) is not None
        assert named == (piece.id in in_play), piece.id


SPEARS = """
[[piece]]
id = "test-lance"
name = "Test Lance"
group = "spear"
code = "TLA"
betza = "fmRfceF"
text = "Slides straight forward without capturing; captures one square diagonally forward."

[[piece]]
id = "test-pike"
name = "Test Pike"
group = "spear"
code = "TPI"
betza = "fRfF"
text = "Slides straight forward or steps diagonally forward."
"""


@pytest.mark.parametrize("board, spears_each", [("10x10", 10), ("12x12", 12)])
def test_a_spear_row_from_a_deck_with_spears(tmp_path, board, spears_each):
    catalogue_file = tmp_path / "spears.toml"
    catalogue_file.write_text(SPEARS)
    starter = [p.id for p in CATALOGUE.select(sets=["starter"])]
    royals = [i for i in starter if CATALOGUE.get(i).group.value == "royal"]
    pieces = [i for i in starter if CATALOGUE.get(i).group.value == "piece"]
    pawns = [i for i in starter if CATALOGUE.get(i).group.value == "pawn"]
    deck = tmp_path / "deck.toml"
    lists = {"royals": royals, "pieces": pieces, "pawns": pawns, "spears": ["test-lance", "test-pike"] * spears_each}
    # JSON arrays are TOML arrays
    deck.write_text("".join(f"{key} = {json.dumps(ids)}\n" for key, ids in lists.items()))
    data = deal_json("--seed", "1", "--board", board, "--extra-row", "spears", "--deck", str(deck),
                     "--catalogue", str(catalogue_file))
    for side in SIDES:
        assert len(data[side]["extra_row"]) == spears_each
        assert set(data[side]["extra_row"]) <= {"test-lance", "test-pike"}
        assert Counter(data[side]["extra_row"]) == Counter(data[side]["dealt"]["spears"])
    assert "(TLA)" in data["fen"] or "(TPI)" in data["fen"]


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _recreated(args: list[str], input: str | None = None) -> tuple[str, str]:
    """The FEN of a deal and the FEN its printed Re-create line deals."""
    first = run(*args, input=input)
    assert first.exit_code == 0, first.output
    line = next(line for line in first.output.splitlines() if "Re-create: " in line).split("Re-create: ", 1)[1]
    words = shlex.split(line)
    assert words[0] == "dealer"
    again = run(*words[1:])
    assert again.exit_code == 0, again.output
    fen = [line for line in first.output.splitlines() if line.startswith("FEN: ")]
    return fen[0], next(line for line in again.output.splitlines() if line.startswith("FEN: "))


@pytest.mark.parametrize("args", [
    ["deal", "--seed", "42", "--max-imbalance", "2"],
    ["deal", "--seed", "42", "--board", "10x10", "--extra-row", "pieces"],
    ["deal", "--seed", "42", "--big-deck"],
    ["deal", "--seed", "42", "--board", "12x12", "--max-imbalance", "0.75", "--big-deck"],
    ["deal", "--seed", "42", "--white-back", "queen,minister,gnu,nightrider,mastodon,chancellor,archbishop"],
    ["deal", "--seed", "7", "--board", "simplified", "--white-pawns", "japanese-pawn",
     "--white-back", "archbishop,cheetah,queen,gnu"],
    ["--catalogue", str(EXAMPLES / "my-pieces.toml"), "deal", "--seed", "42", "--deck", str(EXAMPLES / "my-deck.toml")],
])
def test_the_re_create_line_deals_the_same_game_again(args):
    original, again = _recreated(args)
    assert original == again


def test_the_re_create_line_keeps_placements_chosen_in_a_file_or_at_the_terminal(tmp_path):
    dealt = deal_json("--seed", "8")["black"]["dealt"]["pawns"]
    path = tmp_path / "arrange.toml"
    path.write_text("[black]\npawns = " + json.dumps(list(reversed(dealt))) + "\n")
    original, again = _recreated(["deal", "--seed", "8", "--arrange", str(path)])
    assert original == again
    white = deal_json("--seed", "4")["white"]["dealt"]["pieces"]
    answers = ",".join(reversed(white[:7])) + "\n\n\n\n"
    original, again = _recreated(["deal", "--seed", "4", "--interactive"], input="\n\n\n\n")  # Enter: automatic
    assert original == again
    result = run("deal", "--seed", "4", "--interactive", input=answers)
    line = next(line for line in result.output.splitlines() if "Re-create: " in line)
    assert "--white-back " + ",".join(reversed(white[:7])) in line


def test_interactive_without_a_terminal_says_it_needs_one():
    result = run("deal", "--seed", "4", "--interactive", input="")
    assert result.exit_code == 1
    assert "error: --interactive asks the players at a terminal, and the input ended" in result.output


def test_the_deal_sheet_carries_the_whole_re_create_line(tmp_path):
    import pdfplumber

    args = ["--seed", "42", "--board", "12x12", "--max-imbalance", "0.75", "--big-deck", "--extra-row", "spears"]
    result = run("deal", *args, "--deck", str(EXAMPLES / "my-deck.toml"), "--sheet", "--out", str(tmp_path))
    assert result.exit_code == 1  # the example deck has no spear cards: the sheet is never written
    assert not list(tmp_path.glob("*.pdf"))
    result = run("deal", *args[:-2], "--sheet", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if "Re-create: " in line).split("Re-create: ", 1)[1]
    with pdfplumber.open(tmp_path / "deal-42.pdf") as pdf:
        page = pdf.pages[0]
        text = " ".join(page.extract_text().split())
        assert all(word["x1"] <= page.width - 36 for word in page.extract_words())  # inside the margins
    assert "Re-create it with: " + line in text


def test_examples_deal_and_a_deck_too_small_names_every_shortfall(tmp_path):
    result = run("--catalogue", str(EXAMPLES / "my-pieces.toml"), "deal", "--seed", "1",
                 "--deck", str(EXAMPLES / "my-deck.toml"), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    cards = set(data["white"]["dealt"]["pieces"]) | set(data["black"]["dealt"]["pieces"])
    assert cards <= set(tomllib.loads((EXAMPLES / "my-deck.toml").read_text())["pieces"])
    small = tmp_path / "small.toml"
    small.write_text('royals = ["king", "chef"]\npieces = ["queen"]\npawns = ["standard-pawn"]\n')
    result = run("deal", "--deck", str(small))
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert "3 different royal cards, has 2" in result.output and "16 piece cards, has 1" in result.output
