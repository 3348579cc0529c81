"""Dealing the armies of Dealer's Chess (seed 004): procedures, the deal, arrangements, balance.

`deal()` shuffles and deals cards reproducibly from a seed; `arrange()` puts the dealt cards on
the board (automatically, or as the player chose) and yields an `Army` per side.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from importlib import resources

from dealers_chess.engine.board import Board, board_of
from dealers_chess.engine.dealing.deck import Deck, check_deck
from dealers_chess.engine.measure.values import piece_value, value_margin
from dealers_chess.engine.rng import SplitMix64
from dealers_chess.pieces.catalogue import Catalogue
from dealers_chess.pieces.errors import DealerError

SIDES = ("white", "black")
MAX_DEALS = 10_000


class ExtraRow(Enum):
    """What stands between the pieces and the pawns."""

    NONE = "none"
    PIECES = "pieces"
    SPEARS = "spears"


class DealError(DealerError):
    """A deal or arrangement the rules do not allow."""


@dataclass(frozen=True, slots=True)
class Procedure:
    """One set-up procedure from the seed: counts per player."""

    board_name: str
    extra_row: ExtraRow
    piece_rows: int
    pieces_dealt: int
    pawns: int
    shared_extras: int

    @property
    def simplified(self) -> bool:
        return self.board_name == "simplified"

    @property
    def board(self) -> Board:
        return board_of(8, 8) if self.simplified else board_of(*map(int, self.board_name.split("x")))

    @property
    def files(self) -> int:
        return self.board.files

    @property
    def pieces_on_board(self) -> int:
        extra = self.files if self.extra_row is ExtraRow.PIECES else 0
        return self.files * self.piece_rows - 1 + extra

    @property
    def spears(self) -> int:
        return self.files if self.extra_row is ExtraRow.SPEARS else 0

    @property
    def game(self) -> str:
        return "dealers-simplified" if self.simplified else f"dealers-{self.board_name}"


def load_procedures() -> list[Procedure]:
    """Every procedure in assets/dealing/procedures.toml."""
    text = (resources.files("dealers_chess.assets") / "dealing" / "procedures.toml").read_text(encoding="utf-8")
    return [
        Procedure(
            t["board"], ExtraRow(t["extra_row"]), t["piece_rows"], t["pieces_dealt"], t["pawns"], t["shared_extras"]
        )
        for t in tomllib.loads(text)["procedure"]
    ]


def find_procedure(board: str, extra_row: str = "none") -> Procedure:
    """The procedure for a board and extra-row option; raise DealError listing what the seed allows."""
    procedures = load_procedures()
    for procedure in procedures:
        if procedure.board_name == board and procedure.extra_row.value == extra_row:
            return procedure
    allowed = ", ".join(
        f"{p.board_name}" + (f" --extra-row {p.extra_row.value}" if p.extra_row is not ExtraRow.NONE else "")
        for p in procedures
    )
    raise DealError(f"board {board!r} with extra row {extra_row!r} is not a set-up in the rules; allowed: {allowed}")


@dataclass(frozen=True, slots=True)
class Hand:
    """The cards one player was dealt."""

    royal: str
    pieces: tuple[str, ...]
    pawns: tuple[str, ...]
    spears: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Deal:
    """Cards dealt from a deck by a procedure; `attempts` counts re-deals for balance."""

    seed: int
    procedure: Procedure
    deck: Deck
    white: Hand
    black: Hand
    shared: tuple[str, ...]
    draw_stack: tuple[str, ...]  # undealt piece cards, top first (big-deck option)
    attempts: int = 1

    def hand(self, side: str) -> Hand:
        return self.white if side == "white" else self.black


def deck_for(procedure: Procedure, deck: Deck, default: bool) -> Deck:
    """The deck to deal from: the default starter deck gets extra piece copies if the deal needs them."""
    needed = 2 * procedure.pieces_dealt + procedure.shared_extras
    if default and len(deck.pieces) < needed:
        copies = -(-needed // max(len(deck.pieces), 1))
        deck = deck.with_piece_copies(copies)
    check_deck(deck, needed, 2 * procedure.pawns, 2 * procedure.spears)
    return deck


def deal(procedure: Procedure, deck: Deck, seed: int, rng: SplitMix64 | None = None) -> Deal:
    """Shuffle each stack and deal alternately, White first, as at a real table."""
    rng = rng or SplitMix64(seed)
    royals, pieces, pawns, spears = (list(cards) for cards in (deck.royals, deck.pieces, deck.pawns, deck.spears))
    for stack in (royals, pieces, pawns, spears):
        rng.shuffle(stack)
    n, p, s = procedure.pieces_dealt, procedure.pawns, procedure.spears
    white = Hand(royals[0], tuple(pieces[0 : 2 * n : 2]), tuple(pawns[0 : 2 * p : 2]), tuple(spears[0 : 2 * s : 2]))
    black = Hand(royals[1], tuple(pieces[1 : 2 * n : 2]), tuple(pawns[1 : 2 * p : 2]), tuple(spears[1 : 2 * s : 2]))
    shared = tuple(pieces[2 * n : 2 * n + procedure.shared_extras])
    return Deal(seed, procedure, deck, white, black, shared, tuple(pieces[2 * n + procedure.shared_extras :]))


def army_value(cards: Sequence[str], catalogue: Catalogue, board: Board) -> float:
    """The sum of the cards' values on a board."""
    return round(sum(piece_value(catalogue.get(card), board) for card in cards), 2)


def hand_cards(deal_: Deal, side: str) -> tuple[str, ...]:
    """The cards one player's value counts: royal, dealt pieces, pawns, spears and the shared extras."""
    hand = deal_.hand(side)
    return (hand.royal, *hand.pieces, *hand.pawns, *hand.spears, *deal_.shared)


def hand_value(deal_: Deal, side: str, catalogue: Catalogue) -> float:
    """One player's total: royal, dealt pieces, pawns, spears and the shared extras."""
    return army_value(hand_cards(deal_, side), catalogue, deal_.procedure.board)


def imbalance_margin(deal_: Deal, catalogue: Catalogue) -> tuple[float, int]:
    """How uncertain the imbalance is: the 95 % margins of the measured values of both sides' cards taken
    together (as if independent), and how many cards have only the model's estimate."""
    board = deal_.procedure.board
    squares, model_cards = 0.0, 0
    for side in ("white", "black"):
        for card in hand_cards(deal_, side):
            margin = value_margin(catalogue.get(card), board)
            if margin is None:
                model_cards += 1
            else:
                squares += margin * margin
    return round(squares ** 0.5, 2), model_cards


def balanced_deal(
    procedure: Procedure, deck: Deck, seed: int, catalogue: Catalogue, max_imbalance: float | None
) -> Deal:
    """Deal, and re-deal from the same seed's stream while the armies differ by more than allowed."""
    if max_imbalance is not None and not 0 <= max_imbalance <= 1000:  # also refuses nan
        raise DealError(f"--max-imbalance {max_imbalance}: expected a number from 0 to 1000")
    if max_imbalance is not None and procedure.simplified:
        raise DealError("--max-imbalance does not apply to the simplified game: both sides play the orthodox set-up")
    rng = SplitMix64(seed)
    for attempt in range(1, MAX_DEALS + 1):
        candidate = deal(procedure, deck, seed, rng)
        if procedure.simplified or max_imbalance is None:
            return candidate
        gap = abs(hand_value(candidate, "white", catalogue) - hand_value(candidate, "black", catalogue))
        if gap <= max_imbalance:
            return Deal(**{**_fields(candidate), "attempts": attempt})
    raise DealError(f"no deal within --max-imbalance {max_imbalance} in {MAX_DEALS} deals; allow a larger gap")


def _fields(deal_: Deal) -> dict:
    return {name: getattr(deal_, name) for name in Deal.__dataclass_fields__}


@dataclass(frozen=True, slots=True)
class Army:
    """One side's set-up: rows of pieces from the back edge, by file from a, and what is kept in hand."""

    side: str
    royal: str
    rows: tuple[tuple[str, ...], ...]  # piece rows, the royal's row first; each by file from a
    pawns: tuple[str, ...]  # by file from a
    hand: tuple[str, ...]  # own cards kept in hand (the shared extras are listed on the Deal)
    promotes_to: tuple[str, ...] = ()  # simplified: the stand-ins for Q, R, B, N
    discarded: tuple[str, ...] = ()  # simplified: cards drawn but not used
