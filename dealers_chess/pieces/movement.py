"""The one movement model: XBetza terms resolved into concrete paths with absolute vectors.

A `Path` is a chain of legs; every leg but the last must end on an empty square, the last leg's
modes say what it may do on arrival. Vectors are for White (+y forward); Black rotates 180 degrees.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from functools import cache
from math import prod

from dealers_chess.pieces.betza import MAX_LEAP, Atom, Leg, Term, format_terms, parse_terms
from dealers_chess.pieces.errors import BetzaError

Vector = tuple[int, int]

# Bounds that keep parsing and compiling any string fast (the catalogue's richest piece has 24
# paths and 24 walks). A walk is one way to go through the legs before the last; an unlimited
# slide counts as MAX_LEAP steps, the longest ride on a 16x16 board.
MAX_PATHS = 256
MAX_WALKS = 1024

# The eight compass directions, clockwise from straight forward.
COMPASS: tuple[Vector, ...] = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))


class Mode(Enum):
    """What the final leg of a move may do on its destination square."""

    MOVE = "m"
    CAPTURE = "c"
    EN_PASSANT = "e"


class Hop(Enum):
    """How a leg treats occupied squares on its way."""

    NONE = "slide or leap"
    CANNON = "p"  # pass exactly one screen, then go on
    GRASSHOPPER = "g"  # land directly behind the screen


@dataclass(frozen=True, slots=True)
class LegPath:
    """One leg resolved: a vector repeated up to max_steps times (None = unlimited)."""

    vector: Vector
    max_steps: int | None
    lame: tuple[Vector, ...] = ()  # offsets from each step's start that must be empty
    jump: tuple[Vector, ...] = ()  # offsets from the step's start that must be occupied
    skip_first: bool = False  # a 'j' slider may not stop on its first square

    def rotated(self) -> LegPath:
        """This leg as Black sees it."""
        return self.turned(_rot)

    def turned(self, turn: Callable[[Vector], Vector]) -> LegPath:
        """This leg with every vector turned (a rotation or mirror image of the board)."""
        return LegPath(
            turn(self.vector), self.max_steps, tuple(map(turn, self.lame)), tuple(map(turn, self.jump)),
            self.skip_first,
        )


@dataclass(frozen=True, slots=True)
class Path:
    """A concrete way to move: legs in order, what the last leg may do, and first-move-only."""

    legs: tuple[LegPath, ...]
    modes: frozenset[Mode]
    hop: Hop = Hop.NONE
    initial: bool = False

    @property
    def final(self) -> LegPath:
        return self.legs[-1]

    def rotated(self) -> Path:
        """This path as Black sees it."""
        return self.turned(_rot)

    def turned(self, turn: Callable[[Vector], Vector]) -> Path:
        """This path with every vector of its legs turned (a rotation or mirror image of the board)."""
        return Path(tuple(leg.turned(turn) for leg in self.legs), self.modes, self.hop, self.initial)


@dataclass(frozen=True, slots=True)
class Movement:
    """A piece's movement: the canonical XBetza, its terms and every concrete path for White."""

    betza: str
    terms: tuple[Term, ...]
    paths: tuple[Path, ...]

    def __hash__(self) -> int:
        """The canonical XBetza's hash: equal movements have equal strings, and a string keeps its hash
        (a movement is a cache key of the kernel and the value model, hashed at every lookup)."""
        return hash(self.betza)

    def for_black(self) -> tuple[Path, ...]:
        """The paths as Black plays them (180 degree rotation)."""
        return tuple(path.rotated() for path in self.paths)

    @property
    def is_directional(self) -> bool:
        """True when Black's paths differ from White's (pawns, Ship, bent pawn steps, ...)."""
        return set(self.paths) != set(self.for_black())


def _rot(vector: Vector) -> Vector:
    return (-vector[0], -vector[1])


@cache
def parse_movement(betza: str) -> Movement:
    """Parse an XBetza string into a Movement; raise BetzaError if any part is not understood."""
    terms = parse_terms(betza)
    paths: dict[Path, None] = {}
    budget = _Budget(betza)
    for term in terms:
        for path in _term_paths(term, betza, budget):
            paths[path] = None
    return Movement(format_terms(terms), terms, tuple(paths))


class _Budget:
    """Counts the paths and walks of one string before they are built; BetzaError past the bounds."""

    def __init__(self, text: str) -> None:
        self.text, self.paths, self.walks = text, 0, 0

    def spend(self, paths: int, walks: int) -> None:
        self.paths += paths
        self.walks += walks
        if self.paths > MAX_PATHS:
            raise BetzaError(
                f"XBetza {self.text!r}: more than {MAX_PATHS} paths ({self.paths} so far); "
                "use fewer legs or directions"
            )
        if self.walks > MAX_WALKS:
            raise BetzaError(
                f"XBetza {self.text!r}: its slides before the last leg make more than {MAX_WALKS} walks "
                f"({self.walks} so far); give them a range, e.g. aR4 instead of aR"
            )


def _term_paths(term: Term, text: str, budget: _Budget) -> list[Path]:
    final_leg = term.legs[-1]
    _check_modifiers(term, text)
    modes = _final_modes(final_leg)
    hop = Hop.CANNON if "p" in final_leg.modifiers else Hop.GRASSHOPPER if "g" in final_leg.modifiers else Hop.NONE
    ranges = _leg_ranges(term)
    first = _first_vectors(term.atom, term.legs[0].directions, term, text)
    turns = [_continuation_turns(term.atom, leg, term, text) for leg in term.legs[1:]]
    count = len(first) * prod(map(len, turns))
    budget.spend(count, count * prod(steps or MAX_LEAP for steps in ranges[:-1]))
    chains: list[list[Vector]] = [[v] for v in first]
    for leg_turns in turns:
        chains = [chain + [v] for chain in chains for v in _turned(chain[-1], term.atom, leg_turns)]
    paths = []
    for chain in chains:
        legs = tuple(
            _leg_path(vector, steps, leg if i == len(chain) - 1 else None, term, text)
            for i, (vector, steps, leg) in enumerate(zip(chain, ranges, term.legs, strict=True))
        )
        if hop is not Hop.NONE and legs[-1].max_steps == 1:
            raise _term_error(term, text, "'p' and 'g' hop along a line: use a rider (R, B, Q, NN or a range digit)")
        paths.append(Path(legs, modes, hop, term.initial))
    return paths


def _term_error(term: Term, text: str, message: str) -> BetzaError:
    return BetzaError(f"XBetza {text!r}: in {term.format()!r}: {message}")


def _check_modifiers(term: Term, text: str) -> None:
    for leg in term.legs[:-1]:
        extra = leg.modifiers - {"m", "y"}
        if extra:
            raise _term_error(
                term, text, f"a leg before 'a' may carry only m or y, not {''.join(sorted(extra))}"
            )
    final = term.legs[-1].modifiers
    if "y" in final:
        raise _term_error(term, text, "'y' belongs on a leg followed by 'a'")
    if len(final & {"p", "g", "n", "j"}) > 1:
        raise _term_error(term, text, "use at most one of p, g, n, j on a leg")


def _final_modes(leg: Leg) -> frozenset[Mode]:
    modes = frozenset(Mode(letter) for letter in "mce" if letter in leg.modifiers)
    return modes or frozenset({Mode.MOVE, Mode.CAPTURE})


def _leg_ranges(term: Term) -> list[int | None]:
    """Each leg's range: the atom's own, toggled leaper<->slider after a leg marked 'y'."""
    base = term.max_steps
    ranges = []
    toggle = False
    for leg in term.legs:
        if toggle:
            ranges.append(None if base == 1 else 1)
        else:
            ranges.append(base)
        toggle = "y" in leg.modifiers
    return ranges


def atom_vectors(atom: Atom) -> list[Vector]:
    """Every vector of an atom, White's view."""
    if atom.eightfold:
        return [(dx * atom.long, dy * atom.long) for dx, dy in COMPASS]
    a, b = atom.long, atom.short
    found: dict[Vector, None] = {}
    for x, y in ((a, b), (b, a)):
        for sx in (1, -1):
            for sy in (1, -1):
                found[(sx * x, sy * y)] = None
    return list(found)


OPPOSITE = {"f": "b", "b": "f", "l": "r", "r": "l"}
AXIS = {"f": (1, 1), "b": (1, -1), "l": (0, -1), "r": (0, 1)}  # (component index, sign)


def _points(vector: Vector, letter: str) -> bool:
    """Whether a vector has a component pointing towards the letter's side."""
    index, sign = AXIS[letter]
    return vector[index] * sign > 0


def _long_axis(vector: Vector) -> int:
    return 1 if abs(vector[1]) > abs(vector[0]) else 0


def _first_vectors(atom: Atom, directions: str, term: Term, text: str) -> list[Vector]:
    vectors = atom_vectors(atom)
    if not directions:
        return vectors
    family = atom.family
    if family == "eightfold":
        raise _term_error(
            term, text, "direction letters on K or Q read differently in XBoard and Fairy-Stockfish; "
            "spell the parts, e.g. fWfF instead of fK"
        )
    tokens = _tokenize(directions, family, term, text)
    chosen = {v for v in vectors if any(_token_matches(v, token, family) for token in tokens)}
    if not chosen:
        raise _term_error(term, text, f"directions {directions!r} select no move of {atom.symbol}")
    return [v for v in vectors if v in chosen]


def _tokenize(directions: str, family: str, term: Term, text: str) -> list[str]:
    tokens = []
    i = 0
    while i < len(directions):
        first = directions[i]
        second = directions[i + 1] if i + 1 < len(directions) else ""
        if _is_pair(first, second, family):
            tokens.append(first + second)
            i += 2
            continue
        if first == "h":
            raise _term_error(term, text, "'h' needs a partner: fh, bh, lh, rh, hl or hr on an oblique atom")
        tokens.append(first)
        i += 1
    return tokens


def _is_pair(first: str, second: str, family: str) -> bool:
    if not second:
        return False
    if family == "diagonal":
        return {first, second} in ({"f", "l"}, {"f", "r"}, {"b", "l"}, {"b", "r"})
    if family == "oblique":
        if first == "h":
            return second in "lr"
        return first in OPPOSITE and second in "fblrsvh" and second != OPPOSITE[first]
    return False


def _token_matches(vector: Vector, token: str, family: str) -> bool:
    if token == "v":
        return vector[0] == 0 if family == "orthogonal" else family == "diagonal" or _long_axis(vector) == 1
    if token == "s":
        return vector[1] == 0 if family == "orthogonal" else family == "diagonal" or _long_axis(vector) == 0
    if len(token) == 1:
        if family == "oblique":
            index, sign = AXIS[token]
            return _long_axis(vector) == index and vector[index] * sign > 0
        return _points(vector, token)
    first, second = token[0], token[1]  # a pair of letters (_tokenize)
    if family == "diagonal":
        return _points(vector, first) and _points(vector, second)
    return _oblique_pair_matches(vector, first, second)


def _oblique_pair_matches(vector: Vector, first: str, second: str) -> bool:
    if first == "h":
        return vector in _chiral_quartet(vector, second)
    if not _points(vector, first):
        return False
    if second == first or second == "h":
        return second == "h" or _long_axis(vector) == AXIS[first][0]
    if second == "s":
        return _long_axis(vector) == 0
    if second == "v":
        return _long_axis(vector) == 1
    index, sign = AXIS[second]  # perpendicular letter names the long direction
    return _long_axis(vector) == index and vector[index] * sign > 0


def _chiral_quartet(vector: Vector, hand: str) -> set[Vector]:
    short, long = sorted((abs(vector[0]), abs(vector[1])))
    x, y = (short, long) if hand == "r" else (-short, long)
    quartet = set()
    for _ in range(4):
        quartet.add((x, y))
        x, y = (y, -x) if hand == "r" else (-y, x)
    return quartet


# Continuation legs turn relative to the previous leg, in 45 degree steps (clockwise positive).
TURNS = {
    "f": (0,), "b": (4,), "r": (2,), "l": (-2,), "s": (2, -2), "v": (0, 4),
    "fr": (1,), "rf": (1,), "fl": (-1,), "lf": (-1,), "br": (3,), "rb": (3,), "bl": (-3,), "lb": (-3,),
    "fs": (1, -1), "bs": (3, -3),
}


def _continuation_turns(atom: Atom, leg: Leg, term: Term, text: str) -> list[int]:
    """The turns (in 45 degree steps) a continuation leg may take from the previous leg's heading."""
    if atom.family == "oblique":
        raise _term_error(term, text, "legs joined by 'a' need an orthogonal, diagonal or 8-fold atom")
    return _turns(leg.directions, atom, term, text)


def _turned(previous: Vector, atom: Atom, turns: list[int]) -> list[Vector]:
    unit = (_sign(previous[0]), _sign(previous[1]))
    heading = COMPASS.index(unit)
    size = atom.long
    return [(dx * size, dy * size) for dx, dy in (COMPASS[(heading + turn) % 8] for turn in turns)]


def _turns(directions: str, atom: Atom, term: Term, text: str) -> list[int]:
    if not directions:
        return [-3, -2, -1, 0, 1, 2, 3] if atom.eightfold else [-2, 0, 2]
    turns: dict[int, None] = {}
    i = 0
    while i < len(directions):
        pair = directions[i : i + 2]
        if len(pair) == 2 and pair in TURNS:
            token, i = pair, i + 2
        elif directions[i] in TURNS:
            token, i = directions[i], i + 1
        else:
            raise _term_error(
                term, text, f"a continuation leg cannot turn {directions[i]!r}; use f b l r s v fl fr bl br fs bs"
            )
        for turn in TURNS[token]:
            turns[turn] = None
    return list(turns)


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


def _leg_path(vector: Vector, steps: int | None, final: Leg | None, term: Term, text: str) -> LegPath:
    if final is None:
        return LegPath(vector, steps)
    if "n" in final.modifiers:
        return LegPath(vector, steps, lame=_lame_offsets(vector, term, text))
    if "j" in final.modifiers:
        if steps != 1:
            return LegPath(vector, steps, skip_first=True)
        if max(map(abs, vector)) != 2 or 0 < min(map(abs, vector)) < 2:
            raise _term_error(term, text, "'j' on a leaper needs D or A (a midpoint to jump)")
        return LegPath(vector, steps, jump=((vector[0] // 2, vector[1] // 2),))
    return LegPath(vector, steps)


def _lame_offsets(vector: Vector, term: Term, text: str) -> tuple[Vector, ...]:
    """Squares a non-leaping ('n') step passes, relative to the step's start."""
    dx, dy = vector
    ax, ay = abs(dx), abs(dy)
    if ax == 0 or ay == 0 or ax == ay:
        length = max(ax, ay)
        unit = (_sign(dx), _sign(dy))
        return tuple((unit[0] * k, unit[1] * k) for k in range(1, length))
    if sorted((ax, ay)) == [1, 2]:
        return ((0, _sign(dy)),) if ay > ax else ((_sign(dx), 0),)
    raise _term_error(
        term, text, "'n' is defined on orthogonal, diagonal and N atoms; spell other paths with 'a' legs"
    )
