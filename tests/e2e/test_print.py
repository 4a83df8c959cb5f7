"""Printing in Debian's Chromium: the print stylesheet, the printable page, the booklet form."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from engine import puzzle_to_id

from pdf_tools import ink, page_count, text
from puzzle_files import DATA, load

SMALL, _ = load(DATA / "seed000-5x5.txt")
SMALL_CODE = puzzle_to_id(SMALL)
LARGE, _ = load(DATA / "large" / "rectangle20_s1.txt")
LARGE_CODE = puzzle_to_id(LARGE)


def test_the_play_page_prints_the_board_alone(page: Page, tmp_path: Path, artifacts_dir: Path) -> None:
    page.goto(f"/p/{SMALL_CODE}")
    board = page.get_by_role("img", name=re.compile(r"^Puzzle board"))
    expect(board).to_be_hidden()  # on screen the playable board is shown instead
    page.emulate_media(media="print")
    expect(board).to_be_visible()
    for name in ("Check", "Hint", "Undo", "Reveal solution", "Pause"):
        expect(page.get_by_role("button", name=name)).to_be_hidden()
    expect(page.get_by_role("navigation", name="Site")).to_be_hidden()
    expect(page.get_by_label("Row 1, column 1", exact=True)).to_be_hidden()
    caption = page.locator(".print-sheet figcaption")
    expect(caption).to_contain_text("Hidato · 18 cells")
    expect(caption).not_to_contain_text(SMALL_CODE)  # a worksheet never shows the long id
    expect(page.locator(".print-sheet")).to_contain_text("Name")
    expect(page.locator(".print-sheet")).to_contain_text("Write the numbers 1 to 18 in the empty cells")
    page.screenshot(path=str(artifacts_dir / "print-play-page.png"), full_page=True)
    pdf = tmp_path / "play.pdf"
    page.pdf(path=str(pdf), format="A4")
    assert page_count(pdf) == 1
    assert SMALL_CODE not in text(pdf).replace("\n", "") and "Date" in text(pdf)
    assert ink(pdf, 1) > 0.005


def test_a_large_board_is_not_cut_across_pages(page: Page, tmp_path: Path) -> None:
    for size in ("A4", "Letter"):
        page.goto(f"/p/{LARGE_CODE}/print?solution=1")
        page.emulate_media(media="print")
        expect(page.get_by_role("navigation", name="Printing")).to_be_hidden()
        pdf = tmp_path / f"large-{size}.pdf"
        page.pdf(path=str(pdf), format=size)
        assert page_count(pdf) == 1, size
        assert "400" in text(pdf)


def test_the_printable_page_links_the_solution(page: Page, artifacts_dir: Path) -> None:
    page.goto(f"/p/{SMALL_CODE}")
    page.get_by_role("link", name="Printable").click()
    expect(page).to_have_url(re.compile(r"/print$"))
    expect(page.get_by_role("img", name=re.compile(r"^Puzzle board"))).to_be_visible()
    page.get_by_role("link", name="Show the solution").click()
    solved = page.get_by_role("img", name=re.compile(r"^Solved board"))
    expect(solved).to_be_visible()
    expect(solved.locator("text")).to_have_count(SMALL.size)
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    page.screenshot(path=str(artifacts_dir / "print-solution.png"), full_page=True)


def test_the_booklet_form_downloads_a_pdf(page: Page, tmp_path: Path) -> None:
    page.goto("/")
    page.get_by_role("link", name="Booklets").click()
    page.get_by_label("Shape").select_option("diamond")
    page.get_by_label("Size").fill("3")
    page.get_by_label("Difficulty").select_option(label="Easy")
    page.get_by_label("Number of puzzles").fill("2")
    page.get_by_label("Puzzles per page").select_option("1")
    with page.expect_download() as info:
        page.get_by_role("button", name="Make the booklet (PDF)").click()
    download = info.value
    assert download.suggested_filename == "hidato-2-easy-hidato-puzzles-diamond-shape.pdf"
    pdf = tmp_path / "booklet.pdf"
    download.save_as(str(pdf))
    assert page_count(pdf) == 3  # a puzzle a page, then both solutions on one
    assert "Solutions 1–2" in text(pdf, 3)


def test_the_booklet_form_says_what_is_wrong(page: Page) -> None:
    page.goto("/booklet")
    page.get_by_label("Shape").select_option("diamond")
    page.get_by_label("Size").fill("99")
    page.get_by_role("button", name="Make the booklet (PDF)").click()
    expect(page.get_by_role("alert")).to_contain_text("Size for diamond must be from")
