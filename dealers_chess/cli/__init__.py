"""The `dealer` command: each subcommand parses options, calls one library function, reports.

Command modules are imported only when their command runs, so `dealer deal` does not pay for
numpy, manifold3d or reportlab. Every error ends as one line on stderr: the toolkit's own errors
and a user's file problems with exit 1, click's usage errors with exit 2.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys

import click

from dealers_chess import DISTRIBUTION
from dealers_chess.pieces.errors import DealerError

# command name -> the module under dealers_chess.cli that defines it (in its COMMANDS tuple)
COMMAND_MODULES = {
    "catalogue": "catalogue_commands",
    "piece": "catalogue_commands",
    "deal": "deal_commands",
    "perft": "engine_commands",
    "moves": "engine_commands",
    "analyse": "analyse_commands",
    "play": "play_commands",
    "serve": "serve_commands",
    "kit": "cards_commands",
    "cards": "cards_commands",
    "backs": "cards_commands",
    "calibrate": "cards_commands",
    "diagram": "cards_commands",
    "pieces": "pieces_commands",
    "plate": "pieces_commands",
    "render": "pieces_commands",
    "export": "export_commands",
    "uci": "uci_commands",
    "values": "values_commands",
}
DEBUG_VARIABLE = "DEALER_DEBUG"  # set to 1 to see the traceback behind an unexpected error


class DealerGroup(click.Group):
    """A click group that loads commands lazily and reports every error in one line."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module_name = COMMAND_MODULES.get(name)
        if module_name is None:
            return None
        module = importlib.import_module(f"dealers_chess.cli.{module_name}")
        return next(command for command in module.COMMANDS if command.name == name)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except DealerError as error:
            _fail(str(error), 1)
        except (click.exceptions.Exit, click.ClickException, click.Abort, KeyboardInterrupt, EOFError):
            raise
        except BrokenPipeError:
            _stop_quietly()
        except Exception as error:  # a safety net only: real fixes raise DealerError where the input is read
            if os.environ.get(DEBUG_VARIABLE):
                raise
            command = " ".join(["dealer", *filter(None, [ctx.invoked_subcommand])])
            _fail(f"{command}: unexpected {type(error).__name__}: {_first_line(error)} (please report this, with the "
                  f"traceback that {DEBUG_VARIABLE}=1 {command} ... prints)", 1)

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        """Run, printing click's usage errors in one line (exit 2) instead of three."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            status = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as error:
            _fail(_usage_line(error), error.exit_code)
        except click.ClickException as error:
            _fail(error.format_message(), error.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)  # Ctrl-C or SIGTERM; temporary files are already removed
            sys.exit(1)
        sys.exit(status if isinstance(status, int) else 0)


def _usage_line(error: click.UsageError) -> str:
    """'--seed: 'abc' is not a valid integer (see dealer deal --help)' from a click usage error."""
    ctx = error.ctx
    where = f" (see {ctx.command_path} --help)" if ctx is not None else ""
    message = error.format_message()
    if type(error) is click.BadParameter and error.param is not None and ctx is not None:
        message = f"{error.param.get_error_hint(ctx).replace(chr(39), '')}: {error.message}"
    return f"{_first_line(message).rstrip('.')}{where}"


def _first_line(error: object) -> str:
    lines = str(error).strip().splitlines() or [""]
    return lines[0][:300]


def _fail(message: str, status: int) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(status)


def _stop_quietly() -> None:
    """The reader of our output went away (`dealer moves ... | head -1`): stop without a message, as Unix tools do."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python's own flush at exit must not fail again
    sys.exit(1)


def _terminate(signum, frame) -> None:
    """SIGTERM ends the run like Ctrl-C: temporary files are removed on the way out."""
    raise KeyboardInterrupt


@click.group(cls=DealerGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name=DISTRIBUTION, prog_name="dealer", message="%(prog)s %(version)s")
@click.option("--catalogue", "catalogue_files", multiple=True, type=click.Path(dir_okay=False),
              help="A TOML file of your own pieces for the command that follows (repeatable; also accepted after it).")
@click.pass_context
def cli(ctx: click.Context, catalogue_files: tuple[str, ...]) -> None:
    """Dealer's Chess toolkit: cards, 3D pieces, deals and a referee for fairy chess.

    Every command takes --help; `dealer --catalogue my-pieces.toml COMMAND` adds your own pieces.
    """
    if ctx.invoked_subcommand is None:  # a bare `dealer`: the first thing a newcomer types gets the commands
        click.echo(ctx.get_help())


def main() -> None:
    """Console entry point."""
    signal.signal(signal.SIGTERM, _terminate)
    try:
        cli(prog_name="dealer")
    except BrokenPipeError:  # raised while click flushes the last output
        _stop_quietly()
