"""The whip search's fast path (``whips.WhipSearch``: numbers with too many cells for the
chain to leave them one passed over by their count, ``WhipTables.few``; a partial whip's
last step added only when it has followers; the last layer's followers counted, not made)
must find what the search before it found (``tests/whip_reference.py``, on tables made
afresh): for every candidate and cap, the same whip (steps and empty variable), whether
it was cut, the same counted steps, numbers read and crowded cells passed over, on the
candidates as a solve leaves them after singles and after eliminations."""

from __future__ import annotations

import random

import pytest
import whip_reference
from minimal_chains import minimal_chains

from engine import whips
from engine.chains import Chains
from engine.whips import WhipSearch


def _same_searches(ch: Chains, caps: tuple[int, ...]) -> int:
    """Every candidate's search at each cap, fast and reference; the whips found."""
    tables = ch.whip_tables()
    reference = whip_reference.WhipTables(ch.cand, ch.placed, ch.n)
    found = 0
    for cap in caps:
        for z in ch.candidates():
            fast, slow = WhipSearch(ch, tables), whip_reference.WhipSearch(ch, reference)
            outcome = fast.find(z, cap)
            assert outcome == slow.find(z, cap), (z, cap)
            assert (fast.states, fast.read_numbers, fast.crowded, fast.capped) == \
                (slow.states, slow.read_numbers, slow.crowded, slow.capped), (z, cap)
            found += outcome[1] is not None
    return found


@pytest.mark.parametrize(("adjacency", "size", "seed"), [("rook", 8, 1), ("king", 7, 2), ("hex", 8, 3)])
def test_the_fast_search_finds_what_the_reference_finds(adjacency, size, seed):
    ch = minimal_chains(adjacency, size, seed)[0]
    found = _same_searches(ch, (1, 2, 3, 5))
    rng = random.Random(seed)
    for k, bit in rng.sample(list(ch.candidates()), 20):
        if ch.cand[k] & bit and ch.cand[k] != bit:
            ch.eliminate(k, bit)  # not sound, but the searches only read what is there
    found += _same_searches(ch, (2, 4))
    assert found, "no whip at all: the test would prove little"


def test_a_search_the_state_budget_cuts_is_cut_the_same_way(monkeypatch):
    # A small budget, so that layers past it are met on a small board.
    monkeypatch.setattr(whips, "_MAX_STATES", 4)
    monkeypatch.setattr(whip_reference, "_MAX_STATES", 4)
    ch = minimal_chains("rook", 8, 1)[0]
    _same_searches(ch, (2, 3, 4, 6))
    cut = {cap: 0 for cap in (2, 3, 6)}
    tables = ch.whip_tables()
    for cap in cut:
        for z in ch.candidates():
            search = WhipSearch(ch, tables)
            cut[cap] += search.find(z, cap)[2] and not search.capped
    # Cut at the last layer a cap allows (its followers only counted) and before it.
    assert cut[2] and cut[3] and cut[6], cut
