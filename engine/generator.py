"""The generator: puzzles with exactly one solution, rated inside the level asked for.

A random Hamiltonian path over the board is the solution, made more rigid for the
harder levels (``rigid.py``: fewer pieces that could be walked another way, so fewer
givens are needed).  Givens are then removed (``reduction.py``): for easy to hard while
singles and chains no longer than the level allows still solve the puzzle; for expert
down to a minimal unique puzzle, then given back one at a time (up to a share of the
cells, ``Level.give_back``) until chains within the level's longest finish it, and when
the rating's whips do not finish what braids did, given back more until whips do: so no
puzzle at any level needs a guess, and few paths are thrown away.  The result must be
rated inside the level's range (``levels.py``), otherwise another path is tried, and the
full search confirms it has one solution.  Everything random comes from one
``random.Random`` seeded by the request, and every search is bounded by counted steps,
never by the clock (a path: ``paths.MAX_STEPS``; a rating: ``_RATE_STEPS_PER_CELL``; a
uniqueness check: SAT conflicts), so the same request gives the same puzzle everywhere,
on a quiet machine or a busy one.  When a core is idle the next paths are tried on it
meanwhile (``look_ahead.py``): the first path in order that fits still wins.

An optional time limit is the one thing that looks at the clock: it is checked between
steps and inside the rules, and past it the generation gives up with a message that says
so (GenerationError).  It never changes what is made: a step it cuts short is never used.
An optional ``progress`` callable hears of each step as it starts (a ``Stage``: facts, no words), so a caller can show
what a long generation is doing; the engine never prints.  A ``GenerationError`` keeps its facts
(the level, the board's cells, the seconds or the paths tried: ``words.FactsError``), so
the web says them in the reader's language and the command line in English.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from . import reduction
from .board import Adjacency, Board, Grid, Puzzle
from .grading import Grade
from .levels import DIFFICULTIES, LEVELS, Level, keep_share, unreachable
from .look_ahead import Attempts, OnPrefix, Report, State
from .paths import random_hamiltonian_path
from .propagation import TimeUp
from .rating import LogicSolve, Rating, StepsRanOut, rate, rated
from .rigid import rigid_path
from .shapes import SHAPES, ShapeError, check_playable, shape_board
from .solver import SolverGaveUp, count_solutions, solve
from .words import FactsError, Phrase, Seconds

_ATTEMPTS = 30  # paths tried before giving up on a difficulty the board cannot reach
_GIVEN_BACK = 2  # givens added back to a minimal puzzle that needs a guess, at least (Level.give_back)
# Counted steps (``Chains.steps``: trials and the partial whips they extend) a rating may
# take per cell before the path is given up: the old 0.05 s a cell (a 10x10 rated in 5 s
# at most, a 20x20 in 20 s) at about 100,000 steps a second (measured on 10x10 to 20x20
# experts of each adjacency: 70,000 to 100,000 per CPU second with both cores busy).
# Steps, never seconds, so the same seed gives the same puzzle on a busy machine.
_RATE_STEPS_PER_CELL = 5_000
# The first rating of a minimal puzzle with its givens back gets less: past it the puzzle
# is given more numbers from where the rating stood (``_refitted``) instead of being
# rated on.  A minimal 20x20 Numbrix puzzle the whips cannot finish within the whole
# allowance spent all of it (2 million steps, 20-30 s CPU) on sweeps at lengths 7-10
# that found nothing, long after it had shown itself expert, and then its path was
# thrown away (seed 303: two such paths, 60 s).  A few numbers back make the same path a
# puzzle the whips finish, and the refit and the second rating keep the whole allowance.
_FIRST_RATE_STEPS_PER_CELL = 1_500
# And at most this many on a large board (750 a cell on 20x20, so boards up to 200 cells
# keep 1,500 a cell).  Since a refit costs one rating (``_refitted``), the first rating's
# steps past where a rating that finishes has finished only put the refit off: 20x20
# Numbrix expert ratings that finished did within 230,000 steps (seeds 301-308), and of
# the ones that ran out all but one (seed 304's second path) chose the same number to
# give back at 300,000 as at 600,000: seven of those eight seeds make the same puzzles,
# 10-20% sooner.
_FIRST_RATE_STEPS_MOST = 300_000
# And a refit's rating at most this many (boards over 200 cells; smaller ones keep the
# whole allowance and their puzzles): past it the puzzle gets one more number back from
# where the whips stood, as when they are stuck, instead of the path being dropped.  On
# 20x20 Numbrix expert, refit ratings that finished took 0.2-1 million steps, but a few
# 1.6-1.7 million (W9-W11, 9-16 s CPU), and one that ran out spent its 2 million (16-18 s)
# before a whole new path was tried; one more number back rated in 0.2-0.5 million.
_REFIT_RATE_STEPS_MOST = 1_000_000
_FALLBACK_AFTER = 3  # attempts before a level's slower fallback is tried
_FINAL_CHECK_NODES = 200_000


class GenerationError(FactsError):
    """No puzzle of the requested kind could be made (e.g. a tiny board and 'expert'):
    the level cannot be reached on this board (``levels.unreachable``'s facts), no path
    tried gave one (``level``, ``cells``, ``attempts``), or the time limit passed first
    (``level``, ``cells``, ``time``: ``words.Seconds``)."""

    @classmethod
    def of(cls, phrase: Phrase) -> GenerationError:
        """The error that says this phrase."""
        return cls(phrase.template, **phrase.params)


StageName = Literal["path", "givens", "rating", "checking"]


@dataclass(frozen=True)
class Stage:
    """The step a generation is starting: on solution path ``attempt`` of at most
    ``attempts``, finding the path, removing givens, rating the puzzle, or checking
    with the full search that it has one solution."""

    name: StageName
    attempt: int
    attempts: int


Progress = Callable[[Stage], None]


@dataclass(frozen=True)
class Generated:
    """A generated puzzle with its solution and how it was made."""

    puzzle: Puzzle
    solution: Grid
    shape: str
    size: int
    difficulty: str
    adjacency: str
    seed: int
    grade: Grade
    seconds: float


def generate_shape(
    shape: str,
    size: int,
    difficulty: str = "medium",
    adjacency: Adjacency = "king",
    seed: int = 0,
    rows: int | None = None,
    cols: int | None = None,
    *,
    max_seconds: float | None = None,
    progress: Progress | None = None,
    spare_cores: bool | None = None,
) -> Generated:
    """A unique puzzle of ``difficulty`` on the named shape (``rows``/``cols`` for rectangles).

    ``max_seconds`` bounds the whole generation; past it GenerationError says so.  The
    clock is only looked at between steps, and a step the clock cut short is never used,
    so a puzzle that comes back is the same as without a limit.  ``progress`` is told
    each step as it starts; it changes nothing in what is made.  ``spare_cores`` lets the
    next solution paths be tried ahead on another core (``look_ahead.py``): None when one
    is idle, True always, False never; it changes how soon the puzzle comes, never which.
    """
    started = time.perf_counter()
    _check_difficulty(difficulty)
    _check_sides(shape, size, rows, cols)
    board = shape_board(shape, size, adjacency, rows, cols)
    why = unreachable(shape, min(rows or size, cols or size), adjacency, difficulty)
    if why is not None:
        raise GenerationError.of(why)
    # A string seed is hashed with SHA-512 by random.seed: the same on every machine.
    rng = random.Random(f"{shape}/{size}/{rows}/{cols}/{adjacency}/{difficulty}/{seed}/[]")
    request = _Request(shape, size, difficulty, seed)
    return _made(board, request, rng, _Clock(started, max_seconds, board.size, difficulty, progress=progress,
                                             spare=spare_cores))


def generate(board: Board, difficulty: str = "medium", seed: int = 0, *,
             max_seconds: float | None = None, progress: Progress | None = None,
             spare_cores: bool | None = None) -> Generated:
    """A unique puzzle of ``difficulty`` on any playable ``board`` (a custom shape).

    The result's ``shape`` is "custom" and its ``size`` the number of cells; the time
    limit, ``progress`` and ``spare_cores`` work as for generate_shape.
    """
    started = time.perf_counter()
    _check_difficulty(difficulty)
    check_playable(board)
    rng = random.Random(f"custom/{board.size}/None/None/{board.adjacency}/{difficulty}/{seed}/{sorted(board.cells)}")
    request = _Request("custom", board.size, difficulty, seed)
    return _made(board, request, rng, _Clock(started, max_seconds, board.size, difficulty, drawn=True,
                                             progress=progress, spare=spare_cores))


@dataclass(frozen=True)
class _Request:
    """What was asked for, as the Generated result reports it."""

    shape: str
    size: int
    difficulty: str
    seed: int


def _check_difficulty(difficulty: str) -> None:
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r} (expected {', '.join(DIFFICULTIES)})")


def _made(board: Board, request: _Request, rng: random.Random, clock: _Clock) -> Generated:
    try:
        return _attempts(board, request, rng, clock)
    except (TimeUp, SolverGaveUp):  # a grader or solver call inside ran into the limit
        raise clock.error() from None


def _attempts(board: Board, request: _Request, rng: random.Random, clock: _Clock) -> Generated:
    """Try paths until one gives a puzzle whose rating falls in the level asked for.

    Attempts may run on a spare core (``look_ahead.py``), the next starting as soon as
    its random state is known; what comes back is still the first attempt, in order,
    that made a puzzle, each from the same random state as one after the other."""
    level = LEVELS[request.difficulty]

    def run(attempt: int, on_prefix: OnPrefix | None, report: Report | None) -> tuple[_Made | None, State]:
        # A child hands its steps to the parent, which tells the caller's ``progress`` (that
        # may write to a pipe of its own) those of the attempt it awaits.
        told = clock if report is None else clock.reporting_to(report)
        return _attempt(board, level, rng, told, attempt, on_prefix), rng.getstate()

    attempts = Attempts(run, rng.setstate, rng.getstate, _ATTEMPTS, clock.deadline,
                        clock.spare if level.minimal_first else False, relay=clock.relay)
    found = attempts.first()
    if found is not None:
        made: _Made = found[1]
        return Generated(
            puzzle=Puzzle(board, made.givens),
            solution=made.solution,
            shape=request.shape,
            size=request.size,
            difficulty=request.difficulty,
            adjacency=board.adjacency,
            seed=request.seed,
            grade=Grade(request.difficulty, made.rating),
            seconds=time.perf_counter() - clock.started,
        )
    facts = {"level": request.difficulty, "cells": board.size, "attempts": _ATTEMPTS}
    # A drawn shape is made larger by drawing it so, a named one by its size.
    if request.shape == "custom" and level.name == DIFFICULTIES[0]:
        raise GenerationError("could not make an %(level)s puzzle on this %(cells)s-cell shape (tried %(attempts)s "
                              "different solution paths): try another seed or a larger shape", **facts)
    if request.shape == "custom":
        raise GenerationError("could not make %(article)s %(level)s puzzle on this %(cells)s-cell shape (tried "
                              "%(attempts)s different solution paths): try another seed, a larger shape or an easier "
                              "level", article=_article(request.difficulty), **facts)
    if level.name == DIFFICULTIES[0]:
        raise GenerationError("could not make an %(level)s puzzle on this %(cells)s-cell board (tried %(attempts)s "
                              "different solution paths): try another seed or a larger size", **facts)
    raise GenerationError("could not make %(article)s %(level)s puzzle on this %(cells)s-cell board (tried "
                          "%(attempts)s different solution paths): try another seed, a larger size or an easier level",
                          article=_article(request.difficulty), **facts)


class _Made(NamedTuple):
    """What one attempt made: a puzzle of the level, its solution and rating."""

    givens: Grid
    solution: Grid
    rating: Rating


def _attempt(board: Board, level: Level, rng: random.Random, clock: _Clock, attempt: int,
             on_prefix: OnPrefix | None) -> _Made | None:
    """One solution path and the puzzle it gives, or None when it gives none of the level.

    Everything random is drawn at the start: the path, making it rigid, and the order the
    givens are taken away in (``reduction.removal_order``), unless a fallback may reduce
    by chains later.  Once that is known, ``on_prefix`` hears the random state the next
    attempt starts from, so it can start at once elsewhere."""
    clock.stage("path", attempt)
    order = _random_path(board, rng, clock)
    order = rigid_path(board, order, rng, level.rigidity, clock.deadline)
    solution = {board.cells[i]: k for k, i in enumerate(order, start=1)}
    fallback = attempt >= _FALLBACK_AFTER
    if on_prefix is not None and not (fallback and level.chains_fallback):
        after = random.Random()
        after.setstate(rng.getstate())
        reduction.removal_order(board, solution, after)  # as the reduction below will draw it
        on_prefix(after.getstate())
    clock.stage("givens", attempt)
    givens = _givens(board, solution, level, rng, clock, fallback=fallback)
    if givens is None:
        return None  # needs more than reasoning of this level, even with a given back
    puzzle = Puzzle(board, givens)
    clock.stage("rating", attempt)
    rating, solve = _rating(puzzle, level, clock, first=level.minimal_first)
    if solve is not None and (rating is None or not rating.solved):  # stuck, or out of its first allowance
        puzzle, rating = _refitted(puzzle, solution, level, clock, solve)
    if rating is None or not rating.solved or not level.lowest <= rating.length <= level.longest:
        return None  # the path allowed no puzzle of this level: try another
    clock.stage("checking", attempt)
    _assert_unique(puzzle, solution, clock)
    return _Made(dict(puzzle.givens), solution, rating)


def _givens(board: Board, solution: Grid, level: Level, rng: random.Random, clock: _Clock,
            fallback: bool) -> Grid | None:
    """The givens of one attempt, made the level's way (None: this path will not do).

    With ``fallback``, a level that allows it reduces by chains when the minimal puzzle
    does not fit: slower, so only once a few paths have failed (thin or odd boards)."""
    chains_fallback = fallback and level.chains_fallback
    if level.minimal_first:
        givens = reduction.to_minimal(board, solution, rng, clock.deadline)
        most = max(_GIVEN_BACK, round(level.give_back * board.size))
        fitted = reduction.add_back(board, solution, givens, level.longest, most, clock.deadline)
        if not chains_fallback:
            return fitted
        if fitted is not None and rate(Puzzle(board, fitted), cap=level.longest,
                                       max_seconds=clock.left()).length >= level.lowest:
            return fitted
        return reduction.by_chains(board, solution, level.longest, level.lowest, 0, rng, clock.deadline)
    keep = math.ceil(keep_share(level, board.adjacency) * board.size)
    return reduction.by_chains(board, solution, level.longest, level.lowest, keep, rng, clock.deadline)


def _refitted(puzzle: Puzzle, solution: Grid, level: Level, clock: _Clock,
              stuck: LogicSolve) -> tuple[Puzzle, Rating | None]:
    """A puzzle braids finish but whips do not (the rating needs whips): given back more
    numbers, one at a time, until whips finish it, and rated; (puzzle, None) when that
    does not do.  Far cheaper than another path, which costs a whole minimal puzzle
    again (20x20 king expert, seed 1: four paths, 63 s, before; one, 20 s, after).

    The number given back is the most telling where the whips stood (``stuck``: the
    first rating's solve, stuck or out of its first allowance; then each stuck rating's),
    and each puzzle so made is rated at once, from scratch.  Whips have Berthier's
    confluence property (where they end does not depend on the order they are tried
    in), so this gives back the same numbers as whips run on from ``stuck`` with each
    number added (as before; tests/test_generator_refit.py checks it) and rates the same
    puzzle the same, minus that run: most refits need one number, and its rating was
    done twice.  The ratings share twice the whole allowance less the first rating's
    steps (what that run and the rating after it had), each at most the whole one, and
    on a large board at most ``_REFIT_RATE_STEPS_MOST``: one that runs out of those is
    given one more number back, like one that is stuck."""
    board = puzzle.board
    most = max(_GIVEN_BACK, round(level.give_back * board.size))
    whole = _RATE_STEPS_PER_CELL * board.size
    left = 2 * whole - stuck.chains.steps
    where = {k: cell for cell, k in solution.items()}
    givens = dict(puzzle.givens)
    for _ in range(most):
        k = reduction.most_telling(stuck.chains)
        givens[where[k]] = k
        refitted = Puzzle(board, givens)
        try:
            rating, stuck = rated(refitted, cap=level.longest, max_seconds=clock.left(),
                                  max_steps=min(whole, left, _REFIT_RATE_STEPS_MOST))
        except StepsRanOut as ran_out:
            if min(whole, left) <= _REFIT_RATE_STEPS_MOST:
                return puzzle, None  # the whips take longer than a puzzle of this size should
            stuck = ran_out.solve  # sound where it stopped: one more number back from there
        except SolverGaveUp:
            clock.check()  # the time limit, not the step budget: give up on the whole generation
            return puzzle, None
        else:
            if rating.solved:
                return refitted, rating
        left -= stuck.chains.steps
    return puzzle, None


def _rating(puzzle: Puzzle, level: Level, clock: _Clock,
            first: bool = False) -> tuple[Rating | None, LogicSolve | None]:
    """The puzzle's rating and the solve where it ended, or (None, None) when rating it
    takes more steps than a puzzle of its size should (long whip searches on large sparse
    boards): another path is tried instead.  A ``first`` rating (of a minimal puzzle, to
    be refitted if need be) has the smaller allowance, and past it gives (None, the solve
    where it stopped).  Past our time limit it raises instead."""
    steps = min(_FIRST_RATE_STEPS_PER_CELL * puzzle.size, _FIRST_RATE_STEPS_MOST) if first \
        else _RATE_STEPS_PER_CELL * puzzle.size
    try:
        return rated(puzzle, cap=level.longest, max_seconds=clock.left(), max_steps=steps)
    except StepsRanOut as ran_out:
        return None, (ran_out.solve if first else None)
    except SolverGaveUp:
        clock.check()  # the time limit, not the step budget: give up on the whole generation
        return None, None


def _article(difficulty: str) -> str:
    """English's article before the level: "an" expert, "a" hard."""
    return "an" if difficulty[0] in "aeiou" else "a"


def _check_sides(shape: str, size: int, rows: int | None, cols: int | None) -> None:
    """Rows and columns obey the rectangle's size range, as its size does.

    shape_cells lets a rectangle's sides go up to the largest grid; the generator keeps
    them to the sizes it is known to finish in reasonable time.
    """
    spec = SHAPES.get(shape)
    if spec is None or shape != "rectangle" or (rows is None and cols is None):
        return  # shape_board says what is wrong, if anything
    rows, cols = (size if rows is None else rows), (size if cols is None else cols)
    if not spec.min_size <= rows <= spec.max_size:
        raise ShapeError("rows %(value)s is out of range for the rectangle: expected %(low)s..%(high)s",
                         value=rows, low=spec.min_size, high=spec.max_size)
    if not spec.min_size <= cols <= spec.max_size:
        raise ShapeError("cols %(value)s is out of range for the rectangle: expected %(low)s..%(high)s",
                         value=cols, low=spec.min_size, high=spec.max_size)


class _Clock:
    """The time limit of one generation; ``check`` raises GenerationError once it has passed.
    It also carries the caller's ``progress``, since every step is handed the clock."""

    def __init__(self, started: float, max_seconds: float | None, cells: int, difficulty: str,
                 drawn: bool = False, progress: Progress | None = None, spare: bool | None = None) -> None:
        self.started = started
        self.progress = progress
        self.spare = spare  # whether later attempts may run ahead on a spare core (None: when one is idle)
        self.max_seconds = max_seconds
        self.deadline = None if max_seconds is None else started + max_seconds
        self.cells = cells
        self.difficulty = difficulty
        self.drawn = drawn  # a custom shape: made smaller by drawing it so

    def stage(self, name: StageName, attempt: int) -> None:
        """Tell the caller which step of which attempt (counted from 0 here) starts now."""
        if self.progress is not None:
            self.progress(Stage(name, attempt + 1, _ATTEMPTS))

    def reporting_to(self, report: Callable[[Stage], None]) -> _Clock:
        """The same limit, its steps handed to ``report`` (a child's, to its parent)."""
        told = _Clock(self.started, self.max_seconds, self.cells, self.difficulty, self.drawn,
                      progress=report, spare=False)
        told.deadline = self.deadline
        return told

    def relay(self, stage: Stage) -> None:
        """Tell the caller a step a child reported."""
        if self.progress is not None:
            self.progress(stage)

    def left(self) -> float | None:
        """Seconds left (at least 0), or None without a limit."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - time.perf_counter())

    def out(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def check(self) -> None:
        if self.out():
            raise self.error()

    def error(self) -> GenerationError:
        assert self.max_seconds is not None
        facts = {"time": Seconds(self.max_seconds), "level": self.difficulty, "cells": self.cells}
        if self.drawn and self.difficulty == DIFFICULTIES[0]:
            return GenerationError("gave up after %(time)s without an %(level)s puzzle on this %(cells)s-cell shape: "
                                   "try another seed, a smaller shape or a longer time limit", **facts)
        if self.drawn:
            return GenerationError("gave up after %(time)s without %(article)s %(level)s puzzle on this %(cells)s-cell "
                                   "shape: try another seed, a smaller shape, an easier level or a longer time limit",
                                   article=_article(self.difficulty), **facts)
        if self.difficulty == DIFFICULTIES[0]:
            return GenerationError("gave up after %(time)s without an %(level)s puzzle on this "
                                   "%(cells)s-cell board: try another seed, a smaller size or a longer time limit",
                                   **facts)
        return GenerationError("gave up after %(time)s without %(article)s %(level)s puzzle on this "
                               "%(cells)s-cell board: try another seed, a smaller size, an easier level or a longer "
                               "time limit", article=_article(self.difficulty), **facts)


def _random_path(board: Board, rng: random.Random, clock: _Clock) -> list[int]:
    """The next solution path, within paths.py's own step budget; past our time limit
    the search raises rather than give up on the board."""
    clock.check()
    return random_hamiltonian_path(board, rng, deadline=clock.deadline)


def _assert_unique(puzzle: Puzzle, solution: Grid, clock: _Clock) -> None:
    """The last word: the full search agrees that this is the only solution."""
    clock.check()
    found = solve(puzzle, limit=2, max_nodes=_FINAL_CHECK_NODES, max_seconds=clock.left())
    clock.check()
    if found.count != 1 or found.solution != solution:
        raise AssertionError("generated puzzle is not unique")  # a bug, never a user error


__all__ = ["GenerationError", "Generated", "ShapeError", "Stage", "count_solutions", "generate", "generate_shape"]
