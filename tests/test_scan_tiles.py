"""The photo reader on boards drawn as tiles whose edge tiles are hard to tell from the
page: a pale coloured given tile on a page of nearly its brightness (square-09 of the set:
its edge tiles differ from the page in colour, not in grey), photographed, with other
puzzles and other turns of the camera than the set's picture."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scan_variants import BoardSpec, like, picture

from engine import format_puzzle
from webapp.scan import read_picture

from scan_cases import same_puzzle


@pytest.mark.parametrize(("seed", "turn"), [(11, -8.0), (13, 20.0)])
def test_coloured_edge_tiles_of_a_tile_board_are_cells(seed: int, turn: float) -> None:
    base = like("square-09-own-photo")
    assert base.shot is not None
    spec = replace(base, name=f"tiles-edge-{seed}", board=BoardSpec("square", 10, "king", "easy", seed), cell=56,
                   shot=replace(base.shot, turn=turn, orientation=1))
    drawn = picture(spec)
    reading = read_picture(drawn.data, adjacency="king")
    assert same_puzzle(reading.puzzle, drawn.puzzle), (
        f"drawn:\n{format_puzzle(drawn.puzzle)}read:\n{reading.text()}")
