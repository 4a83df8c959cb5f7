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

A step budget (``max_nodes``: SAT conflicts, or nodes of the plain search) decides what
a call answers, the same on any machine.  A time budget covers the whole call too:
propagation looks at the clock as it works (``Propagator.deadline``), the encoding is
skipped when time is up, and the SAT search runs in slices of conflicts that double
from a fixed first size (CaDiCaL cannot be interrupted from another thread), looking at
the clock between them.  The slices never depend on the clock, so a search the clock
does not stop finds what it would have found without one; one it stops says it gave up.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise

from pysat.solvers import Solver

from .backtrack import backtrack
from .board import Board, Cell, Grid, Puzzle, is_solution
from .encoding import encode
from .propagation import Propagator, TimeUp
from .words import Phrase

_SAT_SOLVER = "cadical195"
# Open (number, cell) pairs beyond which a board is too open to encode: such boards go
# to a plain depth-first search, which finds their many solutions quickly.
_SAT_SIZE_LIMIT = 40_000
# Conflicts between looks at the clock: the first slice is small, each next one twice
# the last, up to _MAX_SLICE.  Fixed sizes, never the measured pace: where a slice ends
# changes what CaDiCaL finds next, so the clock must not decide it.
_FIRST_SLICE = 100
_MAX_SLICE = 2_000
_CLAUSES_PER_LOAD = 10_000
# CaDiCaL's inprocessing passes can each run for most of a second on a large formula,
# and cannot be cut short; without them a slice never overruns by much, and the
# benchmarks' puzzles solve as fast (measured: bench/solve_bench.py).
_SAT_OPTIONS = {"vivify": 0, "elim": 0, "probe": 0, "subsume": 0}


class SolverGaveUp(RuntimeError):
    """The search ran out of its step or time budget before it could answer."""


@dataclass
class SolveResult:
    """What a search found: the solutions (at most ``limit``) and whether it finished."""

    solutions: list[Grid] = field(default_factory=list)
    complete: bool = True
    nodes: int = 0  # search steps: the SAT solver's conflicts
    seconds: float = 0.0
    reason: Phrase | None = None  # why there is no solution, when the rules saw it (English, with its facts)
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


def gap_check(puzzle: Puzzle) -> Phrase | None:
    """Consecutive givens must be no further apart than their difference allows."""
    board = puzzle.board
    ordered = sorted((v, board.index[c]) for c, v in puzzle.givens.items())
    for (a, pa), (b, pb) in pairwise(ordered):
        d = board.distances_from(pa)[pb]
        facts = {"low": a, "low_cell": board.cells[pa], "high": b, "high_cell": board.cells[pb]}
        if d < 0:
            return Phrase("%(low)s at %(low_cell)s and %(high)s at %(high_cell)s are not connected: no path of "
                          "cells leads from one to the other", **facts)
        if d > b - a and b - a == 1:
            return Phrase("%(low)s at %(low_cell)s and %(high)s at %(high_cell)s must touch, but they are "
                          "%(distance)s steps apart", distance=d, **facts)
        if d > b - a:
            return Phrase("%(low)s at %(low_cell)s and %(high)s at %(high_cell)s are %(distance)s steps apart, "
                          "but the path between them has only %(steps)s steps", distance=d, steps=b - a, **facts)
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
    deadline = None if max_seconds is None else start + max_seconds
    result = SolveResult(limit=limit)
    try:
        result.reason = _propagate_and_search(puzzle, result, max_nodes, deadline, forbid, prefer)
    except TimeUp:
        result.complete = False
    result.seconds = time.perf_counter() - start
    return result


def _propagate_and_search(
    puzzle: Puzzle,
    result: SolveResult,
    max_nodes: int | None,
    deadline: float | None,
    forbid: Mapping[Cell, int] | None,
    prefer: Mapping[Cell, int] | None,
) -> Phrase | None:
    """Fill ``result``; the reason when propagation alone finds there is no solution."""
    board, n = puzzle.board, puzzle.size
    cand = start_state(puzzle, forbid)
    rules = Propagator(board)
    rules.deadline = deadline
    reason = rules.propagate(cand, list(range(1, n + 1)))
    if reason is not None:
        # Propagation noticed first; two givens too far apart is the clearer way to say it.
        return gap_check(puzzle) or reason
    open_size = sum(c.bit_count() for c in cand if c & (c - 1))
    if open_size <= _SAT_SIZE_LIMIT:
        _search(puzzle, cand, result, max_nodes, deadline, prefer, rules)
    else:
        states, result.complete, result.nodes = backtrack(rules, cand, result.limit, max_nodes, deadline)
        for state in states:
            _record(puzzle, state, result)
    return None


def _search(
    puzzle: Puzzle,
    cand: list[int],
    result: SolveResult,
    max_nodes: int | None,
    deadline: float | None,
    prefer: Mapping[Cell, int] | None,
    rules: Propagator,
) -> None:
    """Hand what propagation left open to the SAT solver; collect solutions into ``result``."""
    board = puzzle.board
    encoding = encode(board, cand, rules.check_clock if deadline is not None else None)
    if not encoding.var:
        _record(puzzle, cand, result)
        return
    with Solver(name=_SAT_SOLVER) as sat:
        sat.solver.configure(_SAT_OPTIONS)
        # Loaded in parts, looking at the clock between them: a large formula takes a while.
        for at in range(0, len(encoding.clauses), _CLAUSES_PER_LOAD):
            rules.check_clock()
            sat.append_formula(encoding.clauses[at:at + _CLAUSES_PER_LOAD])
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

    CaDiCaL cannot be interrupted from another thread, so a budget is kept by solving
    in slices of conflicts (100, 200, 400, ... up to _MAX_SLICE) and looking at the
    clock between them.  The slices depend on nothing but their count, so the answer
    within ``max_nodes`` is the same on a quiet machine and a busy one.
    """
    if max_nodes is None and deadline is None:
        return bool(sat.solve())
    slice_ = _FIRST_SLICE
    while True:
        size = slice_
        if max_nodes is not None:
            left = max_nodes - _conflicts(sat)
            if left <= 0:
                return None
            size = min(size, left)
        if deadline is not None and time.perf_counter() > deadline:
            return None
        sat.conf_budget(size)
        answer = sat.solve_limited()
        if answer is not None:
            return bool(answer)
        slice_ = min(_MAX_SLICE, 2 * slice_)


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
