"""Tests for engine.tiers: the quick rule tiers are sound and nested on real puzzles."""

from __future__ import annotations

import pytest

from engine.tiers import TIERS, logic_solve

from puzzle_files import DATA, PUZZLE_FILES, load


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_every_tier_only_places_true_numbers_and_tiers_nest(path):
    puzzle, known = load(path)
    solved_before = False
    for tier in range(1, TIERS + 1):
        result = logic_solve(puzzle, tier)
        assert result.contradiction is None
        placed = result.grid(puzzle)
        assert all(known[cell] == value for cell, value in placed.items())
        assert result.solved == (len(placed) == puzzle.size)
        assert result.solved or not solved_before  # a stronger tier never does worse
        solved_before = result.solved
