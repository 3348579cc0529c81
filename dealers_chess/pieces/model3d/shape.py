"""The shape language of 3D pieces: what a piece's group, movement and named rules show from the side.

The one place that maps movement to shape: riders choose the head (tower, mitre, coronet), (1,2)
leaps a horse head, other leaps collars on the stem by distance, named rules rings at the foot,
royals a crown with a cue for their move. A catalogue `shape` list overrides the head.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import Enum

from dealers_chess.pieces.catalogue import Group, PieceDef, Rule, ShapeFeature
from dealers_chess.pieces.movement import Mode, Movement, Path


class Rim(Enum):
    """What stands on the rim of the top face."""

    PLAIN = "plain"
    TOWER = "tower"  # crenellations: orthogonal riders
    CORONET = "coronet"  # a ring of small points: queen-like riders
    CROWN = "crown"  # royals
    BAND = "band"  # a plain ring: one named rule
    POINTS = "points"  # a ring of low points: a promotion rule
    BATTLEMENT = "battlement"  # a low crenellated ring: two or more named rules


class Angle(Enum):
    """The direction class of a leap or slide."""

    ORTHOGONAL = "orthogonal"
    DIAGONAL = "diagonal"
    OBLIQUE = "oblique"


class Modality(Enum):
    """What a leap may do where it lands: a collar sits lower for move-only, higher for capture-only."""

    MOVE = "move"
    BOTH = "both"
    CAPTURE = "capture"


PROMOTION_RULES = frozenset({Rule.PROMOTES_ON_PAWN_ROW, Rule.PROMOTES_TO_CAPTURED, Rule.PROMOTES,
                             Rule.DOUBLE_STEP_TO_PROMOTE, Rule.NO_PROMOTION})
KNIGHT_LEAP = (1, 2)
FOUR_FINS = ((-1, -2), (-1, 2), (1, -2), (1, 2))
STEP_CORNER = 0.8  # how far a stem's corner for a single step reaches, as a share of a longer leap's
COLLAR_DISTANCES = (1, 2, 3)  # leaps of distance 1, 2 and 3 or more each have their collar place
# where a named rule's ring sits on the lower stem (0 = its bottom, 1 = its top), so rules differ from the side
RULE_RING_AT: dict[Rule, float] = {
    Rule.PUSH: 0.10, Rule.CONVERT_CAPTOR: 0.16, Rule.FLEE_WHEN_ATTACKED: 0.22, Rule.DOUBLE_STEP_TO_PROMOTE: 0.28,
    Rule.PROMOTES_ON_PAWN_ROW: 0.10, Rule.PROMOTES_TO_CAPTURED: 0.16, Rule.PROMOTES: 0.22, Rule.NO_PROMOTION: 0.28,
    Rule.NO_EN_PASSANT: 0.10, Rule.UNCAPTURABLE: 0.16, Rule.IMMOBILIZE: 0.22, Rule.TELEPORT: 0.28,
    Rule.DAZZLE: 0.10, Rule.CAPTURE_POWERS_BY_RANK: 0.22,
}
# how much lower (in squares) the top face sits under a tall head, so the whole piece keeps Staunton's proportions
TOP_OFFSET_SQUARES = {"horse": -0.45, "mitre": -0.12, "tower": -0.15, "coronet": 0.12, "royal_horse": -0.24}
# a piece stands taller the farther its longest leap reaches: per square of its length beyond 2
REACH_STEP_SQUARES = 0.05
LONGEST_REACH = 5.0  # reaches beyond 5 squares stand as tall as 5
MAX_REACH_OFFSET = REACH_STEP_SQUARES * (LONGEST_REACH - 2)
WAIST_SHARE, WAIST_STEP, WAIST_STEPS = 0.34, 0.05, 5  # the stem's waist grows with the number of leaps and slides


@dataclass(frozen=True, slots=True)
class ShapeSpec:
    """Everything the side view of a piece shows besides its group's size."""

    rim: Rim
    horse: bool = False  # a horse head on the top face
    mitre: bool = False  # a mitre with a cut (on the horse's poll when both)
    ball: bool = False  # the queen's ball inside the coronet
    cross: bool = False  # the king's cross inside the crown
    fins: bool = False  # knight fins on the upper stem
    # where the fins point: the knight leaps, four for a full knight
    fin_vectors: tuple[tuple[int, int], ...] = FOUR_FINS
    # by distance 1, 2, 3+
    collars: tuple[frozenset[tuple[Angle, Modality]], ...] = (frozenset(), frozenset(), frozenset())
    rule_rings: tuple[float, ...] = ()  # positions of the named rules' rings
    # a directional piece's compass directions, with what it may do there
    ribs: tuple[tuple[tuple[int, int], Modality], ...] = ()
    thick: bool = False  # a tower's straight, thick stem
    plinth: bool = False  # a pawn that may step back stands on a tall foot
    # a leaper's stem's corners (degrees, reach): where its leaps go; () = round
    corners: tuple[tuple[float, float], ...] = ()
    # the lower and upper stem's corners (_stem_parts)
    corners_by_mode: tuple[tuple[tuple[float, float], ...], ...] = ((), ())
    top_offset_squares: float = 0.0
    waist_share: float = WAIST_SHARE + 2 * WAIST_STEP  # the stem's waist radius as a share of the base radius


def angle_of(vector: tuple[int, int]) -> Angle:
    """Orthogonal, diagonal or oblique."""
    dx, dy = abs(vector[0]), abs(vector[1])
    if dx == 0 or dy == 0:
        return Angle.ORTHOGONAL
    return Angle.DIAGONAL if dx == dy else Angle.OBLIQUE


def _leap(path: Path) -> tuple[int, int] | None:
    """A one-leg leap or step as (short, long), None for slides and bent moves."""
    if len(path.legs) != 1 or path.final.max_steps != 1:
        return None
    dx, dy = sorted((abs(path.final.vector[0]), abs(path.final.vector[1])))
    return (dx, dy)


def _rider_angles(movement: Movement) -> set[Angle]:
    """The direction classes of every unlimited slide (plain, hopping or bent: the last leg's)."""
    return {angle_of(p.final.vector) for p in movement.paths if p.final.max_steps is None}


def modality_of(path: Path) -> Modality:
    """Move only, capture only, or both."""
    moves = Mode.MOVE in path.modes
    captures = bool(path.modes & {Mode.CAPTURE, Mode.EN_PASSANT})
    return Modality.BOTH if moves and captures else Modality.MOVE if moves else Modality.CAPTURE


def _collars(movement: Movement, horse_shown: bool) -> tuple[frozenset[tuple[Angle, Modality]], ...]:
    """The direction classes and modalities of the leaps (and a limited slide's stops) at each collar
    distance; a (1,2) leap shown by the horse or the fins has no collar."""
    places: list[set[tuple[Angle, Modality]]] = [set() for _ in COLLAR_DISTANCES]
    for path in movement.paths:
        leap, modality = _leap(path), modality_of(path)
        if leap is not None and not (leap == KNIGHT_LEAP and horse_shown):
            places[min(leap[1], len(COLLAR_DISTANCES)) - 1].add((angle_of(leap), modality))
        elif len(path.legs) == 1 and path.final.max_steps not in (1, None):
            for steps in range(1, min(path.final.max_steps, len(COLLAR_DISTANCES)) + 1):
                places[steps - 1].add((angle_of(path.final.vector), modality))
    return tuple(frozenset(_merged(p)) for p in places)


def _merged(kinds: set[tuple[Angle, Modality]]) -> set[tuple[Angle, Modality]]:
    """A direction class that may move and capture (by different leaps) counts as both."""
    return {(angle, _together({m for a, m in kinds if a is angle})) for angle in {a for a, _ in kinds}}


def _together(modes: set[Modality]) -> Modality:
    """What several moves one way allow together: their one modality, or both when they differ."""
    return next(iter(modes)) if len(modes) == 1 else Modality.BOTH


def shape_of(piece: PieceDef) -> ShapeSpec:
    """The piece's shape: derived from group, movement and rules, the head overridden by its `shape` key."""
    movement = piece.movement
    riders = _rider_angles(movement)
    leaps = {_leap(p) for p in movement.paths} - {None}
    knight = KNIGHT_LEAP in leaps or Angle.OBLIQUE in riders or any(_bent_knight(p) for p in movement.paths)
    orthogonal, diagonal = Angle.ORTHOGONAL in riders, Angle.DIAGONAL in riders
    features = set(piece.shape) if piece.shape else _derived_head(piece.group, orthogonal, diagonal, knight, leaps)
    royal = piece.group is Group.ROYAL
    rim = (Rim.CROWN if royal else Rim.CORONET if ShapeFeature.CORONET in features
           else Rim.TOWER if ShapeFeature.TOWER in features else _rule_rim(piece.rules))
    horse = ShapeFeature.HORSE in features
    fins = ShapeFeature.FINS in features or (Angle.OBLIQUE in riders and horse)
    return ShapeSpec(
        rim=rim, horse=horse, mitre=ShapeFeature.MITRE in features, ball=rim is Rim.CORONET,
        cross=ShapeFeature.CROSS in features and royal, fins=fins, fin_vectors=_fin_vectors(movement),
        collars=_collars(movement, horse or fins),
        rule_rings=tuple(sorted({RULE_RING_AT[rule] for rule in piece.rules})),
        ribs=_ribs(movement), thick=rim is Rim.TOWER, plinth=piece.group is Group.PAWN and _retreats(movement),
        corners=_corners(movement), corners_by_mode=_stem_parts(movement),
        top_offset_squares=_top_offset(royal, rim, horse, ShapeFeature.MITRE in features) + _reach_offset(movement),
        waist_share=WAIST_SHARE + WAIST_STEP * min(WAIST_STEPS, _kinds_of_move(movement)),
    )


def _rule_rim(rules: frozenset[Rule]) -> Rim:
    """The rim that marks named rules: a band for one, points for a promotion rule, a battlement for several."""
    if not rules:
        return Rim.PLAIN
    if len(rules) > 1:
        return Rim.BATTLEMENT
    return Rim.POINTS if rules <= PROMOTION_RULES else Rim.BAND


def _kinds_of_move(movement: Movement) -> int:
    """How many kinds of move: distinct leaps (with their modality), and slides by fours of paths."""
    leaps = {(_leap(path), modality_of(path)) for path in movement.paths if _leap(path) is not None}
    slides = {(path.legs, modality_of(path)) for path in movement.paths if _leap(path) is None}
    return len(leaps) + (len(slides) + 3) // 4


def _reach_offset(movement: Movement) -> float:
    """How much taller than its group's height the farthest leap makes a piece: by the leap's length
    (a Giraffe's 4.1 squares over a Zebra's 3.6), shorter for single steps."""
    lengths = [math.hypot(*leap) for leap in map(_leap, movement.paths) if leap is not None]
    lengths += [math.hypot(*path.final.vector) * path.final.max_steps for path in movement.paths
                if len(path.legs) == 1 and path.final.max_steps not in (1, None)]
    if not lengths:
        return 0.0
    return REACH_STEP_SQUARES * (min(max(lengths), LONGEST_REACH) - 2)


def without_horse(spec: ShapeSpec, royal: bool) -> ShapeSpec:
    """The shape with knight fins instead of a horse head (where the diagram leaves no room for one)."""
    return replace(spec, horse=False, fins=True, top_offset_squares=_top_offset(royal, spec.rim, False, spec.mitre))


def _bent_knight(path: Path) -> tuple[int, int] | None:
    """Where a move of two or more single steps lands, when that is a knight's square (Patient Pawn)."""
    if len(path.legs) < 2 or any(leg.max_steps != 1 for leg in path.legs):
        return None
    landing = (sum(leg.vector[0] for leg in path.legs), sum(leg.vector[1] for leg in path.legs))
    return landing if tuple(sorted(map(abs, landing))) == KNIGHT_LEAP else None


def _fin_vectors(movement: Movement) -> tuple[tuple[int, int], ...]:
    """The directions of the (1,2) leaps, of bent steps landing on knight squares and of oblique slides;
    the four usual fins when they go every way."""
    vectors = {p.final.vector for p in movement.paths
               if _leap(p) == KNIGHT_LEAP or (p.final.max_steps is None and angle_of(p.final.vector) is Angle.OBLIQUE)}
    vectors |= {landing for p in movement.paths if (landing := _bent_knight(p))}
    if not vectors or {(-dy, dx) for dx, dy in vectors} == vectors:
        return FOUR_FINS
    return tuple(sorted(vectors))


def _corners(movement: Movement, mode: Mode | None = None, steps_only: bool = False) -> tuple[tuple[float, float], ...]:
    """The stem's corners as (degrees, reach): the directions of a leaper's one-leg leaps and limited
    slides, with their mirror images and quarter turns (not first-move-only ones; only those that may
    move, or capture, when a mode is given; only single steps with steps_only). A single step reaches
    STEP_CORNER of the way, a longer move all of it: W gives a small square stem, F a small diamond,
    K an octagon, D a full square, N eight corners at the knight's angles, WA an octagon with long
    diagonal corners."""
    reach: dict[float, float] = {}
    for path in movement.paths:
        if len(path.legs) != 1 or path.final.max_steps is None or path.initial:
            continue
        if mode is not None and mode not in path.modes:
            continue
        dx, dy = path.final.vector
        step = max(abs(dx), abs(dy)) == 1 and path.final.max_steps == 1
        if steps_only and not step:
            continue
        far = STEP_CORNER if step else 1.0
        for x, y in ((dx, dy), (dy, dx)):
            for sx in (1, -1):
                for sy in (1, -1):
                    angle = round(math.degrees(math.atan2(sy * y, sx * x)) % 360.0, 6)
                    reach[angle] = max(far, reach.get(angle, 0.0))
    return tuple(sorted(reach.items()))


def _stem_parts(movement: Movement) -> tuple[tuple[tuple[float, float], ...], ...]:
    """The corners of the lower and the upper stem: a leaper that moves one way and captures another shows
    its moves below and its captures above; else, when it also leaps farther, its single steps below and
    all its moves above."""
    moves, captures = _corners(movement, Mode.MOVE), _corners(movement, Mode.CAPTURE)
    if moves != captures:
        return moves, captures
    steps = _corners(movement, steps_only=True)
    return (steps, moves) if steps and steps != moves else (moves, captures)


def _retreats(movement: Movement) -> bool:
    """Whether some move or capture ends behind the square it starts from."""
    return any(sum(leg.vector[1] for leg in path.legs) < 0 for path in movement.paths)


def _ribs(movement: Movement) -> tuple[tuple[tuple[int, int], Modality], ...]:
    """The compass directions a piece moves in, each with whether it also captures that way (a rib low on
    the stem for a way it only moves, all the way up for both; a way it only captures has no rib, the
    upper stem's corners show it), when they are not the same after a quarter turn (pawns, the Ship);
    none for pieces that move alike in all four directions."""
    kinds: dict[tuple[int, int], set[Modality]] = {}
    for path in movement.paths:
        for leg in path.legs:
            direction = ((leg.vector[0] > 0) - (leg.vector[0] < 0), (leg.vector[1] > 0) - (leg.vector[1] < 0))
            kinds.setdefault(direction, set()).add(modality_of(path))
    ribs = {direction: _together(modes) for direction, modes in kinds.items()
            if _together(modes) is not Modality.CAPTURE}
    if {(-dy, dx): modality for (dx, dy), modality in ribs.items()} == ribs:
        return ()
    return tuple(sorted(ribs.items()))


def _derived_head(group: Group, orthogonal: bool, diagonal: bool, knight: bool, leaps: set) -> set[ShapeFeature]:
    """The head features a movement asks for."""
    features: set[ShapeFeature] = set()
    if group is Group.ROYAL:
        diagonal = diagonal or any(short == long > 1 for short, long in leaps)
        if knight:
            return {ShapeFeature.HORSE}
        return {ShapeFeature.MITRE} if diagonal and not orthogonal else {ShapeFeature.CROSS}
    if orthogonal and diagonal:
        features.add(ShapeFeature.CORONET)
    elif orthogonal:
        features.add(ShapeFeature.TOWER)
    elif diagonal:
        features.add(ShapeFeature.MITRE)
    if knight and group is not Group.PAWN:
        features.add(ShapeFeature.HORSE)
    elif knight:
        features.add(ShapeFeature.FINS)
    return features


def _top_offset(royal: bool, rim: Rim, horse: bool, mitre: bool) -> float:
    """How far the top face moves from its group's height to make room for a tall head."""
    if horse:
        return TOP_OFFSET_SQUARES["royal_horse" if royal else "horse"]
    if royal:
        return 0.0
    if mitre:
        return TOP_OFFSET_SQUARES["mitre"]
    if rim is Rim.TOWER:
        return TOP_OFFSET_SQUARES["tower"]
    return TOP_OFFSET_SQUARES["coronet"] if rim is Rim.CORONET else 0.0


__all__ = ["Angle", "Rim", "ShapeSpec", "angle_of", "shape_of", "without_horse"]
