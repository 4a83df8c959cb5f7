"""Where the boards land on a printed page: each centred in its share of the page, its
caption just under it and no wider, for 1, 2 and 4 to a page on A4 and US Letter and on
the answer key's pages, with boards whose height binds (a heart, a diamond two to a
page), a wide triangle and a hex board. Measured on the PDF rasterised by poppler's
pdftoppm, as a reader sees it."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from webapp.paper.booklet import BookletOptions, layout, make_puzzles, render_pdf
from webapp.paper.layout import (
    GAP_MM,
    MARGIN_BOTTOM_MM,
    MARGIN_SIDE_MM,
    MARGIN_TOP_MM,
    PAPERS,
    PUZZLE_GRIDS,
    SOLUTION_HEAD_MM,
    WORKSHEET_HEAD_MM,
    Grid,
)

from pdf_tools import page_count, render_png

DPI = 72
PX_MM = DPI / 25.4  # pixels a millimetre
DARK = 160
SHAPES = (("heart", 12, "king"), ("diamond", 5, "king"), ("triangle", 8, "king"), ("hexagon", 5, "hex"))


@pytest.fixture(scope="module")
def mixed_boards():
    """A tall-binding heart and diamond, a wide triangle and a hex board, in one booklet."""
    return [stored for shape, size, adjacency in SHAPES
            for stored in make_puzzles(BookletOptions(shape, size, "easy", adjacency, 1, 1, seed=3))]


def _runs(flags: list[bool]) -> list[tuple[int, int]]:
    """The (first, last) index of each run of True."""
    found, start = [], None
    for index, flag in enumerate([*flags, False]):
        if flag and start is None:
            start = index
        elif not flag and start is not None:
            found.append((start, index - 1))
            start = None
    return found


def _shares(paper: str, grid: Grid, head_mm: float) -> list[tuple[float, float, float, float]]:
    """Each board's share of the page (left, top, right, bottom in mm): the boards' area
    split into the grid's columns and rows, a gap between them."""
    width, height = PAPERS[paper]
    top, bottom = MARGIN_TOP_MM + head_mm, height - MARGIN_BOTTOM_MM
    column = (width - 2 * MARGIN_SIDE_MM - GAP_MM * (grid.columns - 1)) / grid.columns
    row = (bottom - top - GAP_MM * (grid.rows - 1)) / grid.rows
    return [(MARGIN_SIDE_MM + c * (column + GAP_MM), top + r * (row + GAP_MM),
             MARGIN_SIDE_MM + c * (column + GAP_MM) + column, top + r * (row + GAP_MM) + row)
            for r in range(grid.rows) for c in range(grid.columns)]


def measure(png: Path, share: tuple[float, float, float, float]) -> dict[str, float]:
    """The board in a share (its tallest block of inked rows) and the words under it, in mm:
    margins left and right of the board, the gap down to the caption, the caption's sides."""
    image = Image.open(png).convert("L")
    pixels = image.load()
    assert pixels is not None
    x0, y0, x1, y1 = (round(v * PX_MM) for v in share)
    xs, ys = range(x0 + 1, x1 - 1), range(y0 + 1, y1 - 1)
    dark = [[x for x in xs if pixels[x, y] < DARK] for y in ys]  # type: ignore[operator]
    blocks = _runs([bool(row) for row in dark])
    assert blocks, f"nothing printed in {share}"
    board = max(range(len(blocks)), key=lambda i: blocks[i][1] - blocks[i][0])
    top, bottom = blocks[board]
    board_xs = [x for row in dark[top:bottom + 1] for x in row]
    below = [x for first, last in blocks[board + 1:] for row in dark[first:last + 1] for x in row]
    assert below, f"no caption under the board in {share}"
    return {
        "left": (min(board_xs) - x0) / PX_MM,
        "right": (x1 - max(board_xs)) / PX_MM,
        "gap": (blocks[board + 1][0] - bottom) / PX_MM,
        "caption_left": (min(below) - min(board_xs)) / PX_MM,
        "caption_right": (max(board_xs) - max(below)) / PX_MM,
        "board_height": (bottom - top) / PX_MM,
    }


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("per_page", [1, 2, 4])
def test_every_board_is_centred_in_its_share_with_its_caption_under_it(
        mixed_boards, tmp_path: Path, artifacts_dir: Path, paper: str, per_page: int) -> None:
    pdf = tmp_path / "booklet.pdf"
    pdf.write_bytes(render_pdf(mixed_boards, per_page, "Centring", paper=paper))
    laid_out = layout(mixed_boards, per_page, paper)
    assert page_count(pdf) == laid_out.page_count
    pages = [(grid, places, WORKSHEET_HEAD_MM) for grid, places in laid_out.worksheets]
    pages += [(grid, places, SOLUTION_HEAD_MM) for grid, places in laid_out.solutions]
    seen = 0
    for page, (grid, places, head) in enumerate(pages, start=1):
        png = render_png(pdf, page, artifacts_dir / f"centring-{paper}-{per_page}-{page}", dpi=DPI)
        for share in _shares(paper, grid, head)[:len(places)]:
            found = measure(png, share)
            where = f"page {page} of {paper} at {per_page} a page, share {share}: {found}"
            assert abs(found["left"] - found["right"]) <= 2.5, where  # centred (a pixel is 0.35 mm)
            assert 1.0 <= found["gap"] <= 6.0, where  # the caption just under the board
            assert min(found["caption_left"], found["caption_right"]) >= -1.5, where  # and no wider
            assert found["board_height"] > (30 if head == WORKSHEET_HEAD_MM else 20), where
            seen += 1
    assert seen == 2 * len(mixed_boards)


@pytest.mark.slow
def test_a_heart_two_to_a_letter_page_is_centred(tmp_path: Path, artifacts_dir: Path) -> None:
    """The case of the report: a heart 12, its height binding, used to sit against the right
    edge (78 mm of paper on its left, 1 mm on its right) with its caption far to the left."""
    hearts = make_puzzles(BookletOptions("heart", 12, "easy", "king", 2, 2, seed=1, paper="letter"))
    pdf = tmp_path / "hearts.pdf"
    pdf.write_bytes(render_pdf(hearts, 2, "Hearts", paper="letter"))
    png = render_png(pdf, 1, artifacts_dir / "centring-heart-letter-2", dpi=DPI)
    for share in _shares("letter", PUZZLE_GRIDS[2], WORKSHEET_HEAD_MM):
        found = measure(png, share)
        assert found["left"] > 30 and abs(found["left"] - found["right"]) <= 2.0, found
        assert found["caption_left"] >= -1.5 and found["gap"] <= 6.0, found
