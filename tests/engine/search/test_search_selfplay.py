"""The engine against itself in every built-in game: every move legal by the referee, and (slow) a result."""

from __future__ import annotations

import pytest

from dealers_chess.engine.game import builtin_games
from dealers_chess.engine.rules import outcome, play
from dealers_chess.engine.search import Limits, Searcher
from tests.positions import start_of

GAMES = sorted(builtin_games())


def self_play(game_id: str, limits: Limits, plies: int):
    """Play up to `plies` moves of the engine against itself; rules.play refuses any illegal move."""
    pos = start_of(game_id)
    searcher = Searcher()
    for _ in range(plies):
        if outcome(pos) is not None:
            break
        result = searcher.search(pos, limits)
        assert result.move is not None  # the game goes on, so there is a legal move
        play(pos, result.move)
    return pos


@pytest.mark.parametrize("game_id", GAMES)
def test_self_play_opening_moves_are_legal(game_id):
    pos = self_play(game_id, Limits(depth=1), 6)
    assert len(pos.stack) == 6


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_self_play_reaches_a_result(game_id):
    pos = self_play(game_id, Limits(nodes=400, level=7), 700)
    ended = outcome(pos)
    assert ended is not None, f"{game_id}: no result after {len(pos.stack)} plies"
