"""Game records: PGN written atomically and read back; damaged records are reported, never overwritten."""

from __future__ import annotations

import random

import pytest

from dealers_chess.engine.errors import RecordError
from dealers_chess.engine.game import load_game
from dealers_chess.engine.notation import format_fen, parse_fen
from dealers_chess.engine.record import format_record, parse_record, read_record, record_of
from dealers_chess.engine.rules import legal_moves
from dealers_chess.printing.records import write_record
from tests.positions import random_walk, start_of


def played(game_id: str, plies: int, seed: int = 1):
    return random_walk(start_of(game_id), random.Random(seed), plies)


@pytest.mark.parametrize("game_id", ["chess", "dealers-8x8", "dealers-12x12", "spinal-tap", "consuls"])
def test_a_record_is_written_and_read_back_to_the_same_position(tmp_path, game_id):
    pos = played(game_id, 30)
    record = record_of(pos, {"White": "Ann", "Black": "Bob", "Deal": "seed 42"})
    path = write_record(tmp_path / "game.pgn", record)
    again = read_record(path)
    assert again.moves == record.moves and again.tags["Deal"] == "seed 42"
    assert again.tags["Variant"] == game_id
    assert format_fen(again.position) == format_fen(pos)


def test_a_truncated_record_is_reported_and_not_overwritten(tmp_path):
    record = record_of(played("chess", 20))
    path = write_record(tmp_path / "game.pgn", record)
    text = path.read_text()
    path.write_text(text[: len(text) * 2 // 3])
    with pytest.raises(RecordError, match="truncated|corrupted"):
        read_record(path)
    with pytest.raises(RecordError, match="not overwritten"):
        write_record(path, record)
    assert path.read_text() == text[: len(text) * 2 // 3]


def test_a_changed_move_is_reported_as_corrupted(tmp_path):
    record = record_of(played("dealers-8x8", 16, seed=4))
    text = format_record(record)
    head, _, moves = text.partition("\n\n")
    first = record.moves[0]
    damaged = head + "\n\n" + moves.replace(first, "Qh5", 1)
    with pytest.raises(RecordError, match="corrupted"):
        parse_record(damaged, "game.pgn")
    no_checksum = "\n".join(line for line in damaged.splitlines() if not line.startswith("[Checksum"))
    with pytest.raises(RecordError, match="line"):
        parse_record(no_checksum, "game.pgn")


def test_not_a_record_and_missing_files_are_reported(tmp_path):
    with pytest.raises(RecordError, match="no such game record"):
        read_record(tmp_path / "missing.pgn")
    with pytest.raises(RecordError, match="not a game record"):
        parse_record("hello world", "x.pgn")


def test_a_battle_move_is_recorded_and_replayed(tmp_path):
    from dealers_chess.engine.notation import parse_move

    pos = played("spinal-tap", 0)
    pos.push(parse_move(pos, "d3d4&e3e4&f3g4"))
    pos.push(parse_move(pos, "e9e8"))
    again = read_record(write_record(tmp_path / "battle.pgn", record_of(pos)))
    assert again.moves[0] == "d3d4&e3e4&f3g4" and format_fen(again.position) == format_fen(pos)


def test_a_users_catalogue_file_is_named_in_the_record(tmp_path):
    from dealers_chess.pieces.catalogue import load_catalogue

    extra = tmp_path / "mine.toml"
    extra.write_text('[[piece]]\nid = "mann"\nname = "Mann"\ngroup = "piece"\ncode = "MAN"\nbetza = "K"\n'
                     'text = "Steps one square any way."\n')
    game = load_game("chess")
    pos = parse_fen("4k3/8/8/8/8/8/8/(MAN)3K3 w - - 0 1", game, load_catalogue([extra]))
    pos.push(legal_moves(pos)[0])
    record = record_of(pos)
    assert record.tags["Catalogue"] == str(extra)
    assert format_fen(read_record(write_record(tmp_path / "g.pgn", record)).position) == format_fen(pos)


def test_a_fen_without_a_royal_on_either_side_is_refused():
    from dealers_chess.engine.errors import NotationError
    from dealers_chess.engine.notation import parse_fen

    with pytest.raises(NotationError, match="black has no royal piece"):
        parse_fen("8/8/8/8/8/8/8/K7 b - - 0 1", "chess")
    with pytest.raises(NotationError, match="neither side has no royal|neither side has"):
        parse_fen("8/8/8/8/8/8/8/8 w - - 0 1", "chess")


def test_the_engines_own_san_replays_the_game_that_was_played(tmp_path):
    from dealers_chess.engine.notation import parse_move

    for fen, move, san in [("4k3/8/8/8/8/3B4/8/3BK2N w - - 0 1", "d1e2", "B1e2"),
                           ("4k3/7p/8/8/8/3B4/8/1K1B4 w - - 0 1", "d1c2", "B1c2")]:
        pos = parse_fen(fen, "chess")
        pos.push(parse_move(pos, move))
        record = record_of(pos)
        assert record.moves == (san,)
        again = read_record(write_record(tmp_path / f"{san}.pgn", record))
        assert format_fen(again.position) == format_fen(pos)


def edited(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


def test_the_checksum_covers_the_start_position_and_every_tag():
    from dealers_chess.engine.notation import parse_move

    pos = parse_fen("r3k3/8/8/8/8/8/8/R3K3 w - - 0 1", "chess")
    pos.push(parse_move(pos, "a1a7"))
    text = format_record(record_of(pos, {"White": "Ann"}))
    assert '[ChecksumVersion "2"]' in text and format_fen(parse_record(text).position) == format_fen(pos)
    for old, new in [('R3K3 w', '1R2K3 w'), ('[White "Ann"]', '[White "Bob"]'),
                     ('[Variant "chess"]', '[Variant "consuls"]'), ('[ChecksumVersion "2"]', '[ChecksumVersion "1"]')]:
        with pytest.raises(RecordError, match="corrupted"):
            parse_record(edited(text, old, new))
    with pytest.raises(RecordError, match="ChecksumVersion '9' is not known"):
        parse_record(edited(text, '[ChecksumVersion "2"]', '[ChecksumVersion "9"]'))


def test_a_record_of_the_first_format_is_still_read():
    from dealers_chess.engine.record import checksum

    moves = ("e4", "e5", "Nf3")
    text = ('[Event "Casual game"]\n[Site "?"]\n[Date "2026.01.01"]\n[Round "-"]\n[White "?"]\n[Black "?"]\n'
            f'[Result "*"]\n[Variant "chess"]\n[Checksum "{checksum(moves, "*")}"]\n\n1. e4 e5 2. Nf3 *\n')
    assert format_fen(parse_record(text).position) == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    with pytest.raises(RecordError, match="movetext do not match"):
        parse_record(text.replace("Nf3 *", "Nc3 *"))


@pytest.mark.parametrize("tags", [
    '[Variant "missing.toml"]',
    '[Variant "../../etc/passwd"]',
    '[Variant "chess"]\n[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - \u00b2 1"]',
    '[Variant "chess"]\n[FEN "rnbqkbnr/pppppppp/' + "9" * 5000 + '/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]',
    '[Variant "chess"]\n[Catalogue "/nonexistent/x.toml"]',
    '[Variant "chess"]\n[Catalogue "DEEP"]',
    '[Variant "GAMEFILE"]',
])
def test_bad_tags_give_only_a_record_error(tmp_path, tags):
    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    game = tmp_path / "g.toml"
    game.write_text('id="g"\nname="G"\nboard="8x8"\nstart="4k3/8/8/8/8/8/8/4K3 w - - 0 1"\npawn_rank=[2]\n')
    text = tags.replace("DEEP", str(deep)).replace("GAMEFILE", str(game)) + '\n[Result "*"]\n\n1. e4 *\n'
    with pytest.raises(RecordError):
        parse_record(text, "bad.pgn")


def test_a_move_after_the_end_of_the_game_is_corrupted():
    text = '[Variant "chess"]\n[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 3. a3 0-1\n'
    with pytest.raises(RecordError, match="line 5: corrupted: .*the game is over: 0-1 \\(checkmate\\)"):
        parse_record(text.replace("3. a3 0-1", "\n3. a3 0-1"), "mate.pgn")


@pytest.mark.parametrize("game_id", ["dealers-8x8", "dealers-12x12", "spinal-tap", "consuls", "wad-chess"])
def test_a_record_from_any_start_but_chess_carries_setup_fen_and_variant(tmp_path, game_id):
    """A generic PGN reader takes a record without a FEN tag for chess from its start (D5 of seats-review-3)."""
    start = format_fen(start_of(game_id))
    again = read_record(write_record(tmp_path / "game.pgn", record_of(played(game_id, 6))))
    assert (again.tags["SetUp"], again.tags["FEN"], again.tags["Variant"]) == ("1", start, game_id)
    assert len(again.moves) == 6


def test_a_dealt_record_and_chess_from_a_position_carry_their_fen_and_chess_from_its_start_none(tmp_path):
    from click.testing import CliRunner

    from dealers_chess.cli import cli
    from dealers_chess.engine.dealing.deal_file import read_deal_file
    from dealers_chess.engine.session.record import session_record
    from dealers_chess.engine.session.session import Session

    assert CliRunner().invoke(cli, ["deal", "--seed", "7", "--save", str(tmp_path / "deal.json")]).exit_code == 0
    dealt = Session.from_deal(read_deal_file(tmp_path / "deal.json"))
    dealt_start = format_fen(dealt.position)
    dealt.play(dealt.moves()[0].san)
    again = read_record(write_record(tmp_path / "dealt.pgn", session_record(dealt)))
    assert again.tags["SetUp"] == "1" and again.tags["FEN"] == dealt_start and len(again.moves) == 1
    assert "FEN" not in record_of(played("chess", 4)).tags
    from_position = record_of(parse_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", load_game("chess")))
    assert from_position.tags["FEN"] == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
