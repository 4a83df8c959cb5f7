"""A rating that runs out of its counted steps hands back the solve where it stopped
(``rating.StepsRanOut``): the generator gives such a puzzle more numbers from there
instead of throwing its path away, so that state must be sound and able to go on."""

from __future__ import annotations

import pytest

from engine import MAX_CHAIN, rate
from engine.rating import StepsRanOut, rated

from rated_files import rated_puzzles

HARDEST = max((r for r in rated_puzzles() if r.whip is not None), key=lambda r: r.whip or 0)


def test_a_rating_out_of_steps_keeps_every_number_in_its_cell_and_goes_on_to_the_same_solution():
    puzzle, solution = HARDEST.load()
    with pytest.raises(StepsRanOut) as ran_out:
        rated(puzzle, max_steps=2_000)
    solve = ran_out.value.solve
    chains, board = solve.chains, puzzle.board
    assert chains.steps > 2_000  # it stopped at the trial that went past
    for cell, k in solution.items():
        assert chains.cand[k] & board.bit(cell), f"{k} was ruled out of its own cell"
    assert not chains.solved
    chains.max_steps = None  # the generator raises the budget the same way before refitting
    assert solve.run(MAX_CHAIN)
    assert {board.cells[chains.cell_index(chains.cand[k])]: k for k in range(1, puzzle.size + 1)} == solution


def test_a_rating_within_its_steps_is_the_same_as_without_a_budget():
    puzzle, _ = HARDEST.load()
    rating, solve = rated(puzzle, max_steps=10_000_000)
    assert rating == rate(puzzle)
    assert solve.chains.steps <= 10_000_000
