"""Tests for engine.board: shapes, the three adjacencies and the bit layout."""

from __future__ import annotations

import random

import pytest

from engine import Board, Puzzle, is_solution


def names(board: Board, cell: tuple[int, int]) -> set[tuple[int, int]]:
    return {board.cells[j] for j in board.neighbours[board.index[cell]]}


def test_king_has_eight_neighbours_inside_and_three_in_a_corner():
    board = Board.rectangle(4, 5)
    assert names(board, (1, 1)) == {(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)}
    assert names(board, (0, 0)) == {(0, 1), (1, 0), (1, 1)}


def test_rook_has_four_neighbours():
    board = Board.rectangle(4, 5, "rook")
    assert names(board, (1, 1)) == {(0, 1), (1, 0), (1, 2), (2, 1)}
    assert names(board, (3, 4)) == {(2, 4), (3, 3)}


def test_hex_odd_rows_are_shifted_right():
    board = Board.rectangle(5, 5, "hex")
    # even row: (r±1, c-1) and (r±1, c)
    assert names(board, (2, 2)) == {(1, 1), (1, 2), (2, 1), (2, 3), (3, 1), (3, 2)}
    # odd row: (r±1, c) and (r±1, c+1)
    assert names(board, (1, 2)) == {(0, 2), (0, 3), (1, 1), (1, 3), (2, 2), (2, 3)}


def test_holes_are_not_neighbours():
    board = Board.from_cells([(0, 0), (0, 2), (1, 1)])
    assert names(board, (0, 0)) == {(1, 1)}
    assert not board.touches((0, 0), (0, 2))


def test_neighbour_tables_are_symmetric():
    for adjacency in ("king", "rook", "hex"):
        board = Board.rectangle(6, 7, adjacency)
        for i, near in enumerate(board.neighbours):
            for j in near:
                assert i in board.neighbours[j]


@pytest.mark.parametrize("adjacency", ["king", "rook", "hex"])
def test_bit_spread_matches_the_neighbour_table(adjacency):
    rng = random.Random(7)
    cells = [(r, c) for r in range(7) for c in range(8) if rng.random() < 0.7]
    board = Board.from_cells(cells, adjacency)
    for _ in range(50):
        chosen = [i for i in range(board.size) if rng.random() < 0.2]
        mask = 0
        for i in chosen:
            mask |= board.bit_of_index[i]
        expected = set()
        for i in chosen:
            expected.update(board.neighbours[i])
        assert set(board.cells_of_mask(board.spread(mask))) == expected


def test_distances_through_holes():
    board = Board.from_cells([(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0)], "rook")
    dist = board.distances_from(board.index[(0, 0)])
    assert dist[board.index[(2, 0)]] == 6


def test_puzzle_rejects_bad_givens():
    board = Board.rectangle(2, 2)
    with pytest.raises(ValueError, match="outside 1..4"):
        Puzzle(board, {(0, 0): 5})
    with pytest.raises(ValueError, match="given twice"):
        Puzzle(board, {(0, 0): 1, (0, 1): 1})
    with pytest.raises(ValueError, match="not a cell"):
        Puzzle(board, {(3, 3): 1})


def test_is_solution_checks_every_rule():
    board = Board.rectangle(2, 2, "rook")
    puzzle = Puzzle(board, {(0, 0): 1})
    assert is_solution(puzzle, {(0, 0): 1, (0, 1): 2, (1, 1): 3, (1, 0): 4})
    assert not is_solution(puzzle, {(0, 0): 1, (1, 1): 2, (0, 1): 3, (1, 0): 4})  # 1-2 not touching
    assert not is_solution(puzzle, {(0, 0): 2, (0, 1): 1, (1, 1): 4, (1, 0): 3})  # given moved
    assert not is_solution(puzzle, {(0, 0): 1, (0, 1): 2, (1, 1): 3})  # a cell left empty
