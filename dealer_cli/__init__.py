"""The `dealer` command: each subcommand parses options, calls one library function, reports.

Command modules are imported only when their command runs, so `dealer deal` does not pay for
numpy, manifold3d or reportlab.
"""

from __future__ import annotations

import importlib
import sys

import click

from pieces.errors import DealerError

# command name -> the module under dealer_cli that defines it (in its COMMANDS tuple)
COMMAND_MODULES = {
    "catalogue": "catalogue_commands",
    "piece": "catalogue_commands",
    "deal": "deal_commands",
    "perft": "engine_commands",
    "moves": "engine_commands",
    "play": "play_commands",
    "kit": "cards_commands",
    "cards": "cards_commands",
    "backs": "cards_commands",
    "calibrate": "cards_commands",
    "diagram": "cards_commands",
    "pieces": "pieces_commands",
    "plate": "pieces_commands",
    "render": "pieces_commands",
}


class DealerGroup(click.Group):
    """A click group that loads commands lazily and turns the toolkit's errors into one line, exit 1."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMAND_MODULES)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module_name = COMMAND_MODULES.get(name)
        if module_name is None:
            return None
        module = importlib.import_module(f"dealer_cli.{module_name}")
        return next(command for command in module.COMMANDS if command.name == name)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except DealerError as error:
            click.echo(f"error: {error}", err=True)
            sys.exit(1)


@click.group(cls=DealerGroup, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Dealer's Chess toolkit: cards, 3D pieces, deals and a referee for fairy chess."""


def main() -> None:
    """Console entry point."""
    cli(prog_name="dealer")
