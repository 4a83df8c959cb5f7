"""The play page's fit and solving aids in Debian's Chromium, at a desktop and a phone size:
the board fits, clicks that only select and the chain by keys, notes that survive a reload, the mistakes
setting, Restart and Undo, the missing-numbers strip, Next puzzle."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, ViewportSize, expect

from engine import Cell, generate_shape, puzzle_to_id

from puzzle_files import DATA, load

SMALL, SMALL_SOLUTION = load(DATA / "seed000-5x5.txt")
SMALL_CODE = puzzle_to_id(SMALL)
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Browser, base_url: str) -> Iterator[Page]:
    context = browser.new_context(base_url=base_url, viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    yield page
    context.close()


def box(page: Page, cell: Cell):  # noqa: ANN201 - a Playwright locator
    return page.get_by_label(f"Row {cell[0] + 1}, column {cell[1] + 1}", exact=True)


def cell_div(page: Page, cell: Cell):  # noqa: ANN201
    return page.locator(f"#cell-{cell[0] + 1}-{cell[1] + 1}")


def _layout(page: Page) -> dict[str, float]:
    return page.evaluate("""() => {
        const board = document.querySelector('#game .board').getBoundingClientRect();
        const cell = document.querySelector('#game .board .cell:not(.hole)').getBoundingClientRect();
        const wrap = document.querySelector('#board-wrap').getBoundingClientRect();
        return {top: board.top, left: board.left, right: board.right, cell: cell.width,
                wrapRight: wrap.right, pageWidth: document.documentElement.scrollWidth,
                viewWidth: document.documentElement.clientWidth};
    }""")


def _code(shape: str, size: int, adjacency: str = "king") -> str:
    return puzzle_to_id(generate_shape(shape, size, "easy", adjacency, seed=3).puzzle)  # type: ignore[arg-type]


@pytest.mark.slow
@pytest.mark.parametrize(("shape", "size"), [("square", 20), ("rectangle", 21), ("heart", 16)])
def test_the_whole_board_fits_a_laptop(page: Page, artifacts_dir: Path, shape: str, size: int) -> None:
    page.set_viewport_size(DESKTOP)
    page.goto(f"/p/{_code(shape, size)}")
    layout = _layout(page)
    assert layout["pageWidth"] <= layout["viewWidth"]  # no sideways scrolling
    assert layout["right"] <= DESKTOP["width"] and layout["cell"] >= 24
    bottom = page.evaluate("document.querySelector('#game .board').getBoundingClientRect().bottom")
    assert bottom <= DESKTOP["height"]  # and all of it on the screen at once
    page.screenshot(path=str(artifacts_dir / f"desktop-{shape}-{size}.png"))


@pytest.mark.slow
@pytest.mark.parametrize(("shape", "size", "adjacency", "fits"),
                         [("square", 8, "king", True), ("rectangle", 10, "king", True),
                          ("hexagon", 5, "hex", True), ("heart", 12, "king", False), ("square", 20, "rook", False)])
def test_a_phone_never_scrolls_sideways(phone: Page, artifacts_dir: Path, shape: str, size: int,
                                        adjacency: str, fits: bool) -> None:
    phone.goto(f"/p/{_code(shape, size, adjacency)}")
    layout = _layout(phone)
    assert layout["pageWidth"] <= PHONE["width"]
    assert layout["cell"] >= 32 - 0.5
    assert layout["top"] < PHONE["height"] / 3  # the board starts in the top third
    if fits:
        assert layout["right"] <= PHONE["width"]
    else:  # pans inside its area; Fit zooms out to the width
        assert layout["right"] > layout["wrapRight"]
        phone.get_by_role("button", name="Fit the board").click()
        phone.wait_for_function("document.querySelector('#game .board').style.getPropertyValue('--zoom') < 1")
        fitted = _layout(phone)
        assert fitted["right"] <= fitted["wrapRight"] + 1
    expect(phone.get_by_role("group", name="Number pad")).to_be_visible()
    phone.screenshot(path=str(artifacts_dir / f"phone-{shape}-{size}-{adjacency}.png"))


def _chain_start(solution: Mapping[Cell, int], puzzle_givens: Mapping[Cell, int]) -> tuple[Cell, Cell]:
    """A given k whose k+1 is in an open cell: (the given's cell, the open cell)."""
    where = {v: c for c, v in solution.items()}
    for cell, k in sorted(puzzle_givens.items()):
        nxt = where.get(k + 1)
        if nxt is not None and nxt not in puzzle_givens:
            return cell, nxt
    raise AssertionError("no chain to start")


def test_clicks_only_select_and_the_keyboard_continues_the_chain(page: Page) -> None:
    page.goto(f"/p/{SMALL_CODE}")
    start, nxt = _chain_start(SMALL_SOLUTION, SMALL.givens)
    k = SMALL.givens[start]
    cell_div(page, start).click()
    expect(cell_div(page, start)).to_have_class(re.compile(r"\bselected\b"))
    box(page, nxt).click()  # selects the empty neighbour, writes nothing
    expect(cell_div(page, nxt)).to_have_class(re.compile(r"\bselected\b"))
    expect(box(page, nxt)).to_have_value("")
    expect(page.locator("#counts")).to_contain_text("0 of")
    page.keyboard.press("Space")  # the deliberate gesture: k + 1 goes there
    expect(box(page, nxt)).to_have_value(str(k + 1))
    expect(cell_div(page, nxt)).to_have_class(re.compile(r"\bright\b"))
    expect(page.locator("#counts")).to_contain_text("1 of")
    # The chain goes on from the new cell: move there with the keyboard, then Enter.
    where = {v: c for c, v in SMALL_SOLUTION.items()}
    after = where[k + 2]
    if after in SMALL.givens:
        return  # this board's run stops at a given; the first step was what was tested
    box(page, after).focus()
    page.keyboard.press("Enter")
    expect(box(page, after)).to_have_value(str(k + 2))
    expect(cell_div(page, after)).to_have_class(re.compile(r"\bright\b"))
    expect(page.locator("#counts")).to_contain_text("Mistakes: 0")


def test_selecting_a_number_highlights_its_neighbours_in_the_chain(page: Page) -> None:
    page.goto(f"/p/{SMALL_CODE}")
    where = {v: c for c, v in SMALL.givens.items()}
    k = next(v for v in sorted(where) if v - 1 in where or v + 1 in where)
    cell_div(page, where[k]).click()
    for j in (k - 1, k + 1):
        if j in where:
            expect(cell_div(page, where[j])).to_have_class(re.compile(r"\bnear\b"))


def test_notes_survive_a_reload_and_give_way_to_a_number(page: Page) -> None:
    page.goto(f"/p/{SMALL_CODE}")
    cell = next(c for c in SMALL.board.cells if c not in SMALL.givens)
    notes = page.get_by_role("button", name="Notes")
    notes.click()
    expect(notes).to_have_attribute("aria-pressed", "true")
    box(page, cell).fill("4")
    box(page, cell).press("Tab")
    expect(cell_div(page, cell).locator(".pencil")).to_have_text("4")
    box(page, cell).fill("7")
    box(page, cell).press("Tab")
    expect(cell_div(page, cell)).to_contain_text("4 7")
    page.reload()
    expect(cell_div(page, cell)).to_contain_text("4 7")
    page.keyboard.press("Escape")
    page.get_by_role("button", name="Notes").click()
    expect(page.get_by_role("button", name="Notes")).to_have_attribute("aria-pressed", "false")
    box(page, cell).fill(str(SMALL_SOLUTION[cell]))
    box(page, cell).press("Tab")
    expect(cell_div(page, cell).locator(".pencil")).to_have_count(0)


def test_mistakes_hidden_until_check(page: Page) -> None:
    page.goto(f"/p/{SMALL_CODE}")
    cell = next(c for c in SMALL.board.cells if c not in SMALL.givens)
    setting = page.get_by_label(re.compile("mistakes"))
    setting.uncheck()
    expect(page.get_by_role("status")).to_contain_text("hidden until you press Check")
    wrong = SMALL_SOLUTION[cell] % SMALL.size + 1
    box(page, cell).fill(str(wrong))
    box(page, cell).press("Tab")
    expect(page.locator("#counts")).to_contain_text("1 of")
    expect(box(page, cell)).not_to_have_attribute("aria-invalid", "true")
    page.get_by_role("button", name="Check").click()
    expect(box(page, cell)).to_have_attribute("aria-invalid", "true")
    page.get_by_label(re.compile("mistakes")).check()
    expect(page.get_by_role("status")).to_contain_text("shown as you type")


def test_restart_asks_and_undo_brings_everything_back(page: Page) -> None:
    page.goto(f"/p/{SMALL_CODE}")
    cell = next(c for c in SMALL.board.cells if c not in SMALL.givens)
    box(page, cell).fill(str(SMALL_SOLUTION[cell]))
    box(page, cell).press("Tab")
    expect(page.get_by_role("button", name="Undo")).to_be_enabled()  # at once, not after a redraw
    page.get_by_role("button", name="Restart").click()
    expect(page.get_by_role("alertdialog")).to_contain_text("Restart this puzzle?")
    expect(box(page, cell)).to_have_value(str(SMALL_SOLUTION[cell]))
    page.get_by_role("button", name="Yes, restart").click()
    expect(box(page, cell)).to_have_value("")
    expect(page.get_by_role("status")).to_contain_text("Undo brings your entries back")
    page.get_by_role("button", name="Undo").click()
    expect(box(page, cell)).to_have_value(str(SMALL_SOLUTION[cell]))
    expect(page.get_by_role("status")).to_contain_text("Restart undone")


def test_the_missing_strip_follows_the_entries(page: Page) -> None:
    page.goto(f"/p/{SMALL_CODE}")
    shown = set(SMALL.givens.values())
    first = min(k for k in range(1, SMALL.size + 1) if k not in shown)
    strip = page.locator(".missing")
    expect(strip).to_contain_text(f"Missing: {first}")
    cell = next(c for c, v in SMALL_SOLUTION.items() if v == first)
    box(page, cell).fill(str(first))
    box(page, cell).press("Tab")
    expect(strip).not_to_contain_text(f"Missing: {first}")


@pytest.mark.slow
def test_solving_offers_the_next_puzzle(page: Page, live_app: Flask, artifacts_dir: Path) -> None:
    page.goto("/")
    page.get_by_label("Shape").select_option("diamond")
    page.get_by_label("Size").fill("3")
    page.get_by_role("button", name="New puzzle").click()
    expect(page).to_have_url(re.compile(r"/p/"))
    page.wait_for_load_state()  # the URL changes before htmx has wired the page
    code = page.url.split("/p/")[1]
    stored = live_app.extensions["hidato"].store.find_puzzle(code)
    assert stored is not None
    for cell in [c for c in stored.puzzle.board.cells if c not in stored.puzzle.givens]:
        box(page, cell).fill(str(stored.solution[cell]))
        box(page, cell).press("Tab")
    panel = page.get_by_role("region", name="Solved")
    expect(panel).to_contain_text("Solved in")
    expect(page.locator("#game .path-line")).to_have_count(1)
    page.screenshot(path=str(artifacts_dir / "solved-panel.png"), full_page=True)
    panel.get_by_role("button", name="Next puzzle").click()
    expect(page).to_have_url(re.compile(r"/p/"))
    page.wait_for_load_state()  # the URL changes before htmx has wired the page
    assert page.url.split("/p/")[1] != code
    expect(page.locator(".meta")).to_contain_text("Diamond")
