"""The generator: puzzles with exactly one solution, at a chosen difficulty, on any shape.

A random Hamiltonian path over the board is the solution.  Clues are then removed in a
random order with a judge after every removal; 1 and N always stay.  For easy to hard
the judge is the grader's logic solver at that tier: if it still finishes the puzzle,
the solution is unique (every technique is sound).  Expert goes further with the full
search, asking "is there a solution where this cell holds another number?" under a node
budget; a check that runs out of budget keeps its clue, so uniqueness is never assumed.
The result must grade exactly as asked (solved at its tier, not at the one below),
otherwise another path is tried.  Everything random comes from one ``random.Random``
seeded by the request, so the same request gives the same puzzle everywhere.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .board import Adjacency, Board, Cell, Grid, Puzzle
from .grading import DIFFICULTIES, Grade, grade, logic_solve
from .paths import random_hamiltonian_path
from .shapes import ShapeError, check_playable, shape_board
from .solver import count_solutions, solve

_ATTEMPTS = 12  # paths tried before giving up on a difficulty the board cannot reach
_EXPERT_CHECK_NODES = 1000  # per "another solution?" check; past it the clue stays
_FINAL_CHECK_NODES = 200_000


class GenerationError(ValueError):
    """No puzzle of the requested kind could be made (e.g. a tiny board and 'expert')."""


@dataclass(frozen=True)
class Generated:
    """A generated puzzle with its solution and how it was made."""

    puzzle: Puzzle
    solution: Grid
    shape: str
    size: int
    difficulty: str
    adjacency: str
    seed: int
    grade: Grade
    seconds: float


def generate(
    shape: str,
    size: int,
    difficulty: str = "medium",
    adjacency: Adjacency = "king",
    seed: int = 0,
    rows: int | None = None,
    cols: int | None = None,
    cells: list[Cell] | None = None,
) -> Generated:
    """A unique puzzle of ``difficulty`` on the named shape (or on ``cells``, a custom mask)."""
    started = time.perf_counter()
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r} (expected {', '.join(DIFFICULTIES)})")
    if cells is not None:
        board = Board.from_cells(cells, adjacency)
        check_playable(board)
    else:
        board = shape_board(shape, size, adjacency, rows, cols)
    # A string seed is hashed with SHA-512 by random.seed: the same on every machine.
    rng = random.Random(f"{shape}/{size}/{rows}/{cols}/{adjacency}/{difficulty}/{seed}/{sorted(cells or [])}")
    tier = DIFFICULTIES.index(difficulty) + 1
    for _ in range(_ATTEMPTS):
        order = random_hamiltonian_path(board, rng)
        solution = {board.cells[i]: k for k, i in enumerate(order, start=1)}
        givens = _reduce(board, solution, tier, rng)
        puzzle = Puzzle(board, givens)
        graded = grade(puzzle)
        if graded.level != difficulty:
            continue  # easier than asked (the path allowed no harder puzzle): try another
        _assert_unique(puzzle, solution)
        return Generated(
            puzzle=puzzle,
            solution=solution,
            shape=shape if cells is None else "custom",
            size=size,
            difficulty=difficulty,
            adjacency=adjacency,
            seed=seed,
            grade=graded,
            seconds=time.perf_counter() - started,
        )
    article = "an" if difficulty[0] in "aeiou" else "a"
    raise GenerationError(
        f"could not make {article} {difficulty} puzzle on this {board.size}-cell board; try a larger size or an easier level"
    )


def _reduce(board: Board, solution: Grid, tier: int, rng: random.Random) -> Grid:
    """Remove clues in random order while the judge of ``tier`` still finds the solution."""
    n = board.size
    givens = dict(solution)
    order = [cell for cell in board.cells if solution[cell] not in (1, n)]
    rng.shuffle(order)
    logic_tier = min(tier, 3)
    for cell in order:
        trial = {c: v for c, v in givens.items() if c != cell}
        if logic_solve(Puzzle(board, trial), logic_tier).solved:
            givens = trial
    if tier < 4:
        return givens
    # Expert: keep removing while the full search proves no other solution exists.
    rest = [cell for cell in order if cell in givens]
    for cell in rest:
        trial = {c: v for c, v in givens.items() if c != cell}
        other = solve(
            Puzzle(board, trial),
            max_nodes=_EXPERT_CHECK_NODES,
            forbid={cell: solution[cell]},
            prefer=solution,
        )
        if other.complete and not other.solutions:
            givens = trial
    return givens


def _assert_unique(puzzle: Puzzle, solution: Grid) -> None:
    """The last word: the full search agrees that this is the only solution."""
    found = solve(puzzle, limit=2, max_nodes=_FINAL_CHECK_NODES)
    if found.count != 1 or found.solution != solution:
        raise AssertionError("generated puzzle is not unique")  # a bug, never a user error


__all__ = ["GenerationError", "Generated", "ShapeError", "count_solutions", "generate"]
