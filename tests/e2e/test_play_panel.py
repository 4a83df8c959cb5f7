"""The play page's panel in Debian's Chromium, on a phone (390x844, touch) and a desktop
(1280x800): the clock ticks from the moment the page opens and pauses, hides and stops as
it should; a finished game shows its time, rating, Next puzzle and Share in view and takes
no edits; boards are centred; the numbers entered twice come and go with the entries."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from engine import Cell, generate_shape, puzzle_to_id

from puzzle_files import DATA, load

SMALL, SMALL_SOLUTION = load(DATA / "seed000-5x5.txt")
SMALL_CODE = puzzle_to_id(SMALL)
SMALL_OPEN = [c for c in SMALL.board.cells if c not in SMALL.givens]
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
EDITING = ["Notes", "Count down", "Undo", "Redo", "Check", "Hint", "Fill candidates", "Restart", "Reveal solution"]

# What the clock showed, frame by frame, while the game was not finished (an init script:
# Playwright's are not subject to the page's CSP).
SAMPLE_CLOCK = """
window.__shown = [];
setInterval(() => {
  const clock = document.querySelector('#timer .clock'), game = document.getElementById('game');
  if (!clock || !game || game.classList.contains('finished')) return;
  const text = clock.textContent;
  if (window.__shown[window.__shown.length - 1] !== text) window.__shown.push(text);
}, 50);
"""
SECONDS_JS = "t => t.trim().split(':').reduce((a, x) => a * 60 + Number(x), 0)"


@pytest.fixture(params=["phone", "desktop"])
def viewed(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[Page]:
    phone = request.param == "phone"
    context = browser.new_context(base_url=base_url, viewport=PHONE if phone else DESKTOP,
                                  is_mobile=phone, has_touch=phone)
    page = context.new_page()
    yield page
    context.close()


def box(page: Page, cell: Cell) -> Locator:
    return page.get_by_label(f"Row {cell[0] + 1}, column {cell[1] + 1}", exact=True)


def cell_div(page: Page, cell: Cell) -> Locator:
    return page.locator(f"#cell-{cell[0] + 1}-{cell[1] + 1}")


def enter(page: Page, cell: Cell, value: int | str) -> None:
    """Type a number into a cell and leave it (its entry is sent on change)."""
    box(page, cell).fill(str(value))
    box(page, cell).press("Tab")


def seconds(text: str | None) -> int:
    minutes, _, secs = (text or "").strip().rpartition(":")
    return int(minutes or 0) * 60 + int(secs)


def clock_passes(page: Page, shown: int) -> None:
    """Wait until the clock shows more than ``shown`` seconds."""
    page.wait_for_function(f"n => ({SECONDS_JS})(document.querySelector('#timer .clock').textContent) > n",
                           arg=shown, timeout=5000)


def set_hidden(page: Page, hidden: bool) -> None:
    """The tab hidden (another in front) or shown again, as the page's scripts see it."""
    page.evaluate("""hidden => {
        Object.defineProperty(document, 'visibilityState', {value: hidden ? 'hidden' : 'visible', configurable: true});
        Object.defineProperty(document, 'hidden', {value: hidden, configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }""", hidden)


def new_puzzle(page: Page, shape: str, size: str) -> str:
    """Ask for an easy Hidato with the home page's form (so it has a level and a rating)."""
    page.goto("/")
    page.get_by_label("Shape").select_option(shape)
    page.get_by_label("Size").fill(size)
    page.get_by_label("Difficulty").select_option(label="Easy")
    page.get_by_label("Variant").select_option(label="Hidato")
    page.get_by_role("button", name="New puzzle").click()
    expect(page).to_have_url(re.compile(r"/p/"))
    page.wait_for_load_state()
    return page.url.split("/p/")[1]


def stored(live_app: Flask, code: str):  # noqa: ANN201 - a StoredPuzzle
    found = live_app.extensions["hidato"].store.find_puzzle(code)
    assert found is not None
    return found


# --- the clock ---------------------------------------------------------------------------


def test_the_clock_ticks_from_the_start_pauses_hides_and_stops(viewed: Page, artifacts_dir: Path) -> None:
    page = viewed
    page.clock.install()  # time flows as usual; run_for() moves it on at once
    page.add_init_script(SAMPLE_CLOCK)
    page.goto(f"/p/{SMALL_CODE}")
    clock, timer = page.locator("#timer .clock"), page.locator("#timer")
    # Idle: nothing entered, nothing saved, and the clock runs.
    expect(clock).to_have_text(re.compile(r"^0:0[2-9]$"), timeout=5000)
    # An entry: the server takes the seconds shown, and the clock keeps running.
    first = SMALL_OPEN[0]
    enter(page, first, SMALL_SOLUTION[first])
    expect(cell_div(page, first)).to_have_class(re.compile(r"\bright\b"))
    clock_passes(page, seconds(clock.text_content()))
    kind = "phone" if page.viewport_size == PHONE else "desktop"
    page.screenshot(path=str(artifacts_dir / f"clock-mid-game-{kind}.png"))

    # A hidden tab does not count.
    set_hidden(page, True)
    held = clock.text_content()
    page.clock.run_for(5000)
    expect(clock).to_have_text(held or "")
    set_hidden(page, False)
    clock_passes(page, seconds(held))

    # A machine asleep (a laptop's lid closed for ten minutes) is not time on the puzzle.
    held = clock.text_content()
    page.clock.fast_forward("10:00")
    clock_passes(page, seconds(held))
    assert seconds(clock.text_content()) < seconds(held) + 30

    # Pause stops it; Resume goes on from there.
    page.get_by_role("button", name="Pause").click()
    expect(timer).to_have_attribute("data-running", "false")
    held = clock.text_content()
    page.clock.run_for(30_000)
    expect(clock).to_have_text(held or "")
    page.get_by_role("button", name="Resume").click()
    expect(timer).to_have_attribute("data-running", "true")
    # From where it stopped: the 30 paused seconds are not on it (a slow machine may
    # have let a few real seconds pass since the click).
    assert 0 <= seconds(clock.text_content()) - seconds(held) < 15
    clock_passes(page, seconds(held))

    # A reload and another tab show the same time (the reload never less than before).
    shown = seconds(clock.text_content())
    page.reload()
    page.wait_for_function(f"n => ({SECONDS_JS})(document.querySelector('#timer .clock').textContent) >= n",
                           arg=shown)
    other = page.context.new_page()
    other.goto(f"/p/{SMALL_CODE}")
    expect(other.locator("#timer")).to_have_attribute("data-running", "true")
    here, there = seconds(clock.text_content()), seconds(other.locator("#timer .clock").text_content())
    assert abs(here - there) <= 1, (here, there)
    other.close()

    # Solved: the clock stops at the time the panel shows.
    before = seconds(clock.text_content())
    for cell in SMALL_OPEN[1:]:
        enter(page, cell, SMALL_SOLUTION[cell])
    panel = page.get_by_role("region", name="Solved")
    expect(panel).to_contain_text("Solved in")
    expect(timer).to_have_attribute("data-running", "false")
    final = int(timer.get_attribute("data-seconds") or -1)
    assert final >= before
    expect(panel).to_contain_text(f"Solved in {final // 60}:{final % 60:02d}")
    page.clock.run_for(5000)
    expect(clock).to_have_text(f"{final // 60}:{final % 60:02d}")
    # Within one run of the game the clock never went back.
    shown_texts = page.evaluate("window.__shown")
    assert [seconds(t) for t in shown_texts] == sorted(seconds(t) for t in shown_texts), shown_texts


# --- the finished game ----------------------------------------------------------------------


def test_a_solved_game_shows_its_panel_in_view_and_takes_no_edits(viewed: Page, live_app: Flask,
                                                                  artifacts_dir: Path) -> None:
    page = viewed
    code = new_puzzle(page, "square", "5")
    puzzle = stored(live_app, code)
    cells = [c for c in puzzle.puzzle.board.cells if c not in puzzle.puzzle.givens]
    for cell in cells:
        enter(page, cell, puzzle.solution[cell])
    status = page.get_by_role("status")
    expect(status).to_contain_text("Solved!")
    panel = page.get_by_role("region", name="Solved")
    kind = "phone" if page.viewport_size == PHONE else "desktop"
    page.screenshot(path=str(artifacts_dir / f"solved-{kind}.png"))
    for _ in range(2):  # as solved, and again after a reload
        expect(panel.get_by_text(re.compile(r"Solved in \d+:\d\d"))).to_be_in_viewport()
        expect(panel.get_by_text(re.compile(r"Rating \d"))).to_be_in_viewport()
        expect(panel.get_by_role("button", name="Next puzzle")).to_be_in_viewport()
        expect(panel.get_by_role("button", name="Copy link")).to_be_in_viewport()
        expect(panel.get_by_role("button", name="Play again")).to_be_in_viewport()
        page.reload()
    # Nothing that edits: no pad, none of the game's buttons, read-only cells.
    expect(page.locator(".pad")).to_be_hidden()
    for name in EDITING:
        expect(page.get_by_role("button", name=name, exact=True)).to_have_count(0)
    expect(page.locator("#game .board input:not([readonly])")).to_have_count(0)
    # Typing, the notes key, Delete and the pad (pressed by a script: it is hidden) change nothing.
    counts = page.locator("#counts").text_content()
    target = box(page, cells[0])
    target.click()
    for key in ("5", "Backspace", "Delete", "n", "Enter", " "):
        page.keyboard.press(key)
    page.evaluate("document.querySelectorAll('.pad button').forEach(b => b.click())")
    expect(target).to_have_value(str(puzzle.solution[cells[0]]))
    expect(status).to_contain_text("Solved!")
    expect(page.locator("#counts")).to_have_text(counts or "")
    expect(page.locator("[data-notes]")).to_have_count(0)
    # Play again asks first, then gives an empty board and a clock from zero.
    panel.get_by_role("button", name="Play again").click()
    page.get_by_role("button", name="Yes, play again").click()
    expect(page.locator("#game.finished")).to_have_count(0)
    expect(box(page, cells[0])).to_have_value("")
    expect(page.locator("#timer .clock")).to_have_text(re.compile(r"^0:0\d$"))
    expect(page.get_by_role("button", name="Check")).to_be_visible()


def test_a_revealed_big_board_offers_the_next_puzzle_in_view(viewed: Page, artifacts_dir: Path) -> None:
    page = viewed
    big, _ = load(DATA / "large" / "rectangle20_s1.txt")
    page.goto(f"/p/{puzzle_to_id(big)}")
    page.get_by_role("button", name="Reveal solution").click()
    page.get_by_role("button", name="Yes, reveal the solution").click()
    panel = page.get_by_role("region", name="Solution revealed")
    expect(panel).to_contain_text("Solution revealed")
    expect(panel.get_by_role("link", name="Next puzzle")).to_be_in_viewport()  # a custom board: the form
    expect(panel.get_by_role("button", name="Play again")).to_be_in_viewport()
    expect(page.locator(".pad")).to_be_hidden()
    for name in EDITING:
        expect(page.get_by_role("button", name=name, exact=True)).to_have_count(0)
    kind = "phone" if page.viewport_size == PHONE else "desktop"
    page.screenshot(path=str(artifacts_dir / f"revealed-20x20-{kind}.png"))


# --- centred boards ------------------------------------------------------------------------


def _gaps(page: Page) -> tuple[float, float]:
    """The room left and right of the board's cells, inside the board's area."""
    return tuple(page.evaluate("""() => {
        const area = document.getElementById('board-wrap').getBoundingClientRect();
        const cells = [...document.querySelectorAll('#game .board .cell:not(.hole)')]
            .map(c => c.getBoundingClientRect());
        const left = Math.min(...cells.map(r => r.left)), right = Math.max(...cells.map(r => r.right));
        return [left - area.left, area.right - right];
    }"""))


@pytest.mark.parametrize(("shape", "size", "adjacency"), [("square", 5, "king"), ("hexagon", 4, "hex")])
def test_boards_narrower_than_their_area_are_centred(viewed: Page, artifacts_dir: Path,
                                                    shape: str, size: int, adjacency: str) -> None:
    page = viewed
    code = puzzle_to_id(generate_shape(shape, size, "easy", adjacency, seed=3).puzzle)  # type: ignore[arg-type]
    page.goto(f"/p/{code}")
    expect(page.locator("#game .board")).to_be_visible()
    kind = "phone" if page.viewport_size == PHONE else "desktop"
    if kind == "phone":
        left, right = _gaps(page)
        assert left > 8 and right > 8, (left, right)  # narrower than the area
        assert abs(left - right) <= 2, (left, right)
    else:  # the board beside its panel, the pair in the middle of the page
        left, right = page.evaluate("""() => {
            const area = document.querySelector('#game .play-area').getBoundingClientRect();
            const board = document.querySelector('#game .board-area').getBoundingClientRect();
            const side = document.querySelector('#game .side').getBoundingClientRect();
            return [board.left - area.left, area.right - side.right];
        }""")
        assert left > 8 and right > 8, (left, right)
        assert abs(left - right) <= 2, (left, right)
        board_gaps = _gaps(page)  # and the board fills its own area: no gap on one side only
        assert abs(board_gaps[0] - board_gaps[1]) <= 2, board_gaps
    page.screenshot(path=str(artifacts_dir / f"centred-{shape}-{kind}.png"))


# --- numbers entered twice -----------------------------------------------------------------


def test_the_numbers_entered_twice_come_and_go_with_the_entries(viewed: Page) -> None:
    page = viewed
    page.goto(f"/p/{SMALL_CODE}")
    twice = page.locator("#duplicates")
    a, b = SMALL_OPEN[0], SMALL_OPEN[1]
    number = SMALL_SOLUTION[a]
    enter(page, a, number)
    expect(cell_div(page, a)).to_have_class(re.compile(r"\bright\b"))
    expect(twice).to_be_hidden()
    enter(page, b, number)
    expect(twice).to_be_visible()
    listed = (f"{number} is in 2 cells: row {a[0] + 1}, column {a[1] + 1}; "
              f"row {b[0] + 1}, column {b[1] + 1}")
    expect(twice).to_contain_text(listed)
    # An entry that changes no copy: its answer leaves the list out, and the page keeps it.
    c = SMALL_OPEN[2]
    enter(page, c, SMALL_SOLUTION[c])
    expect(cell_div(page, c)).to_have_class(re.compile(r"\bright\b"))
    expect(page.locator("#counts")).to_contain_text("3 of")
    expect(twice).to_be_visible()
    expect(twice).to_contain_text(listed)
    enter(page, b, "")
    expect(twice).to_be_hidden()
    expect(twice).to_have_text("")
