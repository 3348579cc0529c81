"""Movement diagrams: a piece's Movement turned into marked squares, lines and dots on a small grid.

`diagram_for` reads the paths (leaps, slides, lame and bent legs, hops, first-move and en passant
flags) and finds where each ends on an empty board (plus one hurdle for a hopper). `draw_diagram`
turns that into primitives; the legend card draws its samples with the same functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from math import atan2, pi

from dealers_chess.cards.primitives import BLACK, WHITE, Circle, Color, Group, Item, Poly, Rect, Style, hex_color
from dealers_chess.pieces.catalogue import PieceDef
from dealers_chess.pieces.movement import Hop, LegPath, Mode, Movement, Path

Square = tuple[int, int]
PLANE = 7  # the walk stays within 7 squares of the piece, like the engine's 15x15 probe board
MIN_RADIUS, MAX_RADIUS = 2, PLANE  # 5x5 up; every catalogue piece fits 9x9, a longer leap gets a bigger grid


class Access(Enum):
    """When a square can be used: never, only on the piece's first move, or always."""

    NEVER = 0
    FIRST = 1
    ALWAYS = 2


class StrokeKind(Enum):
    """How a line on the diagram is drawn."""

    SLIDE = "slide"  # thick line with an arrowhead to the grid edge
    LIMITED = "limited"  # thick dotted line, a slide of limited range
    PATH = "path"  # thin line: the way a lame or bent move goes


@dataclass(frozen=True, slots=True)
class Cell:
    """What a marked square means: move and capture access, and how the piece gets there."""

    move: Access = Access.NEVER
    capture: Access = Access.NEVER
    leap: bool = False  # reached by an unblockable leap
    en_passant: bool = False
    hop: bool = False  # reached only by hopping over the hurdle

    def merged(self, other: Cell) -> Cell:
        return Cell(
            max(self.move, other.move, key=lambda a: a.value),
            max(self.capture, other.capture, key=lambda a: a.value),
            self.leap or other.leap, self.en_passant or other.en_passant, self.hop or other.hop,
        )


@dataclass(frozen=True, slots=True)
class Stroke:
    """A line through grid points (in squares from the piece), drawn as its kind says."""

    points: tuple[tuple[float, float], ...]
    kind: StrokeKind


@dataclass(frozen=True, slots=True)
class Diagram:
    """Everything a movement diagram shows, in squares relative to the piece (White's view)."""

    radius: int
    cells: tuple[tuple[Square, Cell], ...]
    strokes: tuple[Stroke, ...] = ()
    waypoints: tuple[Square, ...] = ()  # squares a lame or bent move passes, which must be empty
    hurdle: Square | None = None  # the piece a hopper jumps, shown on one line
    forward: bool = False  # direction-dependent: show the forward arrow
    badges: tuple[str, ...] = ()  # named rules, explained in the rules text

    @property
    def size(self) -> int:
        return 2 * self.radius + 1

    def cell_map(self) -> dict[Square, Cell]:
        return dict(self.cells)


def diagram_for(piece: PieceDef) -> Diagram:
    """The movement diagram of a catalogue piece."""
    badges = tuple(rule_label(rule.value) for rule in sorted(piece.rules, key=lambda r: r.value))
    return diagram_of(piece.movement, badges)


def rule_label(rule_id: str) -> str:
    """'flee-when-attacked' -> 'Flee when attacked'."""
    return rule_id.replace("-", " ").capitalize()


def diagram_of(movement: Movement, badges: tuple[str, ...] = ()) -> Diagram:
    """The diagram of a Movement: marks, lines, waypoints, hurdle, forward arrow, badges."""
    radius = _radius(movement.paths)
    hurdle = _hurdle(movement.paths, radius)
    cells: dict[Square, Cell] = {}
    for path in movement.paths:
        for square in path_targets(path, hurdle):
            if _inside(square, radius):
                cells[square] = cells.get(square, Cell()).merged(_cell(path, square))
    strokes, waypoints = _strokes(movement.paths, radius, hurdle, cells)
    return Diagram(
        radius, tuple(sorted(cells.items())), strokes, waypoints, hurdle, movement.is_directional, badges
    )


def _inside(square: Square, radius: float) -> bool:
    return max(abs(square[0]), abs(square[1])) <= radius


def _cheb(vector: tuple[int, int]) -> int:
    return max(abs(vector[0]), abs(vector[1]))


def _cell(path: Path, square: Square) -> Cell:
    access = Access.FIRST if path.initial else Access.ALWAYS
    return Cell(
        move=access if Mode.MOVE in path.modes else Access.NEVER,
        capture=access if Mode.CAPTURE in path.modes else Access.NEVER,
        leap=is_leap(path),
        en_passant=Mode.EN_PASSANT in path.modes,
        hop=path.hop is not Hop.NONE,
    )


def is_leap(path: Path) -> bool:
    """A single jump that nothing can block, longer than one step."""
    leg = path.final
    return (
        len(path.legs) == 1 and leg.max_steps == 1 and not leg.lame and not leg.jump
        and path.hop is Hop.NONE and _cheb(leg.vector) > 1
    )


def _radius(paths: tuple[Path, ...]) -> int:
    reach = MIN_RADIUS
    for path in paths:
        start = _bend(path)
        if path.final.max_steps is None:
            reach = max(reach, 3, _cheb(start) + 2 * _cheb(path.final.vector))
        else:
            reach = max([reach] + [_cheb(s) for s in path_targets(path, None)])
        if path.hop is not Hop.NONE:
            reach = max(reach, 3)
    return min(reach, MAX_RADIUS)


def _bend(path: Path) -> Square:
    """Where the last leg starts when every earlier leg takes one step."""
    x = sum(leg.vector[0] for leg in path.legs[:-1])
    y = sum(leg.vector[1] for leg in path.legs[:-1])
    return (x, y)


def _hurdle(paths: tuple[Path, ...], radius: int) -> Square | None:
    """One hurdle on the hop line nearest to straight forward (ties: to the right)."""
    hops = [p for p in paths if p.hop is not Hop.NONE]
    if not hops:
        return None

    def bearing(path: Path) -> tuple[float, int]:
        dx, dy = path.final.vector
        return (abs(atan2(dx, dy)) if dx or dy else pi, -dx)

    path = min(hops, key=bearing)
    start, (dx, dy) = _bend(path), path.final.vector
    steps = 2 if _cheb(start) + 3 * _cheb((dx, dy)) <= radius else 1
    return (start[0] + steps * dx, start[1] + steps * dy)


# ----------------------------------------------------------------------------------------------
# Where a path ends on an empty board (plus the hurdle, a friendly piece): the same walk as the
# engine kernel, written against the Movement so the cards need no engine.


def _steps(leg: LegPath, origin: Square, hurdle: Square | None):
    """Successive squares along a leg; stops at the plane's edge or a blocked lame square."""
    x, y = origin
    count = 0
    while leg.max_steps is None or count < leg.max_steps:
        for ox, oy in leg.lame:
            if not _inside((x + ox, y + oy), PLANE) or (x + ox, y + oy) == hurdle:
                return
        previous = (x, y)
        x, y = x + leg.vector[0], y + leg.vector[1]
        if not _inside((x, y), PLANE):
            return
        yield (x, y), previous
        count += 1


def path_targets(path: Path, hurdle: Square | None) -> list[Square]:
    """Squares the path can end on, the board empty but for a friendly hurdle."""
    found: list[Square] = []
    _walk(path, 0, (0, 0), hurdle, found)
    return found


def _walk(path: Path, index: int, origin: Square, hurdle: Square | None, found: list[Square]) -> None:
    leg = path.legs[index]
    if index < len(path.legs) - 1:
        for square, _ in _steps(leg, origin, hurdle):
            if square == hurdle:
                return
            _walk(path, index + 1, square, hurdle, found)
        return
    if path.hop is not Hop.NONE:
        _walk_hop(path, leg, origin, hurdle, found)
        return
    for i, (square, previous) in enumerate(_steps(leg, origin, hurdle)):
        if leg.jump and any((previous[0] + jx, previous[1] + jy) != hurdle for jx, jy in leg.jump):
            continue
        if leg.skip_first and i == 0:
            continue
        if square == hurdle:
            return
        found.append(square)


def _walk_hop(path: Path, leg: LegPath, origin: Square, hurdle: Square | None, found: list[Square]) -> None:
    screened = False
    for square, _ in _steps(leg, origin, hurdle):
        if not screened:
            screened = square == hurdle
            continue
        found.append(square)
        if path.hop is Hop.GRASSHOPPER:
            return


# ----------------------------------------------------------------------------------------------
# Lines and waypoints


def _strokes(
    paths: tuple[Path, ...], radius: int, hurdle: Square | None, cells: dict[Square, Cell]
) -> tuple[tuple[Stroke, ...], tuple[Square, ...]]:
    strokes: dict[Stroke, None] = {}
    waypoints: dict[Square, None] = {}
    for path in paths:
        if path.hop is not Hop.NONE and not _on_line(path, hurdle):
            continue
        start = _bend(path)
        corners = [(0, 0)] + [_bend_after(path, i) for i in range(len(path.legs) - 1)]
        for corner in corners[1:]:
            waypoints[corner] = None
        leg = path.final
        if path.hop is Hop.GRASSHOPPER and hurdle is not None:  # lands just beyond the hurdle, no further
            end = (hurdle[0] + leg.vector[0], hurdle[1] + leg.vector[1])
            if _inside(end, radius):
                strokes[Stroke((_float(start), _float(end)), StrokeKind.LIMITED)] = None
            continue
        if len(corners) > 1 and _inside(start, radius):
            if leg.max_steps == 1 and not leg.lame:
                corners.append((start[0] + leg.vector[0], start[1] + leg.vector[1]))
            strokes[Stroke(tuple(map(_float, corners)), StrokeKind.PATH)] = None
        if leg.max_steps is None:
            strokes[Stroke((_float(start), _edge(start, leg.vector, radius)), StrokeKind.SLIDE)] = None
        elif leg.max_steps > 1:
            end = _last_inside(start, leg.vector, leg.max_steps, radius)
            if end != start:
                strokes[Stroke((_float(start), _float(end)), StrokeKind.LIMITED)] = None
        elif leg.lame:
            points = [start] + [(start[0] + ox, start[1] + oy) for ox, oy in leg.lame]
            target = (start[0] + leg.vector[0], start[1] + leg.vector[1])
            waypoints.update(dict.fromkeys(points[1:]))
            if _inside(target, radius):
                strokes[Stroke(tuple(map(_float, points + [target])), StrokeKind.PATH)] = None
    shown = tuple(w for w in waypoints if _inside(w, radius) and w not in cells and w != hurdle and w != (0, 0))
    return tuple(strokes), shown


def _on_line(path: Path, hurdle: Square | None) -> bool:
    return hurdle is not None and hurdle in [
        square for square, _ in _steps(path.final, _bend(path), None)
    ]


def _bend_after(path: Path, index: int) -> Square:
    x = sum(leg.vector[0] for leg in path.legs[: index + 1])
    y = sum(leg.vector[1] for leg in path.legs[: index + 1])
    return (x, y)


def _float(square: Square) -> tuple[float, float]:
    return (float(square[0]), float(square[1]))


def _last_inside(start: Square, vector: tuple[int, int], steps: int, radius: int) -> Square:
    point = start
    for _ in range(steps):
        following = (point[0] + vector[0], point[1] + vector[1])
        if not _inside(following, radius):
            break
        point = following
    return point


def _edge(start: Square, vector: tuple[int, int], radius: int) -> tuple[float, float]:
    """Where a line from start along vector reaches the grid edge (just inside it)."""
    limit = radius + 0.48
    t = min(
        (limit - start[i] * (1 if v > 0 else -1)) / abs(v) for i, v in enumerate(vector) if v
    )
    return (start[0] + t * vector[0], start[1] + t * vector[1])


# ----------------------------------------------------------------------------------------------
# Drawing


class Fill(Enum):
    """Square colours of the Interactive Diagram (chessvariants.com), which variant players know."""

    MOVE_OR_CAPTURE = "#FFFF00"
    LEAP = "#FFC000"
    MOVE_ONLY = "#00FF00"
    FIRST_MOVE = "#00C000"
    CAPTURE_ONLY = "#FF0000"
    HOP = "#C0C0C0"

    @property
    def color(self) -> Color:
        return hex_color(self.value)


LIGHT, DARK = (1.0, 1.0, 1.0), (0.88, 0.88, 0.88)
GRID_LINE = Style(None, (0.45, 0.45, 0.45), 0.5)
INK: Color = (0.08, 0.08, 0.08)


def cell_fill(cell: Cell) -> Fill:
    """The background colour of a marked square."""
    if cell.hop:
        return Fill.HOP
    if cell.move is not Access.NEVER and cell.capture is not Access.NEVER:
        return Fill.LEAP if cell.leap else Fill.MOVE_OR_CAPTURE
    if cell.move is not Access.NEVER:
        return Fill.FIRST_MOVE if cell.move is Access.FIRST else Fill.MOVE_ONLY
    return Fill.CAPTURE_ONLY


def draw_diagram(diagram: Diagram, size_pt: float) -> Group:
    """The diagram as a square group size_pt wide, origin at its bottom-left corner."""
    n, c = diagram.size, size_pt / diagram.size
    cells = diagram.cell_map()
    items: list[Item] = []
    for row in range(n):
        for col in range(n):
            square = (col - diagram.radius, row - diagram.radius)
            cell = cells.get(square)
            color = cell_fill(cell).color if cell else (LIGHT if (row + col) % 2 else DARK)
            items.append(Rect(col * c, row * c, c, c, Style(color, None)))
    items.append(grid_lines(n, c))
    centre = lambda s: ((s[0] + diagram.radius + 0.5) * c, (s[1] + diagram.radius + 0.5) * c)  # noqa: E731
    for stroke in sorted(diagram.strokes, key=lambda s: s.kind is not StrokeKind.PATH):
        items.extend(draw_stroke([centre(p) for p in _clear_of_piece(stroke.points)], stroke.kind, c))
    for waypoint in diagram.waypoints:
        items.append(Circle(*centre(waypoint), 0.11 * c, Style(INK, None)))
    if diagram.hurdle is not None:
        items.append(hurdle_mark(*centre(diagram.hurdle), c))
    for square, cell in diagram.cells:
        items.append(cell_mark(cell, *centre(square), c))
    items.append(piece_mark(*centre((0, 0)), c))
    return Group(tuple(items))


def _clear_of_piece(points: tuple[tuple[float, float], ...]) -> tuple[tuple[float, float], ...]:
    """Start a line from the piece a little way out, so lines do not pile up on its picture."""
    (x0, y0), (x1, y1) = points[0], points[1]
    if (x0, y0) != (0.0, 0.0):
        return points
    length = max(abs(x1), abs(y1))
    gap = 0.34 / length
    return ((x1 * gap, y1 * gap),) + points[1:]


def grid_lines(n: int, c: float) -> Group:
    """The grid's lines and frame, drawn once per grid size and reused."""
    size = n * c
    lines: list[Item] = [Poly(((i * c, 0), (i * c, size)), GRID_LINE) for i in range(1, n)]
    lines += [Poly(((0, i * c), (size, i * c)), GRID_LINE) for i in range(1, n)]
    lines.append(Rect(0, 0, size, size, Style(None, INK, 0.8)))
    return Group(tuple(lines), key=f"grid-{n}-{size:.2f}")


def draw_stroke(points: list[tuple[float, float]], kind: StrokeKind, c: float) -> list[Item]:
    """A slide, limited slide or path line through points (in points)."""
    if kind is StrokeKind.PATH:
        return [Poly(tuple(points), Style(None, INK, max(0.6, c * 0.05), round_caps=True))]
    width = max(1.0, c * 0.1)
    if kind is StrokeKind.LIMITED:
        return [Poly(tuple(points), Style(None, INK, width, dash_pt=(0.01, width * 2.2), round_caps=True))]
    (x0, y0), (x1, y1) = points[0], points[-1]
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5 or 1.0
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = c * 0.26
    base = (x1 - ux * head, y1 - uy * head)
    wing = (-uy * head * 0.5, ux * head * 0.5)
    arrow = ((x1, y1), (base[0] + wing[0], base[1] + wing[1]), (base[0] - wing[0], base[1] - wing[1]))
    return [Poly(((x0, y0), base), Style(None, INK, width)), Poly(arrow, Style(INK, None), closed=True)]


def cell_mark(cell: Cell, x: float, y: float, c: float) -> Group:
    """The black shape on a marked square: disc/diamond filled, hollow or crossed, plus flags."""
    r = 0.27 * c
    shape = _diamond(x, y, r * 1.3) if cell.leap else None
    moves, captures = cell.move is not Access.NEVER, cell.capture is not Access.NEVER
    items: list[Item] = []
    if moves and captures:
        items.append(Poly(shape, Style(INK, None), closed=True) if shape else Circle(x, y, r, Style(INK, None)))
    elif moves:
        hollow = Style(WHITE, INK, max(0.9, c * 0.08))
        items.append(Poly(shape, hollow, closed=True) if shape else Circle(x, y, r, hollow))
    else:
        if shape:
            items.append(Poly(shape, Style(WHITE, INK, max(0.7, c * 0.06)), closed=True))
        arm, width = r * (0.62 if shape else 0.78), max(1.0, c * 0.1)
        for colour, stroke in ((WHITE, width * 2.2), (INK, width)):  # a white halo keeps it clear on red in grey
            items.append(Poly(((x - arm, y - arm), (x + arm, y + arm)), Style(None, colour, stroke)))
            items.append(Poly(((x - arm, y + arm), (x + arm, y - arm)), Style(None, colour, stroke)))
    if Access.FIRST in (cell.move, cell.capture):
        items.append(first_move_glyph(x + 0.37 * c, y + 0.44 * c, c))
    if cell.en_passant:
        items.append(en_passant_glyph(x, y - 0.5 * c, c))
    return Group(tuple(items))


def _diamond(x: float, y: float, r: float) -> tuple[tuple[float, float], ...]:
    return ((x, y + r), (x + r, y), (x, y - r), (x - r, y))


def first_move_glyph(x: float, y: float, c: float) -> Group:
    """A small 'i' (first move only) drawn as shapes, its stem centred on x, top at y."""
    w = max(1.0, c * 0.1)
    return Group((
        Rect(x - w / 2, y - 0.5 * c, w, 0.3 * c, Style(INK, None)),
        Circle(x, y - 0.1 * c, w * 0.7, Style(INK, None)),
    ))


def en_passant_glyph(x: float, y: float, c: float) -> Poly:
    """A small triangle on the square's lower edge pointing at the pawn taken en passant."""
    h = 0.2 * c
    return Poly(((x - h, y + h * 0.9), (x + h, y + h * 0.9), (x, y - h * 0.2)), Style(INK, WHITE, 0.4), closed=True)


def hurdle_mark(x: float, y: float, c: float) -> Group:
    """The hurdle: a grey piece on a grey square that a hopper must jump over."""
    return Group((
        Rect(x - c / 2, y - c / 2, c, c, Style(Fill.HOP.color, None)),
        piece_mark(x, y, c, fill=(0.55, 0.55, 0.55)),
    ))


def piece_mark(x: float, y: float, c: float, fill: Color = BLACK) -> Group:
    """A small chess-piece silhouette: the piece whose moves are shown (or a hurdle)."""
    s = c * 0.95
    body = (
        (x - 0.34 * s, y - 0.4 * s), (x + 0.34 * s, y - 0.4 * s), (x + 0.34 * s, y - 0.28 * s),
        (x + 0.16 * s, y - 0.22 * s), (x + 0.1 * s, y + 0.08 * s), (x - 0.1 * s, y + 0.08 * s),
        (x - 0.16 * s, y - 0.22 * s), (x - 0.34 * s, y - 0.28 * s),
    )
    style = Style(fill, WHITE, 0.4)
    return Group((Poly(body, style, closed=True), Circle(x, y + 0.2 * s, 0.17 * s, style)))


def forward_arrow(x: float, y: float, height: float) -> Group:
    """A vertical arrow pointing forward (up), bottom at (x, y)."""
    head = min(height * 0.35, 7.0)
    return Group((
        Poly(((x, y), (x, y + height - head)), Style(None, INK, 1.4)),
        Poly(((x, y + height), (x - head * 0.55, y + height - head), (x + head * 0.55, y + height - head)),
             Style(INK, None), closed=True),
    ))


def rule_badge(x: float, y: float, r: float) -> Group:
    """The rule badge: a black disc with a white '!', pointing to the rules text."""
    return Group((
        Circle(x, y, r, Style(INK, None)),
        Rect(x - r * 0.13, y - r * 0.12, r * 0.26, r * 0.68, Style(WHITE, None)),
        Circle(x, y - r * 0.45, r * 0.15, Style(WHITE, None)),
    ))
