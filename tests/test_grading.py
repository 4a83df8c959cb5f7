"""Tests for engine.grading: a puzzle's level is the level its rating falls in."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine import LEVELS, SolverGaveUp, grade, parse_puzzle, rate

from puzzle_files import DATA, PUZZLE_FILES, load


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_grade_is_the_level_whose_range_holds_the_rating(path):
    puzzle, _ = load(path)
    found = grade(puzzle)
    rating = rate(puzzle)
    assert found.rating == rating
    if found.solved_by_logic:
        level = LEVELS[found.level]
        assert level.lowest <= rating.length <= level.longest or (found.level == "easy" and rating.length == 0)
    else:
        assert found.level == "expert"


def test_a_puzzle_with_no_solution_cannot_be_graded():
    with pytest.raises(ValueError, match="no solution"):
        grade(parse_puzzle("1 . 3\n. . .\n. . 4"))


@pytest.mark.slow
def test_grading_with_a_budget_gives_up_within_it() -> None:
    puzzle = parse_puzzle((Path(__file__).parent.parent / "bench" / "puzzles" / "rectangle20_e2.txt").read_text())
    started = time.perf_counter()
    with pytest.raises(SolverGaveUp, match="gave up after 0.1 seconds"):
        grade(puzzle, max_seconds=0.1)
    assert time.perf_counter() - started < 0.6
    assert grade(puzzle, max_seconds=60).level == grade(puzzle).level  # a budget that suffices changes nothing
