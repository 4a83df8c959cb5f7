"""Tests for engine.generator: unique, graded, deterministic puzzles on every shape."""

from __future__ import annotations

import pytest

from engine import count_solutions, solve
from engine.generator import GenerationError, generate
from engine.grading import DIFFICULTIES, logic_solve
from engine.shapes import ShapeError, shape_cells

# Small sizes keep the table fast; every shape, adjacency and difficulty appears.
TABLE = [
    ("rectangle", 6, "king"),
    ("diamond", 4, "king"),
    ("cross", 5, "king"),
    ("heart", 7, "king"),
    ("ring", 8, "rook"),
    ("square", 5, "rook"),
    ("triangle", 5, "hex"),
    ("hexagon", 3, "hex"),
]


@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@pytest.mark.parametrize(("shape", "size", "adjacency"), TABLE)
def test_generated_puzzle_is_unique_graded_and_on_its_shape(shape, size, adjacency, difficulty):
    made = generate(shape, size, difficulty, adjacency, seed=3)
    puzzle = made.puzzle
    assert puzzle.board.adjacency == adjacency
    assert sorted(puzzle.board.cells) == sorted(shape_cells(shape, size))
    result = solve(puzzle, limit=2)
    assert result.count == 1 and result.solution == made.solution
    values = set(puzzle.givens.values())
    assert 1 in values and puzzle.size in values
    tier = DIFFICULTIES.index(difficulty) + 1
    assert made.grade.level == difficulty
    if tier <= 3:
        assert logic_solve(puzzle, tier).solved
    if tier >= 2:
        assert not logic_solve(puzzle, tier - 1).solved


@pytest.mark.parametrize(("shape", "size", "adjacency"), [("rectangle", 6, "king"), ("square", 5, "rook"), ("hexagon", 3, "hex")])
def test_expert_puzzles_are_minimal(shape, size, adjacency):
    made = generate(shape, size, "expert", adjacency, seed=1)
    puzzle = made.puzzle
    for cell, value in puzzle.givens.items():
        if value in (1, puzzle.size):
            continue
        fewer = puzzle.with_givens({c: v for c, v in puzzle.givens.items() if c != cell})
        assert count_solutions(fewer, limit=2) == 2, f"the {value} at {cell} could go"


def test_same_seed_same_puzzle_other_seed_other_puzzle():
    first = generate("diamond", 5, "medium", seed=11)
    again = generate("diamond", 5, "medium", seed=11)
    other = generate("diamond", 5, "medium", seed=12)
    assert first.puzzle == again.puzzle and first.solution == again.solution
    assert other.solution != first.solution


def test_custom_cells():
    cells = [(r, c) for r in range(5) for c in range(5) if (r, c) not in {(2, 2), (0, 4)}]
    made = generate("custom", 0, "easy", cells=cells, seed=2)
    assert sorted(made.puzzle.board.cells) == sorted(cells)
    assert count_solutions(made.puzzle) == 1


def test_bad_options_are_refused_clearly():
    with pytest.raises(ShapeError, match="unknown shape"):
        generate("blob", 5)
    with pytest.raises(ValueError, match="unknown difficulty"):
        generate("rectangle", 5, "impossible")
    with pytest.raises(ShapeError):
        generate("rectangle", 10_000)


def test_a_board_too_small_for_expert_says_so():
    with pytest.raises(GenerationError, match="could not make an expert puzzle"):
        generate("rectangle", 2, "expert", rows=1, cols=3)
