"""One seed, one puzzle: generation depends on the request alone, never on the machine's pace.

Every search inside the generator is bounded by counted steps; only the outer time limit
looks at the clock, and it can only stop a generation (GenerationError), never change
what it makes.  These tests make the same puzzles on a quiet machine and with both
cores saturated by spinning processes the test starts, and compare the text byte for
byte; and they check that a time limit either leaves the puzzle as it is or raises.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine.generator import GenerationError, generate_shape

ROOT = Path(__file__).resolve().parent.parent

# (shape, size, adjacency, level, seed): small boards of every adjacency and level.
CASES = [
    ("heart", 8, "king", "expert", 4),
    ("square", 8, "rook", "expert", 3),
    ("square", 7, "hex", "expert", 2),
    ("square", 8, "hex", "hard", 2),
    ("square", 8, "king", "medium", 5),
    ("diamond", 5, "hex", "easy", 6),
]

# Its path needs a long whip search to rate (about 340,000 steps, 3 s on a quiet machine):
# under the old budget of 0.05 s a cell a busy machine gave up on that path and made
# another puzzle.
SLOW_RATING = ("square", 10, "king", "expert", 201)

# Spinning processes per core: the generation gets well under half a core.
SPINNERS_PER_CORE = 2


def generated_text(hash_seed: str) -> list[str]:
    """Each case's puzzle and solution as ``hidato generate`` prints them, made in a fresh
    interpreter (with its own hash seed, so no set or dict order can sneak in)."""
    texts = []
    for shape, size, adjacency, level, seed in CASES:
        done = subprocess.run(
            [sys.executable, "-m", "webapp.cli", "generate", "--shape", shape, "--size", str(size),
             "--adjacency", adjacency, "--difficulty", level, "--seed", str(seed), "--solution", "--quiet",
             "--time-limit", "600"],
            cwd=ROOT, capture_output=True, text=True, check=False, timeout=300,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
        )
        assert done.returncode == 0, done.stderr
        texts.append(done.stdout)
    return texts


@contextmanager
def saturated_cores() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Both (all) cores kept busy by spinning processes, stopped on the way out."""
    count = SPINNERS_PER_CORE * (os.cpu_count() or 2)
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield spinners
    finally:
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait()


def test_the_same_seeds_make_the_same_text_on_a_quiet_machine_and_on_a_saturated_one():
    quiet = generated_text("1")
    with saturated_cores() as spinners:
        busy = generated_text("2")
        assert all(spinner.poll() is None for spinner in spinners)  # they spun all along
    assert len(set(quiet)) == len(CASES)  # real, different puzzles
    for case, alone, loaded in zip(CASES, quiet, busy, strict=True):
        assert loaded == alone, case


@pytest.mark.parametrize("case", [CASES[1], CASES[2], CASES[3]], ids=lambda c: "-".join(map(str, c)))
def test_a_time_limit_that_is_not_reached_changes_nothing(case):
    shape, size, adjacency, level, seed = case
    free = generate_shape(shape, size, level, adjacency, seed)
    limited = generate_shape(shape, size, level, adjacency, seed, max_seconds=600)
    assert (limited.puzzle, limited.solution, limited.grade) == (free.puzzle, free.solution, free.grade)


def test_a_clock_that_runs_a_thousand_times_too_fast_changes_nothing_without_a_limit(monkeypatch):
    # A machine a thousand times slower, as the generator's searches would see it if
    # they looked at the clock: the old 0.05 s a cell for a rating became 50 us.
    shape, size, adjacency, level, seed = SLOW_RATING
    free = generate_shape(shape, size, level, adjacency, seed)
    real = time.perf_counter
    monkeypatch.setattr(time, "perf_counter", lambda: 1000 * real())
    slowed = generate_shape(shape, size, level, adjacency, seed)
    assert (slowed.puzzle, slowed.solution, slowed.grade) == (free.puzzle, free.solution, free.grade)


def test_a_time_limit_either_leaves_the_puzzle_as_it_is_or_raises_even_on_a_saturated_machine():
    shape, size, adjacency, level, seed = CASES[0]
    started = time.perf_counter()
    free = generate_shape(shape, size, level, adjacency, seed)
    took = time.perf_counter() - started
    outcomes = []
    with saturated_cores():
        # Limits that end in each stage of the generation, and one well past it even at
        # an eighth of the pace.
        for share in (0.05, 0.3, 0.6, 0.9, 8.0):
            limit = share * took
            try:
                made = generate_shape(shape, size, level, adjacency, seed, max_seconds=limit)
            except GenerationError as err:
                assert str(err).startswith("gave up after "), err
                outcomes.append("gave up")
                continue
            assert (made.puzzle, made.solution, made.grade) == (free.puzzle, free.solution, free.grade), share
            outcomes.append("same")
    # On a machine slowed down this much, the short limits are reached, the long one is not.
    assert outcomes[:2] == ["gave up", "gave up"]
    assert outcomes[-1] == "same"


@pytest.mark.parametrize("share", [0.02, 0.1, 0.25])
def test_a_time_limit_that_is_reached_raises(share):
    shape, size, adjacency, level, seed = CASES[0]
    started = time.perf_counter()
    generate_shape(shape, size, level, adjacency, seed)
    limit = share * (time.perf_counter() - started)
    started = time.perf_counter()
    with pytest.raises(GenerationError, match=r"^gave up after "):
        generate_shape(shape, size, level, adjacency, seed, max_seconds=limit)
    assert time.perf_counter() - started < limit + 1.0  # stopped soon after the limit passed
