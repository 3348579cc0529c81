"""What a move did, in words a player understands: structured events for the terminal and the web page.

`move_events` compares the position before and after a move; `turn_events` says what the side
now to move must know (check, pieces frozen or dazzled, a Chicken that may retreat).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from dealers_chess.engine.game import Captured, Promotion
from dealers_chess.engine.move import Kind, Move
from dealers_chess.engine.position import SIDE_NAMES, DeckState, Position
from dealers_chess.engine.rules import in_check, is_attacked, is_frozen
from dealers_chess.pieces.catalogue import Group, Rule


class EventKind(Enum):
    """What an event reports."""

    MOVE = "move"
    CAPTURE = "capture"
    CASTLE = "castle"
    PUSH = "push"
    BATTLE = "battle"
    PROMOTION = "promotion"
    ZOMBIE = "zombie"
    HAND = "hand"
    SHARED = "shared"
    DECK = "deck"
    DAZZLE = "dazzle"
    FROZEN = "frozen"
    RETREAT = "retreat"
    CHECK = "check"
    DRAW_CLAIMABLE = "draw-claimable"
    DRAW_OFFER = "draw-offer"
    DRAW_DECLINED = "draw-declined"
    UNDO = "undo"
    TAKEBACK = "takeback"  # a side asks the other to take back its move, or that side answers
    NAME = "name"  # a player gives their name
    REMATCH = "rematch"  # a rematch offered, declined or begun
    CLOCK = "clock"
    GAME_OVER = "game-over"


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: its kind, a sentence for people and the squares it concerns."""

    kind: EventKind
    text: str
    squares: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Before:
    """What a move's description needs from the position before it: pieces it touches, hands, deck."""

    side: int
    number: int
    pieces: dict[int, tuple[str, int]]  # square -> (piece id, side) for every square the move touches
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    shared: tuple[str, ...]
    deck: DeckState | None


def side_name(side: int) -> str:
    """'White' or 'Black'."""
    return SIDE_NAMES[side].capitalize()


WIN_WORDS = {"checkmate": "by checkmate", "resignation": "by resignation", "time": "on time",
             "royal lost": "by taking the royal"}
DRAW_WORDS = {"agreement": "Draw by agreement", "time, against a side that cannot mate":
              "Draw: a flag fell, but the other side cannot mate", "dead position": "Draw: no mate is possible"}


def ending_words(result: str, reason: str) -> str:
    """Who won and how, for people: 'White wins by checkmate', 'Black wins on time', 'Draw by stalemate'."""
    if result in ("1-0", "0-1"):
        winner = "White" if result == "1-0" else "Black"
        return f"{winner} wins {WIN_WORDS.get(reason, f'({reason})')}"
    return DRAW_WORDS.get(reason, f"Draw by {reason}")


def snapshot(pos: Position, m: Move) -> Before:
    """Record what `m` will touch, before it is pushed."""
    squares = {s for step in (m.steps or (m,)) for s in (step.frm, step.to, step.extra, step.partner_to) if s >= 0}
    pieces = {sq: found for sq in squares if (found := pos.piece_at(sq)) is not None}
    return Before(pos.turn, pos.fullmove, pieces, (pos.hands[0], pos.hands[1]), pos.shared, pos.deck)


def move_events(pos: Position, before: Before, m: Move, san: str) -> list[Event]:
    """The events of a move just pushed on `pos` (its SAN computed before the push)."""
    board, side = pos.board, before.side
    number = f"{before.number}{'.' if side == 0 else '...'} {san}"
    steps = m.steps or (m,)
    if m.kind == Kind.BATTLE:
        walks = ", ".join(
            f"{_name(pos, before.pieces[s.frm][0])} {board.name(s.frm)}-{board.name(s.to)}" for s in steps
        )
        events = [Event(EventKind.BATTLE, f"{number} ({side_name(side)}'s battle move, once a game: {walks})",
                        tuple(board.name(s.to) for s in steps))]
    elif m.kind == Kind.CASTLE:
        royal, partner = _name(pos, before.pieces[m.frm][0]), _name(pos, before.pieces[m.extra][0])
        events = [Event(EventKind.CASTLE, f"{number} ({side_name(side)} castles: {royal} {board.name(m.frm)}-"
                        f"{board.name(m.to)}, {partner} {board.name(m.extra)}-{board.name(m.partner_to)})",
                        (board.name(m.to), board.name(m.partner_to)))]
    else:
        mover = _name(pos, before.pieces[m.frm][0])
        events = [Event(EventKind.MOVE,
                        f"{number} ({side_name(side)}'s {mover} {board.name(m.frm)}-{board.name(m.to)})",
                        (board.name(m.frm), board.name(m.to)))]
    for step in steps:
        events += _step_events(pos, before, step)
    events += _hand_events(pos, before)
    events += _deck_events(pos, before, steps)
    return events


def _step_events(pos: Position, before: Before, m: Move) -> list[Event]:
    board, side = pos.board, before.side
    mover_id = before.pieces[m.frm][0]
    mover = _name(pos, mover_id)
    events = []
    victim_sq = m.extra if m.kind == Kind.EN_PASSANT else m.to
    victim = before.pieces.get(victim_sq) if m.kind in (Kind.NORMAL, Kind.EN_PASSANT, Kind.BATTLE) else None
    if victim is not None and victim[1] != side:
        how = " en passant" if m.kind == Kind.EN_PASSANT else ""
        events.append(Event(EventKind.CAPTURE, f"{side_name(side)}'s {mover} takes {side_name(victim[1])}'s "
                            f"{_name(pos, victim[0])} on {board.name(victim_sq)}{how}", (board.name(victim_sq),)))
    if m.kind == Kind.PUSH:
        pushed = before.pieces[m.to]
        events.append(Event(EventKind.PUSH, f"{side_name(side)}'s {mover} pushes {side_name(pushed[1])}'s "
                            f"{_name(pos, pushed[0])} from {board.name(m.to)} to {board.name(m.extra)}",
                            (board.name(m.to), board.name(m.extra))))
    now = pos.piece_at(m.to)
    became = now[0] if now is not None else mover_id
    if (victim is not None and became == victim[0] and became != mover_id
            and pos.catalogue.get(became).has(Rule.CONVERT_CAPTOR)):
        events.append(Event(EventKind.ZOMBIE, f"{side_name(side)}'s {mover} took the {_name(pos, became)} and becomes "
                            f"a {_name(pos, became)} itself (still {side_name(side)}'s)", (board.name(m.to),)))
    elif m.promotion is not None and became == m.promotion:
        events.append(Event(EventKind.PROMOTION, f"{side_name(side)}'s {mover} on {board.name(m.to)} becomes a "
                            f"{_name(pos, became)}{_promotion_source(pos, before, m)}", (board.name(m.to),)))
    return events


def _promotion_source(pos: Position, before: Before, m: Move) -> str:
    game, side = pos.game, before.side
    if pos.catalogue.get(before.pieces[m.frm][0]).promotes_to or game.promotion is Promotion.LIST:
        return ""
    if game.promotion is Promotion.HAND_KEPT:
        return " (a type in its hand; the hand keeps it)"
    if before.deck is not None:
        return " (chosen from the cards drawn)"
    if before.shared.count(m.promotion) > pos.shared.count(m.promotion):
        return " (the shared extra)"
    if game.captured is Captured.OWNER:
        return f" (a piece {side_name(side)} had lost)"
    return f" (from {side_name(side)}'s hand)"


def _hand_events(pos: Position, before: Before) -> list[Event]:
    events = []
    for side in (0, 1):
        gained = list(pos.hands[side])
        for piece_id in before.hands[side]:
            if piece_id in gained:
                gained.remove(piece_id)
        for piece_id in gained:
            name = _name(pos, piece_id)
            text = (f"{side_name(side)} may now promote to the {name} it lost" if pos.game.captured is Captured.OWNER
                    else f"a {name} goes into {side_name(side)}'s hand (the captured piece's double)")
            events.append(Event(EventKind.HAND, text))
    for piece_id in dict.fromkeys(before.shared):
        left = pos.shared.count(piece_id)
        if left < before.shared.count(piece_id):
            other = side_name(1 - before.side)
            consequence = f"{other} may no longer promote to it" if not left else f"{other} loses one copy of it too"
            events.append(Event(EventKind.SHARED, f"{side_name(before.side)} used the shared {_name(pos, piece_id)}: "
                                f"{consequence}"))
    return events


def _deck_events(pos: Position, before: Before, steps: tuple[Move, ...]) -> list[Event]:
    old, new = before.deck, pos.deck
    if old is None or new is None:
        return []
    events = []
    for step in steps:
        victim = before.pieces.get(step.to)
        if step.kind == Kind.NORMAL and victim is not None and victim[1] != before.side and victim[0] in new.discard:
            if pos.catalogue.get(victim[0]).group is Group.PIECE:
                events.append(Event(EventKind.DECK, f"the {_name(pos, victim[0])}'s card goes to the discard pile"))
        if step.promotion is not None and step.promotion in old.draw[:3]:
            drawn = list(old.draw[:3])
            drawn.remove(step.promotion)
            rest = " and ".join(_name(pos, card) for card in drawn)
            tail = f"; {rest} go{'es' if len(drawn) == 1 else ''} to the discard pile" if drawn else ""
            events.append(Event(EventKind.DECK, f"{side_name(before.side)} drew "
                                f"{', '.join(_name(pos, c) for c in old.draw[:3])} and kept the "
                                f"{_name(pos, step.promotion)}{tail}"))
    if new.shuffles > old.shuffles:
        events.append(Event(EventKind.DECK, f"the draw stack ran low: the discard pile is shuffled into a new draw "
                            f"stack of {len(new.draw)} cards"))
    return events


def turn_events(pos: Position) -> list[Event]:
    """What the side to move must know now: dazzled, shielded and frozen pieces, a Chicken's retreat, check."""
    board, side = pos.board, pos.turn
    events = []
    for squares, what in ((pos.dazzled, "was jumped by the Dazzler and cannot move this turn"),
                          (pos.shielded, "was jumped by its own Dazzler and cannot be captured this turn"),
                          (pos.must_move, "was jumped by the Dazzler and must move this turn")):
        for sq in sorted(squares):
            found = pos.piece_at(sq)
            if found is not None:
                events.append(Event(EventKind.DAZZLE, f"{side_name(found[1])}'s {_name(pos, found[0])} on "
                                    f"{board.name(sq)} {what}", (board.name(sq),)))
    if any(t.immobilize for t in pos.types.types):
        frozen = sorted(sq for sq in pos.squares[side] if is_frozen(pos, sq))
        if frozen:
            names = ", ".join(f"{_name(pos, pos.types.id_of(pos.piece[sq]))} {board.name(sq)}" for sq in frozen)
            events.append(Event(EventKind.FROZEN,
                                f"frozen next to an enemy Hyena, {side_name(side)} cannot move: {names}",
                                tuple(board.name(sq) for sq in frozen)))
    for sq in sorted(pos.squares[side]):
        kind = pos.types[pos.piece[sq]]
        if kind.flee is not None and is_attacked(pos, sq, 1 - side):
            events.append(Event(EventKind.RETREAT, f"{side_name(side)}'s {kind.piece.name} on {board.name(sq)} is "
                                "attacked and may retreat", (board.name(sq),)))
    if in_check(pos, side):
        events.append(Event(EventKind.CHECK, f"{side_name(side)} is in check",
                            tuple(board.name(sq) for sq in sorted(pos.royals[side]))))
    return events


def _name(pos: Position, piece_id: str) -> str:
    return pos.catalogue.get(piece_id).name
