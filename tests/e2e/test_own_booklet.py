"""Booklets of one's own puzzles in Chromium, as a teacher makes them: puzzles played here
ticked in My puzzles, a board from the solver page, a pasted list with a bad puzzle named
and left out; the PDF downloaded and read back (pdftotext). Desktop and phone sizes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from test_accessibility import assert_clean

from engine import Cell
from webapp.core.options import Options
from webapp.core.stored import StoredPuzzle, generate

from pdf_tools import page_count, text

SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


def _enter(page: Page, base_url: str, stored: StoredPuzzle, cell: Cell) -> None:
    """One right entry, as the play page posts it, so the puzzle is in My puzzles."""
    token = page.evaluate("JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRF-Token']")
    r, c = cell
    response = page.request.post(f"{base_url}/p/{stored.code}/cell/{r + 1}/{c + 1}",
                                 form={f"c-{r + 1}-{c + 1}": str(stored.solution[cell])},
                                 headers={"X-CSRF-Token": token, "HX-Request": "true"})
    assert response.ok, response.text()[:300]


def _numbers(words: str) -> list[int]:
    return [int(found) for found in re.findall(r"\d+", words)]


def _holds(words: str, stored: StoredPuzzle) -> bool:
    """Whether a page shows this puzzle's givens, row by row."""
    givens = [stored.puzzle.givens[cell] for cell in sorted(stored.puzzle.givens)]
    found = _numbers(words)
    return any(found[i:i + len(givens)] == givens for i in range(len(found) - len(givens) + 1))


@pytest.mark.parametrize("size", sorted(SIZES))
def test_puzzles_ticked_in_my_puzzles_make_a_booklet(browser: Browser, base_url: str, live_app: Flask, size: str,
                                                     tmp_path: Path, artifacts_dir: Path) -> None:
    store = live_app.extensions["hidato"].store
    hidato = store.save_puzzle(generate(Options("diamond", 3, "easy", "hidato"), seed=21))
    numbrix = store.save_puzzle(generate(Options("square", 5, "easy", "numbrix"), seed=22))
    skipped = store.save_puzzle(generate(Options("ring", 8, "easy", "hidato"), seed=23))
    # bypass_csp: axe is added as a script of the test's own.
    context = browser.new_context(base_url=base_url, accept_downloads=True, bypass_csp=True, **SIZES[size])
    page = context.new_page()
    try:
        for stored in (hidato, numbrix, skipped):
            page.goto(f"/p/{stored.code}")
            open_cell = next(c for c in stored.puzzle.board.cells if c not in stored.puzzle.givens)
            _enter(page, base_url, stored, open_cell)
        page.goto("/mine")
        page.get_by_label("Print Hidato diamond, easy in a booklet").check()
        page.get_by_label("Print Numbrix square, easy in a booklet").check()
        page.screenshot(path=artifacts_dir / f"own-booklet-mine-{size}.png", full_page=True)
        assert_clean(page, "on My puzzles with puzzles ticked")
        page.get_by_role("button", name="Make a booklet of the ticked puzzles").first.click()

        expect(page.get_by_role("heading", name="Print your own puzzles")).to_be_visible()
        listing = page.get_by_label("Your puzzles")
        expect(listing).to_have_value(re.compile(re.escape(hidato.code)))
        expect(listing).to_have_value(re.compile(re.escape(numbrix.code)))
        expect(listing).not_to_have_value(re.compile(re.escape(skipped.code)))
        page.get_by_label("Puzzles per page").select_option("1")
        page.get_by_label("Title").fill("Last week's favourites")
        page.screenshot(path=artifacts_dir / f"own-booklet-form-{size}.png", full_page=True)
        with page.expect_download() as info:
            page.get_by_role("button", name="Check and make the booklet (PDF)").click()
        pdf = tmp_path / "mine.pdf"
        info.value.save_as(str(pdf))
        assert info.value.suggested_filename == "hidato-last-week-s-favourites.pdf"
        assert page_count(pdf) == 3  # two puzzles one to a page, their solutions on one page
        first, second = text(pdf, 1), text(pdf, 2)
        assert "Last week's favourites" in first and "Puzzle 1 of 2" in first and "Puzzle 2 of 2" in second
        # In the order My puzzles listed them (the last played first), each with its givens.
        order = [hidato, numbrix] if _holds(first, hidato) else [numbrix, hidato]
        assert _holds(first, order[0]) and _holds(second, order[1])
        assert "Numbrix" in text(pdf, 1 if order[0] is numbrix else 2)
        assert "Solutions 1–2" in text(pdf, 3)  # the answer key, both on one page
    finally:
        context.close()


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_bad_puzzle_is_named_then_left_out(browser: Browser, base_url: str, size: str, tmp_path: Path,
                                             artifacts_dir: Path) -> None:
    context = browser.new_context(base_url=base_url, accept_downloads=True, bypass_csp=True, **SIZES[size])
    page = context.new_page()
    try:
        page.goto("/booklet")
        page.get_by_role("link", name="print your own puzzles").click()
        page.get_by_label("Your puzzles").fill(" . 18  x 11  .\n17  .  x  . 10\n 1  x  .  .  x\n x  .  5  .  x\n"
                                               " x  4  .  6  .\n\n. . .\n. . .\n")
        page.get_by_role("button", name="Check and make the booklet (PDF)").click()
        problem = page.get_by_role("alert")
        expect(problem).to_contain_text("1 puzzle can't be printed")
        expect(problem).to_contain_text("Puzzle 2 (line 7): it has more than one solution")
        expect(page.get_by_label("Your puzzles")).to_have_attribute("aria-invalid", "true")
        page.screenshot(path=artifacts_dir / f"own-booklet-problem-{size}.png", full_page=True)
        assert_clean(page, "on the form naming a bad puzzle")
        with page.expect_download() as info:
            page.get_by_role("button", name="Leave it out and print the other puzzle").click()
        pdf = tmp_path / "left.pdf"
        info.value.save_as(str(pdf))
        assert page_count(pdf) == 2 and "Puzzle 1 of 1" in text(pdf, 1)
    finally:
        context.close()


def test_the_solver_pages_board_goes_into_a_booklet(page: Page, artifacts_dir: Path) -> None:
    page.goto("/solve")
    page.get_by_label("Puzzle text").fill("1 . 3\n. . .\n. . 9\n")
    page.get_by_label("Adjacency").select_option("rook")
    page.get_by_role("button", name="Add to a booklet").click()
    expect(page.get_by_role("heading", name="Print your own puzzles")).to_be_visible()
    expect(page.get_by_role("status")).to_contain_text("The board from the solver page is in the list.")
    expect(page.get_by_label("Your puzzles")).to_have_value("# adjacency: rook\n1 . 3\n. . .\n. . 9\n")
    page.screenshot(path=artifacts_dir / "own-booklet-from-solver.png", full_page=True)
