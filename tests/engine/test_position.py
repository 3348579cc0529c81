"""Position: push/pop restore exactly, FEN round trips, repetition and the fifty-move rule."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealers_chess.engine.game import builtin_games, game_files, load_game
from dealers_chess.engine.notation import format_fen, format_move, parse_fen, parse_move
from dealers_chess.engine.rules import Result, claimable_draw, legal_moves, outcome

GAMES = sorted(builtin_games())
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def snapshot(pos):
    return (
        list(pos.piece), list(pos.occ), list(pos.moved), pos.turn, pos.castling, pos.ep, pos.ep_victim,
        pos.halfmove, pos.fullmove, list(pos.hands), pos.shared, pos.deck, pos.dazzled, pos.shielded,
        pos.must_move, [set(r) for r in pos.royals], [set(s) for s in pos.squares], pos.hash, len(pos.keys),
    )


def playout(game_id: str, seed: int, plies: int):
    game = load_game(game_id)
    pos = parse_fen(game.start, game)
    rng = random.Random(seed)
    states, fens = [snapshot(pos)], [format_fen(pos)]
    for _ in range(plies):
        moves = legal_moves(pos)
        if not moves:
            break
        pos.push(rng.choice(moves))
        states.append(snapshot(pos))
        fens.append(format_fen(pos))
    return pos, states, fens


@settings(max_examples=12, deadline=None)
@given(game_id=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_pop_restores_every_position_of_a_random_playout_exactly(game_id, seed):
    pos, states, fens = playout(game_id, seed, 40)
    while pos.stack:
        assert snapshot(pos) == states[len(pos.stack)]
        pos.pop()
    assert snapshot(pos) == states[0]


@settings(max_examples=12, deadline=None)
@given(game_id=st.sampled_from(GAMES), seed=st.integers(0, 10**6))
def test_fen_round_trips_and_keeps_the_legal_moves(game_id, seed):
    pos, _, fens = playout(game_id, seed, 30)
    for fen in fens[-3:]:
        again = parse_fen(fen, pos.game)
        assert format_fen(again) == fen
    copy = parse_fen(format_fen(pos), pos.game)
    assert sorted(map(tuple, legal_moves(copy))) == sorted(map(tuple, legal_moves(pos)))
    assert copy.hash == pos.hash


def shuffle_knights(pos, times: int):
    for text in ["g1f3", "g8f6", "f3g1", "f6g8"] * times:
        pos.push(parse_move(pos, text))
    return pos


def test_threefold_repetition_may_be_claimed_and_fivefold_ends_the_game():
    pos = parse_fen(START)
    shuffle_knights(pos, 1)
    assert claimable_draw(pos) is None and outcome(pos) is None
    shuffle_knights(pos, 1)  # the start position for the third time
    assert claimable_draw(pos) == "threefold repetition" and outcome(pos) is None
    shuffle_knights(pos, 2)  # and for the fifth
    found = outcome(pos)
    assert found.result is Result.DRAW and found.reason == "fivefold repetition" and claimable_draw(pos) is None


def test_fifty_moves_may_be_claimed_seventy_five_end_the_game_and_mate_comes_first():
    assert claimable_draw(parse_fen("7k/8/8/8/8/8/8/K5R1 w - - 99 80")) is None
    fifty = parse_fen("7k/8/8/8/8/8/8/K5R1 w - - 100 80")
    assert claimable_draw(fifty) == "fifty-move rule" and outcome(fifty) is None
    assert outcome(parse_fen("7k/8/8/8/8/8/8/K5R1 w - - 150 80")).reason == "seventy-five-move rule"
    mate = parse_fen("7k/5K2/8/8/8/8/8/6R1 w - - 149 80")
    mate.push(parse_move(mate, "g1h1"))
    assert outcome(mate).reason == "checkmate" and claimable_draw(mate) is None


def test_automatic_draws_are_a_house_rule_in_the_game_file(tmp_path):
    game = tmp_path / "house.toml"
    game.write_text(f'id = "house"\nname = "House chess"\nboard = "8x8"\nstart = "{START}"\ndraws = "automatic"\n')
    pos = shuffle_knights(parse_fen(START, load_game(str(game))), 2)
    assert outcome(pos).reason == "threefold repetition" and claimable_draw(pos) is None
    assert outcome(parse_fen("7k/8/8/8/8/8/8/K5R1 w - - 100 80", load_game(str(game)))).reason == "fifty-move rule"


def test_checkmate_and_stalemate():
    mate = parse_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2")
    mate.push(parse_move(mate, "Qh4"))
    assert outcome(mate).result is Result.BLACK_WINS and outcome(mate).reason == "checkmate"
    stale = parse_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert outcome(stale).result is Result.DRAW and outcome(stale).reason == "stalemate"


def test_every_game_loads_and_its_start_fen_round_trips():
    for game_id in GAMES:
        game = load_game(game_id)
        pos = parse_fen(game.start, game)
        assert format_fen(pos) == game.start
        assert legal_moves(pos), game_id
        assert all(pos.royals), game_id


def test_each_built_in_game_file_is_named_by_its_id_so_loading_one_game_reads_one_file():
    assert sorted(path.stem for path in game_files()) == GAMES
    for game_id in GAMES:
        assert load_game(game_id) is builtin_games()[game_id]


@pytest.mark.parametrize("game_id", ["chess", "dealers-8x8", "consuls", "spinal-tap"])
def test_moves_written_are_read_back(game_id):
    pos, _, _ = playout(game_id, 7, 12)
    for m in legal_moves(pos):
        assert parse_move(pos, format_move(pos, m)) == m
