"""Which cells show each number: a game's entries indexed by number, made once per entries
text and changed by each move rather than built again over the whole board.

A game's answer asks "which cells show 17?" a few times per entry (the duplicate marks, the
numbers entered twice); building that index over a 20x20 board at every request cost more
than the rest of the game's work.  An index is never changed in place: ``changed`` makes a
new one (the sets are frozen, the dict copied), so one kept by the store for an entries
text stays the index of that text whoever reads it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from engine import Cell

NO_CELLS: frozenset[Cell] = frozenset()


class NumberIndex:
    """Number -> the cells holding it (never an empty set), and the numbers held twice or more."""

    __slots__ = ("cells", "twice")

    def __init__(self, cells: dict[int, frozenset[Cell]], twice: frozenset[int]):
        self.cells = cells
        self.twice = twice

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

    def changed(self, changes: Iterable[tuple[Cell, int, int]]) -> NumberIndex:
        """A new index after each ``(cell, old, new)`` (0: empty; one change per cell)."""
        cells = dict(self.cells)
        twice = set(self.twice)
        for cell, old, new in changes:
            if old:
                left = cells.get(old, NO_CELLS) - {cell}
                if left:
                    cells[old] = left
                else:
                    cells.pop(old, None)
                if len(left) < 2:
                    twice.discard(old)
            if new:
                now = cells.get(new, NO_CELLS) | {cell}
                cells[new] = now
                if len(now) > 1:
                    twice.add(new)
        return NumberIndex(cells, frozenset(twice))
