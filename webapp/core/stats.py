"""A player's record from their games: puzzles solved, the best time for each kind of
puzzle, and the streak of daily puzzles solved on consecutive days."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

from .game import Game, State
from .options import variant_of
from .stored import StoredPuzzle


@dataclass(frozen=True)
class Best:
    """The best (shortest) time on one kind of puzzle, and how many of them were solved."""

    variant: str  # its key ("numbrix"): pages name it in their language
    shape: str
    difficulty: str
    solved: int
    seconds: float


@dataclass(frozen=True)
class Record:
    solved: int
    best: list[Best]
    streak: int  # daily puzzles solved on consecutive days, up to today or yesterday
    daily_solved: frozenset[date]


def record(games: Iterable[tuple[StoredPuzzle, State]], today: date) -> Record:
    """The record of these games (revealed ones never count)."""
    solved = [(stored, state) for stored, state in games if state.solved_at is not None]
    kinds: dict[tuple[str, str, str], list[float]] = {}
    for stored, state in solved:
        kind = (variant_of(stored.puzzle.board.adjacency).key, stored.shape or "custom", stored.difficulty or "—")
        kinds.setdefault(kind, []).append(Game(stored.puzzle, stored.solution, state).seconds())
    best = [Best(v, s, d, len(times), min(times)) for (v, s, d), times in sorted(kinds.items())]
    days = frozenset(stored.daily for stored, _state in solved if stored.daily is not None)
    return Record(len(solved), best, streak(days, today), days)


def streak(days: frozenset[date], today: date) -> int:
    """Consecutive days ending today (or yesterday, when today's is still to do)."""
    day = today if today in days else today - timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= timedelta(days=1)
    return count
