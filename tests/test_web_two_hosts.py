"""Many hosts, one database: two gunicorn hosts, each with its own instance folder and no
SECRET_KEY, on one PostgreSQL database, and a browser behind a round-robin balancer
(every request, and every redirect it follows, goes to the other host).

The session (its signing key), entries, the New puzzle waiting page and booklets must
work whichever host answers; a host killed with SIGKILL in the middle of a job (a
generation, a booklet) leaves it to the other host, which starts it again once the dead
one's lease runs out, and nothing the player was told was saved is lost.

Each test gets a database of its own (CREATE DATABASE) on the server tools/with_postgres.sh
starts: ``tools/with_postgres.sh .venv/bin/pytest -q tests/test_web_two_hosts.py``.
"""

from __future__ import annotations

import html as html_module
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import puzzle_to_id

from puzzle_files import DATA, load
from two_hosts import (
    LEASE_SECONDS,
    NO_POSTGRES,
    POLL_SECONDS,
    POSTGRES_URL,
    Answer,
    Balancer,
    Database,
    Hosts,
    TicketWatcher,
    kill_the_jobs_host,
    owner_pid,
    running,
    two_hosts,
)

pytestmark = pytest.mark.slow

PUZZLE, SOLUTION = load(DATA / "classic-8x8-40.txt")
CODE = puzzle_to_id(PUZZLE)
PAGE = f"/p/{CODE}"
OPEN = [cell for cell in PUZZLE.board.cells if cell not in PUZZLE.givens]
# The generation budget on these hosts: a test job must finish (again) within it.
GENERATE_SECONDS = 40
# The booklet of the kill test takes about 6 s alone (8 boards of 10x10 and their pages).
BOOKLET_SECONDS = 40
# What the machine may add to the runner's promise (lease + poll) when it is busy.
SLACK_SECONDS = 4
ENV = {
    "HIDATO_GENERATE_WAIT_SECONDS": "0",  # always the waiting page
    "HIDATO_BOOKLET_WAIT_SECONDS": "0",
    "HIDATO_GENERATE_SECONDS": str(GENERATE_SECONDS),
    "HIDATO_RATE_LIMITS": "{}",  # every request comes from 127.0.0.1
}
SMALL_PUZZLE = {"shape": "diamond", "size": "3", "difficulty": "easy", "variant": "hidato"}
# A generation that still runs a second or more after a worker takes it (1.5-9 s alone).
SLOW_PUZZLE = {"shape": "rectangle", "size": "14", "difficulty": "expert", "variant": "hidato"}
SMALL_BOOKLET = {"shape": "diamond", "size": "3", "difficulty": "easy", "variant": "hidato", "count": "1",
                 "per_page": "1", "paper": "a4"}
SLOW_BOOKLET = {"shape": "rectangle", "size": "10", "difficulty": "medium", "variant": "hidato", "count": "8",
                "per_page": "2", "seed": "7", "paper": "a4"}


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Database, Hosts, Balancer]]:
    """A fresh database, hosts A and B on it, and a browser behind the balancer."""
    if not POSTGRES_URL:
        pytest.fail(NO_POSTGRES, pytrace=False)
    with two_hosts(tmp_path, ENV) as (database, hosts):
        browser = Balancer(hosts.bases())
        yield database, hosts, browser
        problem = hosts.tracebacks()
        assert not problem, f"a traceback in a live host's log:\n{problem}"


def name(cell: tuple[int, int]) -> str:
    return f"c-{cell[0] + 1}-{cell[1] + 1}"


def shown_values(page: str) -> dict[tuple[int, int], str]:
    """The numbers the page shows in the open cells (empty ones left out)."""
    found = {}
    for row, col, value in re.findall(r'<input id="c-(\d+)-(\d+)"[^>]*?value="([^"]*)"', page, re.S):
        if value:
            found[(int(row) - 1, int(col) - 1)] = html_module.unescape(value)
    return found


def enter(browser: Balancer, cells: list[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """Enter the solution's number in each cell as htmx does, each on the next host; returns
    what the hosts acknowledged (answered 200 with the cell showing it)."""
    acknowledged = {}
    for cell in cells:
        value = str(SOLUTION[cell])
        answer = browser.post(f"{PAGE}/cell/{cell[0] + 1}/{cell[1] + 1}", {name(cell): value}, htmx=True)
        assert answer.status == 200 and f'value="{value}"' in answer.text, (
            f"the entry {value} in {name(cell)} was not taken: {answer}\n(requests: {browser.history[-6:]})")
        acknowledged[cell] = value
    return acknowledged


def open_puzzle(browser: Balancer) -> None:
    home = browser.get("/")
    assert home.status == 200, f"the home page: {home}"
    page = browser.get(PAGE)
    assert page.status == 200 and browser.token, f"the puzzle page: {page}"


def assert_entries_kept(browser: Balancer, hosts: Hosts, expected: dict[tuple[int, int], str]) -> None:
    for label in hosts.servers:
        if label in hosts.killed:
            continue
        page = browser.get(PAGE, host=label)
        assert page.status == 200, page
        shown = shown_values(page.text)
        assert shown == expected, (
            f"host {label} shows {shown} on the puzzle page; the hosts acknowledged {expected} "
            f"(a different session, i.e. a key not shared, shows nothing: session {browser.session()})")


def ticket_of(answer: Answer, prefix: str) -> str:
    assert answer.status == 303 and answer.location.startswith(prefix), (
        f"expected a redirect to the waiting page {prefix}<ticket>: {answer}")
    return answer.location[len(prefix):]


# --- (a) one session on both hosts ----------------------------------------------------------


def test_the_session_and_its_entries_are_the_same_on_both_hosts(site: tuple[Database, Hosts, Balancer]) -> None:
    database, hosts, browser = site
    open_puzzle(browser)
    cells = OPEN[:6]
    acknowledged = enter(browser, cells)
    undo = browser.post(PAGE, {"action": "undo"}, htmx=True)
    undone = cells[-1]
    assert undo.status == 200 and "Undid" in undo.text, f"Undo: {undo}"
    assert shown_values(undo.text).get(undone) is None, f"Undo left {name(undone)} filled: {undo}"
    del acknowledged[undone]
    assert_entries_kept(browser, hosts, acknowledged)
    for label in hosts.servers:  # My puzzles lists it on both
        mine = browser.get("/mine", host=label)
        assert mine.status == 200 and (f'href="{PAGE}"' in mine.text or CODE.split(":")[1][:20] in mine.text), (
            f"/mine on host {label} does not list the puzzle being played: {mine}")
    player = browser.session().get("player")
    rows = database.rows("SELECT player, entries FROM progress")
    assert [row["player"] for row in rows] == [player], (
        f"expected one progress row, of the browser's player {player!r}; the database has "
        f"{[(row['player'], row['entries']) for row in rows]} (a row per host means each host signs "
        f"sessions with a key of its own)")
    stored = {(r, c): str(v) for r, c, v in json.loads(rows[0]["entries"])}
    assert stored == acknowledged, f"the database holds {stored}, the hosts acknowledged {acknowledged}"


# --- (b) a new puzzle behind the waiting page -------------------------------------------------


def test_a_new_puzzle_and_its_waiting_page_on_alternate_hosts(site: tuple[Database, Hosts, Balancer]) -> None:
    _database, _hosts, browser = site
    assert browser.get("/").status == 200
    answer = browser.post("/new", SMALL_PUZZLE)
    waiting = "/new/" + ticket_of(answer, "/new/")
    served = []
    deadline = time.monotonic() + 60
    while (page := browser.get(waiting, follow=False)).status == 200:
        assert "Making your puzzle" in page.text, f"the waiting page: {page}"
        served.append(page.host)
        assert time.monotonic() < deadline, f"the puzzle was not made within 60 s (pages from {served})"
        time.sleep(0.2)
    assert page.status == 303 and page.location.startswith("/p/"), (
        f"the waiting page (host {page.host}, after {answer.host} took the form) did not lead to the puzzle: {page}")
    puzzle = browser.get(page.location)
    assert puzzle.status == 200 and 'id="board-form"' in puzzle.text, f"the new puzzle's page: {puzzle}"
    again = browser.get(waiting, follow=False)
    assert again.status == 404, f"a used ticket must be gone on every host: {again}"


# --- (c) booklets ---------------------------------------------------------------------------------


def fetch_booklet(browser: Balancer, form: dict[str, str], host: str | None = None,
                  seconds: float = 60) -> tuple[Answer, list[str]]:
    """Post the booklet form, wait on its page (each reload on the next host), download the
    PDF from the link; returns the PDF's answer and the hosts that served each step."""
    answer = browser.post("/booklet", form, host=host)
    path = "/booklet/" + ticket_of(answer, "/booklet/")
    steps = [f"form: {answer.host}"]
    deadline = time.monotonic() + seconds
    while True:
        page = browser.get(path, follow=False)
        assert page.status == 200, f"the booklet's page: {page}\n(steps: {steps})"
        if "Your booklet is ready" in page.text:
            steps.append(f"ready: {page.host}")
            break
        steps.append(f"waiting: {page.host}")
        assert time.monotonic() < deadline, f"the booklet was not ready within {seconds:g} s (steps: {steps})"
        time.sleep(0.25)
    link = re.search(r'href="(/booklet/[0-9a-f]+\.pdf)"', page.text)
    assert link and link.group(1) == path + ".pdf", f"no link to {path}.pdf on the ready page: {page}"
    pdf = browser.get(link.group(1), follow=False)
    steps.append(f"pdf: {pdf.host}")
    return pdf, steps


def test_booklets_are_made_and_downloaded_through_either_host(site: tuple[Database, Hosts, Balancer]) -> None:
    _database, _hosts, browser = site
    assert browser.get("/booklet").status == 200
    for attempt in range(4):
        host = "AB"[attempt % 2]
        pdf, steps = fetch_booklet(browser, {**SMALL_BOOKLET, "seed": str(attempt)}, host=host)
        assert pdf.status == 200 and pdf.body.startswith(b"%PDF-"), (
            f"booklet {attempt + 1} (steps: {steps}): not a PDF: {pdf}")
        assert pdf.headers.get_content_type() == "application/pdf", pdf.headers


# --- (d, e) a host killed during a job ------------------------------------------------------------


def _check_takeover(watcher: TicketWatcher, hosts: Hosts, victim: str, killed_at: float) -> None:
    taken = watcher.wait_for(lambda row: running(row) and (row or {}).get("attempts", 0) >= 2, 0,
                             "taken over (a second attempt)")
    assert taken.row is not None
    late = taken.at - killed_at
    assert late <= LEASE_SECONDS + POLL_SECONDS + SLACK_SECONDS, (
        f"the other host took the job over {late:.1f} s after the kill (lease {LEASE_SECONDS:g} s + poll "
        f"{POLL_SECONDS:g} s); its row went {watcher.describe()}")
    pid = owner_pid(taken.row)
    assert pid is not None and hosts.host_of(pid) not in (None, victim), (
        f"the second attempt's owner {taken.row.get('owner')!r} is not a process of a live host")
    assert watcher.max_attempts() == 2, f"expected exactly 2 attempts; its row went {watcher.describe()}"


def test_a_generation_is_finished_by_the_other_host_when_its_host_dies(
        site: tuple[Database, Hosts, Balancer]) -> None:
    database, hosts, browser = site
    open_puzzle(browser)
    acknowledged = enter(browser, OPEN[:4])
    answer = browser.post("/new", SLOW_PUZZLE)
    ticket = ticket_of(answer, "/new/")
    with TicketWatcher(database, ticket) as watcher:
        kill = kill_the_jobs_host(watcher, hosts, browser)
        deadline = kill.at + LEASE_SECONDS + POLL_SECONDS + GENERATE_SECONDS + SLACK_SECONDS
        while (page := browser.get(f"/new/{ticket}", follow=False)).status == 200:
            assert time.monotonic() < deadline, (
                f"the puzzle was not made {deadline - kill.at:.0f} s after host {kill.victim} was killed; "
                f"its row went {watcher.describe()}")
            time.sleep(0.25)
        _check_takeover(watcher, hosts, kill.victim, kill.at)
    assert page.status == 303 and page.location.startswith("/p/"), (
        f"after host {kill.victim} was killed, the waiting page did not lead to a puzzle: {page}; "
        f"its row went {watcher.describe()}")
    assert browser.get(page.location).status == 200
    assert_entries_kept(browser, hosts, acknowledged)


def test_a_booklet_is_finished_by_the_other_host_when_its_host_dies(
        site: tuple[Database, Hosts, Balancer]) -> None:
    database, hosts, browser = site
    open_puzzle(browser)
    acknowledged = enter(browser, OPEN[:4])
    answer = browser.post("/booklet", SLOW_BOOKLET)
    ticket = ticket_of(answer, "/booklet/")
    with TicketWatcher(database, ticket) as watcher:
        kill = kill_the_jobs_host(watcher, hosts, browser, hold=1.0)
        deadline = kill.at + LEASE_SECONDS + POLL_SECONDS + BOOKLET_SECONDS + SLACK_SECONDS
        while "Your booklet is ready" not in (page := browser.get(f"/booklet/{ticket}", follow=False)).text:
            assert page.status == 200, f"the booklet's page after host {kill.victim} was killed: {page}"
            assert time.monotonic() < deadline, (
                f"the booklet was not ready {deadline - kill.at:.0f} s after host {kill.victim} was killed; "
                f"its row went {watcher.describe()}")
            time.sleep(0.25)
        _check_takeover(watcher, hosts, kill.victim, kill.at)
    pdf = browser.get(f"/booklet/{ticket}.pdf", follow=False)
    assert pdf.status == 200 and pdf.body.startswith(b"%PDF-"), f"the booklet after the takeover: {pdf}"
    assert_entries_kept(browser, hosts, acknowledged)
