"""Rigid paths: solutions whose short pieces cannot be walked another way.

A puzzle needs a given wherever a piece of its solution could be reversed in place: if
cells k+1..k+L can be walked backwards (k touches k+L and k+1 touches k+L+1), one of
them must be given, or the puzzle has two solutions.  A random path has dozens of such
pieces, so a minimal puzzle on it keeps about a third of its cells given; published
hard puzzles keep a fifth to a quarter.  ``rigid_path`` reshapes a random path with
backbite moves (as ``paths.py`` does), accepting the moves that leave fewer reversible
pieces (simulated annealing), so the puzzles made on it can do with fewer givens.

The count is kept up to date from the few pieces each move touches, so a move costs
the same on any board.
"""

from __future__ import annotations

import functools
import math
import random
import time

from .board import Board
from .propagation import TimeUp

_LONGEST = 6  # reversible pieces up to this many cells are counted
_CLOCK_EVERY = 256  # moves between looks at the clock


# The pieces a move can change (``_touched``), as position pairs: a piece is reversible
# when both of its pairs hold neighbouring cells (one pair at an end of the path, none
# when it spans the whole path).
_Pieces = tuple[int, tuple[tuple[int, int, int, int], ...], tuple[tuple[int, int], ...]]


def _score(near: list[frozenset[int]], path: list[int], pieces: _Pieces) -> int:
    """How many of the pieces (cells i+1..i+length) are reversible."""
    count, both, one = pieces
    for i, j, a, b in both:
        if path[j] in near[path[i]] and path[b] in near[path[a]]:
            count += 1
    for a, b in one:
        if path[b] in near[path[a]]:
            count += 1
    return count


def rigid_path(board: Board, path: list[int], rng: random.Random, moves_per_cell: int,
               deadline: float | None = None) -> list[int]:
    """``path`` reshaped by backbite moves toward fewer reversible pieces.

    The moves are counted (``moves_per_cell``), so the result never depends on the
    machine; ``deadline`` (a ``time.perf_counter()`` value, the caller's outer time
    limit) only ever stops it by raising propagation's TimeUp."""
    n = len(path)
    if n < 4 or moves_per_cell <= 0:
        return path
    near = [frozenset(x) for x in board.neighbours]
    neighbours = board.neighbours
    path = list(path)
    moves = moves_per_cell * n
    temperature = 1.0
    cooling = math.exp(math.log(0.02) / moves)
    for move in range(moves):
        if deadline is not None and move % _CLOCK_EVERY == 0 and time.perf_counter() > deadline:
            raise TimeUp()
        temperature *= cooling
        at_tail = rng.random() < 0.5
        end = path[-1] if at_tail else path[0]
        y = rng.choice(neighbours[end])
        p = path.index(y)
        if (at_tail and p == n - 2) or (not at_tail and p == 1):
            continue
        touched = _touched(p, n, at_tail)
        before = _score(near, path, touched)
        _backbite(path, p, at_tail)
        delta = _score(near, path, touched) - before
        if delta > 0 and rng.random() >= math.exp(-delta / temperature):
            _backbite(path, p, at_tail)  # undo: the same move again restores the path
    return path


def _backbite(path: list[int], p: int, at_tail: bool) -> None:
    if at_tail:
        path[p + 1:] = path[:p:-1]
    else:
        path[:p] = path[p - 1::-1]


@functools.lru_cache(maxsize=4096)
def _touched(p: int, n: int, at_tail: bool) -> _Pieces:
    """The pieces whose count a backbite at ``p`` can change: those across the cut, and
    those open at the end that moved.  A piece inside the reversed part is reversible
    exactly when its mirror image is, so the rest keep their total.  The same few
    hundred (p, n, end) come back thousands of times per path: cached, as ``_score``
    reads them (piece (i, length) is reversible when cells i and i+length touch, unless
    i is before the path, and cells i+1 and i+length+1 do, unless the latter is past it)."""
    cut = p if at_tail else p - 1  # the new link is between cut and cut + 1
    pieces = set()
    for length in range(2, _LONGEST + 1):
        for i in range(max(-1, cut - length), cut + 1):
            if i + length < n:
                pieces.add((i, length))
        end = n - 1 - length if at_tail else -1
        if end >= -1 and end + length < n:
            pieces.add((end, length))
    whole, both, one = 0, [], []
    for i, length in sorted(pieces):
        j = i + length
        if i < 0 and j + 1 >= n:
            whole += 1
        elif i < 0:
            one.append((j + 1, 0))
        elif j + 1 >= n:
            one.append((i, j))
        else:
            both.append((i, j, j + 1, i + 1))
    return whole, tuple(both), tuple(one)
