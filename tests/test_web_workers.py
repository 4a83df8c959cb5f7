"""Many players, many server processes, one database, and nothing lost.

Two tabs on one puzzle keep each other's entries; a generation ticket is answered by
any process; the pool is filled without a slot made twice; and under gunicorn, workers
killed mid-session (and then the whole server restarted) lose no acknowledged entry.
Each test runs on SQLite and, under make test, on PostgreSQL.
"""

from __future__ import annotations

import html as html_module
import http.client
import os
import random
import re
import signal
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from waiting import wait_until

from engine import puzzle_to_id
from webapp.core.options import Options
from webapp.store.pool import fill
from webapp.store.shared import Shared
from webapp.store.store import Store, database_url

from gunicorn_server import Server
from puzzle_files import DATA, load

ROOT = Path(__file__).resolve().parent.parent
PUZZLE, SOLUTION = load(DATA / "classic-8x8-40.txt")
CODE = puzzle_to_id(PUZZLE)
PAGE = f"/p/{CODE}"
OPEN = [cell for cell in PUZZLE.board.cells if cell not in PUZZLE.givens]
HTMX = {"HX-Request": "true"}


def name(cell: tuple[int, int], prefix: str = "c") -> str:
    return f"{prefix}-{cell[0] + 1}-{cell[1] + 1}"


def shown_values(html: str) -> dict[tuple[int, int], str]:
    """What the page shows in each open cell."""
    found = {}
    for row, col, value in re.findall(r'<input id="c-(\d+)-(\d+)"[^>]*?value="([^"]*)"', html, re.S):
        found[(int(row) - 1, int(col) - 1)] = html_module.unescape(value)
    return found


def board_form(html: str) -> dict[str, str]:
    """The fields the board form would post as it stands (as a browser without JavaScript would)."""
    fields = {f"c-{r}-{c}": html_module.unescape(v)
              for r, c, v in re.findall(r'<input id="c-(\d+)-(\d+)"[^>]*?value="([^"]*)"', html, re.S)}
    shown = re.search(r'<input type="hidden" name="shown" value="([^"]*)"', html)
    assert shown
    fields["shown"] = html_module.unescape(shown.group(1))
    token = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert token
    fields["csrf_token"] = token.group(1)
    return fields


# --- two tabs --------------------------------------------------------------------------


def test_two_tabs_keep_each_others_entries(app: Flask, client: FlaskClient) -> None:
    a, b, c = OPEN[:3]
    stale = client.get(PAGE).get_data(as_text=True)  # tab 2 opens the puzzle
    # Tab 1 enters two numbers with htmx.
    client.post(f"{PAGE}/cell/{a[0] + 1}/{a[1] + 1}", data={name(a): str(SOLUTION[a])}, headers=HTMX)
    client.post(f"{PAGE}/cell/{b[0] + 1}/{b[1] + 1}", data={name(b): str(SOLUTION[b])}, headers=HTMX)
    # Tab 2, still showing the board without them, enters a third and presses Check (no JavaScript:
    # the whole form is posted, the first two cells empty as it shows them).
    form = board_form(stale)
    assert form[name(a)] == "" and form[name(b)] == ""
    form.update({name(c): str(SOLUTION[c]), "action": "check"})
    assert client.post(PAGE, data=form).status_code == 303
    html = client.get(PAGE).get_data(as_text=True)
    assert {cell: shown_values(html)[cell] for cell in (a, b, c)} == {
        a: str(SOLUTION[a]), b: str(SOLUTION[b]), c: str(SOLUTION[c])}
    # What a tab does change wins, even over a later entry from the other tab.
    shown = client.get(PAGE).get_data(as_text=True)  # tab 2 reloads
    client.post(f"{PAGE}/cell/{a[0] + 1}/{a[1] + 1}", data={name(a): str(SOLUTION[a] % 40 + 1)}, headers=HTMX)
    form = board_form(shown)
    form.update({name(a): "", "action": "save"})  # tab 2 clears the cell
    client.post(PAGE, data=form)
    assert shown_values(client.get(PAGE).get_data(as_text=True))[a] == ""


def test_a_form_without_what_it_showed_still_saves_everything(client: FlaskClient) -> None:
    a = OPEN[0]
    data = {name(a): str(SOLUTION[a]), "action": "save"}  # an old page, or a script
    assert client.post(PAGE, data=data).status_code == 303
    assert shown_values(client.get(PAGE).get_data(as_text=True))[a] == str(SOLUTION[a])


# --- what server processes share -------------------------------------------------------


def test_a_generation_ticket_is_answered_by_another_process(tmp_path: Path, make_app) -> None:
    one = make_app(tmp_path / "instance", GENERATE_WAIT_SECONDS=0)
    other = make_app(tmp_path / "instance")  # a second worker on the same database and key
    one.extensions["hidato"].refiller.request = lambda options=None: None
    response = one.test_client().post("/new", data={"shape": "diamond", "size": "3", "difficulty": "easy",
                                                     "variant": "hidato"})
    waiting = response.headers["Location"]
    assert waiting.startswith("/new/")
    client = other.test_client()
    def made(page: Any) -> bool:
        if page.status_code != 200:
            return True
        assert "Making your puzzle" in page.get_data(as_text=True) or "refresh" in page.get_data(as_text=True)
        return False

    page = wait_until(lambda: client.get(waiting), made, 30, what="the puzzle asked through the other process")
    assert page.status_code == 303 and page.headers["Location"].startswith("/p/")
    assert client.get(waiting).status_code == 404  # used once, by whichever process


def test_a_job_no_worker_took_in_time_is_refused_with_a_message(app: Flask, client: FlaskClient) -> None:
    shared = Shared(app.extensions["hidato"].store)
    shared.add_job("a" * 32, "generate", {"shape": "diamond", "size": 3, "difficulty": "easy",
                                          "variant": "hidato"}, start_within=-1, keep_seconds=900)
    response = client.get("/new/" + "a" * 32)
    assert response.status_code == 400 and "No server was free" in response.get_data(as_text=True)


def test_processes_starting_together_on_an_empty_database_create_it_once(tmp_path: Path, databases) -> None:
    url = database_url(databases.url("empty"), str(tmp_path))
    barrier = threading.Barrier(6)
    errors: list[BaseException] = []

    def start() -> None:
        try:
            barrier.wait()
            Store(url).close()
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=start) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors


def test_claims_are_exclusive_until_released_or_run_out(app: Flask) -> None:
    shared = Shared(app.extensions["hidato"].store)
    assert shared.claim("slot", "p1", 60)
    assert not shared.claim("slot", "p2", 60)
    assert shared.claim("slot", "p1", 60)  # renewing its own
    shared.release("slot", "p2")  # not the owner: nothing happens
    assert not shared.claim("slot", "p2", 60)
    shared.release("slot", "p1")
    assert shared.claim("slot", "p2", -1)  # already run out (its owner died)
    assert shared.claim("slot", "p3", 60)


def test_processes_filling_the_pool_together_make_each_slot_once(tmp_path: Path, databases) -> None:
    url = database_url(databases.url("pool"), str(tmp_path))
    targets = [Options("rectangle", 4, "easy", "hidato"), Options("diamond", 3, "easy", "hidato"),
               Options("hexagon", 3, "easy", "hex"), Options("rectangle", 5, "easy", "numbrix")]
    stores = [Store(url) for _ in range(4)]  # one each, as separate processes have
    barrier = threading.Barrier(len(stores))
    made: list[int] = []
    errors: list[BaseException] = []

    def run(store: Store) -> None:
        try:
            barrier.wait()
            made.append(fill(store, targets, count=2))
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=run, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert not errors
        assert sum(made) == 2 * len(targets)
        assert set(stores[0].pool_counts().values()) == {2}
        assert fill(stores[0], targets, count=2) == 0
    finally:
        for store in stores:
            store.close()


# --- gunicorn --------------------------------------------------------------------------


class Player:
    """One browser: a cookie jar, the CSRF token, and retries while a worker is gone."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.token = ""

    def request(self, path: str, data: dict[str, str] | None = None, deadline: float = 60) -> tuple[int, str]:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        headers = {**HTMX, "X-CSRF-Token": self.token} if data is not None else {}
        give_up = time.monotonic() + deadline
        while True:
            request = urllib.request.Request(self.base + path, data=body, headers=headers)
            try:
                with self.opener.open(request, timeout=30) as response:
                    return response.status, response.read().decode()
            except urllib.error.HTTPError as err:
                return err.code, err.read().decode()
            except (OSError, http.client.HTTPException):  # the worker died: not acknowledged, try again
                assert time.monotonic() < give_up, f"{path}: no answer for {deadline} s"
                time.sleep(0.05)

    def open_puzzle(self) -> str:
        status, html = self.request(PAGE)
        assert status == 200
        token = re.search(r'name="csrf_token" value="([^"]+)"', html)
        assert token
        self.token = token.group(1)
        return html


def _kill(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.fixture
def server_database(tmp_path: Path, databases) -> Iterator[tuple[Path, str | None]]:
    instance = tmp_path / "instance"
    yield instance, databases.url("gunicorn")


@pytest.mark.slow
def test_workers_killed_mid_session_and_a_restart_lose_nothing(server_database) -> None:
    instance, database = server_database
    server = Server(instance, database, workers=2)
    server.start()
    try:
        player = Player(server.base)
        player.open_puzzle()
        acknowledged: dict[tuple[int, int], int] = {}
        cells = list(OPEN)
        rng = random.Random(6)
        rng.shuffle(cells)
        first = set(server.workers())
        assert len(first) == 2
        kills = 0
        for number, cell in enumerate(cells):
            if number % 4 == 1:
                # Kill a worker (every one of them, now and then) while this entry is on its way.
                victims = server.workers() if number % 12 == 1 else [rng.choice(server.workers())]
                killer = threading.Timer(rng.uniform(0, 0.01), _kill, args=(victims,))
                killer.start()
                kills += len(victims)
            value = SOLUTION[cell]
            status, body = player.request(f"{PAGE}/cell/{cell[0] + 1}/{cell[1] + 1}", {name(cell): str(value)})
            assert status == 200 and f'value="{value}"' in body, (status, body[:300])
            acknowledged[cell] = value
            if number % 4 == 1:
                killer.join()
        assert kills >= 4 and not first & set(server.workers())  # none of the first workers is left
        assert acknowledged == {cell: SOLUTION[cell] for cell in OPEN}
        server.stop()
        server.start()  # and a restart of the whole server
        html = player.open_puzzle()
        assert shown_values(html) == {cell: str(value) for cell, value in acknowledged.items()}
        assert "Solved!" in html
    finally:
        server.stop()
    log = server.log.read_text()
    assert "Traceback" not in log, log[max(0, log.find("Traceback") - 2000):][:6000]
