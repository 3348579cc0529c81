"""`dealer play`: the referee beside a real board, one game from the deal to the last move.

A terminal (standard input a terminal) gets a drawn board and line editing (dealer_cli.terminal.prompt);
otherwise one move or command is read per line, one line is printed per event, and the last line is
`result: <1-0|0-1|1/2-1/2|*> (<reason>)`. The game is saved as a PGN record after every move.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import click

from engine.errors import RecordError
from engine.notation import format_fen
from engine.session.session import Report, Session
from engine.session.state import SessionState, session_state
from pieces.catalogue import Catalogue
from pieces.errors import DealerError

HELP = """\
a move        e2e4, e7e8=Q, Nf3, exd5, O-O, e1f1/h1; Spinal Tap's battle move: d3d4&e3e4
moves [SQ]    the legal moves, or those of the piece on square SQ
undo, redo    take back the last move, play it again
card ID       a piece's rules text and diagram (catalogue id, code such as CH, or a square)
board, fen    the board again; the position as FEN
save [FILE]   save now (every move is saved anyway) and pause the clock
draw          offer a draw, or accept the one offered; 'decline' refuses it
claim         claim a draw (threefold repetition, fifty-move rule)
resign        the side to move resigns
help, quit    this text; leave (the game is saved: continue it with --resume FILE)"""
TIME_SOURCE = time.monotonic  # the clock's time source; tests replace it


@dataclass(slots=True)
class Saver:
    """The autosave: the record file, and the text last written to each file this game saved to."""

    path: Path
    written: str | None = None  # what the autosave file holds now, if this program wrote (or read) it
    copies: dict[Path, str] = field(default_factory=dict)  # files named by `save FILE`, and their text

    def save(self, session: Session, path: Path | None = None) -> Path:
        """Write the session's record atomically: never over a damaged record, nor over another file's game."""
        from engine.record import format_record
        from engine.session.record import session_record
        from printing.records import reserve_record, save_text

        text = format_record(session_record(session))
        if path is None or path == self.path:
            self.written = save_text(self.path, text, self.written)
            return self.path
        if path not in self.copies:
            self.copies[path] = save_text(reserve_record(path), text, "")
        else:
            self.copies[path] = save_text(path, text, self.copies[path])
        return path


@dataclass(slots=True)
class Answer:
    """What one line did: its report, lines of text to show, whether to save and whether to stop."""

    report: Report = field(default_factory=Report)
    lines: list[str] = field(default_factory=list)
    changed: bool = False
    quit: bool = False
    board: bool = False  # the terminal draws the board again
    board_text: bool = False  # the player asked for the board: a script prints it as text


def run_line(session: Session, saver: Saver, line: str) -> Answer:
    """Do what one line says: a command or a move (or the answer to a pending choice).

    A flag that fell while the line was typed ends the game first; the line is then not carried out.
    """
    flag = session.check_time()
    if flag is not None:
        return Answer(flag, changed=True, board=True)
    if not line.strip():
        return Answer()
    word, _, rest = line.strip().partition(" ")
    handler = HANDLERS.get(word.lower())
    if handler is None:
        report = session.play(line.strip())
        return Answer(report, changed=bool(report.events), board=bool(report.events))
    return handler(session, saver, rest.strip())


def _moves(session: Session, saver: Saver, rest: str) -> Answer:
    rows = session.moves(rest or None)
    if not rows:
        return Answer(lines=["no legal moves" + (f" for the piece on {rest}" if rest else "")])
    return Answer(lines=[f"{len(rows)} legal moves: " + " ".join(row.san for row in rows)])


def _undo(session: Session, saver: Saver, rest: str) -> Answer:
    return Answer(session.undo(), changed=True, board=True)


def _redo(session: Session, saver: Saver, rest: str) -> Answer:
    return Answer(session.redo(), changed=True, board=True)


def _card(session: Session, saver: Saver, rest: str) -> Answer:
    from dealer_cli.catalogue_commands import piece_text

    return Answer(lines=piece_text(_piece_named(session, rest)).splitlines())


def _piece_named(session: Session, text: str):
    pos = session.position
    if not text:
        raise DealerError("card: name a piece by catalogue id (knight), code (N) or square (g1)")
    by_code = pos.types.by_code(text.upper().strip("()"))
    if by_code is not None:
        return pos.types[by_code].piece
    try:
        square = pos.board.parse_square(text)
    except DealerError:
        return pos.catalogue.get(text.lower())
    found = pos.piece_at(square)
    if found is None:
        raise DealerError(f"card: no piece stands on {text}")
    return pos.catalogue.get(found[0])


def _board(session: Session, saver: Saver, rest: str) -> Answer:
    return Answer(board=True, board_text=True)


def board_lines(state: SessionState) -> list[str]:
    """The board as plain text, top rank first: the codes on the cards (White upper case, Black lower case), '.' empty."""
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
    if state.draw_stack is not None:
        lines.append(f"draw stack: {state.draw_stack} cards; discard pile: {len(state.discard)}")
    if state.draw_offer:
        lines.append(f"{state.draw_offer.capitalize()} offers a draw ('draw' accepts, 'decline' refuses)")
    if state.claimable:
        lines.append(f"{state.turn.capitalize()} may claim a draw ({state.claimable}): type 'claim'")
    if state.result:
        undo = "'undo' takes back the last move, " if state.can_undo else ""
        lines.append(f"game over: {state.result} ({state.reason}); {undo}'quit' leaves")
    else:
        lines.append(f"{state.turn.capitalize()} to move" + (" (in check)" if state.check else ""))
    return lines




def _fen(session: Session, saver: Saver, rest: str) -> Answer:
    return Answer(lines=[f"fen: {format_fen(session.position)}"])


def _save(session: Session, saver: Saver, rest: str) -> Answer:
    session.pause()
    path = saver.save(session, Path(rest) if rest else None)
    paused = "; the clock is paused until the next move" if session.clock is not None and not session.over else ""
    return Answer(lines=[f"saved to {path}{paused}"])


def _draw(session: Session, saver: Saver, rest: str) -> Answer:
    report = session.accept_draw() if session.draw_offer is not None else session.offer_draw()
    return Answer(report, changed=True)


def _decline(session: Session, saver: Saver, rest: str) -> Answer:
    return Answer(session.decline_draw(), changed=True)


def _claim(session: Session, saver: Saver, rest: str) -> Answer:
    return Answer(session.claim_draw(), changed=True)


def _resign(session: Session, saver: Saver, rest: str) -> Answer:
    return Answer(session.resign(), changed=True)


def _help(session: Session, saver: Saver, rest: str) -> Answer:
    return Answer(lines=HELP.splitlines())


def _quit(session: Session, saver: Saver, rest: str) -> Answer:
    session.pause()
    return Answer(changed=True, quit=True)


HANDLERS = {
    "moves": _moves, "undo": _undo, "redo": _redo, "card": _card, "board": _board, "fen": _fen, "save": _save,
    "draw": _draw, "decline": _decline, "claim": _claim, "resign": _resign, "help": _help, "quit": _quit,
}


def open_session(game: str | None, deal_file: str | None, fen: str | None, resume: str | None,
                 clock: str | None, catalogue: Catalogue | None) -> tuple[Session, Path | None]:
    """The session to play and, when resuming, the record it came from."""
    if resume is not None:
        if game or deal_file or fen or clock:
            raise click.UsageError("--resume FILE continues a saved game: give no GAME, --deal, --fen or --clock with it")
        from engine.record import read_record
        from engine.session.record import session_from_record

        return session_from_record(read_record(resume), TIME_SOURCE, resume), Path(resume)
    if (game is None) == (deal_file is None):
        raise click.UsageError("name a GAME (e.g. chess, dealers-8x8) or give --deal FILE (or --resume FILE)")
    from engine.session.clock import TimeControl

    control = TimeControl.parse(clock) if clock else None
    if deal_file is not None:
        from engine.dealing.deal_file import read_deal_file

        return Session.from_deal(read_deal_file(deal_file), fen, catalogue, control, TIME_SOURCE), None
    return Session.new(game, fen, catalogue, control, TIME_SOURCE), None


@click.command("play")
@click.argument("game", required=False)
@click.option("--deal", "deal_file", type=click.Path(dir_okay=False), help="Start from a saved deal (dealer deal --save FILE).")
@click.option("--fen", help="Start from this position instead (docs/notation.md).")
@click.option("--save", "save_file", type=click.Path(dir_okay=False),
              help="The record saved after every move (default build/games/GAME-DATE-N.pgn).")
@click.option("--resume", "resume_file", type=click.Path(dir_okay=False), help="Continue the game saved in this record.")
@click.option("--clock", help="A clock: MINUTES+SECONDS each, e.g. 15+10 (Fischer increment).")
@click.option("--catalogue", "catalogue_files", multiple=True, type=click.Path(dir_okay=False),
              help="A TOML file of your own pieces, added to (or replacing by id) the built-in catalogue.")
def play_command(game, deal_file, fen, save_file, resume_file, clock, catalogue_files) -> None:
    """Play a game at the board: the referee checks every move, saves it, and says what happened."""
    from pieces.catalogue import load_catalogue

    catalogue = load_catalogue(catalogue_files) if catalogue_files else None
    session, resumed = open_session(game, deal_file, fen, resume_file, clock, catalogue)
    saver = start_saver(session, save_file, resumed)
    if sys.stdin.isatty() and sys.stdout.isatty():
        from dealer_cli.terminal.prompt import play_in_terminal

        play_in_terminal(session, saver, resumed is not None)
        return
    sys.exit(play_script(session, saver, sys.stdin))


def start_saver(session: Session, save_file: str | None, resumed: Path | None) -> Saver:
    """The autosave: --save FILE (a new file), else the resumed record, else a new file under build/games."""
    from printing.records import new_record_path, reserve_record

    if save_file is not None and Path(save_file) != resumed:
        saver = Saver(reserve_record(save_file), written="")
    elif resumed is not None:
        saver = Saver(resumed, written=resumed.read_text(encoding="utf-8"))
    else:
        saver = Saver(new_record_path("build/games", session.position.game.id), written="")
    if saver.path != resumed:
        saver.save(session)
    return saver


def play_script(session: Session, saver: Saver, lines) -> int:
    """Read one move or command per line, print one line per event; 1 if any line was refused."""
    click.echo(f"{session.position.game.name}: saved after every move to {saver.path}")
    sys.stdout.flush()
    refused = False
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            answer = run_line(session, saver, line)
        except DealerError as error:
            click.echo(f"error: {line.strip()}: {error}", err=True)
            refused = True
            continue
        state = session_state(session) if answer.board_text else None
        board = [] if state is None else board_lines(state) + status_lines(state)
        for text in [event.text for event in answer.report.events] + answer.lines + board:
            click.echo(text)
        if answer.report.choice is not None:
            click.echo(f"choice: {answer.report.choice.summary()}")
        sys.stdout.flush()  # a program driving the game through a pipe sees each answer at once
        if answer.changed and not _saved(session, saver):
            refused = True
        if answer.quit:
            break
    session.pause()
    refused = not _saved(session, saver) or refused
    click.echo(session.result_line())
    return 1 if refused else 0


def _saved(session: Session, saver: Saver) -> bool:
    """Autosave; on failure say why in one line and go on (the game is not lost, only unsaved)."""
    try:
        saver.save(session)
        return True
    except DealerError as error:
        click.echo(f"error: not saved: {error}", err=True)
        return False


COMMANDS = (play_command,)
