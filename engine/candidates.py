"""Candidates: the numbers each empty cell can still hold, as the grader's easy and medium
rules see it from the givens and a player's entries (the "fill candidates" of the play page).

Entries that break the rules (a duplicate, a number that cannot be reached) are left out
and the candidates come from the givens alone, so a mistake never empties the board of
candidates; with a correct board they are exactly what the medium tier can deduce.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from .board import Cell, Puzzle
from .propagation import TimeUp
from .solver import SolverGaveUp
from .tiers import logic_solve

_TIER = 2  # singles, dead ends and paths: what a player deduces at a glance


def candidates(puzzle: Puzzle, entries: Mapping[Cell, int] | None = None,
               max_seconds: float | None = None) -> dict[Cell, tuple[int, ...]]:
    """For each cell that is neither given nor entered, the numbers it may still hold.

    Raises SolverGaveUp past ``max_seconds``.
    """
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    entries = dict(entries or {})
    try:
        found = _candidates(_with_entries(puzzle, entries), entries, deadline)
        if found is None and entries:
            found = _candidates(puzzle, entries, deadline)
    except TimeUp:
        raise SolverGaveUp(f"candidates not found within {max_seconds} seconds") from None
    return found or {}


def _with_entries(puzzle: Puzzle, entries: Mapping[Cell, int]) -> Puzzle:
    try:
        return Puzzle(puzzle.board, {**puzzle.givens, **entries})
    except ValueError:  # a number entered twice
        return puzzle


def _candidates(puzzle: Puzzle, entries: Mapping[Cell, int],
                deadline: float | None) -> dict[Cell, tuple[int, ...]] | None:
    """None when the board contradicts itself."""
    result = logic_solve(puzzle, _TIER, deadline)
    if result.contradiction is not None:
        return None
    board = puzzle.board
    found: dict[Cell, list[int]] = {}
    for k in range(1, puzzle.size + 1):
        for i in board.cells_of_mask(result.cand[k]):
            cell = board.cells[i]
            if cell not in puzzle.givens and cell not in entries:
                found.setdefault(cell, []).append(k)
    return {cell: tuple(numbers) for cell, numbers in found.items()}
