"""Players' progress: each player's game on each puzzle, saved atomically (one move at a
time, whatever else writes), their list of puzzles and their puzzles of the day.

A game is its progress row and its moves (``moves.py``): a request reads the row, and a
move only if Undo or Redo needs it; a move writes the row and adds one moves row."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from types import SimpleNamespace
from typing import Any, TypeVar, cast

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..core.game import Move, State, utcnow
from ..core.stored import StoredPuzzle
from .database import Database, key_of
from .models import ProgressRow, PuzzleRow
from .moves import Reader, StoredMoves, no_moves, read_move
from .prepared import Prepared, PreparedSet
from .progress_codec import ROW_COLUMNS, ProgressValues, old_moves, row_values, state_from_row
from .puzzles import stored_from_row

T = TypeVar("T")

# A move reads and writes its game's row with the table's own statements, built once: the
# ORM's loading, tracking and flushing cost more than the statements themselves, and
# building a statement anew for every move costs more than sending it.  The row is locked
# where the database can (PostgreSQL: FOR UPDATE; SQLite: the write lock taken at BEGIN).
_PROGRESS: Table = ProgressRow.__table__  # type: ignore[assignment]  # declared a FromClause
_GAME_FOR_MOVE = (
    select(_PROGRESS)
    .where(_PROGRESS.c.player == bindparam("player"), _PROGRESS.c.puzzle_id == bindparam("puzzle_id"))
    .with_for_update()
)
# The values are the parameters' other keys (``row_values``).
_SAVE_GAME = update(_PROGRESS).where(_PROGRESS.c.id == bindparam("row_id"))
_NEW_GAME = insert(_PROGRESS)
# The two a move sends on every entry, compiled once per database and sent to the driver
# directly (``prepared.py``): SQLAlchemy's execution of a statement cost more than sending it.
_READ_GAME = PreparedSet(lambda dialect: Prepared(_GAME_FOR_MOVE, dialect))
_WRITE_GAME = PreparedSet(lambda dialect: Prepared(_SAVE_GAME, dialect, ROW_COLUMNS))


@dataclass(frozen=True)
class ProgressSummary:
    """One line of a player's list of puzzles."""

    puzzle: StoredPuzzle
    state: State
    updated: datetime
    filled: int = 0
    total: int = 0


@dataclass(frozen=True)
class DailyRecord:
    """A player's puzzles of the day: the days solved, and their game on today's (None: not begun)."""

    solved: frozenset[date]
    today: State | None


class ProgressRecords(Database):
    """Players' games."""

    def load_progress(self, player: str, code: str) -> State | None:
        """A player's saved game on a puzzle, or None if they never played it."""
        with self._reading() as session:
            row = session.scalar(
                select(ProgressRow)
                .join(PuzzleRow, ProgressRow.puzzle_id == PuzzleRow.id)
                .where(ProgressRow.player == player, PuzzleRow.key == key_of(code))
            )
            return self._shown_state(row) if row else None

    def update_progress(self, player: str, code: str, change: Callable[[State], T],
                        puzzle_id: int | None = None) -> tuple[State, T]:
        """Run ``change`` on the player's game (a new one if none) and save it, atomically.

        The puzzle must be stored already (``puzzle_id``, its ``row_id``, saves looking it
        up).  Returns the saved state and what ``change`` returned.
        """
        for attempt in range(3):
            try:
                done = self._update_progress(player, code, change, create=True, puzzle_id=puzzle_id)
                assert done is not None
                return done
            except IntegrityError:
                # Two first moves at once on PostgreSQL (no row to lock yet): the loser retries.
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def update_existing_progress(self, player: str, code: str, change: Callable[[State], Any]) -> bool:
        """Like ``update_progress`` for a game the player has already started; whether there was one."""
        return self._update_progress(player, code, change, create=False) is not None

    def _update_progress(self, player: str, code: str, change: Callable[[State], T],
                         create: bool, puzzle_id: int | None = None) -> tuple[State, T] | None:
        # A driver connection, not an ORM session nor a Connection: their bookkeeping cost
        # more than the statements; the seldom statements go through ``writing.connection``.
        with self._writing() as writing:
            if puzzle_id is None:
                puzzle_id = writing.connection.scalar(select(PuzzleRow.id).where(PuzzleRow.key == key_of(code)))
            if puzzle_id is None:
                raise LookupError(f"puzzle {code!r} is not stored")
            found = _READ_GAME.on(writing).first(writing, {"player": player, "puzzle_id": puzzle_id})
            row = cast(ProgressValues, SimpleNamespace(**found)) if found is not None else None
            if row is None and not create:
                return None
            if row is None:
                moves = StoredMoves(no_moves, floor=0)
                state = State(moves=moves)
            else:
                progress_id = row.id
                moves = StoredMoves(lambda number: read_move(writing.connection, progress_id, number),
                                    floor=row.undo_floor)
                old = old_moves(row)
                if old is not None:  # saved by a host on the previous release: its moves move in
                    moves.replace_all(old[0])
                state = state_from_row(row, moves)
            result = change(state)
            now = utcnow()
            if row is None:
                values = row_values(state, None, now)
                inserted = writing.connection.execute(_NEW_GAME, {"player": player, "puzzle_id": puzzle_id, **values})
                key = inserted.inserted_primary_key
                assert key is not None
                progress_id = key[0]  # the row's id, for its moves
            else:
                values = {"row_id": progress_id, **row_values(state, row.started, now, row.entries)}
                _WRITE_GAME.on(writing).run(writing, values)
            moves.write(writing, progress_id)
        # Whoever holds the saved game may still ask for a move: outside this transaction.
        moves.settle(self._reader(progress_id))
        return state, result

    def list_progress(self, player: str) -> list[ProgressSummary]:
        """Every puzzle the player has played, the most recently played first."""
        with self._reading() as session:
            query = (
                select(ProgressRow, PuzzleRow)
                .join(PuzzleRow, ProgressRow.puzzle_id == PuzzleRow.id)
                .where(ProgressRow.player == player)
                .order_by(ProgressRow.updated.desc(), ProgressRow.id.desc())
            )
            return [self._summary(progress, puzzle) for progress, puzzle in session.execute(query)]

    def daily_record(self, player: str, today: date) -> DailyRecord:
        """The days whose puzzle of the day the player solved, and their game on today's:
        one query, on the player's rows for puzzles of the day only."""
        with self._reading() as session:
            query = (
                select(PuzzleRow.daily, ProgressRow)
                .join(PuzzleRow, ProgressRow.puzzle_id == PuzzleRow.id)
                .where(ProgressRow.player == player, PuzzleRow.daily.is_not(None),
                       (ProgressRow.solved_at.is_not(None)) | (PuzzleRow.daily == today))
            )
            solved: set[date] = set()
            state = None
            for day, progress in session.execute(query):
                if progress.solved_at is not None and day is not None:
                    solved.add(day)
                if day == today:
                    state = self._shown_state(progress)
            return DailyRecord(frozenset(solved), state)

    def last_unfinished(self, player: str, besides: str | None = None) -> ProgressSummary | None:
        """The player's most recently played game that is neither solved nor revealed
        (``besides``: but this puzzle's), or None."""
        with self._reading() as session:
            query = (
                select(ProgressRow, PuzzleRow)
                .join(PuzzleRow, ProgressRow.puzzle_id == PuzzleRow.id)
                .where(ProgressRow.player == player, ProgressRow.solved_at.is_(None),
                       ProgressRow.revealed.is_(False))
                .order_by(ProgressRow.updated.desc(), ProgressRow.id.desc())
                .limit(1)
            )
            if besides is not None:
                query = query.where(PuzzleRow.key != key_of(besides))
            found = session.execute(query).first()
            return self._summary(*found) if found is not None else None

    def _shown_state(self, row: ProgressRow) -> State:
        """A game read to be shown: its moves are read (each in a transaction of its own)
        only if asked for, and it cannot be changed."""
        if old_moves(row) is not None:  # saved by a host on the previous release
            return state_from_row(row)
        return state_from_row(row, StoredMoves(self._reader(row.id), floor=row.undo_floor, writable=False))

    def _reader(self, progress_id: int) -> Reader:
        """Reads one move of a game in a reading transaction of its own."""

        def read(number: int) -> Move:
            with self._reading() as session:
                return read_move(session, progress_id, number)

        return read

    def _summary(self, progress: ProgressRow, puzzle: PuzzleRow) -> ProgressSummary:
        stored = stored_from_row(puzzle)
        state = self._shown_state(progress)
        total = stored.puzzle.size - len(stored.puzzle.givens)
        return ProgressSummary(stored, state, progress.updated, len(state.entries), total)
