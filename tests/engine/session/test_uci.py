"""The UCI protocol (engine.session.uci) line by line: options, positions, go, time allocation, bad lines."""

from __future__ import annotations

import threading
import time

import pytest

from dealers_chess.engine.game import builtin_games, default_catalogue, load_game
from dealers_chess.engine.notation import format_fen, parse_fen, parse_move
from dealers_chess.engine.session.uci import (
    Go,
    TimePlan,
    UciEngine,
    parse_go,
    plan_time,
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
    assert "option name Ponder type check default false" in out.lines
    assert "option name MultiPV type spin default 1 min 1 max 64" in out.lines
    assert "option name Move Overhead type spin default 10 min 0 max 5000" in out.lines
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
    ("position", "position: say startpos or fen FEN"),
    ("position middle", "position: 'middle'; allowed: startpos, fen FEN"),
    ("position startpos moves e2e5", "position: move 1 (e2e5):"),
    ("position fen 8/8/8", "FEN '8/8/8'"),
    ("setoption name Hash value 0", "setoption Hash: 0 is outside 1..1024"),
    ("setoption name Threads value 2", "setoption Threads: 2 is outside 1..1"),
    ("setoption name Skill Level value nine", "setoption Skill Level: 'nine' is not a whole number"),
    ("setoption name UCI_Variant value xiangqi", "setoption UCI_Variant: unknown game 'xiangqi'; allowed: chess,"),
    ("setoption name Pondering value true", "setoption: unknown option 'Pondering'"),
    ("setoption name Ponder value maybe", "setoption Ponder: 'maybe'; allowed: true, false"),
    ("setoption name MultiPV value 0", "setoption MultiPV: 0 is outside 1..64"),
    ("setoption Hash 4", "setoption: write setoption name NAME [value VALUE]"),
    ("flip", "unknown command 'flip'"),
    ("\x00\x01 ĉ", "unknown command"),
])
def test_malformed_lines_answer_info_string_and_the_engine_goes_on(line, reason):
    engine, out = engine_with(line)
    assert len(out.lines) == 1 and out.lines[0].startswith("info string ") and reason in out.lines[0], out.lines
    assert engine.handle("isready") and out.lines[-1] == "readyok"


def test_a_fen_that_cannot_be_read_keeps_the_previous_position():
    engine, out = engine_with(FOOLS_MATE, "position fen 8/8/8 w - - 0 1", "go depth 2")
    assert out.wait_for("bestmove") == "bestmove d8h4"
    assert out.lines[0].startswith("info string ")


def test_an_illegal_move_keeps_the_moves_before_it_and_says_so():
    # As Stockfish does: the position after e2e4 e7e5 stands, not the one before the line.
    engine, out = engine_with(FOOLS_MATE, "position startpos moves e2e4 e7e5 e1e3 d2d4", "go depth 1")
    assert out.lines[0].startswith("info string position: move 3 (e1e3):")
    assert "the position after the 2 moves before it stands" in out.lines[0]
    assert out.wait_for("bestmove") != "bestmove d8h4"
    engine.close()  # the search has ended (while it runs, its moves are on the board)
    assert format_fen(engine.position).startswith("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w")


def test_a_game_sent_again_with_a_move_more_plays_only_that_move_and_agrees_with_a_fresh_reading():
    engine, out = engine_with("position startpos moves e2e4 e7e5", "position startpos moves e2e4 e7e5 g1f3")
    grown = engine.position
    fresh = read_position("startpos moves e2e4 e7e5 g1f3".split(), engine.game, default_catalogue())
    assert format_fen(grown) == format_fen(fresh) and grown.keys == fresh.keys
    engine.handle("position startpos moves d2d4")  # another game: read afresh
    assert format_fen(engine.position).startswith("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b")


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
    assert parse_go("ponder wtime 100 btime 100".split()) == Go(wtime=100, btime=100, ponder=True)
    assert parse_go("searchmoves e2e4 d2d4 depth 3".split()) == Go(depth=3, searchmoves=("e2e4", "d2d4"))
    assert parse_go("mate 2".split()) == Go(mate=2)
    # What cannot be read is named and left out; a go with no limit left searches one ply.
    assert parse_go("nodes -5 depth 4".split()) == Go(depth=4, problems=("go nodes: -5 is negative; left out",))
    bad = parse_go("movetime fast".split())
    assert bad.depth == 1 and bad.movetime is None and len(bad.problems) == 2
    assert parse_go("depth 0".split()).depth == 1
    assert parse_go("movetime".split()).depth == 1


def test_time_plans_spend_the_clock_and_never_all_of_it():
    assert plan_time(Go(movetime=300), 0) == TimePlan(pytest.approx(0.29), None)  # all of it but the overhead
    assert plan_time(Go(infinite=True), 0) == TimePlan(None) and plan_time(Go(depth=3), 0) == TimePlan(None)
    # 60 s with 1 s increments: (60 - 0.1 s reserve + 29 increments - 32 overheads) / 30, up to five times that
    plan = plan_time(Go(wtime=60000, btime=1000, winc=1000, binc=0), 0)
    assert plan.target == pytest.approx((60 - 0.1 + 29 - 0.32) / 30) and plan.hard == pytest.approx(plan.target * 5)
    # 1 s + 10 ms (bullet): about a thirtieth of the clock, not a hundredth
    bullet = plan_time(Go(wtime=1000, btime=1000, winc=10, binc=10), 0)
    assert 0.02 < bullet.target < 0.04 and bullet.hard <= 0.25
    for left in (1, 10, 50, 200, 1000, 5000, 60000):
        for inc in (0, 10, 100, 2000, 10000):
            for moves in (None, 1, 2, 40):
                go = Go(wtime=left, btime=left, winc=inc, binc=inc, movestogo=moves)
                plan = plan_time(go, 0)
                assert 0 < plan.target <= plan.hard < left / 1000, (left, inc, moves, plan)
                if moves != 1:
                    assert plan.hard <= left / 4000 + 1e-9
    assert plan_time(Go(wtime=-500, btime=0), 0).hard == pytest.approx(0)
    # the last move before the time control: all but the reserve and the overhead (the review: 30 ms was thin)
    assert plan_time(Go(wtime=3000, btime=3000, movestogo=1), 0).hard == pytest.approx(3 - 0.1 - 0.01)


# --- every go answers; the engine keeps reading during a search -------------------------------

@pytest.mark.parametrize("line, said", [
    ("go movetime", "go movetime: a number must follow"),
    ("go movetime fast", "go movetime: 'fast' is not a whole number"),
    ("go depth 0", "go depth 0: searching the least there is"),
    ("go nodes 0", "go nodes 0: searching the least there is"),
    ("go wobble 3 depth 1", "go: unknown word 'wobble'"),
    ("go searchmoves e2e5 depth 1", "go searchmoves e2e5:"),
    ("go searchmoves depth 1", ""),
])
def test_every_go_ends_in_bestmove(line, said):
    engine, out = engine_with(line)
    assert out.wait_for("bestmove").split()[1] in START_MOVES
    engine.close()
    assert sum(line.startswith("bestmove") for line in out.lines) == 1
    assert not said or any(line.startswith("info string ") and said in line for line in out.lines), out.lines


START_MOVES = {"a2a3", "a2a4", "b1a3", "b1c3", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4", "e2e3", "e2e4",
               "f2f3", "f2f4", "g1f3", "g1h3", "g2g3", "g2g4", "h2h3", "h2h4"}


def test_searchmoves_keeps_the_search_to_the_moves_named():
    engine, out = engine_with(FOOLS_MATE, "go depth 3 searchmoves a7a6 b7b6")
    assert out.wait_for("bestmove").split()[1] in {"a7a6", "b7b6"}  # not the mate d8h4
    engine.close()
    assert all(line.split(" pv ")[1].split()[0] in {"a7a6", "b7b6"} for line in out.lines if " pv " in line)


def test_go_mate_finds_the_mate_and_stops():
    engine, out = engine_with("position fen r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
                              "go mate 1")
    assert out.wait_for("bestmove") == "bestmove h5f7"
    engine.close()
    assert any(" score mate 1 " in line for line in out.lines)


def test_multipv_reports_the_best_lines_each_ranked():
    engine, out = engine_with("setoption name MultiPV value 3", "go depth 3")
    out.wait_for("bestmove")
    engine.close()
    last = [line for line in out.lines if line.startswith("info depth 3 ")]
    assert [line.split(" multipv ")[1].split()[0] for line in last] == ["1", "2", "3"]
    firsts = [line.split(" pv ")[1].split()[0] for line in last]
    assert len(set(firsts)) == 3 and out.lines[-1].split()[1] == firsts[0]


@pytest.mark.parametrize("command", ["setoption name Hash value 32", "ucinewgame", "go depth 1",
                                     "position startpos moves e2e4", "setoption name UCI_Variant value wad-chess"])
def test_a_command_during_go_infinite_waits_for_stop_and_never_freezes(command):
    # The review's deadlock: go infinite, then setoption/ucinewgame/go; isready and stop must still be read.
    engine, out = engine_with("go infinite")
    engine.handle(command)
    engine.handle("isready")
    assert out.wait_for("readyok", 5) == "readyok"
    assert not any(line.startswith("bestmove") for line in out.lines)
    assert any(line.startswith("info string ") and "waits until the search ends" in line for line in out.lines)
    engine.handle("stop")
    out.wait_for("bestmove", 10)
    engine.close()  # the waiting command has run (a waiting go has answered too)
    answers = [line for line in out.lines if line.startswith("bestmove")]
    assert len(answers) == (2 if command.startswith("go") else 1)
    if command.startswith("setoption name Hash"):
        assert engine.hash_mb == 32
    if command.startswith("setoption name UCI_Variant"):
        assert engine.game.id == "wad-chess"
    if command.startswith("position"):
        assert format_fen(engine.position).startswith("rnbqkbnr/pppppppp/8/8/4P3/")


def test_stop_also_ends_a_go_that_waits_behind_the_running_one():
    engine, out = engine_with("go infinite", "go infinite")
    engine.handle("stop")
    engine.close()
    assert sum(line.startswith("bestmove") for line in out.lines) == 2


def test_quit_during_go_infinite_with_commands_waiting_ends_at_once():
    engine, out = engine_with("go infinite", "setoption name Hash value 8", "go infinite")
    started = time.perf_counter()
    assert engine.handle("quit") is False
    assert time.perf_counter() - started < 5 and out.lines[-1].startswith("bestmove ")
    assert engine.hash_mb == 16  # what waited was dropped with the quit


def test_ponder_then_ponderhit_answers_on_its_clock():
    engine, out = engine_with("setoption name Ponder value true", "position startpos moves e2e4 e7e5",
                              "go ponder movetime 300")
    time.sleep(0.5)  # pondering has no clock: no answer however long it takes
    assert not any(line.startswith("bestmove") for line in out.lines)
    hit = time.perf_counter()
    engine.handle("ponderhit")
    answer = out.wait_for("bestmove", 10)
    assert time.perf_counter() - hit < 2.5  # 300 ms from the ponderhit, with room for a busy machine
    words = answer.split()
    assert len(words) in (2, 4) and (len(words) == 2 or words[2] == "ponder")


def test_ponder_then_stop_answers_at_once_and_a_finished_ponder_search_waits():
    engine, out = engine_with(FOOLS_MATE, "go ponder depth 2")
    time.sleep(0.3)  # depth 2 is done long before: the answer still waits for stop or ponderhit
    assert not any(line.startswith("bestmove") for line in out.lines)
    engine.handle("stop")
    assert out.wait_for("bestmove", 5) == "bestmove d8h4"
    engine.handle("ponderhit")  # nothing ponders now: said, not fatal
    assert out.lines[-1].startswith("info string ponderhit")


def test_the_search_of_a_finished_infinite_go_waits_for_stop():
    engine, out = engine_with(FOOLS_MATE, "go infinite depth 1")
    time.sleep(0.3)
    assert not any(line.startswith("bestmove") for line in out.lines)
    engine.handle("stop")
    assert out.wait_for("bestmove", 5) == "bestmove d8h4"
