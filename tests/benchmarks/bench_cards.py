"""Benchmark: the whole starter deck (fronts, backs, legend) to PDF, and one card to a 300 dpi PNG.

Targets: the deck under 3 s, a card PNG under 0.3 s. The peer is the same deck drawn without PDF
forms (every repeated grid, silhouette, back and blank drawn out in full), to show what forms save.
Run: .venv/bin/python tests/benchmarks/bench_cards.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from unittest import mock

from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.printing.cards import pdfs as card_pdfs
from dealers_chess.printing.cards.jobs import (
    DeckRequest,
    Format,
    PictureMode,
    card_drawing,
    print_backs,
    print_cards,
    write_drawing,
)
from dealers_chess.printing.cards.pdf import PdfPainter
from dealers_chess.printing.cards.pdfs import BackLayout, BackOptions
from dealers_chess.printing.pictures import renderer_available


def deck(out: Path, request: DeckRequest) -> tuple[float, int, int]:
    """Seconds for fronts + both kinds of backs, and the fronts' and backs' sizes in bytes."""
    catalogue = load_catalogue()
    start = time.perf_counter()
    fronts, _ = print_cards(catalogue, request, out)
    backs, _ = print_backs(catalogue, request, BackOptions(), out)
    print_backs(catalogue, request, BackOptions(layout=BackLayout.PAGES), out)
    return time.perf_counter() - start, fronts.stat().st_size, backs.stat().st_size


def median(runs: list[tuple[float, int, int]]) -> tuple[float, int, int]:
    return statistics.median(r[0] for r in runs), runs[-1][1], runs[-1][2]


def main() -> None:
    catalogue = load_catalogue()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        silhouette = DeckRequest(pictures=PictureMode.SILHOUETTE)
        seconds, front_bytes, back_bytes = median([deck(out, silhouette) for _ in range(5)])
        print(f"starter deck, silhouettes: {seconds:.2f} s for 10 front pages + 4 + 10 back pages "
              f"(fronts {front_bytes / 1024:.0f} KiB, {front_bytes / 10240:.1f} KiB/page; "
              f"backs {back_bytes / 1024:.0f} KiB)")
        no_forms = mock.patch.object(card_pdfs, "PdfPainter",
                                     lambda canvas, pictures=None: PdfPainter(canvas, pictures, False))
        with no_forms:
            peer, peer_front, peer_back = median([deck(out, silhouette) for _ in range(3)])
        print(f"peer, same deck without forms: {peer:.2f} s, fronts {peer_front / 1024:.0f} KiB, backs "
              f"{peer_back / 1024:.0f} KiB; forms are {peer / seconds:.1f}x faster, "
              f"{peer_front / front_bytes:.1f}x / {peer_back / back_bytes:.1f}x smaller")
        if renderer_available():
            start = time.perf_counter()
            deck(out, DeckRequest())  # fills the render cache under out/render-cache
            cold = time.perf_counter() - start
            warm, rendered_bytes, _ = median([deck(out, DeckRequest()) for _ in range(3)])
            print(f"starter deck with 3D renders: {cold:.1f} s with an empty render cache, {warm:.2f} s cached "
                  f"(fronts {rendered_bytes / 1024:.0f} KiB)")
        drawing = card_drawing(catalogue, "knight")
        times = []
        for _ in range(7):
            start = time.perf_counter()
            png = write_drawing(drawing, Format.PNG, out / "knight.png", 300)
            times.append(time.perf_counter() - start)
        print(f"one card to PNG at 300 dpi: {statistics.median(times) * 1000:.0f} ms median of 7 "
              f"({png.stat().st_size / 1024:.0f} KiB, 1275 x 825 px)")


if __name__ == "__main__":
    main()
