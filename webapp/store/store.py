"""The store: the one object the other layers use to reach the database, made of one class
per kind of record (each in its own module); the other layers get plain dataclasses back,
never ORM rows.

- ``database.py``: the engine, sessions and locks, the URL (SQLite by default, PostgreSQL);
- ``puzzles.py``: stored puzzles, the pool, the puzzles of the day;
- ``progress.py``: players' games (``progress_codec.py`` writes them into their rows);
- ``rates.py``: the rate limits' counts.

Jobs, claims and the shared key are in ``shared.py``; boards wished for in ``wishes.py``.
"""

from __future__ import annotations

from .database import database_url, key_of, private_sqlite_file
from .progress import DailyRecord, ProgressRecords, ProgressSummary
from .puzzles import PuzzleRecords
from .rates import RateRecords

__all__ = ["DailyRecord", "ProgressSummary", "Store", "database_url", "key_of", "private_sqlite_file"]


class Store(PuzzleRecords, ProgressRecords, RateRecords):
    """The database: puzzles, the pool, puzzles of the day, players' progress, rate counts."""
