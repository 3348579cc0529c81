"""Dead positions (FIDE 5.2.2): no sequence of legal moves can end in checkmate. Decided from the
movement, never from a list of pieces; docs/rulings.md says exactly what is and is not detected.

Cheap facts come first: more than one piece beside the royals is "not dead" unless every one of them
keeps to one colour; a pawn, spear, promoting piece or first-move-only move is "not dead" at once.
A search for a checkmate position runs once per process for each kind of material. engine.rules
passes in its own checkmate test, as this module sits below it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from dealers_chess.engine.attacks import attacks, in_check
from dealers_chess.engine.board import Board
from dealers_chess.engine.kernel import EMPTY, F_INITIAL, F_MOVE, F_PASS, R_MOVE, fast_destinations
from dealers_chess.engine.position import Position
from dealers_chess.pieces.catalogue import Group, Rule

Checkmated = Callable[[Position], bool]  # the rules' own test: the side to move is in check and has no legal move
UNBLOCKABLE = ((), None)  # a capture line with no square before its target: a leap nothing can stop
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class MateQuestion:
    """Can side `mating` (its royal, and `extra` if `extra_mates`) checkmate the other side's lone royal
    (and `extra` if not `extra_mates`) anywhere on the board, with `extra` on one of `squares`?"""

    board: Board
    mating: int  # the side that would give mate
    mating_royal: str  # piece ids
    mated_royal: str
    extra: str = ""
    extra_mates: bool = True
    squares: frozenset[int] = frozenset()


_MEMO: dict[tuple, tuple[object, object]] = {}


def _memo(pos: Position, key: tuple, compute: Callable[[], T]) -> T:
    """compute() once per process for this key and catalogue (kept alive, so its id names only it)."""
    full = key + (id(pos.catalogue),)
    found = _MEMO.get(full)
    if found is None:
        found = _MEMO[full] = (pos.catalogue, compute())
    return found[1]  # type: ignore[return-value]


def dead_position(pos: Position, checkmated: Checkmated) -> bool:
    """Whether no sequence of legal moves can end in checkmate, as far as engine.dead can tell (False: maybe not)."""
    if len(pos.squares[0]) + len(pos.squares[1]) > len(pos.royals[0]) + len(pos.royals[1]) + 1:
        return colour_bound_draw(pos)  # more than one piece beside the royals
    others = _other_pieces(pos)
    if others is None:
        return False
    if len(pos.royals[0]) != 1 or len(pos.royals[1]) != 1:
        return not others and royals_never_check(pos)
    if not others:
        return royals_never_check(pos) or not any(_can_mate(pos, side, None, checkmated) for side in (0, 1))
    if _freezes_or_dazzles(pos):
        return False  # a dazzled royal cannot move for a turn: a state the search below does not place
    return not any(_can_mate(pos, side, others[0], checkmated) for side in (0, 1))


def cannot_mate(pos: Position, side: int) -> bool:
    """Whether `side` can never checkmate, whatever both sides play (FIDE 6.9: a flag fall against such a
    side is a draw). Proved only for a side with nothing but royals (one, or The Consuls' two), none of
    which can ever give check to any enemy royal (see royals_never_check): with no pawn to promote it never
    gains a piece, and a royal of a side with two can become a pawn only by taking a Zombie, so no piece
    that converts its captor may be on the other side. False means maybe it can. (A side with more against
    a lone royal is covered by dead_position, which ends the game sooner.)"""
    mine, theirs = pos.squares[side], pos.royals[1 - side]
    if len(mine) != len(pos.royals[side]) or not theirs or _freezes_or_dazzles(pos) or pos.dazzled or pos.shielded:
        return False
    if len(mine) > 1 and _converts_captors(pos, 1 - side):
        return False
    royals = {_type_id(pos, sq) for sq in mine}
    enemies = {_type_id(pos, sq) for sq in theirs}
    return all(
        _memo(pos, ("mutual", pos.board, side, royal, enemy), partial(_attack_is_mutual, pos, side, royal, enemy))
        for royal in royals for enemy in enemies
    )


def _type_id(pos: Position, sq: int) -> str:
    return pos.types.id_of(pos.piece[sq])


def _converts_captors(pos: Position, side: int) -> bool:
    """Whether side has, or could promote to, a piece that turns its captor into itself (a Zombie):
    on the board, in its hand, among the shared extras or in the big deck."""
    ids = {_type_id(pos, sq) for sq in pos.squares[side]} | set(pos.hands[side]) | set(pos.shared)
    if pos.deck is not None:
        ids |= set(pos.deck.draw) | set(pos.deck.discard)
    return any(pos.catalogue.get(i).has(Rule.CONVERT_CAPTOR) for i in ids)


def _other_pieces(pos: Position) -> list[int] | None:
    """The squares of the pieces beside the royals, or None if one of them rules a dead position out
    (a pawn, a spear, a piece that promotes; any piece with a first-move-only move)."""
    others = []
    for side in (0, 1):
        for sq in pos.squares[side]:
            kind = pos.types.compiled(pos.piece[sq])
            if kind.initial:
                return None
            if not kind.royal:
                if kind.promotes or kind.group in (Group.PAWN, Group.SPEAR):
                    return None
                others.append(sq)
    return others


def _freezes_or_dazzles(pos: Position) -> bool:
    """Whether a piece on the board freezes its neighbours (a Hyena) or dazzles what it jumps (a Dazzler).
    Only pieces on the board count: the rules here apply only when nothing can promote."""
    types = pos.types
    if not (types.immobilizers or types.dazzlers):
        return False
    return any(
        types.compiled(pos.piece[sq]).immobilize or types.compiled(pos.piece[sq]).dazzle
        for side in (0, 1) for sq in pos.squares[side]
    )


def _royal_id(pos: Position, side: int) -> str:
    return pos.types.id_of(pos.piece[next(iter(pos.royals[side]))])


def _can_mate(pos: Position, side: int, extra_sq: int | None, checkmated: Checkmated) -> bool:
    """Whether `side` could ever checkmate the other side with the material on the board (one royal each,
    at most one more piece, searched on every square that piece can reach)."""
    extra, extra_mates = "", True
    squares: frozenset[int] = frozenset()
    if extra_sq is not None:
        extra, extra_mates = pos.types.id_of(pos.piece[extra_sq]), pos.occ[extra_sq] == side
    if not extra_mates and _royal_never_checks(pos, side):
        return False  # a lone royal that can never give check cannot mate
    if extra_sq is not None:
        squares = _memo(pos, ("reach", pos.board, extra, pos.occ[extra_sq], extra_sq),
                        lambda: reachable_squares(pos, extra_sq))
    question = MateQuestion(
        pos.board, side, _royal_id(pos, side), _royal_id(pos, 1 - side), extra, extra_mates, squares
    )
    return _memo(pos, ("mate", question), lambda: mate_exists(question, pos, checkmated))


# --- the search ------------------------------------------------------------------------------


def mate_exists(question: MateQuestion, like: Position, checkmated: Checkmated) -> bool:
    """Whether any legal position with this material has the lone side checkmated (searched exhaustively)."""
    pos = Position(like.game, like.catalogue, like.pawn_rank)
    mating, mated = question.mating, 1 - question.mating
    royal, victim = pos.types.index(question.mating_royal), pos.types.index(question.mated_royal)
    extra = pos.types.index(question.extra) if question.extra else -1
    extra_side = mating if question.extra_mates else mated
    quick = not pos.types.immobilizers  # without Hyenas a free escape square proves "no mate" at once
    escapes = _escape_finder(pos.types.compiled(victim), mated)
    for a in range(pos.board.size):
        pos.set_square(a, royal, mating, True)
        for x in sorted(question.squares - {a}) if extra >= 0 else [None]:
            if x is not None:
                pos.set_square(x, extra, extra_side, True)
            found = _mate_with(pos, a, x if question.extra_mates else None, victim, quick and escapes, checkmated)
            if x is not None:
                pos.set_square(x, -1, EMPTY, False)
            if found:
                return True
        pos.set_square(a, -1, EMPTY, False)
    return False


def _mate_with(pos: Position, a: int, x: int | None, victim: int, escapes, checkmated: Checkmated) -> bool:
    """With the mating pieces on a (and x), whether the lone royal is mated on some square they attack.
    `escapes(pos, d, covered)`, if given, proves quickly that the royal on d could step out."""
    mating = pos.occ[a]
    mated = 1 - mating
    covered = attacks(pos, a) | (attacks(pos, x) if x is not None else frozenset())  # the mated royal absent
    for d in covered:
        if pos.occ[d] != EMPTY or (escapes and escapes(pos, d, covered)):
            continue
        pos.set_square(d, victim, mated, True)
        pos.turn = mated
        mate = not in_check(pos, mating) and checkmated(pos)
        pos.set_square(d, -1, EMPTY, False)
        if mate:
            return True
    return False


def _escape_finder(kind, side: int) -> Callable[[Position, int, frozenset[int]], bool]:
    """A test whether the royal `kind`, about to stand on d, has a move to an empty square nothing attacks
    (`covered`: the attacked squares with the royal absent). Leaps are looked up; other moves are walked."""
    entries = kind.fast[side]
    leaps = tuple(
        tuple(squares[0] for squares, flags, ray in per_square if _is_move_leap(squares, flags, ray))
        for per_square in entries
    )
    only_leaps = all(_is_move_leap(*entry) for per_square in entries for entry in per_square)

    def escapes(pos: Position, d: int, covered: frozenset[int]) -> bool:
        occ = pos.occ
        if any(occ[t] == EMPTY and t not in covered for t in leaps[d]):
            return True
        if only_leaps:
            return False
        out: list = []
        fast_destinations(entries[d], occ, side, False, frozenset(), out)
        return any(code == R_MOVE and to not in covered for to, code in out)

    return escapes


def _is_move_leap(squares: tuple[int, ...], flags: int, ray) -> bool:
    """Whether a fast-path entry is a one-square move nothing can block, open to a piece that has moved."""
    return ray is None and len(squares) == 1 and bool(flags & F_MOVE) and not flags & F_INITIAL and flags < F_PASS


def reachable_squares(pos: Position, sq: int) -> frozenset[int]:
    """Every square the piece on sq could ever reach on an otherwise empty board (moves and captures)."""
    side, kind = pos.occ[sq], pos.types.compiled(pos.piece[sq])
    seen, todo = {sq}, [sq]
    while todo:
        here = todo.pop()
        for to in _steps_from(pos, kind, side, here):
            if to not in seen:
                seen.add(to)
                todo.append(to)
    return frozenset(seen)


def _steps_from(pos: Position, kind, side: int, sq: int) -> list[int]:
    """Squares a piece reaches in one move or capture from sq on an empty board (hop targets included)."""
    out: list = []
    empty = [EMPTY] * pos.board.size
    fast_destinations(kind.fast[side][sq], empty, side, True, frozenset(), out)
    if kind.teleport is not None:
        fast_destinations(kind.teleport[sq], empty, side, False, frozenset(), out)
    return [to for to, _ in out] + list(kind.attacks[side][sq])


# --- rules without a search -------------------------------------------------------------------


def royals_never_check(pos: Position) -> bool:
    """Whether only royals are on the board and none can ever give check: each royal attacks only by
    leaps nothing can block, and wherever it attacks an enemy royal, that one attacks it back (so the
    position would be illegal). Two kings a side (The Consuls) included; no Hyena or Dazzler on the board."""
    if _freezes_or_dazzles(pos) or any(
        not pos.types.compiled(pos.piece[sq]).royal for side in (0, 1) for sq in pos.squares[side]
    ):
        return False
    kinds = {(side, pos.types.id_of(pos.piece[sq])) for side in (0, 1) for sq in pos.royals[side]}
    return all(
        _memo(pos, ("mutual", pos.board, side, royal, enemy), partial(_attack_is_mutual, pos, side, royal, enemy))
        for side, royal in kinds for other, enemy in kinds if other != side
    )


def _royal_never_checks(pos: Position, side: int) -> bool:
    """Whether side's royal can never legally give check to the enemy royal (see royals_never_check)."""
    if _freezes_or_dazzles(pos):
        return False
    royal, enemy = _royal_id(pos, side), _royal_id(pos, 1 - side)
    return _memo(pos, ("mutual", pos.board, side, royal, enemy), lambda: _attack_is_mutual(pos, side, royal, enemy))


def _attack_is_mutual(pos: Position, side: int, royal: str, enemy: str) -> bool:
    """Whether the royal `royal` of side attacks the enemy royal only by unblockable leaps, and only from
    where that one attacks it back by an unblockable leap."""
    mine = pos.types.compiled(pos.types.index(royal)).attacks[side]
    theirs = pos.types.compiled(pos.types.index(enemy)).attacks[1 - side]
    return all(
        all(line == UNBLOCKABLE for line in lines) and UNBLOCKABLE in theirs[d].get(a, ())
        for a in range(pos.board.size) for d, lines in mine[a].items()
    )


def colour_bound_draw(pos: Position) -> bool:
    """Whether every piece beside the two royals keeps to one colour (as a bishop does), all on the same
    colour, and neither royal can ever be mated: wherever the royals stand, it can step by a leap onto a
    square of the other colour that the enemy royal does not attack (FIDE: bishops on one colour)."""
    if len(pos.royals[0]) != 1 or len(pos.royals[1]) != 1 or _freezes_or_dazzles(pos):
        return False
    board, colours = pos.board, set()
    for side in (0, 1):
        for sq in pos.squares[side]:
            kind = pos.types.compiled(pos.piece[sq])
            if kind.royal:
                continue
            if kind.promotes or kind.initial or kind.group in (Group.PAWN, Group.SPEAR) or not colour_bound(pos, sq):
                return False
            colours.add(board.is_light(sq))
    if len(colours) != 1:
        return False
    free_colour = not colours.pop()
    return all(
        _memo(pos, ("escape", board, side, _royal_id(pos, side), _royal_id(pos, 1 - side), free_colour),
              partial(_always_escapes, pos, side, free_colour))
        for side in (0, 1)
    )


def colour_bound(pos: Position, sq: int) -> bool:
    """Whether the piece on sq only ever moves and captures onto squares of the colour it stands on."""
    kind = pos.types.compiled(pos.piece[sq])
    if kind.colour_bound is None:
        board, side = pos.board, pos.occ[sq]
        kind.colour_bound = kind.flee is None and kind.push is None and all(
            board.is_light(to) == board.is_light(here)
            for here in range(board.size) for to in _steps_from(pos, kind, side, here)
        )
    return kind.colour_bound


def _always_escapes(pos: Position, side: int, colour: bool) -> bool:
    """Whether side's royal, wherever it and the enemy royal stand legally (it does not attack the enemy
    royal by a leap) and it could be in check, has a leap to an empty square of `colour` (the colour no
    other piece attacks) that the enemy royal cannot attack. So it is never checkmated."""
    board = pos.board
    kind = pos.types.compiled(pos.piece[next(iter(pos.royals[side]))])
    enemy = pos.types.compiled(pos.piece[next(iter(pos.royals[1 - side]))])
    if any(ray is not None for per_square in enemy.fast[1 - side] for _, _, ray in per_square):
        return False  # the enemy royal hops or bends: a third piece could make it attack more
    leaps = [
        [squares[0] for squares, flags, ray in kind.fast[side][d]
         if _is_move_leap(squares, flags, ray) and board.is_light(squares[0]) == colour]
        for d in range(board.size)
    ]
    for a in range(board.size):
        reach = enemy.attacks[1 - side][a]
        for d in range(board.size):
            if d == a or UNBLOCKABLE in kind.attacks[side][d].get(a, ()):
                continue  # one square, or an illegal position: the enemy royal attacked by a leap
            if board.is_light(d) == colour and d not in reach:
                continue  # on the other colour only the enemy royal could give check, and it does not
            if not any(t != a and t not in reach for t in leaps[d]):
                return False
    return True
