"""`dealer play` at a terminal: the board drawn with rich, input read with prompt_toolkit.

prompt_toolkit gives line editing, history, completion of commands and legal moves, and a bottom
toolbar where the clock ticks; rich draws the board in colour where the terminal has 256 colours or
more, and as plain text with '.' for empty squares where it has fewer (NO_COLOR, TERM=dumb).
A line that ends the game by a player's word (resign, accepting a draw, a claim) asks first.
"""

from __future__ import annotations

import asyncio

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.completion import WordCompleter
from prompt_toolkit.history import InMemoryHistory
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from dealers_chess.cli.terminal.text import board_lines, status_lines
from dealers_chess.engine.session.clock import format_seconds
from dealers_chess.engine.session.commands import HANDLERS, Answer, computer_turn, confirmation, run_line
from dealers_chess.engine.session.events import Event, EventKind
from dealers_chess.engine.session.session import Session
from dealers_chess.engine.session.state import SessionState, session_state
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.records import Saver

# Squares from the 256-colour palette, so 256-colour and truecolor terminals show the same colours;
# each gives at least 4:1 contrast with both the bold white and the bold black codes (WCAG 2).
SQUARE_STYLE = {"light": "on color(65)", "dark": "on color(130)", "last": "on color(31)", "check": "on color(161)"}
PIECE_STYLE = {"white": "bold #ffffff", "black": "bold #000000"}
COLOUR_SYSTEMS = ("256", "truecolor")  # with fewer colours the board is plain text
EVENT_STYLE = {EventKind.GAME_OVER: "bold", EventKind.CHECK: "bold red", EventKind.CAPTURE: "yellow",
               EventKind.DRAW_CLAIMABLE: "cyan", EventKind.DRAW_OFFER: "cyan", EventKind.CLOCK: "bold red"}


def play_in_terminal(session: Session, saver: Saver, resumed: bool, console: Console | None = None) -> None:
    """The interactive game loop: draw, read a line, do it, report, save; until quit or Ctrl-D."""
    console = console or Console(highlight=False)
    what = "continuing" if resumed else "new game"
    console.print(f"[bold]{escape(session.position.game.name)}[/] ({what}); every move is saved to "
                  f"{escape(str(saver.path))}. Type [bold]help[/] for the commands.")
    draw_board(console, session_state(session))
    session.start_clock()  # the players see the board: the clock starts now (a move would start it too)
    prompt: PromptSession[str] = PromptSession(history=InMemoryHistory())
    ticking = session.clock is not None
    while True:
        _computer_plays(console, session, saver)
        try:
            line = prompt.prompt(_prompt_text(session), completer=_completer(session), complete_while_typing=False,
                                 bottom_toolbar=(lambda: _clock_bar(session)) if ticking else None,
                                 refresh_interval=0.5 if ticking else 0,
                                 pre_run=(lambda: _end_prompt_on_flag_fall(session)) if ticking else None)
        except KeyboardInterrupt:
            continue
        except EOFError:
            line = "quit"
        if not _confirmed(prompt, session, line):
            console.print("not done: the game goes on")
            continue
        answer = _do(console, session, saver, line)
        if answer is not None and answer.quit:
            break
    console.print(f"saved to {escape(str(saver.path))}; continue with: dealer play --resume {escape(str(saver.path))}")


def _confirmed(prompt: PromptSession[str], session: Session, line: str) -> bool:
    """Ask before a line that would end the game by a player's word; True to go ahead."""
    question = confirmation(session, line)
    if question is None:
        return True
    try:
        answer = prompt.prompt(f"{question} (yes/no) ", completer=WordCompleter(["yes", "no"]))
    except (KeyboardInterrupt, EOFError):
        return False
    return answer.strip().lower() in ("y", "yes")


def _do(console: Console, session: Session, saver: Saver, line: str) -> Answer | None:
    try:
        answer = run_line(session, saver, line)
    except DealerError as error:
        console.print(f"[red]error:[/] {escape(str(error))}")
        return None
    if answer.clear:
        console.clear()
    _show_events(console, answer.report.events)
    for text in answer.lines:
        console.print(escape(text), soft_wrap=answer.unwrapped)  # soft_wrap: one line, whatever the width
    if answer.changed:
        _save(console, session, saver)
    if answer.board:
        draw_board(console, session_state(session))
    if answer.report.choice is not None:
        choice = answer.report.choice
        console.print(f"[cyan]{escape(choice.prompt)}?[/]")
        for option in choice.options:
            console.print(f"  [bold]{escape(option.key)}[/]  {escape(option.text)}")
    return answer


def _computer_plays(console: Console, session: Session, saver: Saver) -> None:
    """If it is the computer's turn: say it thinks, then show its move like any other and save it."""
    if not session.computer_due:
        return
    with console.status("the computer is thinking...", spinner="dots"):
        answer = computer_turn(session)
    if answer is None:
        return
    for text in answer.lines:
        console.print(f"[bold]{escape(text)}[/]")
    _show_events(console, answer.report.events)
    _save(console, session, saver)
    draw_board(console, session_state(session))


def _save(console: Console, session: Session, saver: Saver) -> None:
    try:
        saver.save(session)
    except DealerError as error:
        console.print(f"[red]error: not saved:[/] {escape(str(error))}")


def _show_events(console: Console, events: tuple[Event, ...]) -> None:
    for event in events:
        console.print(Text("  " + event.text, style=EVENT_STYLE.get(event.kind, "")))


def draw_board(console: Console, state: SessionState) -> None:
    """The board with the codes on the cards (White upper case, Black lower case), then hands, turn and result."""
    if console.no_color or console.color_system not in COLOUR_SYSTEMS:
        for line in board_lines(state) + status_lines(state):
            console.print(escape(line))
        return
    width = max([len(sq.code) for row in state.rows for sq in row if sq.code] + [1]) + 2
    checked = {sq.name for row in state.rows for sq in row if state.check and sq.side == state.turn and sq.royal}
    text = Text()
    for index, row in enumerate(state.rows):
        text.append(f"{state.ranks - index:>3} ")
        for sq in row:
            text.append(_cell(sq, width), style=_square_style(sq, state, checked))
        text.append("\n")
    text.append("    " + "".join(sq.name[0].center(width) for sq in state.rows[-1]) + "\n")
    console.print(text, end="")
    for line in status_lines(state):
        console.print(escape(line))


def _cell(sq, width: int) -> str:
    if sq.code is None:
        return " " * width
    return (sq.code if sq.side == "white" else sq.code.lower()).center(width)


def _square_style(sq, state: SessionState, checked: set[str]) -> str:
    if sq.name in checked:
        background = SQUARE_STYLE["check"]
    elif sq.name in state.last_squares:
        background = SQUARE_STYLE["last"]
    else:
        background = SQUARE_STYLE["light" if sq.light else "dark"]
    return f"{PIECE_STYLE.get(sq.side or '', '')} {background}".strip()


def _prompt_text(session: Session) -> str:
    if session.over:
        return "game over> "
    if session.pending is not None:
        return "choose> "
    return f"{'white' if session.turn == 0 else 'black'}> "


def _completer(session: Session) -> WordCompleter:
    words = list(HANDLERS)
    if session.pending is not None:
        words = [o.key for o in session.pending.options] + words
    elif not session.over:
        words = [text for row in session.moves() for text in (row.san, row.move)] + words
    return WordCompleter(list(dict.fromkeys(words)), ignore_case=True, WORD=True)


def _clock_bar(session: Session) -> str:
    clock = session.clock
    if clock is None:
        return ""
    sides = [f"{name} {format_seconds(clock.left(side))}{' <' if clock.running == side else ''}"
             for side, name in enumerate(("White", "Black"))]
    paused = "  (paused until the next move)" if clock.running is None and not session.over else ""
    return f" {sides[0]}   {sides[1]}{paused}"


def _end_prompt_on_flag_fall(session: Session) -> None:
    """Watch the clock while the player types; when the flag falls, end the prompt with an empty line.

    run_line then ends the game on time at once, so nobody has to press Enter to see it.
    """
    app = get_app()

    async def watch() -> None:
        while not session.over and session.clock is not None and session.clock.flagged() is None:
            await asyncio.sleep(0.2)
        if not session.over and app.is_running:
            app.exit(result="")

    app.create_background_task(watch())
