"""Putting dealt cards on the board: the player's own choice, checked, or an automatic arrangement.

The automatic arrangement follows the seed's guidelines: the strongest cards go on the board,
the rest to hand; on two piece rows, sliders and long leapers stand behind the short movers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated

import msgspec

from dealers_chess.engine.board import MAX_FILES, Board
from dealers_chess.engine.dealing.deal import Army, Deal, DealError, ExtraRow, Procedure
from dealers_chess.engine.measure.values import piece_value
from dealers_chess.pieces.catalogue import Catalogue, PieceDef
from dealers_chess.pieces.datafile import Id, read_toml

UNLIMITED_REACH = 99
SIMPLIFIED_ROW = ("rook", "knight", "bishop", "queen", "royal", "bishop", "knight", "rook")


@dataclass(frozen=True, slots=True)
class Choice:
    """A player's arrangement; anything left as None is arranged automatically.

    rows: piece rows from the back edge, by file from a; the royal's square may be left out of
    the first row. Simplified deals take rows = [[queen, rook, bishop, knight]] and one pawn.
    """

    rows: tuple[tuple[str, ...], ...] | None = None
    pawns: tuple[str, ...] | None = None


def royal_file(procedure: Procedure) -> int:
    """The centre file of the back row whose square has the colour opposite to White's (dark)."""
    files = procedure.files
    return next(f for f in ((files - 1) // 2, files // 2) if f % 2 == 0)


def reach(piece: PieceDef) -> int:
    """How far the piece's longest move goes on an empty board (sliders: unlimited)."""
    longest = 0
    for path in piece.movement.paths:
        dx = dy = 0
        for leg in path.legs:
            if leg.max_steps is None:
                return UNLIMITED_REACH
            dx += leg.vector[0] * leg.max_steps
            dy += leg.vector[1] * leg.max_steps
        longest = max(longest, abs(dx), abs(dy))
    return longest


def leaning(piece: PieceDef) -> int:
    """+1 if the piece's moves lean to its right (it belongs at its left end), -1 if left, else 0."""
    total = sum(sum(leg.vector[0] for leg in path.legs) for path in piece.movement.paths)
    return (total > 0) - (total < 0)


def square_order(files: int, royal: int) -> list[int]:
    """Files of a back row in the order the strongest pieces fill them: beside the royal, corners, centre out."""
    first = [royal - 1, 0, files - 1]
    rest = sorted((f for f in range(files) if f not in first and f != royal), key=lambda f: (abs(f - royal), f))
    return first + rest


def arrange(deal: Deal, side: str, catalogue: Catalogue, choice: Choice | None = None) -> Army:
    """One side's army from the deal: the player's choice where given, checked, else automatic."""
    choice = choice or Choice()
    if deal.procedure.simplified:
        return _arrange_simplified(deal, side, catalogue, choice)
    hand = deal.hand(side)
    rows = _checked_rows(deal, side, choice.rows) if choice.rows else _auto_rows(deal, side, catalogue)
    placed = Counter(card for row in rows for card in row) - Counter([hand.royal]) - Counter(hand.spears)
    kept = tuple((Counter(hand.pieces) - placed).elements())
    pawns = _checked_pawns(hand.pawns, side, choice.pawns) if choice.pawns else _auto_pawns(hand.pawns, side, catalogue)
    return Army(side, hand.royal, rows, pawns, kept)


def _value(catalogue: Catalogue, board: Board):
    return lambda card: piece_value(catalogue.get(card), board)


def _auto_rows(deal: Deal, side: str, catalogue: Catalogue) -> tuple[tuple[str, ...], ...]:
    procedure, hand = deal.procedure, deal.hand(side)
    value = _value(catalogue, procedure.board)
    chosen = sorted(hand.pieces, key=value, reverse=True)[: procedure.pieces_on_board]
    by_reach = sorted(chosen, key=lambda card: (reach(catalogue.get(card)), value(card)), reverse=True)
    royal = royal_file(procedure)
    rows = [_fill_row(by_reach[: procedure.files - 1], procedure.files, royal, hand.royal, value)]
    rest = by_reach[procedure.files - 1 :]
    while rest:
        row, rest = rest[: procedure.files], rest[procedure.files :]
        rows.append(_fill_row(row, procedure.files, None, None, value))
    if procedure.extra_row is ExtraRow.SPEARS:
        rows.append(tuple(hand.spears))
    return tuple(rows)


def _fill_row(cards: Sequence[str], files: int, royal: int | None, royal_card: str | None, value) -> tuple[str, ...]:
    row: list[str | None] = [None] * files
    if royal is not None:
        row[royal] = royal_card
    order = square_order(files, royal if royal is not None else files // 2)
    if royal is None:
        order = [files // 2] + order
    # every procedure deals a card for each free square; a hand short of cards would leave squares None
    for square, card in zip([f for f in order if row[f] is None], sorted(cards, key=value, reverse=True), strict=False):
        row[square] = card
    return tuple(row)  # type: ignore[arg-type]  # no None left: the cards filled every free square


def _checked_rows(deal: Deal, side: str, chosen: Sequence[Sequence[str]]) -> tuple[tuple[str, ...], ...]:
    procedure, hand = deal.procedure, deal.hand(side)
    royal = royal_file(procedure)
    rows = [list(row) for row in chosen]
    if rows and len(rows[0]) == procedure.files - 1:
        rows[0].insert(royal, hand.royal)
    spear_rows = 1 if procedure.extra_row is ExtraRow.SPEARS else 0
    expected_rows = procedure.piece_rows + (procedure.extra_row is not ExtraRow.NONE)
    if len(rows) != expected_rows:
        raise DealError(f"{side}: the arrangement has {len(rows)} rows; this set-up needs {expected_rows}")
    for number, row in enumerate(rows, start=1):
        if len(row) != procedure.files:
            without_royal = f", or {procedure.files - 1} without the royal's square" if number == 1 else ""
            card_s = "card" if len(row) == 1 else "cards"
            raise DealError(f"{side}: row {number} has {len(row)} {card_s}; it needs {procedure.files} "
                            f"(one per file{without_royal})")
    if rows[0][royal] != hand.royal:
        raise DealError(f"{side}: the royal {hand.royal!r} stands on file {'abcdefghijklmnop'[royal]} of the first row")
    piece_rows = rows[: len(rows) - spear_rows]
    placed = Counter(c for r in piece_rows for c in r) - Counter([hand.royal])
    _check_subset(side, "pieces", placed, Counter(hand.pieces))
    if spear_rows:
        _check_subset(side, "spears", Counter(rows[-1]), Counter(hand.spears))
    return tuple(tuple(row) for row in rows)


def _check_subset(side: str, what: str, placed: Counter, dealt: Counter) -> None:
    extra = placed - dealt
    if extra:
        card = next(iter(extra))
        raise DealError(
            f"{side}: {card!r} was not dealt to {side} (or not that many times); "
            f"dealt {what}: {', '.join(sorted(dealt.elements()))}"
        )


def _checked_pawns(dealt: Sequence[str], side: str, pawns: Sequence[str]) -> tuple[str, ...]:
    if Counter(pawns) != Counter(dealt):
        raise DealError(f"{side}: pawns must be exactly the pawn cards dealt, in any order: {', '.join(sorted(dealt))}")
    return tuple(pawns)


def _auto_pawns(dealt: Sequence[str], side: str, catalogue: Catalogue) -> tuple[str, ...]:
    """Pawns in the order dealt, but one whose moves lean right stands at its own left end, and vice versa."""
    lean = {card: leaning(catalogue.get(card)) for card in dealt}
    ordered = [c for c in dealt if lean[c] > 0] + [c for c in dealt if lean[c] == 0] + [c for c in dealt if lean[c] < 0]
    return tuple(ordered) if side == "white" else tuple(reversed(ordered))


def placement(procedure: Procedure, army: Army) -> dict[int, str]:
    """Square index -> piece id for one side's army (rows from its own back edge, then pawns)."""
    board = procedure.board
    rank_of_row = (lambda k: k) if army.side == "white" else (lambda k: board.ranks - 1 - k)
    squares = {}
    for k, row in enumerate((*army.rows, army.pawns)):
        for file, card in enumerate(row):
            squares[board.square(file, rank_of_row(k))] = card
    return squares


def _arrange_simplified(deal: Deal, side: str, catalogue: Catalogue, choice: Choice) -> Army:
    hand = deal.hand(side)
    value = _value(catalogue, deal.procedure.board)
    if choice.rows:
        stand_ins = tuple(choice.rows[0])
        if len(stand_ins) != 4 or len(set(stand_ins)) != 4:
            raise DealError(f"{side}: a simplified deal takes four different cards: queen, rook, bishop, knight")
        _check_subset(side, "pieces", Counter(stand_ins), Counter(hand.pieces))
    else:
        ranked = sorted(hand.pieces, key=value, reverse=True)
        stand_ins = tuple(ranked[:4])
    queen, rook, bishop, knight = stand_ins
    if choice.pawns:
        if len(choice.pawns) != 1 or choice.pawns[0] not in hand.pawns:
            raise DealError(f"{side}: choose one of the pawn cards drawn: {', '.join(hand.pawns)}")
        pawn = choice.pawns[0]
    else:
        pawn = max(hand.pawns, key=value)
    names = {"queen": queen, "rook": rook, "bishop": bishop, "knight": knight, "royal": hand.royal}
    row = tuple(names[slot] for slot in SIMPLIFIED_ROW)
    unused = Counter(hand.pieces) - Counter(stand_ins)
    discarded = tuple(unused.elements()) + tuple(p for p in hand.pawns if p != pawn)
    return Army(side, hand.royal, (row,), (pawn,) * 8, (), (queen, rook, bishop, knight), discarded)


def parse_rows(text: str) -> tuple[tuple[str, ...], ...]:
    """Rows written on the command line: ids separated by commas, rows by '/' (back row first)."""
    return tuple(tuple(card.strip() for card in row.split(",") if card.strip()) for row in text.split("/"))


Row = Annotated[tuple[Id, ...], msgspec.Meta(max_length=MAX_FILES)]


class ArrangedSide(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One side of an arrangement file: piece rows from the back edge (or just the back rank) and pawns."""

    rows: Annotated[tuple[Row, ...], msgspec.Meta(max_length=4)] = ()
    back_rank: Row | None = None
    pawns: Row | None = None


class ArrangementFile(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The declared shape of an arrangement file (`dealer deal --arrange FILE`)."""

    white: ArrangedSide | None = None
    black: ArrangedSide | None = None


def load_choices(path) -> dict[str, Choice]:
    """Arrangements from a TOML file with [white] and [black] tables of `rows` (or `back_rank`) and `pawns`."""
    data = read_toml(path, "arrangement", DealError, ArrangementFile)
    choices = {}
    for side in ("white", "black"):
        table = getattr(data, side)
        if table is not None:
            rows = table.rows or ((table.back_rank,) if table.back_rank else None)
            choices[side] = Choice(rows, table.pawns or None)
    return choices
