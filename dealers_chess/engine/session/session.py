"""A game session: one game played move by move beside a real board (no I/O).

The terminal (`dealer play`) and the web page (`dealer serve`) are thin layers over `Session`:
every action returns a Report of events (and, when the rules leave a choice, the Choice to ask).
What to draw is in engine.session.state; the saved record in engine.session.record.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from dealers_chess.engine import rules
from dealers_chess.engine.dead import cannot_mate
from dealers_chess.engine.dealing.deal_file import DealFile
from dealers_chess.engine.errors import IllegalMoveError, NotationError
from dealers_chess.engine.game import GameDef, default_catalogue, load_game
from dealers_chess.engine.move import Kind, Move
from dealers_chess.engine.notation import format_fen, format_move, format_san, parse_fen, parse_move
from dealers_chess.engine.position import SIDE_NAMES, Position
from dealers_chess.engine.rules import Outcome, Result, legal_moves, outcome
from dealers_chess.engine.session.choices import (
    Choice,
    battle_choice,
    castle_choice,
    choice_for,
    promotion_choice,
    read_from_to,
    san_completions,
)
from dealers_chess.engine.session.clock import Clock, TimeControl
from dealers_chess.engine.session.computer import Computer
from dealers_chess.engine.session.events import Event, EventKind, move_events, side_name, snapshot, turn_events
from dealers_chess.engine.session.reasons import san_reason
from dealers_chess.pieces.catalogue import Catalogue
from dealers_chess.pieces.errors import DealerError

# Reasons for a result that the session, not the position, decides (undo cannot take these back).
RESIGNATION, AGREEMENT, TIME = "resignation", "agreement", "time"
PLAYER_TAGS = ("White", "Black")  # the record's tags naming each side's player
MAX_NAME = 40
TIME_NO_MATE = "time, against a side that cannot mate"


class SessionError(DealerError):
    """An action the session cannot take now: the game is over, nothing to undo, no draw offered."""


@dataclass(frozen=True, slots=True)
class Report:
    """What an action did: events in order, and the choice to ask when a move needs one."""

    events: tuple[Event, ...] = ()
    choice: Choice | None = None


@dataclass(frozen=True, slots=True)
class MoveInfo:
    """One legal move: coordinate form (what `play` reads back), SAN-like form and its squares."""

    move: str
    san: str
    frm: str
    to: str


@dataclass(slots=True)
class Session:
    """One game: the position and its moves, undo/redo, draw offers, resignation, claims, clock and result."""

    position: Position
    start_fen: str
    sans: list[str] = field(default_factory=list)  # SAN-like text of every move played, in order
    tags: dict[str, str] = field(default_factory=dict)  # PGN tags kept from the start (names, date, deal)
    clock: Clock | None = None
    result: Outcome | None = None
    draw_offer: int | None = None  # the side whose draw offer stands
    takeback: int | None = None  # the side asking the other to take back its last move (two seats, two pages)
    pending: Choice | None = None  # the question the last move left open
    redo_moves: list[Move] = field(default_factory=list)
    computer: Computer | None = None  # the side the computer plays, if any (engine.session.computer)
    rematch_offer: int | None = None  # the side offering a rematch once the game is over (engine.session.rematch)
    _legal: list[Move] | None = None

    # --- starting -------------------------------------------------------------------
    @classmethod
    def new(cls, game: GameDef | str, fen: str | None = None, catalogue: Catalogue | None = None,
            control: TimeControl | None = None, now: Callable[[], float] = time.monotonic,
            tags: dict[str, str] | None = None) -> Session:
        """A game from its start, or from a FEN; `control` adds a clock read from `now`."""
        game = load_game(game) if isinstance(game, str) else game
        position = parse_fen(fen or game.start, game, catalogue or default_catalogue())
        start_tags = {"Date": date.today().strftime("%Y.%m.%d")} | dict(tags or {})
        session = cls(position, format_fen(position), tags=start_tags)
        if control is not None:
            session.clock = Clock(control, now)  # paused until the players start playing: start_clock or a move
        session._settle()
        return session

    @classmethod
    def from_deal(cls, deal: DealFile, fen: str | None = None, catalogue: Catalogue | None = None,
                  control: TimeControl | None = None, now: Callable[[], float] = time.monotonic) -> Session:
        """A game from a saved deal (`engine.dealing.deal_file.read_deal_file`): its game, start FEN, seed and board."""
        tags = {"DealSeed": str(deal.seed), "DealBoard": deal.procedure or deal.board}
        return cls.new(deal.game, fen or deal.fen, catalogue, control, now, tags)

    # --- what the players see ---------------------------------------------------------
    @property
    def turn(self) -> int:
        return self.position.turn

    @property
    def over(self) -> bool:
        return self.result is not None

    def legal_moves(self) -> list[Move]:
        """The legal moves now (computed once per position)."""
        if self._legal is None:
            self._legal = legal_moves(self.position) if not self.over else []
        return self._legal

    def moves(self, square: str | None = None) -> list[MoveInfo]:
        """Every legal move, or those of the piece on `square`, sorted by coordinates."""
        pos, legal = self.position, self.legal_moves()
        if square is not None:
            frm = pos.board.parse_square(square)
            legal = [m for m in legal if m.frm == frm]
        rows = [MoveInfo(format_move(pos, m), format_san(pos, m, legal), pos.board.name(m.frm), pos.board.name(m.to))
                for m in legal]
        return sorted(rows, key=lambda row: row.move)

    def choices_for(self, frm: str, to: str) -> Choice | None:
        """The choice a move from `frm` to `to` leaves open (promotion piece, castling), or None."""
        board = self.position.board
        return choice_for(self.position, self.legal_moves(), board.parse_square(frm), board.parse_square(to))

    def last_move(self) -> str | None:
        """The last move as numbered SAN ('12... Nf6'), or None."""
        if not self.sans:
            return None
        number = self.position.fullmove - (1 if self.turn == 0 else 0)
        return f"{number}{'.' if self.turn == 1 else '...'} {self.sans[-1]}"

    def claimable(self) -> str | None:
        """The draw the side to move may claim now (threefold repetition, fifty-move rule), or None."""
        return None if self.over else rules.claimable_draw(self.position)

    def result_line(self) -> str:
        """`result: 1-0 (checkmate)`, or `result: * (unfinished)` while the game goes on."""
        if self.result is None:
            return "result: * (unfinished)"
        return f"result: {self.result.result.value} ({self.result.reason})"

    # --- moves ------------------------------------------------------------------------
    def play(self, text: str) -> Report:
        """Play a move in any form the notation reads, or answer the pending choice with its key."""
        self._require_playing()
        self._require_player()
        flag = self.check_time()
        if flag is not None:
            return flag
        if self.pending is not None:
            option = self.pending.option(text)
            if option is not None:
                return self._make(option.move)
        try:
            found = self._read(text)  # a text that is neither a move nor an answer leaves the question open
        except DealerError:
            if self.pending is None:
                raise
            raise SessionError(f"{text.strip()[:40]!r} is neither an answer nor a legal move; {self.pending.prompt}: "
                               f"{', '.join(o.key for o in self.pending.options)} (or play another move)") from None
        if isinstance(found, Choice):
            self.pending = found
            return Report(choice=found)
        return self._make(found)

    def choose(self, key: str) -> Report:
        """Answer the pending choice with one of its option keys."""
        if self.pending is None:
            raise SessionError("there is no question to answer; play a move")
        option = self.pending.option(key)
        if option is None:
            raise SessionError(f"{key!r} is not an answer; allowed: {', '.join(o.key for o in self.pending.options)}")
        self._require_playing()
        self._require_player()
        return self.check_time() or self._make(option.move)

    def _read(self, text: str) -> Move | Choice:
        pos, legal = self.position, self.legal_moves()
        pair = read_from_to(pos, text)
        if pair is not None:
            named = [m for m in legal if (m.frm, m.to) == pair]
            if len(named) == 1:
                return named[0]  # the only completion, even of a compulsory promotion to the one piece in hand
        choice = (choice_for(pos, legal, *pair) if pair else
                  battle_choice(pos, text) if "&" in text else castle_choice(pos, legal, text))
        if choice is not None:
            return choice
        try:
            return parse_move(pos, text)
        except NotationError:
            promotions = san_completions(pos, legal, text)  # 'b8' for a pawn that must say what it becomes
            if promotions:
                return promotions[0] if len(promotions) == 1 else promotion_choice(pos, promotions)
            reason = san_reason(pos, legal, text)  # why a SAN-like text names no legal move
            if reason is None:
                raise
            raise IllegalMoveError(f"move {text.strip()[:60]!r} is not legal: {reason}") from None

    def _make(self, move: Move) -> Report:
        pos = self.position
        side = pos.turn
        san = format_san(pos, move, self.legal_moves())
        before = snapshot(pos, move)
        pos.push(move)
        self.sans.append(san)
        self._legal, self.pending, self.takeback = None, None, None
        if self.redo_moves and self.redo_moves[-1] == move:
            self.redo_moves.pop()
        else:
            self.redo_moves.clear()
        events = move_events(pos, before, move, san)
        if self.clock is not None:
            self.clock.moved(side)
        if self.draw_offer == 1 - side:
            self.draw_offer = None
            events.append(Event(EventKind.DRAW_DECLINED, f"{side_name(side)} moved instead: the draw offer lapses"))
        return Report(tuple(events + self._settle()))

    def _settle(self) -> list[Event]:
        """After a change of position: the game's end, or what the side to move must know."""
        ended = outcome(self.position)
        if ended is not None:
            return [self._finish(ended)]
        events = turn_events(self.position)
        claim = self.claimable()
        if claim is not None:
            events.append(Event(EventKind.DRAW_CLAIMABLE, f"{side_name(self.turn)} may claim a draw ({claim})"))
        return events

    def _finish(self, ended: Outcome) -> Event:
        self.result, self._legal, self.pending, self.draw_offer, self.takeback = ended, None, None, None, None
        if self.clock is not None:
            self.clock.stop()
        return Event(EventKind.GAME_OVER, f"game over: {ended.result.value} ({ended.reason})")

    # --- the computer ---------------------------------------------------------------
    def set_computer(self, computer: Computer) -> None:
        """Let the computer play one side from now on; the record's White or Black tag names it.

        Its evaluation tables for this game's pieces are built now, before any clock runs.
        """
        computer.searcher.prepare(self.position)
        self.computer = computer
        self.tags[SIDE_NAMES[computer.side].capitalize()] = computer.name

    def computer_clock(self) -> float | None:
        """The seconds the computer has left on the clock, if there is one (it thinks less when short of time)."""
        return None if self.clock is None or self.computer is None else self.clock.left(self.computer.side)

    @property
    def computer_due(self) -> bool:
        """Whether it is the computer's turn to move (the interfaces then call computer_move)."""
        return (self.computer is not None and not self.over and self.pending is None
                and self.turn == self.computer.side)

    def computer_move(self, move: Move | None = None) -> Report:
        """The computer plays its move: the one given (found on a copy of the position), or one it searches now.

        Its moves are played like anyone's: the same events, record and undo.
        """
        computer = self.computer
        if computer is None or not self.computer_due:
            raise SessionError("it is not the computer's turn")
        flag = self.check_time()
        if flag is not None:
            return flag
        if move is None:
            move = computer.choose(self.position, clock_left=self.computer_clock())
        battle = move is not None and move.kind == Kind.BATTLE
        legal = rules.battle_moves(self.position) if battle else self.legal_moves()
        if move is None or move not in legal:
            raise SessionError("the computer found no legal move here")
        return self._make(move)

    def _require_player(self) -> None:
        if self.computer_due:
            raise SessionError(f"{side_name(self.turn)} is the computer's side: wait for its move")

    # --- taking back ------------------------------------------------------------------
    def undo(self) -> Report:
        """Take back the last move (also after a mate or stalemate on the board; not a resignation).

        Against the computer, undo takes back the computer's move and the player's before it, so the
        player is to move again.
        """
        if self.computer is None:
            return self._undo_one()
        computer = self.computer.side
        if len(self.sans) == 1 and self.turn != computer:
            raise SessionError("nothing to undo: only the computer's first move has been played")
        report = self._undo_one()
        if self.turn == computer and self.sans:
            report = Report(report.events + self._undo_one().events)
        return report

    def _undo_one(self) -> Report:
        pos = self.position
        if not self.sans:
            raise SessionError("nothing to undo: no move has been played since the game started")
        if self.result is not None and not self.ended_on_board:
            raise SessionError(f"the game is over ({self.result.reason}); a move cannot be taken back now")
        move = pos.pop()
        san = self.sans.pop()
        self.redo_moves.append(move)
        self.result, self._legal, self.pending, self.draw_offer, self.takeback = None, None, None, None, None
        if self.clock is not None:
            self.clock.start(pos.turn)
        number = f"{pos.fullmove}{'.' if pos.turn == 0 else '...'} {san}"
        return Report((Event(EventKind.UNDO, f"took back {number}; {side_name(pos.turn)} to move"),))

    def redo(self) -> Report:
        """Play again the last move taken back (against the computer, the pair undo took back)."""
        self._require_playing()
        self._require_player()
        if not self.redo_moves:
            raise SessionError("nothing to redo")
        report = self._make(self.redo_moves[-1])
        if self.computer_due and self.redo_moves:
            report = Report(report.events + self._make(self.redo_moves[-1]).events)
        return report

    def request_takeback(self, side: int) -> Report:
        """A side asks the other to take back its last move (and the reply to it, if the other side has moved since).

        The request stands until the other side accepts or declines it, or a move is made, or the game ends; once
        the game is over (a mate too), no side may ask: the result stands, as on lichess.
        """
        if self.result is not None:
            raise SessionError(f"the game is over ({self.result.result.value}, {self.result.reason}): "
                               "a takeback can no longer be asked for")
        if self.takeback is not None:
            raise SessionError(f"{side_name(self.takeback)} has already asked to take back a move")
        self._takeback_plies(side)
        self.takeback = side
        return Report((Event(EventKind.TAKEBACK, f"{side_name(side)} asks to take back a move: "
                             f"{side_name(1 - side)} may accept or decline (a move declines too)"),))

    def answer_takeback(self, accept: bool, side: int | None = None) -> Report:
        """The other side (`side`, when a seat says which) accepts or declines the standing takeback request."""
        asker = self.takeback
        if asker is None or side == asker:
            raise SessionError("no takeback has been asked for" if asker is None else
                               f"{side_name(asker)} asked for this takeback: the other side answers it")
        self.takeback = None
        if not accept:
            return Report((Event(EventKind.TAKEBACK, f"{side_name(1 - asker)} declines the takeback"),))
        events: tuple[Event, ...] = ()
        for _ in range(self._takeback_plies(asker)):
            events += self._undo_one().events
        return Report(events)

    def _takeback_plies(self, side: int) -> int:
        """How many moves a takeback for `side` undoes: its last move, and the other side's reply if there is one."""
        plies = 1 if self.turn != side else 2
        if len(self.sans) < plies:
            raise SessionError(f"nothing to take back: {side_name(side)} has not moved yet")
        if self.result is not None and not self.ended_on_board:
            raise SessionError(f"the game is over ({self.result.reason}); a move cannot be taken back now")
        return plies

    @property
    def ended_on_board(self) -> bool:
        """Whether the result comes from the position (mate, stalemate...), not from the players or the clock."""
        return self.result is not None and outcome(self.position) == self.result

    # --- the players -----------------------------------------------------------------
    def player_name(self, side: int) -> str | None:
        """The name of the player of `side` (the record's White or Black tag), or None where none was given."""
        name = self.tags.get(PLAYER_TAGS[side], "?")
        return None if name in ("", "?") else name

    def name_player(self, side: int, text: str) -> Report:
        """Give the player of `side` a name (kept in the record); one line of at most MAX_NAME characters."""
        name = " ".join(text.split())
        if not name or len(name) > MAX_NAME or not name.isprintable():
            raise SessionError(f"a player's name is 1 to {MAX_NAME} letters, digits or spaces on one line, "
                               f"not {text[:MAX_NAME]!r}")
        self.tags[PLAYER_TAGS[side]] = name
        return Report((Event(EventKind.NAME, f"{side_name(side)} is played by {name}"),))

    # --- draws, resignation, time -----------------------------------------------------
    def offer_draw(self, side: int | None = None) -> Report:
        """A side (the side to move by default) offers a draw; it stands until the other side accepts, declines
        or moves."""
        self._require_playing()
        side = self.turn if side is None else side
        if self.draw_offer is not None:
            raise SessionError(f"{side_name(self.draw_offer)} has already offered a draw")
        self.draw_offer = side
        return Report((Event(EventKind.DRAW_OFFER, f"{side_name(side)} offers a draw: {side_name(1 - side)} may "
                             "accept or decline it (a move declines it too)"),))

    def accept_draw(self) -> Report:
        """The other side accepts the standing draw offer: 1/2-1/2 by agreement."""
        self._require_playing()
        if self.draw_offer is None:
            raise SessionError("no draw has been offered; 'draw' offers one")
        return Report((self._finish(Outcome(Result.DRAW, AGREEMENT)),))

    def decline_draw(self) -> Report:
        """Decline the standing draw offer."""
        self._require_playing()
        if self.draw_offer is None:
            raise SessionError("no draw has been offered")
        offered, self.draw_offer = self.draw_offer, None
        return Report((Event(EventKind.DRAW_DECLINED, f"{side_name(1 - offered)} declines the draw"),))

    def claim_draw(self) -> Report:
        """The side to move claims the draw the rules allow now (threefold repetition, fifty-move rule)."""
        self._require_playing()
        claim = self.claimable()
        if claim is None:
            raise SessionError("no draw can be claimed now: that needs a threefold repetition or 50 moves "
                               "by each side without a capture or a pawn move")
        return Report((Event(EventKind.GAME_OVER, f"{side_name(self.turn)} claims a draw: {claim}"),
                       self._finish(Outcome(Result.DRAW, claim))))

    def resign(self, side: int | None = None) -> Report:
        """A side (the side to move by default) resigns."""
        self._require_playing()
        loser = (self.turn if self.computer is None else 1 - self.computer.side) if side is None else side
        winner = Result.BLACK_WINS if loser == 0 else Result.WHITE_WINS
        return Report((Event(EventKind.GAME_OVER, f"{side_name(loser)} resigns"),
                       self._finish(Outcome(winner, RESIGNATION))))

    def check_time(self) -> Report | None:
        """End the game if the side to move's flag has fallen; None while time remains."""
        if self.clock is None or self.over or self.clock.left(self.turn) > 0:
            return None
        loser = self.turn
        winner = Result.BLACK_WINS if loser == 0 else Result.WHITE_WINS
        if cannot_mate(self.position, 1 - loser):
            winner = Result.DRAW  # FIDE 6.9: the opponent could never mate
        return Report((Event(EventKind.CLOCK, f"{side_name(loser)}'s flag has fallen"),
                       self._finish(Outcome(winner, TIME if winner is not Result.DRAW else TIME_NO_MATE))))

    def pause(self) -> None:
        """Stop the clock (save, quit); the next move, or start_clock, starts it again without charging the pause."""
        if self.clock is not None:
            self.clock.stop()

    def start_clock(self) -> None:
        """Let the time of the side to move run, if the clock is paused (a new game, a resumed one, after a save).

        The interfaces call this when the players can see the board: the terminal when it first draws
        it, a script when it starts reading, the web page when it first loads. A move starts it too.
        """
        if self.clock is not None and self.clock.running is None and not self.over:
            self.clock.start(self.turn)

    def _require_playing(self) -> None:
        if self.result is not None:
            raise SessionError(f"the game is over: {self.result.result.value} ({self.result.reason})")
