"""Small pictures of the printed pieces for the board page: each piece's 3D model seen from a player's chair,
in White's or Black's colours, on a square canvas, cached on disk beside the card pictures (OUT/render-cache).

Every picture shares one scale (mm to pixels), so a King stands taller than a Pawn as on the table; a piece too
big for the canvas at that scale is shrunk to fit. A piece of the side sitting in the chair is seen from behind,
the other side's from the front, as across a real board.
"""

from __future__ import annotations

import hashlib
import io
import json
import time
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from dealers_chess.pieces.catalogue import PieceDef
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.files import out_path, write_atomic

BOARD_PIECE_PX = 96  # the canvas's side: one square of the page's board (it draws it at any size)
SIDES = ("white", "black")  # a piece's colour, and the chair it is seen from
CHAIR_ELEVATION_DEG = 40.0  # the camera above the board, as a player sitting at it sees the pieces
FILL_MM = 90.0  # the height (as the camera sees it, in mm at 50 mm squares) that fills the canvas: a King's, about
SQUARE_MM = 50.0  # the pieces are built as for the cards' 50 mm squares
SUPERSAMPLE = 3  # small pictures need more samples per pixel for smooth edges
MARGIN_PX = 3  # render_lineup's margin around the piece, at each side
PICTURE_VERSION = "board-piece-1"  # bump when the canvas, scale or view changes


@dataclass(frozen=True, slots=True)
class BoardPiece:
    """One picture asked for: a piece, its side's colour, the chair it is seen from, the canvas's side in px."""

    piece: PieceDef
    colour: str
    seen_from: str = "white"
    size_px: int = BOARD_PIECE_PX

    def __post_init__(self) -> None:
        for name, value in (("colour", self.colour), ("seen_from", self.seen_from)):
            if value not in SIDES:
                raise DealerError(f"{name} {value[:20]!r} is not a side; use white or black")

    def file_name(self) -> str:
        """The picture's name in the cache: piece, colour, chair and a hash of everything it depends on."""
        from dealers_chess.printing.render_cache import GEOMETRY_VERSION

        definition = {
            "version": [GEOMETRY_VERSION, PICTURE_VERSION], "group": self.piece.group.value, "code": self.piece.code,
            "betza": self.piece.betza, "rules": sorted(rule.value for rule in self.piece.rules),
            "shape": [str(feature) for feature in self.piece.shape],
            "colour": self.colour, "seen_from": self.seen_from, "size_px": self.size_px,
            "view": [CHAIR_ELEVATION_DEG, FILL_MM, SQUARE_MM, SUPERSAMPLE],
        }
        digest = hashlib.sha256(json.dumps(definition, sort_keys=True).encode()).hexdigest()[:16]
        return f"board-{self.piece.id}-{self.colour}-from-{self.seen_from}-{digest}.png"


def board_piece_cache(out_dir: str | Path) -> Path:
    """The folder the board's pictures are cached in under an output folder (the card pictures' cache)."""
    from dealers_chess.printing.render_cache import default_cache_dir

    return default_cache_dir(out_dir)


def cached_board_piece(wanted: BoardPiece, cache_dir: str | Path) -> Path | None:
    """The picture's file in cache_dir if it was made before, else None (nothing is rendered)."""
    path = out_path(cache_dir, wanted.file_name())
    return path if path.is_file() else None


def board_piece_path(wanted: BoardPiece, cache_dir: str | Path) -> tuple[Path, float]:
    """The picture's file in cache_dir, rendered and stored on the first call, and the seconds spent making it
    (0.0 when it was cached). Raises ModelError for a piece that cannot be built."""
    found = cached_board_piece(wanted, cache_dir)
    if found is not None:
        return found, 0.0
    started = time.perf_counter()
    data = board_piece_png(wanted)
    path = write_atomic(out_path(cache_dir, wanted.file_name()), data)
    return path, time.perf_counter() - started


def board_piece_png(wanted: BoardPiece) -> bytes:
    """The picture as PNG bytes: the piece rendered at the shared scale, standing at the bottom centre of a
    square transparent canvas."""
    canvas = Image.new("RGBA", (wanted.size_px, wanted.size_px), (0, 0, 0, 0))
    piece = _fitted(_rendered(wanted), wanted.size_px)
    canvas.alpha_composite(piece, ((wanted.size_px - piece.width) // 2, wanted.size_px - piece.height))
    buffer = io.BytesIO()
    canvas.save(buffer, format="PNG")
    return buffer.getvalue()


def _rendered(wanted: BoardPiece) -> Image.Image:
    """The piece alone, at the shared scale, cropped to what it covers."""
    from dealers_chess.pieces.model3d.render import View, render_lineup

    px_per_mm = (wanted.size_px - 2 * MARGIN_PX) / FILL_MM
    facing_away = wanted.colour == wanted.seen_from  # a side's own pieces look away from its chair
    view = View(azimuth_deg=0.0 if facing_away else 180.0, elevation_deg=CHAIR_ELEVATION_DEG, supersample=SUPERSAMPLE)
    image = Image.fromarray(render_lineup([wanted.piece], px_per_mm, wanted.colour, SQUARE_MM, view))
    box = image.getbbox()
    return image.crop(box) if box else image


def _fitted(image: Image.Image, size_px: int) -> Image.Image:
    """The picture, shrunk (keeping its shape) where it is wider or taller than the canvas."""
    if image.width <= size_px and image.height <= size_px:
        return image
    shrink = min(size_px / image.width, size_px / image.height)
    return image.resize((max(1, round(image.width * shrink)), max(1, round(image.height * shrink))),
                        Image.Resampling.LANCZOS)
