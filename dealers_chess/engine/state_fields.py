"""Which special-state FEN fields a game can produce (rules audit 4, F3): a field that no play of the game
could write is refused, so a stray field pasted into a chess FEN cannot change the rules silently."""

from __future__ import annotations

from collections.abc import Callable

from dealers_chess.engine.game import Captured, GameDef, Promotion
from dealers_chess.engine.origins import start_placement
from dealers_chess.engine.position import SIDE_NAMES, Position
from dealers_chess.pieces.catalogue import Catalogue, Rule


def _has_hands(game: GameDef, catalogue: Catalogue) -> bool:
    return game.captured is not Captured.NOWHERE or game.promotion in (Promotion.HAND, Promotion.HAND_KEPT)


def _has_shared_extras(game: GameDef, catalogue: Catalogue) -> bool:
    return game.shared_extras


def _has_battle_move(game: GameDef, catalogue: Catalogue) -> bool:
    return game.battle_move


def _always(game: GameDef, catalogue: Catalogue) -> bool:
    return True


def _is_dealt(game: GameDef, catalogue: Catalogue) -> bool:
    return game.dealt


def _may_have_dazzler(game: GameDef, catalogue: Catalogue) -> bool:
    """A Dazzler in the start, or a dealt game (a deal may hold any catalogue piece)."""
    return game.dealt or any(piece.has(Rule.DAZZLE) for piece, _ in start_placement(game, catalogue).values())


_BIG_DECK = (_is_dealt, "only dealt games have the big deck")
_DAZZLER = (_may_have_dazzler, "only games with a Dazzler have pieces it jumped")  # dazzle_problem checks more

# field -> (whether a game can have it, why not when it cannot)
GAME_FIELDS: dict[str, tuple[Callable[[GameDef, Catalogue], bool], str]] = {
    "hand": (_has_hands, "only games whose captures or promotions go through a hand have hands"),
    "shared": (_has_shared_extras, "only games with shared extras have them"),
    "draw": _BIG_DECK,
    "discard": _BIG_DECK,
    "deck": _BIG_DECK,
    "pawnrank": (_is_dealt, "only dealt games move the pawn row (an extra row of pieces)"),
    "moved": (_always, ""),
    "dazzled": _DAZZLER,
    "shielded": _DAZZLER,
    "mustmove": _DAZZLER,
    "battle": (_has_battle_move, "only games with a battle move record who made it"),
}


def allowed_fields(game: GameDef, catalogue: Catalogue) -> list[str]:
    """The key=value fields a FEN of this game may carry."""
    return [key for key, (allowed, _) in GAME_FIELDS.items() if allowed(game, catalogue)]


def field_problem(game: GameDef, catalogue: Catalogue, keys: list[str]) -> str | None:
    """Why one of these key=value fields cannot be in a FEN of this game (naming it and what is allowed), or None."""
    for key in keys:
        allowed, why_not = GAME_FIELDS[key]
        if not allowed(game, catalogue):
            return (f"field {key!r}: {why_not}, and {game.name} is not one; fields {game.name} allows: "
                    f"{', '.join(allowed_fields(game, catalogue))}")
    return None


def dazzle_problem(pos: Position) -> str | None:
    """Why the dazzled, shielded and mustmove squares cannot be what the Dazzler of the side that just moved
    left, or None: it jumped pieces of the side now to move (dazzled; mustmove for a Hyena) and its own (shielded)."""
    if not (pos.dazzled or pos.must_move or pos.shielded):
        return None
    mover, to_move = SIDE_NAMES[1 - pos.turn], SIDE_NAMES[pos.turn]
    if not any(pos.types[pos.piece[sq]].dazzle for sq in pos.squares[1 - pos.turn]):
        return (f"dazzled, shielded and mustmove name the pieces the {mover} Dazzler jumped on its last move, "
                f"and {mover} (who moved last) has no Dazzler")
    wanted = (  # field, its squares, the side their pieces belong to, whether they are Hyenas (None: either)
        ("dazzled", pos.dazzled, pos.turn, False, f"{to_move} pieces other than Hyenas"),
        ("mustmove", pos.must_move, pos.turn, True, f"{to_move} Hyenas"),
        ("shielded", pos.shielded, 1 - pos.turn, None, f"{mover} pieces"),
    )
    for key, squares, side, hyena, what in wanted:
        for sq in sorted(squares):
            t = pos.piece[sq]
            if t < 0 or pos.occ[sq] != side or (hyena is not None and pos.types[t].immobilize != hyena):
                here = "nothing" if t < 0 else f"a {SIDE_NAMES[pos.occ[sq]]} {pos.types[t].piece.name}"
                return (f"{key} {pos.board.name(sq)}: allowed are squares of {what} (jumped by the {mover} "
                        f"Dazzler), and {pos.board.name(sq)} holds {here}")
    return None
