"""Which cells show each number: a game's entries indexed by number, made once per entries
text and changed by each move rather than built again over the whole board.

A game's answer asks "which cells show 17?" a few times per entry (the duplicate marks, the
numbers entered twice); building that index over a 20x20 board at every request cost more
than the rest of the game's work.  An index is never changed in place: ``changed`` makes a
new one (the sets are frozen, the dict copied), so one kept by the store for an entries
text stays the index of that text whoever reads it.

With the puzzle's givens, an index also says which numbers the board shows twice or more
and which of the numbers to place no entry shows (``on_board``): the numbers entered twice
and the missing numbers of every answer.  Worked out once for an index, then carried to the
next one by ``changed`` for the few numbers a move touched, not gone over the board again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine import Cell

NO_CELLS: frozenset[Cell] = frozenset()


class OnBoard:
    """An entries index read with a puzzle's givens: the numbers shown twice or more on the
    board (givens counted) and the open numbers (``open_numbers``: not given) no entry shows."""

    __slots__ = ("absent", "givens", "open_numbers", "twice")

    def __init__(self, givens: NumberIndex, open_numbers: frozenset[int], twice: frozenset[int],
                 absent: frozenset[int]):
        self.givens = givens
        self.open_numbers = open_numbers
        self.twice = twice
        self.absent = absent


class NumberIndex:
    """Number -> the cells holding it (never an empty set), and the numbers held twice or more."""

    __slots__ = ("board", "cells", "twice")

    def __init__(self, cells: dict[int, frozenset[Cell]], twice: frozenset[int]):
        self.cells = cells
        self.twice = twice
        # ``on_board``'s answer, once asked (for one puzzle's givens: an index of entries is
        # read with its own puzzle's); what it says follows from the index, so keeping it
        # changes nothing the index says.
        self.board: OnBoard | None = None

    @classmethod
    def of(cls, numbers: Mapping[Cell, int]) -> NumberIndex:
        """The index of ``numbers`` (cell -> number; no zeros)."""
        inverse = {v: cell for cell, v in numbers.items()}
        if len(inverse) == len(numbers):  # no number twice: one cell each, no test per cell
            return cls({v: frozenset((cell,)) for v, cell in inverse.items()}, frozenset())
        found: dict[int, set[Cell]] = {}
        for cell, v in numbers.items():
            if v in found:
                found[v].add(cell)
            else:
                found[v] = {cell}
        return cls({v: frozenset(cells) for v, cells in found.items()},
                   frozenset(v for v, cells in found.items() if len(cells) > 1))

    def on_board(self, givens: NumberIndex, open_numbers: frozenset[int]) -> OnBoard:
        """The numbers twice on the board and the open numbers absent, with these givens (the
        puzzle's index) and ``open_numbers`` (1 to its size but the givens'); kept."""
        found = self.board
        if found is not None and found.givens is givens and found.open_numbers is open_numbers:
            return found
        cells = self.cells
        twice = givens.twice | self.twice | (givens.cells.keys() & cells.keys())
        found = self.board = OnBoard(givens, open_numbers, frozenset(twice), open_numbers.difference(cells))
        return found

    def changed(self, changes: Iterable[tuple[Cell, int, int]]) -> NumberIndex:
        """A new index after each ``(cell, old, new)`` (0: empty; one change per cell)."""
        cells = dict(self.cells)
        twice = set(self.twice)
        touched: list[int] = []
        for cell, old, new in changes:
            if old:
                left = cells.get(old, NO_CELLS) - {cell}
                if left:
                    cells[old] = left
                else:
                    cells.pop(old, None)
                if len(left) < 2:
                    twice.discard(old)
                touched.append(old)
            if new:
                now = cells.get(new, NO_CELLS) | {cell}
                cells[new] = now
                if len(now) > 1:
                    twice.add(new)
                touched.append(new)
        index = NumberIndex(cells, frozenset(twice))
        board = self.board
        if board is not None:  # carried over for the numbers touched, not worked out again
            on_board, absent = set(board.twice), set(board.absent)
            given, opens = board.givens.cells, board.open_numbers
            for v in touched:
                held = cells.get(v, NO_CELLS)
                if len(held) + len(given.get(v, NO_CELLS)) > 1:
                    on_board.add(v)
                else:
                    on_board.discard(v)
                if v in opens:
                    if held:
                        absent.discard(v)
                    else:
                        absent.add(v)
            index.board = OnBoard(board.givens, opens, frozenset(on_board), frozenset(absent))
        return index
