"""Work of whole seconds spread over every core: one process per core, the results in order.

The work must be a module-level function (or a functools.partial of one), and its items picklable,
because each runs in another process; an error raised there is raised here.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def usable_cores() -> int:
    """The cores this process may run on (a container's or taskset's limit, not the machine's count)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1  # Windows and macOS: no affinity call


def each_on_every_core(
    work: Callable[[Item], Result], items: Sequence[Item], advance: Callable[[int], None] | None = None,
) -> list[Result]:
    """work(item) for every item, one process per core (in this process when there is one core or one
    item), advance(1) after each in the items' order; the results in that order."""
    results: list[Result] = []
    workers = min(len(items), usable_cores())
    outcomes: Iterator[Result]
    if workers <= 1:
        outcomes = map(work, items)
        pool = None
    else:
        pool = ProcessPoolExecutor(workers)
        outcomes = pool.map(work, items)
    try:
        for result in outcomes:
            results.append(result)
            if advance is not None:
                advance(1)
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return results
