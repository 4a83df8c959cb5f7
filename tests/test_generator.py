"""Tests for engine.generator: unique, graded, deterministic puzzles on every shape."""

from __future__ import annotations

import time

import pytest
from busy import BUSY_SLACK

from engine import DIFFICULTIES, LEVELS, Board, count_solutions, rate, solve
from engine.generator import GenerationError, generate, generate_shape
from engine.shapes import SHAPES, ShapeError, shape_cells

RECTANGLE = SHAPES["rectangle"]

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
def test_generated_puzzle_is_unique_rated_in_its_level_and_on_its_shape(shape, size, adjacency, difficulty):
    made = generate_shape(shape, size, difficulty, adjacency, seed=3)
    puzzle = made.puzzle
    assert puzzle.board.adjacency == adjacency
    assert sorted(puzzle.board.cells) == sorted(shape_cells(shape, size))
    result = solve(puzzle, limit=2)
    assert result.count == 1 and result.solution == made.solution
    values = set(puzzle.givens.values())
    assert 1 in values and puzzle.size in values
    level = LEVELS[difficulty]
    rating = rate(puzzle)  # uncapped: no puzzle needs a guess, none is past its level
    assert rating.solved
    assert level.lowest <= rating.length <= level.longest
    assert made.grade.level == difficulty and made.grade.rating == rate(puzzle, cap=level.longest)


def test_same_seed_same_puzzle_other_seed_other_puzzle():
    first = generate_shape("diamond", 5, "medium", seed=11)
    again = generate_shape("diamond", 5, "medium", seed=11)
    other = generate_shape("diamond", 5, "medium", seed=12)
    assert first.puzzle == again.puzzle and first.solution == again.solution
    assert other.solution != first.solution


def test_custom_cells():
    cells = [(r, c) for r in range(5) for c in range(5) if (r, c) not in {(2, 2), (0, 4)}]
    made = generate(Board.from_cells(cells), "easy", seed=2)
    assert sorted(made.puzzle.board.cells) == sorted(cells)
    assert (made.shape, made.size) == ("custom", len(cells))
    assert count_solutions(made.puzzle) == 1


def test_bad_options_are_refused_clearly():
    with pytest.raises(ShapeError, match="unknown shape"):
        generate_shape("blob", 5)
    with pytest.raises(ValueError, match="unknown difficulty"):
        generate_shape("rectangle", 5, "impossible")
    with pytest.raises(ShapeError):
        generate_shape("rectangle", 10_000)


def test_a_board_too_small_for_expert_says_so():
    with pytest.raises(GenerationError) as info:
        generate(Board.from_cells([(0, 0), (0, 1), (0, 2)]), "expert")
    message = str(info.value)
    assert message.startswith("could not make an expert puzzle on this 3-cell shape")  # a drawn one
    assert "try another seed, a larger shape or an easier level" in message


@pytest.mark.parametrize(
    ("rows", "cols", "size", "label", "value"),
    [
        (50, 50, 8, "rows", 50),
        (8, RECTANGLE.max_size + 1, 8, "cols", RECTANGLE.max_size + 1),
        (RECTANGLE.min_size - 1, 8, 8, "rows", RECTANGLE.min_size - 1),
        (8, None, 50, "cols", 50),  # cols default to the size, which must be in range too
    ],
)
def test_rows_and_cols_obey_the_rectangle_size_range(rows, cols, size, label, value):
    started = time.perf_counter()
    with pytest.raises(ShapeError) as info:
        generate_shape("rectangle", size, rows=rows, cols=cols)
    expected = f"{label} {value} is out of range for the rectangle: expected {RECTANGLE.min_size}..{RECTANGLE.max_size}"
    assert str(info.value) == expected
    assert time.perf_counter() - started < 0.5  # refused before any work


def test_rows_and_cols_at_the_ends_of_the_range_are_accepted():
    made = generate_shape("rectangle", 8, "easy", rows=RECTANGLE.min_size, cols=RECTANGLE.max_size, seed=1)
    assert made.puzzle.size == RECTANGLE.min_size * RECTANGLE.max_size


# A 20x20 Numbrix expert takes about ten seconds of CPU (seed 5: 9.4 s), almost all of it
# removing clues and rating, where the clock is looked at between steps of a few hundredths
# of a second: stopping within two seconds of the limit, even on a machine the whole suite
# keeps busy, is stopping, not finishing.
BIG = ("rectangle", 20, "expert")


@pytest.mark.parametrize("limit", [0.3, 1.0])
def test_time_limit_stops_generation_soon_after_it_passes(limit: float):
    started = time.perf_counter()
    with pytest.raises(GenerationError) as info:
        generate_shape(*BIG, adjacency="rook", seed=5, max_seconds=limit)
    elapsed = time.perf_counter() - started
    assert limit <= elapsed < limit + BUSY_SLACK
    words = "1 second" if limit == 1 else f"{limit:g} seconds"
    assert str(info.value) == (
        f"gave up after {words} without an expert puzzle on this 400-cell board: "
        "try another seed, a smaller size, an easier level or a longer time limit"
    )


def test_time_limit_on_easy_does_not_suggest_an_easier_level():
    with pytest.raises(GenerationError, match=r"a smaller size or a longer time limit$"):
        generate_shape("rectangle", 20, "easy", max_seconds=0.01)


@pytest.mark.parametrize("limit", [1e-6, 0.01, 0.03])
def test_a_tiny_limit_is_a_generation_error_not_a_shape_error(limit: float):
    # These run out before or during the search for a path (about 0.05 s here), which
    # stops at the limit by raising; that is not a fault of the board.
    with pytest.raises(GenerationError, match=f"gave up after {limit:g} seconds"):
        generate_shape("rectangle", 21, "easy", max_seconds=limit)


def test_a_limit_that_is_not_reached_changes_nothing():
    free = generate_shape("heart", 8, "expert", seed=4)
    limited = generate_shape("heart", 8, "expert", seed=4, max_seconds=60)
    assert (limited.puzzle, limited.solution, limited.grade) == (free.puzzle, free.solution, free.grade)


def test_a_level_the_shape_cannot_reach_is_refused_with_the_reason_at_once():
    from engine.levels import SMALLEST

    smallest = SMALLEST["king"]["ring"]["hard"]
    started = time.perf_counter()
    with pytest.raises(GenerationError, match=f"need a ring of size {smallest} or more with king adjacency"):
        generate_shape("ring", smallest - 1, "hard", "king")
    assert time.perf_counter() - started < 0.5
    made = generate_shape("ring", smallest, "hard", "king", seed=1)
    assert LEVELS["hard"].lowest <= made.grade.rating.length <= LEVELS["hard"].longest
