"""webapp.store on a real database (SQLite, and PostgreSQL under make test): puzzles, the
pool, progress written atomically, and what several server processes share."""

from __future__ import annotations

import threading
from datetime import date
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from engine import generate_shape, grade, puzzle_to_id
from webapp.core.game import CellMove, Game, State
from webapp.core.stored import StoredPuzzle, stored_from
from webapp.store.store import Store, database_url

from puzzle_files import DATA, load

PUZZLE, SOLUTION = load(DATA / "seed000-5x5.txt")
CODE = puzzle_to_id(PUZZLE)
OPEN = [cell for cell in PUZZLE.board.cells if cell not in PUZZLE.givens]


@pytest.fixture
def store(tmp_path: Path, databases):
    """An empty store on each backend (conftest: SQLite, and PostgreSQL under make test)."""
    found = Store(database_url(databases.url("store"), str(tmp_path)))
    yield found
    found.close()


def stored(code_puzzle=PUZZLE, **extra) -> StoredPuzzle:
    return StoredPuzzle(puzzle_to_id(code_puzzle), code_puzzle, SOLUTION, **extra)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (None, "sqlite:////srv/instance/hidato.sqlite3"),
        ("", "sqlite:////srv/instance/hidato.sqlite3"),
        ("postgres://u:p@db/hidato", "postgresql+psycopg://u:p@db/hidato"),
        ("postgresql://u@db/hidato", "postgresql+psycopg://u@db/hidato"),
        ("postgresql+psycopg://u@db/h", "postgresql+psycopg://u@db/h"),
        ("sqlite:///other.db", "sqlite:///other.db"),
    ],
)
def test_database_url(url: str | None, expected: str) -> None:
    assert database_url(url, "/srv/instance") == expected


def test_puzzles_round_trip_and_are_stored_once(store: Store) -> None:
    first = store.save_puzzle(stored(shape="ring", size=5, difficulty="easy", seed=7,
                                     grade={"level": "easy", "techniques": {"single": 3}}))
    again = store.save_puzzle(stored(shape="other"))
    assert again.shape == "ring" and again.seed == 7
    found = store.find_puzzle(CODE)
    assert found is not None
    assert found.puzzle == PUZZLE and found.solution == SOLUTION
    assert found.grade == {"level": "easy", "techniques": {"single": 3}}
    assert first.code == found.code == CODE
    assert store.find_puzzle("1x1:a") is None


def test_a_generated_puzzle_keeps_its_rating_and_an_old_grade_loads_without_one(store: Store) -> None:
    made = generate_shape("diamond", 4, "medium", "king", seed=3)
    found = store.find_puzzle(store.save_puzzle(stored_from(made)).code)
    assert found is not None and found.grade is not None
    assert found.rating_text == made.grade.rating.text == grade(made.puzzle).rating.text
    assert found.grade["length"] == made.grade.rating.length and found.grade["level"] == "medium"
    store.save_puzzle(stored(grade={"level": "easy", "techniques": {"single": 3}}))
    old = store.find_puzzle(CODE)
    assert old is not None and old.rating_text is None


def test_pool_hands_each_puzzle_out_once(store: Store) -> None:
    other, other_solution = load(DATA / "classic-8x8-40.txt")
    store.save_puzzle(stored(shape="s", size=5, difficulty="expert"), pooled=True)
    store.save_puzzle(StoredPuzzle(puzzle_to_id(other), other, other_solution, shape="s", size=5,
                                   difficulty="expert"), pooled=True)
    assert store.pool_counts() == {("s", 5, "expert", "king"): 2}
    taken = {store.take_from_pool("s", 5, "expert", "king").code for _ in range(2)}  # type: ignore[union-attr]
    assert taken == {CODE, puzzle_to_id(other)}
    assert store.take_from_pool("s", 5, "expert", "king") is None
    assert store.pool_counts() == {}


def test_daily_puzzle_is_one_per_date(store: Store) -> None:
    day = date(2026, 5, 1)
    store.save_puzzle(stored(daily=day))
    found = store.daily(day)
    assert found is not None and found.code == CODE
    assert store.daily(date(2026, 5, 2)) is None


def test_progress_round_trip(store: Store) -> None:
    store.save_puzzle(stored())
    assert store.load_progress("p1", CODE) is None

    cell, value = OPEN[0], SOLUTION[OPEN[0]]

    def change(state: State) -> str:
        Game(PUZZLE, SOLUTION, state).enter(cell, value)
        state.mistakes = 2
        return "done"

    saved, result = store.update_progress("p1", CODE, change)
    assert result == "done"
    loaded = store.load_progress("p1", CODE)
    assert loaded is not None and loaded == saved
    assert loaded.entries == {cell: value} and loaded.moves.get(1) == CellMove(cell, 0, value)
    assert loaded.undo_pos == loaded.redo_top == 1 and loaded.mistakes == 2 and loaded.started is not None
    assert store.load_progress("p2", CODE) is None
    [summary] = store.list_progress("p1")
    assert summary.filled == 1 and summary.total == 10 and summary.puzzle.code == CODE
    with pytest.raises(LookupError):
        store.update_progress("p1", "1x1:a", change)


def test_concurrent_entries_are_never_lost(store: Store) -> None:
    store.save_puzzle(stored())
    cells = [c for c in PUZZLE.board.cells if c not in PUZZLE.givens]
    barrier = threading.Barrier(len(cells))
    errors: list[BaseException] = []

    def enter(cell: tuple[int, int]) -> None:
        try:
            barrier.wait()
            store.update_progress("p", CODE, lambda state: state.entries.__setitem__(cell, SOLUTION[cell]))
        except BaseException as err:  # noqa: BLE001 - reported below
            errors.append(err)

    threads = [threading.Thread(target=enter, args=(cell,)) for cell in cells]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    loaded = store.load_progress("p", CODE)
    assert loaded is not None and loaded.entries == {c: SOLUTION[c] for c in cells}


def test_reads_do_not_wait_for_a_writer_on_sqlite(tmp_path: Path) -> None:
    """A transaction holding SQLite's write lock (an entry being saved) does not hold up a
    page's reads: they begin without the lock and see the last commit."""
    url = database_url(None, str(tmp_path))
    store, other = Store(url), Store(url, upgrade=False)
    try:
        store.save_puzzle(stored())
        store.update_progress("p1", CODE, lambda state: state.entries.__setitem__(OPEN[0], 4))
        writer = other.engine.raw_connection()
        writer.execute("BEGIN IMMEDIATE")  # the write lock, held (sqlite3's own connection)
        try:
            other_reader = Store(url, upgrade=False)
            try:
                # A new process's first look: nothing cached, so these reach the database.
                assert other_reader.find_puzzle(CODE) is not None
                found = other_reader.load_progress("p1", CODE)
                assert found is not None and found.entries == {OPEN[0]: 4}
                assert [summary.puzzle.code for summary in other_reader.list_progress("p1")] == [CODE]
                other_reader.ping()
            finally:
                other_reader.close()
        finally:
            writer.rollback()
            writer.close()
    finally:
        other.close()
        store.close()


def test_a_locked_sqlite_database_says_so_as_sqlalchemy_does(tmp_path: Path) -> None:
    """BEGIN IMMEDIATE goes straight to the driver (database._send_begin), but a database
    still locked when SQLite stops waiting comes as SQLAlchemy's OperationalError, which
    callers catch (rates.py), and the connection serves the next transaction."""
    url = database_url(None, str(tmp_path))
    store = Store(url)
    holder = Store(url, upgrade=False).engine.raw_connection()
    try:
        with store.engine.connect() as connection:  # the pool's one connection, waiting 50 ms
            connection.exec_driver_sql("PRAGMA busy_timeout=50")
        holder.execute("BEGIN IMMEDIATE")  # the write lock, held by sqlite3's own connection
        with pytest.raises(OperationalError, match="locked"):
            store.count_hit("client", "kind", 0)
        holder.rollback()
        assert store.count_hit("client", "kind", 0) == 1
    finally:
        holder.close()
        store.close()


def test_a_move_on_a_locked_sqlite_database_says_so_as_sqlalchemy_does(tmp_path: Path) -> None:
    """A move's BEGIN IMMEDIATE is sent on the driver connection (``DriverTransaction``): a
    database still locked when SQLite stops waiting comes as SQLAlchemy's OperationalError,
    the connection goes back to the pool, and the next move is saved."""
    url = database_url(None, str(tmp_path))
    store = Store(url)
    store.save_puzzle(StoredPuzzle(CODE, PUZZLE, SOLUTION))
    holder = Store(url, upgrade=False).engine.raw_connection()
    cell = OPEN[0]

    def enter(state: State) -> bool:
        return Game(PUZZLE, SOLUTION, state).enter(cell, 1)

    try:
        with store.engine.connect() as connection:  # the pool's one connection, waiting 50 ms
            connection.exec_driver_sql("PRAGMA busy_timeout=50")
        holder.execute("BEGIN IMMEDIATE")
        with pytest.raises(OperationalError, match="locked"):
            store.update_progress("p", CODE, enter)
        assert store.engine.pool.checkedout() == 0  # type: ignore[attr-defined]
        holder.rollback()
        store.update_progress("p", CODE, enter)
        saved = store.load_progress("p", CODE)
        assert saved is not None and saved.entries == {cell: 1}
    finally:
        holder.close()
        store.close()


def test_sqlite_commits_are_in_the_write_ahead_log_without_an_fsync_each(tmp_path: Path) -> None:
    """WAL with synchronous=NORMAL (the README's "Durability" says why)."""
    store = Store(database_url(None, str(tmp_path)))
    try:
        with store.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    finally:
        store.close()
