"""A game's saved state and its progress row, both ways: the one place that knows how
entries, moves, notes and the game before a Restart are written in the row's columns (JSON
lists of numbers, cells as [row, col])."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from engine import Cell

from ..core.game import Move, Snapshot, State
from .models import ProgressRow


def state_from_row(row: ProgressRow) -> State:
    """The game saved in a progress row."""
    history = _moves(json.loads(row.history or "[]"))
    return State(
        entries=_entries(json.loads(row.entries or "[]")),
        history=history,
        undo_pos=min(row.undo_pos or 0, len(history)),
        mistakes=row.mistakes or 0,
        elapsed=row.elapsed or 0.0,
        clock_started=row.clock_started,
        paused=bool(row.paused),
        last_activity=row.last_activity,
        started=row.started,
        solved_at=row.solved_at,
        revealed=bool(row.revealed),
        notes=_notes(json.loads(row.notes or "[]")),
        before_restart=_snapshot(json.loads(row.before_restart)) if row.before_restart else None,
    )


def fill_row(row: ProgressRow, state: State, now: datetime) -> None:
    """Write a game into its progress row (``now``: when it was last played)."""
    row.entries = json.dumps(_entries_data(state.entries))
    row.history = json.dumps(_moves_data(state.history))
    row.undo_pos = state.undo_pos
    row.mistakes = state.mistakes
    row.elapsed = state.elapsed
    row.clock_started = state.clock_started
    row.paused = state.paused
    row.last_activity = state.last_activity
    row.started = state.started or row.started or now
    row.solved_at = state.solved_at
    row.revealed = state.revealed
    row.notes = json.dumps(_notes_data(state.notes))
    row.before_restart = json.dumps(_snapshot_data(state.before_restart)) if state.before_restart else None
    row.updated = now


def _entries(data: list[list[int]]) -> dict[Cell, int]:
    return {(r, c): v for r, c, v in data}


def _entries_data(entries: dict[Cell, int]) -> list[list[int]]:
    return [[r, c, v] for (r, c), v in sorted(entries.items())]


def _moves(data: list[list[int]]) -> list[Move]:
    return [(r, c, old, new) for r, c, old, new in data]


def _moves_data(moves: list[Move]) -> list[list[int]]:
    return [list(move) for move in moves]


def _notes(data: list[list[Any]]) -> dict[Cell, set[int]]:
    return {(r, c): set(marks) for r, c, marks in data}


def _notes_data(notes: dict[Cell, set[int]]) -> list[list[Any]]:
    return [[r, c, sorted(marks)] for (r, c), marks in sorted(notes.items())]


def _snapshot(data: dict[str, Any]) -> Snapshot:
    return Snapshot(
        entries=_entries(data["entries"]),
        history=_moves(data["history"]),
        undo_pos=int(data["undo_pos"]),
        mistakes=int(data["mistakes"]),
        notes=_notes(data["notes"]),
    )


def _snapshot_data(snapshot: Snapshot) -> dict[str, Any]:
    return {
        "entries": _entries_data(snapshot.entries),
        "history": _moves_data(snapshot.history),
        "undo_pos": snapshot.undo_pos,
        "mistakes": snapshot.mistakes,
        "notes": _notes_data(snapshot.notes),
    }
