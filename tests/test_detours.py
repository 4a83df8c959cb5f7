"""The cheap look for a second solution (``engine/detours.py``) that lets the generator
skip a full search: whenever it says a given's removal leaves a second way, a naive
search must find two solutions; and it does find such ways, on every adjacency."""

from __future__ import annotations

import random

import pytest

from engine import Board, Puzzle
from engine.detours import has_detour, has_swap
from engine.paths import random_hamiltonian_path
from engine.reduction import _second_way

from brute_force import brute_force_solutions


@pytest.mark.parametrize("adjacency", ["king", "rook", "hex"])
def test_a_second_way_it_reports_is_a_second_solution(adjacency):
    seen = 0
    for seed in range(40):
        rng = random.Random(seed)
        board = Board.rectangle(4, 4, adjacency)
        order = random_hamiltonian_path(board, rng)
        solution = {board.cells[i]: k for k, i in enumerate(order, start=1)}
        n = board.size
        givens = {c: v for c, v in solution.items() if v in (1, n) or rng.random() < 0.35}
        for cell, number in list(givens.items()):
            if number in (1, n):
                continue
            trial = {c: v for c, v in givens.items() if c != cell}
            if _second_way(board, list(order), trial, number):
                seen += 1
                assert len(brute_force_solutions(Puzzle(board, trial), limit=2)) == 2
    assert seen >= 5  # the look is exercised, not silently always False


def _routes(board: Board, stretch: list[int], limit: int = 2) -> int:
    """Paths from the stretch's first cell to its last through exactly its cells (naively)."""
    inside, end, count = set(stretch), stretch[-1], 0

    def walk(at: int, seen: set[int]) -> None:
        nonlocal count
        if count >= limit:
            return
        if at == end:
            count += len(seen) == len(inside)
            return
        for j in board.neighbours[at]:
            if j in inside and j not in seen:
                walk(j, seen | {j})

    walk(stretch[0], {stretch[0]})
    return count


@pytest.mark.parametrize("adjacency", ["king", "rook", "hex"])
def test_a_detour_is_found_exactly_when_the_stretch_can_be_walked_another_way(adjacency):
    answers = set()
    for seed in range(10):
        board = Board.rectangle(3, 3, adjacency)
        path = random_hamiltonian_path(board, random.Random(seed))
        for i in range(len(path)):
            for j in range(i + 3, len(path)):
                stretch = path[i:j + 1]
                found = has_detour(board, stretch)
                assert found == (_routes(board, stretch) == 2), stretch
                answers.add(found)
    assert answers == {True, False} or adjacency == "rook"


def test_a_given_inside_a_stretch_keeps_its_place():
    king = Board.rectangle(2, 3, "king")  # cells 0 1 2 / 3 4 5
    stretch = [0, 1, 2, 5, 4, 3]
    assert has_detour(king, stretch)  # 0 1 5 2 4 3, among others
    # Cells 1 and 5 kept at their places (second and fourth): the naive list of routes judges.
    pinned = frozenset({1, 3})
    others = [r for r in _all_routes(king, stretch) if r != stretch and all(r[p] == stretch[p] for p in pinned)]
    assert has_detour(king, stretch, pinned) == bool(others)


def _all_routes(board: Board, stretch: list[int]) -> list[list[int]]:
    inside, end, out = set(stretch), stretch[-1], []

    def walk(route: list[int]) -> None:
        if route[-1] == end:
            if len(route) == len(inside):
                out.append(route)
            return
        for j in board.neighbours[route[-1]]:
            if j in inside and j not in route:
                walk([*route, j])

    walk([stretch[0]])
    return out


def test_two_numbers_that_can_trade_cells_are_found():
    board = Board.rectangle(3, 3, "king")
    path = [0, 1, 2, 5, 4, 3, 6, 7, 8]  # a snake: 0 1 2 / 5 4 3 / 6 7 8 by rows of cells
    grid = {board.cells[i]: k for k, i in enumerate(path, start=1)}
    for number in range(2, 9):
        given = {k for k in range(1, 10) if k in (1, 9) or abs(k - number) > 1}
        if has_swap(board, path, given, number):
            puzzle = Puzzle(board, {c: v for c, v in grid.items() if v in given})
            assert len(brute_force_solutions(puzzle, limit=2)) == 2
    # 2 (top middle) and 5 (the centre) trade: the centre touches 1 and 3, the top middle 4 and 6.
    assert has_swap(board, path, {1, 3, 4, 6, 7, 8, 9}, 2)
    assert not has_swap(board, path, {1, 3, 4, 5, 6, 7, 8, 9}, 2)  # 5 given: nothing to trade with
