"""Game definitions (assets/games/*.toml) and piece types compiled for a game's board.

A `GameDef` is data: board, start FEN, castling, promotion and hand rules; `TypeTable` compiles the
pieces a game uses for its board. Positions are built in engine.setup and engine.notation.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, NamedTuple, TypeAlias

import msgspec

from dealers_chess.engine.board import MAX_RANKS, Board, BoardError, parse_board_size
from dealers_chess.engine.errors import GameError
from dealers_chess.engine.kernel import (
    EMPTY,
    F_CAPTURE,
    F_EP,
    F_INITIAL,
    F_MOVE,
    F_PASS,
    Ray,
    capture_lines,
    compile_movement,
    fast_entries,
    movement_rays,
    rays_overlap,
    teleport_rays,
)
from dealers_chess.engine.move import PLAIN_TAIL, Move
from dealers_chess.pieces.catalogue import Catalogue, Group, PieceDef, Rule, load_catalogue
from dealers_chess.pieces.datafile import ONE_LINE, Id, Notes, Text, described, read_toml
from dealers_chess.pieces.movement import Mode, Movement
from dealers_chess.pieces.movement import Path as MovePath

BoardSize: TypeAlias = Annotated[
    str, msgspec.Meta(pattern=described(r"\A[0-9]{1,3}[xX][0-9]{1,3}\Z", "FILESxRANKS, e.g. 8x8 or 12x12"))
]


class Castling(Enum):
    """Where the royal and its partner land when castling."""

    NONE = "none"
    ORTHODOX = "orthodox"  # king side: royal beside the corner, partner inside it; queen side: royal on c, partner on d
    ADJACENT = "adjacent"  # royal lands next to the partner's square, the partner jumps over it (Consuls, Spinal Tap)
    FREE = "free"  # royal to any empty unattacked square between it and the partner, partner to the royal's square


class Promotion(Enum):
    """What a pawn may become on its promotion zone."""

    NONE = "none"
    LIST = "list"  # any piece of `promotion_pieces`
    HAND = "hand"  # a piece from the owner's hand, which is used up (or from the big-deck draw)
    HAND_KEPT = "hand-kept"  # any piece type in the owner's hand, which stays there (Dealer's simplified)


class Captured(Enum):
    """Where a captured piece (group `piece`) goes."""

    NOWHERE = "nowhere"
    CAPTOR = "captor"  # Dealer's Chess: the capturer takes its doppleganger into hand
    OWNER = "owner"  # Spinal Tap: the owner may promote to it later


class Draws(Enum):
    """How threefold repetition and the fifty-move rule end a game."""

    CLAIM = "claim"  # as in FIDE chess: the player to move may claim them; fivefold and 75 moves end it
    AUTOMATIC = "automatic"  # a house rule: threefold repetition and fifty moves end the game at once


@dataclass(frozen=True, slots=True)
class GameDef:
    """One game: the board, how it starts and the rules that differ between games."""

    id: str
    name: str
    board: Board
    start: str  # FEN
    castling: Castling = Castling.ORTHODOX
    castling_partners: tuple[str, ...] = ("rook",)  # piece ids, or ("corner",) for any corner piece
    promotion: Promotion = Promotion.LIST
    promotion_pieces: tuple[str, ...] = ("queen", "rook", "bishop", "knight")
    captured: Captured = Captured.NOWHERE
    pawn_rank: int = 1  # White's pawn row, counted from 0 (Black's mirrors it)
    shared_extras: bool = False  # Dealer's: a promotion to a shared extra takes the other side's copy
    battle_move: bool = False  # Spinal Tap: once a game, several pawns and crabs step forward together
    promotion_optional: bool = False  # a pawn reaching its zone may stay a pawn (Spinal Tap's "may promote")
    draws: Draws = Draws.CLAIM
    light_a1: bool = False  # the square colours: a1 is dark as in chess unless this says light
    shield_royals: bool = True  # a royal jumped by its own Dazzler cannot be captured, so it is not in check
    dealt: bool = False  # the start is one sample deal: a game may start from any deal of catalogue pieces
    seed: str = ""
    notes: str = ""
    source: str = field(default="", compare=False)  # the user's game file it was read from ("" for a built-in game)

    @property
    def corner_castling(self) -> bool:
        return self.castling_partners == ("corner",)

    def is_light(self, square: int) -> bool:
        """Whether a square is light on this game's board (a1 is dark unless `light_a1`)."""
        return self.board.is_light(square) != self.light_a1


def game_files() -> list[Path]:
    """The built-in game files, in name order."""
    folder = resources.files("dealers_chess.assets") / "games"
    return sorted(Path(str(folder / e.name)) for e in folder.iterdir() if e.name.endswith(".toml"))


@cache
def builtin_games() -> dict[str, GameDef]:
    """Every game in assets/games by id."""
    games = {}
    for path in game_files():
        game = _builtin_game(path)
        games[game.id] = game
    return games


@cache
def _builtin_game(path: Path) -> GameDef:
    return read_game_file(path)


def load_game(name: str) -> GameDef:
    """A built-in game by id, or a game TOML file by path; raise GameError naming the choices."""
    own_file = next((path for path in game_files() if path.stem == name), None)
    if own_file is not None and _builtin_game(own_file).id == name:
        return _builtin_game(own_file)  # a built-in game's file is named by its id: no other file need be read
    games = builtin_games()
    if name in games:
        return games[name]
    if name.endswith(".toml"):
        return replace(read_game_file(Path(name)), source=str(Path(name).resolve()))  # a record resumes anywhere
    raise GameError(f"unknown game {name!r}; allowed: {', '.join(sorted(games))}")


class GameFile(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The declared shape of a game file (assets/games/*.toml or a user's)."""

    id: Id
    name: Annotated[str, msgspec.Meta(pattern=ONE_LINE, min_length=1, max_length=100)]
    board: BoardSize
    start: Annotated[str, msgspec.Meta(pattern=ONE_LINE, min_length=1, max_length=4000)]
    castling: Castling = Castling.ORTHODOX
    castling_partners: Annotated[tuple[Id, ...], msgspec.Meta(min_length=1, max_length=32)] = ("rook",)
    promotion: Promotion = Promotion.LIST
    promotion_pieces: Annotated[tuple[Id, ...], msgspec.Meta(max_length=100)] = ("queen", "rook", "bishop", "knight")
    captured: Captured = Captured.NOWHERE
    pawn_rank: Annotated[int, msgspec.Meta(ge=1, le=MAX_RANKS)] = 2  # White's pawn row, from 1
    shared_extras: bool = False
    battle_move: bool = False
    promotion_optional: bool = False
    draws: Draws = Draws.CLAIM
    light_a1: bool = False
    shield_royals: bool = True
    dealt: bool = False
    seed: Text = ""
    notes: Notes = ""


def read_game_file(path: Path) -> GameDef:
    """One game TOML file; raise GameError naming the file, key and allowed values."""
    data = read_toml(path, "game", GameError, GameFile)
    try:
        board = parse_board_size(data.board)
    except BoardError as error:
        raise GameError(f"{path}: board: {error}") from None
    if data.pawn_rank > board.ranks:
        raise GameError(
            f"{path}: pawn_rank: {data.pawn_rank} is not allowed; the {board.label} board has ranks 1 to {board.ranks}"
        )
    return GameDef(
        id=data.id, name=data.name, board=board, start=data.start, castling=data.castling,
        castling_partners=data.castling_partners, promotion=data.promotion,
        promotion_pieces=data.promotion_pieces, captured=data.captured, pawn_rank=data.pawn_rank - 1,
        shared_extras=data.shared_extras, battle_move=data.battle_move,
        promotion_optional=data.promotion_optional, draws=data.draws, light_a1=data.light_a1,
        shield_royals=data.shield_royals, dealt=data.dealt, seed=data.seed, notes=data.notes,
    )


@lru_cache(maxsize=1)
def default_catalogue() -> Catalogue:
    """The built-in catalogue, loaded once."""
    return load_catalogue()


# --- Piece types compiled for one board ---------------------------------------------------


@dataclass(slots=True)
class PieceType:
    """A catalogue piece compiled for one board: per colour and square, fast rays and attack lines.

    A plain slots dataclass on purpose: the move generator reads these attributes at every node, and
    Python reads slots fastest when the class has no descriptors or __getattr__ of its own.
    """

    piece: PieceDef
    fast: tuple  # [side][square] -> fast-path entries (moves and captures, rank powers included)
    walks: tuple | None  # None: generate from `fast`; else [side][square] -> square_walks(), None until first used
    attacks: tuple  # [side][square] -> {target: lines}
    overlap: tuple  # [side] -> whether destinations must be merged
    flee: tuple | None  # [side][square] -> entries of the Chicken's retreat
    promote_step: tuple | None  # [side][square] -> entries of the Zabel's double step, which must promote
    push: tuple | None  # [side][square] -> entries onto enemies that a Linebacker may push
    teleport: tuple | None  # [square] -> entries of the Teleporter's jump
    zobrist: tuple  # [side][square] -> random 64-bit key
    royal: bool
    group: Group
    initial: bool  # has first-move-only paths
    no_ep_victim: bool
    uncapturable: bool
    promotes: bool
    promo_ranks: frozenset
    zone: tuple  # [side][square] -> whether the piece promotes on arriving there
    convert_captor: bool
    immobilize: bool
    dazzle: bool
    colour_bound: bool | None = None  # every move keeps the square colour (engine.dead, set on first use)
    # Walkable types: [side][square] -> the square's moves as compiled Python (square_code), None until the
    # square is hot; `heat` counts the uses before that. [0] all moves, [1] captures only (quiescence).
    compiled: tuple = ()
    heat: tuple = ()


class TypeTable:
    """The piece types a position uses, by index; types are added on demand by id or code."""

    def __init__(self, board: Board, catalogue: Catalogue, game: GameDef, pawn_rank: int) -> None:
        self.board, self.catalogue, self.game, self.pawn_rank = board, catalogue, game, pawn_rank
        self.types: list[PieceType | _Deferred] = []  # a _Deferred gives way to its PieceType on first use
        self._by_id: dict[str, int] = {}
        self._by_code: dict[str, int] = {}
        self._codes = {piece.code: piece.id for piece in catalogue}
        self.immobilizers = False  # whether a type in the table freezes its neighbours (a Hyena)
        self.dazzlers = False  # whether a type in the table dazzles what it jumps (the Dazzler)
        self.uncapturables = False  # whether a type in the table cannot be captured

    def __getitem__(self, index: int) -> PieceType | _Deferred:
        """The type at index as placed: a _Deferred stands in for its PieceType until its moves are needed."""
        return self.types[index]

    def index(self, piece_id: str) -> int:
        """The index of a piece id, adding the type the first time (compiled when its moves are first needed)."""
        found = self._by_id.get(piece_id)
        if found is None:
            found = len(self.types)
            piece = self.catalogue.get(piece_id)
            self.types.append(_Deferred(self, found, piece))
            self._by_id[piece_id] = found
            self.immobilizers = self.immobilizers or piece.has(Rule.IMMOBILIZE)
            self.dazzlers = self.dazzlers or piece.has(Rule.DAZZLE)
            self.uncapturables = self.uncapturables or piece.has(Rule.UNCAPTURABLE)
        return found

    def attack_lines(self, index: int, side: int, sq: int) -> dict:
        """{target: lines} of the type at index on one square: the compiled table's, or for a type not compiled
        yet, that square's alone (a FEN reader's check test need not compile every piece on the board)."""
        kind = self.types[index]
        if isinstance(kind, _Deferred):
            return square_attack_lines(kind.piece, self.board, side, sq)
        return kind.attacks[side][sq]

    def compiled(self, index: int) -> PieceType:
        """The type at index, compiled now if it was still deferred."""
        kind = self.types[index]
        return kind.compile() if isinstance(kind, _Deferred) else kind

    def by_code(self, code: str) -> int | None:
        """The index of a notation code, or None if no catalogue piece has it."""
        piece_id = self._codes.get(code)
        return None if piece_id is None else self.index(piece_id)

    def id_of(self, index: int) -> str:
        return self.types[index].piece.id


def _rank_back(board: Board, square: int, side: int) -> int:
    rank = board.rank_of(square)
    return board.ranks - 1 - rank if side == 0 else rank


def _side_tables(piece: PieceDef, board: Board, side: int) -> list[tuple[Ray, ...]]:
    return [square_rays(piece, board, side, sq) for sq in range(board.size)]


def square_rays(piece: PieceDef, board: Board, side: int, sq: int) -> tuple[Ray, ...]:
    """A piece's rays from one square for one side: its movement's, then the extra captures of the square's rank."""
    black = side == 1
    rays = movement_rays(piece.movement, board, sq, black)
    extra = dict(piece.rank_captures).get(_rank_back(board, sq, side)) if piece.rank_captures else None
    return rays if extra is None else rays + movement_rays(extra, board, sq, black)


def square_attack_lines(piece: PieceDef, board: Board, side: int, sq: int) -> dict:
    """{target: lines} of a piece on one square: compile_type(...).attacks[side][sq] without the other squares."""
    return capture_lines((fast_entries(square_rays(piece, board, side, sq)),))[0]


@lru_cache(maxsize=512)
def compile_type(piece: PieceDef, board: Board, game: GameDef, pawn_rank: int) -> PieceType:
    """Compile one catalogue piece for a board (once): rays per colour and square, attack lines, rule tables.

    When the movement is the same for both colours (not directional, no rank or rule moves), Black's
    tables are White's, compiled once.
    """
    promo = promotion_ranks(piece, game, pawn_rank)
    white = _side_tables(piece, board, 0)
    shared = not (piece.movement.is_directional or piece.rank_captures)
    rays = (white, white if shared else _side_tables(piece, board, 1))

    def per_side(build) -> tuple:
        first = build(0)
        return (first, first) if shared else (first, build(1))

    fast = per_side(lambda side: tuple(fast_entries(r) for r in rays[side]))
    overlap = per_side(lambda side: rays_overlap(rays[side]))
    flee = _rule_entries(piece, Rule.FLEE_WHEN_ATTACKED, board)
    promote_step = _promotion_step_entries(piece, board, promo)
    push = _push_entries(piece, board) if piece.has(Rule.PUSH) else None
    teleport = tuple(fast_entries(r) for r in teleport_rays(board)) if piece.has(Rule.TELEPORT) else None
    zone = tuple(tuple(_rank_back(board, sq, side) in promo for sq in range(board.size)) for side in (0, 1))
    walkable = flee is None and promote_step is None and push is None and teleport is None and not any(overlap) and all(
        ray is None for side_fast in fast for entries in side_fast for _, _, ray in entries
    )  # every ray plain: its moves can be built in advance (square_walks)
    return PieceType(
        piece=piece, fast=fast, walks=([None] * board.size, [None] * board.size) if walkable else None,
        compiled=tuple(([None] * board.size, [None] * board.size) for _ in (0, 1)) if walkable else (),
        heat=tuple(([0] * board.size, [0] * board.size) for _ in (0, 1)) if walkable else (),
        attacks=per_side(lambda side: capture_lines(fast[side])), overlap=overlap, flee=flee,
        promote_step=promote_step, push=push, teleport=teleport,
        zobrist=_zobrist(piece, board), royal=piece.is_royal, group=piece.group,
        initial=_has_initial(piece),
        no_ep_victim=piece.has(Rule.NO_EN_PASSANT) or piece.group not in (Group.PAWN, Group.SPEAR),
        uncapturable=piece.has(Rule.UNCAPTURABLE),
        promotes=bool(promo), promo_ranks=promo,
        zone=zone,
        convert_captor=piece.has(Rule.CONVERT_CAPTOR), immobilize=piece.has(Rule.IMMOBILIZE),
        dazzle=piece.has(Rule.DAZZLE),
    )


ONTO_ANY, ONTO_EMPTY, ONTO_ENEMY = 0, 1, 2  # a one-square ray moves or captures, only moves, only captures
EMPTY_CODE = EMPTY  # engine.kernel.EMPTY (-1), as written into compiled code


class SquareWalks(NamedTuple):
    """A walkable piece's moves from one square, grouped by how the generator reads them.

    Each destination comes with its Move, built once (None where the move enters the promotion zone:
    those moves depend on the position). The one-square rays (most rays of pawns, knights and kings)
    are read together, as one list, rather than as a walk each (a loop costs even when it is empty).
    """

    singles: tuple  # ((to, move, onto), ...): one-square rays; onto is ONTO_ANY, ONTO_EMPTY or ONTO_ENEMY
    passants: tuple  # (to, ...): one-square capture rays that also take en passant
    slides: tuple  # (((to, move), ...), ...): a line of squares up to the first piece, move or capture (none
    #                into the promotion zone: those lines are among `others`)
    others: tuple  # ((flags, squares that must be empty first, ((to, move), ...)), ...): the rest, walked in full


def square_walks(kind: PieceType | _Deferred, side: int, sq: int) -> SquareWalks:
    """A walkable piece's moves from one square (SquareWalks), built on first use and kept in `kind.walks`."""
    zone, new_move = kind.zone[side], tuple.__new__  # tuple.__new__: Move(sq, to) minus keyword handling
    singles, passants, slides, others = [], [], [], []
    for squares, flags, _ in kind.fast[side][sq]:
        passing = flags // F_PASS
        walk = tuple((to, None if zone[to] else new_move(Move, (sq, to) + PLAIN_TAIL)) for to in squares[passing:])
        if passing or flags & F_INITIAL:
            others.append((flags, squares[:passing], walk))  # flags keep the count of squares that must be empty
        elif len(walk) == 1 and flags in (F_MOVE | F_CAPTURE, F_MOVE):
            singles.append(walk[0] + (ONTO_ANY if flags & F_CAPTURE else ONTO_EMPTY,))
        elif len(walk) == 1 and flags & ~F_EP == F_CAPTURE:
            singles.append(walk[0] + (ONTO_ENEMY,))
            if flags & F_EP:
                passants.append(walk[0][0])
        elif flags == F_MOVE | F_CAPTURE and all(move is not None for _, move in walk):
            slides.append(walk)
        else:
            others.append((flags, (), walk))
    walks = kind.walks
    assert walks is not None, "square_walks is called for walkable types only"
    found = walks[side][sq] = SquareWalks(tuple(singles), tuple(passants), tuple(slides), tuple(others))
    return found


HOT_SQUARE = 16  # a square's moves are compiled to Python code after this many generations from it
NOT_COMPILED = -(1 << 40)  # heat of a square whose moves cannot be compiled (promotions, en passant lines)


def square_code(kind: PieceType | _Deferred, side: int, sq: int, captures_only: bool = False):
    """The moves of a walkable piece from one square as a compiled Python function, or None when a move
    there depends on more than the board (a promotion, an en-passant line): `fn(occ, moved, append)`
    appends the moves (the captures alone with `captures_only`) for the occupancy `occ` and the moved
    flags `moved`. Uncapturable and shielded pieces, en passant and promotions stay the caller's.

    The reason is speed: the generator's loops over rays cost per square looked at, and the same
    walk unrolled into straight code (the squares and moves as constants) runs two to three times
    faster. For a knight on g1 and White to move, the code is

        def moves(occ, moved, append):
            if occ[4] != 0: append(m0)        # e1: a leap onto an empty or enemy square
            if occ[21] != 0: append(m1)       # f3
            ...
    and a line is a chain of ifs: while a square is empty the move goes in and the next square is
    read; the first piece ends it, taken if it is an enemy.
    """
    walks = kind.walks[side][sq] or square_walks(kind, side, sq)  # type: ignore[index]
    singles, _, slides, others = walks
    enemy = 1 - side
    lines = ["def moves(occ, moved, append):"]
    constants: dict[str, object] = {}

    def constant(move) -> str:
        name = f"m{len(constants)}"
        constants[name] = move
        return name

    def walk(squares, can_move: bool, can_capture: bool, indent: str) -> None:
        """A line walked to its first piece: each empty square a move (if moves are allowed), the piece
        taken if it is an enemy (if captures are)."""
        to, move = squares[0]
        name = constant(move)
        lines.append(f"{indent}who = occ[{to}]")
        lines.append(f"{indent}if who == {EMPTY_CODE}:")
        body = len(lines)
        if can_move and not captures_only:
            lines.append(f"{indent}    append({name})")
        if len(squares) > 1:
            walk(squares[1:], can_move, can_capture, indent + "    ")
        if len(lines) == body:
            lines.append(f"{indent}    pass")
        if can_capture:
            lines.append(f"{indent}elif who == {enemy}:")
            lines.append(f"{indent}    append({name})")

    for to, move, onto in singles:
        if move is None:
            return None  # into the promotion zone: the moves depend on the position
        if onto == ONTO_ANY:
            test = f"occ[{to}] == {enemy}" if captures_only else f"occ[{to}] != {side}"
        elif onto == ONTO_EMPTY:
            if captures_only:
                continue
            test = f"occ[{to}] == {EMPTY_CODE}"
        else:
            test = f"occ[{to}] == {enemy}"
        lines.append(f"    if {test}:")
        lines.append(f"        append({constant(move)})")
    for squares in slides:
        walk(squares, True, True, "    ")
    for flags, lame, squares in others:
        if flags & F_EP or any(move is None for _, move in squares):
            return None
        if captures_only and not flags & F_CAPTURE:
            continue
        conditions = [f"not moved[{sq}]"] if flags & F_INITIAL else []
        conditions += [f"occ[{x}] == {EMPTY_CODE}" for x in lame]
        indent = "    "
        if conditions:
            lines.append(f"    if {' and '.join(conditions)}:")
            indent = "        "
        walk(squares, bool(flags & F_MOVE), bool(flags & F_CAPTURE), indent)
    if len(lines) == 1:
        lines.append("    pass")
    namespace = dict(constants)
    exec(compile("\n".join(lines), f"<moves of {kind.piece.id} from {sq}>", "exec"), namespace)
    return namespace["moves"]


@lru_cache(maxsize=512)
def _zobrist(piece: PieceDef, board: Board) -> tuple:
    """[side][square] -> the random 64-bit key of this piece there (the same in every process)."""
    rng = random.Random(f"{piece.id}/{board.label}")
    return tuple(tuple(rng.getrandbits(64) for _ in range(board.size)) for _ in (0, 1))


def _has_initial(piece: PieceDef) -> bool:
    return any(p.initial for p in piece.movement.paths)


class _Deferred:
    """A piece type placed but not compiled yet: what placing, FEN and the rule scans need (piece, royal,
    zobrist, initial, immobilize, dazzle).

    Reading anything else compiles the type (`compile`) and puts the compiled PieceType in its table, so the
    move generator, which reads the table afresh, meets compiled types only (and reads their slots at full speed).
    """

    __slots__ = ("piece", "royal", "zobrist", "initial", "immobilize", "dazzle", "_table", "_index")

    def __init__(self, table: TypeTable, index: int, piece: PieceDef) -> None:
        self.piece, self.royal, self._table, self._index = piece, piece.is_royal, table, index
        self.zobrist, self.initial = _zobrist(piece, table.board), _has_initial(piece)
        self.immobilize, self.dazzle = piece.has(Rule.IMMOBILIZE), piece.has(Rule.DAZZLE)

    def compile(self) -> PieceType:
        """The compiled type: compiled now and put in the table in this one's place, unless that was done."""
        table = self._table
        compiled = table.types[self._index]
        if isinstance(compiled, _Deferred):  # still this one in the table
            compiled = table.types[self._index] = compile_type(self.piece, table.board, table.game, table.pawn_rank)
        return compiled

    def __getattr__(self, name: str):
        return getattr(self.compile(), name)


def promotion_ranks(piece: PieceDef, game: GameDef, pawn_rank: int) -> frozenset[int]:
    """Ranks counted back from the far rank on which this piece promotes (empty: never)."""
    if piece.has(Rule.NO_PROMOTION) or piece.is_royal:
        return frozenset()
    pawnish = piece.group in (Group.PAWN, Group.SPEAR) or piece.has(Rule.PROMOTES_TO_CAPTURED)
    if piece.has(Rule.PROMOTES) or (pawnish and game.promotion is not Promotion.NONE):
        if piece.has(Rule.PROMOTES_ON_PAWN_ROW):
            return frozenset(range(pawn_rank + 1))
        return frozenset({0})
    return frozenset()


def _rule_entries(piece: PieceDef, rule: Rule, board: Board):
    movement = dict(piece.rule_moves).get(rule)
    if movement is None:
        return None
    return tuple(tuple(fast_entries(r) for r in compile_movement(movement, board, side == 1)) for side in (0, 1))


def _promotion_step_entries(piece: PieceDef, board: Board, promo_ranks: frozenset[int]):
    """The Zabel's double step: per side and square, its rays that land in the promotion zone
    (None without the rule)."""
    movement = dict(piece.rule_moves).get(Rule.DOUBLE_STEP_TO_PROMOTE)
    if movement is None:
        return None
    return tuple(
        tuple(
            fast_entries([r for r in rays if _rank_back(board, r.squares[-1], side) in promo_ranks])
            for rays in compile_movement(movement, board, side == 1)
        )
        for side in (0, 1)
    )


def _push_entries(piece: PieceDef, board: Board):
    """The Linebacker's single steps, compiled as captures: the squares it may push from."""
    paths = tuple(
        MovePath(p.legs, frozenset({Mode.CAPTURE}), p.hop, False)
        for p in piece.movement.paths
        if not p.initial and len(p.legs) == 1 and p.final.max_steps == 1 and Mode.MOVE in p.modes
    )
    movement = Movement(piece.movement.betza + " (push)", (), paths)
    return tuple(tuple(fast_entries(r) for r in compile_movement(movement, board, side == 1)) for side in (0, 1))
