"""The connection to the database, shared by every kind of record: SQLAlchemy over an
SQLite file in the instance folder by default, or the database named by ``DATABASE_URL``
(PostgreSQL); the schema brought up to date by ``schema.upgrade`` (Alembic).

Transactions that write take the write lock first (``BEGIN IMMEDIATE`` on SQLite; rows
``SELECT ... FOR UPDATE`` on PostgreSQL), so a read-modify-write never loses another's
write; transactions that only read (``_reading``) take no lock.

On SQLite, writers queue for that lock in the kernel and in the process first
(``WriterQueue``): a lock file beside the database that each process holds with
``flock`` while it writes, and one lock among its threads. SQLite's own wait for its lock
polls with sleeps that grow to 100 ms, and a writer that keeps sleeping while others
keep taking the lock waits for seconds; a queued writer is woken the moment the lock is
free, and finds SQLite's lock free at ``BEGIN IMMEDIATE``.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.orm import Session, sessionmaker

from . import schema
from .prepared import DriverTransaction, send_wrapped

# Tries at switching a new SQLite file to WAL while other processes open it too (about 10 s).
_WAL_ATTEMPTS = 100


def key_of(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


def private_sqlite_file(url: str) -> None:
    """Create a new SQLite database file readable by its owner only (SQLite gives its
    journal files the same mode); files that exist already are left as they are."""
    path = make_url(url).database if url.startswith("sqlite") else None
    if not path or path == ":memory:":
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass


def database_url(url: str | None, instance_path: str) -> str:
    """The SQLAlchemy URL: DATABASE_URL (postgres:// accepted) or the instance SQLite file."""
    if not url:
        return f"sqlite:///{instance_path}/hidato.sqlite3"
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


class WriterQueue:
    """Where an SQLite database's writers wait their turn: one thread of a process at a time
    (a lock), and one process at a time (``flock`` on a file beside the database, released
    by the kernel when its process ends, ``kill -9`` too).  Re-entrant in one thread.

    It only orders writers; SQLite's own lock (``BEGIN IMMEDIATE``) still guards the data,
    also against a writer that does not queue here (another program on the file)."""

    def __init__(self, path: str | None):
        self._threads = threading.RLock()
        self._path = path
        self._file: int | None = None  # opened on first use: after gunicorn forks its workers
        self._pid = 0
        self._depth = threading.local()
        # A process forked while one of its threads writes must not start with that thread's
        # lock held (no thread of the child would ever let it go).
        forked = weakref.WeakMethod(self._forked)
        os.register_at_fork(after_in_child=lambda: (method := forked()) is not None and method())

    def _forked(self) -> None:
        self._threads = threading.RLock()
        self._depth = threading.local()
        self._file = None

    @contextmanager
    def turn(self) -> Iterator[None]:
        with self._threads:
            depth = getattr(self._depth, "value", 0)
            self._depth.value = depth + 1
            try:
                if depth == 0 and self._path is not None:
                    held = self._lock_file()
                    fcntl.flock(held, fcntl.LOCK_EX)  # waits in the kernel, GIL released
                    try:
                        yield
                    finally:
                        fcntl.flock(held, fcntl.LOCK_UN)
                else:
                    yield
            finally:
                self._depth.value = depth

    def _lock_file(self) -> int:
        # A descriptor of this process's own: one inherited across fork shares its lock
        # with the parent's, and would not keep the two apart.
        if self._file is None or self._pid != os.getpid():
            assert self._path is not None
            self._file = os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            self._pid = os.getpid()
        return self._file

    def close(self) -> None:
        if self._file is not None and self._pid == os.getpid():
            os.close(self._file)
        self._file = None


def _writers_file(url: str) -> str | None:
    """The lock file of an SQLite file's writers (None for a database in memory)."""
    path = make_url(url).database
    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    return path + "-writers"


class Database:
    """One database's engine and its sessions (the records' classes build on it)."""

    def __init__(self, url: str, upgrade: bool = True):
        self.url = url
        self.is_sqlite = url.startswith("sqlite")
        options: dict[str, Any] = {}
        if self.is_sqlite:
            private_sqlite_file(url)
            options["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            # A server restarted under us leaves dead connections in the pool: test before use.
            options["pool_pre_ping"] = True
        self.engine = create_engine(url, **options)
        self._writers: WriterQueue | None = None
        if self.is_sqlite:
            _lock_on_begin(self.engine)
            self._writers = WriterQueue(_writers_file(url))
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # Reads begin without SQLite's write lock (WAL lets them run beside a writer); a
        # session of these must never write (it could not take the lock it skipped).
        self._read_sessions = sessionmaker(self.engine.execution_options(hidato_reading=True), expire_on_commit=False)
        # What bringing the schema up to date did ("already at 0002", "created at 0002", ...).
        self.schema_note = schema.upgrade(self.engine) if upgrade else "not checked"

    def close(self) -> None:
        self.engine.dispose()
        if self._writers is not None:
            self._writers.close()

    @contextmanager
    def _session(self) -> Iterator[Session]:
        """A transaction that writes (or may): on SQLite it waits its turn first."""
        if self._writers is None:
            with self._sessions() as session, session.begin():
                yield session
            return
        with self._writers.turn(), self._sessions() as session, session.begin():
            yield session

    @contextmanager
    def _writing(self) -> Iterator[DriverTransaction]:
        """A transaction that writes, on a pooled driver connection (``DriverTransaction``:
        no ORM session, no SQLAlchemy ``Connection`` unless a statement needs one): for the
        statements a move sends, where their bookkeeping cost more than the statements.
        On SQLite it waits its turn first, as ``_session`` does; committed before it returns."""
        if self._writers is None:
            yield from _in_transaction(DriverTransaction(self.engine, None))
            return
        with self._writers.turn():
            yield from _in_transaction(DriverTransaction(self.engine, "BEGIN IMMEDIATE"))

    @contextmanager
    def _reading(self) -> Iterator[Session]:
        """A transaction that only reads: on SQLite it does not queue behind writers."""
        with self._read_sessions() as session, session.begin():
            yield session

    def ping(self) -> None:
        """Reach the database (a health check): raises whatever the driver raises if it cannot."""
        with self.engine.execution_options(hidato_reading=True).connect() as connection:
            connection.execute(text("SELECT 1"))

def _lock_on_begin(engine: Any) -> None:
    """Make every SQLite transaction take the write lock at BEGIN (read-modify-write safe)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the sqlite3 module, issue BEGIN.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        # Turning a new file to WAL needs it to itself, and SQLite does not wait for that:
        # server processes starting together on a new file take turns.
        for attempt in range(_WAL_ATTEMPTS):
            try:
                cursor.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as err:
                if "locked" not in str(err) or attempt == _WAL_ATTEMPTS - 1:
                    raise
                time.sleep(0.02 * (1 + attempt % 10))
        # In WAL mode, NORMAL syncs the log at checkpoints, not at every commit: a commit is
        # in the log (the operating system's cache of it) when it returns, so it survives
        # any process being killed, -9 or not; only a power cut or a kernel crash can undo
        # the last commits before a checkpoint. FULL would fsync at every commit, the
        # largest part of an entry's time on a busy disk. (PostgreSQL keeps its own
        # durable defaults.) See the README, "Durability".
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        driver: Any = connection.connection.driver_connection
        if driver is not None and driver.in_transaction:
            # A move's transaction, begun on the driver already (``DriverTransaction``), whose
            # SQLAlchemy ``Connection`` joins it: nothing to begin.
            return
        reading = connection.get_execution_options().get("hidato_reading", False)
        _send_begin(connection, "BEGIN" if reading else "BEGIN IMMEDIATE")


def _send_begin(connection: Connection, sql: str) -> None:
    """Send SQLite's BEGIN straight to the driver, as ``prepared.py`` sends an entry's
    statements: through SQLAlchemy's execution (``exec_driver_sql``: an execution context,
    a result) it cost a tenth of a cell entry.  What SQLAlchemy's execution gave is kept:
    the engine's statement listeners hear of it, and a driver's error comes wrapped as
    SQLAlchemy's (``sqlalchemy.exc.OperationalError`` for "database is locked"), which
    callers catch (``rates.py``: ``DBAPIError``); a BEGIN that failed began nothing, and
    its connection goes back to the pool as after any failed statement."""
    cursor = connection.connection.cursor()
    try:
        send_wrapped(connection, cursor, sql)
    finally:
        cursor.close()


def _in_transaction(transaction: DriverTransaction) -> Iterator[DriverTransaction]:
    """Hand out ``transaction``, then commit it (before the caller's answer is sent), or
    roll it back if the caller raised."""
    try:
        yield transaction
    except BaseException:
        transaction.rollback()
        raise
    transaction.commit()
