"""``reduction.to_minimal``'s first pass asks the quick rule tier alone whether a given can
go: a cheap look that finds a second way (``reduction._second_way``) only ever skipped
rules that could not finish the puzzle anyway, since sound rules never finish a puzzle with
two solutions.  Checked on every trial of that pass, on boards of each adjacency: where the
look finds a second way, the rules do not finish, so dropping the look keeps every minimal
puzzle."""

from __future__ import annotations

import random

import pytest

from engine import Board, reduction
from engine.board import Grid, Puzzle
from engine.paths import random_hamiltonian_path
from engine.rigid import rigid_path
from engine.tiers import logic_solve

CASES = [("rook", 8, 1), ("rook", 10, 2), ("king", 9, 3), ("hex", 9, 4), ("hex", 10, 5)]


@pytest.mark.parametrize(("adjacency", "size", "seed"), CASES)
def test_a_second_way_means_the_quick_tier_does_not_finish(adjacency, size, seed):
    board = Board.rectangle(size, size, adjacency)
    rng = random.Random(seed)
    path = rigid_path(board, random_hamiltonian_path(board, rng), rng, 100)
    solution: Grid = {board.cells[i]: k for k, i in enumerate(path, start=1)}
    order = [board.index[c] for c, _ in sorted(solution.items(), key=lambda item: item[1])]
    givens = dict(solution)
    second_ways = 0
    for cell in reduction.removal_order(board, solution, rng):
        trial = {c: v for c, v in givens.items() if c != cell}
        solved = logic_solve(Puzzle(board, trial), 1).solved
        if reduction._second_way(board, order, trial, solution[cell]):
            second_ways += 1
            assert not solved
        if solved:
            givens = trial
    assert second_ways  # the look found some: the test would prove nothing otherwise
    # And to_minimal's first pass, on the same removal order, keeps those same givens.
    rng = random.Random(seed)
    rigid_path(board, random_hamiltonian_path(board, rng), rng, 100)
    assert set(givens) >= set(reduction.to_minimal(board, solution, rng, None))
