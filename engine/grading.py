"""A puzzle's difficulty: its rating on the chain scale, and the level that rating falls in."""

from __future__ import annotations

from dataclasses import dataclass

from .board import Puzzle
from .levels import DIFFICULTIES, level_of
from .rating import Rating, rate


@dataclass(frozen=True)
class Grade:
    """A puzzle's level and the rating behind it."""

    level: str
    rating: Rating

    @property
    def solved_by_logic(self) -> bool:
        """False when chains up to the longest allowed cannot finish it: it needs a guess."""
        return self.rating.solved

    @property
    def score(self) -> float:
        return self.rating.score


def grade(puzzle: Puzzle, max_seconds: float | None = None) -> Grade:
    """The rating of ``puzzle`` and its level; a puzzle that needs guessing is "expert"
    with ``solved_by_logic`` False.

    Raises ValueError when the givens contradict each other, SolverGaveUp past
    ``max_seconds``."""
    rating = rate(puzzle, max_seconds=max_seconds)
    level = level_of(rating.length) if rating.solved else DIFFICULTIES[-1]
    return Grade(level, rating)


__all__ = ["DIFFICULTIES", "Grade", "grade"]
