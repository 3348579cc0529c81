"""Which cards a deck holds: pieces chosen by set, game, group or id, blanks to fill sheets, legends."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from dealers_chess.cards.face import FaceInfo, blank_face, card_face
from dealers_chess.cards.legend import legend_card
from dealers_chess.cards.primitives import Drawing
from dealers_chess.cards.theme import NEUTRAL
from dealers_chess.engine.measure.values import piece_value, value_margin
from dealers_chess.pieces.catalogue import Catalogue, Group, PieceDef

GROUP_ORDER = tuple(group.value for group in Group)
LEGENDS_PER_DECK = 2  # one per player


class CardKind(Enum):
    """What a card slot holds."""

    FACE = "face"
    BLANK = "blank"
    LEGEND = "legend"


@dataclass(frozen=True, slots=True)
class Card:
    """One card of a deck: a piece's face, a blank write-in card or the legend."""

    kind: CardKind
    group: str  # a Group value, or 'neutral' for the legend and its blanks
    info: FaceInfo | None = None

    @property
    def label(self) -> str:
        return self.info.piece.name if self.info else self.kind.value

    def drawing(self, picture_aspect: float | None = None) -> Drawing:
        """The card's face, its picture slot shaped to the picture's width/height (None: the silhouette's)."""
        if self.kind is CardKind.FACE:
            assert self.info is not None, "a face card carries its piece's FaceInfo (build_deck)"
            return card_face(self.info, picture_aspect)
        if self.kind is CardKind.LEGEND:
            return legend_card()
        return blank_face(self.group)


def select_pieces(
    catalogue: Catalogue, sets: Iterable[str] = (), games: Iterable[str] = (),
    groups: Iterable[str] = (), piece_ids: Iterable[str] = (),
) -> list[PieceDef]:
    """The pieces a deck prints (Catalogue.choose), by group; with nothing given, the starter kit."""
    chosen = catalogue.choose(sets, games, groups, piece_ids, default_sets=("starter",))
    return sorted(chosen, key=lambda p: GROUP_ORDER.index(p.group.value))


def build_deck(
    catalogue: Catalogue, pieces: list[PieceDef], per_sheet: int, legend: bool = True, set_hint: str = "",
    blanks: int = 0,
) -> list[Card]:
    """Faces grouped royal, piece, pawn, spear; each group with at least `blanks` write-in cards of its
    own and padded with more to whole sheets; the legend sheet filled with write-in cards of the
    groups that have fewest, so every group of a whole set gets some, each with its own back."""
    cards: list[Card] = []
    spare: dict[str, tuple[int, int]] = {}  # group -> (write-in cards so far, faces)
    for group in GROUP_ORDER:
        faces = [Card(CardKind.FACE, group, face_info(catalogue, p, set_hint))
                 for p in pieces if p.group.value == group]
        if not faces:
            continue
        count = blanks + (-(len(faces) + blanks) % per_sheet if per_sheet > 1 else 0)
        cards += faces + [Card(CardKind.BLANK, group)] * count
        spare[group] = (count, len(faces))
    if legend:
        count = min(LEGENDS_PER_DECK, per_sheet) if per_sheet > 1 else 1
        free = -count % per_sheet if per_sheet > 1 else 0
        cards += [Card(CardKind.LEGEND, NEUTRAL)] * count + _legend_sheet_blanks(spare, free)
    return cards


def _legend_sheet_blanks(spare: dict[str, tuple[int, int]], free: int) -> list[Card]:
    """`free` write-in cards, each given to the group with fewest so far (ties: the larger group)."""
    counts = dict(spare)
    chosen: list[str] = []
    for _ in range(free):
        group = min(counts, key=lambda g: (counts[g][0], -counts[g][1])) if counts else NEUTRAL
        if counts:
            counts[group] = (counts[group][0] + 1, counts[group][1])
        chosen.append(group)
    order = (*GROUP_ORDER, NEUTRAL)
    return [Card(CardKind.BLANK, group) for group in sorted(chosen, key=order.index)]


def face_info(catalogue: Catalogue, piece: PieceDef, set_hint: str = "") -> FaceInfo:
    """A piece's value on 8x8 and its number within its group in its set."""
    set_id = set_hint if set_hint in piece.sets else (piece.sets[0] if piece.sets else "")
    if set_id:
        members = [p for p in catalogue.select(sets=[set_id]) if p.group is piece.group]
        number, total = members.index(piece) + 1, len(members)
        set_name = set_id.replace("-", " ").title()
    else:
        number, total, set_name = 1, 1, "Custom"
    return FaceInfo(piece, piece_value(piece), set_name, number, total, value_margin(piece))
