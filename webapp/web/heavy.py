"""The web app's way to run the engine's heavy calls: in a child process under a budget,
within the server's slots (``work.budget``), the result made into what the views need."""

from __future__ import annotations

import secrets
from datetime import date

from engine import Puzzle, SolveResult

from ..core.options import Options
from ..core.stored import StoredPuzzle, stored_from
from ..store.catalog import MakeDaily, Solve
from ..work import tasks
from ..work.budget import OutOfTime, Runner

# The engine stops itself this long before the child running it is killed, so it
# usually answers with a clear result and the kill is the backstop.
ENGINE_MARGIN_SECONDS = 0.3


def engine_seconds(budget: float) -> float:
    """The engine's own budget inside a child killed after ``budget``."""
    return max(0.1, budget - ENGINE_MARGIN_SECONDS)


def solver(runner: Runner, budget: float) -> Solve:
    """``catalog.load``'s solver: two solutions at most, out of time as an unsettled result."""

    def solve(puzzle: Puzzle) -> SolveResult:
        try:
            result: SolveResult = runner.run(budget, tasks.solve, puzzle, engine_seconds(budget))
        except OutOfTime:
            return SolveResult(complete=False, seconds=budget, limit=2)
        if not result.complete:  # the engine stopped itself a margin early: the budget is what counts
            result.seconds = budget
        return result

    return solve


def generate(runner: Runner, budget: float, options: Options, seed: int | None = None,
             daily: date | None = None, background: bool = True) -> StoredPuzzle:
    """A new puzzle in a child killed after ``budget`` (OutOfTime); ``background``: queue
    for a slot as background work does, else wait only as a request may (Busy)."""
    run = runner.run_queued if background else runner.run
    made = run(budget, tasks.generate, options.shape, options.size, options.difficulty, options.adjacency,
               secrets.randbits(48) if seed is None else seed, engine_seconds(budget))
    return stored_from(made, daily)


def daily_maker(runner: Runner) -> MakeDaily:
    """``catalog.daily``'s maker for a request: in a child, within what is left of its budget."""

    def make(options: Options, seed: int, day: date, seconds: float | None) -> StoredPuzzle:
        assert seconds is not None
        return generate(runner, seconds, options, seed, day, background=False)

    return make
