"""Where boards go on paper: the page's grid, each board's box, and how wide its cells print.

A page of puzzles holds 1, 2 or 4 boards; a worksheet's cells print at least
``MIN_CELL_MM`` wide, room for a child to write three digits, so a booklet asked for 4
to a page falls back to 2, or 2 to 1, when a board's cells would be smaller (a board too
big even alone on a page stays 1 to a page, and the booklet says so).  The solutions at
the back are small, up to 12 to a page, as many as keep every cell ``MIN_SOLUTION_CELL_MM``
wide, numbers a teacher reads at a glance.

Everything is measured on a board's drawing (``drawing.py``) fitted into its box, the
same sizes in mm that ``booklet.py`` gives WeasyPrint, so what is decided here is what
prints.  No puzzles here: only boards' extents, paper and grids, so the booklet form can
ask what a shape and size would get before any puzzle is made.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .drawing import SIDE, THICK, fit

# Paper sizes (width, height in mm) and the margins every page keeps.
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MARGIN_SIDE_MM, MARGIN_TOP_MM, MARGIN_BOTTOM_MM = 10.0, 14.0, 16.0
WORKSHEET_HEAD_MM = 24.0  # name and date, the heading and the rule (up to 3 lines) on a page of puzzles
SOLUTION_HEAD_MM = 12.0  # the heading on a page of solutions
GAP_MM = 4.0  # between boards' shares
CAPTION_MM = 10.0  # "Puzzle 3 of 12" and what the puzzle is, under a board, two lines
SOLUTION_LINE_MM = 3.6  # a line of a solution's caption ("Solution 3 · Medium (rating 2.4)"), 8 pt
QR_MM = 16.0  # the side of a puzzle's QR code, beside its caption, one to a page
QR_SMALL_MM = 13.0  # at 2 and 4 to a page (short links make sparse codes that scan at this size)
SAFETY_MM = 3.0  # text lines come out a little taller than their nominal height
MIN_CELL_MM = 9.0  # a child writes up to three digits in a worksheet's cell
# A solution's cell: its numbers are 0.4 of it at three digits (drawing.py), 2 mm, and
# 2.5 mm at one or two: small print, read by a teacher checking answers.
MIN_SOLUTION_CELL_MM = 5.0
PAD = 2 * THICK  # the drawing's view box holds the outline's thickness on each side


@dataclass(frozen=True)
class Grid:
    """Boards on a page: how many, in how many columns and rows."""

    per_page: int
    columns: int
    rows: int


PUZZLE_GRIDS = {1: Grid(1, 1, 1), 2: Grid(2, 1, 2), 4: Grid(4, 2, 2)}
PER_PAGE = tuple(PUZZLE_GRIDS)
# The answer key's pages, most to a page first; a booklet takes the first whose cells
# are all wide enough.
SOLUTION_GRIDS = (Grid(12, 3, 4), Grid(9, 3, 3), Grid(6, 2, 3), Grid(4, 2, 2), Grid(2, 1, 2), Grid(1, 1, 1))

Extent = tuple[float, float]  # a board's drawing without its outline's pad: (width, height) in SVG units


def content(paper: str) -> tuple[float, float]:
    """The printable width and height of a page, in mm."""
    width, height = PAPERS[paper]
    return width - 2 * MARGIN_SIDE_MM, height - MARGIN_TOP_MM - MARGIN_BOTTOM_MM


def qr_mm(per_page: int, least: float = 0.0) -> float:
    """The side of a QR code: smaller at 2 and 4 to a page, where the boards need the room
    (so a board's box at 2 to a page is as tall as at 4 and wider: what fits 4 fits 2), and
    never under ``least`` (the side a long link's dense code needs to scan)."""
    return max(QR_SMALL_MM if per_page > 1 else QR_MM, least)


# ``qr`` below: 0 (or False) for pages without QR codes; else the least side in mm the
# codes need (True, 1: the usual sizes; more for long links, see booklet.qr_side).


def board_box(paper: str, grid: Grid, worksheet: bool, qr: float) -> tuple[float, float]:
    """The box one board gets on a page, in mm: its share of the boards' area, less its
    caption (as tall as the QR code when there is one)."""
    width, height = content(paper)
    head = WORKSHEET_HEAD_MM if worksheet else SOLUTION_HEAD_MM
    caption = (qr_mm(grid.per_page, qr) + 2 if qr else CAPTION_MM) if worksheet else solution_caption_mm(grid)
    return ((width - GAP_MM * (grid.columns - 1)) / grid.columns,
            (height - head - GAP_MM * (grid.rows - 1)) / grid.rows - caption - SAFETY_MM)


def solution_caption_mm(grid: Grid) -> float:
    """The height of a solution's caption: two lines in a third of the page's width, where
    "Solution 12 · Medium (rating 2.4)" may wrap, one line in a half or more."""
    return 1 + SOLUTION_LINE_MM * (2 if grid.columns > 2 else 1)


def cell_mm(extent: Extent, box: tuple[float, float]) -> float:
    """How wide a cell prints when a board of this extent is fitted into the box."""
    width, height = extent
    printed, _height = fit(width + PAD, height + PAD, *box)
    return printed * SIDE / (width + PAD)


Page = tuple[Grid, tuple[int, ...]]  # a page: its grid, and its boards' places in the booklet (from 0)


def fitting(extents: list[Extent], grids: Iterable[Grid], paper: str, worksheet: bool, qr: float) -> list[set[int]]:
    """For each board, the grids (by how many to a page) whose cells for it are wide enough:
    MIN_CELL_MM on a worksheet, MIN_SOLUTION_CELL_MM in the answer key."""
    least = MIN_CELL_MM if worksheet else MIN_SOLUTION_CELL_MM
    boxes = {grid.per_page: board_box(paper, grid, worksheet, qr) for grid in grids}
    return [{per_page for per_page, box in boxes.items() if cell_mm(extent, box) >= least} for extent in extents]


def paginate(extents: list[Extent], choices: tuple[Grid, ...], paper: str, worksheet: bool, qr: float) -> list[Page]:
    """The boards on pages, in their order: a page takes the next board while a grid of
    ``choices`` (most to a page first) holds them all with every cell wide enough; when
    none does, a new page begins.  A page cut short that way takes, on a worksheet, the
    smallest grid that holds its boards (larger boards rather than empty shares); the
    last page, and every page of the answer key, the largest (boards the same size as
    their neighbours').  A board too big for any grid goes alone on a page of the last."""
    fits = fitting(extents, choices, paper, worksheet, qr)

    def grids_for(members: list[int]) -> list[Grid]:
        return [grid for grid in choices
                if grid.per_page >= len(members) and all(grid.per_page in fits[i] for i in members)]

    pages: list[Page] = []
    page: list[int] = []
    for index in range(len(extents)):
        if not page or grids_for([*page, index]):
            page.append(index)
            continue
        held = grids_for(page) or [choices[-1]]
        pages.append((held[-1] if worksheet else held[0], tuple(page)))
        page = [index]
    if page:
        pages.append(((grids_for(page) or [choices[-1]])[0], tuple(page)))
    return pages


def puzzle_pages(extents: list[Extent], asked: int, paper: str, qr: float) -> list[Page]:
    """The worksheets: up to ``asked`` boards to a page, fewer (4, then 2, then 1) where a
    board's cells would print under MIN_CELL_MM."""
    choices = tuple(PUZZLE_GRIDS[n] for n in sorted(PUZZLE_GRIDS, reverse=True) if n <= asked)
    return paginate(extents, choices, paper, True, qr)


def solution_pages(extents: list[Extent], paper: str) -> list[Page]:
    """The answer key: up to 12 solutions to a page, as many as keep every cell
    MIN_SOLUTION_CELL_MM wide."""
    return paginate(extents, SOLUTION_GRIDS, paper, False, False)
