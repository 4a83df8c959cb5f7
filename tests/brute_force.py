"""An independent, deliberately naive solution counter used to check the real solver.

It walks every path from every possible cell of 1, with no deduction at all, so it is
only usable on small boards.
"""

from __future__ import annotations

from engine import Grid, Puzzle


def brute_force_solutions(puzzle: Puzzle, limit: int = 1000) -> list[Grid]:
    """All solutions (up to ``limit``) found by plain depth-first search."""
    board = puzzle.board
    n = board.size
    fixed = {value: board.index[cell] for cell, value in puzzle.givens.items()}
    found: list[Grid] = []
    order: list[int] = []
    used = [False] * n

    def extend(k: int) -> None:
        if len(found) >= limit:
            return
        if k > n:
            found.append({board.cells[i]: v + 1 for v, i in enumerate(order)})
            return
        options = board.neighbours[order[-1]] if order else range(n)
        for i in options:
            if used[i] or (k in fixed and fixed[k] != i):
                continue
            if k not in fixed and i in fixed.values():
                continue
            used[i] = True
            order.append(i)
            extend(k + 1)
            order.pop()
            used[i] = False

    extend(1)
    return found
