"""The mutable Position: mailbox placement, side to move, hands, rights and counters; push/pop.

It knows no rules: move generation and game end live in engine.rules (legal_moves, outcome), FEN
in engine.notation (format_fen, parse_fen), start positions in engine.setup.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from dealers_chess.engine.board import Board
from dealers_chess.engine.game import Captured, GameDef, Promotion, TypeTable
from dealers_chess.engine.kernel import EMPTY
from dealers_chess.engine.move import Kind, Move
from dealers_chess.engine.rng import SplitMix64
from dealers_chess.pieces.catalogue import Catalogue, Group

WHITE, BLACK = 0, 1
NORMAL, EN_PASSANT, BATTLE = Kind.NORMAL, Kind.EN_PASSANT, Kind.BATTLE
SIDE_NAMES = ("white", "black")
_MOVED_RNG = random.Random("moved")
MOVED_Z = tuple(_MOVED_RNG.getrandbits(64) for _ in range(256))


@dataclass(frozen=True, slots=True)
class DeckState:
    """The big-deck option: draw stack (top first), discard pile, and the reshuffle seed and count."""

    draw: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    seed: int = 0
    shuffles: int = 0

    def ready(self) -> DeckState:
        """The deck as a draw finds it: a stack of fewer than three cards goes onto the discard pile,
        which is shuffled into a new stack (when the pile adds anything)."""
        if len(self.draw) >= 3 or not self.discard:
            return self
        return self._reshuffled(self.discard + self.draw)

    def after_promotion(self, chosen: str) -> DeckState:
        """Draw three, keep `chosen`, discard the other two; reshuffle when fewer than three remain."""
        deck = self.ready()
        drawn = list(deck.draw[:3])
        drawn.remove(chosen)
        draw, discard = deck.draw[3:], deck.discard + tuple(drawn)
        if len(draw) >= 3:
            return DeckState(draw, discard, deck.seed, deck.shuffles)
        return deck._reshuffled(discard + draw)

    def _reshuffled(self, cards: tuple[str, ...]) -> DeckState:
        """A new draw stack of these cards, shuffled reproducibly from the seed and the shuffle count."""
        stack = list(cards)
        SplitMix64(self.seed * 1_000_003 + self.shuffles + 1).shuffle(stack)
        return DeckState(tuple(stack), (), self.seed, self.shuffles + 1)

    def after_capture(self, piece_id: str) -> DeckState:
        return DeckState(self.draw, self.discard + (piece_id,), self.seed, self.shuffles)


@dataclass(slots=True)
class Position:
    """A position of any game on any board up to 16x16. Build it with notation.parse_fen or setup.start_position."""

    game: GameDef
    catalogue: Catalogue
    pawn_rank: int
    board: Board = field(init=False)
    types: TypeTable = field(init=False)
    piece: list[int] = field(init=False)  # type index per square, -1 when empty
    occ: list[int] = field(init=False)  # EMPTY or the side per square (the kernel's occupancy)
    moved: list[bool] = field(init=False)
    turn: int = WHITE
    castling: frozenset[int] = frozenset()  # squares of the partners that may still castle
    ep: tuple[int, ...] = ()  # squares the last multi-step pawn move passed
    ep_victim: int = -1  # where that pawn stands
    halfmove: int = 0
    fullmove: int = 1
    hands: list[tuple[str, ...]] = field(default_factory=lambda: [(), ()])
    shared: tuple[str, ...] = ()  # Dealer's shared extras still in both hands
    deck: DeckState | None = None
    dazzled: frozenset[int] = frozenset()  # pieces that may not move this turn (jumped by the enemy dazzler)
    shielded: frozenset[int] = frozenset()  # pieces that may not be captured this turn
    must_move: frozenset[int] = frozenset()  # hyenas jumped by the enemy dazzler
    battle_used: frozenset[int] = frozenset()  # sides that have made their battle move (Spinal Tap)
    royals: list[set[int]] = field(init=False)
    squares: list[set[int]] = field(init=False)
    hash: int = 0
    castle_plans: dict = field(default_factory=dict, repr=False)  # (royal, partner) -> engine.castling's plans
    # partner square -> the square where the royal it castles with starts (engine.origins.castling_starts of
    # both sides), set with the rights: a right is lost when the royal leaves that square, whoever passes between
    castling_royals: dict[int, int] = field(default_factory=dict, repr=False)
    stack: list = field(default_factory=list)
    keys: list = field(default_factory=list)  # key() of every position of the game so far, the last is this one's
    passants: list = field(default_factory=list)  # (ep, ep_victim) of every position, beside `keys`
    ep_rights_known: dict = field(default_factory=dict, repr=False)  # engine.rules' cache: (key, ep state) -> rights

    def __post_init__(self) -> None:
        self.board = self.game.board
        self.types = TypeTable(self.board, self.catalogue, self.game, self.pawn_rank)
        size = self.board.size
        self.piece, self.occ, self.moved = [-1] * size, [EMPTY] * size, [False] * size
        self.royals, self.squares = [set(), set()], [set(), set()]

    # --- placement --------------------------------------------------------------------
    def set_square(self, sq: int, t: int, side: int, moved: bool) -> None:
        """Put type t of a side on a square (t = -1 empties it), keeping sets and hash in step."""
        types, old = self.types.types, self.piece[sq]
        if old >= 0:
            old_side, kind = self.occ[sq], types[old]
            self.hash ^= kind.zobrist[old_side][sq] ^ (MOVED_Z[sq] if self.moved[sq] and kind.initial else 0)
            self.squares[old_side].discard(sq)
            self.royals[old_side].discard(sq)
        self.piece[sq], self.occ[sq], self.moved[sq] = t, side, moved
        if t >= 0:
            kind = types[t]
            self.hash ^= kind.zobrist[side][sq] ^ (MOVED_Z[sq] if moved and kind.initial else 0)
            self.squares[side].add(sq)
            if kind.royal:
                self.royals[side].add(sq)

    def piece_at(self, sq: int) -> tuple[str, int] | None:
        """(piece id, side) on a square, or None."""
        t = self.piece[sq]
        return None if t < 0 else (self.types.id_of(t), self.occ[sq])

    def royal_for(self, partner: int) -> int:
        """The royal a castling partner castles with: the nearest royal inward on its rank, or -1."""
        side = self.occ[partner]
        if side == EMPTY:
            return -1
        files = self.board.files
        rank, file = divmod(partner, files)
        inward = 1 if file < files // 2 else -1
        found, distance = -1, files
        for royal in self.royals[side]:
            royal_rank, royal_file = divmod(royal, files)
            steps = (royal_file - file) * inward
            if royal_rank == rank and 0 < steps < distance:
                found, distance = royal, steps
        return found

    # --- board-level make and unmake -------------------------------------------------
    def apply(self, m: Move) -> list:
        """Change the squares a move touches; return what `revert` needs. No other state changes."""
        piece, occ, moved = self.piece, self.occ, self.moved
        frm, to = m.frm, m.to
        t, side = piece[frm], occ[frm]
        if m.kind == Kind.BATTLE:
            return [entry for step in m.steps for entry in self.apply(step)]
        undo = [(frm, t, side, moved[frm]), (to, piece[to], occ[to], moved[to])]
        if m.kind == Kind.CASTLE:
            partner, pt = m.extra, piece[m.extra]
            undo.append((partner, pt, side, moved[partner]))
            undo.append((m.partner_to, piece[m.partner_to], occ[m.partner_to], moved[m.partner_to]))
            self.set_square(frm, -1, EMPTY, False)
            self.set_square(partner, -1, EMPTY, False)
            self.set_square(to, t, side, True)
            self.set_square(m.partner_to, pt, side, True)
            return undo
        if m.kind == Kind.PUSH:
            beyond = m.extra
            undo.append((beyond, piece[beyond], occ[beyond], moved[beyond]))
            self.set_square(beyond, piece[to], occ[to], True)
        new_t = t
        if m.promotion is not None:
            new_t = self.types.index(m.promotion)
        victim = piece[to]
        if m.kind == Kind.EN_PASSANT:
            v = m.extra
            victim = piece[v]
            undo.append((v, victim, occ[v], moved[v]))
            self.set_square(v, -1, EMPTY, False)
        if victim >= 0 and m.kind != Kind.PUSH and self.types.types[victim].convert_captor:
            new_t = victim
        self.set_square(frm, -1, EMPTY, False)
        self.set_square(to, new_t, side, True)
        return undo

    def revert(self, undo: list) -> None:
        """Undo `apply`."""
        for sq, t, side, was_moved in reversed(undo):
            self.set_square(sq, t, side, was_moved)

    # --- full make and unmake ---------------------------------------------------------
    def push(self, m: Move) -> None:
        """Play a move (assumed legal: use rules.play to check) and remember how to take it back."""
        frm, to, kind, promotion, extra, _, _ = m
        s = self.turn
        if kind == BATTLE:
            self._push_battle(m, s)
            return
        piece, types = self.piece, self.types.types
        t = piece[frm]
        mover = types[t]
        victim = piece[extra] if kind == EN_PASSANT else (piece[to] if kind == NORMAL else -1)
        saved = (
            self.castling, self.ep, self.ep_victim, self.halfmove, self.fullmove, self.hands[0], self.hands[1],
            self.shared, self.deck, self.dazzled, self.shielded, self.must_move, self.battle_used, self.hash,
        )
        if self.castling:
            self.castling = self._castling_after(m, mover.royal)
        if mover.dazzle or self.dazzled or self.shielded or self.must_move:
            self._dazzle_after(m, mover.dazzle, s)
        if victim >= 0 or promotion is not None:
            self._hands_after(m, victim, s, mover)
        if mover.no_ep_victim or kind != NORMAL or victim >= 0 or promotion is not None:
            self.ep, self.ep_victim = (), -1  # (what _ep_after says for these, without asking)
        else:
            self.ep, self.ep_victim = self._ep_after(m, mover, victim, s)
        if kind == NORMAL and promotion is None and (victim < 0 or not types[victim].convert_captor):
            undo: list | tuple = self._move_plain(frm, to, t, mover, victim, s)
        else:
            undo = self.apply(m)
        self.stack.append((m, saved, undo))
        self.halfmove = 0 if victim >= 0 or mover.group is Group.PAWN else self.halfmove + 1
        if s == BLACK:
            self.fullmove += 1
        self.turn = 1 - s
        self.keys.append((
            self.hash, self.turn, self.castling, (self.hands[0], self.hands[1]), self.shared, self.deck,
            self.dazzled, self.shielded, self.must_move, self.battle_used,
        ))  # self.key(), inlined: push is the hottest code of the search and perft
        self.passants.append((self.ep, self.ep_victim))

    def _move_plain(self, frm: int, to: int, t: int, mover, victim: int, side: int) -> tuple:
        """An ordinary move or capture, no promotion (most moves): apply() and set_square() inlined, for speed.
        Returns what pop needs: (the mover's type, whether it had moved, the victim's type, whether it had)."""
        piece, occ, moved = self.piece, self.occ, self.moved
        was_moved = moved[frm]
        zobrist = mover.zobrist[side]
        h = self.hash ^ zobrist[frm] ^ zobrist[to]
        if mover.initial:
            h ^= (MOVED_Z[frm] if was_moved else 0) ^ MOVED_Z[to]
        victim_moved = moved[to]
        if victim >= 0:
            enemy = 1 - side
            taken = self.types.types[victim]
            h ^= taken.zobrist[enemy][to] ^ (MOVED_Z[to] if victim_moved and taken.initial else 0)
            self.squares[enemy].discard(to)
            if taken.royal:
                self.royals[enemy].discard(to)
        own = self.squares[side]
        own.discard(frm)
        own.add(to)
        if mover.royal:
            royals = self.royals[side]
            royals.discard(frm)
            royals.add(to)
        piece[frm], occ[frm], moved[frm] = -1, EMPTY, False
        piece[to], occ[to], moved[to] = t, side, True
        self.hash = h
        return (t, was_moved, victim, victim_moved)

    def pop(self) -> Move:
        """Take back the last move and return it."""
        m, saved, undo = self.stack.pop()
        if type(undo) is tuple:  # _move_plain's: put back by hand, as it was made
            t, was_moved, victim, victim_moved = undo
            frm, to = m[0], m[1]
            side = 1 - self.turn
            piece, occ, moved, types = self.piece, self.occ, self.moved, self.types.types
            own = self.squares[side]
            own.discard(to)
            own.add(frm)
            if types[t].royal:
                royals = self.royals[side]
                royals.discard(to)
                royals.add(frm)
            piece[frm], occ[frm], moved[frm] = t, side, was_moved
            if victim >= 0:
                enemy = 1 - side
                piece[to], occ[to], moved[to] = victim, enemy, victim_moved
                self.squares[enemy].add(to)
                if types[victim].royal:
                    self.royals[enemy].add(to)
            else:
                piece[to], occ[to], moved[to] = -1, EMPTY, victim_moved
        else:
            self.revert(undo)
        (
            self.castling, self.ep, self.ep_victim, self.halfmove, self.fullmove, h0, h1,
            self.shared, self.deck, self.dazzled, self.shielded, self.must_move, self.battle_used, self.hash,
        ) = saved
        self.hands = [h0, h1]
        self.turn = 1 - self.turn
        self.keys.pop()
        self.passants.pop()
        return m

    def key(self) -> tuple:
        """What makes two positions the same for repetition, en-passant squares apart: those count only
        when an en-passant capture is legal, which engine.rules.repetitions decides."""
        return (
            self.hash, self.turn, self.castling, tuple(self.hands), self.shared, self.deck,
            self.dazzled, self.shielded, self.must_move, self.battle_used,
        )

    def _remember(self) -> None:
        """Add this position to the game's history (its key and en-passant state)."""
        self.keys.append(self.key())
        self.passants.append((self.ep, self.ep_victim))

    def _push_battle(self, m: Move, s: int) -> None:
        """Spinal Tap's battle move: every step made on the board at once, one capture at most."""
        saved = (
            self.castling, self.ep, self.ep_victim, self.halfmove, self.fullmove, self.hands[0], self.hands[1],
            self.shared, self.deck, self.dazzled, self.shielded, self.must_move, self.battle_used, self.hash,
        )
        for step in m.steps:
            victim = self.piece[step.extra if step.kind == Kind.EN_PASSANT else step.to]
            mover = self.types.types[self.piece[step.frm]]
            if self.castling:
                self.castling = self._castling_after(step, False)
            if victim >= 0 or step.promotion is not None:
                self._hands_after(step, victim, s, mover)
        self.ep, self.ep_victim = (), -1
        self.dazzled = self.shielded = self.must_move = frozenset()
        self.battle_used = self.battle_used | {s}
        undo = self.apply(m)
        self.stack.append((m, saved, undo))
        self.halfmove = 0
        if s == BLACK:
            self.fullmove += 1
        self.turn = 1 - s
        self._remember()

    def reset_history(self) -> None:
        """Forget the moves played so far: this position becomes the first of the game."""
        self.stack.clear()
        self.keys.clear()
        self.passants.clear()
        self._remember()

    def _castling_after(self, m: Move, royal: bool) -> frozenset[int]:
        """The rights left after m: a partner that moves or is taken loses its own, and a royal leaving the
        square where a partner's royal starts takes that partner's (another royal passing between keeps it)."""
        rights = self.castling
        if not royal and m.kind == Kind.NORMAL and m.frm not in rights and m.to not in rights:
            return rights  # the move touches no castling piece
        lost = {m.frm, m.to}
        if m.kind == Kind.EN_PASSANT or m.kind == Kind.PUSH:
            lost.add(m.extra)
        if m.kind == Kind.CASTLE:
            lost.add(m.extra)
        if royal:
            starts = self.castling_royals
            rights = frozenset(p for p in rights if (starts[p] if p in starts else self.royal_for(p)) != m.frm)
        return rights - lost

    def _ep_after(self, m: Move, mover, victim: int, side: int) -> tuple[tuple[int, ...], int]:
        """Squares a pawn passed on a non-capturing move of two or more squares along a line with a
        forward component (straight or diagonally forward); retreats and sideways moves set none."""
        if m.kind != Kind.NORMAL or victim >= 0 or mover.no_ep_victim or m.promotion is not None:
            return (), -1
        files = self.board.files
        key = (files, m.frm, m.to, side)
        found = _PASSED.get(key)
        if found is None:
            found = _PASSED[key] = _passed(self.board, m.frm, m.to, side)
        return found

    def _hands_after(self, m: Move, victim: int, s: int, mover) -> None:
        hands = list(self.hands)
        if victim >= 0:
            kind = self.types.types[victim]
            if kind.group is Group.PIECE:
                if self.deck is not None:
                    self.deck = self.deck.after_capture(kind.piece.id)
                elif self.game.captured is Captured.CAPTOR:
                    hands[s] = _sorted_add(hands[s], kind.piece.id, self.catalogue)
                elif self.game.captured is Captured.OWNER:
                    hands[1 - s] = _sorted_add(hands[1 - s], kind.piece.id, self.catalogue)
        chosen = m.promotion
        if chosen is not None and self.game.promotion is Promotion.HAND and not mover.piece.promotes_to:
            if self.deck is not None:
                self.deck = self.deck.after_promotion(chosen)
            else:
                if takes_shared_extra(hands[s], self.shared, chosen):
                    self.shared = _remove_one(self.shared, chosen)
                    hands[1 - s] = _remove_one(hands[1 - s], chosen)
                hands[s] = _remove_one(hands[s], chosen)
        self.hands = hands

    def _dazzle_after(self, m: Move, dazzler: bool, s: int) -> None:
        dazzled: set[int] = set()
        shielded: set[int] = set()
        must: set[int] = set()
        if dazzler and m.kind == Kind.NORMAL:
            for sq in squares_between(self.board, m.frm, m.to):
                side = self.occ[sq]
                if side == s:
                    shielded.add(sq)
                elif side != EMPTY:
                    (must if self.types.types[self.piece[sq]].immobilize else dazzled).add(sq)
        self.dazzled, self.shielded, self.must_move = frozenset(dazzled), frozenset(shielded), frozenset(must)


_PASSED: dict[tuple[int, int, int, int], tuple[tuple[int, ...], int]] = {}  # (files, frm, to, side) -> _passed


def _passed(board: Board, frm: int, to: int, side: int) -> tuple[tuple[int, ...], int]:
    """Position._ep_after's answer for a pawn's ordinary non-capturing move: the squares passed and its
    square, or ((), -1) (it depends on the squares and the side alone, so it is kept)."""
    dx = board.file_of(to) - board.file_of(frm)
    dy = board.rank_of(to) - board.rank_of(frm)
    steps = max(abs(dx), abs(dy))
    forward = dy > 0 if side == WHITE else dy < 0
    if steps < 2 or not forward or not (dx == 0 or abs(dx) == abs(dy)):
        return (), -1
    ux, uy = dx // steps, dy // steps
    x, y = board.file_of(frm), board.rank_of(frm)
    return tuple(board.square(x + ux * k, y + uy * k) for k in range(1, steps)), to


def takes_shared_extra(hand: tuple[str, ...], shared: tuple[str, ...], piece_id: str) -> bool:
    """Whether promoting to piece_id from this hand uses a shared extra (a multiset: two shared Rooks are
    two copies): only when the hand holds no captured copy beyond the shared ones, which go last."""
    return piece_id in shared and hand.count(piece_id) <= shared.count(piece_id)


def squares_between(board: Board, frm: int, to: int) -> list[int]:
    """Squares strictly between two squares on one straight line (empty if not on a line)."""
    dx = board.file_of(to) - board.file_of(frm)
    dy = board.rank_of(to) - board.rank_of(frm)
    steps = max(abs(dx), abs(dy))
    if steps < 2 or not (dx == 0 or dy == 0 or abs(dx) == abs(dy)):
        return []
    ux, uy = dx // steps, dy // steps
    x, y = board.file_of(frm), board.rank_of(frm)
    return [board.square(x + ux * k, y + uy * k) for k in range(1, steps)]


def _sorted_add(hand: tuple[str, ...], piece_id: str, catalogue: Catalogue) -> tuple[str, ...]:
    return tuple(sorted(hand + (piece_id,), key=lambda i: catalogue.get(i).code))


def _remove_one(hand: tuple[str, ...], piece_id: str) -> tuple[str, ...]:
    items = list(hand)
    if piece_id in items:
        items.remove(piece_id)
    return tuple(items)
