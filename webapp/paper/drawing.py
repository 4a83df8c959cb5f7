"""The one drawing of a board: the shapes of an SVG picture, for the screen, print and PDF.

``draw_board`` turns a puzzle (and optionally the numbers of a solution) into plain
geometry: one square or hexagon per cell, the number in it, and the outline of the
board as thick segments along every edge that has no cell beyond it.  The template
``_board_svg.html`` writes that out as SVG with presentation attributes only (no CSS),
so the browser, its print view and WeasyPrint draw exactly the same picture.  Holes
are not drawn at all: they stay blank paper.

The same geometry is drawn as a PNG for shared links (``preview.py``): the cells'
corners and the outline's segments are kept as numbers too.

Pure Python, no Flask: the booklet command renders it without an app.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine import Board, Cell, Puzzle

from ..core.game import cell_name

SIDE = 40.0  # a square cell's side, and a hexagon's width, in SVG units
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
