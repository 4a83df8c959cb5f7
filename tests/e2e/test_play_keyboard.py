"""The play page from the keyboard, in Debian's Chromium: the focus stays where the player
was after Check, Hint and Reveal (htmx swaps the whole game), the confirmation takes the
focus and gives it back, the board is one Tab stop (arrow keys inside), and notes are
written one number at a time, at a desktop and a phone size."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from engine import generate_shape, parse_puzzle, puzzle_to_id

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
EIGHT = generate_shape("square", 8, "easy", "king", seed=3).puzzle
EIGHT_CODE = puzzle_to_id(EIGHT)
# Nine cells: on the pad a digit is a note at once.
NINE = parse_puzzle("1 . 3\n. 5 .\n7 . 9\n")
NINE_CODE = puzzle_to_id(NINE)


@pytest.fixture
def phone(browser: Browser, base_url: str) -> Iterator[Page]:
    context = browser.new_context(base_url=base_url, viewport=PHONE, is_mobile=True, has_touch=True)
    yield context.new_page()
    context.close()


def focused(page: Page) -> str:
    """The id of the focused element ("" for <body>)."""
    return str(page.evaluate("document.activeElement ? document.activeElement.id : ''"))


def middle_cell(page: Page):  # noqa: ANN201 - a Playwright locator
    inputs = page.locator("#game .board .cell input")
    return inputs.nth(inputs.count() // 2)


def tabs_to(page: Page, target: str, most: int = 200) -> int:
    """Press Tab until the element with id ``target`` has the focus; how many presses."""
    for presses in range(1, most + 1):
        page.keyboard.press("Tab")
        if focused(page) == target:
            return presses
    raise AssertionError(f"#{target} not reached in {most} Tabs (now on #{focused(page)})")


def test_check_hint_and_reveal_keep_the_focus(page: Page) -> None:
    page.set_viewport_size(DESKTOP)
    page.goto(f"/p/{EIGHT_CODE}")
    status = page.get_by_role("status")
    page.evaluate("document.getElementById('status').dataset.kept = 'yes'")
    middle_cell(page).focus()
    assert tabs_to(page, "tool-check") <= 6  # the board is one Tab stop
    page.keyboard.press("Enter")
    expect(status).to_contain_text("Nothing to check yet")
    expect(page.locator("#tool-check")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#tool-hint")).to_be_focused()
    page.keyboard.press("Enter")
    expect(status).to_contain_text("Hint:")
    expect(page.locator("#tool-hint")).to_be_focused()
    # The cell the hint names is where the board's Tab stop is now.
    hinted = page.locator("#game .board .cell.hinted input")
    if hinted.count():
        expect(page.locator("#game .board [tabindex='0']")).to_have_count(1)
        assert page.evaluate("document.querySelector('#game .board [tabindex=\"0\"]').closest('.cell')"
                             ".classList.contains('hinted')")
    # The Reveal confirmation takes the focus (Cancel, the safe answer); Escape cancels it
    # and gives the focus back to Reveal.
    tabs_to(page, "tool-reveal", most=6)
    page.keyboard.press("Enter")
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#confirm-cancel")).to_be_focused()
    assert page.evaluate("document.getElementById('confirm').matches(':modal')")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(status).to_contain_text("Cancelled")
    expect(page.locator("#tool-reveal")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#confirm-cancel")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#confirm-yes")).to_be_focused()
    page.keyboard.press("Enter")
    expect(status).to_contain_text("Solution revealed")
    expect(page.locator("#tool-restart")).to_be_focused()  # Reveal is disabled now
    # Every message went to the same live region: it was never swapped away.
    assert page.evaluate("document.getElementById('status').dataset.kept") == "yes"
    expect(status).to_have_attribute("role", "status")


def test_cancel_and_undo_give_the_focus_back(page: Page) -> None:
    page.goto(f"/p/{EIGHT_CODE}")
    cell = middle_cell(page)
    cell.focus()
    page.keyboard.type("2")
    page.keyboard.press("Enter")  # sends it and moves on
    expect(page.locator("#tool-undo")).to_be_enabled()
    page.locator("#tool-restart").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#confirm-cancel")).to_be_focused()
    page.keyboard.press("Enter")  # Cancel
    expect(page.get_by_role("status")).to_contain_text("Cancelled")
    expect(page.locator("#tool-restart")).to_be_focused()
    page.locator("#tool-undo").focus()
    page.keyboard.press("Enter")  # the one entry undone: Undo is disabled, Redo takes the focus
    expect(page.get_by_role("status")).to_contain_text("Undid")
    expect(page.locator("#tool-undo")).to_be_disabled()
    expect(page.locator("#tool-redo")).to_be_focused()


def test_the_board_is_one_tab_stop_with_arrows_inside(page: Page) -> None:
    page.goto(f"/p/{EIGHT_CODE}")
    expect(page.locator("#game .board [tabindex='0']")).to_have_count(1)
    open_cells = page.locator("#game .board .cell input")
    expect(page.locator("#game .board .cell input[tabindex='-1']")).to_have_count(open_cells.count() - 1)
    cell = middle_cell(page)
    cell.focus()
    name = cell.get_attribute("id")
    page.keyboard.press("ArrowDown")
    moved = focused(page)
    assert moved != name
    # Out of the board and back: Shift+Tab returns to the cell last focused.
    page.keyboard.press("Tab")
    assert not page.evaluate("document.activeElement.closest('.board')")
    page.keyboard.press("Shift+Tab")
    if page.evaluate("!!document.activeElement.closest('.zoom')"):
        page.keyboard.press("Shift+Tab")
    assert focused(page) in (moved, moved.replace("c-", "cell-"))


def test_without_javascript_every_cell_is_a_tab_stop(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"/p/{EIGHT_CODE}")
        expect(page.locator("#game .board [tabindex]")).to_have_count(0)
        first = page.locator("#game .board .cell input").first
        first.focus()
        page.keyboard.press("Tab")
        expect(page.locator("#game .board .cell input").nth(1)).to_be_focused()
    finally:
        context.close()


def test_notes_by_keyboard_one_number_per_enter(page: Page) -> None:
    page.set_viewport_size(DESKTOP)
    page.goto(f"/p/{EIGHT_CODE}")
    page.get_by_role("button", name="Notes").click()
    help_line = page.locator("#notes-help")
    expect(help_line).to_be_visible()
    expect(help_line).to_contain_text(re.compile("type a number and press Enter", re.IGNORECASE))
    cell = middle_cell(page)
    name = cell.get_attribute("id")
    cell.focus()
    page.keyboard.type("5")
    page.keyboard.press("Enter")
    pencil = page.locator(f"#{name}").locator("xpath=..").locator(".pencil")
    expect(pencil).to_have_text("5")
    expect(page.locator(f"#{name}")).to_be_focused()  # Enter stays in the cell for the next note
    page.keyboard.type("7")
    page.keyboard.press("Enter")
    expect(pencil).to_have_text("5 7")
    page.keyboard.type("9")
    page.keyboard.press("Enter")
    expect(pencil).to_have_text("5 7 9")
    page.keyboard.type("12")  # a note past 9; leaving the cell sends it too
    page.keyboard.press("Tab")
    expect(pencil).to_have_text("5 7 9 12")
    page.get_by_role("button", name="Notes").click()
    expect(help_line).to_be_hidden()


def pad_key(page: Page, key: str):  # noqa: ANN201
    return page.get_by_role("group", name="Number pad").get_by_role("button", name=key, exact=True)


def test_pad_notes_on_a_board_up_to_9_go_at_once(phone: Page) -> None:
    phone.goto(f"/p/{NINE_CODE}")
    cell = phone.locator("#cell-1-2")
    cell.locator("input").tap()
    phone.get_by_role("button", name="Notes").tap()
    expect(phone.locator("#notes-help")).to_contain_text("Tap a digit")
    pad_key(phone, "2").tap()
    expect(cell.locator(".pencil")).to_have_text("2")
    pad_key(phone, "4").tap()
    expect(cell.locator(".pencil")).to_have_text("2 4")
    pad_key(phone, "2").tap()
    expect(cell.locator(".pencil")).to_have_text("4")
    expect(phone.get_by_role("status")).to_contain_text("Note 2 taken from")


def test_pad_notes_on_a_bigger_board_are_composed_in_sight(phone: Page) -> None:
    phone.goto(f"/p/{EIGHT_CODE}")
    cell = middle_cell(phone).locator("xpath=..")
    cell.locator("input").tap()
    phone.get_by_role("button", name="Notes").tap()
    expect(phone.locator("#notes-help")).to_contain_text("then OK")
    pad_key(phone, "5").tap()
    # Not sent yet (being typed, with no pause that sends it): shown in the cell, and the
    # status line says what OK does.
    expect(cell.locator("input")).to_have_value("5")
    expect(cell).to_have_class(re.compile(r"\btyping\b"))
    expect(phone.get_by_role("status")).to_contain_text("Note 5…: tap OK")
    expect(cell.locator(".pencil")).to_have_count(0)
    pad_key(phone, "OK: enter the number").tap()
    expect(cell.locator(".pencil")).to_have_text("5")
    expect(cell.locator("input")).to_have_value("")
    pad_key(phone, "5").tap()
    pad_key(phone, "7").tap()  # 57: no third digit can follow on a board of 64, so it goes
    expect(cell.locator(".pencil")).to_have_text("5 57")
