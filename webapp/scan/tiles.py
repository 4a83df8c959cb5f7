"""Boards drawn as tiles: cells filled in a colour of their own, set apart by gaps of the
page's background, with no lines (some apps draw hexagons so).

The page's background is the picture's commonest colour, or the commonest colour along
its edges (a screenshot cut to the board is mostly tiles: its commonest colour is theirs,
while its edges are the page's); whatever differs from it is a tile (or the ink on one).
Both are tried when they differ.  The picture of that mask, tiles white and gaps black, is a
board with lines for the usual search: the gaps enclose each tile as lines enclose a
cell.  What a cell holds is then measured in the picture itself.
"""

from __future__ import annotations

import cv2
import numpy as np

from .board_shape import Shape, inside_ink

APART = 12.0  # RGB distance from the background above which a pixel belongs to a tile
SHARE = 0.5  # of the largest distance from the background nearby: below it, a pixel is of the gap
NEAR_TILE = 120  # the picture's long side over the width of "nearby"
BINS = 16  # colour values per level, for finding the commonest colour
COMMON = 0.2  # the background covers at least this share of the picture
SPECK = 0.002  # of the picture: a patch of background colour smaller than this, enclosed, is in a tile
EDGE = 0.02  # of the picture's short side: the band along its edges whose commonest colour may be the page's
OPEN = 3  # pixels: the mask opened by this much keeps the thin gaps apart


def tile_pictures(colour: np.ndarray, size: tuple[int, int]) -> list[np.ndarray]:
    """The work picture (``size``: width, height) as tiles white on black gaps, once for
    each colour that may be the page's background (none when no colour is common enough),
    the gaps found two ways (``_tiles_on``)."""
    small = cv2.resize(colour, size, interpolation=cv2.INTER_AREA)
    keys = _colour_keys(small)
    flat = small.reshape(-1, 3)
    backgrounds = []
    common = _commonest(keys.ravel())
    if common is not None:
        backgrounds.append(flat[keys.ravel() == common].mean(axis=0))
    band = max(2, round(EDGE * min(keys.shape)))
    edges = np.concatenate([keys[:band].ravel(), keys[-band:].ravel(), keys[:, :band].ravel(), keys[:, -band:].ravel()])
    edge = _commonest(edges)
    if edge is not None and edge != common:
        backgrounds.append(flat[keys.ravel() == edge].mean(axis=0))
    return [_tiles_on(small, background, relative) for background in backgrounds for relative in (False, True)]


def _colour_keys(small: np.ndarray) -> np.ndarray:
    """Each pixel's colour, quantised to ``BINS`` values a level, as one number."""
    levels = 256 // BINS
    quantised = (small // BINS).astype(np.int32)
    return (quantised[..., 0] * levels + quantised[..., 1]) * levels + quantised[..., 2]


def _commonest(keys: np.ndarray) -> int | None:
    """The commonest colour among ``keys``, if it covers ``COMMON`` of them."""
    counts = np.bincount(keys, minlength=(256 // BINS) ** 3)
    common = int(np.argmax(counts))
    return common if counts[common] >= COMMON * len(keys) else None


def _tiles_on(small: np.ndarray, background: np.ndarray, relative: bool) -> np.ndarray:
    """Whatever is not of the ``background`` colour, white; the background black;
    ``relative``: also what is far nearer the background than a tile close by."""
    distance = np.sqrt(((small.astype(np.float32) - background) ** 2).sum(axis=2))
    apart = distance > APART
    if relative:
        # Or much nearer the background than a tile close by: a compressed screenshot bleeds
        # a tile's colour into the thin gap beside it, which must stay a gap, as must a gap
        # between dark tiles beside bright ones.  (Not always: a digit far from the page's
        # colour on a pale tile would turn the tile's own fill around it into gap.)
        window = max(5, round(max(distance.shape) / NEAR_TILE)) | 1
        nearby = cv2.dilate(distance, cv2.getStructuringElement(cv2.MORPH_RECT, (window, window)))
        apart &= distance > SHARE * nearby
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
