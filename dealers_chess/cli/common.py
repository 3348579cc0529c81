"""Options and helpers shared by the commands."""

from __future__ import annotations

import json
import re
import sys
import time
from functools import wraps
from pathlib import Path
from typing import TYPE_CHECKING

import click

from dealers_chess.pieces.catalogue import Catalogue, load_catalogue

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar

    from dealers_chess.engine.position import Position
    from dealers_chess.engine.session.session import Session

TIME_SOURCE = time.monotonic  # the clock of `dealer play` and `dealer serve`; tests replace it


CATALOGUE_HELP = "A TOML file of your own pieces, added to (or replacing by id) the built-in catalogue."


def catalogue_files_given(after_command: tuple[str, ...]) -> tuple[str, ...]:
    """The `--catalogue` files of a run: those before the command (`dealer --catalogue F piece X`), then those
    after it."""
    root = click.get_current_context().find_root()
    return (*root.params.get("catalogue_files", ()), *after_command)


def catalogue_option(command):
    """Add `--catalogue FILE` (repeatable) and pass the loaded catalogue as `catalogue`.

    The files given before the command name (the group's option) come first, so either place works.
    """

    @click.option("--catalogue", "catalogue_files", multiple=True, type=click.Path(dir_okay=False), help=CATALOGUE_HELP)
    @wraps(command)
    def wrapper(*args, catalogue_files: tuple[str, ...], **kwargs):
        return command(*args, catalogue=load_catalogue(catalogue_files_given(catalogue_files)), **kwargs)

    return wrapper


class WholeNumber(click.ParamType):
    """An integer written plainly: ASCII digits, an optional minus, at most 100 digits (no '1_000' or '４２')."""

    name = "integer"

    def convert(self, value, param, ctx) -> int:
        if isinstance(value, int):
            return value
        if not re.fullmatch(r"-?[0-9]{1,100}", value):
            self.fail(f"{value[:40]!r} is not a whole number written with the digits 0-9", param, ctx)
        return int(value)


def echo_json(data: object) -> None:
    """Print data as indented JSON, with [dx, dy] pairs kept on one line."""
    text = json.dumps(data, indent=2, ensure_ascii=False)
    click.echo(_PAIR.sub(r"[\1, \2]", text))


_PAIR = re.compile(r"\[\s+(-?\d+),\s+(-?\d+)\s+\]")


def load_position(
    game_name: str | None, deal_file: str | None = None, fen: str | None = None,
    moves: str | None = None, catalogue=None,
) -> Position:
    """The position a command works on: a game's start (or a deal file's, or a FEN), then moves played."""
    from dealers_chess.engine.dealing.deal_file import read_deal_file
    from dealers_chess.engine.errors import GameError
    from dealers_chess.engine.game import default_catalogue, load_game
    from dealers_chess.engine.notation import parse_fen, parse_move
    from dealers_chess.engine.rules import play

    catalogue = catalogue or default_catalogue()
    if deal_file is not None and game_name is not None:
        raise GameError(f"name a game ({game_name!r}) or give --deal FILE, not both: the deal file names its game")
    if deal_file is not None:
        deal = read_deal_file(deal_file)
        game = load_game(deal.game)
        fen = deal.fen if fen is None else fen
    elif game_name is not None:
        game = load_game(game_name)
    else:
        raise GameError("name a game (e.g. chess, dealers-8x8) or give --deal FILE")
    pos = parse_fen(game.start if fen is None else fen, game, catalogue)
    for text in (moves or "").replace(";", ",").split(","):
        if text.strip():
            play(pos, parse_move(pos, text))
    return pos


def computer_options(command):
    """Add `--computer white|black`, `--think SECONDS` and `--level N` (the computer opponent of play and serve)."""
    command = click.option("--level", type=click.IntRange(1, 8),
                           help="The computer's strength: 1 (a beginner wins) "
                           "to 8 (full strength, the default).")(command)
    command = click.option("--think", type=click.FloatRange(0.01, 3600),
                           help="The computer's seconds per move (default 2).")(command)
    return click.option("--computer", type=click.Choice(["white", "black"]),
                        help="The computer plays this side; you play the other.")(command)


def open_session(
    game: str | None, deal_file: str | None, fen: str | None, resume: str | None,
    clock: str | None, catalogue: Catalogue | None,
    computer: tuple[str | None, float | None, int | None] = (None, None, None),
) -> tuple[Session, Path | None]:
    """The session of `dealer play` and `dealer serve` and, when resuming, the record it came from.

    `computer` is (--computer, --think, --level): the side the computer plays, if any, its time and level.
    """
    session, source = _open_session(game, deal_file, fen, resume, clock, catalogue)
    side, think, level = computer
    if side is None and (think is not None or level is not None):
        raise click.UsageError("--think and --level set the computer opponent: "
                               "add --computer white or --computer black")
    if side is not None:
        from dealers_chess.engine.session.computer import Computer

        session.set_computer(Computer.create(side, think, level))
    return session, source


def _open_session(game: str | None, deal_file: str | None, fen: str | None, resume: str | None,
                  clock: str | None, catalogue: Catalogue | None) -> tuple[Session, Path | None]:
    from dealers_chess.engine.session.session import Session

    if resume is not None:
        if game or deal_file or fen or clock:
            raise click.UsageError("--resume FILE continues a saved game: "
                                   "give no GAME, --deal, --fen or --clock with it")
        from dealers_chess.engine.record import read_record
        from dealers_chess.engine.session.record import session_from_record

        return session_from_record(read_record(resume), TIME_SOURCE, resume), Path(resume)
    if (game is None) == (deal_file is None):
        raise click.UsageError("name a GAME (e.g. chess, dealers-8x8) or give --deal FILE (or --resume FILE)")
    from dealers_chess.engine.session.clock import TimeControl

    control = TimeControl.parse(clock) if clock else None
    if deal_file is not None:
        from dealers_chess.engine.dealing.deal_file import read_deal_file

        return Session.from_deal(read_deal_file(deal_file), fen, catalogue, control, TIME_SOURCE), None
    assert game is not None  # exactly one of GAME and --deal, checked above
    return Session.new(game, fen, catalogue, control, TIME_SOURCE), None


class GameProgress:
    """A progress bar of games: done, games a minute and the time left (click's bar, on standard error)."""

    def __init__(self, total: int, label: str) -> None:
        self.started = time.perf_counter()
        self.done = 0
        self.bar: ProgressBar[int] = click.progressbar(length=total, label=label, file=sys.stderr, show_eta=True,
                                                       show_pos=True, item_show_func=lambda _: self.rate())

    def rate(self) -> str:
        minutes = (time.perf_counter() - self.started) / 60
        return f"{self.done / minutes:.1f} games a minute" if self.done and minutes > 0 else ""

    def counting(self, on_game):
        def counted(line: dict) -> None:
            on_game(line)
            self.done += 1
            self.bar.update(1)
        return counted

    def __enter__(self) -> GameProgress:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.bar.__exit__(*exc)
