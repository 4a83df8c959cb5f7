"""The New puzzle form offers only the levels a shape and size can reach, and says why."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from engine.levels import SMALLEST


def test_levels_a_board_cannot_reach_are_disabled_and_explained(page: Page) -> None:
    ring = SMALLEST["king"]["ring"]
    page.goto("/")
    page.get_by_label("Shape").select_option("ring")
    page.get_by_label("Size").fill(str(ring["hard"] - 1))
    page.get_by_label("Size").dispatch_event("input")
    difficulty = page.get_by_label("Difficulty")
    expect(difficulty.locator("option[value=hard]")).to_be_disabled()
    expect(difficulty.locator("option[value=expert]")).to_be_disabled()
    expect(difficulty.locator("option[value=medium]")).to_be_enabled()
    expect(page.locator("#difficulty-note")).to_contain_text(f"Hard: size {ring['hard']} or more")
    page.get_by_label("Size").fill(str(ring["hard"]))
    page.get_by_label("Size").dispatch_event("input")
    expect(difficulty.locator("option[value=hard]")).to_be_enabled()
    expected = "" if ring["expert"] <= ring["hard"] else f"Needs a bigger board: Expert: size {ring['expert']} or more."
    expect(page.locator("#difficulty-note")).to_have_text(expected)


def test_the_server_refuses_an_unreachable_level_with_the_reason(page: Page) -> None:
    """Without the script (or with a hand-made request), the server says the same."""
    ring = SMALLEST["king"]["ring"]
    page.goto("/")
    page.get_by_label("Shape").select_option("ring")
    page.get_by_label("Size").fill(str(ring["hard"] - 1))
    # As a browser without the script would: the options all open, nothing re-checks them.
    page.evaluate("var s = document.getElementById('difficulty'); s.removeAttribute('data-level-sizes');"
                  "s.querySelectorAll('option').forEach(function (o) { o.disabled = false; })")
    page.get_by_label("Difficulty").select_option("hard")
    page.get_by_role("button", name="New puzzle").click()
    expect(page.locator("main")).to_contain_text(f"need the ring shape at size {ring['hard']} or more")
