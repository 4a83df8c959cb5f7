"""Tests for engine.grading: tiers are sound, nested, and grade real puzzles."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine import SolverGaveUp, parse_puzzle
from engine.grading import DIFFICULTIES, grade, logic_solve

from puzzle_files import DATA, PUZZLE_FILES, load


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_every_tier_only_places_true_numbers_and_tiers_nest(path):
    puzzle, known = load(path)
    solved_before = False
    for tier in range(1, len(DIFFICULTIES) + 1):
        result = logic_solve(puzzle, tier)
        assert result.contradiction is None
        placed = result.grid(puzzle)
        assert all(known[cell] == value for cell, value in placed.items())
        assert result.solved == (len(placed) == puzzle.size)
        assert result.solved or not solved_before  # a stronger tier never does worse
        solved_before = result.solved


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_grade_is_the_weakest_tier_that_finishes(path):
    puzzle, _ = load(path)
    found = grade(puzzle)
    tier = DIFFICULTIES.index(found.level) + 1
    assert found.techniques
    if found.solved_by_logic:
        assert logic_solve(puzzle, tier).solved
    if tier > 1:
        assert not logic_solve(puzzle, tier - 1).solved


def test_a_puzzle_with_no_solution_cannot_be_graded():
    from engine import parse_puzzle

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
