"""The solver page in Debian's Chromium: draw a shape, type givens, every button."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from engine import count_solutions, parse_puzzle

# On a 3x3 grid with a hole at row 1, column 3: 1 and 8 and 5 give one solution,
# without the 5 there are several, and a 2 far from the 1 leaves none.


def cell(page: Page, row: int, col: int):
    return page.get_by_label(f"Row {row}, column {col}", exact=True)


def status(page: Page):
    return page.get_by_role("status")


def draw_three_by_three(page: Page) -> None:
    page.goto("/solve")
    page.get_by_label("Rows", exact=True).fill("3")
    page.get_by_label("Columns", exact=True).fill("3")
    page.get_by_role("button", name="Resize grid").click()
    expect(cell(page, 3, 3)).to_be_visible()
    expect(cell(page, 4, 1)).to_have_count(0)
    expect(cell(page, 1, 4)).to_have_count(0)


def test_draw_a_shape_and_solve_check_grade_each_case_then_play(page: Page, artifacts_dir: Path) -> None:
    draw_three_by_three(page)

    # Click a cell to make it a hole: the text follows the grid.
    page.get_by_label("makes it a hole").check()
    cell(page, 1, 3).click()
    expect(cell(page, 1, 3)).to_have_value("x")
    expect(cell(page, 1, 3)).to_have_class(re.compile(r"\bhole\b"))
    expect(page.get_by_label("Puzzle text")).to_have_value(re.compile(r"^\. \. x\n"))
    cell(page, 2, 2).click()
    cell(page, 2, 2).click()  # and a second click makes it a cell again
    expect(cell(page, 2, 2)).to_have_value("")

    # Type the givens.
    page.get_by_label("types a number").check()
    cell(page, 1, 1).fill("1")
    cell(page, 2, 3).fill("5")
    cell(page, 3, 3).fill("8")
    expect(page.get_by_label("Puzzle text")).to_have_value("1 . x\n. . 5\n. . 8\n")

    page.get_by_role("button", name="Solve", exact=True).click()
    expect(status(page)).to_contain_text(re.compile(r"Solved in \d+ ms\. It is the only solution"))
    solution = page.get_by_role("img", name="Solution")
    expect(solution).to_be_visible()
    expect(solution.locator("text")).to_have_count(8)
    page.screenshot(path=str(artifacts_dir / "solver-solved.png"), full_page=True)

    # Unique.
    page.get_by_role("button", name="Check").click()
    expect(status(page)).to_contain_text("Exactly one solution")

    # Several: without the 5, two solutions side by side, the differences highlighted.
    cell(page, 2, 3).fill("")
    page.get_by_role("button", name="Check").click()
    expect(status(page)).to_contain_text("More than one solution")
    expect(page.get_by_role("img", name="Solution A")).to_be_visible()
    expect(page.get_by_role("img", name="Solution B")).to_be_visible()
    expect(page.locator(".result-board .differs").first).to_be_visible()
    page.screenshot(path=str(artifacts_dir / "solver-multiple.png"), full_page=True)

    # None: a 2 two steps away from the 1.
    cell(page, 2, 3).fill("5")
    cell(page, 3, 1).fill("2")
    page.get_by_role("button", name="Check").click()
    expect(status(page)).to_contain_text("No solution: 1 at row 1, column 1 and 2 at row 3, column 1")

    # Malformed: the message names the line, the column and the grid's cell.
    cell(page, 3, 1).fill("y")
    page.get_by_role("button", name="Check").click()
    expect(status(page)).to_contain_text("malformed")
    expect(status(page)).to_contain_text("line 3, column 1: unknown token 'y'")
    expect(cell(page, 3, 1)).to_have_attribute("aria-invalid", "true")

    # Grade the unique one, then play it.
    cell(page, 3, 1).fill("")
    page.get_by_role("button", name="Grade").click()
    expect(status(page)).to_contain_text("Difficulty: Easy")
    expect(page.get_by_role("list", name="Techniques needed")).to_be_visible()
    page.get_by_role("button", name="Play this puzzle").click()
    expect(page).to_have_url(re.compile(r"/p/3x3:1aA"))
    expect(page.locator("#counts")).to_contain_text("0 of 5 cells filled")
    expect(cell(page, 1, 2)).to_be_editable()


def test_paste_a_puzzle_as_text(page: Page) -> None:
    page.goto("/solve")
    page.get_by_label("Puzzle text").fill("# adjacency: rook\n1 . .\n. . .\n. . 9\n")
    page.get_by_role("button", name="Check").click()
    expect(status(page)).to_contain_text("More than one solution")
    expect(page.get_by_label("Adjacency")).to_have_value("rook")
    expect(cell(page, 3, 3)).to_have_value("9")  # the grid is drawn from the text
    expect(cell(page, 4, 1)).to_have_count(0)


def test_generate_a_puzzle_on_a_drawn_shape(page: Page) -> None:
    draw_three_by_three(page)
    page.get_by_label("Rows", exact=True).fill("4")
    page.get_by_label("Columns", exact=True).fill("4")
    page.get_by_role("button", name="Resize grid").click()
    page.get_by_label("makes it a hole").check()
    cell(page, 1, 1).click()
    page.get_by_label("Difficulty to generate").select_option("easy")
    page.get_by_role("button", name="Generate a puzzle on this shape").click()
    expect(page).to_have_url(re.compile(r"/p/4x4"))
    expect(page.locator("#counts")).to_contain_text("of")
    expect(cell(page, 1, 1)).to_have_count(0)  # the hole is still a hole


def test_without_javascript_the_grid_is_typed_into(browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    page = context.new_page()
    try:
        draw_three_by_three(page)
        expect(page.get_by_label("makes it a hole")).to_be_hidden()
        cell(page, 1, 1).fill("1")
        cell(page, 1, 3).fill("x")
        cell(page, 2, 3).fill("5")
        cell(page, 3, 3).fill("8")
        page.get_by_role("button", name="Check").click()
        expect(status(page)).to_contain_text("Exactly one solution")
        expect(page.get_by_label("Puzzle text")).to_have_value("1 . x\n. . 5\n. . 8\n")
    finally:
        context.close()


# --- big boards and other rules (issue 26) ----------------------------------------------------

DATA = Path(__file__).resolve().parent.parent / "data"
SQUARE21 = (DATA / "solver" / "square21-king-easy-s1.txt").read_text()
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
# The text box's lines as drawn: one per board row, or more if it wrapped.
LINES = """t => {
    const style = getComputedStyle(t);
    const inside = t.scrollHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    return {lines: inside / parseFloat(style.lineHeight), scrollWidth: t.scrollWidth, clientWidth: t.clientWidth,
            whiteSpace: style.whiteSpace};
}"""
# The smallest number of a drawn solution, in CSS pixels on the screen.
SMALLEST_NUMBER = """texts => Math.min(...texts.map(t =>
    parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a))"""
NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth && window.scrollX === 0"


def _page(browser: Browser, base_url: str, size: str, javascript: bool = True) -> Page:
    return browser.new_context(base_url=base_url, java_script_enabled=javascript, **SIZES[size]).new_page()


def _square(side: int) -> str:
    return "\n".join(" ".join(["."] * side) for _ in range(side)) + "\n"


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_21x21_paste_stays_one_line_a_row_and_its_solution_is_legible(browser: Browser, base_url: str, size: str,
                                                                         artifacts_dir: Path) -> None:
    page = _page(browser, base_url, size)
    try:
        page.goto("/solve")
        text = page.get_by_label("Puzzle text")
        text.fill(SQUARE21)
        # The grid and its sizes follow the text as it is pasted.
        expect(page.get_by_label("Rows", exact=True)).to_have_value("21")
        expect(page.get_by_label("Columns", exact=True)).to_have_value("21")
        expect(cell(page, 21, 21)).to_be_attached()
        expect(cell(page, 1, 3)).to_have_value("79")
        expect(text).to_have_attribute("wrap", "off")
        drawn = text.evaluate(LINES)
        assert drawn["whiteSpace"] == "pre"
        assert 21 <= round(drawn["lines"]) <= 22, drawn  # 21 rows (and the empty line after the last break)
        if size == "phone":
            assert drawn["scrollWidth"] > drawn["clientWidth"], drawn  # scrolls sideways instead of wrapping
        page.screenshot(path=str(artifacts_dir / f"solver-21x21-pasted-{size}.png"), full_page=True)

        page.get_by_role("button", name="Solve", exact=True).click()
        expect(status(page)).to_contain_text("It is the only solution")
        solution = page.get_by_role("img", name="Solution")
        expect(solution.locator("text")).to_have_count(441)
        assert solution.locator("text").evaluate_all(SMALLEST_NUMBER) >= 12
        scroller = page.locator(".result-scroll")
        if size == "desktop":  # whole beside the form, not scrolled
            box = solution.bounding_box()
            assert box and box["x"] + box["width"] <= 1280 and box["x"] > 400
            assert scroller.evaluate("s => s.scrollWidth <= s.clientWidth")
        else:  # scrolled sideways in its own box, which the keyboard can reach
            assert scroller.evaluate("s => s.scrollWidth > s.clientWidth")
            expect(scroller).to_have_attribute("tabindex", "0")
        expect(page.get_by_label("Rows", exact=True)).to_have_value("21")
        assert page.evaluate(NO_SIDEWAYS_SCROLL)
        expect(page.get_by_role("heading", name="Result")).to_be_in_viewport()  # a phone is taken to it
        page.screenshot(path=str(artifacts_dir / f"solver-21x21-solved-{size}.png"), full_page=True)
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_30x30_drawing_grid_is_reachable_whole(browser: Browser, base_url: str, size: str,
                                                  artifacts_dir: Path) -> None:
    page = _page(browser, base_url, size)
    try:
        page.goto("/solve")
        page.get_by_label("Rows", exact=True).fill("30")
        page.get_by_label("Columns", exact=True).fill("30")
        page.get_by_label("Columns", exact=True).press("Enter")  # resized at once, not posted
        expect(cell(page, 30, 30)).to_be_attached()
        expect(page.get_by_label("Puzzle text")).to_have_value(re.compile(r"^(\. ){29}\.\n(.*\n){29}$"))
        expect(page.get_by_label("Drawing grid, 30 rows by 30 columns")).to_be_visible()
        page.screenshot(path=str(artifacts_dir / f"solver-30x30-grid-{size}.png"), full_page=True)
        for last in (cell(page, 1, 30), cell(page, 30, 1), cell(page, 30, 30)):
            last.scroll_into_view_if_needed()
            expect(last).to_be_in_viewport(ratio=1)
            assert page.evaluate(NO_SIDEWAYS_SCROLL)
        cell(page, 30, 30).fill("900")  # and it can be typed into
        expect(page.get_by_label("Puzzle text")).to_have_value(re.compile(r" 900\n$"))
        width = cell(page, 1, 1).evaluate("c => c.getBoundingClientRect().width")
        assert width >= (32 if size == "phone" else 24)
    finally:
        page.context.close()


def test_rows_and_columns_follow_a_40x40_paste_and_the_grid_follows_them(page: Page) -> None:
    page.goto("/solve")
    page.get_by_label("Puzzle text").fill(_square(40))
    expect(page.get_by_label("Rows", exact=True)).to_have_value("40")
    expect(page.get_by_label("Columns", exact=True)).to_have_value("40")
    expect(page.get_by_text("This board is too big to draw here")).to_be_visible()
    expect(cell(page, 1, 1)).to_have_count(0)
    # The other way round: smaller sizes draw the text's corner, and the text follows.
    page.get_by_label("Rows", exact=True).fill("3")
    page.get_by_label("Columns", exact=True).fill("4")
    page.get_by_label("Columns", exact=True).press("Enter")
    expect(cell(page, 3, 4)).to_be_visible()
    expect(page.get_by_text("This board is too big to draw here")).to_be_hidden()
    expect(page.get_by_label("Puzzle text")).to_have_value(". . . .\n. . . .\n. . . .\n")
    expect(status(page)).to_contain_text("Press Solve or Check")  # nothing was posted
    # A smaller text redraws the grid, and Check reads it.
    page.get_by_label("Puzzle text").fill("1 . 3\n6 5 .\n. . 9\n")
    expect(page.get_by_label("Rows", exact=True)).to_have_value("3")
    expect(page.get_by_label("Columns", exact=True)).to_have_value("3")
    expect(cell(page, 3, 3)).to_have_value("9")
    expect(cell(page, 3, 4)).to_have_count(0)
    page.get_by_role("button", name="Check").click()
    expect(status(page)).to_contain_text("Exactly one solution")


def test_without_javascript_a_40x40_paste_comes_back_with_its_size(browser: Browser, base_url: str) -> None:
    page = _page(browser, base_url, "desktop", javascript=False)
    try:
        page.goto("/solve")
        page.get_by_label("Puzzle text").fill(_square(40))
        page.get_by_role("button", name="Check").click()
        expect(status(page)).to_contain_text("This board has 1,600 cells")
        expect(page.get_by_label("Rows", exact=True)).to_have_value("40")
        expect(page.get_by_label("Columns", exact=True)).to_have_value("40")
        expect(page.get_by_text("This board is too big to draw here")).to_be_visible()
        # A 12x7 text pasted over it, then Resize grid with the sizes as shown: the text's grid.
        page.get_by_label("Puzzle text").fill("1 . . . . . .\n" + ". . . . . . .\n" * 11)
        page.get_by_role("button", name="Resize grid").click()
        expect(page.get_by_label("Rows", exact=True)).to_have_value("12")
        expect(page.get_by_label("Columns", exact=True)).to_have_value("7")
        expect(cell(page, 12, 7)).to_be_visible()
        expect(cell(page, 1, 1)).to_have_value("1")
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_numbrix_puzzle_pasted_as_hidato_is_offered_numbrix(browser: Browser, base_url: str, size: str,
                                                             artifacts_dir: Path) -> None:
    # A real generated Numbrix puzzle, its "# adjacency: rook" line left out: two solutions as a Hidato.
    generated = (DATA / "rated" / "generated" / "square10-rook-easy-s1.txt").read_text()
    text = "".join(line for line in generated.splitlines(True) if not line.startswith("#"))
    assert count_solutions(parse_puzzle(text, adjacency="king"), limit=2) == 2
    assert count_solutions(parse_puzzle(text, adjacency="rook"), limit=2) == 1
    page = _page(browser, base_url, size)
    try:
        page.goto("/solve")
        page.get_by_label("Puzzle text").fill(text)
        expect(page.get_by_label("Adjacency")).to_have_value("king")
        page.get_by_role("button", name="Check").click()
        expect(status(page)).to_contain_text("More than one solution")
        expect(status(page)).to_contain_text("With Numbrix rules (sides only) it has exactly one solution.")
        offer = page.get_by_role("button", name="Solve as Numbrix")
        expect(offer).to_be_visible()
        page.screenshot(path=str(artifacts_dir / f"solver-numbrix-offer-{size}.png"), full_page=True)
        offer.click()
        expect(status(page)).to_contain_text(re.compile(r"Solved in \d+ ms\. It is the only solution\."))
        expect(page.get_by_label("Adjacency")).to_have_value("rook")
        expect(page.get_by_role("img", name="Solution").locator("text")).to_have_count(100)
        expect(page.get_by_role("button", name="Solve as Numbrix")).to_have_count(0)
    finally:
        page.context.close()
