"""The piece catalogue: TOML tables in assets/catalogue (plus a user's file) read into PieceDefs.

Every rejected value names the file, the piece, the key, the bad value and what is allowed.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, TypeAlias

import msgspec

from dealers_chess.pieces.betza import MAX_LENGTH
from dealers_chess.pieces.card_name import name_refusal
from dealers_chess.pieces.datafile import ONE_LINE, Id, Text, convert, described, read_toml
from dealers_chess.pieces.errors import BetzaError, CatalogueError, SelectionError, UnknownPieceError
from dealers_chess.pieces.movement import Movement, parse_movement


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


class ShapeFeature(Enum):
    """A feature of a 3D piece's head that a catalogue `shape` key may ask for instead of the derived one."""

    PLAIN = "plain"  # no rim, no finial
    TOWER = "tower"  # crenellations on the rim (orthogonal riders)
    MITRE = "mitre"  # a mitre with a cut (diagonal riders)
    CORONET = "coronet"  # a coronet of points with a ball (queen-like riders)
    HORSE = "horse"  # a horse head ((1,2) leapers)
    CROSS = "cross"  # a cross (inside a royal's crown)


MAX_NAME_CHARACTERS = 60  # and at most as wide as a card's name band holds (pieces.card_name)
Code: TypeAlias = Annotated[
    str, msgspec.Meta(pattern=described(r"\A[A-Z]{1,3}\Z", "1 to 3 capital letters"), max_length=3)
]
RankKey: TypeAlias = Annotated[
    str, msgspec.Meta(pattern=described(r"\A[0-9]{1,2}\Z", "ranks back from the far rank: \"0\", \"1\", ..."))
]
PieceName: TypeAlias = Annotated[str, msgspec.Meta(pattern=ONE_LINE, min_length=1, max_length=MAX_NAME_CHARACTERS)]
RulesText: TypeAlias = Annotated[str, msgspec.Meta(pattern=ONE_LINE, min_length=1, max_length=2000)]
Betza = Annotated[str, msgspec.Meta(max_length=MAX_LENGTH)]
Names = Annotated[list[Id], msgspec.Meta(max_length=100)]
MAX_PIECES_PER_FILE = 500  # the built-in catalogue has 87


class PieceTable(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The declared shape of one [[piece]] table (semantic checks follow in `_read_piece`)."""

    id: Id
    name: PieceName
    group: Group
    code: Code
    betza: Betza
    text: RulesText
    sets: Names = []
    games: Names = []
    rules: Annotated[list[Rule], msgspec.Meta(max_length=len(Rule))] = []
    rule_betza: dict[Id, Betza] = {}
    rank_captures: Annotated[dict[RankKey, Betza], msgspec.Meta(max_length=16)] = {}
    promotes_to: Names = []
    aliases: Names = []  # other names `dealer` accepts for the piece ("pawn" for the Standard Pawn)
    shape: Annotated[list[ShapeFeature], msgspec.Meta(max_length=len(ShapeFeature))] = []
    value: Annotated[float, msgspec.Meta(ge=0, le=100)] | None = None
    value_note: Text = ""
    source: Text = ""


class CatalogueFile(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A catalogue file: [[piece]] tables, each checked on its own so errors name the piece."""

    piece: Annotated[list[dict[str, Any]], msgspec.Meta(max_length=MAX_PIECES_PER_FILE)] = []


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
    aliases: tuple[str, ...] = ()  # other names a user may call it by (ids and codes always work)
    shape: tuple[ShapeFeature, ...] = ()  # the 3D head asked for (empty: derived from the movement)
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
        _check_aliases(self._pieces)
        _check_promotion_targets(self)
        self._by_code = {piece.code: piece for piece in self._pieces.values()}
        self._by_alias: dict[str, list[PieceDef]] = {}  # the aliases the catalogue declares, lower case
        self._by_word: dict[str, list[PieceDef]] = {}  # ids, codes and names in any case
        for piece in self._pieces.values():
            for alias in dict.fromkeys(map(lookup_word, piece.aliases)):
                self._by_alias.setdefault(alias, []).append(piece)
            for word in dict.fromkeys(map(lookup_word, (piece.id, piece.code, piece.name))):
                self._by_word.setdefault(word, []).append(piece)

    def __iter__(self):
        return iter(self._pieces.values())

    def __len__(self) -> int:
        return len(self._pieces)

    def __contains__(self, piece_id: object) -> bool:
        return piece_id in self._pieces

    def get(self, piece_id: str) -> PieceDef:
        """The piece with this id, or else this code ('P', 'AR'), or else the one piece with this alias
        ('pawn'), or else the one whose id, code or name this is in any case ('ar', 'Standard Pawn'); raise
        UnknownPieceError suggesting ids."""
        found = self._pieces.get(piece_id) or self._by_code.get(piece_id)
        if found is not None:
            return found
        word = lookup_word(piece_id)
        called = self._by_alias.get(word) or self._by_word.get(word, [])
        if len(called) == 1:
            return called[0]
        if called:
            raise UnknownPieceError(f"{piece_id!r} could be any of {', '.join(p.id for p in called)}; give the id")
        close = difflib.get_close_matches(word, list(self._pieces), n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else "; `dealer catalogue` lists them"
        raise UnknownPieceError(f"unknown piece {piece_id!r}{hint}") from None

    def by_code(self, code: str) -> PieceDef:
        """The piece with this notation code."""
        try:
            return self._by_code[code]
        except KeyError:
            raise UnknownPieceError(f"no piece has the code {code!r}") from None

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

    def choose(
        self, sets: Iterable[str] = (), games: Iterable[str] = (), groups: Iterable[str] = (),
        piece_ids: Iterable[str] = (), default_sets: Iterable[str] | None = None,
    ) -> list[PieceDef]:
        """What --set, --game, --group and --piece select, the same in every command.

        Each filter takes any of its values, and the filters given all apply; every --piece is added
        to what they select, and --piece alone selects just those pieces. Without --set or --game the
        filters look in `default_sets` (None: the whole catalogue).
        """
        sets, games, groups, piece_ids = list(sets), list(games), list(groups), list(dict.fromkeys(piece_ids))
        _check_names("set", sets, {s for p in self for s in p.sets})
        _check_names("game", games, {g for p in self for g in p.games})
        _check_names("group", groups, {group.value for group in Group})
        if piece_ids and not (sets or games or groups):
            chosen = []
        else:
            chosen = self.select(sets or ([] if games else list(default_sets or ())), games, groups)
        chosen += [piece for piece in map(self.get, piece_ids) if piece not in chosen]
        if not chosen:
            raise SelectionError("no piece is in all of the sets, games and groups given; "
                                 "`dealer catalogue` lists each piece's sets, games and group")
        return chosen


def _check_names(kind: str, given: list[str], known: set[str]) -> None:
    for name in given:
        if name not in known:
            raise SelectionError(f"unknown {kind} {name!r}; known: {', '.join(sorted(known))}")


def builtin_files() -> list[Path]:
    """The catalogue files shipped in assets/catalogue, in name order."""
    folder = resources.files("dealers_chess.assets") / "catalogue"
    return sorted(Path(str(folder / entry.name)) for entry in folder.iterdir() if entry.name.endswith(".toml"))


def load_catalogue(extra: Iterable[str | Path] = ()) -> Catalogue:
    """The built-in catalogue, with pieces from the user's files added or replacing by id."""
    pieces: list[PieceDef] = []
    for path in [*builtin_files(), *map(Path, extra)]:
        pieces.extend(read_catalogue_file(path))
    return Catalogue(pieces)


def read_catalogue_file(path: Path) -> list[PieceDef]:
    """Every piece of one catalogue file; raise CatalogueError naming what is wrong."""
    tables = read_toml(path, "catalogue", CatalogueError, CatalogueFile).piece
    seen: set[str] = set()
    pieces = []
    for index, table in enumerate(tables, start=1):
        piece = _read_piece(path, index, table)
        if piece.id in seen:
            raise CatalogueError(f"{path}: piece {piece.id!r}: duplicate id (each id once per file)")
        seen.add(piece.id)
        pieces.append(piece)
    return pieces


def _read_piece(path: Path, index: int, table: dict[str, Any]) -> PieceDef:
    given = table.get("id")
    label = given if isinstance(given, str) else f"#{index}"
    where = f"{path}: piece {label[:40]!r}"
    row = convert(table, PieceTable, where, CatalogueError)

    def movement(key: str, betza: str) -> Movement:
        try:
            return parse_movement(betza)
        except BetzaError as error:
            raise CatalogueError(f"{where}: {key}: {error}") from None

    too_wide = name_refusal(row.name)
    if too_wide is not None:
        raise CatalogueError(f"{where}: name: {too_wide}")
    rules = frozenset(row.rules)
    return PieceDef(
        id=row.id, name=row.name, group=row.group, code=row.code, movement=movement("betza", row.betza),
        text=row.text, sets=tuple(row.sets), games=tuple(row.games), rules=rules,
        rule_moves=_rule_moves(where, row, rules, movement),
        rank_captures=tuple(sorted((int(key), movement(f"rank_captures.{key}", betza))
                                   for key, betza in row.rank_captures.items())),
        promotes_to=tuple(row.promotes_to), aliases=tuple(row.aliases), shape=tuple(dict.fromkeys(row.shape)),
        value=row.value, value_note=row.value_note, source=row.source,
        origin=str(path),
    )


def _rule_moves(where: str, row: PieceTable, rules: frozenset[Rule], movement) -> tuple[tuple[Rule, Movement], ...]:
    moves = []
    for name, betza in row.rule_betza.items():
        rule = next((r for r in rules if r.value == name), None)
        if rule is None or not rule.takes_moves:
            takers = ", ".join(r.value for r in Rule if r.takes_moves)
            raise CatalogueError(
                f"{where}: rule_betza: {name!r} is not allowed; keys must be rules of this piece among: {takers}"
            )
        moves.append((rule, movement(f"rule_betza.{name}", betza)))
    for rule in rules:
        if rule.takes_moves and rule not in dict(moves):
            raise CatalogueError(f"{where}: rule_betza: missing the moves for rule {rule.value!r}")
    return tuple(moves)


def _check_codes(pieces: Iterable[PieceDef]) -> None:
    owners: dict[str, PieceDef] = {}
    for piece in pieces:
        other = owners.setdefault(piece.code, piece)
        if other is not piece:
            raise CatalogueError(
                f"{piece.origin}: piece {piece.id!r}: code: {piece.code!r} is already used by "
                f"{other.id!r} ({other.origin}); codes must be unique"
            )


def lookup_word(text: str) -> str:
    """How a piece is looked up beyond its exact id and code: lower case, spaces and underscores as hyphens."""
    return "-".join(text.strip().lower().replace("_", " ").split())


def _check_aliases(pieces: dict[str, PieceDef]) -> None:
    """An alias may not be another piece's id: the id would always win and the alias never work."""
    for piece in pieces.values():
        for alias in piece.aliases:
            if alias in pieces and alias != piece.id:
                raise CatalogueError(f"{piece.origin}: piece {piece.id!r}: aliases: {alias!r} is the id of another "
                                     "piece; choose another alias")


def _check_promotion_targets(catalogue: Catalogue) -> None:
    for piece in catalogue:
        for target in piece.promotes_to:
            if target not in catalogue:
                raise CatalogueError(f"{piece.origin}: piece {piece.id!r}: promotes_to: unknown piece {target!r}")
