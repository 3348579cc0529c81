"""The one game `dealer serve` serves: its session behind a lock, the autosave, a version that changes with every
change, the computer thinking off the lock, and the card faces and pictures the page shows.

Starlette runs the plain (non-async) endpoints in a thread pool; the lock makes every action one step
at a time, so two pages acting at once cannot corrupt the game or its record.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from dealers_chess.cli.web.pieces import PiecePictures
from dealers_chess.engine.notation import format_move
from dealers_chess.engine.session.computer import replayed
from dealers_chess.engine.session.rematch import offer_words, rematch_session, rematch_words
from dealers_chess.engine.session.seats import Seat, seat_rematch
from dealers_chess.engine.session.session import Report, Session
from dealers_chess.pieces.errors import DealerError
from dealers_chess.printing.records import Saver, next_saver

STALE = "the game changed on another page or tab; the board is now up to date, try again"


@dataclass(slots=True)
class Table:
    """The one game served: its session, autosave, and a version that changes with every change."""

    session: Session
    saver: Saver
    pictures_dir: Path | None = None  # the output folder whose render cache holds piece pictures
    piece_style: str = "models"  # how the page draws the pieces until its player chooses: "models" or "letters"
    version: int = 0
    save_error: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    computer_said: tuple[str, ...] = ()  # what the computer's last move did, for the page to show
    _thinker: threading.Thread | None = None  # the computer thinking, off the lock, on a copy of the position
    _stop_thinking: threading.Event = field(default_factory=threading.Event)
    closing: threading.Event = field(default_factory=threading.Event)  # the server stops: event streams end
    round: int = 1  # the game at this table: 2 after the first rematch
    swapped: bool = False  # after an odd number of rematches White's key opens Black's seat and the other way
    _cards: dict[str, str | DealerError] = field(default_factory=dict)
    _pictures: dict[str, Path | None] = field(default_factory=dict)
    pieces: PiecePictures = field(init=False)  # the board's pictures of the printed pieces, made as pages ask

    def __post_init__(self) -> None:
        self.pieces = PiecePictures(self.pictures_dir)

    def act(self, seen: int, action) -> Report:
        """Run one action on the session (under the lock) and save; a stale page's action is refused."""
        with self.lock:
            if seen != self.version:
                raise DealerError(STALE)
            report, changed = action()
            if changed:
                self._changed()
            self._think_if_due()
            return report

    def seat_for(self, keyed: Seat) -> Seat:
        """The seat a key opens now: a side's key opens the other side's seat after an odd number of rematches."""
        flipped = {Seat.WHITE: Seat.BLACK, Seat.BLACK: Seat.WHITE}
        return flipped.get(keyed, keyed) if self.swapped else keyed

    def rematch(self, seat: Seat) -> tuple[Report, bool]:
        """(Under the lock, through act.) A seat asks for a rematch: the offer stands, or a new game begins from
        the same start in a new record, each side's key opening the other side's seat."""
        if not seat_rematch(self.session, seat):
            assert seat.side is not None  # only a side's seat makes an offer that waits
            return offer_words(seat.side), True
        self.round += 1
        self.session = rematch_session(self.session, self.round)
        self.saver = next_saver(self.saver, self.session)
        self.swapped, self.computer_said = not self.swapped, ()
        return rematch_words(self.session), True

    def refresh(self) -> None:
        """The page asks (on load and on a timer): end the game if a flag fell; a resumed game's clock runs again.

        A new game's clock starts with its first move (as on lichess: nobody's time runs while the other player
        opens the link). The computer starts thinking here the first time it is its turn (it plays White, or a
        game resumed).
        """
        with self.lock:
            if self.session.sans:
                self.session.start_clock()
            if self.session.check_time() is not None:
                self._changed()
            self._think_if_due()

    @property
    def thinking(self) -> bool:
        """Whether the computer is to move (it is thinking, or about to)."""
        return self.session.computer_due

    def _think_if_due(self) -> None:
        """(Under the lock.) Start the computer thinking when it is its turn and it is not already."""
        if not self.session.computer_due or self._stop_thinking.is_set():
            return
        if self._thinker is not None and self._thinker.is_alive():
            return
        copy = replayed(self.session.position, self.session.start_fen)
        self._thinker = threading.Thread(target=self._think, args=(copy, self.version, self.session.computer_clock()),
                                         daemon=True)
        self._thinker.start()

    def _think(self, position, seen: int, clock_left: float | None) -> None:
        """The computer's search, off the lock; its move is played only if nothing changed meanwhile."""
        session = self.session
        computer = session.computer
        assert computer is not None  # started only when computer_due, which needs a computer
        move = computer.choose(position, self._stop_thinking, clock_left)
        with self.lock:
            self._thinker = None
            if self._stop_thinking.is_set():
                return
            if move is not None and seen == self.version and session.computer_due:
                text = format_move(session.position, move)
                report = session.computer_move(move)
                self.computer_said = (f"Computer: {text}", *(event.text for event in report.events))
                self._changed()
            self._think_if_due()  # the game changed while it thought (an undo in another tab): think again

    def stop_thinking(self) -> None:
        """Stop the computer for good (the server stops): its search ends at once and its move is not played;
        the pages' event streams end too."""
        self.closing.set()
        self._stop_thinking.set()
        thinker = self._thinker
        if thinker is not None:
            thinker.join()

    def _changed(self) -> None:
        self.version += 1
        try:
            self.saver.save(self.session)
            self.save_error = None
        except DealerError as error:  # the game goes on, unsaved; the page says why
            self.save_error = f"not saved: {error}"

    def card_svg(self, piece_id: str) -> str:
        """The piece's card face as SVG, drawn as printed (with its 3D picture where one is cached); a DealerError
        saying why it cannot be drawn (words too long for the card), kept like a face, so it is drawn once."""
        if piece_id not in self._cards:
            from dealers_chess.printing.cards.jobs import card_drawing
            from dealers_chess.printing.cards.svg import svg_text
            from dealers_chess.printing.pictures import cached_pictures, no_pictures

            catalogue = self.session.position.catalogue
            pictures = no_pictures if self.pictures_dir is None else cached_pictures(catalogue, self.pictures_dir)
            try:
                self._cards[piece_id] = svg_text(card_drawing(catalogue, piece_id), 0.0, pictures)
            except DealerError as error:
                self._cards[piece_id] = error
        found = self._cards[piece_id]
        if isinstance(found, DealerError):
            raise found
        return found

    def picture_path(self, piece_id: str) -> Path | None:
        """The piece's cached 3D picture (the card's, white), if `dealer kit`, `cards` or `render` made it."""
        if piece_id not in self._pictures:
            self._pictures[piece_id] = None
            if self.pictures_dir is not None:
                from dealers_chess.printing.pictures import PICTURE_PX
                from dealers_chess.printing.render_cache import default_cache_dir, existing_render_path

                piece = self.session.position.catalogue.get(piece_id)
                self._pictures[piece_id] = existing_render_path(piece, default_cache_dir(self.pictures_dir), PICTURE_PX)
        return self._pictures[piece_id]
