"""A finished deal as plain data: the JSON players script against and `--deal FILE` reads back."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import msgspec

from dealers_chess.engine.dealing.arrangement import Row, placement
from dealers_chess.engine.dealing.deal import Army, Deal, DealError, ExtraRow, hand_value, imbalance_margin
from dealers_chess.pieces.datafile import ONE_LINE, Id, Text, read_json

DEAL_VERSION = 1  # the deal file format written here; a file without `version` is version 1
Cards = Annotated[tuple[Id, ...], msgspec.Meta(max_length=1000)]
Finite = Annotated[float, msgspec.Meta(ge=-1e6, le=1e6)]


@dataclass(frozen=True, slots=True)
class DealtGame:
    """A deal with both armies arranged: everything needed to set up the board and play."""

    deal: Deal
    white: Army
    black: Army
    big_deck: bool = False

    def army(self, side: str) -> Army:
        return self.white if side == "white" else self.black

    def squares(self) -> dict[int, tuple[str, str]]:
        """Square index -> (piece id, side) for the whole starting position."""
        found: dict[int, tuple[str, str]] = {}
        for army in (self.white, self.black):
            for square, card in placement(self.deal.procedure, army).items():
                found[square] = (card, army.side)
        return found

    def hand(self, side: str) -> tuple[str, ...]:
        """Every piece one side may promote to: its kept cards and the shared extras (simplified: its stand-ins)."""
        army = self.army(side)
        return army.promotes_to if self.deal.procedure.simplified else army.hand + self.deal.shared


def side_json(game: DealtGame, side: str, catalogue) -> dict:
    """One side of the deal JSON."""
    deal, army = game.deal, game.army(side)
    procedure = deal.procedure
    other = deal.hand("black" if side == "white" else "white")
    data: dict[str, object] = {
        "royal": army.royal,
        "back_rank": list(army.rows[0]),
    }
    if procedure.piece_rows > 1:
        data["back_ranks"] = [list(row) for row in army.rows[: procedure.piece_rows]]
    if procedure.extra_row is not ExtraRow.NONE:
        data["extra_row"] = list(army.rows[procedure.piece_rows])
    data.update(
        pawns=list(army.pawns),
        hand=list(game.hand(side)),
        kept=list(army.hand),
        dealt={"pieces": list(deal.hand(side).pieces), "pawns": list(deal.hand(side).pawns),
               "spears": list(deal.hand(side).spears)},
        dopplegangers=sorted(other.pieces),
        value=hand_value(deal, side, catalogue),
    )
    if procedure.simplified:
        data.update(promotes_to=list(army.promotes_to), discarded=list(army.discarded))
    return data


def deal_json(game: DealtGame, catalogue, fen: str) -> dict:
    """The whole deal as the stable JSON of `dealer deal --json`."""
    deal = game.deal
    white, black = side_json(game, "white", catalogue), side_json(game, "black", catalogue)
    margin, model_cards = imbalance_margin(deal, catalogue)
    data = {
        "version": DEAL_VERSION,
        "seed": deal.seed,
        "board": deal.procedure.board.label if not deal.procedure.simplified else "8x8",
        "procedure": deal.procedure.board_name,
        "extra_row": deal.procedure.extra_row.value,
        "game": deal.procedure.game,
        "deck": deal.deck.name,
        "deals": deal.attempts,
        "white": white,
        "black": black,
        "shared": list(deal.shared),
        "imbalance": round(abs(white["value"] - black["value"]), 2),
        "imbalance_margin": margin,  # 95 % margin from the measured values' intervals
        "model_cards": model_cards,  # cards valued by the model's estimate, whose margin is not known
        "big_deck": game.big_deck,
        "fen": fen,
    }
    if game.big_deck:
        data["draw_stack"] = list(deal.draw_stack)
    return data


class DealtCards(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The cards one side was dealt."""

    pieces: Cards = ()
    pawns: Cards = ()
    spears: Cards = ()


class DealSide(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """One side of a saved deal (see `side_json`)."""

    royal: Id
    back_rank: Row
    pawns: Row
    back_ranks: Annotated[tuple[Row, ...], msgspec.Meta(max_length=4)] = ()
    extra_row: Row = ()
    hand: Cards = ()
    kept: Cards = ()
    dealt: DealtCards = DealtCards()
    dopplegangers: Cards = ()
    value: Finite = 0.0
    promotes_to: Cards = ()
    discarded: Cards = ()


class DealFile(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The declared shape of a deal file (`dealer deal --save FILE`, read by every `--deal FILE`)."""

    seed: int
    board: Annotated[str, msgspec.Meta(pattern=ONE_LINE, max_length=10)]
    game: Annotated[str, msgspec.Meta(pattern=ONE_LINE, max_length=500)]
    white: DealSide
    black: DealSide
    fen: Annotated[str, msgspec.Meta(pattern=ONE_LINE, max_length=10_000)]
    version: int = 1
    procedure: Text = ""
    extra_row: Text = ""
    deck: Text = ""
    deals: Annotated[int, msgspec.Meta(ge=0)] = 1
    shared: Cards = ()
    imbalance: Finite = 0.0
    imbalance_margin: Finite = 0.0
    model_cards: Annotated[int, msgspec.Meta(ge=0, le=10_000)] = 0
    big_deck: bool = False
    draw_stack: Cards = ()

    def side(self, name: str) -> DealSide:
        return self.white if name == "white" else self.black


def read_deal_file(path: str | Path) -> DealFile:
    """A saved deal; raise DealError naming the file and field if it is missing, damaged or of an unknown version."""
    data = read_json(path, "deal", DealError, DealFile)
    if data.version != DEAL_VERSION:
        raise DealError(
            f"{path}: version {data.version} is not known; this dealer reads deal files of version {DEAL_VERSION}"
        )
    return data


def cards_in_play(data: DealFile) -> list[str]:
    """Every distinct card a saved deal uses, royals first, in the order dealt."""
    cards: dict[str, None] = {data.white.royal: None, data.black.royal: None}
    for side in (data.white, data.black):
        cards.update(dict.fromkeys((*side.dealt.pieces, *side.dealt.spears, *side.dealt.pawns)))
    cards.update(dict.fromkeys(data.shared))
    return list(cards)
