"""axe-core's WCAG 2.1 AA and best-practice rules on the play page, in Debian's Chromium:
an 8×8 and a 20×20 board, at a desktop and a phone size, fresh, in notes mode, after
Check and Hint, with the Reveal confirmation open and after the reveal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from engine import generate_shape, puzzle_to_id

AXE = Path(__file__).resolve().parent.parent / "vendor" / "axe.min.js"  # see tests/vendor/README.md
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "color_scheme": "dark"},
}


def violations(page: Page) -> list[dict[str, Any]]:
    """axe's violations on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))  # an inline script: the context bypasses the CSP for it
    found: list[dict[str, Any]] = page.evaluate(
        "async (tags) => (await axe.run(document, {runOnly: {type: 'tag', values: tags}})).violations", TAGS)
    return found


def readable(found: list[dict[str, Any]]) -> str:
    lines = []
    for violation in found:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']} -- {violation['helpUrl']}")
        for node in violation["nodes"][:5]:
            summary = " ".join((node.get("failureSummary") or "").split())
            lines.append(f"    {' '.join(node['target'])}: {summary}")
    return "\n".join(lines)


def assert_clean(page: Page, when: str) -> None:
    found = violations(page)
    assert not found, f"axe found {len(found)} violation(s) {when}:\n{readable(found)}"


@pytest.fixture(params=sorted(SIZES))
def screen(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[Page]:
    context = browser.new_context(base_url=base_url, bypass_csp=True, **SIZES[request.param])
    yield context.new_page()
    context.close()


def _walk(page: Page, code: str) -> None:
    page.goto(f"/p/{code}")
    assert_clean(page, "on the fresh page")
    notes = page.get_by_role("button", name="Notes")
    notes.click()
    expect(notes).to_have_attribute("aria-pressed", "true")
    assert_clean(page, "in notes mode")
    notes.click()
    status = page.get_by_role("status")
    page.get_by_role("button", name="Check").click()
    expect(status).to_contain_text("Nothing to check yet")
    assert_clean(page, "after Check")
    page.get_by_role("button", name="Hint").click()
    expect(status).to_contain_text("Hint:")
    assert_clean(page, "after Hint")
    page.get_by_role("button", name="Reveal solution").click()
    expect(page.get_by_role("alertdialog")).to_be_visible()
    assert_clean(page, "with the Reveal confirmation open")
    page.get_by_role("button", name="Yes, reveal the solution").click()
    expect(status).to_contain_text("Solution revealed")
    assert_clean(page, "after the reveal")


def test_axe_on_an_8x8_board(screen: Page) -> None:
    _walk(screen, puzzle_to_id(generate_shape("square", 8, "easy", "king", seed=3).puzzle))


@pytest.mark.slow
def test_axe_on_a_20x20_board(screen: Page) -> None:
    _walk(screen, puzzle_to_id(generate_shape("square", 20, "easy", "king", seed=3).puzzle))
