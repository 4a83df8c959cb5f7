"""In Chromium: the pages run under the Content-Security-Policy without a single violation,
htmx and the clock carry the CSRF token, an entry refused for its token says so in the
status line, and two tabs on one puzzle keep each other's entries."""

from __future__ import annotations

import re

from playwright.sync_api import ConsoleMessage, Page, expect

from engine import Cell, puzzle_to_id

from puzzle_files import DATA, load

PUZZLE, SOLUTION = load(DATA / "classic-8x8-40.txt")
CODE = puzzle_to_id(PUZZLE)
OPEN = [cell for cell in PUZZLE.board.cells if cell not in PUZZLE.givens]


def box(page: Page, cell: Cell):
    return page.get_by_label(f"Row {cell[0] + 1}, column {cell[1] + 1}", exact=True)


def test_no_content_security_policy_violations(page: Page) -> None:
    problems: list[str] = []

    def heard(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            problems.append(message.text)

    page.on("console", heard)
    page.on("pageerror", lambda error: problems.append(str(error)))
    for path in ("/", "/mine", "/booklet", "/solve", f"/p/{CODE}/print"):
        page.goto(path)
        expect(page.locator("html")).to_have_class(re.compile(r"\bjs\b"))  # our script ran
    page.goto(f"/p/{CODE}")
    cell = OPEN[0]
    box(page, cell).fill(str(SOLUTION[cell]))
    box(page, cell).press("Tab")
    expect(page.locator(f"#cell-{cell[0] + 1}-{cell[1] + 1}")).to_have_class(re.compile(r"\bright\b"))
    page.get_by_role("button", name="Hint").click()  # a whole-game swap
    expect(page.get_by_role("status")).to_contain_text("Hint:")
    # The clock's own requests (fetch and beacon) carry the token too.
    with page.expect_response(lambda r: r.url.endswith("/clock")) as answer:
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert answer.value.status == 204
    assert problems == []


def test_two_tabs_on_one_puzzle_keep_each_others_entries(page: Page) -> None:
    first = page
    second = page.context.new_page()
    first.goto(f"/p/{CODE}")
    second.goto(f"/p/{CODE}")
    a, b, c = OPEN[1], OPEN[2], OPEN[3]
    box(first, a).fill(str(SOLUTION[a]))
    box(first, a).press("Tab")
    expect(first.locator("#counts")).to_contain_text("1 of")
    box(second, b).fill(str(SOLUTION[b]))
    box(second, b).press("Tab")
    expect(second.locator("#counts")).to_contain_text("2 of")  # the server counted both
    # The second tab still shows a empty; its Check posts the whole board, and must not clear a.
    second.get_by_role("button", name="Check").click()
    expect(second.get_by_role("status")).to_contain_text("All 2 entries so far are right")
    expect(box(second, a)).to_have_value(str(SOLUTION[a]))
    box(first, c).fill(str(SOLUTION[c]))
    box(first, c).press("Tab")
    expect(first.locator("#counts")).to_contain_text("3 of")
    for tab in (first, second):
        tab.reload()
        for cell in (a, b, c):
            expect(box(tab, cell)).to_have_value(str(SOLUTION[cell]))


def test_an_entry_refused_for_its_token_says_not_saved(page: Page) -> None:
    # Every response re-sends the session cookie (the icon's too): wait for the last.
    page.goto(f"/p/{CODE}", wait_until="networkidle")
    cell = OPEN[4]
    # The cookie that holds the session's token goes (cleared, or signed with a key the
    # site no longer has): the page's token no longer matches any session.
    page.context.clear_cookies()
    with page.expect_response(lambda r: "/cell/" in r.url) as answer:
        box(page, cell).fill(str(SOLUTION[cell]))
        box(page, cell).press("Tab")
    assert answer.value.status == 403  # an error a load balancer counts...
    status = page.get_by_role("status")
    expect(status).to_contain_text("Not saved")  # ...that the player still reads
    expect(status).to_contain_text("Reload the page and try again")
    expect(status).not_to_contain_text("That didn't work")
    page.reload()
    expect(box(page, cell)).to_have_value("")
