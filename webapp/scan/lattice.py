"""The board's lattice: which regions are cells, their integer positions, and the mapping
from the flat board to the picture.

A square board's cells sit on the integer points (a, b) of a plane; a hexagonal board's
on the points a·u + b·v with v at 60° from u (``plane``).  The picture of that plane is
found in three steps:

1. Square or hexagonal: the regions' own outlines vote (4 corners or 6), which a
   perspective cannot change; the angle between neighbours (90° or 60°) breaks a tie.
2. Positions: from a seed region in the middle of many regions of its size, the lattice
   grows to neighbour after neighbour, each step measured in the local frame of the
   cell it comes from (two vectors that drift slowly across the picture), so a strong
   perspective is followed.  Two cells merged into one region, a circle's inside, a box
   of the page's text fall between the lattice's points or off its steps and are left out.
3. The mapping: a homography fitted by RANSAC to all the cells' centres, not to four
   corners, so one badly found cell does not tilt the board; then what a homography
   cannot follow (a sheet that curls) is added as a smooth field fitted to what it
   misses (``warp_field``).  Every position can then be put in the picture, including
   cells whose region was never found (broken borders, glare).

Nearest neighbours come from a plain NumPy search in blocks: a board has at most a few
thousand regions.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from .regions import Region
from .warp_field import WarpField, fit_field

Kind = Literal["square", "hex"]
Position = tuple[int, int]  # (a, b) on the lattice

SQUARE_STEPS: tuple[Position, ...] = ((1, 0), (0, 1), (-1, 0), (0, -1))
HEX_STEPS: tuple[Position, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))  # around, in order
ROOT3_2 = math.sqrt(3) / 2
NEIGHBOURS = 10  # nearest regions looked at around each region
OFF_LATTICE = 0.3  # a neighbour further than this (in steps) from a lattice point is not on the lattice
LARGER = 1.7  # a region this many times a neighbour cell's area is no cell (a page's button)
LONGER = 1.35  # ... or this many times as elongated (its bounding box's long side over the short)


def steps(kind: Kind) -> tuple[Position, ...]:
    """The steps from a cell to its neighbours on the lattice."""
    return HEX_STEPS if kind == "hex" else SQUARE_STEPS


def plane(kind: Kind, positions: np.ndarray) -> np.ndarray:
    """Lattice positions (n, 2) as points of the flat board, one cell's width apart."""
    positions = np.asarray(positions, dtype=np.float64).reshape(-1, 2)
    if kind == "square":
        return positions.copy()
    a, b = positions[:, 0], positions[:, 1]
    return np.stack([a + 0.5 * b, ROOT3_2 * b], axis=1)


def from_plane(kind: Kind, points: np.ndarray) -> np.ndarray:
    """Points of the flat board as (fractional) lattice positions: ``plane``'s inverse."""
    points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if kind == "square":
        return points.copy()
    b = points[:, 1] / ROOT3_2
    return np.stack([points[:, 0] - 0.5 * b, b], axis=1)


@dataclass
class Lattice:
    """The board's lattice as found in the work picture."""

    kind: Kind
    homography: np.ndarray  # 3x3: plane → work pixels
    found: dict[Position, int]  # the positions where a region was found, and which region
    centres: np.ndarray  # (n, 2) the regions' centres (all regions, indexed as ``found`` says)
    spacing: float  # median distance between neighbouring cells, in work pixels
    field: WarpField | None = None  # what the homography misses (a curling sheet)

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Points of the flat board (n, 2) in the work picture (n, 2)."""
        points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        mapped = cv2.perspectiveTransform(points.reshape(-1, 1, 2), self.homography).reshape(-1, 2)
        return mapped if self.field is None else mapped + self.field.at(points)

    def around(self, centres: np.ndarray, offsets: np.ndarray) -> np.ndarray:
        """Points near each of ``centres`` (n, 2, on the flat board) at ``offsets`` (k, 2)
        from it, in the work picture: (n, k, 2)."""
        centres = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
        offsets = np.asarray(offsets, dtype=np.float64).reshape(-1, 2)
        points = centres[:, None, :] + offsets[None, :, :]
        return self.to_image(points.reshape(-1, 2)).reshape(len(centres), len(offsets), 2)

    def position_in_image(self, positions: np.ndarray) -> np.ndarray:
        """Lattice positions' centres in the work picture."""
        return self.to_image(plane(self.kind, positions))

    def to_plane(self, image_points: np.ndarray) -> np.ndarray:
        """Work-picture points on the flat board (the homography's inverse only)."""
        inverse = np.linalg.inv(self.homography)
        pts = np.asarray(image_points, dtype=np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, inverse).reshape(-1, 2)


def nearest(points: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """For each point, its k nearest other points: (indices (n, k), distances (n, k))."""
    n = len(points)
    k = min(k, n - 1)
    indices = np.zeros((n, k), dtype=np.int64)
    distances = np.zeros((n, k), dtype=np.float64)
    for start in range(0, n, 1024):
        block = points[start:start + 1024]
        d2 = ((block[:, None, :] - points[None, :, :]) ** 2).sum(axis=2)
        d2[np.arange(len(block)), np.arange(start, start + len(block))] = np.inf
        part = np.argpartition(d2, k - 1, axis=1)[:, :k] if k < n else np.argsort(d2, axis=1)[:, :k]
        chosen = np.take_along_axis(d2, part, axis=1)
        order = np.argsort(chosen, axis=1)
        indices[start:start + len(block)] = np.take_along_axis(part, order, axis=1)
        distances[start:start + len(block)] = np.sqrt(np.take_along_axis(chosen, order, axis=1))
    return indices, distances


def find_lattice(regions: Sequence[Region], kind: Kind | None = None) -> Lattice | None:
    """The lattice most regions sit on, or None when no board of cells is seen."""
    if len(regions) < 3:
        return None
    centres = np.array([(r.x, r.y) for r in regions], dtype=np.float64)
    areas = np.array([r.area for r in regions], dtype=np.float64)
    elongation = np.array([_elongation(r.outline) for r in regions], dtype=np.float64)
    near, dist = nearest(centres, NEIGHBOURS)
    alike = _alike_neighbours(areas, near, dist)
    kind = kind or _kind(regions, alike)
    best: Lattice | None = None
    for seed in _seeds(centres, alike):
        lattice = _grow(kind, seed, centres, areas, elongation, near, dist)
        if lattice is not None and (best is None or len(lattice.found) > len(best.found)):
            best = lattice
        if best is not None and len(best.found) >= 0.6 * int((alike >= 2).sum()):
            break
    return best


def _alike_neighbours(areas: np.ndarray, near: np.ndarray, dist: np.ndarray) -> np.ndarray:
    """For each region, how many of its near neighbours are of its size and at a cell's
    distance from it: many for the cells of a board, few for anything else."""
    side = np.sqrt(areas)
    ratio_area = areas[near] / areas[:, None]
    ratio_dist = dist / side[:, None]
    close = (ratio_dist > 0.8) & (ratio_dist < 1.9) & (ratio_area > 0.55) & (ratio_area < 1.8)
    return close.sum(axis=1)


def _kind(regions: Sequence[Region], alike: np.ndarray) -> Kind:
    """Square or hexagonal, by the vote of the regions that look like cells."""
    votes = {4: 0, 6: 0}
    for region, count in zip(regions, alike, strict=True):
        if count >= 2 and region.corners in votes:
            votes[region.corners] += 1
    return "hex" if votes[6] > votes[4] else "square"


def _seeds(centres: np.ndarray, alike: np.ndarray) -> list[int]:
    """Regions to grow the lattice from: those with the most neighbours like them, the
    most central first; a few, in case the first lies on something else (a table of
    text, a second grid)."""
    best = int(alike.max())
    if best < 2:
        return []
    good = np.flatnonzero(alike >= max(2, best - 1))
    middle = np.median(centres[good], axis=0)
    order = good[np.argsort(((centres[good] - middle) ** 2).sum(axis=1))]
    # The first, and a few spread out: every fifth of the rest.
    picked = [int(order[0])] + [int(i) for i in order[1::5][:3]]
    return picked


def _frame(kind: Kind, seed: int, centres: np.ndarray, near: np.ndarray, dist: np.ndarray) -> np.ndarray | None:
    """Two vectors from the seed to neighbouring cells: (u, v) with v turned +90° (square)
    or +60° (hex) from u on the picture."""
    u = centres[near[seed, 0]] - centres[seed]
    length = float(np.hypot(*u))
    if length <= 0:
        return None
    turn = math.radians(90 if kind == "square" else 60)
    guess = np.array([u[0] * math.cos(turn) - u[1] * math.sin(turn), u[0] * math.sin(turn) + u[1] * math.cos(turn)])
    # The neighbour nearest to where v should be (a perspective shortens or turns it a little).
    offsets = centres[near[seed]] - centres[seed]
    misses = np.hypot(*(offsets - guess).T)
    pick = int(np.argmin(misses))
    v = offsets[pick] if misses[pick] < 0.35 * length else guess
    return np.array([u, v])


def _elongation(outline: np.ndarray) -> float:
    """The long side of the smallest box around an outline over its short side."""
    (_, _), (w, h), _ = cv2.minAreaRect(outline.reshape(-1, 2).astype(np.float32))
    return float(max(w, h) / max(1e-6, min(w, h)))


def _like_cell(area: float, elongation: float, cell_area: float, cell_elongation: float) -> bool:
    """Whether a region is of a cell's size and shape: the buttons of a page beside the
    board are larger or longer (a cell's own inside may be smaller: a circle's)."""
    return 0.45 < area / cell_area < LARGER and elongation < LONGER * max(1.0, cell_elongation)


def _grow(kind: Kind, seed: int, centres: np.ndarray, areas: np.ndarray, elongation: np.ndarray,
          near: np.ndarray, dist: np.ndarray) -> Lattice | None:
    """The lattice grown from ``seed`` neighbour by neighbour, then fitted."""
    frame = _frame(kind, seed, centres, near, dist)
    if frame is None:
        return None
    step_set = set(steps(kind))
    at: dict[int, Position] = {seed: (0, 0)}
    taken: dict[Position, int] = {(0, 0): seed}
    frames: dict[int, np.ndarray] = {seed: frame}
    queue: list[tuple[float, int]] = [(0.0, seed)]
    while queue:
        _, i = heapq.heappop(queue)
        u, v = frames[i]
        # Lattice steps (a, b) → picture: a·u + b·v.  (For hex, (u, v) are the steps (1,0), (0,1).)
        matrix = np.stack([u, v], axis=1)
        if abs(np.linalg.det(matrix)) < 1e-6:
            continue
        inverse = np.linalg.inv(matrix)
        reach = 1.8 * max(np.hypot(*u), np.hypot(*v))
        for j, d in zip(near[i], dist[i], strict=True):
            if d > reach or not _like_cell(areas[j], elongation[j], areas[i], elongation[i]):
                continue
            offset = centres[j] - centres[i]
            ab = inverse @ offset
            step = (round(ab[0]), round(ab[1]))
            if step not in step_set or np.abs(ab - step).max() > OFF_LATTICE:
                continue
            position = (at[i][0] + step[0], at[i][1] + step[1])
            if j in at or position in taken:
                continue
            at[j] = position
            taken[position] = j
            # The frame drifts toward what this step measured: half of the miss goes to
            # the vectors the step used.
            miss = offset - (step[0] * u + step[1] * v)
            norm = step[0] ** 2 + step[1] ** 2
            frames[j] = np.array([u + 0.5 * miss * step[0] / norm, v + 0.5 * miss * step[1] / norm])
            distance = float(np.hypot(*(centres[j] - centres[seed])))
            heapq.heappush(queue, (distance, j))
    if len(at) < 4:
        return None
    return _fitted(kind, at, centres, areas, elongation)


def _fitted(kind: Kind, at: dict[int, Position], centres: np.ndarray, areas: np.ndarray,
            elongation: np.ndarray) -> Lattice | None:
    """The homography from the flat board to the found cells' centres (RANSAC), the cells
    it cannot explain dropped, the others' residuals kept; then every region that falls
    on a free position of the fitted lattice joins."""
    for _round in range(3):
        regions = np.array(list(at), dtype=np.int64)
        positions = np.array([at[int(i)] for i in regions], dtype=np.float64)
        flat = plane(kind, positions)
        spacing = _spacing(kind, at, centres)
        if len(regions) >= 4:
            homography, inliers = cv2.findHomography(flat, centres[regions], cv2.RANSAC, 0.25 * spacing)
        else:
            homography, inliers = None, None
        if homography is None or inliers is None:
            return None
        keep = inliers.ravel().astype(bool)
        at = {int(i): at[int(i)] for i, ok in zip(regions, keep, strict=True) if ok}
        lattice = Lattice(kind, homography, {p: i for i, p in at.items()}, centres, spacing)
        joined = _join(lattice, at, centres, areas, elongation)
        if not joined:
            break
        at.update(joined)
    assert homography is not None  # the first round returned otherwise
    lattice = Lattice(kind, homography, {p: i for i, p in at.items()}, centres, _spacing(kind, at, centres))
    lattice.field = _field(lattice, at, centres)
    return lattice


def _join(lattice: Lattice, at: dict[int, Position], centres: np.ndarray, areas: np.ndarray,
          elongation: np.ndarray) -> dict[int, Position]:
    """Regions not yet on the lattice that fall on a free position of it, near a cell
    already there, and are of a cell's size."""
    typical = float(np.median(areas[list(at)]))
    long = float(np.median(elongation[list(at)]))
    taken = set(at.values())
    free = [i for i in range(len(centres)) if i not in at and _like_cell(areas[i], elongation[i], typical, long)]
    if not free:
        return {}
    fractional = from_plane(lattice.kind, lattice.to_plane(centres[free]))
    rounded = np.round(fractional)
    predicted = lattice.position_in_image(rounded)
    misses = np.hypot(*(predicted - centres[free]).T)
    joined: dict[int, Position] = {}
    for i, position, miss in zip(free, rounded.astype(int), misses, strict=True):
        p = (int(position[0]), int(position[1]))
        if miss > OFF_LATTICE * lattice.spacing or p in taken:
            continue
        # Near the board (two steps at most from a cell on it): not a box of the page's text.
        if not any((p[0] + da, p[1] + db) in taken for da in range(-2, 3) for db in range(-2, 3)):
            continue
        joined[i] = p
        taken.add(p)
    return joined


def _spacing(kind: Kind, at: dict[int, Position], centres: np.ndarray) -> float:
    """The median distance between cells that are neighbours on the lattice."""
    where = {p: i for i, p in at.items()}
    gaps = []
    for p, i in where.items():
        for da, db in steps(kind)[:len(steps(kind)) // 2]:
            j = where.get((p[0] + da, p[1] + db))
            if j is not None:
                gaps.append(float(np.hypot(*(centres[j] - centres[i]))))
    return float(np.median(gaps)) if gaps else 1.0


def _field(lattice: Lattice, at: dict[int, Position], centres: np.ndarray) -> WarpField | None:
    """The field of what the homography misses at the found cells."""
    regions = list(at)
    flat = plane(lattice.kind, np.array([at[i] for i in regions], dtype=np.float64))
    mapped = cv2.perspectiveTransform(flat.reshape(-1, 1, 2), lattice.homography).reshape(-1, 2)
    return fit_field(flat, centres[regions] - mapped)
