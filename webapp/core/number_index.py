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

from bisect import bisect_right
from collections.abc import Iterable, Mapping
from operator import itemgetter

from engine import Cell, runs_of

NO_CELLS: frozenset[Cell] = frozenset()


Run = tuple[int, int]  # consecutive numbers low..high


class OnBoard:
    """An entries index read with a puzzle's givens: the numbers shown twice or more on the
    board (givens counted), and the open numbers (``open_numbers``: not given) no entry
    shows, as runs in order."""

    __slots__ = ("givens", "open_numbers", "runs", "twice")

    def __init__(self, givens: NumberIndex, open_numbers: frozenset[int], twice: frozenset[int],
                 runs: tuple[Run, ...]):
        self.givens = givens
        self.open_numbers = open_numbers
        self.twice = twice
        self.runs = runs


_LOW = itemgetter(0)


def take_out(runs: list[Run], number: int) -> None:
    """``runs`` (in order, apart) without ``number``, in place; nothing if no run holds it."""
    at = bisect_right(runs, number, key=_LOW) - 1
    if at < 0:
        return
    low, high = runs[at]
    if number > high:
        return
    runs[at:at + 1] = [run for run in ((low, number - 1), (number + 1, high)) if run[0] <= run[1]]


def put_in(runs: list[Run], number: int) -> None:
    """``runs`` (in order, apart) with ``number``, in place, joining the runs it touches."""
    at = bisect_right(runs, number, key=_LOW) - 1  # the last run starting at or below it
    if at >= 0 and runs[at][1] >= number:
        return
    joins_left = at >= 0 and runs[at][1] == number - 1
    joins_right = at + 1 < len(runs) and runs[at + 1][0] == number + 1
    if joins_left and joins_right:
        runs[at:at + 2] = [(runs[at][0], runs[at + 1][1])]
    elif joins_left:
        runs[at] = (runs[at][0], number)
    elif joins_right:
        runs[at + 1] = (number, runs[at + 1][1])
    else:
        runs.insert(at + 1, (number, number))


class NumberIndex:
    """Number -> the cells holding it (never an empty set), and the numbers held twice or more."""

    __slots__ = ("_twice", "board", "cells")

    def __init__(self, cells: dict[int, frozenset[Cell]], twice: frozenset[int] | None = None):
        self.cells = cells
        # None: worked out when first asked (an index made by ``changed`` for the next text
        # seldom is: what the answers ask is in ``board``).
        self._twice = twice
        # ``on_board``'s answer, once asked (for one puzzle's givens: an index of entries is
        # read with its own puzzle's); what it says follows from the index, so keeping it
        # changes nothing the index says.
        self.board: OnBoard | None = None

    @property
    def twice(self) -> frozenset[int]:
        """The numbers held by two cells or more."""
        found = self._twice
        if found is None:
            found = self._twice = frozenset([v for v, cells in self.cells.items() if len(cells) > 1])
        return found

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
        absent = open_numbers.difference(cells)
        found = self.board = OnBoard(givens, open_numbers, frozenset(twice), tuple(runs_of(sorted(absent))))
        return found

    def changed(self, changes: Iterable[tuple[Cell, int, int]]) -> NumberIndex:
        """A new index after each ``(cell, old, new)`` (0: empty; one change per cell)."""
        cells = dict(self.cells)
        touched: list[int] = []
        for cell, old, new in changes:
            if old:
                left = cells.get(old, NO_CELLS) - {cell}
                if left:
                    cells[old] = left
                else:
                    cells.pop(old, None)
                touched.append(old)
            if new:
                cells[new] = cells.get(new, NO_CELLS) | {cell}
                touched.append(new)
        index = NumberIndex(cells)
        if self.board is not None:  # carried over for the numbers touched, not worked out again
            index.board = _carried(self.board, cells, touched)
        return index


def _carried(board: OnBoard, cells: dict[int, frozenset[Cell]], touched: list[int]) -> OnBoard:
    """``board`` after a change of the entries (now ``cells``) that touched these numbers."""
    given, opens = board.givens.cells, board.open_numbers
    twice = board.twice
    runs: list[Run] | None = None
    for v in touched:
        held = cells.get(v, NO_CELLS)
        if len(held) + len(given.get(v, NO_CELLS)) > 1:
            if v not in twice:
                twice = twice | {v}
        elif v in twice:
            twice = twice - {v}
        if v in opens:
            if runs is None:
                runs = list(board.runs)
            if held:
                take_out(runs, v)
            else:
                put_in(runs, v)
    return OnBoard(board.givens, opens, twice, board.runs if runs is None else tuple(runs))
