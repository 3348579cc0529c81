"""Notation: FEN for any game (multi-letter codes, hands, decks, special state), moves, SAN-like text.

The syntax is documented in docs/notation.md. Every reader raises NotationError (or
IllegalMoveError) naming the input and the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from dealers_chess.engine.attacks import immobility_reason, in_check, may_be_in_check
from dealers_chess.engine.board import FILE_LETTERS, Board, BoardError
from dealers_chess.engine.castling import castling_partner_ok, set_castling_rights
from dealers_chess.engine.errors import IllegalMoveError, NotationError
from dealers_chess.engine.game import GameDef, default_catalogue, load_game
from dealers_chess.engine.kernel import EMPTY, R_MOVE, fast_destinations
from dealers_chess.engine.move import Kind, Move
from dealers_chess.engine.origins import castling_problem, misplaced_pawn, too_many_pawns, unmoved_on, unmoved_test
from dealers_chess.engine.position import SIDE_NAMES, DeckState, Position
from dealers_chess.engine.rules import (
    battle_move,
    battle_step_options,
    has_legal_move,
    legal_moves,
    outcome,
    refusal_reason,
    select_moves,
)
from dealers_chess.engine.state_fields import GAME_FIELDS, dazzle_problem, field_problem
from dealers_chess.pieces.catalogue import Catalogue, Group

SQUARE = re.compile(r"([a-p])([0-9]{1,2})")
TOKEN = re.compile(r"([0-9]+)|([A-Za-z])|\(([A-Za-z]{1,3})\)|(.)")
NUMBER = re.compile(r"[0-9]{1,20}")  # ASCII digits only: int() would take '²' or '٣', and 5,000 digits
EXTRA_KEYS = tuple(GAME_FIELDS)  # the key=value fields, in the order FEN writing uses


def piece_letters(code: str, black: bool) -> str:
    """A code as FEN writes it: one letter bare, longer codes in parentheses; lowercase for Black."""
    text = code.lower() if black else code
    return text if len(code) == 1 else f"({text})"


# --- FEN reading --------------------------------------------------------------------------


def parse_fen(text: str, game: GameDef | str = "chess", catalogue: Catalogue | None = None) -> Position:
    """A Position from FEN text; raise NotationError naming the field and what is allowed."""
    game = load_game(game) if isinstance(game, str) else game
    catalogue = catalogue or default_catalogue()
    fields = text.split()
    if len(fields) < 2:
        raise NotationError(f"FEN {_short(text)}: expected at least a placement and a side to move")
    main = [f for f in fields if "=" not in f]
    extras = _extras(text, [f for f in fields if "=" in f])
    problem = field_problem(game, catalogue, list(extras))
    if problem is not None:
        raise NotationError(f"FEN {_short(text)}: {problem}")
    main += ["-", "-", "0", "1"][len(main) - 2:] if len(main) < 6 else []
    if len(main) != 6:
        raise NotationError(f"FEN {_short(text)}: expected 6 fields before key=value fields, found {len(main)}")
    pawn_rank = game.pawn_rank
    if "pawnrank" in extras:
        pawn_rank = _int(text, "pawnrank", extras["pawnrank"], 1, game.board.ranks) - 1
    pos = Position(game, catalogue, pawn_rank)
    _read_placement(pos, text, main[0])
    if main[1] not in ("w", "b"):
        raise NotationError(f"FEN {_short(text)}: side to move {main[1]!r}; allowed: w, b")
    pos.turn = 0 if main[1] == "w" else 1
    set_castling_rights(pos, _read_castling(pos, text, main[2]))
    pos.ep, pos.ep_victim = _read_ep(pos, text, main[3])
    pos.halfmove = _int(text, "halfmove clock", main[4], 0, 10**6)
    pos.fullmove = _int(text, "move number", main[5], 1, 10**6)
    _read_extras(pos, text, extras)
    _check_reachable(pos, text)
    pos.reset_history()
    return pos


def _check_reachable(pos: Position, text: str) -> None:
    """Refuse placements no game reaches: a side without a royal or with more than the game ever gives it,
    a pawn where none can stand or more pawns than a side starts with, or the side not to move in check."""
    lacking = [SIDE_NAMES[side] for side in (0, 1) if not pos.royals[side]]
    if lacking:
        who = "neither side" if len(lacking) == 2 else lacking[0]
        raise NotationError(f"FEN {_short(text)}: {who} has no royal piece; every game needs one on each side")
    most = royals_at_most(pos.game, pos.catalogue)
    for side in (0, 1):
        if most is not None and len(pos.royals[side]) > most[side]:
            raise NotationError(
                f"FEN {_short(text)}: {SIDE_NAMES[side]} has {len(pos.royals[side])} royal pieces; in "
                f"{pos.game.name} a side has at most {most[side]} (no move adds one)"
            )
    for problem in (misplaced_pawn(pos), too_many_pawns(pos), dazzle_problem(pos)):
        if problem is not None:
            raise NotationError(f"FEN {_short(text)}: {problem}")
    if may_be_in_check(pos, 1 - pos.turn) and in_check(pos, 1 - pos.turn):
        raise NotationError(
            f"FEN {_short(text)}: {SIDE_NAMES[1 - pos.turn]}, not to move, is in check; no game reaches this position"
        )


@lru_cache(maxsize=64)
def royals_at_most(game: GameDef, catalogue: Catalogue) -> tuple[int, int] | None:
    """Per side, the royals the game starts with: no move adds one, unless a promotion can give a royal
    (then None: no limit). The start FEN's placement is read by its letters only."""
    royal_codes = {piece.code for piece in catalogue if piece.is_royal}
    royal_ids = {piece.id for piece in catalogue if piece.is_royal}
    if royal_ids & set(game.promotion_pieces + sum((p.promotes_to for p in catalogue), ())):
        return None
    counts = [0, 0]
    for _, letter, code, _ in TOKEN.findall(game.start.split()[0]):
        code = letter or code
        if code.upper() in royal_codes:
            counts[1 if code.islower() else 0] += 1
    return counts[0], counts[1]


def _extras(text: str, fields: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for f in fields:
        key, _, value = f.partition("=")
        if key not in EXTRA_KEYS:
            raise NotationError(f"FEN {_short(text)}: unknown field {key!r}; allowed: {', '.join(EXTRA_KEYS)}")
        found[key] = value
    return found


def _int(text: str, what: str, value: str, low: int, high: int) -> int:
    if NUMBER.fullmatch(value) is None or not low <= int(value) <= high:
        raise NotationError(f"FEN {_short(text)}: {what} {_short(value)}; expected a whole number from {low} to {high}")
    return int(value)


def _short(text: str) -> str:
    """The text quoted for a message, cut to a readable length."""
    return repr(text) if len(text) <= 200 else repr(text[:200]) + "..."


def _read_placement(pos: Position, text: str, placement: str) -> None:
    board, unmoved = pos.board, unmoved_test(pos)
    rows = placement.split("/")
    if len(rows) != board.ranks:
        raise NotationError(
            f"FEN {_short(text)}: {len(rows)} ranks in the placement; the {board.label} board has {board.ranks}"
        )
    for index, row in enumerate(rows):
        rank, file = board.ranks - 1 - index, 0
        for number, letter, code, other in TOKEN.findall(row):
            if other:
                raise NotationError(
                    f"FEN {_short(text)}: rank {rank + 1}: {other!r} is not a piece letter, (CODE) or a number"
                )
            if number:
                if len(number) > 2 or not 1 <= int(number) <= board.files:
                    raise NotationError(
                        f"FEN {_short(text)}: rank {rank + 1}: {_short(number)} empty squares; "
                        f"expected 1 to {board.files}"
                    )
                file += int(number)
                continue
            code = letter or code
            t = pos.types.by_code(code.upper())
            if t is None:
                raise NotationError(
                    f"FEN {_short(text)}: rank {rank + 1}: no catalogue piece has the code {code.upper()!r}"
                )
            if file >= board.files:
                raise NotationError(f"FEN {_short(text)}: rank {rank + 1} has more than {board.files} squares")
            side = 1 if code.islower() else 0
            sq = board.square(file, rank)
            pos.set_square(sq, t, side, not unmoved(sq, side, pos.types[t].piece))
            file += 1
        if file != board.files:
            raise NotationError(
                f"FEN {_short(text)}: rank {rank + 1} has {file} squares; the board has {board.files} files"
            )


def _read_castling(pos: Position, text: str, field: str) -> frozenset[int]:
    if field == "-":
        return frozenset()
    board = pos.board
    rights = set()
    for letter in field:
        side = 0 if letter.isupper() else 1
        rank = 0 if side == 0 else board.ranks - 1
        low = letter.lower()
        if low == "k":
            file = board.files - 1
        elif low == "q":
            file = 0
        elif low in FILE_LETTERS[: board.files]:
            file = FILE_LETTERS.index(low)
        else:
            raise NotationError(f"FEN {_short(text)}: castling right {letter!r}; allowed: K Q k q, file letters or -")
        sq = board.square(file, rank)
        if pos.occ[sq] != side:
            raise NotationError(
                f"FEN {_short(text)}: castling right {letter!r} but no {SIDE_NAMES[side]} piece on {board.name(sq)}"
            )
        if not castling_partner_ok(pos, sq):
            name = pos.types[pos.piece[sq]].piece.name
            raise NotationError(
                f"FEN {_short(text)}: castling right {letter!r}: the {name} on {board.name(sq)} does not castle in "
                f"{pos.game.name}"
            )
        if pos.royal_for(sq) < 0:
            raise NotationError(
                f"FEN {_short(text)}: castling right {letter!r}: no {SIDE_NAMES[side]} royal stands inward of "
                f"{board.name(sq)} on its rank"
            )
        problem = castling_problem(pos, sq)
        if problem is not None:
            raise NotationError(f"FEN {_short(text)}: castling right {letter!r}: {problem}")
        rights.add(sq)
    return frozenset(rights)


def _squares(pos: Position, text: str, what: str, value: str) -> list[int]:
    if SQUARE.sub("", value):
        raise NotationError(f"FEN {_short(text)}: {what} {value!r}; expected square names such as e3 or e3e4")
    try:
        return [pos.board.parse_square(a + b) for a, b in SQUARE.findall(value)]
    except BoardError as error:
        raise NotationError(f"FEN {_short(text)}: {what}: {error}") from None


def _read_ep(pos: Position, text: str, field: str) -> tuple[tuple[int, ...], int]:
    if field == "-":
        return (), -1
    passed, _, victim_text = field.partition("@")
    squares = _squares(pos, text, "en-passant field", passed)
    if not squares:
        raise NotationError(f"FEN {_short(text)}: en-passant field {field!r} names no square")
    victim = (_squares(pos, text, "en-passant victim", victim_text)[0] if victim_text
              else _ep_victim(pos, squares, pos.turn))
    if victim < 0 or pos.occ[victim] != 1 - pos.turn or pos.types[pos.piece[victim]].no_ep_victim:
        raise NotationError(
            f"FEN {_short(text)}: en-passant field {_short(field)}: no enemy pawn that can be taken en passant "
            "stands where it names"
        )
    origin = _ep_origin(pos, squares, victim)
    if origin < 0:
        raise NotationError(
            f"FEN {_short(text)}: en-passant field {_short(field)}: the squares do not lie on a forward move of "
            f"{pos.board.name(victim)} from an empty square"
        )
    if not _moves_there(pos, origin, victim):
        name = pos.types[pos.piece[victim]].piece.name
        raise NotationError(
            f"FEN {_short(text)}: en-passant field {_short(field)}: the {name} on {pos.board.name(victim)} has no move "
            f"from {pos.board.name(origin)} over those squares"
        )
    return tuple(squares), victim


def _ep_origin(pos: Position, squares: list[int], victim: int) -> int:
    """The empty square a forward line through the passed squares to the victim starts from, or -1 if none."""
    board = pos.board
    path = squares + [victim]
    ux = board.file_of(path[1]) - board.file_of(path[0])
    uy = board.rank_of(path[1]) - board.rank_of(path[0])
    if abs(ux) > 1 or uy != (1 if pos.turn == 1 else -1):
        return -1
    for a, b in zip(path, path[1:], strict=False):  # each square with the next
        if (board.file_of(b) - board.file_of(a), board.rank_of(b) - board.rank_of(a)) != (ux, uy):
            return -1
    x, y = board.file_of(path[0]) - ux, board.rank_of(path[0]) - uy
    return board.square(x, y) if board.on_board(x, y) and pos.occ[board.square(x, y)] == EMPTY else -1


def _moves_there(pos: Position, origin: int, victim: int) -> bool:
    """Whether the victim's type has a non-capturing move from origin to where it stands (first-move moves
    count when origin is where such a piece starts: a pawn's pawn row): a Zombie or Gold pawn never steps
    two squares, and a pawn never makes its double step from behind its pawn row."""
    side, kind = pos.occ[victim], pos.types.compiled(pos.piece[victim])
    occ = list(pos.occ)
    occ[victim] = EMPTY
    out: list = []
    fast_destinations(kind.fast[side][origin], occ, side, unmoved_on(pos, origin, side, kind.piece), frozenset(), out)
    return (victim, R_MOVE) in out


def _ep_victim(pos: Position, squares: list[int], turn: int) -> int:
    board = pos.board
    last = squares[-1]
    rank = board.rank_of(last) + (1 if turn == 1 else -1)
    return board.square(board.file_of(last), rank) if 0 <= rank < board.ranks else -1


def _codes(pos: Position, text: str, what: str, value: str) -> list[tuple[str, int]]:
    """(piece id, side) per code of a hand, shared, draw or discard field; royals are never among them."""
    found = []
    for number, letter, code, other in TOKEN.findall(value):
        code = letter or code
        t = None if number or other else pos.types.by_code(code.upper())
        if t is None:
            raise NotationError(f"FEN {_short(text)}: {what}: {_short(number or other or code)} is not a piece code")
        if pos.types[t].royal:
            raise NotationError(
                f"FEN {_short(text)}: {what}: {code!r} is a royal piece; royals are never held in hand or dealt there"
            )
        found.append((pos.types.id_of(t), 1 if code.islower() else 0))
    return found


def _read_extras(pos: Position, text: str, extras: dict[str, str]) -> None:
    hands: list[list[str]] = [[], []]
    for piece_id, side in _codes(pos, text, "hand", extras.get("hand", "")):
        hands[side].append(piece_id)
    pos.hands = [tuple(h) for h in hands]
    pos.shared = tuple(i for i, _ in _codes(pos, text, "shared", extras.get("shared", "")))
    if "draw" in extras or "deck" in extras:
        seed, _, count = extras.get("deck", "0.0").partition(".")
        pos.deck = DeckState(
            tuple(i for i, _ in _codes(pos, text, "draw", extras.get("draw", ""))),
            tuple(i for i, _ in _codes(pos, text, "discard", extras.get("discard", ""))),
            _int(text, "deck seed", seed, 0, 2**64), _int(text, "deck shuffles", count or "0", 0, 10**6),
        )
    for sq in _squares(pos, text, "moved", extras.get("moved", "")):
        if pos.piece[sq] < 0:
            raise NotationError(f"FEN {_short(text)}: moved: no piece on {pos.board.name(sq)}")
        pos.set_square(sq, pos.piece[sq], pos.occ[sq], True)
    pos.dazzled = frozenset(_squares(pos, text, "dazzled", extras.get("dazzled", "")))
    pos.shielded = frozenset(_squares(pos, text, "shielded", extras.get("shielded", "")))
    pos.must_move = frozenset(_squares(pos, text, "mustmove", extras.get("mustmove", "")))
    used = extras.get("battle", "")
    if used.strip("wb") or len(set(used)) != len(used):
        raise NotationError(
            f"FEN {_short(text)}: battle {used!r}; allowed: w, b or wb (sides that made their battle move)"
        )
    pos.battle_used = frozenset(0 if c == "w" else 1 for c in used)


# --- FEN writing --------------------------------------------------------------------------


def format_fen(pos: Position) -> str:
    """The position as FEN; orthodox positions give standard FEN, other state goes in key=value fields."""
    board = pos.board
    fields = [
        _placement(pos), "w" if pos.turn == 0 else "b", _castling(pos), _ep(pos), str(pos.halfmove), str(pos.fullmove),
    ]

    def codes(ids: Iterable[str], black: bool = False) -> str:
        return "".join(piece_letters(pos.catalogue.get(i).code, black) for i in ids)

    if pos.hands[0] or pos.hands[1]:
        fields.append("hand=" + codes(pos.hands[0]) + codes(pos.hands[1], True))
    if pos.shared:
        fields.append("shared=" + codes(pos.shared))
    if pos.deck is not None:
        fields += [f"draw={codes(pos.deck.draw)}", f"discard={codes(pos.deck.discard)}",
                   f"deck={pos.deck.seed}.{pos.deck.shuffles}"]
    if pos.pawn_rank != pos.game.pawn_rank:
        fields.append(f"pawnrank={pos.pawn_rank + 1}")
    moved = [
        sq for sq in range(board.size)
        if pos.piece[sq] >= 0 and pos.moved[sq] and pos.types[pos.piece[sq]].initial
            and unmoved_on(pos, sq, pos.occ[sq], pos.types[pos.piece[sq]].piece)
    ]
    special = (("moved", moved), ("dazzled", pos.dazzled), ("shielded", pos.shielded), ("mustmove", pos.must_move))
    for key, squares in special:
        if squares:
            fields.append(key + "=" + "".join(board.name(sq) for sq in sorted(squares)))
    if pos.battle_used:
        fields.append("battle=" + "".join("wb"[s] for s in sorted(pos.battle_used)))
    return " ".join(fields)


def _placement(pos: Position) -> str:
    def letters(sq: int) -> str | None:
        t = pos.piece[sq]
        return None if t < 0 else piece_letters(pos.types[t].piece.code, pos.occ[sq] == 1)

    return placement_field(pos.board, letters)


def placement_field(board: Board, letters_at: Callable[[int], str | None]) -> str:
    """The FEN placement field: ranks from the top, runs of empty squares as numbers."""
    rows = []
    for rank in range(board.ranks - 1, -1, -1):
        row, empty = "", 0
        for file in range(board.files):
            letters = letters_at(board.square(file, rank))
            if letters is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + letters
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    return "/".join(rows)


def _castling(pos: Position) -> str:
    board = pos.board
    text = ""
    for side in (0, 1):
        rank = 0 if side == 0 else board.ranks - 1
        letters = []
        for sq in pos.castling:
            if board.rank_of(sq) != rank or pos.occ[sq] != side:
                continue
            file = board.file_of(sq)
            letter = "K" if file == board.files - 1 else "Q" if file == 0 else FILE_LETTERS[file].upper()
            letters.append((0 if letter == "K" else 1 if letter == "Q" else 2 + file, letter))
        text += "".join(letter if side == 0 else letter.lower() for _, letter in sorted(letters))
    return text or "-"


def _ep(pos: Position) -> str:
    if not pos.ep:
        return "-"
    text = "".join(pos.board.name(sq) for sq in pos.ep)
    if _ep_victim(pos, list(pos.ep), pos.turn) != pos.ep_victim:
        text += "@" + pos.board.name(pos.ep_victim)
    return text


# --- moves --------------------------------------------------------------------------------

MOVE = re.compile(
    r"([a-p])([0-9]{1,2})[-x:]*([a-p])([0-9]{1,2})(?:=?\(?([a-z]{1,3})\)?)?(?:/([a-p][0-9]{1,2}))?(?:e\.?p\.?)?[+#!?]*"
)
MAX_MOVE_TEXT = 2000  # a battle move of every pawn on a 16x16 board is far shorter


def format_move(pos: Position, m: Move) -> str:
    """Coordinate form: e2e4, e10e11=Q, a7a8=CH; castling as the royal's move; battle steps joined by '&'.

    A castling move or an en-passant capture that shares its squares with another move adds the
    square of the other piece it involves: e1g1/h1 (the partner), c5c6/b5 (the pawn taken).
    """
    if m.kind == Kind.BATTLE:
        return "&".join(_coordinates(pos, step, battle_step_options(pos, step.frm)) for step in m.steps)
    return _coordinates(pos, m, None)


def _coordinates(pos: Position, m: Move, alternatives: list[Move] | None) -> str:
    board = pos.board
    text = board.name(m.frm) + board.name(m.to)
    if m.promotion is not None:
        text += "=" + pos.catalogue.get(m.promotion).code
    if m.kind in (Kind.CASTLE, Kind.EN_PASSANT):
        others = legal_moves(pos) if alternatives is None else alternatives
        if any(o.frm == m.frm and o.to == m.to and o.promotion == m.promotion and o != m for o in others):
            text += "/" + board.name(m.extra)
    return text


def parse_move(pos: Position, text: str) -> Move:
    """The legal move a text names: coordinate (e2e4, e7e8=Q), SAN-like (Nf3, B1c2), O-O, or a battle move.

    The grammar is in docs/notation.md: text is a coordinate move when its from-square is written in
    lower case, or both its squares in capitals (E2-E4); otherwise an upper-case first letter starts
    a piece code, so B1c2 is a Bishop from rank 1, never b1c2. Battle moves join coordinate steps with '&'.
    """
    raw = text
    if len(text) > MAX_MOVE_TEXT:
        raise NotationError(f"move {text[:40]!r}...: longer than {MAX_MOVE_TEXT} characters")
    if "&" in text:
        return _parse_battle(pos, raw)
    clean = text.strip().replace(" ", "")
    castle = clean.upper().replace("0", "O").rstrip("+#!?")
    if castle in ("O-O", "O-O-O"):
        return _parse_castle_san(pos, raw, castle)
    match = MOVE.fullmatch(clean.lower())
    if match is None or not (clean[0].islower() or clean[match.start(3)].isupper()):
        return parse_san(pos, raw)
    frm, to, partner = _match_squares(pos, raw, match)
    return _choose(pos, raw, frm, to, _promotion(pos, raw, match[5]), partner)


def _match_squares(pos: Position, raw: str, match: re.Match) -> tuple[int, int, int | None]:
    """(from, to, castling partner or None) of a coordinate match; NotationError if off the board."""
    board = pos.board
    try:
        frm = board.parse_square(match[1] + match[2])
        to = board.parse_square(match[3] + match[4])
        partner = board.parse_square(match[6]) if match[6] else None
    except BoardError as error:
        raise NotationError(f"move {_quote(raw)}: {error}") from None
    return frm, to, partner


def _promotion(pos: Position, raw: str, code: str | None) -> str | None:
    """The piece id a promotion suffix names, or None without one."""
    if not code:
        return None
    t = pos.types.by_code(code.upper())
    if t is None:
        raise NotationError(f"move {_quote(raw)}: no piece has the code {code.upper()!r}")
    return pos.types.id_of(t)


def _choose(pos: Position, raw: str, frm: int, to: int, promotion: str | None, partner: int | None) -> Move:
    legal = select_moves(legal_moves(pos), frm, to, partner)
    if partner is not None and not legal:
        raise IllegalMoveError(f"move {_quote(raw)} is not legal: {_other_refusal(pos, frm, to, partner)}")
    matching = [m for m in legal if m.promotion == promotion]
    if len(matching) == 1:
        return matching[0]
    if promotion is None and legal:
        codes = ", ".join(sorted(pos.catalogue.get(m.promotion).code for m in legal if m.promotion))
        raise NotationError(
            f"move {_quote(raw)}: say what it promotes to, e.g. {raw}={codes.split(',')[0]}; allowed: {codes}"
        )
    if promotion is not None and legal:  # the promotion named does not pick out one legal move
        name = pos.types[pos.piece[frm]].piece.name
        allowed = ", ".join(sorted({pos.catalogue.get(m.promotion).code for m in legal if m.promotion})) or "none"
        reason = f"the {name} cannot promote to {pos.catalogue.get(promotion).code} here; allowed: {allowed}"
    else:
        reason = refusal_reason(pos, frm, to)
    raise IllegalMoveError(f"move {_quote(raw)} is not legal: {reason}")


def _other_refusal(pos: Position, frm: int, to: int, other: int) -> str:
    """Why `frm`-`to`/`other` names no move here, with the moves that add a square after '/'."""
    board = pos.board
    forms = sorted(format_move(pos, m) for m in legal_moves(pos) if m.kind in (Kind.CASTLE, Kind.EN_PASSANT))
    return (
        f"no castling move or en-passant capture goes from {board.name(frm)} to {board.name(to)} with the piece "
        f"on {board.name(other)}; such moves here: {', '.join(forms) or 'none'}"
    )


def _parse_battle(pos: Position, raw: str) -> Move:
    """A battle move written as its steps joined by '&': d3d4&e3e4&h3g4=Q."""
    steps = []
    for part in raw.split("&"):
        match = MOVE.fullmatch(part.strip().lower().replace(" ", ""))
        if match is None:
            raise NotationError(f"move {_quote(raw)}: {_quote(part.strip())} is not a coordinate step such as d3d4")
        frm, to, victim = _match_squares(pos, raw, match)
        steps.append(Move(frm, to, Kind.NORMAL, _promotion(pos, raw, match[5]), -1 if victim is None else victim))
    return battle_move(pos, steps, raw)


def _parse_castle_san(pos: Position, raw: str, castle: str) -> Move:
    """O-O (towards the last file) or O-O-O (towards file a), when exactly one such castling move is legal."""
    long_side = castle == "O-O-O"
    legal = legal_moves(pos)
    found = [
        m for m in legal
        if m.kind == Kind.CASTLE and (pos.board.file_of(m.extra) < pos.board.file_of(m.frm)) == long_side
    ]
    if len(found) == 1:
        return found[0]
    if found:
        forms = ", ".join(sorted(_san_body(pos, m, legal) for m in found))
        raise IllegalMoveError(f"move {_quote(raw)}: several castling moves are legal; write one of {forms}")
    ended = outcome(pos)
    reason = f"the game is over: {ended.result.value} ({ended.reason})" if ended else _castling_blocked(pos, long_side)
    raise IllegalMoveError(f"move {_quote(raw)} is not legal: {reason}")


def _castling_blocked(pos: Position, long_side: bool) -> str:
    """Why no castling move to this side is legal, when a right to it remains and a piece cannot move."""
    board = pos.board
    for partner in sorted(p for p in pos.castling if pos.occ[p] == pos.turn):
        royal = pos.royal_for(partner)
        if royal >= 0 and (board.file_of(partner) < board.file_of(royal)) == long_side:
            stuck = immobility_reason(pos, royal) or immobility_reason(pos, partner)
            if stuck:
                return stuck
    return "no such castling move is legal"


# --- SAN-like text ------------------------------------------------------------------------


def format_san(pos: Position, m: Move, legal: list[Move] | None = None) -> str:
    """A readable SAN-like form: Nf3, exd5, e8=Q, CHxe5, O-O, with + and # for check and mate."""
    legal = legal_moves(pos) if legal is None else legal
    text = _san_body(pos, m, legal)
    pos.push(m)
    try:
        if in_check(pos, pos.turn):
            text += "+" if has_legal_move(pos) else "#"
    finally:
        pos.pop()
    return text


def _san_body(pos: Position, m: Move, legal: list[Move]) -> str:
    board = pos.board
    if m.kind == Kind.BATTLE:
        return format_move(pos, m)
    if m.kind == Kind.CASTLE:
        text = "O-O-O" if board.file_of(m.extra) < board.file_of(m.frm) else "O-O"
        same = [o for o in legal
                if o.kind == Kind.CASTLE and (board.file_of(o.extra) < board.file_of(o.frm)) == (text == "O-O-O")]
        return text + ("@" + board.name(m.to) if len(same) > 1 else "")
    kind = pos.types[pos.piece[m.frm]]
    capture = m.kind == Kind.EN_PASSANT or (m.kind == Kind.NORMAL and pos.occ[m.to] != EMPTY)
    if kind.group is Group.PAWN:
        rivals = [o.frm for o in legal if o.to == m.to and o.frm != m.frm
                  and pos.types[pos.piece[o.frm]].group is Group.PAWN]
        straight = board.file_of(m.frm) == board.file_of(m.to)
        text = "" if straight and not capture and not rivals else board.name(m.frm)[0]
        if text and (straight and not capture or any(board.file_of(r) == board.file_of(m.frm) for r in rivals)):
            text = board.name(m.frm)
    else:
        text = kind.piece.code + _disambiguation(pos, m, legal)
    text += ("x" if capture else "") + board.name(m.to)
    if m.kind == Kind.PUSH:
        text += ">" + board.name(m.extra)
    if m.promotion is not None:
        text += "=" + pos.catalogue.get(m.promotion).code
    return text


def _disambiguation(pos: Position, m: Move, legal: list[Move]) -> str:
    board = pos.board
    rivals = [o.frm for o in legal if o.to == m.to and o.frm != m.frm and pos.piece[o.frm] == pos.piece[m.frm]]
    if not rivals:
        return ""
    name = board.name(m.frm)
    if all(board.file_of(r) != board.file_of(m.frm) for r in rivals):
        return name[0]
    if all(board.rank_of(r) != board.rank_of(m.frm) for r in rivals):
        return name[1:]
    return name


def parse_san(pos: Position, text: str) -> Move:
    """The legal move whose SAN-like form is `text`, exactly as format_san writes it (check marks optional)."""
    want = text.strip().rstrip("+#!?")
    legal = legal_moves(pos)
    names = pos.board.name
    for m in legal:
        if names(m.to) in want and _san_body(pos, m, legal) == want:
            return m
    ended = outcome(pos)
    if ended is not None:
        raise IllegalMoveError(
            f"move {_quote(text)} is not legal: the game is over: {ended.result.value} ({ended.reason})"
        )
    raise NotationError(
        f"move {_quote(text)}: not a coordinate move (e2e4, e7e8=Q) nor the SAN of a legal move here"
    )


def _quote(text: str) -> str:
    return repr(text) if len(text) <= 60 else repr(text[:60]) + "..."
