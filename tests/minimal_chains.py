"""A minimal puzzle on a random path, as the whip and braid tests start from: the puzzle
and its solution, its chains after singles (whips on), and the braids closing it as
``reduction.add_back`` does."""

from __future__ import annotations

import random

from engine import Board, reduction
from engine.board import Grid, Puzzle
from engine.chains import Chains
from engine.paths import random_hamiltonian_path
from engine.rating import LogicSolve


def minimal_puzzle(adjacency: str, size: int, seed: int) -> tuple[Puzzle, Grid]:
    """A minimal puzzle on a random path of a size x size board, and its solution."""
    board = Board.rectangle(size, size, adjacency)  # type: ignore[arg-type]
    rng = random.Random(seed)
    path = random_hamiltonian_path(board, rng)
    solution: Grid = {board.cells[i]: k for k, i in enumerate(path, start=1)}
    return Puzzle(board, reduction.to_minimal(board, solution, rng, None)), solution


def minimal_chains(adjacency: str, size: int, seed: int) -> tuple[Chains, dict[int, int]]:
    """The chains of a minimal puzzle on a size x size board after singles, and its solution."""
    puzzle, solution = minimal_puzzle(adjacency, size, seed)
    ch = Chains(puzzle, whips=True)
    ch.singles()
    return ch, {k: puzzle.board.bit(cell) for cell, k in solution.items()}


def close_as_add_back(puzzle: Puzzle, solution: Grid, cap: int, tries: int = 3) -> None:
    """Braids (no whips) closing the puzzle up to ``cap``, a number given back where they
    stop, as ``reduction.add_back`` does, at most ``tries`` times."""
    where = {k: cell for cell, k in solution.items()}
    solve = LogicSolve(Puzzle(puzzle.board, dict(puzzle.givens)), whips=False)
    for _ in range(tries):
        if solve.close(cap):
            break
        k = reduction.most_telling(solve.chains)
        solve.chains.cand[k] = puzzle.board.bit(where[k])
        solve.chains.singles()
        solve.dead.clear()
