"""`dealer serve`: the game session of `dealer play` as a web page for a phone or tablet beside the board.

uvicorn serves the Starlette application of dealer_cli.web.app on 127.0.0.1 unless --host says
otherwise; the game is saved to the same PGN record as `dealer play`, so either can resume it.
"""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

import click

from dealer_cli.common import open_session
from printing.records import start_saver
from pieces.errors import DealerError

DEFAULT_PORT = 8765


@click.command("serve")
@click.argument("game", required=False)
@click.option("--deal", "deal_file", type=click.Path(dir_okay=False), help="Start from a saved deal (dealer deal --save FILE).")
@click.option("--resume", "resume_file", type=click.Path(dir_okay=False),
              help="Continue the game saved in this record (by dealer play or dealer serve).")
@click.option("--fen", help="Start from this position instead (docs/notation.md).")
@click.option("--save", "save_file", type=click.Path(dir_okay=False),
              help="The record saved after every move (default build/games/GAME-DATE-N.pgn).")
@click.option("--clock", help="A clock: MINUTES+SECONDS each, e.g. 15+10 (Fischer increment).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on; 0.0.0.0 lets phones and tablets on your network in.")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535),
              help="The port to listen on (0: any free port).")
@click.option("--pictures", "pictures_dir", default="build", show_default=True, type=click.Path(file_okay=False),
              help="The output folder whose render cache holds 3D pictures of the pieces (made by dealer kit).")
@click.option("--catalogue", "catalogue_files", multiple=True, type=click.Path(dir_okay=False),
              help="A TOML file of your own pieces, added to (or replacing by id) the built-in catalogue.")
def serve_command(game, deal_file, resume_file, fen, save_file, clock, host, port, pictures_dir, catalogue_files) -> None:
    """Serve the game as a web page: tap a piece to see its moves, tap a square to play."""
    import uvicorn

    from dealer_cli.web.app import Table, create_app
    from pieces.catalogue import load_catalogue

    catalogue = load_catalogue(catalogue_files) if catalogue_files else None
    session, resumed = open_session(game, deal_file, fen, resume_file, clock, catalogue)
    saver = start_saver(session, save_file, resumed)
    listener = _listen(host, port)
    table = Table(session, saver, Path(pictures_dir))
    address = _address(host, listener.getsockname()[1])
    click.echo(f"{session.position.game.name}: every move is saved to {saver.path}")
    click.echo(f"open {address} in a browser; {_reach(host)}; Ctrl-C stops the server")
    server = uvicorn.Server(uvicorn.Config(create_app(table), log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:  # uvicorn stops on Ctrl-C or SIGTERM, then passes the signal on: it is the way to stop
        pass
    finally:
        with table.lock:
            session.pause()
            try:
                saver.save(session)
            except DealerError as error:
                click.echo(f"error: not saved: {error}", err=True)
        click.echo(f"stopped; continue with: dealer serve --resume {saver.path}  (or dealer play --resume {saver.path})")


def _listen(host: str, port: int) -> socket.socket:
    """A listening socket bound to host:port, or one line saying why not."""
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        listener = socket.socket(family, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
    except OSError as error:
        reason = "it is in use: choose another with --port" if error.errno == 98 else error.strerror or str(error)
        raise DealerError(f"cannot listen on {host}:{port}: {reason}") from None
    listener.listen(64)
    return listener


def _address(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    return f"http://[{shown}]:{port}/" if ":" in shown else f"http://{shown}:{port}/"


def _reach(host: str) -> str:
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if loopback:
        return "only this computer can open it (--host 0.0.0.0 lets phones on your network in)"
    return f"listening on {host}: other devices on your network can open it at this computer's address"


COMMANDS = (serve_command,)
