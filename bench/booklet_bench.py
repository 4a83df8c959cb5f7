"""Booklet benchmark (``make bench``): from the click on the booklet form to the PDF, through the site.

Starts gunicorn as ``make serve`` does (its workers, their job threads, the children
under the work slots; SQLite in a temporary instance folder, a public address so every
puzzle gets its QR code), then, as a browser does: opens the form, posts it (by default
30 medium puzzles of mixed shapes, 2 to a page, A4), follows the redirect to the waiting
page and reads that page every 0.1 s until it links to the PDF, then downloads it. Per
run it prints:

- **total**: from sending the form to the PDF's last byte;
- **puzzles**: from sending the form to the first progress text about the layout;
- **layout**: from that text to the ready page;
- **longest still**: the longest time the waiting page showed the same words (from the
  click to the first progress text, between two texts, and from the last to the PDF;
  its clock, "12 s so far", left out).

``--root`` runs another checkout (its own ``.venv``, e.g. an older commit unpacked with
``git archive``), to measure before and after on the same machine; ``--seeds 1,2,3``
makes the same booklets in both (the same seed gives the same puzzles), ``--seeds none``
leaves the seed out as a person usually does.

    .venv/bin/python bench/booklet_bench.py --runs 3
    .venv/bin/python bench/booklet_bench.py --root /tmp/before --runs 3
"""

from __future__ import annotations

import argparse
import html
import os
import re
import signal
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORM = {"shape": "mixed", "difficulty": "medium", "variant": "hidato", "count": "30", "per_page": "2",
        "paper": "a4", "name_line": "on", "name_line_shown": "1"}
_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')
_STATUS = re.compile(r'<p role="status">(.*?)</p>', re.S)
LAYOUT_WORDS = ("laying out", "preparing the pages", "writing page")  # the progress texts of the layout step
# The waiting page's clock ("12 s so far."): not progress, so left out when texts are compared.
_CLOCK = re.compile(r"\s*\d+ s so far\.")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None  # the 303 is read, not followed: its Location is the waiting page


@dataclass
class Run:
    seed: str
    total: float = 0.0
    layout_from: float = 0.0  # seconds after the click when the layout's first text showed
    texts: list[tuple[float, str]] = field(default_factory=list)  # (seconds, words) as they changed
    pages: int = 0

    @property
    def puzzles(self) -> float:
        return self.layout_from

    @property
    def layout(self) -> float:
        return self.total - self.layout_from

    @property
    def longest_still(self) -> float:
        times = [0.0] + [at for at, _ in self.texts] + [self.total]
        return max(later - earlier for earlier, later in zip(times, times[1:], strict=False))


class Browser:
    """Cookies, the CSRF token, no automatic redirects: what the form needs."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()), _NoRedirect)

    def get(self, path: str) -> tuple[int, bytes, dict[str, str]]:
        return self._open(urllib.request.Request(self.base + path))

    def post(self, path: str, form: dict[str, str]) -> tuple[int, bytes, dict[str, str]]:
        data = urllib.parse.urlencode(form).encode()
        return self._open(urllib.request.Request(self.base + path, data=data, method="POST"))

    def _open(self, request: urllib.request.Request) -> tuple[int, bytes, dict[str, str]]:
        try:
            with self.opener.open(request, timeout=300) as response:
                return response.status, response.read(), dict(response.headers)
        except urllib.error.HTTPError as err:
            return err.code, err.read(), dict(err.headers)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Site:
    """gunicorn from ``root``'s virtual environment, as ``make serve`` starts it."""

    def __init__(self, root: Path, folder: Path, workers: int, slots: int | None = None):
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(self.port), "WORKERS": str(workers),
               "HIDATO_INSTANCE": str(folder / "instance"), "HIDATO_POOL_FILL": "0",
               "HIDATO_PUBLIC_URL": "https://hidato.example.org", "HIDATO_RATE_LIMITS": "{}",
               # Straight to the waiting page, whose words are read from the first moment.
               "HIDATO_BOOKLET_WAIT_SECONDS": "0"}
        for name in ("SECRET_KEY", "DATABASE_URL", "HIDATO_WORK_SLOTS"):
            env.pop(name, None)
        if slots:
            env["HIDATO_WORK_SLOTS"] = str(slots)
        subprocess.run([str(root / ".venv/bin/hidato"), "db", "upgrade"], cwd=root, env=env, check=True,
                       capture_output=True)
        self.log = open(folder / "gunicorn.log", "ab")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [str(root / ".venv/bin/gunicorn"), "-c", "python:webapp.web.gunicorn_conf", "--no-control-socket",
             "webapp.web.wsgi:app"], cwd=root, env=env, stdout=self.log, stderr=self.log, start_new_session=True)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.base + "/booklet", timeout=5):
                    return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"gunicorn did not start: see {folder / 'gunicorn.log'}") from None
                time.sleep(0.2)

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.log.close()


def one_run(base: str, form: dict[str, str], seed: str, out: Path | None) -> Run:
    browser = Browser(base)
    status, page, _ = browser.get("/booklet")
    token = _TOKEN.search(page.decode())
    if status != 200 or token is None:
        raise SystemExit(f"the booklet form did not load ({status})")
    run = Run(seed)
    asked = {**form, "seed": "" if seed == "none" else seed, "csrf_token": token.group(1)}
    started = time.monotonic()
    status, _, headers = browser.post("/booklet", asked)
    if status != 303:
        raise SystemExit(f"the form answered {status}, not a redirect to the waiting page")
    waiting = urllib.parse.urlsplit(headers["Location"]).path
    shown = ""
    while True:
        status, body, _ = browser.get(waiting)
        now = time.monotonic() - started
        text = body.decode()
        if "Download the PDF" in text:
            break
        found = _STATUS.search(text)
        if status != 200 or found is None:
            raise SystemExit(f"the waiting page answered {status}: {text[:400]}")
        words = " ".join(_CLOCK.sub("", html.unescape(re.sub(r"<[^>]+>", " ", found.group(1)))).split())
        if words != shown:
            shown = words
            run.texts.append((now, words))
            if not run.layout_from and any(w in words for w in LAYOUT_WORDS):
                run.layout_from = now
        time.sleep(0.1)
    status, pdf, _ = browser.get(waiting + ".pdf")
    run.total = time.monotonic() - started
    if status != 200 or not pdf.startswith(b"%PDF-"):
        raise SystemExit(f"no PDF ({status})")
    if not run.layout_from:
        run.layout_from = run.total
    run.pages = _pages(pdf)
    if out is not None:
        out.write_bytes(pdf)
    return run


def _pages(pdf: bytes) -> int:
    """The PDF's pages (pdfinfo, from poppler-utils; 0 without it)."""
    try:
        info = subprocess.run(["pdfinfo", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        return 0
    found = re.search(r"^Pages:\s+(\d+)", info, re.M)
    return int(found.group(1)) if found else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to run (default: this one)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seeds", default="1,2,3,4,5",
                        help="the seed of each run, in turn ('none': no seed, as on the form); default 1,...,5")
    parser.add_argument("--count", default=FORM["count"])
    parser.add_argument("--shape", default=FORM["shape"])
    parser.add_argument("--size", default="", help="the shape's size (default: its usual size)")
    parser.add_argument("--difficulty", default=FORM["difficulty"])
    parser.add_argument("--per-page", default=FORM["per_page"], dest="per_page")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (default 3)")
    parser.add_argument("--slots", type=int, help="HIDATO_WORK_SLOTS (default: the site's, half the processors)")
    parser.add_argument("--keep", type=Path, help="a folder to keep each run's PDF in")
    parser.add_argument("--verbose", action="store_true", help="print every progress text with its time")
    args = parser.parse_args()
    form = {**FORM, "count": args.count, "shape": args.shape, "size": args.size, "difficulty": args.difficulty,
            "per_page": args.per_page}
    seeds = args.seeds.split(",")
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="hidato-booklet-bench-") as folder:
        site = Site(args.root.resolve(), Path(folder), args.workers, args.slots)
        try:
            for index in range(args.runs):
                seed = seeds[index % len(seeds)]
                load = os.getloadavg()[0]
                out = args.keep / f"run{index + 1}.pdf" if args.keep else None
                if args.keep:
                    args.keep.mkdir(parents=True, exist_ok=True)
                run = one_run(site.base, form, seed, out)
                runs.append(run)
                print(f"run {index + 1} (seed {seed}, load {load:.1f}): total {run.total:.2f} s, puzzles "
                      f"{run.puzzles:.2f} s, layout {run.layout:.2f} s, longest still {run.longest_still:.2f} s, "
                      f"{len(run.texts)} texts, {run.pages} pages", flush=True)
                if args.verbose:
                    for at, words in run.texts:
                        print(f"    {at:6.2f} s  {words}")
        finally:
            site.stop()
    print(f"\n{args.runs} runs of {form['count']} {form['difficulty']} {form['shape']} {form['size']} puzzles, "
          f"{form['per_page']} per page, A4, from {args.root.resolve()} ({os.cpu_count()} cores"
          f"{f', HIDATO_WORK_SLOTS={args.slots}' if args.slots else ''})")
    print("| | median | worst |\n|---|---:|---:|")
    for name in ("total", "puzzles", "layout", "longest_still"):
        values = [getattr(run, name) for run in runs]
        print(f"| {name.replace('_', ' ')} | {statistics.median(values):.2f} s | {max(values):.2f} s |")


if __name__ == "__main__":
    main()
