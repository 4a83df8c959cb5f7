"""Booklets of one's own puzzles (webapp/web/own_booklet.py) through Flask's test client:
the PDF holds exactly the puzzles listed, in order, with their solutions (read back with
pdftotext); ids and links are taken; a puzzle without exactly one solution is named with
its place and why, and nothing is printed unless the teacher leaves it out."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
import zxingcpp
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image

from engine import Cell, Puzzle, format_puzzle, generate_shape, puzzle_to_id
from webapp.core.stored import StoredPuzzle
from webapp.paper.booklet import layout

from pdf_boards import read_the_key, words
from pdf_tools import page_count, render_png, text
from puzzle_files import DATA, load

SMALL, SMALL_SOLUTION = load(DATA / "seed000-5x5.txt")
CLASSIC, CLASSIC_SOLUTION = load(DATA / "classic-8x8-40.txt")
RING, RING_SOLUTION = load(DATA / "seed004-ring-diamond-48.txt")
NUMBRIX = generate_shape("square", 5, "medium", "rook", seed=0)  # several solutions as a Hidato
NUMBRIX_ROWS = format_puzzle(NUMBRIX.puzzle).removeprefix("# adjacency: rook\n")  # the board alone
SEVERAL = ". . .\n. . .\n"  # 1 to 6 can be laid out many ways
NONE = "1 3 .\n"  # 2 would have to touch both 1 and 3
SITE = "https://hidato.example.org"


def numbers(words: str) -> list[int]:
    return [int(found) for found in re.findall(r"\d+", words)]


def holds_in_order(words: str, values: list[int]) -> bool:
    """Whether the page's numbers hold ``values`` one after another (a board read row by row)."""
    found = numbers(words)
    return any(found[i:i + len(values)] == values for i in range(len(found) - len(values) + 1))


def row_major(puzzle: Puzzle, values: Mapping[Cell, int]) -> list[int]:
    return [values[cell] for cell in sorted(puzzle.board.cells) if cell in values]


def pdf_of(response: object, folder: Path, name: str = "own") -> Path:
    assert getattr(response, "mimetype", None) == "application/pdf", getattr(response, "data", b"")[:2000]
    path = folder / f"{name}.pdf"
    path.write_bytes(response.data)  # type: ignore[attr-defined]
    return path


def alert(response: object) -> str:
    html = response.get_data(as_text=True)  # type: ignore[attr-defined]
    found = re.search(r'role="alert">(.*?)</div>', html, re.S)
    assert found is not None, html[:3000]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).replace("&#39;", "'").strip()


@pytest.mark.slow
def test_a_booklet_of_pasted_puzzles_holds_exactly_them(client: FlaskClient, tmp_path: Path) -> None:
    pasted = (f"{format_puzzle(SMALL)}\n# adjacency: rook\n{NUMBRIX_ROWS}\n\n"
              f"{format_puzzle(CLASSIC)}")
    response = client.post("/booklet/own", data={"puzzles": pasted, "per_page": "1", "paper": "a4",
                                                 "title": "Week 12"})
    pdf = pdf_of(response, tmp_path)
    assert page_count(pdf) == 4  # three puzzles one to a page, then their solutions on one page
    expected = [(SMALL, SMALL_SOLUTION), (NUMBRIX.puzzle, NUMBRIX.solution), (CLASSIC, CLASSIC_SOLUTION)]
    for number, (puzzle, _solution) in enumerate(expected, start=1):
        sheet = text(pdf, number)
        assert f"Puzzle {number} of 3" in sheet and "Week 12" in sheet
        assert holds_in_order(sheet, row_major(puzzle, puzzle.givens)), number
        assert len(numbers(sheet)) < len(puzzle.givens) + 12  # the givens only, not the solution
    # The answer key: every number of every solution in its cell, in the list's order.
    boards = [StoredPuzzle(puzzle_to_id(puzzle), puzzle, solution) for puzzle, solution in expected]
    laid_out = layout(boards, 1, "a4")
    read_the_key(boards, laid_out.solutions, words(pdf)[len(laid_out.worksheets):], "a4")
    assert "touches the next across a side, not a corner" in text(pdf, 2)  # the rook line was honoured
    assert "Numbrix" in text(pdf, 2)
    assert response.headers["Content-Disposition"].startswith('attachment; filename="hidato-week-12.pdf"')


@pytest.mark.slow
def test_ids_and_links_are_taken(app: Flask, client: FlaskClient, tmp_path: Path) -> None:
    store = app.extensions["hidato"].store
    store.save_puzzle(StoredPuzzle(puzzle_to_id(RING), RING, RING_SOLUTION))
    short = store.short_code(puzzle_to_id(RING))
    listing = (f"{puzzle_to_id(SMALL)}\n"
               f"http://localhost/p/{puzzle_to_id(CLASSIC)}?lang=es\n"
               f"localhost/s/{short}\n")
    response = client.post("/booklet/own", data={"puzzles": listing, "per_page": "2"})
    pdf = pdf_of(response, tmp_path)
    assert page_count(pdf) == 3  # three puzzles two to a page, then their solutions on one page
    first, second = text(pdf, 1), text(pdf, 2)
    assert "Puzzle 1 of 3" in first and "Puzzle 2 of 3" in first and "Puzzle 3 of 3" in second
    assert holds_in_order(first, row_major(SMALL, SMALL.givens))
    assert holds_in_order(first, row_major(CLASSIC, CLASSIC.givens))
    assert holds_in_order(second, row_major(RING, RING.givens))
    boards = [StoredPuzzle(puzzle_to_id(p), p, s)
              for p, s in ((SMALL, SMALL_SOLUTION), (CLASSIC, CLASSIC_SOLUTION), (RING, RING_SOLUTION))]
    laid_out = layout(boards, 2, "a4")
    read_the_key(boards, laid_out.solutions, words(pdf)[len(laid_out.worksheets):], "a4")
    # Pasted puzzles the site did not know are stored now, as a generated booklet's are.
    assert store.find_puzzle(puzzle_to_id(SMALL)) is not None


@pytest.mark.slow
def test_the_qr_codes_carry_short_links_to_the_pasted_puzzles(tmp_path: Path,
                                                             make_app: Callable[..., Flask]) -> None:
    app = make_app(tmp_path / "instance", PUBLIC_URL=SITE)
    client = app.test_client()
    response = client.post("/booklet/own", data={"puzzles": f"{format_puzzle(SMALL)}\n{format_puzzle(CLASSIC)}",
                                                 "per_page": "4"})
    pdf = pdf_of(response, tmp_path)
    png = render_png(pdf, 1, tmp_path / "page", dpi=100)
    links = sorted(found.text for found in zxingcpp.read_barcodes(Image.open(png)))
    assert len(links) == 2 and all(re.fullmatch(rf"{SITE}/s/[0-9a-z]+", link) for link in links)
    opened = sorted(client.get(link[len(SITE):]).headers["Location"] for link in links)
    assert opened == sorted(f"/p/{puzzle_to_id(p)}" for p in (SMALL, CLASSIC))


def test_the_form_is_filled_from_the_ids_my_puzzles_sends(client: FlaskClient) -> None:
    first, second = puzzle_to_id(SMALL), puzzle_to_id(CLASSIC)
    html = client.get(f"/booklet/own?id={first}&id={second}").get_data(as_text=True)
    assert re.search(rf"<textarea[^>]*>{re.escape(first)}\n{re.escape(second)}\n</textarea>", html)
    for label in ("Your puzzles", "Puzzles per page", "Paper", "Name and date line", "Title"):
        assert re.search(rf'<label for="\w+"[^>]*>{label}</label>', html), label


@pytest.mark.slow
def test_a_puzzle_without_one_solution_is_named_and_nothing_is_printed(client: FlaskClient,
                                                                       tmp_path: Path) -> None:
    listing = f"{format_puzzle(SMALL)}\n{SEVERAL}\n{NONE}\n{puzzle_to_id(CLASSIC)}\n"
    response = client.post("/booklet/own", data={"puzzles": listing, "per_page": "2"})
    assert response.status_code == 400 and response.mimetype == "text/html"
    said = alert(response)
    assert said.startswith("2 puzzles can't be printed. Nothing is printed until the list is right")
    assert ("Puzzle 2 (line 7): it has more than one solution, and a printed puzzle needs exactly one" in said)
    assert "Puzzle 3 (line 10): it has no solution: " in said
    html = response.get_data(as_text=True)
    assert f"{puzzle_to_id(CLASSIC)}\n</textarea>" in html  # the list as it was sent, to put right
    # The teacher leaves them out: the other two are printed, numbered 1 and 2.
    leave = re.search(r'name="leave_out" value="([^"]*)"', html)
    checked = re.search(r'name="checked" value="([^"]*)"', html)
    assert leave is not None and checked is not None and leave.group(1) == "2 3"
    assert "Leave them out and print the other 2 puzzles" in html
    form = {"puzzles": listing, "per_page": "2", "leave_out": leave.group(1), "checked": checked.group(1),
            "confirm": "leave_out"}
    pdf = pdf_of(client.post("/booklet/own", data=form), tmp_path)
    assert page_count(pdf) == 2
    assert "Puzzle 2 of 2" in text(pdf, 1) and holds_in_order(text(pdf, 1), row_major(CLASSIC, CLASSIC.givens))
    # A list changed since it was checked is checked again, whole.
    again = client.post("/booklet/own", data={**form, "puzzles": listing + "\n" + NONE})
    assert again.status_code == 400 and "3 puzzles can't be printed" in alert(again)


@pytest.mark.parametrize(
    ("listing", "message"),
    [
        ("", "Paste at least one puzzle"),
        ("\n".join([puzzle_to_id(SMALL)] * 51), "This list has 51 puzzles: a booklet takes at most 50."),
        (f"{puzzle_to_id(SMALL)}\n1 . y\n", "Puzzle 1: lines 1 to 2 mix puzzle ids or links with the rows of a board"),
        (f"{format_puzzle(SMALL)}\n1 . y\n", "Puzzle 2: line 7, column 5: unknown token 'y'"),
        ("5x5:zzz\n", "Puzzle 1 (line 1): this id can't be read: "),
        ("localhost/s/zzzz\n", "Puzzle 1 (line 1): there is no puzzle with the short link /s/zzzz on this site"),
        ("https://elsewhere.example.com/s/2f\n",
         "Puzzle 1 (line 1): /s/2f is a short link of another site (elsewhere.example.com)"),
        ("x\n" + "\n".join([" ".join(["."] * 31)] * 31), "the board has 961 cells; booklets take boards of up to 900"),
    ],
)
def test_what_can_be_seen_at_once_is_said_at_once(client: FlaskClient, listing: str, message: str) -> None:
    response = client.post("/booklet/own", data={"puzzles": listing, "per_page": "2"})
    assert response.status_code == 400
    assert message in alert(response)
    assert "<form" in response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"per_page": "3"}, "Puzzles per page must be 1, 2 or 4"),
        ({"paper": "a3"}, "Unknown paper"),
        ({"variant": "sudoku"}, "Unknown variant"),
        ({"title": "x" * 81}, "The title can have at most 80 characters; this one has 81."),
    ],
)
def test_bad_options_are_a_400_with_a_message(client: FlaskClient, form: dict[str, str], message: str) -> None:
    response = client.post("/booklet/own", data={"puzzles": puzzle_to_id(SMALL), **form})
    assert response.status_code == 400 and message in alert(response)


def test_pasted_boards_take_the_rule_chosen_for_them(client: FlaskClient, tmp_path: Path) -> None:
    # Without its adjacency line, the Numbrix board has several solutions as a Hidato one.
    board = NUMBRIX_ROWS
    assert not board.startswith("#")
    as_hidato = client.post("/booklet/own", data={"puzzles": board, "per_page": "1"})
    assert as_hidato.status_code == 400 and "more than one solution" in alert(as_hidato)
    as_numbrix = client.post("/booklet/own", data={"puzzles": board, "per_page": "1", "variant": "numbrix"})
    assert "Numbrix" in text(pdf_of(as_numbrix, tmp_path), 1)


def test_the_solver_pages_board_starts_a_list(client: FlaskClient) -> None:
    board = "1 . 3\n. . .\n"
    response = client.post("/booklet/own/from-solver", data={"puzzle": board, "drawn": "", "adjacency": "rook",
                                                             "difficulty": "medium"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert re.search(r"<textarea[^>]*># adjacency: rook\n1 . 3\n. . .\n</textarea>", html)
    assert "The board from the solver page is in the list." in html


def test_a_booklet_counts_against_the_booklet_rate_limit(tmp_path: Path, make_app: Callable[..., Flask],
                                                        steady_rate_window: None) -> None:
    app = make_app(tmp_path / "instance", RATE_LIMITS={"booklet": (1, 60)})
    client = app.test_client()
    bad = {"puzzles": "1 . y\n"}
    assert client.post("/booklet/own", data=bad).status_code == 400  # refused at once: not counted
    assert client.post("/booklet/own", data={"puzzles": NONE}).status_code == 400  # checked: counted
    assert client.post("/booklet/own", data={"puzzles": NONE}).status_code == 429


@pytest.mark.slow
def test_a_long_list_waits_on_a_page_that_says_how_far_it_got(tmp_path: Path,
                                                             make_app: Callable[..., Flask]) -> None:
    app = make_app(tmp_path / "instance", BOOKLET_WAIT_SECONDS=0)
    client = app.test_client()
    response = client.post("/booklet/own", data={"puzzles": f"{format_puzzle(SMALL)}\n{format_puzzle(CLASSIC)}"})
    assert response.status_code == 303
    waiting = response.headers["Location"]
    assert waiting.startswith("/booklet/own/")
    deadline = time.monotonic() + 60
    while True:
        page = client.get(waiting)
        html = page.get_data(as_text=True)
        if "Download the PDF" in html:
            break
        assert page.status_code == 200 and 'http-equiv="refresh"' in html and "Making your booklet" in html
        assert time.monotonic() < deadline
        time.sleep(0.05)
    pdf = client.get(waiting + ".pdf")
    assert pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF-")
    assert client.get("/booklet/own/nonsense").status_code == 404
    assert client.get("/booklet/own/nonsense.pdf").status_code == 404
    # A list with a bad puzzle ends on the form, saying which.
    failing = client.post("/booklet/own", data={"puzzles": f"{format_puzzle(SMALL)}\n{SEVERAL}"})
    deadline = time.monotonic() + 60
    while True:
        page = client.get(failing.headers["Location"])
        if 'role="alert"' in page.get_data(as_text=True):
            break
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert "Puzzle 2 (line 7): it has more than one solution" in alert(page)
