"""A deal judged by play: its start played out by the engine, each army taking both colours, and the verdict.

Game 2k has the dealt White army move first as White; game 2k+1 plays the same armies with the board
turned round, so the dealt Black army moves first. Scores are the dealt White army's. The interval
is the normal one over pairs of games; in Pawns the score reads as the Pawn-odds scale of the
package's measured table says (the score's logit over the logit one Pawn of odds is worth).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from dealers_chess.engine.selfplay.play import GameTask
from dealers_chess.engine.selfplay.results import opening_seed

MATCHUP = "playout"


def turned_round(fen: str) -> str:
    """The same position with the board turned round and the colours swapped (White still to move)."""
    fields = fen.split(" ")
    placement, turn, castling = fields[0], fields[1], fields[2]
    rows = [row.swapcase() for row in reversed(placement.split("/"))]
    extras = [field.split("=", 1)[0] + "=" + field.split("=", 1)[1].swapcase() if field.startswith("hand=") else field
              for field in fields[3:]]
    if extras and "=" not in extras[0]:
        extras[0] = _turned_square(extras[0], len(rows))
    return " ".join(["/".join(rows), "w" if turn == "b" else "b", castling.swapcase() if castling != "-" else "-",
                     *extras])


def _turned_square(field: str, ranks: int) -> str:
    """The en-passant field on the turned board ('-' stays)."""
    if field == "-":
        return field
    file, rank = field[0], int(field[1:])
    return f"{file}{ranks + 1 - rank}"


def playout_tasks(fen: str, games: int, nodes: int, seed: int) -> list[GameTask]:
    """The games of a playout, in pairs (the deal as dealt, then turned round)."""
    fens = (fen, _white_to_move(turned_round(fen)))
    return [GameTask(MATCHUP, i, fens[i % 2], opening_seed(seed, MATCHUP, i // 2), nodes) for i in range(games)]


def _white_to_move(fen: str) -> str:
    fields = fen.split(" ")
    fields[1] = "w"
    return " ".join(fields)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The dealt White army's score over the playout, its 95 % interval, and what that means in Pawns."""

    points: float
    games: int
    low: float  # score interval, 0..1
    high: float
    pawns: float | None  # the score as Pawns ahead (None without a Pawn-odds scale)

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.5

    def line(self) -> str:
        """One line: the score, its interval and whether one army is measurably stronger."""
        text = (f"White's army scored {self.points:g}/{self.games} ({self.score:.0%}, 95 % interval "
                f"{self.low:.0%}-{self.high:.0%})")
        if self.pawns is not None:
            text += f", about {abs(self.pawns):.1f} Pawn{'s' if abs(self.pawns) >= 1.5 else ''} " \
                    f"{'ahead' if self.pawns >= 0 else 'behind'}"
        if self.low > 0.5:
            return text + ": White's army is stronger."
        if self.high < 0.5:
            return text + ": Black's army is stronger."
        return text + ": neither army is measurably stronger."


def verdict(scores: dict[int, float], pawn_logit: float | None) -> Verdict:
    """The verdict on a playout's scores (game index -> the dealt White army's points)."""
    pairs: dict[int, list[float]] = {}
    for index, score in scores.items():
        pairs.setdefault(index // 2, []).append(score)
    means = [sum(p) / len(p) for p in pairs.values()]
    points, games = sum(scores.values()), len(scores)
    score = points / games if games else 0.5
    spread = (sum((m - score) ** 2 for m in means) / (len(means) - 1)) ** 0.5 if len(means) > 1 else 0.5
    margin = 1.96 * spread / math.sqrt(max(len(means), 1))
    pawns = None
    if pawn_logit is not None and pawn_logit > 0 and games:
        clipped = min(max(score, 0.5 / games), 1 - 0.5 / games)
        pawns = math.log(clipped / (1 - clipped)) / pawn_logit
    return Verdict(points, games, max(0.0, score - margin), min(1.0, score + margin), pawns)
