"""Castling: which pieces may castle, where royal and partner land, and the path conditions.

Royal safety after castling is checked with every other move (engine.rules.legal_moves).
"""

from __future__ import annotations

from dealers_chess.engine.attacks import Mobility, in_check, is_attacked, mobility, uses_immobilizers
from dealers_chess.engine.board import Board
from dealers_chess.engine.game import Castling
from dealers_chess.engine.kernel import EMPTY
from dealers_chess.engine.move import Kind, Move
from dealers_chess.engine.origins import castling_problem, castling_starts
from dealers_chess.engine.position import Position


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
    return _targets(pos.board, pos.game.castling, royal, partner)


def _targets(board: Board, castling: Castling, royal: int, partner: int) -> list[tuple[int, int]]:
    rank = board.rank_of(royal)
    rf, pf = board.file_of(royal), board.file_of(partner)
    step = 1 if pf > rf else -1
    if castling is Castling.FREE:
        return [(board.square(f, rank), royal) for f in range(rf + step, pf, step)]
    if castling is Castling.ADJACENT:
        return [(board.square(pf - step, rank), board.square(pf - 2 * step, rank))]
    if step > 0:
        return [(board.square(board.files - 2, rank), board.square(board.files - 3, rank))]
    return [(board.square(2, rank), board.square(3, rank))]


def castling_moves(pos: Position, side: int, checked: bool | None = None) -> list[Move]:
    """Castling moves whose path rules hold (royal safety afterwards is checked with the others).

    Both pieces must be free to move: a royal or partner frozen by a Hyena or dazzled cannot castle. The
    royal is the one on the square where the royal this partner castles with starts (a royal of The Consuls
    that has walked between them castles with nothing; with it there, the other cannot pass it anyway).
    `checked`, when the caller knows it, is whether the side is in check (asked here otherwise).
    """
    occ, plans = pos.occ, pos.castle_plans
    restrained = bool(pos.dazzled) or uses_immobilizers(pos)
    candidates = []
    royals = pos.royals[side]
    only = next(iter(royals)) if len(royals) == 1 else -1  # the side's one royal (most games), else -1
    for partner in pos.castling:
        if occ[partner] != side:
            continue
        # Whether a royal castles with this partner depends on the two squares alone (the royal must stand
        # where the royal this partner castles with starts): the plans, none if it does not, are kept by the
        # pair. With one royal, royal_for is asked only the first time.
        royal = only if only >= 0 else pos.royal_for(partner)
        if royal < 0:
            continue
        found = plans.get((royal, partner))
        if found is None:
            castles = castling_starts(pos, side).get(partner) == royal and pos.royal_for(partner) == royal
            found = plans[royal, partner] = (
                _castle_plans(pos.board, pos.game.castling, royal, partner) if castles else ())
        if not found or (restrained and not (_free(pos, royal) and _free(pos, partner))):
            continue
        for royal_to, partner_to, between in found:
            for sq in between:
                if occ[sq] != EMPTY:
                    break
            else:
                candidates.append((partner, royal, royal_to, partner_to))
    if not candidates or (in_check(pos, side) if checked is None else checked):
        return []
    candidates.sort(key=lambda c: c[0])  # by partner square, each partner's landings in order
    return [
        Move(royal, royal_to, Kind.CASTLE, None, partner, partner_to)
        for partner, royal, royal_to, partner_to in candidates
        if _castle_path_safe(pos, side, royal, royal_to)
    ]


def _free(pos: Position, sq: int) -> bool:
    return mobility(pos, sq) is Mobility.FREE


def _castle_plans(
    board: Board, castling: Castling, royal: int, partner: int,
) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """Per castling with this partner: (royal lands, partner lands, squares that must be empty).

    Positions keep what this returns in `castle_plans`, so it runs once per royal and partner.
    """
    plans = []
    for royal_to, partner_to in _targets(board, castling, royal, partner):
        if castling is Castling.FREE:
            between: tuple[int, ...] = (royal_to,)
        else:
            rank = board.rank_of(royal)
            files = [board.file_of(s) for s in (royal, partner, royal_to, partner_to)]
            squares = (board.square(f, rank) for f in range(min(files), max(files) + 1))
            between = tuple(sq for sq in squares if sq not in (royal, partner))
        plans.append((royal_to, partner_to, between))
    return tuple(plans)


def _castle_path_safe(pos, side, royal, royal_to) -> bool:
    board = pos.board
    if pos.game.castling is Castling.FREE:
        return not is_attacked(pos, royal_to, 1 - side)
    rank = board.rank_of(royal)
    rf, tf = board.file_of(royal), board.file_of(royal_to)
    step = 1 if tf > rf else -1
    return not any(is_attacked(pos, board.square(f, rank), 1 - side) for f in range(rf + step, tf + step, step))


def grant_castling_rights(pos: Position) -> None:
    """Every right the placement allows: a partner on its back rank with a royal inward of it, both on the
    squares the game's start puts them on (engine.origins.castling_problem)."""
    rights = set()
    for side in (0, 1):
        rank = 0 if side == 0 else pos.board.ranks - 1
        for file in range(pos.board.files):
            sq = pos.board.square(file, rank)
            if (pos.occ[sq] == side and castling_partner_ok(pos, sq) and pos.royal_for(sq) >= 0
                    and castling_problem(pos, sq) is None):
                rights.add(sq)
    set_castling_rights(pos, frozenset(rights))


def set_castling_rights(pos: Position, rights: frozenset[int]) -> None:
    """Give the position these rights, with where each partner's royal starts (Position._castling_after
    drops a right when that royal leaves, not when another royal that passed between them does)."""
    pos.castling = rights
    pos.castling_royals = {**castling_starts(pos, 0), **castling_starts(pos, 1)} if rights else {}
