"""Every catalogue piece's empty-board offsets against expectations written by hand from the seeds.

The expectations come from the seed wording (../shared/seeds/) and docs/rulings.md, built from plain
geometry below -- never from the XBetza strings -- so they check the parser and the kernel.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product

import pytest

from dealers_chess.engine.board import board_of
from dealers_chess.engine.kernel import EMPTY, Reach, compile_movement, destinations
from dealers_chess.engine.measure.probe import probe
from dealers_chess.pieces.catalogue import load_catalogue

Offset = tuple[int, int]
REACH = 7  # squares from the centre of the 15x15 probe board to its edge
CATALOGUE = load_catalogue()


# --- Plain geometry --------------------------------------------------------------------------


def on_board(offset: Offset) -> bool:
    """Whether an offset from the centre stays on the 15x15 board."""
    return abs(offset[0]) <= REACH and abs(offset[1]) <= REACH


def leap(a: int, b: int) -> frozenset[Offset]:
    """The 8 (or 4) sign and swap combinations of (a, b)."""
    return frozenset((sx * x, sy * y) for x, y in ((a, b), (b, a)) for sx in (1, -1) for sy in (1, -1))


def leaps(*pairs: tuple[int, int]) -> frozenset[Offset]:
    """The union of several leaps."""
    return frozenset().union(*(leap(a, b) for a, b in pairs))


def ray(start: Offset, step: Offset, limit: int = REACH) -> frozenset[Offset]:
    """Squares start + k*step for k = 1..limit while on the board."""
    out = set()
    for k in range(1, limit + 1):
        square = (start[0] + k * step[0], start[1] + k * step[1])
        if not on_board(square):
            break
        out.add(square)
    return frozenset(out)


def slide(directions, limit: int = REACH) -> frozenset[Offset]:
    """Rays from the centre along each direction, to the edge or up to `limit` squares."""
    return frozenset().union(*(ray((0, 0), d, limit) for d in directions))


def ride(a: int, b: int) -> frozenset[Offset]:
    """Repeated (a, b) leaps in one straight line (the nightrider)."""
    return slide(leap(a, b))


def forward(offsets) -> frozenset[Offset]:
    return frozenset(o for o in offsets if o[1] > 0)


def backward(offsets) -> frozenset[Offset]:
    return frozenset(o for o in offsets if o[1] < 0)


def sideways(offsets) -> frozenset[Offset]:
    return frozenset(o for o in offsets if o[1] == 0)


def bent(first_steps, turns) -> frozenset[Offset]:
    """One step, then (from that square) optional slides: turns(step) gives their directions."""
    return frozenset().union(*({s} | frozenset().union(*(ray(s, d) for d in turns(s))) for s in first_steps))


def outward(step: Offset, directions) -> list[Offset]:
    """The directions that go on away from the start: no component back against the step."""
    return [d for d in directions if d[0] * step[0] >= 0 and d[1] * step[1] >= 0]


W = leap(1, 0)  # one step orthogonally
F = leap(1, 1)  # one step diagonally
K = W | F
D = leap(2, 0)
A = leap(2, 2)
N = leap(1, 2)
ROOK = slide(W)
BISHOP = slide(F)
QUEEN = ROOK | BISHOP
NONE: frozenset[Offset] = frozenset()
OTHER_COLOUR = frozenset(
    (dx, dy) for dx, dy in product(range(-REACH, REACH + 1), repeat=2) if (dx + dy) % 2 == 1
)


@dataclass(frozen=True)
class Expect:
    """Hand-written offsets; captures default to the moves (a piece that 'moves' also captures)."""

    moves: frozenset[Offset]
    initial_moves: frozenset[Offset] = NONE
    captures: frozenset[Offset] | None = None
    initial_captures: frozenset[Offset] = NONE
    xfail: str = field(default="")

    def as_dict(self) -> dict[str, frozenset[Offset]]:
        return {
            "moves": frozenset(self.moves),
            "initial_moves": frozenset(self.initial_moves),
            "captures": frozenset(self.moves if self.captures is None else self.captures),
            "initial_captures": frozenset(self.initial_captures),
        }


def pawn(moves, captures, initial_moves=NONE, initial_captures=NONE) -> Expect:
    """A piece whose moves and captures differ (pawns and divergent pieces)."""
    return Expect(frozenset(moves), frozenset(initial_moves), frozenset(captures), frozenset(initial_captures))


STEP = frozenset({(0, 1)})
DOUBLE = frozenset({(0, 2)})
FWD_DIAG = forward(F)
STANDARD = pawn(STEP, FWD_DIAG, DOUBLE)  # "one space directly forward (two for the opening move) ...
# without capturing, or one space diagonally forward to capture"

# Gryffon: "one square diagonally; then may continue sliding outward orthogonally".
GRYFFON = bent(F, lambda s: outward(s, W))
# Rhinoceros: "one square orthogonally; then may continue sliding outward diagonally".
RHINOCEROS = bent(W, lambda s: outward(s, F))
# Ship: "one space diagonally, then ... sliding orthogonally forward or backward away from the start".
SHIP = bent(F, lambda s: [(0, s[1])])
# Snake: "one space forward or backward, then may continue sliding outward diagonally".
SNAKE = bent({(0, 1), (0, -1)}, lambda s: outward(s, F))


EXPECTED: dict[str, Expect] = {
    # --- Royals, seed 004 ---
    "chef": Expect(sideways(W | D) | F),  # "one or two spaces sideways, or one space diagonally"
    "king": Expect(K),  # "one space in any direction"
    "pharaoh": pawn(K, leap(1, 3)),  # "without capture to any adjacent space, or leaps (1,3) only to capture"
    "pope": Expect(W | A),  # "one space orthogonally, or two spaces (non-leaping) diagonally" (ruling: exactly two)
    "president": Expect(W | D),  # "one or two spaces orthogonally"
    "rex": Expect(N),  # "a (1,2) non-leaping move"
    "shogun": pawn(W, W | N),  # "one space orthogonally, or captures with a (1,2) leap"
    # --- Pieces, seed 004 ---
    "alfil": Expect(A),  # "two squares diagonally"
    "alibaba": Expect(D | A),  # "two spaces orthogonally or diagonally"
    "antelope": Expect(leap(3, 4)),  # "(3,4)"
    "archbishop": Expect(BISHOP | N),  # "slides diagonally, or leaps (1,2)"
    "aurochs": Expect(leaps((1, 2), (1, 4))),  # "(1,2) or (1,4)"
    "bishop": Expect(BISHOP),  # "slides diagonally"
    "bison": Expect(leaps((1, 3), (2, 3))),  # "(1,3) or (2,3)"
    "buffalo": Expect(leaps((1, 2), (1, 3), (2, 3))),  # "(1,2), (1,3), or (2,3)"
    "camel": Expect(leap(1, 3)),  # "(1,3)"
    "cannon": pawn(ROOK, NONE),  # "slides orthogonally, but must leap over another piece to capture"
    "chancellor": Expect(ROOK | N),  # "slides orthogonally, or leaps (1,2)"
    "cheetah": Expect(leaps((3, 0), (3, 1), (3, 2), (3, 3))),  # "any square three spaces away"
    "dabbaba": Expect(D),  # "two spaces orthogonally"
    "ferz": Expect(F),  # "one space diagonally"
    "giraffe": Expect(leap(1, 4)),  # "(1,4)"
    "gnu": Expect(leaps((1, 2), (1, 3))),  # "(1,2) or (1,3)"
    "gryffon": Expect(GRYFFON),
    "guard": Expect(K),  # "one space in any direction"
    "guardian": pawn(F, W),  # "without capture one space diagonally, ... required capture one space orthogonally"
    "impala": Expect(leaps((1, 2), (3, 4))),  # "(1,2) or (3,4)"
    "kirin": Expect(F | D),  # "one space diagonally, or leaps two spaces orthogonally"
    "knight": Expect(N),  # "(1,2)"
    "lion": Expect(K | leaps((2, 0), (2, 1), (2, 2))),  # "one space any direction, or any square two away"
    "mastodon": Expect(K | D | A),  # "one space any direction, or leaps two diagonally or orthogonally"
    "minister": Expect(W | D | N),  # "one orthogonally, leaps two orthogonally, or leaps (1,2)"
    "nightrider": Expect(ride(1, 2)),  # "repeated leaps of (1,2) in a straight line"
    "phoenix": Expect(W | A),  # "one space orthogonally, or leaps two spaces diagonally"
    "queen": Expect(QUEEN),  # "slides diagonally or orthogonally"
    "rhinoceros": Expect(RHINOCEROS),
    "rook": Expect(ROOK),  # "slides orthogonally"
    "ship": Expect(SHIP),
    "snake": Expect(SNAKE),
    "squirrel": Expect(leaps((2, 0), (2, 1), (2, 2))),  # "any square two spaces away"
    "steward": pawn(W, F),  # "without capture one space orthogonally, ... required capture one diagonally"
    "threeleaper": Expect(leap(3, 0)),  # "three spaces orthogonally"
    "turtle": Expect(slide(K, 4) | D | A),  # "slides up to four ... or leaps two spaces in those directions"
    "unicorn": Expect(BISHOP | ride(1, 2)),  # "slides diagonally, or repeated leaps of (1,2)"
    "vao": pawn(BISHOP, NONE),  # "slides diagonally, but must leap over another piece to capture"
    "wazir": Expect(W),  # "one space orthogonally"
    "zebra": Expect(leap(2, 3)),  # "(2,3)"
    # --- Pawns, seed 004 ---
    # Arrow: "one or two spaces orthogonally without capturing; or one space diagonally, only to capture"
    "arrow-pawn": pawn(W | D, F),
    # Berolina: "one space forward diagonally (two for the opening move) without capturing, or one
    # space directly forward to capture"
    "berolina-pawn": pawn(FWD_DIAG, STEP, forward(A)),
    "chicken-pawn": STANDARD,  # the flee move is a named rule
    # Enhanced: "(two for the opening move) ..., or one space diagonally or sideways to capture"
    "enhanced-pawn": pawn(STEP, F | sideways(W), DOUBLE),
    # Fish: "directly forward (two for the opening move) or backward without capturing"
    "fish-pawn": pawn({(0, 1), (0, -1)}, FWD_DIAG, DOUBLE),
    "gold-pawn": Expect(W | FWD_DIAG),  # "one space orthogonally, or forward diagonally"
    "horse-pawn": Expect({(1, 2), (-1, 2)}),  # "(1,2) directly forward (two forward, one to the side)"
    "iron-pawn": Expect(STEP | FWD_DIAG),  # "one space directly or diagonally forward"
    # Japanese: "one space forward diagonally (two directly forward, without capturing, for the opening move)"
    "japanese-pawn": pawn(FWD_DIAG, FWD_DIAG, DOUBLE),
    "korean-pawn": Expect(STEP | sideways(W)),  # "one space orthogonally forward or sideways"
    # Lance: "(1,2) directly forward, or without capturing sideways and forward (one forward, two to the side)"
    "lance-pawn": pawn({(1, 2), (-1, 2), (2, 1), (-2, 1)}, {(1, 2), (-1, 2)}),
    # Left End: "one space directly forward (two for opening), or one space diagonally forward and to
    # the right and then orthogonally forward or to the right; or forward diagonally, only to capture"
    "left-end-pawn": pawn({(0, 1), (1, 2), (2, 1)}, FWD_DIAG, DOUBLE),
    "right-end-pawn": pawn({(0, 1), (-1, 2), (-2, 1)}, FWD_DIAG, DOUBLE),
    # Linebacker: "one space directly or diagonally forward (two for the opening move). Cannot capture"
    # -- the opening two applies to every direction it names, as the Berolina's does.
    "linebacker-pawn": pawn(STEP | FWD_DIAG, NONE, DOUBLE | forward(A)),
    "mecklenbeck-pawn": STANDARD,
    "mongolian-pawn": pawn(STEP, FWD_DIAG, {(0, 2), (0, 3)}),  # "(three for the opening move)" = up to three
    # Patient: "opening move may be two spaces directly forward, or one directly forward and a second
    # diagonally forward, to capture"
    "patient-pawn": pawn(STEP, FWD_DIAG, DOUBLE, {(1, 2), (-1, 2)}),
    # Piglet: "one space diagonally forward (leaping two spaces for the opening move), or one space
    # directly or diagonally backward without capturing"
    "piglet-pawn": pawn(FWD_DIAG | backward(K), FWD_DIAG, forward(A)),
    # Scorpion: "(two for the opening move) or leaps (1,2) sideways and forward ... without capturing"
    "scorpion-pawn": pawn({(0, 1), (2, 1), (-2, 1)}, FWD_DIAG, DOUBLE),
    "silver-pawn": Expect(F | STEP),  # "one space diagonally, or directly forward"
    "standard-pawn": STANDARD,
    "torpedo-pawn": pawn({(0, 1), (0, 2)}, FWD_DIAG),  # "one or two spaces directly forward"
    "zabel-pawn": pawn(STEP, FWD_DIAG),  # the double step to promote is a named rule
    # Zombie: "one space directly or diagonally forward, or without capture directly backward"
    "zombie-pawn": pawn(STEP | FWD_DIAG | {(0, -1)}, STEP | FWD_DIAG),
    # --- Other games ---
    "woody-rook": Expect(W | D),  # 000: "like a wazir ... or like a dabbabah"
    "ferfil": Expect(F | A),  # 000: "like an alfil or a ferz"
    "champion": Expect(W | A | D),  # 001: "wazir ... alfil ... dabbabah"
    "consuls-pawn": STANDARD,  # 002: rank powers do not apply on the centre of 15x15
    "arena-king": pawn(K, NONE),  # 002: "moves as a King"; captures only by rank power
    "squire": Expect(ROOK | F),  # 003: "Rook ... or like a Ferz"
    "wizzen": Expect(leaps((1, 3), (1, 2)) | F),  # 003: "Camel ... Ferz ... standard chess knight"
    "viceroy": Expect(BISHOP | W),  # 003: "Bishop ... or like a Wazir"
    "spinal-minister": Expect(leap(1, 3) | F | ROOK),  # 003: "(1,3) jump, one step diagonally, or ... Rook"
    "spinal-pawn": pawn(STEP, FWD_DIAG, {(0, 2), (0, 3), (0, 4)}),  # 003: "one, two, three, or four squares"
    # 003 Crab: captures like the pawn, initial one to four, "may also move one square forwards diagonally"
    "crab": pawn(STEP | FWD_DIAG, FWD_DIAG, {(0, 2), (0, 3), (0, 4)}),
    "crowned-knight": Expect(K | N),  # 003: "orthodox chess knight or king"
    "yanzee": pawn(K, NONE),  # 003: "one square in any direction, but may never capture"
    "teleporter": pawn(OTHER_COLOUR, K),  # 003: teleports to the other colour; "when capturing ... one square"
    "dazzler": Expect(K | D | A),  # 003: "one or two squares in any direction"; the cannon capture needs a screen
    "hyena": pawn(slide(K, 3), NONE),  # 003: "up to three squares in any direction, ... never capture"
}

# Cases where the toolkit disagrees with the seed reading above: id -> reason (strict xfail).
KNOWN_WRONG: dict[str, str] = {}


def _cases():
    for piece in CATALOGUE:
        marks = ()
        if piece.id in KNOWN_WRONG:
            marks = (pytest.mark.xfail(strict=True, reason=KNOWN_WRONG[piece.id]),)
        yield pytest.param(piece.id, marks=marks, id=piece.id)


def probed(piece_id: str) -> dict[str, frozenset[Offset]]:
    """The toolkit's offsets for a catalogue piece, as sets."""
    offsets = probe(CATALOGUE.get(piece_id))
    return {name: frozenset(getattr(offsets, name)) for name in Expect(NONE).as_dict()}


def test_every_catalogue_piece_has_a_hand_written_expectation():
    ids = {piece.id for piece in CATALOGUE}
    assert len(ids) == 87
    assert ids - EXPECTED.keys() == set(), "catalogue pieces without an expectation"
    assert EXPECTED.keys() - ids == set(), "expectations for pieces not in the catalogue"


@pytest.mark.parametrize("piece_id", list(_cases()))
def test_empty_board_offsets_match_the_seed_text(piece_id):
    want = EXPECTED[piece_id].as_dict()
    got = probed(piece_id)
    for name in want:
        assert got[name] == want[name], (
            f"{piece_id} {name}: missing {sorted(want[name] - got[name])}, extra {sorted(got[name] - want[name])}"
        )


# --- With blockers: lame, hopping and bent pieces on a 15x15 board --------------------------

BOARD = board_of(15, 15)


def reach(piece_id, friends=(), enemies=(), unmoved=False, black=False) -> dict[Offset, Reach]:
    """Where a catalogue piece on the centre goes, with pieces placed at the given offsets."""
    side = 1 if black else 0
    occupancy = [EMPTY] * BOARD.size
    for offsets, who in ((friends, side), (enemies, 1 - side)):
        for dx, dy in offsets:
            occupancy[BOARD.square(REACH + dx, REACH + dy)] = who
    rays = compile_movement(CATALOGUE.get(piece_id).movement, BOARD, black)[BOARD.square(REACH, REACH)]
    found = destinations(rays, occupancy, side, unmoved)
    return {(BOARD.file_of(s) - REACH, BOARD.rank_of(s) - REACH): r for s, r in found.items()}


def test_rex_is_blocked_by_the_orthogonal_square_in_the_long_direction():
    # "Makes a (1,2) non-leaping move"; ruling: the Mao, via the orthogonal neighbour.
    assert set(reach("rex", friends=[(0, 1)])) == N - {(1, 2), (-1, 2)}
    assert set(reach("rex", enemies=[(1, 0)])) == N - {(2, 1), (2, -1)}
    assert set(reach("rex", friends=[(1, 1), (-1, -1)])) == N  # diagonal squares never block
    assert reach("rex", friends=[(0, 1)], enemies=[(1, 2)]).get((1, 2)) is None
    assert reach("rex", enemies=[(1, 2)])[(1, 2)] is Reach.CAPTURE


def test_pope_diagonal_needs_an_empty_middle_square():
    # "two spaces (non-leaping) diagonally"; it has no one-square diagonal move of its own.
    got = reach("pope", enemies=[(1, 1)])
    assert (1, 1) not in got and (2, 2) not in got
    assert set(got) == W | A - {(2, 2)}
    got = reach("pope", friends=[(0, 1)], enemies=[(2, 2)])
    assert got[(2, 2)] is Reach.CAPTURE and (0, 1) not in got


def test_chef_and_president_two_square_moves_do_not_jump():
    # Chef "one or two spaces sideways"; President "one or two spaces orthogonally" ("moves", not "leaps").
    got = reach("chef", friends=[(1, 0)], enemies=[(-2, 0), (2, 0)])
    assert got == {(-1, 0): Reach.MOVE, (-2, 0): Reach.CAPTURE} | {f: Reach.MOVE for f in F}
    got = reach("president", enemies=[(0, 1), (0, 2), (-2, 0)])
    assert got[(0, 1)] is Reach.CAPTURE and (0, 2) not in got
    assert got[(-2, 0)] is Reach.CAPTURE and set(got) == W | D - {(0, 2)}


def test_gryffon_and_rhinoceros_bend_only_through_an_empty_first_square():
    # Gryffon "one square diagonally; then may continue sliding outward orthogonally".
    got = reach("gryffon", enemies=[(1, 1)], friends=[(-1, 3)])
    assert got[(1, 1)] is Reach.CAPTURE
    assert not any(x > 0 and y > 0 for x, y in set(got) - {(1, 1)})
    assert {(-1, 2), (-7, 1)} <= set(got) and (-1, 3) not in got and (-1, 4) not in got
    got = reach("gryffon", enemies=[(4, -1)])
    assert got[(4, -1)] is Reach.CAPTURE and (5, -1) not in got and (3, -1) in got
    # Rhinoceros "one square orthogonally; then may continue sliding outward diagonally".
    got = reach("rhinoceros", enemies=[(0, 1)], friends=[(2, -3)])
    assert got[(0, 1)] is Reach.CAPTURE
    assert not any(abs(x) == y - 1 for x, y in got if y >= 2)  # nothing beyond (0, 1)
    assert {(3, 2), (-3, 2), (1, -2)} <= set(got)
    assert (2, -3) not in got and (3, -4) not in got
    assert reach("rhinoceros", enemies=[(-3, 2)])[(-3, 2)] is Reach.CAPTURE


def test_ship_and_snake_bend_through_an_empty_first_square():
    # Ship "one space diagonally, then ... sliding orthogonally forward or backward away from the start".
    got = reach("ship", friends=[(1, 1)], enemies=[(-1, 4)])
    assert not any(x == 1 and y > 0 for x, y in got)
    assert got[(-1, 4)] is Reach.CAPTURE and (-1, 5) not in got and (-1, 3) in got
    assert {(1, -1), (1, -7), (-1, -7)} <= set(got)
    # Snake "one space forward or backward, then may continue sliding outward diagonally".
    got = reach("snake", enemies=[(0, -1), (2, 3)])
    assert got[(0, -1)] is Reach.CAPTURE and not any(y < -1 for _, y in got)
    assert got[(2, 3)] is Reach.CAPTURE and (3, 4) not in got and (-6, 7) in got


def test_cannon_and_vao_capture_over_exactly_one_screen():
    # Cannon "slides orthogonally, but must leap over another piece to capture".
    for got in (reach("cannon", friends=[(0, 2)], enemies=[(0, 4)]), reach("cannon", enemies=[(0, 2), (0, 4)])):
        assert got[(0, 4)] is Reach.CAPTURE
        assert (0, 1) in got and (0, 2) not in got and (0, 3) not in got and (0, 5) not in got
    assert (0, 4) not in reach("cannon", enemies=[(0, 4)])
    assert (0, 4) not in reach("cannon", friends=[(0, 1), (0, 2)], enemies=[(0, 4)])
    assert (3, 0) not in reach("cannon", friends=[(1, 1)], enemies=[(3, 0)])
    # Vao "slides diagonally, but must leap over another piece to capture".
    got = reach("vao", friends=[(-1, 1)], enemies=[(-3, 3)])
    assert got[(-3, 3)] is Reach.CAPTURE and (-2, 2) not in got and (-4, 4) not in got
    assert (0, 3) not in reach("vao", friends=[(0, 1)], enemies=[(0, 3)])
    assert (2, 2) not in reach("vao", enemies=[(2, 2)])


def test_dazzler_leaps_two_squares_and_captures_like_a_cannon_on_any_line():
    # 003 Dazzler "may capture like a CANNON ... jumping one piece of either color", along any line;
    # "may also jump pieces ... when it moves two squares" (ruling: the eight lines).
    got = reach("dazzler", friends=[(0, 1), (1, 1)], enemies=[(0, 5), (4, 4), (-3, 0)])
    assert got[(0, 5)] is Reach.CAPTURE and got[(4, 4)] is Reach.CAPTURE and (-3, 0) not in got
    assert got[(0, 2)] is Reach.MOVE and got[(2, 2)] is Reach.MOVE and (0, 4) not in got and (0, 6) not in got


def test_end_pawns_bend_through_an_empty_diagonal_and_never_capture_that_way():
    # Left End "one space diagonally forward and to the right and then orthogonally forward or to the right".
    assert set(reach("left-end-pawn", friends=[(1, 1)])) == {(0, 1)}
    got = reach("left-end-pawn", enemies=[(1, 2), (2, 1)])
    assert got == {(0, 1): Reach.MOVE}
    got = reach("left-end-pawn", enemies=[(1, 1)])
    assert got == {(0, 1): Reach.MOVE, (1, 1): Reach.CAPTURE}
    assert set(reach("right-end-pawn", friends=[(-1, 1)])) == {(0, 1)}
    assert set(reach("right-end-pawn")) == {(0, 1), (-1, 2), (-2, 1)}
    # Left and right are the mover's own: Black's are turned round.
    assert set(reach("left-end-pawn", black=True)) == {(0, -1), (-1, -2), (-2, -1)}


def test_patient_pawn_opening_capture_needs_the_square_ahead_empty():
    # "opening move may be ... one directly forward and a second diagonally forward, to capture"
    assert reach("patient-pawn", enemies=[(1, 2)], unmoved=True)[(1, 2)] is Reach.CAPTURE
    assert (1, 2) not in reach("patient-pawn", enemies=[(1, 2)])  # only on its first move
    assert (1, 2) not in reach("patient-pawn", friends=[(0, 1)], enemies=[(1, 2)], unmoved=True)
    assert (1, 2) not in reach("patient-pawn", unmoved=True)  # to capture only


def test_berolina_opening_move_passes_an_empty_diagonal_square():
    # "one space forward diagonally (two for the opening move) without capturing"
    assert reach("berolina-pawn", unmoved=True)[(2, 2)] is Reach.MOVE
    assert (2, 2) not in reach("berolina-pawn", friends=[(1, 1)], unmoved=True)
    assert (-2, 2) in reach("berolina-pawn", friends=[(1, 1)], unmoved=True)
    assert (2, 2) not in reach("berolina-pawn", enemies=[(2, 2)], unmoved=True)
    assert reach("berolina-pawn", enemies=[(0, 1), (1, 1)]) == {(0, 1): Reach.CAPTURE, (-1, 1): Reach.MOVE}


def test_leapers_jump_and_riders_stop():
    # The Turtle "leaps two spaces" over a blocker; the Nightrider's landing squares must be empty.
    assert (2, 2) in reach("turtle", friends=[(1, 1)]) and (3, 3) not in reach("turtle", friends=[(1, 1)])
    got = reach("nightrider", friends=[(1, 2)], enemies=[(-2, 4)])
    assert (2, 4) not in got and got[(-2, 4)] is Reach.CAPTURE and (-3, 6) not in got
    assert (2, 2) in reach("piglet-pawn", friends=[(1, 1)], unmoved=True)  # "leaping two spaces"
    assert (0, 2) not in reach("torpedo-pawn", friends=[(0, 1)])  # "moves one or two spaces"
    assert set(reach("mongolian-pawn", enemies=[(0, 2)], unmoved=True)) == {(0, 1)}


def test_two_square_pawn_moves_pass_an_empty_square():
    # Linebacker "one space directly or diagonally forward (two for the opening move)": "moves", not "leaps".
    assert set(reach("linebacker-pawn", friends=[(1, 1)], unmoved=True)) == {(0, 1), (0, 2), (-1, 1), (-2, 2)}
    assert (0, 2) not in reach("linebacker-pawn", enemies=[(0, 1)], unmoved=True)
    assert set(reach("japanese-pawn", friends=[(0, 1)], unmoved=True)) == FWD_DIAG
    # Arrow "one or two spaces orthogonally": the backward two-step is blocked too.
    assert set(reach("arrow-pawn", friends=[(0, -1)])) == (W | D) - {(0, -1), (0, -2)}


@pytest.mark.parametrize("piece_id", [piece.id for piece in CATALOGUE])
def test_black_sees_the_same_moves_turned_round(piece_id):
    # Every seed describes moves from the mover's side: Black's offsets are White's rotated 180 degrees.
    for unmoved in (False, True):
        white = reach(piece_id, unmoved=unmoved)
        black = reach(piece_id, unmoved=unmoved, black=True)
        assert black == {(-dx, -dy): r for (dx, dy), r in white.items()}
