"""How far the play page moves when a message appears, in Chromium at 390×844 (touch)
and 1280×800: the board's movement in pixels and the layout shift Chromium reports
(every layout-shift entry, those after input included).

On an 8×8 board, once the page has settled: a message from the page's script (as a
refused digit gives), then one from the server (Check on an empty board, clicked by
script so that no shift is excused as following input).

Run by hand: ``.venv/bin/python bench/message_shift.py`` for this checkout, or
``--tree DIR`` for another (see bench/tap_to_mark.py). It starts the site itself.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from play_site import DESKTOP, PHONE, launch_args, served  # noqa: E402
from playwright.sync_api import Page, sync_playwright  # noqa: E402

from engine import generate_shape, puzzle_to_id  # noqa: E402

SHIFTS = """
window.__shifts = [];
new PerformanceObserver(list => { for (const e of list.getEntries()) window.__shifts.push(e.value); })
  .observe({type: 'layout-shift', buffered: true});
"""
FRAMES = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
BOARD_TOP = "document.querySelector('#game .board').getBoundingClientRect().top"


def measure(page: Page, base: str, code: str) -> tuple[float, float]:
    """The board's movement (px) and the layout shift, when two messages appear."""
    page.add_init_script(SHIFTS)
    page.goto(f"{base}/p/{code}")
    page.wait_for_function("() => document.querySelector('#game .board').style.getPropertyValue('--zoom') !== ''")
    page.wait_for_timeout(1000)
    page.evaluate(FRAMES)
    page.evaluate("window.__shifts = []")
    top = float(page.evaluate(BOARD_TOP))
    page.evaluate("window.Hidato.say('Row 4, column 2: 9 is also at row 1, column 1.', 'problem')")
    page.evaluate(FRAMES)
    page.evaluate("document.getElementById('tool-check').click()")
    page.wait_for_function("() => /Nothing to check/.test(document.getElementById('status').textContent)")
    page.evaluate(FRAMES)
    moved = float(page.evaluate(BOARD_TOP)) - top
    return moved, float(sum(page.evaluate("window.__shifts")))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT,
                        help="the checkout whose site is measured (default: this one)")
    args = parser.parse_args()
    code = puzzle_to_id(generate_shape("square", 8, "easy", "king", seed=3).puzzle)
    print(f"a message appears, {args.tree}, 8×8 board\n")
    print("| screen | board moved px | layout shift |")
    print("|---|---:|---:|")
    with served(args.tree) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(**launch_args())
        for name, screen in (("phone 390×844", PHONE), ("desktop 1280×800", DESKTOP)):
            context = browser.new_context(**screen)
            moved, shift = measure(context.new_page(), base, code)
            context.close()
            print(f"| {name} | {moved:.0f} | {shift:.3f} |")
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
