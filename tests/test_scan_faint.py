"""The photo reader on pictures whose lines are hard to see: a grid of thin light-grey
lines blurred by the camera (most of each line falls below the ink threshold, yet a
blank area of cells is no area of holes), a board with real holes drawn the same way
(its holes stay holes), and a dark theme's thin light lines in a grainy photo (found
in the picture smoothed), and a light grey grid whose lines are no darker than a photo's
grain (found by their straightness)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from scan_pictures import Camera, Style, draw, photograph
from scan_variants import BoardSpec, Shot, Spec, Theme, picture

from engine import Puzzle, format_puzzle, parse_puzzle
from webapp.scan import read_picture
from webapp.scan.finding import find_board
from webapp.scan.image import load

from scan_cases import WITH_HOLES, same_puzzle

# A 12×12 easy puzzle from our generator: wide blank areas between its numbers.
BLANK_AREAS = parse_puzzle("""\
  .  31   .   .   .   .   .   .   8   7   .   4
  .  34  32  21   .   .  11  12   .   .   5   .
  .   .   .  24  22  15   .   . 114 115   1 122
  .   .   .   .   .  85   .   . 117   .   . 121
  .  39  37   .   .   .   .  88   .   .   . 124
  .  43   .  81  79   .   .   .   .   .   . 125
  .  71  72   .   .   .   .   .   .   .   . 130
 45   .   .  76   .  91   . 108   . 106 129   .
  .   .   .   .   .  92  94  95   . 103 101   .
 68   .   .  48  49   .   .   .  98   . 102   .
  .  60   .   .  56   .  53 137 140   .   . 144
 62   .  59  58   .  55   .   .   . 141   .   .
""")


SMALL_PHOTO = (1600, 1200)


def _faint(grey: int) -> Style:
    return Style(line=(grey, grey, grey), thin=1.0, thick=2.0)


@pytest.mark.parametrize(("grey", "blur", "seed", "turn"), [
    (200, 1.8, 4, 25), (190, 2.0, 4, 25), (190, 2.2, 7, 25), (190, 2.2, 4, 10), (195, 2.0, 4, 25)])
def test_faint_blurred_lines_around_blank_areas_are_still_lines(grey: int, blur: float, seed: int, turn: float) -> None:
    picture = photograph(draw(BLANK_AREAS, _faint(grey), cell_px=32),
                         Camera(seed=seed, size=SMALL_PHOTO, turn=turn, blur=blur))
    found = find_board(load(picture))
    assert found is not None
    # Every cell of the full 12×12 board, none of its blank areas taken for holes.
    assert len(found.shape.cells) == BLANK_AREAS.size
    assert not found.shape.holes


def test_a_board_of_faint_blurred_lines_is_read_exactly() -> None:
    picture = photograph(draw(BLANK_AREAS, _faint(195), cell_px=32),
                         Camera(seed=4, size=SMALL_PHOTO, turn=25, blur=2.0))
    reading = read_picture(picture)
    assert reading.puzzle.size == BLANK_AREAS.size
    assert reading.puzzle.board.cell_set == BLANK_AREAS.board.cell_set
    assert reading.puzzle.givens == BLANK_AREAS.givens


def test_real_holes_drawn_in_faint_blurred_lines_stay_holes() -> None:
    picture = photograph(draw(WITH_HOLES, _faint(195), cell_px=48),
                         Camera(seed=2, size=SMALL_PHOTO, turn=-12, blur=2.0))
    reading = read_picture(picture)
    assert reading.puzzle.size == WITH_HOLES.size
    assert reading.puzzle.board.cell_set == WITH_HOLES.board.cell_set
    assert reading.puzzle.givens == WITH_HOLES.givens


def _dark_theme_photo(seed: int, rows: int = 6, cols: int = 6) -> tuple[bytes, dict[tuple[int, int], int]]:
    """An app's dark theme (dark cells edged by a thin light line, a narrow gap of the
    darker page between them, light numbers) photographed small: a slight turn in
    perspective, light falling off, blur, grain, JPEG."""
    rng = np.random.default_rng(seed)
    side, cell, gap = 900, 64, 2
    image: np.ndarray = np.full((side, side, 3), (42, 27, 13), np.uint8)
    x0 = (side - cols * (cell + gap)) // 2
    y0 = (side - rows * (cell + gap)) // 2
    numbers = {}
    for r in range(rows):
        for c in range(cols):
            x, y = x0 + c * (cell + gap), y0 + r * (cell + gap)
            cv2.rectangle(image, (x, y), (x + cell - 1, y + cell - 1), (59, 38, 27), -1)
            cv2.rectangle(image, (x, y), (x + cell - 1, y + cell - 1), (119, 90, 65), 1)
            if (r * cols + c) % 5 == 2:
                numbers[(r, c)] = r * cols + c + 1
                cv2.putText(image, str(numbers[(r, c)]), (x + 14, y + 42), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                            (221, 225, 224), 2, cv2.LINE_AA)
    jitter = rng.uniform(15, 60, (4, 2))
    corners = np.array([[jitter[0, 0], jitter[0, 1]], [side - jitter[1, 0], jitter[1, 1]],
                        [side - jitter[2, 0], side - jitter[2, 1]], [jitter[3, 0], side - jitter[3, 1]]], np.float32)
    square = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)
    image = cv2.warpPerspective(image, cv2.getPerspectiveTransform(square, corners), (side, side),
                                borderValue=(180, 170, 160))
    image = np.clip(image * np.linspace(0.75, 1.1, side)[None, :, None], 0, 255).astype(np.uint8)
    image = cv2.GaussianBlur(image, (3, 3), 0.8)
    image = np.clip(image + rng.normal(0, 6, image.shape), 0, 255).astype(np.uint8)
    image = cv2.resize(image, (1600, 1600), interpolation=cv2.INTER_CUBIC)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 70])
    assert ok
    return data.tobytes(), numbers


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_dark_themes_thin_light_lines_are_found_in_a_grainy_photo(seed: int) -> None:
    picture, numbers = _dark_theme_photo(seed)
    found = find_board(load(picture))
    assert found is not None
    assert len(found.shape.cells) == 36


def test_a_grainy_dark_theme_photo_is_read() -> None:
    picture, numbers = _dark_theme_photo(1)
    reading = read_picture(picture, adjacency="rook")
    assert reading.puzzle.size == 36
    assert reading.puzzle.givens == numbers


def _grey_grid_photo(seed: int, turn: float) -> tuple[bytes, Puzzle]:
    """A monochrome app's board: cells a light grey, lines only a few grey levels darker,
    no outline, photographed with the grain of dim light (noise 6 grey levels) and blur,
    with the test set's own generator."""
    grey = Theme(paper=(236, 236, 236), cell=None, line=(230, 230, 230), thin=0.03, outline=0.0, given_fill=None,
                 given_ink=(40, 40, 40), given_font="DejaVuSansMono.ttf")
    spec = Spec(f"grey-grid-{seed}", "square", "own", BoardSpec("square", 8, "king", "easy", seed), grey, "plain",
                cell=60, shot=Shot(width=1600, height=1600, turn=turn, noise=6.0, blur=1.5, gradient=0.1,
                                   background="desk"))
    drawn = picture(spec)
    return drawn.data, drawn.puzzle


@pytest.mark.parametrize(("seed", "turn"), [(12, 6.0), (11, -4.0)])
def test_a_grey_grid_lost_in_a_photos_grain_is_found_by_its_straight_lines(seed: int, turn: float) -> None:
    data, drawn = _grey_grid_photo(seed, turn)
    reading = read_picture(data, adjacency="king")
    assert same_puzzle(reading.puzzle, drawn), f"drawn:\n{format_puzzle(drawn)}read:\n{reading.text()}"
