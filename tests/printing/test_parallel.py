"""printing.parallel: work spread over every core comes back in order, with progress, and its errors."""

from __future__ import annotations

import os

import pytest

from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.parallel import each_on_every_core, usable_cores


def _square_or_refuse(n: int) -> tuple[int, int]:
    if n < 0:
        raise DealerError(f"item {n} is not allowed; use 0 or more")
    return n * n, os.getpid()


def test_results_come_back_in_order_with_one_step_each():
    steps: list[int] = []
    results = each_on_every_core(_square_or_refuse, list(range(12)), steps.append)
    assert [square for square, _ in results] == [n * n for n in range(12)] and steps == [1] * 12
    if usable_cores() > 1:
        assert os.getpid() not in {pid for _, pid in results}  # other processes did the work


def test_an_error_in_a_worker_is_raised_here_with_its_message():
    with pytest.raises(DealerError, match="item -1 is not allowed"):
        each_on_every_core(_square_or_refuse, [3, -1, 4])


def test_one_item_runs_in_this_process():
    assert each_on_every_core(_square_or_refuse, [5]) == [(25, os.getpid())]
