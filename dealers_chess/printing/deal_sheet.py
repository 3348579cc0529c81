"""The printable deal sheet: the starting board with both armies, who has what, values and seed."""

from __future__ import annotations

import io
import re
from pathlib import Path

from reportlab.lib.pagesizes import letter
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from dealers_chess.engine.dealing.deal import hand_value
from dealers_chess.engine.dealing.deal_file import DealtGame
from dealers_chess.engine.measure.values import piece_value
from dealers_chess.pieces.catalogue import Catalogue
from dealers_chess.printing.files import write_atomic

PAGE_W_PT, PAGE_H_PT = letter
MARGIN_PT = 40
BOARD_W_PT = 300
LIGHT, DARK = (0.93, 0.90, 0.82), (0.72, 0.62, 0.48)
FONT, BOLD = "Vera", "VeraBd"


def register_fonts() -> None:
    """Register the Bitstream Vera fonts shipped in the reportlab wheel (embedded in every PDF)."""
    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, "Vera.ttf"))
        pdfmetrics.registerFont(TTFont(BOLD, "VeraBd.ttf"))


def write_deal_sheet(game: DealtGame, catalogue: Catalogue, path: str | Path, recreate: str) -> Path:
    """Write the deal sheet PDF for a dealt game, with the command line that deals it again, and return its path."""
    register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=letter, initialFontName=FONT, invariant=1, pdfVersion=(1, 7))
    canvas.setTitle(f"Dealer's Chess deal, seed {game.deal.seed}")
    top = _header(canvas, game, recreate)
    bottom = _board(canvas, game, catalogue, top)
    _armies(canvas, game, catalogue, bottom - 24)
    canvas.showPage()
    canvas.save()
    return write_atomic(path, buffer.getvalue())


def _header(canvas: Canvas, game: DealtGame, recreate: str) -> float:
    deal = game.deal
    y = PAGE_H_PT - MARGIN_PT - 14
    canvas.setFont(BOLD, 16)
    canvas.drawString(MARGIN_PT, y, f"Dealer's Chess - deal {deal.seed}")
    canvas.setFont(FONT, 9)
    option = "" if deal.procedure.extra_row.value == "none" else f", extra row of {deal.procedure.extra_row.value}"
    details = f"{deal.procedure.board_name}{option}; deck: {deal.deck.name}; deals taken: {deal.attempts}"
    if game.big_deck:
        details += f"; big deck: {len(deal.draw_stack)} cards in the draw stack"
    canvas.drawString(MARGIN_PT, y - 14, details)
    lines = _wrapped(f"Re-create it with: {recreate}", PAGE_W_PT - 2 * MARGIN_PT, 9)
    for number, line in enumerate(lines):
        canvas.drawString(MARGIN_PT + (12 if number else 0), y - 26 - 11 * number, line)
    return y - 40 - 11 * (len(lines) - 1)


def _wrapped(text: str, width_pt: float, size_pt: float) -> list[str]:
    """The text broken before its options (' --') into lines that fit width_pt; a command stays copyable."""
    lines: list[str] = []
    for part in re.split(r" (?=--)", text):
        if lines and pdfmetrics.stringWidth(f"{lines[-1]} {part}", FONT, size_pt) <= width_pt - 12:
            lines[-1] = f"{lines[-1]} {part}"
        else:
            lines.append(part)
    return lines


def _board(canvas: Canvas, game: DealtGame, catalogue: Catalogue, top: float) -> float:
    board = game.deal.procedure.board
    square = BOARD_W_PT / board.files
    left = (PAGE_W_PT - BOARD_W_PT) / 2
    bottom = top - square * board.ranks
    pieces = game.squares()
    for index in range(board.size):
        x = left + board.file_of(index) * square
        y = bottom + board.rank_of(index) * square
        canvas.setFillColorRGB(*(LIGHT if board.is_light(index) else DARK))
        canvas.rect(x, y, square, square, stroke=0, fill=1)
        if index in pieces:
            card, side = pieces[index]
            _disc(canvas, x + square / 2, y + square / 2, square * 0.44, catalogue.get(card).code, side)
    canvas.setFillColorRGB(0, 0, 0)
    canvas.setFont(FONT, 7)
    for f in range(board.files):
        canvas.drawCentredString(left + (f + 0.5) * square, bottom - 9, "abcdefghijklmnop"[f])
    for r in range(board.ranks):
        canvas.drawRightString(left - 4, bottom + (r + 0.4) * square, str(r + 1))
    return bottom - 12


def _disc(canvas: Canvas, x: float, y: float, radius: float, code: str, side: str) -> None:
    fill, ink = ((1, 1, 1), (0, 0, 0)) if side == "white" else ((0.1, 0.1, 0.1), (1, 1, 1))
    canvas.setFillColorRGB(*fill)
    canvas.setStrokeColorRGB(0, 0, 0)
    canvas.setLineWidth(0.6)
    canvas.circle(x, y, radius, stroke=1, fill=1)
    canvas.setFillColorRGB(*ink)
    size = min(radius * 0.9, 9) if len(code) < 3 else min(radius * 0.7, 8)
    canvas.setFont(BOLD, size)
    canvas.drawCentredString(x, y - size * 0.35, code)


def _armies(canvas: Canvas, game: DealtGame, catalogue: Catalogue, top: float) -> None:
    width = (PAGE_W_PT - 2 * MARGIN_PT - 20) / 2
    for column, side in enumerate(("white", "black")):
        lines = _army_lines(game, side, catalogue)
        x = MARGIN_PT + column * (width + 20)
        size = min(8.0, (top - MARGIN_PT) / (len(lines) + 1) - 2.5)
        y = top
        for text, bold in lines:
            canvas.setFont(BOLD if bold else FONT, size + (2 if bold else 0))
            canvas.drawString(x, y, text)
            y -= size + 2.5


def _army_lines(game: DealtGame, side: str, catalogue: Catalogue) -> list[tuple[str, bool]]:
    deal, army = game.deal, game.army(side)
    board = deal.procedure.board
    total = hand_value(deal, side, catalogue)
    lines = [(f"{side.capitalize()}: value {total:.2f}", True)]
    on_board = [army.royal, *(c for row in army.rows for c in row if c != army.royal), *army.pawns]
    lines.append(("On the board (code  name  value):", False))
    for card in dict.fromkeys(on_board):
        piece = catalogue.get(card)
        count = on_board.count(card) if card != army.royal else 1
        times = f" x{count}" if count > 1 else ""
        lines.append((f"  {piece.code:4} {piece.name}{times}  {piece_value(piece, board):.2f}", False))
    if army.promotes_to:
        slots = ("Queen", "Rook", "Bishop", "Knight")  # a simplified deal's stand-ins, one each
        stand_ins = ", ".join(f"{s} = {catalogue.get(c).name}" for s, c in zip(slots, army.promotes_to, strict=True))
        lines.append(("Stand-ins: " + stand_ins, False))
    held = game.hand(side)
    if held:
        lines.append(("In hand for promotion:", False))
        lines += [(f"  {catalogue.get(c).code:4} {catalogue.get(c).name}"
                   + ("  (shared)" if c in deal.shared and c not in army.hand else ""), False)
                  for c in held]
    return lines
