"""Entry benchmark: what one cell entry costs in one process (Flask's test client, SQLite in
a fresh instance folder), per board size, early in a game and after hundreds of moves, with
the SQL statements each entry sends.

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
    for move in range(moves):
        (row, col), value = open_cells[move % len(open_cells)]
        # Every other pass writes a wrong number, so the board never fills (a solved game
        # answers differently) and every move is a real change.
        if (move // len(open_cells)) % 2:
            value = value % (len(open_cells) + 2) + 1
        statements[0] = 0
        start, start_cpu = time.perf_counter(), time.process_time()
        answer = client.post(f"/p/{code}/cell/{row + 1}/{col + 1}", data={f"c-{row + 1}-{col + 1}": str(value)},
                             headers=headers)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        counts.append(statements[0])
        assert answer.status_code == 200, answer.get_data(as_text=True)[:300]
        assert 'id="game"' not in answer.get_data(as_text=True), "the entry was answered with the whole game"
    app.extensions["hidato"].close()
    early, late = times[:100], times[-100:]
    return {"size": size, "median": statistics.median(times), "p90": statistics.quantiles(times, n=10)[-1],
            "early": statistics.median(early), "late": statistics.median(late),
            "cpu": statistics.median(cpu), "statements": statistics.median(counts)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=600, help="entries per board (default 600)")
    args = parser.parse_args()
    print(f"### Entry: `.venv/bin/python bench/entry_bench.py --moves {args.moves}`\n")
    print("| board | median ms | p90 ms | CPU median ms | first 100 moves, median ms | last 100 moves, median ms "
          "| statements |")
    print("|---|---|---|---|---|---|---|")
    for size in (10, 20):
        with tempfile.TemporaryDirectory() as folder:
            found = _run(size, args.moves, Path(folder) / "instance")
        print(f"| {size}×{size} | {found['median'] * 1000:.2f} | {found['p90'] * 1000:.2f} | {found['cpu'] * 1000:.2f} "
              f"| {found['early'] * 1000:.2f} | {found['late'] * 1000:.2f} | {found['statements']:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
