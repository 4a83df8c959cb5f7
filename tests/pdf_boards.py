"""Boards read back from a booklet's PDF: where poppler's ``pdftotext -bbox`` finds each
number, turned into the printed width of a cell and the number in each cell.

A board's numbers are centred in their cells, so their printed centres step by one
cell's width from column to column (hex boards: odd rows half a cell further right).
Fitting those centres to the cells the numbers belong to (the solution says which)
gives the printed cell width in mm, and shows whether every number sits in its cell.
"""

from __future__ import annotations

import html
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from engine import Cell
from webapp.core.stored import StoredPuzzle
from webapp.paper.layout import (
    GAP_MM,
    MARGIN_BOTTOM_MM,
    MARGIN_SIDE_MM,
    MARGIN_TOP_MM,
    MIN_SOLUTION_CELL_MM,
    PAPERS,
    SOLUTION_HEAD_MM,
    Grid,
)

from pdf_tools import tool

PT_MM = 25.4 / 72  # a PDF point in mm
_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>')


@dataclass(frozen=True)
class Word:
    """A word as poppler places it on its page, in mm from the top left corner."""

    text: str
    left: float
    top: float
    right: float
    bottom: float

    @property
    def x(self) -> float:
        return (self.left + self.right) / 2

    @property
    def y(self) -> float:
        return (self.top + self.bottom) / 2


def words(pdf: Path) -> list[list[Word]]:
    """Every page's words (pages from 0)."""
    out = subprocess.run([tool("pdftotext"), "-bbox", str(pdf), "-"], check=True, capture_output=True,
                         timeout=120).stdout.decode()
    pages = []
    for page in out.split("<page ")[1:]:
        pages.append([Word(html.unescape(text), float(x0) * PT_MM, float(y0) * PT_MM, float(x1) * PT_MM,
                           float(y1) * PT_MM) for x0, y0, x1, y1, text in _WORD.findall(page)])
    return pages


Box = tuple[float, float, float, float]  # left, top, right, bottom in mm


def inside(found: list[Word], box: Box) -> list[Word]:
    left, top, right, bottom = box
    return [word for word in found if left <= word.x <= right and top <= word.y <= bottom]


@dataclass(frozen=True)
class Reading:
    """A board as printed: how wide its cells are, and what number each cell shows."""

    cell_mm: float
    numbers: dict[Cell, int]  # the numbers found at the cells' places
    misplaced: list[int]  # numbers found away from any cell's place


def read_board(found: list[Word], where: dict[int, Cell], hex_board: bool) -> Reading:
    """Fit the printed numbers' centres to their cells (``where``: number -> cell) by
    least squares, one cell's width a column and a row's height a row; then read which
    number stands at each cell's place (within a third of a cell)."""
    placed = [(int(word.text), word) for word in found if word.text.isdigit() and int(word.text) in where]
    assert len(placed) >= 2, f"fewer than two numbers of the board found: {[w.text for w in found][:20]}"

    def column(cell: Cell) -> float:
        return cell[1] + (0.5 if hex_board and cell[0] % 2 else 0.0)

    def fit(pairs: list[tuple[float, float]]) -> tuple[float, float]:
        n = len(pairs)
        mean_u = sum(u for u, _ in pairs) / n
        mean_v = sum(v for _, v in pairs) / n
        spread = sum((u - mean_u) ** 2 for u, _ in pairs)
        assert spread > 0, "the numbers found all stand in one column or row"
        slope = sum((u - mean_u) * (v - mean_v) for u, v in pairs) / spread
        return slope, mean_v - slope * mean_u

    width, x0 = fit([(column(where[value]), word.x) for value, word in placed])
    height, y0 = fit([(float(where[value][0]), word.y) for value, word in placed])
    numbers: dict[Cell, int] = {}
    misplaced = []
    for value, word in placed:
        cell = (round((word.y - y0) / height), 0)
        col = (word.x - x0) / width - (0.5 if hex_board and cell[0] % 2 else 0.0)
        cell = (cell[0], round(col))
        if abs(col - cell[1]) > 1 / 3 or abs((word.y - y0) / height - cell[0]) > 1 / 3 or cell in numbers:
            misplaced.append(value)
        else:
            numbers[cell] = value
    return Reading(width, numbers, misplaced)


def shares(paper: str, grid: Grid, head_mm: float) -> list[Box]:
    """Each board's share of a page (left, top, right, bottom in mm), as booklet.css lays
    out the grid: the area under the page's head in columns and rows, a gap between."""
    width, height = PAPERS[paper]
    top, bottom = MARGIN_TOP_MM + head_mm, height - MARGIN_BOTTOM_MM
    column = (width - 2 * MARGIN_SIDE_MM - GAP_MM * (grid.columns - 1)) / grid.columns
    row = (bottom - top - GAP_MM * (grid.rows - 1)) / grid.rows
    return [(MARGIN_SIDE_MM + c * (column + GAP_MM), top + r * (row + GAP_MM),
             MARGIN_SIDE_MM + c * (column + GAP_MM) + column, top + r * (row + GAP_MM) + row)
            for r in range(grid.rows) for c in range(grid.columns)]


def board_words(page: list[Word], share: Box, label: str, number: int) -> list[Word]:
    """The words of the board in a share: those above its caption ("Puzzle 3 of 12",
    "Solution 3"), which must be there."""
    found = inside(page, share)
    captions = [word for first, word in zip(found, found[1:], strict=False)
                if first.text == label and word.text == str(number)]
    assert captions, f"no caption {label} {number} in {share}: {[w.text for w in found][-12:]}"
    return [word for word in found if word.bottom < captions[0].top]


def read_the_key(boards: list[StoredPuzzle], key: tuple[tuple[Grid, tuple[int, ...]], ...],
                 pages: list[list[Word]], paper: str) -> None:
    """Every solution in the answer key, each number in its cell; cells at least
    MIN_SOLUTION_CELL_MM wide, but for boards alone on a page."""
    seen = []
    for page, (grid, places) in zip(pages, key, strict=True):
        for share, place in zip(shares(paper, grid, SOLUTION_HEAD_MM), places, strict=False):
            stored = boards[place]
            reading = read_board(board_words(page, share, "Solution", place + 1),
                                 {number: cell for cell, number in stored.solution.items()},
                                 stored.adjacency == "hex")
            assert reading.numbers == stored.solution and not reading.misplaced, (stored.shape, stored.size)
            assert reading.cell_mm >= MIN_SOLUTION_CELL_MM - 0.01 or grid.per_page == 1, reading.cell_mm
            seen.append(place)
    assert seen == list(range(len(boards)))
