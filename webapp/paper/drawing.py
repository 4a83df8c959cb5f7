"""The one drawing of a board: the shapes of an SVG picture, for the screen, print and PDF.

``draw_board`` turns a puzzle (and optionally the numbers of a solution) into plain
geometry: one square or hexagon per cell, the number in it, and the outline of the
board as thick segments along every edge that has no cell beyond it.  The template
``_board_svg.html`` writes that out as SVG with presentation attributes only (no CSS),
so the browser, its print view and WeasyPrint draw exactly the same picture.  Holes
are not drawn at all: they stay blank paper.

The same geometry is drawn as a PNG for shared links (``preview.py``): the cells'
corners and the outline's segments are kept as numbers too.

A PDF booklet draws the same picture with fewer elements (``grid``, ``shaded``,
``given_numbers``, ``other_numbers``): one path for every line between cells, each drawn
once and joined into long straight lines, one for the givens' grey, and the numbers as
two texts (the givens, the others) with each digit placed where it starts, instead of a
polygon and a centred text per cell.  WeasyPrint parses, styles and draws each SVG
element in Python and wraps each centred text in a group of its own, so 30 boards went
from 7,000 elements to 150, their layout from 4 s to 2 s and their PDF from 1.2 MB to
130 KB (``bench/booklet_bench.py``).

Pure Python, no Flask: the booklet command renders it without an app.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from engine import Board, Cell, Puzzle

from ..core.game import cell_name

SIDE = 40.0  # a square cell's side, and a hexagon's width, in SVG units
# The width of a digit in ems in DejaVu Sans, the font boards are drawn in (every digit
# is as wide as the others), and in its bold: where each digit of a centred number starts.
DIGIT_EM = 1303 / 2048
BOLD_DIGIT_EM = 1425 / 2048
THIN = 1.0  # lines between cells
THICK = 4.0  # the board's outline
HEX_RADIUS = SIDE / math.sqrt(3)  # centre to corner of a pointy-top hexagon SIDE wide

Point = tuple[float, float]  # (x, y) in SVG units, y downwards

# Square sides as (drow, dcol) beyond them, with the corners they join (0..3: top left,
# top right, bottom right, bottom left).
_SQUARE_SIDES = (((-1, 0), 0, 1), ((0, 1), 1, 2), ((1, 0), 2, 3), ((0, -1), 3, 0))
# Pointy-top hexagon corners 0..5 from the top, clockwise; each side as (neighbour on an
# even row, neighbour on an odd row, corners) in the odd-r layout of engine.board.
_HEX_SIDES = (
    ((-1, 0), (-1, 1), 0, 1),  # north-east
    ((0, 1), (0, 1), 1, 2),  # east
    ((1, 0), (1, 1), 2, 3),  # south-east
    ((1, -1), (1, 0), 3, 4),  # south-west
    ((0, -1), (0, -1), 4, 5),  # west
    ((-1, -1), (-1, 0), 5, 0),  # north-west
)


@dataclass(frozen=True)
class CellShape:
    """One cell as drawn: its outline, its number and how the number is shown."""

    cell: Cell
    points: str  # "x,y x,y ..." of the polygon
    x: float  # where the number's baseline is centred
    y: float
    text: str
    given: bool
    highlight: bool
    corners: tuple[Point, ...] = ()  # the polygon's corners as numbers (``points`` as text)

    @property
    def label(self) -> str:
        what = f"given {self.text}" if self.given else (self.text or "empty")
        return f"{cell_name(self.cell)}: {what}"


@dataclass(frozen=True)
class Numbers:
    """Numbers as one SVG text: its characters, and where each starts (x and y lists)."""

    text: str
    x: str
    y: str


@dataclass(frozen=True)
class Drawing:
    """A board ready to be written as SVG: its size, cells and outline."""

    width: float
    height: float
    cells: tuple[CellShape, ...]
    outline: str  # SVG path data of the board's edge
    font_size: float
    hex: bool
    rows: int
    cols: int

    thin: float = THIN
    thick: float = THICK
    edges: tuple[tuple[Point, Point], ...] = ()  # the outline's segments (``outline`` as path data)

    @property
    def pixel_width(self) -> str:
        """The width on screen: one SVG unit a CSS pixel, 40 px a cell."""
        return _num(self.width + 2 * THICK)

    @property
    def pixel_height(self) -> str:
        return _num(self.height + 2 * THICK)

    @property
    def view_box(self) -> str:
        pad = THICK
        return f"{-pad:g} {-pad:g} {self.width + 2 * pad:g} {self.height + 2 * pad:g}"

    @property
    def aspect(self) -> float:
        """Height over width, with the padding of the view box."""
        pad = 2 * THICK
        return (self.height + pad) / (self.width + pad)

    @cached_property
    def grid(self) -> str:
        """SVG path data of every line between cells (and along the edge), each drawn once:
        the thin lines the cells' polygons draw, as one path."""
        if self.hex:
            return _hex_grid(self.cells)
        return _square_grid(self.cells)

    @cached_property
    def shaded(self) -> str:
        """SVG path data of the given cells (their grey), rows of squares as one rectangle."""
        if self.hex:
            return " ".join(_polygon_path(s.corners) for s in self.cells if s.given)
        runs = _runs((r, c) for (r, c), given in ((s.cell, s.given) for s in self.cells) if given)
        return " ".join(f"M{_num(first * SIDE)} {_num(line * SIDE)}H{_num((last + 1) * SIDE)}"
                        f"V{_num((line + 1) * SIDE)}H{_num(first * SIDE)}Z" for line, first, last in runs)

    @cached_property
    def given_numbers(self) -> Numbers:
        """The givens (bold) as one text, each digit placed so that each number is centred."""
        return self._numbers(True)

    @cached_property
    def other_numbers(self) -> Numbers:
        """The other numbers shown (a solution's) as one text, as ``given_numbers``."""
        return self._numbers(False)

    def _numbers(self, given: bool) -> Numbers:
        digit = (BOLD_DIGIT_EM if given else DIGIT_EM) * self.font_size
        text, xs, ys = [], [], []
        for shape in self.cells:
            if shape.text and shape.given == given:
                left = shape.x - len(shape.text) * digit / 2
                text.append(shape.text)
                xs += [_num(left + k * digit) for k in range(len(shape.text))]
                ys += [_num(shape.y)] * len(shape.text)
        return Numbers("".join(text), " ".join(xs), " ".join(ys))

    def fit(self, width_mm: float, height_mm: float) -> tuple[float, float]:
        """The largest (width, height) in mm with this board's proportions inside a box."""
        pad = 2 * THICK
        return fit(self.width + pad, self.height + pad, width_mm, height_mm)


def fit(width: float, height: float, box_width: float, box_height: float) -> tuple[float, float]:
    """The largest (width, height) with the proportions of ``width`` x ``height`` inside a
    box, rounded to hundredths (of a mm, as printed)."""
    aspect = height / width
    fitted = min(box_width, box_height / aspect)
    return round(fitted, 2), round(fitted * aspect, 2)


def extent(board: Board) -> tuple[float, float]:
    """The width and height of a board's drawing in SVG units, without the outline's pad:
    a hex board's odd rows stand half a cell to the right, and its rows are 3/4 of a
    hexagon's height apart."""
    if board.adjacency == "hex":
        shifted = any(r % 2 for r, c in board.cells if c == board.cols - 1)
        width = SIDE * (board.cols + (0.5 if shifted else 0))
        return round(width, 2), round(HEX_RADIUS * (2 + 1.5 * (board.rows - 1)), 2)
    return round(SIDE * board.cols, 2), round(SIDE * board.rows, 2)


def _num(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _font_size(largest: int, hex_board: bool) -> float:
    digits = len(str(largest))
    scale = {1: 0.5, 2: 0.5, 3: 0.4}.get(digits, 0.31)
    return round(SIDE * scale * (0.9 if hex_board else 1.0), 2)


def draw_board(puzzle: Puzzle, values: Mapping[Cell, int] | None = None,
               highlight: Iterable[Cell] = ()) -> Drawing:
    """The drawing of ``puzzle``: givens, plus ``values`` (a solution) in the other cells."""
    board = puzzle.board
    hex_board = board.adjacency == "hex"
    marked = frozenset(highlight)
    shown = dict(values or {})
    shown.update(puzzle.givens)
    font = _font_size(board.size, hex_board)
    cells = []
    edges = []
    cell_set = board.cell_set
    for cell in board.cells:
        r, c = cell
        corners = _hex_corners(r, c) if hex_board else _square_corners(r, c)
        cx = sum(x for x, _ in corners) / len(corners)
        cy = sum(y for _, y in corners) / len(corners)
        value = shown.get(cell)
        cells.append(CellShape(
            cell=cell,
            points=" ".join(f"{_num(x)},{_num(y)}" for x, y in corners),
            x=round(cx, 2),
            y=round(cy + font * 0.36, 2),  # about half the height of a digit below the centre
            text="" if value is None else str(value),
            given=cell in puzzle.givens,
            highlight=cell in marked,
            corners=tuple(corners),
        ))
        if hex_board:
            sides = [((even if r % 2 == 0 else odd), a, b) for even, odd, a, b in _HEX_SIDES]
        else:
            sides = list(_SQUARE_SIDES)
        for (dr, dc), a, b in sides:
            if (r + dr, c + dc) not in cell_set:
                edges.append((corners[a], corners[b]))
    width, height = extent(board)
    outline = " ".join(f"M{_num(a[0])} {_num(a[1])}L{_num(b[0])} {_num(b[1])}" for a, b in edges)
    return Drawing(width, height, tuple(cells), outline, font, hex_board,
                   board.rows, board.cols, edges=tuple(edges))


def _runs(units: Iterable[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(line, first, last) for each run of consecutive positions on a line."""
    runs: list[tuple[int, int, int]] = []
    for line, position in sorted(set(units)):
        if runs and runs[-1][0] == line and runs[-1][2] == position - 1:
            runs[-1] = (line, runs[-1][1], position)
        else:
            runs.append((line, position, position))
    return runs


def _square_grid(cells: Iterable[CellShape]) -> str:
    """Every side of every square once, joined into the longest straight lines."""
    across: list[tuple[int, int]] = []  # (row line, column) of each unit of a horizontal line
    down: list[tuple[int, int]] = []  # (column line, row) of each unit of a vertical line
    for shape in cells:
        r, c = shape.cell
        across += [(r, c), (r + 1, c)]
        down += [(c, r), (c + 1, r)]
    lines = [f"M{_num(first * SIDE)} {_num(y * SIDE)}H{_num((last + 1) * SIDE)}" for y, first, last in _runs(across)]
    lines += [f"M{_num(x * SIDE)} {_num(first * SIDE)}V{_num((last + 1) * SIDE)}" for x, first, last in _runs(down)]
    return " ".join(lines)


def _hex_grid(cells: Iterable[CellShape]) -> str:
    """Every side of every hexagon once (a side two cells share is drawn by one)."""
    seen: set[tuple[str, str]] = set()
    lines = []
    for shape in cells:
        corners = [f"{_num(x)} {_num(y)}" for x, y in shape.corners]
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True):
            key = (a, b) if a < b else (b, a)
            if key not in seen:
                seen.add(key)
                lines.append(f"M{a}L{b}")
    return " ".join(lines)


def _polygon_path(corners: Iterable[Point]) -> str:
    return "M" + "L".join(f"{_num(x)} {_num(y)}" for x, y in corners) + "Z"


def _square_corners(r: int, c: int) -> list[Point]:
    x, y = c * SIDE, r * SIDE
    return [(x, y), (x + SIDE, y), (x + SIDE, y + SIDE), (x, y + SIDE)]


def _hex_corners(r: int, c: int) -> list[Point]:
    s = HEX_RADIUS
    cx = SIDE * (c + 0.5 + 0.5 * (r % 2))
    cy = s + 1.5 * s * r
    half = SIDE / 2
    return [(cx, cy - s), (cx + half, cy - s / 2), (cx + half, cy + s / 2),
            (cx, cy + s), (cx - half, cy + s / 2), (cx - half, cy - s / 2)]


def differing_cells(first: Mapping[Cell, int], second: Mapping[Cell, int]) -> list[Cell]:
    """The cells where two solutions hold different numbers, in reading order."""
    return sorted(cell for cell in first if first[cell] != second.get(cell))
