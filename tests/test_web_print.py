"""Printing through Flask's test client: a puzzle's printable page and PDF booklets."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import zxingcpp
from flask import Flask
from flask.testing import FlaskClient
from PIL import Image
from waiting import wait_until

from engine import puzzle_to_id
from engine.levels import SMALLEST
from webapp.paper.booklet import BookletOptions, layout, make_puzzles

from pdf_tools import ink, page_count, render_png, text
from puzzle_files import DATA, load

PUZZLE, SOLUTION = load(DATA / "seed000-5x5.txt")
CODE = puzzle_to_id(PUZZLE)
BOOKLET = {"shape": "diamond", "size": "3", "difficulty": "easy", "variant": "hidato", "count": "3",
           "per_page": "2", "seed": "4"}


def svg_numbers(html: str) -> list[str]:
    return re.findall(r"<text [^>]*>(\d+)</text>", html)


# --- one puzzle -------------------------------------------------------------------------


def test_print_page_is_the_board_alone_with_id_shape_and_difficulty(client: FlaskClient) -> None:
    made = client.post("/new", data={"shape": "diamond", "size": "3", "difficulty": "easy",
                                     "variant": "hidato"})
    code = made.headers["Location"][len("/p/"):]
    response = client.get(f"/p/{code}/print")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert html.count("<svg") == 1 and 'role="img"' in html
    assert "Hidato · Diamond 3 · Easy" in html
    assert code in html and f"/p/{code}" in html
    assert "<input" not in html and "Check</button>" not in html  # no game controls
    assert 'href="/p/' + code + '/print?solution=1"' in html


def test_print_page_of_the_solution_shows_every_number(client: FlaskClient) -> None:
    puzzle_html = client.get(f"/p/{CODE}/print").get_data(as_text=True)
    solved_html = client.get(f"/p/{CODE}/print?solution=1").get_data(as_text=True)
    assert sorted(svg_numbers(puzzle_html), key=int) == sorted(map(str, PUZZLE.givens.values()), key=int)
    assert sorted(svg_numbers(solved_html), key=int) == [str(k) for k in range(1, PUZZLE.size + 1)]
    assert "Solution" in solved_html
    # Holes are not drawn: one polygon per cell.
    assert solved_html.count("<polygon") == PUZZLE.size


def test_print_page_of_a_hex_puzzle_draws_hexagons(client: FlaskClient) -> None:
    made = client.post("/new", data={"shape": "hexagon", "size": "3", "difficulty": "easy", "variant": "hex"})
    html = client.get(made.headers["Location"] + "/print").get_data(as_text=True)
    first = re.search(r'<polygon points="([^"]+)"', html)
    assert first and len(first.group(1).split()) == 6
    assert "Hex · Hexagon 3" in html


def test_print_page_errors(client: FlaskClient) -> None:
    assert client.get("/p/nonsense/print").status_code == 404
    several = puzzle_to_id(PUZZLE.with_givens({}))  # well formed, many solutions
    response = client.get(f"/p/{several}/print")
    assert response.status_code == 200  # the board can still be printed
    assert "Show the solution" not in response.get_data(as_text=True)
    assert client.get(f"/p/{several}/print?solution=1").status_code == 404


def test_the_play_page_carries_the_printable_sheet_and_a_link(client: FlaskClient) -> None:
    html = client.get(f"/p/{CODE}").get_data(as_text=True)
    assert 'class="print-sheet"' in html
    assert f'href="/p/{CODE}/print"' in html
    assert len(svg_numbers(html)) == len(PUZZLE.givens)  # the puzzle, not the solution


# --- booklets ---------------------------------------------------------------------------


def test_booklet_form(client: FlaskClient) -> None:
    html = client.get("/booklet").get_data(as_text=True)
    for label in ("Shape", "Size", "Difficulty", "Variant", "Number of puzzles", "Puzzles per page", "Seed"):
        assert re.search(rf'<label for="\w+">{label}</label>', html), label
    assert '<option value="mixed" selected>Mixed</option>' in html


@pytest.mark.slow
def test_booklet_is_a_pdf_download(client: FlaskClient, tmp_path: Path, app: Flask) -> None:
    response = client.post("/booklet", data=BOOKLET)
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith('attachment; filename="hidato-3-easy-hidato-puzzles-diamond')
    pdf = tmp_path / "b.pdf"
    pdf.write_bytes(response.data)
    assert page_count(pdf) == 3  # 2 pages of puzzles, the 3 solutions on one
    words = text(pdf)
    assert "Solutions 1–3" in words and "Puzzle 3" in words
    assert "localhost" not in words  # no public address configured: no link
    assert ink(pdf, 1) > 0.01
    # The same seed, the same puzzles; they are stored, so their pages know what they are.
    again = client.post("/booklet", data=BOOKLET)
    assert text_of(again.data, tmp_path) == words
    for made in make_puzzles(BookletOptions("diamond", 3, "easy", "king", 3, 2, seed=4)):
        stored = app.extensions["hidato"].store.find_puzzle(made.code)
        assert stored is not None and stored.shape == "diamond" and stored.difficulty == "easy"


@pytest.mark.slow
def test_a_site_booklet_prints_short_links_the_site_resolves(tmp_path: Path, make_app) -> None:
    app = make_app(tmp_path / "instance", PUBLIC_URL="https://hidato.example.org")
    client = app.test_client()
    response = client.post("/booklet", data={**BOOKLET, "count": "2", "per_page": "1", "paper": "letter"})
    assert response.mimetype == "application/pdf"
    pdf = tmp_path / "site.pdf"
    pdf.write_bytes(response.data)
    png = render_png(pdf, 1, tmp_path / "page", dpi=300)
    (link,) = [found.text for found in zxingcpp.read_barcodes(Image.open(png))]
    short = re.fullmatch(r"https://hidato\.example\.org/s/([0-9a-z]+)", link)
    assert short is not None
    assert f"hidato.example.org/s/{short.group(1)}" in text(pdf, 1)  # the short link, printed
    answer = client.get(f"/s/{short.group(1)}")
    assert answer.status_code == 301 and answer.headers["Location"].startswith("/p/")
    code = answer.headers["Location"][len("/p/"):]
    assert code not in text(pdf, 1).replace("\n", "").replace(" ", "")  # never the long id on a worksheet
    assert client.get("/s/zzzzzz").status_code == 404


def test_the_booklet_form_offers_letter_to_us_browsers(client: FlaskClient) -> None:
    us = client.get("/booklet", headers={"Accept-Language": "en-US,en;q=0.8"}).get_data(as_text=True)
    assert re.search(r'<option value="letter" selected>', us)
    uk = client.get("/booklet", headers={"Accept-Language": "en-GB"}).get_data(as_text=True)
    assert re.search(r'<option value="a4" selected>', uk)


def text_of(pdf_bytes: bytes, folder: Path) -> str:
    path = folder / "again.pdf"
    path.write_bytes(pdf_bytes)
    return text(path)


@pytest.mark.slow
def test_mixed_booklet_four_to_a_page(client: FlaskClient, tmp_path: Path) -> None:
    response = client.post("/booklet", data={"shape": "mixed", "difficulty": "easy", "variant": "numbrix",
                                             "count": "5", "per_page": "4", "seed": "2"})
    assert response.mimetype == "application/pdf"
    pdf = tmp_path / "m.pdf"
    pdf.write_bytes(response.data)
    made = make_puzzles(BookletOptions("mixed", None, "easy", "rook", 5, 4, seed=2))
    assert page_count(pdf) == layout(made, 4).page_count
    assert "Numbrix" in text(pdf, 1) and "Solutions 1–5" in text(pdf)


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"shape": "blob"}, "Unknown shape"),
        ({"shape": "diamond", "size": "99"}, "Size for diamond must be from"),
        ({"shape": "diamond", "size": "big"}, "must be a whole number"),
        ({"difficulty": "insane"}, "Unknown difficulty"),
        ({"variant": "sudoku"}, "Unknown variant"),
        ({"count": "0"}, "from 1 to 50"),
        ({"count": "51"}, "from 1 to 50"),
        ({"count": "ten"}, "must be a whole number"),
        ({"count": "9" * 40}, "must be a whole number"),
        ({"per_page": "3"}, "1, 2 or 4"),
        ({"seed": "-5"}, "must be a whole number"),
        ({"shape": "arrow", "size": "", "variant": "hex"}, "The arrow shape is for Hidato only, not Hex"),
    ],
)
def test_booklet_bad_input_is_a_400_with_a_message(client: FlaskClient, form: dict[str, str],
                                                   message: str) -> None:
    response = client.post("/booklet", data={**BOOKLET, **form})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert message in html and 'role="alert"' in html
    assert "<form" in html  # the form again, to put it right


@pytest.mark.slow
def test_a_slow_booklet_waits_on_a_page_then_links_to_the_pdf(tmp_path: Path, make_app) -> None:
    app = make_app(tmp_path, BOOKLET_WAIT_SECONDS=0)
    client = app.test_client()
    response = client.post("/booklet", data=BOOKLET)
    assert response.status_code == 303
    waiting = response.headers["Location"]
    assert waiting.startswith("/booklet/")
    def booklet_ready(page: Any) -> bool:
        html = page.get_data(as_text=True)
        if "Download the PDF" in html:
            return True
        assert page.status_code == 200 and 'http-equiv="refresh"' in html and "Making your booklet" in html
        return False

    wait_until(lambda: client.get(waiting), booklet_ready, 60, what="the booklet")
    pdf = client.get(waiting + ".pdf")
    assert pdf.mimetype == "application/pdf" and pdf.data.startswith(b"%PDF-")
    assert client.get(waiting + ".pdf").status_code == 200  # can be fetched again
    assert client.get("/booklet/nonsense").status_code == 404
    assert client.get("/booklet/nonsense.pdf").status_code == 404


def test_a_booklet_the_generator_refuses_says_why(client: FlaskClient) -> None:
    # No expert puzzle fits a 12-cell diamond: the measured table says so before any work.
    smallest = SMALLEST["king"]["diamond"]["expert"]
    response = client.post("/booklet", data={**BOOKLET, "size": str(smallest - 1), "difficulty": "expert",
                                             "seed": "0", "count": "1"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert f"need the diamond shape at size {smallest} or more in Hidato" in html
    assert '<option value="expert" selected>' in html  # the form as it was sent


def test_the_print_page_is_the_same_worksheet_with_a_qr_code(tmp_path: Path, make_app) -> None:
    app = make_app(tmp_path / "instance", PUBLIC_URL="https://hidato.example.org")
    client = app.test_client()
    client.get(f"/p/{CODE}")  # stored on first sight
    html = client.get(f"/p/{CODE}/print").get_data(as_text=True)
    assert 'class="segno"' in html and "Scan to play it online · hidato.example.org/s/" in html
    assert "Name" in html and f"Write the numbers 1 to {PUZZLE.size} in the empty cells" in html
    assert "Puzzle id" not in html and CODE not in re.sub(r'href="[^"]*"', "", html)  # no long id on paper
    short = re.search(r"hidato\.example\.org/s/[0-9a-z]+", html)
    assert short is not None
    solved = client.get(f"/p/{CODE}/print?solution=1").get_data(as_text=True)
    assert "Puzzle id" not in solved and short.group(0) in solved  # the way back to the puzzle, readable
