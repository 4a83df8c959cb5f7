"""One player's game on one puzzle: entries, undo/redo, the clock, mistakes, feedback.

Pure Python with no Flask or database imports: ``storage`` saves a ``State`` and the
views build a ``Game`` from it for each request.  Cells are engine cells, (row, col)
0-based; the pages show them 1-based.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from engine import Cell, Grid, Puzzle
from engine import cell_name as engine_cell_name

Move = tuple[int, int, int, int]  # (row, col, old value, new value); 0 means empty
# A tab left open with nobody touching it stops counting after this long: the page
# sends a heartbeat every few minutes while visible and pauses the clock when hidden,
# so this only matters when neither reached the server (a crash, a closed laptop).
IDLE_LIMIT = timedelta(minutes=15)
MAX_HISTORY = 2000


def utcnow() -> datetime:
    """The current time in UTC, naive (as every stored time is)."""
    return datetime.now(UTC).replace(tzinfo=None)


@dataclass
class State:
    """What is saved of a game between requests."""

    entries: dict[Cell, int] = field(default_factory=dict)
    history: list[Move] = field(default_factory=list)
    undo_pos: int = 0  # moves of ``history`` currently applied
    mistakes: int = 0
    elapsed: float = 0.0  # seconds banked while the clock ran
    clock_started: datetime | None = None  # the clock runs since then; None: stopped
    paused: bool = False  # paused by the player (not just away)
    last_activity: datetime | None = None
    started: datetime | None = None
    solved_at: datetime | None = None
    revealed: bool = False

    def clear(self, now: datetime) -> None:
        """Back to a game just begun at ``now``: no entries, no history, a fresh clock.

        In place, like every other change, so whoever holds the state sees it."""
        self.entries, self.history, self.undo_pos, self.mistakes = {}, [], 0, 0
        self.elapsed, self.clock_started, self.paused = 0.0, now, False
        self.last_activity = self.started = now
        self.solved_at, self.revealed = None, False


class EntryError(ValueError):
    """An entry that cannot be taken: not a number, out of range, or not an open cell."""


@dataclass(frozen=True)
class CellView:
    """How one cell is drawn: its value, and whether it is wrong or duplicated."""

    cell: Cell
    given: bool
    value: int | None
    wrong: bool = False
    also_at: Cell | None = None  # the nearest other cell holding the same number
    also_count: int = 0  # how many other cells hold it besides that one
    hinted: bool = False
    raw: str | None = None  # a rejected entry, shown back as typed
    error: str | None = None

    @property
    def row(self) -> int:
        return self.cell[0] + 1

    @property
    def col(self) -> int:
        return self.cell[1] + 1

    @property
    def label(self) -> str:
        return cell_name(self.cell)

    @property
    def invalid(self) -> bool:
        return self.wrong or self.error is not None

    @property
    def duplicate(self) -> bool:
        return self.also_at is not None

    @property
    def note(self) -> str:
        """Words for a screen reader (and a tooltip) on what is wrong with the cell."""
        parts = []
        if self.error:
            parts.append(self.error)
        if self.wrong:
            parts.append("wrong number")
        if self.also_at is not None:
            where = engine_cell_name(self.also_at)
            if self.also_count:
                others = "cell" if self.also_count == 1 else "cells"
                where += f", and {self.also_count} other {others}"
            parts.append(f"{self.value} is also at {where}")
        if self.hinted:
            parts.append("part of the hint")
        return "; ".join(parts)


def cell_name(cell: Cell) -> str:
    """The engine's "row 2, column 3", capitalised to begin a sentence."""
    name = engine_cell_name(cell)
    return name[0].upper() + name[1:]


def parse_entry(text: str | None, size: int) -> int:
    """The number typed into a cell, 0 for a cleared cell; raises EntryError."""
    raw = (text or "").strip()
    if not raw:
        return 0
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 6:
        raise EntryError(f"Type a whole number from 1 to {size}")
    value = int(raw)
    if not 1 <= value <= size:
        raise EntryError(f"{value} is out of range: type a number from 1 to {size}")
    return value


class Game:
    """A puzzle with its unique solution and one player's ``State``."""

    def __init__(self, puzzle: Puzzle, solution: Mapping[Cell, int], state: State | None = None):
        self.puzzle = puzzle
        self.solution = dict(solution)
        self.state = state if state is not None else State()
        self._holding: dict[int, set[Cell]] | None = None  # number -> cells showing it

    def holding(self, value: int) -> set[Cell]:
        """The cells (given or entered) that show ``value``; built once, kept up to date."""
        if self._holding is None:
            found: dict[int, set[Cell]] = {}
            for cell, v in self.grid().items():
                found.setdefault(v, set()).add(cell)
            self._holding = found
        return self._holding.get(value, set())

    # --- what the board shows ------------------------------------------------------

    @property
    def open_cells(self) -> list[Cell]:
        """The cells the player fills, in reading order."""
        givens = self.puzzle.givens
        return [cell for cell in self.puzzle.board.cells if cell not in givens]

    @property
    def filled(self) -> int:
        return len(self.state.entries)

    @property
    def total(self) -> int:
        return len(self.open_cells)

    @property
    def wrong_cells(self) -> list[Cell]:
        return [cell for cell, v in sorted(self.state.entries.items()) if self.solution.get(cell) != v]

    @property
    def solved(self) -> bool:
        return self.state.solved_at is not None

    @property
    def finished(self) -> bool:
        """Solved or revealed: the board no longer takes entries."""
        return self.solved or self.state.revealed

    def grid(self) -> Grid:
        """Givens and entries together."""
        return {**self.puzzle.givens, **self.state.entries}

    def cell_view(self, cell: Cell, hinted: frozenset[Cell] = frozenset(),
                  raw: str | None = None, error: str | None = None) -> CellView:
        """How ``cell`` is drawn now."""
        if cell in self.puzzle.givens:
            return CellView(cell, True, self.puzzle.givens[cell], hinted=cell in hinted)
        value = self.state.entries.get(cell)
        nearest, count = self._other_copies(cell, value)
        return CellView(
            cell,
            False,
            value,
            wrong=value is not None and self.solution.get(cell) != value,
            also_at=nearest,
            also_count=count,
            hinted=cell in hinted,
            raw=raw,
            error=error,
        )

    def _other_copies(self, cell: Cell, value: int | None) -> tuple[Cell | None, int]:
        """The nearest other cell showing ``value`` and how many more show it."""
        if value is None:
            return None, 0
        others = self.holding(value) - {cell}
        if not others:
            return None, 0
        r, c = cell
        nearest = min(others, key=lambda o: (max(abs(o[0] - r), abs(o[1] - c)), o))
        return nearest, len(others) - 1

    def copies_near(self, cell: Cell, value: int, limit: int) -> list[Cell]:
        """Up to ``limit`` open cells other than ``cell`` showing ``value``, nearest first:
        the ones whose duplicate note an entry in ``cell`` changes most visibly."""
        if not value:
            return []
        r, c = cell
        others = [o for o in self.holding(value) if o != cell and o not in self.puzzle.givens]
        others.sort(key=lambda o: (max(abs(o[0] - r), abs(o[1] - c)), o))
        return others[:limit]

    # --- changing the board ---------------------------------------------------------

    def check_cell(self, cell: Cell) -> None:
        """Raise EntryError unless ``cell`` is an open cell of the board."""
        if cell not in self.puzzle.board.cell_set:
            raise EntryError(f"{cell_name(cell)} is not a cell of this board")
        if cell in self.puzzle.givens:
            raise EntryError(f"{cell_name(cell)} holds a given number and cannot be changed")
        if self.finished:
            raise EntryError("This puzzle is finished: restart it to play again")

    def enter(self, cell: Cell, value: int, now: datetime | None = None) -> bool:
        """Put ``value`` (0 clears) in ``cell``; returns whether anything changed."""
        self.check_cell(cell)
        old = self.state.entries.get(cell, 0)
        if old == value:
            return False
        del self.state.history[self.state.undo_pos:]
        self.state.history.append((cell[0], cell[1], old, value))
        if len(self.state.history) > MAX_HISTORY:
            del self.state.history[0]
        self.state.undo_pos = len(self.state.history)
        self._set(cell, value)
        if value and self.solution.get(cell) != value:
            self.state.mistakes += 1
        self._after_change(now)
        return True

    def _set(self, cell: Cell, value: int) -> None:
        old = self.state.entries.get(cell)
        if value:
            self.state.entries[cell] = value
        else:
            self.state.entries.pop(cell, None)
        if self._holding is not None:
            if old:
                self._holding.get(old, set()).discard(cell)
            if value:
                self._holding.setdefault(value, set()).add(cell)

    def can_undo(self) -> bool:
        return not self.finished and self.state.undo_pos > 0

    def can_redo(self) -> bool:
        return not self.finished and self.state.undo_pos < len(self.state.history)

    def undo(self, now: datetime | None = None) -> Cell | None:
        """Take back the last entry or clear; returns its cell, None if nothing to undo."""
        if not self.can_undo():
            return None
        self.state.undo_pos -= 1
        r, c, old, _new = self.state.history[self.state.undo_pos]
        self._set((r, c), old)
        self._after_change(now)
        return (r, c)

    def redo(self, now: datetime | None = None) -> Cell | None:
        """Apply again the entry last undone; returns its cell, None if nothing to redo."""
        if not self.can_redo():
            return None
        r, c, _old, new = self.state.history[self.state.undo_pos]
        self.state.undo_pos += 1
        self._set((r, c), new)
        self._after_change(now)
        return (r, c)

    def restart(self, now: datetime | None = None) -> None:
        """Clear every entry, the history, the clock and the mistakes."""
        self.state.clear(now or utcnow())
        self._holding = None

    def reveal(self, now: datetime | None = None) -> None:
        """Fill in the whole solution; the game ends unsolved."""
        now = now or utcnow()
        self.stop_clock(now)
        self.state.entries = {cell: self.solution[cell] for cell in self.open_cells}
        self.state.revealed = True
        self._holding = None

    def _after_change(self, now: datetime | None) -> None:
        now = now or utcnow()
        self.touch(now)
        if len(self.state.entries) == self.total and not self.wrong_cells:
            self.stop_clock(now)
            self.state.solved_at = now

    # --- the clock ------------------------------------------------------------------

    def touch(self, now: datetime | None = None) -> None:
        """Note activity, and start the clock unless paused or finished."""
        now = now or utcnow()
        if self.state.started is None:
            self.state.started = now
        if self.state.clock_started is not None and self._idle_end(now) < now:
            # Nobody was here for a while: bank what counted and start afresh.
            self.stop_clock(now)
        self.state.last_activity = now
        if self.state.clock_started is None and not self.state.paused and not self.finished:
            self.state.clock_started = now

    def _idle_end(self, now: datetime) -> datetime:
        last = self.state.last_activity or now
        return min(now, last + IDLE_LIMIT)

    def stop_clock(self, now: datetime | None = None) -> None:
        """Bank the running time and stop the clock."""
        now = now or utcnow()
        started = self.state.clock_started
        if started is not None:
            ran = (self._idle_end(now) - started).total_seconds()
            self.state.elapsed += max(0.0, ran)
            self.state.clock_started = None

    def seconds(self, now: datetime | None = None) -> int:
        """Time played so far, in whole seconds."""
        now = now or utcnow()
        total = self.state.elapsed
        if self.state.clock_started is not None:
            total += max(0.0, (self._idle_end(now) - self.state.clock_started).total_seconds())
        return int(total)

    @property
    def clock_running(self) -> bool:
        return self.state.clock_started is not None

    def pause(self, now: datetime | None = None) -> None:
        self.stop_clock(now)
        self.state.paused = True

    def resume(self, now: datetime | None = None) -> None:
        self.state.paused = False
        self.touch(now)

    def away(self, now: datetime | None = None) -> None:
        """The page was hidden or closed: stop counting until it comes back."""
        self.stop_clock(now)


def format_seconds(seconds: int) -> str:
    """``4:05`` or ``1:02:03``."""
    minutes, secs = divmod(max(0, int(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"
