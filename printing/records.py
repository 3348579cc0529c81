"""Saving game records: atomically, and never over a record that is damaged."""

from __future__ import annotations

from pathlib import Path

from engine.errors import RecordError
from engine.record import GameRecord, format_record, read_record
from printing.files import OutputError, write_atomic


def write_record(path: str | Path, record: GameRecord) -> Path:
    """Save a record atomically (temp file + rename); refuse to replace a damaged record."""
    path = Path(path)
    if path.exists():
        try:
            read_record(path)
        except RecordError as error:
            raise RecordError(f"{path}: not overwritten, the record there is damaged ({error})") from None
    try:
        return write_atomic(path, format_record(record))
    except OutputError as error:
        raise RecordError(str(error)) from None
