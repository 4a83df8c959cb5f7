"""A game's saved state and its rows, both ways: the one place that knows how entries, notes
and moves are written in the columns of a progress row and of a moves row (JSON lists of
numbers, cells as [row, col])."""

from __future__ import annotations

import json
from collections.abc import Mapping, Set
from datetime import datetime
from typing import Any, Protocol

from engine import Cell

from ..core.game import CellMove, Move, MoveList, MoveLog, RestartMove, State
from .entries_text import read_indexed_entries, write_entries
from .models import ProgressRow


class ProgressValues(Protocol):
    """A progress row's columns read by attribute: the ORM's ``ProgressRow`` or a Core row
    of the progress table (what a move reads, without the ORM's cost)."""

    id: int
    entries: str
    undo_pos: int
    undo_floor: int
    redo_top: int
    mistakes: int
    elapsed: float
    clock_started: datetime | None
    paused: bool
    last_activity: datetime | None
    started: datetime
    solved_at: datetime | None
    revealed: bool
    notes: str
    history: str | None
    before_restart: str | None


# The columns of a moves row that say what the move was (besides its game and number).
MOVE_COLUMNS = ("cell_row", "cell_col", "old_value", "new_value", "cleared")


def state_from_row(row: ProgressValues, moves: MoveLog | None = None) -> State:
    """The game saved in a progress row; ``moves``: where its moves are read from (a row a
    host on the previous release saved: its moves from the old columns, ``old_moves``)."""
    old = old_moves(row)
    if old is not None:
        chain, pos = old
        top, floor = len(chain), 0
        if moves is None:
            moves = MoveList(chain)
    else:
        top = max(0, row.redo_top or 0)
        floor = min(max(0, row.undo_floor or 0), top)
        pos = row.undo_pos or 0
    entries, index = read_indexed_entries(row.entries or "[]")
    return State(
        entries=entries,
        entries_index=index,
        undo_pos=min(max(floor, pos), top),
        undo_floor=floor,
        redo_top=top,
        mistakes=row.mistakes or 0,
        elapsed=row.elapsed or 0.0,
        clock_started=row.clock_started,
        paused=bool(row.paused),
        last_activity=row.last_activity,
        started=row.started,
        solved_at=row.solved_at,
        revealed=bool(row.revealed),
        notes=_notes(json.loads(row.notes or "[]")),
        moves=moves if moves is not None else MoveList(),
    )


# The progress row's columns a game is saved in (``row_values``' keys, in that order).
ROW_COLUMNS = ("entries", "undo_pos", "undo_floor", "redo_top", "mistakes", "elapsed", "clock_started", "paused",
               "last_activity", "started", "solved_at", "revealed", "notes", "updated", "history", "before_restart")


def fill_row(row: ProgressRow, state: State, now: datetime) -> None:
    """Write a game into its progress row (``now``: when it was last played); its moves are
    written by whoever keeps them."""
    for name, value in row_values(state, row.started, now).items():
        setattr(row, name, value)  # the ORM leaves out of its UPDATE what is unchanged


def row_values(state: State, started: datetime | None, now: datetime, entries_before: str | None = None,
               ) -> dict[str, Any]:
    """A game as the values of its progress row's columns (``started``: the row's, if it has
    one; ``now``: when it was last played; ``entries_before``: the entries column the game
    was read from, patched rather than written whole, ``entries_text``), the old columns
    emptied (the moves table took them over); its moves are written by whoever keeps them."""
    return {
        "entries": write_entries(state.entries, entries_before, state.changed_cells),
        "undo_pos": state.undo_pos,
        "undo_floor": state.undo_floor,
        "redo_top": state.redo_top,
        "mistakes": state.mistakes,
        "elapsed": state.elapsed,
        "clock_started": state.clock_started,
        "paused": state.paused,
        "last_activity": state.last_activity,
        "started": state.started or started or now,
        "solved_at": state.solved_at,
        "revealed": state.revealed,
        "notes": json.dumps(_notes_data(state.notes)),
        "updated": now,
        "history": None,
        "before_restart": None,
    }


def old_moves(row: ProgressValues) -> tuple[dict[int, Move], int] | None:
    """The moves a host on the release before the moves table (migration 0007) saved in the
    row's old columns, numbered from 1, and how many are applied; None if it saved none.

    While hosts are upgraded one at a time, such a host starts each game it saves from the
    emptied columns: what it saved is all Undo can know of (the moves before it are not
    where its board came from).  As the migration does: the moves the game before a Restart
    had applied, the Restart, then the moves since."""
    if row.history is None and row.before_restart is None:
        return None
    history: list[Move] = [CellMove((r, c), old, new) for r, c, old, new in json.loads(row.history or "[]")]
    chain: list[Move] = []
    if row.before_restart:
        before = json.loads(row.before_restart)
        kept = before.get("history") or []
        applied = kept[: min(max(0, int(before.get("undo_pos") or 0)), len(kept))]
        chain = [CellMove((r, c), old, new) for r, c, old, new in applied]
        chain.append(RestartMove(_entries(before.get("entries") or []),
                                 {cell: frozenset(marks) for cell, marks in _notes(before.get("notes") or []).items()},
                                 int(before.get("mistakes") or 0)))
    pos = len(chain) + min(max(0, row.undo_pos or 0), len(history))
    return dict(enumerate(chain + history, start=1)), pos


def move_values(move: Move) -> dict[str, Any]:
    """A move as the values of a moves row's MOVE_COLUMNS."""
    if isinstance(move, CellMove):
        (r, c), old, new = move.cell, move.old, move.new
        return {"cell_row": r, "cell_col": c, "old_value": old, "new_value": new, "cleared": None}
    cleared = {"entries": _entries_data(move.entries), "notes": _notes_data(move.notes), "mistakes": move.mistakes}
    return {"cell_row": None, "cell_col": None, "old_value": None, "new_value": None, "cleared": json.dumps(cleared)}


def move_from_values(cell_row: int | None, cell_col: int | None, old_value: int | None, new_value: int | None,
                     cleared: str | None) -> Move:
    """The move a moves row holds (its MOVE_COLUMNS, in order)."""
    if cleared is not None:
        data = json.loads(cleared)
        return RestartMove(_entries(data["entries"]),
                           {cell: frozenset(marks) for cell, marks in _notes(data["notes"]).items()},
                           int(data["mistakes"]))
    assert cell_row is not None and cell_col is not None, "a moves row with neither a cell nor a Restart"
    return CellMove((cell_row, cell_col), old_value or 0, new_value or 0)


def _entries(data: list[list[int]]) -> dict[Cell, int]:
    return {(r, c): v for r, c, v in data}


def _entries_data(entries: Mapping[Cell, int]) -> list[list[int]]:
    return [[r, c, v] for (r, c), v in sorted(entries.items())]


def _notes(data: list[list[Any]]) -> dict[Cell, set[int]]:
    return {(r, c): set(marks) for r, c, marks in data}


def _notes_data(notes: Mapping[Cell, Set[int]]) -> list[list[Any]]:
    return [[r, c, sorted(marks)] for (r, c), marks in sorted(notes.items())]
