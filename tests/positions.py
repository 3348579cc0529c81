"""Random positions for property tests: Dealer's deals from the whole starter catalogue, Spinal Tap
melees (Hyenas, Dazzlers, pawns and crabs close together), and random playouts from any start."""

from __future__ import annotations

import random

from dealers_chess.engine.errors import NotationError
from dealers_chess.engine.game import default_catalogue, load_game
from dealers_chess.engine.notation import parse_fen, placement_field
from dealers_chess.engine.position import Position
from dealers_chess.engine.rules import legal_moves
from dealers_chess.engine.setup import start_position

CATALOGUE = default_catalogue()
ROYALS = [p.id for p in CATALOGUE.select(sets=["starter"], groups=["royal"])]
PIECES = [p.id for p in CATALOGUE.select(sets=["starter"], groups=["piece"])]
PAWNS = [p.id for p in CATALOGUE.select(sets=["starter"], groups=["pawn"])]
SPINAL_PIECES = ["queen", "rook", "bishop", "knight", "squire", "wizzen", "viceroy", "crowned-knight", "teleporter",
                 "yanzee", "spinal-minister"]


def random_deal(rng: random.Random, files: int) -> Position:
    """A Dealer's start with random royals, pieces and pawns of the starter set, and four pieces in hand."""
    rows = 2 if files == 12 else 1
    royal_file = 6 if files == 12 else 4
    placement = {}
    for side, back, step in (("white", 1, 1), ("black", files, -1)):
        royal = rng.choice(ROYALS)
        for file in range(files):
            letter = "abcdefghijkl"[file]
            for row in range(rows):
                rank = back + step * row
                piece = royal if (file == royal_file and row == 0) else rng.choice(PIECES)
                placement[f"{letter}{rank}"] = (piece, side)
            placement[f"{letter}{back + step * rows}"] = (rng.choice(PAWNS), side)
    hands = {side: rng.sample(PIECES, 4) for side in ("white", "black")}
    return start_position(f"dealers-{files}x{files}", placement, hands=hands, pawn_rank=rows + 1)


def spinal_melee(rng: random.Random) -> Position:
    """A Spinal Tap position with Hyenas, Dazzlers, pawns and crabs near each other in the middle."""
    game = load_game("spinal-tap")

    def put(placement: dict[str, tuple[str, str]], piece: str, side: str, files: range, ranks: range) -> None:
        for _ in range(50):
            name = "abcdefghijk"[rng.choice(files)] + str(rng.choice(ranks))
            if name not in placement:
                placement[name] = (piece, side)
                return

    while True:
        placement: dict[str, tuple[str, str]] = {}
        put(placement, "king", "white", range(11), range(1, 3))
        put(placement, "king", "black", range(11), range(10, 12))
        for side, pawn_ranks in (("white", range(3, 7)), ("black", range(6, 10))):
            for _ in range(rng.randint(3, 7)):
                put(placement, rng.choice(["spinal-pawn", "spinal-pawn", "crab"]), side, range(11), pawn_ranks)
            for piece in ["hyena"] * rng.randint(1, 2) + ["dazzler"] * rng.randint(1, 2):
                put(placement, piece, side, range(2, 9), range(4, 9))
            for _ in range(rng.randint(1, 4)):
                put(placement, rng.choice(SPINAL_PIECES), side, range(11), range(1, 12))
        hands = {side: rng.sample(SPINAL_PIECES[:5], rng.randint(0, 2)) for side in ("white", "black")}
        try:
            return start_position(game, placement, hands=hands)
        except NotationError:
            continue  # the side not to move was in check: draw again


def spinal_lines(rng: random.Random) -> Position:
    """Spinal Tap with enemy sliders aimed at the white king through 0-2 white pawns: pins, lines that
    only a battle move opens (several pawns leave them together) and checks a battle step may block."""
    game = load_game("spinal-tap")
    board = game.board
    while True:
        grid = {board.square(rng.randrange(11), rng.randrange(0, 4)): "K", board.square(rng.randrange(11), 10): "k"}
        king = min(grid)
        for dx, dy in rng.sample([(1, 0), (-1, 0), (0, 1), (1, 1), (-1, 1), (1, -1), (-1, -1)], rng.randint(1, 3)):
            line = []
            x, y = board.file_of(king) + dx, board.rank_of(king) + dy
            while board.on_board(x, y):
                line.append(board.square(x, y))
                x, y = x + dx, y + dy
            free = [sq for sq in line if sq not in grid]
            if len(free) < 2:
                continue
            cut = rng.randrange(1, len(free))
            for sq in rng.sample(free[:cut], min(cut, rng.randint(0, 2))):
                grid[sq] = rng.choice(["(STP)", "(STP)", "(CR)"])
            grid[free[cut]] = rng.choice(["q", "r" if dx * dy == 0 else "b", "(dz)"])
        for _ in range(rng.randint(2, 5)):
            sq = board.square(rng.randrange(11), rng.randrange(2, 7))
            grid.setdefault(sq, rng.choice(["(STP)", "(CR)"]))
        try:
            return parse_fen(placement_field(board, grid.get) + " w - - 0 1", game)
        except NotationError:
            continue  # the side not to move was in check: draw again


def crowded(rng: random.Random, game_id: str, royals: str, pieces: str) -> Position:
    """Royals and several copies of one-letter pieces (B, N, K...) anywhere: SAN must tell them apart."""
    game = load_game(game_id)
    board = game.board
    for _ in range(1000):
        grid: dict[int, str] = {}
        for letters in (royals + pieces, (royals + pieces).lower()):
            for letter in letters:
                free = [sq for sq in range(board.size) if sq not in grid]
                grid[rng.choice(free)] = letter
        try:
            return parse_fen(placement_field(board, grid.get) + " w - - 0 1", game)
        except NotationError:
            continue  # the side not to move was in check: draw again
    raise AssertionError(f"no legal {game_id} position with {royals} and {pieces} in 1,000 tries")


def start_of(game_id: str) -> Position:
    """The start position of a built-in game."""
    game = load_game(game_id)
    return parse_fen(game.start, game)


def random_walk(pos: Position, rng: random.Random, plies: int) -> Position:
    """The position after up to `plies` random legal moves (fewer if the game ends)."""
    for _ in range(plies):
        moves = legal_moves(pos)
        if not moves:
            break
        pos.push(rng.choice(moves))
    return pos
