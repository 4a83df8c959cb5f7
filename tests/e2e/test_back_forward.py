"""In Chromium: the back button brings a puzzle page back from the back/forward cache
(its pages are no longer no-store) and what it shows is fetched again, so an entry made
in another tab meanwhile appears; without the bfcache the same holds for a page the
browser takes from its HTTP cache. The static files arrive compressed and, on the next
page, come from the browser's cache."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserType, Page, expect

from engine import Cell, puzzle_to_id

from puzzle_files import DATA, load

PUZZLE, SOLUTION = load(DATA / "classic-8x8-40.txt")
CODE = puzzle_to_id(PUZZLE)
OPEN = [cell for cell in PUZZLE.board.cells if cell not in PUZZLE.givens]
# Each pageshow, as the page saw it: "N" a new document, "P" one from the bfcache.
SHOWS = ("window.addEventListener('pageshow', e => { const html = document.documentElement;"
         " html.dataset.shows = (html.dataset.shows || '') + (e.persisted ? 'P' : 'N'); });")


@pytest.fixture(scope="module")
def bfcache_browser(browser_type: BrowserType, browser_type_launch_args: dict[str, Any]) -> Iterator[Browser]:
    """Chromium as a player has it: Playwright turns the back/forward cache off by default."""
    browser = browser_type.launch(**browser_type_launch_args, ignore_default_args=["--disable-back-forward-cache"])
    yield browser
    browser.close()


def box(page: Page, cell: Cell):  # noqa: ANN201 - a Playwright locator
    return page.get_by_label(f"Row {cell[0] + 1}, column {cell[1] + 1}", exact=True)


def enter(page: Page, cell: Cell) -> None:
    box(page, cell).fill(str(SOLUTION[cell]))
    box(page, cell).press("Tab")
    expect(page.locator(f"#cell-{cell[0] + 1}-{cell[1] + 1}")).to_have_class(re.compile(r"\bright\b"))


def _away_and_back(browser: Browser, base_url: str) -> Page:
    """An entry, then the Solver page; another tab enters a second number; then Back."""
    context = browser.new_context(base_url=base_url)
    page = context.new_page()
    page.add_init_script(SHOWS)
    page.goto(f"/p/{CODE}")
    enter(page, OPEN[0])
    page.get_by_role("link", name="Solver").click()
    expect(page).to_have_url(re.compile(r"/solve"))
    other = context.new_page()
    other.goto(f"/p/{CODE}")
    expect(box(other, OPEN[0])).to_have_value(str(SOLUTION[OPEN[0]]))
    enter(other, OPEN[1])
    other.close()
    page.go_back(wait_until="commit")
    return page


def test_back_restores_the_puzzle_from_the_bfcache_with_the_latest_entries(bfcache_browser: Browser,
                                                                          base_url: str) -> None:
    page = _away_and_back(bfcache_browser, base_url)
    html = page.locator("html")
    expect(html).to_have_attribute("data-shows", "NP")  # the same document, shown again
    expect(html).to_have_attribute("data-revalidated", "1")
    expect(box(page, OPEN[0])).to_have_value(str(SOLUTION[OPEN[0]]))
    expect(box(page, OPEN[1])).to_have_value(str(SOLUTION[OPEN[1]]))  # made in the other tab
    enter(page, OPEN[2])  # and the page still plays
    expect(page.locator("#counts")).to_contain_text(f"3 of {len(OPEN)} cells filled")
    page.context.close()


def test_back_without_the_bfcache_shows_the_latest_entries_too(browser: Browser, base_url: str) -> None:
    page = _away_and_back(browser, base_url)  # Playwright's Chromium: no bfcache
    page.wait_for_load_state()
    expect(box(page, OPEN[1])).to_have_value(str(SOLUTION[OPEN[1]]))
    assert "P" not in (page.locator("html").get_attribute("data-shows") or "")
    page.context.close()


def test_my_puzzles_reloads_when_back_brings_it(bfcache_browser: Browser, base_url: str) -> None:
    context = bfcache_browser.new_context(base_url=base_url)
    page = context.new_page()
    page.goto("/mine")
    expect(page.get_by_text("You haven't played a puzzle in this browser yet.")).to_be_visible()
    page.goto(f"/p/{CODE}")
    enter(page, OPEN[0])
    page.go_back(wait_until="commit")
    expect(page).to_have_url(re.compile(r"/mine$"))
    expect(page.locator(f'main a[href="/p/{CODE}"]')).not_to_have_count(0)  # the game now in progress
    context.close()


def test_static_files_arrive_compressed_then_come_from_the_cache(page: Page) -> None:
    sizes = ("() => performance.getEntriesByType('resource').filter(e => e.name.includes('/static/'))"
             ".map(e => [e.name, e.transferSize, e.encodedBodySize, e.decodedBodySize])")
    page.goto(f"/p/{CODE}")
    first = page.evaluate(sizes)
    scripts = [entry for entry in first if re.search(r"\.(js|css)\?v=", entry[0])]
    assert len(scripts) >= 4  # hidato.css, htmx, hidato.js, play.js
    for name, _transfer, encoded, decoded in scripts:
        assert encoded < decoded / 2, name  # sent compressed
    page.goto("/mine")
    # Only what the first page fetched: the browser asks for the favicon when it likes, so it may
    # still have been on its way when the first page was left and then comes over the network here.
    fetched = {entry[0] for entry in first}
    again = [entry for entry in page.evaluate(sizes) if entry[0] in fetched]
    assert len(again) >= 2, again  # hidato.css and hidato.js are on every page
    assert all(transfer == 0 for _name, transfer, _encoded, _decoded in again), again  # from the cache
