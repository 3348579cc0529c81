"""Properties of the referee checked ply by ply on random playouts in every game (issue 9).

At every ply: every listed move's coordinate and SAN-like text is unique and reads back as the
same move (battle moves included); a listed move is accepted by parse_move + play and a random
unlisted from/to is refused with the project's own error; the game has ended by checkmate or
stalemate exactly when no move, battle moves included, is left; the FEN reads back. After the
playout every pop restores the FEN and the hash, and the game record replays to the same position.
"""

from __future__ import annotations

import itertools
import random
from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealers_chess.engine.errors import IllegalMoveError, NotationError
from dealers_chess.engine.game import builtin_games
from dealers_chess.engine.kernel import EMPTY
from dealers_chess.engine.notation import format_fen, format_move, format_san, parse_fen, parse_move
from dealers_chess.engine.record import format_record, parse_record, record_of
from dealers_chess.engine.rules import battle_moves, legal_moves, outcome, play
from tests.positions import crowded, random_deal, random_walk, spinal_lines, spinal_melee, start_of

GAMES = sorted(builtin_games())
NO_MOVE = ("checkmate", "stalemate")


def some_battle_moves(pos, rng: random.Random, count: int = 3) -> list:
    """A few legal battle moves (from the first 60 the search yields), or none if there are none."""
    found = list(islice(battle_moves(pos), 60))
    return rng.sample(found, min(count, len(found)))


def check_texts(pos, moves: list, legal: list, rng: random.Random, checked: int) -> None:
    """Texts are unique; `checked` moves (all if fewer), and every special one, read back as themselves."""
    coords = [format_move(pos, m) for m in moves]
    sans = [format_san(pos, m, legal) for m in moves]
    assert len(set(coords)) == len(coords), (format_fen(pos), sorted(coords))
    assert len(set(sans)) == len(sans), (format_fen(pos), sorted(sans))
    special = [i for i, m in enumerate(moves) if m.kind or m.promotion or any(c.isdigit() for c in sans[i][:2])]
    picked = set(rng.sample(range(len(moves)), min(checked, len(moves)))) | set(special)
    for i in picked:
        assert parse_move(pos, coords[i]) == moves[i], (format_fen(pos), coords[i])
        assert parse_move(pos, sans[i]) == moves[i], (format_fen(pos), sans[i])


def check_unlisted_is_refused(pos, legal: list, rng: random.Random) -> None:
    board = pos.board
    listed = {(m.frm, m.to) for m in legal}
    for _ in range(3):
        frm, to = rng.randrange(board.size), rng.randrange(board.size)
        if (frm, to) in listed or frm == to:
            continue
        with pytest.raises((NotationError, IllegalMoveError)):
            parse_move(pos, board.name(frm) + board.name(to))


def check_ply(pos, rng: random.Random, checked: int):
    """Check the properties at this ply; return the move to play, or None when the game is over."""
    legal = legal_moves(pos)
    assert len(set(legal)) == len(legal), format_fen(pos)
    battles = some_battle_moves(pos, rng)
    ended = outcome(pos)
    assert (ended is not None and ended.reason in NO_MOVE) == (not legal and not battles), (format_fen(pos), ended)
    if ended is not None:
        return None
    moves = legal + battles
    check_texts(pos, moves, legal, rng, checked)
    check_unlisted_is_refused(pos, legal, rng)
    captures = [m for m in legal if pos.occ[m.to] != EMPTY or m.kind]
    pool = battles if battles and rng.random() < 0.15 else captures if captures and rng.random() < 0.3 else moves
    return rng.choice(pool)


def check_playout(pos, seed: int, plies: int, checked: int = 6) -> None:
    rng = random.Random(seed)
    pos.reset_history()
    fens, hashes = [format_fen(pos)], [pos.hash]
    for _ in range(plies):
        m = check_ply(pos, rng, checked)
        if m is None:
            break
        text = format_san(pos, m) if rng.random() < 0.5 else format_move(pos, m)
        play(pos, parse_move(pos, text))
        assert pos.stack[-1][0] == m, (text, format_fen(pos))
        # a reachable position is never refused
        assert format_fen(parse_fen(format_fen(pos), pos.game)) == format_fen(pos)
        fens.append(format_fen(pos))
        hashes.append(pos.hash)
    replayed = parse_record(format_record(record_of(pos)), "playout").position
    assert format_fen(replayed) == format_fen(pos)
    while pos.stack:
        pos.pop()
        assert (format_fen(pos), pos.hash) == (fens[len(pos.stack)], hashes[len(pos.stack)])


@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 2**32))
@pytest.mark.parametrize("game_id", GAMES)
def test_random_playouts_of_every_game_keep_every_property(game_id, seed):
    check_playout(start_of(game_id), seed, 30)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_spinal_tap_melees_with_hyenas_dazzlers_and_battle_moves(seed):
    rng = random.Random(seed)
    check_playout(spinal_melee(rng) if seed % 2 else spinal_lines(rng), seed, 16)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32), files=st.sampled_from([8, 10, 12]))
def test_random_full_catalogue_deals(seed, files):
    check_playout(random_deal(random.Random(seed), files), seed, 16)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), game_id=st.sampled_from(GAMES + ["melee", "lines", "deal"]))
def test_long_random_playouts_keep_every_property(seed, game_id):
    rng = random.Random(seed)
    special = {"melee": spinal_melee, "lines": spinal_lines, "deal": lambda r: random_deal(r, r.choice([8, 10, 12]))}
    pos = special[game_id](rng) if game_id in special else start_of(game_id)
    check_playout(pos, seed, 120, checked=20)


def battles_by_brute_force(pos) -> set:
    """Every combination of two or more battle steps that `battle_move` (the checking path) accepts."""
    from dealers_chess.engine.rules import battle_move, battle_step_options

    options = [battle_step_options(pos, sq) for sq in sorted(pos.squares[pos.turn])]
    options = [o for o in options if o]
    found = set()
    for choice in itertools.product(*[[None] + o for o in options]):
        steps = [s for s in choice if s is not None]
        if len(steps) >= 2:
            try:
                found.add(battle_move(pos, steps))
            except IllegalMoveError:
                pass
    return found


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_battle_moves_are_exactly_those_the_checking_path_accepts(seed):
    """The pruned search with its shortcuts (battle_moves) against every combination tried by battle_move,
    on positions with pins, lines only several pawns block, and checks a step may block."""
    rng = random.Random(seed)
    pos = spinal_lines(rng) if seed % 4 else random_walk(spinal_melee(rng), rng, rng.randrange(0, 6))
    assert set(battle_moves(pos)) == battles_by_brute_force(pos), format_fen(pos)


def positions(count: int, seed: int):
    """`count` cheap random positions: random walks from the games' starts, random deals and melees."""
    rng = random.Random(seed)
    for index in range(count):
        kind = index % 12
        if kind < len(GAMES):
            start = start_of(GAMES[kind])
        elif kind == len(GAMES):
            start = random_deal(rng, rng.choice([8, 10, 12]))
        else:
            start = spinal_melee(rng)
        yield random_walk(start, rng, rng.randrange(0, 60))


def round_trip_every_move(pos) -> int:
    legal = legal_moves(pos)
    for m in legal:
        assert parse_move(pos, format_move(pos, m)) == m, (format_fen(pos), format_move(pos, m))
        assert parse_move(pos, format_san(pos, m, legal)) == m, (format_fen(pos), format_san(pos, m, legal))
    return len(legal)


def test_every_move_of_random_positions_reads_back_through_text():
    # the first 75 of what were 150 positions (every kind six times or more): 3,563 moves, still over the 2,500
    # asked for; the slow test below reads back 10,000 positions
    assert sum(round_trip_every_move(pos) for pos in positions(75, seed=9)) > 2500


def test_pieces_told_apart_by_rank_read_back_as_themselves():
    """Crowded boards of bishops, knights and kings (two a side in The Consuls): SAN such as B1c2, N5h3 or
    K1d2 (code letters that are also file letters) names the piece, never the square b1, n5 or k1."""
    rng = random.Random(5)
    by_rank = 0
    for game_id, royals, pieces in [("chess", "K", "BBBNNN"), ("consuls", "KK", "BBNN"), ("spinal-tap", "K", "BBNNR")]:
        for _ in range(25):
            pos = crowded(rng, game_id, royals, pieces)
            legal = legal_moves(pos)
            by_rank += sum(1 for m in legal if format_san(pos, m, legal)[1:2].isdigit())
            round_trip_every_move(pos)
    assert by_rank >= 10


@pytest.mark.slow
def test_every_move_of_ten_thousand_random_positions_reads_back_through_text():
    assert sum(round_trip_every_move(pos) for pos in positions(10_000, seed=10)) > 100_000
