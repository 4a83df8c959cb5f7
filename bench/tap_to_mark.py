"""Tap-to-mark on the play page: the time from the pad tap that completes a number to the
cell being marked right or wrong, in Chromium as a phone (390×844, touch).

On a 36-cell and a 400-cell board (squares, easy, seed 3), the player taps an empty
cell, then the digits of its number on the pad; the clock runs from the click of the last
digit to the moment the cell is redrawn marked (a MutationObserver in the page), and
includes whatever the page waits for another digit. Three samples of 20 numbers per
board, each by a new player: the first 20 empty cells in reading order; the 20 smallest
numbers (the single digits the issue timed); and, once all but 20 cells are filled, those
20 in reading order (late in a game, when most numbers are on the board). The page is
loaded again before a cell that touches the one before, so that no version of the page
takes the tap for a chain step. Printed: the median of the 20, and apart those marked at
once and those that waited for the pad's pause (another digit could have continued them).

Run by hand: ``.venv/bin/python bench/tap_to_mark.py`` for this checkout, or
``--tree DIR`` for another (``git archive 4ae8523 | tar -x -C /tmp/before``, then
``pybabel compile -d /tmp/before/webapp/translations``). It starts the site itself.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from play_site import PHONE, launch_args, served  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

from engine import Cell, Puzzle, generate_shape, puzzle_to_id  # noqa: E402

WATCH = """id => new Promise(done => {
    const start = window.__tapped;
    const marked = () => {
        const c = document.getElementById(id);
        return c && /\\b(right|wrong)\\b/.test(c.className);
    };
    if (marked()) { done(performance.now() - start); return; }
    const watch = new MutationObserver(() => {
        if (marked()) { watch.disconnect(); done(performance.now() - start); }
    });
    watch.observe(document.getElementById('game'), {subtree: true, childList: true, attributes: true});
})"""
LAST_TAP = """() => document.addEventListener('click', e => {
    if (e.target.closest('.pad [data-key]')) window.__tapped = performance.now();
}, true)"""


# A mark later than this came after a pause for another digit (0.6 s now, 0.9 s before).
PAUSED = 400.0


def median(times: list[float]) -> str:
    return f"{statistics.median(times):.0f}" if times else "–"


FILL = """async cells => {
    const token = JSON.parse(document.body.getAttribute('hx-headers'))['X-CSRF-Token'];
    for (const [row, col, value] of cells) {
        const body = new URLSearchParams({['c-' + row + '-' + col]: String(value), mode: 'number'});
        await fetch(location.pathname + '/cell/' + row + '/' + col,
                    {method: 'POST', body, headers: {'X-CSRF-Token': token, 'HX-Request': 'true'}});
    }
}"""


def samples(puzzle: Puzzle, solution: dict[Cell, int], taps: int) -> dict[str, tuple[list[Cell], list[Cell]]]:
    """Each sample's name: (the cells filled beforehand, the cells timed)."""
    empty = [c for c in puzzle.board.cells if c not in puzzle.givens]
    return {
        "first empty cells": ([], empty[:taps]),
        "smallest numbers": ([], sorted(empty, key=lambda c: solution[c])[:taps]),
        f"last {taps} cells": (empty[:-taps], empty[-taps:]),
    }


def load(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("() => document.querySelector('#game .board').style.getPropertyValue('--zoom') !== ''")
    page.evaluate(LAST_TAP)


def measure(page: Page, base: str, puzzle: Puzzle, solution: dict[Cell, int],
            filled: list[Cell], timed: list[Cell]) -> list[float]:
    url = f"{base}/p/{puzzle_to_id(puzzle)}"
    load(page, url)
    if filled:
        page.evaluate(FILL, [[c[0] + 1, c[1] + 1, solution[c]] for c in filled])
        load(page, url)
    times: list[float] = []
    before: Cell | None = None
    for cell in timed:
        if before is not None and puzzle.board.touches(before, cell):
            load(page, url)
        before = cell
        name = f"{cell[0] + 1}-{cell[1] + 1}"
        page.locator(f"#c-{name}").tap()
        for digit in str(solution[cell]):
            page.locator(f".pad [data-key='{digit}']").tap()
        times.append(float(page.evaluate(WATCH, f"cell-{name}")))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="the checkout whose site is measured (default: this one)")
    parser.add_argument("--taps", type=int, default=20, help="numbers entered per board (default 20)")
    args = parser.parse_args()
    boards = [generate_shape("square", n, "easy", "king", seed=3) for n in (6, 20)]
    print(f"tap-to-mark, {args.tree}, Chromium at 390×844 with touch, {args.taps} numbers per board\n")
    print("| board | sample | median ms | marked at once: n, median ms | waited: n, median ms |")
    print("|---|---|---:|---:|---:|")
    with served(args.tree) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(**launch_args())
        for made in boards:
            solution = dict(made.solution)
            for name, (filled, timed) in samples(made.puzzle, solution, args.taps).items():
                context = browser.new_context(**PHONE)
                times = measure(context.new_page(), base, made.puzzle, solution, filled, timed)
                context.close()
                waited = [t for t in times if t >= PAUSED]
                at_once = [t for t in times if t < PAUSED]
                print(f"| {made.puzzle.size} cells | {name} | {statistics.median(times):.0f} "
                      f"| {len(at_once)}, {median(at_once)} | {len(waited)}, {median(waited)} |", flush=True)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
