"""One player's game on one puzzle: entries, undo/redo, the clock, mistakes, feedback.

Pure Python with no Flask or database imports: the store saves a ``State`` and the
views build a ``Game`` from it for each request.  The moves Undo and Redo walk (entries,
clears and Restarts, one chain like Tatham's midend) are kept apart from the rest of the
state, in a ``MoveLog`` that gives them one at a time: an entry adds one move and reads
none, so its cost does not grow with the moves made.  Cells are engine cells, (row, col)
0-based; the pages show them 1-based.  What it says to a player is a msgid with
``%(name)s`` parameters marked with ``N_`` (pybabel's default keyword): English when
printed, any language through ``say(words)`` with a gettext translations object (the web
layer passes Flask-Babel's).
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Protocol

from engine import Cell, Grid, Puzzle
from engine import cell_name as engine_cell_name

from .messages import ENGLISH, N_, Refusal, Words
from .number_index import NO_CELLS, NumberIndex, OnBoard, put_in, take_out

# A tab left open with nobody touching it stops counting after this long: the page
# sends a heartbeat every few minutes while visible and pauses the clock when hidden,
# so this only matters when neither reached the server (a crash, a closed laptop).
IDLE_LIMIT = timedelta(minutes=15)
MAX_HISTORY = 2000  # moves Undo reaches back at most (older ones are forgotten)
MAX_NOTES = 9  # pencil marks one cell shows (a 3 x 3 block of small numbers)



def utcnow() -> datetime:
    """The current time in UTC, naive (as every stored time is)."""
    return datetime.now(UTC).replace(tzinfo=None)


@dataclass(frozen=True)
class CellMove:
    """A number put in a cell or taken out of it (0: empty)."""

    cell: Cell
    old: int
    new: int


@dataclass(frozen=True)
class RestartMove:
    """A Restart: what it cleared, so that Undo brings it back (the clock is not)."""

    entries: Mapping[Cell, int]
    notes: Mapping[Cell, frozenset[int]]
    mistakes: int


Move = CellMove | RestartMove


class MoveLog(Protocol):
    """Where a game's moves are kept, numbered from 1: Undo and Redo read one at a time."""

    def get(self, number: int) -> Move:
        """The move numbered ``number`` (it is kept: ``State`` says which are)."""
        ...

    def put(self, number: int, move: Move) -> None:
        """Keep ``move`` as number ``number`` (the moves above it are cut already)."""
        ...

    def cut(self, after: int) -> None:
        """Forget the moves numbered above ``after``: the Redo chain a new move cuts."""
        ...

    def forget(self, upto: int) -> None:
        """Forget the moves numbered up to ``upto``: Undo no longer reaches them."""
        ...


class MoveList:
    """A ``MoveLog`` in memory (a game that is not stored, and the tests)."""

    def __init__(self, moves: Mapping[int, Move] | None = None):
        self.moves: dict[int, Move] = dict(moves or {})

    def get(self, number: int) -> Move:
        return self.moves[number]

    def put(self, number: int, move: Move) -> None:
        self.moves[number] = move

    def cut(self, after: int) -> None:
        for number in [n for n in self.moves if n > after]:
            del self.moves[number]

    def forget(self, upto: int) -> None:
        for number in [n for n in self.moves if n <= upto]:
            del self.moves[number]


@dataclass
class State:
    """What is saved of a game between requests.

    The moves are numbered from 1 in the order they were made; those up to ``undo_pos``
    are applied.  Undo takes back move ``undo_pos`` down to ``undo_floor`` (older ones
    are forgotten: MAX_HISTORY); Redo applies ``undo_pos + 1`` up to ``redo_top``."""

    entries: dict[Cell, int] = field(default_factory=dict)
    undo_pos: int = 0
    undo_floor: int = 0
    redo_top: int = 0
    mistakes: int = 0
    elapsed: float = 0.0  # seconds banked while the clock ran
    clock_started: datetime | None = None  # the clock runs since then; None: stopped
    paused: bool = False  # paused by the player (not just away)
    last_activity: datetime | None = None
    started: datetime | None = None
    solved_at: datetime | None = None
    revealed: bool = False
    notes: dict[Cell, set[int]] = field(default_factory=dict)  # pencil marks, by cell
    # The moves themselves, read only when Undo or Redo needs one (not compared: two
    # states with the same numbers hold the same moves wherever they are kept).
    moves: MoveLog = field(default_factory=MoveList, compare=False, repr=False)
    # The entries' number index, when the store kept one for the text they were read from
    # (``entries_text``); a ``Game`` takes it (and clears it) when it is made.
    entries_index: NumberIndex | None = field(default=None, compare=False, repr=False)
    # The cells whose entry changed since the state was made (None: the entries were replaced
    # wholesale): a hint for the store, which writes only those cells' part of the entries
    # column once it has checked the hint against the entries (never trusted unchecked).
    changed_cells: set[Cell] | None = field(default_factory=set, compare=False, repr=False)

    def clear(self, now: datetime) -> None:
        """Back to a board just begun at ``now``: no entries, no notes, no mistakes, a fresh
        clock (the moves are Restart's business).

        In place, like every other change, so whoever holds the state sees it."""
        self.entries, self.notes, self.mistakes = {}, {}, 0
        self.changed_cells = None
        self.elapsed, self.clock_started, self.paused = 0.0, now, False
        self.last_activity = self.started = now
        self.solved_at, self.revealed = None, False


class EntryError(Refusal):
    """An entry that cannot be taken: not a number, out of range, or not an open cell.
    ``str()`` is English; ``say(words)`` any language."""


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
    notes: tuple[int, ...] = ()  # pencil marks, in order
    marked: bool = True  # right and wrong shown (the "Show mistakes" setting, or Check)

    @property
    def row(self) -> int:
        return self.cell[0] + 1

    @property
    def col(self) -> int:
        return self.cell[1] + 1

    @property
    def invalid(self) -> bool:
        """Shown as wrong: a wrong number while mistakes are shown, or a refused entry."""
        return (self.wrong and self.marked) or self.error is not None

    @property
    def right(self) -> bool:
        return self.marked and self.value is not None and not self.wrong

    def say_duplicate(self, words: Words = ENGLISH) -> str:
        """Why the cell is marked as a duplicate, in the language of ``words`` (empty if it is not)."""
        if self.also_at is None:
            return ""
        row, col = self.also_at[0] + 1, self.also_at[1] + 1
        if not self.also_count:
            return words.gettext("%(number)s is also at row %(row)s, column %(col)s") % {
                "number": self.value, "row": row, "col": col}
        return words.ngettext("%(number)s is also at row %(row)s, column %(col)s, and %(n)s other cell",
                              "%(number)s is also at row %(row)s, column %(col)s, and %(n)s other cells",
                              self.also_count) % {"number": self.value, "row": row, "col": col, "n": self.also_count}

    @property
    def duplicate(self) -> bool:
        return self.also_at is not None

    @property
    def note(self) -> str:
        """Words for a screen reader (and a tooltip) on what is wrong with the cell."""
        return self.say_note()

    def say_note(self, words: Words = ENGLISH) -> str:
        """``note`` in the language of ``words`` (``error`` is shown as it was given)."""
        parts = []
        if self.error:
            parts.append(self.error)
        if self.wrong and self.marked:
            parts.append(words.gettext("wrong number"))
        if self.also_at is not None:
            parts.append(self.say_duplicate(words))
        if self.hinted:
            parts.append(words.gettext("part of the hint"))
        return "; ".join(parts)


# The givens' number index and the numbers no given shows, of the puzzles seen last, by the
# puzzle object (compared by identity, so a puzzle made again is indexed again): the store
# keeps one object per puzzle.
_GIVENS: dict[int, tuple[Puzzle, NumberIndex, frozenset[int]]] = {}
_GIVENS_KEPT = 1024


def _givens_kept(puzzle: Puzzle) -> tuple[Puzzle, NumberIndex, frozenset[int]]:
    found = _GIVENS.get(id(puzzle))
    if found is not None and found[0] is puzzle:
        return found
    index = NumberIndex.of(puzzle.givens)
    if len(_GIVENS) >= _GIVENS_KEPT:  # a bound, not a policy
        _GIVENS.clear()
    kept = _GIVENS[id(puzzle)] = (puzzle, index, frozenset(range(1, puzzle.size + 1)).difference(index.cells))
    return kept


def cell_name(cell: Cell) -> str:
    """The engine's "row 2, column 3", capitalised to begin a sentence."""
    name = engine_cell_name(cell)
    return name[0].upper() + name[1:]


def _where(cell: Cell) -> dict[str, int]:
    """A cell as a message's parameters, counted from 1."""
    return {"row": cell[0] + 1, "col": cell[1] + 1}


def parse_entry(text: str | None, size: int) -> int:
    """The number typed into a cell, 0 for a cleared cell; raises EntryError."""
    raw = (text or "").strip()
    if not raw:
        return 0
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 6:
        raise EntryError(N_("Type a whole number from 1 to %(size)s"), size=size)
    value = int(raw)
    if not 1 <= value <= size:
        raise EntryError(N_("%(number)s is out of range: type a number from 1 to %(size)s"), number=value, size=size)
    return value


class Game:
    """A puzzle with its unique solution and one player's ``State``."""

    def __init__(self, puzzle: Puzzle, solution: Mapping[Cell, int], state: State | None = None):
        self.puzzle = puzzle
        self.solution = solution  # the stored puzzle's, shared and never changed: not copied per request
        self.state = state if state is not None else State()
        # The board's number index, in two parts asked for number by number (an answer asks
        # of a few numbers; joining the parts over the whole board cost more than the rest
        # of a move): the givens' (made once per puzzle) and the entries' as they were read
        # (``_entries``: the store's kept index, or made here when first asked for; shared,
        # never changed), with ``_changed`` over it: the entries' cells of each number a
        # change of this request touched (empty sets included).
        _puzzle, self._givens, self._open_numbers = _givens_kept(puzzle)
        self._entries: NumberIndex | None = None
        self._changed: dict[int, frozenset[Cell]] = {}
        # The entries' index the store kept for the text this state was read from (taken
        # here, so a second Game on the same state builds its own).
        self._kept, self.state.entries_index = self.state.entries_index, None

    def holding(self, value: int) -> frozenset[Cell]:
        """The cells (given or entered) that show ``value``; built once, kept up to date."""
        entered = self._entered(value)
        given = self._givens.cells.get(value)
        if given is None:
            return entered
        return given | entered if entered else given

    def _entered(self, value: int) -> frozenset[Cell]:
        """The entries' cells showing ``value`` now."""
        found = self._changed.get(value)
        if found is not None:
            return found
        return self._entries_index().cells.get(value, NO_CELLS)

    def _entries_index(self) -> NumberIndex:
        """The entries' index as they were before this request's changes (``_changed``):
        the store's, or made once here."""
        if self._entries is None:
            kept = self._kept
            if kept is not None:
                # What the store's index says with this puzzle's givens, worked out (or found)
                # before any change of this request: the store's write then carries it to the
                # next text's index for the few numbers the move touched.
                kept.on_board(self._givens, self._open_numbers)
                self._entries = kept
            else:
                self._entries = NumberIndex.of(self.state.entries)
            self._kept = None
            self._changed = {}
        return self._entries

    def _on_board(self) -> OnBoard:
        """The numbers twice on the board and the open numbers absent, before this request's
        changes (``_changed``)."""
        return self._entries_index().on_board(self._givens, self._open_numbers)

    def _forget_index(self) -> None:
        """The entries were replaced wholesale (Restart, Reveal, Undo of a Restart)."""
        self._entries = self._kept = None
        self._changed = {}
        self.state.changed_cells = None

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
        # Every given is on a cell of the board (Puzzle checks): no need to list the open cells.
        return self.puzzle.size - len(self.puzzle.givens)

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
                  raw: str | None = None, error: str | None = None, marked: bool = True) -> CellView:
        """How ``cell`` is drawn now; ``marked``: whether right and wrong are shown."""
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
            notes=tuple(sorted(self.state.notes.get(cell, ()))),
            marked=marked or self.finished,
        )

    def missing(self) -> list[tuple[int, int]]:
        """The numbers no cell shows yet, as runs (low, high)."""
        # The runs the entries' index says with the givens (carried from move to move by the
        # store's index, ``NumberIndex.on_board``), then this request's few changes put in or
        # taken out; no pass over the board or over the numbers.
        runs = list(self._on_board().runs)
        open_numbers = self._open_numbers
        for value, cells in self._changed.items():
            if value in open_numbers:
                if cells:
                    take_out(runs, value)
                else:
                    put_in(runs, value)
        return runs

    def duplicates(self, first: int | None = None) -> list[tuple[int, list[Cell]]]:
        """Numbers shown in more than one cell, with their cells; only the ``first`` lowest
        such numbers when given (the page names five: a board full of wrong numbers has a
        hundred, and sorting each one's cells cost more than the rest of the list)."""
        # The numbers twice before this request's changes (twice among the givens or the
        # entries as read, or in both), the changed numbers asked again; not the whole board.
        givens, entries, changed = self._givens, self._entries_index(), self._changed
        twice: Set[int] = self._on_board().twice
        if changed:
            twice = (twice - changed.keys()) | {v for v in changed if len(self.holding(v)) > 1}
        # ``holding`` written out: called for each of up to a hundred numbers, it cost more
        # than the sorting.
        given, entered, now = givens.cells.get, entries.cells.get, changed.get
        found = []
        numbers = sorted(twice)
        for v in numbers if first is None else numbers[:first]:
            cells = now(v)
            if cells is None:
                cells = entered(v, NO_CELLS)
            also = given(v)
            found.append((v, sorted(cells) if also is None else sorted(also | cells)))
        return found

    def duplicates_changed_by(self, old: int, new: int) -> bool:
        """Whether a cell going from ``old`` to ``new`` (0: empty), already done, changed
        ``duplicates()``: only if ``old`` was shown twice or more before (it still shows
        somewhere) or ``new`` is now."""
        if old == new:
            return False
        return bool(old and self.holding(old)) or bool(new and len(self.holding(new)) > 1)

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

    def _require_open(self, cell: Cell) -> None:
        """A move's precondition, not a verdict on the number: EntryError unless ``cell`` is an
        open cell of the board and the game still takes moves."""
        if cell not in self.puzzle.board.cell_set:
            raise EntryError(N_("Row %(row)s, column %(col)s is not a cell of this board"), **_where(cell))
        if cell in self.puzzle.givens:
            raise EntryError(N_("Row %(row)s, column %(col)s holds a given number and cannot be changed"),
                             **_where(cell))
        if self.finished:
            raise EntryError(N_("This puzzle is finished: restart it to play again"))

    def enter(self, cell: Cell, value: int, now: datetime | None = None) -> bool:
        """Put ``value`` (0 clears) in ``cell``; returns whether anything changed."""
        self._require_open(cell)
        old = self.state.entries.get(cell, 0)
        if old == value:
            return False
        self._record(CellMove(cell, old, value))
        self._set(cell, value)
        if value:
            self.state.notes.pop(cell, None)
        if value and self.solution.get(cell) != value:
            self.state.mistakes += 1
        self._after_change(now)
        return True

    def _set(self, cell: Cell, value: int) -> None:
        entries = self.state.entries
        old = entries.get(cell)
        if value:
            entries[cell] = value
        else:
            entries.pop(cell, None)
        touched = self.state.changed_cells
        if touched is not None:
            touched.add(cell)
        if self._entries is None:
            if self._kept is None:
                return  # indexed from the entries when first asked for
            self._entries_index()  # the store's index, of the entries before this change: cheap
        # Frozen sets, replaced rather than changed: the kept index shares them.
        changed = self._changed
        if old:
            changed[old] = self._entered(old) - {cell}
        if value:
            changed[value] = self._entered(value) | {cell}

    def _record(self, move: Move) -> None:
        """Put ``move`` on the undo chain after the moves applied: what could be redone goes,
        and the oldest move once Undo would reach back more than MAX_HISTORY."""
        state = self.state
        if state.redo_top > state.undo_pos:
            state.moves.cut(state.undo_pos)
        state.undo_pos = state.redo_top = state.undo_pos + 1
        state.moves.put(state.undo_pos, move)
        if state.redo_top - state.undo_floor > MAX_HISTORY:
            state.undo_floor = state.redo_top - MAX_HISTORY
            state.moves.forget(state.undo_floor)

    def can_undo(self) -> bool:
        """Something to take back: an entry, a clear or a Restart."""
        return not self.finished and self.state.undo_pos > self.state.undo_floor

    def can_redo(self) -> bool:
        return not self.finished and self.state.undo_pos < self.state.redo_top

    def undo(self, now: datetime | None = None) -> Cell | None:
        """Take back the last move; returns its cell (a Restart's: the first cell it brings
        back), None if there was nothing to undo."""
        if not self.can_undo():
            return None
        move = self.state.moves.get(self.state.undo_pos)
        self.state.undo_pos -= 1
        if isinstance(move, RestartMove):
            self._put_back(move)
            cell = min(move.entries, default=None)
        else:
            self._set(move.cell, move.old)
            cell = move.cell
        self._after_change(now)
        return cell

    def redo(self, now: datetime | None = None) -> Cell | None:
        """Apply again the move last undone; returns its cell (a Restart's: the first cell
        it clears), None if there was nothing to redo."""
        if not self.can_redo():
            return None
        move = self.state.moves.get(self.state.undo_pos + 1)
        self.state.undo_pos += 1
        if isinstance(move, RestartMove):
            self.state.entries, self.state.notes, self.state.mistakes = {}, {}, 0
            self._forget_index()
            cell = min(move.entries, default=None)
        else:
            self._set(move.cell, move.new)
            cell = move.cell
        self._after_change(now)
        return cell

    def restart(self, now: datetime | None = None) -> None:
        """Clear every entry, note and mistake, as one move Undo takes back, and start the
        clock afresh (Undo does not bring the time back).  A solved or revealed game starts
        afresh with nothing to undo; a board already clear adds no move."""
        state = self.state
        if self.finished:
            state.moves.cut(0)
            state.undo_pos = state.undo_floor = state.redo_top = 0
        elif state.entries or state.notes or state.mistakes:
            self._record(RestartMove(dict(state.entries),
                                     {cell: frozenset(marks) for cell, marks in state.notes.items()},
                                     state.mistakes))
        state.clear(now or utcnow())
        self._forget_index()

    def undoes_restart(self) -> bool:
        """Whether Undo now brings back the board from before a Restart."""
        return self.can_undo() and isinstance(self.state.moves.get(self.state.undo_pos), RestartMove)

    def _put_back(self, restart: RestartMove) -> None:
        """The board, the notes and the mistakes as they were before ``restart``."""
        self.state.entries = dict(restart.entries)
        self.state.notes = {cell: set(marks) for cell, marks in restart.notes.items()}
        self.state.mistakes = restart.mistakes
        self._forget_index()

    # --- notes ------------------------------------------------------------------------

    def toggle_note(self, cell: Cell, value: int, now: datetime | None = None) -> bool:
        """Add ``value`` to the cell's notes, or take it away; returns whether it is there now."""
        self._require_open(cell)
        if not 1 <= value <= self.puzzle.size:
            raise EntryError(N_("%(number)s is out of range: notes are numbers from 1 to %(size)s"),
                             number=value, size=self.puzzle.size)
        if cell in self.state.entries:
            raise EntryError(N_("Row %(row)s, column %(col)s holds a number: clear it to write notes there"),
                             **_where(cell))
        marks = self.state.notes.setdefault(cell, set())
        if len(marks) >= MAX_NOTES and value not in marks:
            raise EntryError(N_("Row %(row)s, column %(col)s already has %(count)s notes: take one away first"),
                             count=MAX_NOTES, **_where(cell))
        marks.symmetric_difference_update({value})
        if not marks:
            del self.state.notes[cell]
        self.touch(now)
        return value in marks

    def fill_notes(self, candidates: Mapping[Cell, tuple[int, ...]]) -> int:
        """Notes from the engine's candidates in each empty cell with few enough possible
        numbers; returns how many cells got them."""
        filled = 0
        for cell, numbers in candidates.items():
            if cell in self.state.entries or cell in self.puzzle.givens or not 0 < len(numbers) <= MAX_NOTES:
                continue
            self.state.notes[cell] = set(numbers)
            filled += 1
        return filled

    def reveal(self, now: datetime | None = None) -> None:
        """Fill in the whole solution; the game ends unsolved."""
        now = now or utcnow()
        self.stop_clock(now)
        self.state.entries = {cell: self.solution[cell] for cell in self.open_cells}
        self.state.revealed = True
        self._forget_index()

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
        """Whether the server's clock counts now (from the first entry or action on)."""
        return self.state.clock_started is not None

    @property
    def ticking(self) -> bool:
        """Whether the page's clock counts: from the moment the page opens, unless the game
        is paused or finished (the server's clock joins in with the first entry or action)."""
        return not self.finished and not self.state.paused

    @property
    def epoch(self) -> str:
        """Which run of the game the clock belongs to: empty before the first entry, new after
        each Restart (a page keeps its own count only within one run)."""
        started = self.state.started
        return started.strftime("%Y%m%d%H%M%S%f") if started else ""

    def sync_clock(self, shown: int, ceiling: int, now: datetime | None = None) -> None:
        """Take the seconds a page has shown (it counts from the moment it opens, before the
        server knows of the game), at most ``ceiling`` (what it can have counted since it was
        sent), never less than the server's own; the clock then runs from ``now``."""
        if self.finished or self.state.paused:
            return
        now = now or utcnow()
        self.stop_clock(now)
        self.state.elapsed = max(self.state.elapsed, float(max(0, min(shown, ceiling))))
        self.touch(now)

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
