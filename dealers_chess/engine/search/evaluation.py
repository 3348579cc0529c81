"""The static evaluation: what a position is worth to the side to move, in centipawns.

Terms (weights in assets/search/engine.toml): the catalogue's piece values on this board size
(engine.measure.values), pieces in hand at a fraction, a mobility term per square (how many
squares the piece attacks from there on an empty board, against its average), pawns' advance
toward their own promotion zone, and the royal's safety (back rank and pawn shield while the
pieces are on, the centre in the endgame). Every table is built once per piece type and board
from the same compiled rays the referee uses.
"""

from __future__ import annotations

from dealers_chess.engine.board import Board
from dealers_chess.engine.game import TypeTable
from dealers_chess.engine.measure.values import piece_value
from dealers_chess.engine.position import Position
from dealers_chess.engine.search.settings import Evaluation, settings
from dealers_chess.pieces.catalogue import Group


class TypeTerms:
    """One piece type's precomputed terms: square tables per side, its phase weight and whether it is a pawn."""

    __slots__ = ("squares", "phase", "pawn", "value")

    def __init__(self, squares: tuple[list[int], list[int]], phase: int, pawn: bool, value: int) -> None:
        self.squares, self.phase, self.pawn, self.value = squares, phase, pawn, value


class Evaluator:
    """The evaluation for the positions of one type table (one game on one board)."""

    def __init__(self, types: TypeTable, weights: Evaluation | None = None, shared: dict | None = None) -> None:
        self.types = types
        self.shared: dict[str, TypeTerms] = {} if shared is None else shared  # piece id -> terms, across type tables
        self.weights = weights or settings().evaluation
        board = types.board
        self.board = board
        self.terms: list[TypeTerms] = []
        self.hand_values: dict[str, int] = {}
        self.full_phase = max(1, self.weights.phase_material * board.files // 8)
        self.royal_mg, self.royal_eg = _royal_tables(board, self.weights)
        self.shield = _shield_squares(board)

    def value(self, piece_id: str) -> int:
        """A piece's value in centipawns on this board (0 for a royal)."""
        found = self.hand_values.get(piece_id)
        if found is None:
            piece = self.types.catalogue.get(piece_id)
            found = 0 if piece.group is Group.ROYAL else round(100 * piece_value(piece, self.board))
            self.hand_values[piece_id] = found
        return found

    def type_terms(self, t: int) -> TypeTerms:
        """The terms of type index t (types join the table as positions meet them)."""
        while len(self.terms) <= t:
            self.terms.append(self._build(len(self.terms)))
        return self.terms[t]

    def _build(self, t: int) -> TypeTerms:
        piece_id = self.types.id_of(t)
        found = self.shared.get(piece_id)
        if found is None:
            found = self.shared[piece_id] = self._terms_of(t)
        return found

    def _terms_of(self, t: int) -> TypeTerms:
        kind = self.types.compiled(t)
        piece, board, w = kind.piece, self.board, self.weights
        value = self.value(piece.id)
        if kind.royal:
            return TypeTerms(([0] * board.size, [0] * board.size), 0, False, 0)
        pawn = piece.group in (Group.PAWN, Group.SPEAR)
        reach = [len(kind.attacks[0][sq]) for sq in range(board.size)]  # squares it attacks on an empty board
        average = sum(reach) / len(reach)
        tables = []
        for side in (0, 1):
            table = []
            for sq in range(board.size):
                white_sq = sq if side == 0 else board.size - 1 - sq  # Black's moves are White's turned 180 degrees
                score = value + round(w.mobility * (reach[white_sq] - average) * (0.5 if pawn else 1.0))
                if pawn:
                    score += _pawn_term(kind, board, side, sq, self.types.pawn_rank, w)
                table.append(score)
            tables.append(table)
        return TypeTerms((tables[0], tables[1]), 0 if pawn else value, pawn, value)

    def evaluate(self, pos: Position) -> int:
        """The position's worth to the side to move, in centipawns."""
        piece, terms = pos.piece, self.terms
        known = len(terms)
        total, phase = 0, 0
        for side in (0, 1):
            part = 0
            for sq in pos.squares[side]:
                t = piece[sq]
                entry = terms[t] if t < known else self.type_terms(t)
                part += entry.squares[side][sq]
                phase += entry.phase
            hand = pos.hands[side]
            if hand:
                part += round(self.weights.hand_fraction * sum(self.value(i) for i in hand))
            total += part if side == 0 else -part
        total += self._royal_safety(pos, min(phase, self.full_phase))
        score = total if pos.turn == 0 else -total
        return score + self.weights.tempo

    def _royal_safety(self, pos: Position, phase: int) -> int:
        """Back rank and pawn shield weighed by how many pieces remain; the centre as they go."""
        full, piece, terms = self.full_phase, pos.piece, self.terms
        shield_weight = self.weights.royal_shield
        total = 0
        for side in (0, 1):
            sign = 1 if side == 0 else -1
            mg_table, eg_table, shields = self.royal_mg[side], self.royal_eg[side], self.shield[side]
            for r in pos.royals[side]:
                mg = mg_table[r]
                if shield_weight:
                    for sq in shields[r]:
                        t = piece[sq]
                        if t >= 0 and pos.occ[sq] == side and t < len(terms) and terms[t].pawn:
                            mg += shield_weight
                total += sign * (mg * phase + eg_table[r] * (full - phase)) // full
        return total


_SHARED: dict[tuple, tuple[object, dict[str, TypeTerms]]] = {}
_LAST: list[Evaluator] = []


def evaluator_for(types: TypeTable) -> Evaluator:
    """The evaluator of a type table; piece terms are shared by every table of the same game, board and
    catalogue (a position parsed again for each move does not rebuild them)."""
    if _LAST and _LAST[0].types is types:
        return _LAST[0]
    board = types.board
    key = (id(types.catalogue), types.game.id, board.files, board.ranks, types.pawn_rank)
    entry = _SHARED.get(key)
    if entry is None:
        entry = _SHARED[key] = (types.catalogue, {})  # the catalogue is kept alive, so its id names only it
    evaluator = Evaluator(types, shared=entry[1])
    _LAST[:] = [evaluator]
    return evaluator


def _pawn_term(kind, board: Board, side: int, sq: int, pawn_rank: int, w: Evaluation) -> int:
    """Advance toward the promotion zone (growing with the square of the way done) and the centre files."""
    rank, file = board.rank_of(sq), board.file_of(sq)
    ahead = rank if side == 0 else board.ranks - 1 - rank  # ranks from its own back rank
    start = pawn_rank
    score = 0
    zone = kind.zone[side] if kind.promotes else None
    if zone is not None:
        zone_ranks = [board.rank_of(z) if side == 0 else board.ranks - 1 - board.rank_of(z)
                      for z in range(board.size) if zone[z]]
        if zone_ranks:
            target = min(r for r in zone_ranks)
            way = max(1, target - start)
            done = min(max(ahead - start, 0), way)
            score += round(w.pawn_advance * (done / way) ** 2)
    half = (board.files - 1) / 2
    centrality = 1 - abs(file - half) / half
    if centrality > 0.5:
        score += round(w.pawn_centre * min(max(ahead - start, 0), 2) * centrality)
    return score


def _royal_tables(board: Board, w: Evaluation) -> tuple[tuple[list[int], list[int]], tuple[list[int], list[int]]]:
    """Per side and square: the royal's middlegame term (home rank, off the centre) and endgame term (centre)."""
    half_f, half_r = (board.files - 1) / 2, (board.ranks - 1) / 2
    mg: tuple[list[int], list[int]] = ([], [])
    eg: tuple[list[int], list[int]] = ([], [])
    for side in (0, 1):
        for sq in range(board.size):
            rank, file = board.rank_of(sq), board.file_of(sq)
            ahead = rank if side == 0 else board.ranks - 1 - rank
            file_centre = half_f - abs(file - half_f)  # steps in from the edge file
            centre = file_centre + (half_r - abs(rank - half_r))
            mg[side].append(round(-w.royal_back_rank * ahead - w.royal_centre * file_centre))
            eg[side].append(round(w.royal_centre * centre))
    return mg, eg


def _shield_squares(board: Board) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """Per side and square: the three squares in front of a royal standing there."""
    out: tuple[list[tuple[int, ...]], list[tuple[int, ...]]] = ([], [])
    for side in (0, 1):
        forward = 1 if side == 0 else -1
        for sq in range(board.size):
            x, y = board.file_of(sq), board.rank_of(sq) + forward
            out[side].append(tuple(board.square(x + dx, y) for dx in (-1, 0, 1) if board.on_board(x + dx, y)))
    return out
