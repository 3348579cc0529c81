"""Fuzzing every reader of a user's file: only the toolkit's own one-line errors escape, and fast.

Each reader gets two kinds of hostile input: a valid file with random edits to its text, and the
valid data with one value replaced by anything (wrong types, nan, control characters, nesting),
a key removed or an unknown key added. Slow variants run many more examples.
"""

from __future__ import annotations

import json
import math
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealers_chess.engine.dealing.arrangement import arrange, load_choices
from dealers_chess.engine.dealing.deal import balanced_deal, deck_for, find_procedure
from dealers_chess.engine.dealing.deal_file import cards_in_play, read_deal_file
from dealers_chess.engine.dealing.deck import load_deck, starter_deck
from dealers_chess.engine.game import read_game_file
from dealers_chess.pieces.catalogue import Catalogue, load_catalogue, read_catalogue_file
from dealers_chess.pieces.errors import DealerError
from dealers_chess.pieces.movement import parse_movement
from dealers_chess.printing.cards.sheets import load_profile
from dealers_chess.printing.solids.plates import deal_armies

ASSETS = Path(__file__).parents[2] / "dealers_chess" / "assets"
CATALOGUE = load_catalogue()
SECONDS_PER_EXAMPLE = 1.0


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Where the fuzzed files are written: one of pytest's temporary folders, which pytest removes in time."""
    return tmp_path_factory.mktemp("dealer-fuzz")


def fuzz(strategy, examples: int):
    """A hypothesis test of `check` over strategy, with `examples` examples and no wall-clock deadline.

    The check is given the folder for its files (the fixture above) and the value.
    """

    def decorate(check: Callable[[Path, Any], None]):
        @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                                 HealthCheck.data_too_large])
        @given(strategy)
        def test(folder, value):
            started = time.process_time()
            check(folder, value)
            assert time.process_time() - started < SECONDS_PER_EXAMPLE

        return test

    return decorate


def only_own_errors(read: Callable[[], object]) -> None:
    """Run a reader: it may succeed or raise a DealerError of one line, nothing else."""
    try:
        read()
    except DealerError as error:
        assert "\n" not in str(error) and "\r" not in str(error)


# --- the files: a valid one of each kind -------------------------------------------------------

def _deal() -> dict:
    from click.testing import CliRunner

    from dealers_chess.cli import cli

    return json.loads(CliRunner().invoke(cli, ["deal", "--seed", "42", "--board", "10x10", "--json"]).stdout)


VALID_TOML = {
    "catalogue": (ASSETS / "catalogue" / "30-pawns.toml").read_text(encoding="utf-8").split("[[piece]]")[:4],
    "game": (ASSETS / "games" / "spinal-tap.toml").read_text(encoding="utf-8"),
    "profile": (ASSETS / "profiles" / "letter-cut.toml").read_text(encoding="utf-8"),
    "deck": 'name = "mine"\nroyals = ["king", "rex", "pope"]\npawns = ' + json.dumps(["standard-pawn"] * 20)
            + "\npieces = " + json.dumps([p.id for p in CATALOGUE.select(sets=["starter"], groups=["piece"])]) + "\n",
}
VALID_TOML["catalogue"] = "[[piece]]".join(VALID_TOML["catalogue"])
DEAL = _deal()
PROCEDURE = find_procedure("8x8")
SMALL_DEAL = balanced_deal(PROCEDURE, deck_for(PROCEDURE, starter_deck(CATALOGUE), default=True), 42, CATALOGUE, None)
VALID_TOML["arrangement"] = (
    f"[white]\nback_rank = {json.dumps(list(SMALL_DEAL.white.pieces[:7]))}\n"
    f"[black]\nrows = [{json.dumps(list(SMALL_DEAL.black.pieces[:7]))}]\n"
    f"pawns = {json.dumps(list(SMALL_DEAL.black.pawns))}\n"
)


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    return path


def _read_catalogue(path: Path) -> None:
    Catalogue([*CATALOGUE, *read_catalogue_file(path)])


def _read_arrangement(path: Path) -> None:
    for side, choice in load_choices(path).items():
        arrange(SMALL_DEAL, side, CATALOGUE, choice)


def _read_deck(path: Path) -> None:
    deck = load_deck(path, CATALOGUE)
    balanced_deal(PROCEDURE, deck_for(PROCEDURE, deck, default=False), 7, CATALOGUE, None)


def _read_deal(path: Path) -> None:
    data = read_deal_file(path)
    [CATALOGUE.get(card) for card in cards_in_play(data)]
    deal_armies(path, CATALOGUE)


READERS = {
    "catalogue": _read_catalogue,
    "game": read_game_file,
    "profile": lambda path: load_profile(str(path)),
    "deck": _read_deck,
    "arrangement": _read_arrangement,
    "deal": _read_deal,
}
SUFFIX = {kind: ".json" if kind == "deal" else ".toml" for kind in READERS}


def test_the_valid_files_are_read(folder):
    for kind, text in {**VALID_TOML, "deal": json.dumps(DEAL)}.items():
        READERS[kind](_write(folder, f"valid-{kind}{SUFFIX[kind]}", text))


# --- hostile text: random edits of a valid file ------------------------------------------------

PIECES_OF_SYNTAX = st.sampled_from([
    "[", "]", "{", "}", '"', "'", "=", ",", ".", "\n", "[[", "]]", "nan", "inf", "-1", "1e300", "²", "٣", "\x00",
    "\x1b[31m", "\ufeff", "true", "9" * 5000, "[" * 3000, "a", "x", "\\", '"""', "#", "0x10", "1_000",
])
EDIT = st.tuples(st.sampled_from(["insert", "delete", "replace"]), st.floats(0, 1), st.floats(0, 0.2),
                 st.one_of(PIECES_OF_SYNTAX, st.text(max_size=8)))


def edited(text: str):
    """The text with a few random insertions, deletions and replacements."""

    def apply(edits) -> str:
        result = text
        for action, where, length, payload in edits:
            start = int(where * len(result))
            end = start + int(length * len(result)) if action != "insert" else start
            result = result[:start] + ("" if action == "delete" else payload) + result[end:]
        return result

    return st.lists(EDIT, min_size=1, max_size=4).map(apply)


def _text_check(kind: str):
    return lambda folder, text: only_own_errors(
        lambda: READERS[kind](_write(folder, f"text-{kind}{SUFFIX[kind]}", text)))


TEXTS = {**VALID_TOML, "deal": json.dumps(DEAL, indent=1)}
for _kind in READERS:
    globals()[f"test_edited_{_kind}_text"] = fuzz(edited(TEXTS[_kind]), 40)(_text_check(_kind))
    globals()[f"test_edited_{_kind}_text_long"] = pytest.mark.slow(fuzz(edited(TEXTS[_kind]), 2000)(_text_check(_kind)))


# --- hostile values: the valid data with one value replaced ------------------------------------

SCALARS = st.one_of(
    st.booleans(), st.integers(-(10**30), 10**30), st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20), st.sampled_from(["", "king", "rook", "8x8", "99x99", "../x", "/abs", "a\nb", "\x1b[31m"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                      max_leaves=12)


def _paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    found = [prefix] if prefix else []
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data[:3]):
            found += _paths(value, prefix + (index,))
    return found


def changed(data: Any):
    """The data with one location replaced by any value, removed, or given an unknown key."""
    paths = _paths(data)

    def apply(change) -> Any:
        path, action, value = change
        copy = json.loads(json.dumps(data))
        parent = copy
        for step in path[:-1]:
            parent = parent[step]
        if action == "remove" and isinstance(parent, dict):
            parent.pop(path[-1])
        elif action == "unknown key" and isinstance(parent, dict):
            parent["surprise"] = value
        else:
            parent[path[-1]] = value
        return copy

    return st.tuples(st.sampled_from(paths), st.sampled_from(["set", "set", "remove", "unknown key"]),
                     VALUES).map(apply)


def toml_text(data: dict) -> str:
    """A small TOML writer for the fuzz data (key = value lines, inline tables and arrays)."""
    return "".join(f"{_toml_key(key)} = {_toml_value(value)}\n" for key, value in data.items())


def _toml_key(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(value)


DATA = {kind: tomllib.loads(text) for kind, text in VALID_TOML.items()}  # as read_toml reads them
DATA["deal"] = DEAL


def _value_check(kind: str):
    def check(folder: Path, data) -> None:
        text = json.dumps(data, allow_nan=True) if kind == "deal" else toml_text(data)
        only_own_errors(lambda: READERS[kind](_write(folder, f"value-{kind}{SUFFIX[kind]}", text)))

    return check


for _kind in READERS:
    globals()[f"test_changed_{_kind}_values"] = fuzz(changed(DATA[_kind]), 60)(_value_check(_kind))
    globals()[f"test_changed_{_kind}_values_long"] = pytest.mark.slow(
        fuzz(changed(DATA[_kind]), 3000)(_value_check(_kind)))


# --- XBetza: strings heavy in legs, riders and digits ------------------------------------------

BETZA_PIECES = st.sampled_from([
    "a", "a", "a", "W", "F", "R", "B", "Q", "K", "N", "D", "(1,4)", "(15,15)", "0", "1", "4", "15", "²", "٣",
    "f", "b", "l", "r", "s", "v", "h", "m", "c", "p", "g", "n", "j", "y", "i", "e", "(", ")", ",",
])


def _betza_check(compile_too: bool):
    def check(folder: Path, text: str) -> None:  # no files: the folder is not used
        try:
            movement = parse_movement(text)
        except DealerError as error:
            assert "\n" not in str(error)
            return
        if compile_too:
            from dealers_chess.engine.board import board_of
            from dealers_chess.engine.kernel import compile_movement

            compile_movement(movement, board_of(12, 12))

    return check


XBETZA = st.lists(BETZA_PIECES, min_size=1, max_size=16).map("".join)
test_xbetza_strings = fuzz(XBETZA, 300)(_betza_check(False))
test_xbetza_strings_compile = fuzz(XBETZA, 60)(_betza_check(True))
test_xbetza_strings_compile_long = pytest.mark.slow(fuzz(XBETZA, 3000)(_betza_check(True)))
