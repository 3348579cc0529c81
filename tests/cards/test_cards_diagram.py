"""Movement diagrams against the engine kernel: every catalogue piece, every marked square."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealers_chess.cards.diagram import Access, Cell, StrokeKind, diagram_for, diagram_of
from dealers_chess.engine.board import board_of
from dealers_chess.engine.kernel import EMPTY, Reach, compile_movement, destinations
from dealers_chess.pieces.catalogue import load_catalogue
from dealers_chess.pieces.movement import parse_movement

CATALOGUE = load_catalogue()
BOARD = board_of(15, 15)
CENTRE = BOARD.square(7, 7)


def _offset(square: int) -> tuple[int, int]:
    return (BOARD.file_of(square) - 7, BOARD.rank_of(square) - 7)


def kernel_cells(movement, radius: int, hurdle) -> dict[tuple[int, int], Cell]:
    """What the kernel says about each square within radius: the board empty but for the hurdle."""
    rays = compile_movement(movement, BOARD)[CENTRE]
    base = [EMPTY] * BOARD.size
    if hurdle is not None:
        base[BOARD.square(7 + hurdle[0], 7 + hurdle[1])] = 0  # a friendly piece to hop over
    access: dict[tuple[int, int], dict[str, Access]] = {}

    def note(square, what, level):
        entry = access.setdefault(_offset(square), {"move": Access.NEVER, "capture": Access.NEVER, "ep": False})
        if entry[what] is Access.NEVER or level is Access.ALWAYS:
            entry[what] = level

    for unmoved, level in ((True, Access.FIRST), (False, Access.ALWAYS)):
        for square, reach in destinations(rays, base, 0, unmoved).items():
            if reach is Reach.MOVE:
                note(square, "move", level)
        for square in range(BOARD.size):
            if square == CENTRE or base[square] != EMPTY:
                continue
            occupancy = list(base)
            occupancy[square] = 1
            if destinations(rays, occupancy, 0, unmoved).get(square) is Reach.CAPTURE:
                note(square, "capture", level)
            if destinations(rays, base, 0, True, frozenset({square})).get(square) is Reach.EN_PASSANT:
                access.setdefault(_offset(square), {"move": Access.NEVER, "capture": Access.NEVER})["ep"] = True
    return {
        offset: entry for offset, entry in access.items() if max(map(abs, offset)) <= radius
    }


@pytest.mark.parametrize("piece", list(CATALOGUE), ids=lambda p: p.id)
def test_diagram_marks_equal_kernel_destinations(piece) -> None:
    diagram = diagram_for(piece)
    expected = kernel_cells(piece.movement, diagram.radius, diagram.hurdle)
    for entry in expected.values():
        entry.setdefault("ep", False)
    shown = {
        square: {"move": cell.move, "capture": cell.capture, "ep": cell.en_passant}
        for square, cell in diagram.cells
    }
    assert shown == expected
    assert 5 <= diagram.size <= 9


def test_grid_sized_to_reach() -> None:
    size = {pid: diagram_for(CATALOGUE.get(pid)).size
            for pid in ("wazir", "knight", "rook", "antelope", "nightrider", "king")}
    assert size == {"wazir": 5, "knight": 5, "rook": 7, "antelope": 9, "nightrider": 9, "king": 5}


def test_leaps_slides_and_paths() -> None:
    knight = diagram_for(CATALOGUE.get("knight"))
    assert all(cell.leap for _, cell in knight.cells) and not knight.strokes
    rook = diagram_for(CATALOGUE.get("rook"))
    assert {s.kind for s in rook.strokes} == {StrokeKind.SLIDE} and len(rook.strokes) == 4
    turtle = diagram_for(CATALOGUE.get("turtle"))
    assert {s.kind for s in turtle.strokes} == {StrokeKind.LIMITED}
    rex = diagram_for(CATALOGUE.get("rex"))
    assert {s.kind for s in rex.strokes} == {StrokeKind.PATH} and len(rex.waypoints) == 4
    assert not any(cell.leap for _, cell in rex.cells)
    gryffon = diagram_for(CATALOGUE.get("gryffon"))
    assert {s.kind for s in gryffon.strokes} == {StrokeKind.PATH, StrokeKind.SLIDE}


def test_hopper_shows_its_hurdle_and_the_captures_beyond() -> None:
    cannon = diagram_for(CATALOGUE.get("cannon"))
    assert cannon.hurdle == (0, 2)
    cells = cannon.cell_map()
    assert cells[(0, 3)].capture is Access.ALWAYS and cells[(0, 3)].hop
    assert cells[(0, 1)].move is Access.ALWAYS and cells[(0, 1)].capture is Access.NEVER
    assert cells[(3, 0)].move is Access.ALWAYS


def test_pawn_marks_first_move_en_passant_and_forward() -> None:
    pawn = diagram_for(CATALOGUE.get("standard-pawn"))
    cells = pawn.cell_map()
    assert pawn.forward and cells[(0, 2)].move is Access.FIRST
    assert cells[(1, 1)].en_passant and cells[(1, 1)].capture is Access.ALWAYS
    assert not diagram_for(CATALOGUE.get("queen")).forward


def test_named_rules_become_badges() -> None:
    assert diagram_for(CATALOGUE.get("linebacker-pawn")).badges == ("Push",)
    assert "Teleport" in diagram_for(CATALOGUE.get("teleporter")).badges
    assert diagram_for(CATALOGUE.get("knight")).badges == ()


ATOMS = st.sampled_from(["W", "F", "D", "A", "N", "C", "Z", "H", "G", "R", "B", "Q", "K", "N0", "R3", "B2"])
PREFIX = st.sampled_from(["", "m", "c", "f", "b", "s", "v", "fm", "bc", "i", "ifm", "n", "p", "fs", "l", "rf"])


@settings(max_examples=120, deadline=None)
@given(st.lists(st.tuples(PREFIX, ATOMS), min_size=1, max_size=3))
def test_any_simple_betza_diagram_equals_kernel(parts) -> None:
    from dealers_chess.pieces.errors import BetzaError

    try:
        movement = parse_movement("".join(p + a for p, a in parts))
    except BetzaError:
        return
    diagram = diagram_of(movement)
    expected = kernel_cells(movement, diagram.radius, diagram.hurdle)
    for entry in expected.values():
        entry.setdefault("ep", False)
    shown = {s: {"move": c.move, "capture": c.capture, "ep": c.en_passant} for s, c in diagram.cells}
    assert shown == expected


def test_cards_import_only_pieces_and_write_no_files() -> None:
    import ast
    from pathlib import Path

    files = list((Path(__file__).parents[2] / "dealers_chess" / "cards").glob("*.py"))
    assert len(files) >= 8
    for path in files:
        tree = ast.parse(path.read_text())
        imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        rooms = {name.split(".")[1] for name in imported if name.startswith("dealers_chess.")}
        ours = rooms & {"engine", "printing", "cli"}
        assert not ours, (path, ours)
        assert "open(" not in path.read_text() and "write_" not in path.read_text(), path


@pytest.mark.parametrize("betza", [
    "gQ", "pR", "mRcpR", "gB", "jR", "jB", "nD", "nA", "nN", "fafsF", "WyafsW", "FyafsF", "vWvyafsW",
    "ifafscW", "rfafsmF", "mafsW", "fmW3", "N0", "C0", "cpN0", "fmnDifmnA", "fceFifmnD",
])
def test_special_paths_diagram_equals_kernel(betza) -> None:
    from dealers_chess.pieces.errors import BetzaError

    try:
        movement = parse_movement(betza)
    except BetzaError:
        pytest.skip(f"{betza} is not parsed")
    diagram = diagram_of(movement)
    expected = kernel_cells(movement, diagram.radius, diagram.hurdle)
    for entry in expected.values():
        entry.setdefault("ep", False)
    shown = {s: {"move": c.move, "capture": c.capture, "ep": c.en_passant} for s, c in diagram.cells}
    assert shown == expected
