"""Storage of puzzles and players' progress: the one class that talks to the database.

SQLAlchemy over an SQLite file in the instance folder by default, or the database named
by ``DATABASE_URL`` (PostgreSQL).  The tables are in ``models.py`` and brought to the
latest schema by ``schema.upgrade`` (Alembic); the other layers get plain dataclasses
back, never ORM rows.

Writes of a player's progress are read-modify-write in one transaction that takes the
write lock first (``BEGIN IMMEDIATE`` on SQLite, ``SELECT ... FOR UPDATE`` on
PostgreSQL), so two quick entries from the same browser never overwrite each other.

Several server processes, on one host or many, may share one database: the hit counts
of the per-client rate limit live here; jobs, claims and the shared key in ``shared.py``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, TypeVar

from sqlalchemy import create_engine, delete, event, func, select, text
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from engine import format_puzzle, parse_puzzle

from ..core.game import State, utcnow
from ..core.stored import StoredPuzzle
from . import schema
from .models import ProgressRow, PuzzleRow, RateRow, UnplayableRow
from .progress_codec import fill_row, state_from_row

T = TypeVar("T")
# Tries at switching a new SQLite file to WAL while other processes open it too (about 10 s).
_WAL_ATTEMPTS = 100
# Rate-limit counts older than this are deleted now and then (longer than any window).
RATE_KEEP_SECONDS = 3600
# Stored puzzles each server process keeps in memory (a 30x30 one is a few hundred KB).
PUZZLE_CACHE_SIZE = 256


@dataclass(frozen=True)
class ProgressSummary:
    """One line of a player's list of puzzles."""

    puzzle: StoredPuzzle
    state: State
    updated: datetime
    filled: int = 0
    total: int = 0


@dataclass(frozen=True)
class DailyRecord:
    """A player's puzzles of the day: the days solved, and their game on today's (None: not begun)."""

    solved: frozenset[date]
    today: State | None


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


class Store:
    """The database: puzzles, the pool, puzzles of the day and players' progress."""

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
        if self.is_sqlite:
            _lock_on_begin(self.engine)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # Reads begin without SQLite's write lock (WAL lets them run beside a writer); a
        # session of these must never write (it could not take the lock it skipped).
        self._read_sessions = sessionmaker(self.engine.execution_options(hidato_reading=True), expire_on_commit=False)
        self._hits_counted = 0
        # Stored puzzles never change (but for becoming a puzzle of the day, which
        # save_puzzle tells this cache), so each process keeps the ones in play: an entry
        # then costs no puzzle lookup and no parsing of the board.
        self._puzzles: OrderedDict[str, StoredPuzzle] = OrderedDict()
        self._puzzles_lock = threading.Lock()
        # What bringing the schema up to date did ("already at 0002", "created at 0002", ...).
        self.schema_note = schema.upgrade(self.engine) if upgrade else "not checked"

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def _session(self) -> Iterator[Session]:
        with self._sessions() as session, session.begin():
            yield session

    @contextmanager
    def _reading(self) -> Iterator[Session]:
        """A transaction that only reads: on SQLite it does not queue behind writers."""
        with self._read_sessions() as session, session.begin():
            yield session

    def ping(self) -> None:
        """Reach the database (a health check): raises whatever the driver raises if it cannot."""
        with self.engine.execution_options(hidato_reading=True).connect() as connection:
            connection.execute(text("SELECT 1"))

    # --- puzzles --------------------------------------------------------------------

    def find_puzzle(self, code: str) -> StoredPuzzle | None:
        """The stored puzzle with this compact id, or None."""
        with self._puzzles_lock:
            cached = self._puzzles.get(code)
            if cached is not None:
                self._puzzles.move_to_end(code)
                return cached
        with self._reading() as session:
            row = session.scalar(select(PuzzleRow).where(PuzzleRow.key == key_of(code)))
            found = _stored(row) if row else None
        if found is not None:
            self._remember(code, found)
        return found

    def short_code(self, code: str) -> str | None:
        """A stored puzzle's short code (its row number in base 36), for printed links."""
        with self._reading() as session:
            found = session.scalar(select(PuzzleRow.id).where(PuzzleRow.key == key_of(code)))
            return _base36(found) if found is not None else None

    def find_short(self, short: str) -> StoredPuzzle | None:
        """The stored puzzle a short code names, or None."""
        if not short or len(short) > 7 or not short.isalnum() or not short.isascii():
            return None
        number = int(short.lower(), 36)
        if number > 2**31 - 1:  # past any row id (an INTEGER column)
            return None
        with self._reading() as session:
            row = session.get(PuzzleRow, number)
            return _stored(row) if row else None

    def _remember(self, code: str, stored: StoredPuzzle | None) -> None:
        """Keep (or, with None, forget) a stored puzzle in this process's cache."""
        with self._puzzles_lock:
            if stored is None:
                self._puzzles.pop(code, None)
                return
            self._puzzles[code] = stored
            self._puzzles.move_to_end(code)
            while len(self._puzzles) > PUZZLE_CACHE_SIZE:
                self._puzzles.popitem(last=False)

    def save_puzzle(self, stored: StoredPuzzle, pooled: bool = False) -> StoredPuzzle:
        """Store a puzzle (kept as it is if already there); returns what is stored."""
        try:
            with self._session() as session:
                row = session.scalar(select(PuzzleRow).where(PuzzleRow.key == key_of(stored.code)))
                if row is None:
                    row = _row(stored, pooled)
                    session.add(row)
                    session.flush()
                elif stored.daily and row.daily is None and not pooled:
                    row.daily = stored.daily
                    self._remember(stored.code, None)
                return _stored(row)
        except IntegrityError:
            # Saved at the same moment by another request, or the date already has one.
            found = self.daily(stored.daily) if stored.daily else None
            return found or self.find_puzzle(stored.code) or stored

    def find_unplayable(self, code: str) -> str | None:
        """Why this id cannot be played, if it was found so before."""
        with self._reading() as session:
            row = session.get(UnplayableRow, key_of(code))
            return row.message if row else None

    def save_unplayable(self, code: str, message: str) -> None:
        """Remember that this id cannot be played, and why."""
        try:
            with self._session() as session:
                if session.get(UnplayableRow, key_of(code)) is None:
                    session.add(UnplayableRow(key=key_of(code), message=message, created=utcnow()))
        except IntegrityError:
            pass  # remembered at the same moment by another request

    def take_from_pool(self, shape: str, size: int, difficulty: str, adjacency: str) -> StoredPuzzle | None:
        """Hand out the oldest pooled puzzle made with these options, or None."""
        with self._session() as session:
            query = (
                select(PuzzleRow)
                .where(
                    PuzzleRow.pooled.is_(True),
                    PuzzleRow.shape == shape,
                    PuzzleRow.size == size,
                    PuzzleRow.difficulty == difficulty,
                    PuzzleRow.adjacency == adjacency,
                )
                .order_by(PuzzleRow.id)
                .limit(1)
                .with_for_update(skip_locked=True)
            )
            row = session.scalar(query)
            if row is None:
                return None
            row.pooled = False
            return _stored(row)

    def pool_counts(self) -> dict[tuple[str, int, str, str], int]:
        """Pooled puzzles waiting, by (shape, size, difficulty, adjacency)."""
        with self._reading() as session:
            query = (
                select(PuzzleRow.shape, PuzzleRow.size, PuzzleRow.difficulty, PuzzleRow.adjacency,
                       func.count())
                .where(PuzzleRow.pooled.is_(True))
                .group_by(PuzzleRow.shape, PuzzleRow.size, PuzzleRow.difficulty, PuzzleRow.adjacency)
            )
            return {(s, n or 0, d or "", a): count for s, n, d, a, count in session.execute(query)}

    def daily(self, day: date) -> StoredPuzzle | None:
        """The puzzle of the day for ``day``, if made."""
        with self._reading() as session:
            row = session.scalar(select(PuzzleRow).where(PuzzleRow.daily == day))
            return _stored(row) if row else None

    def dailies(self, before: date, limit: int = 60) -> list[StoredPuzzle]:
        """The puzzles of past days (before ``before``), the latest first: the archive."""
        with self._reading() as session:
            rows = session.scalars(select(PuzzleRow).where(PuzzleRow.daily < before)
                                   .order_by(PuzzleRow.daily.desc()).limit(limit))
            return [_stored(row) for row in rows]

    # --- progress -------------------------------------------------------------------

    def load_progress(self, player: str, code: str) -> State | None:
        """A player's saved game on a puzzle, or None if they never played it."""
        with self._reading() as session:
            row = session.scalar(
                select(ProgressRow)
                .join(PuzzleRow, ProgressRow.puzzle_id == PuzzleRow.id)
                .where(ProgressRow.player == player, PuzzleRow.key == key_of(code))
            )
            return state_from_row(row) if row else None

    def update_progress(self, player: str, code: str, change: Callable[[State], T],
                        puzzle_id: int | None = None) -> tuple[State, T]:
        """Run ``change`` on the player's game (a new one if none) and save it, atomically.

        The puzzle must be stored already (``puzzle_id``, its ``row_id``, saves looking it
        up).  Returns the saved state and what ``change`` returned.
        """
        for attempt in range(3):
            try:
                done = self._update_progress(player, code, change, create=True, puzzle_id=puzzle_id)
                assert done is not None
                return done
            except IntegrityError:
                # Two first moves at once on PostgreSQL (no row to lock yet): the loser retries.
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def update_existing_progress(self, player: str, code: str, change: Callable[[State], Any]) -> bool:
        """Like ``update_progress`` for a game the player has already started; whether there was one."""
        return self._update_progress(player, code, change, create=False) is not None

    def _update_progress(self, player: str, code: str, change: Callable[[State], T],
                         create: bool, puzzle_id: int | None = None) -> tuple[State, T] | None:
        with self._session() as session:
            if puzzle_id is None:
                puzzle_id = session.scalar(select(PuzzleRow.id).where(PuzzleRow.key == key_of(code)))
            if puzzle_id is None:
                raise LookupError(f"puzzle {code!r} is not stored")
            row = session.scalar(
                select(ProgressRow)
                .where(ProgressRow.player == player, ProgressRow.puzzle_id == puzzle_id)
                .with_for_update()
            )
            if row is None and not create:
                return None
            state = state_from_row(row) if row else State()
            result = change(state)
            now = utcnow()
            if row is None:
                row = ProgressRow(player=player, puzzle_id=puzzle_id, started=state.started or now)
                session.add(row)
            fill_row(row, state, now)
            return state, result

    def list_progress(self, player: str) -> list[ProgressSummary]:
        """Every puzzle the player has played, the most recently played first."""
        with self._reading() as session:
            query = (
                select(ProgressRow, PuzzleRow)
                .join(PuzzleRow, ProgressRow.puzzle_id == PuzzleRow.id)
                .where(ProgressRow.player == player)
                .order_by(ProgressRow.updated.desc(), ProgressRow.id.desc())
            )
            return [_summary(progress, puzzle) for progress, puzzle in session.execute(query)]

    def daily_record(self, player: str, today: date) -> DailyRecord:
        """The days whose puzzle of the day the player solved, and their game on today's:
        one query, on the player's rows for puzzles of the day only."""
        with self._reading() as session:
            query = (
                select(PuzzleRow.daily, ProgressRow)
                .join(PuzzleRow, ProgressRow.puzzle_id == PuzzleRow.id)
                .where(ProgressRow.player == player, PuzzleRow.daily.is_not(None),
                       (ProgressRow.solved_at.is_not(None)) | (PuzzleRow.daily == today))
            )
            solved: set[date] = set()
            state = None
            for day, progress in session.execute(query):
                if progress.solved_at is not None and day is not None:
                    solved.add(day)
                if day == today:
                    state = state_from_row(progress)
            return DailyRecord(frozenset(solved), state)

    def last_unfinished(self, player: str, besides: str | None = None) -> ProgressSummary | None:
        """The player's most recently played game that is neither solved nor revealed
        (``besides``: but this puzzle's), or None."""
        with self._reading() as session:
            query = (
                select(ProgressRow, PuzzleRow)
                .join(PuzzleRow, ProgressRow.puzzle_id == PuzzleRow.id)
                .where(ProgressRow.player == player, ProgressRow.solved_at.is_(None),
                       ProgressRow.revealed.is_(False))
                .order_by(ProgressRow.updated.desc(), ProgressRow.id.desc())
                .limit(1)
            )
            if besides is not None:
                query = query.where(PuzzleRow.key != key_of(besides))
            found = session.execute(query).first()
            return _summary(*found) if found is not None else None

    # --- rate limits (shared by every server process) --------------------------------

    def count_hit(self, client: str, kind: str, window: int) -> int:
        """Count one use of ``kind`` by ``client`` in the window starting at ``window``; the count so far."""
        insert = sqlite_insert if self.is_sqlite else postgresql_insert
        statement = insert(RateRow).values(client=client, kind=kind, window=window, hits=1)
        statement = statement.on_conflict_do_update(
            index_elements=[RateRow.client, RateRow.kind, RateRow.window],
            set_={"hits": RateRow.__table__.c.hits + 1},
        )
        with self._session() as session:
            session.execute(statement)
            hits = session.scalar(select(RateRow.hits).where(
                RateRow.client == client, RateRow.kind == kind, RateRow.window == window))
        self._hits_counted += 1
        if self._hits_counted % 100 == 1:
            self._forget_old_hits(window - RATE_KEEP_SECONDS)
        return int(hits or 0)

    def _forget_old_hits(self, before: int) -> None:
        # Its own transaction, holding no other lock, so it cannot deadlock with a count;
        # best effort: a clash with another process's clean-up is left for the next time.
        try:
            with self._session() as session:
                session.execute(delete(RateRow).where(RateRow.window < before))
        except DBAPIError:
            pass


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
    def _begin(connection: Any) -> None:
        reading = connection.get_execution_options().get("hidato_reading", False)
        connection.exec_driver_sql("BEGIN" if reading else "BEGIN IMMEDIATE")


def _row(stored: StoredPuzzle, pooled: bool) -> PuzzleRow:
    return PuzzleRow(
        key=key_of(stored.code),
        code=stored.code,
        shape=stored.shape,
        size=stored.size,
        adjacency=stored.adjacency,
        difficulty=stored.difficulty,
        grade=json.dumps(stored.grade) if stored.grade is not None else None,
        puzzle=format_puzzle(stored.puzzle),
        solution=format_puzzle(stored.puzzle, stored.solution),
        seed=stored.seed,
        created=stored.created or utcnow(),
        pooled=pooled,
        daily=None if pooled else stored.daily,
    )


def _stored(row: PuzzleRow) -> StoredPuzzle:
    puzzle = parse_puzzle(row.puzzle)
    solution = dict(parse_puzzle(row.solution, adjacency=puzzle.board.adjacency).givens)
    return StoredPuzzle(
        code=row.code,
        puzzle=puzzle,
        solution=solution,
        shape=row.shape,
        size=row.size,
        difficulty=row.difficulty,
        grade=json.loads(row.grade) if row.grade else None,
        seed=row.seed,
        created=row.created,
        daily=row.daily,
        row_id=row.id,
    )


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


def _summary(progress: ProgressRow, puzzle: PuzzleRow) -> ProgressSummary:
    stored = _stored(puzzle)
    state = state_from_row(progress)
    total = stored.puzzle.size - len(stored.puzzle.givens)
    return ProgressSummary(stored, state, progress.updated, len(state.entries), total)
