"""The search's parts on their own: static exchange evaluation, the transposition table's buckets and
ageing, quiescence in check."""

from __future__ import annotations

from dealers_chess.engine.notation import parse_fen, parse_move
from dealers_chess.engine.search import Limits, Searcher
from dealers_chess.engine.search.evaluation import evaluator_for
from dealers_chess.engine.search.exchange import see
from dealers_chess.engine.search.search import MATE
from dealers_chess.engine.search.table import EXACT, LOWER, TranspositionTable


def exchange(fen: str, move: str, game: str = "chess") -> int:
    pos = parse_fen(fen, game)
    terms = evaluator_for(pos.types).type_terms
    return see(pos, parse_move(pos, move), lambda t: terms(t).value if t >= 0 else 0)


def test_see_counts_recaptures_x_rays_and_stops_when_going_on_loses():
    assert exchange("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5") == 100  # undefended
    assert exchange("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5") == 0  # pawn for pawn
    assert exchange("4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1", "d2d5") == 100 - 900  # the Queen is lost
    # Rooks doubled on the file: the ones behind join in (x-rays); Black's second rook decides.
    assert exchange("3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5") == 100 - 481
    assert exchange("4k3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5") == 100
    # a defender that would have to take with its King only while nothing else guards the square
    assert exchange("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "d1d5") == 100 - 481
    assert exchange("8/8/4k3/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5") == 100


def test_see_of_a_fairy_capture_reads_the_referees_attack_lines():
    # Dealer's 8x8: a Chancellor takes a pawn. A Cannon (mRcpR) on d8 guards it only over a screen on d7;
    # once the Chancellor has taken, a Knight's guard is a plain leap.
    alone = "4k3/8/8/3p4/8/8/8/3(CH)K3 w - - 0 1"
    pos = parse_fen(alone, "dealers-8x8")
    terms = evaluator_for(pos.types).type_terms
    pawn, chancellor = terms(pos.piece[35]).value, terms(pos.piece[3]).value
    assert exchange(alone, "d1d5", "dealers-8x8") == pawn
    assert exchange("3(cn)k3/8/8/3p4/8/8/8/3(CH)K3 w - - 0 1", "d1d5", "dealers-8x8") == pawn  # no screen
    assert exchange("3(cn)k3/3p4/8/3p4/8/8/8/3(CH)K3 w - - 0 1", "d1d5", "dealers-8x8") == pawn - chancellor
    assert exchange("4k3/8/5n2/3p4/8/8/8/3(CH)K3 w - - 0 1", "d1d5", "dealers-8x8") == pawn - chancellor


def test_the_table_keeps_the_deeper_entry_and_ages_the_old_ones():
    table = TranspositionTable(1024)
    buckets = table.capacity // 2
    a, b, c = 7, 7 + buckets, 7 + 2 * buckets  # three positions of one bucket
    table.put(a, 6, EXACT, 10, None)
    table.put(b, 2, LOWER, 20, None)
    assert table.get(a)[1] == 6 and table.get(b)[1] == 2  # the deepest first, the newest second
    table.put(c, 1, LOWER, 30, None)  # a shallow newcomer takes the second slot, never the deepest
    assert table.get(a) is not None and table.get(c) is not None and table.get(b) is None
    table.new_search()  # the next search: what is older gives way to anything new
    table.put(b, 1, LOWER, 40, None)
    assert table.get(b) is not None and table.get(b)[5] == table.generation
    for check in range(10 * table.capacity):  # far more than it holds: never emptied, always holding
        table.put(check, 3, EXACT, 0, None)
    assert table.get(10 * table.capacity - 1) is not None
    assert sum(entry is not None for entry in table.slots) == table.capacity


def test_quiescence_in_check_tries_the_evasions_instead_of_standing_pat():
    searcher = Searcher()
    mated = parse_fen("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", "chess")
    searcher.search(mated, Limits(depth=1))  # sets the searcher up for this position
    assert searcher._quiesce(-MATE - 1, MATE + 1, 0, True) == -MATE  # mated: no stand pat
    escape = parse_fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1", "chess")  # not in check: stalemate is the referee's
    checked = parse_fen("k7/8/1K6/8/8/8/8/Q7 b - - 0 1", "chess")  # in check, Kb8 escapes
    for pos in (escape, checked):
        searcher.search(pos, Limits(depth=1))
    assert searcher._quiesce(-MATE - 1, MATE + 1, 0, True) > -MATE + 100
