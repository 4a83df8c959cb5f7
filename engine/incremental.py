"""One SAT solver for a run of "another solution without this given?" checks.

``to_minimal`` asks the same question many times over one solution, each time with one
given fewer.  Instead of a fresh propagation, encoding and solver per check, this keeps
one CaDiCaL solver and asks each check under assumptions: every given of the trial is
an assumption "k is in this cell", and the removed number is assumed to be elsewhere.

The encoding covers the candidate cells that propagation leaves from a *subset* of the
givens: the current givens without the next ``window`` ones in the removal order.
A trial that holds all of that subset (givens only ever go away, so every trial
within the window does) has all its solutions within those cells, and the answer under
assumptions is exactly the answer for the trial.  A trial that does not (its removed
given is one the subset kept) has the encoding built again from the givens then
current.

Each check has its own budget of conflicts, like the fresh search's ``max_nodes``; the
conflicts a solver needs differ between a fresh formula and one with learnt clauses, so
a check near the budget may answer differently from a fresh search (``reduction.py``
keeps the given whenever a check runs out, so uniqueness is never assumed either way).
"""

from __future__ import annotations

from pysat.solvers import Solver

from .board import Board, Cell, Grid, Puzzle
from .encoding import Encoding, encode
from .propagation import Propagator
from .solver import _SAT_OPTIONS, _SAT_SOLVER, start_state


class UniquenessChecks:
    """Answers "is there a solution of these givens with ``number`` not in ``cell``?"."""

    def __init__(self, board: Board, solution: Grid, window: int = 8) -> None:
        self.board = board
        self.solution = solution
        self.window = window
        self._sat: Solver | None = None
        self._encoding: Encoding | None = None
        self._cand: list[int] = []
        self._base: Grid = {}  # the givens the current encoding was made from
        self.rebuilds = 0

    def close(self) -> None:
        if self._sat is not None:
            self._sat.delete()
            self._sat = None

    def _rebuild(self, base: Grid) -> None:
        """Encode the cells propagation leaves from the givens ``base``."""
        self.close()
        board = self.board
        cand = start_state(Puzzle(board, base))
        reason = Propagator(board).propagate(cand, list(range(1, board.size + 1)))
        if reason is not None:  # a subset of a solution's givens cannot contradict
            raise AssertionError("the givens of a solution contradict each other")
        self._cand = cand
        self._encoding = encode(board, cand)
        sat = Solver(name=_SAT_SOLVER)
        sat.solver.configure(_SAT_OPTIONS)
        sat.append_formula(self._encoding.clauses)
        index = board.index
        want = {(k, index[c]) for c, k in self.solution.items()}
        sat.set_phases([v if key in want else -v for key, v in self._encoding.var.items()])
        self._sat = sat
        self.rebuilds += 1

    def another(self, givens: Grid, upcoming: list[Cell], cell: Cell, max_nodes: int) -> bool | None:
        """Whether the givens without ``cell`` have a solution other than the known one:
        True, False, or None when ``max_nodes`` conflicts were not enough.

        ``upcoming`` lists the cells checked after this one, in order (the window's
        subset leaves them out too)."""
        index, number = self.board.index, self.solution[cell]
        trial = [(c, v) for c, v in givens.items() if c != cell]
        if not self._covers(givens, cell):
            skip = {cell, *upcoming[:self.window - 1]}
            self._base = {c: v for c, v in givens.items() if c not in skip}
            self._rebuild(self._base)
        encoding, sat = self._encoding, self._sat
        assert encoding is not None and sat is not None
        var = encoding.var
        assumptions = [var[v, index[c]] for c, v in trial if (v, index[c]) in var]
        away = var.get((number, index[cell]))
        if away is None:
            # ``number`` cannot be anywhere else: only the known solution is left.
            return False
        assumptions.append(-away)
        sat.conf_budget(max_nodes)  # for this call only
        answer = sat.solve_limited(assumptions=assumptions)
        return None if answer is None else bool(answer)

    def _covers(self, givens: Grid, cell: Cell) -> bool:
        """Whether the encoding holds every solution of ``givens`` without ``cell``: it
        does when it was made from some of those very givens."""
        if self._sat is None or cell in self._base:
            return False
        return all(givens.get(c) == v for c, v in self._base.items())
