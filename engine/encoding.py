"""The search's input: what propagation left open, as clauses for a SAT solver.

After propagation every open number has a handful of candidate cells.  One boolean per
(open number, candidate cell) says "k is in that cell"; the clauses say each open number
takes exactly one of its cells, each free cell takes exactly one open number, and k
touches k-1 and k+1.  Numbers already placed need no variable: propagation guarantees
every candidate cell touches their neighbours.  Domains this small make the formula tiny
compared with a plain one-boolean-per-cell-and-number encoding.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .board import Board

_PAIRWISE_UP_TO = 6  # at-most-one over more literals uses a sequential counter


@dataclass
class Encoding:
    """Variables (number, cell index) -> id, and the clauses over them."""

    var: dict[tuple[int, int], int]
    clauses: list[list[int]]

    def decode(self, model: list[int], cand: list[int], board: Board) -> list[int]:
        """Candidate masks with every open number set to its cell in ``model``."""
        true = {v for v in model if v > 0}
        out = cand.copy()
        for (k, i), v in self.var.items():
            if v in true:
                out[k] = board.bit_of_index[i]
        return out

    def blocking_clause(self, model: list[int]) -> list[int]:
        """A clause that rules out exactly this solution."""
        true = {v for v in model if v > 0}
        return [-v for v in self.var.values() if v in true]


def encode(board: Board, cand: list[int], clock: Callable[[], None] | None = None) -> Encoding:
    """The clauses for the open numbers of a propagated state ``cand``.

    ``clock`` is called now and then (it raises when a time budget has run out): a
    large open board takes a good part of a second to encode.
    """
    tick = clock or _no_clock
    var, cells_of = _variables(board, cand)
    # The at-most-one encodings' extra variables come after the (number, cell) ones, in
    # the order they are made (as pysat's IDPool would hand them out).
    top = len(var)
    clauses: list[list[int]] = []
    by_cell: dict[int, list[int]] = {}
    # Each number's variables by cell: k's clause "k+1 touches k" looks them up per cell.
    var_of: dict[int, dict[int, int]] = {}
    for k, cells in cells_of.items():
        if k % 32 == 0:
            tick()
        lits = [var[k, i] for i in cells]
        var_of[k] = dict(zip(cells, lits, strict=True))
        top = _exactly_one(lits, top, clauses)
        for i, lit in zip(cells, lits, strict=True):
            by_cell.setdefault(i, []).append(lit)
    for lits in by_cell.values():
        top = _exactly_one(lits, top, clauses)
    neighbours = board.neighbours
    for k, cells in cells_of.items():
        if k % 32 == 0:
            tick()
        mine = var_of[k]
        for j in (k - 1, k + 1):
            theirs = var_of.get(j)
            if theirs is not None:  # k in cell i puts j in a cell next to i
                clauses += [[-mine[i], *[theirs[t] for t in neighbours[i] if t in theirs]] for i in cells]
    return Encoding(var, clauses)


def _no_clock() -> None:
    pass


def _variables(board: Board, cand: list[int]) -> tuple[dict[tuple[int, int], int], dict[int, list[int]]]:
    """One variable per (open number, cell it may take), numbered from 1; each number's cells."""
    var: dict[tuple[int, int], int] = {}
    cells_of: dict[int, list[int]] = {}
    for k in range(1, board.size + 1):
        c = cand[k]
        if c & (c - 1):
            cells = board.cells_of_mask(c)
            cells_of[k] = cells
            for i in cells:
                var[k, i] = len(var) + 1
    return var, cells_of


def _exactly_one(lits: list[int], top: int, clauses: list[list[int]]) -> int:
    """Append "exactly one of ``lits``" to ``clauses``; the last variable id used after it
    (``top`` before).  The clauses are those pysat's ``CardEnc.atmost`` makes, in its
    order and with its numbering of the extra variables (pairwise up to
    ``_PAIRWISE_UP_TO`` literals, else Sinz's sequential counter), written out here
    because calling it for each of thousands of small sets was half of the encoding's
    time (``tests/test_encoding.py`` compares the two)."""
    clauses.append(lits)
    n = len(lits)
    if n == 1:
        return top
    if n <= _PAIRWISE_UP_TO:
        clauses += [[-a, -b] for at, a in enumerate(lits) for b in lits[at + 1:]]
        return top
    # s_i (top + i) says "one of the first i literals holds".
    clauses.append([-lits[0], top + 1])
    for i in range(1, n - 1):
        x, before, now = -lits[i], top + i, top + i + 1
        clauses += [[-before, now], [x, -before], [x, now]]
    clauses.append([-lits[n - 1], -(top + n - 1)])
    return top + n - 1
