"""`dealer export diagram`: the Interactive Diagram page of a game, a deal or some pieces."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

from dealers_chess.cli import cli
from dealers_chess.engine.board import parse_board_size
from dealers_chess.engine.exports.diagram import diagram_page, game_diagram
from dealers_chess.pieces.catalogue import load_catalogue

CATALOGUE = load_catalogue()
BY_CODE = {piece.code: piece for piece in CATALOGUE}


class _Page(HTMLParser):
    """The idiagram divs of a page and the text inside them."""

    def __init__(self) -> None:
        super().__init__()
        self.divs: list[str] = []
        self._inside = False

    def handle_starttag(self, tag, attrs):
        if tag == "div" and ("class", "idiagram") in attrs:
            self.divs.append("")
            self._inside = True

    def handle_endtag(self, tag):
        if tag == "div":
            self._inside = False

    def handle_data(self, data):
        if self._inside:
            self.divs[-1] += data


def _definition(page: str) -> list[str]:
    parser = _Page()
    parser.feed(page)
    parser.close()
    assert len(parser.divs) == 1
    return [line for line in parser.divs[0].splitlines() if line.strip()]


def _piece_lines(lines: list[str]) -> dict[str, list[str]]:
    """ID -> [name, ID, betza, image, squares] for each piece line."""
    rows = [line.split(":") for line in lines if ":" in line]
    assert all(len(row) == 5 for row in rows), rows
    return {row[1]: row for row in rows}


def _run(*args: str) -> str:
    result = CliRunner().invoke(cli, ["export", "diagram", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_chess_has_the_board_and_six_pieces_on_their_squares():
    lines = _definition(_run("chess"))
    assert "files=8" in lines and "ranks=8" in lines and "symmetry=mirror" in lines
    assert "promoChoice=QRBN" in lines
    pieces = _piece_lines(lines)
    squares = {code: row[4] for code, row in pieces.items()}
    assert squares == {"P": "a2,b2,c2,d2,e2,f2,g2,h2", "R": "a1,h1", "N": "b1,g1", "B": "c1,f1", "Q": "d1", "K": "e1"}
    assert pieces["N"] == ["Knight", "N", "N", "knight", "b1,g1"]
    assert pieces["K"][2] == "KisO2"  # castling two squares either way
    assert f"royal={list(pieces).index('K') + 1}" in lines


def _squares_from_fen(fen: str, files: int) -> dict[tuple[str, str], list[str]]:
    """(code, side) -> squares, read from a FEN placement with (XY) codes."""
    found: dict[tuple[str, str], list[str]] = {}
    rows = fen.split()[0].split("/")
    for index, row in enumerate(rows):
        rank, file = len(rows) - index, 0
        for number, code in re.findall(r"(\d+)|(\([A-Za-z]+\)|[A-Za-z])", row):
            if number:
                file += int(number)
                continue
            letters = code.strip("()")
            side = "white" if letters.isupper() else "black"
            found.setdefault((letters.upper(), side), []).append(f"{'abcdefghijklmnop'[file]}{rank}")
            file += 1
    return found


def test_a_deal_lists_each_piece_once_with_its_catalogue_betza_and_squares(tmp_path):
    deal_file = tmp_path / "deal.json"
    result = CliRunner().invoke(cli, ["deal", "--seed", "5", "--save", str(deal_file)])
    assert result.exit_code == 0, result.output
    deal = json.loads(deal_file.read_text())
    lines = _definition(_run("--deal", str(deal_file)))
    rows = [line.split(":") for line in lines if ":" in line]
    pieces = _piece_lines(lines)
    assert len(pieces) == len(rows)  # each piece type once
    board = parse_board_size(deal["board"])
    assert f"files={board.files}" in lines and "symmetry=none" in lines
    on_board = _squares_from_fen(deal["fen"], board.files)
    assert {code for code, _ in on_board} <= set(pieces)
    readings = {"N0": "NN", "(1,4)": "FX"}  # the diagram's spellings of the same moves (engine/exports/diagram.py)
    for code, (_name, _, betza, _, squares) in pieces.items():
        piece = BY_CODE[code]
        expected = piece.betza
        for ours, theirs in readings.items():
            expected = expected.replace(ours, theirs)
        assert betza == expected or (piece.is_royal and betza == expected + "isO2"), (code, betza)
        white, _, black = squares.partition(",,")
        assert (white.split(",") if white else []) == on_board.get((code, "white"), [])
        assert (black.split(",") if black else []) == on_board.get((code, "black"), [])


def test_pieces_alone_one_line_each_without_squares():
    lines = _definition(_run("--piece", "knight", "cannon"))
    pieces = _piece_lines(lines)
    assert [row[:3] for row in pieces.values()] == [["Knight", "N", "N"], ["Cannon", "CN", "mRcpR"]]
    assert all(row[4] == "" for row in pieces.values())
    assert not any(line.startswith("royal=") for line in lines)


def test_spinal_tap_lists_its_battle_move_and_special_pieces_in_comment_and_paragraph():
    page = _run("spinal-tap")
    comment = page.split("-->")[0]
    paragraph = page.split('<p class="simplified">')[1]
    for words in ("Battle move", "Hyena: freezing", "Dazzler: dazzling", "Teleporter"):
        assert words in comment and words in paragraph, words
    assert "files=11" in _definition(page)


def test_a_twelve_by_twelve_game_fits_and_long_leaps_are_flagged():
    lines = _definition(diagram_page(game_diagram("dealers-12x12")))
    assert "files=12" in lines and "ranks=12" in lines
    assert any(line.startswith("Antelope:AN:(3,4):") for line in lines)
    assert "Antelope: (3,4) leap" in diagram_page(game_diagram("dealers-12x12"))


def test_out_writes_the_page(tmp_path):
    target = tmp_path / "chess.html"
    result = CliRunner().invoke(cli, ["export", "diagram", "chess", "--out", str(target)])
    assert result.exit_code == 0, result.output
    assert str(target) in result.output
    assert _definition(target.read_text(encoding="utf-8"))[0] == "files=8"


@pytest.mark.parametrize("args, status, words", [
    (["--piece", "knigt"], 1, "unknown piece 'knigt'"),
    (["no-such-game"], 1, "unknown game"),
    (["--piece"], 2, "--piece takes"),
    ([], 2, "name one game"),
    (["chess", "--deal", "x.json"], 2, "not both"),
])
def test_errors_are_one_line(args, status, words):
    result = CliRunner().invoke(cli, ["export", "diagram", *args])
    assert result.exit_code == status
    assert words in result.output and len(result.output.strip().splitlines()) == 1


def test_a_piece_name_with_a_colon_is_refused(tmp_path):
    mine = tmp_path / "mine.toml"
    mine.write_text('[[piece]]\nid = "odd"\nname = "Odd: One"\ngroup = "piece"\ncode = "ODD"\nbetza = "W"\n'
                    'text = "x"\n')
    result = CliRunner().invoke(cli, ["export", "diagram", "--piece", "odd", "--catalogue", str(mine)])
    assert result.exit_code == 1
    assert "piece 'odd'" in result.output and "':'" in result.output
