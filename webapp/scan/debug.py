"""The intermediate pictures of a read, for ``--debug DIR``: what the reader saw.

- ``board.png``: the picture with the lattice over it: each cell's outline (green, or
  orange when doubtful), the holes (red crosses), the regions the lattice was grown
  from (dots), and the number read in each cell;
- ``ink.png``: the ink the regions were found in (the work picture's scale);
- ``straight.png``: the board straightened, cell by cell, as read (the rotation chosen);
- ``cells.png``: a contact sheet of every cell's crop with its reading and confidence;
- ``readings.json``: the readings, the puzzle in the notation, the solutions, the stages.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engine import Cell

from . import Reading
from .cutting import CROP, cut
from .finding import Found
from .image import Picture
from .lattice import Position, plane
from .regions import ink_mask

GREEN = (40, 170, 40)
ORANGE = (0, 140, 255)
RED = (40, 40, 220)
BLUE = (200, 90, 30)
SHOWN = 1600  # the long side of board.png


def write_debug(folder: Path, picture: Picture, found: Found, rotation: int, cells: list[Position],
                cell_of: dict[Position, Cell], reading: Reading) -> None:
    """Write the pictures and the JSON into ``folder`` (made if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(folder / "board.png"), _board(picture, found, reading))
    cv2.imwrite(str(folder / "ink.png"), 255 - ink_mask(found.dark) * 255)
    crops = cut(found.lattice, picture.colour, found.scale, found.offset, cells, rotation)
    by_cell = {cell_of[p]: crop for p, crop in zip(cells, crops, strict=True)}
    hex_board = found.lattice.kind == "hex"
    cv2.imwrite(str(folder / "straight.png"), _straight(by_cell, hex_board))
    cv2.imwrite(str(folder / "cells.png"), _contact_sheet(by_cell, reading))
    (folder / "readings.json").write_text(json.dumps(_summary(reading, found, rotation), indent=1))


def _board(picture: Picture, found: Found, reading: Reading) -> np.ndarray:
    """The picture, the cells' outlines, holes, regions found and readings drawn over it."""
    h, w = picture.colour.shape[:2]
    zoom = min(1.0, SHOWN / max(h, w))
    canvas = cv2.resize(picture.colour, (round(w * zoom), round(h * zoom)), interpolation=cv2.INTER_AREA)
    canvas = (canvas * 0.6 + 255 * 0.4).astype(np.uint8)  # faded, so the drawing stands out
    doubtful = set(reading.doubtful)
    size = canvas.shape[1], canvas.shape[0]
    thickness = max(1, round(min(size) / 500))
    for cell in reading.cells:
        points = np.array([(x * size[0], y * size[1]) for x, y in cell.outline], dtype=np.int32)
        colour = ORANGE if cell.cell in doubtful else GREEN
        cv2.polylines(canvas, [points], True, colour, thickness, cv2.LINE_AA)
        if cell.value is not None:
            centre = points.mean(axis=0)
            text = str(cell.value)
            scale = max(0.4, 0.5 * float(np.hypot(*(points[1] - points[0]))) / 30)
            (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
            at = (int(centre[0] - tw / 2), int(centre[1] + th / 2))
            cv2.putText(canvas, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, BLUE if cell.given else RED, thickness,
                        cv2.LINE_AA)
    lattice = found.lattice
    to_canvas = found.scale * zoom
    offset = np.array(found.offset) * zoom
    if found.shape.holes:
        holes = np.array(sorted(found.shape.holes), dtype=np.float64)
        for x, y in lattice.to_image(plane(lattice.kind, holes)) * to_canvas + offset:
            r = 0.2 * lattice.spacing * to_canvas
            cv2.line(canvas, (int(x - r), int(y - r)), (int(x + r), int(y + r)), RED, thickness)
            cv2.line(canvas, (int(x - r), int(y + r)), (int(x + r), int(y - r)), RED, thickness)
    for index in lattice.found.values():
        x, y = lattice.centres[index] * to_canvas + offset
        cv2.circle(canvas, (int(x), int(y)), max(2, thickness + 1), GREEN, -1)
    return canvas


def _straight(by_cell: dict[Cell, np.ndarray], hex_board: bool) -> np.ndarray:
    """The crops laid out as the notation's grid (odd rows half a cell right on a hex board)."""
    rows = max(r for r, _ in by_cell) + 1
    cols = max(c for _, c in by_cell) + 1
    step = CROP + 4
    width = cols * step + (step // 2 if hex_board else 0)
    canvas = np.full((rows * step, width, 3), 255, dtype=np.uint8)
    for (r, c), crop in by_cell.items():
        x = c * step + (step // 2 if hex_board and r % 2 else 0)
        canvas[r * step:r * step + CROP, x:x + CROP] = crop
    return canvas


def _contact_sheet(by_cell: dict[Cell, np.ndarray], reading: Reading) -> np.ndarray:
    """Every crop with its cell, reading and confidence under it."""
    label = 30
    per_row = 12
    readings = {c.cell: c for c in reading.cells}
    doubtful = set(reading.doubtful)
    order = sorted(by_cell)
    rows = math.ceil(len(order) / per_row)
    tile_w, tile_h = CROP * 2, CROP * 2 + label
    sheet = np.full((rows * tile_h, per_row * tile_w, 3), 255, dtype=np.uint8)
    for k, cell in enumerate(order):
        r, c = divmod(k, per_row)
        big = cv2.resize(by_cell[cell], (CROP * 2, CROP * 2), interpolation=cv2.INTER_NEAREST)
        sheet[r * tile_h:r * tile_h + CROP * 2, c * tile_w:(c + 1) * tile_w] = big
        got = readings[cell]
        text = f"{cell[0]},{cell[1]}: {'-' if got.value is None else got.value} {got.confidence:.2f}"
        colour = RED if cell in doubtful else (0, 0, 0)
        cv2.putText(sheet, text, (c * tile_w + 3, r * tile_h + CROP * 2 + 20), cv2.FONT_HERSHEY_SIMPLEX, 0.42,
                    colour, 1, cv2.LINE_AA)
    return sheet


def _summary(reading: Reading, found: Found, rotation: int) -> dict[str, Any]:
    return {
        "puzzle": reading.text(),
        "kind": found.lattice.kind,
        "rotation_degrees": rotation * (90 if found.lattice.kind == "square" else 30),
        "spacing_pixels": round(found.lattice.spacing * found.scale, 1),
        "regions": found.regions,
        "cells_found": len(found.lattice.found),
        "holes": len(found.shape.holes),
        "solutions": reading.solutions,
        "doubtful": [list(c) for c in reading.doubtful],
        "cells": [{"cell": list(c.cell), "value": c.value, "confidence": round(c.confidence, 3), "given": c.given,
                   "outline": [[round(x, 5), round(y, 5)] for x, y in c.outline]} for c in reading.cells],
        "stages": {k: round(v, 3) for k, v in reading.stages.items()},
        "seconds": round(reading.seconds, 3),
    }
