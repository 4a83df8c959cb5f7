"""Readings spoilt on purpose, for the tests of the photo reader's mending
(tests/test_scan_repair.py, tests/test_scan_lost_digit.py): a puzzle's givens read surely,
and the digit reader with one number always read as something else."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from engine import Cell, Puzzle
from webapp.scan.digits import DigitReading, read_cells

SURE = 0.97  # above the judge's 0.8 for "sure": such a reading is never left out

ReadCells = Callable[[Sequence[np.ndarray], int | None], list[DigitReading]]


def read_surely(puzzle: Puzzle) -> dict[Cell, tuple[int, float]]:
    """Every given of ``puzzle`` as read with the confidence ``SURE``."""
    return {cell: (value, SURE) for cell, value in puzzle.givens.items()}


def given_cell(puzzle: Puzzle, value: int) -> Cell:
    """The cell that holds the given ``value``."""
    return next(cell for cell, v in puzzle.givens.items() if v == value)


def read_cells_changing(value: int, spoil: Callable[[DigitReading], DigitReading], spoilt: list[int]) -> ReadCells:
    """The digit reader, with each reading of ``value`` replaced by ``spoil(reading)``;
    ``spoilt`` gets the number of crops of each call that had it (the whole board's
    reading has more than a few)."""

    def reading(crops: Sequence[np.ndarray], most: int | None) -> list[DigitReading]:
        out = []
        for read in read_cells(crops, most):
            if read.value == value:  # every time it is read: the whole board, a wider crop
                spoilt.append(len(crops))
                read = spoil(read)
            out.append(read)
        return out

    return reading
