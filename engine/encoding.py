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
    tick = clock or _no_clock
    var, cells_of = _variables(board, cand)
    pool = IDPool(start_from=len(var) + 1)
    clauses: list[list[int]] = []
    by_cell: dict[int, list[int]] = {}
    for k, cells in cells_of.items():
        if k % 32 == 0:
            tick()
        lits = [var[k, i] for i in cells]
        clauses += _exactly_one(lits, pool)
        for i, lit in zip(cells, lits, strict=True):
            by_cell.setdefault(i, []).append(lit)
    for lits in by_cell.values():
        clauses += _exactly_one(lits, pool)
    for k, cells in cells_of.items():
        if k % 32 == 0:
            tick()
        for j in (k - 1, k + 1):
            if j in cells_of:
                clauses += _next_to(board, var, k, j, cells)
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


def _next_to(board: Board, var: dict[tuple[int, int], int], k: int, j: int, cells: list[int]) -> list[list[int]]:
    """k in cell i puts its neighbour number j in a cell next to i."""
    neighbours = board.neighbours
    return [[-var[k, i], *(var[j, t] for t in neighbours[i] if (j, t) in var)] for i in cells]


def _exactly_one(lits: list[int], pool: IDPool) -> list[list[int]]:
    if len(lits) == 1:
        return [lits]
    kind = EncType.pairwise if len(lits) <= _PAIRWISE_UP_TO else EncType.seqcounter
    return [lits, *CardEnc.atmost(lits, 1, vpool=pool, encoding=kind).clauses]
