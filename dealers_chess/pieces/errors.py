"""The one error hierarchy: every error a user can act on derives from DealerError."""


class DealerError(Exception):
    """Root of every error the toolkit raises for bad input."""


class BetzaError(DealerError):
    """An XBetza string that cannot be read."""


class CatalogueError(DealerError):
    """A catalogue file, table or field that is not allowed."""


class UnknownPieceError(CatalogueError):
    """A piece id that is not in the catalogue."""


class SelectionError(CatalogueError):
    """A set, game, group or piece that selects nothing."""
