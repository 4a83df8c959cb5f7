"""Migration 0007 (webapp/store/migrations/versions/0007_moves.py) on real databases: games
saved at 0006 (the history as one JSON list, the game before a Restart beside it) are
upgraded and play on exactly as before, Undo, Redo and the Restart's Undo included; and a
downgrade writes the moves back into the old columns, which upgrade again to the same game."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import create_engine, inspect, text

from engine import format_puzzle, puzzle_to_id
from webapp.core.game import Game, State
from webapp.store import schema
from webapp.store.store import Store, database_url

from puzzle_files import DATA, load

PUZZLE, SOLUTION = load(DATA / "seed000-5x5.txt")
CODE = puzzle_to_id(PUZZLE)
A, B, C, D, X = [cell for cell in PUZZLE.board.cells if cell not in PUZZLE.givens][:5]
T0 = datetime(2026, 11, 20, 18, 0)

Cell = tuple[int, int]


def moves(*moves: tuple[Cell, int, int]) -> list[list[int]]:
    """A history as 0006 wrote it: [[row, col, old, new], ...]."""
    return [[cell[0], cell[1], old, new] for cell, old, new in moves]


def board(entries: dict[Cell, int]) -> list[list[int]]:
    return [[r, c, v] for (r, c), v in sorted(entries.items())]


# What 0006 saved of each player's game: (entries, history, undo_pos, mistakes, notes, before_restart)
GAMES: dict[str, tuple[dict[Cell, int], list[list[int]], int, int, list[Any], dict[str, Any] | None]] = {
    # Three moves, the last one undone (Redo would apply it).
    "plain": ({A: 2, B: 3}, moves((A, 0, 2), (B, 0, 3), (A, 2, 0)), 2, 1, [], None),
    # Restarted after a, b and c (c undone before the Restart), then x entered.
    "restarted": ({X: 2}, moves((X, 0, 2)), 1, 0, [],
                  {"entries": board({A: 2, B: 3}), "history": moves((A, 0, 2), (B, 0, 3), (C, 0, 4)), "undo_pos": 2,
                   "mistakes": 1, "notes": [[D[0], D[1], [3, 5]]]}),
    # Restarted, nothing since.
    "just restarted": ({}, [], 0, 0, [],
                       {"entries": board({A: 2}), "history": moves((A, 0, 2)), "undo_pos": 1, "mistakes": 0,
                        "notes": []}),
    # Never an entry (a note only).
    "notes only": ({}, [], 0, 0, [[D[0], D[1], [4]]], None),
}


@pytest.fixture
def url(tmp_path: Path, databases) -> Iterator[str]:
    """A database at revision 0006 holding GAMES on one puzzle."""
    found = database_url(databases.url("at0006"), str(tmp_path))
    engine = create_engine(found)
    with engine.begin() as connection:
        command.upgrade(schema.alembic_config(connection), "0006")
        connection.execute(text(
            "INSERT INTO puzzles (id, key, code, shape, size, adjacency, difficulty, grade, puzzle, solution, seed, "
            "created, pooled, daily) VALUES (1, :key, :code, 'custom', NULL, 'king', NULL, NULL, :puzzle, :solution, "
            "NULL, :t0, :no, NULL)"),
            {"key": hashlib.sha256(CODE.encode()).hexdigest(), "code": CODE, "puzzle": format_puzzle(PUZZLE),
             "solution": format_puzzle(PUZZLE, SOLUTION), "t0": T0, "no": False})
        for player, (entries, history, undo_pos, mistakes, notes, before) in GAMES.items():
            connection.execute(text(
                "INSERT INTO progress (player, puzzle_id, entries, history, undo_pos, mistakes, elapsed, "
                "clock_started, paused, last_activity, started, updated, solved_at, revealed, notes, before_restart) "
                "VALUES (:player, 1, :entries, :history, :undo_pos, :mistakes, 61.0, NULL, :no, :t0, :t0, :t0, NULL, "
                ":no, :notes, :before)"),
                {"player": player, "entries": json.dumps(board(entries)), "history": json.dumps(history),
                 "undo_pos": undo_pos, "mistakes": mistakes, "notes": json.dumps(notes),
                 "before": json.dumps(before) if before else None, "no": False, "t0": T0})
    engine.dispose()
    yield found


def play(store: Store, player: str, action: str) -> dict[Cell, int]:
    """Undo or Redo as one request; the player's board after it."""
    store.update_progress(player, CODE, lambda state: getattr(Game(PUZZLE, SOLUTION, state), action)(T0))
    state = store.load_progress(player, CODE)
    assert state is not None
    return state.entries


def test_every_game_plays_on_after_the_upgrade(url: str) -> None:
    store = Store(url)
    try:
        assert store.schema_note == f"upgraded from 0006 to {schema.head()}"
        for player, (entries, _history, _pos, mistakes, notes, _before) in GAMES.items():
            state = store.load_progress(player, CODE)
            assert state is not None and state.entries == entries and state.mistakes == mistakes, player
            assert state.notes == {(r, c): set(marks) for r, c, marks in notes} and state.elapsed == 61.0
        assert [play(store, "plain", "undo") for _ in range(3)] == [{A: 2}, {}, {}]
        assert [play(store, "plain", "redo") for _ in range(4)] == [{A: 2}, {A: 2, B: 3}, {B: 3}, {B: 3}]

        state = store.load_progress("restarted", CODE)
        assert state is not None and (state.undo_pos, state.redo_top) == (4, 4)  # a, b, the Restart, x
        assert play(store, "restarted", "undo") == {}
        shown = store.load_progress("restarted", CODE)
        assert shown is not None and Game(PUZZLE, SOLUTION, shown).undoes_restart()
        assert play(store, "restarted", "undo") == {A: 2, B: 3}
        back = store.load_progress("restarted", CODE)
        assert back is not None and back.notes == {D: {3, 5}} and back.mistakes == 1
        assert [play(store, "restarted", "undo") for _ in range(3)] == [{A: 2}, {}, {}]
        # Redo all the way: c, undone before the Restart, is not on the chain.
        assert [play(store, "restarted", "redo") for _ in range(5)] == [{A: 2}, {A: 2, B: 3}, {}, {X: 2}, {X: 2}]

        assert play(store, "just restarted", "undo") == {A: 2}
        assert play(store, "just restarted", "undo") == {}
        notes_only = store.load_progress("notes only", CODE)
        assert notes_only is not None and (notes_only.undo_pos, notes_only.redo_top) == (0, 0)
    finally:
        store.close()


def _on_game(change: Callable[[Game], Any]) -> Callable[[State], Any]:
    return lambda state: change(Game(PUZZLE, SOLUTION, state))


def _old_columns(url: str) -> dict[str, tuple[list[Any], int, dict[str, Any] | None]]:
    engine = create_engine(url)
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT player, history, undo_pos, before_restart FROM progress")).all()
        assert not inspect(connection).has_table("moves")
        assert schema.current(connection) == "0006"
        columns = {column["name"]: column for column in inspect(connection).get_columns("progress")}
        assert not columns["history"]["nullable"] and "undo_floor" not in columns and "redo_top" not in columns
    engine.dispose()
    return {player: (json.loads(history), pos, json.loads(before) if before else None)
            for player, history, pos, before in rows}


def _downgrade(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as connection:
        command.downgrade(schema.alembic_config(connection), "0006")
    engine.dispose()


def test_a_downgrade_writes_the_moves_back_and_they_upgrade_again(url: str) -> None:
    store = Store(url)
    store.close()
    _downgrade(url)
    old = _old_columns(url)
    for player, (_entries, history, undo_pos, _mistakes, _notes, before) in GAMES.items():
        if player == "restarted":  # c, undone before the Restart, did not survive the upgrade
            assert before is not None
            before = {**before, "history": before["history"][:2]}
        assert old[player] == (history, undo_pos, before), player

    # Two Restarts on the chain: the old columns keep the last one and the moves since it.
    store = Store(url)
    try:
        changes: list[Callable[[Game], Any]] = [
            lambda game: game.undo(T0), lambda game: game.enter(X, 2, T0), lambda game: game.enter(D, 5, T0),
            lambda game: game.restart(T0), lambda game: game.enter(A, 4, T0), lambda game: game.undo(T0)]
        for change in changes:
            store.update_progress("restarted", CODE, _on_game(change))
    finally:
        store.close()
    _downgrade(url)
    history, undo_pos, before = _old_columns(url)["restarted"]
    assert (history, undo_pos) == (moves((A, 0, 4)), 0)
    assert before == {"entries": board({X: 2, D: 5}), "history": moves((X, 0, 2), (D, 0, 5)), "undo_pos": 2,
                      "mistakes": (SOLUTION[X] != 2) + (SOLUTION[D] != 5), "notes": []}

    store = Store(url)
    try:
        assert play(store, "restarted", "redo") == {A: 4}
        assert play(store, "restarted", "undo") == {}
        assert play(store, "restarted", "undo") == {X: 2, D: 5}
        assert play(store, "plain", "undo") == {A: 2}
    finally:
        store.close()


def test_a_host_still_on_0006_goes_on_saving_entries_on_the_upgraded_schema(url: str) -> None:
    """Hosts are upgraded one at a time: the old columns stay (empty), so the previous
    release's statements still run; a game it saved reads on the new release with the
    moves it saved (Undo takes back those, and no move from before it), which then move
    into the moves table."""
    Store(url).close()
    engine = create_engine(url)
    with engine.begin() as connection:  # what the previous release's ORM sends: a new game, an entry
        connection.execute(text(
            "INSERT INTO progress (player, puzzle_id, entries, history, undo_pos, mistakes, elapsed, paused, "
            "started, updated, revealed, notes, before_restart) VALUES ('old host', 1, :entries, :history, 1, 0, "
            "0, :no, :t0, :t0, :no, '[]', NULL)"),
            {"entries": json.dumps(board({A: 2})), "history": json.dumps(moves((A, 0, 2))), "no": False, "t0": T0})
        connection.execute(text("UPDATE progress SET entries = :entries, history = :history, undo_pos = 1 "
                                "WHERE player = 'plain'"),
                           {"entries": json.dumps(board({A: 2, B: 3, C: 4})), "history": json.dumps(moves((C, 0, 4)))})
    engine.dispose()
    store = Store(url)
    try:
        new_game = store.load_progress("old host", CODE)
        assert new_game is not None and new_game.entries == {A: 2} and Game(PUZZLE, SOLUTION, new_game).can_undo()
        store.update_progress("old host", CODE, lambda state: Game(PUZZLE, SOLUTION, state).enter(B, 3, T0))
        assert [play(store, "old host", "undo") for _ in range(3)] == [{A: 2}, {}, {}]
        assert [play(store, "old host", "redo") for _ in range(3)] == [{A: 2}, {A: 2, B: 3}, {A: 2, B: 3}]
        plain = store.load_progress("plain", CODE)
        assert plain is not None and (plain.undo_pos, plain.redo_top) == (1, 1)
        assert [play(store, "plain", "undo") for _ in range(2)] == [{A: 2, B: 3}, {A: 2, B: 3}]
    finally:
        store.close()
    engine = create_engine(url)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT COUNT(*) FROM progress WHERE history IS NOT NULL")).scalar() == 0
    engine.dispose()
