"""The `dealer deal` command line that deals a game again exactly: every option that shaped the deal."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from dealers_chess.engine.dealing.arrangement import Choice


@dataclass(frozen=True, slots=True)
class DealOptions:
    """What `dealer deal` was asked for, besides where the cards go."""

    seed: int
    board: str
    extra_row: str = "none"
    deck_file: str | None = None
    big_deck: bool = False
    max_imbalance: float | None = None
    catalogue_files: tuple[str, ...] = ()


def recreate_command(options: DealOptions, choices: dict[str, Choice]) -> str:
    """`dealer deal --seed N --board B ...` with the options and the players' own placements, quoted for a shell."""
    words = ["dealer"]
    for path in options.catalogue_files:
        words += ["--catalogue", path]
    words += ["deal", "--seed", str(options.seed), "--board", options.board]
    if options.extra_row != "none":
        words += ["--extra-row", options.extra_row]
    if options.deck_file:
        words += ["--deck", options.deck_file]
    if options.big_deck:
        words.append("--big-deck")
    if options.max_imbalance is not None:
        words += ["--max-imbalance", repr(options.max_imbalance)]  # repr: the exact float, which str() may not give
    for side in ("white", "black"):
        choice = choices.get(side)
        if choice is not None and choice.rows:
            words += [f"--{side}-back", "/".join(",".join(row) for row in choice.rows)]
        if choice is not None and choice.pawns:
            words += [f"--{side}-pawns", ",".join(choice.pawns)]
    return shlex.join(words)
