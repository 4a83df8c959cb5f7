"""The input model in Debian's Chromium, at a phone with touch (390×844) and a desktop
(1280×800) size: each sequence of issue 25 replayed as a player would, and the outcome
asserted. A tap, click or focus only selects; digits replace what a cell holds and count
only once committed; a swipe pans and never writes; chain entry is a deliberate gesture
(Chain mode on touch, a mouse drag, Space/Enter); the pad is docked with the selected cell
in view above it; a message moves nothing; nothing refused stays in a cell."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, ViewportSize, expect

from engine import Cell, Grid, Puzzle, generate_shape, parse_puzzle, puzzle_to_id

from puzzle_files import DATA, load

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
SMALL, SMALL_SOLUTION = load(DATA / "seed000-5x5.txt")  # 18 numbers
EIGHT_MADE = generate_shape("square", 8, "easy", "king", seed=3)  # 64 numbers
EIGHT, EIGHT_SOLUTION = EIGHT_MADE.puzzle, EIGHT_MADE.solution
# 16 numbers, 10 to 16 given: a 1 typed in the corner can only be 1 (no 10-16 is missing).
SNAKE = parse_puzzle(". . 3 4\n8 7 6 5\n9 10 11 12\n16 15 14 13\n")
SNAKE_SOLUTION: Grid = {**SNAKE.givens, (0, 0): 1, (0, 1): 2}
# Watches the page's layout shifts, with or without recent input (added before its scripts).
SHIFTS = """
window.__shifts = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries()) window.__shifts.push({value: e.value, input: e.hadRecentInput,
    sources: e.sources.map(s => (s.node ? s.node.nodeName + '.' + s.node.className : '?'))});
}).observe({type: 'layout-shift', buffered: true});
"""


@pytest.fixture(scope="module")
def twenty() -> tuple[Puzzle, Grid]:
    made = generate_shape("square", 20, "easy", "king", seed=3)
    return made.puzzle, made.solution


def _watched(browser: Browser, base_url: str, **screen: Any) -> Iterator[Page]:
    """A page that records layout shifts, and fails the test on any console error or
    uncaught exception (a refused inline style under the CSP included)."""
    context = browser.new_context(base_url=base_url, **screen)
    page = context.new_page()
    page.add_init_script(SHIFTS)
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], errors


@pytest.fixture
def phone(browser: Browser, base_url: str) -> Iterator[Page]:
    yield from _watched(browser, base_url, viewport=PHONE, is_mobile=True, has_touch=True)


@pytest.fixture
def desktop(browser: Browser, base_url: str) -> Iterator[Page]:
    yield from _watched(browser, base_url, viewport=DESKTOP)


def cell_div(page: Page, cell: Cell) -> Locator:
    return page.locator(f"#cell-{cell[0] + 1}-{cell[1] + 1}")


def box(page: Page, cell: Cell) -> Locator:
    return page.locator(f"#c-{cell[0] + 1}-{cell[1] + 1}")


def pad(page: Page, key: str) -> Locator:
    return page.get_by_role("group", name="Number pad").locator(f"[data-key='{key}']")


def play(page: Page, puzzle: Puzzle) -> None:
    page.goto(f"/p/{puzzle_to_id(puzzle)}")
    expect(page.locator("#game .board")).to_have_attribute("style", re.compile("--zoom"))  # play.js has run


def mistakes(page: Page) -> Locator:
    return page.locator("#counts .mistakes")


def open_cells(puzzle: Puzzle) -> list[Cell]:
    return [c for c in puzzle.board.cells if c not in puzzle.givens]


def run_from_given(puzzle: Puzzle, solution: Mapping[Cell, int], steps: int) -> tuple[Cell, list[Cell]]:
    """A given k whose k+1 .. k+steps are all in open cells: its cell and theirs."""
    where = {v: c for c, v in solution.items()}
    for cell, k in sorted(puzzle.givens.items(), key=lambda item: item[1]):
        run = [where.get(k + i) for i in range(1, steps + 1)]
        if all(c is not None and c not in puzzle.givens for c in run):
            return cell, [c for c in run if c is not None]
    raise AssertionError(f"no run of {steps} open cells after a given")


def board_values(page: Page) -> list[str]:
    return page.eval_on_selector_all("#game .board .cell input", "inputs => inputs.map(i => i.value)")


def rect(page: Page, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.eval_on_selector(selector, """e => { const r = e.getBoundingClientRect();
        return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }""")
    return found


def centre(page: Page, cell: Cell) -> tuple[float, float]:
    r = rect(page, f"#cell-{cell[0] + 1}-{cell[1] + 1}")
    return (r["left"] + r["right"]) / 2, (r["top"] + r["bottom"]) / 2


def swipe(page: Page, points: list[tuple[float, float]], steps: int = 5) -> None:
    """One finger down on the first point, through the others, and up: real touch events,
    which Chromium turns into scrolling as a phone does."""
    cdp = page.context.new_cdp_session(page)
    first = {"x": points[0][0], "y": points[0][1]}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [first]})
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        for i in range(1, steps + 1):
            point = {"x": x0 + (x1 - x0) * i / steps, "y": y0 + (y1 - y0) * i / steps}
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def cell_posts(page: Page) -> list[str]:
    """Every entry the page posts from now on (URLs of /cell/ requests)."""
    posted: list[str] = []
    page.on("request", lambda request: posted.append(request.url)
            if request.method == "POST" and "/cell/" in request.url else None)
    return posted


# --- 1. the first digit replaces ----------------------------------------------------


def test_a_pad_digit_replaces_what_the_cell_holds(phone: Page) -> None:
    play(phone, SMALL)
    cell = open_cells(SMALL)[0]
    box(phone, cell).tap()
    pad(phone, "8").tap()  # 80 > 18: goes at once
    expect(box(phone, cell)).to_have_value("8")
    expect(phone.locator("#counts")).to_contain_text("1 of")
    box(phone, cell).tap()  # the cell holding 8, selected again
    pad(phone, "5").tap()
    expect(box(phone, cell)).to_have_value("5")  # replaced: not 85
    expect(phone.get_by_role("status")).not_to_contain_text("out of range")
    expect(cell_div(phone, cell)).not_to_have_class(re.compile(r"\btyping\b"))


def test_typing_into_a_filled_cell_replaces_it(desktop: Page) -> None:
    play(desktop, SMALL)
    cell = open_cells(SMALL)[0]
    box(desktop, cell).click()
    desktop.keyboard.type("8")
    expect(box(desktop, cell)).to_have_value("8")
    desktop.keyboard.press("Tab")
    box(desktop, cell).click()
    desktop.keyboard.type("5")
    expect(box(desktop, cell)).to_have_value("5")
    box(desktop, open_cells(SMALL)[1]).focus()  # and focused by the keyboard, not clicked
    desktop.keyboard.press("Shift+Tab")
    box(desktop, cell).focus()
    desktop.keyboard.type("7")
    expect(box(desktop, cell)).to_have_value("7")


# --- 2. a tap on a neighbour only selects -------------------------------------------------


def _given_and_other_neighbour(puzzle: Puzzle, solution: Mapping[Cell, int]) -> tuple[Cell, Cell]:
    """A given k and an empty neighbour that does not hold k+1 (the player means another number)."""
    for cell, k in sorted(puzzle.givens.items()):
        for other in open_cells(puzzle):
            if puzzle.board.touches(cell, other) and solution[other] != k + 1 and solution[other] >= 10:
                return cell, other
    raise AssertionError("no such given")


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_a_tap_on_a_neighbour_writes_nothing_and_the_right_number_counts_no_mistake(
        screen: str, request: pytest.FixtureRequest) -> None:
    page: Page = request.getfixturevalue(screen)
    play(page, EIGHT)
    given, other = _given_and_other_neighbour(EIGHT, EIGHT_SOLUTION)
    posts = cell_posts(page)
    if screen == "phone":
        cell_div(page, given).tap()
        box(page, other).tap()
    else:
        cell_div(page, given).click()
        box(page, other).click()
    expect(cell_div(page, other)).to_have_class(re.compile(r"\bselected\b"))
    expect(box(page, other)).to_have_value("")
    expect(mistakes(page)).to_contain_text("Mistakes: 0")
    number = str(EIGHT_SOLUTION[other])
    if screen == "phone":
        for digit in number:
            pad(page, digit).tap()
    else:
        page.keyboard.type(number)
        page.keyboard.press("Enter")
    expect(box(page, other)).to_have_value(number)
    expect(cell_div(page, other)).to_have_class(re.compile(r"\bright\b"))
    expect(page.locator("#counts")).to_contain_text("1 of")
    expect(mistakes(page)).to_contain_text("Mistakes: 0")
    assert len(posts) == 1  # one entry, the number meant


# --- 3. a swipe pans and writes nothing -----------------------------------------------------


def test_a_swipe_on_a_big_board_pans_and_writes_nothing(phone: Page, twenty: tuple[Puzzle, Grid]) -> None:
    puzzle, _ = twenty
    play(phone, puzzle)
    wrap = rect(phone, "#board-wrap")
    # A given in the board's visible area, away from its edges: the finger starts on it.
    start = next(c for c in sorted(puzzle.givens)
                 if wrap["top"] + 40 < centre(phone, c)[1] < wrap["bottom"] - 120
                 and wrap["left"] + 40 < centre(phone, c)[0] < wrap["right"] - 120)
    cell_div(phone, start).tap()  # a number selected first, as when drawing a chain
    before = board_values(phone)
    counts = phone.locator("#counts").inner_text()
    posts = cell_posts(phone)
    x, y = centre(phone, start)
    swipe(phone, [(x, y), (x - 30, y - 100), (x - 60, y - 200)])  # over its neighbours, upwards
    scrolled = phone.evaluate("document.getElementById('board-wrap').scrollTop")
    assert scrolled > 40, scrolled  # the board moved under the finger
    phone.evaluate("new Promise(done => setTimeout(done, 800))")  # past the pad's pause, had anything been typed
    assert board_values(phone) == before
    assert phone.locator("#counts").inner_text() == counts
    assert posts == []


# --- chain entry: a deliberate gesture -------------------------------------------------------


def test_chain_mode_on_a_phone_taps_and_one_finger_draws(phone: Page) -> None:
    play(phone, EIGHT)
    given, run = run_from_given(EIGHT, EIGHT_SOLUTION, 3)
    k = EIGHT.givens[given]
    chain = phone.get_by_role("button", name="Chain", exact=True)
    expect(chain).to_have_attribute("aria-pressed", "false")
    chain.tap()
    expect(chain).to_have_attribute("aria-pressed", "true")
    assert phone.evaluate("getComputedStyle(document.getElementById('board-wrap')).touchAction") == "none"
    cell_div(phone, given).tap()
    for step, cell in enumerate(run, start=1):
        box(phone, cell).tap()
        expect(box(phone, cell)).to_have_value(str(k + step))
        expect(cell_div(phone, cell)).to_have_class(re.compile(r"\bselected\b"))
    for cell in run:
        expect(cell_div(phone, cell)).to_have_class(re.compile(r"\bright\b"))
    expect(mistakes(phone)).to_contain_text("Mistakes: 0")
    # Undo the three (one at a time: each answer redraws the buttons), then draw them
    # with one finger from k.
    for cell in reversed(run):
        phone.get_by_role("button", name="Undo").tap()
        expect(box(phone, cell)).to_have_value("")
    swipe(phone, [centre(phone, c) for c in [given, *run]])
    for step, cell in enumerate(run, start=1):
        expect(box(phone, cell)).to_have_value(str(k + step))
        expect(cell_div(phone, cell)).to_have_class(re.compile(r"\bright\b"))
    expect(mistakes(phone)).to_contain_text("Mistakes: 0")
    # Off again: a tap on an empty neighbour only selects.
    chain.tap()
    expect(chain).to_have_attribute("aria-pressed", "false")


def test_in_chain_mode_one_finger_does_not_pan_and_two_fingers_do(phone: Page, twenty: tuple[Puzzle, Grid]) -> None:
    puzzle, _ = twenty
    play(phone, puzzle)
    phone.get_by_role("button", name="Chain", exact=True).tap()
    wrap = rect(phone, "#board-wrap")
    x, y = (wrap["left"] + wrap["right"]) / 2, (wrap["top"] + wrap["bottom"]) / 2
    scroll = "[document.getElementById('board-wrap').scrollLeft, document.getElementById('board-wrap').scrollTop]"
    before = board_values(phone)
    swipe(phone, [(x, y), (x - 60, y - 120)])
    assert phone.evaluate(scroll) == [0, 0]
    cdp = phone.context.new_cdp_session(phone)

    def fingers(moved: float) -> list[dict[str, float]]:
        return [{"x": x - 50 - moved, "y": y - moved, "id": 0}, {"x": x + 50 - moved, "y": y - moved, "id": 1}]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": fingers(0)})
    for i in range(1, 11):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": fingers(10 * i)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    moved = phone.evaluate(scroll)
    assert moved[0] > 40 and moved[1] > 40, moved
    assert board_values(phone) == before


def test_a_chain_step_does_not_write_a_number_already_on_the_board(phone: Page) -> None:
    play(phone, EIGHT)
    given, run = run_from_given(EIGHT, EIGHT_SOLUTION, 1)
    k = EIGHT.givens[given]
    elsewhere = next(c for c in open_cells(EIGHT) if c != run[0])
    box(phone, elsewhere).tap()
    for digit in str(k + 1):
        pad(phone, digit).tap()
    pad(phone, "Enter").tap()
    expect(box(phone, elsewhere)).to_have_value(str(k + 1))
    phone.get_by_role("button", name="Chain", exact=True).tap()
    cell_div(phone, given).tap()
    box(phone, run[0]).tap()
    expect(phone.get_by_role("status")).to_contain_text(
        f"{k + 1} is already at row {elsewhere[0] + 1}, column {elsewhere[1] + 1}")
    expect(box(phone, run[0])).to_have_value("")
    expect(cell_div(phone, run[0])).to_have_class(re.compile(r"\bselected\b"))


def test_a_mouse_drag_from_a_number_draws_the_chain(desktop: Page) -> None:
    play(desktop, EIGHT)
    given, run = run_from_given(EIGHT, EIGHT_SOLUTION, 3)
    k = EIGHT.givens[given]
    points = [centre(desktop, c) for c in [given, *run]]
    desktop.mouse.move(*points[0])
    desktop.mouse.down()
    for x, y in points[1:]:
        desktop.mouse.move(x, y, steps=4)
    desktop.mouse.up()
    for step, cell in enumerate(run, start=1):
        expect(box(desktop, cell)).to_have_value(str(k + step))
        expect(cell_div(desktop, cell)).to_have_class(re.compile(r"\bright\b"))
    expect(mistakes(desktop)).to_contain_text("Mistakes: 0")
    # A click (no drag) on the next empty neighbour only selects it.
    where = {v: c for c, v in EIGHT_SOLUTION.items()}
    following = where.get(k + 4)
    if following is not None and following not in EIGHT.givens:
        box(desktop, following).click()
        expect(box(desktop, following)).to_have_value("")


# --- 5. the dock and the selected cell ------------------------------------------------------


def _assert_cell_above_the_pad(page: Page, cell: Cell) -> None:
    seen = rect(page, f"#cell-{cell[0] + 1}-{cell[1] + 1}")
    keys = rect(page, ".pad")
    dock = rect(page, "#dock")
    assert seen["top"] >= 0 and seen["bottom"] <= dock["top"], (seen, dock)  # in view, not under the dock
    assert keys["top"] >= 0 and keys["bottom"] <= PHONE["height"], keys  # the pad on the screen
    assert seen["bottom"] <= keys["top"]  # no overlap


def test_on_a_big_board_the_selected_cell_stays_in_view_above_the_pad(phone: Page, twenty: tuple[Puzzle, Grid]) -> None:
    puzzle, solution = twenty
    play(phone, puzzle)
    assert phone.evaluate("getComputedStyle(document.getElementById('dock')).position") == "fixed"
    last_row = max(r for r, _ in puzzle.board.cells)
    cell = next(c for c in open_cells(puzzle) if c[0] == last_row and c[1] > 12)
    box(phone, cell).tap()
    _assert_cell_above_the_pad(phone, cell)
    # The page scrolled back to its top (the cell now far under the dock): the first digit
    # brings it back into view, above the pad.
    phone.evaluate("window.scrollTo(0, 0)")
    assert rect(phone, f"#cell-{cell[0] + 1}-{cell[1] + 1}")["top"] > rect(phone, "#dock")["top"] - 10
    number = str(solution[cell])
    for digit in number:
        pad(phone, digit).tap()
        _assert_cell_above_the_pad(phone, cell)
    expect(cell_div(phone, cell)).to_have_class(re.compile(r"\bright\b"))
    _assert_cell_above_the_pad(phone, cell)


# --- 7. a message moves nothing -------------------------------------------------------------


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_board_does_not_move_when_a_message_appears(screen: str, request: pytest.FixtureRequest) -> None:
    page: Page = request.getfixturevalue(screen)
    play(page, EIGHT)
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    page.evaluate("window.__shifts = []")
    before = rect(page, "#game .board")
    # No input: a message from the page's script, then one from the server (a click made
    # by script is not recent input, so any shift it caused would count).
    page.evaluate("window.Hidato.say('Row 4, column 2: 9 is also at row 1, column 1.', 'problem')")
    expect(page.get_by_role("status")).to_contain_text("9 is also at")
    page.evaluate("document.getElementById('tool-check').click()")
    expect(page.get_by_role("status")).to_contain_text("Nothing to check yet")
    page.evaluate("new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert rect(page, "#game .board") == before
    shifts: list[dict[str, Any]] = page.evaluate("window.__shifts")
    assert shifts == [], shifts


# --- 13. nothing refused stays; a completing digit goes at once; a clean solved board ----------


def test_letters_and_numbers_past_n_never_stay_in_a_cell(desktop: Page) -> None:
    play(desktop, EIGHT)
    cell, other = open_cells(EIGHT)[:2]
    box(desktop, cell).click()
    desktop.keyboard.type("abc")
    expect(box(desktop, cell)).to_have_value("")
    expect(desktop.get_by_role("status")).to_contain_text("Only numbers go in the cells: type a number from 1 to 64")
    box(desktop, cell).fill("4x")  # a paste or a phone's keyboard: the same rules
    expect(box(desktop, cell)).to_have_value("")
    desktop.keyboard.type("9999")  # 9 is a whole number here (90 > 64): each 9 goes at once
    desktop.keyboard.press("Tab")
    expect(box(desktop, cell)).to_have_value("9")
    box(desktop, other).click()
    desktop.keyboard.type("65")  # 6, then 65 > 64: refused, and said
    expect(desktop.get_by_role("status")).to_contain_text("65 is more than 64")
    expect(box(desktop, other)).to_have_value("6")
    expect(box(desktop, other)).to_have_attribute("maxlength", "2")
    desktop.keyboard.press("Escape")  # typing dropped: the cell holds what it held
    expect(box(desktop, other)).to_have_value("")
    # An entry the server refuses (sent around the page's rules) does not stay either.
    desktop.evaluate("""name => { const input = document.getElementById(name);
        input.value = '9999'; input.dispatchEvent(new Event('change', {bubbles: true})); }""",
                     f"c-{other[0] + 1}-{other[1] + 1}")
    status = desktop.get_by_role("status")
    expect(status).to_contain_text(f"Not taken: Row {other[0] + 1}, column {other[1] + 1}: 9999 is out of range")
    expect(box(desktop, other)).to_have_value("")
    expect(box(desktop, other)).not_to_have_attribute("aria-invalid", "true")


def _completing_tap_goes_at_once(page: Page, puzzle: Puzzle, cell: Cell, digits: str) -> None:
    play(page, puzzle)
    box(page, cell).tap()
    for digit in digits[:-1]:
        pad(page, digit).tap()
    page.evaluate("""() => {
        window.__tap = null; window.__sent = null;
        document.addEventListener('click', e => {
            if (e.target.closest('.pad')) window.__tap = performance.now();
        }, true);
        document.addEventListener('htmx:beforeRequest', () => { window.__sent = performance.now(); });
    }""")
    pad(page, digits[-1]).tap()
    expect(cell_div(page, cell)).to_have_class(re.compile(r"\bright\b"))
    waited = page.evaluate("window.__sent - window.__tap")
    assert 0 <= waited < 100, waited  # sent from the tap itself, not after the pad's pause


def test_a_pad_digit_that_completes_a_number_is_marked_without_waiting(phone: Page) -> None:
    cell = next(c for c in open_cells(EIGHT) if EIGHT_SOLUTION[c] * 10 > EIGHT.size)  # 7, 9 or 2 digits
    _completing_tap_goes_at_once(phone, EIGHT, cell, str(EIGHT_SOLUTION[cell]))


def test_a_digit_is_a_whole_number_when_no_missing_number_starts_with_it(phone: Page) -> None:
    # 1 on a board of 16 could begin 10 to 16, but they are all on the board.
    _completing_tap_goes_at_once(phone, SNAKE, (0, 0), "1")


def test_a_pasted_number_arrives_whole_even_where_its_first_digit_alone_would_go(desktop: Page) -> None:
    # On SNAKE a typed 1 goes at once (10 to 16 are all on the board), but a paste, an input
    # method or a phone's keyboard that delivers "12" in one go means 12: a duplicate the
    # player chose, sent as one entry, never a 1 and then "No number starts with 0"-like noise.
    play(desktop, SNAKE)
    posted = cell_posts(desktop)
    box(desktop, (0, 0)).fill("12")
    box(desktop, (0, 0)).press("Tab")
    expect(box(desktop, (0, 0))).to_have_value("12")
    expect(cell_div(desktop, (0, 0))).to_have_class(re.compile(r"\bwrong\b"))
    box(desktop, (0, 1)).fill("10")
    desktop.keyboard.press("Enter")
    expect(box(desktop, (0, 1))).to_have_value("10")
    expect(desktop.get_by_role("status")).not_to_contain_text("No number starts with 0")
    expect(mistakes(desktop)).to_contain_text("Mistakes: 2")
    assert len(posted) == 2, posted
    desktop.reload()
    expect(box(desktop, (0, 0))).to_have_value("12")
    expect(box(desktop, (0, 1))).to_have_value("10")


def test_a_digit_that_could_go_on_waits_for_the_next(phone: Page) -> None:
    play(phone, SNAKE)
    box(phone, (0, 1)).tap()
    pad(phone, "2").tap()  # 20 > 16: goes at once
    expect(cell_div(phone, (0, 1))).to_have_class(re.compile(r"\bright\b"))
    play(phone, EIGHT)
    cell = next(c for c in open_cells(EIGHT) if EIGHT_SOLUTION[c] in range(10, 20))
    box(phone, cell).tap()
    pad(phone, "1").tap()  # 10 to 19 are still missing: the 1 is being typed
    expect(cell_div(phone, cell)).to_have_class(re.compile(r"\btyping\b"))
    expect(mistakes(phone)).to_contain_text("Mistakes: 0")
    pad(phone, str(EIGHT_SOLUTION[cell])[-1]).tap()
    expect(box(phone, cell)).to_have_value(str(EIGHT_SOLUTION[cell]))
    expect(cell_div(phone, cell)).to_have_class(re.compile(r"\bright\b"))
    expect(mistakes(phone)).to_contain_text("Mistakes: 0")


def test_the_solved_board_has_no_text_selection_and_its_path_runs_under_the_digits(desktop: Page) -> None:
    play(desktop, SMALL)
    cells = open_cells(SMALL)
    box(desktop, cells[0]).click()
    for cell in cells:
        expect(box(desktop, cell)).to_be_focused()
        desktop.keyboard.type(str(SMALL_SOLUTION[cell]))
        desktop.keyboard.press("Enter")
    expect(desktop.get_by_role("status")).to_contain_text("Solved!")
    line = desktop.locator("#game .board .path-line")
    expect(line).to_have_count(1)
    assert desktop.evaluate("window.getSelection().toString()") == ""
    assert desktop.evaluate("""() => { const a = document.activeElement;
        return !a || a.selectionStart === undefined || a.selectionStart === a.selectionEnd; }""")
    assert line.evaluate("e => getComputedStyle(e).zIndex") == "-1"
    assert desktop.evaluate("getComputedStyle(document.querySelector('#game .board')).isolation") == "isolate"
    # Every cell's background lets the line show through (a veil, not opaque).
    assert desktop.evaluate(r"""() => [...document.querySelectorAll('#game .board .cell:not(.hole)')]
        .every(c => { const m = getComputedStyle(c).backgroundColor.match(/[\d.]+/g);
                      return m.length === 4 && +m[3] < 1 || m.length === 5 && +m[4] < 1; })""")


def test_mistakes_count_only_committed_numbers(phone: Page) -> None:
    play(phone, EIGHT)
    cell = next(c for c in open_cells(EIGHT) if EIGHT_SOLUTION[c] in range(10, 20))
    box(phone, cell).tap()
    pad(phone, "1").tap()
    other = next(c for c in open_cells(EIGHT) if c != cell)
    box(phone, other).tap()  # leaving the cell commits the 1, which is wrong: one mistake
    expect(mistakes(phone)).to_contain_text("Mistakes: 1")
    expect(box(phone, cell)).to_have_value("1")
    box(phone, cell).tap()
    pad(phone, "Delete").tap()  # cleared at once
    expect(box(phone, cell)).to_have_value("")
    pad(phone, "1").tap()
    pad(phone, str(EIGHT_SOLUTION[cell])[-1]).tap()
    expect(cell_div(phone, cell)).to_have_class(re.compile(r"\bright\b"))
    expect(mistakes(phone)).to_contain_text("Mistakes: 1")


def test_numbers_committed_while_an_answer_is_awaited_all_arrive(phone: Page) -> None:
    """A slow network: the answer to clearing a cell is held back while the player types
    the right number there and another elsewhere. When it comes, it redraws the cell;
    both numbers still go, in order, and are marked right (CI once lost the first)."""
    play(phone, EIGHT)
    cell, later = [c for c in open_cells(EIGHT) if EIGHT_SOLUTION[c] >= 10][:2]
    box(phone, cell).tap()
    pad(phone, "1").tap()
    box(phone, later).tap()  # the 1 goes, and is wrong
    expect(mistakes(phone)).to_contain_text("Mistakes: 1")
    held: list[Any] = []
    phone.route("**/cell/**", lambda route: route.continue_() if held else held.append(route))
    box(phone, cell).tap()
    pad(phone, "Delete").tap()
    for _ in range(200):  # the route's handler runs while Playwright waits
        if held:
            break
        phone.wait_for_timeout(25)
    assert len(held) == 1
    for digit in str(EIGHT_SOLUTION[cell]):
        pad(phone, digit).tap()
    box(phone, later).tap()
    for digit in str(EIGHT_SOLUTION[later]):
        pad(phone, digit).tap()
    box(phone, cell).tap()  # leaving ``later`` commits it
    expect(box(phone, cell)).to_have_value(str(EIGHT_SOLUTION[cell]))
    posts = cell_posts(phone)
    for route in held:
        route.continue_()
    for c in (cell, later):
        expect(cell_div(phone, c)).to_have_class(re.compile(r"\bright\b"))
        expect(box(phone, c)).to_have_value(str(EIGHT_SOLUTION[c]))
    expect(mistakes(phone)).to_contain_text("Mistakes: 1")
    assert [url.rsplit("/cell/", 1)[1] for url in posts] == [
        f"{c[0] + 1}/{c[1] + 1}" for c in (cell, later)
    ]


def test_a_button_pressed_while_numbers_wait_goes_after_them(desktop: Page) -> None:
    """Undo pressed while a number waits behind an answer still on its way undoes that
    number, not the one before: the game's requests go in the order the player acted."""
    play(desktop, EIGHT)
    earlier, first, second = [c for c in open_cells(EIGHT) if EIGHT_SOLUTION[c] >= 10][:3]
    box(desktop, earlier).click()
    desktop.keyboard.type(f"{EIGHT_SOLUTION[earlier]}")
    expect(cell_div(desktop, earlier)).to_have_class(re.compile(r"\bright\b"))  # Undo can undo it
    held: list[Any] = []
    desktop.route("**/cell/**", lambda route: route.continue_() if held else held.append(route))
    box(desktop, first).click()
    desktop.keyboard.type(f"{EIGHT_SOLUTION[first]}")
    for _ in range(200):  # the route's handler runs while Playwright waits
        if held:
            break
        desktop.wait_for_timeout(25)
    assert len(held) == 1
    box(desktop, second).click()
    desktop.keyboard.type(f"{EIGHT_SOLUTION[second]}")
    desktop.get_by_role("button", name="Undo").click()
    held[0].continue_()
    expect(box(desktop, second)).to_have_value("")
    expect(cell_div(desktop, first)).to_have_class(re.compile(r"\bright\b"))
    expect(box(desktop, first)).to_have_value(str(EIGHT_SOLUTION[first]))
    expect(box(desktop, earlier)).to_have_value(str(EIGHT_SOLUTION[earlier]))
    expect(desktop.get_by_role("button", name="Redo")).to_be_enabled()
