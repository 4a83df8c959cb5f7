"""A puzzle as the site keeps it: the puzzle, its unique solution and how it was made.

``stored_from`` is the one place a generated puzzle becomes a stored one (its grade as
``grade_record`` keeps it: level, rating, longest chain, uses); ``generate``
makes one in this process (the pool filler's and the command line's way; the web app
runs the same in a child process under a time budget).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import engine
from engine import Generated, Grade, Grid, Puzzle, puzzle_to_id

from .options import Options


@dataclass(frozen=True)
class StoredPuzzle:
    """A puzzle as stored: the puzzle, its unique solution and how it was made."""

    code: str
    puzzle: Puzzle
    solution: Grid
    shape: str = "custom"
    size: int | None = None
    difficulty: str | None = None
    grade: dict[str, Any] | None = None
    seed: int | None = None
    created: datetime | None = None
    daily: date | None = None
    # The database's number for it, once stored (puzzles are never deleted, so it never
    # changes): a player's move then needs no lookup of the puzzle by its id.
    row_id: int | None = None

    @property
    def adjacency(self) -> str:
        return self.puzzle.board.adjacency

    @property
    def rating(self) -> float | None:
        """The rating on the chain scale, 4.2; None for a puzzle stored without one (made
        before ratings, when the grade held only a level and its techniques)."""
        rating = (self.grade or {}).get("rating")
        return float(rating) if isinstance(rating, (int, float)) and not isinstance(rating, bool) else None

    @property
    def rating_text(self) -> str | None:
        """The rating as English writes it, "4.2" (pages and sheets write it in the reader's
        locale: ``messages.decimal``)."""
        rating = self.rating
        return None if rating is None else f"{rating:.1f}"


def stored_from(made: Generated, daily: date | None = None) -> StoredPuzzle:
    """A generated puzzle as it is stored."""
    return StoredPuzzle(
        code=puzzle_to_id(made.puzzle),
        puzzle=made.puzzle,
        solution=dict(made.solution),
        shape=made.shape,
        size=made.size if made.shape != "custom" else None,
        difficulty=made.difficulty,
        grade=grade_record(made.grade),
        seed=made.seed,
        daily=daily,
    )


def grade_record(grade: Grade) -> dict[str, Any]:
    """A grade as stored (JSON): the level, the rating, the longest chain, and how many
    candidates each chain length ruled out (keys are strings, as JSON has them)."""
    rating = grade.rating
    return {"level": grade.level, "rating": round(rating.score, 1), "length": rating.length,
            "uses": {str(length): count for length, count in rating.uses.items()}}


def generate(options: Options, seed: int | None = None, daily: date | None = None,
             max_seconds: float | None = None) -> StoredPuzzle:
    """A new puzzle of these options, made in this process."""
    if seed is None:
        seed = secrets.randbits(48)
    made = engine.generate_shape(options.shape, options.size, options.difficulty, options.adjacency,  # type: ignore[arg-type]
                                 seed=seed, max_seconds=max_seconds)
    return stored_from(made, daily)
