"""printing.kit's step runner: steps beside the others run in their own threads, and an error anywhere stops
the kit with its message (the whole kit is tested as a user runs it in tests/cli/test_cards_cli.py)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing import kit
from dealers_chess.printing.kit import KitContext, KitStep, build_kit
from dealers_chess.printing.parallel import each_on_every_core


def _context(tmp_path: Path, units: list[int]) -> KitContext:
    return KitContext(load_catalogue(), tmp_path, units.append)


def _step(label: str, run, on_workers: bool = False) -> KitStep:
    return KitStep(label, lambda ctx: 1, run, on_workers)


def _refuse(ctx: KitContext) -> list[Path]:
    ctx.advance(1)
    raise DealerError("a step could not write its file")


def test_an_error_beside_the_pdfs_stops_the_kit_after_they_are_written(tmp_path, monkeypatch):
    written: list[str] = []

    def pdfs(ctx: KitContext) -> list[Path]:
        written.append(threading.current_thread().name)
        ctx.advance(1)
        return []

    monkeypatch.setattr(kit, "KIT_STEPS", [_step("pieces", lambda ctx: []), _step("plates", _refuse, on_workers=True),
                                           _step("fronts", pdfs)])
    units: list[int] = []
    with pytest.raises(DealerError, match="could not write its file"):
        build_kit(_context(tmp_path, units))
    assert written == [threading.current_thread().name] and units == [1, 1]


def test_the_steps_that_need_no_pieces_are_written_while_they_are_built(tmp_path, monkeypatch):
    events: list[str] = []
    backs_written = threading.Event()

    def pieces(ctx: KitContext) -> list[Path]:
        assert backs_written.wait(30)  # the backs are written meanwhile, in the other thread
        events.append("pieces built")
        return []

    def backs(ctx: KitContext) -> list[Path]:
        backs_written.set()
        ctx.pieces_built()
        events.append("duplex written")
        return []

    monkeypatch.setattr(kit, "KIT_STEPS", [
        _step("pieces", pieces), _step("fronts", lambda ctx: events.append("fronts written") or []),
        KitStep("backs", lambda ctx: 1, backs, needs_pieces=False)])
    monkeypatch.setattr(kit, "how_to_print", lambda catalogue, built: "")
    assert [label for label, _ in build_kit(_context(tmp_path, []))] == ["pieces", "fronts", "backs", "how to print"]
    assert events == ["pieces built", "duplex written", "fronts written"]


def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def _naps(ctx: KitContext) -> list[Path]:
    each_on_every_core(_nap, [1.0] * 40)  # 20 s on two cores, 40 on one
    return []


def test_an_error_in_this_thread_cancels_the_work_of_the_steps_beside(tmp_path, monkeypatch):
    monkeypatch.setattr(kit, "KIT_STEPS", [_step("pieces", lambda ctx: []), _step("plates", _naps, on_workers=True),
                                           _step("fronts", _refuse)])
    started = time.monotonic()
    with pytest.raises(DealerError, match="could not write its file"):
        build_kit(_context(tmp_path, []))
    assert time.monotonic() - started < 15  # the naps begun are finished, the rest cancelled


def test_the_steps_beside_start_in_turn_each_once_the_one_before_has_queued_its_work(tmp_path, monkeypatch):
    events: list[str] = []

    def queues(ctx: KitContext) -> list[Path]:
        events.append("first starts")
        each_on_every_core(_nap, [0.5] * 4)
        events.append("first ends")
        return []

    def second(ctx: KitContext) -> list[Path]:
        events.append("second starts")
        return []

    monkeypatch.setattr(kit, "KIT_STEPS", [_step("pieces", lambda ctx: []), _step("plates", queues, on_workers=True),
                                           _step("cards", second, on_workers=True)])
    monkeypatch.setattr(kit, "how_to_print", lambda catalogue, built: "")
    done = build_kit(_context(tmp_path, []))
    assert [label for label, _ in done] == ["pieces", "plates", "cards", "how to print"]
    assert events == ["first starts", "second starts", "first ends"]
