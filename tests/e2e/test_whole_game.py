"""A whole game in Debian's Chromium, on a desktop and on a phone, without one console error:
from the home page's form to a solved puzzle and the next one, with the game's buttons used
on the way. Errors logged, uncaught exceptions and Content-Security-Policy violations
(the securitypolicyviolation event as well as Chromium's "Refused to ..." lines) all count."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, ConsoleMessage, Locator, Page, ViewportSize, expect

from engine import Cell
from webapp.core.options import Options
from webapp.core.stored import generate

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}

# Before the page's own scripts (Playwright's init scripts are not subject to the CSP).
CSP_WATCH = """
document.addEventListener('securitypolicyviolation', e => console.error(
  'CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber));
"""


class Heard:
    """Every console error and uncaught exception of a page, and where it happened."""

    def __init__(self, page: Page):
        self.errors: list[str] = []
        self.page = page
        page.on("console", self._console)
        page.on("pageerror", lambda error: self.errors.append(f"{page.url}: uncaught {error}"))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error" or "Content Security Policy" in message.text or "Refused to" in message.text:
            self.errors.append(f"{self.page.url}: {message.text}")


@pytest.fixture(params=["desktop", "phone"])
def player(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[tuple[Page, bool]]:
    phone = request.param == "phone"
    context = browser.new_context(base_url=base_url, viewport=PHONE if phone else DESKTOP,
                                  is_mobile=phone, has_touch=phone)
    context.add_init_script(CSP_WATCH)
    page = context.new_page()
    yield page, phone
    context.close()


def cell_box(page: Page, cell: Cell) -> Locator:
    return page.get_by_label(f"Row {cell[0] + 1}, column {cell[1] + 1}", exact=True)


def cell_div(page: Page, cell: Cell) -> Locator:
    return page.locator(f"#cell-{cell[0] + 1}-{cell[1] + 1}")


def play(page: Page, phone: bool, cell: Cell, value: int) -> None:
    """Enter a number as a player does: on the phone a tap and the number pad (Delete first
    if the cell shows a number), at a desk the keyboard."""
    if phone:
        for _ in range(3):
            cell_box(page, cell).tap()
            if cell_box(page, cell).input_value():
                page.locator(".pad [data-key='Delete']").tap()
                expect(cell_box(page, cell)).to_have_value("")
            # The pad commits a number after a 0.6-s pause: the digits are tapped without
            # Playwright's waits in between, as fast as a thumb, and tapped again if a loaded
            # machine still let the pause pass between two of them (a player sees and fixes it).
            for digit in str(value):
                page.locator(f".pad [data-key='{digit}']").tap(force=True, no_wait_after=True)
            # OK, unless the number went by itself (no other can follow) and finished the game.
            page.wait_for_function("() => !document.querySelector('.htmx-request')")
            if not page.locator("#game.finished").count():
                page.locator(".pad [data-key='Enter']").tap()
            page.wait_for_function("() => !document.querySelector('.htmx-request')")
            if cell_box(page, cell).input_value() == str(value):
                break
    else:
        cell_box(page, cell).select_text()  # the keyboard reaches the cell (Tab, arrows) and types over it
        page.keyboard.type(str(value))
        page.keyboard.press("Tab")
    expect(cell_box(page, cell)).to_have_value(str(value))


def test_a_whole_game_logs_no_console_error(player: tuple[Page, bool], live_app: Flask, artifacts_dir: Path) -> None:
    page, phone = player
    heard = Heard(page)
    page.goto("/")
    page.get_by_label("Shape").select_option("square")
    page.get_by_label("Size").fill("5")
    page.get_by_label("Difficulty").select_option(label="Easy")
    page.get_by_role("button", name="New puzzle").click()
    expect(page).to_have_url(re.compile(r"/p/"))
    page.wait_for_load_state()
    code = page.url.split("/p/")[1]
    stored = live_app.extensions["hidato"].store.find_puzzle(code)
    assert stored is not None
    cells = [c for c in stored.puzzle.board.cells if c not in stored.puzzle.givens]
    status = page.get_by_role("status")

    # A wrong number, taken back and put back; Notes on and off; the game's buttons.
    first = cells[0]
    play(page, phone, first, stored.solution[first] % stored.puzzle.size + 1)
    expect(cell_div(page, first)).to_have_class(re.compile(r"\bwrong\b"))
    page.get_by_role("button", name="Undo").click()
    expect(cell_box(page, first)).to_have_value("")
    page.get_by_role("button", name="Redo").click()
    expect(cell_div(page, first)).to_have_class(re.compile(r"\bwrong\b"))
    page.get_by_role("button", name="Check").click()
    expect(status).to_contain_text("1 entry is wrong")
    page.get_by_role("button", name="Notes").click()
    expect(page.get_by_role("button", name="Notes")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Notes").click()
    page.get_by_role("button", name="Hint").click()
    expect(status).to_contain_text("Hint:")
    page.get_by_role("button", name="Pause").click()
    page.get_by_role("button", name="Resume").click()
    expect(status).to_contain_text("Resumed")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")  # the clock's beacon

    # Every number, to the end.
    for cell in cells:
        if cell_box(page, cell).input_value() != str(stored.solution[cell]):
            play(page, phone, cell, stored.solution[cell])
    expect(status).to_contain_text("Solved!")
    panel = page.get_by_role("region", name="Solved")
    panel.get_by_role("button", name="Copy link").click()
    expect(status).to_contain_text(re.compile(r"link", re.I))
    page.reload()
    expect(panel).to_be_visible()
    panel.get_by_role("button", name="Next puzzle").click()
    expect(page).not_to_have_url(re.compile(re.escape(code) + "$"))
    expect(page.locator("#game .board")).to_be_visible()
    page.goto("/mine")
    expect(page.get_by_role("table", name="Finished")).to_contain_text("Solved")

    kind = "phone" if phone else "desktop"
    (artifacts_dir / f"console-errors-{kind}.json").write_text(json.dumps(heard.errors, indent=1))
    assert heard.errors == [], f"{len(heard.errors)} console errors over a whole game: {heard.errors}"


def test_a_swap_after_a_screenshot_logs_no_console_error(player: tuple[Page, bool], live_app: Flask) -> None:
    """Screenshot tools (Playwright's among them, and some browser extensions) leave an
    empty ``style`` attribute on the page's inputs.  htmx's settle step used to copy it onto
    the redrawn cell with setAttribute, which the CSP refuses as an inline style."""
    page, phone = player
    heard = Heard(page)
    store = live_app.extensions["hidato"].store
    stored = store.save_puzzle(generate(Options("square", 8, "easy", "hidato"), seed=11))
    page.goto(f"/p/{stored.code}")
    cells = [c for c in stored.puzzle.board.cells if c not in stored.puzzle.givens]
    page.screenshot()
    assert page.locator("#game .board input[style]").count() > 0  # what the screenshot left
    play(page, phone, cells[-1], stored.solution[cells[-1]])
    expect(cell_div(page, cells[-1])).to_have_class(re.compile(r"\bright\b"))
    assert heard.errors == [], f"console errors after a screenshot and an entry: {heard.errors}"
