"""The UCI protocol (engine.session.uci) line by line: options, positions, go, time allocation, bad lines."""

from __future__ import annotations

import threading
import time

import pytest

from dealers_chess.engine.game import builtin_games, default_catalogue, load_game
from dealers_chess.engine.notation import format_fen, parse_fen, parse_move
from dealers_chess.engine.session.uci import (
    Go,
    UciEngine,
    UciError,
    allotted_seconds,
    parse_go,
    read_position,
    uci_move,
)

FOOLS_MATE = "position startpos moves f2f3 e7e5 g2g4"


class Lines:
    """The engine's output, collected; `wait_for` waits until a line starting with a prefix has come."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.changed = threading.Condition()

    def __call__(self, line: str) -> None:
        with self.changed:
            self.lines.append(line)
            self.changed.notify_all()

    def wait_for(self, prefix: str, seconds: float = 30) -> str:
        with self.changed:
            found = self.changed.wait_for(lambda: any(line.startswith(prefix) for line in self.lines), seconds)
        assert found, f"no line starting with {prefix!r} in {self.lines}"
        return next(line for line in self.lines if line.startswith(prefix))


def engine_with(*lines: str) -> tuple[UciEngine, Lines]:
    out = Lines()
    engine = UciEngine(out)
    for line in lines:
        assert engine.handle(line)
    return engine, out


def test_uci_lists_every_built_in_game_and_the_options():
    engine, out = engine_with("uci")
    assert out.lines[0].startswith("id name ") and out.lines[1].startswith("id author ")
    variant = next(line for line in out.lines if line.startswith("option name UCI_Variant"))
    assert variant.startswith("option name UCI_Variant type combo default chess ")
    assert set(variant.split(" var ")[1:]) == set(builtin_games())
    assert "option name Threads type spin default 1 min 1 max 1" in out.lines
    assert "option name Hash type spin default 16 min 1 max 1024" in out.lines
    assert "option name Skill Level type spin default 8 min 1 max 8" in out.lines
    assert out.lines[-1] == "uciok"


def test_isready_answers_readyok_even_while_searching():
    engine, out = engine_with("go infinite")
    engine.handle("isready")
    assert out.wait_for("readyok") == "readyok"
    assert not any(line.startswith("bestmove") for line in out.lines)  # infinite: no answer before stop
    engine.handle("stop")
    assert out.wait_for("bestmove").split()[1] in {"a2a3", "a2a4", "b1a3", "b1c3", "b2b3", "b2b4", "c2c3", "c2c4",
                                                   "d2d3", "d2d4", "e2e3", "e2e4", "f2f3", "f2f4", "g1f3", "g1h3",
                                                   "g2g3", "g2g4", "h2h3", "h2h4"}


def test_the_fools_mate_is_found_with_its_score_and_line():
    engine, out = engine_with(FOOLS_MATE, "go depth 2")
    assert out.wait_for("bestmove") == "bestmove d8h4"
    engine.close()
    info = [line for line in out.lines if line.startswith("info depth")]
    assert info and " score mate 1 " in info[-1] and info[-1].endswith(" pv d8h4")
    for word in ("nodes", "nps", "time"):
        assert f" {word} " in info[-1]


def test_a_mated_side_answers_bestmove_none():
    engine, out = engine_with(FOOLS_MATE + " d8h4", "go movetime 100")
    assert out.wait_for("bestmove") == "bestmove (none)"


def test_positions_from_fen_with_moves_and_promotion_written_the_uci_way():
    game = load_game("chess")
    pos = read_position("fen 8/4P3/8/8/8/8/k7/7K w - - 0 1 moves e7e8q a2b2".split(), game, default_catalogue())
    assert format_fen(pos).startswith("4Q3/8/8/8/8/8/1k6/7K w")
    promotion = parse_move(parse_fen("8/4P3/8/8/8/8/k7/7K w - - 0 1"), "e7e8=N")
    assert uci_move(parse_fen("8/4P3/8/8/8/8/k7/7K w - - 0 1"), promotion) == "e7e8n"


def test_a_fairy_game_by_uci_variant_with_hands_in_the_fen():
    fen = "4k3/1P6/8/8/8/5p2/8/4K3 w - - 0 1 hand=Q(MI)(mi) shared=(MI)"
    engine, out = engine_with("setoption name UCI_Variant value dealers-8x8", f"position fen {fen}", "go depth 1")
    best = out.wait_for("bestmove").split()[1]
    pos = parse_fen(fen, "dealers-8x8")
    move = parse_move(pos, best)  # a legal move, read back in the game's own notation
    assert uci_move(pos, move) == best
    assert engine.game.id == "dealers-8x8"


def test_a_two_letter_promotion_code_is_lower_case_and_read_back():
    fen = "4k3/1P6/8/8/8/5p2/8/4K3 w - - 0 1 hand=Q(MI)(mi) shared=(MI)"
    pos = parse_fen(fen, "dealers-8x8")
    move = parse_move(pos, "b7b8=MI")
    assert uci_move(pos, move) == "b7b8mi"
    assert parse_move(pos, "b7b8mi") == move


@pytest.mark.parametrize("line, reason", [
    ("go movetime", "go movetime: a number must follow"),
    ("go movetime fast", "go movetime: 'fast' is not a whole number"),
    ("go depth 0", "go depth: must be at least 1"),
    ("go ponder", "go: unknown word 'ponder'"),
    ("position", "position: say startpos or fen FEN"),
    ("position middle", "position: 'middle'; allowed: startpos, fen FEN"),
    ("position startpos moves e2e5", "position: move 1 (e2e5):"),
    ("position fen 8/8/8", "FEN '8/8/8'"),
    ("setoption name Hash value 0", "setoption Hash: 0 is outside 1..1024"),
    ("setoption name Threads value 2", "setoption Threads: 2 is outside 1..1"),
    ("setoption name Skill Level value nine", "setoption Skill Level: 'nine' is not a whole number"),
    ("setoption name UCI_Variant value xiangqi", "setoption UCI_Variant: unknown game 'xiangqi'; allowed: chess,"),
    ("setoption name Ponder value true", "setoption: unknown option 'Ponder'"),
    ("setoption Hash 4", "setoption: write setoption name NAME [value VALUE]"),
    ("flip", "unknown command 'flip'"),
    ("\x00\x01 ĉ", "unknown command"),
])
def test_malformed_lines_answer_info_string_and_the_engine_goes_on(line, reason):
    engine, out = engine_with(line)
    assert len(out.lines) == 1 and out.lines[0].startswith("info string ") and reason in out.lines[0], out.lines
    assert engine.handle("isready") and out.lines[-1] == "readyok"


def test_a_bad_position_keeps_the_previous_one():
    engine, out = engine_with(FOOLS_MATE, "position startpos moves e2e4 e7e5 e1e3", "go depth 1")
    assert out.wait_for("bestmove") == "bestmove d8h4"


def test_quit_ends_and_stops_a_search():
    engine, out = engine_with("go infinite")
    started = time.perf_counter()
    assert engine.handle("quit") is False
    assert time.perf_counter() - started < 5
    assert out.lines[-1].startswith("bestmove ")


def test_skill_level_plays_weaker_and_hash_makes_a_new_table():
    engine, out = engine_with("setoption name Skill Level value 3", "setoption name Hash value 2")
    assert engine.level == 3 and out.lines == []
    engine.handle("setoption name Skill Level value 8")
    assert engine.level is None  # 8 is full strength


def test_go_words():
    assert parse_go("wtime 60000 btime 50000 winc 1000 binc 1000 movestogo 20".split()) == \
        Go(wtime=60000, btime=50000, winc=1000, binc=1000, movestogo=20)
    assert parse_go(["infinite"]) == Go(infinite=True)
    assert parse_go("wtime -20 btime 100".split()).wtime == -20  # a GUI may report an overdrawn clock
    with pytest.raises(UciError):
        parse_go("nodes -5".split())


def test_time_allocation_is_a_share_of_the_clock_and_never_all_of_it():
    assert allotted_seconds(Go(movetime=300), 0) == pytest.approx(0.27)
    assert allotted_seconds(Go(infinite=True), 0) is None and allotted_seconds(Go(depth=3), 0) is None
    # 60 s with 1 s increments: about 60/30 + 0.75
    assert allotted_seconds(Go(wtime=60000, btime=1000, winc=1000, binc=0), 0) == pytest.approx(2.72)
    # 1/30 s less the margin: the floor
    assert allotted_seconds(Go(wtime=60000, btime=1000, winc=1000, binc=0), 1) == pytest.approx(0.005)
    for left in (1, 10, 50, 200, 1000, 5000, 60000):
        for inc in (0, 100, 2000, 10000):
            for moves in (None, 1, 2, 40):
                go = Go(wtime=left, btime=left, winc=inc, binc=inc, movestogo=moves)
                seconds = allotted_seconds(go, 0)
                assert 0 < seconds < left / 1000, (left, inc, moves, seconds)
                if moves != 1:
                    assert seconds <= left / 2000
    assert allotted_seconds(Go(wtime=-500, btime=0), 0) == pytest.approx(0)
