"""Where puzzles come from: ids, the generator, the pool and the puzzle of the day.

Views call these; they call the engine's public API and ``storage``.  Generation that
may take longer than about a second runs in a background thread behind a ticket, and
large or expert puzzles come from the pool of pre-generated puzzles (``pool.py``).
"""

from __future__ import annotations

import random
import secrets
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date
from typing import Any

import engine
from engine import PuzzleFormatError, puzzle_from_id, puzzle_to_id

from .storage import StoredPuzzle, Store

# (label, adjacency) for each variant the form offers.
VARIANTS: dict[str, tuple[str, str]] = {
    "hidato": ("Hidato", "king"),
    "numbrix": ("Numbrix", "rook"),
    "hex": ("Hex", "hex"),
}
VARIANT_OF_ADJACENCY = {adjacency: key for key, (_label, adjacency) in VARIANTS.items()}
# A puzzle that arrives by id only is solved on the spot, within this budget.
SOLVE_SECONDS = 3.0
# A finished generation job is kept this long for its waiting page to pick up.
JOB_KEEP_SECONDS = 15 * 60
# Shapes tried, in this order, for the puzzle of the day (the first the engine knows wins).
DAILY_SHAPES = ("diamond", "rectangle", "ring", "cross", "heart", "triangle", "circle")


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


def load(store: Store, code: str) -> StoredPuzzle:
    """The puzzle with this id, solving and storing it if it is new.

    Raises PuzzleNotFound for a malformed id, NotPlayable when it has no unique solution.
    """
    stored = store.find_puzzle(code)
    if stored is not None:
        return stored
    try:
        puzzle = puzzle_from_id(code)
    except PuzzleFormatError as err:
        raise PuzzleNotFound(str(err)) from None
    canonical = puzzle_to_id(puzzle)
    if canonical != code:
        stored = store.find_puzzle(canonical)
        if stored is not None:
            return stored
    result = engine.solve(puzzle, limit=2, max_seconds=SOLVE_SECONDS)
    if result.count == 0 and result.complete:
        reason = f": {result.reason}" if result.reason else ""
        raise NotPlayable(f"This puzzle has no solution{reason}.", puzzle=puzzle)
    if result.count >= 2:
        raise NotPlayable(
            "This puzzle has more than one solution, so entries cannot be checked "
            "against the answer.", puzzle=puzzle)
    if not result.complete or result.solution is None:
        raise NotPlayable(
            f"The solver could not settle this puzzle within {SOLVE_SECONDS:g} seconds.",
            puzzle=puzzle)
    return store.save_puzzle(StoredPuzzle(canonical, puzzle, result.solution))


# --- generated puzzles ----------------------------------------------------------------


def generate(options: Options, seed: int | None = None, daily: date | None = None) -> StoredPuzzle:
    """Run the engine's generator (may take a while for large or expert puzzles)."""
    if seed is None:
        seed = secrets.randbits(48)
    made = engine.generate(options.shape, options.size, difficulty=options.difficulty,
                           adjacency=options.adjacency, seed=seed)
    grade = made.grade
    return StoredPuzzle(
        code=puzzle_to_id(made.puzzle),
        puzzle=made.puzzle,
        solution=dict(made.solution),
        shape=options.shape,
        size=options.size,
        difficulty=options.difficulty,
        grade={"level": grade.level, "techniques": dict(grade.techniques)},
        seed=seed,
        daily=daily,
    )


class Generator:
    """Generation jobs in a background thread, each behind a ticket the waiting page polls."""

    def __init__(self, store: Store, wait_seconds: float):
        self.store = store
        self.wait_seconds = wait_seconds
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hidato-generate")
        self._jobs: dict[str, tuple[Options, Future[StoredPuzzle], float]] = {}
        self._lock = threading.Lock()

    def make(self, options: Options) -> tuple[StoredPuzzle | None, str | None]:
        """A new puzzle if made within the wait, else (None, a ticket for the waiting page)."""
        ticket = uuid.uuid4().hex
        future = self._executor.submit(self._make, options)
        with self._lock:
            self._forget_old_locked()
            self._jobs[ticket] = (options, future, time.monotonic())
        try:
            stored = future.result(timeout=self.wait_seconds)
        except TimeoutError:
            return None, ticket
        finally:
            if future.done():
                with self._lock:
                    self._jobs.pop(ticket, None)
        return stored, None

    def _make(self, options: Options) -> StoredPuzzle:
        return self.store.save_puzzle(generate(options))

    def result(self, ticket: str) -> tuple[str, StoredPuzzle | str | Options | None]:
        """("done", puzzle), ("refused" or "failed", message), ("waiting", options), ("unknown", None)."""
        with self._lock:
            job = self._jobs.get(ticket)
        if job is None:
            return "unknown", None
        options, future, _started = job
        if not future.done():
            return "waiting", options
        with self._lock:
            self._jobs.pop(ticket, None)
        error = future.exception()
        if isinstance(error, ValueError):
            return "refused", str(error)
        if error is not None:
            return "failed", str(error)
        return "done", future.result()

    def _forget_old_locked(self) -> None:
        """Drop finished jobs nobody came back for (the waiting page was closed)."""
        cutoff = time.monotonic() - JOB_KEEP_SECONDS
        for ticket, (_options, future, started) in list(self._jobs.items()):
            if future.done() and started < cutoff:
                del self._jobs[ticket]

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


# --- the puzzle of the day ------------------------------------------------------------


def daily_options(day: date) -> list[tuple[Options, int]]:
    """The options and seed of the puzzle of the day, best first: the same for everyone on a date."""
    seed = int(day.strftime("%Y%m%d"))
    known = shapes()
    candidates = [name for name in DAILY_SHAPES if name in known] or sorted(known)
    random.Random(seed).shuffle(candidates)
    return [(Options(name, known[name].default_size, "medium", "hidato"), seed) for name in candidates]


def daily(store: Store, day: date) -> StoredPuzzle:
    """The puzzle of the day, made and stored on first request."""
    stored = store.daily(day)
    if stored is not None:
        return stored
    problem: ValueError | None = None
    for options, seed in daily_options(day):
        try:
            made = generate(options, seed=seed, daily=day)
        except ValueError as err:  # the generator could not manage this shape: take the next
            problem = err
            continue
        return store.save_puzzle(made)
    raise problem or ValueError("no shape for the puzzle of the day")
