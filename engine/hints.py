"""Hints: the next deduction a person could make from a position, as facts.

A position is the puzzle's givens plus the player's entries.  A wrong entry comes first
(the 12 in row 3, column 4 is wrong); otherwise the simplest placement is found, looking
first for patterns a person sees at a glance (the only free cell touching both
neighbours of a number; a number whose neighbour has one free cell left), then for the
first placement the rating's reasoning reaches, simplest first; when it took a chain,
the hint carries the chain (if 23 were in row 2, column 5, 24 would have to go in row 3,
column 6 and 25 would have nowhere to go, so 23 is not in row 2, column 5).

A hint's ``reason`` says which rule, which numbers and which cells, never in words: the
web and the command line put it into words (``webapp/core/hint_words.py``), in English
or Spanish.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from .board import Board, Cell, Grid, Puzzle
from .chains import Chain as Trial
from .chains import Deduction
from .propagation import TimeUp
from .rating import MAX_CHAIN, LogicSolve
from .solver import SolverGaveUp, solve
from .words import cell_name
from .words import seconds as seconds_text

HintKind = Literal["mistake", "deduction", "solved", "no solution"]


@dataclass(frozen=True)
class Mistake:
    """The number ``entered`` in ``cell`` disagrees with the solution; what shows it, if
    anything: the same number already right at ``already_at``, or a neighbouring number
    (``apart``: the number and its cell) that the cell does not touch."""

    cell: Cell
    entered: int
    already_at: Cell | None = None
    apart: tuple[int, Cell] | None = None


@dataclass(frozen=True)
class OnlyCell:
    """``number`` goes in ``cell``: the only free cell touching both its neighbours
    (``between``: the numbers one below and one above it)."""

    number: int
    cell: Cell
    between: tuple[int, int]


@dataclass(frozen=True)
class OnlyNeighbour:
    """``number`` goes in ``cell``: ``anchor`` (one above or one below it) needs it next
    to it, and ``cell`` is the anchor's only free neighbour."""

    number: int
    cell: Cell
    anchor: int


@dataclass(frozen=True)
class ChainStep:
    """One forced placement in a chain: ``number`` would have to go in ``cell``."""

    number: int
    cell: Cell


@dataclass(frozen=True)
class Chain:
    """A "what if" that fails: if ``number`` were in ``cell``, each step would follow,
    and then ``nowhere`` (a number) would have no cell left, or ``unfilled`` (a cell)
    no number; so ``number`` is not in ``cell``."""

    number: int
    cell: Cell
    steps: tuple[ChainStep, ...]
    nowhere: int | None = None
    unfilled: Cell | None = None

    @property
    def length(self) -> int:
        return len(self.steps) + 1


PlaceRule = Literal["only cell", "only number"]


@dataclass(frozen=True)
class Deduced:
    """``number`` goes in ``cell`` by ``rule``: "only cell" (the only cell left for it
    within reach of the numbers around it) or "only number" (no other missing number can
    reach the cell); first, ``chain`` ruled a candidate out, or with ``ranges`` each
    missing number was kept next to the cells its neighbours can still use."""

    number: int
    cell: Cell
    rule: PlaceRule
    chain: Chain | None = None
    ranges: bool = False


@dataclass(frozen=True)
class FromSolution:
    """``number`` goes in ``cell``, read from the solution: the next deduction takes too
    long a chain to find in time (``why`` "long chain"), or none short of guessing is
    left ("guessing")."""

    number: int
    cell: Cell
    why: Literal["long chain", "guessing"]


@dataclass(frozen=True)
class Solved:
    """The board is complete and correct."""


@dataclass(frozen=True)
class NoSolution:
    """The puzzle has no solution; ``why`` is the solver's reason when it has one."""

    why: str | None = None


HintReason = Mistake | OnlyCell | OnlyNeighbour | Deduced | FromSolution | Solved | NoSolution


@dataclass(frozen=True)
class Hint:
    """What to tell the player (``reason``), and the cells it concerns (the target cell first)."""

    reason: HintReason
    cells: tuple[Cell, ...] = ()
    number: int | None = None
    length: int = 0  # the longest chain the step needed (0: at a glance)

    @property
    def kind(self) -> HintKind:
        """"mistake", "solved", "no solution", or "deduction" for a number to place."""
        if isinstance(self.reason, Mistake):
            return "mistake"
        if isinstance(self.reason, Solved):
            return "solved"
        if isinstance(self.reason, NoSolution):
            return "no solution"
        return "deduction"


def check_entries(puzzle: Puzzle, entries: Mapping[Cell, int]) -> None:
    """Raise ValueError unless every entry is a number 1..N in an open cell of the board."""
    n = puzzle.size
    for cell, value in entries.items():
        if cell not in puzzle.board.cell_set:
            raise ValueError(f"{cell_name(cell)} is not a cell of this board")
        if cell in puzzle.givens:
            raise ValueError(f"{cell_name(cell)} holds a given number")
        if not 1 <= value <= n:
            raise ValueError(f"{value} in {cell_name(cell)} is outside 1..{n}")


def hint(puzzle: Puzzle, entries: Mapping[Cell, int], solution: Mapping[Cell, int] | None = None,
         max_seconds: float | None = None) -> Hint:
    """The next thing to do from this position: fix a mistake, or place a number, and why.

    With ``max_seconds`` it raises SolverGaveUp once that much time has passed while it
    still had to find the solution; with the solution given, a deduction that takes longer
    than that is replaced by the next number from the solution, said as such.
    """
    check_entries(puzzle, entries)
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    try:
        return _hint(puzzle, entries, solution, deadline)
    except TimeUp:
        assert max_seconds is not None
        raise SolverGaveUp(f"gave up after {seconds_text(max_seconds, 3)}") from None


def _hint(puzzle: Puzzle, entries: Mapping[Cell, int], solution: Mapping[Cell, int] | None,
          deadline: float | None) -> Hint:
    if solution is None:
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        found = solve(puzzle, limit=1, max_seconds=left)
        if not found.complete and not found.solutions:
            raise TimeUp()
        if not found.solutions:
            return Hint(NoSolution(found.reason or None))
        solution = found.solutions[0]
    mistake = _first_mistake(puzzle, entries, solution)
    if mistake:
        return mistake
    position: Grid = {**puzzle.givens, **entries}
    if len(position) == puzzle.size:
        return Hint(Solved())
    return _glance(puzzle.board, position) or _deduce(puzzle, position, solution, deadline)


def _first_mistake(puzzle: Puzzle, entries: Mapping[Cell, int], solution: Mapping[Cell, int]) -> Hint | None:
    board = puzzle.board
    where: dict[int, Cell] = {v: c for c, v in puzzle.givens.items()}
    for cell, value in sorted(entries.items()):
        if solution[cell] == value:
            where.setdefault(value, cell)
    for cell, value in sorted(entries.items()):
        if solution[cell] == value:
            continue
        other = where.get(value)
        if other is not None and other != cell:
            return Hint(Mistake(cell, value, already_at=other), (cell, other), value)
        apart = [k for k in (value - 1, value + 1) if k in where and not board.touches(cell, where[k])]
        if apart:
            k = apart[0]
            return Hint(Mistake(cell, value, apart=(k, where[k])), (cell, where[k]), value)
        return Hint(Mistake(cell, value), (cell,), value)
    return None


def _glance(board: Board, position: Grid) -> Hint | None:
    """Placements a person sees at once, checked directly on the position."""
    n = board.size
    at = {v: c for c, v in position.items()}
    free_near = {}

    def free_neighbours(cell: Cell) -> list[Cell]:
        if cell not in free_near:
            i = board.index[cell]
            free_near[cell] = [board.cells[j] for j in board.neighbours[i] if board.cells[j] not in position]
        return free_near[cell]

    for k in range(1, n + 1):
        if k in at or k - 1 not in at or k + 1 not in at:
            continue
        both = [c for c in free_neighbours(at[k - 1]) if c in free_neighbours(at[k + 1])]
        if len(both) == 1:
            return Hint(OnlyCell(k, both[0], (k - 1, k + 1)), (both[0], at[k - 1], at[k + 1]), k)
    for k in range(1, n + 1):
        if k in at:
            continue
        for step in (-1, 1):
            anchor, beyond = k + step, k + 2 * step
            if anchor not in at or not (beyond in at or beyond in (0, n + 1)):
                continue
            near = free_neighbours(at[anchor])
            if len(near) == 1:
                return Hint(OnlyNeighbour(k, near[0], anchor), (near[0], at[anchor]), k)
    return None


def _deduce(puzzle: Puzzle, position: Grid, solution: Mapping[Cell, int], deadline: float | None) -> Hint:
    """The next placement by the simplest reasoning, explained by the hardest step it took."""
    board = puzzle.board
    logic = LogicSolve(Puzzle(board, position), deadline)
    hardest: Deduction | None = None
    seen = 0
    try:
        while True:
            new = logic.deductions[seen:]
            seen = len(logic.deductions)
            for d in new:
                if d.kind in ("ranges", "chain") and (hardest is None or d.length >= hardest.length):
                    hardest = d
            placed = [d for d in new if d.kind in ("single", "only number") and board.cells[d.cell] not in position]
            if placed:
                return _explain(board, min(placed, key=lambda d: d.number), hardest)
            # A whole sweep at a time: one chain at a time would sweep again after each.
            if logic.step(MAX_CHAIN, first=False) is None:
                break
    except TimeUp:
        # The solution is known: a long search for words must not leave the player without help.
        return _given(board, position, solution, "long chain", MAX_CHAIN)
    return _given(board, position, solution, "guessing", MAX_CHAIN + 1)


def _given(board: Board, position: Grid, solution: Mapping[Cell, int],
           why: Literal["long chain", "guessing"], length: int) -> Hint:
    """The lowest missing number, from the solution, when reasoning cannot say it in time."""
    cell = min((c for c in board.cells if c not in position), key=lambda c: solution[c])
    value = solution[cell]
    return Hint(FromSolution(value, cell, why), (cell,), value, length)


def _explain(board: Board, placed: Deduction, hardest: Deduction | None) -> Hint:
    k = placed.number
    cell = board.cells[placed.cell]
    rule: PlaceRule = "only cell" if placed.kind == "single" else "only number"
    if hardest is not None and hardest.chain is not None:
        chain = chain_of(board, hardest.chain)
        return Hint(Deduced(k, cell, rule, chain=chain), (cell, chain.cell), k, chain.length)
    if hardest is not None:  # ranges: each number kept next to the cells its neighbours can use
        return Hint(Deduced(k, cell, rule, ranges=True), (cell,), k, 1)
    return Hint(Deduced(k, cell, rule), (cell,), k, 0)


def chain_of(board: Board, trial: Trial) -> Chain:
    """A chain of the rating's reasoning (cells as bits) as the hint's fact (cells as (row, col))."""
    def cell(bit: int) -> Cell:
        return board.cells[board.cell_of_bitpos[bit.bit_length() - 1]]

    steps = tuple(ChainStep(number, cell(bit)) for number, bit in trial.steps)
    what, which = trial.empty
    if what == "number":
        return Chain(trial.number, cell(trial.cell), steps, nowhere=which)
    return Chain(trial.number, cell(trial.cell), steps, unfilled=cell(which))


__all__ = ["Chain", "ChainStep", "Deduced", "FromSolution", "Hint", "HintKind", "HintReason", "Mistake",
           "NoSolution", "OnlyCell", "OnlyNeighbour", "Solved", "check_entries", "hint"]
