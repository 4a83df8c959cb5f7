"""Which positions of the lattice are cells of the board, which are holes, which lie outside.

Each position around the cells found is looked at in the picture: its inside (how bright
against the cells' paper, how much ink) and each of its sides (how much of the side's
length has a line on it, and how much ink the line holds: thin or thick).  Then:

- The outside is what can be reached from beyond the board without crossing a line:
  a flood from the positions around, through sides with no line on them (the edge of
  the sheet on a table is no line: ink is what is darker than the paper around it).  A
  ragged outline keeps it out of the board; the text of the page does not stop it
  (letters are no continuous line along a side).
- A position the flood cannot reach is enclosed: a cell, unless it is painted dark (a
  newspaper's black square) or it is blank and every side of it is drawn as thick as the
  board's outline while the lines between cells are thin (a hole inside our boards).
- A cell whose lines a glare has bleached lets the flood in; it is taken back when it
  lies between two cells on a line of the lattice with no line between it and them (a
  notch of a ragged outline always has lines on its sides).
- A position the flood reached that holds ink, lies within the rows and columns of the
  cells found and beside two cells (three on a hexagonal board) is a cell whose lines
  vanished: an app's filled given cells.
- Only the largest connected piece of cells is the board.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

import cv2
import numpy as np

from .lattice import Lattice, Position, plane, steps

LINE = 0.22  # darkness above which a sample is on a line
INK_INSIDE = 0.1  # darkness above which a sample inside a cell is ink (faint under a glare)
LINE_COVER = 0.55  # share of a side's length with a line on it for the side to count as drawn
UNLIKE_PAGE = 0.15  # ... and, found as a region, this far from the page's (of the cells' paper)
DARK_FILL = 0.55  # a position's inside darker than this share of the cells' paper is painted
GLARE = 1.12  # a position this much brighter than the board's paper is under a glare
INKED = 0.02  # a share of ink inside a position that may be a number (as the reader's)
NUMBER_INK = 0.6  # more ink than this is no number: a painted square, a block of text (a light
# fill behind a number counts as some ink)
LIGHT = 80  # percentile of the inside's grey: its paper between a number's strokes, if any
FILL = 0.95  # a position's inside at most this bright against the cells' paper is filled
SAME_FILL = 0.02  # two insides this close in brightness are the same fill
SAME_TILE = 0.12  # a fill within the cells' range of brightness, widened by this share, is like a cell's
TILE_CONTRAST = 6.0  # grey levels at least between an edge tile and the page beyond it
TILE_SHARE = 0.06  # ... and this share of the brighter of them
EDGE_TILE_INNER = (0.08, 0.14)  # where an edge tile's own fill is sampled: this far inside its outer side (cells)
EDGE_TILE_OUTER = (0.12, 0.2, 0.3)  # where the page beyond it is: this far outside
EDGE_GAP = 0.1  # cells either side of the side between an edge tile and its cell where the gap is looked for
EVEN = 0.25  # an edge tile's fill and the page beyond vary less than this share of their difference
BOXED_EVEN = 0.2  # ... an edge tile within the cells' rows and columns whose gap is not seen
HEAVIER = 1.5  # ... and no side toward a cell this many times the weight of the lines between cells
GRAINY_EVEN = 0.3  # ... a notch's tile, in a grainy photo: less than this share
GAP_LIKE_PAGE = 0.6  # the gap is nearer the page's brightness than this share of the page's distance from the tile
FAINT_LINE = 0.25  # a side darker than this share of the board's lines (typical) has a line, however faint
NOISE_LINE = 0.025  # ... and darker than this (the paper's noise in a photo stays below)
MARGIN = 2  # positions looked at beyond the cells found, on every side


@dataclass
class Shape:
    """The board's cells and holes on the lattice, with what was measured to decide."""

    cells: set[Position]
    holes: set[Position]  # enclosed positions that are not cells (inside the board's outline)
    brightness: dict[Position, float] = field(default_factory=dict)  # inside, against the cells' paper around
    lightest: dict[Position, float] = field(default_factory=dict)  # the inside's light part (``LIGHT``), likewise
    glare: set[Position] = field(default_factory=set)  # far brighter than the board's paper: a lamp's reflection
    ink: dict[Position, float] = field(default_factory=dict)  # share of the inside that is ink
    sides: dict[tuple[Position, Position], tuple[float, float]] = field(default_factory=dict)  # (cover, weight)
    peaks: dict[tuple[Position, Position], float] = field(default_factory=dict)  # a side's line darkness, typical


def _inside_offsets() -> np.ndarray:
    """Sample points inside a cell: a disc of radius 0.3 (the flat board's units), dense
    enough that the thin stroke of a small 1 is not missed."""
    grid = np.linspace(-0.3, 0.3, 17)
    points = np.array([(x, y) for x in grid for y in grid if x * x + y * y <= 0.09 + 1e-9])
    return points


def _side_offsets(kind: str, step: np.ndarray) -> tuple[np.ndarray, int, float]:
    """Sample points across a side between a cell and its neighbour at ``step`` (on the
    flat board): along the side (the middle 3/4 of it), across it (±0.18); with the
    number of samples across and their spacing."""
    half = 0.5 if kind == "square" else 0.5 / math.sqrt(3)
    normal = step / np.hypot(*step)
    tangent = np.array([-normal[1], normal[0]])
    along = np.linspace(-0.75, 0.75, 9) * half
    across = np.linspace(-0.18, 0.18, 13)
    middle = step / 2
    points = np.array([middle + t * tangent + n * normal for t in along for n in across])
    return points, len(across), float(across[1] - across[0])


def find_shape(lattice: Lattice, grey: np.ndarray, dark: np.ndarray, line: float = LINE) -> Shape:
    """The cells of the board: ``grey`` and ``dark`` (``regions.darkness``) of the work
    picture; ``line``: the darkness above which a sample is on a line."""
    kind = lattice.kind
    found = np.array(list(lattice.found), dtype=np.int64)
    low, high = found.min(axis=0) - MARGIN, found.max(axis=0) + MARGIN
    positions = [(a, b) for a in range(int(low[0]), int(high[0]) + 1) for b in range(int(low[1]), int(high[1]) + 1)]
    centres = plane(kind, np.array(positions))
    in_picture = _in_picture(lattice, centres, grey.shape)

    inside = lattice.around(centres, _inside_offsets())
    grey_in = _sample(grey.astype(np.float32), inside)
    dark_in = _sample(dark, inside)
    paper = _cells_paper(positions, np.median(grey_in, axis=1), lattice)
    inside_grey = np.median(grey_in, axis=1)
    brightness = inside_grey / np.maximum(paper, 1.0)
    lightest = np.percentile(grey_in, LIGHT, axis=1) / np.maximum(paper, 1.0)
    # A glare is brighter than the board's paper at large (the local paper may be in it too).
    board_paper = float(np.median(paper))
    glare = {p for i, p in enumerate(positions) if inside_grey[i] > GLARE * board_paper}
    ink = (dark_in > INK_INSIDE).mean(axis=1)

    index = {p: i for i, p in enumerate(positions)}
    sides: dict[tuple[Position, Position], tuple[float, float]] = {}
    peaks: dict[tuple[Position, Position], float] = {}
    half_steps = steps(kind)[:len(steps(kind)) // 2]
    for step in half_steps:
        offsets, across, spacing = _side_offsets(kind, plane(kind, np.array([step]))[0])
        samples = _sample(dark, lattice.around(centres, offsets)).reshape(len(positions), -1, across)
        cover = (samples.max(axis=2) > line).mean(axis=1)
        weight = np.median(samples.sum(axis=2) * spacing, axis=1)
        # The darkest across the side, typical along it: a faint, blurred line's, or the paper's.
        peak = np.median(samples.max(axis=2), axis=1)
        for i, p in enumerate(positions):
            q = (p[0] + step[0], p[1] + step[1])
            if q in index:
                sides[(p, q)] = sides[(q, p)] = (float(cover[i]), float(weight[i]))
                peaks[(p, q)] = peaks[(q, p)] = float(peak[i])

    shape = Shape(set(), set(), {p: float(brightness[i]) for i, p in enumerate(positions)},
                  {p: float(lightest[i]) for i, p in enumerate(positions)}, glare,
                  {p: float(ink[i]) for i, p in enumerate(positions)}, sides, peaks)
    outside = _flood(positions, index, in_picture, lattice, shape)
    _classify(positions, outside, lattice, shape)
    # The edges' tiles, then the corners' between two of them.
    shape.cells |= _edge_tiles(lattice, grey, shape, 1)
    shape.cells |= _edge_tiles(lattice, grey, shape, 2)
    return shape


def _edge_tiles(lattice: Lattice, grey: np.ndarray, shape: Shape, beside: int, most_ink: float = NUMBER_INK,
                share: float = TILE_SHARE, brightness: bool = True) -> set[Position]:
    """Tiles along the board's edge: a board drawn as tiles set apart by gaps of the page's
    colour has no line on an edge tile's outer side, so the flood took it.  A position
    beside a cell, its fill along its outer side as bright as the cells are, with the page
    beyond of another brightness from right past that side on, is a tile (a white sheet's margin beside a
    printed board is as bright as the page beyond it).  ``beside``: the cells a position
    touches at least; ``most_ink``: the most ink a tile holds (in ``shape.ink``); ``share``:
    of the brighter of fill and page, the least contrast between them (besides
    ``TILE_CONTRAST``); ``brightness``: whether ``grey`` is a brightness, where a tile
    within the cells' rows and columns need not show its gap (a chroma's few levels also
    part a newspaper's grey paint from its tinted paper)."""
    kind = lattice.kind
    cells = sorted(shape.cells)
    candidates: list[tuple[Position, Position]] = []
    for c in cells:
        for step in steps(kind):
            p = (c[0] + step[0], c[1] + step[1])
            beyond = (p[0] + step[0], p[1] + step[1])  # where the page should show: no cell
            if (p not in shape.cells and p not in shape.holes and p in shape.ink and shape.ink[p] <= most_ink
                    and beyond not in shape.cells
                    and sum(q in shape.cells for q in _around(p, kind)) >= beside):
                candidates.append((p, step))
    if not candidates:
        return set()
    grey = grey.astype(np.float32)
    n = len(candidates)
    flat_steps = plane(kind, np.array([s for _, s in candidates]))
    unit = flat_steps / np.hypot(flat_steps[:, 0], flat_steps[:, 1])[:, None]
    tile_c = plane(kind, np.array([p for p, _ in candidates]))
    # A side lies half a step from the centre on the flat board; its fill is sampled along it.
    tangent = np.stack([-unit[:, 1], unit[:, 0]], axis=1)
    near_side = np.concatenate([tile_c + (0.5 - d) * unit + t * tangent for d in EDGE_TILE_INNER
                                for t in (-0.25, 0.0, 0.25)], axis=0)
    past_side = np.concatenate([tile_c + (0.5 + d) * unit + t * tangent for d in EDGE_TILE_OUTER
                                for t in (-0.25, 0.0, 0.25)], axis=0)
    in_cells = _sample(grey, lattice.around(plane(kind, np.array(cells)), _inside_offsets()))
    levels = np.median(in_cells, axis=1)
    low, high = (1 - SAME_TILE) * np.percentile(levels, 5), (1 + SAME_TILE) * np.percentile(levels, 95)
    fill_samples = _sample(grey, lattice.to_image(near_side).reshape(-1, n, 2).transpose(1, 0, 2))
    page_samples = _sample(grey, lattice.to_image(past_side).reshape(-1, n, 2).transpose(1, 0, 2))
    fill, page = np.median(fill_samples, axis=1), np.median(page_samples, axis=1)
    # A tile's fill and the page beyond are each of one colour (not a line of the page's text).
    even = np.maximum(fill_samples.std(axis=1), page_samples.std(axis=1)) <= EVEN * np.abs(page - fill)
    toward = np.sign(page - fill)
    # The gap between it and the cell beside it, and between it and the positions along
    # the edge: its fill stops at every side, where the page shows, as a tile's does (a
    # sheet's margin beside a printed board runs on, with no gap, along the edge).
    gaps = np.stack([_gap(lattice, grey, tile_c, step, toward) for step in steps(kind)], axis=1)  # (n, steps)
    inward = np.array([[(-s[0], -s[1]) == t for t in steps(kind)] for _, s in candidates])
    along = np.array([[(-s[0], -s[1]) != t and s != t and (p[0] + t[0], p[1] + t[1]) not in shape.cells
                       for t in steps(kind)] for p, s in candidates])
    near_page = np.abs(gaps - page[:, None]) <= GAP_LIKE_PAGE * np.abs(page - fill)[:, None]
    gapped = (near_page & inward).any(axis=1) & (near_page | ~along).all(axis=1)
    # Its fill like a cell's, the page beyond of another brightness.
    apart = np.abs(page - fill) >= np.maximum(TILE_CONTRAST, share * np.maximum(page, fill))
    # Within the rows and columns the cells span, the gap need not be seen: a glare or a
    # blur can brighten a tile and dim its gaps alike, and no sheet's margin lies there
    # (a ragged outline's notch is the page itself: no fill apart from the page beyond).
    # (On a hexagonal lattice the rows and columns' box is a rhombus whose corners lie off
    # the board: there, between the first and last cell along both of its lines.)
    cell_array = np.array(cells)
    hull = _inside_hull(shape.cells) if kind == "hex" else set()
    boxed = np.array([p in hull if kind == "hex" else
                      bool((cell_array.min(axis=0) <= p).all() and (p <= cell_array.max(axis=0)).all())
                      for p, _ in candidates])
    # (Evener than a tile need be: a hole's side drawn thick beside it shades the page beyond.)
    spread = np.maximum(fill_samples.std(axis=1), page_samples.std(axis=1))
    boxed_even = spread <= BOXED_EVEN * np.abs(page - fill)
    like = (fill >= low) & (fill <= high) & apart & (gapped | (boxed & boxed_even & brightness)) & even
    # A notch of one position in the cells' rectangle, cells on two sides of it at least (a
    # corner tile whose gap a blur closed, in a shadow or a glare), whose fill differs from
    # the page beyond it at all, is a tile: a ragged outline's notch is the page itself, and
    # no line of text fits there.  Its contrast may be a photo's grain's, and its fill and
    # the page beyond as grainy (but not crossed by another cell's line: far less even).
    # (A square board's: a hexagonal board's ragged edge is all such positions.)
    # (And no line between it and those cells heavier than the lines between cells: our
    # boards draw a hole's sides as thick as their outline.)
    inner = [w for (p, q), (_c, w) in shape.sides.items() if p in lattice.found and q in lattice.found]
    thin = float(np.median(inner)) if inner else 0.0
    notch = boxed & np.array([brightness and kind == "square" and sum(q in shape.cells for q in _around(p, kind)) >= 2
                              and all(shape.sides.get((p, q), (0.0, 0.0))[1] <= HEAVIER * thin
                                      for q in _around(p, kind) if q in shape.cells)
                              for p, _ in candidates])
    wide_low = (1 - 2 * SAME_TILE) * np.percentile(levels, 5)
    wide_high = (1 + 2 * SAME_TILE) * np.percentile(levels, 95)
    grainy_even = np.maximum(fill_samples.std(axis=1), page_samples.std(axis=1)) <= GRAINY_EVEN * np.abs(page - fill)
    like |= (notch & (np.abs(page - fill) >= TILE_CONTRAST) & (fill >= wide_low) & (fill <= wide_high)
             & grainy_even)
    return {p for (p, _), yes in zip(candidates, like, strict=True) if yes}


def add_coloured_edge_tiles(lattice: Lattice, colour: np.ndarray, shape: Shape) -> set[Position]:
    """Add to ``shape`` the edge tiles (``_edge_tiles``) seen in the colour picture
    (``colour``: BGR, the size of the picture the lattice is in), and say which.  A pale
    pink given tile on a grey page is nearly the page's brightness: its edge is in the
    colour (Lab's a and b, where the contrast asked is in levels alone: a chroma's level
    is no brightness to take a share of) or in the lightness measured apart from the
    picture the lattice was found in (the negative of a board of dark tiles on a light
    page).  The ink measured in that picture is no guide here (a number's light strokes
    on a dark tile in the negative make its fill look like ink), and a painted square or
    a block of text is no fill like the cells' and of one colour anyway, so any ink is
    let in.  Twice round: a tile taken lets the one beside it along the edge be seen."""
    lab = cv2.cvtColor(colour, cv2.COLOR_BGR2LAB)
    added: set[Position] = set()
    for _ in range(2):
        more: set[Position] = set()
        for channel, share in ((0, TILE_SHARE), (1, 0.0), (2, 0.0)):
            for beside in (1, 2):
                more |= _edge_tiles(lattice, lab[..., channel], shape, beside, most_ink=1.0, share=share,
                                    brightness=channel == 0) - shape.cells
                shape.cells |= more
        if not more:
            break
        added |= more
    return added


def inside_ink(lattice: Lattice, positions: list[Position], dark: np.ndarray) -> dict[Position, float]:
    """The share of each position's inside that is ink in ``dark``."""
    centres = plane(lattice.kind, np.array(positions))
    dark_in = _sample(dark, lattice.around(centres, _inside_offsets()))
    ink = (dark_in > INK_INSIDE).mean(axis=1)
    return {p: float(ink[i]) for i, p in enumerate(positions)}


def _gap(lattice: Lattice, grey: np.ndarray, centres: np.ndarray, step: Position, toward: np.ndarray) -> np.ndarray:
    """The brightness of the gap on the side of each position (``centres`` on the flat
    board) toward ``step``: across the side, the sample furthest ``toward`` the page
    (+1 brighter, -1 darker), the median of three along it."""
    kind = lattice.kind
    flat = plane(kind, np.array([step]))[0]
    unit = flat / np.hypot(*flat)
    tangent = np.array([-unit[1], unit[0]])
    offsets = np.array([(0.5 + a) * unit + t * tangent for t in (-0.25, 0.0, 0.25)
                        for a in np.linspace(-EDGE_GAP, EDGE_GAP, 7)])
    samples = _sample(grey, lattice.around(centres, offsets)).reshape(len(centres), 3, 7)
    toward = toward[:, None, None]
    return np.median((samples * toward).max(axis=2), axis=1) * toward[:, 0, 0]


def _in_picture(lattice: Lattice, centres: np.ndarray, size: tuple[int, ...]) -> np.ndarray:
    """Whether each position's centre lies in the picture, half a cell from its edges."""
    where = lattice.to_image(centres)
    margin = 0.5 * lattice.spacing
    h, w = size[:2]
    return ((where[:, 0] > margin) & (where[:, 0] < w - margin) & (where[:, 1] > margin) & (where[:, 1] < h - margin))


def _sample(image: np.ndarray, points: np.ndarray) -> np.ndarray:
    """``image`` at ``points`` (n, k, 2), bilinear: (n, k) float32."""
    n, k = points.shape[:2]
    xs = points[..., 0].astype(np.float32).reshape(n, k)
    ys = points[..., 1].astype(np.float32).reshape(n, k)
    values = cv2.remap(image.astype(np.float32), xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return values


def _cells_paper(positions: list[Position], inside: np.ndarray, lattice: Lattice) -> np.ndarray:
    """How bright the cells found near each position are inside (the brightest half of
    those within two steps; else all found cells): the paper the board is printed on
    there, under the light there, that the position is compared with."""
    found = [i for i, p in enumerate(positions) if p in lattice.found]
    if not found:
        return np.full(len(positions), 255.0)
    everywhere = float(np.median(inside[found]))
    where = np.array([positions[i] for i in found])
    values = inside[found]
    out = np.empty(len(positions))
    for i, (a, b) in enumerate(positions):
        near = (np.abs(where[:, 0] - a) <= 2) & (np.abs(where[:, 1] - b) <= 2)
        # The brighter half: white cells, not the grey or coloured givens among them.
        out[i] = float(np.percentile(values[near], 75)) if near.sum() >= 3 else everywhere
    return out


def _flood(positions: list[Position], index: dict[Position, int], in_picture: np.ndarray, lattice: Lattice,
           shape: Shape) -> set[Position]:
    """The positions reached from beyond the board without crossing a line."""
    kind = lattice.kind
    low_a = min(p[0] for p in positions)
    high_a = max(p[0] for p in positions)
    low_b = min(p[1] for p in positions)
    high_b = max(p[1] for p in positions)
    start = [p for i, p in enumerate(positions)
             if not in_picture[i] or p[0] in (low_a, high_a) or p[1] in (low_b, high_b)]
    start = [p for p in start if p not in lattice.found]
    outside = set(start)
    queue = deque(start)
    while queue:
        p = queue.popleft()
        for step in steps(kind):
            q = (p[0] + step[0], p[1] + step[1])
            if q not in index or q in outside or q in lattice.found:
                continue
            cover, _weight = shape.sides[(p, q)]
            if cover >= LINE_COVER:
                continue
            outside.add(q)
            queue.append(q)
    return outside


def _classify(positions: list[Position], outside: set[Position], lattice: Lattice, shape: Shape) -> None:
    """Fill ``shape.cells`` and ``shape.holes``."""
    kind = lattice.kind
    enclosed = [p for p in positions if p not in outside]
    page = float(np.median([shape.lightest[p] for p in outside])) if outside else 1.0
    thin, thick = _line_weights(enclosed, outside, lattice, shape)
    bold_outline = thick > 1.8 * thin
    cells: set[Position] = set()
    holes: set[Position] = set(_blank_areas(enclosed, lattice, shape))
    for p in enclosed:
        if p in holes:
            continue
        # Painted through and through: a large number on a light fill darkens the inside's
        # middle too, but its paper still shows between the strokes.
        # (Found as a region or not: a newspaper's grey squares, lined like the cells, hold
        # no number, while a dark given cell's light number shows in its lightest part; and
        # they are painted darker than the page around the board, while a blank tile as dark
        # as that page is a tile of a dark board.)
        if shape.lightest[p] < DARK_FILL and (p not in lattice.found or (
                shape.ink[p] < INKED and abs(shape.lightest[p] - page) > UNLIKE_PAGE)):
            holes.add(p)
            continue
        if bold_outline and shape.ink[p] < 0.02:
            weights = [shape.sides[(p, q)][1] for q in _around(p, kind) if (p, q) in shape.sides]
            if weights and min(weights) > (thin + thick) / 2:
                holes.add(p)
                continue
        cells.add(p)
    # A cell bleached by glare: between two cells on a line of the lattice, no line between.
    for p in sorted(outside):
        for step in steps(kind)[:len(steps(kind)) // 2]:
            before = (p[0] - step[0], p[1] - step[1])
            after = (p[0] + step[0], p[1] + step[1])
            if before in cells and after in cells and all(
                    shape.sides.get((p, q), (1.0, 0.0))[0] < LINE_COVER for q in (before, after)):
                cells.add(p)
                break
    _take_back_numbers(outside, cells, lattice, shape)
    shape.cells = _largest_piece(cells, kind)
    shape.holes = {p for p in holes if any(q in shape.cells for q in _around(p, kind))} | (
        holes & _inside_hull(shape.cells))


def _take_back_numbers(outside: set[Position], cells: set[Position], lattice: Lattice, shape: Shape) -> None:
    """Cells with a number whose lines vanish (an app's given cells, filled, with no
    border): reached by the flood, yet holding ink, within the rows and columns of the
    cells found, and either beside at least two cells (three on a hexagonal board) or on
    a fill unlike the page's and like a cell's beside it; taken back one after another so
    that a row of them along the edge comes back too.  A caption under the board touches
    one cell at a time, the page's text beside it lies beyond the cells found: they stay
    out."""
    kind = lattice.kind
    found = np.array(list(lattice.found))
    low, high = found.min(axis=0), found.max(axis=0)
    # A number on a fill (a given cell of an app) needs only one cell beside it on the same
    # fill: a caption or the page's text lies on the page's paper.
    # ... a fill unlike the page around the board (its blank positions): a title on a
    # tinted page is no cell.
    blank = [shape.brightness[p] for p in outside if shape.ink[p] < INKED]
    page = float(np.median(blank)) if blank else 1.0
    filled = {p for p in outside
              if DARK_FILL <= shape.brightness[p] <= FILL and abs(shape.brightness[p] - page) > SAME_FILL}
    todo = {p for p in outside if INKED <= shape.ink[p] <= NUMBER_INK and shape.brightness[p] >= DARK_FILL
            and low[0] <= p[0] <= high[0] and low[1] <= p[1] <= high[1]}
    changed = True
    while changed and todo:
        changed = False
        for p in sorted(todo):
            # Beside a cell on the same fill: an app's given cells look alike.
            same_fill = p in filled and any(
                q in cells and abs(shape.brightness[q] - shape.brightness[p]) <= SAME_FILL for q in _around(p, kind))
            beside = sum(q in cells for q in _around(p, kind))
            if same_fill or beside >= (2 if kind == "square" else 3):
                cells.add(p)
                todo.discard(p)
                changed = True


def _blank_areas(enclosed: list[Position], lattice: Lattice, shape: Shape) -> list[Position]:
    """Enclosed positions in blank areas larger than a cell: no region found there, no
    ink, no glare, and no line between them and a neighbour like them.  Holes are not
    drawn, so there is no line between two holes; between two cells there always is
    (unless both are painted, given cells whose numbers are ink)."""
    empty = {p for p in enclosed if p not in lattice.found and shape.ink[p] < 0.02}
    blank = empty - shape.glare
    faint = max(NOISE_LINE, FAINT_LINE * _thin_peak(lattice, shape))
    areas = []
    for p in blank:
        for q in _around(p, lattice.kind):
            if q in blank and _open(shape, p, q, faint):
                areas.append(p)
                break
    # Under a glare a cell's lines may be bleached away: a glared position joins a blank
    # area only through an open side to a part of it out of the glare.
    # One after another: a glare over a large blank area joins it from its edge inward.
    taken = set(areas)
    left = empty & shape.glare
    grew = True
    while grew:
        grew = False
        for p in sorted(left):
            if any(q in taken and _open(shape, p, q, faint) for q in _around(p, lattice.kind)):
                areas.append(p)
                taken.add(p)
                left.discard(p)
                grew = True
    return areas


def _open(shape: Shape, p: Position, q: Position, faint: float) -> bool:
    """Whether no line at all lies between ``p`` and ``q``: too little of the side is
    drawn, and what darkens it is fainter than a fraction of the board's own lines (a
    blurred photo of thin grey lines leaves most of a side below the line threshold, yet
    still clearly darker than the bare paper between two holes)."""
    return shape.sides[(p, q)][0] < LINE_COVER and shape.peaks.get((p, q), 0.0) < faint


def _thin_peak(lattice: Lattice, shape: Shape) -> float:
    """How dark the lines between the cells found are, typically (their sides' peaks)."""
    peaks = [shape.peaks[(p, q)] for p in lattice.found for q in _around(p, lattice.kind)
             if q in lattice.found and (p, q) in shape.peaks]
    return float(np.median(peaks)) if peaks else 1.0


def _line_weights(enclosed: list[Position], outside: set[Position], lattice: Lattice,
                  shape: Shape) -> tuple[float, float]:
    """The ink of a line between two cells found, and of the board's outline (between an
    enclosed position and the outside): medians."""
    kind = lattice.kind
    inner, outer = [], []
    enclosed_set = set(enclosed)
    for p in enclosed:
        for q in _around(p, kind):
            side = shape.sides.get((p, q))
            if side is None or side[0] < LINE_COVER:
                continue
            if p in lattice.found and q in lattice.found:
                inner.append(side[1])
            elif q in outside and q not in enclosed_set:
                outer.append(side[1])
    thin = float(np.median(inner)) if inner else 0.0
    thick = float(np.median(outer)) if outer else thin
    return thin, thick


def _around(p: Position, kind: str) -> list[Position]:
    return [(p[0] + da, p[1] + db) for da, db in steps(kind)]  # type: ignore[arg-type]


def _largest_piece(cells: set[Position], kind: str) -> set[Position]:
    """The largest set of cells joined through the lattice's steps."""
    left = set(cells)
    best: set[Position] = set()
    while left:
        first = left.pop()
        piece = {first}
        queue = deque([first])
        while queue:
            p = queue.popleft()
            for q in _around(p, kind):
                if q in left:
                    left.remove(q)
                    piece.add(q)
                    queue.append(q)
        if len(piece) > len(best):
            best = piece
    return best


def _inside_hull(cells: set[Position]) -> set[Position]:
    """Positions between the first and last cell of their row (a and b both ways)."""
    rows: dict[int, list[int]] = {}
    cols: dict[int, list[int]] = {}
    for a, b in cells:
        rows.setdefault(b, []).append(a)
        cols.setdefault(a, []).append(b)
    inside = set()
    for b, values in rows.items():
        for a in range(min(values), max(values) + 1):
            if a in cols and min(cols[a]) <= b <= max(cols[a]):
                inside.add((a, b))
    return inside
