"""The page for a board the New puzzle form offers but the site could not give at once
(not in the pool, not made within the budget), in Chromium on a phone (390×844, touch)
and a desktop (1280×800): asked from the form, it says so, its nearest ready board opens
at a tap, and once the filler has made the asked board, coming back opens it.

The give-up is real and cheap: the live app's generation budget is cut to 0.001 s for
the test, shorter than any child process takes to answer."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, expect

from webapp.core.options import Options
from webapp.store.pool import fill

ASKED = Options("hexagon", 4, "medium", "hex")
READY = Options("hexagon", 4, "easy", "hex")
VIEWPORTS: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


@pytest.mark.slow
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_board_not_ready_offers_a_ready_one_and_opens_when_made(
        browser: Browser, base_url: str, live_app: Flask, monkeypatch: pytest.MonkeyPatch,
        artifacts_dir: Path, device: str) -> None:
    monkeypatch.setitem(live_app.config, "GENERATE_SECONDS", 0.001)
    store = live_app.extensions["hidato"].store
    fill(store, [READY])  # the board waiting in the pool (topped up to one)
    context = browser.new_context(base_url=base_url, locale="en-GB", **VIEWPORTS[device])
    page = context.new_page()
    try:
        page.goto("/")
        page.select_option("#variant", ASKED.variant)
        page.select_option("#shape", ASKED.shape)
        page.fill("#size", str(ASKED.size))
        page.select_option("#difficulty", ASKED.difficulty)
        page.locator("form.options button[type=submit]").click()

        expect(page.get_by_role("heading", level=1)).to_have_text("Your puzzle is not ready yet")
        asked_url = f"/new/{ASKED.variant}/{ASKED.shape}/{ASKED.size}/{ASKED.difficulty}"
        assert page.url == base_url + asked_url
        expect(page.get_by_role("status")).to_contain_text("keeps being made in the background")
        offer = page.locator(".ready-boards a.button.primary")
        expect(offer).to_have_text("An easy Hex puzzle on a hexagonal board of size 4")
        width = VIEWPORTS[device]["viewport"]["width"]
        box = offer.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert box["height"] >= 44  # a comfortable touch target
        assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing off the side
        page.screenshot(path=str(artifacts_dir / f"not-ready-{device}.png"), full_page=True)

        if device == "phone":
            offer.tap()
        else:
            offer.click()
        expect(page).to_have_url(re.compile(r"/p/[^/]+$"))  # the ready board's own page, at once
        expect(page.locator("#board-wrap")).to_be_visible()
        assert store.pool_counts().get((READY.shape, READY.size, READY.difficulty, READY.adjacency), 0) == 0

        fill(store, [ASKED])  # the pool's filler makes the asked board meanwhile
        page.goto(asked_url)  # the player comes back
        expect(page).to_have_url(re.compile(r"/p/[^/]+$"))
        expect(page.locator("#board-wrap")).to_be_visible()
        assert store.pool_counts().get((ASKED.shape, ASKED.size, ASKED.difficulty, ASKED.adjacency), 0) == 0
    finally:
        context.close()
