"""My puzzles and the solver page on a phone (390×844, touch), in English and Spanish:
every column of Best times inside the screen, the solver's menus whole and no button
wrapped onto more than two lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect

from webapp.core.options import Options
from webapp.core.stored import generate

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

# How many lines each element's text takes, and where it sits (measured in the page).
MEASURE = """els => els.map(e => {
    const range = document.createRange();
    range.selectNodeContents(e);
    const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
    const box = e.getBoundingClientRect();
    return {text: e.textContent.trim(), lines: tops.size, left: box.left, right: box.right,
            visible: e.offsetParent !== null && box.width > 0};
})"""


def _phone_page(browser: Browser, base_url: str, language: str) -> Page:
    context = browser.new_context(base_url=base_url, locale=f"{language}-ES" if language == "es" else "en-GB",
                                  **PHONE)
    return context.new_page()


def _solve(page: Page, base_url: str, live_app: Flask) -> None:
    """Solve a small puzzle in this browser's session, as the play page posts entries."""
    stored = live_app.extensions["hidato"].store.save_puzzle(generate(Options("diamond", 3, "easy", "hex"), seed=5))
    page.goto(f"/p/{stored.code}")
    token = page.evaluate("JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRF-Token']")
    for (r, c), value in stored.solution.items():
        if (r, c) not in stored.puzzle.givens:
            assert page.request.post(f"{base_url}/p/{stored.code}/cell/{r + 1}/{c + 1}",
                                     form={f"c-{r + 1}-{c + 1}": str(value)},
                                     headers={"X-CSRF-Token": token, "HX-Request": "true"}).ok


@pytest.mark.parametrize("language", ["en", "es"])
def test_my_puzzles_shows_every_column_of_best_times_on_a_phone(browser: Browser, base_url: str, live_app: Flask,
                                                                 language: str, artifacts_dir: Path) -> None:
    page = _phone_page(browser, base_url, language)
    try:
        _solve(page, base_url, live_app)
        page.goto("/mine")
        best = page.locator("table.best")
        expect(best).to_be_visible()
        cells = page.locator("table.best th, table.best td").evaluate_all(MEASURE)
        assert len(cells) == 10  # five headings, one row of five
        for cell in cells:
            assert cell["visible"], f"hidden: {cell['text']}"
            assert cell["left"] >= 0 and cell["right"] <= 390, f"outside the screen: {cell}"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=artifacts_dir / f"mine-phone-{language}.png", full_page=True)
    finally:
        page.context.close()


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_solver_page_fits_a_phone(browser: Browser, base_url: str, language: str, artifacts_dir: Path) -> None:
    page = _phone_page(browser, base_url, language)
    try:
        page.goto("/solve")
        # Each menu wide enough for the choice it shows ("Hidato (8 neighbours)", whole).
        for name in ("adjacency", "difficulty"):
            room = page.locator(f"#{name}").evaluate("""s => {
                const probe = document.createElement('span');
                probe.style.font = getComputedStyle(s).font;
                probe.style.position = 'absolute';
                probe.style.whiteSpace = 'nowrap';
                probe.textContent = s.selectedOptions[0].text;
                document.body.append(probe);
                const needed = probe.getBoundingClientRect().width;
                probe.remove();
                const style = getComputedStyle(s);
                const inside = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
                return {needed, inside, right: s.getBoundingClientRect().right};
            }""")
            assert room["needed"] + 16 <= room["inside"], f"#{name} cuts its text: {room}"  # 16: the arrow
            assert room["right"] <= 390
        buttons = page.locator(".editor-form button").evaluate_all(MEASURE)
        assert buttons
        for button in buttons:
            if button["visible"]:
                assert button["lines"] <= 2, f"{button['text']!r} takes {button['lines']} lines"
                assert button["right"] <= 390, f"{button['text']!r} is cut: {button}"
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        page.screenshot(path=artifacts_dir / f"solve-phone-{language}.png", full_page=True)
    finally:
        page.context.close()
