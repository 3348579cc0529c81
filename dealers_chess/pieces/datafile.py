"""Reading the user's data files (TOML, JSON) once, safely, into a declared shape.

Every data file goes through `read_toml` or `read_json`: it must be a regular file of at most
MAX_BYTES that parses, and (given a msgspec shape) has exactly the keys, types and ranges declared.
Anything else is one DealerError naming the file, the field, what is allowed and what was found.
"""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Annotated, Any, TypeAlias, TypeVar

import msgspec

from dealers_chess.pieces.errors import DealerError

MAX_BYTES = 8 * 1024 * 1024  # a deck of 200,000 cards is 1.4 MB; the built-in catalogue is 40 kB
T = TypeVar("T")

_PATTERN_WORDS: dict[str, str] = {}  # a pattern's regex -> the words an error uses for it


def described(regex: str, words: str) -> str:
    """The regex of a string field, with the words an error message uses for it instead of the regex."""
    _PATTERN_WORDS[regex] = words
    return regex


CONTROL = "\x00-\x1f\x7f-\x9f"  # C0, DEL and C1: bells, escapes (terminal colours), invalid in XML
ONE_LINE = described(rf"\A[^{CONTROL}]*\Z", "one line of text without control characters")
ID = described(r"\A[a-z0-9]+(-[a-z0-9]+)*\Z", "lowercase letters, digits and single hyphens")
NOTES = described(r"\A[^\x00-\x08\x0b-\x1f\x7f-\x9f]*\Z", "text without control characters")

# String types of the files we read: msgspec checks the Meta, a type checker sees str.
Id: TypeAlias = Annotated[str, msgspec.Meta(pattern=ID, max_length=64)]
Text: TypeAlias = Annotated[str, msgspec.Meta(pattern=ONE_LINE, max_length=2000)]
Notes: TypeAlias = Annotated[str, msgspec.Meta(pattern=NOTES, max_length=20_000)]


def shown(path: str | Path) -> str:
    """A path as an error message shows it: as typed, or quoted with escapes if it holds control characters."""
    text = str(path)
    return repr(text) if re.search(f"[{CONTROL}]", text) else text


def read_toml(path: str | Path, kind: str, error: type[DealerError], shape: type[T] | None = None) -> Any:
    """The TOML file read and (with a shape) converted to it; raise `error` naming file and field."""
    text = _read_text(Path(path), kind, error)
    try:
        data = tomllib.loads(text)
    except (ValueError, RecursionError) as problem:  # TOMLDecodeError, 5,000-digit numbers, deep nesting
        raise error(f"{shown(path)}: not valid TOML ({_parse_problem(problem)})") from None
    return data if shape is None else convert(data, shape, shown(path), error)


def read_json(path: str | Path, kind: str, error: type[DealerError], shape: type[T] | None = None) -> Any:
    """The JSON file read and (with a shape) converted to it; raise `error` naming file and field."""
    text = _read_text(Path(path), kind, error)
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as problem:
        raise error(f"{shown(path)}: not valid JSON ({_parse_problem(problem)})") from None
    return data if shape is None else convert(data, shape, shown(path), error)


def convert(data: Any, shape: type[T], where: str, error: type[DealerError]) -> T:
    """Data converted to shape; raise `error` starting with `where` and naming the field if it does not fit."""
    try:
        return msgspec.convert(data, shape, strict=True)
    except msgspec.ValidationError as problem:
        explained = re.sub(f"[{CONTROL}]", lambda m: repr(m[0])[1:-1], _explain(str(problem), data, shape))
        raise error(f"{where}: {explained}") from None
    except RecursionError:
        raise error(f"{where}: nested too deeply") from None


def _read_text(path: Path, kind: str, error: type[DealerError]) -> str:
    """The file's text: a regular file only (never a device or pipe), at most MAX_BYTES, UTF-8."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a pipe must not block the open
    except FileNotFoundError:
        raise error(f"{shown(path)}: no such {kind} file") from None
    except (OSError, ValueError) as problem:
        reason = getattr(problem, "strerror", None) or problem
        raise error(f"{shown(path)}: cannot read the {kind} file ({reason})") from None
    try:
        mode = os.fstat(handle).st_mode
        if stat.S_ISDIR(mode):
            raise error(f"{shown(path)}: is a folder; give the {kind} file itself")
        if not stat.S_ISREG(mode):
            raise error(f"{shown(path)}: is a device, pipe or socket, not a file; give the {kind} file itself")
        data = os.read(handle, MAX_BYTES + 1)
    except OSError as problem:
        raise error(f"{shown(path)}: cannot read the {kind} file ({problem.strerror})") from None
    finally:
        os.close(handle)
    if len(data) > MAX_BYTES:
        raise error(f"{shown(path)}: larger than {MAX_BYTES // 1024 // 1024} MiB; not a {kind} file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        raise error(f"{shown(path)}: not UTF-8 text ({problem.reason} at byte {problem.start})") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _parse_problem(problem: Exception) -> str:
    if isinstance(problem, RecursionError):
        return "nested too deeply"
    if "integer string conversion" in str(problem):
        return "a number of thousands of digits"
    return str(problem).splitlines()[0][:200]


_TYPE_WORDS = {
    "str": "text", "int": "a whole number", "float": "a number", "bool": "true or false",
    "array": "a list", "object": "a table", "null": "nothing",
}
_LOCATION = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]")


def _explain(message: str, data: Any, shape: type) -> str:
    """msgspec's 'Expected `int`, got `str` - at `$.a[0]`' as "a[0]: expected a whole number; found 'x'"."""
    located = re.fullmatch(r"(.*) - at `(key` in `)?(\$[^`]*)`", message, re.DOTALL)
    text, in_key, location = located.groups() if located else (message, None, "$")
    steps = [name or int(index) for name, index in _LOCATION.findall(location)]
    field = location[2:] if location.startswith("$.") else location[1:]
    field = f"{field} key" if in_key and field else "key" if in_key else field
    unknown = re.fullmatch(r"Object contains unknown field `(.*)`", text, re.DOTALL)
    missing = re.fullmatch(r"Object missing required field `(.*)`", text, re.DOTALL)
    bad_choice = re.fullmatch(r"Invalid enum value (.*)", text, re.DOTALL)
    if unknown:
        text = f"unknown key {unknown[1]!r}; allowed: {', '.join(_allowed_at(shape, steps))}"
    elif missing:
        text = f"missing key {missing[1]!r}"
    elif bad_choice:
        text = f"{bad_choice[1]} is not allowed; allowed: {', '.join(_allowed_at(shape, steps))}"
    else:
        for regex, words in _PATTERN_WORDS.items():
            text = text.replace(f"`str` matching regex {regex!r}", words)
        text = re.sub(r"`([^`]*)`", lambda match: _type_words(match[1]), text)
        text = text.replace("Expected", "expected").split(", got ")[0]
        found = _value_at(data, steps)
        if in_key and isinstance(found, dict):
            text += f"; found keys {_short(list(found))}"
        elif found is not _NOTHING:
            text += f"; found {_short(found)}"
    return f"{field}: {text}" if field else text


def _type_words(types: str) -> str:
    """'array | null' as 'a list' (a missing key is how TOML and our files say null)."""
    names = [name for name in types.split(" | ") if name != "null"] or ["null"]
    return " or ".join(_TYPE_WORDS.get(name, name) for name in names)


_NOTHING = object()


def _value_at(data: Any, steps: list) -> Any:
    for step in steps:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return _NOTHING
    return data


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _allowed_at(shape: type, steps: list) -> list[str]:
    """The keys (of a table) or values (of an Enum) the shape allows at a location."""
    from msgspec import inspect

    info = inspect.type_info(shape)
    for step in steps:
        info = _inner(info)
        if isinstance(step, int):
            info = getattr(info, "item_type", info)
        elif isinstance(info, inspect.StructType):
            info = next((f.type for f in info.fields if f.encode_name == step), info)
    info = _inner(info)
    if isinstance(info, inspect.StructType):
        return [f.encode_name for f in info.fields]
    if isinstance(info, inspect.EnumType):
        return [str(member.value) for member in info.cls]
    return []


def _inner(info: Any) -> Any:
    """The type inside an optional or union type."""
    from msgspec import inspect

    if isinstance(info, inspect.UnionType):
        return next((t for t in info.types if not isinstance(t, inspect.NoneType)), info)
    return info
