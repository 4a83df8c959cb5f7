"""Boards of any shape and the puzzles on them.

A board is a set of cells inside a rows x cols bounding grid; cells missing from the
set are holes.  Three adjacencies are known: ``king`` (8 neighbours, Hidato), ``rook``
(4 neighbours, Numbrix) and ``hex`` (6 neighbours, odd-r layout: odd rows are drawn
shifted half a cell to the right).

Neighbour tables are computed once per board, both as lists of cell indices and as
bit masks over a padded bit layout (``bit = row * stride + col``, one spare column per
row) so the solver can move whole sets of cells with a few integer shifts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

Cell = tuple[int, int]  # (row, col), 0-based, e.g. (2, 5)
Adjacency = Literal["king", "rook", "hex"]
Grid = dict[Cell, int]  # a number per cell, e.g. a solution {(0, 0): 1, (0, 1): 2, ...}

ADJACENCIES: tuple[Adjacency, ...] = ("king", "rook", "hex")
MAX_CELLS = 2500
MAX_SIDE = 250

_OFFSETS: dict[str, tuple[tuple[int, int], ...]] = {
    "king": ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)),
    "rook": ((-1, 0), (0, -1), (0, 1), (1, 0)),
}
_HEX_EVEN = ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 0))
_HEX_ODD = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0), (1, 1))


def neighbour_offsets(adjacency: str, row: int) -> tuple[tuple[int, int], ...]:
    """The (drow, dcol) steps to the neighbours of a cell on ``row``."""
    if adjacency == "hex":
        return _HEX_ODD if row % 2 else _HEX_EVEN
    return _OFFSETS[adjacency]


@dataclass(frozen=True)
class Board:
    """A set of cells in a rows x cols grid, with one adjacency."""

    rows: int
    cols: int
    cells: tuple[Cell, ...]
    adjacency: Adjacency = "king"

    def __post_init__(self) -> None:
        if self.adjacency not in ADJACENCIES:
            raise ValueError(f"unknown adjacency {self.adjacency!r} (expected king, rook or hex)")
        ordered = tuple(sorted(set(self.cells)))
        if len(ordered) != len(self.cells) or ordered != self.cells:
            object.__setattr__(self, "cells", ordered)
        for r, c in self.cells:
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                raise ValueError(f"cell {(r, c)} lies outside a {self.rows}x{self.cols} grid")

    @classmethod
    def from_cells(cls, cells: list[Cell] | set[Cell] | tuple[Cell, ...], adjacency: Adjacency = "king") -> Board:
        """A board holding exactly these cells, its grid just big enough for them."""
        cell_list = sorted(set(cells))
        if not cell_list:
            raise ValueError("a board needs at least one cell")
        rows = max(r for r, _ in cell_list) + 1
        cols = max(c for _, c in cell_list) + 1
        return cls(rows, cols, tuple(cell_list), adjacency)

    @classmethod
    def rectangle(cls, rows: int, cols: int, adjacency: Adjacency = "king") -> Board:
        """A full rows x cols board with no holes."""
        return cls(rows, cols, tuple((r, c) for r in range(rows) for c in range(cols)), adjacency)

    @property
    def size(self) -> int:
        """N, the number of cells, so the largest number placed."""
        return len(self.cells)

    @cached_property
    def index(self) -> dict[Cell, int]:
        """Position of each cell in ``cells``."""
        return {cell: i for i, cell in enumerate(self.cells)}

    @cached_property
    def cell_set(self) -> frozenset[Cell]:
        return frozenset(self.cells)

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """For each cell index, the indices of the cells it touches."""
        index = self.index
        table = []
        for r, c in self.cells:
            near = (index.get((r + dr, c + dc)) for dr, dc in neighbour_offsets(self.adjacency, r))
            table.append(tuple(i for i in near if i is not None))
        return tuple(table)

    def touches(self, a: Cell, b: Cell) -> bool:
        """Whether cells a and b are neighbours on this board."""
        return self.index[b] in self.neighbours[self.index[a]]

    # Bit layout used by the solver ------------------------------------------------

    @property
    def stride(self) -> int:
        """Bits per row in the padded layout: one spare column stops shifts wrapping."""
        return self.cols + 1

    def bit(self, cell: Cell) -> int:
        """The single-bit mask of a cell."""
        return 1 << (cell[0] * self.stride + cell[1])

    @cached_property
    def bit_of_index(self) -> tuple[int, ...]:
        return tuple(self.bit(cell) for cell in self.cells)

    @cached_property
    def cell_of_bitpos(self) -> dict[int, int]:
        """Cell index for each bit position used by a cell."""
        return {b.bit_length() - 1: i for i, b in enumerate(self.bit_of_index)}

    @cached_property
    def mask(self) -> int:
        """All cells of the board as one bit mask."""
        total = 0
        for b in self.bit_of_index:
            total |= b
        return total

    @cached_property
    def _row_masks(self) -> tuple[int, int]:
        even = odd = 0
        row_bits = (1 << self.cols) - 1
        for r in range(self.rows):
            if r % 2:
                odd |= row_bits << (r * self.stride)
            else:
                even |= row_bits << (r * self.stride)
        return even, odd

    def spread(self, cells: int) -> int:
        """Every board cell that touches some cell of the mask ``cells``."""
        s = self.stride
        if self.adjacency == "king":
            h = cells | (cells << 1) | (cells >> 1)
            out = (h << s) | (h >> s) | (cells << 1) | (cells >> 1)
        elif self.adjacency == "rook":
            out = (cells << 1) | (cells >> 1) | (cells << s) | (cells >> s)
        else:
            even, odd = self._row_masks
            e = cells & even
            o = cells & odd
            v = e | (e >> 1) | o | (o << 1)
            out = (v << s) | (v >> s) | (cells << 1) | (cells >> 1)
        return out & self.mask

    @cached_property
    def _direction_shifts(self) -> tuple[tuple[int, int], ...]:
        """(bit delta, target mask) for each neighbour direction, by row parity for hex."""
        s = self.stride
        even, odd = self._row_masks
        if self.adjacency == "hex":
            pairs = [(dr * s + dc, even & self.mask) for dr, dc in _HEX_EVEN]
            pairs += [(dr * s + dc, odd & self.mask) for dr, dc in _HEX_ODD]
        else:
            pairs = [(dr * s + dc, self.mask) for dr, dc in _OFFSETS[self.adjacency]]
        return tuple(pairs)

    def each_neighbour(self, cells: int) -> list[int]:
        """For each direction, the board cells whose neighbour that way lies in ``cells``."""
        out = []
        for delta, target in self._direction_shifts:
            moved = cells >> delta if delta > 0 else cells << -delta
            out.append(moved & target)
        return out

    def cells_of_mask(self, cells: int) -> list[int]:
        """Cell indices of the bits set in a mask, lowest first."""
        lookup = self.cell_of_bitpos
        found = []
        while cells:
            low = cells & -cells
            found.append(lookup[low.bit_length() - 1])
            cells ^= low
        return found

    def distances_from(self, start: int) -> list[int]:
        """Graph distance (in steps) from cell index ``start`` to every cell; -1 if unreachable."""
        dist = [-1] * self.size
        dist[start] = 0
        frontier = [start]
        step = 0
        while frontier:
            step += 1
            nxt = []
            for i in frontier:
                for j in self.neighbours[i]:
                    if dist[j] < 0:
                        dist[j] = step
                        nxt.append(j)
            frontier = nxt
        return dist


@dataclass(frozen=True)
class Puzzle:
    """A board with some cells given their number; N is the board's size."""

    board: Board
    givens: Mapping[Cell, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        frozen = dict(sorted(self.givens.items()))
        object.__setattr__(self, "givens", frozen)
        n = self.board.size
        seen: dict[int, Cell] = {}
        for cell, value in frozen.items():
            if cell not in self.board.cell_set:
                raise ValueError(f"given {value} at {cell} is not a cell of the board")
            if not 1 <= value <= n:
                raise ValueError(f"given {value} at {cell} is outside 1..{n}")
            if value in seen:
                raise ValueError(f"{value} is given twice, at {seen[value]} and {cell}")
            seen[value] = cell

    def __hash__(self) -> int:
        return hash((self.board, tuple(self.givens.items())))

    @property
    def size(self) -> int:
        return self.board.size

    def with_givens(self, givens: Mapping[Cell, int]) -> Puzzle:
        """The same board with another set of givens."""
        return Puzzle(self.board, givens)


def is_solution(puzzle: Puzzle, grid: Mapping[Cell, int]) -> bool:
    """Whether ``grid`` fills every cell with 1..N, keeps the givens, and links k to k+1."""
    board = puzzle.board
    n = board.size
    if set(grid) != board.cell_set or sorted(grid.values()) != list(range(1, n + 1)):
        return False
    if any(grid[cell] != value for cell, value in puzzle.givens.items()):
        return False
    where = {value: cell for cell, value in grid.items()}
    return all(board.touches(where[k], where[k + 1]) for k in range(1, n))
