"""The booklet form in Debian's Chromium: beside "Puzzles per page" it says, as the
choices change, when boards would print fewer to a page than asked, and the PDF then
does what it said."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from pdf_tools import text

FEWER = "Printed 2 to a page (not 4) so that every cell is at least 9 mm wide."


def test_the_form_says_live_when_boards_go_fewer_to_a_page(page: Page, tmp_path: Path,
                                                           artifacts_dir: Path) -> None:
    page.goto("/booklet")
    note = page.locator("#per_page-note")
    per_page = page.get_by_label("Puzzles per page")
    page.get_by_label("Shape").select_option("heart")
    page.get_by_label("Size").fill("12")
    per_page.select_option("4")
    expect(note).to_have_text(FEWER)
    expect(per_page).to_have_attribute("aria-describedby", "per_page-note")
    page.screenshot(path=str(artifacts_dir / "booklet-form-fewer.png"), full_page=True)
    per_page.select_option("2")
    expect(note).to_have_text("")
    per_page.select_option("4")
    page.get_by_label("Size").fill("8")  # a heart 8 cells wide fits four to a page
    expect(note).to_have_text("")
    page.get_by_label("Size").fill("28")
    expect(note).to_contain_text("Even one to a page, some cells of these boards print under 9 mm wide")
    page.get_by_label("Shape").select_option("mixed")  # a star or a skull needs a page of its own
    expect(note).to_have_text("Some shapes go fewer than 4 to a page so that every cell is at least 9 mm wide.")
    page.get_by_label("Variant").select_option("numbrix")  # Numbrix's shapes all fit four to a page
    expect(note).to_have_text("")

    # The PDF does what the form said, and its first page says it too.
    page.get_by_label("Variant").select_option("hidato")
    page.get_by_label("Shape").select_option("heart")
    page.get_by_label("Size").fill("12")
    page.get_by_label("Difficulty").select_option(label="Easy")
    page.get_by_label("Number of puzzles").fill("2")
    expect(note).to_have_text(FEWER)
    with page.expect_download() as info:
        page.get_by_role("button", name="Make the booklet (PDF)").click()
    pdf = tmp_path / "hearts.pdf"
    info.value.save_as(str(pdf))
    first = " ".join(text(pdf, 1).split())
    assert FEWER in first and "Puzzle 1 of 2" in first and "Puzzle 2 of 2" in first


def test_the_note_on_a_phone(browser: Browser, base_url: str, artifacts_dir: Path) -> None:
    context = browser.new_context(base_url=base_url, viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto("/booklet")
    page.get_by_label("Shape").select_option("square")
    page.get_by_label("Size").fill("15")
    page.get_by_label("Puzzles per page").select_option("4")
    note = page.locator("#per_page-note")
    expect(note).to_have_text("Printed 1 to a page (not 4) so that every cell is at least 9 mm wide.")
    box = note.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390  # wraps, no sideways scroll
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    note.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "booklet-form-phone.png"))
    context.close()
