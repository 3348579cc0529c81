"""The rules of play: pseudo-legal moves from the kernel's rays, royal safety, castling, game end.

Every destination comes from the compiled rays (engine.kernel); this module only adds what the
rules say about them: promotion, en passant, pushes, flight, teleports, castling and legality.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum

from engine.errors import IllegalMoveError
from engine.game import Castling, Promotion
from engine.kernel import EMPTY, R_CAPTURE, R_EP, fast_destinations, line_squares, ray_captures_at
from engine.move import Kind, Move
from engine.position import Position
from pieces.catalogue import Group

NEIGHBOURS: dict = {}


class Result(Enum):
    """How a game ended."""

    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result and why."""

    result: Result
    reason: str  # checkmate, stalemate, threefold repetition, fifty-move rule, royal lost


# --- attacks ------------------------------------------------------------------------------


def _neighbours(board) -> tuple[tuple[int, ...], ...]:
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


def is_frozen(pos: Position, sq: int) -> bool:
    """Whether the piece on sq stands next to an enemy immobilizer (Hyena) and so cannot move."""
    side = pos.occ[sq]
    types, piece, occ = pos.types.types, pos.piece, pos.occ
    for n in _neighbours(pos.board)[sq]:
        if occ[n] == 1 - side and types[piece[n]].immobilize:
            return True
    return False


def _uses_immobilizers(pos: Position) -> bool:
    return any(t.immobilize for t in pos.types.types)


def is_attacked(pos: Position, target: int, by: int, idle: frozenset[int] = frozenset()) -> bool:
    """Whether a piece of side `by` could capture on `target` now (pieces in `idle` cannot move)."""
    occ, piece, types = pos.occ, pos.piece, pos.types.types
    frozen_check = _uses_immobilizers(pos)
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
            elif ray_captures_at(ray, before, occ):
                return True
    return False


def in_check(pos: Position, side: int) -> bool:
    """Whether any royal of `side` is attacked (pieces dazzled this turn do not attack)."""
    if side == pos.turn:
        return any(is_attacked(pos, r, 1 - side) for r in pos.royals[side])
    return any(r not in pos.shielded and is_attacked(pos, r, 1 - side, pos.dazzled) for r in pos.royals[side])


def _check_info(pos: Position, side: int) -> tuple[bool, set[int]]:
    """(in check, squares an ordinary move may not leave or enter without a full check) for the side to move.

    Plain lines to a royal add only their single blocker (moving it may open the line; entering
    a plain line can only block it); other lines (hoppers, lame and bent paths) add every square.
    """
    sensitive: set[int] = set()
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
                    blockers = [sq for sq in before if occ[sq] != EMPTY]
                    if not blockers:
                        checked = True
                    elif len(blockers) == 1:
                        sensitive.add(blockers[0])
                    continue
                sensitive.update(line_squares((before, ray)))
                if not checked:
                    checked = ray_captures_at(ray, before, occ)
    if checked and (pos.dazzled or _uses_immobilizers(pos)):
        checked = in_check(pos, side)
    return checked, sensitive


# --- move generation ----------------------------------------------------------------------


def promotion_choices(pos: Position, kind, side: int) -> tuple[tuple[str, ...], bool]:
    """(piece ids the piece may become, whether promoting is optional) on reaching its zone."""
    piece = kind.piece
    if piece.promotes_to:
        return piece.promotes_to, True
    game = pos.game
    if game.promotion is Promotion.LIST:
        return game.promotion_pieces, False
    if game.promotion is Promotion.HAND_KEPT:
        return tuple(dict.fromkeys(pos.hands[side])), False
    if game.promotion is Promotion.HAND:
        pool = pos.deck.draw[:3] if pos.deck is not None else pos.hands[side]
        return tuple(dict.fromkeys(pool)), False
    return (), False


def pseudo_moves(pos: Position, side: int) -> list[Move]:
    """Every move of `side` that the pieces allow, before royal safety is checked."""
    moves: list[Move] = []
    occ, piece, moved, types = pos.occ, pos.piece, pos.moved, pos.types.types
    ep = frozenset(pos.ep) if pos.turn == side else frozenset()
    immobilizers = _uses_immobilizers(pos)
    append = moves.append
    for sq in list(pos.squares[side]):
        kind = types[piece[sq]]
        if immobilizers and is_frozen(pos, sq):
            continue
        if kind.teleport is not None:
            _add_plain(pos, sq, kind.teleport[sq], side, moves)
        if sq in pos.dazzled:
            continue
        out: list = []
        fast_destinations(kind.fast[side][sq], occ, side, not moved[sq], ep, out)
        if kind.overlap[side]:
            best: dict[int, int] = {}
            for to, code in out:
                if code > best.get(to, -1):
                    best[to] = code
            out = list(best.items())
        zone = kind.zone[side] if kind.promotes else None
        for to, code in out:
            if code == R_CAPTURE:
                if types[piece[to]].uncapturable or to in pos.shielded:
                    continue
            elif code == R_EP:
                if pos.ep_victim < 0 or occ[pos.ep_victim] != 1 - side or pos.ep_victim in pos.shielded:
                    continue
                _add_promotions(pos, kind, sq, to, side, Kind.EN_PASSANT, pos.ep_victim, moves)
                continue
            if zone is not None and zone[to]:
                _add_promotions(pos, kind, sq, to, side, Kind.NORMAL, -1, moves)
            else:
                append(Move(sq, to))
        if kind.flee is not None or kind.push is not None:
            _add_rule_moves(pos, kind, sq, side, moves)
    if pos.castling and pos.turn == side:
        moves.extend(castling_moves(pos, side))
    return moves


def _add_plain(pos: Position, sq: int, entries, side: int, moves: list[Move]) -> None:
    out: list = []
    fast_destinations(entries, pos.occ, side, False, frozenset(), out)
    moves.extend(Move(sq, to) for to, code in out if code != R_CAPTURE)


def _add_promotions(pos, kind, sq, to, side, move_kind, extra, moves) -> None:
    if kind.promotes and kind.zone[side][to]:
        choices, optional = promotion_choices(pos, kind, side)
        for choice in choices:
            moves.append(Move(sq, to, move_kind, choice, extra))
        if choices and not optional:
            return
    moves.append(Move(sq, to, move_kind, None, extra))


def _add_rule_moves(pos: Position, kind, sq: int, side: int, moves: list[Move]) -> None:
    board, occ = pos.board, pos.occ
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


# --- castling -----------------------------------------------------------------------------


def castling_partner_ok(pos: Position, sq: int) -> bool:
    """Whether the piece on sq is of a kind that may castle in this game (corner pieces or named ids)."""
    game, board = pos.game, pos.board
    if game.castling is Castling.NONE:
        return False
    if game.corner_castling:
        return board.file_of(sq) in (0, board.files - 1) and not pos.types.types[pos.piece[sq]].royal
    return pos.types.id_of(pos.piece[sq]) in game.castling_partners


def castling_targets(pos: Position, royal: int, partner: int) -> list[tuple[int, int]]:
    """(royal lands, partner lands) for castling with this partner, by the game's geometry."""
    board, game = pos.board, pos.game
    rank = board.rank_of(royal)
    rf, pf = board.file_of(royal), board.file_of(partner)
    step = 1 if pf > rf else -1
    if game.castling is Castling.FREE:
        return [(board.square(f, rank), royal) for f in range(rf + step, pf, step)]
    if game.castling is Castling.ADJACENT:
        return [(board.square(pf - step, rank), board.square(pf - 2 * step, rank))]
    if step > 0:
        return [(board.square(board.files - 2, rank), board.square(board.files - 3, rank))]
    return [(board.square(2, rank), board.square(3, rank))]


def castling_moves(pos: Position, side: int) -> list[Move]:
    """Castling moves whose path rules hold (royal safety afterwards is checked with the others)."""
    occ = pos.occ
    candidates = []
    for partner in sorted(p for p in pos.castling if occ[p] == side):
        royal = pos.royal_for(partner)
        if royal >= 0:
            candidates += [
                (royal, partner, royal_to, partner_to)
                for royal_to, partner_to in castling_targets(pos, royal, partner)
                if _castle_squares_empty(pos, royal, partner, royal_to, partner_to)
            ]
    if not candidates or in_check(pos, side):
        return []
    return [
        Move(royal, royal_to, Kind.CASTLE, None, partner, partner_to)
        for royal, partner, royal_to, partner_to in candidates
        if _castle_path_safe(pos, side, royal, royal_to)
    ]


def _castle_squares_empty(pos, royal, partner, royal_to, partner_to) -> bool:
    occ, board = pos.occ, pos.board
    if pos.game.castling is Castling.FREE:
        return occ[royal_to] == EMPTY
    rank = board.rank_of(royal)
    files = [board.file_of(s) for s in (royal, partner, royal_to, partner_to)]
    for f in range(min(files), max(files) + 1):
        sq = board.square(f, rank)
        if sq not in (royal, partner) and occ[sq] != EMPTY:
            return False
    return True


def _castle_path_safe(pos, side, royal, royal_to) -> bool:
    board = pos.board
    if pos.game.castling is Castling.FREE:
        return not is_attacked(pos, royal_to, 1 - side)
    rank = board.rank_of(royal)
    rf, tf = board.file_of(royal), board.file_of(royal_to)
    step = 1 if tf > rf else -1
    return not any(is_attacked(pos, board.square(f, rank), 1 - side) for f in range(rf + step, tf + step, step))


# --- legality -----------------------------------------------------------------------------


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move of the side to move: pseudo-legal moves that leave all its royals safe."""
    side = pos.turn
    moves = pseudo_moves(pos, side)
    if not pos.royals[side]:
        return moves
    checked, sensitive = _check_info(pos, side)
    types, piece = pos.types.types, pos.piece
    quiet_ok = not checked and not pos.must_move
    legal = []
    for m in moves:
        if quiet_ok and m.kind == Kind.NORMAL and m.frm not in sensitive and m.to not in sensitive:
            kind = types[piece[m.frm]]
            if not (kind.royal or kind.immobilize or kind.dazzle):
                legal.append(m)
                continue
        if _safe_after(pos, m, side):
            legal.append(m)
    if pos.must_move:
        forced = [m for m in legal if m.frm in pos.must_move]
        if forced:
            return forced
    return legal


def _safe_after(pos: Position, m: Move, side: int) -> bool:
    mover = pos.types.types[pos.piece[m.frm]]
    idle, shield = frozenset(), frozenset()
    if mover.dazzle:
        from engine.position import _between

        jumped = [sq for sq in _between(pos.board, m.frm, m.to) if pos.occ[sq] != EMPTY]
        idle = frozenset(sq for sq in jumped if pos.occ[sq] != side)
        shield = frozenset(sq for sq in jumped if pos.occ[sq] == side)
    undo = pos.apply(m)
    try:
        return not any(r not in shield and is_attacked(pos, r, 1 - side, idle) for r in pos.royals[side])
    finally:
        pos.revert(undo)


def battle_move(pos: Position, steps: list[Move], text: str = "") -> Move:
    """Spinal Tap's battle move from its steps; raise IllegalMoveError naming what breaks the rule.

    Two or more pawns or crabs each make a one-square forward move of their own (straight, or
    diagonal for a crab or a capture); at most one captures, at most one promotes; once a game.
    Battle moves are not listed by legal_moves (there are too many); a player proposes one.
    """
    side, board = pos.turn, pos.board
    label = text or "&".join(board.name(s.frm) + board.name(s.to) for s in steps)

    def refuse(reason: str) -> IllegalMoveError:
        return IllegalMoveError(f"battle move {label!r} is not legal: {reason}")

    if not pos.game.battle_move:
        raise refuse(f"{pos.game.name} has no battle move")
    if side in pos.battle_used:
        raise refuse("this side has already made its battle move")
    if len(steps) < 2:
        raise refuse("it moves two or more pawns or crabs")
    froms, tos = [s.frm for s in steps], [s.to for s in steps]
    if len(set(froms)) != len(froms) or len(set(tos)) != len(tos) or set(froms) & set(tos):
        raise refuse("each pawn moves once, to its own square, not onto another's start")
    captures = promotions = 0
    for step in steps:
        captures += _check_battle_step(pos, step, side, refuse)
        promotions += step.promotion is not None
    if captures > 1 or promotions > 1:
        raise refuse("at most one step may capture and at most one may promote")
    move = Move(steps[0].frm, steps[0].to, Kind.BATTLE, None, -1, -1, tuple(steps))
    if not _safe_after(pos, move, side):
        raise refuse(f"it would leave {'white' if side == 0 else 'black'}'s royal piece attacked")
    return move


def _check_battle_step(pos: Position, step: Move, side: int, refuse) -> bool:
    board, occ = pos.board, pos.occ
    name = board.name(step.frm) + board.name(step.to)
    if occ[step.frm] != side or pos.types[pos.piece[step.frm]].group is not Group.PAWN:
        raise refuse(f"{name}: no pawn or crab of the side to move on {board.name(step.frm)}")
    kind = pos.types[pos.piece[step.frm]]
    forward = 1 if side == 0 else -1
    if board.rank_of(step.to) - board.rank_of(step.frm) != forward or abs(board.file_of(step.to) - board.file_of(step.frm)) > 1:
        raise refuse(f"{name}: each step goes one square forward")
    if (_uses_immobilizers(pos) and is_frozen(pos, step.frm)) or step.frm in pos.dazzled:
        raise refuse(f"{name}: the {kind.piece.name} cannot move this turn")
    out: list = []
    fast_destinations(kind.fast[side][step.frm], occ, side, False, frozenset(), out)
    reach = {to: code for to, code in out}.get(step.to)
    capture = reach == R_CAPTURE
    if reach is None or (capture and (pos.types[pos.piece[step.to]].uncapturable or step.to in pos.shielded)):
        raise refuse(f"{name}: the {kind.piece.name} cannot make that step")
    choices, optional = promotion_choices(pos, kind, side) if kind.zone[side][step.to] else ((), True)
    if step.promotion is not None and step.promotion not in choices:
        raise refuse(f"{name}: it cannot promote to {step.promotion!r} here")
    if step.promotion is None and choices and not optional:
        raise refuse(f"{name}: say what it promotes to ({', '.join(choices)})")
    return capture


def play(pos: Position, m: Move) -> None:
    """Push a move after checking that it is legal; raise IllegalMoveError otherwise."""
    if m.kind == Kind.BATTLE:
        pos.push(battle_move(pos, list(m.steps)))
        return
    if m not in legal_moves(pos):
        from engine.notation import format_move

        raise IllegalMoveError(f"move {format_move(pos, m)!r} is not legal here")
    pos.push(m)


# --- game end -----------------------------------------------------------------------------


def outcome(pos: Position) -> Outcome | None:
    """Checkmate, stalemate, a lost royal, threefold repetition or the fifty-move rule; else None."""
    side = pos.turn
    winner = Result.BLACK_WINS if side == 0 else Result.WHITE_WINS
    for loser in (side, 1 - side):  # every game here has royals: a side left without one has lost
        if not pos.royals[loser]:
            return Outcome(Result.BLACK_WINS if loser == 0 else Result.WHITE_WINS, "royal lost")
    if not legal_moves(pos):
        return Outcome(winner, "checkmate") if in_check(pos, side) else Outcome(Result.DRAW, "stalemate")
    if Counter(pos.keys)[pos.key()] >= 3:
        return Outcome(Result.DRAW, "threefold repetition")
    if pos.halfmove >= 100:
        return Outcome(Result.DRAW, "fifty-move rule")
    return None

