"""A braid trial that ``rating.LogicSolve`` replays instead of running (nothing it read
changed, no cell it passed over lost a number) would have found what the replay counts:
no chain, the same steps, and, if it ran to its end, no cut.  Checked on every replay
while closing minimal puzzles of each adjacency as ``reduction.add_back`` closes them
(braids, the level's longest, numbers given back where they stop)."""

from __future__ import annotations

from typing import Any

import pytest
from minimal_chains import close_as_add_back, minimal_puzzle

from engine.chains import Chains
from engine.rating import LogicSolve

_WHOLE = 0  # rating's mark for a trial that ran to its end
# Minimal puzzles whose closing replays some trials (most 10x10 ones replay none).
CASES = [("rook", 10, 10), ("rook", 10, 12), ("rook", 10, 15), ("rook", 10, 19), ("hex", 10, 17), ("king", 10, 11)]


class _Looked(dict[tuple[int, int], Any]):
    """The known trials, noting the last one looked up (the one a replay replays)."""

    last: tuple[tuple[int, int], Any] | None = None

    def get(self, key: tuple[int, int], default: None = None) -> Any:  # type: ignore[override]
        found = super().get(key)
        if found is not None:
            _Looked.last = (key, found)
        return found


@pytest.mark.parametrize(("adjacency", "size", "seed"), CASES)
@pytest.mark.parametrize("cap", [12])
def test_a_replayed_braid_trial_would_find_the_same(monkeypatch, adjacency, size, seed, cap):
    puzzle, solution = minimal_puzzle(adjacency, size, seed)
    forget, trial = LogicSolve._forget_changed, Chains.trial
    replayed: list[int] = []

    def looked(self: LogicSolve) -> None:
        forget(self)
        self.known = _Looked(self.known)

    def rerun(self: Chains, steps: int) -> None:
        assert _Looked.last is not None
        (k, bit), known = _Looked.last
        counted, trials = self.steps, self.trials
        chain, cut = trial(self, k, bit, cap, self.cells_numbers())
        assert chain is None
        assert self.last_trial[0] == steps == known[2]
        if known[1] == _WHOLE:
            assert not cut
        self.steps, self.trials = counted + steps, trials + 1
        replayed.append(steps)

    monkeypatch.setattr(LogicSolve, "_forget_changed", looked)
    monkeypatch.setattr(Chains, "replay", rerun)
    close_as_add_back(puzzle, solution, cap)
    assert replayed  # (the cases are ones where LogicSolve replays some trials)
