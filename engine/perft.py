"""Perft: count the leaves of the legal-move tree (bulk-counting the last ply), and divide."""

from __future__ import annotations

from engine.position import Position
from engine.rules import battle_moves, legal_moves


def moves_for_perft(pos: Position, battle: bool = False) -> list:
    """The moves perft counts: the legal moves, and with `battle` Spinal Tap's battle moves too."""
    moves = legal_moves(pos)
    return moves + list(battle_moves(pos)) if battle else moves


def perft(pos: Position, depth: int, battle: bool = False) -> int:
    """The number of legal move sequences of `depth` plies from the position (battle moves with `battle`)."""
    if depth <= 0:
        return 1
    moves = moves_for_perft(pos, battle)
    if depth == 1:
        return len(moves)
    total = 0
    push, pop = pos.push, pos.pop
    for m in moves:
        push(m)
        total += perft(pos, depth - 1, battle)
        pop()
    return total


def divide(pos: Position, depth: int, wrap=None, battle: bool = False) -> list[tuple[str, int]]:
    """Per legal move (coordinate form), the perft count of `depth - 1` below it.

    `wrap`, if given, wraps the list of root moves (e.g. in a progress bar) and must yield them.
    """
    from engine.notation import format_move

    rows = []
    moves = moves_for_perft(pos, battle)
    for m in wrap(moves) if wrap is not None else moves:
        text = format_move(pos, m)
        pos.push(m)
        rows.append((text, perft(pos, depth - 1, battle)))
        pos.pop()
    return rows


def load_position(
    game_name: str | None, deal_file: str | None = None, fen: str | None = None,
    moves: str | None = None, catalogue=None,
) -> Position:
    """The position a command works on: a game's start (or a deal file's, or a FEN), then moves played."""
    from engine.errors import GameError
    from engine.game import default_catalogue, load_game
    from engine.notation import parse_fen, parse_move
    from engine.rules import play

    catalogue = catalogue or default_catalogue()
    if deal_file is not None and game_name is not None:
        raise GameError(f"name a game ({game_name!r}) or give --deal FILE, not both: the deal file names its game")
    if deal_file is not None:
        game, deal_fen = _read_deal(deal_file)
        fen = deal_fen if fen is None else fen
    elif game_name is not None:
        game = load_game(game_name)
    else:
        raise GameError("name a game (e.g. chess, dealers-8x8) or give --deal FILE")
    pos = parse_fen(game.start if fen is None else fen, game, catalogue)
    for text in (moves or "").replace(";", ",").split(","):
        if text.strip():
            play(pos, parse_move(pos, text))
    return pos


def _read_deal(path: str):
    """(game, fen) of a saved deal file, read through the one validated deal reader."""
    from engine.dealing.deal_file import read_deal_file
    from engine.game import load_game

    data = read_deal_file(path)
    return load_game(data.game), data.fen
