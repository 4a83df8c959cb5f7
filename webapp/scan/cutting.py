"""Cutting cells out of the picture, straightened, turned so their digits stand upright.

A cell's crop is a square on the flat board around the cell's centre, turned by the
reading's rotation, mapped into the colour picture through the lattice (its homography
and the curl's correction there) and warped back to a small upright square: the
perspective is undone cell by cell, from the full-resolution picture, so small digits
keep their detail.  The square stays inside the cell's lines (``INSET``): a square
cell's inner 84%, a hexagon's inscribed square and a little more.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from .lattice import Lattice, Position, plane

CROP = 64  # pixels on a side of a cell's crop
INSET = {"square": 0.42, "hex": 0.41}  # half the crop's side, in cell widths


def turn_step(kind: str) -> float:
    """Degrees between two rotations a board can be read at: 90° for squares, 30° for
    hexagons (12 ways up: six with a point up, six with a side up)."""
    return 90.0 if kind == "square" else 30.0


def rotations(kind: str) -> int:
    return 4 if kind == "square" else 12


def up_vector(kind: str, rotation: int) -> np.ndarray:
    """On the flat board, which way is up for reading at ``rotation`` (0: the board's own
    -y, then turned clockwise on the picture by ``turn_step`` each)."""
    angle = math.radians(turn_step(kind) * rotation)
    # (0, -1) turned clockwise on a y-down picture by ``angle``.
    return np.array([math.sin(angle), -math.cos(angle)])


def corners(lattice: Lattice, positions: Sequence[Position], rotation: int, inset: float) -> np.ndarray:
    """Each crop's corners in the work picture, (n, 4, 2): top left, top right, bottom
    right, bottom left as read."""
    up = up_vector(lattice.kind, rotation)
    right = np.array([-up[1], up[0]])  # up turned a quarter clockwise
    offsets = np.array([(-right + up), (right + up), (right - up), (-right - up)]) * inset
    centres = plane(lattice.kind, np.array(positions, dtype=np.float64))
    return lattice.around(centres, offsets)


def cut(lattice: Lattice, colour: np.ndarray, scale: float, offset: tuple[float, float],
        positions: Sequence[Position], rotation: int, size: int = CROP, inset: float | None = None) -> list[np.ndarray]:
    """The crops of ``positions`` from the colour picture (a point of the lattice's
    picture is at ``point * scale + offset`` in it), read at ``rotation``: BGR uint8,
    ``size`` pixels square."""
    if not positions:
        return []
    inset = INSET[lattice.kind] if inset is None else inset
    quads = corners(lattice, positions, rotation, inset) * scale + np.array(offset)
    crops = []
    for quad in quads:
        # A cell much larger than the crop is warped at about its own size, then shrunk
        # by averaging: a warp alone samples and would break thin strokes.
        native = float(np.hypot(*(quad[1] - quad[0])))
        side = size if native < 2 * size else min(4 * size, round(native))
        target = np.array([(0, 0), (side, 0), (side, side), (0, side)], dtype=np.float32)
        matrix = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
        crop = cv2.warpPerspective(colour, matrix, (side, side), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
        if side != size:
            crop = cv2.resize(crop, (size, size), interpolation=cv2.INTER_AREA)
        if lattice.kind == "hex":
            crop = _inside_hexagon(crop, rotation, inset)
        crops.append(crop)
    return crops


def _inside_hexagon(crop: np.ndarray, rotation: int, inset: float) -> np.ndarray:
    """A hex cell's square crop with what lies outside the cell (its corners reach over
    the lines into the neighbours) painted the cell's own paper colour."""
    size = crop.shape[0]
    # The hexagon's corners on the flat board (pointy on the lattice's own axes: 30°, 90°...),
    # 0.9 of the way to the lines, turned into the crop's frame.
    up = up_vector("hex", rotation)
    right = np.array([-up[1], up[0]])
    radius = 0.9 / math.sqrt(3)
    corners_flat = [(math.cos(math.radians(30 + 60 * k)), math.sin(math.radians(30 + 60 * k))) for k in range(6)]
    pixels = [((np.dot(c, right) * radius / inset + 1) * size / 2, (-np.dot(c, up) * radius / inset + 1) * size / 2)
              for c in (np.array(c) for c in corners_flat)]
    mask = np.zeros(crop.shape[:2], dtype=np.uint8)
    cv2.fillPoly(mask, [np.array(pixels, dtype=np.int32)], 1)
    paper = np.median(crop[mask > 0], axis=0) if mask.any() else np.array([255, 255, 255])
    out = crop.copy()
    out[mask == 0] = paper.astype(np.uint8)
    return out
