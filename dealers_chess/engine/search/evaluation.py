"""The static evaluation: what a position is worth to the side to move, in centipawns.

Terms (weights in assets/search/engine.toml): the catalogue's piece values on this board size
(engine.measure.values), pieces in hand at a fraction, a mobility term per square (how many
squares the piece attacks from there on an empty board, against its average), pawns' advance
toward their own promotion zone, passed pawns (no enemy pawn ahead on its file or the files beside:
a bonus growing toward the pawn type's own promotion zone, more in the endgame), isolated and
doubled pawns, and the royal's safety: back rank and pawn shield while the pieces are on, the
centre in the endgame, and its danger from enemy pieces that attack the squares around it (read
from each piece type's attack lines, open on the board as it stands). Every table is built once per
piece type and board from the same compiled rays the referee uses; pawns and attacks are read with
bitmasks of squares (int), one bit per square.
"""

from __future__ import annotations

from dealers_chess.engine.board import Board
from dealers_chess.engine.game import Promotion, TypeTable
from dealers_chess.engine.kernel import EMPTY, line_open
from dealers_chess.engine.measure.values import model_piece_value
from dealers_chess.engine.position import Position
from dealers_chess.engine.search.settings import Evaluation, settings
from dealers_chess.pieces.catalogue import Group

PROMOTION_SCALE = 800  # a promotion gaining this much (a pawn's to a queen in chess) earns the full pawn bonuses


class TypeTerms:
    """One piece type's precomputed terms: square tables per side, its phase weight, whether it is a pawn,
    its value; a passed pawn's bonus per side and square (middlegame, endgame); per side and square the
    squares it attacks on an empty board as a bitmask (`reach`) and its attack lines (`attacks`, the
    compiled type's); its weight as an attacker of a royal."""

    __slots__ = ("squares", "phase", "pawn", "value", "passed", "reach", "attacks", "danger", "becomes")

    def __init__(self, squares: tuple[list[int], list[int]], phase: int, pawn: bool, value: int,
                 passed: tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]] | None = None,
                 reach: tuple[list[int], list[int]] | None = None, attacks: tuple = ((), ()), danger: int = 0,
                 becomes: int | None = None) -> None:
        self.squares, self.phase, self.pawn, self.value = squares, phase, pawn, value
        self.passed, self.reach, self.attacks, self.danger = passed, reach, attacks, danger
        self.becomes = becomes  # a pawn with its own promotion pieces: the best one's value (else the game's)


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
        self.hand_best: dict[tuple[str, ...], list[int]] = {}  # a hand -> its worth with 0, 1, 2 ... pawns
        self.hand_top: dict[tuple[str, ...], int] = {}  # a hand -> its best piece's value
        promotion = types.game.promotion
        self.from_hand = promotion in (Promotion.HAND, Promotion.HAND_KEPT)
        self.list_top = 0  # the best piece of the game's promotion list (none from an empty hand)
        if promotion is Promotion.LIST:
            self.list_top = max((self.value(i) for i in types.game.promotion_pieces if i in types.catalogue),
                                default=0)
        self.full_phase = max(1, self.weights.phase_material * board.files // 8)
        self.royal_mg, self.royal_eg = _royal_tables(board, self.weights)
        self.shield = _shield_squares(board)
        self.spans, self.files_beside, self.file_ahead = _pawn_masks(board)
        self.royal_zone = _royal_zones(board)

    def value(self, piece_id: str) -> int:
        """A piece's value in centipawns on this board (0 for a royal)."""
        found = self.hand_values.get(piece_id)
        if found is None:
            piece = self.types.catalogue.get(piece_id)
            found = 0 if piece.group is Group.ROYAL else round(100 * model_piece_value(piece, self.board))
            self.hand_values[piece_id] = found
        return found

    def _hand_best(self, hand: tuple[str, ...]) -> list[int]:
        """A hand's worth by the number of pawns that may promote: hand_fraction of its best pieces, one
        per pawn (a piece in hand is a promotion to come; with no pawn left it is none)."""
        values = sorted((self.value(i) for i in hand), reverse=True)
        self.hand_top[hand] = values[0] if values else 0
        worth, total = [0], 0
        for v in values:
            total += v
            worth.append(round(self.weights.hand_fraction * total))
        self.hand_best[hand] = worth
        return worth

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
        reach = tuple([_mask(kind.attacks[side][sq]) for sq in range(board.size)] for side in (0, 1))
        if kind.royal:
            return TypeTerms(([0] * board.size, [0] * board.size), 0, False, 0, None, reach, kind.attacks)  # type: ignore[arg-type]
        pawn = piece.group in (Group.PAWN, Group.SPEAR)
        reach_counts = [len(kind.attacks[0][sq]) for sq in range(board.size)]  # squares it attacks on an empty board
        average = sum(reach_counts) / len(reach_counts)
        tables = []
        passed: list[list[tuple[int, int, int]]] = []
        for side in (0, 1):
            table = []
            bonus = []
            for sq in range(board.size):
                white_sq = sq if side == 0 else board.size - 1 - sq  # Black's moves are White's turned 180 degrees
                score = value + round(w.mobility * (reach_counts[white_sq] - average) * (0.5 if pawn else 1.0))
                if pawn:
                    score += _pawn_term(kind, board, side, sq, self.types.pawn_rank, w)
                    advance = _advance(kind, board, side, sq, self.types.pawn_rank)
                    bonus.append((round(w.passed_pawn_base + w.passed_pawn_mg * advance ** 2),
                                  round(w.passed_pawn_base + w.passed_pawn_eg * advance ** 2),
                                  round(w.pawn_advance * advance ** 2) if kind.promotes else 0))
                table.append(score)
            tables.append(table)
            passed.append(bonus)
        danger = 0 if pawn else max(1, min(round(value / 100), 12))
        becomes = max((self.value(i) for i in piece.promotes_to), default=0) if piece.promotes_to else None
        return TypeTerms((tables[0], tables[1]), 0 if pawn else value, pawn, value,
                         (passed[0], passed[1]) if pawn else None, reach, kind.attacks, danger,  # type: ignore[arg-type]
                         becomes)

    def evaluate(self, pos: Position) -> int:
        """The position's worth to the side to move, in centipawns."""
        piece, terms, occ, moved = pos.piece, self.terms, pos.occ, pos.moved
        known = len(terms)
        total, phase = 0, 0
        pawn_bits = [0, 0]  # each side's pawns as a bitmask of squares
        pawns: tuple[list, list] = ([], [])  # each side's (square, terms) of its pawns
        # The squares around each side's royals, and the attacks on them counted as the pieces go by:
        # attackers[s] pieces of the enemy of s reach them, units[s] is their weight times the squares.
        zones = self._zones(pos) if self.weights.royal_danger else (0, 0)
        attackers, units = [0, 0], [0, 0]
        tops = [self.list_top, self.list_top]  # per side, the best piece a promotion brings
        for side in (0, 1):
            part, bits, found = 0, 0, pawns[side]
            target = zones[1 - side]
            for sq in pos.squares[side]:
                t = piece[sq]
                entry = terms[t] if t < known else self.type_terms(t)
                part += entry.squares[side][sq]
                phase += entry.phase
                if entry.pawn:
                    bits |= 1 << sq
                    found.append((sq, entry))
                elif entry.danger and entry.reach[side][sq] & target:  # type: ignore[index]
                    hit = entry.reach[side][sq] & target  # type: ignore[index]
                    squares = _open_targets(hit, entry.attacks[side][sq], occ, not moved[sq])
                    if squares:
                        attackers[1 - side] += 1
                        units[1 - side] += entry.danger * squares
            pawn_bits[side] = bits
            hand = pos.hands[side]
            if hand:
                best = self.hand_best.get(hand)
                if best is None:
                    best = self._hand_best(hand)
                if found:
                    part += best[min(len(found), len(best) - 1)]
                if self.from_hand:
                    tops[side] = self.hand_top[hand]
            total += part if side == 0 else -part
        phase = min(phase, self.full_phase)
        if pawns[0] or pawns[1]:
            if pos.deck is not None:
                tops = [PROMOTION_SCALE + 100, PROMOTION_SCALE + 100]  # a card to come: as in chess
            total += self._pawn_structure(pawns, pawn_bits, phase, tops)
        total += self._royal_safety(pos, phase, attackers, units)
        score = total if pos.turn == 0 else -total
        return score + self.weights.tempo

    def _zones(self, pos: Position) -> tuple[int, int]:
        """Per side, the squares of its royals and around them (a bitmask)."""
        zone = self.royal_zone
        found = [0, 0]
        for side in (0, 1):
            for r in pos.royals[side]:
                found[side] |= zone[r]
        return found[0], found[1]

    def _pawn_structure(self, pawns: tuple[list, list], bits: list[int], phase: int, tops: list[int]) -> int:
        """Pawns' advance toward promotion and passed pawns (weighed from middlegame to endgame), both by what a
        promotion would gain (`tops`: each side's best piece to promote to; the full bonus from a gain of
        PROMOTION_SCALE, as a pawn's to a queen in chess), isolated and doubled pawns; White's view."""
        full, w = self.full_phase, self.weights
        spans, beside, ahead = self.spans, self.files_beside, self.file_ahead
        total = 0
        for side in (0, 1):
            own, enemy = bits[side], bits[1 - side]
            part = 0
            side_spans, side_ahead, top = spans[side], ahead[side], tops[side]
            for sq, entry in pawns[side]:
                passed = entry.passed
                if passed is not None:
                    gain = (top if entry.becomes is None else entry.becomes) - entry.value
                    if gain > 0:
                        mg, eg, advance = passed[side][sq]
                        if not side_spans[sq] & enemy:
                            advance += (mg * phase + eg * (full - phase)) // full
                        part += advance if gain >= PROMOTION_SCALE else advance * gain // PROMOTION_SCALE
                if not beside[sq] & own:
                    part -= w.isolated_pawn
                if side_ahead[sq] & own:
                    part -= w.doubled_pawn
            total += part if side == 0 else -part
        return total

    def _royal_safety(self, pos: Position, phase: int, attackers: list[int], units: list[int]) -> int:
        """Back rank and pawn shield weighed by how many pieces remain, the centre as they go; and the
        danger from enemy pieces that attack the squares around the royals (two attackers or more):
        their weights times the squares they attack, squared."""
        full, piece, terms = self.full_phase, pos.piece, self.terms
        w = self.weights
        shield_weight = w.royal_shield
        total = 0
        for side in (0, 1):
            sign = 1 if side == 0 else -1
            mg_table, eg_table, shields = self.royal_mg[side], self.royal_eg[side], self.shield[side]
            danger = 0
            if attackers[side] >= 2:
                danger = min(units[side] * units[side] * w.royal_danger // 100, w.royal_danger_cap)
            for r in pos.royals[side]:
                mg = mg_table[r] - danger
                if shield_weight:
                    for sq in shields[r]:
                        t = piece[sq]
                        if t >= 0 and pos.occ[sq] == side and t < len(terms) and terms[t].pawn:
                            mg += shield_weight
                total += sign * (mg * phase + eg_table[r] * (full - phase)) // full
        return total


def _open_targets(hit: int, table: dict, occ: list[int], unmoved: bool) -> int:
    """How many of the squares in `hit` (a bitmask) the attack lines `table` (target -> lines) reach open."""
    squares = 0
    while hit:  # each square the piece reaches on an empty board
        low = hit & -hit
        hit ^= low
        for line in table[low.bit_length() - 1]:
            before, ray = line
            if ray is None:  # a plain line, open when the squares before the target are empty (inlined)
                for b in before:
                    if occ[b] != EMPTY:
                        break
                else:
                    squares += 1
                    break
            elif line_open(line, occ, unmoved):
                squares += 1
                break
    return squares


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


def _mask(squares) -> int:
    """A bitmask of squares (an int with bit sq set for each)."""
    bits = 0
    for sq in squares:
        bits |= 1 << sq
    return bits


def _advance(kind, board: Board, side: int, sq: int, pawn_rank: int) -> float:
    """How far (0 to 1) a pawn on sq has come from its start rank toward its own promotion zone."""
    rank = board.rank_of(sq)
    ahead = rank if side == 0 else board.ranks - 1 - rank
    zone = kind.zone[side] if kind.promotes else None
    zone_ranks = [board.rank_of(z) if side == 0 else board.ranks - 1 - board.rank_of(z)
                  for z in range(board.size) if zone[z]] if zone is not None else []
    target = min(zone_ranks) if zone_ranks else board.ranks - 1
    way = max(1, target - pawn_rank)
    return min(max(ahead - pawn_rank, 0), way) / way


def _pawn_masks(board: Board) -> tuple[tuple[list[int], list[int]], list[int], tuple[list[int], list[int]]]:
    """Per side and square: the squares ahead on its file and the files beside (a passed pawn's span);
    per square the files beside (an isolated pawn has no own pawn there); per side and square the
    squares ahead on its file (a doubled pawn has an own pawn there)."""
    spans: tuple[list[int], list[int]] = ([], [])
    ahead: tuple[list[int], list[int]] = ([], [])
    beside = []
    for sq in range(board.size):
        file, rank = board.file_of(sq), board.rank_of(sq)
        beside.append(_mask(board.square(f, r) for f in (file - 1, file + 1) if 0 <= f < board.files
                            for r in range(board.ranks)))
        for side in (0, 1):
            forward = range(rank + 1, board.ranks) if side == 0 else range(0, rank)
            spans[side].append(_mask(board.square(f, r) for f in (file - 1, file, file + 1)
                                     if 0 <= f < board.files for r in forward))
            ahead[side].append(_mask(board.square(file, r) for r in forward))
    return spans, beside, ahead


def _royal_zones(board: Board) -> list[int]:
    """Per square: a royal there and the squares around it, as a bitmask."""
    zones = []
    for sq in range(board.size):
        x, y = board.file_of(sq), board.rank_of(sq)
        zones.append(_mask(board.square(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                           if board.on_board(x + dx, y + dy)))
    return zones


def _pawn_term(kind, board: Board, side: int, sq: int, pawn_rank: int, w: Evaluation) -> int:
    """A pawn on a central file, per step forward (its advance toward promotion is weighed in evaluate,
    by what a promotion would bring)."""
    rank, file = board.rank_of(sq), board.file_of(sq)
    ahead = rank if side == 0 else board.ranks - 1 - rank  # ranks from its own back rank
    start = pawn_rank
    score = 0
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
