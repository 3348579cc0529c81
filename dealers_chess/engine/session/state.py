"""What a board display needs from a session, as plain values (the terminal draws it; the web page gets it as JSON)."""

from __future__ import annotations

from dataclasses import dataclass

from dealers_chess.engine.attacks import in_check
from dealers_chess.engine.game import Promotion
from dealers_chess.engine.notation import format_fen, parse_fen
from dealers_chess.engine.position import SIDE_NAMES
from dealers_chess.engine.session.choices import Choice
from dealers_chess.engine.session.events import ending_words
from dealers_chess.engine.session.session import Session


@dataclass(frozen=True, slots=True)
class SquareView:
    """One square: its name, colour and the piece on it (catalogue id, the code on its card, its side, its name)."""

    name: str
    light: bool
    piece: str | None = None
    code: str | None = None
    side: str | None = None
    royal: bool = False
    piece_name: str | None = None


@dataclass(frozen=True, slots=True)
class HandCard:
    """A piece kept in hand for promotion: catalogue id, card code, name, and whether it is a shared extra."""

    piece: str
    code: str
    name: str
    shared: bool = False


@dataclass(frozen=True, slots=True)
class ClockView:
    """Seconds left for each side and whose time runs (None while paused or over)."""

    white_s: float
    black_s: float
    running: str | None


@dataclass(frozen=True, slots=True)
class SessionState:
    """Everything a player sees at a glance; `dataclasses.asdict` gives JSON-ready data."""

    game: str
    game_name: str
    files: int
    ranks: int
    rows: tuple[tuple[SquareView, ...], ...]  # from the last rank down to rank 1, files from a
    turn: str
    check: bool
    hands: dict[str, tuple[HandCard, ...]]  # per side ('white', 'black')
    hand_promotion: bool  # whether pawns promote to pieces from the hand (so the hands are worth showing)
    draw_stack: int | None  # cards left in the big-deck draw stack (None without the option)
    discard: tuple[str, ...]
    moves: tuple[str, ...]  # SAN-like text of every move so far
    last_move: str | None  # '12... Nf6'
    last_squares: tuple[str, ...]
    result: str | None  # '1-0', '0-1', '1/2-1/2' or None while the game goes on
    reason: str | None
    ending: str | None  # who won and how, in words: 'White wins by checkmate'
    names: dict[str, str | None]  # the players' names per side ('white', 'black'), None where not given
    can_undo: bool  # a move was played and no result the players or the clock decided stands
    clock: ClockView | None
    draw_offer: str | None  # the side whose draw offer stands
    takeback: str | None  # the side asking the other to take back its move
    claimable: str | None  # the draw the side to move may claim
    pending: Choice | None  # the question the last move left open
    fen: str


@dataclass(frozen=True, slots=True)
class BoardView:
    """The board as it stood after `ply` moves of the game (0: at the start), for looking back."""

    ply: int
    rows: tuple[tuple[SquareView, ...], ...]
    last_squares: tuple[str, ...]
    turn: str
    check: bool
    fen: str


def session_state(session: Session) -> SessionState:
    """A snapshot of the session for display."""
    pos = session.position
    board = pos.board
    last = pos.stack[-1][0] if pos.stack and session.sans else None
    return SessionState(
        game=pos.game.id, game_name=pos.game.name, files=board.files, ranks=board.ranks, rows=_rows(pos),
        turn=SIDE_NAMES[pos.turn], check=in_check(pos, pos.turn), hands={SIDE_NAMES[s]: _hand(pos, s) for s in (0, 1)},
        hand_promotion=pos.game.promotion in (Promotion.HAND, Promotion.HAND_KEPT),
        draw_stack=None if pos.deck is None else len(pos.deck.draw),
        discard=() if pos.deck is None else pos.deck.discard, moves=tuple(session.sans),
        last_move=session.last_move(), last_squares=() if last is None else _squares(board, last),
        result=None if session.result is None else session.result.result.value,
        reason=None if session.result is None else session.result.reason,
        ending=None if session.result is None else ending_words(session.result.result.value, session.result.reason),
        names={SIDE_NAMES[s]: session.player_name(s) for s in (0, 1)},
        can_undo=bool(session.sans) and (session.result is None or session.ended_on_board),
        clock=_clock(session), draw_offer=None if session.draw_offer is None else SIDE_NAMES[session.draw_offer],
        takeback=None if session.takeback is None else SIDE_NAMES[session.takeback],
        claimable=session.claimable(), pending=session.pending, fen=format_fen(pos),
    )


def board_at(session: Session, ply: int) -> BoardView:
    """The board after the game's first `ply` moves (replayed from its start); SessionError-free: `ply` is clamped."""
    played = [move for move, _, _ in session.position.stack][-len(session.sans):] if session.sans else []
    ply = max(0, min(ply, len(played)))
    pos = parse_fen(session.start_fen, session.position.game, session.position.catalogue)
    for move in played[:ply]:
        pos.push(move)
    last = played[ply - 1] if ply else None
    return BoardView(ply, _rows(pos), () if last is None else _squares(pos.board, last), SIDE_NAMES[pos.turn],
                     in_check(pos, pos.turn), format_fen(pos))


def _rows(pos) -> tuple[tuple[SquareView, ...], ...]:
    """The squares from the last rank down to rank 1, files from a, with the piece on each."""
    board = pos.board
    rows = []
    for rank in range(board.ranks - 1, -1, -1):
        row = []
        for file in range(board.files):
            sq = board.square(file, rank)
            found = pos.piece_at(sq)
            if found is None:
                row.append(SquareView(board.name(sq), board.is_light(sq)))
            else:
                piece = pos.catalogue.get(found[0])
                row.append(SquareView(board.name(sq), board.is_light(sq), piece.id, piece.code, SIDE_NAMES[found[1]],
                                      piece.is_royal, piece.name))
        rows.append(tuple(row))
    return tuple(rows)


def _hand(pos, side: int) -> tuple[HandCard, ...]:
    """The cards in a side's hand; as many copies of a piece are marked shared as the shared extras hold."""
    shared, cards = list(pos.shared), []
    for piece_id in pos.hands[side]:
        piece, is_shared = pos.catalogue.get(piece_id), piece_id in shared
        if is_shared:
            shared.remove(piece_id)
        cards.append(HandCard(piece.id, piece.code, piece.name, is_shared))
    return tuple(cards)


def _squares(board, move) -> tuple[str, ...]:
    steps = move.steps or (move,)
    return tuple(dict.fromkeys(board.name(sq) for step in steps for sq in (step.frm, step.to)))


def _clock(session: Session) -> ClockView | None:
    clock = session.clock
    if clock is None:
        return None
    running = None if clock.running is None else SIDE_NAMES[clock.running]
    return ClockView(max(0.0, clock.left(0)), max(0.0, clock.left(1)), running)  # a fallen flag reads 0, never less
