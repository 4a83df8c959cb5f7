"""Screenshots of our own pages, as a player takes them: the play page at phone size (the
givens, and numbers the player typed in with the pad), at a desk's size, the solver page
with the puzzle pasted in, and the print sheet ``/p/<id>/print`` as Chromium prints it.

The site runs in this process on a temporary SQLite database (Werkzeug in a thread, as
the browser tests' live server); the browser is Debian's Chromium driven by Playwright
(it cannot download its own).  Date.now is fixed, so the page's clock does not move; after
a player's entries (timed by the server) its text is set to a time of our own, so every
run makes the same screenshot.
"""

from __future__ import annotations

import io
import logging
import re
import tempfile
import threading
from pathlib import Path
from typing import Any

from PIL import Image

from engine import Cell, Generated, format_puzzle, puzzle_to_id

from .our_style import rasterise
from .plan import Spec

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--font-render-hinting=none"]
FIXED_TIME = 1_773_480_000_000  # 14 March 2026, in ms: what Date.now says on every page
Box = tuple[float, float, float, float]


class Site:
    """Our site on a free port and a Chromium to look at it, for one run of the generator."""

    def __init__(self, seed: int):
        from playwright.sync_api import sync_playwright
        from werkzeug.serving import make_server

        from webapp.web.app import create_app

        self.seed = seed
        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request on the terminal
        self._folder = tempfile.TemporaryDirectory()
        self.app = create_app({"INSTANCE_PATH": str(Path(self._folder.name) / "instance"), "SECRET_KEY": "scan-set",
                               "POOL_FILL": False, "DATABASE_URL": None, "GENERATE_WAIT_SECONDS": 60,
                               "RATE_LIMITS": {"generate": (1000, 60), "solve": (1000, 60), "booklet": (1000, 60)}})
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, name="scan-set-site", daemon=True)
        self.thread.start()
        self.base_url = f"http://127.0.0.1:{self.server.server_port}"
        self._playwright = sync_playwright().start()
        self.browser = self._playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)

    def close(self) -> None:
        self.browser.close()
        self._playwright.stop()
        self.server.shutdown()
        self.thread.join(timeout=10)
        self.server.server_close()
        self.app.extensions["hidato"].close()
        self._folder.cleanup()

    def _page(self, spec: Spec) -> Any:
        phone = spec.viewport[0] < 600
        context = self.browser.new_context(base_url=self.base_url, viewport={"width": spec.viewport[0],
                                                                             "height": spec.viewport[1]},
                                           device_scale_factor=spec.scale, is_mobile=phone, has_touch=phone,
                                           locale="en-GB", timezone_id="UTC", color_scheme="light")
        page = context.new_page()
        page.clock.set_fixed_time(FIXED_TIME)
        return page

    def picture(self, spec: Spec, made: Generated, entries: dict[Cell, int]) -> tuple[Image.Image, Box]:
        """The screenshot (or printed page) of ``spec``, and the board's box in it."""
        page = self._page(spec)
        try:
            if spec.kind == "play":
                return self._play(page, made, entries)
            if spec.kind == "solver":
                return self._solver(page, made)
            return self._print(page, made, spec.dpi)
        finally:
            page.context.close()

    def _play(self, page: Any, made: Generated, entries: dict[Cell, int]) -> tuple[Image.Image, Box]:
        from playwright.sync_api import expect

        page.goto(f"/p/{puzzle_to_id(made.puzzle)}")
        expect(page.locator("#game .board")).to_have_attribute("style", re.compile("--zoom"))  # play.js has run
        for (r, c), value in entries.items():
            box = page.locator(f"#c-{r + 1}-{c + 1}")
            box.click()
            page.keyboard.type(str(value))
            page.keyboard.press("Enter")
            expect(box).to_have_value(str(value))
        if entries:
            expect(page.locator("#counts")).to_contain_text(f"{len(entries)} of")
            page.keyboard.press("Escape")
            page.locator("h1").first.click()  # nothing selected: no highlight of k-1 and k+1
        # A board wider than a phone opens zoomed in, partly out of view: a player who shares
        # the puzzle presses Fit first (the set holds only boards a reader can see whole).
        fit = page.locator("#game .zoom [data-zoom='0']")
        if fit.is_visible():
            fit.click()
        page.evaluate("window.scrollTo(0, 0); document.getElementById('board-wrap').scrollTo(0, 0)")
        page.wait_for_load_state("networkidle")
        _whole_in_view(page, "#game .board", "#board-wrap", "#dock")
        if entries:
            # The server counts the seconds the typing took, which vary from run to run: the
            # clock is shown at a time of its own so the screenshot is the same every time.
            shown = f"{len(entries) // 6}:{len(entries) * 7 % 60:02d}"
            page.eval_on_selector("#timer .clock", "(e, t) => { e.textContent = t; }", shown)
        return _shot(page, "#game .board")

    def _solver(self, page: Any, made: Generated) -> tuple[Image.Image, Box]:
        from playwright.sync_api import expect

        page.goto("/solve")
        page.get_by_label("Adjacency").select_option(made.puzzle.board.adjacency)
        page.get_by_label("Puzzle text").fill(format_puzzle(made.puzzle))
        page.get_by_label("Puzzle text").blur()
        board = made.puzzle.board
        expect(page.locator(f"#g-{board.rows}-{board.cols}")).to_be_visible()
        page.wait_for_load_state("networkidle")
        # Scrolled by us to a fixed place (the page's own scrolling, smooth, was caught at
        # different moments from run to run), the grid a little below the window's top.
        page.eval_on_selector("#draw-grid", """e => {
            document.documentElement.style.scrollBehavior = "auto";
            window.scrollTo(0, Math.max(0, Math.round(e.getBoundingClientRect().top + window.scrollY - 24)));
        }""")
        _whole_in_view(page, "#draw-grid", "#draw-grid", "#no-dock")
        return _shot(page, "#draw-grid")

    def _print(self, page: Any, made: Generated, dpi: int) -> tuple[Image.Image, Box]:
        page.goto(f"/p/{puzzle_to_id(made.puzzle)}/print")
        page.wait_for_load_state("networkidle")
        pdf = page.pdf(format="A4", print_background=True)
        image = rasterise(pdf, dpi)[0]
        w, h = image.size
        return image, (0.08 * w, 0.1 * h, 0.92 * w, 0.8 * h)


def _whole_in_view(page: Any, board: str, wrap: str, dock: str) -> None:
    """Refuse to make a picture whose board is cut off by the window, its scrolling area or
    a dock fixed at the bottom: its truth would hold cells nobody can see."""
    cut = page.evaluate("""([board, wrap, dock]) => {
        const b = document.querySelector(board).getBoundingClientRect();
        const w = document.querySelector(wrap).getBoundingClientRect();
        const d = document.querySelector(dock);
        let bottom = window.innerHeight;
        if (d && getComputedStyle(d).position === "fixed") bottom = Math.min(bottom, d.getBoundingClientRect().top);
        const out = [];
        if (b.left < w.left - 1 || b.right > w.right + 1 || b.left < 0 || b.right > window.innerWidth) out.push("wide");
        if (b.top < 0 || b.bottom > bottom + 1) out.push("tall");
        return out.join(" ");
    }""", [board, wrap, dock])
    if cut:
        raise RuntimeError(f"the board is not wholly in view ({cut}): choose a smaller board for this picture")


def _shot(page: Any, board_selector: str) -> tuple[Image.Image, Box]:
    """What the screen shows (a phone's screenshot is the window, not the whole page), and
    where the board is in it."""
    data = page.screenshot(full_page=False, animations="disabled", caret="hide")
    image = Image.open(io.BytesIO(data)).convert("RGB")
    found = page.locator(board_selector).first.bounding_box()
    scale = image.size[0] / page.viewport_size["width"]
    box = (found["x"] * scale, found["y"] * scale, (found["x"] + found["width"]) * scale,
           (found["y"] + found["height"]) * scale)
    return image, box
