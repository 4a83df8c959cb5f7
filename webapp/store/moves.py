"""A game's moves in the ``moves`` table, as the game's ``MoveLog``: a row is read only when
Undo or Redo needs that move, and what a request changed is written when it saves (one
INSERT; one DELETE besides when a move cut the Redo chain or forgotten moves are cleared
away), so an entry costs the same after two moves or two thousand."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import ColumnElement, Table, delete, insert, or_, select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from ..core.game import Move
from .models import MoveRow
from .prepared import DriverTransaction, Prepared, PreparedSet
from .progress_codec import MOVE_COLUMNS, move_from_values, move_values

# Moves Undo no longer reaches (core.game.MAX_HISTORY) are deleted this many at a time:
# a long game at the cap deletes nothing on 99 entries in 100.
FORGET_BATCH = 100

Reader = Callable[[int], Move]
MOVES: Table = MoveRow.__table__  # type: ignore[assignment]  # declared a FromClause
# Built once: a statement built anew for every move costs more than sending it, and the
# compiled form is cached against the statement's structure either way.
_INSERT_MOVE = insert(MOVES)
# One move, the INSERT of every entry: sent to the driver directly (``prepared.py``).
_ADD_MOVE = PreparedSet(lambda dialect: Prepared(_INSERT_MOVE, dialect, ("progress_id", "number", *MOVE_COLUMNS)))


class ReadOnlyMoves(RuntimeError):
    """A game loaded only to be shown was changed: change it through ``update_progress``."""


def read_move(session: Session | Connection, progress_id: int, number: int) -> Move:
    """One move of a game, read in ``session`` (or on a connection, in its transaction)."""
    found = session.execute(
        select(*(getattr(MoveRow, name) for name in MOVE_COLUMNS))
        .where(MoveRow.progress_id == progress_id, MoveRow.number == number)
    ).one_or_none()
    if found is None:
        raise LookupError(f"move {number} of game {progress_id} is not stored")
    return move_from_values(*found)


def no_moves(number: int) -> Move:
    """The reader of a game not stored yet: it has no moves to read."""
    raise LookupError(f"move {number} of a game not stored yet")


class StoredMoves:
    """The moves of one stored game: those read or made in this request, and the changes
    still to write."""

    def __init__(self, read: Reader, floor: int, writable: bool = True):
        self._read = read
        self._floor = floor  # the game's undo_floor as it was loaded
        self._writable = writable
        self._known: dict[int, Move] = {}
        self._new: dict[int, Move] = {}
        self._cut: int | None = None  # stored moves above this number go
        self._forget = 0  # stored moves up to this number go

    def get(self, number: int) -> Move:
        if number not in self._known:
            self._known[number] = self._read(number)
        return self._known[number]

    def put(self, number: int, move: Move) -> None:
        self._require_writable()
        self._known[number] = self._new[number] = move

    def cut(self, after: int) -> None:
        self._require_writable()
        if self._cut is None or after < self._cut:
            self._cut = after
        for moves in (self._known, self._new):
            for number in [n for n in moves if n > after]:
                del moves[number]

    def forget(self, upto: int) -> None:
        self._require_writable()
        if upto // FORGET_BATCH > self._floor // FORGET_BATCH:
            self._forget = upto
        for moves in (self._known, self._new):
            for number in [n for n in moves if n <= upto]:
                del moves[number]

    def replace_all(self, moves: dict[int, Move]) -> None:
        """The game's moves are ``moves`` now, and only those (a row an old host saved)."""
        self.cut(0)
        for number, move in sorted(moves.items()):
            self.put(number, move)

    def write(self, writing: DriverTransaction, progress_id: int) -> None:
        """Write this request's changes (in the transaction that saves the game)."""
        gone: list[ColumnElement[bool]] = []
        if self._cut is not None:
            gone.append(MOVES.c.number > self._cut)
        if self._forget:
            gone.append(MOVES.c.number <= self._forget)
        # The table's own statements, not the ORM's bulk ones: nothing to track, less to build.
        if gone:
            writing.connection.execute(delete(MOVES).where(MOVES.c.progress_id == progress_id, or_(*gone)))
        rows = [{"progress_id": progress_id, "number": number, **move_values(move)}
                for number, move in sorted(self._new.items())]
        if len(rows) == 1:
            _ADD_MOVE.on(writing).run(writing, rows[0])
        elif rows:
            writing.connection.execute(_INSERT_MOVE, rows)

    def settle(self, read: Reader) -> None:
        """The game is saved: later reads go through ``read`` (the transaction is over), and
        changes are refused."""
        self._read, self._writable = read, False
        self._new, self._cut, self._forget = {}, None, 0

    def _require_writable(self) -> None:
        if not self._writable:
            raise ReadOnlyMoves("this game was loaded to be shown: change it through update_progress")
