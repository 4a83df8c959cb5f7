"""Ink and cell-like regions: where the lines are, and the enclosed patches of paper (or of
a cell's colour) that look like the inside of a cell.

The ink is what is much darker than the paper around it.  The paper's brightness is
found by a grey closing (a maximum then a minimum over a window wider than any line or
digit stroke): it follows uneven light, a shadow and the colour of a filled cell, so a
line is ink on white paper, on grey or on orange alike, while a cell filled with a
colour is not ink at all.  A region is a connected patch of not-ink whose outline is a
convex polygon (a square or a hexagon, drawn in perspective); its centre is a point of
the board's lattice.  Regions that are too small (the inside of an 8, noise) or too
large (the sheet of paper) are left out; two cells merged where their border vanished,
a circle's inside, a box of the page's text are left to the lattice to sort out.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

INK = 0.78  # darker than this share of the paper's brightness around it is ink
SMALLEST = 1 / 150  # a cell's side at least this share of the picture's long side
SOLID = 0.82  # a region's area over its convex hull's: cells are convex


@dataclass(frozen=True)
class Region:
    """One patch of paper enclosed by ink: maybe a cell."""

    x: float  # its centre (centroid of its outline's area), in work pixels
    y: float
    area: float  # the area its outline encloses (digits inside included)
    corners: int  # the corners of its outline simplified to a polygon: 4 a square, 6 a hexagon
    outline: np.ndarray  # the convex hull, int32 (k, 1, 2)


def paper_level(grey: np.ndarray, window: int) -> np.ndarray:
    """The brightness of the paper (or of a cell's fill) around each pixel: the picture
    with every dark thing narrower than ``window`` closed over."""
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (window, window))
    return cv2.morphologyEx(grey, cv2.MORPH_CLOSE, kernel)


def darkness(grey: np.ndarray, window: int | None = None) -> np.ndarray:
    """How much darker each pixel is than the paper around it: 0 on paper, near 1 for
    black ink on white (float32)."""
    if window is None:
        window = default_window(grey)
    paper = paper_level(grey, window).astype(np.float32)
    # +8 keeps the darkest shadows from turning noise into ink (a ratio of tiny numbers).
    ratio = (grey.astype(np.float32) + 8.0) / (paper + 8.0)
    return np.clip(1.0 - ratio, 0.0, 1.0)


def ink_mask(dark: np.ndarray, threshold: float = INK) -> np.ndarray:
    """1 where there is ink (lines, digits), 0 on paper: uint8, from ``darkness``."""
    return (dark > 1.0 - threshold).astype(np.uint8)


def default_window(grey: np.ndarray) -> int:
    """A window wider than lines and digit strokes, narrower than most cells: 1/60 of
    the long side, odd."""
    return max(15, round(max(grey.shape) / 60)) | 1


def find_regions(ink: np.ndarray) -> list[Region]:
    """The convex patches of not-ink of a plausible size for a cell."""
    paper = (1 - ink).astype(np.uint8)
    contours, hierarchy = cv2.findContours(paper, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return []
    long_side = max(ink.shape)
    smallest = (long_side * SMALLEST) ** 2
    largest = ink.size / 6
    found = []
    for contour, (_next, _prev, _child, parent) in zip(contours, hierarchy[0], strict=True):
        if parent != -1:  # the outline of a hole in paper (a digit): not a region of its own
            continue
        if len(contour) < 4:
            continue
        x, y, w, h = cv2.boundingRect(contour)
        if w * h < smallest or w * h > 4 * largest:
            continue
        area = cv2.contourArea(contour)
        if not smallest <= area <= largest:
            continue
        hull = cv2.convexHull(contour)
        hull_area = cv2.contourArea(hull)
        if hull_area <= 0 or area / hull_area < SOLID:
            continue
        if max(w, h) > 4 * min(w, h):  # a long strip between lines, not a cell
            continue
        moments = cv2.moments(hull)
        polygon = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True)
        found.append(Region(moments["m10"] / moments["m00"], moments["m01"] / moments["m00"], hull_area,
                            len(polygon), hull))
    return found
