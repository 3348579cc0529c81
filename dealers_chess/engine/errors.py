"""Errors of the rules engine: bad notation, illegal moves, unknown or malformed games."""

from dealers_chess.pieces.errors import DealerError


class GameError(DealerError):
    """A game definition (assets/games/*.toml) or game name that cannot be used."""


class NotationError(DealerError):
    """A FEN, move text or game record that cannot be read; the message names the input."""


class IllegalMoveError(DealerError):
    """A well-formed move that the rules do not allow in the position."""


class RecordError(DealerError):
    """A game record file that is missing, truncated or corrupted."""
