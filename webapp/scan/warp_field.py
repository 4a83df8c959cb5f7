"""What a homography cannot follow: a sheet that curls or a page that bows, as a smooth
field of corrections over the flat board.

The found cells' centres say how far the homography misses them.  Those misses are
spread over a grid on the flat board (one node a cell): at each node, a straight-line
fit (a plane: an offset and a slope each way) to the misses of the cells nearby,
weighted by distance, so the field follows a bend across the board, turning the cells
with it, and keeps going straight past the last cells found rather than falling back.
Far from any cell found, it fades to nothing.  Between nodes the field is bilinear: any
point of the board, a cell's centre, corner or the inside of a crop, is corrected.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

REACH = 1.5  # cells: the width of the weights around a node
STEP = 1.0  # cells between nodes
BORDER = 4  # nodes beyond the cells found, on every side
RIDGE = 0.5  # keeps the slopes small where few cells lie on one side


@dataclass(frozen=True)
class WarpField:
    """Corrections (work pixels) at the nodes of a grid on the flat board."""

    origin: tuple[float, float]  # the flat board's point at node (0, 0)
    values: np.ndarray  # (rows, cols, 2)

    def at(self, points: np.ndarray) -> np.ndarray:
        """The correction at each point (n, 2) of the flat board, bilinear between nodes."""
        points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        rows, cols = self.values.shape[:2]
        gx = np.clip((points[:, 0] - self.origin[0]) / STEP, 0, cols - 1.000001)
        gy = np.clip((points[:, 1] - self.origin[1]) / STEP, 0, rows - 1.000001)
        x0, y0 = np.floor(gx).astype(int), np.floor(gy).astype(int)
        fx, fy = (gx - x0)[:, None], (gy - y0)[:, None]
        v = self.values
        return ((v[y0, x0] * (1 - fx) + v[y0, x0 + 1] * fx) * (1 - fy)
                + (v[y0 + 1, x0] * (1 - fx) + v[y0 + 1, x0 + 1] * fx) * fy)


def fit_field(where: np.ndarray, misses: np.ndarray) -> WarpField | None:
    """The field through the misses (n, 2) at the found cells' points ``where`` (n, 2, flat board)."""
    if len(where) < 6:
        return None
    low = where.min(axis=0) - BORDER * STEP
    high = where.max(axis=0) + BORDER * STEP
    xs = np.arange(low[0], high[0] + STEP, STEP)
    ys = np.arange(low[1], high[1] + STEP, STEP)
    nodes = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    values = np.zeros((len(nodes), 2))
    for start in range(0, len(nodes), 256):
        block = nodes[start:start + 256]
        offsets = where[None, :, :] - block[:, None, :]  # (b, n, 2)
        weights = np.exp(-(offsets ** 2).sum(axis=2) / (2 * REACH ** 2))  # (b, n)
        total = weights.sum(axis=1)
        # Weighted least squares of miss ≈ c + s·offset, per node: design [1, dx, dy].
        design = np.concatenate([np.ones(offsets.shape[:2] + (1,)), offsets], axis=2)  # (b, n, 3)
        normal = np.einsum("bn,bni,bnj->bij", weights, design, design)
        normal[:, 1, 1] += RIDGE
        normal[:, 2, 2] += RIDGE
        normal[:, 0, 0] += 1e-9
        right = np.einsum("bn,bni,nk->bik", weights, design, misses)  # (b, 3, 2)
        solved = np.linalg.solve(normal, right)
        # Far from every cell found, fade to nothing: the homography alone.
        values[start:start + 256] = solved[:, 0, :] * np.minimum(1.0, total)[:, None]
    return WarpField((float(xs[0]), float(ys[0])), values.reshape(len(ys), len(xs), 2))
