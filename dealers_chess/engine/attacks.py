"""Who may move and who attacks what: Hyena freezes, Dazzler effects, attacks, check and checking lines.

The one place that answers "can this piece move now" (`mobility`), used by move generation,
castling, battle moves and the messages that explain a refused move.
"""

from __future__ import annotations

from enum import Enum

from dealers_chess.engine.kernel import EMPTY, line_open, line_squares, ray_captures_at
from dealers_chess.engine.position import Position

NEIGHBOURS: dict = {}


class Mobility(Enum):
    """Whether the piece on a square may move this turn."""

    FREE = "free"
    FROZEN = "frozen"  # next to an enemy Hyena, or next to a Hyena locked with an enemy Hyena
    DAZZLED = "dazzled"  # jumped by the enemy Dazzler last turn: no move (a Teleporter may still teleport)


def neighbours(board) -> tuple[tuple[int, ...], ...]:
    """Per square, the (up to eight) squares next to it."""
    found = NEIGHBOURS.get(board)
    if found is None:
        found = tuple(
            tuple(
                board.square(board.file_of(sq) + dx, board.rank_of(sq) + dy)
                for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                if (dx or dy) and board.on_board(board.file_of(sq) + dx, board.rank_of(sq) + dy)
            )
            for sq in range(board.size)
        )
        NEIGHBOURS[board] = found
    return found


def uses_immobilizers(pos: Position) -> bool:
    """Whether any piece type in play freezes its neighbours (a Hyena)."""
    return pos.types.immobilizers


def freezer_of(pos: Position, sq: int) -> int:
    """The Hyena that freezes the piece on sq, or -1 if none does.

    A piece is frozen next to an enemy Hyena, and next to any Hyena that stands beside an enemy
    Hyena (two Hyenas trapping each other freeze every piece of either colour around them). A
    Hyena jumped by the enemy Dazzler must move, which takes precedence over being frozen.
    """
    if sq in pos.must_move:
        return -1
    side, occ, piece, types = pos.occ[sq], pos.occ, pos.piece, pos.types.types
    around = neighbours(pos.board)
    locked = -1
    for n in around[sq]:
        if occ[n] == EMPTY or not types[piece[n]].immobilize:
            continue
        if occ[n] != side:
            return n
        if locked < 0 and any(occ[m] == 1 - side and types[piece[m]].immobilize for m in around[n]):
            locked = n
    return locked


def is_frozen(pos: Position, sq: int) -> bool:
    """Whether the piece on sq is frozen by a Hyena and so can neither move nor capture."""
    return freezer_of(pos, sq) >= 0


def mobility(pos: Position, sq: int) -> Mobility:
    """Whether the piece on sq may move this turn: free, frozen by a Hyena or dazzled."""
    if uses_immobilizers(pos) and is_frozen(pos, sq):
        return Mobility.FROZEN
    if sq in pos.dazzled:
        return Mobility.DAZZLED
    return Mobility.FREE


def immobility_reason(pos: Position, sq: int) -> str | None:
    """Why the piece on sq cannot move this turn, in words, or None if it may."""
    state = mobility(pos, sq)
    if state is Mobility.FREE:
        return None
    board = pos.board
    what = f"the {pos.types[pos.piece[sq]].piece.name} on {board.name(sq)}"
    if state is Mobility.DAZZLED:
        teleports = " but to teleport" if pos.types[pos.piece[sq]].teleport is not None else ""
        return f"{what} was jumped by the enemy Dazzler and cannot move this turn{teleports}"
    hyena = freezer_of(pos, sq)
    if pos.occ[hyena] != pos.occ[sq]:
        return f"{what} is frozen by the enemy Hyena on {board.name(hyena)}"
    return f"{what} is frozen: the Hyena on {board.name(hyena)} is locked with an enemy Hyena"


def must_move_reason(pos: Position) -> str:
    """The words for the Hyena obligation: which Hyena was jumped and must move."""
    squares = ", ".join(pos.board.name(sq) for sq in sorted(pos.must_move))
    return f"the Hyena on {squares} was jumped by the enemy Dazzler and must move"


def is_attacked(pos: Position, target: int, by: int, idle: frozenset[int] = frozenset()) -> bool:
    """Whether a piece of side `by` could capture on `target` now (pieces in `idle` cannot move).

    A first-move-only capture (the Patient Pawn's opening capture) counts while its piece is unmoved.
    """
    occ, piece, types = pos.occ, pos.piece, pos.types.types
    frozen_check = uses_immobilizers(pos)
    for e in pos.squares[by]:
        lines = types[piece[e]].attacks[by][e].get(target)
        if lines is None or e in idle or (frozen_check and is_frozen(pos, e)):
            continue
        for before, ray in lines:
            if ray is None:
                for sq in before:
                    if occ[sq] != EMPTY:
                        break
                else:
                    return True
            elif (not ray.initial or not pos.moved[e]) and ray_captures_at(ray, before, occ):
                return True
    return False


def attacks(pos: Position, sq: int) -> frozenset[int]:
    """Every square the piece on sq attacks now: where it could capture an enemy piece standing there
    (its own pieces' squares included; nothing while a Hyena freezes it)."""
    side, kind = pos.occ[sq], pos.types.types[pos.piece[sq]]
    if uses_immobilizers(pos) and is_frozen(pos, sq):
        return frozenset()
    unmoved, occ = not pos.moved[sq], pos.occ
    return frozenset(
        target for target, lines in kind.attacks[side][sq].items()
        if any(line_open(line, occ, unmoved) for line in lines)
    )


def in_check(pos: Position, side: int) -> bool:
    """Whether any royal of `side` is attacked (pieces dazzled this turn do not attack; a royal its own
    Dazzler jumped is safe for the opponent's turn, unless the game says `shield_royals = false`)."""
    if side == pos.turn:
        return any(is_attacked(pos, r, 1 - side) for r in pos.royals[side])
    shielded = pos.shielded if pos.game.shield_royals else frozenset()
    return any(r not in shielded and is_attacked(pos, r, 1 - side, pos.dazzled) for r in pos.royals[side])


def may_be_in_check(pos: Position, side: int) -> bool:
    """False when no enemy piece has an open capture line to a royal of `side`, so that `in_check` is False;
    found without compiling the enemy's piece types (TypeTable.attack_lines), which is what a FEN reader
    that nothing plays from needs. True leaves the answer to `in_check` (a Hyena, a Dazzler or a shield
    may still excuse the royal)."""
    occ, piece, moved, types, enemy = pos.occ, pos.piece, pos.moved, pos.types, 1 - side
    for e in pos.squares[enemy]:
        lines = types.attack_lines(piece[e], enemy, e)
        for r in pos.royals[side]:
            if any(line_open(line, occ, not moved[e]) for line in lines.get(r, ())):
                return True
    return False


def interposing_squares(pos: Position, side: int) -> frozenset[int]:
    """Empty squares on the lines along which enemy pieces check `side`'s royals (where a piece interposes)."""
    occ, piece, types = pos.occ, pos.piece, pos.types.types
    enemy, frozen_check = 1 - side, uses_immobilizers(pos)
    found: set[int] = set()
    for r in pos.royals[side]:
        for e in pos.squares[enemy]:
            lines = types[piece[e]].attacks[enemy][e].get(r)
            if lines is None or (frozen_check and is_frozen(pos, e)):
                continue
            unmoved = not pos.moved[e]
            for line in lines:
                if line_open(line, occ, unmoved):
                    found.update(sq for sq in line_squares(line) if occ[sq] == EMPTY)
    return frozenset(found)


def shared_blockers(pos: Position, side: int) -> list[frozenset[int]]:
    """Per plain line from an enemy piece to a royal of `side`, its blockers when there are two or more.

    Moving one piece never opens such a line; moving all its blockers at once (a battle move) can.
    """
    occ, piece, types = pos.occ, pos.piece, pos.types.types
    enemy = 1 - side
    found = []
    for r in pos.royals[side]:
        for e in pos.squares[enemy]:
            for before, ray in types[piece[e]].attacks[enemy][e].get(r, ()):
                blockers = frozenset(sq for sq in before if occ[sq] != EMPTY) if ray is None else frozenset()
                if len(blockers) >= 2:
                    found.append(blockers)
    return found


def check_info(pos: Position, side: int) -> tuple[bool, set[int]]:
    """(in check, squares an ordinary move may not leave or enter without a full check) for the side to move.

    Plain lines to a royal add only their single blocker (moving it may open the line; entering
    a plain line can only block it); other lines (hoppers, lame and bent paths) add every square.
    """
    checked, leaving, entering = check_lines(pos, side)
    return checked, leaving | entering


def check_lines(pos: Position, side: int) -> tuple[bool, set[int], set[int]]:
    """(in check, squares an ordinary move may not leave, squares it may not enter) without a full check,
    for the side to move: check_info's squares, told apart. A plain line's single blocker may not leave
    (that opens the line); every square of another line (a hopper's, a lame or bent one) may neither be
    left nor entered (a new screen can open a hopper's line)."""
    leaving: set[int] = set()
    entering: set[int] = set()
    checked = False
    occ, piece, types = pos.occ, pos.piece, pos.types.types
    enemy = 1 - side
    for r in pos.royals[side]:
        for e in pos.squares[enemy]:
            lines = types[piece[e]].attacks[enemy][e].get(r)
            if lines is None:
                continue
            for before, ray in lines:
                if ray is None:
                    # A plain line opens by one ordinary move only if one piece blocks it (a pin).
                    blocker = -1
                    for sq in before:
                        if occ[sq] != EMPTY:
                            if blocker >= 0:
                                break  # two or more: no single move opens it
                            blocker = sq
                    else:
                        if blocker < 0:
                            checked = True
                        else:
                            leaving.add(blocker)
                    continue
                if ray.initial and pos.moved[e]:
                    continue  # a first-move-only capture of a piece that has moved
                squares = line_squares((before, ray))
                leaving.update(squares)
                entering.update(squares)
                if not checked:
                    checked = ray_captures_at(ray, before, occ)
    if checked and (pos.dazzled or uses_immobilizers(pos)):
        checked = in_check(pos, side)
    return checked, leaving, entering
