"""The measured values the package ships (assets/values/table-BOARD.toml) and the results file behind them.

A value is used for a piece only while the piece moves as it did in its games (its XBetza is kept
with the value): a catalogue of your own that changes a piece's movement gets the model's estimate.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from pathlib import Path

from dealers_chess.engine.board import Board
from dealers_chess.pieces.catalogue import PieceDef
from dealers_chess.pieces.errors import DealerError

TABLE_NAME = "table-{board}.toml"
MAX_MARGIN = 0.75  # a measurement is shown and dealt by once its 95 % interval is at most +- this many Pawns


def _folder() -> Path:
    return Path(str(resources.files("dealers_chess.assets") / "values"))


@cache
def shipped_table(board_label: str) -> dict:
    """The shipped table for a board ("8x8"), or an empty one."""
    path = _folder() / TABLE_NAME.format(board=board_label)
    if not path.exists():
        return {"settings": {}, "piece": {}}
    try:
        return tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as error:
        raise DealerError(f"{path}: not a measured-values table ({error}); reinstall the toolkit") from None


def measured_value(piece: PieceDef, board: Board) -> float | None:
    """The shipped measurement of this piece on this board, if it is precise enough to use (measured_row)."""
    row = measured_row(piece, board)
    return None if row is None else row["value"]


def measured_row(piece: PieceDef, board: Board, precise_only: bool = True) -> dict | None:
    """value, low, high, games ... of the shipped measurement of this piece, if it moves as it did when
    measured and (precise_only) its interval is within MAX_MARGIN; else None."""
    row = shipped_table(board.label)["piece"].get(piece.id)
    if row is None or row.get("betza") != piece.betza:
        return None
    if precise_only and (row["high"] - row["low"]) / 2 > MAX_MARGIN:
        return None
    return row


def shipped_results(board_label: str, nodes: int | None = None, seed: int | None = None) -> Path | None:
    """The package's results file for a board, when it was played with these nodes and seed (None: any)."""
    table = shipped_table(board_label)["settings"]
    if "results" not in table or (nodes, seed) not in {(None, None), (table.get("nodes"), table.get("seed"))}:
        return None
    path = _folder() / table["results"]
    return path if path.exists() else None


def pawn_logit(board_label: str) -> float | None:
    """The logit one Pawn of odds is worth in the shipped measurement for a board (a score's scale in Pawns)."""
    return shipped_table(board_label)["settings"].get("pawn_logit")
