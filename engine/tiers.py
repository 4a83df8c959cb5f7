"""The quick rule tiers: a logic solver in tiers of pattern rules, all sound and fast.

Each tier adds rules to the one below (``propagation.py`` holds them):

- 1: a number must touch the numbers before and after it ("neighbours", which also
  bounds it by its distance to them), a number with one cell left takes it, a cell only
  one number can reach gets it ("only number");
- 2: the end of a dead end ("dead end"), the only routes between two numbers
  ("path": cells off every route are ruled out, cells on every route are taken);
- 3: a cell only one gap can reach lies on that gap's route, and a closed-off region
  must be filled exactly by the gaps that can reach it ("region": the solver's own rules).

These rules do not measure difficulty (a "path" can stand for a long chain of
reasoning: ``rating.py`` measures that); they are what the generator uses as a cheap
proof that a solution is unique (every rule is sound, so a tier that finishes a puzzle
proves it), and what "Fill candidates" shows (tier 2).
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import Grid, Puzzle
from .propagation import Propagator
from .solver import start_state

TIERS = 3


@dataclass
class LogicResult:
    """Where a logic solve ended: solved, stuck, or a contradiction."""

    solved: bool
    contradiction: str | None
    cand: list[int]

    def grid(self, puzzle: Puzzle) -> Grid:
        """The cells placed so far, with their numbers."""
        board = puzzle.board
        lookup = board.cell_of_bitpos
        out: Grid = {}
        for k in range(1, puzzle.size + 1):
            c = self.cand[k]
            if c and not c & (c - 1):
                out[board.cells[lookup[c.bit_length() - 1]]] = k
        return out


def logic_solve(puzzle: Puzzle, tier: int, deadline: float | None = None) -> LogicResult:
    """Apply the rules of ``tier`` (1 .. 3) until stuck or solved.

    Past ``deadline`` (a ``time.perf_counter()`` value) it raises propagation's TimeUp.
    """
    n = puzzle.size
    # A person looks along a route of any length, so the grader lists long runs too.
    rules = Propagator(puzzle.board, level=tier, longest_listed=puzzle.size)
    rules.deadline = deadline
    cand = start_state(puzzle)
    why = rules.propagate(cand, list(range(1, n + 1)))
    solved = why is None and all(not cand[k] & (cand[k] - 1) for k in range(1, n + 1))
    return LogicResult(solved, why, cand)
