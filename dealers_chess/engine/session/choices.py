"""The choices the rules leave to the player: promotion piece, castling partner or landing square, battle steps.

A move given without its choice (`e7e8` with several promotions, `e1f1` that is a step and a
castling, `O-O` with several landing squares) is answered with a Choice listing the options.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from dealers_chess.engine.board import BoardError
from dealers_chess.engine.errors import IllegalMoveError, NotationError
from dealers_chess.engine.game import Captured, Promotion
from dealers_chess.engine.move import Kind, Move
from dealers_chess.engine.notation import format_move, format_san, parse_move
from dealers_chess.engine.position import Position
from dealers_chess.engine.rules import promotion_choices
from dealers_chess.engine.session.events import side_name

FROM_TO = re.compile(r"^([a-p]\d{1,2})\s*[-x:]?\s*([a-pA-P]\d{1,2})$")
CASTLE_SAN = re.compile(r"^[o0]-[o0](-[o0])?[+#]?$")
NO_PROMOTION = "-"


class ChoiceKind(Enum):
    """What the player is asked."""

    PROMOTION = "promotion"
    CASTLING = "castling"
    BATTLE_PROMOTION = "battle-promotion"


@dataclass(frozen=True, slots=True)
class Option:
    """One answer: the key the player types, what it means, and the move it makes."""

    key: str
    text: str
    notation: str  # the move in coordinate form
    move: Move


@dataclass(frozen=True, slots=True)
class Choice:
    """A question the rules leave to the player, with every allowed answer."""

    kind: ChoiceKind
    prompt: str
    options: tuple[Option, ...]
    squares: tuple[str, ...] = ()

    def option(self, key: str) -> Option | None:
        """The option a typed key names (case-insensitive), or None."""
        want = key.strip().lower().lstrip("=").strip("()")
        return next((o for o in self.options if o.key.lower() == want), None)

    def summary(self) -> str:
        """The question and its options on one line."""
        return f"{self.prompt}: " + ", ".join(f"{o.key} = {o.text}" for o in self.options)


def choice_for(pos: Position, legal: list[Move], frm: int, to: int) -> Choice | None:
    """The choice a move from `frm` to `to` leaves open, or None when it names at most one legal move.

    `to` may also be the royal's own castling partner (the royal dropped on its partner).
    """
    if pos.occ[to] == pos.turn:
        castles = [m for m in legal if m.kind == Kind.CASTLE and m.frm == frm and m.extra == to]
        return _castling_choice(pos, castles) if castles else None
    found = [m for m in legal if m.frm == frm and m.to == to]
    if len(found) < 2:
        return None
    if any(m.kind == Kind.CASTLE for m in found):
        return _castling_choice(pos, found)
    return promotion_choice(pos, found)


def castle_choice(pos: Position, legal: list[Move], text: str) -> Choice | None:
    """For O-O or O-O-O naming several castling moves (free castling), the choice of landing square."""
    clean = text.strip().lower()
    if not CASTLE_SAN.match(clean):
        return None
    long_side = clean.count("-") == 2
    board = pos.board
    found = [m for m in legal if m.kind == Kind.CASTLE and (board.file_of(m.extra) < board.file_of(m.frm)) == long_side]
    return _castling_choice(pos, found) if len(found) > 1 else None


def san_completions(pos: Position, legal: list[Move], text: str) -> list[Move]:
    """Legal moves whose SAN-like form, without its promotion suffix, is `text` (`b8` for b8=Q and b8=R)."""
    want = text.strip().rstrip("+#!?")
    if "=" in want or not want:
        return []
    found = []
    for m in legal:
        if m.promotion is not None and format_san(pos, m, legal).rstrip("+#").rsplit("=", 1)[0] == want:
            found.append(m)
    return found


def read_from_to(pos: Position, text: str) -> tuple[int, int] | None:
    """(from, to) of a plain coordinate move without promotion or partner (`e7e8`, `e7-e8`, `E7-E8`), else None.

    As docs/notation.md reads moves: the from-square in lower case, or the whole text in capitals. `B1c2`
    is SAN (the Bishop on rank 1 to c2), never b1 to c2.
    """
    clean = text.strip()
    match = FROM_TO.match(clean.lower() if clean.isupper() else clean)
    if match is None:
        return None
    try:
        return pos.board.parse_square(match[1]), pos.board.parse_square(match[2].lower())
    except BoardError as error:
        raise NotationError(f"move {text!r}: {error}") from None


def promotion_choice(pos: Position, moves: list[Move]) -> Choice:
    """The choice among moves that differ only in the promotion piece (or none, where promoting is optional)."""
    board = pos.board
    m = moves[0]
    mover = pos.types[pos.piece[m.frm]].piece
    options = tuple(
        Option(
            NO_PROMOTION if move.promotion is None else pos.catalogue.get(move.promotion).code,
            (f"stay a {mover.name}" if move.promotion is None
             else promotion_text(pos, move.promotion, move, mover.promotes_to)),
            format_move(pos, move), move,
        )
        for move in sorted(moves, key=lambda move: move.promotion is None)
    )
    prompt = f"{side_name(pos.turn)}'s {mover.name} reaches {board.name(m.to)}: promote to"
    return Choice(ChoiceKind.PROMOTION, prompt, options, (board.name(m.frm), board.name(m.to)))


def promotion_text(pos: Position, piece_id: str, move: Move, own_list: tuple[str, ...] = ()) -> str:
    """A promotion piece's name and where it comes from (hand, shared extra, the cards drawn, lost pieces);
    `move` is the move that promotes (a battle move for a battle step)."""
    name = pos.catalogue.get(piece_id).name
    game, side = pos.game, pos.turn
    if own_list or game.promotion is Promotion.LIST:
        return name
    if game.promotion is Promotion.HAND_KEPT:
        return f"{name} (a type in the hand)"
    if pos.deck is not None:
        return f"{name} (a card drawn from the stack)"
    if _takes_shared_extra(pos, move, piece_id):
        return f"{name} (shared extra: the other side loses it too)"
    if game.captured is Captured.OWNER:
        return f"{name} (a piece {side_name(side)} has lost)"
    return f"{name} (from {side_name(side)}'s hand)"


def _takes_shared_extra(pos: Position, move: Move, piece_id: str) -> bool:
    """Whether a promotion to piece_id uses a shared extra, found by playing the move: the shared
    extras lose a copy."""
    before = pos.shared.count(piece_id)
    pos.push(move)
    try:
        return pos.shared.count(piece_id) < before
    finally:
        pos.pop()


def _castling_choice(pos: Position, moves: list[Move]) -> Choice:
    """Keys: 'move' for a plain royal step, else the partner's square, or the landing square when one partner."""
    board = pos.board
    royal = pos.types[pos.piece[moves[0].frm]].piece.name
    by_partner = any(m.kind != Kind.CASTLE for m in moves) or len({m.extra for m in moves}) > 1
    options = []
    for move in moves:
        notation = format_move(pos, move)
        if move.kind != Kind.CASTLE:
            label = f"{royal} {board.name(move.frm)}-{board.name(move.to)}, no castling"
            options.append(Option("move", label, notation, move))
            continue
        partner = pos.types[pos.piece[move.extra]].piece.name
        key = board.name(move.extra) if by_partner else board.name(move.to)
        options.append(Option(key, f"castle with the {partner} on {board.name(move.extra)}: {royal} to "
                              f"{board.name(move.to)}, {partner} to {board.name(move.partner_to)}", notation, move))
    prompt = f"{side_name(pos.turn)}'s {royal}: castle or move, which"
    return Choice(ChoiceKind.CASTLING, prompt, tuple(options), (board.name(moves[0].frm),))


def battle_choice(pos: Position, text: str) -> Choice | None:
    """For a battle move whose promoting step names no piece, the choice of piece; else None."""
    parts = [part.strip() for part in text.split("&")]
    for index, part in enumerate(parts):
        pair = read_from_to(pos, part)
        if pair is None or pos.piece[pair[0]] < 0 or pos.occ[pair[0]] != pos.turn:
            continue
        kind = pos.types[pos.piece[pair[0]]]
        if not (kind.promotes and kind.zone[pos.turn][pair[1]]):
            continue
        pieces, optional = promotion_choices(pos, kind, pos.turn)
        keys = [pos.catalogue.get(p).code for p in pieces] + ([NO_PROMOTION] if optional else [])
        options = []
        for key, piece_id in zip(keys, list(pieces) + [None], strict=False):  # staying (None) has a key if optional
            written = "&".join(parts[:index] + [part + ("" if piece_id is None else f"={key}")] + parts[index + 1:])
            try:
                move = parse_move(pos, written)
            except (NotationError, IllegalMoveError):
                continue
            label = (f"stay a {kind.piece.name}" if piece_id is None
                     else promotion_text(pos, piece_id, move, kind.piece.promotes_to))
            options.append(Option(key, label, written, move))
        if len(options) > 1:
            prompt = (f"{side_name(pos.turn)}'s battle move: the {kind.piece.name} reaching "
                      f"{pos.board.name(pair[1])} promotes to")
            return Choice(ChoiceKind.BATTLE_PROMOTION, prompt, tuple(options), (pos.board.name(pair[1]),))
    return None
