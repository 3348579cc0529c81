"""H. G. Muller's Interactive Diagram (chessvariants.com): a game's, a deal's or some pieces' definition as HTML.

Pure data to text; printing/ writes the file. What the diagram cannot say is listed, never dropped silently.
"""

# Format sources (read through the project's search tool, November 2026):
# - H. G. Muller, "Interactive diagrams", https://www.chessvariants.com/page/MSinteractive-diagrams
#   (and its older copy at /invention/interactive-diagrams): the definition goes between
#   <div class="idiagram"> tags as key=value lines (files=, graphicsDir=, graphicsType=, squareSize=,
#   whitePrefix=, blackPrefix=, symmetry=mirror, firstRank=1, royal=N, the number of a piece line) and one
#   `name:ID:moves:image:squares` line per piece type; empty fields take defaults.
# - A reader's diagram in the chessvariants.com comments on Carrera's Chess
#   (server.chessvariants.com/index/listcomments.php): without symmetry= the squares field lists White's
#   squares, a double comma, then Black's (`queen:Q:Q:...:e1,,e8`); promoChoice=QAC lists piece IDs;
#   castling is the O atom in the royal's moves (`KisO3`).
# - Muller's Eurasian Chess diagram (hgm.nubati.net/transfer/cazaux.zip): holdingsType=, promoZone=,
#   promoChoice=, whitePrefix=w / blackPrefix=b with graphicsType=png, lower-case image names.
# - The Interactive Diagram Piece Lab (chessvariants.com/page/interactive-diagram-piece-lab): files=16
#   ranks=16, so every board this toolkit has (at most 16x16, engine.board) fits.
# - /work/shared/reference/xbetza.md: the diagram reads XBetza; doubled atoms (NN) are unlimited riders
#   there, FX is the (1,4) leaper, coordinates such as (3,4) may not be read.
# The script itself (betza.js) was not in the searchable index, so its reading was not checked line by line.

from __future__ import annotations

import html
import re
from dataclasses import dataclass

from dealers_chess.engine.castling import castling_targets
from dealers_chess.engine.dealing.deal_file import DealFile, read_deal_file
from dealers_chess.engine.game import Captured, Castling, GameDef, Promotion, default_catalogue, load_game
from dealers_chess.engine.notation import parse_fen
from dealers_chess.engine.position import Position
from dealers_chess.pieces.catalogue import Catalogue, Group, PieceDef, Rule
from dealers_chess.pieces.errors import DealerError

SCRIPT_URL = "https://www.chessvariants.com/membergraphics/MSinteractivedia/betza.js"
GRAPHICS = (("graphicsDir", "/graphics.dir/alfaerie/"), ("whitePrefix", "w"), ("blackPrefix", "b"),
            ("graphicsType", "gif"), ("squareSize", "50"))
PIECES_BOARD = (8, 8)  # the board of a `--piece` diagram
FREE_CASTLING_STEPS = 2  # free castling is shown as the royal's two-square castling, as in chess

# What each named rule does that no XBetza string says (listed for every piece that has it).
RULE_LOSSES = {
    Rule.PUSH: "pushing an enemy piece one square is left out",
    Rule.CONVERT_CAPTOR: "converting the piece that captures it (Zombie) is left out",
    Rule.FLEE_WHEN_ATTACKED: "the retreat when attacked (Chicken) is left out",
    Rule.DOUBLE_STEP_TO_PROMOTE: "the double step onto the promotion rank is left out",
    Rule.PROMOTES_ON_PAWN_ROW: "promotion from the row the pawns started on is left out (promoZone=1)",
    Rule.PROMOTES_TO_CAPTURED: "promotion only to a captured piece of its own side is not enforced",
    Rule.NO_PROMOTION: "it never promotes; the diagram may offer a promotion",
    Rule.PROMOTES: "its promotion like a pawn's is left out",
    Rule.NO_EN_PASSANT: "that it cannot be taken en passant is left out",
    Rule.UNCAPTURABLE: "that it cannot be captured is left out",
    Rule.IMMOBILIZE: "freezing the enemy pieces next to it (Hyena) is left out",
    Rule.TELEPORT: "the teleport jump is left out",
    Rule.DAZZLE: "dazzling the pieces it jumps over (Dazzler) is left out",
    Rule.CAPTURE_POWERS_BY_RANK: "the extra captures that depend on its rank are left out",
}
PROMOTION_LOSSES = {
    Promotion.HAND: "Promotion: a pawn takes a piece from its owner's hand, which is used up; "
                    "promoChoice offers every piece of either hand, as often as wanted",
    Promotion.HAND_KEPT: "Promotion: a pawn becomes a piece type of its owner's hand; "
                         "promoChoice offers the types of either hand to both sides",
}
CAPTURE_LOSSES = {
    Captured.CAPTOR: "Captures: the capturer's owner takes the captured piece's doppelganger into hand; left out",
    Captured.OWNER: "Captures: a captured piece goes back to its owner to promote to later; left out",
}


class DiagramError(DealerError):
    """A game, deal or piece that cannot be written as an Interactive Diagram."""


@dataclass(frozen=True, slots=True)
class DiagramPiece:
    """One `name:ID:moves:image:squares` line."""

    name: str
    code: str
    betza: str
    image: str
    white: tuple[str, ...] = ()
    black: tuple[str, ...] = ()

    def line(self, mirror: bool) -> str:
        white = ",".join(self.white)
        squares = white if mirror or not self.black else f"{white},,{','.join(self.black)}"
        return ":".join((self.name, self.code, self.betza, self.image, squares))


@dataclass(frozen=True, slots=True)
class Diagram:
    """A whole diagram: title, settings in order, piece lines and what had to be simplified."""

    title: str
    settings: tuple[tuple[str, str], ...]
    pieces: tuple[DiagramPiece, ...]
    simplified: tuple[str, ...]

    @property
    def mirror(self) -> bool:
        return ("symmetry", "mirror") in self.settings

    def definition(self) -> str:
        """The text that goes between the idiagram div tags, one setting or piece per line."""
        lines = [f"{key}={value}" for key, value in self.settings]
        lines += [piece.line(self.mirror) for piece in self.pieces]
        return "\n".join(lines)


def game_diagram(name: str, catalogue: Catalogue | None = None) -> Diagram:
    """The diagram of a game's start position (a built-in id or a game TOML file)."""
    game = load_game(name)
    catalogue = catalogue or default_catalogue()
    return position_diagram(parse_fen(game.start, game, catalogue), game.name)


def deal_diagram(deal: DealFile, catalogue: Catalogue | None = None) -> Diagram:
    """The diagram of a saved deal's start position."""
    game = load_game(deal.game)
    catalogue = catalogue or default_catalogue()
    title = f"{game.name}, deal seed {deal.seed}"
    return position_diagram(parse_fen(deal.fen, game, catalogue), title, big_deck=deal.big_deck)


def pieces_diagram(piece_ids: tuple[str, ...], catalogue: Catalogue | None = None) -> Diagram:
    """A diagram of some catalogue pieces alone: one legend line each, no start squares (docs/rulings.md)."""
    if not piece_ids:
        raise DiagramError("name at least one piece id (`dealer catalogue` lists them)")
    catalogue = catalogue or default_catalogue()
    defs = list({piece.id: piece for piece in map(catalogue.get, piece_ids)}.values())
    files, ranks = PIECES_BOARD
    simplified = [note for piece in defs for note in (*_betza(piece)[1], *_piece_losses(piece))]
    pieces = [DiagramPiece(_name(p), p.code, _betza(p)[0], _image(p)) for p in defs]
    settings = _settings(files, ranks, holdings=False, mirror=False, promo=(), royal=None)
    names = ", ".join(piece.name for piece in defs)
    return Diagram(f"Pieces: {names}", settings, tuple(pieces), tuple(simplified))


def position_diagram(pos: Position, title: str, big_deck: bool = False) -> Diagram:
    """The diagram of a start position: every piece type on the board or in a hand, with its squares."""
    game, board = pos.game, pos.board
    placed = _placed(pos)
    hand_ids = [i for side in (0, 1) for i in pos.hands[side]]
    promo_ids = list(game.promotion_pieces) if game.promotion is Promotion.LIST else hand_ids
    ids = list(dict.fromkeys([*placed, *(i for i in promo_ids if i in pos.catalogue)]))
    defs = _ordered([pos.catalogue.get(i) for i in ids])
    castling, castling_notes = _castling(pos)
    simplified = [*_game_losses(game, big_deck), *castling_notes]
    pieces = []
    for piece in defs:
        betza, notes = _betza(piece)
        white, black = placed.get(piece.id, ((), ()))
        pieces.append(DiagramPiece(_name(piece), piece.code, betza + castling.get(piece.id, ""), _image(piece),
                                   tuple(map(board.name, white)), tuple(map(board.name, black))))
        simplified += [*notes, *_piece_losses(piece)]
    promo = tuple(pos.catalogue.get(i).code for i in dict.fromkeys(promo_ids) if i in pos.catalogue)
    royal, royal_notes = _royal(defs, placed)
    simplified += royal_notes + _promo_code_notes(promo)
    mirror = _is_mirrored(pos, placed)
    settings = _settings(board.files, board.ranks, holdings=False, mirror=mirror,
                         promo=promo if game.promotion is not Promotion.NONE else None, royal=royal)
    return Diagram(title, settings, tuple(pieces), tuple(simplified))


def diagram_page(diagram: Diagram) -> str:
    """The HTML page: the simplifications in a comment at the top, the idiagram div, the script, a paragraph."""
    title = html.escape(diagram.title, quote=False)
    comment = "\n".join(f"- {line}" for line in diagram.simplified) or "- nothing"
    paragraph = "<br>\n".join(html.escape(line, quote=False) for line in diagram.simplified) or "Nothing."
    return (
        "<!DOCTYPE html>\n"
        f"<!-- Interactive Diagram of {_comment_safe(diagram.title)}, written by `dealer export diagram`.\n"
        f"Simplified for the diagram:\n{_comment_safe(comment)}\n-->\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{title}</title>\n"
        "</head>\n<body>\n"
        f"<h1>{title}</h1>\n"
        '<div class="idiagram">\n'
        f"{html.escape(diagram.definition(), quote=False)}\n"
        "</div>\n"
        f'<script type="text/javascript" src="{SCRIPT_URL}"></script>\n'
        f'<p class="simplified"><b>Simplified for the diagram:</b><br>\n{paragraph}</p>\n'
        "</body>\n</html>\n"
    )


def _settings(files: int, ranks: int, holdings: bool, mirror: bool, promo, royal: int | None):
    settings = [("files", str(files)), ("ranks", str(ranks)), ("holdingsType", "1" if holdings else "0"),
                *GRAPHICS, ("firstRank", "1"), ("symmetry", "mirror" if mirror else "none")]
    if promo is None:
        settings.append(("promoZone", "0"))
    elif promo:
        settings += [("promoZone", "1"), ("promoChoice", "".join(promo))]
    if royal is not None:
        settings.append(("royal", str(royal)))
    return tuple(settings)


def _placed(pos: Position) -> dict[str, tuple[tuple[int, ...], tuple[int, ...]]]:
    """Piece id -> (White's squares, Black's squares), in board order (a1, b1, ...)."""
    found: dict[str, tuple[list[int], list[int]]] = {}
    for sq in range(pos.board.size):
        here = pos.piece_at(sq)
        if here is not None:
            found.setdefault(here[0], ([], []))[here[1]].append(sq)
    return {i: (tuple(w), tuple(b)) for i, (w, b) in found.items()}


def _ordered(defs: list[PieceDef]) -> list[PieceDef]:
    """Pawns first and royals last, as the diagram's own examples have them; otherwise first-seen order."""
    rank = {Group.PAWN: 0, Group.SPEAR: 0, Group.PIECE: 1, Group.ROYAL: 2}
    return sorted(defs, key=lambda piece: rank[piece.group])


def _is_mirrored(pos: Position, placed) -> bool:
    """Whether Black's placement is White's reflected across the middle rank, type for type."""
    board = pos.board

    def reflected(sq: int) -> int:
        return board.square(board.file_of(sq), board.ranks - 1 - board.rank_of(sq))

    return bool(placed) and all(sorted(map(reflected, white)) == sorted(black) for white, black in placed.values())


def _betza(piece: PieceDef) -> tuple[str, list[str]]:
    """The piece's XBetza as the diagram reads it, and notes on what it cannot read."""
    text = re.sub(r"([A-Z])0(?![0-9])", r"\1\1", piece.betza)  # N0 -> NN: doubled atoms are riders in the diagram
    text = re.sub(r"(?<![a-z])\((?:1,4|4,1)\)", "FX", text)  # the (1,4) leaper is FX in the diagram
    notes = [f"{piece.name}: {coords} leap written as coordinates, which the diagram may not read"
             for coords in dict.fromkeys(re.findall(r"\(\d+,\d+\)", text))]
    return text, notes


def _piece_losses(piece: PieceDef) -> list[str]:
    return [f"{piece.name}: {RULE_LOSSES[rule]}" for rule in sorted(piece.rules, key=lambda r: r.value)]


def _game_losses(game: GameDef, big_deck: bool) -> list[str]:
    notes = [note for note in (PROMOTION_LOSSES.get(game.promotion), CAPTURE_LOSSES.get(game.captured)) if note]
    if game.shared_extras:
        notes.append("Shared extras: promoting to a shared extra takes the other side's copy; left out")
    if game.battle_move:
        notes.append("Battle move: once a game, several pawns and crabs stepping forward together; left out")
    if game.promotion_optional:
        notes.append("Promotion is optional (a pawn may stay a pawn); the diagram may force it")
    if big_deck:
        notes.append("Big deck: promotions drawn from the draw stack; left out")
    return notes


def _castling(pos: Position) -> tuple[dict[str, str], list[str]]:
    """Per royal id the castling moves to add (isO<n>), and notes on castling the diagram cannot show."""
    game = pos.game
    distances: dict[str, set[int]] = {}
    for partner in sorted(pos.castling):
        royal = pos.royal_for(partner)
        if royal < 0:
            continue
        files = [abs(pos.board.file_of(lands) - pos.board.file_of(royal))
                 for lands, _ in castling_targets(pos, royal, partner)]
        steps = files[0]
        if game.castling is Castling.FREE:
            steps = FREE_CASTLING_STEPS if FREE_CASTLING_STEPS in files else files[-1]
        distances.setdefault(pos.types.id_of(pos.piece[royal]), set()).add(steps)
    moves, notes = {}, []
    if game.castling is Castling.FREE and distances:
        notes.append("Castling: free castling (the royal to any empty square towards the partner) "
                     f"is shown as castling {FREE_CASTLING_STEPS} squares, as in chess")
    for royal_id, lengths in distances.items():
        if len(lengths) == 1:
            moves[royal_id] = f"isO{lengths.pop()}"
        else:
            shown = " and ".join(map(str, sorted(lengths)))
            notes.append(f"{pos.catalogue.get(royal_id).name}: castling goes {shown} squares; "
                         "the diagram's O atom takes one distance, so castling is left out")
    return moves, notes


def _royal(defs: list[PieceDef], placed) -> tuple[int | None, list[str]]:
    """The 1-based number of the royal piece line for royal=, and notes when one number is not enough."""
    royals = [index for index, piece in enumerate(defs, start=1) if piece.is_royal]
    if not royals:
        return None, []
    notes = []
    if len(royals) > 1:
        others = ", ".join(defs[i - 1].name for i in royals[1:])
        notes.append(f"Royals: royal= names one piece line; {others} is not marked royal")
    if any(len(side) > 1 for i in royals for side in placed.get(defs[i - 1].id, ((), ()))):
        notes.append("Royals: a side starts with two royal pieces; the diagram does not know this game's rule for them")
    return royals[0], notes


def _promo_code_notes(codes: tuple[str, ...]) -> list[str]:
    long = [code for code in codes if len(code) > 1]
    if not long:
        return []
    return [
        f"promoChoice lists IDs of more than one letter ({', '.join(long)}); the diagram may read them letter by letter"
    ]


def _name(piece: PieceDef) -> str:
    """The piece's name for a piece line: a colon would end the field, so it is refused."""
    if ":" in piece.name:
        raise DiagramError(f"piece {piece.id!r}: name {piece.name!r} has a ':', which the diagram's piece lines use "
                           "between fields; allowed: a name without ':'")
    return piece.name


def _image(piece: PieceDef) -> str:
    """The Alfaerie picture: the last word of the name (Standard Pawn -> pawn, Crowned Knight -> knight)."""
    words = re.findall(r"[a-z]+", piece.name.lower())
    return words[-1] if words else piece.id.replace("-", "")


def _comment_safe(text: str) -> str:
    """Text that cannot end an HTML comment early."""
    return text.replace("--", "- -")


def diagram_for(game: str | None, deal_file: str | None, piece_ids: tuple[str, ...],
                catalogue: Catalogue | None = None) -> Diagram:
    """The diagram of exactly one of: a game, a saved deal file, or some pieces."""
    given = [what for what, value in (("GAME", game), ("--deal", deal_file), ("--piece", piece_ids)) if value]
    if len(given) != 1:
        raise DiagramError(f"give exactly one of GAME, --deal FILE or --piece ID...; got {', '.join(given) or 'none'}")
    if game:
        return game_diagram(game, catalogue)
    if deal_file:
        return deal_diagram(read_deal_file(deal_file), catalogue)
    return pieces_diagram(piece_ids, catalogue)
