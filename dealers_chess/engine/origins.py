"""Where pieces can have come from: the facts the FEN reader checks a position against.

A pawn counts as unmoved only where it starts, and stands only where a move of its type (or an enemy
push) could have brought it from there; a side has no more pawns than it starts with; a castling right
needs the royal and the partner on the squares they start on. Everything is derived from the game's
start and the pieces' movement, never from a list of games (docs/notation.md, "Refused positions";
docs/rulings.md, "Rulings from the third rules audit").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from dealers_chess.engine.board import Board
from dealers_chess.engine.game import GameDef, Promotion, compile_type, promotion_ranks
from dealers_chess.engine.kernel import F_INITIAL, F_PASS
from dealers_chess.engine.position import SIDE_NAMES, Position
from dealers_chess.pieces.catalogue import Catalogue, Group, PieceDef, Rule

_TOKEN = re.compile(r"([0-9]+)|([A-Za-z])|\(([A-Za-z]{1,3})\)|(.)")  # as engine.notation reads a placement
PAWNISH = (Group.PAWN, Group.SPEAR)
T = TypeVar("T")

_FACTS: dict[tuple, tuple[tuple, object]] = {}
MAX_FACTS = 4096  # a long-running process that reads many user catalogues starts afresh past this


def _memo(objects: tuple, key: tuple, compute: Callable[[], T]) -> T:
    """compute() once for these objects (a game, a catalogue, a piece: looked up by identity, which is
    cheap where hashing a GameDef or PieceDef is not, and kept alive so an identity names only them)."""
    full = tuple(map(id, objects)) + key
    found = _FACTS.get(full)
    if found is None:
        if len(_FACTS) >= MAX_FACTS:
            _FACTS.clear()
        found = _FACTS[full] = (objects, compute())
    return found[1]  # type: ignore[return-value]


def start_placement(game: GameDef, catalogue: Catalogue) -> dict[int, tuple[PieceDef, int]]:
    """The pieces of the game's start FEN by square, as (piece, side); codes no catalogue piece has are
    left out (the start is read for its facts only, never refused here)."""
    return _memo((game, catalogue), ("start",), lambda: _read_start(game, catalogue))


def _read_start(game: GameDef, catalogue: Catalogue) -> dict[int, tuple[PieceDef, int]]:
    by_code = {piece.code: piece for piece in catalogue}
    board, found = game.board, {}
    for index, row in enumerate((game.start.split() or [""])[0].split("/")[: board.ranks]):
        rank, file = board.ranks - 1 - index, 0
        for number, letter, code, _ in _TOKEN.findall(row):
            if number:
                file += int(number)
                continue
            code = letter or code
            piece = by_code.get(code.upper())
            if piece is not None and file < board.files:
                found[board.square(file, rank)] = (piece, 1 if code.islower() else 0)
            file += 1
    return found


def _own_rank(board: Board, square: int, side: int) -> int:
    """The rank of a square counted from the side's own back rank, from 0."""
    rank = board.rank_of(square)
    return rank if side == 0 else board.ranks - 1 - rank


def _ranks(board: Board, squares: Iterable[int]) -> str:
    """The ranks of some squares, for a message: "2" or "7, 8"."""
    return ", ".join(str(rank + 1) for rank in sorted({board.rank_of(sq) for sq in squares}))


# --- where pieces start ------------------------------------------------------------------------


def pawn_starts(pos: Position, side: int) -> frozenset[int]:
    """Where the side's pawns start: its pawn row, and wherever the game's start has pawns (unless the FEN
    moves the pawn row, as a deal with a third row does)."""
    game, catalogue, pawn_rank = pos.game, pos.catalogue, pos.pawn_rank

    def compute() -> frozenset[int]:
        board = game.board
        starts = {sq for sq in range(board.size) if _own_rank(board, sq, side) == pawn_rank}
        if pawn_rank == game.pawn_rank:
            starts |= {sq for sq, (piece, owner) in start_placement(game, catalogue).items()
                       if owner == side and piece.group in PAWNISH}
        return frozenset(starts)

    return _memo((game, catalogue), ("pawns", pawn_rank, side), compute)


def setup_rows(pos: Position, side: int) -> frozenset[int]:
    """The side's set-up rows: its back rank up to its pawn row."""
    board, pawn_rank = pos.board, pos.pawn_rank
    return _memo((board,), ("setup", pawn_rank, side),
                 lambda: frozenset(sq for sq in range(board.size) if _own_rank(board, sq, side) <= pawn_rank))


def start_squares(pos: Position, piece: PieceDef, side: int) -> frozenset[int]:
    """Where a piece of this kind starts, so counts as unmoved: a pawn where the side's pawns start (not
    behind its pawn row), any other piece (a spear too) on the side's set-up rows."""
    return pawn_starts(pos, side) if piece.group is Group.PAWN else setup_rows(pos, side)


def unmoved_on(pos: Position, sq: int, side: int, piece: PieceDef) -> bool:
    """Whether a piece found on sq in a FEN counts as unmoved (unless the FEN's `moved` field names it)."""
    return sq in start_squares(pos, piece, side)


def unmoved_test(pos: Position) -> Callable[[int, int, PieceDef], bool]:
    """unmoved_on for this position's game and pawn row, with the squares looked up once (for a placement)."""
    pawns = (pawn_starts(pos, 0), pawn_starts(pos, 1))
    rows = (setup_rows(pos, 0), setup_rows(pos, 1))
    return lambda sq, side, piece: sq in (pawns if piece.group is Group.PAWN else rows)[side]


# --- castling ----------------------------------------------------------------------------------


def castling_starts(pos: Position, side: int) -> dict[int, int]:
    """The squares the game's start puts the side's castling partners on, each with the square of the royal
    it castles with (the nearest royal inward of it on its rank)."""
    game, catalogue = pos.game, pos.catalogue

    def compute() -> dict[int, int]:
        placement, board, found = start_placement(game, catalogue), game.board, {}
        rank = 0 if side == 0 else board.ranks - 1
        royals = [board.file_of(sq) for sq, (piece, owner) in placement.items()
                  if owner == side and piece.is_royal and board.rank_of(sq) == rank]
        for sq, (piece, owner) in placement.items():
            file = board.file_of(sq)
            if owner != side or board.rank_of(sq) != rank or piece.is_royal:
                continue
            if (file not in (0, board.files - 1)) if game.corner_castling else (piece.id not in game.castling_partners):
                continue
            inward = 1 if file < board.files // 2 else -1
            steps = [(f - file) * inward for f in royals if (f - file) * inward > 0]
            if steps:
                found[sq] = board.square(file + min(steps) * inward, rank)
        return found

    return _memo((game, catalogue), ("castling", side), compute)


def castling_problem(pos: Position, sq: int) -> str | None:
    """Why the partner on sq cannot still have its castling right, or None: it stands on no square the
    game's start puts a castling partner on, or no royal stands where the one it castles with starts."""
    side, board = pos.occ[sq], pos.board
    starts = castling_starts(pos, side)
    if sq not in starts:
        where = ", ".join(board.name(s) for s in sorted(starts)) or "no square"
        return (f"{SIDE_NAMES[side]}'s castling partners start on {where} in {pos.game.name}, so a piece on "
                f"{board.name(sq)} has moved and cannot castle")
    starter = _partner_started_there(pos, sq)
    if starter is not None:
        here = pos.types[pos.piece[sq]].piece.name
        return (f"{pos.game.name} starts {SIDE_NAMES[side]}'s {starter.name} on {board.name(sq)}, so the {here} "
                f"there has moved and cannot castle")
    royal = starts[sq]
    if royal not in pos.royals[side]:
        return (f"the {SIDE_NAMES[side]} royal that castles with {board.name(sq)} starts on {board.name(royal)} "
                f"and no royal stands there: it has moved and cannot castle")
    return None


def _partner_started_there(pos: Position, sq: int) -> PieceDef | None:
    """The partner the game's start puts on sq when the piece there is of another kind, else None. Games
    that castle with any corner piece are dealt (their start is only a sample), so any kind castles there."""
    if pos.game.corner_castling:
        return None
    starter = start_placement(pos.game, pos.catalogue)[sq][0]
    return starter if starter.id != pos.types.id_of(pos.piece[sq]) else None


# --- pawns ---------------------------------------------------------------------------------------


def _anywhere(pos: Position, side: int) -> set[str]:
    """Pawns of this side that may stand anywhere and in any number: those a promotion can make (the game's
    list, the side's hand, the shared extras, the big deck, what a promoting piece may become) and those
    that turn their captor into themselves (a piece that takes a Zombie becomes one where it took it)."""
    game, catalogue = pos.game, pos.catalogue
    ids = set(pos.hands[side]) | set(pos.shared)
    if pos.deck is not None:
        ids |= set(pos.deck.draw) | set(pos.deck.discard)

    def compute() -> frozenset[str]:
        made = set(game.promotion_pieces) if game.promotion is Promotion.LIST else set()
        made |= {i for piece in catalogue for i in piece.promotes_to}
        return frozenset(made | {piece.id for piece in catalogue if piece.has(Rule.CONVERT_CAPTOR)})

    return ids | _memo((game, catalogue), ("anywhere",), compute)


def _must_promote(pos: Position, side: int) -> bool:
    """Whether a pawn of this side arriving in its promotion zone always promotes: a list to choose from, or
    a hand that is never used up and holds a piece. With a hand that is used up (it may be empty when the
    pawn arrives), an optional promotion or none, a pawn may stand in its zone."""
    game = pos.game
    if game.promotion_optional:
        return False
    if game.promotion is Promotion.LIST:
        return bool(game.promotion_pieces)
    return game.promotion is Promotion.HAND_KEPT and bool(pos.hands[side])


def _pushed(pos: Position, side: int) -> frozenset[tuple[int, int]]:
    """The steps by which an enemy push (the Linebacker's) may have moved the side's pieces. The pushers
    are any catalogue piece in a dealt game (its start is only a sample deal), else those of the start,
    of the promotion list and every piece the FEN names."""
    game, catalogue, board, pawn_rank = pos.game, pos.catalogue, pos.board, pos.pawn_rank
    if game.dealt:
        pushers = _memo((catalogue,), ("pushers",), lambda: tuple(p for p in catalogue if p.has(Rule.PUSH)))
    else:
        fixed = _memo((game, catalogue), ("fixed",), lambda: frozenset(
            {piece.id for piece, _ in start_placement(game, catalogue).values()}
            | (set(game.promotion_pieces) if game.promotion is Promotion.LIST else set())
        ))
        named = fixed | {pos.types.id_of(t) for t in range(len(pos.types.types))}
        pushers = tuple(piece for piece in map(catalogue.get, sorted(named)) if piece.has(Rule.PUSH))

    def compute() -> frozenset[tuple[int, int]]:
        steps = set()
        for pusher in pushers:
            kind = compile_type(pusher, board, game, pawn_rank)
            for sq in range(board.size):
                for squares, _, _ in kind.push[1 - side][sq] if kind.push is not None else ():
                    to = squares[0]
                    steps.add((board.file_of(to) - board.file_of(sq), board.rank_of(to) - board.rank_of(sq)))
        return frozenset(steps)

    return _memo((game, catalogue, *pushers), ("pushed", pawn_rank, side), compute)


def pawn_reach(
    pos: Position, piece: PieceDef, side: int, pushed: frozenset[tuple[int, int]], must: bool,
) -> frozenset[int]:
    """Every square a pawn of this kind can stand on: from where it starts, by its own moves and captures
    (first-move moves from a start square, rule moves such as the Chicken's flight, rank powers) on an
    otherwise empty board, and by enemy pushes (`pushed` steps). When `must` (promote), a move from
    outside the promotion zone into it promotes, so the pawn never stands there that way."""
    game, board, pawn_rank = pos.game, pos.board, pos.pawn_rank
    starts = start_squares(pos, piece, side)

    def compute() -> frozenset[int]:
        kind = compile_type(piece, board, game, pawn_rank)
        zone = kind.zone[side]
        seen, todo = set(starts), list(starts)
        while todo:
            here = todo.pop()
            entries = list(kind.fast[side][here])
            if kind.flee is not None:
                entries += kind.flee[side][here]
            if kind.teleport is not None:
                entries += kind.teleport[here]
            targets = [
                to for squares, flags, _ in entries if not flags & F_INITIAL or here in starts
                for to in squares[flags // F_PASS:]
                if not (must and zone[to] and not zone[here])
            ]
            x, y = board.file_of(here), board.rank_of(here)
            targets += [board.square(x + dx, y + dy) for dx, dy in pushed if board.on_board(x + dx, y + dy)]
            for to in targets:
                if to not in seen:
                    seen.add(to)
                    todo.append(to)
        return frozenset(seen)

    return _memo((game, piece), ("reach", pawn_rank, side, starts, pushed, must), compute)


def misplaced_pawn(pos: Position) -> str | None:
    """Why a pawn or spear stands where none can stand, or None: where it must have promoted, or where no
    move of its type (nor an enemy push) brings it from where it starts."""
    board, game = pos.board, pos.game
    for side in (0, 1):
        pawns = [sq for sq in sorted(pos.squares[side]) if pos.types[pos.piece[sq]].piece.group in PAWNISH
                 and sq not in start_squares(pos, pos.types[pos.piece[sq]].piece, side)]  # where it starts: reached
        if not pawns:
            continue
        anywhere, pushed = _anywhere(pos, side), _pushed(pos, side)
        reach: dict[int, frozenset[int] | None] = {}  # per type on the board: where it can stand (None: anywhere)
        for sq in pawns:
            t = pos.piece[sq]
            if t not in reach:
                piece = pos.types[t].piece
                must = _must_promote(pos, side) and bool(promotion_ranks(piece, game, pos.pawn_rank))
                reach[t] = None if piece.id in anywhere else pawn_reach(pos, piece, side, pushed, must)
            where = reach[t]
            if where is None or sq in where:
                continue
            piece = pos.types[t].piece
            must = _must_promote(pos, side) and bool(promotion_ranks(piece, game, pos.pawn_rank))
            who = f"{SIDE_NAMES[side]}'s {piece.name} on {board.name(sq)}"
            zone = compile_type(piece, board, game, pos.pawn_rank).zone[side]
            if must and zone[sq]:
                ranks = _ranks(board, (s for s in range(board.size) if zone[s]))
                return f"{who} stands where it must have promoted: it promotes on arriving on rank {ranks}"
            return (f"{who} cannot have got there: no move of its type leads there from where it starts "
                    f"(rank {_ranks(board, start_squares(pos, piece, side))})")
    return None


def too_many_pawns(pos: Position) -> str | None:
    """Why a side has more pawns or spears than any game gives it, or None. A side starts with the game's
    start count of pawns, and at most one row of spears (a deal's spear row); no move adds either, but a
    promotion can make a pawn it may choose, and a piece that takes a Zombie becomes a Zombie Pawn."""
    game, catalogue = pos.game, pos.catalogue

    def compute() -> tuple[tuple[int, int], tuple[int, int]]:
        counts = {Group.PAWN: [0, 0], Group.SPEAR: [0, 0]}
        for piece, owner in start_placement(game, catalogue).values():
            if piece.group in counts:
                counts[piece.group][owner] += 1
        pawns, spears = counts[Group.PAWN], counts[Group.SPEAR]
        return (pawns[0], pawns[1]), (max(spears[0], game.board.files), max(spears[1], game.board.files))

    most_pawns, most_spears = _memo((game, catalogue), ("counts",), compute)
    for side in (0, 1):
        anywhere: set[str] | None = None
        pieces = [pos.types[pos.piece[sq]].piece for sq in pos.squares[side]]
        for group, most, what in ((Group.PAWN, most_pawns[side], "pawns"), (Group.SPEAR, most_spears[side], "spears")):
            counted = [piece for piece in pieces if piece.group is group]
            if len(counted) <= most:
                continue
            anywhere = _anywhere(pos, side) if anywhere is None else anywhere
            left_out = sorted({piece.name for piece in counted if piece.id in anywhere})
            count = sum(piece.id not in anywhere for piece in counted)
            if count > most:
                besides = f" besides {', '.join(left_out)}" if left_out else ""
                return (f"{SIDE_NAMES[side]} has {count} {what}{besides}; in {game.name} a side has at most "
                        f"{most} (no move adds one)")
    return None
