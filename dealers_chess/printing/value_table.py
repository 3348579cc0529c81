"""The measured-values table as TOML (what assets/values/table-BOARD.toml holds), written atomically."""

from __future__ import annotations

import json
from pathlib import Path

from dealers_chess.printing.files import write_atomic


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(int(value))
    if isinstance(value, float):
        return repr(float(value))  # a numpy float64 too, written as a plain number
    return json.dumps(str(value))  # a TOML basic string is a JSON string for this text


def table_toml(data: dict) -> str:
    """{'settings': {...}, 'piece': {id: {...}}} as TOML text."""
    lines = ["# Piece values measured by self-play (`dealer values table`); docs/values.md says how.", "",
             "[settings]"]
    lines += [f"{key} = {_toml_value(value)}" for key, value in data["settings"].items()]
    for piece, row in data["piece"].items():
        lines += ["", f"[piece.{json.dumps(piece)}]"]
        lines += [f"{key} = {_toml_value(value)}" for key, value in row.items()]
    return "\n".join(lines) + "\n"


def write_table(path: str | Path, data: dict) -> Path:
    return write_atomic(path, table_toml(data))
