"""Game records: PGN with tags for the game, deal and catalogue, and a checksum over all of it.

A truncated or corrupted record is reported (RecordError naming the file and line); saving
(`printing.records.write_record`) never overwrites one. Only RecordError leaves the readers.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from dealers_chess.engine.errors import RecordError
from dealers_chess.engine.game import default_catalogue, load_game
from dealers_chess.engine.notation import format_fen, format_san, parse_fen, parse_move
from dealers_chess.engine.position import Position
from dealers_chess.engine.rules import play
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.errors import DealerError

SEVEN = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TAG = re.compile(r'^\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
MOVE_NUMBER = re.compile(r"^[0-9]+\.+$")
CHECKSUM_VERSION = "2"  # 2: tags, start position and movetext; 1 (no ChecksumVersion tag): movetext only
READ_ERRORS = (DealerError, RecursionError, ValueError, TypeError, OSError)  # what tags can make a reader raise


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
    start_fen = format_fen(position)
    sans = []
    for m in replay:
        sans.append(format_san(position, m))
        position.push(m)
    all_tags = {"Event": "Casual game", "Site": "?", "Date": date.today().strftime("%Y.%m.%d"), "Round": "-",
                "White": "?", "Black": "?", "Result": result, "Variant": position.game.source or position.game.id}
    if _needs_fen(position, start_fen):
        all_tags.update(SetUp="1", FEN=start_fen)
    extra = _extra_catalogue_files(position)
    if extra:
        all_tags["Catalogue"] = ";".join(extra)
    all_tags.update(tags or {})
    all_tags["Result"] = result
    return GameRecord(all_tags, tuple(sans), position)


def _needs_fen(position: Position, start_fen: str) -> bool:
    """Whether a record needs SetUp and FEN tags: every start but orthodox chess's (a generic PGN reader takes a
    record without them for chess from its start), and a user's catalogue or game file (whose FEN tag spares
    every save from reading the file again)."""
    chess_start = position.game.id == "chess" and start_fen == position.game.start
    return not chess_start or position.catalogue is not default_catalogue() or bool(position.game.source)


def _extra_catalogue_files(position: Position) -> list[str]:
    """The user's catalogue files the position's pieces came from (not the built-in ones)."""
    from dealers_chess.pieces.catalogue import builtin_files

    builtin = {str(path) for path in builtin_files()}
    return sorted({piece.origin for piece in position.catalogue if piece.origin and piece.origin not in builtin})


def movetext(record: GameRecord, start_fen: str | None = None) -> str:
    """The movetext: numbered moves and the result, wrapped at 80 columns."""
    fen = start_fen or record.tags.get("FEN", "")
    black_first = len(fen.split()) > 1 and fen.split()[1] == "b"
    number = int(fen.split()[5]) if len(fen.split()) > 5 and re.fullmatch(r"[0-9]{1,7}", fen.split()[5]) else 1
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
    """Version 1: SHA-256 over the moves and the result only (records written before version 2)."""
    return hashlib.sha256((" ".join(moves) + " " + result).encode("utf-8")).hexdigest()[:16]


def checksum_v2(tags: dict[str, str], start_fen: str, moves: tuple[str, ...], result: str) -> str:
    """Version 2: SHA-256 over every tag but Checksum, the start position (FEN) and the movetext."""
    lines = [f"{name}={value}" for name, value in sorted(tags.items()) if name != "Checksum"]
    lines += [f"start={start_fen}", " ".join(moves) + " " + result]
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:16]


def _start_fen(tags: dict[str, str]) -> str:
    """The position a record starts from: its FEN tag, or its game's start."""
    return tags.get("FEN") or load_game(tags.get("Variant", "chess")).start


def format_record(record: GameRecord) -> str:
    """The record as PGN text, with a version-2 Checksum."""
    tags = {name: value for name, value in record.tags.items() if name not in ("Checksum", "ChecksumVersion")}
    tags["ChecksumVersion"] = CHECKSUM_VERSION
    tags["Checksum"] = checksum_v2(tags, _start_fen(tags), record.moves, record.result)
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
            raise RecordError(f"{source}: line {index + 1}: not a PGN tag: {lines[index].strip()[:80]!r}")
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
    position = _replay(tags, (moves, result), tokens[:-1], source)
    tags.pop("Checksum", None)
    tags.pop("ChecksumVersion", None)
    return GameRecord(tags, moves, position)


def _verify(tags: dict[str, str], start_fen: str, movetext: tuple[tuple[str, ...], str], source: str) -> None:
    """Raise RecordError if the record's Checksum does not match what it covers."""
    if "Checksum" not in tags:
        return
    version = tags.get("ChecksumVersion", "1")
    moves, result = movetext
    if version == "1":
        expected = checksum(moves, result)
    elif version == CHECKSUM_VERSION:
        expected = checksum_v2(tags, start_fen, moves, result)
    else:
        raise RecordError(f"{source}: ChecksumVersion {version[:20]!r} is not known; allowed: 1, {CHECKSUM_VERSION}")
    if tags["Checksum"] != expected:
        covered = "movetext" if version == "1" else "tags, start position or movetext"
        raise RecordError(f"{source}: corrupted: the {covered} do not match the Checksum tag")


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


def _replay(tags: dict[str, str], movetext: tuple[tuple[str, ...], str], tokens: list, source: str) -> Position:
    """The position after the record's moves, once its checksum is verified."""
    try:
        game = load_game(tags.get("Variant", "chess"))
        extra = [p for p in tags.get("Catalogue", "").split(";") if p.strip()]
        catalogue = load_catalogue(extra) if extra else default_catalogue()
        start_fen = tags.get("FEN") or game.start
        _verify(tags, start_fen, movetext, source)
        position = parse_fen(start_fen, game, catalogue)
    except RecordError:
        raise
    except READ_ERRORS as error:
        raise RecordError(f"{source}: {_first_line(error)}") from None
    for word, line in tokens:
        try:
            play(position, parse_move(position, word))
        except READ_ERRORS as error:
            raise RecordError(f"{source}: line {line}: corrupted: {_first_line(error)}") from None
    return position


def _first_line(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return text if len(text) <= 300 else text[:300] + "..."


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
