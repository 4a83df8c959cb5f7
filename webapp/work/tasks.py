"""What the children of ``budget.run_with_budget`` run: the engine's expensive calls.

Nothing of the web app is imported here (no Flask, no database): each child is forked
from a process that has loaded only the engine and this module, so it starts in
milliseconds.  Each call is also given the engine's own budget, a little shorter than
the child's, so it usually stops by itself with a clear answer and the kill is only
the backstop.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

import engine
from engine import Adjacency, Cell, Generated, Grade, Puzzle, SolveResult, SolverGaveUp

# Tried in this order when a puzzle has no unique solution with the adjacency chosen: a
# Numbrix puzzle pasted as a Hidato (the default) is the usual case, a hex one the rarer.
OTHER_ADJACENCIES: dict[str, tuple[Adjacency, ...]] = {
    "king": ("rook", "hex"),
    "rook": ("king", "hex"),
    "hex": ("king", "rook"),
}


@dataclass(frozen=True)
class Examined:
    """What the editor's buttons need: the solutions found, the grade when asked, and
    another adjacency under which the puzzle has exactly one solution when it has not."""

    result: SolveResult
    grade: Grade | None = None
    grade_gave_up: bool = False
    unique_with: str | None = None


def solve(puzzle: Puzzle, seconds: float) -> SolveResult:
    """Up to two solutions (enough to tell a unique puzzle), within ``seconds``."""
    return engine.solve(puzzle, limit=2, max_seconds=seconds)


def examine(puzzle: Puzzle, grade: bool, seconds: float) -> Examined:
    """Solve (and, if asked and the puzzle is unique, grade) within ``seconds`` in all; a
    puzzle settled as having no solution or several is tried with the other adjacencies
    in what is left of them."""
    started = time.perf_counter()
    result = solve(puzzle, seconds)
    if result.complete and result.count != 1:
        return Examined(result, unique_with=unique_with(puzzle, seconds - (time.perf_counter() - started)))
    if not grade or result.count != 1 or not result.complete:
        return Examined(result)
    left = max(0.05, seconds - result.seconds)
    try:
        return Examined(result, engine.grade(puzzle, max_seconds=left))
    except SolverGaveUp:
        return Examined(result, grade_gave_up=True)


def unique_with(puzzle: Puzzle, seconds: float) -> str | None:
    """The first other adjacency under which the same cells and givens have exactly one
    solution, each tried with its share of ``seconds``; None when none is found in time."""
    deadline = time.perf_counter() + seconds
    others = OTHER_ADJACENCIES[puzzle.board.adjacency]
    for index, adjacency in enumerate(others):
        left = deadline - time.perf_counter()
        if left <= 0.01:
            break
        other = Puzzle(replace(puzzle.board, adjacency=adjacency), puzzle.givens)
        found = engine.solve(other, limit=2, max_seconds=left / (len(others) - index))
        if found.complete and found.count == 1:
            return adjacency
    return None


def generate(shape: str, size: int, difficulty: str, adjacency: str, seed: int, seconds: float) -> Generated:
    """A new puzzle on a named shape, within ``seconds``."""
    return engine.generate_shape(shape, size, difficulty, adjacency, seed=seed,  # type: ignore[arg-type]
                                 max_seconds=seconds)


def generate_on(cells: list[Cell], adjacency: str, difficulty: str, seed: int, seconds: float) -> Generated:
    """A new puzzle on a board of these cells (the solver page's drawing), within ``seconds``."""
    board = engine.Board.from_cells(cells, adjacency)  # type: ignore[arg-type]
    return engine.generate(board, difficulty, seed=seed, max_seconds=seconds)
