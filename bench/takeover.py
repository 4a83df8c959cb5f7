"""Takeover benchmark (``make takeover``): how soon a job outlives the host working on it.

Each run starts two gunicorn hosts (own instance folders, no SECRET_KEY) on a fresh
PostgreSQL database (HIDATO_TEST_POSTGRES_URL, as tools/with_postgres.sh sets), asks
for a job through a round-robin balancer (a New puzzle that the pool cannot give: a
14x14 expert by default, or ``--kind booklet``: 8 boards of 10x10), waits until a
worker holds it plus ``--hold`` seconds, then SIGKILLs that worker's whole host (master,
workers, children) and polls the waiting page on the other host until the result is
ready. From a thread that reads the job's row every 20 ms it reports:

- **taken**: from the SIGKILL until the other host's worker held the job (its
  ``attempts`` went to 2 with a new owner and ``started``): the lease running out plus
  the next worker's poll;
- **ready**: from the SIGKILL until the result was there (the job done, or its page
  leading to the result): taken plus running the whole job again;
- **rerun**: the second attempt alone (ready minus taken).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the two-host harness of the tests

from two_hosts import (  # noqa: E402
    LEASE_SECONDS,
    POLL_SECONDS,
    Balancer,
    TicketWatcher,
    finished,
    kill_the_jobs_host,
    owner_pid,
    running,
    two_hosts,
)

JOBS = {
    "generate": ("/new", "/new/", {"shape": "rectangle", "size": "14", "difficulty": "expert", "variant": "hidato"}),
    "booklet": ("/booklet", "/booklet/", {"shape": "rectangle", "size": "10", "difficulty": "medium",
                                         "variant": "hidato", "count": "8", "per_page": "2", "seed": "7",
                                         "paper": "a4"}),
}
ENV = {"HIDATO_GENERATE_WAIT_SECONDS": "0", "HIDATO_BOOKLET_WAIT_SECONDS": "0", "HIDATO_RATE_LIMITS": "{}"}


def one_run(kind: str, hold: float, workers: int, timeout: float) -> dict[str, float | str]:
    form_path, prefix, form = JOBS[kind]
    with tempfile.TemporaryDirectory(prefix="hidato-takeover-") as folder, \
            two_hosts(Path(folder), ENV, workers=workers) as (database, hosts):
        browser = Balancer(hosts.bases())
        if browser.get("/booklet" if kind == "booklet" else "/").status != 200:
            raise SystemExit("the form page did not load")
        answer = browser.post(form_path, form)
        if answer.status != 303 or not answer.location.startswith(prefix):
            raise SystemExit(f"expected a waiting page: {answer}")
        ticket = answer.location[len(prefix):]
        with TicketWatcher(database, ticket) as watcher:
            kill = kill_the_jobs_host(watcher, hosts, browser, hold=hold)
            while True:  # the waiting page, on the host left
                page = browser.get(answer.location, follow=False)
                if page.status != 200 or "Your booklet is ready" in page.text:
                    break
                if time.monotonic() > kill.at + timeout:
                    raise SystemExit(f"not ready {timeout:g} s after the kill; its row went {watcher.describe()}")
                time.sleep(0.1)
            page_ready = time.monotonic()
            taken = watcher.wait_for(lambda row: running(row) and (row or {}).get("attempts", 0) >= 2, 0,
                                     "taken over")
            done = watcher.wait_for(finished, 5, "finished")  # the watcher looks every 20 ms
        if not (page.status == 303 or "Your booklet is ready" in page.text):
            raise SystemExit(f"no result after the takeover: {page}; its row went {watcher.describe()}")
        assert taken.row is not None
        survivor = hosts.host_of(owner_pid(taken.row) or -1) or "?"
        ready = min(done.at, page_ready)
        return {"victim": kill.victim, "survivor": survivor, "taken": taken.at - kill.at,
                "ready": ready - kill.at, "rerun": ready - taken.at, "attempts": watcher.max_attempts()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="kills to time (default 5)")
    parser.add_argument("--kind", choices=sorted(JOBS), default="generate", help="the job killed (default generate)")
    parser.add_argument("--hold", type=float, default=0.5,
                        help="seconds the first worker works before its host is killed (default 0.5)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers per host (default 2)")
    parser.add_argument("--timeout", type=float, default=120, help="give up this long after a kill (default 120)")
    args = parser.parse_args()
    if not os.environ.get("HIDATO_TEST_POSTGRES_URL"):
        print("HIDATO_TEST_POSTGRES_URL is not set: run it as `make takeover` "
              "(tools/with_postgres.sh starts a PostgreSQL server)", file=sys.stderr)
        return 2
    rows = []
    for run in range(args.runs):
        row = one_run(args.kind, args.hold, args.workers, args.timeout)
        rows.append(row)
        print(f"run {run + 1}: host {row['victim']} killed, {row['survivor']} took over after "
              f"{row['taken']:.2f} s, ready after {row['ready']:.2f} s", file=sys.stderr, flush=True)
    what = "a 14x14 expert puzzle" if args.kind == "generate" else "a booklet of 8 boards of 10x10"
    print(f"\nTakeover of {what} ({args.kind} job), {args.runs} runs: two gunicorn hosts "
          f"({args.workers} workers each) on one PostgreSQL, the job's host SIGKILLed {args.hold:g} s after a "
          f"worker took it; lease {LEASE_SECONDS:g} s, poll {POLL_SECONDS:g} s; "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} cores\n")
    print("| run | host killed | taken over by | kill to taken over s | kill to ready s | rerun s | attempts |")
    print("|---:|---|---|---:|---:|---:|---:|")
    for number, row in enumerate(rows, 1):
        print(f"| {number} | {row['victim']} | {row['survivor']} | {row['taken']:.2f} | {row['ready']:.2f} | "
              f"{row['rerun']:.2f} | {row['attempts']} |")
    for label, pick in (("median", statistics.median), ("worst", max)):
        values = {key: pick(float(row[key]) for row in rows) for key in ("taken", "ready", "rerun")}
        print(f"| {label} | | | {values['taken']:.2f} | {values['ready']:.2f} | {values['rerun']:.2f} | |")
    return 0 if all(row["attempts"] == 2 for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
