"""The files `dealer pieces` writes: one per piece, as STL or 3MF (the 3MF writer loads only when asked)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import Enum
from functools import partial
from pathlib import Path

from dealers_chess.pieces.catalogue import PieceDef
from dealers_chess.pieces.model3d.model import DEFAULT_OPTIONS, ModelOptions, PieceModel, build_piece
from dealers_chess.printing.files import out_path
from dealers_chess.printing.parallel import each_on_every_core
from dealers_chess.printing.solids.stl import write_piece_stl


class PieceFormat(Enum):
    """What `dealer pieces` writes: one solid per STL, or a 3MF with the parts for multi-colour printing
    (the 3MF standard's components, or PrusaSlicer's own multi-part object)."""

    STL = "stl"
    THREEMF = "3mf"
    PRUSA_3MF = "3mf-prusa"

    @property
    def suffix(self) -> str:
        """The end of the file name: the two 3MF layouts differ, so one never replaces the other."""
        return {PieceFormat.STL: "stl", PieceFormat.THREEMF: "3mf", PieceFormat.PRUSA_3MF: "prusa.3mf"}[self]


def write_piece_files(
    pieces: Iterable[PieceDef], out_dir: str | Path, options: ModelOptions = DEFAULT_OPTIONS,
    file_format: PieceFormat = PieceFormat.STL, advance: Callable[[int], None] | None = None,
) -> list[Path]:
    """Build and write one file per piece, named by id, in the format given into out_dir, one process per
    core; return the paths. advance(1) after each."""
    return each_on_every_core(partial(_write_one, out_dir=Path(out_dir), options=options, file_format=file_format),
                              list(pieces), advance)


def _write_one(piece: PieceDef, out_dir: Path, options: ModelOptions, file_format: PieceFormat) -> Path:
    # the STL writer returns its one check, the 3MF writers one per part: unused here
    write: Callable[[str | Path, PieceModel], object] = write_piece_stl
    if file_format is PieceFormat.THREEMF:
        from dealers_chess.printing.solids.threemf import (
            write_piece_3mf as write,  # trimesh and lxml load only for a 3MF
        )
    elif file_format is PieceFormat.PRUSA_3MF:
        from dealers_chess.printing.solids.threemf import write_piece_prusa_3mf as write
    path = out_path(out_dir, f"{piece.id}.{file_format.suffix}")
    write(path, build_piece(piece, options))
    return path


def write_piece_stls(
    pieces: Iterable[PieceDef], out_dir: str | Path, options: ModelOptions = DEFAULT_OPTIONS,
    advance: Callable[[int], None] | None = None,
) -> list[Path]:
    """Build and write one STL per piece, named by id, into out_dir; return the paths."""
    return write_piece_files(pieces, out_dir, options, PieceFormat.STL, advance)


def pieces_folder(out_dir: str | Path, options: ModelOptions) -> Path:
    """Where `dealer pieces` puts its files: one folder per square size (and pocket choice: pockets are the default)."""
    pocket = "" if options.weight_pocket else "-no-pocket"
    colour = "-one-colour" if options.one_colour else ""
    return out_path(out_dir, f"pieces-{options.square_mm:g}mm{pocket}{colour}")
