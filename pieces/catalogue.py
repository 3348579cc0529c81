"""The piece catalogue: TOML tables in assets/catalogue (plus a user's file) read into PieceDefs.

Every rejected value names the file, the piece, the key, the bad value and what is allowed.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Any, Iterable

from pieces.datafile import read_toml
from pieces.errors import BetzaError, CatalogueError, UnknownPieceError
from pieces.movement import Movement, parse_movement


class Group(Enum):
    """The card groups of Dealer's Chess."""

    ROYAL = "royal"
    PIECE = "piece"
    PAWN = "pawn"
    SPEAR = "spear"


class Rule(Enum):
    """Named rules that no XBetza string says; the engine implements each."""

    PUSH = "push"
    CONVERT_CAPTOR = "convert-captor"
    FLEE_WHEN_ATTACKED = "flee-when-attacked"
    DOUBLE_STEP_TO_PROMOTE = "double-step-to-promote"
    PROMOTES_ON_PAWN_ROW = "promotes-on-pawn-row"
    PROMOTES_TO_CAPTURED = "promotes-to-captured"
    NO_PROMOTION = "no-promotion"
    PROMOTES = "promotes"
    NO_EN_PASSANT = "no-en-passant"
    UNCAPTURABLE = "uncapturable"
    IMMOBILIZE = "immobilize"
    TELEPORT = "teleport"
    DAZZLE = "dazzle"
    CAPTURE_POWERS_BY_RANK = "capture-powers-by-rank"

    @property
    def takes_moves(self) -> bool:
        """Whether the rule grants extra moves given in `rule_betza`."""
        return self in (Rule.FLEE_WHEN_ATTACKED, Rule.DOUBLE_STEP_TO_PROMOTE)


ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
CODE_PATTERN = re.compile(r"^[A-Z]{1,3}$")
REQUIRED = ("id", "name", "group", "code", "betza", "text")
OPTIONAL = (
    "sets", "games", "rules", "rule_betza", "rank_captures", "promotes_to", "value", "value_note", "source",
)


@dataclass(frozen=True, slots=True)
class PieceDef:
    """One catalogue piece: identity, movement, rules text and named rules."""

    id: str
    name: str
    group: Group
    code: str
    movement: Movement
    text: str
    sets: tuple[str, ...] = ()
    games: tuple[str, ...] = ()
    rules: frozenset[Rule] = frozenset()
    rule_moves: tuple[tuple[Rule, Movement], ...] = ()
    rank_captures: tuple[tuple[int, Movement], ...] = ()  # (ranks back from the far rank, captures)
    promotes_to: tuple[str, ...] = ()
    value: float | None = None  # a fixed 8x8 value that overrides the model
    value_note: str = ""
    source: str = ""
    origin: str = field(default="", compare=False)  # the file it was read from

    @property
    def betza(self) -> str:
        return self.movement.betza

    @property
    def is_royal(self) -> bool:
        return self.group is Group.ROYAL

    def has(self, rule: Rule) -> bool:
        return rule in self.rules


class Catalogue:
    """Pieces by id, in file order; the one place ids are looked up."""

    def __init__(self, pieces: Iterable[PieceDef]) -> None:
        self._pieces: dict[str, PieceDef] = {}
        for piece in pieces:
            self._pieces[piece.id] = piece
        _check_codes(self._pieces.values())
        _check_promotion_targets(self)

    def __iter__(self):
        return iter(self._pieces.values())

    def __len__(self) -> int:
        return len(self._pieces)

    def __contains__(self, piece_id: object) -> bool:
        return piece_id in self._pieces

    def get(self, piece_id: str) -> PieceDef:
        """The piece with this id; raise UnknownPieceError suggesting the closest ids."""
        try:
            return self._pieces[piece_id]
        except KeyError:
            close = difflib.get_close_matches(piece_id.lower(), list(self._pieces), n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(close)}?" if close else "; `dealer catalogue` lists them"
            raise UnknownPieceError(f"unknown piece {piece_id!r}{hint}") from None

    def by_code(self, code: str) -> PieceDef:
        """The piece with this notation code."""
        for piece in self._pieces.values():
            if piece.code == code:
                return piece
        raise UnknownPieceError(f"no piece has the code {code!r}")

    def select(
        self, sets: Iterable[str] = (), games: Iterable[str] = (), groups: Iterable[str] = ()
    ) -> list[PieceDef]:
        """Pieces in any of the sets and any of the games and groups given (empty = no filter)."""
        sets, games, groups = set(sets), set(games), set(groups)
        return [
            p for p in self._pieces.values()
            if (not sets or sets & set(p.sets))
            and (not games or games & set(p.games))
            and (not groups or p.group.value in groups)
        ]


def builtin_files() -> list[Path]:
    """The catalogue files shipped in assets/catalogue, in name order."""
    folder = resources.files("assets") / "catalogue"
    return sorted(Path(str(folder / entry.name)) for entry in folder.iterdir() if entry.name.endswith(".toml"))


def load_catalogue(extra: Iterable[str | Path] = ()) -> Catalogue:
    """The built-in catalogue, with pieces from the user's files added or replacing by id."""
    pieces: list[PieceDef] = []
    for path in [*builtin_files(), *map(Path, extra)]:
        pieces.extend(read_catalogue_file(path))
    return Catalogue(pieces)


def read_catalogue_file(path: Path) -> list[PieceDef]:
    """Every piece of one catalogue file; raise CatalogueError naming what is wrong."""
    data = read_toml(path, "catalogue", CatalogueError)
    unknown = set(data) - {"piece"}
    if unknown:
        raise CatalogueError(f"{path}: unknown top-level key {sorted(unknown)[0]!r}; allowed: [[piece]] tables")
    tables = data.get("piece", [])
    if not isinstance(tables, list):
        raise CatalogueError(f"{path}: 'piece' must be an array of tables, written [[piece]]")
    seen: set[str] = set()
    pieces = []
    for index, table in enumerate(tables, start=1):
        piece = _read_piece(path, index, table)
        if piece.id in seen:
            raise CatalogueError(f"{path}: piece {piece.id!r}: duplicate id (each id once per file)")
        seen.add(piece.id)
        pieces.append(piece)
    return pieces


class _Table:
    """Typed access to one [[piece]] table with errors that name the file, piece and key."""

    def __init__(self, path: Path, index: int, table: dict[str, Any]) -> None:
        self.path, self.table = path, table
        label = table.get("id") if isinstance(table.get("id"), str) else f"#{index}"
        self.where = f"{path}: piece {label!r}"

    def error(self, key: str, message: str) -> CatalogueError:
        return CatalogueError(f"{self.where}: {key}: {message}")

    def text(self, key: str, default: str | None = None) -> str:
        value = self.table.get(key, default)
        if not isinstance(value, str) or (key in REQUIRED and not value.strip()):
            raise self.error(key, f"{value!r} is not allowed; expected a non-empty string")
        return value

    def texts(self, key: str) -> tuple[str, ...]:
        value = self.table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.error(key, f"{value!r} is not allowed; expected a list of strings")
        return tuple(value)

    def mapping(self, key: str) -> dict[str, Any]:
        value = self.table.get(key, {})
        if not isinstance(value, dict):
            raise self.error(key, f"{value!r} is not allowed; expected a table such as {{ name = \"...\" }}")
        return value

    def movement(self, key: str, betza: Any) -> Movement:
        if not isinstance(betza, str):
            raise self.error(key, f"{betza!r} is not allowed; expected an XBetza string")
        try:
            return parse_movement(betza)
        except BetzaError as error:
            raise self.error(key, str(error)) from None


def _read_piece(path: Path, index: int, table: Any) -> PieceDef:
    if not isinstance(table, dict):
        raise CatalogueError(f"{path}: piece #{index}: expected a table")
    t = _Table(path, index, table)
    for key in table:
        if key not in REQUIRED and key not in OPTIONAL:
            raise t.error(key, f"unknown key; allowed: {', '.join(REQUIRED + OPTIONAL)}")
    for key in REQUIRED:
        if key not in table:
            raise t.error(key, "missing; every piece needs " + ", ".join(REQUIRED))
    piece_id = t.text("id")
    if not ID_PATTERN.match(piece_id):
        raise t.error("id", f"{piece_id!r} is not allowed; use lowercase letters, digits and hyphens")
    code = t.text("code")
    if not CODE_PATTERN.match(code):
        raise t.error("code", f"{code!r} is not allowed; use 1 to 3 capital letters")
    rules = _rules(t)
    return PieceDef(
        id=piece_id,
        name=t.text("name"),
        group=_enum(t, "group", Group),
        code=code,
        movement=t.movement("betza", table["betza"]),
        text=t.text("text"),
        sets=t.texts("sets"),
        games=t.texts("games"),
        rules=rules,
        rule_moves=_rule_moves(t, rules),
        rank_captures=_rank_captures(t),
        promotes_to=t.texts("promotes_to"),
        value=_value(t),
        value_note=t.text("value_note", ""),
        source=t.text("source", ""),
        origin=str(path),
    )


def _enum(t: _Table, key: str, kind: type[Enum]) -> Any:
    value = t.table[key]
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise t.error(key, f"{value!r} is not allowed; allowed: {allowed}") from None


def _rules(t: _Table) -> frozenset[Rule]:
    found = set()
    for name in t.texts("rules"):
        try:
            found.add(Rule(name))
        except ValueError:
            allowed = ", ".join(rule.value for rule in Rule)
            raise t.error("rules", f"{name!r} is not allowed; allowed: {allowed}") from None
    return frozenset(found)


def _rule_moves(t: _Table, rules: frozenset[Rule]) -> tuple[tuple[Rule, Movement], ...]:
    moves = []
    for name, betza in t.mapping("rule_betza").items():
        rule = next((r for r in rules if r.value == name), None)
        if rule is None or not rule.takes_moves:
            takers = ", ".join(r.value for r in Rule if r.takes_moves)
            raise t.error("rule_betza", f"{name!r} is not allowed; keys must be rules of this piece among: {takers}")
        moves.append((rule, t.movement(f"rule_betza.{name}", betza)))
    for rule in rules:
        if rule.takes_moves and rule not in dict(moves):
            raise t.error("rule_betza", f"missing the moves for rule {rule.value!r}")
    return tuple(moves)


def _rank_captures(t: _Table) -> tuple[tuple[int, Movement], ...]:
    entries = []
    for key, betza in t.mapping("rank_captures").items():
        if not key.isdigit():
            raise t.error("rank_captures", f"key {key!r} is not allowed; use ranks back from the far rank: \"0\", \"1\", ...")
        entries.append((int(key), t.movement(f"rank_captures.{key}", betza)))
    return tuple(sorted(entries, key=lambda entry: entry[0]))


def _value(t: _Table) -> float | None:
    value = t.table.get("value")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
        raise t.error("value", f"{value!r} is not allowed; expected a number from 0 to 100")
    return float(value)


def _check_codes(pieces: Iterable[PieceDef]) -> None:
    owners: dict[str, PieceDef] = {}
    for piece in pieces:
        other = owners.setdefault(piece.code, piece)
        if other is not piece:
            raise CatalogueError(
                f"{piece.origin}: piece {piece.id!r}: code: {piece.code!r} is already used by "
                f"{other.id!r} ({other.origin}); codes must be unique"
            )


def _check_promotion_targets(catalogue: Catalogue) -> None:
    for piece in catalogue:
        for target in piece.promotes_to:
            if target not in catalogue:
                raise CatalogueError(f"{piece.origin}: piece {piece.id!r}: promotes_to: unknown piece {target!r}")
