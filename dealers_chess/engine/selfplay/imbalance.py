"""Imbalanced starts: the material each side of a measuring game has, as a FEN and as a sum of values.

A matchup puts one army (A) against another (B) that differs from it by a few pieces. Its games
say by how many Pawns A is stronger (engine.selfplay.estimate), and `terms` says which values that
difference is made of: {piece id: count in A minus count in B}. Each matchup measures one piece,
its `target`, from values measured before it (`needs`). docs/values.md gives the method.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources

from dealers_chess.engine.game import GameDef, load_game
from dealers_chess.engine.notation import piece_letters
from dealers_chess.pieces.catalogue import Catalogue, Group, PieceDef
from dealers_chess.pieces.errors import DealerError

PAWN = "standard-pawn"  # the unit: worth 1 by definition
KING = "king"
GUARD = "guard"  # the King's moves on a piece: what the King is worth, for the royals' scale
YARDSTICKS = (None, "knight", "rook", "queen")  # what can stand in B's slot against a measured piece
MAX_ODDS = 3  # at most this many Pawns dropped to even a matchup out
LADDER = ("knight", "rook", "queen", "bishop")


class MeasureError(DealerError):
    """A piece that cannot be measured, or a results file that does not fit the run."""


@dataclass(frozen=True, slots=True)
class Base:
    """An orthodox start to unbalance (assets/values/bases.toml)."""

    board: str
    game: str
    back: tuple[str, ...]  # White's back rank, catalogue codes from the a-file
    slot: int  # the Queen's file: a measured piece stands there, a yardstick on the other side
    king: int
    bishops: tuple[int, ...]
    pawn_swap_order: tuple[int, ...]
    pawn_drop_order: tuple[int, ...]

    @property
    def files(self) -> int:
        return len(self.back)

    def game_def(self) -> GameDef:
        return load_game(self.game if not self.game.endswith(".toml") else str(_values_folder() / self.game))


def _values_folder():
    return resources.files("dealers_chess.assets") / "values"


@cache
def bases() -> dict[str, Base]:
    """The bases by board size ("8x8", "10x10", "12x12")."""
    data = tomllib.loads((_values_folder() / "bases.toml").read_text())

    def files(text: str) -> tuple[int, ...]:
        return tuple(ord(c) - ord("a") for c in text)

    return {size: Base(size, row["game"], tuple(row["back"]), files(row["slot"])[0], files(row["king"])[0],
                       files("".join(row["bishops"])), files(row["pawn_swap_order"]), files(row["pawn_drop_order"]))
            for size, row in data["board"].items()}


def base_for(board: str) -> Base:
    """The base of a board size; MeasureError naming the sizes there are."""
    try:
        return bases()[board]
    except KeyError:
        raise MeasureError(f"values are measured on {', '.join(bases())}; not on {board!r}") from None


@dataclass(frozen=True, slots=True)
class Army:
    """One side: its back rank and its pawns, piece ids by file (None: an empty square)."""

    back: tuple[str | None, ...]
    pawns: tuple[str | None, ...]

    def count(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for piece_id in (*self.back, *self.pawns):
            if piece_id is not None:
                found[piece_id] = found.get(piece_id, 0) + 1
        return found


@dataclass(frozen=True, slots=True)
class Matchup:
    """A against B: games from this start measure `target`'s value from the values in `needs`."""

    id: str
    target: str
    form: str  # "scale", "piece", "pair", "royal", "pawn", "spear"
    a: Army
    b: Army
    terms: tuple[tuple[str, int], ...]  # (piece id, count in A minus count in B), target included

    @property
    def needs(self) -> tuple[str, ...]:
        return tuple(piece for piece, _ in self.terms if piece != self.target)

    def fen(self, catalogue: Catalogue, a_is_white: bool) -> str:
        """The start with A as White (White to move) or as Black (White, that is B, to move first)."""
        white, black = (self.a, self.b) if a_is_white else (self.b, self.a)
        files = len(white.back)

        def row(ids, black_side: bool) -> str:
            text, empty = "", 0
            for piece_id in ids:
                if piece_id is None:
                    empty += 1
                    continue
                text += (str(empty) if empty else "") + piece_letters(catalogue.get(piece_id).code, black_side)
                empty = 0
            return text + (str(empty) if empty else "")

        middle = [str(files)] * (files - 4)
        rows = [row(black.back, True), row(black.pawns, True), *middle, row(white.pawns, False),
                row(white.back, False)]
        return "/".join(rows) + f" w {_castling(white, black)} - 0 1"


def _castling(white: Army, black: Army) -> str:
    """KQkq where the corners still hold rooks (a royal of any kind castles with them)."""
    rights = ""
    for army, letters in ((white, "KQ"), (black, "kq")):
        for corner, letter in ((-1, letters[0]), (0, letters[1])):
            if army.back[corner] == "rook":
                rights += letter
    return rights or "-"


def base_army(base: Base, catalogue: Catalogue) -> Army:
    """The orthodox army of a base."""
    by_code = {catalogue.get(piece_id).code: piece_id for piece_id in ("king", "queen", "rook", "bishop", "knight")}
    return Army(tuple(by_code[code] for code in base.back), (PAWN,) * base.files)


def _with(army: Army, back: dict[int, str | None] | None = None, pawns: dict[int, str | None] | None = None) -> Army:
    new_back, new_pawns = list(army.back), list(army.pawns)
    for file, piece in (back or {}).items():
        new_back[file] = piece
    for file, piece in (pawns or {}).items():
        new_pawns[file] = piece
    return Army(tuple(new_back), tuple(new_pawns))


def _dropped(base: Base, army: Army, count: int) -> Army:
    """The army less `count` standard Pawns, in the base's drop order."""
    files = [f for f in base.pawn_drop_order if army.pawns[f] == PAWN][:count]
    if len(files) < count:
        raise MeasureError(f"cannot drop {count} Pawns from an army with {len(files)}")
    return _with(army, pawns=dict.fromkeys(files))


def _matchup(matchup_id: str, target: str, form: str, a: Army, b: Army) -> Matchup:
    counts_a, counts_b = a.count(), b.count()
    terms = {p: counts_a.get(p, 0) - counts_b.get(p, 0) for p in sorted(set(counts_a) | set(counts_b))}
    ordered = sorted(((p, n) for p, n in terms.items() if n), key=lambda t: (t[0] != target, t[0]))
    return Matchup(matchup_id, target, form, a, b, tuple(ordered))


def _with_odds(base: Base, a: Army, b: Army, odds: int) -> tuple[Army, Army]:
    """A drops `odds` Pawns (B drops -odds when it is negative)."""
    return (_dropped(base, a, odds), b) if odds > 0 else (a, _dropped(base, b, -odds))


SCALE_ODDS = (1, 3)  # the Pawn odds the scale is measured at: the f-pawn, and the f-, c- and b-pawns


def scale_matchups(base: Base, catalogue: Catalogue) -> list[Matchup]:
    """Pawn odds: the whole army against the army without its f-pawn (and without three Pawns, which pins
    the scale down with fewer games: a score further from 50 %). Their scores are what a Pawn is worth."""
    army = base_army(base, catalogue)
    return [_matchup("scale" if odds == 1 else f"scale:{odds}", PAWN, "scale", army, _dropped(base, army, odds))
            for odds in SCALE_ODDS]


def piece_matchup(base: Base, catalogue: Catalogue, piece: PieceDef, estimate, yardstick: str | None = "auto",
                  odds: int | None = None) -> Matchup:
    """The piece on the Queen's square against a yardstick on B's (Knight, Rook, Queen or nothing),
    with Pawn odds to even out what the model expects. `estimate(piece_id)` is the model's value."""
    if yardstick == "auto":
        yardstick, odds = _yardstick(estimate(piece.id), estimate)
    assert odds is not None
    army = base_army(base, catalogue)
    a = _with(army, back={base.slot: piece.id})
    b = _with(army, back={base.slot: yardstick})
    a, b = _with_odds(base, a, b, odds)
    form = "spear" if piece.group is Group.SPEAR else "piece"
    return _matchup(f"{form}:{piece.id}", piece.id, form, a, b)


def _yardstick(value: float, estimate) -> tuple[str | None, int]:
    """The yardstick and Pawn odds (A's, in Pawns) that leave the least for the games to find."""
    best: tuple[tuple[int, float], str | None, int] | None = None
    for stick in YARDSTICKS:
        gap = value - (0.0 if stick is None else estimate(stick))
        odds = max(-MAX_ODDS, min(MAX_ODDS, round(gap)))
        key = (abs(odds), round(abs(gap - odds), 3))
        if abs(gap - odds) <= 0.5 and (best is None or key < best[0]):
            best = (key, stick, odds)
    if best is None:
        raise MeasureError(f"no yardstick within {MAX_ODDS} Pawns of a piece worth about {value:.1f}")
    return best[1], best[2]


def ladder(base: Base, catalogue: Catalogue) -> list[Matchup]:
    """The orthodox pieces, each from the ones before: N against 3 Pawns, R against N + 2 Pawns,
    Q against R + N + a Pawn (A's Queen for B's Rook, A without its first Knight), and the Bishop pair
    against a Knight pair (one Bishop = half of it)."""
    army = base_army(base, catalogue)
    knight = piece_matchup(base, catalogue, catalogue.get("knight"), None, yardstick=None, odds=3)
    rook = piece_matchup(base, catalogue, catalogue.get("rook"), None, yardstick="knight", odds=2)
    first_knight = army.back.index("knight")
    a = _with(army, back={base.slot: "queen", first_knight: None})
    a, b = _with_odds(base, a, _with(army, back={base.slot: "rook"}), 1)
    queen = _matchup("piece:queen", "queen", "piece", a, b)
    pair = _matchup("pair:bishop", "bishop", "pair", army, _with(army, back=dict.fromkeys(base.bishops, "knight")))
    return [knight, rook, queen, pair]


def royal_matchup(base: Base, catalogue: Catalogue, piece: PieceDef, estimate) -> Matchup:
    """A's King swapped for the royal, with Pawn odds for the difference the model expects."""
    army = base_army(base, catalogue)
    odds = max(-MAX_ODDS, min(MAX_ODDS, round(estimate(piece.id) - estimate(KING))))
    a, b = _with_odds(base, _with(army, back={base.king: piece.id}), army, odds)
    return _matchup(f"royal:{piece.id}", piece.id, "royal", a, b)


def pawn_matchup(base: Base, catalogue: Catalogue, piece: PieceDef, estimate) -> Matchup:
    """A's Pawns swapped for the pawn type, as many as keep the expected difference within Pawn odds."""
    army = base_army(base, catalogue)
    gain = estimate(piece.id) - 1.0
    for count in range(base.files, 0, -1):
        odds = round(count * gain)
        if abs(odds) <= MAX_ODDS and odds <= base.files - count:
            break
    swapped = _with(army, pawns=dict.fromkeys(base.pawn_swap_order[:count], piece.id))
    a, b = _with_odds(base, swapped, army, odds)
    return _matchup(f"pawn:{piece.id}", piece.id, "pawn", a, b)


def matchups_for(pieces: list[PieceDef], base: Base, catalogue: Catalogue, estimate) -> list[Matchup]:
    """The scale, one matchup for each piece (and for the Guard when a royal needs it) and the rungs of the
    orthodox ladder those stand on, each after the matchups it needs: a Ferz alone needs only the scale."""
    rungs = {m.target: m for m in ladder(base, catalogue)}
    wanted = list(pieces)
    if any(p.group is Group.ROYAL for p in pieces) and GUARD in catalogue:
        wanted.insert(0, catalogue.get(GUARD))
    own: dict[str, Matchup] = {}
    for piece in wanted:
        if piece.id not in rungs and piece.id not in (KING, PAWN) and piece.id not in own:
            own[piece.id] = _matchup_of(base, catalogue, piece, estimate)
    needed = {p.id for p in wanted if p.id in rungs}
    stack = [need for m in [*own.values(), *(rungs[r] for r in needed)] for need in m.needs]
    while stack:
        need = stack.pop()
        if need in rungs and need not in needed:
            needed.add(need)
            stack += rungs[need].needs
    return [*scale_matchups(base, catalogue), *(m for m in rungs.values() if m.target in needed), *own.values()]


def _matchup_of(base: Base, catalogue: Catalogue, piece: PieceDef, estimate) -> Matchup:
    if piece.group is Group.ROYAL:
        return royal_matchup(base, catalogue, piece, estimate)
    if piece.group is Group.PAWN:
        return pawn_matchup(base, catalogue, piece, estimate)
    return piece_matchup(base, catalogue, piece, estimate)
