"""A trial that found nothing is replayed, not run, while what it read is unchanged
(``rating.LogicSolve.known``): that must change nothing but the time.  The same puzzles are
rated and closed with replays and with every trial run: the same deductions in the same
order, the same rating, the same candidates left and the same counted steps (so a step
budget runs out at the same trial and the generator makes the same puzzles)."""

from __future__ import annotations

import random

import pytest

from engine import Board, reduction
from engine.board import Grid, Puzzle
from engine.chains import Chains
from engine.paths import random_hamiltonian_path
from engine.rating import LogicSolve, StepsRanOut, rated

CASES = [("rook", 9, 1), ("rook", 10, 2), ("king", 11, 3), ("hex", 9, 1), ("hex", 10, 2)]


def _minimal(adjacency: str, size: int, seed: int) -> Puzzle:
    board = Board.rectangle(size, size, adjacency)  # type: ignore[arg-type]
    rng = random.Random(seed)
    path = random_hamiltonian_path(board, rng)
    solution: Grid = {board.cells[i]: k for k, i in enumerate(path, start=1)}
    return Puzzle(board, reduction.to_minimal(board, solution, rng, None))


def _outcome(solve: LogicSolve, finished: bool) -> tuple[object, ...]:
    ch = solve.chains
    return (finished, [(d.kind, d.number, d.cell, d.length) for d in solve.deductions], solve.uses,
            solve.longest, ch.steps, ch.trials, list(ch.cand))


def _rate_and_close(puzzle: Puzzle) -> tuple[tuple[object, ...], tuple[object, ...]]:
    try:
        rating, whips = rated(puzzle, max_steps=150_000)
        whip_outcome = _outcome(whips, rating.solved)
    except StepsRanOut as ran_out:
        whip_outcome = ("ran out", *_outcome(ran_out.solve, False))
    braids = LogicSolve(puzzle, whips=False)
    return whip_outcome, _outcome(braids, braids.close(4))


@pytest.mark.parametrize(("adjacency", "size", "seed"), CASES)
def test_replayed_trials_change_nothing_but_the_time(monkeypatch, adjacency, size, seed):
    puzzle = _minimal(adjacency, size, seed)
    replays: list[int] = []
    replay = Chains.replay

    def counted(self: Chains, steps: int) -> None:
        replays.append(steps)
        replay(self, steps)

    monkeypatch.setattr(Chains, "replay", counted)
    with_replays = _rate_and_close(puzzle)
    assert replays, "no trial was replayed: the test would prove nothing"

    forget = LogicSolve._forget_changed

    def forget_all(self: LogicSolve) -> None:
        forget(self)
        self.known.clear()  # nothing known at any sweep: every trial runs

    monkeypatch.setattr(LogicSolve, "_forget_changed", forget_all)
    replays.clear()
    every_trial_run = _rate_and_close(puzzle)
    assert not replays
    assert with_replays == every_trial_run
