"""Tests for engine.solver: real puzzles, counts checked against a naive search, budgets."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest
from busy import BUSY_SLACK

from engine import Adjacency, Board, Puzzle, SolverGaveUp, count_solutions, is_solution, parse_puzzle, solve

from brute_force import brute_force_solutions
from puzzle_files import DATA, PUZZLE_FILES, load


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_shipped_puzzles_have_exactly_their_known_solution(path):
    puzzle, known = load(path)
    result = solve(puzzle, limit=2)
    assert result.complete
    assert result.count == 1
    assert result.solution == known


def random_puzzle(rng: random.Random, adjacency: Adjacency) -> Puzzle:
    """A small board with holes and a random share of a random path's numbers given."""
    rows, cols = rng.randint(2, 4), rng.randint(2, 5)
    cells = [(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.85]
    if not cells:
        cells = [(0, 0)]
    board = Board.from_cells(cells, adjacency)
    # A random walk gives numbers to give; it need not visit every cell, so the
    # puzzle may well have no solution, which is a case worth checking too.
    start = rng.randrange(board.size)
    walk = [start]
    while len(walk) < board.size:
        options = [j for j in board.neighbours[walk[-1]] if j not in walk]
        if not options:
            break
        walk.append(rng.choice(options))
    givens = {}
    for number, i in enumerate(walk, start=1):
        if rng.random() < 0.35:
            givens[board.cells[i]] = number
    return Puzzle(board, givens)


@pytest.mark.parametrize("adjacency", ["king", "rook", "hex"])
def test_counts_agree_with_a_naive_search(adjacency):
    rng = random.Random(2024)
    seen = {0: 0, 1: 0, 2: 0}
    for _ in range(150):
        puzzle = random_puzzle(rng, adjacency)
        expected = brute_force_solutions(puzzle, limit=3)
        result = solve(puzzle, limit=3)
        assert result.complete
        assert result.count == len(expected)
        assert all(is_solution(puzzle, grid) for grid in result.solutions)
        if len(expected) < 3:  # below the cap both must list the very same solutions
            listed = sorted(map(sorted, map(dict.items, result.solutions)))
            assert listed == sorted(map(sorted, map(dict.items, expected)))
        seen[min(len(expected), 2)] += 1
    # the random puzzles must have exercised none, one and many solutions
    assert all(seen.values()), seen


def test_no_solution_says_why():
    puzzle = parse_puzzle("1 . . .\n. . . .\n. . . 3\n. . . 16")
    result = solve(puzzle)
    assert result.count == 0 and result.complete
    assert "1 at row 1, column 1 and 3 at row 3, column 4" in result.reason


def test_many_solutions_are_counted_up_to_the_limit():
    puzzle = parse_puzzle(". . .\n. . .\n. . .")
    assert count_solutions(puzzle, limit=2) == 2
    assert count_solutions(puzzle, limit=50) == 50
    assert len({tuple(sorted(g.items())) for g in solve(puzzle, limit=50).solutions}) == 50


def test_works_without_one_and_n_given():
    _, known = load(DATA / "classic-8x8-40.txt")
    board = parse_puzzle((DATA / "classic-8x8-40.txt").read_text()).board
    givens = {cell: v for cell, v in known.items() if v % 3 == 0}  # neither 1 nor 40
    result = solve(Puzzle(board, givens), limit=2)
    assert result.solutions and all(is_solution(Puzzle(board, givens), g) for g in result.solutions)


def snake(board: Board) -> dict:
    """The boustrophedon path over a full rectangle: a valid rook and king path."""
    order = []
    for r in range(board.rows):
        cols = range(board.cols) if r % 2 == 0 else reversed(range(board.cols))
        order += [(r, c) for c in cols]
    return {cell: k for k, cell in enumerate(order, start=1)}


@pytest.mark.parametrize("adjacency", ["rook", "hex"])
def test_variant_puzzles_made_unique_by_adding_clues(adjacency):
    # Start from a full path, remove clues while the naive search still finds one
    # solution, then check the real solver agrees on the result.
    board = Board.rectangle(4, 4, adjacency)
    path = snake(board)
    rng = random.Random(5)
    givens = dict(path)
    for cell in rng.sample(sorted(givens), len(givens)):
        if givens[cell] in (1, board.size):
            continue
        trial = {c: v for c, v in givens.items() if c != cell}
        if len(brute_force_solutions(Puzzle(board, trial), limit=2)) == 1:
            givens = trial
    puzzle = Puzzle(board, givens)
    assert len(givens) < board.size // 2
    result = solve(puzzle, limit=2)
    assert result.count == 1
    assert result.solution == path


def test_a_step_budget_gives_up_instead_of_hanging():
    puzzle, _ = load(DATA / "large" / "rectangle20_s1.txt")  # needs a few hundred steps
    result = solve(puzzle, limit=2, max_nodes=5)
    assert result.gave_up
    with pytest.raises(SolverGaveUp, match="gave up"):
        count_solutions(puzzle, limit=2, max_nodes=5)


@pytest.mark.parametrize("side", [12, 50])  # small enough for SAT / so open it is searched plainly
def test_a_time_budget_gives_up_instead_of_hanging(side):
    puzzle = Puzzle(Board.rectangle(side, side), {(0, 0): 1})
    result = solve(puzzle, limit=10_000, max_seconds=0.3)
    assert result.gave_up and not result.complete
    assert result.seconds < 5


def test_open_boards_still_find_solutions():
    for side in (6, 30):  # one goes to SAT, one is too open for it
        puzzle = Puzzle(Board.rectangle(side, side), {(0, 0): 1, (side - 1, side - 1): side * side})
        result = solve(puzzle, limit=2)
        assert result.count == 2 and all(is_solution(puzzle, g) for g in result.solutions)


# --- time budgets ----------------------------------------------------------------------

HARD_900 = parse_puzzle((Path(__file__).parent / "data" / "budget" / "hard-900.txt").read_text())


@pytest.mark.parametrize("budget", [0.05, 0.3, 1.0])
def test_a_time_budget_covers_the_whole_solve(budget: float) -> None:
    """Propagation, the encoding and the search of a board no solver settles in seconds."""
    started = time.perf_counter()
    result = solve(HARD_900, limit=2, max_seconds=budget)
    assert time.perf_counter() - started < budget + BUSY_SLACK
    assert not result.complete and result.gave_up


def test_a_time_budget_on_a_wide_open_board() -> None:
    """The depth-first search for boards too open to encode keeps to the budget too."""
    open_board = parse_puzzle("\n".join(" ".join("." for _ in range(30)) for _ in range(30)))
    started = time.perf_counter()
    result = solve(open_board, limit=10**6, max_seconds=0.3)
    assert time.perf_counter() - started < 0.3 + BUSY_SLACK
    assert not result.complete
