"""The board page's pictures of the printed pieces (GET /api/piece/ID.png): only the pieces of the served game and
its hands, each made once (dealers_chess.printing.board_pieces caches it on disk), one at a time.

A picture takes about a fifth of a second of one core (building the piece's solid, then drawing it). They are made in
a worker process at a lower priority, so the server's moves and the computer's thinking come first and the
memory the 3D geometry takes goes back when the worker ends: after PICTURES_PER_WORKER pictures, or IDLE_S
seconds with nothing to make. The page asks for a few at a time and shows the letter disc until each arrives.
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path

from starlette.concurrency import run_in_threadpool

from dealers_chess.engine.session.session import Session
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.board_pieces import (
    SIDES,
    BoardPiece,
    board_piece_cache,
    board_piece_path,
    cached_board_piece,
)

PIECE_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,59}")  # the shape of a catalogue id, checked before any look-up
PIECE_STYLES = ("models", "letters")  # how the page draws the pieces first: pictures of the models, or lettered discs
PICTURES_PER_WORKER = 16  # a worker process makes this many pictures, then a new one starts (its memory freed)
IDLE_S = 60.0  # the worker ends after this long with no picture to make
WORKER_NICENESS = 5  # the worker runs below the server's priority
WATCH_S = 1.0  # how often the worker looks whether the server is still there


class PictureRefusal(DealerError):
    """Why a picture is not given: an HTTP status and the reason, for the page's JSON answer."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture ready to send: its file, and the seconds spent making it now (0.0 when it was cached)."""

    path: Path
    made_s: float


def game_piece_ids(session: Session) -> frozenset[str]:
    """Every piece the game can show: on its board now or before, in either hand, and what its pawns promote to."""
    position = session.position
    found = {position.types.id_of(index) for index in range(len(position.types.types))}
    found.update(*position.hands)
    found.update(position.game.promotion_pieces)
    catalogue = position.catalogue
    found.update(target for piece_id in list(found) if piece_id in catalogue
                 for target in catalogue.get(piece_id).promotes_to)
    return frozenset(piece_id for piece_id in found if piece_id in catalogue)


class PiecePictures:
    """The pictures of one served game's pieces, cached under an output folder and made one at a time."""

    def __init__(self, out_dir: Path | None) -> None:
        self.cache = None if out_dir is None else board_piece_cache(out_dir)
        self.making = asyncio.Lock()  # one picture made at a time, however many pages ask
        self.worker: ProcessPoolExecutor | None = None
        self.made = 0  # pictures the running worker has made
        self.idle: asyncio.TimerHandle | None = None

    async def picture(self, session: Session, lock: AbstractContextManager, piece_id: str,
                      query: dict[str, str]) -> Picture:
        """The picture a page asks for (piece id, ?colour=, ?seen_from=), made now if it was never made; a
        PictureRefusal says why not."""
        wanted = await run_in_threadpool(self._wanted, session, lock, piece_id, query)
        cache = self.cache
        assert cache is not None  # _wanted refuses without a cache
        found = cached_board_piece(wanted, cache)
        if found is not None:
            return Picture(found, 0.0)
        async with self.making:
            try:
                return Picture(*await self._made(wanted, cache))
            except DealerError as error:  # a model that cannot be built, a cache that cannot be written
                raise PictureRefusal(422, f"no picture of {piece_id}: {error}; the page shows its letters") from None
            except BrokenProcessPool:  # the worker was killed (out of memory?): the next request starts another
                self.stop()
                raise PictureRefusal(503, f"the picture of {piece_id} could not be made: its worker process "
                                          "ended; try again") from None

    async def _made(self, wanted: BoardPiece, cache: Path) -> tuple[Path, float]:
        """(Holding `making`.) The picture made by the worker, started if none runs; a worker that has made
        PICTURES_PER_WORKER pictures ends (a new one makes the next), and one left idle ends too."""
        loop = asyncio.get_running_loop()
        if self.idle is not None:
            self.idle.cancel()
        try:
            return await loop.run_in_executor(self._worker(), board_piece_path, wanted, cache)
        finally:
            self.made += 1
            if self.made >= PICTURES_PER_WORKER:
                self.stop()
            self.idle = loop.call_later(IDLE_S, self.stop)

    def _worker(self) -> ProcessPoolExecutor:
        if self.worker is None:  # spawned, not forked: the server has threads, and a fork copies their locks
            self.worker = ProcessPoolExecutor(1, get_context("spawn"), initializer=_start_worker,
                                              initargs=(os.getpid(),))
            self.made = 0
        return self.worker

    def stop(self) -> None:
        """End the worker process, if one runs (the server stops, or nothing was asked for a while)."""
        worker, self.worker = self.worker, None
        if worker is not None:
            worker.shutdown(wait=False, cancel_futures=True)

    def _wanted(self, session: Session, lock: AbstractContextManager, piece_id: str,
                query: dict[str, str]) -> BoardPiece:
        """The picture asked for, checked: a piece of this game, a side's colour, a side's chair."""
        if self.cache is None:
            raise PictureRefusal(404, "this server keeps no pictures of the pieces (dealer serve --pictures DIR)")
        with lock:
            pieces = game_piece_ids(session)
            catalogue = session.position.catalogue
        if not PIECE_ID.fullmatch(piece_id) or piece_id not in pieces:
            raise PictureRefusal(404, f"no piece {piece_id[:40]!r} in this game; the ids are the state's "
                                      f"squares' and hands' 'piece' (e.g. /api/piece/{_example(pieces)}.png)")
        colour, seen_from = (_side(query, name) for name in ("colour", "seen_from"))
        return BoardPiece(catalogue.get(piece_id), colour, seen_from)


def _start_worker(server_pid: int) -> None:
    """(In the worker process.) Run below the server's priority, and end as soon as the server has gone (a server
    killed outright never says so): a watch thread looks every WATCH_S seconds."""
    if hasattr(os, "nice"):  # not on Windows
        os.nice(WORKER_NICENESS)

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(WATCH_S)
        os._exit(0)
    threading.Thread(target=watch, daemon=True, name="server watch").start()


def _side(query: dict[str, str], name: str) -> str:
    value = query.get(name, "white")
    if value not in SIDES:
        raise PictureRefusal(400, f"{name}={value[:20]!r}: give white or black (e.g. ?{name}=black)")
    return value


def _example(pieces: Iterable[str]) -> str:
    return min(pieces, default="king")
