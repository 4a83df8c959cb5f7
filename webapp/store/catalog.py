"""Puzzles by id and the puzzle of the day: found in the store, or made and stored once.

An id new to the site is solved (by the ``solve`` the caller hands in: the web app's
runs in a child process within a budget) and stored; an id found unplayable is
remembered with the reason, so the same id never costs a second solve.  The reason is
kept as its facts (``messages.kept``: the solver's reason too), so each reader is told it
in their own language; a malformed id's error keeps the engine's facts the same way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date

from engine import GenerationError, Puzzle, PuzzleFormatError, SolveResult, puzzle_from_id, puzzle_to_id

from ..core.messages import N_, Refusal, from_kept, kept, too_hard_refusal
from ..core.options import Options, daily_options
from ..core.stored import StoredPuzzle, generate
from .store import Store

# Boards the site plays, solves or grades (the engine itself reads up to 2,500): the
# largest board the generator makes is 21 x 21.
MAX_BOARD_CELLS = 900

Solve = Callable[[Puzzle], SolveResult]
# make(options, seed, day, seconds left) -> the puzzle of the day, or ValueError.
MakeDaily = Callable[[Options, int, date, float | None], StoredPuzzle]


class MalformedId(LookupError):
    """An id that is malformed; ``error`` says how (the engine's facts)."""

    def __init__(self, error: PuzzleFormatError):
        super().__init__(str(error))
        self.error = error


class NotPlayable(Refusal):
    """A well-formed puzzle the site cannot play: no single solution, or too large; why,
    as a refusal (``said`` in any language), and the puzzle when it was read."""

    def __init__(self, why: Refusal, puzzle: Puzzle | None = None):
        super().__init__(why.msgid, **why.params)
        self.puzzle = puzzle


def parse_id(code: str) -> Puzzle:
    """The puzzle an id describes (MalformedId when malformed); nothing is solved."""
    try:
        return puzzle_from_id(code)
    except PuzzleFormatError as err:
        raise MalformedId(err) from None


def too_large(puzzle: Puzzle) -> Refusal | None:
    """Why a board is too large for the site, or None."""
    if puzzle.size <= MAX_BOARD_CELLS:
        return None
    return Refusal(N_("This board has %(size)s cells; this site plays boards of up to %(most)s cells."),
                   size=puzzle.size, most=MAX_BOARD_CELLS)


def load(store: Store, code: str, solve: Solve) -> StoredPuzzle:
    """The puzzle with this id; a new one is solved with ``solve`` and stored.

    Raises MalformedId for a malformed id and NotPlayable when it has no unique
    solution or is larger than the site plays.  ``solve`` may raise (the rate limit, a
    busy server): nothing is remembered then.
    """
    stored = store.find_puzzle(code)
    if stored is not None:
        return stored
    puzzle = parse_id(code)
    canonical = puzzle_to_id(puzzle)
    if canonical != code:
        stored = store.find_puzzle(canonical)
        if stored is not None:
            return stored
    remembered = store.find_unplayable(canonical)
    problem = too_large(puzzle) or (from_kept(remembered) if remembered is not None else None)
    if problem is not None:
        raise NotPlayable(problem, puzzle=puzzle)
    result = solve(puzzle)
    problem = unplayable_reason(result)
    if problem is not None:
        store.save_unplayable(canonical, kept(problem))
        raise NotPlayable(problem, puzzle=puzzle)
    assert result.solution is not None
    return store.save_puzzle(StoredPuzzle(canonical, puzzle, result.solution))


def unplayable_reason(result: SolveResult) -> Refusal | None:
    """Why a puzzle solved within its budget cannot be played, or None if it can."""
    if result.count == 0 and result.complete:
        if not result.reason:
            return Refusal(N_("This puzzle has no solution."))
        return Refusal(N_("This puzzle has no solution: %(why)s."), why=result.reason)
    if result.count >= 2:
        return Refusal(N_("This puzzle has more than one solution, so entries cannot be checked against the "
                          "answer."))
    if not result.complete or result.solution is None:
        return too_hard_refusal(result.seconds)
    return None


def made_here(options: Options, seed: int, day: date, seconds: float | None) -> StoredPuzzle:
    """``daily``'s maker in this process (the pool filler's)."""
    return generate(options, seed, day, max_seconds=seconds)


def daily(store: Store, day: date, make: MakeDaily = made_here, budget_seconds: float | None = None) -> StoredPuzzle:
    """The puzzle of the day, made and stored on first request: the first shape of the
    day's order that the generator manages, within ``budget_seconds`` in all.

    A shape the generator cannot manage at all gives way to the next; running out of
    time does not (it raises), so the day's puzzle never depends on the machine's pace."""
    stored = store.daily(day)
    if stored is not None:
        return stored
    deadline = None if budget_seconds is None else time.monotonic() + budget_seconds
    problem: ValueError | None = None
    for options, seed in daily_options(day):
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            break
        try:
            made = make(options, seed, day, left)
        except ValueError as err:  # the generator could not manage this shape: take the next
            if isinstance(err, GenerationError) and "time" in err.params:
                raise  # out of time, not a shape it cannot manage: another shape would change the puzzle
            problem = err
            continue
        return store.save_puzzle(made)
    raise problem or ValueError("no shape could make the puzzle of the day")
