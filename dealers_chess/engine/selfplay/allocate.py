"""Where a measuring run's next games narrow the wide values most (`dealer values measure --until`).

A value is a sum of matchup logits over k plus whole Pawns (engine.selfplay.estimate). By the delta
method a matchup's n games at score s add w^2 / (n s(1-s) k^2) to the variance of a value that holds
its logit with weight w, and the Pawn-odds scales add theirs through k. Pair by pair, the next games
go where they take the most off the variance that the values still too wide carry beyond their goal.
"""

from __future__ import annotations

import math

import numpy as np

from dealers_chess.engine.selfplay.estimate import MIN_PAWN_LOGIT, pawn_logit
from dealers_chess.engine.selfplay.imbalance import GUARD, KING, PAWN
from dealers_chess.engine.selfplay.results import RecordedMatchup, Results, games_wanted

MIN_PAIRS = 4  # every matchup a wide value stands on plays this many pairs first: a score to steer by


def logit_weights(matchups: list[RecordedMatchup]) -> dict[str, dict[str, float]]:
    """Each measured piece's value as a sum of matchup logits (over k): {piece: {matchup id: weight}}.
    The Archbishop against a Queen holds its own logit, the Queen's, the Rook's and, twice, the Knight's."""
    by_target = {m.target: m for m in matchups if m.form != "scale"}
    weights: dict[str, dict[str, float]] = {}

    def of(piece: str) -> dict[str, float]:
        piece = _measured(piece)
        matchup = by_target.get(piece)
        if matchup is None or piece in weights:
            return weights.get(piece, {})
        count = dict(matchup.terms)[piece]
        found = {matchup.id: 1 / count}
        for other, n in matchup.terms:
            if other not in (piece, PAWN):
                for matchup_id, weight in of(other).items():
                    found[matchup_id] = found.get(matchup_id, 0.0) - n / count * weight
        weights[piece] = found
        return found

    for piece in by_target:
        of(piece)
    return weights


def _stands_on(matchups: list[RecordedMatchup], weights: dict[str, dict[str, float]], wide: dict[str, float]) \
        -> list[RecordedMatchup]:
    """The matchups the wide pieces' values are solved from: their own, their yardsticks' down the chain, the scales."""
    ids = {m for p in wide for m in weights[_measured(p)]}
    return [m for m in matchups if m.id in ids or m.form == "scale"]


def _measured(piece: str) -> str:
    return GUARD if piece == KING else piece


def _wide(widths: dict[str, float], until: float, weights: dict) -> dict[str, float]:
    return {p: w for p, w in widths.items() if w > until and _measured(p) in weights}


def _room(results: Results, columns: list[RecordedMatchup], cap_games: int) -> tuple[np.ndarray, np.ndarray]:
    """Each matchup's games, and the pairs it may still get before the cap (`cap_games` a piece, the scales and
    the ladder LADDER_FACTOR times that)."""
    games = np.array([len(results.games.get(m.id, {})) for m in columns], dtype=float)
    return games, np.array([games_wanted(m, cap_games) // 2 for m in columns]) - games // 2


def first_pairs(results: Results, matchups: list[RecordedMatchup], widths: dict[str, float], until: float,
                cap_games: int) -> dict[str, int]:
    """The pairs that bring every matchup a wide piece stands on to MIN_PAIRS: scores to steer the rest by."""
    weights = logit_weights(matchups)
    wide = _wide(widths, until, weights)
    if not wide:
        return {}
    columns = _stands_on(matchups, weights, wide)
    games, room = _room(results, columns, cap_games)
    first = np.clip(np.minimum(MIN_PAIRS - games // 2, room), 0, None).astype(int)
    return {m.id: int(n) for m, n in zip(columns, first, strict=True) if n}


def plan_pairs(results: Results, matchups: list[RecordedMatchup], widths: dict[str, float], until: float,
               cap_games: int, pairs: int | None, least: int = 0) -> dict[str, int]:
    """How many more pairs each matchup gets so that the pieces in `widths` (their 95 % half-widths now) come
    within `until`: at most `pairs` in all (None: as many as the delta method says it takes; at least `least`
    while there is room, the rest of those where they narrow the wide pieces most), no matchup past the cap.
    While some matchup a wide piece stands on has fewer than MIN_PAIRS, those are all it gets."""
    first = first_pairs(results, matchups, widths, until, cap_games)
    weights = logit_weights(matchups)
    wide = _wide(widths, until, weights)
    if first or not wide:
        return first
    columns = _stands_on(matchups, weights, wide)
    games, room = _room(results, columns, cap_games)
    return _greedy(results, columns, weights, wide, until, games, room, pairs, least)


def _greedy(results: Results, columns: list[RecordedMatchup], weights: dict[str, dict[str, float]],
            wide: dict[str, float], until: float, games: np.ndarray, room: np.ndarray,
            pairs: int | None, least: int) -> dict[str, int]:
    """Pair by pair to the matchup that takes the most off the wide values' variance beyond their goals."""
    points = np.array([sum(results.scores(m.id).values()) for m in columns])
    s = (points + 1) / (games + 2)  # shrunk by one drawn pair: no matchup's variance is infinite
    q, logit = s * (1 - s), np.log(s / (1 - s))
    odds = np.array([dict(m.terms)[PAWN] if m.form == "scale" else 0 for m in columns], dtype=float)
    k = max(pawn_logit(results), MIN_PAWN_LOGIT)
    weight = np.array([[weights[_measured(p)].get(m.id, 0.0) for m in columns] for p in wide])
    through_k = (weight @ logit / k ** 2) ** 2  # (d value / d k)^2: k's variance is 1 / sum(n q odds^2)
    coefficient = np.where(odds > 0, through_k[:, None], (weight / k) ** 2)
    n = np.maximum(games, 1)
    scale = odds > 0
    variance = (coefficient[:, ~scale] / (n * q)[~scale]).sum(axis=1) + through_k / (n * q * odds ** 2).sum()
    ratio = np.array([until / w if math.isfinite(w) else 0.0 for w in wide.values()])
    goal = variance * ratio ** 2  # the bootstrap's half-width over the delta method's is taken to stay as it is
    chosen = np.zeros(len(columns), dtype=int)
    while pairs is None or chosen.sum() < pairs:
        drop = coefficient * _drops(n, q, odds)
        beyond = np.maximum(variance - goal, 0) if chosen.sum() >= least or (variance > goal).any() else variance
        gain = np.minimum(drop, beyond[:, None]).sum(axis=0)
        gain[chosen >= room] = 0
        best = int(np.argmax(gain))
        if gain[best] <= 0:
            break
        chosen[best] += 1
        n[best] += 2
        variance = variance - drop[:, best]
    return {m.id: int(c) for m, c in zip(columns, chosen, strict=True) if c}


def _drops(n: np.ndarray, q: np.ndarray, odds: np.ndarray) -> np.ndarray:
    """What one more pair takes off each matchup's share of the variance (per unit of coefficient): 1 / (n q)
    for a matchup's logit; 1 / sum(n q odds^2), k's variance, for the scales'."""
    scale = odds > 0
    fisher = (n * q * odds ** 2).sum()
    through_k = 1 / fisher - 1 / (fisher + 2 * q * odds ** 2)
    return np.where(scale, through_k, 1 / (n * q) - 1 / ((n + 2) * q))
