"""The braid trial (``chains._Braid``) answers as the trial it replaced
(tests/braid_oracle.py): the same chain (its steps and what ran empty), whether the cap
cut it and the same steps followed, on every trial of closing minimal puzzles of each
adjacency, where the sweep's table of each cell's numbers grows stale as chains are found
(and the count of each cell's numbers, ``Chains.crowding``, is brought up to date).

What it says its outcome rests on (the numbers read, the cells passed over) is checked
the way ``rating.LogicSolve`` uses it: take from every number it did not read every cell
it did not pass over, and the oracle still finds the same chain, cut and steps.  (A trial
that left out a read or a passed cell would fail there: both tried.)"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from braid_oracle import oracle
from minimal_chains import close_as_add_back, minimal_puzzle

from engine.chains import Chains, _Crowding

CASES = [("rook", 8, 1), ("rook", 10, 2), ("king", 9, 3), ("king", 10, 4), ("hex", 9, 5), ("hex", 10, 6)]


def _without_unread(chains: Chains, read: int, passed: int, rng: random.Random, share: float) -> SimpleNamespace:
    """The chains' state with ``share`` of the cells (all, at 1) that are not in ``passed``
    taken from every open number not in ``read``: what the trial must not depend on."""
    cand = list(chains.cand)
    for j in chains.open_numbers():
        if not read >> j & 1:
            c = cand[j] & ~passed
            while c:
                b = c & -c
                c ^= b
                if share >= 1 or rng.random() < share:
                    cand[j] &= ~b
    return SimpleNamespace(cand=cand, placed=chains.placed, near=chains.near, n=chains.n)


@pytest.mark.parametrize(("adjacency", "size", "seed"), CASES)
@pytest.mark.parametrize("cap", [3, 12])
def test_the_braid_trial_answers_as_before(monkeypatch, adjacency, size, seed, cap):
    puzzle, solution = minimal_puzzle(adjacency, size, seed)
    compared: list[tuple[bool, bool, int]] = []
    trial = Chains.trial
    rng = random.Random(seed)

    def both(self: Chains, k0: int, z: int, cap: int, numbers_of: dict[int, list[int]], tables=None):
        before = list(self.cand)
        assert self.crowding() == _Crowding(self).few  # brought up to date as made anew
        expected = oracle(self, numbers_of, cap, k0, z)
        assert self.cand == before  # the oracle works on a copy
        chain, cut = trial(self, k0, z, cap, numbers_of, tables)
        assert self.cand == before  # and so does the trial
        steps, read, crowded = self.last_trial
        passed, deepest, passed_numbers = self.last_reach
        assert (chain, cut, steps - 1) == expected[:3]
        assert crowded == () and deepest == -1 and passed_numbers == 0
        for share in (1, 0.5):
            other = _without_unread(self, read, passed, rng, share)
            assert oracle(other, numbers_of, cap, k0, z)[:3] == expected[:3]  # type: ignore[arg-type]
        compared.append((chain is not None, cut, steps - 1))
        return chain, cut

    monkeypatch.setattr(Chains, "trial", both)
    # Closed as reduction.add_back closes: numbers given back where the braids stop.
    close_as_add_back(puzzle, solution, cap)
    # Chains found, trials run dry, trials the cap cut, and trials that followed singles.
    assert any(found for found, _, _ in compared)
    assert any(not found and not cut for found, cut, _ in compared)
    assert any(steps > 1 for _, _, steps in compared)
    if cap == 3:
        assert any(cut for _, cut, _ in compared)
