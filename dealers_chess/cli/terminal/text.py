"""The board and the game's status as plain text lines, for a script and for the terminal."""

from __future__ import annotations

from dealers_chess.engine.session.state import SessionState


def board_lines(state: SessionState) -> list[str]:
    """The board as plain text, top rank first: the codes on the cards (White upper case, Black lower case),
    '.' empty."""
    width = max([len(sq.code) for row in state.rows for sq in row if sq.code] + [1]) + 1
    lines = []
    for index, row in enumerate(state.rows):
        cells = ("." if sq.code is None else sq.code if sq.side == "white" else sq.code.lower() for sq in row)
        lines.append(f"{state.ranks - index:>3} " + "".join(cell.ljust(width) for cell in cells).rstrip())
    lines.append("    " + "".join(sq.name[0].ljust(width) for sq in state.rows[-1]).rstrip())
    return lines


def status_lines(state: SessionState) -> list[str]:
    """Whose turn, check, the last move, the hands, the big-deck stack, a draw offer or claim, the result."""
    lines = []
    if state.last_move:
        lines.append(f"last move: {state.last_move}")
    for side in ("white", "black"):
        hand = state.hands[side]
        if state.hand_promotion and state.draw_stack is None:
            codes = " ".join(card.code + ("*" if card.shared else "") for card in hand) or "(empty)"
            lines.append(f"{side.capitalize()}'s hand: {codes}")
    if state.draw_stack is None and any(card.shared for side in ("white", "black") for card in state.hands[side]):
        lines.append("(CODE*: a shared extra; the first side to promote to it takes it)")
    if state.draw_stack is not None:
        lines.append(f"draw stack: {state.draw_stack} cards; discard pile: {len(state.discard)}")
    if state.draw_offer:
        lines.append(f"{state.draw_offer.capitalize()} offers a draw ('accept' accepts, 'decline' refuses)")
    if state.claimable:
        lines.append(f"{state.turn.capitalize()} may claim a draw ({state.claimable}): type 'claim'")
    if state.result:
        undo = "'undo' takes back the last move, " if state.can_undo else ""
        lines.append(f"game over: {state.result} ({state.reason}); {undo}'quit' leaves")
    else:
        lines.append(f"{state.turn.capitalize()} to move" + (" (in check)" if state.check else ""))
    return lines
