"""The home page knows the player's progress, in Chromium at desktop and phone size: a
fresh browser is asked to play today's puzzle; a game left unfinished gets a Continue
link; today's puzzle begun says how far, solved shows the time and the daily streak."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from engine import Cell
from webapp.core.days import today as site_today
from webapp.core.options import Options
from webapp.core.stored import StoredPuzzle, generate

SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


def _daily(live_app: Flask) -> StoredPuzzle:
    """Today's puzzle of the day on the live server (a small one made now if none yet)."""
    store = live_app.extensions["hidato"].store
    day = site_today(live_app.config["TIMEZONE"])
    return store.daily(day) or store.save_puzzle(generate(Options("diamond", 3, "easy", "hidato"), seed=7,
                                                          daily=day))


def _enter(page: Page, base_url: str, stored: StoredPuzzle, cells: list[Cell]) -> None:
    """Enter the right numbers in these cells as the play page posts them (htmx), in this
    browser's session."""
    token = page.evaluate("JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRF-Token']")
    for r, c in cells:
        response = page.request.post(f"{base_url}/p/{stored.code}/cell/{r + 1}/{c + 1}",
                                     form={f"c-{r + 1}-{c + 1}": str(stored.solution[(r, c)])},
                                     headers={"X-CSRF-Token": token, "HX-Request": "true"})
        assert response.ok, response.text()[:300]


def _open_cells(stored: StoredPuzzle) -> list[Cell]:
    return [cell for cell in stored.puzzle.board.cells if cell not in stored.puzzle.givens]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_home_page_shows_the_game_to_continue_and_today_solved(browser: Browser, base_url: str,
                                                                    live_app: Flask, size: str,
                                                                    artifacts_dir: Path) -> None:
    daily = _daily(live_app)
    other = live_app.extensions["hidato"].store.save_puzzle(
        generate(Options("diamond", 3, "easy", "numbrix"), seed=11))
    context = browser.new_context(base_url=base_url, **SIZES[size])
    page = context.new_page()
    try:
        page.goto("/")
        expect(page.get_by_role("link", name="Play today's puzzle")).to_be_visible()
        expect(page.get_by_role("link", name="Continue", exact=True)).to_have_count(0)
        page.screenshot(path=artifacts_dir / f"home-fresh-{size}.png", full_page=True)

        # Another puzzle begun and left: the home page offers to go back to it.
        page.goto(f"/p/{other.code}")
        _enter(page, base_url, other, _open_cells(other)[:2])
        page.goto("/")
        resume = page.get_by_role("link", name="Continue", exact=True)
        expect(resume).to_be_visible()
        expect(page.locator(".resume")).to_contain_text("Numbrix diamond, easy")
        expect(page.locator(".resume")).to_contain_text(f"2 of {len(_open_cells(other))} cells filled")

        # Today's puzzle begun: Continue, with how far.
        cells = _open_cells(daily)
        page.goto(f"/p/{daily.code}")
        _enter(page, base_url, daily, cells[:1])
        page.goto("/")
        today = page.locator(".today")
        expect(today.get_by_role("link", name="Continue today's puzzle")).to_be_visible()
        expect(today).to_contain_text(f"1 of {len(cells)} cells filled")
        expect(page.get_by_role("link", name="Continue", exact=True)).to_have_attribute("href", f"/p/{other.code}")
        page.screenshot(path=artifacts_dir / f"home-in-progress-{size}.png", full_page=True)

        # Today's puzzle solved: the mark, the time, the streak; no "Play" any more.
        page.goto(f"/p/{daily.code}")
        _enter(page, base_url, daily, cells[1:])
        page.goto("/")
        solved = today.locator(".today-done.solved")
        expect(solved).to_be_visible()
        expect(solved).to_have_text(re.compile(r"Solved in \d+:\d\d"))
        expect(today).to_contain_text("1 day in a row on the puzzle of the day")
        expect(today.get_by_role("link", name="Play today's puzzle")).to_have_count(0)
        expect(today.get_by_role("link", name="See your solved puzzle")).to_have_attribute("href", f"/p/{daily.code}")
        shown = (solved.text_content() or "").split("Solved in ")[1].strip()
        page.screenshot(path=artifacts_dir / f"home-solved-{size}.png", full_page=True)

        # The same time as My puzzles gives it; and Continue still leads to the other game.
        page.goto("/mine")
        row = page.locator("table.played tr", has=page.get_by_role("link", name=re.compile("Puzzle of the day")))
        expect(row.locator("td").nth(3)).to_have_text(shown)
        page.goto("/")
        page.get_by_role("link", name="Continue", exact=True).click()
        expect(page).to_have_url(re.compile(re.escape(f"/p/{other.code}") + "$"))
    finally:
        context.close()
