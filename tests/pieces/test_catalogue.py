"""The catalogue: what it holds, how the loader rejects bad files, and the user's own files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli
from dealers_chess.pieces.catalogue import Group, Rule, load_catalogue, read_catalogue_file
from dealers_chess.pieces.errors import CatalogueError, UnknownPieceError
from tests.built_once import shares_every_built_piece

CATALOGUE = load_catalogue()

STARTER_ROYALS = {"chef", "king", "pharaoh", "pope", "president", "rex", "shogun"}
STARTER_PIECES = {
    "alfil", "alibaba", "antelope", "archbishop", "aurochs", "bishop", "bison", "buffalo", "camel", "cannon",
    "chancellor", "cheetah", "dabbaba", "ferz", "giraffe", "gnu", "gryffon", "guard", "guardian", "impala",
    "kirin", "knight", "lion", "mastodon", "minister", "nightrider", "phoenix", "queen", "rhinoceros", "rook",
    "ship", "snake", "squirrel", "steward", "threeleaper", "turtle", "unicorn", "vao", "wazir", "zebra",
}
STARTER_PAWNS = {
    f"{name}-pawn" for name in (
        "arrow", "berolina", "chicken", "enhanced", "fish", "gold", "horse", "iron", "japanese", "korean", "lance",
        "left-end", "linebacker", "mecklenbeck", "mongolian", "patient", "piglet", "right-end", "scorpion",
        "silver", "standard", "torpedo", "zabel", "zombie",
    )
}
GAMES = {
    "chess": {"king", "queen", "rook", "bishop", "knight", "standard-pawn"},
    "constable-spiel": {"king", "queen", "rook", "bishop", "knight", "standard-pawn", "woody-rook", "phoenix",
                        "kirin", "ferfil"},
    "wad-chess": {"king", "queen", "rook", "bishop", "knight", "standard-pawn", "champion"},
    "consuls": {"king", "rook", "bishop", "knight", "consuls-pawn"},
    "consuls-arena": {"arena-king"},
    "spinal-tap": {"rook", "squire", "wizzen", "viceroy", "queen", "king", "spinal-minister", "spinal-pawn", "crab",
                   "crowned-knight", "yanzee", "teleporter", "dazzler", "hyena"},
}


def ids(pieces):
    return {p.id for p in pieces}


def test_starter_kit_is_complete():
    assert ids(CATALOGUE.select(sets=["starter"], groups=["royal"])) == STARTER_ROYALS
    assert ids(CATALOGUE.select(sets=["starter"], groups=["piece"])) == STARTER_PIECES
    assert ids(CATALOGUE.select(sets=["starter"], groups=["pawn"])) == STARTER_PAWNS


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_seed_game_has_its_pieces(game):
    assert ids(CATALOGUE.select(games=[game])) == GAMES[game]


def test_named_rules_are_attached():
    get = CATALOGUE.get
    assert get("linebacker-pawn").has(Rule.PUSH)
    assert get("zombie-pawn").has(Rule.CONVERT_CAPTOR)
    assert dict(get("chicken-pawn").rule_moves)[Rule.FLEE_WHEN_ATTACKED].betza == "bmRbmB"
    assert get("mecklenbeck-pawn").has(Rule.PROMOTES_ON_PAWN_ROW)
    assert {r for r, _ in get("consuls-pawn").rank_captures} == {0, 1, 2, 3}
    assert get("hyena").rules == {Rule.UNCAPTURABLE, Rule.IMMOBILIZE}
    assert get("yanzee").promotes_to == ("queen", "rook", "bishop", "knight")
    assert all(p.group is Group.ROYAL for p in CATALOGUE.select(games=["consuls-arena"]))


def test_codes_are_unique_and_orthodox_codes_are_single_letters():
    assert len({p.code for p in CATALOGUE}) == len(CATALOGUE)
    assert {CATALOGUE.by_code(c).id for c in "KQRBNP"} == GAMES["chess"]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mine.toml"
    path.write_text(text)
    return path


GOOD = 'id = "duck"\nname = "Duck"\ngroup = "piece"\ncode = "DK"\nbetza = "WD"\ntext = "Waddles."\n'


@pytest.mark.parametrize(
    "body, fragments",
    [
        (GOOD + 'colour = "red"\n', ["piece 'duck'", "colour", "unknown key"]),
        (GOOD.replace('"piece"', '"bishop"'), ["piece 'duck'", "group", "'bishop'", "royal, piece, pawn, spear"]),
        (GOOD.replace('"WD"', '"WX"'), ["piece 'duck'", "betza", "'WX'", "position 2"]),
        (GOOD.replace('"DK"', '"dk"'), ["piece 'duck'", "code", "capital letters"]),
        (GOOD.replace('"duck"', '"Duck Bill"'), ["id", "lowercase"]),
        (GOOD.replace('text = "Waddles."\n', ""), ["piece 'duck'", "text", "missing"]),
        (GOOD + 'rules = ["quack"]\n', ["piece 'duck'", "rules", "'quack'", "push"]),
        (GOOD + 'rules = ["flee-when-attacked"]\n', ["piece 'duck'", "rule_betza", "missing"]),
        (GOOD + 'rule_betza = { push = "W" }\n', ["piece 'duck'", "rule_betza", "'push'"]),
        (GOOD + 'value = "lots"\n', ["piece 'duck'", "value", "number"]),
        (GOOD + 'rank_captures = { first = "cK" }\n', ["piece 'duck'", "rank_captures", "'first'"]),
        (GOOD.replace('"Duck"', '"Grand Imperial Chancellor of the Northern Marches"'),
         ["piece 'duck'", "name:", "232 pt wide in bold at 8 pt", "holds 200 pt (here the first 42 characters)"]),
        (GOOD.replace('"Duck"', '"' + "W" * 23 + '"'), ["piece 'duck'", "name:", "203 pt", "first 22 characters"]),
    ],
)
def test_bad_pieces_are_rejected_naming_file_piece_and_field(tmp_path, body, fragments):
    path = write(tmp_path, "[[piece]]\n" + body)
    with pytest.raises(CatalogueError) as error:
        read_catalogue_file(path)
    message = str(error.value)
    assert str(path) in message and "\n" not in message
    for fragment in fragments:
        assert fragment in message


def test_duplicate_ids_in_one_file_and_clashing_codes_are_rejected(tmp_path):
    with pytest.raises(CatalogueError, match="duplicate id"):
        read_catalogue_file(write(tmp_path, "[[piece]]\n" + GOOD + "[[piece]]\n" + GOOD.replace("DK", "DL")))
    with pytest.raises(CatalogueError, match="'N' is already used by 'knight'"):
        load_catalogue([write(tmp_path, "[[piece]]\n" + GOOD.replace('"DK"', '"N"'))])
    with pytest.raises(CatalogueError, match="not valid TOML"):
        load_catalogue([write(tmp_path, "[[piece]\n")])


def test_user_file_adds_and_overrides(tmp_path):
    path = write(tmp_path, "[[piece]]\n" + GOOD + "[[piece]]\n" + GOOD.replace("duck", "knight").replace('"DK"', '"N"'))
    catalogue = load_catalogue([path])
    assert catalogue.get("duck").betza == "WD"
    assert catalogue.get("knight").betza == "WD" and len(catalogue) == len(CATALOGUE) + 1


def test_unknown_id_suggests_close_names():
    with pytest.raises(UnknownPieceError, match="did you mean knight"):
        CATALOGUE.get("knigt")


def test_a_piece_is_found_by_its_code_its_name_or_an_unambiguous_alias():
    assert CATALOGUE.get("P").id == CATALOGUE.get("pawn").id == CATALOGUE.get("Pawn").id == "standard-pawn"
    assert CATALOGUE.get("AR").id == CATALOGUE.get("ar").id == CATALOGUE.get("Archbishop").id == "archbishop"
    assert CATALOGUE.get("Standard Pawn").id == "standard-pawn" and CATALOGUE.get("N").id == "knight"
    assert CATALOGUE.get("STP").id == "spinal-pawn"  # Spinal Tap's piece named "Pawn": the alias goes first
    for piece in CATALOGUE:  # every code finds its own piece
        assert CATALOGUE.get(piece.code) is piece and CATALOGUE.get(piece.id) is piece
    with pytest.raises(UnknownPieceError, match="did you mean iron-pawn"):
        CATALOGUE.get("iron-pawm")


def test_an_alias_that_two_pieces_share_names_both_and_one_that_is_an_id_is_refused(tmp_path):
    twins = GOOD.replace('code = "DK"', 'code = "DK"\naliases = ["bird"]')
    other = twins.replace("duck", "goose").replace('"DK"', '"GS"')
    catalogue = load_catalogue([write(tmp_path, "[[piece]]\n" + twins + "[[piece]]\n" + other)])
    with pytest.raises(UnknownPieceError, match="'bird' could be any of duck, goose; give the id"):
        catalogue.get("bird")
    with pytest.raises(CatalogueError, match="aliases: 'knight' is the id of another piece"):
        knightly = GOOD.replace('code = "DK"', 'code = "DK"\naliases = ["knight"]')
        load_catalogue([write(tmp_path, "[[piece]]\n" + knightly)])


@pytest.mark.parametrize("args", [("render", "pawn"), ("render", "AR"), ("piece", "P", "--json"),
                                  ("pieces", "--piece", "P", "--format", "stl"), ("diagram", "AR")])
def test_codes_and_aliases_work_wherever_ids_do(tmp_path, args):
    result = CliRunner().invoke(cli, [*args, *(["--out", str(tmp_path / "out.png")] if args[0] == "render" else []),
                                      *(["--out", str(tmp_path)] if args[0] in ("pieces", "diagram") else [])])
    assert result.exit_code == 0, result.output
    if args[0] == "piece":
        assert json.loads(result.output)["id"] == "standard-pawn"


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_catalogue_command_lists_every_piece():
    rows = json.loads(run("catalogue", "--json").output)
    assert {r["id"] for r in rows} == ids(CATALOGUE)
    assert all({"id", "name", "group", "sets", "betza", "value"} <= set(r) for r in rows)
    table = run("catalogue", "--group", "royal").output
    assert "Pharaoh" in table and "Knight" not in table


@pytest.mark.parametrize("piece", list(CATALOGUE), ids=lambda p: p.id)
def test_piece_json_for_every_piece(piece):
    result = run("piece", piece.id, "--json")
    data = json.loads(result.output)
    assert data["id"] == piece.id and data["betza"] == piece.betza and data["description"] == piece.text
    for key in ("moves", "initial_moves", "captures"):
        assert all(isinstance(o, list) and len(o) == 2 for o in data[key])


def test_cli_errors_are_one_line_with_status_1(tmp_path):
    result = CliRunner().invoke(cli, ["piece", "knigt"])
    assert result.exit_code == 1 and result.output.strip().count("\n") == 0 and "knight" in result.output
    bad = write(tmp_path, "[[piece]]\n" + GOOD.replace('"piece"', '"bishop"'))
    result = CliRunner().invoke(cli, ["catalogue", "--catalogue", str(bad)])
    assert result.exit_code == 1 and "group" in result.output
    assert CliRunner().invoke(cli, ["piece"]).exit_code == 2


def _ids(**filters) -> set[str]:
    return {p.id for p in CATALOGUE.select(**filters)}


CHESS = {"king", "queen", "rook", "bishop", "knight", "standard-pawn"}


@pytest.mark.parametrize("args, with_starter_default, with_no_default", [
    ({}, _ids(sets=["starter"]), _ids()),  # nothing given: the command's default
    ({"piece_ids": ["cannon", "knight"]}, {"cannon", "knight"}, {"cannon", "knight"}),  # --piece alone: just those
    ({"games": ["chess"]}, CHESS, CHESS),  # a game looks beyond the default set
    ({"sets": ["starter"], "games": ["chess"], "piece_ids": ["cannon"]}, CHESS | {"cannon"}, CHESS | {"cannon"}),
    ({"groups": ["royal"], "piece_ids": ["queen"]},  # a group alone looks in the default set; --piece adds
     _ids(sets=["starter"], groups=["royal"]) | {"queen"}, _ids(groups=["royal"]) | {"queen"}),
    ({"games": ["chess", "wad-chess"], "groups": ["pawn"]},  # any of a filter's values, every filter
     _ids(games=["chess", "wad-chess"], groups=["pawn"]), _ids(games=["chess", "wad-chess"], groups=["pawn"])),
])
def test_one_meaning_of_the_selection_options(args, with_starter_default, with_no_default):
    assert {p.id for p in CATALOGUE.choose(**args, default_sets=("starter",))} == with_starter_default
    assert {p.id for p in CATALOGUE.choose(**args)} == with_no_default


@shares_every_built_piece
def test_dealer_cards_pieces_and_plate_select_the_same_pieces(tmp_path):
    import pdfplumber

    selection = ["--set", "starter", "--game", "chess", "--piece", "cannon", "--out", str(tmp_path)]
    runner = CliRunner()
    assert runner.invoke(cli, ["pieces", *selection]).exit_code == 0
    stls = {path.stem for path in (tmp_path / "pieces-50mm").glob("*.stl")}
    assert runner.invoke(cli, ["plate", *selection]).exit_code == 0
    listing = (tmp_path / "plates-50mm" / "plates.txt").read_text()
    plated = {line.split()[0] for line in listing.splitlines() if line.startswith("  ")}
    result = runner.invoke(cli, ["cards", *selection, "--pictures", "silhouette"])
    assert result.exit_code == 0, result.output
    with pdfplumber.open(next((tmp_path / "cards").glob("*-cards.pdf"))) as pdf:
        text = " ".join(page.extract_text() for page in pdf.pages)
    carded = set(re.findall(r"· code ([A-Z]+)\b", text))  # not the write-in cards: "· code XBetza"
    assert stls == plated == CHESS | {"cannon"}
    assert carded == {CATALOGUE.get(piece_id).code for piece_id in stls}
    unknown = runner.invoke(cli, ["pieces", "--set", "nosuch", "--out", str(tmp_path)])
    assert unknown.exit_code == 1 and "unknown set 'nosuch'; known: " in unknown.output


def test_a_name_fits_its_card_by_width_not_by_count():
    from dealers_chess.pieces.card_name import (
        NAME_ROOM_PT,
        NAME_SMALLEST_PT,
        WIDEST_GLYPH_EM,
        _advances,
        name_fits_card,
    )

    widths, missing = _advances()
    assert max([*widths.values(), missing]) / 1000 <= WIDEST_GLYPH_EM  # so the count alone proves a short name fits
    short = int(NAME_ROOM_PT / (WIDEST_GLYPH_EM * NAME_SMALLEST_PT))
    assert short == 17 and name_fits_card("\u2030" * short) and not name_fits_card("\u2030" * (short + 1))  # '‰'
    assert name_fits_card("i" * 60) and name_fits_card("W" * 22) and not name_fits_card("W" * 23)
    assert all(name_fits_card(piece.name) for piece in load_catalogue())
