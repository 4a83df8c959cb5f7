"""webapp/store/moves.py on a real database (SQLite, and PostgreSQL under make test): a game's
moves are rows of their own, one added per move and one read per Undo or Redo, so what an
entry sends does not grow with the moves made; a stored game plays exactly like one in
memory (Hypothesis draws the moves), Restart included."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, text

from engine import puzzle_to_id
from webapp.core.game import EntryError, Game, State
from webapp.core.stored import StoredPuzzle
from webapp.store.moves import ReadOnlyMoves
from webapp.store.store import Store, database_url

from puzzle_files import DATA, load

PUZZLE, SOLUTION = load(DATA / "seed000-5x5.txt")
CODE = puzzle_to_id(PUZZLE)
OPEN = [cell for cell in PUZZLE.board.cells if cell not in PUZZLE.givens]
T0 = datetime(2026, 11, 26, 7, 0)
PLAYERS = itertools.count()


@pytest.fixture
def store(tmp_path: Path, databases) -> Iterator[Store]:
    found = Store(database_url(databases.url("moves"), str(tmp_path)))
    found.save_puzzle(StoredPuzzle(CODE, PUZZLE, SOLUTION))
    yield found
    found.close()


def play(store: Store, player: str, action: Any) -> Any:
    """One request: ``action(game)`` on the player's stored game, saved; returns what it returned.
    The puzzle's row id is passed, as the web layer does (it has the puzzle from its cache)."""
    found = store.find_puzzle(CODE)
    assert found is not None
    return store.update_progress(player, CODE, lambda state: action(Game(PUZZLE, SOLUTION, state)),
                                 puzzle_id=found.row_id)[1]


def stored_numbers(store: Store, player: str) -> list[int]:
    """The numbers of the moves rows the player's game has in the table."""
    with store.engine.connect() as connection:
        return [number for (number,) in connection.execute(text(
            "SELECT m.number FROM moves m JOIN progress p ON p.id = m.progress_id WHERE p.player = :player "
            "ORDER BY m.number"), {"player": player})]


class Sent:
    """The statements sent to a store's database while counting."""

    def __init__(self, store: Store):
        self.statements: list[tuple[str, str]] = []
        event.listen(store.engine, "before_cursor_execute", self._sent)

    def _sent(self, _conn: Any, _cursor: Any, statement: str, parameters: Any, *_rest: Any) -> None:
        kind = statement.split()[0].upper()
        if kind != "BEGIN":  # SQLite's BEGIN IMMEDIATE, sent by every writing transaction
            self.statements.append((kind, repr(parameters)))

    def during(self, work: Any) -> list[tuple[str, str]]:
        self.statements = []
        work()
        return list(self.statements)


def test_undo_redo_and_restart_go_through_the_moves_rows(store: Store) -> None:
    a, b = OPEN[:2]
    play(store, "p", lambda game: game.enter(a, SOLUTION[a], T0))
    play(store, "p", lambda game: game.enter(b, 3, T0))
    play(store, "p", lambda game: game.toggle_note(OPEN[2], 4, T0))
    play(store, "p", lambda game: game.restart(T0))
    assert stored_numbers(store, "p") == [1, 2, 3]
    shown = store.load_progress("p", CODE)
    assert shown is not None and shown.entries == {} and shown.mistakes == 0
    assert Game(PUZZLE, SOLUTION, shown).undoes_restart()  # read, in a transaction of its own
    assert play(store, "p", lambda game: game.undo(T0)) == a
    back = store.load_progress("p", CODE)
    assert back is not None and back.entries == {a: SOLUTION[a], b: 3} and back.notes == {OPEN[2]: {4}}
    assert back.mistakes == (0 if SOLUTION[b] == 3 else 1)
    assert play(store, "p", lambda game: game.undo(T0)) == b
    play(store, "p", lambda game: game.enter(OPEN[3], 1, T0))  # cuts the redo chain: b and the Restart
    assert stored_numbers(store, "p") == [1, 2]
    assert play(store, "p", lambda game: game.redo(T0)) is None
    assert play(store, "p", lambda game: game.undo(T0)) == OPEN[3]
    assert play(store, "p", lambda game: game.redo(T0)) == OPEN[3]


def test_a_game_loaded_to_be_shown_cannot_be_changed(store: Store) -> None:
    play(store, "p", lambda game: game.enter(OPEN[0], 2, T0))
    shown = store.load_progress("p", CODE)
    assert shown is not None
    with pytest.raises(ReadOnlyMoves):
        Game(PUZZLE, SOLUTION, shown).enter(OPEN[1], 2, T0)
    [summary] = store.list_progress("p")
    assert Game(PUZZLE, SOLUTION, summary.state).can_undo()


def test_an_entry_sends_three_statements_whatever_the_moves_made(store: Store) -> None:
    """Besides SQLite's BEGIN: one SELECT of the game, one UPDATE of its row, one INSERT of the move, each as small
    after hundreds of moves as after a few; Undo and Redo read one move; the first move
    after an Undo deletes what can no longer be redone."""
    sent = Sent(store)
    play(store, "p", lambda game: game.enter(OPEN[0], 1, T0))
    for turn in range(400):
        if turn == 3:
            early = sent.during(lambda: play(store, "p", lambda game: game.enter(OPEN[1], 7, T0)))
        else:
            play(store, "p", lambda game, turn=turn: game.enter(OPEN[turn % 4], turn % 9 + 1, T0))
    late = sent.during(lambda: play(store, "p", lambda game: game.enter(OPEN[1], 7, T0)))
    kinds = [kind for kind, _ in early]
    assert kinds == [kind for kind, _ in late] and sorted(kinds) == ["INSERT", "SELECT", "UPDATE"]
    size = sum(len(parameters) for _, parameters in early)
    # A few more digits at most (and a time's microseconds); the history as one column: kilobytes more.
    assert sum(len(parameters) for _, parameters in late) <= size + 60
    undo = sent.during(lambda: play(store, "p", lambda game: game.undo(T0)))
    assert sorted(kind for kind, _ in undo) == ["SELECT", "SELECT", "UPDATE"]
    redo = sent.during(lambda: play(store, "p", lambda game: game.redo(T0)))
    assert sorted(kind for kind, _ in redo) == ["SELECT", "SELECT", "UPDATE"]
    play(store, "p", lambda game: game.undo(T0))
    cut = sent.during(lambda: play(store, "p", lambda game: game.enter(OPEN[2], 5, T0)))
    assert sorted(kind for kind, _ in cut) == ["DELETE", "INSERT", "SELECT", "UPDATE"]


def test_moves_undo_no_longer_reaches_are_deleted_a_batch_at_a_time(store: Store,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("webapp.core.game.MAX_HISTORY", 5)
    monkeypatch.setattr("webapp.store.moves.FORGET_BATCH", 3)
    for value in range(1, 12):  # eleven moves in one cell: Undo reaches back five
        play(store, "p", lambda game, value=value: game.enter(OPEN[0], value, T0))
        assert len(stored_numbers(store, "p")) <= 5 + 3
    assert stored_numbers(store, "p") == [7, 8, 9, 10, 11]  # 1-6 went when the floor reached 6
    undone = [play(store, "p", lambda game: game.undo(T0) and game.state.entries[OPEN[0]]) for _ in range(6)]
    assert undone == [10, 9, 8, 7, 6, None]


Step = tuple[str, int, int]  # (what, which open cell, which number)
steps = st.lists(st.tuples(st.sampled_from(["enter", "enter", "enter", "undo", "redo", "restart", "note"]),
                           st.integers(0, len(OPEN) - 1), st.integers(0, PUZZLE.size)), max_size=30)


def step(game: Game, what: str, index: int, number: int) -> None:
    """One move of a drawn game, at T0 (so that clocks agree); a refused one does nothing."""
    cell = OPEN[index]
    try:
        if what == "enter":
            game.enter(cell, number, T0)
        elif what == "note":
            game.toggle_note(cell, number or 1, T0)
        elif what == "restart":
            game.restart(T0)
        else:
            getattr(game, what)(T0)
    except EntryError:
        pass


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps)
def test_a_stored_game_plays_like_one_in_memory(store: Store, drawn: list[Step]) -> None:
    """Each move a request of its own; then Undo all the way back and Redo all the way on."""
    player = f"h{next(PLAYERS)}"
    memory = Game(PUZZLE, SOLUTION, State())

    def same() -> None:
        assert store.load_progress(player, CODE) == memory.state

    memory.touch(T0)  # the game begins at T0 on both sides (a save stamps it otherwise)
    play(store, player, lambda game: game.touch(T0))
    for what, index, number in drawn:
        step(memory, what, index, number)
        play(store, player, lambda game, what=what, index=index, number=number: step(game, what, index, number))
        same()
    state = memory.state
    assert stored_numbers(store, player) == list(range(state.undo_floor + 1, state.redo_top + 1))
    for walk in ["undo"] * state.undo_pos + ["redo"] * state.redo_top:
        assert play(store, player, lambda game, walk=walk: getattr(game, walk)(T0)) == getattr(memory, walk)(T0)
        same()
    assert memory.state.undo_pos == memory.state.redo_top or memory.finished


def test_a_move_that_fails_saves_nothing_and_gives_its_connection_back(store: Store) -> None:
    """A move's transaction is begun and ended on the driver (``prepared.DriverTransaction``):
    a change that raises saves nothing of it (not the move, not the row), whether it raised
    before or after SQLAlchemy's ``Connection`` joined the transaction (a first move's
    INSERT, an Undo's read), and the connection goes back to the pool each time, ready."""
    pool = store.engine.pool

    def fails(game: Game) -> None:
        game.enter(OPEN[1], 4, T0)
        raise RuntimeError("refused")

    with pytest.raises(RuntimeError):
        play(store, "q", fails)  # a first move: nothing stored yet
    assert store.load_progress("q", CODE) is None and pool.checkedout() == 0  # type: ignore[attr-defined]
    play(store, "q", lambda game: game.enter(OPEN[0], 1, T0))
    play(store, "q", lambda game: game.enter(OPEN[1], 2, T0))

    def undoes_then_fails(game: Game) -> None:
        game.undo(T0)  # reads a move through SQLAlchemy's Connection, in the same transaction
        raise RuntimeError("refused")

    for failing in (fails, undoes_then_fails):
        with pytest.raises(RuntimeError):
            play(store, "q", failing)
        assert pool.checkedout() == 0  # type: ignore[attr-defined]
        saved = store.load_progress("q", CODE)
        assert saved is not None and saved.entries == {OPEN[0]: 1, OPEN[1]: 2} and saved.undo_pos == 2
        assert stored_numbers(store, "q") == [1, 2]
    play(store, "q", lambda game: game.undo(T0))
    saved = store.load_progress("q", CODE)
    assert saved is not None and saved.entries == {OPEN[0]: 1} and pool.checkedout() == 0  # type: ignore[attr-defined]
