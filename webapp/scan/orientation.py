"""Which way up the board is read: 4 ways for a square board, 12 for a hexagonal one
(six with a point up, six with a side up).

Two questions, answered in turn on a sample of the cells with ink:

1. For a hexagonal board, which of the three families of ways a quarter-turn apart
   (0°, 90°, 180°, 270° from one of 0°, 30°, 60°): the one whose numbers' ink fits the
   tightest boxes.  Text is drawn along its own lines: turned 30° off them, the box
   around a number grows by half or more, while an OCR model still reads it well enough
   to fool a score of confidences.  A square board's numbers always run along its rows.
2. Which of the four ways in that family: read by the OCR model, each way scored by
   its confident readings that are numbers of the board (1..N, all different), counted
   by their digits.  Digits read upside down also look like digits (91 and 16, 6 and
   9), but some do not (3, 4, 7) and numbers above N are out; a number read sideways
   loses digits.  The picture's own up is tried first (after its EXIF tag most pictures
   are upright) with its opposite; the two others only when those are not clearly right,
   or when the numbers' ink does not run across the crops (a quarter turn read as one
   digit of a stacked pair can look sure).

Ways that score alike are all kept: the engine decides between them (``reader``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from .cutting import rotations, up_vector
from .lattice import Lattice, Position, plane

SAMPLE = 10  # cells read for each way up tried
SURE = 0.85  # the best way's readings at least this sure on average, and far above its opposite's
CLOSE = 0.1  # ways scoring within this share of the best are kept for the engine to decide

ReadCrops = Callable[[Sequence[Position], int], list[Any]]  # (positions, rotation) → DigitReadings
CutCrops = Callable[[Sequence[Position], int], list[np.ndarray]]  # (positions, rotation) → BGR crops


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


def family(kind: str, first: int, cells: Sequence[Position], cut: CutCrops) -> list[int]:
    """The four ways up a quarter-turn apart that the numbers' ink fits tightest, ``first``'s
    family nearest first: ``first``, its opposite, then the two quarter turns."""
    count = rotations(kind)
    families = count // 4  # 1 for squares, 3 for hexagons
    if families == 1:
        base = first
    else:
        boxes = [_box_size(cut(cells, k)) for k in range(families)]
        best = int(np.argmin(boxes))
        # The member of the tightest family nearest to ``first``.
        members = [best + families * j for j in range(4)]
        base = min(members, key=lambda r: min((r - first) % count, (first - r) % count))
    quarter = families
    return [base, (base + 2 * quarter) % count, (base + quarter) % count, (base + 3 * quarter) % count]


def _box_size(crops: list[np.ndarray]) -> float:
    """How large the boxes around the crops' ink are, over the ink they hold (summed logs):
    smallest when the numbers run along the crop's rows (or columns)."""
    total = 0.0
    for crop in crops:
        ink = _ink(crop)
        if ink is None:
            continue
        ys, xs = np.nonzero(ink)
        box = float((ys.max() - ys.min() + 1) * (xs.max() - xs.min() + 1))
        total += float(np.log(box / max(1, len(xs))))
    return total


def _ink(crop: np.ndarray) -> np.ndarray | None:
    """The number's ink in a crop: dark against the crop's paper, not touching its edges."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    paper = float(np.percentile(grey, 90))
    darkest = float(np.percentile(grey, 1))
    if paper - darkest < 40:
        return None
    ink = (grey < paper - 0.45 * (paper - darkest)).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    size = grey.shape[0]
    keep = np.zeros(count, dtype=bool)
    for label in range(1, count):
        x, y, w, h, area = stats[label]
        touches = x == 0 or y == 0 or x + w >= size or y + h >= size
        ring = w > 0.6 * size and h > 0.6 * size and area < 0.25 * w * h
        keep[label] = not touches and not ring and area >= 0.002 * size * size
    mask = keep[labels]
    return mask if mask.sum() >= 0.01 * size * size else None


def _runs_across(crops: list[np.ndarray]) -> bool:
    """Do the sample's numbers run across the crops (wider than tall, as numbers of two
    or three digits do when upright or upside down)?  Turned a quarter, a number's
    digits stack up and the model may read one of them surely: the two other ways are
    then worth trying.  A board of one-digit numbers never stops early (it is small)."""
    ratios = []
    for crop in crops:
        ink = _ink(crop)
        if ink is None:
            continue
        ys, xs = np.nonzero(ink)
        ratios.append((xs.max() - xs.min() + 1) / (ys.max() - ys.min() + 1))
    return bool(ratios) and float(np.median(ratios)) >= 1.0


def score(readings: Sequence[Any], most: int) -> float:
    """How believable a sample's readings are: the digits of the readings that are
    numbers of the board (1..N, each once), each counted at the reading's confidence,
    per cell of the sample."""
    if not readings:
        return 0.0
    seen: dict[int, int] = {}
    for r in readings:
        if r.value is not None:
            seen[r.value] = seen.get(r.value, 0) + 1
    total = 0.0
    for r in readings:
        if r.value is not None and 1 <= r.value <= most and seen[r.value] == 1:
            total += r.confidence * len(str(r.value))
    return total / len(readings)


def _sure(readings: Sequence[Any], most: int) -> bool:
    """Every reading a number of the board, and sure on average."""
    valid = [r for r in readings if r.value is not None and 1 <= r.value <= most]
    return len(valid) == len(readings) and float(np.mean([r.confidence for r in valid])) >= SURE


def sample(inked: Sequence[Position], ink: dict[Position, float], size: int = SAMPLE) -> list[Position]:
    """Cells to try the ways up on: those with the most ink (longer numbers tell more),
    spread over the board."""
    ranked = sorted(inked, key=lambda p: -ink[p])
    if len(ranked) <= size:
        return ranked
    # Every other of the inkiest 2×size: long numbers, not all from one corner.
    return ranked[:2 * size:2]


def choose(kind: str, first: int, cells: Sequence[Position], most: int, read: ReadCrops,
           cut: CutCrops) -> list[Tried]:
    """The ways up worth reading the whole board at, best first."""
    tried: list[Tried] = []
    for rotation in family(kind, first, cells, cut):
        readings = read(cells, rotation)
        tried.append(Tried(rotation, score(readings, most), dict(zip(cells, readings, strict=True))))
        if len(tried) == 2:
            best, other = sorted(tried, key=lambda t: -t.score)
            if _sure(list(best.readings.values()), most) and other.score < 0.5 * best.score \
                    and _runs_across(cut(cells, best.rotation)):
                break
    tried.sort(key=lambda t: -t.score)
    top = tried[0].score
    return [t for t in tried if t.score >= (1 - CLOSE) * top and t.score > 0]
