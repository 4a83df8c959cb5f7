"""A small number that lost a digit, and a Numbrix's parity (webapp/scan/repair.py).

In a blurred photo of a large board, a three-digit number 10 to 12 pixels high may lose
a digit: to the crop's side, or where two 1s merge (112 read 12, 143 read 13).  Such a
reading breaks the rules with the givens around it and nothing its cell may hold fits;
the mending then puts a digit back when one number so made fits every given, or, of
several, the one the model's readings of the cell find far likelier (its CTC likelihood).
And a Numbrix's rules are stricter than a Hidato's: a rook's step changes a square's
colour, so ``row + column + number`` keeps one parity along the path; a misread 46 read 45
breaks no distance but that parity."""

from __future__ import annotations

import numpy as np
from scan_pictures import OURS, Camera, draw, photograph
from scan_spoilt import given_cell, read_cells_changing, read_surely

from engine import Board, parse_puzzle
from webapp.scan.digits import DigitReading
from webapp.scan.digits_model import Line, likelihood
from webapp.scan.reader import read
from webapp.scan.repair import conflicts, repair, rook_parity

from scan_cases import WITH_HOLES, same_puzzle

# A 12×12 Numbrix of the test set (numbrix-19's), its 121 one square in from a corner.
NUMBRIX = parse_puzzle("""\
# adjacency: rook
  .   .   .   .   . 116   . 114   .   .   .   .
  . 121   . 103 104   .   .   .   . 111   .   .
  .   . 129   .   .   .   .   .   .   .  75   .
  .   .   .   .   .   .   .   .  82   .   .  69
  .   .   .   .  99  92   .  84   .   .  79   .
  .   .   .   .   .   .   .   .   .   .   .   .
  .   .   .   .  25   .   .   .   .   .   .   .
  .   . 138  23  24   .   .   .   .   .   .   .
  .   . 139  22   .   .   .   .   .  50   .  60
  .   .   .   .   .   .   .   .   .   .   .   .
  .   .   .   .  43   .   .   .   .   .   1   .
144   .  16   .   .   .   .   9   .   .   6   5
""")
def test_a_numbrix_number_off_its_parity_breaks_the_rules_and_is_mended() -> None:
    board = NUMBRIX.board
    assert board.adjacency == "rook"
    givens = read_surely(NUMBRIX)
    assert rook_parity(givens)
    assert not rook_parity(read_surely(WITH_HOLES))  # a Hidato's givens split both ways
    cell = given_cell(NUMBRIX, 43)
    givens[cell] = (44, 0.9)  # as near every given as 43 is: only the parity tells
    king = Board.from_cells(list(board.cells), "king")
    assert not any(conflicts(king, givens).values())
    assert conflicts(board, givens)[cell]
    mended = repair(board, givens, {cell: ((43, 0.2),)})
    assert mended is not None
    assert {c: v for c, (v, _) in mended.items()} == dict(NUMBRIX.givens)


def test_a_number_that_lost_a_digit_gets_it_back_when_one_number_fits() -> None:
    board = NUMBRIX.board
    givens = read_surely(NUMBRIX)
    cell = given_cell(NUMBRIX, 121)
    givens[cell] = (21, 0.5)  # its 1 lost at the crop's side: far from the 22 below
    assert conflicts(board, givens)[cell]
    mended = repair(board, givens, {})
    assert mended is not None
    assert mended[cell][0] == 121
    assert mended[cell][1] < 0.5  # put back, so doubted
    assert {c: v for c, (v, _) in mended.items()} == dict(NUMBRIX.givens)


def test_of_several_numbers_that_fit_the_model_chooses_only_when_it_clearly_can() -> None:
    board = NUMBRIX.board
    givens = read_surely(NUMBRIX)
    cell = given_cell(NUMBRIX, 104)
    givens[cell] = (14, 0.5)  # its 0 lost: 104 and 124 both fit every other given
    assert conflicts(board, givens)[cell]
    # Left out when the model cannot tell the numbers that fit apart ...
    assert cell not in (repair(board, givens, {}) or {})
    assert cell not in (repair(board, givens, {}, lambda _, values: [1.0] * len(values)) or {})
    # ... put back when it finds one far likelier.
    assert cell not in (repair(board, givens, {}, lambda _, values: [0.5 if v == 124 else 0.1 for v in values])
                        or {})
    mended = repair(board, givens, {}, lambda _, values: [0.5 if v == 104 else 0.001 for v in values])
    assert mended is not None and mended[cell][0] == 104
    assert {c: v for c, (v, _) in mended.items()} == dict(NUMBRIX.givens)


def test_the_likelihood_weighs_a_digit_the_best_path_dropped() -> None:
    # Columns: blank, 0..9, other, cross.  A 1, a faint 1 where a blank won, then a 2:
    # the best path reads 12, but 112 is far likelier than 126 or 172.
    steps = np.zeros((5, 13), np.float32)
    steps[0, 2] = 1.0
    steps[1, [0, 2]] = (0.8, 0.2)
    steps[2, 0] = 1.0
    steps[3, [0, 2]] = (0.7, 0.3)
    steps[4, 3] = 1.0
    line = Line("12", (1.0, 1.0), 0.0, steps=steps)
    assert likelihood(line, "12") > likelihood(line, "112") > 10 * max(likelihood(line, "126"),
                                                                       likelihood(line, "172"))
    assert likelihood(Line("12", (1.0, 1.0), 0.0), "12") == 0.0  # no steps kept: nothing to weigh


def test_the_reader_puts_back_a_digit_a_three_digit_number_lost() -> None:
    picture = photograph(draw(NUMBRIX, OURS, cell_px=60), Camera(seed=3, size=(1600, 1200), turn=3, blur=0.6))
    spoilt: list[int] = []

    losing_a_digit = read_cells_changing(121, lambda r: DigitReading(21, 0.5, r.kind, True), spoilt)
    reading = read(picture, read_cells=losing_a_digit)
    assert max(spoilt) > 12  # the whole board was read, and its 121 read as 21
    assert same_puzzle(reading.puzzle, NUMBRIX)
    assert reading.solutions == 1
    put_back = next(c for c in reading.cells if c.value == 121)
    assert put_back.cell in reading.doubtful  # the player sees where to look
