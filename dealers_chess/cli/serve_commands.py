"""`dealer serve`: the game session of `dealer play` as a web page for a phone or tablet beside the board, or for
two phones, one per side.

uvicorn serves the Starlette application of dealers_chess.cli.web.app on 127.0.0.1 unless --host says
otherwise; the game is saved to the same PGN record as `dealer play`, so either can resume it (one
at a time: the record is locked while a session runs). Only a page opened from a printed address,
which carries one of this run's secret keys, can read the game or act on it
(dealers_chess.cli.web.guard): the first address plays both sides, the `White:` and `Black:` ones
one side each (engine.session.seats).
"""

from __future__ import annotations

import errno
import shutil
import socket
from pathlib import Path

import click

from dealers_chess.cli.common import CATALOGUE_HELP, catalogue_files_given, computer_options, open_session
from dealers_chess.cli.web.access import Access, is_loopback, is_wildcard, network_addresses, qr_block
from dealers_chess.cli.web.pieces import PIECE_STYLES
from dealers_chess.engine.session.seats import Seat
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.records import open_game
from dealers_chess.printing.seat_keys import read_seat_keys, write_seat_keys

DEFAULT_PORT = 8765
NETWORK_WARNING = ("warning: anyone on your network who has one of these links can play in this game (the first "
                   "one both sides, undo and resign included); show each only to its player")
SEAT_NOTES = {Seat.WHITE: "a page that plays White only: its moves, offers and resignation; undo asks Black",
              Seat.BLACK: "a page that plays Black only; undo asks White",
              Seat.WATCH: "a page that only follows the game, for spectators: it can do nothing"}
LINKED_SEATS = (Seat.WHITE, Seat.BLACK, Seat.WATCH)  # a line (and a QR code) each after the table's address
GRACE_S = 3  # a stopping server waits this long for open requests (event streams end at once)


@click.command("serve")
@click.argument("game", required=False)
@click.option("--deal", "deal_file", type=click.Path(dir_okay=False),
              help="Start from a saved deal (dealer deal --save FILE).")
@click.option("--resume", "resume_file", type=click.Path(dir_okay=False),
              help="Continue the game saved in this record (by dealer play or dealer serve).")
@click.option("--keep-keys", is_flag=True,
              help="With --resume: the seat keys of the run that saved the record (kept beside it, readable by you "
                   "only), so the players' addresses, QR codes and open pages work again; without it, new keys.")
@click.option("--fen", help="Start from this position instead (docs/notation.md).")
@click.option("--white-name", help="White's player, shown on the pages and kept in the record (a side's page can "
              "also type it).")
@click.option("--black-name", help="Black's player, likewise.")
@click.option("--save", "save_file", type=click.Path(dir_okay=False),
              help="The record saved after every move (default build/games/GAME-DATE-N.pgn).")
@click.option("--clock", help="A clock: MINUTES+SECONDS each, e.g. 15+10 (Fischer increment); "
              "it starts with the first move (a resumed game's when a page first loads).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; 0.0.0.0 lets phones and tablets on your network in "
                   "(it prints their addresses and a QR code for each; the links' keys stay needed).")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535),
              help="The port to listen on (0: any free port).")
@click.option("--pictures", "pictures_dir", default="build", show_default=True, type=click.Path(file_okay=False),
              help="The output folder whose render cache (OUT/render-cache) keeps the pictures of the pieces: the "
                   "board's, made as the page asks for them, and the cards' (made by dealer kit).")
@click.option("--pieces", "piece_style", type=click.Choice(PIECE_STYLES), default="models", show_default=True,
              help="How the page draws the pieces: small pictures of the printed models with their codes, or "
                   "lettered discs. The page has a switch too, and remembers its player's choice.")
@click.option("--catalogue", "catalogue_files", multiple=True, type=click.Path(dir_okay=False), help=CATALOGUE_HELP)
@computer_options
def serve_command(game, deal_file, resume_file, keep_keys, fen, white_name, black_name, save_file, clock, host, port,
                  pictures_dir, piece_style, catalogue_files, computer, think, level) -> None:
    """Serve the game as a web page: tap a piece to see its moves, tap a square (or drag the piece) to play.

    It prints the address to open, with a secret key for this run, for one device playing both
    sides, one address per side ('White:' and 'Black:') for two phones, and a read-only one for
    spectators ('Watch:'): a side's page plays only that side and its undo asks the other. Only pages
    opened from these addresses can play; each sees the other's move at once. The record is locked
    while the server runs, so no other session can change it. With --computer the computer plays one
    side: the page says it is thinking, then shows its move. The page's HTTP API is in docs/web-api.md.
    """
    import uvicorn

    from dealers_chess.cli.web.app import create_app
    from dealers_chess.cli.web.logs import quiet_server_logs
    from dealers_chess.cli.web.table import Table
    from dealers_chess.pieces.catalogue import load_catalogue

    if keep_keys and not resume_file:
        raise click.UsageError("--keep-keys keeps the keys of the game --resume FILE continues: give --resume")
    catalogue_files = catalogue_files_given(catalogue_files)
    catalogue = load_catalogue(catalogue_files) if catalogue_files else None
    listener = _listen(host, port)  # first: a port that cannot be had leaves no record behind
    try:
        session, saver = open_game(resume_file, save_file, "dealer serve",
                                   lambda: _named(open_session(game, deal_file, fen, resume_file, clock, catalogue,
                                                                   (computer, think, level)), (white_name, black_name)))
    except BaseException:
        listener.close()
        raise
    table = Table(session, saver, Path(pictures_dir), piece_style)
    network = _network(host)
    try:
        access = Access.for_server(host, listener.getsockname()[1], network,
                                   _kept_keys(saver.path) if keep_keys else None)
        write_seat_keys(saver.path, {seat.value: access.key_for(seat) for seat in Seat})
    except BaseException:
        listener.close()
        saver.release()
        raise
    click.echo(f"{session.position.game.name}: every move is saved to {saver.path}")
    for line in _announcement(host, access, network):
        click.echo(line)
    config = uvicorn.Config(create_app(table, access), log_level="warning", lifespan="off",
                            timeout_graceful_shutdown=GRACE_S)
    quiet_server_logs()
    server = _server(config, table)
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C or SIGTERM, then passes the signal on: it is the way to stop
        pass
    finally:
        _stop(table)
        last = table.saver.path  # after a rematch, the rematch's record
        click.echo(f"stopped; continue with: dealer serve --resume {last} --keep-keys  (the same addresses; "
                   f"or dealer play --resume {last})")


def _named(opened, names: tuple[str | None, str | None]):
    """The session (and its record's path) with the players' names given on the command line."""
    session, _ = opened
    for side, name in enumerate(names):
        if name is not None:
            session.name_player(side, name)
    return opened


def _kept_keys(record: Path) -> dict[Seat, str]:
    """The seat keys the last server of this record kept beside it."""
    kept = read_seat_keys(record, tuple(seat.value for seat in Seat))
    return {seat: kept[seat.value] for seat in Seat}


def _server(config, table):
    """uvicorn's server, ending the pages' event streams as soon as it is told to stop (Ctrl-C, SIGTERM), so it
    never waits on an open page."""
    import uvicorn

    class TableServer(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            table.closing.set()
            super().handle_exit(sig, frame)
    return TableServer(config)


def _stop(table) -> None:
    """Stop the computer and the pictures' worker, pause the clock, save a last time and let go of the record."""
    table.stop_thinking()
    table.pieces.stop()
    with table.lock:
        table.session.pause()
        try:
            table.saver.save(table.session)
        except DealerError as error:
            click.echo(f"error: not saved: {error}", err=True)
        table.saver.release()


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket bound to host:port, or one line saying why not."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
    except OSError as error:
        in_use = error.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", errno.EADDRINUSE))
        reason = "it is in use: choose another with --port" if in_use else error.strerror or str(error)
        raise DealerError(f"cannot listen on {host}:{port}: {reason}") from None
    listener.listen(64)
    return listener


def _network(host: str) -> tuple[str, ...]:
    """The addresses other devices reach the server at: none on loopback, the bound one, or on 0.0.0.0 (::)
    this computer's."""
    if is_loopback(host):
        return ()
    if not is_wildcard(host):
        return (host,)
    return network_addresses(socket.AF_INET6 if ":" in host else None)


def _announcement(host: str, access: Access, network: tuple[str, ...], columns: int | None = None) -> list[str]:
    """What `dealer serve` prints after the record line: the address for one device and one per side; for a
    network, a warning and a QR code of each."""
    if not network and not is_wildcard(host):
        return [f"open {access.url(host)} in a browser to play both sides; only this computer can open it "
                "(--host 0.0.0.0 lets phones on your network in)", *_seat_lines(access, host),
                "Ctrl-C stops the server"]
    here = access.url("::1" if ":" in host else "127.0.0.1")
    if not network:
        local = "::1" if ":" in host else "127.0.0.1"
        return [f"open {here} in a browser to play both sides; no network address of this computer was found, so "
                "other devices need its address in place of 127.0.0.1", *_seat_lines(access, local),
                NETWORK_WARNING, "Ctrl-C stops the server"]
    phone = access.url(network[0])
    on_this = f"; on this computer: {here}" if is_wildcard(host) else ""
    codes = [("both sides", phone), *((seat.value.capitalize(), access.url(network[0], seat)) for seat in LINKED_SEATS)]
    qr = qr_block(codes, columns or shutil.get_terminal_size((80, 24)).columns,
                  lambda line: click.style(line, fg="black", bg="bright_white"))
    return [f"open {phone} on a phone or tablet on your network to play both sides (or scan the first code "
            f"below){on_this}", *_seat_lines(access, network[0]), NETWORK_WARNING, *qr, "Ctrl-C stops the server"]


def _seat_lines(access: Access, host: str) -> list[str]:
    """`White: ADDRESS (...)`, `Black: ADDRESS (...)`: one page per side; `Watch: ADDRESS (...)` for spectators."""
    return [f"{seat.value.capitalize()}: {access.url(host, seat)} ({SEAT_NOTES[seat]})" for seat in LINKED_SEATS]


COMMANDS = (serve_command,)
