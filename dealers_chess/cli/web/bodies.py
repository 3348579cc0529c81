"""The JSON bodies the board page sends, each with exactly the keys and types it may have.

A body that is not JSON, nests where a value belongs, misses a key or has one of the wrong type is
refused with a one-line reason naming the key (never a 500). Every action carries the version of the
game the page showed, so an action from a page that missed a change is refused, not applied.
"""

from __future__ import annotations

import json
import re
from enum import Enum
from typing import Annotated, TypeVar

import msgspec

from dealers_chess.pieces.datafile import ONE_LINE, convert
from dealers_chess.pieces.errors import DealerError

Version = Annotated[int, msgspec.Meta(ge=0, le=2**53)]
T = TypeVar("T")


class RequestError(DealerError):
    """A request body the board page would never send."""


class MoveBody(msgspec.Struct, forbid_unknown_fields=True):
    """A move in any form the referee reads, or the key of an answer to its question."""

    move: Annotated[str, msgspec.Meta(pattern=ONE_LINE, max_length=2000)]
    version: Version


class PageCommand(Enum):
    """The commands the page's buttons send: the lines of engine.session.commands (engine.session.seats for a
    side's page) they run."""

    UNDO = "undo"  # from a side's page: a request the other side answers
    REDO = "redo"
    DRAW = "draw"  # offer a draw (the page asks first before it accepts one: `accept`)
    ACCEPT = "accept"
    DECLINE = "decline"
    CLAIM = "claim"
    RESIGN = "resign"
    ACCEPT_UNDO = "accept undo"  # answer the other side's takeback request
    DECLINE_UNDO = "decline undo"
    REMATCH = "rematch"  # once the game is over: offer a rematch with colours swapped, or accept the other's
    DECLINE_REMATCH = "decline rematch"


class CommandBody(msgspec.Struct, forbid_unknown_fields=True):
    """One of the page's commands."""

    command: PageCommand
    version: Version


class NameBody(msgspec.Struct, forbid_unknown_fields=True):
    """The name of the player of the page's side."""

    name: Annotated[str, msgspec.Meta(pattern=ONE_LINE, max_length=200)]
    version: Version


class CancelBody(msgspec.Struct, forbid_unknown_fields=True):
    """Put away the question a move left open."""

    version: Version


MAX_NESTING = 32  # the page's bodies are flat objects; deeper JSON is refused before it is parsed
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")
TOO_DEEP = "the request is nested too deeply; expected a JSON object of text and numbers"


def decode(raw: bytes, shape: type[T]) -> T:
    """The body read as `shape`; raise RequestError saying what is wrong with it."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RequestError("the request is not UTF-8 text") from None
    if _nesting(text) > MAX_NESTING:
        raise RequestError(TOO_DEEP)  # on every Python: 3.12 parses 1000 levels without a RecursionError
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise RequestError(TOO_DEEP) from None
    except ValueError:
        raise RequestError("the request is not JSON") from None
    if not isinstance(data, dict):
        raise RequestError(f"the request must be a JSON object such as {{\"version\": 3}}; found {type(data).__name__}")
    return convert(data, shape, "request", RequestError)


def _nesting(text: str) -> int:
    """How deep the brackets of a JSON text nest, outside its strings (the body is at most a few kB)."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_JSON_STRING.sub('""', text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")
