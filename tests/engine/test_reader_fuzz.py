"""Fuzzing the FEN, move and game-record readers: whatever the text, only the project's own errors
escape (NotationError, IllegalMoveError, GameError, RecordError: all DealerError), quickly."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealers_chess.cli import cli
from dealers_chess.engine.errors import RecordError
from dealers_chess.engine.game import builtin_games, load_game
from dealers_chess.engine.notation import format_fen, parse_fen, parse_move
from dealers_chess.engine.record import format_record, parse_record, record_of
from dealers_chess.engine.rules import legal_moves
from dealers_chess.pieces.errors import DealerError
from tests.positions import random_walk, start_of

GAMES = sorted(builtin_games())
STARTS = [load_game(g).start for g in GAMES]
ODD = ["²", "٣", "e\u0301", "\x00", "９", "9" * 60, "(", ")", "((", "/", "//", " ", "=", "@", "-", "&", "x", "#"]
PIECES = list("KQRBNPkqrbnp") + ["(CH)", "(stp)", "(HY)", "(dz)", "(ZO)"]
FIELDS = ["hand=QRkn", "draw=QRB", "discard=N", "deck=7.2", "pawnrank=3", "moved=e2", "dazzled=e4", "shielded=c3",
          "mustmove=d5", "battle=w", "shared=(MI)", "e3", "e3e4@e5", "KQkq", "b", "w", "-", "0", "1"]
FUZZ = settings(max_examples=120, deadline=2000, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def mutated(draw, texts: list[str], pieces: list[str]) -> str:
    """A valid text with a few random edits: characters replaced, inserted or deleted, fields swapped."""
    text = draw(st.sampled_from(texts))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["replace", "insert", "delete", "field"]))
        piece = draw(st.sampled_from(pieces + ODD) | st.text(min_size=1, max_size=3))
        if edit == "replace":
            text = text[:at] + piece + text[at + 1:]
        elif edit == "insert":
            text = text[:at] + piece + text[at:]
        elif edit == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
        else:
            words = text.split(" ")
            words[draw(st.integers(0, len(words) - 1))] = draw(st.sampled_from(FIELDS + ODD))
            text = " ".join(words)
    return text


NUMBERS = st.from_regex(r"\A[0-9\u00b2\u0663\uff19]{1,6}\Z") | st.sampled_from(["9" * 5000, "-1", "0x10", "1.5", ""])
KEYS = ["hand", "shared", "draw", "discard", "deck", "pawnrank", "moved", "dazzled", "shielded", "mustmove", "battle"]


@st.composite
def fen_fields(draw, start: str) -> str:
    """A game's start FEN with some fields replaced by odd values and odd key=value fields added."""
    fields = start.split(" ")
    for index in draw(st.lists(st.integers(0, len(fields) - 1), min_size=1, max_size=2)):
        fields[index] = draw(NUMBERS | st.sampled_from(FIELDS + ODD) | st.text(max_size=6))
    for _ in range(draw(st.integers(0, 1))):
        value = draw(NUMBERS | st.sampled_from(FIELDS + ODD + PIECES) | st.text(max_size=6))
        fields.append(draw(st.sampled_from(KEYS)) + "=" + value.replace(" ", ""))
    return " ".join(fields)


@FUZZ
@given(data=st.data())
def test_any_fen_gives_a_position_or_a_notation_error(data):
    index = data.draw(st.integers(0, len(GAMES) - 1))
    text = data.draw(mutated([STARTS[index]], PIECES + FIELDS) | fen_fields(STARTS[index]))
    try:
        pos = parse_fen(text, GAMES[index])
    except DealerError:
        return
    assert format_fen(parse_fen(format_fen(pos), pos.game)) == format_fen(pos)
    for m in legal_moves(pos)[:5]:
        pos.push(m)
        pos.pop()


MOVE_TEXTS = ["e2e4", "E2-E4", "e7e8=Q", "Nf3", "B1c2", "O-O", "0-0-0", "O-O@f1", "e1g1/h1", "c5c6/b5", "exd5",
              "d3d4&e3e4", "a3a4&b3b4&c3c4=Q", "CHxe5+", "e5>f6", "e2 e4", "e7xe8(q)", "k1f1", "K1f1"]
MOVE_POSITIONS = {g: start_of(g) for g in ("chess", "spinal-tap", "dealers-8x8", "consuls", "constable-spiel")}


@FUZZ
@given(game=st.sampled_from(sorted(MOVE_POSITIONS)), data=st.data())
def test_any_move_text_gives_a_legal_move_or_the_projects_own_error(game, data):
    pos = MOVE_POSITIONS[game]
    text = data.draw(mutated(MOVE_TEXTS, list("abcdefghijklmnopKQRBN0123456789=x-&/@") + ["10", "11", "(CH)"])
                     | st.text(max_size=40))
    before = format_fen(pos)
    try:
        move = parse_move(pos, text)
    except DealerError:
        return
    finally:
        assert format_fen(pos) == before
    assert move in legal_moves(pos) or move.kind == 4  # a battle move is checked by battle_move itself


def sample_records() -> list[str]:
    import random

    rng = random.Random(4)
    texts = []
    for game in ("chess", "spinal-tap", "dealers-8x8", "consuls"):
        pos = random_walk(start_of(game), rng, 12)
        texts.append(format_record(record_of(pos, {"White": "Ann"})))
    return texts


RECORDS = sample_records()


@FUZZ
@given(text=mutated(RECORDS, ['[FEN "8/8 w"]', '[Variant "x.toml"]', '[Catalogue "/dev/null"]', "{", "}", "1.", "*",
                              "1-0", '"', "\\", "[", "]", "\n", "Nf3", "e4"]))
def test_any_record_text_gives_a_game_or_a_record_error(text):
    try:
        record = parse_record(text, "fuzz.pgn")
    except RecordError:
        return
    assert record.position is not None


# --- the reliability report's reader cases (section 2.4 T1, section 4.2, section 4.3), as a user meets them ---

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


def one_line_error(*args) -> str:
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 1, result.output
    assert result.output.startswith("error: ") and len(result.output.strip().splitlines()) == 1, result.output
    return result.output


@pytest.mark.parametrize("game,fen,words", [
    ("chess", f"{START} w KQkq - \u00b2 1", "halfmove clock '²'"),
    ("chess", f"{START} w KQkq - 0 \u00b3", "move number '³'"),
    ("dealers-8x8", f"{START} w KQkq - 0 1 pawnrank=\u00b2", "pawnrank '²'"),  # chess has no pawnrank or deck
    ("dealers-8x8", f"{START} w KQkq - 0 1 deck=\u00b2.0", "deck seed '²'"),
    ("dealers-8x8", f"{START} w KQkq - 0 1 deck={'1' * 5000}.0", "deck seed"),
    ("chess", f"{START} w KQkq - {'9' * 5000} 1", "halfmove clock"),
    ("chess", f"rnbqkbnr/pppppppp/{'9' * 5000}/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "empty squares"),
    ("chess", "rnbqkbnr/pppppppp/\u0668/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "is not a piece letter"),
])
def test_fen_numbers_are_ascii_digits_of_sane_length(game, fen, words):
    output = one_line_error("moves", game, "--fen", fen)
    assert words in output and len(output) < 1000


def test_an_empty_fen_a_game_with_a_deal_and_moves_after_the_end_are_refused_honestly(tmp_path):
    assert "FEN ''" in one_line_error("moves", "chess", "--fen", "")
    deal = tmp_path / "deal.json"
    deal.write_text('{"board": "8x8", "fen": "4(sg)3/8/8/8/8/8/4P3/4(PR)3 w - - 0 1"}')
    assert "not both" in one_line_error("moves", "chess", "--deal", str(deal))
    mate = "f2f3,e7e5,g2g4,d8h4"
    assert "the game is over: 0-1 (checkmate)" in one_line_error("moves", "chess", "--moves", mate + ",a2a3")
    assert "the game is over: 0-1 (checkmate)" in one_line_error("moves", "chess", "--moves", mate + ",Nc3")
    castle = one_line_error("moves", "chess", "--fen", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "--moves", "e1g1/a1")
    assert "no castling move" in castle and "e1g1" in castle and "would leave" not in castle
