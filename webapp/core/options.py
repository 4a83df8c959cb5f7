"""Where puzzles come from: ids, the generator, the pool and the puzzle of the day.

Views call these; they call the engine's public API and ``storage``.  Generation that
may take longer than about a second runs in a background thread behind a ticket, and
large or expert puzzles come from the pool of pre-generated puzzles (``pool.py``).
"""

from __future__ import annotations

import random
import secrets
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from datetime import date
from typing import Any, Callable

import engine
from engine import Generated, Puzzle, PuzzleFormatError, SolveResult, puzzle_from_id, puzzle_to_id
from engine import seconds as seconds_text

from . import tasks
from .budget import OutOfTime, Runner
from .game import utcnow
from .limits import MAX_BOARD_CELLS
from .storage import StoredPuzzle, Store

# (label, adjacency) for each variant the form offers.
VARIANTS: dict[str, tuple[str, str]] = {
    "hidato": ("Hidato", "king"),
    "numbrix": ("Numbrix", "rook"),
    "hex": ("Hex", "hex"),
}
VARIANT_OF_ADJACENCY = {adjacency: key for key, (_label, adjacency) in VARIANTS.items()}
# The engine stops itself this long before the child running it is killed.
ENGINE_MARGIN_SECONDS = 0.3
# A finished generation job is kept this long for its waiting page to pick up.
JOB_KEEP_SECONDS = 15 * 60
# How long a generation job may wait behind others before it starts, and how long after
# its budget a job whose process is gone is still called "waiting".
QUEUE_SECONDS = 5 * 60
GRACE_SECONDS = 30
# Shapes tried, in this order, for the puzzle of the day (the first the engine knows wins).
DAILY_SHAPES = ("diamond", "rectangle", "ring", "cross", "heart", "triangle")


class PuzzleNotFound(LookupError):
    """An id that is malformed, or names no puzzle we can serve."""


class NotPlayable(ValueError):
    """A well-formed puzzle without exactly one solution."""

    def __init__(self, message: str, puzzle: Any = None):
        super().__init__(message)
        self.puzzle = puzzle


@dataclass(frozen=True)
class Options:
    """What the New puzzle form asks for."""

    shape: str
    size: int
    difficulty: str
    variant: str

    @property
    def adjacency(self) -> str:
        return VARIANTS[self.variant][1]


def shapes() -> dict[str, Any]:
    """The engine's shapes by name (ShapeSpec: name, description, min/max/default size)."""
    from engine.shapes import SHAPES

    return dict(SHAPES)


def difficulties() -> tuple[str, ...]:
    return tuple(engine.DIFFICULTIES)


def parse_options(form: Any) -> Options:
    """Check the New puzzle form; raises ValueError with a message for the person."""
    known = shapes()
    shape = (form.get("shape") or "").strip()
    if shape not in known:
        raise ValueError(f"Unknown shape {shape[:40]!r}: choose one of {', '.join(known)}")
    spec = known[shape]
    raw_size = (form.get("size") or "").strip()
    if not raw_size:
        size = spec.default_size
    elif raw_size.isascii() and raw_size.isdigit() and len(raw_size) < 6:
        size = int(raw_size)
    else:
        raise ValueError(f"Size must be a whole number from {spec.min_size} to {spec.max_size}")
    if not spec.min_size <= size <= spec.max_size:
        raise ValueError(f"Size for {shape} must be from {spec.min_size} to {spec.max_size}, not {size}")
    difficulty = (form.get("difficulty") or "medium").strip()
    if difficulty not in difficulties():
        raise ValueError(f"Unknown difficulty {difficulty[:40]!r}: choose one of {', '.join(difficulties())}")
    variant = (form.get("variant") or "hidato").strip().lower()
    if variant not in VARIANTS:
        raise ValueError(f"Unknown variant {variant[:40]!r}: choose Hidato, Numbrix or Hex")
    return Options(shape, size, difficulty, variant)


# --- puzzles by id --------------------------------------------------------------------


Solve = Callable[[Puzzle], SolveResult]


def load(store: Store, code: str, solve: Solve) -> StoredPuzzle:
    """The puzzle with this id; a new one is solved with ``solve`` and stored.

    Raises PuzzleNotFound for a malformed id, NotPlayable when it has no unique solution
    (remembered, so the same id never costs a second solve) or is larger than the site
    plays.  ``solve`` may raise (the rate limit, a busy server): nothing is remembered then.
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
    if puzzle.size > MAX_BOARD_CELLS:
        raise NotPlayable(f"This board has {puzzle.size:,} cells; this site plays boards of up to "
                          f"{MAX_BOARD_CELLS:,} cells.", puzzle=puzzle)
    known = store.find_unplayable(canonical)
    if known is not None:
        raise NotPlayable(known, puzzle=puzzle)
    result = solve(puzzle)
    problem = unplayable_reason(result)
    if problem is not None:
        store.save_unplayable(canonical, problem)
        raise NotPlayable(problem, puzzle=puzzle)
    assert result.solution is not None
    return store.save_puzzle(StoredPuzzle(canonical, puzzle, result.solution))


def parse_id(code: str) -> Puzzle:
    """The puzzle an id describes (PuzzleNotFound when malformed); nothing is solved."""
    try:
        return puzzle_from_id(code)
    except PuzzleFormatError as err:
        raise PuzzleNotFound(str(err)) from None


def unplayable_reason(result: SolveResult) -> str | None:
    """Why a puzzle solved within its budget cannot be played, or None if it can."""
    if result.count == 0 and result.complete:
        reason = f": {result.reason}" if result.reason else ""
        return f"This puzzle has no solution{reason}."
    if result.count >= 2:
        return ("This puzzle has more than one solution, so entries cannot be checked "
                "against the answer.")
    if not result.complete or result.solution is None:
        return too_hard_message(result.seconds)
    return None


def too_hard_message(seconds: float) -> str:
    return (f"This puzzle is too hard to finish in {seconds_text(round(seconds))}: the solver stopped "
            "before it could settle whether it has exactly one solution.")


def solve_in_child(runner: Runner, seconds: float) -> Solve:
    """``load``'s solver for the web: a child process, killed when ``seconds`` run out."""

    def solve(puzzle: Puzzle) -> SolveResult:
        engine_seconds = max(0.1, seconds - ENGINE_MARGIN_SECONDS)
        try:
            return runner.run(seconds, tasks.solve, puzzle, engine_seconds)
        except OutOfTime:
            return SolveResult(complete=False, seconds=seconds, limit=2)

    return solve


# --- generated puzzles ----------------------------------------------------------------


def stored_from(made: Generated, daily: date | None = None) -> StoredPuzzle:
    """A generated puzzle as it is stored: the one place one becomes the other."""
    return StoredPuzzle(
        code=puzzle_to_id(made.puzzle),
        puzzle=made.puzzle,
        solution=dict(made.solution),
        shape=made.shape,
        size=made.size if made.shape != "custom" else None,
        difficulty=made.difficulty,
        grade={"level": made.grade.level, "techniques": dict(made.grade.techniques)},
        seed=made.seed,
        daily=daily,
    )


def generate(options: Options, seed: int | None = None, daily: date | None = None) -> StoredPuzzle:
    """Run the engine's generator here, in this process (the pool filler's way)."""
    if seed is None:
        seed = secrets.randbits(48)
    return stored_from(engine.generate(options.shape, options.size, difficulty=options.difficulty,
                                       adjacency=options.adjacency, seed=seed), daily)  # type: ignore[arg-type]


def generate_in_child(runner: Runner, seconds: float, options: Options, seed: int | None = None,
                      daily: date | None = None, background: bool = True) -> StoredPuzzle:
    """The same in a child process killed after ``seconds`` (OutOfTime); ``background``:
    queue for a slot as background work does, else wait only as a request may (Busy)."""
    if seed is None:
        seed = secrets.randbits(48)
    run = runner.run_queued if background else runner.run
    engine_seconds = max(0.1, seconds - ENGINE_MARGIN_SECONDS)
    made = run(seconds, tasks.generate, options.shape, options.size, options.difficulty,
               options.adjacency, seed, None, engine_seconds)
    return stored_from(made, daily)


class Generator:
    """Generation jobs behind a ticket that the waiting page polls.

    The work runs in a background thread of the process that was asked, inside a child
    process with a time budget (``budget.Runner``); the ticket and its outcome
    are kept in the database, so the waiting page can be answered by any server process,
    and a ticket whose process died runs out and says so.
    """

    def __init__(self, store: Store, runner: Runner, wait_seconds: float, budget_seconds: float = 60.0):
        self.store = store
        self.runner = runner
        self.wait_seconds = wait_seconds
        self.budget_seconds = budget_seconds
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hidato-generate")

    def make(self, options: Options) -> tuple[StoredPuzzle | None, str | None]:
        """A new puzzle if made within the wait, else (None, a ticket for the waiting page).

        Raises ValueError (with a message for the person) when the engine refuses the
        options or the budget runs out within the wait.
        """
        ticket = uuid.uuid4().hex
        # Queued work may wait behind earlier jobs: it runs out only well after its budget.
        self.store.add_ticket(ticket, "generate", asdict(options), QUEUE_SECONDS + self.budget_seconds,
                              JOB_KEEP_SECONDS)
        future = self._executor.submit(self._make, ticket, options)
        try:
            stored = future.result(timeout=self.wait_seconds)
        except TimeoutError:
            return None, ticket  # the waiting page collects it, even if it is done by now
        except ValueError:
            self.store.ticket(ticket, "generate", take=True)  # answered here: nobody will ask
            raise
        self.store.ticket(ticket, "generate", take=True)
        return stored, None

    def _make(self, ticket: str, options: Options) -> StoredPuzzle:
        self.store.update_ticket(ticket, "running", seconds=self.budget_seconds + GRACE_SECONDS)
        try:
            stored = self.store.save_puzzle(generate_in_child(self.runner, self.budget_seconds, options))
        except OutOfTime as err:
            message = gave_up_message(err.seconds)
            self.store.update_ticket(ticket, "refused", message)
            raise ValueError(message) from None
        except ValueError as err:
            self.store.update_ticket(ticket, "refused", str(err))
            raise
        except Exception as err:
            self.store.update_ticket(ticket, "failed", str(err))
            raise
        self.store.update_ticket(ticket, "done", stored.code)
        return stored

    def result(self, ticket: str) -> tuple[str, StoredPuzzle | str | Options | None]:
        """("done", puzzle), ("refused" or "failed", message), ("waiting", options), ("unknown", None)."""
        found = self.store.ticket(ticket, "generate", take=True)
        if found is None:
            return "unknown", None
        if found.status in ("waiting", "running"):
            if found.deadline < utcnow():
                return "unknown", None  # the process making it stopped (a restart): ask again
            return "waiting", Options(**found.request)
        if found.status == "done":
            stored = self.store.find_puzzle(found.result or "")
            return ("done", stored) if stored is not None else ("unknown", None)
        return found.status, found.result or "unknown error"

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


def gave_up_message(seconds: float) -> str:
    return (f"The generator gave up after {seconds_text(seconds)} without a puzzle of this kind. "
            "Try again (another puzzle may come quicker), a smaller size or an easier difficulty.")


# --- the puzzle of the day ------------------------------------------------------------


def daily_options(day: date) -> list[tuple[Options, int]]:
    """The options and seed of the puzzle of the day, best first: the same for everyone on a date."""
    seed = int(day.strftime("%Y%m%d"))
    known = shapes()
    candidates = [name for name in DAILY_SHAPES if name in known] or sorted(known)
    random.Random(seed).shuffle(candidates)
    return [(Options(name, known[name].default_size, "medium", "hidato"), seed) for name in candidates]


def daily(store: Store, day: date, runner: Runner | None = None, budget_seconds: float = 60.0) -> StoredPuzzle:
    """The puzzle of the day, made and stored on first request.

    With a ``runner`` (a request) it is made in child processes within ``budget_seconds``
    in all (else OutOfTime, or Busy); the pool filler makes it ahead of time anyway.
    """
    stored = store.daily(day)
    if stored is not None:
        return stored
    deadline = time.monotonic() + budget_seconds
    problem: ValueError | None = None
    for options, seed in daily_options(day):
        try:
            if runner is None:
                made = generate(options, seed=seed, daily=day)
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise OutOfTime(budget_seconds)
                made = generate_in_child(runner, left, options, seed, day, background=False)
        except ValueError as err:  # the generator could not manage this shape: take the next
            problem = err
            continue
        return store.save_puzzle(made)
    raise problem or ValueError("no shape for the puzzle of the day")
