"""Random Hamiltonian paths: a walk through every cell of a board, as the answer to a puzzle.

Two stages.  A depth-first search finds some path, stepping first to the neighbour with
the fewest free neighbours (Warnsdorff's rule, ties broken at random) and pruning a step
that leaves the free cells in two pieces, with more than one dead end away from the
head, or (rook) with the wrong colour count.  Such a search either walks straight
through or flounders for ages, so it makes many short attempts from random starts,
with step budgets following the Luby sequence.  Then many backbite moves reshape the
path at random: take an end e and a neighbour y of e, join e to y and cut the edge
from y to the next cell toward e, reversing the piece in between; the path stays
Hamiltonian and drifts far from the search's tidy first answer.

The search is bounded by counted steps (``max_steps``), never by the clock, so a seed
gives the same path on any machine; an optional ``deadline`` (the caller's outer time
limit, a ``time.perf_counter()`` value) only ever stops it by raising propagation's
TimeUp.
"""

from __future__ import annotations

import random
import time
from itertools import pairwise

from .board import Board
from .propagation import TimeUp
from .shapes import ShapeError, check_playable, leaf_block_cells

__all__ = ["random_hamiltonian_path", "is_hamiltonian_path"]

_MOVES_PER_CELL = 10
_CHECK_CLOCK_EVERY = 256
# Search steps before giving up on a board: about 5 s (the old time limit) at the 50,000
# steps a second measured on our 2 cores, far more than any shape the site offers needs
# (every shape, adjacency and size, 8 seeds each: 1,417 steps at most).
MAX_STEPS = 250_000

# Neighbour positions around a cell in cyclic order; two positions next to each other
# touch, so the free cells around a cell form one piece if they form one run.
_KING_RING = ((-1, -1), (-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1))
_HEX_RING_EVEN = ((-1, -1), (-1, 0), (0, 1), (1, 0), (1, -1), (0, -1))
_HEX_RING_ODD = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (0, -1))


def is_hamiltonian_path(board: Board, path: list[int]) -> bool:
    """Whether ``path`` visits every cell of the board once, each step to a neighbour."""
    if sorted(path) != list(range(board.size)):
        return False
    neighbours = board.neighbours
    return all(b in neighbours[a] for a, b in pairwise(path))


def random_hamiltonian_path(board: Board, rng: random.Random, max_steps: int = MAX_STEPS,
                            deadline: float | None = None) -> list[int]:
    """A random path through every cell (cell indices in order); ShapeError if none is
    found within ``max_steps`` search steps, TimeUp past ``deadline``."""
    check_playable(board)
    n = board.size
    if n == 1:
        return [0]
    path = _Search(board, rng, deadline).run(max_steps)
    if path is None:
        raise ShapeError("no path covering every cell was found in %(steps)s search steps", steps=max_steps)
    _backbite(board, path, rng, _MOVES_PER_CELL * n)
    return path


def _rings(board: Board) -> list[tuple[tuple[int, bool], ...]]:
    """For each cell, its ring of surrounding positions: (cell index or -1, is a neighbour)."""
    index = board.index
    rings = []
    for r, c in board.cells:
        offsets: tuple[tuple[int, int], ...] = _KING_RING
        if board.adjacency == "hex":
            offsets = _HEX_RING_ODD if r % 2 else _HEX_RING_EVEN
        ring = []
        for dr, dc in offsets:
            j = index.get((r + dr, c + dc), -1)
            # In the rook ring the corners are not neighbours, but they still join
            # the side cells on either side of them.
            near = j >= 0 and (board.adjacency != "rook" or dr == 0 or dc == 0)
            ring.append((j, near))
        rings.append(tuple(ring))
    return rings


class _Search:
    """Depth-first search for one Hamiltonian path, restarted when its budget runs out."""

    def __init__(self, board: Board, rng: random.Random, deadline: float | None):
        self.board = board
        self.rng = rng
        self.deadline = deadline
        self.n = board.size
        self.neighbours = board.neighbours
        self.bits = board.bit_of_index
        self.rings = _rings(board)
        self.rook = board.adjacency == "rook"
        self.colour = [(r + c) % 2 for r, c in board.cells]
        self.starts = self._start_cells()

    def _start_cells(self) -> list[int]:
        """Cells a path may start from: a dead end or a hanging part, the major colour."""
        n = self.n
        ends = [i for i in range(n) if len(self.neighbours[i]) == 1]
        if ends:
            return ends
        starts = leaf_block_cells(self.board) or list(range(n))
        if self.rook:
            dark = sum(self.colour)
            if dark * 2 != n:
                major = 1 if dark * 2 > n else 0
                starts = [i for i in starts if self.colour[i] == major]
        return starts

    def run(self, max_steps: int) -> list[int] | None:
        """A Hamiltonian path; None when ``max_steps`` steps were taken without one.

        Raises ShapeError when every start was searched to the end without a path.
        """
        # A lucky attempt walks straight through with little backtracking, an unlucky
        # one can flounder for ages, so many short attempts (budgets following the
        # Luby sequence 1 1 2 1 1 2 4 ...) beat a few long ones.
        unit = 2 * self.n + 100
        starts = self.starts
        attempt = 0
        steps = 0
        while steps < max_steps:
            if attempt == 0:
                # Warnsdorff works best from a corner: a start among the fewest neighbours.
                fewest = min(len(self.neighbours[i]) for i in starts)
                start = self.rng.choice([i for i in starts if len(self.neighbours[i]) == fewest])
            else:
                start = self.rng.choice(starts)
            budget = min(unit * _luby(attempt + 1), max_steps - steps)
            path, exhausted, used = self._attempt(start, budget)
            steps += used
            if path is not None:
                return path
            if exhausted:
                starts = [i for i in starts if i != start]
                if not starts:
                    raise ShapeError("no path can cover every cell of this board (every start was tried)")
            attempt += 1
        return None

    def _attempt(self, start: int, budget: int) -> tuple[list[int] | None, bool, int]:
        """A path from ``start`` within ``budget`` steps, whether all of them were tried,
        and the steps taken."""
        n = self.n
        walk = _Walk(self)
        path = [start]
        walk.visit(start)
        if not walk.hopeful(start, n - 1):
            return None, True, 0
        stack = [walk.order(start)]
        nodes = 0
        while len(path) < n:
            options = stack[-1]
            if not options:
                stack.pop()
                walk.leave(path.pop())
                if not path:
                    return None, True, nodes
                continue
            nodes += 1
            if nodes > budget:
                return None, False, budget
            if self.deadline is not None and nodes % _CHECK_CLOCK_EVERY == 0 and time.perf_counter() > self.deadline:
                raise TimeUp()
            c = options.pop()
            walk.visit(c)
            path.append(c)
            if walk.hopeful(c, n - len(path)):
                stack.append(walk.order(c))
            else:
                path.pop()
                walk.leave(c)
        return path, False, nodes

    def _still_whole(self, c: int, free: bytearray, free_mask: int) -> bool:
        """Whether the free cells are still one piece now that c is taken."""
        ring = self.rings[c]
        taken = [k for k, (j, _near) in enumerate(ring) if j < 0 or not free[j]]
        if taken:
            # count runs of free cells around c that hold a real neighbour of c,
            # starting just after a taken position so no run wraps round
            runs = 0
            run_has_neighbour = False
            size = len(ring)
            for step in range(1, size + 1):
                j, near = ring[(taken[0] + step) % size]
                if j >= 0 and free[j]:
                    run_has_neighbour = run_has_neighbour or near
                elif run_has_neighbour:
                    runs += 1
                    run_has_neighbour = False
            if runs <= 1:
                return True
        else:
            return True
        seed = next(u for u in self.neighbours[c] if free[u])
        spread = self.board.spread
        reach = self.bits[seed]
        while True:
            grown = (spread(reach) & free_mask) | reach
            if grown == reach:
                return reach == free_mask
            reach = grown


class _Walk:
    """The cells a partial path has left free, with the counts that tell early whether
    the rest can still be covered: free neighbours of each cell, dead ends, cells with
    no way in, and (for rook boards) the two colours."""

    def __init__(self, search: _Search) -> None:
        n = search.n
        self.search = search
        self.neighbours = search.neighbours
        self.bits = search.bits
        self.colour = search.colour
        self.rng = search.rng
        self.free = bytearray([1]) * n
        self.degree = [len(near) for near in self.neighbours]
        self.ends = sum(d == 1 for d in self.degree)  # free cells with one free neighbour
        self.zeros = 0  # free cells with none
        self.free_mask = search.board.mask
        self.free_colour = [n - sum(self.colour), sum(self.colour)]

    def visit(self, c: int) -> None:
        free, degree = self.free, self.degree
        free[c] = 0
        self.free_mask ^= self.bits[c]
        self.free_colour[self.colour[c]] -= 1
        if degree[c] == 1:
            self.ends -= 1
        elif degree[c] == 0:
            self.zeros -= 1
        for u in self.neighbours[c]:
            degree[u] -= 1
            if free[u]:
                if degree[u] == 1:
                    self.ends += 1
                elif degree[u] == 0:
                    self.ends -= 1
                    self.zeros += 1

    def leave(self, c: int) -> None:
        free, degree = self.free, self.degree
        for u in self.neighbours[c]:
            degree[u] += 1
            if free[u]:
                if degree[u] == 2:
                    self.ends -= 1
                elif degree[u] == 1:
                    self.ends += 1
                    self.zeros -= 1
        free[c] = 1
        self.free_mask |= self.bits[c]
        self.free_colour[self.colour[c]] += 1
        if degree[c] == 1:
            self.ends += 1
        elif degree[c] == 0:
            self.zeros += 1

    def hopeful(self, c: int, left: int) -> bool:
        """Whether the free cells can still be covered by a path going on from c."""
        if left == 0:
            return True
        free, degree = self.free, self.degree
        onward = [u for u in self.neighbours[c] if free[u]]
        if not onward:
            return False
        if left == 1:
            return True
        if self.zeros:
            return False
        near_ends = sum(degree[u] == 1 for u in onward)
        # every dead end must be an end of the rest of the path; one of those two
        # ends is the next step, which touches c
        if self.ends > 2 or self.ends - near_ends > 1:
            return False
        if self.search.rook:
            first = 1 - self.colour[c]
            if self.free_colour[first] - self.free_colour[1 - first] != left % 2:
                return False
        return self.search._still_whole(c, free, self.free_mask)

    def order(self, c: int) -> list[int]:
        """The free neighbours of c, best last (they are popped from the end)."""
        free, degree, rng = self.free, self.degree, self.rng
        ranked = sorted((degree[u], rng.random(), u) for u in self.neighbours[c] if free[u])
        return [u for _d, _r, u in reversed(ranked)]


def _luby(i: int) -> int:
    """The i-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ..."""
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while i != (1 << k) - 1:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


def _backbite(board: Board, path: list[int], rng: random.Random, moves: int) -> None:
    """Reshape the path in place with random backbite moves; it stays Hamiltonian."""
    neighbours = board.neighbours
    last = len(path) - 1
    if last < 2:
        if last == 1 and rng.random() < 0.5:
            path.reverse()
        return
    for _ in range(moves):
        if rng.random() < 0.5:
            end = path[last]
            y = rng.choice(neighbours[end])
            if y == path[last - 1]:
                continue
            p = path.index(y)
            path[p + 1:] = path[:p:-1]
        else:
            end = path[0]
            y = rng.choice(neighbours[end])
            if y == path[1]:
                continue
            p = path.index(y)
            path[:p] = path[p - 1::-1]
