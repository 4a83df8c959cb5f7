"""The search's input: what propagation left open, as clauses for a SAT solver.

After propagation every open number has a handful of candidate cells.  One boolean per
(open number, candidate cell) says "k is in that cell"; the clauses say each open number
takes exactly one of its cells, each free cell takes exactly one open number, and k
touches k-1 and k+1.  Numbers already placed need no variable: propagation guarantees
every candidate cell touches their neighbours.  Domains this small make the formula tiny
compared with a plain one-boolean-per-cell-and-number encoding.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

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
    n = board.size
    var: dict[tuple[int, int], int] = {}
    cells_of: dict[int, list[int]] = {}
    next_id = 1
    for k in range(1, n + 1):
        c = cand[k]
        if c & (c - 1):
            cells = board.cells_of_mask(c)
            cells_of[k] = cells
            for i in cells:
                var[k, i] = next_id
                next_id += 1
    pool = IDPool(start_from=next_id)
    clauses: list[list[int]] = []
    by_cell: dict[int, list[int]] = {}
    for k, cells in cells_of.items():
        if clock is not None and k % 32 == 0:
            clock()
        lits = [var[k, i] for i in cells]
        clauses += _exactly_one(lits, pool)
        for i, lit in zip(cells, lits):
            by_cell.setdefault(i, []).append(lit)
    for lits in by_cell.values():
        clauses += _exactly_one(lits, pool)
    for k, cells in cells_of.items():
        if clock is not None and k % 32 == 0:
            clock()
        for j in (k - 1, k + 1):
            if j in cells_of:
                for i in cells:
                    near = [var[j, t] for t in board.neighbours[i] if (j, t) in var]
                    clauses.append([-var[k, i], *near])
    return Encoding(var, clauses)


def _exactly_one(lits: list[int], pool: IDPool) -> list[list[int]]:
    if len(lits) == 1:
        return [lits]
    kind = EncType.pairwise if len(lits) <= _PAIRWISE_UP_TO else EncType.seqcounter
    return [lits, *CardEnc.atmost(lits, 1, vpool=pool, encoding=kind).clauses]
