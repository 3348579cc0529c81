"""The picture on a card face: the piece's 3D model rendered, cached on disk; None means 'draw the silhouette'.

A picture source is any function piece id -> PIL image or None, so cards work with or without
the renderer (and tests can pass their own).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image

from dealers_chess.pieces.catalogue import Catalogue, PieceDef
from dealers_chess.printing.parallel import each_on_every_core

if TYPE_CHECKING:
    from dealers_chess.pieces.model3d.model import PieceModel

PictureSource = Callable[[str], "Image.Image | None"]
PICTURE_PX = 120  # renders are about twice as tall as wide: 48 pt high at about 350 dpi


def no_pictures(piece_id: str) -> None:
    """The silhouette everywhere."""
    return None


def picture_aspect(source: PictureSource | None, piece_id: str) -> float | None:
    """Width / height of a piece's picture from source; None where there is none (the silhouette stands in)."""
    image = source(piece_id) if source else None
    return image.width / image.height if image is not None and image.height else None


def renderer_available() -> bool:
    """Whether the 3D renderer and its cache can be imported."""
    try:
        from dealers_chess.printing.render_cache import cached_render_png  # noqa: F401
    except ImportError:  # an unfinished renderer must never stop the cards
        return False
    return True


def rendered_pictures(catalogue: Catalogue, out_dir: Path) -> PictureSource:
    """Pictures rendered from each piece's 3D model, through the shared render cache under out_dir."""
    memory: dict[str, Image.Image | None] = {}

    def source(piece_id: str) -> Image.Image | None:
        if piece_id not in memory:
            memory[piece_id] = _picture(catalogue.get(piece_id), out_dir)
        return memory[piece_id]

    return source


def cached_pictures(catalogue: Catalogue, out_dir: Path) -> PictureSource:
    """Pictures already in the render cache under out_dir; None (the silhouette) for any not rendered yet."""
    from dealers_chess.printing.render_cache import default_cache_dir, existing_render_path

    memory: dict[str, Image.Image | None] = {}

    def source(piece_id: str) -> Image.Image | None:
        if piece_id not in memory:
            path = existing_render_path(catalogue.get(piece_id), default_cache_dir(out_dir), width_px=PICTURE_PX)
            memory[piece_id] = None if path is None else _cropped(path)
        return memory[piece_id]

    return source


def prerender(pieces: list[PieceDef], out_dir: Path, advance: Callable[[int], None]) -> None:
    """Render into the cache under out_dir every piece's picture not there yet, one process per core
    (a picture takes about a tenth of a second). A piece that cannot be built is left to the silhouette."""
    from dealers_chess.printing.render_cache import default_cache_dir, existing_render_path

    cache = default_cache_dir(out_dir)
    todo = [piece for piece in pieces if existing_render_path(piece, cache, width_px=PICTURE_PX) is None]
    advance(len(pieces) - len(todo))
    each_on_every_core(partial(_render_one, cache=cache), todo, advance)


def _render_one(piece: PieceDef, cache: Path) -> None:
    from dealers_chess.pieces.model3d.model import ModelError
    from dealers_chess.printing.render_cache import cached_render_path

    try:
        cached_render_path(piece, cache, width_px=PICTURE_PX)
    except ModelError:  # the silhouette stands in
        pass


def store_picture(piece: PieceDef, model: PieceModel, out_dir: Path) -> None:
    """Put the card picture of a piece just built (at the cards' 50 mm squares) into the cache under out_dir,
    unless it is there: how the kit renders while it builds, on the build's core."""
    from dealers_chess.printing.render_cache import cached_render_path, default_cache_dir

    cached_render_path(piece, default_cache_dir(out_dir), width_px=PICTURE_PX, model=model)


def _cropped(path: Path) -> Image.Image | None:
    try:
        with Image.open(path) as stored:
            image = stored.convert("RGBA")
    except (OSError, SyntaxError, ValueError):  # a damaged cache entry: the silhouette stands in
        return None
    box = image.getbbox()
    return image.crop(box) if box else None


def _picture(piece: PieceDef, out_dir: Path) -> Image.Image | None:
    from dealers_chess.pieces.model3d.model import ModelError
    from dealers_chess.printing.render_cache import cached_render_path, cached_render_png, default_cache_dir

    cache = default_cache_dir(out_dir)
    try:
        path = cached_render_path(piece, cache, width_px=PICTURE_PX)
        if (found := _read_pictures.get(path)) is not None:
            return found
        image = cached_render_png(piece, cache, width_px=PICTURE_PX)  # a damaged entry is rendered again
    except ModelError:  # a model that cannot be built: the silhouette stands in
        return None
    box = image.getbbox()
    picture = image.crop(box) if box else None
    if picture is not None and len(_read_pictures) < MAX_READ_PICTURES:
        _read_pictures[path] = picture
    return picture


# the pictures read from render caches in this process, by file: a kit's PDFs each show every picture, and
# a cache file's name holds a hash of all its picture depends on (callers never change an image they get)
_read_pictures: dict[Path, Image.Image] = {}
MAX_READ_PICTURES = 512
