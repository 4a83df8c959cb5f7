"""The exact solver: finds solutions, proves there are none, counts them up to a limit.

Propagation (``propagation.py``) narrows each number's candidate cells to a fixed point.
The search branches on the open number with the fewest cells left, divided by how often
branching on it failed before (dom/wdeg), restarting with a doubling node cap so that
those weights steer it to the hard corner first.  Runs of missing numbers that can reach
no common cell are solved separately and their counts multiplied.  The state is a list of
ints, copied per branch: cheap, and no undo bookkeeping.  Every solution is checked with
``is_solution`` before it is returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Mapping

from .board import Cell, Grid, Puzzle, is_solution
from .propagation import Propagator

_CHECK_CLOCK_EVERY = 16
_FIRST_RESTART = 50


class SolverGaveUp(RuntimeError):
    """The search ran out of its node or time budget before it could answer."""


@dataclass
class SolveResult:
    """What a search found: the solutions (at most ``limit``) and whether it finished."""

    solutions: list[Grid] = field(default_factory=list)
    complete: bool = True
    nodes: int = 0
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


class _Search:
    """One search over one puzzle, with its budget and the solutions found."""

    def __init__(
        self,
        puzzle: Puzzle,
        limit: int,
        max_nodes: int | None,
        max_seconds: float | None,
        forbid: Mapping[Cell, int] | None = None,
        prefer: Mapping[Cell, int] | None = None,
    ):
        self.puzzle = puzzle
        self.forbid = dict(forbid or {})
        # Tried first when branching: a known solution leads the search to its neighbours.
        self.prefer = {v: puzzle.board.bit(c) for c, v in (prefer or {}).items()}
        self.board = puzzle.board
        self.n = puzzle.board.size
        self.limit = limit
        self.max_nodes = max_nodes
        self.deadline = None if max_seconds is None else time.perf_counter() + max_seconds
        self.nodes = 0
        self.out_of_budget = False
        self.solutions: list[Grid] = []
        self.rules = Propagator(self.board)
        self.weight = [1] * (self.n + 2)
        self.restart_cap = 0
        self.restarting = False

    def initial(self) -> tuple[list[int], str | None]:
        """Candidate masks before propagation, or a reason the givens already conflict."""
        board, n = self.board, self.n
        given_bits = 0
        cand = [0] * (n + 2)
        for cell, value in self.puzzle.givens.items():
            cand[value] = board.bit(cell)
            given_bits |= cand[value]
        free = board.mask & ~given_bits
        for k in range(1, n + 1):
            if not cand[k]:
                cand[k] = free
        for cell, value in self.forbid.items():
            if 1 <= value <= n and cell in board.cell_set:
                cand[value] &= ~board.bit(cell)
                if not cand[value]:
                    return cand, f"{value} has no cell left"
        return cand, self._gap_check()

    def _gap_check(self) -> str | None:
        """Consecutive givens must be no further apart than their difference allows."""
        board = self.board
        ordered = sorted((v, board.index[c]) for c, v in self.puzzle.givens.items())
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

    def run(self) -> str | None:
        """Search from the givens; a reason when they contradict at once."""
        cand, reason = self.initial()
        if reason:
            return reason
        reason = self.rules.propagate(cand, list(range(1, self.n + 1)))
        if reason:
            return reason
        runs = self.open_runs()
        # Restarts with a growing node cap: the failure weights learnt in a short run
        # steer the next one to branch on the hard corner first.
        cap = _FIRST_RESTART
        while True:
            self.restart_cap = self.nodes + cap
            states = self.search(cand.copy(), runs, self.limit)
            if not self.restarting:
                break
            self.restarting = False
            cap *= 2
        for state in states:
            self.record(state)
        return None

    def open_runs(self) -> list[tuple[int, int, int]]:
        """(lo, hi, cells the run can reach) for each open run after the last propagation."""
        return [(lo, hi, reach) for lo, hi, _, reach in self.rules.runs]

    def over_budget(self) -> bool:
        if self.nodes > self.restart_cap:
            self.restarting = True
            return True
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            self.out_of_budget = True
        elif self.deadline is not None and self.nodes % _CHECK_CLOCK_EVERY == 0:
            if time.perf_counter() > self.deadline:
                self.out_of_budget = True
        return self.out_of_budget

    def search(self, cand: list[int], runs: list[tuple[int, int, int]], limit: int) -> list[list[int]]:
        """Up to ``limit`` completions of the open ``runs`` (the rest of cand is left as is).

        Runs that can reach no common cell are independent: each group is solved on its
        own and the counts multiply, so a hard corner is not searched again for every
        choice made in another one.
        """
        self.nodes += 1
        if self.over_budget():
            return []
        if not runs:
            return [cand]
        groups = _independent_groups(runs)
        if len(groups) > 1:
            return self.combine(cand, groups, limit)
        k = self.pick_number(cand, runs)
        found: list[list[int]] = []
        options = cand[k]
        first = self.prefer.get(k, 0) & options
        while options:
            low = first or options & -options
            first = 0
            options ^= low
            child = cand.copy()
            child[k] = low
            if self.rules.propagate(child, [k]) is None:
                inside = self.runs_within(runs)
                found += self.search(child, inside, limit - len(found))
                if len(found) >= limit or self.out_of_budget or self.restarting:
                    break
            else:
                self.weight[k] += 1
        return found

    def runs_within(self, runs: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        """The open runs after the last propagation that lie inside ``runs``."""
        bounds = [(lo, hi) for lo, hi, _ in runs]
        inside = []
        j = 0
        for lo, hi, reach in self.open_runs():
            while j < len(bounds) and bounds[j][1] < lo:
                j += 1
            if j < len(bounds) and bounds[j][0] <= lo and hi <= bounds[j][1]:
                inside.append((lo, hi, reach))
        return inside

    def combine(self, cand: list[int], groups: list[list[tuple[int, int, int]]], limit: int) -> list[list[int]]:
        """Solve independent groups one by one; every mix of their solutions is a solution."""
        parts: list[tuple[list[tuple[int, int, int]], list[list[int]]]] = []
        product = 1
        for group in groups:
            sols = self.search(cand.copy(), group, limit if product < limit else 1)
            if not sols:
                return []
            parts.append((group, sols))
            product *= len(sols)
        combos = [cand.copy()]
        for group, sols in parts:
            mixed = []
            for base in combos:
                for sol in sols:
                    state = base.copy()
                    for lo, hi, _ in group:
                        state[lo : hi + 1] = sol[lo : hi + 1]
                    mixed.append(state)
                    if len(mixed) >= limit:
                        break
                if len(mixed) >= limit:
                    break
            combos = mixed
        return combos

    def pick_number(self, cand: list[int], runs: list[tuple[int, int, int]]) -> int:
        """The open number with fewest cells, favouring numbers that often failed."""
        best, best_score = 0, float("inf")
        weight = self.weight
        for lo, hi, _ in runs:
            for k in range(lo, hi + 1):
                score = cand[k].bit_count() / weight[k]
                if score < best_score:
                    best, best_score = k, score
        return best

    def record(self, cand: list[int]) -> None:
        board = self.board
        lookup = board.cell_of_bitpos
        grid = {board.cells[lookup[cand[k].bit_length() - 1]]: k for k in range(1, self.n + 1)}
        if not is_solution(self.puzzle, grid):
            raise AssertionError("solver produced an invalid grid")  # a bug, never a user error
        self.solutions.append(dict(sorted(grid.items())))


def _independent_groups(runs: list[tuple[int, int, int]]) -> list[list[tuple[int, int, int]]]:
    """Split runs into groups that share no reachable cell, smallest group first."""
    groups: list[tuple[int, list[tuple[int, int, int]]]] = []
    for run in runs:
        reach = run[2]
        merged_reach, merged = reach, [run]
        kept = []
        for g_reach, g_runs in groups:
            if g_reach & reach:
                merged_reach |= g_reach
                merged += g_runs
            else:
                kept.append((g_reach, g_runs))
        kept.append((merged_reach, merged))
        groups = kept
    ordered = sorted(groups, key=lambda g: g[0].bit_count())
    return [sorted(g_runs) for _, g_runs in ordered]


def solve(
    puzzle: Puzzle,
    limit: int = 1,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    forbid: Mapping[Cell, int] | None = None,
    prefer: Mapping[Cell, int] | None = None,
) -> SolveResult:
    """Search for up to ``limit`` solutions, within an optional node or time budget.

    ``forbid`` ({cell: number}) keeps only solutions where none of those cells holds that
    number: the generator asks "is there a solution other than the known one?" this way.
    ``prefer`` ({cell: number}) is tried first when branching, so the search looks near a
    known solution before anywhere else.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    start = time.perf_counter()
    search = _Search(puzzle, limit, max_nodes, max_seconds, forbid, prefer)
    reason = search.run()
    return SolveResult(
        solutions=search.solutions,
        complete=not search.out_of_budget,
        nodes=search.nodes,
        seconds=time.perf_counter() - start,
        reason=reason,
        limit=limit,
    )


def count_solutions(
    puzzle: Puzzle,
    limit: int = 2,
    max_nodes: int | None = None,
    max_seconds: float | None = None,
) -> int:
    """Number of solutions, capped at ``limit``; raises SolverGaveUp if the budget runs out."""
    result = solve(puzzle, limit, max_nodes, max_seconds)
    if result.gave_up:
        raise SolverGaveUp(f"gave up after {result.nodes} nodes and {result.seconds:.2f} s")
    return result.count
