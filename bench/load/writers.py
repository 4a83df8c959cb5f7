"""SQLite's write lock alone: how long a write transaction waits for it, with and without
the writers' queue (store/database.py, ``WriterQueue``).

``--processes`` processes of four threads each (as gunicorn's workers) run write
transactions on one SQLite file for ``--seconds``: take the lock, update one row, hold it
for ``--hold-ms`` of CPU (an entry's work), commit, pause 2 ms; each transaction is timed
from asking for the lock to its commit.  Runs without the queue (SQLite's busy handler
alone) and with it, twice each, interleaved, and prints a Markdown table:
``.venv/bin/python bench/load/writers.py``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sqlalchemy import text  # noqa: E402

from webapp.store.database import Database  # noqa: E402

THREADS = 4


def _writer(url: str, queued: bool, seconds: float, hold: float, results: Any) -> None:
    database = Database(url, upgrade=False)
    if not queued:
        database._writers = None  # SQLite's busy handler alone, as before the queue
    times: list[float] = []

    def write() -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            started = time.perf_counter()
            with database._session() as session:
                session.execute(text("UPDATE counter SET n = n + 1"))
                until = time.process_time() + hold
                while time.process_time() < until:
                    pass
            times.append(time.perf_counter() - started)
            time.sleep(0.002)

    threads = [threading.Thread(target=write) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    database.close()
    results.put(times)


def _run(processes: int, queued: bool, seconds: float, hold: float) -> tuple[float, list[float]]:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/writers.sqlite3"
        database = Database(url, upgrade=False)
        with database._session() as session:
            session.execute(text("CREATE TABLE counter (n INTEGER NOT NULL)"))
            session.execute(text("INSERT INTO counter VALUES (0)"))
        database.close()
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        children = [context.Process(target=_writer, args=(url, queued, seconds, hold, results))
                    for _ in range(processes)]
        for child in children:
            child.start()
        times = sorted(sum((results.get() for _ in children), []))
        for child in children:
            child.join()
    return len(times) / seconds, times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=5, help="writing processes (default 5)")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each run (default 8)")
    parser.add_argument("--hold-ms", type=float, default=0.5, help="CPU held inside the lock (default 0.5)")
    args = parser.parse_args()
    print(f"{args.processes} processes x {THREADS} threads, {args.hold_ms:g} ms held, {args.seconds:g} s per run\n")
    print("| writers | transactions/s | median ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    for queued in (False, True, False, True):
        rate, times = _run(args.processes, queued, args.seconds, args.hold_ms / 1000)
        print(f"| {'queued (flock)' if queued else 'SQLite busy handler'} | {rate:,.0f} | "
              f"{1000 * statistics.median(times):.1f} | {1000 * times[int(0.99 * len(times))]:.1f} | "
              f"{1000 * times[-1]:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
