"""One measuring game: the engine against itself from an imbalanced start, at fixed nodes a move.

A game's moves depend only on its task (start, opening seed, nodes), never on the machine or its
load: the search is stopped by its node count, and each game starts with fresh search tables.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from dealers_chess.engine.game import GameDef
from dealers_chess.engine.notation import parse_fen
from dealers_chess.engine.rng import SplitMix64
from dealers_chess.engine.rules import claimable_draw, legal_moves, outcome, play
from dealers_chess.engine.search.search import MATE_BOUND, Limits, Searcher
from dealers_chess.pieces.catalogue import Catalogue

OPENING_PLIES = 4  # random quiet moves before the engine takes over: two a side
MAX_PLIES = 240  # a game still going after this many plies is a draw
WIN_CP, WIN_PLIES = 800, 6  # adjudicated won: every search of 6 plies running sees one side 8 Pawns up (or a mate)
DRAW_CP, DRAW_PLIES, DRAW_FROM = 20, 30, 120  # adjudicated drawn: within 0.2 Pawn for 30 plies, after ply 120


@dataclass(frozen=True, slots=True)
class GameTask:
    """One game to play: which matchup, which game of it, from what start and how hard to think."""

    matchup: str
    index: int  # games 2k and 2k+1 are a pair: A White, then A Black
    fen: str
    opening_seed: int
    nodes: int

    @property
    def a_is_white(self) -> bool:
        return self.index % 2 == 0


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: A's score (1, 0.5 or 0), how it ended, its length and the time it took."""

    matchup: str
    index: int
    score: float
    reason: str
    plies: int
    seconds: float

    def as_dict(self) -> dict:
        return {"matchup": self.matchup, "index": self.index, "score": self.score, "reason": self.reason,
                "plies": self.plies, "seconds": round(self.seconds, 2)}


def play_game(task: GameTask, game: GameDef, catalogue: Catalogue, searcher: Searcher | None = None) -> GameResult:
    """Play the task's game to its end; the searcher (a warm one, reused) forgets the game before."""
    started = time.perf_counter()
    searcher = searcher or Searcher(hash_mb=4)
    searcher.new_game()
    pos = parse_fen(task.fen, game, catalogue)
    _random_opening(pos, task.opening_seed)
    scores: list[int] = []  # each search's score, White's view
    white_score, reason = 0.5, "too long"
    while len(pos.stack) < MAX_PLIES:
        ended = outcome(pos)
        if ended is not None:
            white_score, reason = {"1-0": 1.0, "0-1": 0.0}.get(ended.result.value, 0.5), ended.reason
            break
        claim = claimable_draw(pos)
        if claim is not None:
            reason = claim
            break
        result = searcher.search(pos, Limits(nodes=task.nodes))
        if result.move is None:
            break
        score = result.info.score_cp if result.info.mate_in is None else (
            MATE_BOUND if result.info.mate_in > 0 else -MATE_BOUND)
        scores.append((score or 0) if pos.turn == 0 else -(score or 0))
        play(pos, result.move)
        adjudged = _adjudged(scores, len(pos.stack))
        if adjudged is not None:
            white_score, reason = adjudged
            break
    a_score = white_score if task.a_is_white else 1.0 - white_score
    return GameResult(task.matchup, task.index, a_score, reason, len(pos.stack), time.perf_counter() - started)


def _random_opening(pos, seed: int) -> None:
    """OPENING_PLIES moves chosen at random among each side's quiet legal moves (varied openings)."""
    rng = SplitMix64(seed)
    for _ in range(OPENING_PLIES):
        quiet = [m for m in legal_moves(pos) if pos.piece[m.to] < 0 and m.promotion is None]
        if not quiet or outcome(pos) is not None:
            return
        play(pos, quiet[rng.below(len(quiet))])


def _adjudged(scores: list[int], plies: int) -> tuple[float, str] | None:
    """(White's score, reason) when the searches agree the game is decided, else None."""
    recent = scores[-WIN_PLIES:]
    if len(recent) == WIN_PLIES:
        if all(s >= WIN_CP for s in recent):
            return 1.0, "adjudicated: White's win seen by both sides"
        if all(s <= -WIN_CP for s in recent):
            return 0.0, "adjudicated: Black's win seen by both sides"
    recent = scores[-DRAW_PLIES:]
    if plies >= DRAW_FROM and len(recent) == DRAW_PLIES and all(abs(s) <= DRAW_CP for s in recent):
        return 0.5, "adjudicated: level for 30 plies"
    return None
