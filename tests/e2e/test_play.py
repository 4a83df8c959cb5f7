"""The play page in Debian's Chromium, through a live server (see tests/conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from flask import Flask
from playwright.sync_api import Page, expect

from engine import Cell, puzzle_to_id

from puzzle_files import DATA, load

SMALL, SMALL_SOLUTION = load(DATA / "seed000-5x5.txt")
SMALL_CODE = puzzle_to_id(SMALL)


def new_puzzle(page: Page, shape: str, size: str, difficulty: str = "Easy", variant: str = "Hidato") -> str:
    """Ask for a puzzle with the home page's form; returns its id."""
    page.goto("/")
    page.get_by_label("Shape").select_option(shape)
    page.get_by_label("Size").fill(size)
    page.get_by_label("Difficulty").select_option(label=difficulty)
    page.get_by_label("Variant").select_option(label=variant)
    page.get_by_role("button", name="New puzzle").click()
    expect(page).to_have_url(re.compile(r"/p/"))
    page.wait_for_load_state()  # the URL changes before htmx has wired the page
    return unquote(urlparse(page.url).path[len("/p/"):])


def solution_of(live_app: Flask, code: str) -> dict[Cell, int]:
    stored = live_app.extensions["hidato"].store.find_puzzle(code)
    assert stored is not None
    return stored.solution


def open_cells(live_app: Flask, code: str) -> list[Cell]:
    stored = live_app.extensions["hidato"].store.find_puzzle(code)
    assert stored is not None
    return [c for c in stored.puzzle.board.cells if c not in stored.puzzle.givens]


def box(page: Page, cell: Cell):
    return page.get_by_label(f"Row {cell[0] + 1}, column {cell[1] + 1}", exact=True)


def cell_div(page: Page, cell: Cell):
    return page.locator(f"#cell-{cell[0] + 1}-{cell[1] + 1}")


def test_diamond_puzzle_right_wrong_status_hint_reveal_reload(page: Page, live_app: Flask,
                                                              artifacts_dir: Path) -> None:
    code = new_puzzle(page, "diamond", "4")
    solution = solution_of(live_app, code)
    cells = open_cells(live_app, code)
    right, wrong = cells[0], cells[1]
    total = len(cells)
    expect(page.locator("#counts")).to_contain_text(f"0 of {total} cells filled")

    box(page, right).fill(str(solution[right]))
    box(page, right).press("Enter")
    expect(cell_div(page, right)).to_have_class(re.compile(r"\bright\b"))
    expect(box(page, right)).not_to_have_attribute("aria-invalid", "true")
    wrong_value = solution[wrong] % len(solution) + 1
    box(page, wrong).fill(str(wrong_value))
    box(page, wrong).press("Tab")
    expect(box(page, wrong)).to_have_attribute("aria-invalid", "true")
    expect(cell_div(page, wrong)).to_have_class(re.compile(r"\bwrong\b"))
    expect(page.locator("#counts")).to_contain_text(f"2 of {total} cells filled")
    expect(page.locator("#counts")).to_contain_text("Mistakes: 1")
    page.screenshot(path=str(artifacts_dir / "play-page.png"), full_page=True)

    page.reload()
    expect(box(page, right)).to_have_value(str(solution[right]))
    expect(box(page, wrong)).to_have_value(str(wrong_value))

    page.get_by_role("button", name="Check").click()
    expect(page.get_by_role("status")).to_contain_text("1 entry is wrong")
    page.get_by_role("button", name="Hint").click()
    expect(page.get_by_role("status")).to_contain_text("Hint:")
    expect(page.locator(".cell.hinted").first).to_be_visible()

    page.get_by_role("button", name="Undo").click()
    expect(box(page, wrong)).to_have_value("")

    page.get_by_role("button", name="Reveal solution").click()
    page.get_by_role("button", name="Yes, reveal the solution").click()
    expect(page.get_by_role("status")).to_contain_text("Solution revealed")
    for cell in cells:
        expect(box(page, cell)).to_have_value(str(solution[cell]))


def test_solve_a_small_puzzle_by_typing(page: Page, artifacts_dir: Path) -> None:
    page.goto(f"/p/{SMALL_CODE}")
    cells = [c for c in SMALL.board.cells if c not in SMALL.givens]
    box(page, cells[0]).click()
    for cell in cells:
        expect(box(page, cell)).to_be_focused()  # Enter moved here from the last cell
        page.keyboard.type(str(SMALL_SOLUTION[cell]))
        page.keyboard.press("Enter")
    status = page.get_by_role("status")
    expect(status).to_contain_text(re.compile(r"Solved! Time taken: \d+:\d\d"))
    expect(page.locator("#counts")).to_contain_text(f"{len(cells)} of {len(cells)} cells filled")
    page.screenshot(path=str(artifacts_dir / "solved.png"), full_page=True)
    page.reload()
    expect(page.get_by_role("status")).to_contain_text("Solved!")
    page.goto("/mine")
    expect(page.get_by_role("table", name="Finished")).to_contain_text("Solved")


def test_arrow_keys_move_between_cells(page: Page) -> None:
    page.goto(f"/p/{SMALL_CODE}")
    # Row 1: ". 18 x 11 ." -- right from (1,1) stops on the given 18 (a chain can start
    # there), then skips the hole to the given 11, then the open cell.
    box(page, (0, 0)).click()
    page.keyboard.press("ArrowRight")
    expect(cell_div(page, (0, 1))).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(cell_div(page, (0, 3))).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(box(page, (0, 4))).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(cell_div(page, (1, 4))).to_be_focused()  # the given 10
    page.keyboard.press("ArrowDown")
    expect(box(page, (4, 4))).to_be_focused()  # the holes below are skipped


def test_numbrix_puzzle_renders_and_accepts_input(page: Page, live_app: Flask) -> None:
    code = new_puzzle(page, "rectangle", "4", variant="Numbrix")
    assert "r:" in code
    cell = open_cells(live_app, code)[0]
    value = solution_of(live_app, code)[cell]
    box(page, cell).fill(str(value))
    box(page, cell).press("Enter")
    expect(cell_div(page, cell)).to_have_class(re.compile(r"\bright\b"))
    expect(page.locator("#counts")).to_contain_text("1 of")


def test_hex_puzzle_renders_offset_and_accepts_input(page: Page, live_app: Flask,
                                                     artifacts_dir: Path) -> None:
    code = new_puzzle(page, "hexagon", "3", variant="Hex")
    assert "h:" in code
    expect(page.locator(".board.hex .row.shift").first).to_be_visible()
    cell = open_cells(live_app, code)[0]
    value = solution_of(live_app, code)[cell]
    box(page, cell).fill(str(value))
    box(page, cell).press("Enter")
    expect(cell_div(page, cell)).to_have_class(re.compile(r"\bright\b"))
    page.screenshot(path=str(artifacts_dir / "hex.png"), full_page=True)


def test_phone_sized_screen_with_touch(browser, base_url: str, artifacts_dir: Path) -> None:
    context = browser.new_context(base_url=base_url, viewport={"width": 390, "height": 844},
                                  has_touch=True, is_mobile=True, color_scheme="dark")
    page = context.new_page()
    try:
        page.goto(f"/p/{SMALL_CODE}")
        cell = next(c for c in SMALL.board.cells if c not in SMALL.givens)
        box(page, cell).tap()
        expect(box(page, cell)).to_be_focused()
        page.keyboard.type(str(SMALL_SOLUTION[cell]))
        page.keyboard.press("Enter")
        expect(cell_div(page, cell)).to_have_class(re.compile(r"\bright\b"))
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page scrolls sideways on a phone ({width}px)"
        page.screenshot(path=str(artifacts_dir / "play-phone-dark.png"), full_page=True)
    finally:
        context.close()


def test_without_javascript_the_same_form_posts(browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"/p/{SMALL_CODE}")
        cells = [c for c in SMALL.board.cells if c not in SMALL.givens]
        right, wrong = cells[0], cells[1]
        box(page, right).fill(str(SMALL_SOLUTION[right]))
        box(page, wrong).fill(str(SMALL_SOLUTION[wrong] % SMALL.size + 1))
        page.get_by_role("button", name="Check").click()
        expect(page.get_by_role("status")).to_contain_text("1 entry is wrong")
        expect(box(page, wrong)).to_have_attribute("aria-invalid", "true")
        expect(cell_div(page, right)).to_have_class(re.compile(r"\bright\b"))
        expect(page.locator("#counts")).to_contain_text(f"2 of {len(cells)} cells filled")
        # Enter in a cell presses the first button, "Save entries".
        box(page, cells[2]).fill("x")
        box(page, cells[2]).press("Enter")
        expect(page.get_by_role("status")).to_contain_text("Type a whole number")
        expect(box(page, cells[2])).to_have_attribute("aria-invalid", "true")
        page.get_by_role("button", name="Reveal solution").click()
        page.get_by_role("button", name="Yes, reveal the solution").click()
        for cell in cells:
            expect(box(page, cell)).to_have_value(str(SMALL_SOLUTION[cell]))
    finally:
        context.close()
