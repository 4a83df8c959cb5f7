"""Flood benchmark (``make flood``): ordinary pages timed while the editor is flooded.

gunicorn as ``make serve`` runs it (SQLite, on 127.0.0.1, five workers), first quiet, then
with ``--flooders`` clients (24) each posting the solver page's Grade button with a
900-cell sparse board, back to back, each from its own address (the server trusts one
proxy, so they are 24 clients inside their rate limits).  Probes meanwhile fetch the home
page, a puzzle page and a static file every 50 ms.  Prints the probes' latencies in both
runs, what the flooders were answered, how many budgeted children ran at once, and how
long a 1,600-cell board took to be refused.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from engine import parse_puzzle, puzzle_to_id  # noqa: E402

from flood_client import PROBES, Report, measure, summary  # noqa: E402
from gunicorn_server import Server  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each run (default 20)")
    parser.add_argument("--flooders", type=int, default=24, help="clients posting Grade at once (default 24)")
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: make serve's)")
    parser.add_argument("--slots", type=int, default=None, help="HIDATO_WORK_SLOTS (default: the server's)")
    args = parser.parse_args()
    workers = args.workers or 2 * (os.cpu_count() or 1) + 1
    code = puzzle_to_id(parse_puzzle((ROOT / "tests/data/puzzles/classic-8x8-40.txt").read_text()))
    with tempfile.TemporaryDirectory(prefix="hidato-flood-") as folder:
        server = Server(Path(folder) / "instance", None, workers)
        server.env["HIDATO_PROXIES"] = "1"
        if args.slots:
            server.env["HIDATO_WORK_SLOTS"] = str(args.slots)
        server.start()
        try:
            quiet = asyncio.run(measure(server.port, code, args.seconds, 0))
            flooded = asyncio.run(measure(server.port, code, args.seconds, args.flooders))
        finally:
            server.stop()
    print(f"\ngunicorn on 127.0.0.1 (gthread, {workers} workers x 4 threads, SQLite), {args.seconds:g} s per run, "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} cores\n")
    print("| run | page | requests | median ms | p99 ms | max ms | errors |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for label, report in (("quiet", quiet), (f"{args.flooders} clients posting Grade", flooded)):
        for name in PROBES:
            median, p99, worst = summary(report.latency[name])
            errors = sum(1 for e in report.probe_errors if e.startswith(name))
            print(f"| {label} | {name} | {len(report.latency[name]):,} | {median:.1f} | {p99:.1f} | {worst:.0f} | "
                  f"{errors} |")
    _flood_lines(flooded)
    return 1 if flooded.probe_errors or quiet.probe_errors else 0


def _flood_lines(report: Report) -> None:
    answers = ", ".join(f"{count:,} × {status or 'no answer'}" for status, count in sorted(report.flood_status.items()))
    median, p99, worst = summary(report.flood_seconds)
    print(f"\nGrade answers: {answers} (200: too hard in the budget; 503: busy, retry; 429: over the rate "
          f"limit); answer time median {median:.0f} ms, p99 {p99:.0f} ms, max {worst:.0f} ms")
    print(f"budgeted children running at once: at most {report.most_children}")
    print(f"a 1,600-cell board: answered {report.big_board_status} in {1000 * report.big_board_seconds:.0f} ms")


if __name__ == "__main__":
    sys.exit(main())
