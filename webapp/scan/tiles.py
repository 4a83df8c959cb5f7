"""Boards drawn as tiles: cells filled in a colour of their own, set apart by gaps of the
page's background, with no lines (some apps draw hexagons so).

The page's background is the picture's commonest colour; whatever differs from it is a
tile (or the ink on one).  The picture of that mask, tiles white and gaps black, is a
board with lines for the usual search: the gaps enclose each tile as lines enclose a
cell.  What a cell holds is then measured in the picture itself.
"""

from __future__ import annotations

import cv2
import numpy as np

from .board_shape import Shape, inside_ink

APART = 12.0  # RGB distance from the background above which a pixel belongs to a tile
BINS = 16  # colour values per level, for finding the commonest colour
COMMON = 0.2  # the background covers at least this share of the picture
SPECK = 0.002  # of the picture: a patch of background colour smaller than this, enclosed, is in a tile
OPEN = 3  # pixels: the mask opened by this much keeps the thin gaps apart


def tile_picture(colour: np.ndarray, size: tuple[int, int]) -> np.ndarray | None:
    """The work picture (``size``: width, height) as tiles white on black gaps, or None when
    no colour is common enough to be a background."""
    small = cv2.resize(colour, size, interpolation=cv2.INTER_AREA)
    levels = 256 // BINS
    quantised = (small // BINS).reshape(-1, 3).astype(np.int32)
    keys = (quantised[:, 0] * levels + quantised[:, 1]) * levels + quantised[:, 2]
    counts = np.bincount(keys, minlength=levels ** 3)
    common = int(np.argmax(counts))
    if counts[common] < COMMON * len(keys):
        return None
    background = small.reshape(-1, 3)[keys == common].mean(axis=0)
    apart = np.sqrt(((small.astype(np.float32) - background) ** 2).sum(axis=2)) > APART
    mask = cv2.morphologyEx(apart.astype(np.uint8), cv2.MORPH_OPEN, np.ones((OPEN, OPEN), np.uint8))
    # Specks of background colour inside a tile (a digit's antialiased edge) are no gaps:
    # the gaps between tiles are all one network, joined to the page around the board.
    count, labels, stats, _ = cv2.connectedComponentsWithStats(1 - mask, connectivity=4)
    height, width = mask.shape
    x, y, w, h, area = (stats[:, k] for k in range(5))
    speck = (x > 0) & (y > 0) & (x + w < width) & (y + h < height) & (area < SPECK * width * height)
    speck[0] = False
    mask = np.maximum(mask, speck[labels].astype(np.uint8))
    return (mask * 255).astype(np.uint8)


def with_real_ink(shape: Shape, lattice: object, dark: np.ndarray) -> Shape:
    """The shape with each position's ink measured in the picture's own darkness (the tile
    picture shows none)."""
    shape.ink = inside_ink(lattice, list(shape.ink), dark)  # type: ignore[arg-type]
    return shape
