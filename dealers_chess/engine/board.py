"""Board geometry for any rectangle up to 16x16: square indices and names (a1 ... p16)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from dealers_chess.pieces.errors import DealerError

MAX_FILES = 16
MAX_RANKS = 16
FILE_LETTERS = "abcdefghijklmnop"


class BoardError(DealerError):
    """A board size or square name that does not exist."""


@dataclass(frozen=True, slots=True)
class Board:
    """A rectangular board; square index = rank * files + file, a1 = 0."""

    files: int
    ranks: int

    def __post_init__(self) -> None:
        if not (1 <= self.files <= MAX_FILES and 1 <= self.ranks <= MAX_RANKS):
            raise BoardError(
                f"board {self.files}x{self.ranks}: files and ranks must be between 1 and {MAX_FILES}"
            )

    @property
    def size(self) -> int:
        return self.files * self.ranks

    @property
    def label(self) -> str:
        return f"{self.files}x{self.ranks}"

    def square(self, file: int, rank: int) -> int:
        """The index of (file, rank), both counted from 0."""
        return rank * self.files + file

    def file_of(self, square: int) -> int:
        return square % self.files

    def rank_of(self, square: int) -> int:
        return square // self.files

    def on_board(self, file: int, rank: int) -> bool:
        return 0 <= file < self.files and 0 <= rank < self.ranks

    def name(self, square: int) -> str:
        """The square's name, e.g. 'e4' or 'l12'."""
        return FILE_LETTERS[self.file_of(square)] + str(self.rank_of(square) + 1)

    def parse_square(self, name: str) -> int:
        """The index of a square name; raise BoardError naming the square if it is off the board."""
        match = _SQUARE.fullmatch(name.strip().lower())
        if match is None:
            raise BoardError(f"square {name[:40]!r}: expected a file letter and a rank number, e.g. e4")
        file, rank = FILE_LETTERS.index(match[1]), int(match[2]) - 1
        if not self.on_board(file, rank):
            raise BoardError(f"square {name!r} is not on the {self.label} board")
        return self.square(file, rank)

    def is_light(self, square: int) -> bool:
        """True for light squares (a1 is dark)."""
        return (self.file_of(square) + self.rank_of(square)) % 2 == 1


@cache
def board_of(files: int, ranks: int) -> Board:
    """A shared Board instance for a size."""
    return Board(files, ranks)


def parse_board_size(text: str) -> Board:
    """A board from 'FxR' text such as '10x10'; raise BoardError otherwise."""
    match = _SIZE.fullmatch(text)
    if match is None:
        raise BoardError(f"board {text[:40]!r}: expected FILESxRANKS, e.g. 8x8 or 12x12")
    return board_of(int(match[1]), int(match[2]))


_SQUARE = re.compile(r"([a-p])([0-9]{1,3})")  # ASCII digits: int() refuses '²' that isdigit() takes
_SIZE = re.compile(r"([0-9]{1,3})[xX]([0-9]{1,3})")  # ASCII digits: '8x²' and 5,000 digits are refused here
