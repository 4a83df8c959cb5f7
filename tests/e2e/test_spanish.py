"""The site in Spanish in Chromium at phone and desktop size: a browser that asks for
Spanish gets it, a player plays and asks for a hint in Spanish, the switch goes back to
English, and longer Spanish words break neither the header, the buttons nor the pad."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from engine import puzzle_to_id

from puzzle_files import DATA, load

PUZZLE, SOLUTION = load(DATA / "seed000-5x5.txt")
CODE = puzzle_to_id(PUZZLE)
SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


def _fits(page: Page) -> None:
    """Nothing sticks out sideways: the page, the header and every button keep their text inside."""
    overflow = page.evaluate("""() => {
        const wide = document.documentElement.scrollWidth > window.innerWidth + 1;
        const cut = [...document.querySelectorAll('header *, button, .numpad *')]
            .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1
                         && getComputedStyle(e).overflow !== 'visible')
            .map(e => e.outerHTML.slice(0, 80));
        return {wide, cut};
    }""")
    assert not overflow["wide"], "the page scrolls sideways"
    assert not overflow["cut"], f"text cut off: {overflow['cut'][:3]}"


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_spanish_browser_plays_in_spanish(browser: Browser, base_url: str, live_app: Flask, size: str,
                                            artifacts_dir: Path) -> None:
    context = browser.new_context(base_url=base_url, locale="es-ES", **SIZES[size])
    page = context.new_page()
    try:
        page.goto("/")
        expect(page.locator("html")).to_have_attribute("lang", "es")
        expect(page.get_by_role("link", name="Mis puzles")).to_be_visible()
        _fits(page)
        page.screenshot(path=artifacts_dir / f"spanish-home-{size}.png", full_page=True)
        page.goto(f"/p/{CODE}")
        expect(page.locator("html")).to_have_attribute("lang", "es")
        open_cell = next(c for c in PUZZLE.board.cells if c not in PUZZLE.givens)
        cell = page.get_by_label(f"Fila {open_cell[0] + 1}, columna {open_cell[1] + 1}", exact=True)
        cell.click()
        page.keyboard.type(str(SOLUTION[open_cell]))
        page.keyboard.press("Enter")
        expect(page.locator("#counts")).to_contain_text("de")
        page.get_by_role("button", name="Pista").click()
        expect(page.locator("#status")).to_contain_text("Pista")
        _fits(page)
        page.screenshot(path=artifacts_dir / f"spanish-play-{size}.png", full_page=True)
        page.get_by_role("link", name="English").click()
        expect(page.locator("html")).to_have_attribute("lang", "en")
        expect(page.get_by_role("button", name="Hint")).to_be_visible()
    finally:
        context.close()
