"""A finished deal as plain data: the JSON players script against and `--deal FILE` reads back."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.arrangement import placement
from engine.dealing import Army, Deal, DealError, ExtraRow, hand_value
from pieces.datafile import read_json


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
    data = {
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
    data = {
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
        "big_deck": game.big_deck,
        "fen": fen,
    }
    if game.big_deck:
        data["draw_stack"] = list(deal.draw_stack)
    return data


def read_deal_file(path: str | Path) -> dict:
    """A saved deal's JSON; raise DealError naming the file if it is missing or damaged."""
    data = read_json(path, "deal", DealError)
    if not isinstance(data, dict):
        raise DealError(f"{path}: not a deal file; expected a JSON object")
    missing = [key for key in ("seed", "board", "game", "white", "black", "fen") if key not in data]
    if missing:
        raise DealError(f"{path}: not a complete deal file; missing {', '.join(missing)}")
    return data


def cards_in_play(data: dict) -> list[str]:
    """Every distinct card a saved deal uses, royals first, in the order dealt."""
    cards: dict[str, None] = {}
    for side in ("white", "black"):
        cards[data[side]["royal"]] = None
    for side in ("white", "black"):
        dealt = data[side].get("dealt", {})
        for key in ("pieces", "spears", "pawns"):
            cards.update(dict.fromkeys(dealt.get(key, [])))
    cards.update(dict.fromkeys(data.get("shared", [])))
    return list(cards)
