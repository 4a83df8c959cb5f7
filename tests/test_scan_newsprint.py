"""The photo reader on a newspaper's puzzle photographed: a ragged board whose outside is
painted in grey squares lined like the cells (newsprint makes the printed black grey),
with yesterday's solution grid printed beside it (newsprint-14 of the set), with other
puzzles than the set's picture."""

from __future__ import annotations

import pytest
from scan_variants import BoardSpec, like, picture

from engine import format_puzzle
from webapp.scan import read_picture

from scan_cases import same_puzzle


@pytest.mark.parametrize("seed", [11, 12])
def test_grey_painted_squares_around_a_newspaper_board_are_no_cells(seed: int) -> None:
    spec = like("newsprint-14-news-solution", name=f"news-shaded-{seed}",
                board=BoardSpec("diamond", 6, "king", "medium", seed))
    drawn = picture(spec)
    reading = read_picture(drawn.data, adjacency="king")
    assert same_puzzle(reading.puzzle, drawn.puzzle), (
        f"drawn:\n{format_puzzle(drawn.puzzle)}read:\n{reading.text()}")
