"""A refit (``generator._refitted``) rates each puzzle with one more number given back at
once, instead of running whips on from where the first rating stood and rating after.
Whips' confluence says both give back the same numbers; this checks it on real puzzles
whose first rating runs out (8x8 Numbrix expert seeds 1, 2 and 9): the same givens, and
the rating of the refitted puzzle the same as a fresh one."""

from __future__ import annotations

import pytest

from engine import generator, reduction
from engine.board import Board, Grid, Puzzle
from engine.levels import LEVELS
from engine.rating import LogicSolve, StepsRanOut, rate, rated


def _first_rating_ran_out(puzzle: Puzzle) -> LogicSolve:
    steps = min(generator._FIRST_RATE_STEPS_PER_CELL * puzzle.size, generator._FIRST_RATE_STEPS_MOST)
    with pytest.raises(StepsRanOut) as ran_out:
        rated(puzzle, cap=LEVELS["expert"].longest, max_steps=steps)
    return ran_out.value.solve


def _whips_run_on(board: Board, solution: Grid, givens: Grid, longest: int, most: int,
                  stuck: LogicSolve) -> Grid | None:
    """What the refit did before: whips run on from the stuck solve, the most telling number
    given back each time they stop, the state kept (at most ``most`` numbers)."""
    givens = dict(givens)
    where = {k: cell for cell, k in solution.items()}
    chains = stuck.chains
    for added in range(most + 1):
        if added and stuck.run(longest):
            return givens
        if added == most:
            return None
        k = reduction.most_telling(chains)
        givens[where[k]] = k
        chains.cand[k] = board.bit(where[k])  # known true, so the state stays sound
        chains.singles()
        stuck.dead.clear()
    return None


@pytest.mark.parametrize("seed", [1, 2, 9])
def test_a_refit_gives_back_what_whips_run_on_from_the_stuck_solve_give_back(monkeypatch, seed):
    refits: list[tuple[Puzzle, Grid]] = []
    refitted = generator._refitted

    def noted(puzzle, solution, level, clock, stuck):
        refits.append((puzzle, solution))
        return refitted(puzzle, solution, level, clock, stuck)

    monkeypatch.setattr(generator, "_refitted", noted)
    generator.generate_shape("square", 8, "expert", "rook", seed=seed, spare_cores=False)  # every refit here
    assert refits, "no refit on this seed: the test would prove nothing"
    level = LEVELS["expert"]
    for puzzle, solution in list(refits):
        board = puzzle.board
        most = max(generator._GIVEN_BACK, round(level.give_back * board.size))
        whole = generator._RATE_STEPS_PER_CELL * board.size
        stuck = _first_rating_ran_out(puzzle)
        stuck.chains.max_steps = whole
        run_on = _whips_run_on(board, solution, dict(puzzle.givens), level.longest, most, stuck)
        clock = generator._Clock(0.0, None, board.size, "expert")
        new, rating = refitted(puzzle, solution, level, clock, _first_rating_ran_out(puzzle))
        assert rating is not None and run_on is not None
        assert new.givens == run_on
        assert rating == rate(Puzzle(board, run_on), cap=level.longest)
