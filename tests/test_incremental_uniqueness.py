"""The incremental uniqueness checks (``engine/incremental.py``) answer as a fresh search.

``to_minimal`` runs on real random paths of each adjacency; every check it makes is
asked both ways, one incremental solver against a fresh propagation, encoding and
search per check.  Where both answer within the step budget the answers must agree;
a check that runs out of steps on one side only is where the two may part (the
solvers' learnt clauses differ).  On rook boards up to a third of the checks run out
of steps on one side or the other, so "definite" is asked of most, not all.
"""

from __future__ import annotations

import random

import pytest

from engine import Board, Puzzle, count_solutions, reduction
from engine.board import Cell, Grid
from engine.incremental import UniquenessChecks
from engine.paths import random_hamiltonian_path

CASES = [(adjacency, size, seed) for adjacency in ("king", "hex", "rook") for size, seed in ((8, 1), (10, 2), (12, 3))]


def _solution(adjacency: str, size: int, seed: int) -> tuple[Board, Grid]:
    board = Board.rectangle(size, size, adjacency)  # type: ignore[arg-type]
    path = random_hamiltonian_path(board, random.Random(seed))
    return board, {board.cells[i]: k for k, i in enumerate(path, start=1)}


@pytest.mark.parametrize(("adjacency", "size", "seed"), CASES)
def test_every_check_answers_as_a_fresh_search(monkeypatch, adjacency, size, seed):
    board, solution = _solution(adjacency, size, seed)
    asked: list[tuple[bool | None, bool | None]] = []
    incremental = UniquenessChecks.another

    def both(self: UniquenessChecks, givens: Grid, upcoming: list[Cell], cell: Cell, max_nodes: int) -> bool | None:
        answer = incremental(self, givens, upcoming, cell, max_nodes)
        trial = {c: v for c, v in givens.items() if c != cell}
        asked.append((answer, reduction.fresh_another(board, solution, trial, cell, None)))
        return answer

    monkeypatch.setattr(UniquenessChecks, "another", both)
    givens = reduction.to_minimal(board, solution, random.Random(seed), None)
    assert asked, "no check reached the search"
    definite = [(a, b) for a, b in asked if a is not None and b is not None]
    assert all(a == b for a, b in definite), [pair for pair in asked if None not in pair and pair[0] != pair[1]]
    assert len(definite) >= 0.6 * len(asked)
    assert any(a is False for a, _ in definite)
    assert count_solutions(Puzzle(board, givens)) == 1


@pytest.mark.parametrize(("adjacency", "size", "seed"), CASES)
def test_each_given_of_a_minimal_puzzle_is_needed_both_ways(adjacency, size, seed):
    """Taking any one given from a minimal puzzle leaves a second solution: one solver
    for all of them, the encoding reused across its window, must find each, as a fresh
    search does (the detours find most of these first in ``to_minimal``)."""
    board, solution = _solution(adjacency, size, seed)
    givens = reduction.to_minimal(board, solution, random.Random(seed), None)
    order = [cell for cell in givens if solution[cell] not in (1, len(solution))]
    checks = UniquenessChecks(board, solution)
    try:
        answers = []
        for at, cell in enumerate(order):
            trial = {c: v for c, v in givens.items() if c != cell}
            answers.append((checks.another(givens, order[at + 1:], cell, 1000),
                            reduction.fresh_another(board, solution, trial, cell, None)))
    finally:
        checks.close()
    definite = [(a, b) for a, b in answers if a is not None and b is not None]
    assert len(definite) >= 0.6 * len(answers)
    assert all(a == b for a, b in definite), answers
    assert checks.rebuilds < len(order)


def test_incremental_minimal_puzzles_are_unique_and_the_same_for_the_same_seed():
    for adjacency in ("king", "hex", "rook"):
        board, solution = _solution(adjacency, 10, 7)
        first = reduction.to_minimal(board, solution, random.Random(7), None)
        again = reduction.to_minimal(board, solution, random.Random(7), None)
        assert first == again
        assert count_solutions(Puzzle(board, first)) == 1
        assert len(first) < len(solution) // 2
