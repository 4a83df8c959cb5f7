"""Candidates: the numbers a player could pencil into each empty cell by looking at the
numbers around it (the play page's "Fill candidates"), with no deduction chained on top.

A missing number k fits an empty cell when, for the placed numbers nearest to it, a below
and b above, the cell is within k - a steps of a and within b - k steps of b (steps
through empty cells, on the board's adjacency: the numbers between a and k are all
missing, so the path to k runs through empty cells).  Nothing else is used: no "only
cell left", no regions, no what-ifs, so on an easy puzzle most cells still show a few
numbers and the player does the solving.

The numbers placed are the givens and the player's entries.  Entries that cannot all be
right (a number entered twice, two numbers too far apart for the steps between them, a
cell left with no number at all) are set aside and the candidates come from the givens
alone, so a mistake never empties the board of candidates.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence

from .board import Cell, Puzzle
from .solver import SolverGaveUp

Distances = dict[int, int]  # cell index -> steps from a placed number, within its reach


def candidates(puzzle: Puzzle, entries: Mapping[Cell, int] | None = None,
               max_seconds: float | None = None) -> dict[Cell, tuple[int, ...]]:
    """For each cell that is neither given nor entered, the missing numbers that fit the
    distances to the placed numbers before and after them, smallest first.

    Raises SolverGaveUp past ``max_seconds``.
    """
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    entries = dict(entries or {})
    found = _candidates(puzzle, {**puzzle.givens, **entries}, deadline) if entries else None
    if found is None:
        found = _candidates(puzzle, dict(puzzle.givens), deadline)
    if found is None:
        return {}  # the givens themselves cannot be right: nothing to suggest
    return {puzzle.board.cells[i]: numbers for i, numbers in found.items() if puzzle.board.cells[i] not in entries}


def _candidates(puzzle: Puzzle, placed: Mapping[Cell, int],
                deadline: float | None) -> dict[int, tuple[int, ...]] | None:
    """Candidates by cell index, or None when the placed numbers cannot all be right."""
    board, n = puzzle.board, puzzle.size
    neighbours = board.neighbours
    at: dict[int, int] = {}  # number -> the index of its cell
    for cell, number in placed.items():
        if number in at or not 1 <= number <= n:
            return None
        at[number] = board.index[cell]
    is_empty = [cell not in placed for cell in board.cells]
    found: dict[int, list[int]] = {i: [] for i in range(board.size) if is_empty[i]}
    numbers = sorted(at)
    # Each run of missing numbers between placed a and b (0 and n + 1 past the ends).
    for a, b in zip([0, *numbers], [*numbers, n + 1], strict=True):
        if deadline is not None and time.perf_counter() > deadline:
            raise SolverGaveUp("candidates not found in time")
        if a >= 1 and b <= n and b - a == 1:
            if at[b] not in neighbours[at[a]]:
                return None  # consecutive numbers that do not touch
            continue
        most = b - a - 1  # the furthest a missing number of the run can be from a or b
        below = _reach(neighbours, is_empty, at[a], most) if a >= 1 else None
        above = _reach(neighbours, is_empty, at[b], most) if b <= n else None
        if below is not None and above is not None and not any(
                j == at[a] or below.get(j, most + 1) < most + 1 for j in neighbours[at[b]]):
            return None  # a and b are further apart than the numbers between them can bridge
        for i in found:
            low = a + 1 if below is None else a + below.get(i, n + 1)
            high = b - 1 if above is None else b - above.get(i, n + 1)
            found[i].extend(range(low, high + 1))
    if any(not fits for fits in found.values()):
        return None  # some cell can hold no missing number: something placed is wrong
    return {i: tuple(fits) for i, fits in found.items()}


def _reach(neighbours: Sequence[Sequence[int]], is_empty: list[bool], start: int, most: int) -> Distances:
    """Empty cells within ``most`` steps of ``start`` through empty cells, and how many."""
    seen = {start: 0}
    frontier = [start]
    for step in range(1, most + 1):
        following = []
        for i in frontier:
            for j in neighbours[i]:
                if is_empty[j] and j not in seen:
                    seen[j] = step
                    following.append(j)
        if not following:
            break
        frontier = following
    del seen[start]
    return seen
