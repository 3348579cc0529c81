"""A Fairy-Stockfish `variants.ini` section for a game or a dealt start position, and what it simplifies.

FSF reads a subset of XBetza (shared/reference/xbetza.md section 8; engines.md): single-leg moves of
the atoms up to distance 3, riders on rook, bishop and knight lines, m/c/p/g/n and pawn-only i/e
(FSF's i is "on the start rank", so a pawn that can come back there is listed).
Each piece keeps the terms FSF plays as we do; everything else is listed, never silently dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dealers_chess.engine.board import FILE_LETTERS
from dealers_chess.engine.game import Captured, Castling, Promotion
from dealers_chess.engine.kernel import EMPTY, compile_movement
from dealers_chess.engine.measure.probe import PROBE_BOARD, probe
from dealers_chess.engine.position import Position
from dealers_chess.pieces.betza import Term
from dealers_chess.pieces.catalogue import Group, PieceDef
from dealers_chess.pieces.errors import DealerError

MAX_FILES, MAX_RANKS = 12, 10  # FSF drops larger boards without a word
LINE_RIDERS = {(1, 0), (1, 1), (2, 1)}  # FSF rides along W, F and N lines only
LAME_ATOMS = {"N", "A", "D", "Z"}  # FSF's n (lame leap) works on these only
KNOWN_MODIFIERS = {"m", "c", "p", "g", "n", "e"}


class ExportError(DealerError):
    """An export that cannot be written: a bad variant name, or nothing FSF could play."""


@dataclass(frozen=True, slots=True)
class FsfSection:
    """The section's text, what it had to simplify (one line each), and why nothing is playable if so."""

    name: str
    text: str
    simplified: tuple[str, ...]
    unplayable: tuple[str, ...]


def term_supported(term: Term, pawn: bool) -> bool:
    """Whether FSF plays this XBetza term exactly as the toolkit does."""
    if len(term.legs) != 1:
        return False  # bent and multi-leg moves
    atom, modifiers = term.atom, set(term.legs[0].modifiers)
    if atom.long > 3:
        return False  # FSF leaps at most 3 squares: no (1,4) or (3,4)
    if not modifiers <= KNOWN_MODIFIERS or (term.initial and not pawn) or ("e" in modifiers and not pawn):
        return False  # FSF grants i by rank, which matches 'never moved' only for pawns
    if atom.eightfold and term.legs[0].directions:
        return False  # FSF reads direction letters on K and Q differently (xbetza.md section 4)
    if term.max_steps != 1 and not atom.rider and (atom.long, atom.short) not in LINE_RIDERS:
        return False
    if modifiers & {"p", "g"} and not (term.max_steps is None and (atom.rider or atom.symbol in "WF")):
        return False
    return "n" not in modifiers or atom.symbol in LAME_ATOMS


def fsf_betza(piece: PieceDef) -> tuple[str, tuple[str, ...]]:
    """The part of a piece's XBetza FSF plays as we do, and the terms left out."""
    pawn = piece.group is Group.PAWN
    kept = [term.format() for term in piece.movement.terms if term_supported(term, pawn)]
    dropped = tuple(term.format() for term in piece.movement.terms if not term_supported(term, pawn))
    return "".join(kept), dropped


def reopened_first_moves(piece: PieceDef) -> tuple[str, ...]:
    """A pawn's first-move (`i`) terms that FSF would grant again: FSF allows them whenever the pawn stands
    on its start rank, and this pawn can come back there (a move or capture backward or sideways, a
    retreat rule, a rank power); we allow them only to a pawn that has never moved."""
    initial = tuple(term.format() for term in piece.movement.terms if term.initial)
    if piece.group is not Group.PAWN or not initial:
        return ()
    board = PROBE_BOARD
    centre = board.square(board.files // 2, board.ranks // 2)
    movements = [piece.movement, *(m for _, m in piece.rule_moves), *(m for _, m in piece.rank_captures)]
    returns = any(
        board.rank_of(sq) <= board.rank_of(centre)
        for movement in movements for ray in compile_movement(movement, board)[centre] if not ray.initial
        for sq in ray.squares
    )
    return initial if returns else ()


def fifty_move_difference(piece: PieceDef) -> str | None:
    """How FSF's fifty-move counter treats this pawn's moves unlike the referee's, which any pawn move restarts
    (FIDE 9.3), or None. FSF restarts it on a pawn's move that takes nothing only when the pawn cannot make
    the same move back (found by playing each catalogue pawn in FSF: rules audit 4, F4)."""
    if piece.group is not Group.PAWN:
        return None
    offsets = probe(piece)
    back = sorted({(dx, dy) for dx, dy in (*offsets.moves, *offsets.initial_moves) if (-dx, -dy) in offsets.moves})
    if not back:
        return None
    steps = ", ".join(f"({dx:+d},{dy:+d})" for dx, dy in back)
    return (f"{piece.name} ({piece.code}): FSF's fifty-move counter does not restart on a move it can make back "
            f"(file and rank steps {steps}); here every pawn move restarts it")


def fsf_section(pos: Position, name: str) -> FsfSection:
    """The variants.ini section that starts from `pos`, named `name` (letters, digits, '-')."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,40}", name):
        raise ExportError(f"variant name {name[:50]!r} is not allowed: use lower-case letters, digits and '-' "
                          "(at most 41 characters, starting with a letter or digit)")
    writer = _Writer(pos)
    return writer.section(name)


class _Writer:
    """Builds one section: letters for the piece types, then the rules, collecting simplifications."""

    def __init__(self, pos: Position) -> None:
        self.pos, self.game, self.board = pos, pos.game, pos.board
        self.simplified: list[str] = []
        self.unplayable: list[str] = []
        on_board = {pos.types.id_of(pos.piece[sq]): None for sq in range(self.board.size) if pos.piece[sq] >= 0}
        self.catalogue = pos.catalogue
        self.pieces = [self.catalogue.get(i) for i in on_board]
        royals = [(pos.types.id_of(pos.piece[sq]), pos.occ[sq]) for sq in range(self.board.size)
                  if pos.piece[sq] >= 0 and self.catalogue.get(pos.types.id_of(pos.piece[sq])).is_royal]
        self.royal_ids = sorted({piece for piece, _ in royals})
        self.royals_per_side = max((sum(1 for _, s in royals if s == side) for side in (0, 1)), default=0)
        self.shared_royal = len(self.royal_ids) == 1 and self.royals_per_side == 1
        self.promotion_ids = self._promotion_ids()
        self.letters = self._letters([p.id for p in self.pieces] + [i for i in self.promotion_ids if i not in on_board])

    # --- the parts -----------------------------------------------------------------------
    def section(self, name: str) -> FsfSection:
        board = self.board
        if board.files > MAX_FILES or board.ranks > MAX_RANKS:
            self.unplayable.append(
                f"the {board.label} board: FSF plays boards up to {MAX_FILES} files x {MAX_RANKS} ranks"
            )
        lines = [f"[{name}]", f"maxFile = {FILE_LETTERS[board.files - 1]}", f"maxRank = {board.ranks}",
                 "pawn = -", "knight = -", "bishop = -", "rook = -", "queen = -"]
        if not self.shared_royal:
            lines.append("king = -")
        lines += self._pieces()
        lines += self._royals()
        lines += self._pawns()
        lines += self._castling()
        lines += self._promotion()
        self._game_rules()
        lines.append(f"startFen = {self._fen()}")
        header = [f"# {self.game.name} for Fairy-Stockfish, written by `dealer export fsf`."]
        if self.unplayable:
            header += ["# NOT PLAYABLE:"] + [f"#   {reason}" for reason in self.unplayable]
        if self.simplified:
            header += ["# Simplified (FSF cannot express these; play them by hand):"]
            header += [f"#   {line}" for line in self.simplified]
        text = "\n".join(header + lines) + "\n"
        return FsfSection(name, text, tuple(self.simplified), tuple(self.unplayable))

    def _pieces(self) -> list[str]:
        lines, number = [], 0
        for piece_id, letter in self.letters.items():
            piece = self.catalogue.get(piece_id)
            betza, dropped = fsf_betza(piece)
            if dropped:
                self.simplified.append(
                    f"{piece.name} ({piece.code}): moves FSF cannot play left out: {', '.join(dropped)}"
                )
            reopened = reopened_first_moves(piece)
            if reopened:
                self.simplified.append(
                    f"{piece.name} ({piece.code}): FSF allows its first moves ({', '.join(reopened)}) "
                    "again whenever it is back on its start rank; here only before it has moved"
                )
            if not betza:
                target = self.unplayable if any(p.id == piece_id for p in self.pieces) else self.simplified
                target.append(f"{piece.name} ({piece.code}): no move of {piece.betza} can be written for FSF")
                betza = "m"  # never used: the section is refused, or the piece only sits in a promotion list
            for rule in sorted(piece.rules, key=lambda r: r.value):
                if rule.value not in ("promotes", "no-promotion"):
                    self.simplified.append(f"{piece.name} ({piece.code}): its rule '{rule.value}' is not in FSF")
            if self.shared_royal and piece_id in self.royal_ids:
                lines.append(f"king = {letter}:{betza}")
            else:
                number += 1
                lines.append(f"customPiece{number} = {letter}:{betza}")
        return lines

    def _royals(self) -> list[str]:
        if not self.royal_ids:
            self.unplayable.append("no royal piece on the board")
            return []
        if self.shared_royal:
            return []
        letters = "".join(self.letters.get(i, "") for i in self.royal_ids)
        if self.royals_per_side > 1:
            self.simplified.append("two royals per side: FSF ends the game when a side has none left and keeps "
                                   "only the last one out of check")
        return [f"extinctionPieceTypes = {letters}", "extinctionValue = loss", "extinctionPseudoRoyal = true"]

    def _pawns(self) -> list[str]:
        pawns = "".join(self.letters.get(p.id, "") for p in self.pieces if p.group is Group.PAWN)
        passant = "".join(self.letters.get(p.id, "") for p in self.pieces if p.group is Group.PAWN
                          and any(m.value == "e" for path in p.movement.paths for m in path.modes))
        rank = self.pos.pawn_rank + 1
        for piece in self.pieces:
            difference = fifty_move_difference(piece)
            if difference is not None:
                self.simplified.append(difference)
        return [f"pawnTypes = {pawns or '-'}", f"promotionPawnTypes = {pawns or '-'}",
                f"enPassantTypes = {passant or '-'}",
                f"doubleStepRegionWhite = *{rank}", f"doubleStepRegionBlack = *{self.board.ranks + 1 - rank}"]

    def _castling(self) -> list[str]:
        game = self.game
        if game.castling is Castling.NONE or not self.pos.castling:
            return ["castling = false"]
        if game.castling is not Castling.ORTHODOX or not self.shared_royal:
            why = ("free castling" if game.castling is Castling.FREE else
                   "castling next to the partner" if game.castling is Castling.ADJACENT else
                   "castling with a different royal per side")
            self.simplified.append(f"{why} is not in FSF: castling is left out")
            return ["castling = false"]
        partners = sorted({self.letters.get(self.pos.types.id_of(self.pos.piece[sq]), "") for sq in self.pos.castling})
        return ["castling = true", f"castlingRookPieces = {''.join(partners)}",
                f"castlingKingsideFile = {FILE_LETTERS[self.board.files - 2]}", "castlingQueensideFile = c"]

    def _promotion_ids(self) -> list[str]:
        game, pos = self.game, self.pos
        if game.promotion is Promotion.LIST:
            return list(game.promotion_pieces)
        if game.promotion in (Promotion.HAND, Promotion.HAND_KEPT):
            return sorted(set(pos.hands[0]) | set(pos.hands[1]))
        return []

    def _promotion(self) -> list[str]:
        game, pos = self.game, self.pos
        lines = [f"promotionRegionWhite = *{self.board.ranks}", "promotionRegionBlack = *1"]
        if game.promotion_optional:
            lines.append("mandatoryPawnPromotion = false")
        if game.promotion is Promotion.LIST:
            letters = "".join(self.letters[i] for i in game.promotion_pieces if i in self.letters)
            return lines + [f"promotionPieceTypes = {letters or '-'}"]
        if game.promotion in (Promotion.HAND, Promotion.HAND_KEPT):
            for side, suffix in ((0, "White"), (1, "Black")):
                letters = "".join(sorted({self.letters[i] for i in pos.hands[side] if i in self.letters}))
                lines.append(f"promotionPieceTypes{suffix} = {letters or '-'}")
            self.simplified.append("promotion from the hand: FSF lets a pawn become any type in its hand at the "
                                   "start, again and again; hands do not change during the game")
            if pos.deck is not None:
                self.simplified.append("the big deck: FSF cannot draw cards; promotion uses the hands only")
            return lines
        return lines + ["promotionPieceTypes = -"]

    def _game_rules(self) -> None:
        game = self.game
        if game.captured is Captured.CAPTOR:
            self.simplified.append("a captured piece's twin going to the captor's hand is not in FSF")
        if game.captured is Captured.OWNER:
            self.simplified.append("promotion to a piece its owner lost is not in FSF")
        if game.shared_extras and self.pos.shared:
            self.simplified.append("the shared extras: FSF does not take the other side's copy when one is used")
        if game.battle_move:
            self.simplified.append("the battle move (several pawns and crabs at once) is not in FSF")

    def _letters(self, ids: list[str]) -> dict[str, str]:
        """One letter per type: the first of its card code where free; 'k' for a royal both sides share."""
        letters: dict[str, str] = {}
        taken = set()
        if self.shared_royal:
            letters[self.royal_ids[0]] = "k"
            taken.add("k")
        for piece_id in ids:
            if piece_id in letters:
                continue
            code = self.catalogue.get(piece_id).code.lower()
            choices = [c for c in code + "abcdefghijlmnopqrstuvwxyz" if c not in taken and c != "k"]
            if not choices:
                continue
            letters[piece_id] = choices[0]
            taken.add(choices[0])
        on_board = [p.name for p in self.pieces if p.id not in letters]
        in_hand = [self.catalogue.get(i).name for i in ids if i not in letters and i not in {p.id for p in self.pieces}]
        if on_board:
            self.unplayable.append(f"{len(self.pieces)} piece types on the board, more than FSF's 26 letters "
                                   f"(left without one: {', '.join(on_board)}); a deal made with "
                                   "`dealer deal --board simplified` fits")
        if in_hand:
            self.simplified.append(f"promotion to {', '.join(in_hand)} left out: no letter left (FSF has 26)")
        return letters

    def _fen(self) -> str:
        pos, board = self.pos, self.board
        rows = []
        for rank in range(board.ranks - 1, -1, -1):
            row, empty = "", 0
            for file in range(board.files):
                sq = board.square(file, rank)
                if pos.occ[sq] == EMPTY:
                    empty += 1
                    continue
                letter = self.letters.get(pos.types.id_of(pos.piece[sq]), "?")
                row += (str(empty) if empty else "") + (letter.upper() if pos.occ[sq] == 0 else letter)
                empty = 0
            rows.append(row + (str(empty) if empty else ""))
        rights = self._castling_rights()
        return f"{'/'.join(rows)} {'wb'[pos.turn]} {rights} - {pos.halfmove} {pos.fullmove}"

    def _castling_rights(self) -> str:
        pos = self.pos
        if self.game.castling is not Castling.ORTHODOX or not self.shared_royal:
            return "-"
        rights = ""
        for side, (king, queen) in ((0, ("K", "Q")), (1, ("k", "q"))):
            royal = next((sq for sq in range(self.board.size) if pos.occ[sq] == side
                          and self.catalogue.get(pos.types.id_of(pos.piece[sq])).is_royal), None)
            for sq in sorted(pos.castling):
                if pos.occ[sq] == side and royal is not None:
                    rights += king if self.board.file_of(sq) > self.board.file_of(royal) else queen
        return "".join(sorted(set(rights), key="KQkq".index)) or "-"
