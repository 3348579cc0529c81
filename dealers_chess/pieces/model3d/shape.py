"""The shape language of 3D pieces: what a piece's group, movement and named rules show from the side.

The side tells the families apart, the top diagram tells the pieces of a family apart. Silhouettes
are reserved: crenellations only for orthogonal riders, a mitre only for diagonal riders, a ball
only for riders both ways, a cross only for the King, a horse head for (1,2) leapers. Stems are
round: a leaper's one collar tells its leaps (its profile their direction, a notch a distance); pawns
wear a ball cut flat, their class told by their collar and foot. Named rules are pips or notches on a
plain band. A catalogue `shape` list overrides the head.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from enum import Enum

from dealers_chess.pieces.catalogue import Group, PieceDef, Rule, ShapeFeature
from dealers_chess.pieces.movement import Mode, Movement, Path


class Head(Enum):
    """The turned head under the top face."""

    PLAIN = "plain"  # a cup flaring to the top plate, a bead under the plate
    TOWER = "tower"  # a turret: orthogonal riders
    BALL = "ball"  # a ball cut flat: pawns
    LOW = "low"  # the top plate on the collar: a horse head stands on it


class Rim(Enum):
    """What stands on the rim of the top face."""

    PLAIN = "plain"
    TOWER = "tower"  # crenellations: orthogonal riders
    CORONET = "coronet"  # ten small points: riders both ways
    CROWN = "crown"  # six tall points: royals


class Finial(Enum):
    """What stands on the centre of the top face."""

    NONE = "none"
    CROSS = "cross"  # the King
    BALL = "ball"  # riders both ways, inside the coronet
    MITRE = "mitre"  # diagonal riders
    HORSE = "horse"  # (1,2) leapers


class Ring(Enum):
    """A ring of the collar band: the direction of the leaps of its distance (a ring a distance, 1 to 3+)."""

    FLAT = "flat"  # orthogonal: a flat-edged band
    ROUND = "round"  # diagonal: a round bead
    POINTED = "pointed"  # oblique: a sharp edge
    FULL = "full"  # orthogonal and diagonal: a band with a round edge, wider
    THIN = "thin"  # no leap of this distance: a thin ring keeps the count


class Mark(Enum):
    """A named rule: a plain band on the stem carrying it."""

    PIPS = "pips"  # a rule of what the piece does: a band low on the stem, a ring of pips round it
    NOTCHES = "notches"  # a rule of promotion: a band higher up, notched all round


class Angle(Enum):
    """The direction class of a leap or slide."""

    ORTHOGONAL = "orthogonal"
    DIAGONAL = "diagonal"
    OBLIQUE = "oblique"


class Modality(Enum):
    """What a move may do where it lands."""

    MOVE = "move"
    BOTH = "both"
    CAPTURE = "capture"


class PawnClass(Enum):
    """What a pawn's side tells: how it steps without capturing."""

    STRAIGHT = "straight"  # a flat collar
    DIAGONAL = "diagonal"  # a round collar
    BACK = "back"  # it may step back or sideways: a plinth (with a round collar)


PROMOTION_RULES = frozenset({Rule.PROMOTES_ON_PAWN_ROW, Rule.PROMOTES_TO_CAPTURED, Rule.PROMOTES,
                             Rule.DOUBLE_STEP_TO_PROMOTE, Rule.NO_PROMOTION})
KNIGHT_LEAP = (1, 2)
RING_DISTANCES = 3  # leaps of distance 1, 2 and 3 or more each have their ring
LONGEST_REACH = 5.0  # reaches beyond 5 squares stand as tall as 5


@dataclass(frozen=True, slots=True)
class ShapeSpec:
    """Everything the side of a piece shows besides its group's size."""

    head: Head
    rim: Rim = Rim.PLAIN
    finial: Finial = Finial.NONE
    horse_mitre: bool = False  # a small mitre on the horse's poll (Archbishop, Unicorn)
    # a ring a leap distance, bottom up (1 to 3): the one collar wears the farthest's profile and a notch a
    # distance; a pawn's one ring is its class
    rings: tuple[Ring, ...] = (Ring.ROUND,)
    marks: tuple[Mark, ...] = ()  # named rules, each on its plain band
    plinth: bool = False  # a pawn that may step back or sideways stands on a taller foot
    reach: float = 0.0  # the longest leap's length in squares (a leaper's height), 0 for riders
    rider: bool = False  # slides without limit (riders stand taller)


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


def shape_of(piece: PieceDef) -> ShapeSpec:
    """The piece's shape: derived from group, movement and rules, the head overridden by its `shape` key."""
    movement = piece.movement
    riders = _rider_angles(movement)
    leaps = {_leap(p) for p in movement.paths} - {None}
    knight = KNIGHT_LEAP in leaps or Angle.OBLIQUE in riders or any(_bent_knight(p) for p in movement.paths)
    features = set(piece.shape) if piece.shape else _derived(piece.group, riders, knight, king_like(piece))
    royal, pawn = piece.group is Group.ROYAL, piece.group is Group.PAWN
    horse = ShapeFeature.HORSE in features and not pawn
    finial = _finial(features, royal, horse)
    rim = (Rim.CROWN if royal else Rim.CORONET if ShapeFeature.CORONET in features
           else Rim.TOWER if ShapeFeature.TOWER in features else Rim.PLAIN)
    head = Head.BALL if pawn else Head.LOW if horse else Head.TOWER if rim is Rim.TOWER else Head.PLAIN
    return ShapeSpec(
        head=head, rim=rim, finial=finial,
        horse_mitre=horse and ShapeFeature.MITRE in features,
        rings=_pawn_rings(movement) if pawn else _rings(movement, horse),
        marks=_marks(piece.rules),
        plinth=pawn and pawn_class(movement) is PawnClass.BACK,
        reach=0.0 if riders else _reach(movement), rider=bool(riders),
    )


def _derived(group: Group, riders: set[Angle], knight: bool, king: bool) -> set[ShapeFeature]:
    """The head features a movement asks for: riders' heads, the horse for (1,2) leaps, the King's cross."""
    orthogonal, diagonal = Angle.ORTHOGONAL in riders, Angle.DIAGONAL in riders
    features: set[ShapeFeature] = set()
    if orthogonal and diagonal:
        features.add(ShapeFeature.CORONET)
    elif orthogonal:
        features.add(ShapeFeature.TOWER)
    elif diagonal:
        features.add(ShapeFeature.MITRE)
    if knight:
        features.add(ShapeFeature.HORSE)
    if group is Group.ROYAL and king:
        features = {ShapeFeature.CROSS}  # only the royal that moves as the King wears the cross
    return features


def _finial(features: set[ShapeFeature], royal: bool, horse: bool) -> Finial:
    """What stands on the top face's centre."""
    if horse:
        return Finial.HORSE
    if royal:
        return Finial.CROSS if ShapeFeature.CROSS in features else Finial.NONE  # the crown alone
    if ShapeFeature.CORONET in features:
        return Finial.BALL
    return Finial.MITRE if ShapeFeature.MITRE in features else Finial.NONE


def king_like(piece: PieceDef) -> bool:
    """Whether a royal moves as the King does (one step any way, and nothing else): only it wears the cross."""
    leaps = {(_leap(p), modality_of(p)) for p in piece.movement.paths}
    return leaps == {((0, 1), Modality.BOTH), ((1, 1), Modality.BOTH)}


def _rings(movement: Movement, horse_shown: bool) -> tuple[Ring, ...]:
    """One ring a leap distance up to the longest (3 for 3 or more), each profiled by the directions
    of that distance's leaps (and of a limited slide's stops); a rider's one round collar; a (1,2)
    leap the horse shows has no ring."""
    places: list[set[Angle]] = [set() for _ in range(RING_DISTANCES)]
    for path in movement.paths:
        leap = _leap(path)
        if leap is not None and not (leap == KNIGHT_LEAP and horse_shown):
            places[min(leap[1], RING_DISTANCES) - 1].add(angle_of(leap))
        elif len(path.legs) == 1 and path.final.max_steps not in (1, None):
            for steps in range(1, min(path.final.max_steps, RING_DISTANCES) + 1):
                places[steps - 1].add(angle_of(path.final.vector))
    used = [index for index, place in enumerate(places) if place]
    if not used:
        return (Ring.ROUND,)  # a rider, a hopper or a bent mover: the one collar every turned piece has
    return tuple(_ring(places[index]) for index in range(used[-1] + 1))


def _ring(angles: set[Angle]) -> Ring:
    """The profile of one distance's ring."""
    if not angles:
        return Ring.THIN
    if Angle.OBLIQUE in angles:
        return Ring.POINTED
    if angles == {Angle.ORTHOGONAL, Angle.DIAGONAL}:
        return Ring.FULL
    return Ring.FLAT if Angle.ORTHOGONAL in angles else Ring.ROUND


def pawn_class(movement: Movement) -> PawnClass:
    """How a pawn steps: back or sideways at all, else diagonally without capturing, else straight."""
    if _retreats(movement):
        return PawnClass.BACK
    quiet = [p for p in movement.paths if Mode.MOVE in p.modes]
    if quiet and all(angle_of(p.legs[0].vector) is Angle.DIAGONAL for p in quiet if not p.initial):
        return PawnClass.DIAGONAL
    return PawnClass.STRAIGHT


def _pawn_rings(movement: Movement) -> tuple[Ring, ...]:
    """A pawn's one collar: flat for a straight stepper, round for a diagonal one and for one that steps back
    or sideways (on its plinth)."""
    return (Ring.FLAT,) if pawn_class(movement) is PawnClass.STRAIGHT else (Ring.ROUND,)


def _marks(rules: frozenset[Rule]) -> tuple[Mark, ...]:
    """Notches for promotion rules, pips for the others; one of each kind at most."""
    marks = []
    if rules - PROMOTION_RULES:
        marks.append(Mark.PIPS)
    if rules & PROMOTION_RULES:
        marks.append(Mark.NOTCHES)
    return tuple(marks)


def _reach(movement: Movement) -> float:
    """The longest leap's or limited slide's length in squares (at most LONGEST_REACH)."""
    lengths = [math.hypot(*leap) for leap in map(_leap, movement.paths) if leap is not None]
    lengths += [math.hypot(*path.final.vector) * path.final.max_steps for path in movement.paths
                if len(path.legs) == 1 and path.final.max_steps not in (1, None)]
    return min(max(lengths, default=1.0), LONGEST_REACH)


def without_horse(spec: ShapeSpec, movement: Movement, royal: bool) -> ShapeSpec:
    """The shape with a plain head instead of a horse (where the diagram leaves no room for the horse's neck):
    its collar counts the (1,2) leap as it counts any other."""
    finial = Finial.MITRE if spec.horse_mitre and not royal else Finial.NONE
    head = Head.TOWER if spec.rim is Rim.TOWER else Head.PLAIN
    return replace(spec, head=head, finial=finial, horse_mitre=False, rings=_rings(movement, False))


def _bent_knight(path: Path) -> tuple[int, int] | None:
    """Where a move of two or more single steps lands, when that is a knight's square (Patient Pawn)."""
    if len(path.legs) < 2 or any(leg.max_steps != 1 for leg in path.legs):
        return None
    landing = (sum(leg.vector[0] for leg in path.legs), sum(leg.vector[1] for leg in path.legs))
    return landing if tuple(sorted(map(abs, landing))) == KNIGHT_LEAP else None


def _retreats(movement: Movement) -> bool:
    """Whether some move or capture ends behind or beside the square it starts from."""
    return any(sum(leg.vector[1] for leg in path.legs) <= 0 for path in movement.paths)


__all__ = ["Angle", "Finial", "Head", "Mark", "PawnClass", "Rim", "Ring", "ShapeSpec", "angle_of", "king_like",
           "pawn_class", "shape_of", "without_horse"]
