"""Notation: FEN for any game (multi-letter codes, hands, decks, special state), moves, SAN-like text.

The syntax is documented in docs/notation.md. Every reader raises NotationError (or
IllegalMoveError) naming the input and the reason.
"""

from __future__ import annotations

import re
from typing import Callable

from engine.board import FILE_LETTERS, Board, BoardError
from engine.errors import IllegalMoveError, NotationError
from engine.game import Castling, GameDef, default_catalogue, load_game
from engine.kernel import EMPTY
from engine.move import Kind, Move
from engine.position import DeckState, Position
from pieces.catalogue import Catalogue, Group

SQUARE = re.compile(r"([a-p])(\d{1,2})")
TOKEN = re.compile(r"(\d+)|([A-Za-z])|\(([A-Za-z]{1,3})\)|(.)")
EXTRA_KEYS = (
    "hand", "shared", "draw", "discard", "deck", "pawnrank", "moved", "dazzled", "shielded", "mustmove", "battle",
)


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
        raise NotationError(f"FEN {text!r}: expected at least a placement and a side to move")
    main = [f for f in fields if "=" not in f]
    extras = _extras(text, [f for f in fields if "=" in f])
    main += ["-", "-", "0", "1"][len(main) - 2:] if len(main) < 6 else []
    if len(main) != 6:
        raise NotationError(f"FEN {text!r}: expected 6 fields before key=value fields, found {len(main)}")
    pawn_rank = game.pawn_rank
    if "pawnrank" in extras:
        pawn_rank = _int(text, "pawnrank", extras["pawnrank"], 1, game.board.ranks) - 1
    pos = Position(game, catalogue, pawn_rank)
    _read_placement(pos, text, main[0])
    if main[1] not in ("w", "b"):
        raise NotationError(f"FEN {text!r}: side to move {main[1]!r}; allowed: w, b")
    pos.turn = 0 if main[1] == "w" else 1
    pos.castling = _read_castling(pos, text, main[2])
    pos.ep, pos.ep_victim = _read_ep(pos, text, main[3])
    pos.halfmove = _int(text, "halfmove clock", main[4], 0, 10**6)
    pos.fullmove = _int(text, "move number", main[5], 1, 10**6)
    _read_extras(pos, text, extras)
    if not pos.royals[0] and not pos.royals[1]:
        raise NotationError(f"FEN {text!r}: neither side has a royal piece; every game needs at least one each")
    pos.reset_history()
    return pos


def _extras(text: str, fields: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for f in fields:
        key, _, value = f.partition("=")
        if key not in EXTRA_KEYS:
            raise NotationError(f"FEN {text!r}: unknown field {key!r}; allowed: {', '.join(EXTRA_KEYS)}")
        found[key] = value
    return found


def _int(text: str, what: str, value: str, low: int, high: int) -> int:
    if not value.isdigit() or not low <= int(value) <= high:
        raise NotationError(f"FEN {text!r}: {what} {value!r}; expected a whole number from {low} to {high}")
    return int(value)


def _read_placement(pos: Position, text: str, placement: str) -> None:
    board = pos.board
    rows = placement.split("/")
    if len(rows) != board.ranks:
        raise NotationError(f"FEN {text!r}: {len(rows)} ranks in the placement; the {board.label} board has {board.ranks}")
    for index, row in enumerate(rows):
        rank, file = board.ranks - 1 - index, 0
        for number, letter, code, other in TOKEN.findall(row):
            if other:
                raise NotationError(f"FEN {text!r}: rank {rank + 1}: {other!r} is not a piece letter, (CODE) or a number")
            if number:
                file += int(number)
                continue
            code = letter or code
            t = pos.types.by_code(code.upper())
            if t is None:
                raise NotationError(f"FEN {text!r}: rank {rank + 1}: no catalogue piece has the code {code.upper()!r}")
            if file >= board.files:
                raise NotationError(f"FEN {text!r}: rank {rank + 1} has more than {board.files} squares")
            side = 1 if code.islower() else 0
            sq = board.square(file, rank)
            pos.set_square(sq, t, side, not _setup_row(pos, sq, side))
            file += 1
        if file != board.files:
            raise NotationError(f"FEN {text!r}: rank {rank + 1} has {file} squares; the board has {board.files} files")


def _setup_row(pos: Position, sq: int, side: int) -> bool:
    rank = pos.board.rank_of(sq)
    return rank <= pos.pawn_rank if side == 0 else rank >= pos.board.ranks - 1 - pos.pawn_rank


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
            raise NotationError(f"FEN {text!r}: castling right {letter!r}; allowed: K Q k q, file letters or -")
        sq = board.square(file, rank)
        if pos.occ[sq] != side:
            who = "white" if side == 0 else "black"
            raise NotationError(f"FEN {text!r}: castling right {letter!r} but no {who} piece on {board.name(sq)}")
        rights.add(sq)
    return frozenset(rights)


def _squares(pos: Position, text: str, what: str, value: str) -> list[int]:
    if SQUARE.sub("", value):
        raise NotationError(f"FEN {text!r}: {what} {value!r}; expected square names such as e3 or e3e4")
    try:
        return [pos.board.parse_square(a + b) for a, b in SQUARE.findall(value)]
    except BoardError as error:
        raise NotationError(f"FEN {text!r}: {what}: {error}") from None


def _read_ep(pos: Position, text: str, field: str) -> tuple[tuple[int, ...], int]:
    if field == "-":
        return (), -1
    passed, _, victim_text = field.partition("@")
    squares = _squares(pos, text, "en-passant field", passed)
    if not squares:
        raise NotationError(f"FEN {text!r}: en-passant field {field!r} names no square")
    victim = _squares(pos, text, "en-passant victim", victim_text)[0] if victim_text else _ep_victim(pos, squares, pos.turn)
    if victim < 0 or pos.occ[victim] != 1 - pos.turn:
        raise NotationError(f"FEN {text!r}: en-passant field {field!r}: no enemy pawn stands where it names")
    return tuple(squares), victim


def _ep_victim(pos: Position, squares: list[int], turn: int) -> int:
    board = pos.board
    last = squares[-1]
    rank = board.rank_of(last) + (1 if turn == 1 else -1)
    return board.square(board.file_of(last), rank) if 0 <= rank < board.ranks else -1


def _codes(pos: Position, text: str, what: str, value: str) -> list[tuple[str, int]]:
    found = []
    for number, letter, code, other in TOKEN.findall(value):
        code = letter or code
        if number or other or pos.types.by_code(code.upper()) is None:
            raise NotationError(f"FEN {text!r}: {what}: {(number or other or code)!r} is not a piece code")
        found.append((pos.types.id_of(pos.types.by_code(code.upper())), 1 if code.islower() else 0))
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
            raise NotationError(f"FEN {text!r}: moved: no piece on {pos.board.name(sq)}")
        pos.set_square(sq, pos.piece[sq], pos.occ[sq], True)
    pos.dazzled = frozenset(_squares(pos, text, "dazzled", extras.get("dazzled", "")))
    pos.shielded = frozenset(_squares(pos, text, "shielded", extras.get("shielded", "")))
    pos.must_move = frozenset(_squares(pos, text, "mustmove", extras.get("mustmove", "")))
    used = extras.get("battle", "")
    if used.strip("wb") or len(set(used)) != len(used):
        raise NotationError(f"FEN {text!r}: battle {used!r}; allowed: w, b or wb (sides that made their battle move)")
    pos.battle_used = frozenset(0 if c == "w" else 1 for c in used)


# --- FEN writing --------------------------------------------------------------------------


def format_fen(pos: Position) -> str:
    """The position as FEN; orthodox positions give standard FEN, other state goes in key=value fields."""
    board = pos.board
    fields = [
        _placement(pos), "w" if pos.turn == 0 else "b", _castling(pos), _ep(pos), str(pos.halfmove), str(pos.fullmove),
    ]
    codes = lambda ids, black=False: "".join(piece_letters(pos.catalogue.get(i).code, black) for i in ids)
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
        if pos.piece[sq] >= 0 and pos.moved[sq] and pos.types[pos.piece[sq]].initial and _setup_row(pos, sq, pos.occ[sq])
    ]
    for key, squares in (("moved", moved), ("dazzled", pos.dazzled), ("shielded", pos.shielded), ("mustmove", pos.must_move)):
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
        text += "".join(l if side == 0 else l.lower() for _, l in sorted(letters))
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
    r"^([a-p])(\d{1,2})[-x:\s]*([a-p])(\d{1,2})(?:=?\(?([a-z]{1,3})\)?)?(?:/([a-p]\d{1,2}))?(?:e\.?p\.?)?[+#!?]*$"
)


def format_move(pos: Position, m: Move) -> str:
    """Coordinate form: e2e4, e10e11=Q, a7a8=CH; castling as the royal's move (e1g1/h1 if ambiguous)."""
    board = pos.board
    if m.kind == Kind.BATTLE:
        return "&".join(format_move(pos, step) for step in m.steps)
    text = board.name(m.frm) + board.name(m.to)
    if m.promotion is not None:
        text += "=" + pos.catalogue.get(m.promotion).code
    if m.kind == Kind.CASTLE and _castle_ambiguous(pos, m):
        text += "/" + board.name(m.extra)
    return text


def _castle_ambiguous(pos: Position, m: Move) -> bool:
    return any(o.frm == m.frm and o.to == m.to and o != m for o in pos.legal_moves())


def parse_move(pos: Position, text: str) -> Move:
    """The legal move a coordinate or SAN-like text names; forgiving about case and separators."""
    raw = text
    if "&" in text:
        return _parse_battle(pos, raw)
    clean = text.strip().lower().replace(" ", "")
    if clean.replace("0", "o").rstrip("+#!?") in ("o-o", "o-o-o"):
        return _parse_castle_san(pos, raw, clean.replace("0", "o").rstrip("+#!?"))
    match = MOVE.match(clean)
    if match is None:
        return parse_san(pos, raw)
    board = pos.board
    try:
        frm = board.parse_square(match[1] + match[2])
        to = board.parse_square(match[3] + match[4])
        partner = board.parse_square(match[6]) if match[6] else None
    except BoardError as error:
        raise NotationError(f"move {raw!r}: {error}") from None
    return _choose(pos, raw, frm, to, _promotion(pos, raw, match[5]), partner)


def _promotion(pos: Position, raw: str, code: str | None) -> str | None:
    """The piece id a promotion suffix names, or None without one."""
    if not code:
        return None
    t = pos.types.by_code(code.upper())
    if t is None:
        raise NotationError(f"move {raw!r}: no piece has the code {code.upper()!r}")
    return pos.types.id_of(t)


def _choose(pos: Position, raw: str, frm: int, to: int, promotion: str | None, partner: int | None) -> Move:
    legal = [m for m in pos.legal_moves() if m.frm == frm and m.to == to]
    if partner is not None:
        legal = [m for m in legal if m.kind == Kind.CASTLE and m.extra == partner]
    elif len({m.kind == Kind.CASTLE for m in legal}) > 1:
        legal = [m for m in legal if m.kind != Kind.CASTLE]
    matching = [m for m in legal if m.promotion == promotion]
    if len(matching) == 1:
        return matching[0]
    if promotion is None and legal:
        codes = ", ".join(sorted(pos.catalogue.get(m.promotion).code for m in legal if m.promotion))
        raise NotationError(f"move {raw!r}: say what it promotes to, e.g. {raw}={codes.split(',')[0]}; allowed: {codes}")
    raise IllegalMoveError(f"move {raw!r} is not legal: {_why_illegal(pos, frm, to, promotion, legal)}")


def _why_illegal(pos: Position, frm: int, to: int, promotion: str | None, legal: list[Move]) -> str:
    board = pos.board
    side = "white" if pos.turn == 0 else "black"
    if pos.piece[frm] < 0:
        return f"no piece stands on {board.name(frm)}"
    if pos.occ[frm] != pos.turn:
        return f"the piece on {board.name(frm)} is not {side}'s, and it is {side}'s turn"
    name = pos.types[pos.piece[frm]].piece.name
    if legal:
        allowed = ", ".join(sorted({pos.catalogue.get(m.promotion).code for m in legal if m.promotion})) or "none"
        return f"the {name} cannot promote to {promotion!r} here; allowed: {allowed}"
    from engine.rules import pseudo_moves

    if any(m.frm == frm and m.to == to for m in pseudo_moves(pos, pos.turn)):
        return f"it would leave {side}'s royal piece attacked"
    return f"the {name} on {board.name(frm)} cannot move to {board.name(to)}"


def _parse_battle(pos: Position, raw: str) -> Move:
    """A battle move written as its steps joined by '&': d3d4&e3e4&h3g4=Q."""
    from engine.rules import battle_move

    steps = []
    for part in raw.split("&"):
        match = MOVE.match(part.strip().lower().replace(" ", ""))
        if match is None:
            raise NotationError(f"move {raw!r}: {part.strip()!r} is not a coordinate step such as d3d4")
        try:
            frm, to = pos.board.parse_square(match[1] + match[2]), pos.board.parse_square(match[3] + match[4])
        except BoardError as error:
            raise NotationError(f"move {raw!r}: {error}") from None
        steps.append(Move(frm, to, Kind.NORMAL, _promotion(pos, raw, match[5])))
    return battle_move(pos, steps, raw)


def _parse_castle_san(pos: Position, raw: str, clean: str) -> Move:
    long_side = clean == "o-o-o"
    found = []
    for m in pos.legal_moves():
        if m.kind == Kind.CASTLE and (pos.board.file_of(m.extra) < pos.board.file_of(m.frm)) == long_side:
            found.append(m)
    if len(found) != 1:
        reason = "no such castling move is legal" if not found else "several are legal; write the royal's move, e.g. e1f1/h1"
        raise IllegalMoveError(f"move {raw!r}: {reason}")
    return found[0]


# --- SAN-like text ------------------------------------------------------------------------


def format_san(pos: Position, m: Move, legal: list[Move] | None = None) -> str:
    """A readable SAN-like form: Nf3, exd5, e8=Q, CHxe5, O-O, with + and # for check and mate."""
    legal = pos.legal_moves() if legal is None else legal
    text = _san_body(pos, m, legal)
    pos.push(m)
    try:
        if pos.is_check():
            text += "#" if not pos.legal_moves() else "+"
    finally:
        pos.pop()
    return text


def _san_body(pos: Position, m: Move, legal: list[Move]) -> str:
    board = pos.board
    if m.kind == Kind.BATTLE:
        return format_move(pos, m)
    if m.kind == Kind.CASTLE:
        text = "O-O-O" if board.file_of(m.extra) < board.file_of(m.frm) else "O-O"
        same = [o for o in legal if o.kind == Kind.CASTLE and (board.file_of(o.extra) < board.file_of(o.frm)) == (text == "O-O-O")]
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
    """The legal move whose SAN-like form is `text` (check marks and case of squares ignored)."""
    want = text.strip().rstrip("+#!?")
    legal = pos.legal_moves()
    for m in legal:
        if _san_body(pos, m, legal) == want:
            return m
    raise NotationError(
        f"move {text!r}: not a coordinate move (e2e4, e7e8=Q) nor the SAN of a legal move here"
    )
