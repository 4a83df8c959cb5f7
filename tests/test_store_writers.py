"""SQLite's writers queue (store/database.py, ``WriterQueue``): one writer at a time across
processes and threads, the next one let in the moment the lock is free, a lock freed by
``kill -9`` of its holder, and a store whose writers queue there losing no write."""

from __future__ import annotations

import multiprocessing
import os
import signal
import stat
import threading
import time
from pathlib import Path

from sqlalchemy import text

from webapp.store.database import Database, WriterQueue

# fork: the child gets the test's imports without running the test module again.
FORK = multiprocessing.get_context("fork")


def _hold(path: str, holding, release) -> None:  # noqa: ANN001 - multiprocessing's events
    """In a child process: take a turn, say so, and keep it until told (or killed)."""
    with WriterQueue(path).turn():
        holding.set()
        release.wait(30)


def _taken_in_thread(queue: WriterQueue) -> tuple[threading.Thread, threading.Event]:
    taken = threading.Event()

    def take() -> None:
        with queue.turn():
            taken.set()

    thread = threading.Thread(target=take)
    thread.start()
    return thread, taken


def test_a_writer_in_another_process_waits_and_goes_in_when_the_lock_is_free(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3-writers")
    holding, release = FORK.Event(), FORK.Event()
    child = FORK.Process(target=_hold, args=(path, holding, release))
    child.start()
    try:
        assert holding.wait(30)
        queue = WriterQueue(path)
        thread, taken = _taken_in_thread(queue)
        assert not taken.wait(0.3), "a second process took the writers' turn while another held it"
        released = time.monotonic()
        release.set()
        assert taken.wait(10)
        # Woken by the kernel, not by polling with growing sleeps (SQLite's wait sleeps up to 100 ms).
        assert time.monotonic() - released < 2
        thread.join()
        queue.close()
    finally:
        release.set()
        child.join(10)


def test_a_killed_holder_frees_the_lock(tmp_path: Path) -> None:
    path = str(tmp_path / "db.sqlite3-writers")
    holding, release = FORK.Event(), FORK.Event()
    child = FORK.Process(target=_hold, args=(path, holding, release))
    child.start()
    assert holding.wait(30)
    queue = WriterQueue(path)
    thread, taken = _taken_in_thread(queue)
    assert not taken.wait(0.3)
    assert child.pid is not None
    os.kill(child.pid, signal.SIGKILL)  # nothing runs its exit code
    child.join(10)
    assert taken.wait(10), "a writer killed with -9 kept the others out"
    thread.join()
    queue.close()


def test_threads_of_one_process_take_turns_and_a_thread_may_nest(tmp_path: Path) -> None:
    queue = WriterQueue(str(tmp_path / "db.sqlite3-writers"))
    with queue.turn():
        with queue.turn():  # a write inside a write, in one thread: no deadlock
            thread, taken = _taken_in_thread(queue)
            assert not taken.wait(0.2), "another thread went in while this one wrote"
        assert not taken.wait(0.2), "the inner turn's end let another thread in before the outer one's"
    assert taken.wait(10)
    thread.join()
    queue.close()


def _write_once(queue: WriterQueue) -> None:
    with queue.turn():
        pass


def test_a_process_forked_while_a_thread_writes_takes_its_own_turns(tmp_path: Path) -> None:
    queue = WriterQueue(str(tmp_path / "db.sqlite3-writers"))
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        with queue.turn():
            holding.set()
            release.wait(30)

    thread = threading.Thread(target=hold)
    thread.start()
    assert holding.wait(10)
    child = FORK.Process(target=_write_once, args=(queue,))
    child.start()  # forked while the other thread holds the turn
    child.join(0.3)
    assert child.exitcode is None, "the child wrote while this process held the lock"
    release.set()
    thread.join()
    child.join(20)
    if child.is_alive():
        child.kill()
    assert child.exitcode == 0, "the child inherited a lock no thread of its own could let go"
    queue.close()


def _count(url: str, writes: int) -> None:
    """In a child process: four threads adding one to the counter, each in its own transaction."""
    database = Database(url, upgrade=False)

    def add() -> None:
        for _ in range(writes):
            with database._session() as session:
                value = session.execute(text("SELECT n FROM counter")).scalar_one()
                session.execute(text("UPDATE counter SET n = :n"), {"n": value + 1})

    threads = [threading.Thread(target=add) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    database.close()


def test_writers_of_several_processes_lose_no_write(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/counter.sqlite3"
    database = Database(url, upgrade=False)
    with database._session() as session:
        session.execute(text("CREATE TABLE counter (n INTEGER NOT NULL)"))
        session.execute(text("INSERT INTO counter VALUES (0)"))
    children = [FORK.Process(target=_count, args=(url, 50)) for _ in range(3)]
    for child in children:
        child.start()
    for child in children:
        child.join(120)
        assert child.exitcode == 0
    with database._reading() as session:
        assert session.execute(text("SELECT n FROM counter")).scalar_one() == 3 * 4 * 50
    lock = tmp_path / "counter.sqlite3-writers"
    assert stat.S_IMODE(lock.stat().st_mode) == 0o600  # the owner's only, as the database
    database.close()
