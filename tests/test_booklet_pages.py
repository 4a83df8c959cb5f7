"""A booklet's pages as a teacher prints them, read back from the PDF (poppler's pdfinfo
and pdftotext with each word's place): no worksheet cell under 9 mm on any layout the
form allows, the answer key small and complete, and the form saying beforehand what
the PDF then does."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from engine import SHAPES, Board, Puzzle, puzzle_to_id, shape_board, shape_cells
from engine.paths import random_hamiltonian_path
from webapp.core.stored import StoredPuzzle
from webapp.paper.booklet import BookletOptions, layout, make_puzzles, render_pdf
from webapp.paper.fits import TOO_BIG_MARK, per_page_facts
from webapp.paper.layout import (
    MIN_CELL_MM,
    PAPERS,
    PUZZLE_GRIDS,
    WORKSHEET_HEAD_MM,
    board_box,
    content,
)

from pdf_boards import board_words, read_board, read_the_key, shares, words
from pdf_tools import page_count, text

SITE = "https://hidato.example.org"
# Hidato and Numbrix draw the same square cells, Hex hexagons: a shape's boards on paper
# are its king and its hex boards. The square is the rectangle again (the same builder).
KINDS = [(name, adjacency) for name, spec in SHAPES.items() if name != "square"
         for adjacency in ("king", "hex") if spec.takes(adjacency)]


def edge_sizes(paper: str, qr: bool) -> list[tuple[str, int, str]]:
    """Each shape's usual size, and the sizes where the layout is tightest: the largest
    that still goes 4 to a page and the next, the largest that goes 2 and the next (the
    form's facts name them; the largest sizes are ``test_one_to_a_page_...``'s)."""
    facts = per_page_facts(qr)["sizes"][paper]
    chosen = []
    for name, adjacency in KINDS:
        spec = SHAPES[name]
        sizes = dict(zip(range(spec.min_size, spec.max_size + 1), facts[adjacency][name].split(), strict=True))
        edges = {spec.default_size}
        for most in ("4", "2"):
            fitting = [size for size, entry in sizes.items() if entry[0] == most]
            edges.update({fitting[-1], min(fitting[-1] + 1, spec.max_size)} if fitting else set())
        chosen += [(name, size, adjacency) for size in sorted(edges)]
    return chosen


def path_puzzle(shape: str, size: int, adjacency: str, seed: int) -> StoredPuzzle:
    """A real board with a real path through every cell as its solution (engine.paths),
    every fourth number given: what the layout and the reading need, in milliseconds
    (generating a unique 400-cell puzzle takes seconds)."""
    board = shape_board(shape, size, adjacency)  # type: ignore[arg-type]
    order = random_hamiltonian_path(board, random.Random(seed))
    solution = {board.cells[index]: number for number, index in enumerate(order, start=1)}
    givens = {cell: number for cell, number in solution.items() if number % 4 == 1 or number == board.size}
    puzzle = Puzzle(board, givens)
    return StoredPuzzle(puzzle_to_id(puzzle), puzzle, solution, shape, size, "easy",
                        grade={"level": "easy", "rating": 1.5, "length": 1, "uses": {}})


def path_puzzles(chosen: list[tuple[str, int, str]]) -> list[StoredPuzzle]:
    return [path_puzzle(shape, size, adjacency, seed) for seed, (shape, size, adjacency) in enumerate(chosen)]


def printed_extent(cell_mm: float, board: Board) -> tuple[float, float]:
    """A board's printed width and height from its cells' width."""
    hexes = board.adjacency == "hex"
    columns = [c + (0.5 if hexes and r % 2 else 0) for r, c in board.cells]
    rows = board.rows * (0.866 if hexes else 1)
    return cell_mm * (max(columns) - min(columns) + 1), cell_mm * rows


@pytest.mark.slow
@pytest.mark.parametrize("qr", [True, False], ids=["qr", "no-qr"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_no_worksheet_cell_prints_under_9_mm(tmp_path: Path, paper: str, qr: bool) -> None:
    """Every shape's usual and largest boards, and the largest that go 4 and 2 to a page,
    asked 4 to a page: each board's cells, measured from where its numbers print, are at
    least 9 mm wide, boards going 2 or 1 to a page as they need (what fits 4 to a page
    fits 2 and 1: ``test_a_board_gets_more_room_the_fewer_to_a_page``); a board too big
    even alone on a page fills the page, and the first page says its cells are smaller."""
    boards = path_puzzles(edge_sizes(paper, qr))
    check_cells(boards, 4, paper, qr, tmp_path, read_solutions=paper == "a4" and not qr)


@pytest.mark.slow
def test_one_to_a_page_the_largest_boards_fill_the_page_and_say_so(tmp_path: Path) -> None:
    """Asked one to a page, some of the largest sizes the form offers (a 42-cell arrow, a
    star 33 cells wide): under 9 mm only where even a whole page cannot do better, and
    the booklet says so."""
    largest = [(name, SHAPES[name].max_size, adjacency)
               for name, adjacency in (("arrow", "king"), ("star", "king"), ("star", "hex"), ("triangle", "hex"),
                                       ("rectangle", "king"))]
    too_big = check_cells(path_puzzles(largest), 1, "letter", True, tmp_path, read_solutions=False)
    assert len(too_big) == 4, too_big  # the 21 x 21 square's cells are 9.2 mm on Letter


def check_cells(boards: list[StoredPuzzle], asked: int, paper: str, qr: bool, folder: Path,
                read_solutions: bool) -> list[str]:
    """Render the booklet and read every board back: its givens in their cells, cells of
    9 mm or more but for boards alone on a page as large as the page allows (returned)."""
    links = {stored.code: f"{SITE}/s/{index + 10:x}" for index, stored in enumerate(boards)} if qr else None
    pdf = folder / "cells.pdf"
    pdf.write_bytes(render_pdf(boards, asked, "Cells", links, paper))
    laid_out = layout(boards, asked, paper, qr)
    assert page_count(pdf) == laid_out.page_count
    pages = words(pdf)
    width, height = content(paper)
    too_big = []
    for page, (grid, places) in enumerate(laid_out.worksheets):
        assert grid.per_page <= asked
        for share, place in zip(shares(paper, grid, WORKSHEET_HEAD_MM), places, strict=False):
            stored = boards[place]
            givens = dict(stored.puzzle.givens)
            reading = read_board(board_words(pages[page], share, "Puzzle", place + 1),
                                 {number: cell for cell, number in givens.items()}, stored.adjacency == "hex")
            assert reading.numbers == givens and not reading.misplaced, (stored.shape, stored.size)
            if reading.cell_mm >= MIN_CELL_MM - 0.01:  # pdftotext's places are to a hundredth of a point
                continue
            # Under 9 mm only alone on a page, as large as the page allows.
            board_width, board_height = printed_extent(reading.cell_mm, stored.puzzle.board)
            where = f"{stored.shape} {stored.size} {stored.adjacency}: {reading.cell_mm:.2f} mm"
            assert grid.per_page == 1, where
            assert board_width > 0.95 * width or board_height > 0.85 * (height - WORKSHEET_HEAD_MM), where
            too_big.append(where)
    first = " ".join(text(pdf, 1).split())
    assert ("Even one to a page, some cells of these boards print under 9 mm wide" in first) == bool(too_big)
    if read_solutions:
        read_the_key(boards, laid_out.solutions, pages[len(laid_out.worksheets):], paper)
    return too_big


def test_a_board_gets_more_room_the_fewer_to_a_page() -> None:
    """A board's box at 1 to a page holds its box at 2, which holds its box at 4, with
    QR codes or without, on both papers: a board that fits 4 to a page fits 2 and 1."""
    for paper in PAPERS:
        for qr in (False, True):
            boxes = [board_box(paper, PUZZLE_GRIDS[n], True, qr) for n in (4, 2, 1)]
            for smaller, larger in zip(boxes, boxes[1:], strict=False):
                assert smaller[0] <= larger[0] and smaller[1] <= larger[1], (paper, qr, boxes)


@pytest.mark.slow
def test_twelve_puzzles_at_one_a_page_have_their_solutions_on_at_most_three_pages(tmp_path: Path) -> None:
    """The answer key of 12 puzzles printed one to a page: small, labelled with each
    puzzle's number, every number of every solution where it belongs."""
    options = BookletOptions("rectangle", 10, "medium", "king", 12, 1, seed=5)
    puzzles = make_puzzles(options)
    pdf = tmp_path / "twelve.pdf"
    pdf.write_bytes(render_pdf(puzzles, 1, "Twelve"))
    pages = page_count(pdf)
    assert pages - 12 <= 3  # 12 pages of puzzles, then the solutions
    for page in range(1, 13):
        assert f"Puzzle {page} of 12" in text(pdf, page)
    laid_out = layout(puzzles, 1)
    assert len(laid_out.solutions) == pages - 12
    key_text = "".join(text(pdf, page) for page in range(13, pages + 1))
    assert [int(n) for n in re.findall(r"Solution (\d+)\b", key_text)] == list(range(1, 13))
    read_the_key(puzzles, laid_out.solutions, words(pdf)[12:], "a4")


def test_the_forms_facts_are_the_layouts() -> None:
    """What the form says for every shape, size, variant and paper is what the layout of
    the PDF does with that board (fits.py only tabulates layout.py)."""
    for qr in (False, True):
        facts = per_page_facts(qr)
        for paper in PAPERS:
            for adjacency in ("king", "rook", "hex"):
                for name, spec in SHAPES.items():
                    entries = facts["sizes"][paper][adjacency][name].split()
                    assert len(entries) == spec.max_size - spec.min_size + 1
                    for size, entry in zip(range(spec.min_size, spec.max_size + 1), entries, strict=True):
                        board = Board.from_cells(shape_cells(name, size), adjacency)
                        stored = [StoredPuzzle("x", Puzzle(board), {}, name, size)]
                        if entry == TOO_BIG_MARK:
                            assert "Even one to a page" in layout(stored, 1, paper, qr).note, (name, size)
                            continue
                        assert [layout(stored, asked, paper, qr).per_page for asked in (4, 2)] == [
                            int(entry[0]), int(entry[1])], (paper, adjacency, name, size)


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"shape": "heart", "size": "12", "per_page": "4"}, "Printed 2 to a page (not 4) so that every cell is at "
                                                            "least 9 mm wide."),
        ({"shape": "heart", "size": "12", "per_page": "2"}, ""),
        ({"shape": "square", "size": "15", "per_page": "4"}, "Printed 1 to a page (not 4)"),
        ({"shape": "arrow", "size": "42", "per_page": "1"}, "Even one to a page, some cells of these boards print "
                                                            "under 9 mm wide"),
        ({"shape": "mixed", "size": "", "per_page": "2"}, "Some shapes go fewer than 2 to a page"),
        ({"shape": "mixed", "size": "", "per_page": "4", "variant": "numbrix"}, ""),
        ({"shape": "square", "size": "8", "per_page": "4"}, ""),
    ],
)
def test_the_form_says_beside_per_page_what_the_pdf_will_do(client: FlaskClient, form: dict[str, str],
                                                            said: str) -> None:
    """Without scripts too: the form as sent back (here with a count it refuses) says it."""
    data = {"difficulty": "easy", "variant": "hidato", "count": "0", "paper": "a4", **form}
    html = client.post("/booklet", data=data).get_data(as_text=True)
    note = re.search(r'<p id="per_page-note"[^>]*>([^<]*)</p>', html)
    assert note is not None
    if said:
        assert said in note.group(1).replace("\u00a0", " ")  # "9 mm" kept on one line
        assert "9\u00a0mm" in note.group(1)
    else:
        assert note.group(1) == ""
    assert 'aria-describedby="per_page-note"' in html and 'data-fits="{' in html
