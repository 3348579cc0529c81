"""A piece described as text and JSON: name, XBetza, value, rules text and its moves from an empty board's centre."""

from __future__ import annotations

import textwrap

from dealers_chess.engine.measure.probe import Offsets, probe
from dealers_chess.engine.measure.values import model_piece_value, piece_value, value_margin
from dealers_chess.pieces.catalogue import PieceDef


def piece_text(piece: PieceDef, offsets: Offsets | None = None) -> str:
    """What `dealer piece ID` prints: name, XBetza, value, rules, the card text and a text diagram."""
    lines = [f"{piece.name} ({piece.id}, {piece.group.value}, code {piece.code})",
             f"XBetza: {piece.betza}    value on 8x8: {value_words(piece)}"]
    if piece.rules:
        lines.append("Rules: " + ", ".join(sorted(rule.value for rule in piece.rules)))
    lines += [
        textwrap.fill(piece.text.expandtabs(), width=78, replace_whitespace=False), "",
        text_diagram(offsets or probe(piece)),
    ]
    return "\n".join(lines)


def piece_json(piece: PieceDef, offsets: Offsets) -> dict:
    """The stable JSON form of one piece (see DESIGN: `dealer piece ID --json`)."""
    return {
        "id": piece.id,
        "name": piece.name,
        "group": piece.group.value,
        "code": piece.code,
        "betza": piece.betza,
        "description": piece.text,
        "rules": sorted(rule.value for rule in piece.rules),
        "sets": list(piece.sets),
        "games": list(piece.games),
        "value": piece_value(piece),
        "value_margin": value_margin(piece),  # the measured value's 95 % half-width; None: the model's estimate
        "model_value": model_piece_value(piece),
        "moves": [list(o) for o in offsets.moves],
        "initial_moves": [list(o) for o in offsets.initial_moves],
        "captures": [list(o) for o in offsets.captures],
        "initial_captures": [list(o) for o in offsets.initial_captures],
    }


def value_words(piece: PieceDef) -> str:
    """'7.91 ± 0.62 (measured by self-play)' or '6.92 (the model's estimate)'."""
    margin = value_margin(piece)
    if margin is None:
        return f"{piece_value(piece):.2f} (the model's estimate; not measured)"
    return f"{piece_value(piece):.2f} \u00b1 {margin:.2f} (measured by self-play; the model says " \
           f"{model_piece_value(piece):.2f})"


SYMBOLS = {
    (True, True): "*", (True, False): "o", (False, True): "x",
}
LEGEND = "K piece   * move or capture   o move only   x capture only   i first move only   . empty"


def text_diagram(offsets: Offsets) -> str:
    """A character grid of the piece's moves, forward up, sized to its reach (at most 15x15)."""
    moves, captures = set(offsets.moves), set(offsets.captures)
    first = set(offsets.initial_moves) | set(offsets.initial_captures)
    every = moves | captures | first
    reach = max([2] + [max(abs(dx), abs(dy)) for dx, dy in every])
    lines = []
    for dy in range(reach, -reach - 1, -1):
        row = []
        for dx in range(-reach, reach + 1):
            cell = (dx, dy)
            if cell == (0, 0):
                row.append("K")
            elif cell in moves or cell in captures:
                row.append(SYMBOLS[(cell in moves, cell in captures)])
            else:
                row.append("i" if cell in first else ".")
        lines.append(" ".join(row))
    return "\n".join(lines + ["", LEGEND])
