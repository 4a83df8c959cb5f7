"""Boards of separate tiles found by their edges: a lattice of blobs of one size (squares,
rounded squares, circles) set apart by gaps, with no lines, photographed.

``tiles`` finds tiles by the page's colour, which fails when a light gradient across a
photo makes the page's colour vary more than a tile differs from it (a pale tile on a
cream page, near-white tiles parted by gaps a shade darker).  Edges do not depend on the
light's level: where the brightness changes faster than the picture's noise, there is a
tile's edge (or a digit's); the patches enclosed by edges are the tiles and the page,
and the lattice of the patches of one size is the board's (fitted from their centres, in
perspective, as for cells enclosed by lines).

A pastel tile may differ from its page in colour alone (lavender circles on cream are
nearly the same grey): its edges are looked for in the colour too, in the picture's
chroma (Lab's a and b), where a photo's noise is far weaker than in its brightness.
"""

from __future__ import annotations

import cv2
import numpy as np

BLUR = 1.2  # pixels: the noise smoothed away before the edges are measured
GROOVE = 5  # pixels: a dark groove narrower than this (a tile's gap, blurred) is an edge
# (grey levels a pixel of brightness change, grey levels of groove depth) from which there
# is an edge, tried in turn: the faintest a tile's side or gap seen through blur and JPEG
# (a photo's noise is smoothed to well under one level), then twice that.
LEVELS = ((1.5, 1.0), (3.0, 2.0))
# Chroma levels a pixel of change (Lab's a and b, 8-bit) from which there is an edge: a photo's
# chroma noise, smoothed, stays well under half a level; a pastel tile's side is a few.
CHROMA_LEVELS = (1.5,)
CLOSE = 3  # pixels: edges widened by this much close their small breaks
SOLID = 0.22  # of a cell's spacing: edges this thick all round are a digit's strokes run together


def edge_pictures(grey: np.ndarray, colour: np.ndarray | None = None) -> list[np.ndarray]:
    """The work picture as patches white on black edges, one picture a steepness; then
    with the thin dark valleys too (a gap a shade darker than the tiles on both sides is
    no step of brightness but a groove); then, given the ``colour`` picture (BGR, the work
    picture's size), by the edges of its chroma."""
    smooth = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), BLUR)
    steep = _steepness(smooth)
    groove = cv2.morphologyEx(smooth, cv2.MORPH_BLACKHAT, np.ones((GROOVE, GROOVE), np.uint8))
    out = []
    for step, depth in LEVELS:
        edge = steep > step
        out.append(_patches(edge))
        out.append(_patches(edge | (groove > depth)))
    if colour is not None:
        lab = cv2.cvtColor(colour, cv2.COLOR_BGR2LAB).astype(np.float32)
        chroma = np.hypot(*(_steepness(cv2.GaussianBlur(lab[..., c], (0, 0), BLUR)) for c in (1, 2)))
        out.extend(_patches(chroma > level) for level in CHROMA_LEVELS)
    return out


def _steepness(smooth: np.ndarray) -> np.ndarray:
    """How fast a (smoothed) channel changes at each pixel, in levels a pixel."""
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    return np.sqrt(gx * gx + gy * gy)


def without_digits(patches: np.ndarray, spacing: float) -> np.ndarray:
    """A picture of ``edge_pictures`` with the digits' solid blobs of edges made patch
    again (cells ``spacing`` pixels apart): a tile holding a number is a tile, not a dark
    hole in the board; the tiles' sides, thinner, stay."""
    edges = (patches < 128).astype(np.uint8)
    solid = max(5, round(SOLID * spacing))
    blobs = cv2.morphologyEx(edges, cv2.MORPH_OPEN, np.ones((solid, solid), np.uint8))
    return np.maximum(patches, blobs * 255)


def _patches(edge: np.ndarray) -> np.ndarray:
    """The patches between edges, white on black."""
    # Close the edges' small breaks (JPEG blocks, a tile's faint side) so each tile is enclosed.
    edges = cv2.dilate(edge.astype(np.uint8), np.ones((CLOSE, CLOSE), np.uint8))
    return ((1 - edges) * 255).astype(np.uint8)
