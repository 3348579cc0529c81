"""The `dealer` command: each subcommand parses options, calls one library function, reports."""

from __future__ import annotations

import sys

import click

from pieces.errors import DealerError


class DealerGroup(click.Group):
    """A click group that turns the toolkit's errors into one line and exit status 1."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except DealerError as error:
            click.echo(f"error: {error}", err=True)
            sys.exit(1)


@click.group(cls=DealerGroup, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """Dealer's Chess toolkit: cards, 3D pieces, deals and a referee for fairy chess."""


def _register() -> None:
    from dealer_cli import cards_commands, catalogue_commands, engine_commands, pieces_commands

    for module in (catalogue_commands, engine_commands, cards_commands, pieces_commands):
        for command in module.COMMANDS:
            cli.add_command(command)


_register()


def main() -> None:
    """Console entry point."""
    cli(prog_name="dealer")
