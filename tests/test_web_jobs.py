"""The job queue's leases (webapp/web/jobs.py, webapp/store/shared.py): a job whose worker
stopped renewing its lease is taken over and finished by another worker; one that kept
losing its workers is failed at once with a message; a worker that lost its lease
cannot overwrite the outcome; a booklet's PDF is kept in the database."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy.engine import make_url
from waiting import wait_until

from webapp.store.shared import Shared
from webapp.web.jobs import MAX_ATTEMPTS

ROOT = Path(__file__).resolve().parent.parent
EASY = {"shape": "diamond", "size": 3, "difficulty": "easy", "variant": "hidato"}


def _dead_worker_took(shared: Shared, ticket: str, times: int = 1) -> None:
    """``times`` workers took the job and died: each lease already ran out."""
    for _ in range(times):
        assert shared.claim_job(f"dead-host/1/{ticket[:4]}", ["generate"], -1, MAX_ATTEMPTS, "gave up") is not None


def test_a_job_whose_worker_died_is_taken_over_and_finished(tmp_path: Path, make_app) -> None:
    app: Flask = make_app(tmp_path / "instance")
    shared = Shared(app.extensions["hidato"].store)
    shared.add_job("b" * 32, "generate", EASY, start_within=300, keep_seconds=900)
    _dead_worker_took(shared, "b" * 32)
    client = app.test_client()
    stalled = client.get("/new/" + "b" * 32).get_data(as_text=True)
    assert "another server takes it over" in stalled  # the waiting page says what happened
    app.extensions["hidato"].jobs.start()  # this process's workers look for jobs
    page = wait_until(lambda: client.get("/new/" + "b" * 32), lambda page: page.status_code != 200, 30,
                      what="the job taken over and finished")
    assert page.status_code == 303 and page.headers["Location"].startswith("/p/")


def test_a_job_that_lost_its_worker_every_time_fails_at_once_with_a_message(app: Flask) -> None:
    shared = Shared(app.extensions["hidato"].store)
    shared.add_job("c" * 32, "generate", EASY, start_within=300, keep_seconds=900)
    _dead_worker_took(shared, "c" * 32, times=MAX_ATTEMPTS)
    app.extensions["hidato"].jobs.start()
    client = app.test_client()
    page = wait_until(lambda: client.get("/new/" + "c" * 32), lambda page: page.status_code != 200, 10,
                      what="the job given up")
    text = page.get_data(as_text=True)
    assert page.status_code == 503 and f"stopped {MAX_ATTEMPTS} times" in text
    assert shared.job("c" * 32, "generate") is None  # used once


def test_a_worker_that_lost_its_lease_cannot_record_an_outcome(app: Flask) -> None:
    shared = Shared(app.extensions["hidato"].store)
    shared.add_job("d" * 32, "generate", EASY, start_within=300, keep_seconds=900)
    first = shared.claim_job("slow/1/a", ["generate"], -1, MAX_ATTEMPTS, "gave up")
    second = shared.claim_job("quick/2/b", ["generate"], 60, MAX_ATTEMPTS, "gave up")
    assert first is not None and second is not None and second.attempts == 2
    assert shared.renew_jobs(["d" * 32], "slow/1/a", 60) == {"d" * 32}  # it knows it lost the job
    assert not shared.finish_job("d" * 32, "slow/1/a", "done", "stale")
    assert shared.finish_job("d" * 32, "quick/2/b", "done", "fresh", b"%PDF-1.7 a file")
    found = shared.job("d" * 32, "generate")
    assert found is not None and found.status == "done" and found.result == "fresh"
    assert shared.job_file("d" * 32) == b"%PDF-1.7 a file"
    shared.job("d" * 32, "generate", take=True)
    assert shared.job_file("d" * 32) is None  # taken with its outcome


def test_a_booklet_made_by_one_process_is_downloaded_from_another(tmp_path: Path, make_app) -> None:
    maker = make_app(tmp_path / "instance", BOOKLET_WAIT_SECONDS=0)
    other = make_app(tmp_path / "instance", JOB_THREADS=0)  # a web host that leaves jobs to others
    response = maker.test_client().post("/booklet", data={
        "shape": "rectangle", "size": "4", "difficulty": "easy", "variant": "hidato", "count": "2",
        "per_page": "2", "paper": "a4", "name_line_shown": "1"})
    assert response.status_code == 303
    waiting = response.headers["Location"]
    client = other.test_client()
    page = wait_until(lambda: client.get(waiting),
                      lambda page: "Making your booklet" not in page.get_data(as_text=True),
                      120, every=0.2, what="the booklet made by the other host")
    assert page.status_code == 200, page.get_data(as_text=True)
    pdf = client.get(waiting + ".pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF-")


def test_hidato_worker_does_the_jobs_of_web_hosts_that_do_none(tmp_path: Path, make_app, databases) -> None:
    instance = tmp_path / "instance"
    web = make_app(instance, GENERATE_WAIT_SECONDS=0, JOB_THREADS=0)
    env = {**os.environ, "HIDATO_INSTANCE": str(instance), "HIDATO_POOL_FILL": "0", "SECRET_KEY": "test"}
    env.pop("DATABASE_URL", None)
    url = databases.url(str(instance))
    if url:
        env["DATABASE_URL"] = url
    client = web.test_client()
    response = client.post("/new", data={"shape": "diamond", "size": "3", "difficulty": "easy", "variant": "hidato"})
    waiting = response.headers["Location"]
    assert response.status_code == 303 and waiting.startswith("/new/")
    assert "waiting for a free generator" in client.get(waiting).get_data(as_text=True)  # nobody does jobs yet
    worker = subprocess.Popen([sys.executable, "-m", "webapp.cli", "worker", "--threads", "1"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        def made(page: Any) -> bool:
            assert worker.poll() is None, worker.stderr.read().decode() if worker.stderr else ""
            return bool(page.status_code != 200)

        page = wait_until(lambda: client.get(waiting), made, 60, what="the puzzle made by `hidato worker`")
        assert page.status_code == 303 and page.headers["Location"].startswith("/p/")
    finally:
        worker.send_signal(signal.SIGTERM)
        _out, errors = worker.communicate(timeout=60)
    assert worker.returncode == 0, errors.decode()
    assert "job threads" in errors.decode()


def test_a_poll_that_finds_no_job_due_takes_no_write_lock(tmp_path: Path, make_app: Any) -> None:
    """Every server process looks for jobs about once a second: finding none must not take
    SQLite's write lock, which every entry needs (here another writer holds it all along)."""
    app: Flask = make_app(tmp_path / "instance", DATABASE_URL="")
    store = app.extensions["hidato"].store
    assert store.is_sqlite
    shared = Shared(store)
    holder = sqlite3.connect(str(make_url(store.url).database), timeout=0, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        assert shared.claim_job("poller/1/a", ["generate"], 60, MAX_ATTEMPTS, "gave up") is None
        assert time.monotonic() - started < 5  # not SQLite's 30 s wait for the lock
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    shared.add_job("e" * 32, "generate", EASY, start_within=300, keep_seconds=900)
    taken = shared.claim_job("poller/1/a", ["generate"], 60, MAX_ATTEMPTS, "gave up")
    assert taken is not None and taken.ticket == "e" * 32  # a job due is still taken
