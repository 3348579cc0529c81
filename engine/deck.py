"""Decks of cards to deal from: the starter kit by default, or a player's own TOML deck file.

A deck file has `royals`, `pieces`, `pawns` and optionally `spears`: lists of catalogue ids, an
id may repeat (two printed copies of a card). Errors name the file, the list and the id.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pieces.catalogue import Catalogue, Group
from pieces.datafile import read_toml
from pieces.errors import DealerError

DECK_KEYS = {"royals": Group.ROYAL, "pieces": Group.PIECE, "pawns": Group.PAWN, "spears": Group.SPEAR}
MIN_ROYALS = 3  # "there should be at least three different Royal pieces available"
MIN_PIECES = 16  # "There must be a minimum of 16 Piece cards"


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


def load_deck(path: str | Path, catalogue: Catalogue) -> Deck:
    """A deck from a TOML file; raise DeckError naming the file, list and id that are wrong."""
    path = Path(path)
    data = read_toml(path, "deck", DeckError)
    unknown = set(data) - set(DECK_KEYS) - {"name"}
    if unknown:
        raise DeckError(f"{path}: unknown key {sorted(unknown)[0]!r}; allowed: name, {', '.join(DECK_KEYS)}")
    lists = {key: _read_list(path, data, key, group, catalogue) for key, group in DECK_KEYS.items()}
    name = data.get("name", path.stem)
    if not isinstance(name, str):
        raise DeckError(f"{path}: name: expected a string")
    return Deck(name, lists["royals"], lists["pieces"], lists["pawns"], lists["spears"])


def _read_list(path: Path, data: dict, key: str, group: Group, catalogue: Catalogue) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise DeckError(f"{path}: {key}: expected a list of piece ids")
    for piece_id in value:
        if piece_id not in catalogue:
            catalogue.get(piece_id)  # raises with the closest names
        if catalogue.get(piece_id).group is not group:
            actual = catalogue.get(piece_id).group.value
            raise DeckError(f"{path}: {key}: {piece_id!r} is a {actual} card; {key} may hold only {group.value} cards")
    return tuple(value)


def check_deck(deck: Deck, pieces_needed: int, pawns_needed: int, spears_needed: int) -> None:
    """Raise DeckError unless the deck meets the seed's minimums and holds enough cards to deal."""
    checks = [
        (len(set(deck.royals)) >= MIN_ROYALS, f"needs at least {MIN_ROYALS} different royal cards, has {len(set(deck.royals))}"),
        (len(deck.pieces) >= MIN_PIECES, f"needs at least {MIN_PIECES} piece cards, has {len(deck.pieces)}"),
        (len(deck.pieces) >= pieces_needed, f"needs {pieces_needed} piece cards for this deal, has {len(deck.pieces)}"),
        (len(deck.pawns) >= pawns_needed, f"needs {pawns_needed} pawn cards for this board, has {len(deck.pawns)}"),
        (len(deck.spears) >= spears_needed, f"needs {spears_needed} spear cards for a spear row, has {len(deck.spears)}"),
    ]
    for ok, problem in checks:
        if not ok:
            raise DeckError(f"deck {deck.name!r} {problem}")
