"""Hints: the next deduction a person could make from a position, in words.

A position is the puzzle's givens plus the player's entries.  A wrong entry comes first
("the 12 in row 3, column 4 is wrong"); otherwise the simplest placement is explained,
looking first for patterns a person sees at a glance (the only free cell touching both
neighbours of a number; a number whose neighbour has one free cell left), then for the
first placement the rating's reasoning reaches, simplest first; when it took a chain,
the hint tells the chain ("if 23 were in row 2, column 5, 24 would have to go in row 3,
column 6 and 25 would have nowhere to go, so 23 is not in row 2, column 5").
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from .board import Board, Cell, Grid, Puzzle
from .chains import Chain, Deduction
from .propagation import TimeUp
from .rating import MAX_CHAIN, LogicSolve
from .solver import SolverGaveUp, solve
from .words import cell_name
from .words import seconds as seconds_text

HintKind = Literal["mistake", "deduction", "solved", "no solution"]


@dataclass(frozen=True)
class Hint:
    """What to tell the player, and the cells it concerns (the target cell first)."""

    kind: HintKind
    text: str
    cells: list[Cell] = field(default_factory=list)
    number: int | None = None
    length: int = 0  # the longest chain the step needed (0: at a glance)


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
            why = found.reason or "no way to place every number"
            return Hint("no solution", f"This puzzle has no solution: {why}.")
        solution = found.solutions[0]
    mistake = _first_mistake(puzzle, entries, solution)
    if mistake:
        return mistake
    position: Grid = {**puzzle.givens, **entries}
    if len(position) == puzzle.size:
        return Hint("solved", "The board is complete and correct.")
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
        text = f"The {value} in {cell_name(cell)} is wrong"
        related = [cell]
        other = where.get(value)
        if other is not None and other != cell:
            text += f": {value} is already at {cell_name(other)}"
            related.append(other)
        else:
            apart = [k for k in (value - 1, value + 1) if k in where and not board.touches(cell, where[k])]
            if apart:
                text += f": it does not touch {apart[0]} at {cell_name(where[apart[0]])}"
                related.append(where[apart[0]])
        return Hint("mistake", text + ".", related, value)
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
            text = f"{k} must go in {cell_name(both[0])}: it is the only free cell touching both {k - 1} and {k + 1}."
            return Hint("deduction", text, [both[0], at[k - 1], at[k + 1]], k)
    for k in range(1, n + 1):
        if k in at:
            continue
        for step in (-1, 1):
            anchor, beyond = k + step, k + 2 * step
            if anchor not in at or not (beyond in at or beyond in (0, n + 1)):
                continue
            near = free_neighbours(at[anchor])
            if len(near) == 1:
                side = "before" if step > 0 else "after"
                text = (
                    f"{k} must go in {cell_name(near[0])}: {anchor} needs the number {side} it next to it, "
                    f"and this is its only free neighbour."
                )
                return Hint("deduction", text, [near[0], at[anchor]], k)
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
        return _given(board, position, solution, "The next deduction takes a long chain of reasoning",
                      MAX_CHAIN)
    return _given(board, position, solution, "No deduction short of guessing is left", MAX_CHAIN + 1)


def _given(board: Board, position: Grid, solution: Mapping[Cell, int], why: str, length: int) -> Hint:
    """The lowest missing number, from the solution, when reasoning cannot say it in time."""
    cell = min((c for c in board.cells if c not in position), key=lambda c: solution[c])
    value = solution[cell]
    return Hint("deduction", f"{why}; {value} goes in {cell_name(cell)}.", [cell], value, length)


def _explain(board: Board, placed: Deduction, hardest: Deduction | None) -> Hint:
    k = placed.number
    cell = board.cells[placed.cell]
    where = f"{k} must go in {cell_name(cell)}"
    if placed.kind == "single":
        why = f"it is the only cell left for {k} within reach of the numbers around it"
    else:
        why = "no other missing number can reach that cell"
    if hardest is not None and hardest.chain is not None:
        chain = hardest.chain
        said = chain_words(board, chain)
        text = f"{said[0].upper()}{said[1:]}. Then {where}: {why}."
        return Hint("deduction", text, [cell, _cell_of(board, chain.cell)], k, chain.length)
    if hardest is not None:  # ranges: each number kept next to the cells its neighbours can use
        text = f"{where}: once each missing number is kept next to the cells its neighbours can still use, {why}."
        return Hint("deduction", text, [cell], k, 1)
    return Hint("deduction", f"{where}: {why}.", [cell], k, 0)


def _cell_of(board: Board, bit: int) -> Cell:
    return board.cells[board.cell_of_bitpos[bit.bit_length() - 1]]


def chain_words(board: Board, chain: Chain) -> str:
    """A chain in words: "if 23 were in row 2, column 5, 24 would have to go in ...,
    and 25 would have nowhere to go, so 23 is not there"."""
    def name(bit: int) -> str:
        return cell_name(_cell_of(board, bit))

    assumed = name(chain.cell)
    parts = [f"if {chain.number} were in {assumed}"]
    for number, bit in chain.steps:
        parts.append(f"{number} would have to go in {name(bit)}")
    what, which = chain.empty
    if what == "number":
        parts.append(f"{which} would have nowhere to go")
    else:
        parts.append(f"no number could fill {name(which)}")
    return ", ".join(parts[:-1]) + f" and {parts[-1]}, so {chain.number} is not in {assumed}"
