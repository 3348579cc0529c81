"""The search: iterative deepening negamax with principal-variation search over the referee's moves.

Every move comes from engine.rules.legal_moves (and battle_moves for Spinal Tap), every change of
the position from Position.push/pop, so each rule of each game is searched as the referee plays it.
On top: a transposition table, quiescence on captures and promotions, null move where it is safe,
late-move reductions, futility pruning, move ordering (hash move, MVV-LVA, killers, history) and a
clock read every few nodes. docs/search.md describes it.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from dealers_chess.engine.attacks import in_check, is_attacked
from dealers_chess.engine.kernel import EMPTY
from dealers_chess.engine.move import Kind, Move
from dealers_chess.engine.position import Position
from dealers_chess.engine.rules import battle_moves, legal_moves, pseudo_moves
from dealers_chess.engine.search.chance import deck_cards, draws_from_deck, expected_best_of_three, one_per_draw
from dealers_chess.engine.search.evaluation import Evaluator, TypeTerms, evaluator_for
from dealers_chess.engine.search.settings import settings
from dealers_chess.engine.search.table import EXACT, LOWER, UPPER, TranspositionTable, table_key

MATE = 100_000
MATE_BOUND = MATE - 1_000  # scores beyond this are mates, by distance
INFINITE = MATE + 1
MAX_PLY = 96
NORMAL, EN_PASSANT, BATTLE = Kind.NORMAL, Kind.EN_PASSANT, Kind.BATTLE


@dataclass(frozen=True)
class Limits:
    """What bounds one search; any combination, None = no limit of that kind."""

    seconds: float | None = None  # time for this move (hard: the search returns within it and a few ms)
    depth: int | None = None
    nodes: int | None = None
    level: int | None = None  # 1..8 strength; None or 8 = full strength


@dataclass(frozen=True)
class Info:
    """One completed iteration: its depth, score (centipawns or moves to mate), effort and line."""

    depth: int
    score_cp: int | None
    mate_in: int | None  # > 0: the side to move mates in N moves; < 0: it is mated in -N
    nodes: int
    nps: int
    seconds: float
    pv: tuple[Move, ...]


@dataclass(frozen=True)
class SearchResult:
    move: Move | None  # None only when the side to move has no legal move
    info: Info  # the last completed iteration


class _Stop(Exception):
    """The clock, the node budget or the caller's stop flag ended the search."""


class Searcher:
    """The computer opponent of one game: keeps its transposition table between moves."""

    def __init__(self, hash_mb: int = 16) -> None:
        self.config = settings()
        self.table = TranspositionTable(max(1, hash_mb) * self.config.search.hash_entries_per_mb)
        self.history: dict[tuple[int, int, int], int] = {}
        self.eval_cache: dict[tuple, int] = {}
        self.evaluator: Evaluator  # the evaluation of the game searched, set by each search
        self.eval_terms: dict[str, TypeTerms] | None = None  # the piece terms eval_cache was filled with
        self.rng = random.Random()

    def new_game(self) -> None:
        """Forget everything learnt in the game before."""
        self.table.clear()
        self.history.clear()
        self.eval_cache.clear()

    def prepare(self, pos: Position, deadline: float | None = None) -> None:
        """Build the evaluation's tables for the pieces of this game: the board's, the hands' and the deck's.

        A search does it first, inside its time; a big deal's first search may spend a second on it
        (piece values come from engine.measure's model), so an interface can call this before its clock runs.
        """
        evaluator = evaluator_for(pos.types)
        ids = set(pos.hands[0]) | set(pos.hands[1]) | set(deck_cards(pos)) | set(pos.game.promotion_pieces)
        for t in {pos.piece[sq] for side in (0, 1) for sq in pos.squares[side]}:
            if deadline is not None and time.perf_counter() >= deadline:
                raise _Stop
            evaluator.type_terms(t)
            ids.update(pos.types.types[t].piece.promotes_to)
        for piece_id in sorted(ids):
            if deadline is not None and time.perf_counter() >= deadline:
                raise _Stop
            if piece_id in pos.catalogue:
                evaluator.value(piece_id)

    # --- the public search ------------------------------------------------------------------
    def search(
        self, pos: Position, limits: Limits, on_info: Callable[[Info], None] | None = None,
        stop: threading.Event | None = None,
    ) -> SearchResult:
        """The best move found within the limits; `pos` is left exactly as it was."""
        tuning = self.config.search
        self.started = time.perf_counter()
        self.pos, self.stop, self.limits = pos, stop, limits
        self.deadline = None if limits.seconds is None else self.started + max(0.0, limits.seconds)
        self.node_limit = limits.nodes
        self.mask = tuning.check_every_nodes
        self.nodes = 0
        evaluator = evaluator_for(pos.types)
        if self.eval_terms is not evaluator.shared:
            self.eval_cache.clear()  # another game, board or catalogue: other terms
        self.evaluator, self.eval_terms = evaluator, evaluator.shared

        self.partial_move: Move | None = None
        self.deck = pos.deck is not None  # the big-deck option: promotions draw hidden cards (engine.search.chance)
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.pv: list[list[Move]] = [[] for _ in range(MAX_PLY + 2)]
        self.history = {k: v // 4 for k, v in self.history.items() if v >= 4}
        self.battles = bool(pos.game.battle_move)
        try:
            self.prepare(pos, self.deadline)
        except _Stop:  # no time left to read the pieces' values: the referee's first move, unsearched
            moves = legal_moves(pos) or list(battle_moves(pos))[:1]
            unsearched = Info(0, None, None, 0, 0, time.perf_counter() - self.started, tuple(moves[:1]))
            return SearchResult(moves[0] if moves else None, unsearched)
        self.promotion_gain = self._promotion_gain(pos)

        level = limits.level if limits.level is not None and 1 <= limits.level < 8 else None
        noise = self.config.level[level - 1].noise if level else 0
        max_depth = min(limits.depth or MAX_PLY - 4, self.config.level[level - 1].depth if level else MAX_PLY - 4)
        max_depth = max(1, min(max_depth, MAX_PLY - 4))
        base = len(pos.stack)

        root = self._root_moves()
        if not root:
            checked = in_check(pos, pos.turn) or not pos.royals[pos.turn]
            return SearchResult(None, Info(0, None if checked else 0, 0 if checked else None, 0, 0, 0.0, ()))
        if len(root) == 1 and limits.depth is None:
            max_depth = 1  # nothing to choose

        best_move = root[0]
        info: Info | None = None
        scores: dict[Move, int] = {}
        previous = 0
        try:
            for depth in range(1, max_depth + 1):
                score, move, scores = self._search_root(root, depth, previous, noise, scores)
                previous = score
                best_move = move
                root.sort(key=lambda m: scores.get(m, -INFINITE), reverse=True)
                root.remove(move)
                root.insert(0, move)
                info = self._info(depth, score, self.root_pv)
                if on_info is not None:
                    on_info(info)
                if abs(score) > MATE_BOUND and depth >= MATE - abs(score):
                    break  # a mate seen to its end
                if (limits.seconds is not None
                        and time.perf_counter() - self.started > tuning.soft_time_fraction * limits.seconds):
                    break
                if self.node_limit is not None and self.nodes >= self.node_limit:
                    break
        except _Stop:
            while len(pos.stack) > base:
                pos.pop()
            if self.partial_move is not None and info is not None:
                best_move = self.partial_move
        if info is None:
            info = self._info(0, self.evaluator.evaluate(pos), [best_move])
        return SearchResult(self._with_card(best_move), info)

    # --- root ------------------------------------------------------------------------------
    def _root_moves(self) -> list[Move]:
        pos = self.pos
        moves = one_per_draw(pos, legal_moves(pos))
        if self.battles and pos.turn not in pos.battle_used:
            limit = self.config.search.max_battle_moves
            for i, m in enumerate(battle_moves(pos)):
                if i >= limit:
                    break
                moves.append(m)
        return self._ordered(moves, None, 0)

    def _search_root(self, moves: list[Move], depth: int, previous: int, noise: int, scores: dict):
        """One iteration over the root moves; (score, best move, score per move)."""
        if noise or depth < 4:
            return self._root_window(moves, depth, -INFINITE, INFINITE, noise)
        window = 40
        alpha, beta = previous - window, previous + window
        while True:
            score, move, found = self._root_window(moves, depth, alpha, beta, 0)
            if alpha < score < beta:
                return score, move, found
            if score <= alpha:
                alpha = max(-INFINITE, alpha - window * 4)
            if score >= beta:
                beta = min(INFINITE, beta + window * 4)
            window *= 4
            if window > 1000:
                alpha, beta = -INFINITE, INFINITE

    def _root_window(self, moves: list[Move], depth: int, alpha: int, beta: int, noise: int):
        """Root moves searched by PVS in (alpha, beta); with noise, each in full and judged with random error."""
        self.partial_move = None
        best, best_move, best_noisy, best_pv = -INFINITE, moves[0], -INFINITE, [moves[0]]
        found: dict[Move, int] = {}
        for i, m in enumerate(moves):
            if self.deck and draws_from_deck(self.pos, m):
                score = self._drawn_score(m)
                found[m] = score
                noisy = score + (self.rng.randint(-noise, noise) if noise else 0)
                if noisy > best_noisy:
                    best_noisy, best, best_move, best_pv = noisy, score, m, [m]
                    if score > alpha and not noise:

                        alpha = score
                        self.partial_move = m
                if score >= beta and not noise:
                    break
                continue
            self._push(m)
            try:
                if noise:
                    score = -self._node(depth - 1, -INFINITE, INFINITE, 1, True)
                elif i == 0:
                    score = -self._node(depth - 1, -beta, -alpha, 1, True)
                else:
                    score = -self._node(depth - 1, -alpha - 1, -alpha, 1, True)
                    if alpha < score < beta:
                        score = -self._node(depth - 1, -beta, -alpha, 1, True)
            finally:
                self._pop(m)
            found[m] = score
            noisy = score + (self.rng.randint(-noise, noise) if noise else 0)
            if noisy > best_noisy:
                best_noisy, best, best_move, best_pv = noisy, score, m, [m] + self.pv[1]
                if score > alpha and not noise:
                    alpha = score
                    self.partial_move = m
            if score >= beta and not noise:
                break
        self.root_pv = best_pv
        return best, best_move, found

    # --- the tree --------------------------------------------------------------------------
    def _node(self, depth: int, alpha: int, beta: int, ply: int, null_ok: bool) -> int:
        self.nodes += 1
        if self.nodes % self.mask == 0:
            self._check_clock()
        pos = self.pos
        self.pv[ply] = []
        if pos.halfmove >= 100 or self._repeated(pos):
            return 0
        if ply >= MAX_PLY:
            return self._eval()
        pv_node = beta - alpha > 1
        key = table_key(pos)
        entry = self.table.get(key)
        tt_move = None
        if entry is not None:
            tt_depth, bound, tt_score, tt_move = entry
            if tt_depth >= depth and not pv_node:
                stored = _from_table(tt_score, ply)
                if bound == EXACT or (bound == LOWER and stored >= beta) or (bound == UPPER and stored <= alpha):
                    return stored
        checked = in_check(pos, pos.turn)
        if checked:
            depth += 1
        if depth <= 0:
            return self._quiesce(alpha, beta, ply)
        # Without a Dazzler or a Hyena that must move, a move's legality is its mover's royal safety once
        # made (as rules.legal_moves decides it), so it is checked only for the moves searched.
        lazy = not (pos.must_move or pos.types.dazzlers)
        moves = pseudo_moves(pos, pos.turn) if lazy else legal_moves(pos)
        if not moves:
            return self._no_move(checked, ply)
        if self.deck:
            moves = one_per_draw(pos, moves)
        tuning = self.config.search
        static = None
        if not checked and not pv_node:
            static = self._eval()
            if depth <= 3 and static - tuning.reverse_futility_margin * depth >= beta and abs(beta) < MATE_BOUND:
                return static
            if (null_ok and depth >= tuning.null_move_min_depth and static >= beta and abs(beta) < MATE_BOUND
                    and self._null_safe(pos)):
                reduction = tuning.null_move_reduction + (depth >= 6)
                null_score = -self._null(depth - 1 - reduction, -beta, -beta + 1, ply + 1)
                if null_score >= beta:
                    return beta
        futile = (static is not None and depth <= 2
                  and static + tuning.futility_margin * depth <= alpha and abs(alpha) < MATE_BOUND)
        ordered = self._ordered(moves, tt_move, ply)
        occ, killers = pos.occ, self.killers[ply]
        best, best_move, bound = -INFINITE, None, UPPER
        mover, searched, skipped = pos.turn, 0, False
        for m in ordered:
            frm, to, kind, promotion, _, _, _ = m
            quiet = promotion is None and (
                kind == BATTLE or (kind != EN_PASSANT and (kind != NORMAL or occ[to] == EMPTY)))
            if futile and quiet and searched and best > -MATE_BOUND:
                skipped = True
                continue
            self._push(m)
            try:
                if lazy and (not pos.royals[mover] or in_check(pos, mover)):
                    continue  # not legal: it leaves the mover's royal attacked
                if self.deck and draws_from_deck(pos, m):
                    score = None  # scored below, from the position before the card is seen
                else:
                    score = self._child(m, searched, depth, alpha, beta, ply, quiet, checked, killers)
            finally:
                self._pop(m)
            if score is None:
                score = self._drawn_score(m)
            searched += 1
            if score > best:
                best, best_move = score, m
                if score > alpha:
                    alpha, bound = score, EXACT
                    self.pv[ply] = [m] + self.pv[ply + 1]
                    if score >= beta:
                        bound = LOWER
                        if quiet:
                            if killers[0] != m:
                                killers[1], killers[0] = killers[0], m
                            hk = (pos.turn, frm, to)
                            self.history[hk] = self.history.get(hk, 0) + depth * depth
                        break
        if not searched:
            if skipped and legal_moves(pos):
                return alpha  # only futile moves were legal
            return self._no_move(checked, ply)
        self.table.put(key, depth, bound, _to_table(best, ply), best_move)
        return best

    def _no_move(self, checked: bool, ply: int) -> int:
        """The score where the side to move has no legal move but perhaps a battle move (searched shallowly)."""
        pos = self.pos
        if self.battles and pos.turn not in pos.battle_used:
            battles = self._some_battles()
            if battles:
                best = -INFINITE
                for m in battles:
                    self._push(m)
                    try:
                        best = max(best, -self._quiesce(-INFINITE, INFINITE, ply + 1))
                    finally:
                        self._pop(m)
                return best
        return -MATE + ply if checked or not pos.royals[pos.turn] else 0


    def _child(self, m: Move, i: int, depth: int, alpha: int, beta: int, ply: int, quiet: bool, checked: bool,
               killers: list) -> int:
        """The score of a move just made: the first in full, the others by a null window, late quiet ones reduced."""
        if i == 0:
            return -self._node(depth - 1, -beta, -alpha, ply + 1, True)
        tuning = self.config.search
        reduction = 0
        if (quiet and depth >= tuning.lmr_min_depth and i >= tuning.lmr_min_moves and not checked
                and m != killers[0] and m != killers[1] and not in_check(self.pos, self.pos.turn)):
            reduction = 1 + (i >= 8 and depth >= 5)
        score = -self._node(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, True)
        if score > alpha and (reduction or score < beta):
            score = -self._node(depth - 1, -beta, -alpha, ply + 1, True)
        return score

    def _quiesce(self, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes % self.mask == 0:
            self._check_clock()
        pos = self.pos
        self.pv[ply] = []
        stand = self._eval()
        if stand >= beta or ply >= MAX_PLY:
            return stand
        margin = self.config.search.delta_margin
        if stand + self._best_victim(pos) + margin < alpha:
            return stand  # no capture can bring the score up to alpha
        lazy = not (pos.must_move or pos.types.dazzlers)  # as in _node
        moves = pseudo_moves(pos, pos.turn) if lazy else legal_moves(pos)
        if stand > alpha:
            alpha = stand
        occ, piece, terms = pos.occ, pos.piece, self.evaluator.type_terms
        scored = []
        for m in moves:
            frm, to, kind, promotion, extra, _, _ = m
            if kind == EN_PASSANT:
                gain = terms(piece[extra]).value
            elif kind == NORMAL and occ[to] != EMPTY:
                gain = terms(piece[to]).value
            elif promotion is not None:
                gain = 0
            else:
                continue
            if promotion is not None:
                gain += self._promotion_value(m, promotion) - terms(piece[frm]).value
            if stand + gain + margin < alpha:
                continue
            if promotion is None and terms(piece[frm]).value > gain + 50 and is_attacked(pos, to, 1 - pos.turn):
                continue  # a capture by a bigger piece of a defended one: it loses material
            scored.append((gain * 16 - terms(piece[frm]).value // 8, m))
        if not scored:
            return stand
        if self.deck:
            keep = set(one_per_draw(pos, [m for _, m in scored]))
            scored = [s for s in scored if s[1] in keep]
        scored.sort(key=lambda s: s[0], reverse=True)
        best = stand
        mover = pos.turn
        for _, m in scored:
            self._push(m)
            try:
                if lazy and (not pos.royals[mover] or in_check(pos, mover)):
                    continue  # not legal: it leaves the mover's royal attacked
                if self.deck and draws_from_deck(pos, m):
                    score = None  # scored below, from the position before the card is seen
                else:
                    score = -self._quiesce(-beta, -alpha, ply + 1)
            finally:
                self._pop(m)
            if score is None:
                score = self._drawn_score(m)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best

    # --- helpers ---------------------------------------------------------------------------
    def _ordered(self, moves: list[Move], tt_move, ply: int) -> list[Move]:
        """Hash move, then captures by MVV-LVA, promotions, killers, and the rest by history."""
        pos = self.pos
        occ, piece, terms = pos.occ, pos.piece, self.evaluator.type_terms
        killers = self.killers[ply] if ply < len(self.killers) else (None, None)
        history, turn = self.history, pos.turn
        keyed = []
        for m in moves:
            frm, to, kind, promotion, extra, _, _ = m
            if m == tt_move:
                score = 1 << 40
            elif kind == EN_PASSANT or (kind == NORMAL and occ[to] != EMPTY):
                victim = piece[extra] if kind == EN_PASSANT else piece[to]
                score = (1 << 30) + terms(victim).value * 64 - terms(piece[frm]).value // 4
                if promotion is not None:
                    score += self._promotion_value(m, promotion) * 64
            elif promotion is not None:
                score = (1 << 29) + self._promotion_value(m, promotion)
            elif m == killers[0]:
                score = 1 << 28
            elif m == killers[1]:
                score = (1 << 28) - 1
            else:
                score = history.get((turn, frm, to), 0)
            keyed.append((score, m))
        keyed.sort(key=lambda k: k[0], reverse=True)
        return [m for _, m in keyed]

    def _best_victim(self, pos: Position) -> int:
        """The value of the enemy's biggest piece on the board, plus a pawn's promotion as a bound."""
        piece, terms = pos.piece, self.evaluator.type_terms
        best = max((terms(piece[sq]).value for sq in pos.squares[1 - pos.turn]), default=0)
        return best + self.promotion_gain

    def _some_battles(self) -> list[Move]:
        limit = self.config.search.max_battle_moves
        found = []
        for m in battle_moves(self.pos):
            found.append(m)
            if len(found) >= limit:
                break
        return found

    def _promotion_gain(self, pos: Position) -> int:
        """The most a promotion can add: the biggest piece any pawn may become (hands, lists, the deck)."""
        ev = self.evaluator
        ids = set(pos.game.promotion_pieces) | set(pos.hands[0]) | set(pos.hands[1]) | set(deck_cards(pos))
        for t in range(len(pos.types.types)):
            ids.update(pos.types.types[t].piece.promotes_to)
        return max((ev.value(i) for i in ids if i in pos.catalogue), default=0)

    def _eval(self) -> int:
        """The static evaluation, remembered by the referee's key of the position (placement, side, hands)."""
        pos = self.pos
        key = pos.keys[-1] if pos.keys else pos.key()
        cache = self.eval_cache
        score = cache.get(key)
        if score is None:
            if len(cache) >= self.table.capacity:  # as many as the table holds positions
                cache.clear()
            score = cache[key] = self.evaluator.evaluate(pos)
        return score



    def _push(self, m: Move) -> None:
        self.pos.push(m)

    def _pop(self, m: Move) -> None:
        self.pos.pop()

    def _promotion_value(self, m: Move, promotion: str) -> int:
        """What `promotion`, the piece id `m` promotes to, is worth; a card from the hidden stack at its expectation."""
        if self.deck and draws_from_deck(self.pos, m):
            return self._expected_card()
        return self.evaluator.value(promotion)

    def _expected_card(self) -> int:
        ev = self.evaluator
        expected = expected_best_of_three(tuple(ev.value(c) for c in deck_cards(self.pos)))
        return round(expected * ev.weights.deck_card_factor)

    def _drawn_score(self, m: Move) -> int:
        """A move that draws from the hidden stack, scored without playing it (playing it would show the
        cards): the evaluation now, plus what it captures, plus the expected card, less the pawn."""
        pos = self.pos
        terms = self.evaluator.type_terms
        victim = pos.piece[m.extra] if m.kind == EN_PASSANT else (pos.piece[m.to] if m.kind == NORMAL else -1)
        gain = terms(victim).value if victim >= 0 else 0
        return self._eval() + gain + self._expected_card() - terms(pos.piece[m.frm]).value

    def _null_safe(self, pos: Position) -> bool:
        """A null move only where passing cannot be the point: not in special turn states, with a piece
        (not only pawns and royals) of the side to move on the board."""
        if pos.dazzled or pos.shielded or pos.must_move:
            return False
        piece, terms = pos.piece, self.evaluator.type_terms
        return any(terms(piece[sq]).phase > 0 for sq in pos.squares[pos.turn])

    def _null(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Search the position with the other side to move (the side to move passes)."""
        pos = self.pos
        saved = (pos.ep, pos.ep_victim, pos.turn)
        pos.ep, pos.ep_victim, pos.turn = (), -1, 1 - pos.turn
        pos.keys.append(pos.key())
        pos.passants.append(((), -1))
        try:
            return self._node(depth, alpha, beta, ply, False)
        finally:
            pos.keys.pop()
            pos.passants.pop()
            pos.ep, pos.ep_victim, pos.turn = saved

    @staticmethod
    def _repeated(pos: Position) -> bool:
        """Whether this position occurred before within the moves since the last capture or pawn move."""
        keys = pos.keys
        back = min(pos.halfmove, len(keys) - 1)
        if back < 4:
            return False
        current = keys[-1]
        last = len(keys) - 1
        for i in range(last - 4, last - back - 1, -1):
            if keys[i] == current:
                return True
        return False

    def _check_clock(self) -> None:
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _Stop
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _Stop
        if self.stop is not None and self.stop.is_set():
            raise _Stop

    def _info(self, depth: int, score: int, pv: list[Move]) -> Info:
        seconds = time.perf_counter() - self.started
        mate_in = None
        if score > MATE_BOUND:
            mate_in = (MATE - score + 1) // 2
        elif score < -MATE_BOUND:
            mate_in = -((MATE + score) // 2)
        return Info(depth, None if mate_in is not None else score, mate_in, self.nodes,
                    int(self.nodes / seconds) if seconds > 0 else 0, seconds, tuple(pv))

    def _with_card(self, move: Move) -> Move:
        """At the root a drawing pawn move takes the best of the three cards actually drawn."""
        pos = self.pos
        if not draws_from_deck(pos, move):
            return move
        value = self.evaluator.value
        same = {m: m.promotion for m in legal_moves(pos)
                if (m.frm, m.to, m.kind, m.extra) == (move.frm, move.to, move.kind, move.extra) and m.promotion}
        return max(same, key=lambda m: value(same[m]), default=move)


def _to_table(score: int, ply: int) -> int:
    """Mate scores are stored as distance from this node, read back as distance from the root."""
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score
