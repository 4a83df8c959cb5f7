"""A minimal puzzle on a random path, as the whip tests start from: its chains after
singles (whips on), and its solution as number -> cell bit."""

from __future__ import annotations

import random

from engine import Board, reduction
from engine.board import Grid, Puzzle
from engine.chains import Chains
from engine.paths import random_hamiltonian_path


def minimal_chains(adjacency: str, size: int, seed: int) -> tuple[Chains, dict[int, int]]:
    """The chains of a minimal puzzle on a size x size board after singles, and its solution."""
    board = Board.rectangle(size, size, adjacency)  # type: ignore[arg-type]
    rng = random.Random(seed)
    path = random_hamiltonian_path(board, rng)
    solution: Grid = {board.cells[i]: k for k, i in enumerate(path, start=1)}
    ch = Chains(Puzzle(board, reduction.to_minimal(board, solution, rng, None)), whips=True)
    ch.singles()
    return ch, {k: board.bit(cell) for cell, k in solution.items()}
