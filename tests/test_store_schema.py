"""Schema migrations (webapp/store/schema.py, Alembic) on real databases: a database made by
each release before migrations (v0: commit 589f385; v1: 4ffa869, which added the unplayable
table), with games in it, upgraded to the latest schema with every
game intact; a new database made at the latest schema; both the same as the models say."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text

from engine import format_puzzle, puzzle_to_id
from webapp.core.game import Game
from webapp.store import schema
from webapp.store.models import Base
from webapp.store.store import Store, database_url

from puzzle_files import DATA, load

SCHEMAS = Path(__file__).parent / "data" / "schema"
RELEASES = ["v0", "v1"]
PUZZLES = [load(DATA / name) for name in ("seed000-5x5.txt", "classic-8x8-40.txt")]
T0 = datetime(2026, 11, 1, 9, 30)


def _old_database(url: str, dialect: str, release: str) -> list[tuple[str, str, dict[tuple[int, int], int]]]:
    """A database as the old release made it, with puzzles and players' games; what was saved."""
    engine = create_engine(url)
    saved = []
    with engine.begin() as connection:
        # Each release's file holds what it added to the one before.
        files = [SCHEMAS / f"{name}-{dialect}.sql" for name in RELEASES[: RELEASES.index(release) + 1]]
        ddl = "\n".join(line for path in files for line in path.read_text().splitlines()
                        if not line.startswith("--"))
        for statement in ddl.split(";"):
            if statement.strip():
                connection.exec_driver_sql(statement)
        for number, (puzzle, solution) in enumerate(PUZZLES, start=1):
            code = puzzle_to_id(puzzle)
            connection.execute(text(
                "INSERT INTO puzzles (id, key, code, shape, size, adjacency, difficulty, grade, puzzle, solution, "
                "seed, created, pooled, daily) VALUES (:id, :key, :code, 'custom', NULL, 'king', NULL, NULL, "
                ":puzzle, :solution, NULL, :created, :pooled, NULL)"),
                {"id": number, "key": hashlib.sha256(code.encode()).hexdigest(), "code": code,
                 "puzzle": format_puzzle(puzzle), "solution": format_puzzle(puzzle, solution), "created": T0,
                 "pooled": False})
            open_cells = [c for c in puzzle.board.cells if c not in puzzle.givens][:3]
            entries = {cell: solution[cell] for cell in open_cells}
            for player in (f"player-a{number}", f"player-b{number}"):
                connection.execute(text(
                    "INSERT INTO progress (player, puzzle_id, entries, history, undo_pos, mistakes, elapsed, "
                    "clock_started, paused, last_activity, started, updated, solved_at, revealed) VALUES "
                    "(:player, :puzzle_id, :entries, :history, :undo_pos, 2, 93.5, NULL, :paused, :t0, :t0, :t0, "
                    "NULL, :revealed)"),
                    {"player": player, "puzzle_id": number,
                     "entries": json.dumps([[r, c, v] for (r, c), v in entries.items()]),
                     "history": json.dumps([[r, c, 0, v] for (r, c), v in entries.items()]),
                     "undo_pos": len(entries), "paused": False, "revealed": False, "t0": T0})
                saved.append((player, code, entries))
    engine.dispose()
    return saved


@pytest.mark.parametrize(("release", "note"), [("v0", "upgraded from 0001"), ("v1", "upgraded from 0002")])
def test_an_old_database_is_upgraded_with_every_game_intact(tmp_path: Path, databases, release, note) -> None:
    url = database_url(databases.url(f"old{release}"), str(tmp_path))
    saved = _old_database(url, databases.backend, release)
    store = Store(url)  # as a server process starting on it does (hidato db upgrade does the same)
    try:
        assert store.schema_note.startswith(note)
        with store.engine.connect() as connection:
            assert schema.current(connection) == schema.head()
            assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        for player, code, entries in saved:
            state = store.load_progress(player, code)
            assert state is not None and state.entries == entries, (player, code)
            assert state.mistakes == 2 and state.elapsed == 93.5 and state.undo_pos == len(entries)
            stored = store.find_puzzle(code)
            assert stored is not None
            assert Game(stored.puzzle, stored.solution, state).can_undo()
        assert {g.puzzle.code for g in store.list_progress(saved[0][0])} == {saved[0][1]}
        # And the upgraded database takes new writes of every kind.
        player, code, _entries = saved[0]
        store.update_progress(player, code, lambda state: state.entries.update({(0, 0): 16}))
        store.update_progress(player, code, lambda state: state.notes.update({(0, 1): {3, 4}}))
        reloaded = store.load_progress(player, code)
        assert reloaded is not None and reloaded.notes == {(0, 1): {3, 4}}
        store.save_unplayable("1x2:ab", "no solution")
        assert store.find_unplayable("1x2:ab") == "no solution"
    finally:
        store.close()
    again = Store(url)
    try:
        assert again.schema_note == f"already at {schema.head()}"
    finally:
        again.close()


def test_a_new_database_is_made_at_the_latest_schema(tmp_path: Path, databases) -> None:
    store = Store(database_url(databases.url("new"), str(tmp_path)))
    try:
        assert store.schema_note == f"created at {schema.head()}"
        with store.engine.connect() as connection:
            assert schema.current(connection) == schema.head()
            assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    finally:
        store.close()


def test_every_migration_runs_from_the_baseline(tmp_path: Path, databases) -> None:
    """An empty baseline database upgraded step by step matches the models too."""
    url = database_url(databases.url("steps"), str(tmp_path))
    engine = create_engine(url)
    with engine.begin() as connection:
        config = schema.alembic_config(connection)
        command.upgrade(config, schema.BASELINE)
        command.upgrade(config, "head")
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    engine.dispose()


def test_pooled_puzzles_from_before_ratings_are_dropped_and_played_ones_kept(tmp_path: Path, databases) -> None:
    """0004: the pool refills with rated puzzles; nothing a player has touched goes."""
    url = database_url(databases.url("rated"), str(tmp_path))
    engine = create_engine(url)
    old_grade = json.dumps({"level": "hard", "techniques": {"path": 3}})
    new_grade = json.dumps({"level": "hard", "rating": 3.4, "length": 3, "uses": {"1": 20, "3": 1}})
    rows = {"old-pooled": (old_grade, True), "new-pooled": (new_grade, True), "old-played": (old_grade, True),
            "old-served": (old_grade, False)}
    with engine.begin() as connection:
        config = schema.alembic_config(connection)
        command.upgrade(config, "0003")
        for number, (name, (grade, pooled)) in enumerate(rows.items(), start=1):
            puzzle, solution = PUZZLES[0]
            connection.execute(text(
                "INSERT INTO puzzles (id, key, code, shape, size, adjacency, difficulty, grade, puzzle, solution, "
                "seed, created, pooled, daily) VALUES (:id, :key, :code, 'rectangle', 5, 'king', 'hard', :grade, "
                ":puzzle, :solution, 1, :created, :pooled, NULL)"),
                {"id": number, "key": name, "code": name, "grade": grade, "puzzle": format_puzzle(puzzle),
                 "solution": format_puzzle(puzzle, solution), "created": T0, "pooled": pooled})
        connection.execute(text(
            "INSERT INTO progress (player, puzzle_id, entries, history, undo_pos, mistakes, elapsed, paused, "
            "started, updated, revealed) VALUES ('p', 3, '[]', '[]', 0, 0, 0, :no, :t0, :t0, :no)"),
            {"no": False, "t0": T0})
        command.upgrade(config, "head")
        left = {row[0] for row in connection.execute(text("SELECT key FROM puzzles"))}
    engine.dispose()
    assert left == {"new-pooled", "old-played", "old-served"}
