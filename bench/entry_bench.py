"""Entry benchmark: what one cell entry costs in one process (Flask's test client, SQLite in
a fresh instance folder), per board size, early in a game and after hundreds of moves, with
the SQL statements each entry sends.

Entries go by turns two ways, on the same game: through Flask's test client (every column
but "WSGI call": the client's own work, building the request's environ and wrapping the
answer, is counted in them), and as a server such as gunicorn calls the app, the environ
built beforehand and only the app's WSGI call timed ("WSGI call": what an entry costs the
app).  ``--moves`` entries each way.

Run with ``make bench`` (or ``.venv/bin/python bench/entry_bench.py [--moves N]``). Prints a
Markdown table for the README. The target (the entry-path issue): at most 0.8 ms median on
10x10 and 20x20 boards, and no growth with the number of moves made.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import event  # noqa: E402
from werkzeug.datastructures import Headers  # noqa: E402
from werkzeug.test import EnvironBuilder  # noqa: E402

from engine import generate_shape, puzzle_to_id  # noqa: E402
from webapp.web.app import create_app  # noqa: E402
from webapp.web.security import CSRF_HEADER  # noqa: E402

HTMX = {"HX-Request": "true"}


def _board(size: int) -> tuple[str, list[tuple[tuple[int, int], int]]]:
    """A puzzle's code and its open cells with their solution numbers."""
    made = generate_shape("rectangle", size, "medium", "king", seed=5)
    open_cells = [(cell, made.solution[cell]) for cell in made.puzzle.board.cells if cell not in made.puzzle.givens]
    # One open cell is never filled: a solved game answers differently (and takes no entries).
    return puzzle_to_id(made.puzzle), open_cells[1:]


def _run(size: int, moves: int, instance: Path) -> dict[str, Any]:
    app = create_app({"INSTANCE_PATH": str(instance), "SECRET_KEY": "bench", "POOL_FILL": False,
                      "DATABASE_URL": None, "SOLVE_SECONDS": 300})  # a new id is solved once: never the timed part
    statements = [0]
    event.listen(app.extensions["hidato"].store.engine, "before_cursor_execute",
                 lambda *args: statements.__setitem__(0, statements[0] + 1))
    code, open_cells = _board(size)
    client = app.test_client()
    page = client.get(f"/p/{code}").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert token, "no CSRF token on the play page"
    headers = {**HTMX, CSRF_HEADER: token.group(1)}
    times: list[float] = []
    cpu: list[float] = []  # this process's CPU time: what a busy machine distorts least
    counts: list[int] = []
    wsgi_cpu: list[float] = []
    cookie_name = app.config["SESSION_COOKIE_NAME"]
    answered: list[str] = []  # the WSGI call's status, then the session cookie if it is sent again

    def start_response(status: str, response_headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
        answered.append(status)
        for name, text in response_headers:
            if name.lower() == "set-cookie" and text.startswith(f"{cookie_name}="):
                answered.append(text.split(";", 1)[0].partition("=")[2])
        return lambda _data: None

    # Entries by turns through the test client and as a WSGI server calls the app (``moves``
    # each), the game going on from one to the other.
    for move in range(2 * moves):
        (row, col), value = open_cells[move % len(open_cells)]
        # Every other pass writes a wrong number, so the board never fills (a solved game
        # answers differently) and every move is a real change.
        if (move // len(open_cells)) % 2:
            value = value % (len(open_cells) + 2) + 1
        url, form = f"/p/{code}/cell/{row + 1}/{col + 1}", {f"c-{row + 1}-{col + 1}": str(value)}
        if move % 2 == 0:
            statements[0] = 0
            start, start_cpu = time.perf_counter(), time.process_time()
            answer = client.post(url, data=form, headers=headers)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            counts.append(statements[0])
            assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
            assert 'id="game"' not in answer.get_data(as_text=True), "the entry was answered with the whole game"
            continue
        # The app's WSGI call alone: the environ built before the clock starts (a server's
        # work, not the app's), the app called, its body read and closed.
        cookie = client.get_cookie(cookie_name)
        assert cookie is not None, "no session cookie after the page"
        environ = EnvironBuilder(path=url, method="POST", data=form,
                                 headers=Headers({**headers, "Cookie": f"{cookie_name}={cookie.value}"})).get_environ()
        answered.clear()
        start_cpu = time.process_time()
        body = app(environ, start_response)
        try:
            data = b"".join(body)
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()
        wsgi_cpu.append(time.process_time() - start_cpu)
        assert answered[0].startswith("200"), data[:300]
        assert b'id="game"' not in data, "the entry was answered with the whole game"
        if len(answered) > 1:  # the session cookie sent again: the client carries it on
            client.set_cookie(cookie_name, answered[1])
    app.extensions["hidato"].close()
    early, late = times[:100], times[-100:]
    return {"size": size, "median": statistics.median(times), "p90": statistics.quantiles(times, n=10)[-1],
            "early": statistics.median(early), "late": statistics.median(late),
            "cpu": statistics.median(cpu), "wsgi_cpu": statistics.median(wsgi_cpu),
            "statements": statistics.median(counts)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=600, help="entries per board and per way (default 600)")
    args = parser.parse_args()
    print(f"### Entry: `.venv/bin/python bench/entry_bench.py --moves {args.moves}`\n")
    print("| board | median ms | p90 ms | CPU median ms | WSGI call, CPU median ms | first 100 moves, median ms "
          "| last 100 moves, median ms | statements |")
    print("|---|---|---|---|---|---|---|---|")
    for size in (10, 20):
        with tempfile.TemporaryDirectory() as folder:
            found = _run(size, args.moves, Path(folder) / "instance")
        print(f"| {size}×{size} | {found['median'] * 1000:.2f} | {found['p90'] * 1000:.2f} | {found['cpu'] * 1000:.2f} "
              f"| {found['wsgi_cpu'] * 1000:.2f} "
              f"| {found['early'] * 1000:.2f} | {found['late'] * 1000:.2f} | {found['statements']:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
