"""The search: iterative deepening negamax with principal-variation search over the referee's moves.

Every move comes from engine.rules (legal_moves, pseudo_moves, capture_moves, battle_moves), every
change of the position from Position.push/pop, so each rule of each game is searched as the referee
plays it. On top: a transposition table of two-entry buckets (probed in quiescence too), quiescence
on captures and promotions with check evasions, static exchange evaluation (engine.search.exchange)
to order and prune captures, mate-distance pruning, null move where it is safe, logarithmic late-move
reductions, late-move and futility pruning, move ordering (table move, good captures, killers,
countermoves, history, losing captures last) and a clock read every few nodes. docs/search.md
describes it.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from dealers_chess.engine.attacks import check_info, in_check
from dealers_chess.engine.kernel import EMPTY
from dealers_chess.engine.move import Kind, Move
from dealers_chess.engine.position import Position
from dealers_chess.engine.rules import battle_moves, capture_moves, legal_moves, pseudo_moves, safety_sets
from dealers_chess.engine.search.chance import deck_cards, draws_from_deck, expected_best_of_three, one_per_draw
from dealers_chess.engine.search.evaluation import Evaluator, TypeTerms, evaluator_for
from dealers_chess.engine.search.exchange import see
from dealers_chess.engine.search.settings import settings
from dealers_chess.engine.search.table import EXACT, LOWER, QUIESCENCE_DEPTH, UPPER, TranspositionTable

MATE = 100_000
MATE_BOUND = MATE - 1_000  # scores beyond this are mates, by distance
INFINITE = MATE + 1
MAX_PLY = 96
NORMAL, EN_PASSANT, BATTLE = Kind.NORMAL, Kind.EN_PASSANT, Kind.BATTLE
EVAL_SLOTS = 1 << 16  # the static evaluations remembered (direct-mapped by the position's key)

# Move ordering bands (search._ordered): the table move, then captures that do not lose material and
# promotions, killers and the countermove, quiet moves by history, and captures that lose material last.
TT_BAND = 1 << 40
CAPTURE_BAND = 1 << 30
KILLER_BAND = 1 << 28
HISTORY_LIMIT = 1 << 20  # history scores stay within +- this, under the killers
BAD_CAPTURE_BAND = -(1 << 30)  # plus the capture's exchange value (negative)


@dataclass(frozen=True)
class Limits:
    """What bounds one search; any combination, None = no limit of that kind."""

    seconds: float | None = None  # the most time for this move (hard: the search returns within it and a few ms)
    depth: int | None = None
    nodes: int | None = None
    level: int | None = None  # 1..8 strength; None or 8 = full strength
    target: float | None = None  # on a clock: the time it aims at (no iteration starts late); None: all of `seconds`
    mate: int | None = None  # stop once a mate in at most this many moves is found
    multipv: int = 1  # how many best lines to find and report
    root_moves: tuple[Move, ...] = ()  # search only these moves (UCI searchmoves); empty: all


@dataclass(frozen=True)
class Info:
    """One iteration (or the part of one a stop cut short): depth, score (centipawns or moves to mate),
    effort and line; with several lines (MultiPV) one Info per line, `multipv` its rank."""

    depth: int
    score_cp: int | None
    mate_in: int | None  # > 0: the side to move mates in N moves; < 0: it is mated in -N
    nodes: int
    nps: int
    seconds: float
    pv: tuple[Move, ...]
    seldepth: int = 0  # the deepest ply reached
    multipv: int = 1
    hashfull: int = 0  # per mille of the table in use


@dataclass(frozen=True)
class SearchResult:
    move: Move | None  # None only when the side to move has no legal move
    info: Info  # the last iteration (best line)

    @property
    def ponder(self) -> Move | None:
        """The reply the search expects (UCI `bestmove ... ponder ...`), if its line has one."""
        return self.info.pv[1] if len(self.info.pv) > 1 and self.info.pv[0] == self.move else None


class _Stop(Exception):
    """The clock, the node budget or the caller's stop flag ended the search."""


@dataclass
class _Line:
    """A root move's result in the iteration under way."""

    score: int
    move: Move
    pv: tuple[Move, ...]


class Searcher:
    """The computer opponent of one game: keeps its transposition table between moves."""

    def __init__(self, hash_mb: int = 16) -> None:
        self.config = settings()
        self.table = TranspositionTable(max(1, hash_mb) * self.config.search.hash_entries_per_mb)
        self.history: dict[tuple[int, int, int], int] = {}
        self.counters: dict[tuple[int, int], Move] = {}
        self.eval_slots: list[tuple[int, int] | None] = [None] * EVAL_SLOTS
        self.evaluator: Evaluator  # the evaluation of the game searched, set by each search
        self.eval_terms: dict[str, TypeTerms] | None = None  # the piece terms eval_slots were filled with
        self.rng = random.Random()
        tuning = self.config.search
        # Late-move reductions by depth and move number: lmr_base + ln(depth) ln(number) / lmr_divisor plies.
        self.reductions = [[0] * 64 for _ in range(MAX_PLY + 2)]
        for depth in range(1, MAX_PLY + 2):
            for number in range(1, 64):
                self.reductions[depth][number] = int(
                    tuning.lmr_base + math.log(depth) * math.log(number) / tuning.lmr_divisor)

    def new_game(self) -> None:
        """Forget everything learnt in the game before."""
        self.table.clear()
        self.history.clear()
        self.counters.clear()
        self.eval_slots = [None] * EVAL_SLOTS

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
        stop: threading.Event | None = None, clock_starts: threading.Event | None = None,
        on_root_move: Callable[[int, Move, int], None] | None = None,
    ) -> SearchResult:
        """The best move found within the limits; `pos` is left exactly as it was.

        With `clock_starts` (pondering) the time limits count only from when that event is set
        (UCI `ponderhit`); until then the search goes on as if it had no time limit. `on_root_move`
        hears (depth, move, number) as each root move is started once an iteration has run a second.
        """
        tuning = self.config.search
        self.started = time.perf_counter()
        self.pos, self.stop, self.limits = pos, stop, limits
        self.clock_starts = clock_starts
        self.pondering = clock_starts is not None and not clock_starts.is_set()
        self._start_clock(self.started)
        self.node_limit = limits.nodes
        self.mask = tuning.check_every_nodes
        self.nodes = 0
        self.seldepth = 0
        self.on_root_move = on_root_move
        self.table.new_search()
        evaluator = evaluator_for(pos.types)
        if self.eval_terms is not evaluator.shared:
            self.eval_slots = [None] * EVAL_SLOTS  # another game, board or catalogue: other terms
        self.evaluator, self.eval_terms = evaluator, evaluator.shared

        self.deck = pos.deck is not None  # the big-deck option: promotions draw hidden cards (engine.search.chance)
        self.killers: list[list[Move | None]] = [[None, None] for _ in range(MAX_PLY + 2)]
        self.pv: list[tuple[Move, ...]] = [() for _ in range(MAX_PLY + 2)]
        self.static_at = [0] * (MAX_PLY + 2)
        self.history = {k: v // 4 for k, v in self.history.items() if abs(v) >= 4}
        self.battles = bool(pos.game.battle_move)
        try:
            self.prepare(pos, None if self.pondering else self.deadline)
        except _Stop:  # no time left to read the pieces' values: the referee's first move, unsearched
            moves = legal_moves(pos) or list(battle_moves(pos))[:1]
            unsearched = Info(0, None, None, 0, 0, time.perf_counter() - self.started, tuple(moves[:1]))
            return SearchResult(moves[0] if moves else None, unsearched)
        self.promotion_gain = self._promotion_gain(pos)
        self.values = self._type_value
        # The most one capture can win in this game (the biggest piece of any type known, and a promotion).
        self.biggest_gain = max((self._type_value(t) for t in range(len(pos.types.types))), default=0) \
            + self.promotion_gain

        level = limits.level if limits.level is not None and 1 <= limits.level < 8 else None
        self.level = self.config.level[level - 1] if level else None
        max_depth = min(limits.depth or MAX_PLY - 4, self.level.depth if self.level else MAX_PLY - 4)
        if limits.mate is not None:
            max_depth = min(max_depth, 2 * limits.mate + 1)
        max_depth = max(1, min(max_depth, MAX_PLY - 4))
        base = len(pos.stack)

        root = self._root_moves()
        if not root:
            checked = in_check(pos, pos.turn) or not pos.royals[pos.turn]
            return SearchResult(None, Info(0, None if checked else 0, 0 if checked else None, 0, 0, 0.0, ()))
        if len(root) == 1 and limits.depth is None and limits.mate is None:
            max_depth = 1  # nothing to choose
        self.multipv = max(1, min(limits.multipv, len(root)))
        self.judged: dict[Move, tuple[bool, int]] = {}  # a level's misjudgement of each root move, fixed per search

        best = _Line(-INFINITE, root[0], (root[0],))
        info: Info | None = None
        depth = 0
        previous: int | None = None
        changes = 0.0  # best-move changes, halved each iteration (time: instability)
        iteration_started = self.started
        self.partial: _Line | None = None  # the best line of the iteration under way, once one is searched in full
        try:
            for depth in range(1, max_depth + 1):
                iteration_started = time.perf_counter()
                self.partial = None
                lines = self._search_root(root, depth, previous)
                if lines[0].move != best.move and depth > 1:
                    changes += 1
                fell = previous is not None and lines[0].score < previous - 25
                best = lines[0]
                previous = best.score
                order = {line.move: i for i, line in enumerate(lines)}
                root.sort(key=lambda m: order.get(m, len(order)))
                info = self._report(depth, lines, on_info)
                if best.score > MATE_BOUND and depth >= MATE - best.score:
                    if limits.mate is None or (MATE - best.score + 1) // 2 <= limits.mate:
                        break  # a mate seen to its end
                if self.node_limit is not None and self.nodes >= self.node_limit:
                    break
                if self._enough_time(iteration_started, changes, fell):
                    break
                changes /= 2
        except _Stop:
            while len(pos.stack) > base:
                pos.pop()
            partial = self.partial
            if partial is not None:
                # The iteration cut short still counts: its best move searched in full beat the others tried.
                best = partial
                info = self._report(depth, [partial], on_info)
        if info is None:
            info = self._info(0, self._eval(), (best.move,))
        return SearchResult(self._with_card(best.move), info)

    def _start_clock(self, now: float) -> None:
        """The deadlines of the time limits, counted from `now` (the start, or the ponderhit)."""
        limits = self.limits
        self.clock_start = now
        if self.pondering:
            self.deadline = None
            return
        self.deadline = None if limits.seconds is None else now + max(0.0, limits.seconds)

    def _enough_time(self, iteration_started: float, changes: float, fell: bool) -> bool:
        """After an iteration: whether to stop rather than start the next (only on a clock, with a target)."""
        target = self.limits.target
        if target is None or self.pondering:
            return False
        tuning = self.config.search
        now = time.perf_counter()
        scale = (1 + tuning.time_instability * changes) * (1 + tuning.time_fail_low * fell)
        return now - self.clock_start > tuning.time_next_iteration * target * scale

    def _report(self, depth: int, lines: list[_Line], on_info) -> Info:
        """The Info of each line found (best first) to `on_info`; the best line's Info."""
        infos = [self._info(depth, line.score, line.pv, rank)
                 for rank, line in enumerate(lines[:self.multipv], 1)]
        if on_info is not None:
            for info in infos:
                on_info(info)
        return infos[0]

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
        wanted = self.limits.root_moves
        if wanted:
            chosen = [m for m in moves if m in wanted]
            moves = chosen or moves  # none of them legal here: every move, as if none were named
        return [m for _, m in self._ordered(moves, None, 0)]

    def _search_root(self, moves: list[Move], depth: int, previous: int | None) -> list[_Line]:
        """One iteration over the root moves: the lines found, best first (several with MultiPV or a level)."""
        if self.level is not None or self.multipv > 1:
            return self._root_all(moves, depth)
        if previous is None or depth < 4 or abs(previous) > MATE_BOUND:
            return self._root_window(moves, depth, -INFINITE, INFINITE)
        window = self.config.search.aspiration_window
        alpha, beta = previous - window, previous + window
        while True:
            lines = self._root_window(moves, depth, alpha, beta)
            score = lines[0].score
            if alpha < score < beta:
                return lines
            if score <= alpha:
                alpha = max(-INFINITE, alpha - window * 3)
            if score >= beta:
                beta = min(INFINITE, beta + window * 3)
            window *= 3
            if window > 1000:
                alpha, beta = -INFINITE, INFINITE

    def _root_child(self, m: Move, depth: int, alpha: int, beta: int) -> int:
        """The score of the root move `m` searched to `depth` in (alpha, beta)."""
        pos = self.pos
        self._push(m)
        try:
            return -self._node(depth - 1, -beta, -alpha, 1, True, in_check(pos, pos.turn))
        finally:
            self._pop(m)

    def _root_window(self, moves: list[Move], depth: int, alpha: int, beta: int) -> list[_Line]:
        """Root moves searched by PVS in (alpha, beta): the best line (with a score bound if it fell outside)."""
        best = _Line(-INFINITE, moves[0], (moves[0],))
        progress = self.on_root_move
        for i, m in enumerate(moves):
            if progress is not None and time.perf_counter() - self.started > 1.0:
                progress(depth, m, i + 1)
            if self.deck and draws_from_deck(self.pos, m):
                score, pv = self._drawn_score(m), (m,)  # type: tuple[int, tuple[Move, ...]]
            else:
                if i == 0:
                    score = self._root_child(m, depth, alpha, beta)
                else:
                    score = self._root_child(m, depth, alpha, alpha + 1)
                    if alpha < score < beta:
                        score = self._root_child(m, depth, alpha, beta)
                pv = (m,) + self.pv[1]
            if score > best.score:
                best = _Line(score, m, pv)
                if score > alpha:
                    alpha = score
                    self.partial = best
            if score >= beta:
                break
        return [best]

    def _root_all(self, moves: list[Move], depth: int) -> list[_Line]:
        """Every root move with an exact score among the best `multipv` (the rest as bounds), best first.

        With a level, every move is searched in full and judged with the level's mistakes (_judged).
        """
        level, want = self.level, self.multipv
        found: list[_Line] = []
        for i, m in enumerate(moves):
            if self.on_root_move is not None and time.perf_counter() - self.started > 1.0:
                self.on_root_move(depth, m, i + 1)
            floor = found[want - 1].score if len(found) >= want and level is None else -INFINITE
            if self.deck and draws_from_deck(self.pos, m):
                score, pv = self._drawn_score(m), (m,)  # type: tuple[int, tuple[Move, ...]]
            else:
                score = self._root_child(m, depth, floor, INFINITE) if floor == -INFINITE else \
                    self._root_child(m, depth, floor, floor + 1)
                if floor != -INFINITE and score > floor:
                    score = self._root_child(m, depth, floor, INFINITE)
                pv = (m,) + self.pv[1]
            found.append(_Line(score, m, pv))
            found.sort(key=lambda line: line.score, reverse=True)
            if level is None and found[0].move == m:
                self.partial = found[0]
        if level is not None:
            judged = {line.move: self._judged(line, depth) for line in found}
            found.sort(key=lambda line: judged[line.move], reverse=True)
        return found

    def _judged(self, line: _Line, depth: int) -> int:
        """A level's view of a root move: now and then blind to the reply (the position after the move as
        it stands), always with some random error; a move into a forced mate is never misjudged."""
        level = self.level
        assert level is not None
        if line.score < -MATE_BOUND:
            return line.score
        if line.move not in self.judged:
            self.judged[line.move] = (self.rng.random() < level.blunder,
                                      self.rng.randint(-level.noise, level.noise) if level.noise else 0)
        blind, noise = self.judged[line.move]
        score = line.score
        if blind and depth > 1 and not (self.deck and draws_from_deck(self.pos, line.move)):
            self._push(line.move)
            try:
                score = -self._eval()
            finally:
                self._pop(line.move)
        return score + noise

    # --- the tree --------------------------------------------------------------------------
    def _node(self, depth: int, alpha: int, beta: int, ply: int, null_ok: bool, checked: bool) -> int:
        self.nodes += 1
        if self.nodes % self.mask == 0:
            self._check_clock()
        pos = self.pos
        self.pv[ply] = ()
        if ply > self.seldepth:
            self.seldepth = ply
        if pos.halfmove >= 100 or self._repeated(pos):
            return 0
        if ply >= MAX_PLY:
            return self._eval()
        # Mate-distance pruning: no line from here mates sooner than a mate already found.
        if alpha < -MATE + ply:
            alpha = -MATE + ply
            if beta <= alpha:
                return alpha
        if beta > MATE - ply - 1:
            beta = MATE - ply - 1
            if alpha >= beta:
                return beta
        pv_node = beta - alpha > 1
        check = hash((pos.keys[-1], pos.ep, pos.ep_victim))  # table.table_check, inlined (every node)
        entry = self.table.get(check)
        tt_move = None
        if entry is not None:
            _, tt_depth, bound, tt_score, tt_move, _ = entry
            if tt_depth >= depth and not pv_node:
                stored = _from_table(tt_score, ply)
                if bound == EXACT or (bound == LOWER and stored >= beta) or (bound == UPPER and stored <= alpha):
                    return stored
        if checked:
            depth += 1  # check extension
        if depth <= 0:
            return self._quiesce(alpha, beta, ply, False)
        tuning = self.config.search
        static = -INFINITE
        improving = False
        if not checked:
            static = self._eval(check)
            self.static_at[ply] = static
            improving = ply < 2 or static > self.static_at[ply - 2]
            if not pv_node and abs(beta) < MATE_BOUND:
                # Reverse futility: far enough over beta that a quiet move will not lose it all.
                if (depth <= tuning.reverse_futility_depth
                        and static - tuning.reverse_futility_margin * (depth - improving) >= beta):
                    return static
                # Null move: even passing keeps the score over beta.
                if (null_ok and depth >= tuning.null_move_min_depth and static >= beta and self._null_safe(pos)):
                    reduction = tuning.null_move_reduction + depth // 6 + min((static - beta) // 200, 1)
                    null_score = -self._null(depth - 1 - reduction, -beta, -beta + 1, ply + 1)
                    if null_score >= beta:
                        return beta if null_score > MATE_BOUND else null_score
                # Razoring: hopeless by the static score, unless quiescence finds material.
                if depth <= 2 and static + tuning.razor_margin * depth < alpha:
                    razored = self._quiesce(alpha, alpha + 1, ply, False)
                    if razored <= alpha:
                        return razored
        else:
            self.static_at[ply] = self.static_at[ply - 2] if ply >= 2 else 0
        # Without a Dazzler or a Hyena that must move, a move's legality is its mover's royal safety once
        # made (as rules.legal_moves decides it), so it is checked only for the moves searched.
        lazy = not (pos.must_move or pos.types.dazzlers)
        moves = pseudo_moves(pos, pos.turn) if lazy else legal_moves(pos)
        if not moves:
            return self._no_move(checked, ply)
        if self.deck:
            moves = one_per_draw(pos, moves)
        ordered = self._ordered(moves, tt_move, ply)
        occ, killers = pos.occ, self.killers[ply]
        # Out of check, most moves are legal by the referee's own shortcut (rules.safety_sets): only a move
        # from or onto a square on a line to a royal, a royal's move and a special move are tried for safety.
        risky: set[int] | None = None
        sensitive: set[int] = set()
        if lazy and not checked:
            _, risky, sensitive = safety_sets(pos, pos.turn)
        futile = (not checked and not pv_node and depth <= tuning.futility_depth
                  and static + tuning.futility_margin * depth <= alpha and abs(alpha) < MATE_BOUND)
        late = tuning.lmp_base + depth * depth if not pv_node and depth <= tuning.lmp_depth else 1 << 30
        if not improving:
            late //= 2
        pruning = not checked and ply > 0
        reductions = self.reductions[min(depth, MAX_PLY + 1)]
        best, best_move, bound = -INFINITE, None, UPPER
        mover, searched, quiets, skipped = pos.turn, 0, 0, False
        tried: list[Move] = []  # quiet moves searched before the one that cut (their history falls)
        discoverers: set[int] | None = None  # squares a move may leave or enter to uncover check (lazily)
        for order, m in ordered:  # (bad captures are appended while it runs, so they come last)
            score: int | None
            frm, to, kind, promotion, _, _, _ = m
            quiet = promotion is None and (
                kind == BATTLE or (kind != EN_PASSANT and (kind != NORMAL or occ[to] == EMPTY)))
            if order & 1 and order > KILLER_BAND:
                exchange = self._exchange(m)
                if exchange < 0:
                    ordered.append((BAD_CAPTURE_BAND + exchange, m))
                    continue
            # Late-move, futility and exchange pruning near the leaves, once a move holds the score. A move
            # that gives check is never pruned: one that may (by rules.safety_sets' lines to the enemy royal
            # and the piece's attack table) is made first and its check read.
            prunable = pruning and searched and best > -MATE_BOUND and (
                (quiet and (quiets >= late or (futile and order < KILLER_BAND - 2)))
                or (order < 0 and depth <= tuning.see_depth
                    and order - BAD_CAPTURE_BAND < -tuning.see_capture_margin * depth))
            if prunable:
                if discoverers is None:
                    discoverers = check_info(pos, 1 - mover)[1]
                if not self._may_check(m, mover, discoverers):
                    skipped = True
                    continue
            self._push(m)
            try:
                if (lazy and (risky is None or kind != NORMAL or frm in risky or to in sensitive)
                        and (not pos.royals[mover] or in_check(pos, mover))):
                    continue  # not legal: it leaves the mover's royal attacked
                if self.deck and draws_from_deck(pos, m):
                    score = None  # scored below, from the position before the card is seen
                else:
                    gives_check = in_check(pos, pos.turn)
                    if prunable and not gives_check:
                        skipped = True
                        continue
                    if searched == 0:
                        score = -self._node(depth - 1, -beta, -alpha, ply + 1, True, gives_check)
                    else:
                        reduction = 0
                        if (quiet and depth >= tuning.lmr_min_depth and searched >= tuning.lmr_min_moves
                                and not checked and not gives_check):
                            reduction = reductions[min(searched, 63)]
                            reduction += not improving
                            reduction -= pv_node + (order >= KILLER_BAND - 2)
                            if order > 4096:
                                reduction -= 1  # a quiet move with a good history
                            reduction = max(0, min(reduction, depth - 2))
                        score = -self._node(depth - 1 - reduction, -alpha - 1, -alpha, ply + 1, True, gives_check)
                        if score > alpha and (reduction or score < beta):
                            score = -self._node(depth - 1, -beta, -alpha, ply + 1, True, gives_check)
            finally:
                self._pop(m)
            if score is None:
                score = self._drawn_score(m)
            searched += 1
            if quiet:
                quiets += 1
            if score > best:
                best, best_move = score, m
                if score > alpha:
                    alpha, bound = score, EXACT
                    self.pv[ply] = (m,) + self.pv[ply + 1]
                    if score >= beta:
                        bound = LOWER
                        if quiet:
                            self._reward(m, depth, ply, killers, tried)
                        break
            if quiet:
                tried.append(m)
        if not searched:
            if skipped and legal_moves(pos):
                return alpha  # only pruned moves were legal
            return self._no_move(checked, ply)
        self.table.put(check, depth, bound, _to_table(best, ply), best_move)
        return best

    def _reward(self, m: Move, depth: int, ply: int, killers: list, tried: list[Move]) -> None:
        """A quiet move cut: it becomes a killer and the countermove, its history rises and the quiet
        moves tried before it fall."""
        if killers[0] != m:
            killers[1], killers[0] = killers[0], m
        pos, history = self.pos, self.history
        turn = pos.turn
        bonus = min(depth * depth, 400)
        key = (turn, m.frm, m.to)
        history[key] = min(history.get(key, 0) + bonus, HISTORY_LIMIT)
        for other in tried:
            key = (turn, other.frm, other.to)
            history[key] = max(history.get(key, 0) - bonus, -HISTORY_LIMIT)
        if pos.stack:
            last = pos.stack[-1][0]
            self.counters[(last.frm, last.to)] = m

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
                        best = max(best, -self._quiesce(-INFINITE, INFINITE, ply + 1, in_check(pos, pos.turn)))
                    finally:
                        self._pop(m)
                return best
        return -MATE + ply if checked or not pos.royals[pos.turn] else 0

    def _quiesce(self, alpha: int, beta: int, ply: int, checked: bool) -> int:
        """Captures and promotions until the position is quiet; in check, every evasion."""
        self.nodes += 1
        if self.nodes % self.mask == 0:
            self._check_clock()
        pos = self.pos
        self.pv[ply] = ()
        if ply > self.seldepth:
            self.seldepth = ply
        if ply >= MAX_PLY:
            return self._eval()
        check = hash((pos.keys[-1], pos.ep, pos.ep_victim))  # table.table_check, inlined
        entry = self.table.get(check)
        if entry is not None:
            _, _, bound, tt_score, _, _ = entry
            stored = _from_table(tt_score, ply)
            if bound == EXACT or (bound == LOWER and stored >= beta) or (bound == UPPER and stored <= alpha):
                return stored
        lazy = not (pos.must_move or pos.types.dazzlers)  # as in _node
        if checked:
            return self._evasions(alpha, beta, ply, lazy, check)
        stand = self._eval(check)
        if stand >= beta:
            return stand
        margin = self.config.search.delta_margin
        if stand + self.biggest_gain + margin < alpha and stand + self._best_victim(pos) + margin < alpha:
            return stand  # no capture can bring the score up to alpha
        if lazy:
            moves = capture_moves(pos, pos.turn)
        else:
            moves = [m for m in legal_moves(pos) if m.promotion is not None or m.kind == EN_PASSANT
                     or (m.kind == NORMAL and pos.occ[m.to] != EMPTY)]
        if stand > alpha:
            alpha = stand
        if not moves:
            return stand
        piece, value = pos.piece, self.values
        scored = []
        for m in moves:
            frm, to, kind, promotion, extra, _, _ = m
            if kind == EN_PASSANT:
                gain = value(piece[extra])
            elif kind == NORMAL and piece[to] >= 0:
                gain = value(piece[to])
            else:
                gain = 0
            promoted = 0
            if promotion is not None:
                promoted = self._promotion_value(m, promotion) - value(piece[frm])
                gain += promoted
            if stand + gain + margin < alpha:
                continue  # even winning it outright leaves the score under alpha
            attacker = value(piece[frm])
            scored.append(((gain * 16 - attacker // 8) * 2 + (attacker > gain), m))
        if not scored:
            return stand
        if self.deck:
            keep = set(one_per_draw(pos, [m for _, m in scored]))
            scored = [s for s in scored if s[1] in keep]
        scored.sort(key=_first, reverse=True)
        best, best_move, bound = stand, None, UPPER
        mover = pos.turn
        for order, m in scored:
            if order & 1 and self._exchange(m) < 0:
                continue  # a bigger piece takes and loses material once the square is fought over
            score = self._quiescence_score(m, alpha, beta, ply, lazy, mover)
            if score is None:
                continue
            if score > best:
                best, best_move = score, m
                if score > alpha:
                    alpha, bound = score, EXACT
                    if score >= beta:
                        bound = LOWER
                        break
        self.table.put(check, QUIESCENCE_DEPTH, bound, _to_table(best, ply), best_move)
        return best

    def _quiescence_score(self, m: Move, alpha: int, beta: int, ply: int, lazy: bool, mover: int) -> int | None:
        """Move m's score in quiescence, for the mover; None when it is not legal (lazily generated moves may
        leave the mover's royal attacked)."""
        pos = self.pos
        self._push(m)
        try:
            if lazy and (not pos.royals[mover] or in_check(pos, mover)):
                return None
            if not (self.deck and draws_from_deck(pos, m)):
                return -self._quiesce(-beta, -alpha, ply + 1, in_check(pos, pos.turn))
        finally:
            self._pop(m)
        return self._drawn_score(m)  # a card is drawn: scored from the position before it is seen

    def _evasions(self, alpha: int, beta: int, ply: int, lazy: bool, check: int) -> int:
        """Quiescence in check: no standing pat, every legal move is tried; mated if none is legal."""
        pos = self.pos
        moves = pseudo_moves(pos, pos.turn) if lazy else legal_moves(pos)
        if self.deck:
            moves = one_per_draw(pos, moves)
        best, best_move, bound = -INFINITE, None, UPPER
        mover = pos.turn
        for _, m in self._ordered(moves, None, ply):
            score = self._quiescence_score(m, alpha, beta, ply, lazy, mover)
            if score is None:
                continue
            if score > best:
                best, best_move = score, m
                if score > alpha:
                    alpha, bound = score, EXACT
                    if score >= beta:
                        bound = LOWER
                        break
        if best_move is None:
            return self._no_move(True, ply)
        self.table.put(check, QUIESCENCE_DEPTH, bound, _to_table(best, ply), best_move)
        return best

    # --- helpers ---------------------------------------------------------------------------
    def _ordered(self, moves: list[Move], tt_move, ply: int) -> list[tuple[int, Move]]:
        """(order, move), best first: the table move, captures (MVV-LVA) and promotions, killers and the
        countermove, quiet moves by history. A capture by a bigger piece has an odd order: the search reads
        its exchange when it comes to it and puts it last if it loses material (_node)."""
        pos = self.pos
        occ, piece, value = pos.occ, pos.piece, self.values
        killers = self.killers[ply] if ply < len(self.killers) else (None, None)
        history, turn = self.history, pos.turn
        counter = self.counters.get((pos.stack[-1][0].frm, pos.stack[-1][0].to)) if pos.stack else None
        keyed = []
        for m in moves:
            frm, to, kind, promotion, extra, _, _ = m
            if m == tt_move:
                score = TT_BAND
            elif kind == EN_PASSANT or (kind == NORMAL and occ[to] != EMPTY):
                victim = value(piece[extra] if kind == EN_PASSANT else piece[to])
                attacker = value(piece[frm])
                promoted = self._promotion_value(m, promotion) - attacker if promotion is not None else 0
                # MVV-LVA, doubled; odd when a bigger piece takes: its exchange (SEE) is read when it comes up
                score = CAPTURE_BAND + ((victim + promoted) * 64 - attacker // 4) * 2 + (attacker > victim + promoted)
            elif promotion is not None:
                score = CAPTURE_BAND + self._promotion_value(m, promotion)
            elif m == killers[0]:
                score = KILLER_BAND
            elif m == killers[1]:
                score = KILLER_BAND - 1
            elif m == counter:
                score = KILLER_BAND - 2
            else:
                score = history.get((turn, frm, to), 0)
            keyed.append((score, m))
        keyed.sort(key=_first, reverse=True)
        return keyed

    def _exchange(self, m: Move) -> int:
        """The capture's static exchange value (engine.search.exchange) with any promotion's gain."""
        pos = self.pos
        promoted = 0
        if m.promotion is not None:
            promoted = self._promotion_value(m, m.promotion) - self.values(pos.piece[m.frm])
        return see(pos, m, self.values, promoted)

    def _may_check(self, m: Move, side: int, discoverers: set[int]) -> bool:
        """Whether the move might give check: it is special, leaves or enters a line to an enemy royal, or
        the moved piece's attack table reaches one from its new square (an empty-board test: no false no)."""
        frm, to, kind, promotion, _, _, _ = m
        if kind != NORMAL or promotion is not None or frm in discoverers or to in discoverers:
            return True
        pos = self.pos
        reach = pos.types.types[pos.piece[frm]].attacks[side][to]
        return any(r in reach for r in pos.royals[1 - side])

    def _type_value(self, t: int) -> int:
        """The value of type index t (0 for a royal and for an empty square's -1)."""
        terms = self.evaluator.terms
        if 0 <= t < len(terms):
            return terms[t].value
        return self.evaluator.type_terms(t).value if t >= 0 else 0

    def _best_victim(self, pos: Position) -> int:
        """The value of the enemy's biggest piece on the board, plus a pawn's promotion as a bound."""
        piece, value = pos.piece, self.values
        best = max((value(piece[sq]) for sq in pos.squares[1 - pos.turn]), default=0)
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

    def _eval(self, check: int | None = None) -> int:
        """The static evaluation, remembered by the position's table check (`check`, when the node has it)
        or the hash of the referee's key of the position (placement, side, hands)."""
        if check is None:
            pos = self.pos
            check = hash(pos.keys[-1] if pos.keys else pos.key())
        slots = self.eval_slots
        slot = check & (EVAL_SLOTS - 1)
        entry = slots[slot]
        if entry is not None and entry[0] == check:
            return entry[1]
        score = self.evaluator.evaluate(self.pos)
        slots[slot] = (check, score)
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
        value = self.values
        victim = pos.piece[m.extra] if m.kind == EN_PASSANT else (pos.piece[m.to] if m.kind == NORMAL else -1)
        gain = value(victim) if victim >= 0 else 0
        return self._eval() + gain + self._expected_card() - value(pos.piece[m.frm])

    def _null_safe(self, pos: Position) -> bool:
        """A null move only where passing cannot be the point: not in special turn states, with pieces (not
        pawns, not royals) of the side to move worth null_move_material on the board (a lone minor piece
        and pawns are where zugzwang lives)."""
        if pos.dazzled or pos.shielded or pos.must_move:
            return False
        piece, terms = pos.piece, self.evaluator.type_terms
        return sum(terms(piece[sq]).phase for sq in pos.squares[pos.turn]) >= self.config.search.null_move_material

    def _null(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Search the position with the other side to move (the side to move passes)."""
        pos = self.pos
        saved = (pos.ep, pos.ep_victim, pos.turn)
        pos.ep, pos.ep_victim, pos.turn = (), -1, 1 - pos.turn
        pos.keys.append(pos.key())
        pos.passants.append(((), -1))
        try:
            return self._node(depth, alpha, beta, ply, False, False)
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
        if self.pondering and self.clock_starts is not None and self.clock_starts.is_set():
            self.pondering = False  # ponderhit: the time limits run from now
            self._start_clock(time.perf_counter())
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _Stop
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _Stop
        if self.stop is not None and self.stop.is_set():
            raise _Stop

    def _info(self, depth: int, score: int, pv: tuple[Move, ...], rank: int = 1) -> Info:
        seconds = time.perf_counter() - self.started
        mate_in = None
        if score > MATE_BOUND:
            mate_in = (MATE - score + 1) // 2
        elif score < -MATE_BOUND:
            mate_in = -((MATE + score) // 2)
        return Info(depth, None if mate_in is not None else score, mate_in, self.nodes,
                    int(self.nodes / seconds) if seconds > 0 else 0, seconds, tuple(pv),
                    max(self.seldepth, depth), rank, self.table.hashfull())

    def _with_card(self, move: Move) -> Move:
        """At the root a drawing pawn move takes the best of the three cards actually drawn."""
        pos = self.pos
        if not draws_from_deck(pos, move):
            return move
        value = self.evaluator.value
        same = {m: m.promotion for m in legal_moves(pos)
                if (m.frm, m.to, m.kind, m.extra) == (move.frm, move.to, move.kind, move.extra) and m.promotion}
        return max(same, key=lambda m: value(same[m]), default=move)


def _first(pair: tuple) -> int:
    return pair[0]


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
