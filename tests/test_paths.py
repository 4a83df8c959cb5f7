"""Tests for engine.paths: random Hamiltonian paths on every shape and adjacency."""

from __future__ import annotations

import random
import time
from itertools import pairwise

import pytest

from engine.board import Board
from engine.paths import is_hamiltonian_path, random_hamiltonian_path
from engine.propagation import TimeUp
from engine.shapes import SHAPES, ShapeError, check_playable, parse_mask, shape_board


def playable_sizes(name: str, adjacency: str) -> list[int]:
    """The smallest, default and largest sizes of a shape that this adjacency can play."""
    spec = SHAPES[name]
    sizes = []
    for size in (spec.min_size, spec.default_size, spec.max_size):
        if name == "hexagon" and adjacency == "rook":
            size = {3: 5, 12: 10}.get(size, size)  # rook plays sizes 5, 6, 9 and 10 only
        sizes.append(size)
    return sorted(set(sizes))


CASES = [
    (name, adjacency, size)
    for name, spec in SHAPES.items()
    for adjacency in spec.adjacencies
    for size in playable_sizes(name, adjacency)
]


def edges(path: list[int]) -> set[tuple[int, int]]:
    return {(min(a, b), max(a, b)) for a, b in pairwise(path)}


def has_path(board: Board) -> bool:
    """Exhaustive answer for small boards: dynamic programming over subsets and ends."""
    n = board.size
    near = [sum(1 << j for j in board.neighbours[i]) for i in range(n)]
    layer = {1 << i: 1 << i for i in range(n)}  # visited set -> possible end cells
    for _ in range(n - 1):
        grown: dict[int, int] = {}
        for seen, ends in layer.items():
            while ends:
                low = ends & -ends
                ends ^= low
                steps = near[low.bit_length() - 1] & ~seen
                while steps:
                    step = steps & -steps
                    steps ^= step
                    grown[seen | step] = grown.get(seen | step, 0) | step
        layer = grown
    return (1 << n) - 1 in layer


@pytest.mark.parametrize("name,adjacency,size", CASES)
def test_path_covers_every_cell(name, adjacency, size):
    board = shape_board(name, size, adjacency)
    path = random_hamiltonian_path(board, random.Random(size))
    assert len(path) == board.size
    assert sorted(path) == list(range(board.size))
    assert all(b in board.neighbours[a] for a, b in pairwise(path))
    assert is_hamiltonian_path(board, path)


def test_is_hamiltonian_path():
    board = Board.rectangle(2, 2, "rook")
    assert is_hamiltonian_path(board, [0, 1, 3, 2])
    assert not is_hamiltonian_path(board, [0, 3, 1, 2])  # a diagonal step
    assert not is_hamiltonian_path(board, [0, 1, 3])


def test_tiny_boards():
    assert random_hamiltonian_path(Board.rectangle(1, 1), random.Random(0)) == [0]
    assert sorted(random_hamiltonian_path(Board.rectangle(1, 2, "rook"), random.Random(0))) == [0, 1]
    path = random_hamiltonian_path(Board.rectangle(1, 7, "rook"), random.Random(3))
    assert path in ([0, 1, 2, 3, 4, 5, 6], [6, 5, 4, 3, 2, 1, 0])


def test_same_seed_same_path_other_seed_other_path():
    board = shape_board("heart", 14)
    first = random_hamiltonian_path(board, random.Random(42))
    assert random_hamiltonian_path(board, random.Random(42)) == first
    assert random_hamiltonian_path(board, random.Random(43)) != first


@pytest.mark.parametrize("adjacency", ["king", "rook", "hex"])
def test_paths_are_varied(adjacency):
    board = Board.rectangle(10, 10, adjacency)
    paths = [random_hamiltonian_path(board, random.Random(seed)) for seed in range(4)]
    for path in paths:
        rows = [board.cells[i][0] for i in path]
        along_rows = sum(a == b for a, b in pairwise(rows)) / 99
        # a boustrophedon walk steps along a row 90% of the time
        assert along_rows < 0.7
    shared = [len(edges(a) & edges(b)) / 99 for i, a in enumerate(paths) for b in paths[i + 1:]]
    # random paths share about 30% (king), 40% (hex) or 55% (rook) of their steps
    limit = {"king": 0.45, "hex": 0.6, "rook": 0.75}[adjacency]
    assert max(shared) < limit


def test_paths_do_not_always_start_in_a_corner():
    board = Board.rectangle(8, 8)
    starts = {random_hamiltonian_path(board, random.Random(seed))[0] for seed in range(12)}
    assert len(starts) >= 6


def test_large_boards_are_quick_enough():
    board = Board.rectangle(50, 50)
    path = random_hamiltonian_path(board, random.Random(1))
    assert is_hamiltonian_path(board, path)


def test_unplayable_board_is_refused_with_the_reason():
    with pytest.raises(ShapeError, match="falls apart into 2 pieces"):
        random_hamiltonian_path(Board.from_cells(parse_mask("##.##")), random.Random(0))
    with pytest.raises(ShapeError, match="dead ends"):
        random_hamiltonian_path(Board.from_cells(parse_mask(".#.\n###\n.#."), "rook"), random.Random(0))


def test_board_without_a_path_is_searched_to_the_end():
    board = Board.from_cells(parse_mask("#.##.\n.##..\n#####"))
    check_playable(board)  # the quick test cannot see it
    assert not has_path(board)
    with pytest.raises(ShapeError, match="no path can cover every cell"):
        random_hamiltonian_path(board, random.Random(0))


def test_running_out_of_steps():
    board = Board.rectangle(20, 20)
    with pytest.raises(ShapeError, match=r"^no path covering every cell was found in 100 search steps$"):
        random_hamiltonian_path(board, random.Random(0), max_steps=100)


def test_a_deadline_that_has_passed_stops_the_search_by_raising():
    with pytest.raises(TimeUp):
        random_hamiltonian_path(Board.rectangle(20, 20), random.Random(0), deadline=time.perf_counter() - 1)


def test_the_path_does_not_depend_on_a_deadline_that_is_not_reached():
    board = Board.rectangle(20, 20, "hex")
    free = random_hamiltonian_path(board, random.Random(5))
    assert random_hamiltonian_path(board, random.Random(5), deadline=time.perf_counter() + 600) == free


def test_agrees_with_exhaustive_search_on_small_boards():
    rng = random.Random(2024)
    checked = 0
    while checked < 300:
        rows, cols = rng.randint(1, 4), rng.randint(1, 4)
        cells = [(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.8]
        if not cells:
            continue
        board = Board(rows, cols, tuple(cells), rng.choice(["king", "rook", "hex"]))
        checked += 1
        exists = has_path(board)
        try:
            check_playable(board)
        except ShapeError:
            assert not exists, (board, "refused a playable board")
            continue
        if exists:
            assert is_hamiltonian_path(board, random_hamiltonian_path(board, random.Random(checked)))
        else:
            with pytest.raises(ShapeError, match="no path"):
                random_hamiltonian_path(board, random.Random(checked))
