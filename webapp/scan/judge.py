"""Asking the engine whether what was read is a puzzle, and which cells to doubt.

The givens read become a puzzle (a number outside 1..N, or one read twice, is left out
and doubted); the engine counts its solutions up to two, within a small time budget.
A square board is a Hidato (king moves) unless it has exactly one solution as a Numbrix
(rook moves) and none or several as a Hidato, or its only Hidato solution never steps
diagonally.  Then the cells most likely misread, worst first:

- the readings left out (outside 1..N, a number read twice);
- with no solution: the cells the engine's reason names (the cells, and the givens
  whose numbers it names), and the low-confidence givens whose removal alone lets the
  puzzle be solved (a few tries, each bounded);
- with several solutions: the cells with ink that read as nothing, and the cells where
  two solutions differ and that hold ink (a given missed there would settle it);
- every reading of low confidence.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine import Adjacency, Board, Cell, Puzzle, solve

DOUBT = 0.8  # a reading less sure than this is doubted
TRIES = 6  # low-confidence givens tried one at a time without, when there is no solution
CHECK_SECONDS = 0.4  # the engine's budget for one count
TRY_SECONDS = 0.1  # ... for one try without a given


@dataclass(frozen=True)
class Verdict:
    """The puzzle read, and what the engine made of it."""

    puzzle: Puzzle
    solutions: int | None  # 0, 1, 2 (two or more); None when the engine ran out of time
    doubtful: tuple[Cell, ...]
    left_out: dict[Cell, int] = field(default_factory=dict)  # readings not in the puzzle


def build(cells: Iterable[Cell], givens: Mapping[Cell, tuple[int, float]],
          adjacency: Adjacency) -> tuple[Puzzle, dict[Cell, int]]:
    """The puzzle of these cells and givens ({cell: (number, confidence)}); the readings
    that cannot be givens (outside 1..N, the less sure of a number read twice) left out."""
    board = Board.from_cells(list(cells), adjacency)
    n = board.size
    left_out: dict[Cell, int] = {}
    best: dict[int, tuple[float, Cell]] = {}
    for cell, (value, confidence) in givens.items():
        if not 1 <= value <= n:
            left_out[cell] = value
            continue
        held = best.get(value)
        if held is None or confidence > held[0]:
            if held is not None:
                left_out[held[1]] = value
            best[value] = (confidence, cell)
        else:
            left_out[cell] = value
    return Puzzle(board, {cell: value for value, (_, cell) in best.items()}), left_out


def count(puzzle: Puzzle, seconds: float) -> tuple[int | None, list[dict[Cell, int]], object]:
    """Solutions (0, 1, 2; None if out of time), up to two of them, and the reason when none."""
    result = solve(puzzle, limit=2, max_seconds=max(0.01, seconds))
    if result.gave_up:
        return None, result.solutions, None
    return min(2, result.count), result.solutions, result.reason


def judge(cells: Iterable[Cell], givens: Mapping[Cell, tuple[int, float]], square: bool,
          adjacency: Adjacency | None, unsure: Mapping[Cell, float] | None = None,
          inked_blank: Iterable[Cell] = (), deadline: float | None = None) -> Verdict:
    """The puzzle read (``givens``: {cell: (number, confidence)}), its solutions and
    doubtful cells; ``unsure``: every cell's reading (a number or not) less sure than
    DOUBT, with its confidence; ``inked_blank``: cells with ink where no number was read."""
    cells = list(cells)
    inked_blank = list(inked_blank)
    unsure = dict(unsure or {})

    def left() -> float:
        return CHECK_SECONDS if deadline is None else min(CHECK_SECONDS, deadline - time.perf_counter())

    if adjacency is None:
        adjacency = "king" if square else "hex"
        chosen = _counted(cells, givens, adjacency, left())
        # A square board's adjacency is not drawn: a Numbrix is one whose rook reading has
        # the only solution, or whose only king solution never steps diagonally.
        if square and (chosen[1] != 1 or (chosen[2] and not _diagonal(chosen[2][0]))):
            rook = _counted(cells, givens, "rook", left())
            if rook[1] == 1:
                chosen = rook
    else:
        chosen = _counted(cells, givens, adjacency, left())
    (puzzle, left_out), solutions, found, reason = chosen
    doubts: list[Cell] = list(left_out)
    if solutions == 0:
        doubts += _named(reason, puzzle)
        doubts += _removable(puzzle, givens, deadline)
    elif solutions == 2:
        doubts += inked_blank
        if len(found) == 2:
            # A number missed where two solutions differ would have told them apart.
            doubts += [c for c in found[0] if found[0][c] != found[1][c] and c in unsure]
    unsure.update({c: conf for c, (_, conf) in givens.items() if conf < DOUBT})
    doubts += sorted(unsure, key=lambda c: unsure[c])
    seen: dict[Cell, None] = {}
    for cell in doubts:
        seen.setdefault(cell, None)
    return Verdict(puzzle, solutions, tuple(seen), left_out)


def _diagonal(solution: Mapping[Cell, int]) -> bool:
    """Whether a solution's path takes a diagonal step anywhere."""
    where = {value: cell for cell, value in solution.items()}
    return any(abs(where[v][0] - where[v + 1][0]) == 1 and abs(where[v][1] - where[v + 1][1]) == 1
               for v in where if v + 1 in where)


def _counted(cells: list[Cell], givens: Mapping[Cell, tuple[int, float]], adjacency: Adjacency,
             seconds: float) -> tuple[tuple[Puzzle, dict[Cell, int]], int | None, list[dict[Cell, int]], object]:
    built = build(cells, givens, adjacency)
    if seconds <= 0:
        return built, None, [], None
    solutions, found, reason = count(built[0], seconds)
    return built, solutions, found, reason


def _named(reason: object, puzzle: Puzzle) -> list[Cell]:
    """The cells a reason names: its cells, and the givens holding the numbers it names."""
    params = getattr(reason, "params", None) or {}
    where = {value: cell for cell, value in puzzle.givens.items()}
    named: list[Cell] = []
    for value in params.values():
        if isinstance(value, tuple) and len(value) == 2 and all(isinstance(x, int) for x in value):
            named.append(value)
        elif isinstance(value, list):
            named += [v for v in value if isinstance(v, tuple) and len(v) == 2]
        elif isinstance(value, int) and not isinstance(value, bool) and value in where:
            named.append(where[value])
    return [c for c in named if c in puzzle.board.cell_set]


def _removable(puzzle: Puzzle, givens: Mapping[Cell, tuple[int, float]], deadline: float | None) -> list[Cell]:
    """The least sure givens whose removal alone lets the puzzle be solved."""
    doubtful = sorted((c for c in puzzle.givens), key=lambda c: givens[c][1])[:TRIES]
    found = []
    for cell in doubtful:
        if deadline is not None and time.perf_counter() > deadline:
            break
        fewer = {c: v for c, v in puzzle.givens.items() if c != cell}
        solutions, _, _ = count(puzzle.with_givens(fewer), TRY_SECONDS)
        if solutions:
            found.append(cell)
    return found
