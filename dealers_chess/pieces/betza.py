"""XBetza notation: read a movement string into terms and write terms back in canonical form.

The grammar and its readings follow shared/reference/xbetza.md; `movement.py` turns terms into
concrete paths. Anything outside the supported subset raises BetzaError, never a silent drop.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dealers_chess.pieces.errors import BetzaError

DIRECTION_LETTERS = "fblrvsh"
# Modifiers a leg may carry, in the canonical order XBoard parses them (a subset of mcdetpgoynj).
MODIFIER_ORDER = "mcepgynj"
UNSUPPORTED_LETTERS = {
    "d": "friendly capture (d)",
    "t": "tame moves (t)",
    "o": "cylinder boards (o)",
    "k": "check-only moves (k)",
    "u": "unload (u)",
    "x": "move induction (x)",
    "z": "crooked continuation (z)",
    "q": "circular continuation (q)",
}


@dataclass(frozen=True, slots=True)
class Atom:
    """A basic step: its written symbol, its (long, short) leap and whether it is 8-fold."""

    symbol: str
    long: int
    short: int
    eightfold: bool = False
    rider: bool = False  # R, B and Q slide without a range digit

    @property
    def family(self) -> str:
        """'orthogonal', 'diagonal', 'oblique' or 'eightfold'."""
        if self.eightfold:
            return "eightfold"
        if self.short == 0:
            return "orthogonal"
        if self.short == self.long:
            return "diagonal"
        return "oblique"


ATOMS: dict[str, Atom] = {
    "W": Atom("W", 1, 0),
    "F": Atom("F", 1, 1),
    "D": Atom("D", 2, 0),
    "N": Atom("N", 2, 1),
    "A": Atom("A", 2, 2),
    "H": Atom("H", 3, 0),
    "C": Atom("C", 3, 1),
    "Z": Atom("Z", 3, 2),
    "G": Atom("G", 3, 3),
    "K": Atom("K", 1, 1, eightfold=True),
    "R": Atom("R", 1, 0, rider=True),
    "B": Atom("B", 1, 1, rider=True),
    "Q": Atom("Q", 1, 1, eightfold=True, rider=True),
}
AMBIGUOUS_ATOMS = {"L": "C", "J": "Z"}
MAX_LEAP = 15  # the longest leap that fits a 16x16 board
MAX_LEGS = 4  # legs joined by 'a' in one move; every catalogue piece needs at most 2
MAX_LENGTH = 200  # characters in one XBetza string; the catalogue's longest has 29
ASCII_DIGITS = "0123456789"  # str.isdigit() would also take '²' and '٣', which int() then refuses


@dataclass(frozen=True, slots=True)
class Leg:
    """One leg of a move as written: its direction letters (in order) and modifier letters."""

    directions: str
    modifiers: frozenset[str]


@dataclass(frozen=True, slots=True)
class Term:
    """One move of a piece as written: legs joined by 'a', an atom and a range."""

    initial: bool
    legs: tuple[Leg, ...]
    atom: Atom
    max_steps: int | None  # 1 = one leap, None = unlimited, n = up to n

    def format(self) -> str:
        """This term in canonical XBetza."""
        legs = "a".join(leg.directions + _ordered(leg.modifiers) for leg in self.legs)
        return ("i" if self.initial else "") + legs + self.atom.symbol + _format_range(self)


def _ordered(modifiers: frozenset[str]) -> str:
    return "".join(letter for letter in MODIFIER_ORDER if letter in modifiers)


def _format_range(term: Term) -> str:
    if term.atom.rider:
        return "" if term.max_steps is None else str(term.max_steps)
    if term.max_steps == 1:
        return ""
    return "0" if term.max_steps is None else str(term.max_steps)


def format_terms(terms: tuple[Term, ...]) -> str:
    """The canonical XBetza string of a sequence of terms."""
    return "".join(term.format() for term in terms)


_COORDINATE = re.compile(r"\(([0-9]+),([0-9]+)\)")


class _Reader:
    """A cursor over one XBetza string that reports errors with the string and position."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def fail(self, expected: str, at: int | None = None) -> BetzaError:
        where = self.pos if at is None else at
        found = repr(self.text[where]) if where < len(self.text) else "the end"
        return BetzaError(
            f"XBetza {self.text!r}: at position {where + 1} found {found}; expected {expected}"
        )

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def done(self) -> bool:
        return self.pos >= len(self.text)


def parse_terms(text: str) -> tuple[Term, ...]:
    """Read an XBetza string into its terms; raise BetzaError on anything not understood."""
    if not isinstance(text, str) or not text.strip():
        raise BetzaError(f"XBetza {text!r}: empty; expected at least one atom such as W, N or (1,4)")
    if len(text) > MAX_LENGTH:
        raise BetzaError(f"XBetza {text[:20]!r}...: {len(text)} characters; at most {MAX_LENGTH} allowed")
    reader = _Reader(text)
    terms = []
    while not reader.done():
        terms.append(_read_term(reader))
    return tuple(terms)


def _read_term(reader: _Reader) -> Term:
    initial = False
    if reader.peek() == "i":
        initial = True
        reader.pos += 1
    legs = [_read_leg(reader)]
    while reader.peek() == "a":
        if len(legs) == MAX_LEGS:
            raise reader.fail(f"an atom: a move has at most {MAX_LEGS} legs joined by 'a'")
        reader.pos += 1
        legs.append(_read_leg(reader))
    atom = _read_atom(reader)
    max_steps = _read_range(reader, atom)
    return Term(initial, tuple(legs), atom, max_steps)


def _read_leg(reader: _Reader) -> Leg:
    directions = []
    while reader.peek() and reader.peek() in DIRECTION_LETTERS:
        directions.append(reader.peek())
        reader.pos += 1
    modifiers: set[str] = set()
    while reader.peek() and reader.peek() in MODIFIER_ORDER:
        letter = reader.peek()
        if letter in modifiers:
            raise reader.fail(f"each modifier once per leg ({letter!r} repeats)")
        modifiers.add(letter)
        reader.pos += 1
    letter = reader.peek()
    if letter in DIRECTION_LETTERS and letter:
        raise reader.fail(
            "an atom: direction letters come before modifiers in canonical XBetza (write 'fmW', not 'mfW')"
        )
    if letter in UNSUPPORTED_LETTERS:
        raise reader.fail(f"a supported letter; {UNSUPPORTED_LETTERS[letter]} is not supported")
    if letter == "i":
        raise reader.fail("'i' only at the start of a move")
    if not letter:
        raise reader.fail("an atom (W F D N A H C Z G K R B Q or (x,y))")
    return Leg("".join(directions), frozenset(modifiers))


def _read_atom(reader: _Reader) -> Atom:
    letter = reader.peek()
    if letter in ATOMS:
        reader.pos += 1
        return ATOMS[letter]
    if letter in AMBIGUOUS_ATOMS:
        raise reader.fail(
            f"an unambiguous atom: {letter} means different leaps in XBoard and Fairy-Stockfish; "
            f"write {AMBIGUOUS_ATOMS[letter]}"
        )
    if letter == "(":
        match = _COORDINATE.match(reader.text, reader.pos)
        if not match:
            raise reader.fail("a leap written as (x,y) with two whole numbers, e.g. (1,4)")
        x, y = _small_number(match.group(1)), _small_number(match.group(2))
        if max(x, y) == 0 or max(x, y) > MAX_LEAP:
            raise reader.fail(f"a leap (x,y) with 1 <= max(x,y) <= {MAX_LEAP}")
        reader.pos = match.end()
        return Atom(f"({x},{y})", max(x, y), min(x, y))
    raise reader.fail("an atom (W F D N A H C Z G K R B Q or (x,y))")


def _read_range(reader: _Reader, atom: Atom) -> int | None:
    if atom.symbol in ATOMS and reader.peek() == atom.symbol and not atom.rider:
        reader.pos += 1  # a doubled atom (NN) is an unlimited rider
        return None
    start = reader.pos
    while reader.peek() and reader.peek() in ASCII_DIGITS:
        reader.pos += 1
    digits = reader.text[start : reader.pos]
    if not digits:
        return None if atom.rider else 1
    if len(digits) > 1 and digits[0] == "0":
        raise reader.fail("a range without a leading zero (exact ranges such as W03 are not supported)", start)
    steps = _small_number(digits)
    if steps > MAX_LEAP:
        raise reader.fail(f"a range from 0 (unlimited) to {MAX_LEAP}", start)
    return None if steps == 0 else steps


def _small_number(digits: str) -> int:
    """ASCII digits as a number, or MAX_LEAP + 1 for anything longer than two digits (always too big)."""
    return int(digits) if len(digits) <= 2 else MAX_LEAP + 1
