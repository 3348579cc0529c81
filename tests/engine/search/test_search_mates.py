"""The search finds mates: in one in every built-in game and in dealt armies on 8x8/10x10/12x12, in two in chess."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from dealers_chess.engine.game import load_game
from dealers_chess.engine.notation import format_move, parse_fen
from dealers_chess.engine.position import Position
from dealers_chess.engine.rules import has_legal_move, in_check, legal_moves, outcome
from dealers_chess.engine.search import Limits, Searcher, choose_move

MATES = tomllib.loads((Path(__file__).parent.parent.parent / "data" / "search_mates.toml").read_text())["mate"]


def mates(pos: Position, m) -> bool:
    """Whether the move checkmates, as the referee says."""
    pos.push(m)
    try:
        ended = outcome(pos)
        return ended is not None and ended.reason == "checkmate"
    finally:
        pos.pop()


def test_the_mates_cover_every_built_in_game_and_each_dealt_board():
    from dealers_chess.engine.game import builtin_games

    assert {entry["game"] for entry in MATES} == set(builtin_games())
    assert {entry["source"] for entry in MATES} >= {"deal-8x8", "deal-10x10", "deal-12x12"}


@pytest.mark.parametrize("entry", MATES, ids=[entry["source"] for entry in MATES])
def test_mate_in_one_is_found(entry):
    pos = parse_fen(entry["fen"], load_game(entry["game"]))
    by_text = {format_move(pos, m): m for m in legal_moves(pos)}
    assert all(mates(pos, by_text[text]) for text in entry["mates"])  # the data is what it says
    result = choose_move(pos, Limits(depth=3))
    assert mates(pos, result.move), format_move(pos, result.move)
    assert result.info.mate_in == 1 and result.info.score_cp is None
    assert result.info.pv[0] == result.move


def forces_mate_in_two(pos: Position, m) -> bool:
    """After m, every reply allows a mate in one (the referee decides each)."""
    pos.push(m)
    try:
        if not has_legal_move(pos):
            return in_check(pos, pos.turn)
        for reply in legal_moves(pos):
            pos.push(reply)
            try:
                if not any(mates(pos, finish) for finish in legal_moves(pos)):
                    return False
            finally:
                pos.pop()
        return True
    finally:
        pos.pop()


MATE_IN_TWO = [
    "kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1",  # Morphy: 1.Ra6
    "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1",  # 1.Nf6+ gxf6 2.Bxf7#
    "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",  # 1...Rg1+
    "r1bq2r1/b4pk1/p1pp1p2/1p2pP2/1P2P1PB/3P4/1PPQ2P1/R3K2R w - - 0 1",  # 1.Qh6+
]


@pytest.mark.parametrize("fen", MATE_IN_TWO)
def test_mate_in_two_in_chess(fen):
    pos = parse_fen(fen, "chess")
    result = Searcher().search(pos, Limits(depth=5))
    assert result.info.mate_in == 2
    assert forces_mate_in_two(pos, result.move)
    assert len(result.info.pv) == 3


def test_being_mated_is_a_negative_mate_and_no_move_when_the_game_is_over():
    pos = parse_fen("7k/8/5QK1/8/8/8/8/8 b - - 0 1", "chess")  # 1...Kg8 2.Qg7#
    result = choose_move(pos, Limits(depth=4))
    assert result.info.mate_in == -1
    mated = parse_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "chess")
    over = choose_move(mated, Limits(seconds=0.5))
    assert over.move is None and over.info.mate_in == 0
    stalemate = choose_move(parse_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "chess"), Limits(depth=2))

    assert stalemate.move is None and stalemate.info.score_cp == 0 and stalemate.info.mate_in is None
