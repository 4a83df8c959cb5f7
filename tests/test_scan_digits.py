"""The digits of the photo reader (webapp/scan/digits.py) on cell crops drawn here
(tests/digit_crops.py): printed givens, circled ones, a player's numbers, empty cells with
pencil notes, upside-down boards, numbers above the board's size refused."""

from __future__ import annotations

import random

import numpy as np

from webapp.scan.digits import orientation_score, read_cells

from digit_crops import Truth, board_crops, random_style


def _boards(seed: int, count: int, **options: object) -> list[tuple[list[np.ndarray], list[Truth], int]]:
    rng = random.Random(seed)
    return [board_crops(rng, **options) for _ in range(count)]  # type: ignore[arg-type]


def test_printed_numbers_and_empty_cells_are_read() -> None:
    right = total = 0
    for crops, truths, most in _boards(11, 3, cells=30, most=90, givens=0.5):
        for reading, truth in zip(read_cells(crops, most), truths, strict=True):
            total += 1
            right += reading.value == truth.value
            if truth.value is None:
                assert reading.kind == "empty", truth
    # Photographed crops of random fonts and sizes: nearly all, not necessarily all.
    assert right >= 0.95 * total


def test_a_players_numbers_are_told_from_the_givens() -> None:
    told = total = 0
    for crops, truths, most in _boards(12, 3, cells=30, most=60, givens=0.4, written=0.3):
        for reading, truth in zip(read_cells(crops, most), truths, strict=True):
            if truth.value is not None and reading.value == truth.value:
                total += 1
                told += reading.kind == truth.kind
    assert total >= 20
    assert told >= 0.8 * total


def test_numbers_above_the_board_are_refused() -> None:
    crops, truths, _ = board_crops(random.Random(13), cells=12, most=12, givens=1.0, photo=False)
    big = [t.value for t in truths if t.value is not None and t.value >= 10]
    assert big
    readings = read_cells(crops, 9)  # a board of 9 cells holds no 10, 11 or 12
    for reading, truth in zip(readings, truths, strict=True):
        if truth.value is not None and truth.value > 9:
            assert reading.value is None
            assert reading.confidence < 0.5


def test_an_upside_down_board_scores_lower_than_the_upright_one() -> None:
    rng = random.Random(14)
    for _ in range(3):
        style = random_style(rng, dark=False)
        seed = rng.getrandbits(32)
        upright, _, most = board_crops(random.Random(seed), cells=12, most=40, style=style, givens=0.9)
        turned, _, _ = board_crops(random.Random(seed), cells=12, most=40, style=style, givens=0.9, upside_down=True)
        assert orientation_score(upright, most) > orientation_score(turned, most)
