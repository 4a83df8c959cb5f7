"""From lattice positions to the cells of the text notation, once the way up is known.

A square board is laid out as it is read: rows down the page, columns across, the
first row and column holding a cell numbered 0.

A hexagonal board must become the notation's odd-r layout: pointy-top cells in rows,
odd rows drawn half a cell to the right (``engine.board``).  Its rows follow one of the
lattice's six neighbour directions; which one is a choice (every choice is the same
board, turned by a multiple of 60°).  The one taken is the most compact (fewest holes
in its rows × columns), and among those the nearest to the reading's own left-to-right,
so a pointy-top board reads as printed and a flat-top one is turned a quarter (a
rectangle of flat-top cells is a rectangle of pointy-top ones turned).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from engine import Cell

from .cutting import up_vector
from .lattice import HEX_STEPS, Kind, Position, plane


def layout(kind: Kind, positions: Iterable[Position], rotation: int) -> dict[Position, Cell]:
    """Each position's cell (row, column) in the notation, read at ``rotation``."""
    positions = list(positions)
    if kind == "square":
        return _square(positions, rotation)
    return _hex(positions, rotation)


def _square(positions: list[Position], rotation: int) -> dict[Position, Cell]:
    up = np.round(up_vector("square", rotation)).astype(int)
    down = -up
    right = np.array([-up[1], up[0]])
    rows = {p: int(down[0] * p[0] + down[1] * p[1]) for p in positions}
    cols = {p: int(right[0] * p[0] + right[1] * p[1]) for p in positions}
    top, left = min(rows.values()), min(cols.values())
    return {p: (rows[p] - top, cols[p] - left) for p in positions}


def hex_choices(positions: list[Position], rotation: int) -> list[tuple[int, float, dict[Position, Cell]]]:
    """Every way to lay a hex board out in rows: (holes, degrees from the reading's
    left-to-right, the layout)."""
    up = up_vector("hex", rotation)
    right = np.array([-up[1], up[0]])
    choices = []
    for i, first in enumerate(HEX_STEPS):
        second = HEX_STEPS[(i + 1) % 6]  # 60° further round: down and to the right of ``first``
        along = plane("hex", np.array([first]))[0]
        angle = math.degrees(math.acos(float(np.clip(along @ right, -1.0, 1.0))))
        cells = _rows_along(positions, first, second)
        rows = max(r for r, _ in cells.values()) + 1
        cols = max(c for _, c in cells.values()) + 1
        choices.append((rows * cols - len(positions), angle, cells))
    return choices


def _hex(positions: list[Position], rotation: int) -> dict[Position, Cell]:
    choices = hex_choices(positions, rotation)
    fewest = min(holes for holes, _, _ in choices)
    # Nearly as compact (a tenth of the board more holes at most) and nearer the reading's direction wins.
    allowed = fewest + max(1, len(positions) // 10)
    return min((c for c in choices if c[0] <= allowed), key=lambda c: (round(c[1]), c[0]))[2]


def _rows_along(positions: list[Position], first: Position, second: Position) -> dict[Position, Cell]:
    """The odd-r layout whose rows run along the step ``first`` (the next cell to the
    right) with ``second`` the step down to the right."""
    # position = alpha·first + beta·second: two integer equations (the steps are a basis).
    det = first[0] * second[1] - first[1] * second[0]
    coords = {}
    for a, b in positions:
        alpha = (a * second[1] - b * second[0]) // det
        beta = (first[0] * b - first[1] * a) // det
        coords[(a, b)] = (alpha, beta)
    top = min(beta for _, beta in coords.values())
    # Twice the horizontal place, in half cells; odd rows of the layout sit half a cell right.
    halves = {p: 2 * alpha + beta - ((beta - top) & 1) for p, (alpha, beta) in coords.items()}
    left = min(halves.values())
    return {p: (coords[p][1] - top, (halves[p] - left) // 2) for p in positions}
