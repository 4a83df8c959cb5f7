"""Which way up the board is read: 4 ways for a square board, 12 for a hexagonal one
(six with a point up, six with a side up).

Digits read upside down also look like digits (91 and 16, 6 and 9), so confidence
alone is not enough: a way up scores by its confident readings that are numbers of
the board (1..N) and all different.  The ways are tried on a sample of the cells with
ink, the picture's own up first (after its EXIF tag, most pictures are upright) and its
opposite; the others only when neither of those is clearly right.  Ways that score
alike are all kept: the engine decides between them (``reader``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .cutting import rotations, turn_step, up_vector
from .lattice import Lattice, Position, plane

SAMPLE = 10  # cells read for each way up tried
SURE = 0.8  # a score at least this, and clearly above its opposite's: no other way is tried
CLOSE = 0.08  # scores this near the best are kept for the engine to decide

ReadCrops = Callable[[Sequence[Position], int], list[Any]]  # (positions, rotation) → DigitReadings


@dataclass(frozen=True)
class Tried:
    """One way up, tried on the sample."""

    rotation: int
    score: float
    readings: dict[Position, Any]


def picture_up(lattice: Lattice, where: Position) -> int:
    """The rotation whose up is nearest the picture's own up, at the board's ``where``."""
    centre = plane(lattice.kind, np.array([where]))[0]
    # The picture's up on the flat board: a short step up from the cell's centre, mapped back.
    here = lattice.to_image(np.array([centre]))[0]
    start, target = lattice.to_plane(np.array([here, here + [0.0, -0.25 * lattice.spacing]]))
    direction = target - start
    best, best_cos = 0, -2.0
    for rotation in range(rotations(lattice.kind)):
        up = up_vector(lattice.kind, rotation)
        cos = float(direction @ up) / max(1e-9, float(np.hypot(*direction)))
        if cos > best_cos:
            best, best_cos = rotation, cos
    return best


def order(kind: str, first: int) -> list[int]:
    """Every rotation, ``first`` and its opposite first, then by how far they turn from it."""
    count = rotations(kind)
    opposite = (first + count // 2) % count
    rest = [r for r in range(count) if r not in (first, opposite)]
    rest.sort(key=lambda r: min((r - first) % count, (first - r) % count))
    return [first, opposite, *rest]


def score(readings: Sequence[Any], most: int) -> float:
    """How believable a sample's readings are: their mean confidence, a reading outside
    1..N or the same number twice counting as nothing."""
    if not readings:
        return 0.0
    seen: dict[int, int] = {}
    for r in readings:
        if r.value is not None:
            seen[r.value] = seen.get(r.value, 0) + 1
    total = 0.0
    for r in readings:
        if r.value is None:
            continue
        if 1 <= r.value <= most and seen[r.value] == 1:
            total += r.confidence
    return total / len(readings)


def sample(inked: Sequence[Position], ink: dict[Position, float], size: int = SAMPLE) -> list[Position]:
    """Cells to try the ways up on: those with the most ink (longer numbers tell more),
    spread over the board."""
    ranked = sorted(inked, key=lambda p: -ink[p])
    if len(ranked) <= size:
        return ranked
    # Every other of the inkiest 2×size: long numbers, not all from one corner.
    return ranked[:2 * size:2]


def choose(kind: str, first: int, cells: Sequence[Position], most: int, read: ReadCrops) -> list[Tried]:
    """The ways up worth reading the whole board at, best first."""
    tried: list[Tried] = []
    for rotation in order(kind, first):
        readings = read(cells, rotation)
        tried.append(Tried(rotation, score(readings, most), dict(zip(cells, readings, strict=True))))
        if len(tried) == 2:
            best, other = sorted(tried, key=lambda t: -t.score)
            if best.score >= SURE and best.score - other.score > CLOSE:
                break
    tried.sort(key=lambda t: -t.score)
    top = tried[0].score
    return [t for t in tried if t.score >= top - CLOSE and t.score > 0]


def degrees(kind: str, rotation: int) -> float:
    return math.fmod(turn_step(kind) * rotation, 360.0)
