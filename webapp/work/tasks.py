"""What the children of ``budget.run_with_budget`` run: the engine's expensive calls.

Nothing of the web app is imported here (no Flask, no database): each child is forked
from a process that has loaded only the engine and this module, so it starts in
milliseconds.  Each call is also given the engine's own budget, a little shorter than
the child's, so it usually stops by itself with a clear answer and the kill is only
the backstop.
"""

from __future__ import annotations

from dataclasses import dataclass

import engine
from engine import Cell, Generated, Grade, Puzzle, SolveResult, SolverGaveUp


@dataclass(frozen=True)
class Examined:
    """What the editor's buttons need: the solutions found, and the grade when asked."""

    result: SolveResult
    grade: Grade | None = None
    grade_gave_up: bool = False


def solve(puzzle: Puzzle, seconds: float) -> SolveResult:
    """Up to two solutions (enough to tell a unique puzzle), within ``seconds``."""
    return engine.solve(puzzle, limit=2, max_seconds=seconds)


def examine(puzzle: Puzzle, grade: bool, seconds: float) -> Examined:
    """Solve (and, if asked and the puzzle is unique, grade) within ``seconds`` in all."""
    result = solve(puzzle, seconds)
    if not grade or result.count != 1 or not result.complete:
        return Examined(result)
    left = max(0.05, seconds - result.seconds)
    try:
        return Examined(result, engine.grade(puzzle, max_seconds=left))
    except SolverGaveUp:
        return Examined(result, grade_gave_up=True)


def generate(shape: str, size: int, difficulty: str, adjacency: str, seed: int, seconds: float) -> Generated:
    """A new puzzle on a named shape, within ``seconds``."""
    return engine.generate_shape(shape, size, difficulty, adjacency, seed=seed,  # type: ignore[arg-type]
                                 max_seconds=seconds)


def generate_on(cells: list[Cell], adjacency: str, difficulty: str, seed: int, seconds: float) -> Generated:
    """A new puzzle on a board of these cells (the solver page's drawing), within ``seconds``."""
    board = engine.Board.from_cells(cells, adjacency)  # type: ignore[arg-type]
    return engine.generate(board, difficulty, seed=seed, max_seconds=seconds)
