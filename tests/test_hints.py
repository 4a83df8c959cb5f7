"""Tests for engine.hints: every hint is true, and mistakes are pointed out."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine import Board, Puzzle, SolverGaveUp, parse_puzzle
from engine.hints import hint

from puzzle_files import DATA, PUZZLE_FILES, load
from rated_files import rated_puzzles

SMALL = [p for p in PUZZLE_FILES if "large" not in p.parts]


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
def test_following_the_hints_solves_the_puzzle(path):
    puzzle, known = load(path)
    entries: dict = {}
    for _ in range(puzzle.size):
        step = hint(puzzle, entries, known)
        if step.kind == "solved":
            break
        assert step.kind == "deduction"
        target = step.cells[0]
        assert known[target] == step.number  # the deduction agrees with the solution
        assert str(step.number) in step.text
        entries[target] = step.number
    assert len(entries) + len(puzzle.givens) == puzzle.size


def test_first_hint_on_a_fresh_puzzle_is_explained():
    puzzle, known = load(DATA / "classic-8x8-40.txt")
    step = hint(puzzle, {})
    assert step.kind == "deduction"
    assert known[step.cells[0]] == step.number
    assert "must go in row" in step.text


def test_a_wrong_entry_is_pointed_at():
    puzzle, known = load(DATA / "seed000-5x5.txt")
    open_cells = [c for c in puzzle.board.cells if c not in puzzle.givens]
    right, wrong = open_cells[0], open_cells[1]
    entries = {right: known[right], wrong: known[right]}
    step = hint(puzzle, entries)
    assert step.kind == "mistake"
    assert step.cells[0] == wrong
    assert f"The {known[right]} in row {wrong[0] + 1}, column {wrong[1] + 1} is wrong" in step.text


def test_bad_entries_are_refused():
    puzzle = Puzzle(Board.rectangle(2, 2), {(0, 0): 1})
    with pytest.raises(ValueError, match="outside 1..4"):
        hint(puzzle, {(0, 1): 9})
    with pytest.raises(ValueError, match="holds a given"):
        hint(puzzle, {(0, 0): 2})


def test_a_hint_with_a_budget_gives_up_within_it() -> None:
    puzzle = parse_puzzle((Path(__file__).parent / "data" / "budget" / "hard-900.txt").read_text())
    started = time.perf_counter()
    with pytest.raises(SolverGaveUp, match="gave up after 0.2 seconds"):
        hint(puzzle, {}, max_seconds=0.2)  # no solution given: it must solve first
    assert time.perf_counter() - started < 0.7


@pytest.mark.parametrize("name", ["mebane-III.7", "puzzlesandbrains-numbrix-VH08", "square10-king-expert-s5"])
def test_a_hint_that_needs_a_chain_tells_the_chain(name):
    rated = next(r for r in rated_puzzles() if r.name == name)
    puzzle, known = rated.load()
    entries: dict = {}
    longest = 0
    while True:
        step = hint(puzzle, entries, known)
        if step.kind == "solved":
            break
        assert known[step.cells[0]] == step.number
        if step.length >= 2:
            # "If 34 were in row 5, column 7, ... and 35 would have nowhere to go, so 34 is not in ..."
            assert step.text.startswith("If ") and " so " in step.text and " is not in row " in step.text
            assert step.text.count("would have to go in") == step.length - 1
            assert "Then " in step.text
        longest = max(longest, step.length)
        entries[step.cells[0]] = step.number
    assert longest >= 2  # these puzzles need chains, so some hint explained one


def test_with_the_solution_known_a_slow_deduction_gives_the_number_within_the_budget():
    rated = next(r for r in rated_puzzles() if r.name == "mebane-III.4")  # its first step is a long whip
    puzzle, known = rated.load()
    started = time.perf_counter()
    step = hint(puzzle, {}, known, max_seconds=0.001)
    assert time.perf_counter() - started < 0.5
    assert step.kind == "deduction" and known[step.cells[0]] == step.number
    assert step.text.startswith("The next deduction takes a long chain of reasoning;")
