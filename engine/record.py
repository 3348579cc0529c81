"""Game records: PGN with tags for the game, deal and catalogue, and a movetext checksum.

A truncated or corrupted record is reported (RecordError naming the file and line); saving
(`printing.records.write_record`) never overwrites one.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from engine.errors import IllegalMoveError, NotationError, RecordError
from engine.game import default_catalogue, load_game
from engine.notation import format_san, parse_fen, parse_move
from engine.position import Position
from pieces.catalogue import load_catalogue
from pieces.errors import DealerError

SEVEN = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
MOVE_NUMBER = re.compile(r"^\d+\.+$")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game: its tags (in order) and moves in SAN-like form, with the position they lead to."""

    tags: dict[str, str]
    moves: tuple[str, ...]
    position: Position | None = field(default=None, compare=False)

    @property
    def result(self) -> str:
        return self.tags.get("Result", "*")


def record_of(position: Position, tags: dict[str, str] | None = None, result: str = "*") -> GameRecord:
    """A record of the moves played in a position since its history began (position.stack)."""
    played = [m for m, _, _ in position.stack]
    replay = list(played)
    for _ in played:
        position.pop()
    start_fen = position.fen()
    sans = []
    for m in replay:
        sans.append(format_san(position, m))
        position.push(m)
    all_tags = {"Event": "Casual game", "Site": "?", "Date": date.today().strftime("%Y.%m.%d"), "Round": "-",
                "White": "?", "Black": "?", "Result": result, "Variant": position.game.id}
    if start_fen != position.game.start or position.catalogue is not default_catalogue():
        all_tags.update(SetUp="1", FEN=start_fen)
    extra = _extra_catalogue_files(position)
    if extra:
        all_tags["Catalogue"] = ";".join(extra)
    all_tags.update(tags or {})
    all_tags["Result"] = result
    return GameRecord(all_tags, tuple(sans), position)


def _extra_catalogue_files(position: Position) -> list[str]:
    """The user's catalogue files the position's pieces came from (not the built-in ones)."""
    from pieces.catalogue import builtin_files

    builtin = {str(path) for path in builtin_files()}
    return sorted({piece.origin for piece in position.catalogue if piece.origin and piece.origin not in builtin})


def movetext(record: GameRecord, start_fen: str | None = None) -> str:
    """The movetext: numbered moves and the result, wrapped at 80 columns."""
    fen = start_fen or record.tags.get("FEN", "")
    black_first = len(fen.split()) > 1 and fen.split()[1] == "b"
    number = int(fen.split()[5]) if len(fen.split()) > 5 and fen.split()[5].isdigit() else 1
    words = []
    for index, san in enumerate(record.moves):
        white_move = (index % 2 == 0) != black_first
        if white_move:
            words.append(f"{number}.")
        elif index == 0:
            words.append(f"{number}...")
        words.append(san)
        if not white_move:
            number += 1
    words.append(record.result)
    lines, line = [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > 80:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return "\n".join(lines + [line])


def checksum(moves: tuple[str, ...], result: str) -> str:
    """SHA-256 over the moves and the result, so a damaged movetext is noticed."""
    return hashlib.sha256((" ".join(moves) + " " + result).encode("utf-8")).hexdigest()[:16]


def format_record(record: GameRecord) -> str:
    """The record as PGN text."""
    tags = dict(record.tags)
    tags["Checksum"] = checksum(record.moves, record.result)
    order = [t for t in SEVEN if t in tags] + [t for t in tags if t not in SEVEN]
    head = "\n".join(f'[{name} "{_escape(tags[name])}"]' for name in order)
    return f"{head}\n\n{movetext(record)}\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def parse_record(text: str, source: str = "record") -> GameRecord:
    """Read PGN text and replay its moves; raise RecordError naming the source, line and the fault."""
    tags: dict[str, str] = {}
    lines = text.splitlines()
    index = 0
    while index < len(lines) and lines[index].strip().startswith("["):
        match = TAG.match(lines[index].strip())
        if match is None:
            raise RecordError(f"{source}: line {index + 1}: not a PGN tag: {lines[index].strip()!r}")
        tags[match[1]] = match[2].replace('\\"', '"').replace("\\\\", "\\")
        index += 1
    if not tags:
        raise RecordError(f"{source}: not a game record (no PGN tags at the top)")
    tokens = _tokens(lines, index, source)
    if not tokens or tokens[-1][0] not in RESULTS:
        raise RecordError(f"{source}: truncated: the movetext does not end with a result ({', '.join(RESULTS)})")
    result = tokens[-1][0]
    if result != tags.get("Result", result):
        raise RecordError(f"{source}: corrupted: the movetext ends {result} but the Result tag says {tags['Result']}")
    moves = tuple(word for word, _ in tokens[:-1])
    if "Checksum" in tags and tags["Checksum"] != checksum(moves, result):
        raise RecordError(f"{source}: corrupted: the movetext does not match its Checksum tag")
    position = _replay(tags, tokens[:-1], source)
    tags.pop("Checksum", None)
    return GameRecord(tags, moves, position)


def _tokens(lines: list[str], start: int, source: str) -> list[tuple[str, int]]:
    tokens = []
    for number in range(start, len(lines)):
        text = re.sub(r"\{[^}]*\}", " ", lines[number])
        if "{" in text or "}" in text:
            raise RecordError(f"{source}: line {number + 1}: a comment is not closed on its line")
        for word in text.split():
            if not MOVE_NUMBER.match(word):
                tokens.append((re.sub(r"^\d+\.+", "", word), number + 1))
    return tokens


def _replay(tags: dict[str, str], tokens: list[tuple[str, int]], source: str) -> Position:
    try:
        game = load_game(tags.get("Variant", "chess"))
        extra = [p for p in tags.get("Catalogue", "").split(";") if p.strip()]
        catalogue = load_catalogue(extra) if extra else default_catalogue()
        position = parse_fen(tags.get("FEN", game.start), game, catalogue)
    except DealerError as error:
        raise RecordError(f"{source}: {error}") from None
    for word, line in tokens:
        try:
            position.push(parse_move(position, word))
        except (NotationError, IllegalMoveError) as error:
            raise RecordError(f"{source}: line {line}: corrupted: {error}") from None
    return position


def read_record(path: str | Path) -> GameRecord:
    """Read a record file; raise RecordError if it is missing, truncated or corrupted."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{path}: no such game record") from None
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"{path}: cannot be read ({error})") from None
    return parse_record(text, str(path))
