"""Stored puzzles: by id and short code, the pool of ready ones, the puzzles of the day,
ids found unplayable; each process keeps the puzzles in play in memory."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from engine import format_puzzle, parse_puzzle

from ..core.game import utcnow
from ..core.stored import StoredPuzzle
from .database import Database, key_of
from .models import PuzzleRow, UnplayableRow

# Stored puzzles each server process keeps in memory (a 30x30 one is a few hundred KB).
PUZZLE_CACHE_SIZE = 256


class PuzzleRecords(Database):
    """Puzzles, the pool and the puzzles of the day."""

    def __init__(self, url: str, upgrade: bool = True):
        super().__init__(url, upgrade)
        # Stored puzzles never change (but for becoming a puzzle of the day, which
        # save_puzzle tells this cache), so each process keeps the ones in play: an entry
        # then costs no puzzle lookup and no parsing of the board.
        self._puzzles: OrderedDict[str, StoredPuzzle] = OrderedDict()
        self._puzzles_lock = threading.Lock()

    def find_puzzle(self, code: str) -> StoredPuzzle | None:
        """The stored puzzle with this compact id, or None."""
        with self._puzzles_lock:
            cached = self._puzzles.get(code)
            if cached is not None:
                self._puzzles.move_to_end(code)
                return cached
        with self._reading() as session:
            row = session.scalar(select(PuzzleRow).where(PuzzleRow.key == key_of(code)))
            found = stored_from_row(row) if row else None
        if found is not None:
            self._remember(code, found)
        return found

    def short_code(self, code: str) -> str | None:
        """A stored puzzle's short code (its row number in base 36), for printed links."""
        with self._reading() as session:
            found = session.scalar(select(PuzzleRow.id).where(PuzzleRow.key == key_of(code)))
            return base36(found) if found is not None else None

    def find_short(self, short: str) -> StoredPuzzle | None:
        """The stored puzzle a short code names, or None."""
        if not short or len(short) > 7 or not short.isalnum() or not short.isascii():
            return None
        number = int(short.lower(), 36)
        if number > 2**31 - 1:  # past any row id (an INTEGER column)
            return None
        with self._reading() as session:
            row = session.get(PuzzleRow, number)
            return stored_from_row(row) if row else None

    def _remember(self, code: str, stored: StoredPuzzle | None) -> None:
        """Keep (or, with None, forget) a stored puzzle in this process's cache."""
        with self._puzzles_lock:
            if stored is None:
                self._puzzles.pop(code, None)
                return
            self._puzzles[code] = stored
            self._puzzles.move_to_end(code)
            while len(self._puzzles) > PUZZLE_CACHE_SIZE:
                self._puzzles.popitem(last=False)

    def save_puzzle(self, stored: StoredPuzzle, pooled: bool = False) -> StoredPuzzle:
        """Store a puzzle (kept as it is if already there); returns what is stored."""
        try:
            with self._session() as session:
                row = session.scalar(select(PuzzleRow).where(PuzzleRow.key == key_of(stored.code)))
                if row is None:
                    row = puzzle_row(stored, pooled)
                    session.add(row)
                    session.flush()
                elif stored.daily and row.daily is None and not pooled:
                    row.daily = stored.daily
                    self._remember(stored.code, None)
                return stored_from_row(row)
        except IntegrityError:
            # Saved at the same moment by another request, or the date already has one.
            found = self.daily(stored.daily) if stored.daily else None
            return found or self.find_puzzle(stored.code) or stored

    def find_unplayable(self, code: str) -> str | None:
        """Why this id cannot be played, if it was found so before."""
        with self._reading() as session:
            row = session.get(UnplayableRow, key_of(code))
            return row.message if row else None

    def save_unplayable(self, code: str, message: str) -> None:
        """Remember that this id cannot be played, and why."""
        try:
            with self._session() as session:
                if session.get(UnplayableRow, key_of(code)) is None:
                    session.add(UnplayableRow(key=key_of(code), message=message, created=utcnow()))
        except IntegrityError:
            pass  # remembered at the same moment by another request

    def take_from_pool(self, shape: str, size: int, difficulty: str, adjacency: str) -> StoredPuzzle | None:
        """Hand out the oldest pooled puzzle made with these options, or None."""
        with self._session() as session:
            query = (
                select(PuzzleRow)
                .where(
                    PuzzleRow.pooled.is_(True),
                    PuzzleRow.shape == shape,
                    PuzzleRow.size == size,
                    PuzzleRow.difficulty == difficulty,
                    PuzzleRow.adjacency == adjacency,
                )
                .order_by(PuzzleRow.id)
                .limit(1)
                .with_for_update(skip_locked=True)
            )
            row = session.scalar(query)
            if row is None:
                return None
            row.pooled = False
            return stored_from_row(row)

    def pool_counts(self) -> dict[tuple[str, int, str, str], int]:
        """Pooled puzzles waiting, by (shape, size, difficulty, adjacency)."""
        with self._reading() as session:
            query = (
                select(PuzzleRow.shape, PuzzleRow.size, PuzzleRow.difficulty, PuzzleRow.adjacency,
                       func.count())
                .where(PuzzleRow.pooled.is_(True))
                .group_by(PuzzleRow.shape, PuzzleRow.size, PuzzleRow.difficulty, PuzzleRow.adjacency)
            )
            return {(s, n or 0, d or "", a): count for s, n, d, a, count in session.execute(query)}

    def daily(self, day: date) -> StoredPuzzle | None:
        """The puzzle of the day for ``day``, if made."""
        with self._reading() as session:
            row = session.scalar(select(PuzzleRow).where(PuzzleRow.daily == day))
            return stored_from_row(row) if row else None

    def dailies(self, before: date, limit: int = 60) -> list[StoredPuzzle]:
        """The puzzles of past days (before ``before``), the latest first: the archive."""
        with self._reading() as session:
            rows = session.scalars(select(PuzzleRow).where(PuzzleRow.daily < before)
                                   .order_by(PuzzleRow.daily.desc()).limit(limit))
            return [stored_from_row(row) for row in rows]


def puzzle_row(stored: StoredPuzzle, pooled: bool) -> PuzzleRow:
    return PuzzleRow(
        key=key_of(stored.code),
        code=stored.code,
        shape=stored.shape,
        size=stored.size,
        adjacency=stored.adjacency,
        difficulty=stored.difficulty,
        grade=json.dumps(stored.grade) if stored.grade is not None else None,
        puzzle=format_puzzle(stored.puzzle),
        solution=format_puzzle(stored.puzzle, stored.solution),
        seed=stored.seed,
        created=stored.created or utcnow(),
        pooled=pooled,
        daily=None if pooled else stored.daily,
    )


def stored_from_row(row: PuzzleRow) -> StoredPuzzle:
    puzzle = parse_puzzle(row.puzzle)
    solution = dict(parse_puzzle(row.solution, adjacency=puzzle.board.adjacency).givens)
    return StoredPuzzle(
        code=row.code,
        puzzle=puzzle,
        solution=solution,
        shape=row.shape,
        size=row.size,
        difficulty=row.difficulty,
        grade=json.loads(row.grade) if row.grade else None,
        seed=row.seed,
        created=row.created,
        daily=row.daily,
        row_id=row.id,
    )


def base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out
