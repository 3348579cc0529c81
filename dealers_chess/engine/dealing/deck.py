"""Decks of cards to deal from: the starter kit by default, or a player's own TOML deck file.

A deck file has `royals`, `pieces`, `pawns` and optionally `spears`: lists of catalogue ids, an
id may repeat (two printed copies of a card). Errors name the file, the list and the id.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import msgspec

from dealers_chess.pieces.catalogue import Catalogue, Group
from dealers_chess.pieces.datafile import ONE_LINE, Id, read_toml
from dealers_chess.pieces.errors import DealerError

DECK_KEYS = {"royals": Group.ROYAL, "pieces": Group.PIECE, "pawns": Group.PAWN, "spears": Group.SPEAR}
MIN_ROYALS = 3  # "there should be at least three different Royal pieces available"
MIN_PIECES = 16  # "There must be a minimum of 16 Piece cards"
Cards = Annotated[tuple[Id, ...], msgspec.Meta(max_length=10_000)]


class DeckError(DealerError):
    """A deck that cannot be dealt from."""


@dataclass(frozen=True, slots=True)
class Deck:
    """The cards available to deal, by group; ids may repeat."""

    name: str
    royals: tuple[str, ...]
    pieces: tuple[str, ...]
    pawns: tuple[str, ...]
    spears: tuple[str, ...] = ()

    def with_piece_copies(self, copies: int) -> Deck:
        """The same deck with the piece cards printed `copies` times."""
        return Deck(f"{self.name} (piece cards x{copies})", self.royals, self.pieces * copies, self.pawns, self.spears)


def starter_deck(catalogue: Catalogue) -> Deck:
    """The Dealer's Chess starter kit: every royal, piece and pawn card of the `starter` set."""

    def ids(group: Group) -> tuple[str, ...]:
        return tuple(p.id for p in catalogue.select(sets=["starter"], groups=[group.value]))

    return Deck("starter kit", ids(Group.ROYAL), ids(Group.PIECE), ids(Group.PAWN), ids(Group.SPEAR))


class DeckFile(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The declared shape of a deck file: lists of catalogue ids (one entry per printed card)."""

    royals: Cards = ()
    pieces: Cards = ()
    pawns: Cards = ()
    spears: Cards = ()
    name: Annotated[str, msgspec.Meta(pattern=ONE_LINE, max_length=100)] | None = None


def load_deck(path: str | Path, catalogue: Catalogue) -> Deck:
    """A deck from a TOML file; raise DeckError naming the file, list and id that are wrong."""
    path = Path(path)
    data = read_toml(path, "deck", DeckError, DeckFile)
    for key, group in DECK_KEYS.items():
        _check_cards(path, key, getattr(data, key), group, catalogue)
    return Deck(data.name or path.stem, data.royals, data.pieces, data.pawns, data.spears)


def _check_cards(path: Path, key: str, cards: tuple[str, ...], group: Group, catalogue: Catalogue) -> None:
    for piece_id in dict.fromkeys(cards):
        actual = catalogue.get(piece_id).group  # an unknown id raises with the closest names
        if actual is not group:
            raise DeckError(
                f"{path}: {key}: {piece_id!r} is a {actual.value} card; {key} may hold only {group.value} cards"
            )


def check_deck(deck: Deck, pieces_needed: int, pawns_needed: int, spears_needed: int) -> None:
    """Raise DeckError unless the deck meets the seed's minimums and holds enough cards to deal."""
    checks = [
        (len(set(deck.royals)) >= MIN_ROYALS,
         f"needs at least {MIN_ROYALS} different royal cards, has {len(set(deck.royals))}"),
        (len(deck.pieces) >= MIN_PIECES, f"needs at least {MIN_PIECES} piece cards, has {len(deck.pieces)}"),
        (len(deck.pieces) >= pieces_needed,
         f"needs {pieces_needed} piece cards for this deal, has {len(deck.pieces)}"),
        (len(deck.pawns) >= pawns_needed, f"needs {pawns_needed} pawn cards for this board, has {len(deck.pawns)}"),
        (len(deck.spears) >= spears_needed,
         f"needs {spears_needed} spear cards for a spear row, has {len(deck.spears)}"),
    ]
    problems = [problem for ok, problem in checks if not ok]
    if problems:  # every shortfall at once, so one edit of the deck file can mend them all
        raise DeckError(f"deck {deck.name!r} {'; '.join(problems)}")
