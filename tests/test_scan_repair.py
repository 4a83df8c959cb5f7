"""Mending a misread puzzle (webapp/scan/repair.py): a given that breaks Hidato's rules
(a number read twice, two numbers farther apart on the board than their difference) is
replaced by another number its cell may hold (``DigitReading.others``: the cell's other
readings, its digits' runners-up), so that the puzzle read can be solved again.

The mending is checked on its own on a real puzzle with readings spoilt on purpose, and
through the whole reader on a drawn board where the digit reader is made to misread one
cell surely (as a blurred 187 is read 107 at 0.94)."""

from __future__ import annotations

import numpy as np
import pytest
from scan_pictures import OURS, Camera, draw, photograph
from scan_spoilt import given_cell, read_cells_changing, read_surely

from engine import Board, solve
from webapp.scan.digits import DigitReading, alternatives
from webapp.scan.digits_model import Line, best_path
from webapp.scan.reader import read
from webapp.scan.repair import conflicts, repair

from scan_cases import WITH_HOLES, same_puzzle


def test_a_reading_that_breaks_nothing_is_left_alone() -> None:
    board = WITH_HOLES.board
    assert not any(conflicts(board, read_surely(WITH_HOLES)).values())
    assert repair(board, read_surely(WITH_HOLES), {}) is None


def test_a_sure_misreading_takes_the_other_number_its_cell_may_hold() -> None:
    board = WITH_HOLES.board
    cell = given_cell(WITH_HOLES, 27)
    givens = read_surely(WITH_HOLES)
    # 27 read as 37: four steps from the 35 it would follow by two.
    givens[cell] = (37, 0.99)
    assert conflicts(board, givens)[cell]
    others = {cell: ((21, 0.3), (27, 0.1)), given_cell(WITH_HOLES, 35): ((36, 0.2),)}
    mended = repair(board, givens, others)
    assert mended is not None
    # 21 is held by another cell surely: the runner-up that breaks no rule is taken.
    assert mended[cell] == (27, 0.1)
    assert {c: v for c, (v, _) in mended.items()} == dict(WITH_HOLES.givens)
    assert solve(WITH_HOLES.with_givens({c: v for c, (v, _) in mended.items()}), limit=2).count == 1


def test_two_misreadings_do_not_outvote_the_sure_number_they_clash_with() -> None:
    board = WITH_HOLES.board
    givens = read_surely(WITH_HOLES)
    # 33 and 35 (top row) read unsurely as 17 and 19: both clash with the sure 18 far below,
    # which clashes the most, so it is set aside first; nothing fits its cell but itself.
    top, next_to = given_cell(WITH_HOLES, 33), given_cell(WITH_HOLES, 35)
    givens[top] = (17, 0.4)
    givens[next_to] = (19, 0.5)
    clash = conflicts(board, givens)
    eighteen = given_cell(WITH_HOLES, 18)
    assert max(clash, key=lambda c: (len(clash[c]), -givens[c][1])) == eighteen
    mended = repair(board, givens, {top: ((33, 0.3),), next_to: ((35, 0.35),)})
    assert mended is not None
    assert {c: v for c, (v, _) in mended.items()} == dict(WITH_HOLES.givens)


def test_a_misreading_nothing_fits_is_left_out() -> None:
    board = WITH_HOLES.board
    cell = given_cell(WITH_HOLES, 27)
    givens = read_surely(WITH_HOLES)
    givens[cell] = (37, 0.5)  # a digit lost and another misread: no other number offered
    mended = repair(board, givens, {})
    assert mended is not None
    assert cell not in mended
    assert {c: v for c, (v, _) in mended.items()} == {c: v for c, v in WITH_HOLES.givens.items() if c != cell}


def test_a_cells_other_numbers_are_its_readings_and_their_digits_runners_up() -> None:
    # A blurred 187 read 107, its 0 at 0.9 with 8 second at 0.08; a smaller read gave 181.
    first = Line("107", (0.99, 0.9, 0.98), 0.0, 0.0, ((7, 0.005), (8, 0.08), (1, 0.01)))
    again = Line("181", (0.6, 0.5, 0.7), 0.0)
    others = dict(alternatives([first, again], 107, 256))
    assert others[187] == 0.08
    assert others[181] == 0.5
    assert 107 not in others
    # Numbers above N or with a leading zero are none of the board's.
    assert 707 not in others and all(0 < value <= 256 for value in others)
    assert list(others.values()) == sorted(others.values(), reverse=True)


def test_the_reader_mends_a_cell_the_digit_reader_misread_surely() -> None:
    picture = photograph(draw(WITH_HOLES, OURS, cell_px=60), Camera(seed=5, size=(1600, 1200), turn=4, blur=0.6))
    spoilt: list[int] = []

    misreading = read_cells_changing(27, lambda r: DigitReading(37, 0.99, r.kind, False, ((27, 0.12),)), spoilt)
    reading = read(picture, read_cells=misreading)
    assert max(spoilt) > 12  # the whole board was read, and its 27 misread as 37
    assert same_puzzle(reading.puzzle, WITH_HOLES)
    assert reading.solutions == 1
    mended = next(c for c in reading.cells if c.value == 27)
    # The cell mended stays doubtful: the player sees where to look.
    assert mended.confidence < 0.8
    assert mended.cell in reading.doubtful


def test_a_right_reading_the_engine_had_no_time_for_is_left_as_read() -> None:
    # WITH_HOLES breaks a Numbrix's rules (its path steps diagonally) but keeps a Hidato's:
    # with no time left for the engine to tell which it is, nothing may be "mended".
    assert any(conflicts(Board.from_cells(list(WITH_HOLES.board.cells), "rook"), read_surely(WITH_HOLES)).values())
    picture = photograph(draw(WITH_HOLES, OURS, cell_px=60), Camera(seed=5, size=(1600, 1200), turn=4, blur=0.6))
    reading = read(picture, budget=0.001)
    assert reading.solutions is None  # the engine was given no time
    assert same_puzzle(reading.puzzle, WITH_HOLES)


def test_each_digit_read_keeps_its_runner_up_where_it_was_read_surest() -> None:
    # Columns: blank, 0..9, other, cross.  A 1 (a 7 second), then a blurred 8 read as 0.
    steps = np.zeros((5, 13), np.float32)
    steps[0, 0] = 1.0
    steps[1, [2, 8]] = (0.9, 0.1)
    steps[2, 0] = 1.0
    steps[3, [1, 9]] = (0.5, 0.45)
    steps[4, [1, 9]] = (0.6, 0.4)  # the same 0 read again, surer: its runner-up is this step's
    line = best_path(steps)
    assert line.text == "10"
    assert line.chars == (pytest.approx(0.9), pytest.approx(0.6))
    assert line.seconds == ((7, pytest.approx(0.1)), (8, pytest.approx(0.4)))
