"""Work of whole seconds spread over every core: one process per core, the results in order.

The work must be a module-level function (or a functools.partial of one), and its items picklable,
because each runs in another process, started clean (not forked: it sees none of this process's state
but what it is given); an error raised there is raised here. The work is pickled once a batch, not once
an item (a partial holding a catalogue took 6 ms to pickle and as long to read back, every item).
Within `shared_workers()` every batch runs on one set of processes, started once (in threads too, run in
a copy of its context: contextvars.copy_context().run), and `on_queued` tells a thread's caller when its
batch is queued there, so that threads can queue theirs in an order of their caller's choosing.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.forkserver
import os
import pickle
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial
from typing import TypeVar

# fork() in a process with threads (numpy's, a web server's) may deadlock, and Python warns of it; a fork
# server starts each worker from a clean single-threaded process (Windows has only spawn)
START_METHOD = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"

Item = TypeVar("Item")
Result = TypeVar("Result")

# glibc's mallopt: freed blocks under 32 MB (its largest threshold) stay in the heap, and the heap is trimmed
# only past 512 MB of free memory at its top
MALLOPT_SETTINGS = ((-3, 32 << 20), (-1, 512 << 20))  # (M_MMAP_THRESHOLD, bytes), (M_TRIM_THRESHOLD, bytes)

_shared: ContextVar[ProcessPoolExecutor | None] = ContextVar("shared_workers", default=None)
_on_queued: ContextVar[Callable[[], None] | None] = ContextVar("on_queued", default=None)


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
    pool = None
    shared = _shared.get()  # shut down when its shared_workers() has ended: then refuses new work
    if workers <= 1:
        outcomes = map(work, items)
    else:
        pool = shared or ProcessPoolExecutor(workers, _clean_context([_module_of(work)]), keep_freed_memory)
        outcomes = pool.map(partial(_unpickled_call, pickle.dumps(work)), items)
    if (queued := _on_queued.get()) is not None:
        queued()
    try:
        for result in outcomes:
            results.append(result)
            if advance is not None:
                advance(1)
    finally:
        if pool is not None and pool is not shared:
            pool.shutdown(cancel_futures=True)
    return results


@contextmanager
def shared_workers(preload: Sequence[str] = ()) -> Iterator[None]:
    """Within (and in threads run in a copy of its context): each_on_every_core runs every batch on one process
    per core, started once from a fork server that imported the `preload` modules. On leaving, work not
    started is cancelled, and the threads' later batches are refused (RuntimeError)."""
    keep_freed_memory()  # this process works too
    pool = None
    if usable_cores() > 1:
        pool = ProcessPoolExecutor(usable_cores(), _clean_context(preload), keep_freed_memory)
        if START_METHOD == "forkserver":  # started now, it imports the preload modules while this process goes on
            multiprocessing.forkserver.ensure_running()
    token = _shared.set(pool)
    try:
        yield
    finally:
        _shared.reset(token)
        if pool is not None:
            pool.shutdown(cancel_futures=True)


def keep_freed_memory() -> None:
    """Let this process keep the memory it frees for what it allocates next, rather than hand it back to the
    system (glibc only; elsewhere nothing changes): every page handed back costs a page fault when it is
    touched again, and on a virtual machine those took a third of a print-on-demand card's time (56 ms a card,
    39 ms keeping the memory; the kit's system time 2.6 s, 1.2 s). A process keeps at most what it once used."""
    try:
        mallopt = ctypes.CDLL(None).mallopt  # the C library this process runs on
    except (OSError, TypeError, AttributeError):  # none to load (Windows), or one without mallopt (not glibc)
        return
    for option, value in MALLOPT_SETTINGS:
        mallopt(option, value)


@contextmanager
def on_queued(callback: Callable[[], None]) -> Iterator[None]:
    """Within (in this thread): callback() as soon as each batch is queued on the workers (or, when it runs in
    this process, before it runs)."""
    token = _on_queued.set(callback)
    try:
        yield
    finally:
        _on_queued.reset(token)


_last_work: list[tuple[bytes, Callable]] = []  # in a worker: the batch's work, read once


def _unpickled_call(pickled_work: bytes, item):
    """In a worker: the batch's work (unpickled on its first item) called on one item."""
    if not _last_work or _last_work[0][0] != pickled_work:
        _last_work[:] = [(pickled_work, pickle.loads(pickled_work))]
    return _last_work[0][1](item)


def _module_of(work: Callable) -> str:
    return getattr(work, "func", work).__module__


def _clean_context(preload: Sequence[str]) -> multiprocessing.context.BaseContext:
    """The start method's context; a fork server first started here imports the preload modules (numpy,
    manifold3d and the rest with them) once, and each worker is forked from it with them loaded."""
    context = multiprocessing.get_context(START_METHOD)
    if START_METHOD == "forkserver" and preload:
        context.set_forkserver_preload(list(preload))  # used only when the server starts, on the first pool
    return context
