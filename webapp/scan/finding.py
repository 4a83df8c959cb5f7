"""Finding the board in a picture: the ink, the cell-like regions, their lattice and the
board's shape on it, tried a few ways until one holds a board.

The first way suits printed boards and most screenshots; a dark theme (light lines on
a dark background) is found in the picture's negative; a board whose cells are small
in the work picture is looked for again at a finer scale, in the part of the colour
picture where it lies.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import cv2
import numpy as np

from .board_shape import Shape, add_coloured_edge_tiles, find_shape
from .image import Picture
from .lattice import Kind, Lattice, find_lattice
from .regions import darkness, find_regions, ink_mask

FEWEST_CELLS = 4  # fewer cells than this is no board
# Ink thresholds tried (ink darker than this share of the paper around it): faint grey
# lines blurred by the camera need the highest; a noisy newsprint the lowest.
INK_THRESHOLDS = (0.85, 0.93, 0.78, 0.97)
GRAINY = 2  # grey levels between neighbouring pixels, typically, in a grainy picture
SMOOTH = 1.5  # the blur (sigma, work pixels) of a grainy picture looked at again when nothing was found
FAINT_THRESHOLDS = (0.93, 0.97, 0.98)  # ... and its ink thresholds: the blur fades thin lines further
SMOOTH_LINE = 0.05  # ... and the faintest line on it: its grain is too weak to pass for a line
TILES_MORE = 1.1  # the board seen as tiles is taken when it has this many times the cells
TILES_SEEN = 0.97  # ... or more cells, this share at least each seen as a tile
FAINT_LINE = 0.25  # a board found by its faint lines: the least line, in their response's darkness
LINE_SHARE = 0.5  # ... or this share of the lines between its cells found, typically, if more
# ... and at least this share of its cells enclosed by lines all round: a grid's lines enclose
# most of its cells even in grain (0.43 to 0.58 measured), while a page of text's strokes enclose a
# few patches the lattice is then stretched far beyond (0.16)
FAINT_ENCLOSED = 0.3
FINE_SPACING = 28  # cells closer than this (work pixels) are looked at again at a finer scale


@dataclass
class Found:
    """A board found: its lattice in the work picture, its shape, and the pictures measured."""

    lattice: Lattice
    shape: Shape
    grey: np.ndarray  # the grey picture the lattice is in (the work picture, or a finer part of the colour one)
    dark: np.ndarray
    scale: float  # colour pixels per pixel of ``grey``
    offset: tuple[float, float]  # where ``grey``'s (0, 0) lies in the colour picture
    work_scale: float  # pixels of ``grey`` per work pixel (for fractions of the picture)
    regions: int  # regions seen (for the debug pictures)


def find_board(picture: Picture, kind: Kind | None = None) -> Found | None:
    """The board with the most cells among the ways tried, or None."""
    best = None
    for grey in (picture.work, 255 - picture.work):
        found = _attempt(grey, picture.work_scale, (0.0, 0.0), 1.0, kind)
        if found is not None and (best is None or len(found.shape.cells) > len(best.shape.cells)):
            best = found
        if best is not None and len(best.shape.cells) >= FEWEST_CELLS:
            break
    tiled = _tiled(picture, kind, 0 if best is None else len(best.shape.cells), best is None or _block(best))
    if tiled is not None:
        best = tiled
    if best is None or _grainy(picture.work):
        smoothed = _smoothed(picture, kind)
        if smoothed is not None and (best is None or len(smoothed.shape.cells) > len(best.shape.cells)):
            best = smoothed
    if best is None or len(best.shape.cells) < FEWEST_CELLS:
        best = _faint(picture, kind) or best
    if best is not None and best.lattice.spacing < FINE_SPACING and picture.work_scale > 1.3:
        finer = _finer(picture, best, kind)
        if finer is not None and len(finer.shape.cells) >= len(best.shape.cells):
            best = finer
    if best is None or len(best.shape.cells) < FEWEST_CELLS:
        return None
    add_coloured_edge_tiles(best.lattice, _colour_like(picture, best), best.shape)
    return best


def _colour_like(picture: Picture, found: Found) -> np.ndarray:
    """The colour picture cut and shrunk to the frame of ``found.grey``."""
    h, w = found.grey.shape[:2]
    left, top = found.offset
    right, bottom = left + w * found.scale, top + h * found.scale
    full_h, full_w = picture.colour.shape[:2]
    part = picture.colour[max(0, int(top)):min(full_h, round(bottom)), max(0, int(left)):min(full_w, round(right))]
    return cv2.resize(part, (w, h), interpolation=cv2.INTER_AREA)


def _smoothed(picture: Picture, kind: Kind | None) -> Found | None:
    """The board looked for again in the work picture smoothed, both ways round: a photo
    taken in dim light is grainy, and its thin, faint lines (light lines on a dark
    theme, a pale grid) are lost in the grain at the ink thresholds that suit a clean
    picture, while a slight blur keeps them and evens out the grain."""
    best = None
    for grey in (picture.work, 255 - picture.work):
        smooth = cv2.GaussianBlur(grey, (0, 0), SMOOTH)
        found = _attempt(smooth, picture.work_scale, (0.0, 0.0), 1.0, kind, FAINT_THRESHOLDS, SMOOTH_LINE)
        if found is not None and (best is None or len(found.shape.cells) > len(best.shape.cells)):
            best = found
    return best if best is not None and len(best.shape.cells) >= FEWEST_CELLS else None


def _faint(picture: Picture, kind: Kind | None) -> Found | None:
    """The board looked for by its straight lines (``faint_lines``) when nothing else found
    one: a grid too faint for any ink threshold, lost in a photo's grain.  Its lines decide
    the shape; what each cell holds is measured in the picture itself."""
    from .faint_lines import SHRINK, line_response, shrunk, thresholds
    from .tiles import with_real_ink

    grey = shrunk(picture.work)
    response = line_response(grey)
    best = _most_cells(((t, (response > t).astype(np.uint8)) for t in thresholds(response)), kind)
    if best is None:
        return None
    lattice, regions_seen, threshold = best
    # The response as a picture of ink: lines as dark as they stand above the grain.
    dark = np.clip(response / (4 * threshold), 0.0, 1.0).astype(np.float32)
    lines = (255 * (1.0 - dark)).astype(np.uint8)
    shape = find_shape(lattice, lines, dark, line=FAINT_LINE)
    # Grain crosses that level often beside a line, and a side's darkest sample across it
    # is what counts: grain alone would enclose the sheet's margin as cells.  A side with
    # a line is one at least half as dark as the lines between the cells found, typically.
    between = [peak for (p, q), peak in shape.peaks.items() if p in lattice.found and q in lattice.found]
    if between:
        shape = find_shape(lattice, lines, dark, line=max(FAINT_LINE, LINE_SHARE * float(np.median(between))))
    enclosed = sum(1 for p in shape.cells if p in lattice.found)
    if len(shape.cells) < FEWEST_CELLS or enclosed < FAINT_ENCLOSED * len(shape.cells):
        return None
    with_real_ink(shape, lattice, darkness(grey))
    return Found(lattice, shape, lines, dark, picture.work_scale * SHRINK, (0.0, 0.0), 1.0 / SHRINK, regions_seen)


def _grainy(grey: np.ndarray) -> bool:
    """Whether the work picture is grainy: its pixels differ from their neighbours by
    ``GRAINY`` grey levels or more, typically (a 12-MP photo shrunk to the work picture
    has its grain averaged away; a photo taken small in dim light keeps it)."""
    step = np.abs(np.diff(grey[::2].astype(np.int16), axis=1))
    return float(np.median(step)) >= GRAINY


def _block(found: Found) -> bool:
    """Whether a square board found is a full rectangle of cells: maybe only the inner part
    of a larger board of tiles (a board with holes or a ragged outline had its outline seen)."""
    cells = found.shape.cells
    if found.lattice.kind != "square" or not cells:
        return False
    rows = {a for a, _ in cells}
    cols = {b for _, b in cells}
    return len(cells) == (max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1)


def _tiled(picture: Picture, kind: Kind | None, beat: int, by_edges: bool = True) -> Found | None:
    """The board as tiles on the page's background (``tiles``), its cells' ink measured in
    the picture itself, when it has clearly more cells than ``beat``; by their edges too
    when ``by_edges`` (nothing found yet, or a full rectangle found)."""
    from .edge_tiles import edge_pictures, without_digits
    from .tiles import tile_pictures, with_real_ink

    height, width = picture.work.shape[:2]
    best: Found | None = None
    coloured = tile_pictures(picture.colour, (width, height))
    # By their edges only when nothing else is seen, or only a full rectangle: the edges also
    # enclose a blank page's patches beside a ragged board's outline, as if they were tiles.
    edged = edge_pictures(picture.work, cv2.resize(picture.colour, (width, height), interpolation=cv2.INTER_AREA)
                          ) if beat < FEWEST_CELLS or by_edges else []
    for n, grey in enumerate([*coloured, *edged]):
        # Everything that is no tile is ink: the page around the board too (the darkness of a
        # wide black area against its own surroundings would be none).
        dark = (grey < 128).astype(np.float32)
        regions = find_regions(dark.astype(np.uint8))
        lattice = find_lattice(regions, kind)
        if kind is None and n >= len(coloured):
            # Round tiles' outlines have any number of corners (often six): their kind is
            # the lattice on which more of them sit.
            other = find_lattice(regions, "square" if lattice is None or lattice.kind == "hex" else "hex")
            if other is not None and (lattice is None or len(other.found) > len(lattice.found)):
                lattice = other
        if lattice is None or len(lattice.found) <= beat:
            continue
        if n >= len(coloured):  # a tile holding a number is a tile
            grey = without_digits(grey, lattice.spacing)
            dark = (grey < 128).astype(np.float32)
        shape = find_shape(lattice, grey, dark)
        # Clearly more cells; or more, each of them seen as a tile of its own (the board
        # found the other way may have lost a tile or two along its edge).
        # (Not for a board seen by its edges: a hole enclosed by lines is seen as a tile too.)
        seen = n < len(coloured) and sum(p in lattice.found for p in shape.cells) >= TILES_SEEN * len(shape.cells)
        if len(shape.cells) <= (1 if seen else TILES_MORE) * beat:
            continue
        found = Found(lattice, shape, grey, dark, picture.work_scale, (0.0, 0.0), 1.0, len(regions))
        if best is None or len(shape.cells) > len(best.shape.cells):
            best = found
    if best is not None:
        with_real_ink(best.shape, best.lattice, darkness(picture.work))
    return best


def _most_cells(masks: Iterable[tuple[float, np.ndarray]], kind: Kind | None) -> tuple[Lattice, int, float] | None:
    """Of the ink masks made at several thresholds, the lattice with the most cells found,
    with how many regions its mask held and its threshold (masks made one at a time: a
    12-MP picture's are large)."""
    best: tuple[Lattice, int, float] | None = None
    for threshold, mask in masks:
        regions = find_regions(mask)
        lattice = find_lattice(regions, kind)
        if lattice is not None and (best is None or len(lattice.found) > len(best[0].found)):
            best = lattice, len(regions), threshold
    return best

def _attempt(grey: np.ndarray, scale: float, offset: tuple[float, float], work_scale: float,
             kind: Kind | None, thresholds: tuple[float, ...] = INK_THRESHOLDS, faintest: float = 0.1) -> Found | None:
    """The lattice found at the ink threshold that gives the most cells, and its shape."""
    dark = darkness(grey)
    best = _most_cells(((t, ink_mask(dark, t)) for t in thresholds), kind)
    if best is None:
        return None
    lattice, regions_seen, threshold = best
    # Lines as faint as the ink that found the cells count as lines (not fainter than noise).
    shape = find_shape(lattice, grey, dark, line=max(faintest, 1.0 - threshold))
    return Found(lattice, shape, grey, dark, scale, offset, work_scale, regions_seen)


def _finer(picture: Picture, coarse: Found, kind: Kind | None) -> Found | None:
    """The board looked for again in the colour picture, around where it was found, at
    up to twice the work picture's scale."""
    from .lattice import plane

    cells = np.array(sorted(coarse.shape.cells), dtype=np.float64)
    where = coarse.lattice.to_image(plane(coarse.lattice.kind, cells))
    pad = 2.5 * coarse.lattice.spacing
    x0, y0 = np.maximum(where.min(axis=0) - pad, 0)
    x1, y1 = where.max(axis=0) + pad
    s = picture.work_scale
    h, w = picture.colour.shape[:2]
    left, top = int(x0 * s), int(y0 * s)
    right, bottom = min(w, int(x1 * s) + 1), min(h, int(y1 * s) + 1)
    part = cv2.cvtColor(picture.colour[top:bottom, left:right], cv2.COLOR_BGR2GRAY)
    # At most twice as fine as the work picture, and no larger than it.
    zoom = min(2.0, s, 1600 / max(part.shape))
    if zoom <= 1.05:
        return None
    shrink = zoom / s  # part pixels → grey pixels
    grey = cv2.resize(part, (max(1, round(part.shape[1] * shrink)), max(1, round(part.shape[0] * shrink))),
                      interpolation=cv2.INTER_AREA)
    return _attempt(grey, 1 / shrink, (float(left), float(top)), zoom, kind or coarse.lattice.kind)
