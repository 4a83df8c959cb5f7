"""The photo reader in Debian's Chromium, at a desktop's size and a phone's (touch): a
picture uploaded, the job waited for, the reading drawn over the photo beside the filled
editor, a misread cell corrected and the puzzle solved; bad uploads answered with their
messages, a file over the limit refused before it is sent (and by the server without
scripts), and axe's rules on the result page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Response, expect

from webapp.scan import MAX_BYTES

from photo_files import BOARD_SCREENSHOT, SHEET_WITH_19, classic, nineteen_cell, no_puzzle, not_an_image

AXE = Path(__file__).resolve().parent.parent / "vendor" / "axe.min.js"  # see tests/vendor/README.md
SIZES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
READ_SECONDS = 90  # the reading itself, on a machine the other tests share


@pytest.fixture(params=sorted(SIZES))
def screen(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[tuple[str, Page]]:
    context = browser.new_context(base_url=base_url, **SIZES[request.param])
    yield request.param, context.new_page()
    context.close()


def field(page: Page, row: int, col: int) -> Any:
    return page.get_by_label(f"Row {row}, column {col}", exact=True)


def documents(page: Page) -> list[Response]:
    """Every page (document) the browser receives from now on, in order."""
    seen: list[Response] = []
    page.on("response", lambda response: seen.append(response) if response.request.resource_type == "document"
            else None)
    return seen


def upload(page: Page, picture: Any, label: str = "Photo or screenshot of the puzzle") -> None:
    page.get_by_label(label).first.set_input_files(picture)
    page.get_by_role("button", name="Read the puzzle").first.click()


def test_a_misread_cell_is_seen_on_the_photo_corrected_in_the_grid_and_solved(
        screen: tuple[str, Page], artifacts_dir: Path) -> None:
    size, page = screen
    page.goto("/solve")
    upload(page, str(SHEET_WITH_19))
    expect(page.get_by_role("heading", name="Your puzzle, read from a photo")).to_be_visible(
        timeout=READ_SECONDS * 1000)

    # Beside the filled editor, the photo with every cell's outline and number over it.
    puzzle = classic()
    overlay = page.locator(".photo-overlay .read-cell")
    expect(overlay).to_have_count(puzzle.size)
    expect(page.get_by_role("img", name="Your photo of the puzzle")).to_be_visible()
    row, col = nineteen_cell()
    for (r, c), value in puzzle.givens.items():
        expect(field(page, r + 1, c + 1)).to_have_value("19" if (r, c) == (row, col) else str(value))
    expect(page.locator("#reading-summary")).to_contain_text("What was read has no solution")
    misread = page.locator(f'.photo-overlay [data-field="g-{row + 1}-{col + 1}"]')
    expect(misread).to_have_class("read-cell doubt")
    expect(misread.locator("text")).to_have_text("19?")
    page.screenshot(path=str(artifacts_dir / f"photo-result-{size}.png"), full_page=True)
    page.screenshot(path=str(artifacts_dir / f"photo-result-{size}-first-screen.png"))

    # The doubtful cell named above the photo leads to its field; corrected, then Check and Solve.
    page.get_by_role("link", name=f"row {row + 1}, column {col + 1}, read as 19").click()
    target = field(page, row + 1, col + 1)
    expect(target).to_be_focused()
    expect(target).to_have_class("ed-cell given doubt")
    target.fill("9")
    expect(target).to_have_class("ed-cell given")  # the person's now: no longer marked
    page.get_by_role("button", name="Check").click()
    expect(page.get_by_role("status")).to_contain_text("Exactly one solution")
    expect(page.get_by_role("img", name="Your photo of the puzzle")).to_be_visible()  # still beside
    page.get_by_role("button", name="Solve", exact=True).click()
    expect(page.get_by_role("status")).to_contain_text("It is the only solution")
    solution = page.get_by_role("img", name="Solution")
    expect(solution).to_be_visible()
    expect(solution.locator("text")).to_have_count(puzzle.size)
    page.screenshot(path=str(artifacts_dir / f"photo-solved-{size}.png"), full_page=True)


def test_a_screenshot_from_the_home_page_a_cell_of_the_photo_leads_to_its_field(screen: tuple[str, Page]) -> None:
    _size, page = screen
    page.goto("/")
    page.get_by_role("link", name="Read a puzzle from a photo").click()
    expect(page).to_have_url(re.compile(r"/photo$"))
    upload(page, str(BOARD_SCREENSHOT))
    expect(page.get_by_role("heading", name="Your puzzle, read from a photo")).to_be_visible(
        timeout=READ_SECONDS * 1000)
    expect(page.locator("#reading-summary")).to_contain_text("It has exactly one solution")
    puzzle = classic()
    expect(page.locator(".photo-overlay .read-cell")).to_have_count(puzzle.size)
    (r, c), value = next(iter(puzzle.givens.items()))
    page.locator(f'.photo-overlay [data-field="g-{r + 1}-{c + 1}"]').click()
    expect(field(page, r + 1, c + 1)).to_be_focused()
    expect(field(page, r + 1, c + 1)).to_have_value(str(value))
    expect(page.locator(f'.photo-overlay [data-field="g-{r + 1}-{c + 1}"]')).to_have_class("read-cell hot")
    # Play it here: the puzzle read is a puzzle of the site.
    page.get_by_role("button", name="Play this puzzle").click()
    expect(page).to_have_url(re.compile(r"/p/[^/]+$"))
    expect(page.get_by_role("group", name="Board, 8 rows by 8 columns")).to_be_visible()


@pytest.mark.parametrize(("make", "status"), [(not_an_image, 415), (no_puzzle, 422)],
                         ids=["not an image", "no puzzle"])
def test_a_picture_that_cannot_be_read_is_answered_with_its_message(
        screen: tuple[str, Page], make: Any, status: int) -> None:
    _size, page = screen
    page.goto("/photo")
    seen = documents(page)
    upload(page, {"name": "picture.jpg", "mimeType": "image/jpeg", "buffer": make()})
    expect(page.get_by_role("alert")).to_be_visible(timeout=READ_SECONDS * 1000)
    expect(page.get_by_role("alert")).not_to_be_empty()
    assert seen[-1].status == status
    expect(page.get_by_role("button", name="Read the puzzle")).to_be_enabled()  # the form again, to try another


def test_a_photo_over_the_limit_is_refused_before_it_is_sent(screen: tuple[str, Page]) -> None:
    _size, page = screen
    page.goto("/photo")
    seen = documents(page)
    page.get_by_label("Photo or screenshot of the puzzle").set_input_files(
        {"name": "huge.jpg", "mimeType": "image/jpeg", "buffer": b"\xff\xd8\xff" + b"\0" * MAX_BYTES})
    warning = page.get_by_role("alert")
    expect(warning).to_have_text("This photo is too large: the photo reader takes files of up to 25 MB. A photo "
                                 "straight from a phone camera is well under that; a screenshot or a smaller copy of "
                                 "the picture also works.")
    page.get_by_role("button", name="Read the puzzle").click()
    expect(page.get_by_label("Photo or screenshot of the puzzle")).to_be_focused()
    assert seen == []  # nothing was sent


def test_without_scripts_the_server_refuses_a_photo_over_the_limit_saying_it(browser: Browser, base_url: str) -> None:
    context = browser.new_context(base_url=base_url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/photo")
    seen = documents(page)
    page.get_by_label("Photo or screenshot of the puzzle").set_input_files(
        {"name": "huge.jpg", "mimeType": "image/jpeg", "buffer": b"\xff\xd8\xff" + b"\0" * (MAX_BYTES + 100_000)})
    page.get_by_role("button", name="Read the puzzle").click()
    expect(page.get_by_role("alert")).to_contain_text("This photo is too large: the photo reader takes files of up "
                                                      "to 25 MB.")
    assert seen[-1].status == 413
    context.close()


def test_axe_finds_nothing_on_the_result_page(screen: tuple[str, Page], browser: Browser, base_url: str) -> None:
    size, _page = screen
    context = browser.new_context(base_url=base_url, bypass_csp=True, **SIZES[size])
    page = context.new_page()
    page.goto("/photo")
    upload(page, str(SHEET_WITH_19))
    expect(page.get_by_role("heading", name="Your puzzle, read from a photo")).to_be_visible(
        timeout=READ_SECONDS * 1000)
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document, {runOnly: {type: 'tag', values: "
                          "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})).violations")
    assert not found, [(v["id"], [n["target"] for n in v["nodes"][:3]]) for v in found]
    context.close()
