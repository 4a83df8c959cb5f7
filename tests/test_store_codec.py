"""webapp/store/progress_codec.py: any game written into a progress row reads back as the
same game (Hypothesis draws the games), and a row as the release wrote it still reads."""

from __future__ import annotations

from datetime import datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from webapp.core.game import Snapshot, State
from webapp.store.models import ProgressRow
from webapp.store.progress_codec import fill_row, state_from_row

cells = st.tuples(st.integers(0, 39), st.integers(0, 39))
numbers = st.integers(1, 1600)
moves = st.lists(st.tuples(st.integers(0, 39), st.integers(0, 39), st.integers(0, 1600), st.integers(0, 1600)),
                 max_size=60)
notes = st.dictionaries(cells, st.sets(numbers, min_size=1, max_size=9), max_size=20)
moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2100, 1, 1))


@st.composite
def snapshots(draw: st.DrawFn) -> Snapshot:
    history = draw(moves)
    return Snapshot(draw(st.dictionaries(cells, numbers, max_size=40)), history,
                    draw(st.integers(0, len(history))), draw(st.integers(0, 10_000)), draw(notes))


@st.composite
def states(draw: st.DrawFn) -> State:
    history = draw(moves)
    return State(
        entries=draw(st.dictionaries(cells, numbers, max_size=80)),
        history=history,
        undo_pos=draw(st.integers(0, len(history))),
        mistakes=draw(st.integers(0, 10_000)),
        elapsed=draw(st.floats(0, 1e7, allow_nan=False)),
        clock_started=draw(st.none() | moments),
        paused=draw(st.booleans()),
        last_activity=draw(st.none() | moments),
        started=draw(moments),
        solved_at=draw(st.none() | moments),
        revealed=draw(st.booleans()),
        notes=draw(notes),
        before_restart=draw(st.none() | snapshots()),
    )


@settings(max_examples=300)
@given(states(), moments)
def test_a_game_reads_back_as_it_was_written(state: State, now: datetime) -> None:
    row = ProgressRow()
    fill_row(row, state, now)
    assert state_from_row(row) == state
    assert row.updated == now


def test_a_game_never_started_is_stamped_when_first_written() -> None:
    row = ProgressRow()
    fill_row(row, State(), datetime(2026, 1, 1))
    assert state_from_row(row).started == datetime(2026, 1, 1)


def test_a_row_as_an_earlier_release_left_it_reads() -> None:
    """Columns left empty by releases before notes and Restart's undo, and an undo position
    past the history (clamped), read as a plain game."""
    row = ProgressRow(entries="[[0, 1, 5]]", history="[[0, 1, 0, 5]]", undo_pos=3, mistakes=None, elapsed=None,
                      notes=None, before_restart=None, started=datetime(2024, 5, 1))
    state = state_from_row(row)
    assert state.entries == {(0, 1): 5} and state.history == [(0, 1, 0, 5)] and state.undo_pos == 1
    assert state.mistakes == 0 and state.elapsed == 0.0 and state.notes == {} and state.before_restart is None
