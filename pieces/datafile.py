"""Reading the user's data files (TOML, JSON) with one-line errors that name the file."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from pieces.errors import DealerError


def read_toml(path: str | Path, kind: str, error: type[DealerError]) -> dict[str, Any]:
    """The parsed TOML file; raise `error` naming the file if it is missing or not valid TOML."""
    return _read(Path(path), kind, error, tomllib.loads, (tomllib.TOMLDecodeError,), "not valid TOML")


def read_json(path: str | Path, kind: str, error: type[DealerError]) -> Any:
    """The parsed JSON file; raise `error` naming the file if it is missing or not valid JSON."""
    return _read(Path(path), kind, error, json.loads, (json.JSONDecodeError,), "not valid JSON")


def _read(path: Path, kind: str, error: type[DealerError], parse, failures: tuple, problem: str) -> Any:
    try:
        return parse(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{path}: no such {kind} file") from None
    except IsADirectoryError:
        raise error(f"{path}: is a folder; expected a {kind} file") from None
    except (*failures, UnicodeDecodeError) as problem_found:
        raise error(f"{path}: {problem} ({problem_found})") from None
