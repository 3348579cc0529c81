"""The picture on a card face: the piece's 3D model rendered, cached on disk; None means 'draw the silhouette'.

A picture source is any function piece id -> PIL image or None, so cards work with or without
the renderer (and tests can pass their own).
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path
from typing import Callable

from PIL import Image

from pieces.catalogue import Catalogue, PieceDef
from printing.files import write_atomic

PictureSource = Callable[[str], "Image.Image | None"]
PICTURE_PX = 240  # 48 pt at 360 dpi: sharp on paper, small in the PDF


def no_pictures(piece_id: str) -> None:
    """The silhouette everywhere."""
    return None


def renderer_available() -> bool:
    """Whether pieces.render (the 3D renderer) can be imported."""
    try:
        from pieces.render import render_piece  # noqa: F401
    except Exception:  # an unfinished or broken renderer must never stop the cards
        return False
    return True


def rendered_pictures(catalogue: Catalogue, cache_dir: Path | None) -> PictureSource:
    """Pictures rendered from each piece's 3D model, cached as PNG in cache_dir (None: no cache)."""
    memory: dict[str, Image.Image | None] = {}

    def source(piece_id: str) -> Image.Image | None:
        if piece_id not in memory:
            memory[piece_id] = _picture(catalogue.get(piece_id), cache_dir)
        return memory[piece_id]

    return source


def _picture(piece: PieceDef, cache_dir: Path | None) -> Image.Image | None:
    path = cache_dir / f"{piece.id}-{_signature(piece)}.png" if cache_dir else None
    if path is not None and path.exists():
        try:
            return Image.open(path).convert("RGBA")
        except OSError:
            pass
    image = _render(piece)
    if image is not None and path is not None:
        buffer = io.BytesIO()
        image.save(buffer, "PNG", optimize=True)
        write_atomic(path, buffer.getvalue())
    return image


def _render(piece: PieceDef) -> Image.Image | None:
    try:
        from pieces.render import render_piece

        pixels = render_piece(piece, width_px=PICTURE_PX)
    except Exception:  # no renderer, or a model it cannot build: the silhouette stands in
        return None
    image = Image.fromarray(pixels, "RGBA" if pixels.shape[2] == 4 else "RGB")
    box = image.getbbox()
    return image.crop(box) if box else None


def _signature(piece: PieceDef) -> str:
    """A short hash of what the model depends on, so an edited piece is rendered again."""
    try:
        from pieces.model import identity_signature

        key = repr(identity_signature(piece))
    except Exception:
        key = repr((piece.group.value, piece.code, piece.betza))
    return hashlib.sha1(f"{key}|{PICTURE_PX}".encode()).hexdigest()[:10]
