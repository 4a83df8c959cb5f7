"""The exact solver: finds solutions, proves there are none, counts them up to a limit.

Two stages.  Propagation (``propagation.py``, pure Python) narrows each number's
candidate cells with sound deductions; it alone finishes most published puzzles, and when
the givens contradict each other it says why in words.  What it leaves open goes to a
SAT solver (CaDiCaL through python-sat, ``encoding.py``): conflict learning handles the
interlocking choices of minimal puzzles far better than a hand-written backtracking
search (measured in ``bench/``; see the README's "Roads not taken").  Counting asks for
another solution with a clause that blocks each one found.  A board so open that the
encoding would be huge goes to a plain depth-first search instead (``backtrack.py``).  Every solution is checked with
``is_solution`` before it is returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Mapping

from pysat.solvers import Solver

from .backtrack import backtrack
from .board import Board, Cell, Grid, Puzzle, is_solution
from .encoding import encode
from .propagation import Propagator

_SAT_SOLVER = "cadical195"
# Open (number, cell) pairs beyond which a board is too open to encode: such boards go
# to a plain depth-first search, which finds their many solutions quickly.
_SAT_SIZE_LIMIT = 40_000
_CONFLICTS_PER_SLICE = 2_000  # about 0.1 s of search between looks at the clock


class SolverGaveUp(RuntimeError):
    """The search ran out of its step or time budget before it could answer."""


@dataclass
class SolveResult:
    """What a search found: the solutions (at most ``limit``) and whether it finished."""

    solutions: list[Grid] = field(default_factory=list)
    complete: bool = True
    nodes: int = 0  # search steps: the SAT solver's conflicts
    seconds: float = 0.0
    reason: str | None = None
    limit: int = 1

    @property
    def count(self) -> int:
        """Solutions found; equal to the true count when the search completed below ``limit``."""
        return len(self.solutions)

    @property
    def gave_up(self) -> bool:
        """The budget ran out before the question was answered."""
        return not self.complete and len(self.solutions) < self.limit

    @property
    def solution(self) -> Grid | None:
        return self.solutions[0] if self.solutions else None


def start_state(puzzle: Puzzle, forbid: Mapping[Cell, int] | None = None) -> list[int]:
    """Candidate masks from the givens: a given's cell, else every cell not given."""
    board, n = puzzle.board, puzzle.size
    cand = [0] * (n + 2)
    taken = 0
    for cell, value in puzzle.givens.items():
        cand[value] = board.bit(cell)
        taken |= cand[value]
    for k in range(1, n + 1):
        if not cand[k]:
            cand[k] = board.mask & ~taken
    for cell, value in (forbid or {}).items():
        if 1 <= value <= n and cell in board.cell_set:
            cand[value] &= ~board.bit(cell)
    return cand


def gap_check(puzzle: Puzzle) -> str | None:
    """Consecutive givens must be no further apart than their difference allows."""
    board = puzzle.board
    ordered = sorted((v, board.index[c]) for c, v in puzzle.givens.items())
    for (a, pa), (b, pb) in zip(ordered, ordered[1:]):
        d = board.distances_from(pa)[pb]
        if d < 0 or d > b - a:
            ra, ca = board.cells[pa]
            rb, cb = board.cells[pb]
            apart = "are not connected" if d < 0 else f"are {d} steps apart"
            return (
                f"{a} at row {ra + 1}, column {ca + 1} and {b} at row {rb + 1}, column {cb + 1} "
                f"{apart}, but only {b - a} steps lie between them"
            )
    return None


def solve(
    puzzle: Puzzle,
    limit: int = 1,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    forbid: Mapping[Cell, int] | None = None,
    prefer: Mapping[Cell, int] | None = None,
) -> SolveResult:
    """Search for up to ``limit`` solutions, within an optional step or time budget.

    ``forbid`` ({cell: number}) keeps only solutions where none of those cells holds that
    number: the generator asks "is there a solution other than the known one?" this way.
    ``prefer`` ({cell: number}) is tried first, so the search looks near a known solution.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    start = time.perf_counter()
    board, n = puzzle.board, puzzle.size
    result = SolveResult(limit=limit)
    cand = start_state(puzzle, forbid)
    rules = Propagator(board)
    reason = rules.propagate(cand, list(range(1, n + 1)))
    if reason is not None:
        # Propagation noticed first; two givens too far apart is the clearer way to say it.
        reason = gap_check(puzzle) or reason
    else:
        left = None if max_seconds is None else max(0.0, max_seconds - (time.perf_counter() - start))
        open_size = sum(c.bit_count() for c in cand if c & (c - 1))
        if open_size <= _SAT_SIZE_LIMIT:
            _search(puzzle, cand, result, max_nodes, left, prefer)
        else:
            deadline = None if left is None else time.perf_counter() + left
            states, result.complete, result.nodes = backtrack(rules, cand, limit, max_nodes, deadline)
            for state in states:
                _record(puzzle, state, result)
    result.reason = reason
    result.seconds = time.perf_counter() - start
    return result


def _search(
    puzzle: Puzzle,
    cand: list[int],
    result: SolveResult,
    max_nodes: int | None,
    max_seconds: float | None,
    prefer: Mapping[Cell, int] | None,
) -> None:
    """Hand what propagation left open to the SAT solver; collect solutions into ``result``."""
    board = puzzle.board
    encoding = encode(board, cand)
    if not encoding.var:
        _record(puzzle, cand, result)
        return
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    with Solver(name=_SAT_SOLVER, bootstrap_with=encoding.clauses) as sat:
        if prefer:
            sat.set_phases([v if prefer.get(board.cells[i]) == k else -v for (k, i), v in encoding.var.items()])
        while len(result.solutions) < result.limit:
            answer = _solve_once(sat, max_nodes, deadline)
            if answer is None:
                result.complete = False
                break
            if not answer:
                break
            model = sat.get_model()
            _record(puzzle, encoding.decode(model, cand, board), result)
            sat.add_clause(encoding.blocking_clause(model))
        result.nodes = _conflicts(sat)


def _conflicts(sat: Solver) -> int:
    return int(sat.accum_stats().get("conflicts", 0))


def _solve_once(sat: Solver, max_nodes: int | None, deadline: float | None) -> bool | None:
    """True (a model), False (no more), or None when the budget ran out.

    CaDiCaL cannot be interrupted from another thread, so a time budget is kept by
    solving in slices of conflicts and looking at the clock between them.
    """
    if max_nodes is None and deadline is None:
        return bool(sat.solve())
    while True:
        slice_ = _CONFLICTS_PER_SLICE
        if max_nodes is not None:
            left = max_nodes - _conflicts(sat)
            if left <= 0:
                return None
            slice_ = min(slice_, left)
        if deadline is not None and time.perf_counter() > deadline:
            return None
        sat.conf_budget(slice_)
        answer = sat.solve_limited()
        if answer is not None:
            return bool(answer)


def _record(puzzle: Puzzle, cand: list[int], result: SolveResult) -> None:
    board: Board = puzzle.board
    lookup = board.cell_of_bitpos
    grid = {board.cells[lookup[cand[k].bit_length() - 1]]: k for k in range(1, puzzle.size + 1)}
    if not is_solution(puzzle, grid):
        raise AssertionError("solver produced an invalid grid")  # a bug, never a user error
    result.solutions.append(dict(sorted(grid.items())))


def count_solutions(
    puzzle: Puzzle,
    limit: int = 2,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> int:
    """Number of solutions, capped at ``limit``; raises SolverGaveUp if the budget runs out."""
    result = solve(puzzle, limit, max_nodes, max_seconds)
    if result.gave_up:
        raise SolverGaveUp(f"gave up after {result.nodes} search steps and {result.seconds:.2f} s")
    return result.count
