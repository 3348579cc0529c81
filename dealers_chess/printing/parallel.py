"""Work of whole seconds spread over every core: one process per core, the results in order.

The work must be a module-level function (or a functools.partial of one), and its items picklable,
because each runs in another process, started clean (not forked: it sees none of this process's state
but what it is given); an error raised there is raised here.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

# fork() in a process with threads (numpy's, a web server's) may deadlock, and Python warns of it; a fork
# server starts each worker from a clean single-threaded process (Windows has only spawn)
START_METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"

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
        pool = ProcessPoolExecutor(workers, mp_context=_clean_context(work))
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


def _clean_context(work: Callable) -> multiprocessing.context.BaseContext:
    """The start method's context; a fork server first started here imports the work's module (numpy,
    manifold3d and the rest with it) once, and each worker is forked from it with them loaded."""
    context = multiprocessing.get_context(START_METHOD)
    if START_METHOD == "forkserver":
        module = getattr(work, "func", work).__module__
        context.set_forkserver_preload([module])  # used only when the server starts, on the first pool
    return context
