"""Options and helpers shared by the commands."""

from __future__ import annotations

import json
import re
from functools import wraps

import click

from pieces.catalogue import Catalogue, load_catalogue


def catalogue_option(command):
    """Add `--catalogue FILE` (repeatable) and pass the loaded catalogue as `catalogue`."""

    @click.option(
        "--catalogue", "catalogue_files", multiple=True, type=click.Path(),
        help="A TOML file of your own pieces, added to (or replacing by id) the built-in catalogue.",
    )
    @wraps(command)
    def wrapper(*args, catalogue_files: tuple[str, ...], **kwargs):
        return command(*args, catalogue=load_catalogue(catalogue_files), **kwargs)

    return wrapper


class WholeNumber(click.ParamType):
    """An integer written plainly: ASCII digits, an optional minus, at most 100 digits (no '1_000' or '４２')."""

    name = "integer"

    def convert(self, value, param, ctx) -> int:
        if isinstance(value, int):
            return value
        if not re.fullmatch(r"-?[0-9]{1,100}", value):
            self.fail(f"{value[:40]!r} is not a whole number written with the digits 0-9", param, ctx)
        return int(value)


def echo_json(data: object) -> None:
    """Print data as indented JSON, with [dx, dy] pairs kept on one line."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    click.echo(_PAIR.sub(r"[\1, \2]", text))


_PAIR = re.compile(r"\[\s+(-?\d+),\s+(-?\d+)\s+\]")
