"""Small blurred numbers: a 16×16 board in a 1.5-MP photo, whose three-digit numbers are
10 to 12 pixels high and nearly as wide as their cell (webapp/scan/digits_second.py).

Bold digits blurred that small lose their loops (8 reads 0, 6 reads 0 or 1), fall apart
into pieces too small to be a number, or lose a digit (108 read 10).  Drawn here cell by
cell as the reader cuts them (a cell 26 pixels wide enlarged to the 64-pixel crop), and
as whole boards photographed small with our photographing function."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont
from scan_pictures import FONTS, OURS, Camera, draw, photograph

from engine import Puzzle, parse_puzzle
from webapp.scan import read_picture
from webapp.scan.digits import read_cells
from webapp.scan.digits_model import Line
from webapp.scan.digits_second import _vote

BOLD = FONTS + "dejavu/DejaVuSans-Bold.ttf"
CELL = 26  # pixels of the photo a cell spans
SHARE = 0.36  # the digits' height, of the cell


def _small_crop(value: int, blur: float, seed: int) -> np.ndarray:
    """A cell of ``CELL`` pixels holding ``value`` in bold, blurred and grainy, cut a
    little inside its edges and enlarged to the crop's 64 pixels as ``cutting.cut`` does."""
    rng = random.Random(seed)
    k = 8  # drawn large, then shrunk: the photo's pixels average the strokes
    side = CELL * k
    image = Image.new("RGB", (side, side), (245, 240, 236))
    pen = ImageDraw.Draw(image)
    face = ImageFont.truetype(BOLD, round(side * SHARE / 0.72 * 0.84))
    centre = (side / 2 + rng.uniform(-1, 1) * k, side / 2 + rng.uniform(-1, 1) * k)
    pen.text(centre, str(value), font=face, fill=(40, 35, 35), anchor="mm")
    small = cv2.resize(np.asarray(image)[:, :, ::-1], (CELL, CELL), interpolation=cv2.INTER_AREA)
    blurred = cv2.GaussianBlur(small.astype(np.float32), (0, 0), blur)
    grainy = blurred + np.random.default_rng(seed).normal(0, 3, blurred.shape)
    cell = np.clip(grainy, 0, 255).astype(np.uint8)
    return cv2.resize(cell[2:CELL - 2, 2:CELL - 2], (64, 64), interpolation=cv2.INTER_LINEAR)


@pytest.mark.parametrize(("blur", "least"), [(1.0, 117), (1.2, 113)])
def test_small_blurred_three_digit_numbers_are_read(blur: float, least: int) -> None:
    right = total = 0
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        values = [rng.randrange(100, 300) for _ in range(30)] + [rng.randrange(10, 100) for _ in range(10)]
        readings = read_cells([_small_crop(v, blur, i) for i, v in enumerate(values)], 300)
        right += sum(r.value == v for r, v in zip(readings, values, strict=True))
        total += len(values)
    # Read today: 119 and 116 of 120; before the second look: 110 and 107.
    assert right >= least, (right, total)


def _board(seed: int, side: int = 16, count: int = 70) -> Puzzle:
    """A 16×16 board with ``count`` numbers, most of them of three digits (not a puzzle
    with one solution: the reader reads the numbers whatever the engine finds)."""
    rng = random.Random(seed)
    cells = rng.sample(range(side * side), count)
    values = rng.sample(range(100, side * side + 1), count - 10) + rng.sample(range(10, 100), 10)
    grid = [["."] * side for _ in range(side)]
    for cell, value in zip(cells, values, strict=True):
        grid[cell // side][cell % side] = str(value)
    return parse_puzzle("\n".join(" ".join(f"{x:>3}" for x in row) for row in grid))


def test_a_large_board_photographed_small_and_blurred_is_read() -> None:
    right = total = 0
    for seed in (7, 8):
        board = _board(seed)
        picture = photograph(draw(board, OURS, cell_px=40),
                             Camera(seed=seed, size=(1600, 1200), fill=0.5, blur=1.3, turn=8))
        reading = read_picture(picture, adjacency="king")
        assert reading.puzzle.board.cell_set == board.board.cell_set
        read = reading.puzzle.givens
        assert set(read) <= set(board.givens)  # no number where none is drawn
        right += sum(read.get(cell) == value for cell, value in board.givens.items())
        total += len(board.givens)
    # Read today: 134 of 140; before the second look: 127.
    assert right >= 132, (right, total)


def _line(text: str, sure: float) -> Line:
    return Line(text, tuple(sure for _ in text), 0.0)


def test_the_vote_prefers_readings_as_wide_as_the_ink_and_numbers_no_other_cell_holds() -> None:
    # 108 blurred: read 10 surely once, 108 less surely twice.
    cast = [(_line("10", 0.99), 3), (_line("108", 0.45), 3), (_line("108", 0.4), 3)]
    chosen = _vote(cast, 300, fewest=3)
    assert chosen is not None and chosen[0].text == "108"
    # Its ink only as wide as two digits, in two pieces: 10 wins, but not surely (the votes were split).
    cast = [(line, 2) for line, _ in cast]
    chosen = _vote(cast, 300, fewest=2)
    assert chosen is not None and chosen[0].text == "10" and chosen[1] < 0.6
    # 191 read 101 more often than 191, and another cell holds 101 surely.
    cast = [(_line("101", 0.9), 3), (_line("101", 0.8), 3), (_line("191", 0.7), 3)]
    chosen = _vote(cast, 300, fewest=3, taken={"101"})
    assert chosen is not None and chosen[0].text == "191"
    assert chosen[1] < 0.8  # the share of the votes it won: still doubtful
