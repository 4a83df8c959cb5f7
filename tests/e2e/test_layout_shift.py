"""Cumulative layout shift of the play page, measured by Chromium itself: the scripts are
held back until the page has painted (the worst case of a slow network), so everything
they show or hide must already have its room at the first paint."""

from __future__ import annotations

import threading
import time
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.sync_api import Browser, Page, Route, ViewportSize

from engine import generate_shape, puzzle_to_id

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}

# Added before the page's own scripts (Playwright's init scripts are not subject to the CSP).
SHIFTS = """
window.__shifts = [];
new PerformanceObserver(list => {
  for (const e of list.getEntries()) {
    if (!e.hadRecentInput) window.__shifts.push({value: e.value, sources: e.sources.map(s =>
      (s.node ? s.node.nodeName + '.' + s.node.className : '?') + ' '
        + JSON.stringify(s.previousRect) + ' -> ' + JSON.stringify(s.currentRect))});
  }
}).observe({type: 'layout-shift', buffered: true});
"""

NEXT_FRAMES = "new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"


@pytest.fixture(scope="module")
def codes() -> dict[int, str]:
    return {n: puzzle_to_id(generate_shape("square", n, "easy", "king", seed=3).puzzle) for n in (8, 20)}


@pytest.fixture(params=["phone", "desktop"])
def viewed(request: pytest.FixtureRequest, browser: Browser, base_url: str) -> Iterator[Page]:
    phone = request.param == "phone"
    context = browser.new_context(base_url=base_url, viewport=PHONE if phone else DESKTOP,
                                  is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.add_init_script(SHIFTS)
    yield page
    context.close()


@pytest.mark.slow
@pytest.mark.parametrize("size", [8, 20])
def test_the_play_page_does_not_move_when_its_scripts_arrive(viewed: Page, codes: dict[int, str], size: int) -> None:
    held: list[Route] = []
    viewed.route("**/*.js*", lambda route: held.append(route))
    viewed.goto(f"/p/{codes[size]}", wait_until="commit")
    # The whole page parsed (its deferred scripts still waiting) and painted. With phone
    # emulation Chromium counts no shift in the first ~0.4 s after the first paint, so the
    # scripts wait a little longer, as they do on a slow phone network.
    viewed.wait_for_function("() => document.readyState !== 'loading'")
    viewed.wait_for_function("() => performance.getEntriesByType('paint')"
                             ".some(p => performance.now() > p.startTime + 700)")
    viewed.evaluate(NEXT_FRAMES)
    assert viewed.evaluate("document.documentElement.classList.contains('no-js')")  # no script has run yet
    assert held  # the page's scripts, asked for and waiting
    for route in held:
        route.continue_()
    # play.js has run (it sets the board's zoom), then two frames for the last layout.
    viewed.wait_for_function("() => document.querySelector('#game .board').style.getPropertyValue('--zoom') !== ''")
    viewed.evaluate(NEXT_FRAMES)
    shifts = viewed.evaluate("window.__shifts")
    cls = sum(shift["value"] for shift in shifts)
    assert cls < 0.05, shifts


def _halting_server(base_url: str, share: float) -> ThreadingHTTPServer:
    """A server in front of the app that sends a play page's first `share` of bytes, waits,
    then the rest: the page arrives in two pieces, as over a slow network (everything else
    is passed through whole)."""

    class Halting(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            with urllib.request.urlopen(base_url + self.path) as answer:
                body = answer.read()
                kept = ("content-type", "content-security-policy")
                headers = [(k, v) for k, v in answer.headers.items() if k.lower() in kept]
            self.send_response(200)
            for key, value in headers:
                self.send_header(key, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            cut = int(len(body) * share) if self.path.startswith("/p/") else len(body)
            self.wfile.write(body[:cut])
            self.wfile.flush()
            if cut < len(body):
                time.sleep(1.2)  # long enough for the first piece to be painted
                self.wfile.write(body[cut:])

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Halting)
    threading.Thread(target=server.serve_forever, name="halting-server", daemon=True).start()
    return server


@pytest.mark.slow
@pytest.mark.parametrize("share", [0.3, 0.6, 0.85])
@pytest.mark.parametrize("size", [8, 20])
def test_the_play_page_does_not_move_while_it_arrives(viewed: Page, codes: dict[int, str], base_url: str,
                                                       size: int, share: float) -> None:
    server = _halting_server(base_url, share)
    try:
        viewed.goto(f"http://127.0.0.1:{server.server_port}/p/{codes[size]}", wait_until="load")
        viewed.wait_for_function("() => document.querySelector('#game .board').style.getPropertyValue('--zoom') !== ''")
        viewed.evaluate(NEXT_FRAMES)
        shifts = viewed.evaluate("window.__shifts")
    finally:
        server.shutdown()
        server.server_close()
    assert sum(shift["value"] for shift in shifts) < 0.05, shifts
