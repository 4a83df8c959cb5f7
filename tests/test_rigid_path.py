"""``rigid.rigid_path`` keeps each move's touched pieces as position pairs (``_touched``),
read by ``_score`` without a bounds test per piece: it must make the path the count
before it made (kept below as the reference: pieces as (i, length), each tested against
the path's ends), from the same random numbers, leaving the generator in the same state."""

from __future__ import annotations

import functools
import math
import random

import pytest

from engine.board import Board
from engine.paths import random_hamiltonian_path
from engine.rigid import rigid_path
from engine.shapes import shape_board

_LONGEST = 6


def _score(near: list[frozenset[int]], path: list[int], pieces: tuple[tuple[int, int], ...]) -> int:
    n = len(path)
    count = 0
    for i, length in pieces:
        j = i + length
        if (i < 0 or path[j] in near[path[i]]) and (j + 1 >= n or path[i + 1] in near[path[j + 1]]):
            count += 1
    return count


@functools.lru_cache(maxsize=4096)
def _touched(p: int, n: int, at_tail: bool) -> tuple[tuple[int, int], ...]:
    cut = p if at_tail else p - 1
    pieces = set()
    for length in range(2, _LONGEST + 1):
        for i in range(max(-1, cut - length), cut + 1):
            if i + length < n:
                pieces.add((i, length))
        end = n - 1 - length if at_tail else -1
        if end >= -1 and end + length < n:
            pieces.add((end, length))
    return tuple(sorted(pieces))


def _backbite(path: list[int], p: int, at_tail: bool) -> None:
    if at_tail:
        path[p + 1:] = path[:p:-1]
    else:
        path[:p] = path[p - 1::-1]


def _reference(board: Board, path: list[int], rng: random.Random, moves_per_cell: int) -> list[int]:
    n = len(path)
    if n < 4 or moves_per_cell <= 0:
        return path
    near = [frozenset(x) for x in board.neighbours]
    path = list(path)
    moves = moves_per_cell * n
    temperature = 1.0
    cooling = math.exp(math.log(0.02) / moves)
    for _ in range(moves):
        temperature *= cooling
        at_tail = rng.random() < 0.5
        end = path[-1] if at_tail else path[0]
        y = rng.choice(board.neighbours[end])
        p = path.index(y)
        if (at_tail and p == n - 2) or (not at_tail and p == 1):
            continue
        touched = _touched(p, n, at_tail)
        before = _score(near, path, touched)
        _backbite(path, p, at_tail)
        delta = _score(near, path, touched) - before
        if delta > 0 and rng.random() >= math.exp(-delta / temperature):
            _backbite(path, p, at_tail)
    return path


@pytest.mark.parametrize("adjacency", ["rook", "king", "hex"])
@pytest.mark.parametrize(("rows", "cols"), [(2, 2), (2, 3), (3, 3), (5, 5), (8, 8), (7, 10)])
def test_the_path_and_the_random_numbers_are_the_reference_s(adjacency, rows, cols):
    # Boards of 4 to 7 cells have pieces spanning the whole path (``_touched``'s constant).
    board = shape_board("rectangle", max(4, rows, cols), adjacency, rows=rows, cols=cols)
    for seed in range(3):
        rng = random.Random(seed)
        start = random_hamiltonian_path(board, rng)
        for moves in (1, 20, 100):
            fast, slow = random.Random(seed * 7 + moves), random.Random(seed * 7 + moves)
            assert rigid_path(board, list(start), fast, moves) == _reference(board, list(start), slow, moves)
            assert fast.random() == slow.random()
