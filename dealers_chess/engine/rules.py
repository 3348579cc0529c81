"""The rules of play: pseudo-legal moves from the kernel's rays, royal safety, battle moves, game end.

Every destination comes from the compiled rays (engine.kernel); this module only adds what the
rules say about them: promotion, en passant, pushes, flight, teleports, castling and legality.
Who may move and who attacks what is engine.attacks; castling geometry is engine.castling.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from dealers_chess.engine.attacks import (
    Mobility,
    check_info,
    check_lines,
    immobility_reason,
    in_check,
    interposing_squares,
    is_attacked,
    is_frozen,
    mobility,
    must_move_reason,
    shared_blockers,
    uses_immobilizers,
)
from dealers_chess.engine.castling import castling_moves, castling_partner_ok
from dealers_chess.engine.dead import dead_position
from dealers_chess.engine.errors import IllegalMoveError
from dealers_chess.engine.game import (
    HOT_SQUARE,
    NOT_COMPILED,
    ONTO_EMPTY,
    ONTO_ENEMY,
    Draws,
    Promotion,
    square_code,
    square_walks,
)
from dealers_chess.engine.kernel import EMPTY, F_CAPTURE, F_EP, F_INITIAL, F_MOVE, R_CAPTURE, R_EP, fast_destinations
from dealers_chess.engine.move import KIND, PLAIN_TAIL, TO, Kind, Move
from dealers_chess.engine.position import SIDE_NAMES, Position, squares_between
from dealers_chess.pieces.catalogue import Group

FREE, DAZZLED = Mobility.FREE, Mobility.DAZZLED
NORMAL = Kind.NORMAL
F_MOVE_CAPTURE = F_MOVE | F_CAPTURE  # a plain ray that moves to empty squares and captures the first enemy

__all__ = [
    "Outcome", "Result", "battle_move", "battle_moves", "capture_moves", "castling_partner_ok", "claimable_draw",
    "has_battle_move", "has_legal_move", "in_check", "is_attacked", "is_frozen", "legal_moves", "outcome", "play",
    "pseudo_moves", "refusal_reason", "safety_sets",
]


class Result(Enum):
    """How a game ended."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result and why."""

    result: Result
    reason: str  # checkmate, stalemate, dead position, fivefold/threefold repetition, 75/fifty-move rule, royal lost


# --- move generation ----------------------------------------------------------------------


def promotion_choices(pos: Position, kind, side: int) -> tuple[tuple[str, ...], bool]:
    """(piece ids the piece may become, whether promoting is optional) on reaching its zone."""
    piece = kind.piece
    if piece.promotes_to:
        return piece.promotes_to, True
    game = pos.game
    if game.promotion is Promotion.LIST:
        return game.promotion_pieces, game.promotion_optional
    if game.promotion is Promotion.HAND_KEPT:
        return tuple(dict.fromkeys(pos.hands[side])), game.promotion_optional
    if game.promotion is Promotion.HAND:
        pool = pos.deck.ready().draw[:3] if pos.deck is not None else pos.hands[side]
        return tuple(dict.fromkeys(pool)), game.promotion_optional
    return (), False


def pseudo_moves(pos: Position, side: int) -> list[Move]:
    """Every move of `side` that the pieces allow, before royal safety is checked."""
    moves: list[Move] = []
    _generate(pos, side, moves, moves, None)
    return moves


def _generate(pos: Position, side: int, sure: list[Move], unsure: list[Move], risky: set[int] | None) -> None:
    """The pseudo-legal moves of `side`: ordinary moves of pieces not in `risky` into `sure`, the others
    (a risky piece's, en passant, castling, pushes) into `unsure` (with risky None, every move into `sure`)."""
    occ, piece, moved, types = pos.occ, pos.piece, pos.moved, pos.types.types
    ep = pos.ep if pos.turn == side else ()
    restrained = uses_immobilizers(pos) or bool(pos.dazzled)
    shielded = pos.shielded
    guarded = pos.types.uncapturables or bool(shielded)  # some piece may not be captured: ask per capture
    for sq in pos.squares[side]:
        moves = unsure if risky is not None and sq in risky else sure
        append = moves.append
        kind = types[piece[sq]]
        if restrained and mobility(pos, sq) is not FREE:
            if kind.teleport is not None and mobility(pos, sq) is DAZZLED:  # a dazzled Teleporter still teleports
                _add_plain(pos, sq, kind.teleport[sq], side, moves)
            continue
        walks = kind.walks
        if walks is None:
            if moves is unsure:
                _add_ray_moves(pos, kind, sq, side, ep, unsure)
            else:
                found: list[Move] = []
                _add_ray_moves(pos, kind, sq, side, ep, found)
                for m in found:
                    (sure if m[KIND] == NORMAL else unsure).append(m)
            continue
        if not guarded:  # the square's moves as compiled code, once it is hot (engine.game.square_code)
            code = kind.compiled[0][side][sq]
            if code is not None:
                code(occ, moved, append)
                if ep:
                    for to in (walks[side][sq] or square_walks(kind, side, sq)).passants:
                        if to in ep and occ[to] == EMPTY:
                            _add_en_passant(pos, kind, sq, to, side, unsure)
                continue
            _warm(kind, side, sq, 0)
        # The common piece: plain rays with their moves built in advance (None where the move promotes),
        # one-square rays grouped (engine.game.SquareWalks).
        singles, passants, slides, others = walks[side][sq] or square_walks(kind, side, sq)
        for to, move, onto in singles:
            who = occ[to]
            if who == EMPTY:
                if onto == ONTO_ENEMY:
                    continue
            elif who == side or onto == ONTO_EMPTY or (guarded and _guarded(pos, to)):
                continue
            if move is None:
                _add_promotions(pos, kind, sq, to, side, Kind.NORMAL, -1, moves)
            else:
                append(move)
        if ep and passants:
            for to in passants:
                if to in ep and occ[to] == EMPTY:
                    _add_en_passant(pos, kind, sq, to, side, unsure)
        for walk in slides:  # (no square of a slide promotes)
            for to, move in walk:
                who = occ[to]
                if who == EMPTY:
                    append(move)
                    continue
                if who != side and not (guarded and _guarded(pos, to)):
                    append(move)
                break
        for flags, lame, walk in others:
            if flags & F_INITIAL and moved[sq]:
                continue
            if lame and (occ[lame[0]] != EMPTY or (len(lame) > 1 and any(occ[x] != EMPTY for x in lame[1:]))):
                continue
            for to, move in walk:
                who = occ[to]
                if who == EMPTY:
                    if flags & F_EP and to in ep:
                        _add_en_passant(pos, kind, sq, to, side, unsure)
                    elif flags & F_MOVE:
                        if move is None:
                            _add_promotions(pos, kind, sq, to, side, Kind.NORMAL, -1, moves)
                        else:
                            append(move)
                    continue
                if flags & F_CAPTURE and who != side and not (guarded and _guarded(pos, to)):
                    if move is None:
                        _add_promotions(pos, kind, sq, to, side, Kind.NORMAL, -1, moves)
                    else:
                        append(move)
                break
    if pos.castling and pos.turn == side:
        unsure.extend(castling_moves(pos, side, False if risky is not None else None))  # (routed: not in check)


def _warm(kind, side: int, sq: int, captures: int) -> None:
    """Count a generation from a square; a hot one gets its moves compiled (engine.game.square_code)."""
    heat = kind.heat[captures][side]
    heat[sq] += 1
    if heat[sq] == HOT_SQUARE:
        code = square_code(kind, side, sq, bool(captures))
        if code is None:
            heat[sq] = NOT_COMPILED
        else:
            kind.compiled[captures][side][sq] = code


def _guarded(pos: Position, sq: int) -> bool:
    """Whether the piece on sq may not be captured now: an uncapturable type, or shielded this turn."""
    return pos.types.types[pos.piece[sq]].uncapturable or sq in pos.shielded


def capture_moves(pos: Position, side: int) -> list[Move]:
    """The captures (en passant included) and promotions among `pseudo_moves(pos, side)`, without building the
    quiet moves: what a quiescence search tries (castling and pushes capture nothing)."""
    moves: list[Move] = []
    occ, piece, moved, types = pos.occ, pos.piece, pos.moved, pos.types.types
    ep = pos.ep if pos.turn == side else ()
    restrained = uses_immobilizers(pos) or bool(pos.dazzled)
    append, shielded = moves.append, pos.shielded
    guarded = pos.types.uncapturables or bool(shielded)
    enemy = 1 - side
    for sq in pos.squares[side]:
        kind = types[piece[sq]]
        if restrained and mobility(pos, sq) is not FREE:
            continue  # a dazzled Teleporter's teleport captures nothing
        walks = kind.walks
        if walks is None:
            found: list[Move] = []
            _add_ray_moves(pos, kind, sq, side, ep, found)
            moves.extend(m for m in found if m.promotion is not None or m.kind == Kind.EN_PASSANT
                         or (m.kind == NORMAL and occ[m.to] != EMPTY))
            continue
        if not guarded:  # compiled code, as in _generate
            code = kind.compiled[1][side][sq]
            if code is not None:
                code(occ, moved, append)
                if ep:
                    for to in (walks[side][sq] or square_walks(kind, side, sq)).passants:
                        if to in ep and occ[to] == EMPTY:
                            _add_en_passant(pos, kind, sq, to, side, moves)
                continue
            _warm(kind, side, sq, 1)
        singles, passants, slides, others = walks[side][sq] or square_walks(kind, side, sq)
        for to, move, onto in singles:
            who = occ[to]
            if who == enemy:
                if onto != ONTO_EMPTY and not (guarded and _guarded(pos, to)):
                    if move is None:
                        _add_promotions(pos, kind, sq, to, side, Kind.NORMAL, -1, moves)
                    else:
                        append(move)
            elif who == EMPTY and move is None and onto != ONTO_ENEMY:
                _add_promoting(pos, kind, sq, to, side, moves)
        for walk in slides:  # (no square of a slide promotes)
            for to, move in walk:
                who = occ[to]
                if who == EMPTY:
                    continue
                if who != side and not (guarded and _guarded(pos, to)):
                    append(move)
                break
        for flags, lame, walk in others:
            if flags & F_INITIAL and moved[sq]:
                continue
            if lame and (occ[lame[0]] != EMPTY or (len(lame) > 1 and any(occ[x] != EMPTY for x in lame[1:]))):
                continue
            for to, move in walk:
                who = occ[to]
                if who == EMPTY:
                    if flags & F_EP and to in ep:
                        _add_en_passant(pos, kind, sq, to, side, moves)
                    elif flags & F_MOVE and move is None:
                        _add_promoting(pos, kind, sq, to, side, moves)
                    continue
                if flags & F_CAPTURE and who != side and not (guarded and _guarded(pos, to)):
                    if move is None:
                        _add_promotions(pos, kind, sq, to, side, Kind.NORMAL, -1, moves)
                    else:
                        append(move)
                break
        if ep and passants:  # last, as after the compiled code: the same order either way
            for to in passants:
                if to in ep and occ[to] == EMPTY:
                    _add_en_passant(pos, kind, sq, to, side, moves)
    return moves


def _add_promoting(pos: Position, kind, sq: int, to: int, side: int, moves: list[Move]) -> None:
    """The promotions of a move onto the empty square `to` in the zone (not the plain move, if allowed)."""
    entering: list[Move] = []
    _add_promotions(pos, kind, sq, to, side, Kind.NORMAL, -1, entering)
    moves.extend(m for m in entering if m.promotion is not None)


def _add_ray_moves(pos: Position, kind, sq: int, side: int, ep, moves: list[Move]) -> None:
    """The moves of a piece the walks do not cover: teleports, lame, bent and hopping rays, flight, pushes."""
    occ, types = pos.occ, pos.types.types
    if kind.teleport is not None:
        _add_plain(pos, sq, kind.teleport[sq], side, moves)
    out: list = []
    fast_destinations(kind.fast[side][sq], occ, side, not pos.moved[sq], ep, out)
    if kind.overlap[side]:
        out = _merged(out)
    zone = kind.zone[side] if kind.promotes else None
    for to, code in out:
        if code == R_CAPTURE:
            if types[pos.piece[to]].uncapturable or to in pos.shielded:
                continue
        elif code == R_EP:
            _add_en_passant(pos, kind, sq, to, side, moves)
            continue
        if zone is not None and zone[to]:
            _add_promotions(pos, kind, sq, to, side, Kind.NORMAL, -1, moves)
        else:
            moves.append(tuple.__new__(Move, (sq, to) + PLAIN_TAIL))  # Move(sq, to), without NamedTuple's slow __new__
    if kind.flee is not None or kind.push is not None or kind.promote_step is not None:
        _add_rule_moves(pos, kind, sq, side, moves)


def _add_en_passant(pos: Position, kind, sq: int, to: int, side: int, moves: list[Move]) -> None:
    """The en-passant capture onto `to`, when the pawn that passed it is still there, an enemy, and not shielded."""
    victim = pos.ep_victim
    if victim >= 0 and pos.occ[victim] == 1 - side and victim not in pos.shielded:
        _add_promotions(pos, kind, sq, to, side, Kind.EN_PASSANT, victim, moves)


def _merged(out: list) -> list:
    """Destinations reached along several rays, each way once (a square may be both a move and an e.p. capture)."""
    return list(dict.fromkeys(out))


def _add_plain(pos: Position, sq: int, entries, side: int, moves: list[Move]) -> None:
    out: list = []
    fast_destinations(entries, pos.occ, side, False, frozenset(), out)
    moves.extend(Move(sq, to) for to, code in out if code != R_CAPTURE)


def _add_promotions(pos, kind, sq, to, side, move_kind, extra, moves) -> None:
    """The move once per promotion choice when it enters the piece's zone, and plain when that is allowed.

    A move that starts inside the zone does not promote (the piece already had its chance), and
    neither does a capture whose victim converts the captor (a Zombie pawn: the captor becomes one).
    """
    victim = extra if move_kind == Kind.EN_PASSANT else to
    converts = pos.piece[victim] >= 0 and pos.types.types[pos.piece[victim]].convert_captor
    if kind.promotes and kind.zone[side][to] and not kind.zone[side][sq] and not converts:
        choices, optional = promotion_choices(pos, kind, side)
        for choice in choices:
            moves.append(Move(sq, to, move_kind, choice, extra))
        if choices and not optional:
            return
    moves.append(Move(sq, to, move_kind, None, extra))


def _add_rule_moves(pos: Position, kind, sq: int, side: int, moves: list[Move]) -> None:
    """The moves of rules no XBetza says: the Chicken's flight, the Zabel's double step, the Linebacker's push."""
    board, occ = pos.board, pos.occ
    if kind.promote_step is not None:
        _add_promoting_steps(pos, kind, sq, side, moves)
    if kind.flee is not None and is_attacked(pos, sq, 1 - side):
        already = {m.to for m in moves if m.frm == sq}
        out: list = []
        fast_destinations(kind.flee[side][sq], occ, side, False, frozenset(), out)
        for to, code in out:
            if code != R_CAPTURE and to not in already:
                _add_promotions(pos, kind, sq, to, side, Kind.NORMAL, -1, moves)
    if kind.push is not None:
        out = []
        fast_destinations(kind.push[side][sq], occ, side, False, frozenset(), out)
        for to, code in out:
            if code != R_CAPTURE:
                continue
            x = 2 * board.file_of(to) - board.file_of(sq)
            y = 2 * board.rank_of(to) - board.rank_of(sq)
            if board.on_board(x, y) and occ[board.square(x, y)] == EMPTY:
                moves.append(Move(sq, to, Kind.PUSH, None, board.square(x, y)))


def _add_promoting_steps(pos: Position, kind, sq: int, side: int, moves: list[Move]) -> None:
    """The Zabel's "two for the final move to promotion": only as a promotion, so never with nothing to
    promote to (docs/rulings.md, audit 2 finding 6)."""
    out: list = []
    fast_destinations(kind.promote_step[side][sq], pos.occ, side, False, frozenset(), out)
    choices = promotion_choices(pos, kind, side)[0] if out and not kind.zone[side][sq] else ()
    for to, code in out:
        if code != R_CAPTURE:
            moves.extend(Move(sq, to, Kind.NORMAL, choice) for choice in choices)


# --- legality -----------------------------------------------------------------------------


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move of the side to move (battle moves apart: `battle_moves`): the pseudo-legal moves
    that leave all its royals safe, only the jumped Hyena's while it must move."""
    side = pos.turn
    checked, risky, entering = safety_sets(pos, side)
    legal: list[Move]
    if checked or pos.must_move:
        legal = [m for m in pseudo_moves(pos, side) if _safe_after(pos, m, side)]
    else:
        # Not in check: an ordinary move of a piece not in `risky` is safe unless it enters a square of a
        # line that is not plain (`entering`, usually none); only the rest is tried (safety_sets).
        legal = []
        unsure: list[Move] = []
        _generate(pos, side, legal, unsure, risky)
        if entering:
            unsure.extend(m for m in legal if m[TO] in entering)  # m[TO] is m.to: indexing is faster (hot)
            legal = [m for m in legal if m[TO] not in entering]
        legal.extend(m for m in unsure if _safe_after(pos, m, side))
    if pos.must_move:
        forced = [m for m in legal if m.frm in pos.must_move]
        if forced:
            return forced
    return legal


def safety_sets(pos: Position, side: int) -> tuple[bool, set[int], set[int]]:
    """(in check, risky, entering) for `side` to move. Not in check, an ordinary move (Kind.NORMAL) from a
    square not in `risky` to a square not in `entering` leaves every royal safe; any other move needs
    trying. From engine.attacks.check_lines: a plain line's single blocker may not leave, a square of
    another line (a hopper's) may neither be left nor entered; `risky` adds the royals and the pieces
    whose move changes attacks (a Hyena, a Dazzler)."""
    checked, leaving, entering = check_lines(pos, side)
    risky = leaving.union(pos.royals[side])
    if pos.types.immobilizers or pos.types.dazzlers:
        types, piece = pos.types.types, pos.piece
        risky.update(sq for sq in pos.squares[side] if types[piece[sq]].immobilize or types[piece[sq]].dazzle)
    return checked, risky, entering


def _safe_after(pos: Position, m: Move, side: int) -> bool:
    """Whether `side` still has a royal after the move and none of them is attacked."""
    types = pos.types.types
    mover = types[pos.piece[m.frm]]
    if (mover.royal and m.kind == NORMAL and m.promotion is None and len(pos.royals[side]) == 1
            and not (pos.types.immobilizers or pos.types.dazzlers)):
        return _royal_step_safe(pos, m.frm, m.to, side)
    idle: frozenset[int] = frozenset()
    shield: frozenset[int] = frozenset()
    if mover.dazzle:
        jumped = [sq for sq in squares_between(pos.board, m.frm, m.to) if pos.occ[sq] != EMPTY]
        idle = frozenset(sq for sq in jumped if pos.occ[sq] != side)
        if pos.game.shield_royals:  # a royal jumped by its own Dazzler may stay attacked for a turn
            shield = frozenset(sq for sq in jumped if pos.occ[sq] == side)
    undo = pos.apply(m)
    try:
        royals = pos.royals[side]
        return bool(royals) and not any(r not in shield and is_attacked(pos, r, 1 - side, idle) for r in royals)
    finally:
        pos.revert(undo)


def _royal_step_safe(pos: Position, frm: int, to: int, side: int) -> bool:
    """_safe_after for an ordinary move of a side's only royal, without making it (kings move most often
    of the moves that must be tried): the destination must not be attacked once the royal has left its
    square (an enemy there is taken, so it attacks nothing). A Zombie's capture, which turns the royal
    into a pawn, is made and tried like any other move."""
    victim = pos.piece[to]
    enemy = 1 - side
    if victim >= 0 and pos.types.types[victim].convert_captor:
        undo = pos.apply(Move(frm, to))
        try:
            royals = pos.royals[side]
            return bool(royals) and not any(is_attacked(pos, r, enemy) for r in royals)
        finally:
            pos.revert(undo)
    occ, taken = pos.occ, pos.squares[enemy]
    occ[frm] = EMPTY
    if victim >= 0:
        taken.discard(to)
    try:
        return not is_attacked(pos, to, enemy)
    finally:
        occ[frm] = side
        if victim >= 0:
            taken.add(to)


def _obliged(pos: Position) -> bool:
    """Whether a Hyena jumped by the enemy Dazzler must move now (it has a legal move)."""
    return bool(pos.must_move) and any(m.frm in pos.must_move for m in legal_moves(pos))


def refusal_reason(pos: Position, frm: int, to: int) -> str:
    """Why no legal move goes from `frm` to `to`, in words for the player."""
    board, side = pos.board, SIDE_NAMES[pos.turn].capitalize()
    ended = outcome(pos)
    if ended is not None:
        return f"the game is over: {ended.result.value} ({ended.reason})"
    if pos.piece[frm] < 0:
        return f"no piece stands on {board.name(frm)}"
    if pos.occ[frm] != pos.turn:
        return f"the piece on {board.name(frm)} is not {side}'s, and it is {side}'s turn"
    name = pos.types[pos.piece[frm]].piece.name
    tried = [m for m in pseudo_moves(pos, pos.turn) if m.frm == frm and m.to == to]
    if not tried:
        stuck = immobility_reason(pos, frm)
        return stuck or f"the {name} on {board.name(frm)} cannot move to {board.name(to)}"
    if any(_safe_after(pos, m, pos.turn) for m in tried):
        return must_move_reason(pos)
    undo = pos.apply(tried[0])
    royal_left = bool(pos.royals[pos.turn])
    pos.revert(undo)
    return (f"it would leave {side}'s royal piece attacked" if royal_left
            else f"it would leave {side} without a royal piece")


# --- the battle move (Spinal Tap) ---------------------------------------------------------


def battle_moves(pos: Position) -> Iterator[Move]:
    """Every legal battle move of the side to move (Kind.BATTLE, steps sorted by from-square)."""
    return _battles(pos)


def has_battle_move(pos: Position) -> bool:
    """Whether the side to move has a legal battle move (stops at the first one found)."""
    return next(_battles(pos), None) is not None


def _battles(pos: Position) -> Iterator[Move]:
    """Battle moves by a depth-first search over the pawns (each steps or stays), pruned as it goes."""
    side = pos.turn
    if not pos.game.battle_move or side in pos.battle_used or _obliged(pos):
        return
    options = [steps for steps in (battle_step_options(pos, sq) for sq in sorted(pos.squares[side])) if steps]
    checked, sensitive = check_info(pos, side)
    lines = (sensitive, shared_blockers(pos, side))
    interpose = interposing_squares(pos, side) if checked else frozenset()
    # can_interpose[i]: whether some pawn from index i on can interpose (in check, one step must)
    can_interpose = [False] * (len(options) + 1)
    for i in range(len(options) - 1, -1, -1):
        can_interpose[i] = can_interpose[i + 1] or any(s.to in interpose for s in options[i])
    chosen: list[Move] = []

    def search(i: int, captures: int, promotions: int, interposed: bool) -> Iterator[Move]:
        if len(chosen) + len(options) - i < 2 or (checked and not interposed and not can_interpose[i]):
            return
        if i == len(options):
            move = Move(chosen[0].frm, chosen[0].to, Kind.BATTLE, None, -1, -1, tuple(chosen))
            if _battle_safe(pos, move, side, checked, lines):
                yield move
            return
        taken = {s.to for s in chosen}
        for step in options[i]:
            capture = step.kind == Kind.EN_PASSANT or pos.occ[step.to] != EMPTY
            promotion = step.promotion is not None
            if step.to in taken or captures + capture > 1 or promotions + promotion > 1:
                continue
            chosen.append(step)
            yield from search(i + 1, captures + capture, promotions + promotion, interposed or step.to in interpose)
            chosen.pop()
        yield from search(i + 1, captures, promotions, interposed)

    yield from search(0, 0, 0, False)


def _battle_safe(pos: Position, move: Move, side: int, checked: bool, lines: tuple[set[int], list]) -> bool:
    """Royal safety after a battle move; steps that open no line to a royal are safe without trying.

    `lines` is (squares no step may leave or enter untried, blocker sets of plain lines with two or more).
    """
    sensitive, shared = lines
    if not checked and all(
        s.kind == Kind.NORMAL and s.frm not in sensitive and s.to not in sensitive for s in move.steps
    ):
        leaving = {s.frm for s in move.steps}
        if not any(blockers <= leaving for blockers in shared):
            return True
    return _safe_after(pos, move, side)


def battle_step_options(pos: Position, sq: int) -> list[Move]:
    """The one-square forward moves the pawn or crab on sq may make as a battle step (none if it cannot move)."""
    side = pos.occ[sq]
    kind = pos.types.types[pos.piece[sq]]
    if kind.group is not Group.PAWN or mobility(pos, sq) is not Mobility.FREE:
        return []
    board, occ = pos.board, pos.occ
    forward = 1 if side == 0 else -1
    out: list = []
    fast_destinations(kind.fast[side][sq], occ, side, False, frozenset(pos.ep), out)
    steps: list[Move] = []
    for to, code in _merged(out):
        if board.rank_of(to) - board.rank_of(sq) != forward or abs(board.file_of(to) - board.file_of(sq)) > 1:
            continue
        if code == R_CAPTURE and (pos.types.types[pos.piece[to]].uncapturable or to in pos.shielded):
            continue
        if code == R_EP:
            if pos.ep_victim < 0 or occ[pos.ep_victim] != 1 - side or pos.ep_victim in pos.shielded:
                continue
            _add_promotions(pos, kind, sq, to, side, Kind.EN_PASSANT, pos.ep_victim, steps)
        else:
            _add_promotions(pos, kind, sq, to, side, Kind.NORMAL, -1, steps)
    return steps


def battle_move(pos: Position, steps: list[Move], text: str = "") -> Move:
    """Spinal Tap's battle move from its steps (any order); raise IllegalMoveError naming what breaks the rule.

    Two or more pawns or crabs each make one of their own one-square forward moves (straight, or
    diagonal for a crab or a capture, en passant included), judged on the board before the move;
    at most one captures, at most one promotes; once a game. In check, at least one step must
    interpose and every check must end (docs/rulings.md).
    """
    side, board = pos.turn, pos.board
    label = text or "&".join(board.name(s.frm) + board.name(s.to) for s in steps)

    def refuse(reason: str) -> IllegalMoveError:
        return IllegalMoveError(f"battle move {label!r} is not legal: {reason}")

    if not pos.game.battle_move:
        raise refuse(f"{pos.game.name} has no battle move")
    ended = outcome(pos)
    if ended is not None:
        raise refuse(f"the game is over: {ended.result.value} ({ended.reason})")
    if side in pos.battle_used:
        raise refuse("this side has already made its battle move")
    if len(steps) < 2:
        raise refuse("it moves two or more pawns or crabs")
    froms, tos = [s.frm for s in steps], [s.to for s in steps]
    if len(set(froms)) != len(froms) or len(set(tos)) != len(tos) or set(froms) & set(tos):
        raise refuse("each pawn moves once, to its own square, not onto another's start")
    chosen = sorted((_battle_step(pos, step, side, refuse) for step in steps), key=lambda s: s.frm)
    captures = sum(s.kind == Kind.EN_PASSANT or pos.occ[s.to] != EMPTY for s in chosen)
    if captures > 1 or sum(s.promotion is not None for s in chosen) > 1:
        raise refuse("at most one step may capture and at most one may promote")
    if _obliged(pos):
        raise refuse(must_move_reason(pos))
    move = Move(chosen[0].frm, chosen[0].to, Kind.BATTLE, None, -1, -1, tuple(chosen))
    checked = in_check(pos, side)
    if checked and not {s.to for s in chosen} & interposing_squares(pos, side):
        raise refuse("in check, one of its steps must interpose (stand between the checking piece and the royal)")
    if not _safe_after(pos, move, side):
        raise refuse(f"it would leave {SIDE_NAMES[side].capitalize()}'s royal piece attacked")
    return move


def _battle_step(pos: Position, step: Move, side: int, refuse) -> Move:
    """The step as the battle move makes it (en passant resolved), or raise naming the fault."""
    board, occ = pos.board, pos.occ
    name = board.name(step.frm) + board.name(step.to)
    if occ[step.frm] != side or pos.types[pos.piece[step.frm]].group is not Group.PAWN:
        raise refuse(f"{name}: no pawn or crab of the side to move on {board.name(step.frm)}")
    kind = pos.types[pos.piece[step.frm]]
    forward = 1 if side == 0 else -1
    if (board.rank_of(step.to) - board.rank_of(step.frm) != forward
            or abs(board.file_of(step.to) - board.file_of(step.frm)) > 1):
        raise refuse(f"{name}: each step goes one square forward")
    stuck = immobility_reason(pos, step.frm)
    if stuck is not None:
        raise refuse(f"{name}: {stuck}")
    options = battle_step_options(pos, step.frm)
    reach = select_moves(options, step.frm, step.to, step.extra if step.extra >= 0 else None)
    named = [s for s in reach if s.promotion == step.promotion]
    if named:
        return named[0]
    if not reach:
        can = any(s.to == step.to for s in options)
        raise refuse(f"{name}: " + (f"it takes no pawn en passant on {board.name(step.extra)}" if can else
                                    f"the {kind.piece.name} cannot make that step"))
    allowed = ", ".join(pos.catalogue.get(s.promotion).code for s in reach if s.promotion)
    if step.promotion is None:
        raise refuse(f"{name}: say what it promotes to ({allowed})")
    code = pos.catalogue.get(step.promotion).code
    raise refuse(f"{name}: it cannot promote to {code} here; allowed: {allowed or 'none'}")


def select_moves(moves: list[Move], frm: int, to: int, other: int | None) -> list[Move]:
    """The moves from `frm` to `to`. `other` (written after '/') picks the castling partner or the pawn
    taken en passant; without it an ordinary move wins over a castling move or capture on the same squares."""
    found = [m for m in moves if m.frm == frm and m.to == to]
    if other is not None:
        return [m for m in found if m.kind in (Kind.CASTLE, Kind.EN_PASSANT) and m.extra == other]
    plain = [m for m in found if m.kind not in (Kind.CASTLE, Kind.EN_PASSANT)]
    return plain if plain and len(plain) < len(found) else found


# --- playing and game end -----------------------------------------------------------------


def play(pos: Position, m: Move) -> None:
    """Push a move after checking that it is legal and the game goes on; raise IllegalMoveError otherwise."""
    if m.kind == Kind.BATTLE:
        pos.push(battle_move(pos, list(m.steps)))
        return
    ended = outcome(pos)
    if ended is not None:
        raise IllegalMoveError(f"the game is over: {ended.result.value} ({ended.reason})")
    if m not in legal_moves(pos):
        board = pos.board
        promotion = "" if m.promotion is None else "=" + pos.catalogue.get(m.promotion).code
        raise IllegalMoveError(f"move '{board.name(m.frm)}{board.name(m.to)}{promotion}' is not legal here")
    pos.push(m)


def has_legal_move(pos: Position) -> bool:
    """Whether the side to move has any legal move, a battle move included."""
    return bool(legal_moves(pos)) or has_battle_move(pos)


def checkmated(pos: Position) -> bool:
    """Whether the side to move is checkmated: in check with no legal move (a battle move included)."""
    return in_check(pos, pos.turn) and not has_legal_move(pos)


# What ends a game by itself under each draw rule: how often a position occurs, and how many plies
# pass without a capture or a pawn move.
ENDING_REPETITION = {Draws.CLAIM: (5, "fivefold repetition"), Draws.AUTOMATIC: (3, "threefold repetition")}
ENDING_PLIES = {Draws.CLAIM: (150, "seventy-five-move rule"), Draws.AUTOMATIC: (100, "fifty-move rule")}


def outcome(pos: Position) -> Outcome | None:
    """How the game has ended here: checkmate, stalemate, a lost royal, a dead position (no checkmate is
    possible any more: engine.dead) or a draw by rule; else None. The order is python-chess's.

    With the game's `draws = "claim"` (the default, as in FIDE chess) only fivefold repetition and
    the 75-move rule end the game by themselves; threefold and fifty are `claimable_draw`. With
    `draws = "automatic"` threefold repetition and the fifty-move rule end it at once.
    """
    side = pos.turn
    winner = Result.BLACK_WINS if side == 0 else Result.WHITE_WINS
    for loser in (side, 1 - side):  # positions are built with a royal each; this guards hand-made ones
        if not pos.royals[loser]:
            return Outcome(Result.BLACK_WINS if loser == 0 else Result.WHITE_WINS, "royal lost")
    if not has_legal_move(pos):
        if in_check(pos, side):
            return Outcome(winner, "checkmate")
        return Outcome(Result.DRAW, "dead position" if dead_position(pos, checkmated) else "stalemate")
    if dead_position(pos, checkmated):
        return Outcome(Result.DRAW, "dead position")
    plies, rule = ENDING_PLIES[pos.game.draws]
    if pos.halfmove >= plies:
        return Outcome(Result.DRAW, rule)
    times, repetition = ENDING_REPETITION[pos.game.draws]
    if repetitions(pos) >= times:
        return Outcome(Result.DRAW, repetition)
    return None


def claimable_draw(pos: Position) -> str | None:
    """The draw the player to move may claim now ("threefold repetition", "fifty-move rule"), or None.

    Only in games whose draws are claims, and only while the game goes on.
    """
    if pos.game.draws is not Draws.CLAIM or outcome(pos) is not None:
        return None
    if repetitions(pos) >= 3:
        return "threefold repetition"
    if pos.halfmove >= 100:
        return "fifty-move rule"
    return None


# --- repetition -----------------------------------------------------------------------------


def repetitions(pos: Position) -> int:
    """How many times the position on the board has occurred in the game, this time included.

    As FIDE 9.2.3 counts: the same placement, side to move, castling rights, hands, deck and Spinal
    Tap state, and the same en-passant captures; en-passant squares count only where an en-passant
    capture is legal (python-chess and Fairy-Stockfish agree).
    """
    current = pos.key()
    count = pos.keys.count(current)
    if count < 2:
        return count
    last = len(pos.keys) - 1
    rights = _ep_rights(pos, last)
    return sum(1 for index, key in enumerate(pos.keys) if key == current and _ep_rights(pos, index) == rights)


def _ep_rights(pos: Position, index: int) -> tuple:
    """The en-passant state of the game's position number `index` if an en-passant capture was legal
    there, else (). Earlier positions are visited by taking moves back and replaying them (rarely:
    only positions whose key repeats and that had en-passant squares); answers are kept in the position."""
    state = pos.passants[index]
    if not state[0]:
        return ()
    known = pos.ep_rights_known.get((pos.keys[index], state))
    if known is not None:
        return known
    replay = [pos.pop() for _ in range(len(pos.keys) - 1 - index)]
    try:
        legal = any(m.kind == Kind.EN_PASSANT for m in legal_moves(pos))
    finally:
        for m in reversed(replay):
            pos.push(m)
    rights = state if legal else ()
    pos.ep_rights_known[(pos.keys[index], state)] = rights
    return rights
