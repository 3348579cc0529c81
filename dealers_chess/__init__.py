"""Dealer's Chess toolkit: cards, 3D pieces, deals and a referee for fairy chess.

The rooms are subpackages: `pieces` (catalogue and movement), `engine` (the rules, dealing, the
session, the search), `cards` (drawings), `printing` (every file written), `cli` (the `dealer`
command) and `assets` (the data); docs/architecture.md says which may import which.
"""

from __future__ import annotations

DISTRIBUTION = "dealers-chess"


def installed_version() -> str:
    """The version pip installed (pyproject.toml is its one source); '0+unknown' in a tree never installed."""
    from importlib.metadata import PackageNotFoundError, version  # read only when asked: every command imports us

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> str:
    if name == "__version__":
        return installed_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
