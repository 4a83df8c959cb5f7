"""webapp/store/progress_codec.py: any game written into a progress row reads back as the
same game, any move written into a moves row reads back as the same move (Hypothesis draws
them), and a row with columns left empty still reads."""

from __future__ import annotations

import json
from datetime import datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import runs_of
from webapp.core.game import CellMove, Move, RestartMove, State
from webapp.core.number_index import NumberIndex
from webapp.store.entries_text import MAX_PATCHED, read_entries, read_indexed_entries, whole_text, write_entries
from webapp.store.models import ProgressRow
from webapp.store.progress_codec import (
    MOVE_COLUMNS,
    _entries_data,
    fill_row,
    move_from_values,
    move_values,
    state_from_row,
)

cells = st.tuples(st.integers(0, 39), st.integers(0, 39))
numbers = st.integers(1, 1600)
notes = st.dictionaries(cells, st.sets(numbers, min_size=1, max_size=9), max_size=20)
moments = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2100, 1, 1))
moves: st.SearchStrategy[Move] = st.one_of(
    st.builds(CellMove, cells, st.integers(0, 1600), st.integers(0, 1600)),
    st.builds(RestartMove, st.dictionaries(cells, numbers, max_size=80),
              st.dictionaries(cells, st.frozensets(numbers, min_size=1, max_size=9), max_size=20),
              st.integers(0, 10_000)),
)


@st.composite
def states(draw: st.DrawFn) -> State:
    floor, applied, redoable = draw(st.integers(0, 10_000)), draw(st.integers(0, 2000)), draw(st.integers(0, 2000))
    return State(
        entries=draw(st.dictionaries(cells, numbers, max_size=80)),
        undo_floor=floor,
        undo_pos=floor + applied,
        redo_top=floor + applied + redoable,
        mistakes=draw(st.integers(0, 10_000)),
        elapsed=draw(st.floats(0, 1e7, allow_nan=False)),
        clock_started=draw(st.none() | moments),
        paused=draw(st.booleans()),
        last_activity=draw(st.none() | moments),
        started=draw(moments),
        solved_at=draw(st.none() | moments),
        revealed=draw(st.booleans()),
        notes=draw(notes),
    )


@settings(max_examples=300)
@given(states(), moments)
def test_a_game_reads_back_as_it_was_written(state: State, now: datetime) -> None:
    row = ProgressRow()
    fill_row(row, state, now)
    assert state_from_row(row) == state
    assert row.updated == now


@settings(max_examples=300)
@given(moves)
def test_a_move_reads_back_as_it_was_written(move: Move) -> None:
    values = move_values(move)
    assert set(values) == set(MOVE_COLUMNS)
    assert move_from_values(*(values[name] for name in MOVE_COLUMNS)) == move


def test_a_game_never_started_is_stamped_when_first_written() -> None:
    row = ProgressRow()
    fill_row(row, State(), datetime(2026, 1, 1))
    assert state_from_row(row).started == datetime(2026, 1, 1)


def test_a_row_with_empty_columns_reads_as_a_plain_game() -> None:
    """Columns left empty read as a plain game, and an undo position outside the moves kept
    is brought inside them."""
    row = ProgressRow(entries="[[0, 1, 5]]", undo_pos=3, undo_floor=None, redo_top=1, mistakes=None, elapsed=None,
                      notes=None, started=datetime(2024, 5, 1))
    state = state_from_row(row)
    assert state.entries == {(0, 1): 5} and (state.undo_floor, state.undo_pos, state.redo_top) == (0, 1, 1)
    assert state.mistakes == 0 and state.elapsed == 0.0 and state.notes == {}


@settings(max_examples=300)
@given(st.dictionaries(cells, numbers, max_size=400))
def test_entries_are_written_as_json_writes_them(entries: dict[tuple[int, int], int]) -> None:
    """The entries' column is written straight from the numbers (every move writes them):
    the same text ``json.dumps`` wrote before, which hosts on the previous release read."""
    assert whole_text(entries) == json.dumps(_entries_data(entries))


def _changed(read: dict[tuple[int, int], int], changes: dict[tuple[int, int], int]) -> dict[tuple[int, int], int]:
    """Apply a move's changes to the entries read (0 empties a cell); a copy of the result."""
    for cell, value in changes.items():
        if value:
            read[cell] = value
        else:
            read.pop(cell, None)
    return dict(read)


@settings(max_examples=300)
@given(st.dictionaries(cells, numbers, max_size=400), st.lists(st.tuples(cells, st.integers(0, 1600)), max_size=12))
def test_entries_patched_after_a_move_are_the_text_written_whole(entries: dict[tuple[int, int], int],
                                                                  changes: list[tuple[tuple[int, int], int]]) -> None:
    """A move's entries are written by patching the text they were read from (a cell's item
    replaced, taken out or put in at its place): the same text as writing them whole, and
    it reads back as the same entries, move after move."""
    text = write_entries(entries)
    for cell, value in changes:
        read = read_entries(text)
        assert read == entries
        entries = _changed(read, {cell: value})
        text = write_entries(read, text)
        assert text == json.dumps(_entries_data(entries))
    assert read_entries(text) == entries


def test_entries_of_a_text_written_elsewhere_are_read_not_trusted() -> None:
    """A text this process did not write (another host's, an older release's spelling) is
    read afresh, and the next write writes it whole in the usual spelling."""
    theirs = "[[0,1,5],[2,3,7]]"
    entries = read_entries(theirs)
    assert entries == {(0, 1): 5, (2, 3): 7}
    entries[(1, 1)] = 9
    assert write_entries(entries, theirs) == "[[0, 1, 5], [1, 1, 9], [2, 3, 7]]"
    # A read's dict is the caller's own: changing it leaves what is kept alone.
    kept = write_entries({(0, 0): 1})
    read_entries(kept)[(0, 0)] = 2
    assert read_entries(kept) == {(0, 0): 1}


@settings(max_examples=200)
@given(st.dictionaries(cells, numbers, max_size=400),
       st.lists(st.dictionaries(cells, st.integers(0, 1600), max_size=12), max_size=4))
def test_entries_after_several_changes_at_once_are_the_text_written_whole(
        entries: dict[tuple[int, int], int], batches: list[dict[tuple[int, int], int]]) -> None:
    """Several cells changed in one write (a Restart, a hint filling cells): patched when
    few, written whole when many, the same text either way."""
    text = write_entries(entries)
    for batch in batches:
        read = read_entries(text)
        entries = _changed(read, batch)
        text = write_entries(read, text)
        assert text == json.dumps(_entries_data(entries))


@settings(max_examples=300)
@given(st.dictionaries(cells, st.integers(1, 30), max_size=300),
       st.lists(st.tuples(st.dictionaries(cells, st.integers(0, 30), max_size=10), st.sets(cells, max_size=10),
                          st.sampled_from(["right", "short", "extra"])), max_size=6))
def test_entries_written_from_a_hint_are_the_text_written_whole_even_when_the_hint_is_wrong(
        entries: dict[tuple[int, int], int],
        batches: list[tuple[dict[tuple[int, int], int], set[tuple[int, int]], str]]) -> None:
    """A write told which cells changed (``State.changed_cells``) patches only those, once
    the hint is checked against the entries: a hint that misses a changed cell ("short") is
    not trusted (the entries are compared whole), one naming unchanged cells too ("extra")
    changes nothing; the text, the entries kept and their index are what a write without a
    hint makes."""
    text = write_entries(entries)
    read, index = read_indexed_entries(text)
    for batch, others, kind in batches:
        entries = _changed(read, batch)
        hint = set(batch)
        if kind == "short" and hint:
            hint.pop()
        elif kind == "extra":
            hint |= others
        text = write_entries(read, text, hint)
        assert text == json.dumps(_entries_data(entries))
        read, index = read_indexed_entries(text)
        assert read == entries
        if index is not None:
            assert _index_as_sets(index) == _index_as_sets(NumberIndex.of(entries))


def _index_as_sets(index: NumberIndex) -> tuple[dict[int, set[tuple[int, int]]], set[int]]:
    return {v: set(cells) for v, cells in index.cells.items()}, set(index.twice)


@settings(max_examples=300)
@given(st.dictionaries(cells, st.integers(1, 30), max_size=200),
       st.lists(st.dictionaries(cells, st.integers(0, 30), max_size=10), max_size=6))
def test_the_number_index_kept_with_a_text_is_the_index_of_its_entries(
        entries: dict[tuple[int, int], int], batches: list[dict[tuple[int, int], int]]) -> None:
    """The number index a kept text gives with its entries (made at its first read, then
    changed with each write's few cells, a new one each time) is, move after move, the index
    made afresh from the entries read; one read before a write is not changed by it."""
    text = write_entries(entries)
    read, index = read_indexed_entries(text)
    for batch in batches:
        assert index is not None
        before = _index_as_sets(index)
        entries = _changed(read, batch)
        text = write_entries(read, text)
        assert _index_as_sets(index) == before  # never changed in place
        read, index = read_indexed_entries(text)
        assert read == entries
        assert index is not None
        assert _index_as_sets(index) == _index_as_sets(NumberIndex.of(entries))
        assert all(index.cells.values())  # no number left with no cell


@settings(max_examples=300)
@given(st.dictionaries(cells, st.integers(1, 30), max_size=200),
       st.dictionaries(st.tuples(st.integers(40, 45), st.integers(0, 39)), st.integers(1, 30), max_size=12),
       st.lists(st.dictionaries(cells, st.integers(0, 30), max_size=10), max_size=6))
def test_what_a_kept_index_says_with_the_givens_is_carried_to_the_next_text(
        entries: dict[tuple[int, int], int], givens: dict[tuple[int, int], int],
        batches: list[dict[tuple[int, int], int]]) -> None:
    """The numbers twice on the board and the open numbers no entry shows, asked of a kept
    index with a puzzle's givens (as each request's game asks before its move), are carried
    by the write to the next text's index for the cells it changed: move after move, what
    working them out afresh from the entries and the givens says."""
    given_index = NumberIndex.of(givens)
    open_numbers = frozenset(range(1, 31)).difference(given_index.cells)
    text = write_entries(entries)
    read, index = read_indexed_entries(text)
    assert index is not None
    index.on_board(given_index, open_numbers)
    for batch in batches:
        entries = _changed(read, batch)
        text = write_entries(read, text)
        read, index = read_indexed_entries(text)
        assert index is not None
        # Carried by a patched write; a write of more cells (a Restart's) is written whole and
        # read afresh.
        assert index.board is not None or len(batch) > MAX_PATCHED
        board = index.on_board(given_index, open_numbers)
        assert board is index.board
        shown = [*givens.values(), *entries.values()]
        assert board.twice == {v for v in shown if shown.count(v) > 1}
        assert list(board.runs) == runs_of(sorted(open_numbers - set(entries.values())))


def test_a_text_written_elsewhere_comes_without_an_index() -> None:
    """Another host's text (or an older release's) is parsed, and its index made by the
    game from the entries, never taken from what this process kept."""
    entries, index = read_indexed_entries("[[4,4,6],[5,5,6]]")
    assert entries == {(4, 4): 6, (5, 5): 6} and index is None
