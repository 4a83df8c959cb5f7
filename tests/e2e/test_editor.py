"""The solver page in Debian's Chromium: draw a shape, type givens, every button."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

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
