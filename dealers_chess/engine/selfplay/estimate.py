"""Values from a results file: each matchup's score in Pawns, solved piece by piece, with bootstrap intervals.

A matchup's score s (A's points per game) says how many Pawns A is ahead: logit(s) / k, where k, the
logit a Pawn is worth, is fitted to the Pawn-odds matchups of the same run (one and three Pawns:
weighted least squares through 0, each weighted by its games s(1-s)). Its terms then give the
target's value from values solved before it. The 95 % interval comes from 2,000 bootstrap runs that
resample each matchup's games a pair at a time (both colours of one start together), redoing the
whole chain, so a yardstick's own uncertainty is carried into every value measured against it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dealers_chess.engine.selfplay.imbalance import GUARD, KING, PAWN
from dealers_chess.engine.selfplay.results import LADDER_FACTOR, LADDER_IDS, RecordedMatchup, Results

BOOTSTRAP = 2000
BOOTSTRAP_SEED = 20261128
LEVEL = 0.95
MIN_PAWN_LOGIT = 0.02  # Pawn odds that lost say nothing: k is kept above 0


@dataclass(frozen=True, slots=True)
class Measured:
    """One piece's measured value: the estimate, its 95 % interval and the games it rests on."""

    piece: str
    value: float
    low: float
    high: float
    games: int
    score: float  # A's score in its matchup
    matchup: str

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def _units(scores: dict[int, float]) -> np.ndarray:
    """A matchup's games as resampling units: the mean of each pair, or a lone game of an unfinished pair, in
    the order of the pairs (not of the file's lines: the same games give the same intervals in any order)."""
    pairs: dict[int, list[float]] = {}
    for index, score in sorted(scores.items()):
        pairs.setdefault(index // 2, []).append(score)
    return np.array([[sum(p) / len(p), len(p)] for p in pairs.values()], dtype=float).reshape(-1, 2)


def _pawn_logit(results: Results, units: dict[str, np.ndarray], draws: dict[str, np.ndarray] | None) -> np.ndarray:
    """k: the logit one Pawn of odds is worth, fitted through 0 to every Pawn-odds matchup with games."""
    top, bottom = 0.0, 0.0
    for matchup in results.matchups.values():
        if matchup.form != "scale" or matchup.id not in units:
            continue
        odds = dict(matchup.terms)[PAWN]
        s, n = _scores(units[matchup.id], None if draws is None else draws[matchup.id])
        weight = n * np.clip(s * (1 - s), 0.01, None)  # 1 / the variance of logit(s), by the delta method
        top, bottom = top + weight * odds * _logit(s, n), bottom + weight * odds * odds
    return np.asarray(top / bottom)


def pawn_logit(results: Results) -> float:
    """The fitted logit of one Pawn of odds, from all the games."""
    units = {m: _units(results.scores(m)) for m in results.matchups if results.games.get(m)}
    return float(_pawn_logit(results, units, None)[0])


def units_of(results: Results, matchup: str) -> np.ndarray:
    return _units(results.scores(matchup))


def _logit(s: np.ndarray, games: np.ndarray) -> np.ndarray:
    """logit of a score, kept off 0 and 1 by half a game."""
    low = 0.5 / np.maximum(games, 1)
    s = np.clip(s, low, 1 - low)
    return np.log(s / (1 - s))


def _scores(units: np.ndarray, draws: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """(score, games) of the whole sample (draws None) or of each bootstrap resample (draws: unit indices)."""
    if draws is None:
        points, games = (units[:, 0] * units[:, 1]).sum(keepdims=True), units[:, 1].sum(keepdims=True)
    else:
        points, games = (units[draws, 0] * units[draws, 1]).sum(axis=1), units[draws, 1].sum(axis=1)
    return points / np.maximum(games, 1), games


def bootstrap_values(results: Results, rng: np.random.Generator) -> tuple[dict, dict]:
    """(each value from all the games, each value in every bootstrap run), arrays by piece id."""
    units = {m: _units(results.scores(m)) for m in results.matchups if results.games.get(m)}
    draws = {m: rng.integers(0, len(u), size=(BOOTSTRAP, len(u))) for m, u in units.items()}
    return _solve(results, units, None), _solve(results, units, draws)


def estimate(results: Results) -> dict[str, Measured]:
    """Every value the file's games measure, with its 95 % interval and the games of its matchup."""
    if not any(results.games.get(m.id) for m in results.matchups.values() if m.form == "scale"):
        return {}
    point, spread = bootstrap_values(results, np.random.default_rng(BOOTSTRAP_SEED))
    score, games = _scores(units_of(results, "scale"), None)
    found = {PAWN: Measured(PAWN, 1.0, 1.0, 1.0, int(games[0]), float(score[0]), "scale")}  # the unit
    for piece, value in point.items():
        matchup = _measuring(results, GUARD if piece == KING else piece)
        if matchup is None:
            continue
        samples = spread[piece]
        samples = samples[np.isfinite(samples)]
        low, high = np.quantile(samples, [(1 - LEVEL) / 2, (1 + LEVEL) / 2]) if len(samples) else (-math.inf,) * 2
        score, games = _scores(units_of(results, matchup.id), None)
        found[piece] = Measured(piece, float(value[0]), float(low), float(high), int(games[0]),
                                float(score[0]), matchup.id)
    return found


def _measuring(results: Results, piece: str) -> RecordedMatchup | None:
    if piece == PAWN:
        return None  # the unit, set above
    return next((m for m in results.matchups.values() if m.target == piece), None)


def _solve(results: Results, units: dict[str, np.ndarray], draws: dict[str, np.ndarray] | None) -> dict:
    """Each target's value (an array: one entry, or one per bootstrap run) from the matchups in order."""
    size = 1 if draws is None else BOOTSTRAP

    def pawns_ahead(matchup_id: str) -> np.ndarray:
        s, n = _scores(units[matchup_id], None if draws is None else draws[matchup_id])
        return _logit(s, n)

    scale = np.maximum(_pawn_logit(results, units, draws), MIN_PAWN_LOGIT)
    values: dict[str, np.ndarray] = {PAWN: np.ones(size)}
    waiting = [m for m in results.matchups.values() if m.form != "scale" and m.id in units]
    while waiting:  # each matchup once the values it needs are known, whatever order the file has them in
        ready = [m for m in waiting if all((GUARD if p == KING else p) in values for p in m.needs)]
        if not ready:
            break  # the rest need a yardstick that is not measured (yet)
        for matchup in ready:
            known = {p: values[GUARD if p == KING else p] for p in matchup.needs}
            gap = pawns_ahead(matchup.id) / scale
            count = dict(matchup.terms)[matchup.target]
            rest = sum(((n * known[p]) for p, n in matchup.terms if p != matchup.target), np.zeros(size))
            values[matchup.target] = (gap - rest) / count
            waiting.remove(matchup)
    if GUARD in values and any(m.form == "royal" for m in results.matchups.values()):
        values[KING] = values[GUARD]
    return values


def table_data(results: Results, found: dict[str, Measured], results_name: str) -> dict:
    """The table a results file gives: its settings and every measured value, as the package ships it."""
    settings = results.settings
    assert settings is not None
    movements = {p: b for m in results.matchups.values() for p, b in m.movements}
    pieces = {}
    for piece, measured in found.items():
        matchup = results.matchups[measured.matchup]
        pieces[piece] = {
            "value": round(measured.value, 2), "low": round(measured.low, 2), "high": round(measured.high, 2),
            "games": measured.games, "score": round(measured.score, 3), "matchup": measured.matchup,
            "form": matchup.form, "betza": movements.get(piece, ""),
        }
    piece_games = sorted(len(g) for m, g in results.games.items() if results.matchups[m].form not in ("scale", "pair")
                         and m not in LADDER_IDS)
    return {
        "settings": {"board": settings.board, "nodes": settings.nodes, "seed": settings.seed,
                     "games": results.game_count,
                     "median_piece_games": piece_games[len(piece_games) // 2] if piece_games else 0,
                     "ladder_factor": LADDER_FACTOR,
                     "interval": f"{LEVEL:.0%} bootstrap, {BOOTSTRAP} resamples of game pairs",
                     "pawn_odds_score": round(float(_scores(units_of(results, "scale"), None)[0][0]), 4),
                     "pawn_logit": round(pawn_logit(results), 4),
                     "results": results_name, "method": "docs/values.md"},
        "piece": dict(sorted(pieces.items())),
    }
