"""The whip search's fast path (``whips.WhipSearch``: numbers with too many cells for the
chain to leave them one passed over by their count, ``WhipTables.few``; a partial whip's
last step added only when it has followers; the last layer's followers counted, not made)
must find what the search before it found (``tests/whip_reference.py``, on tables made
afresh): for every candidate and cap, the same whip (steps and empty variable), whether
it was cut, the same counted steps and crowded cells passed over, numbers read whole among
the reference's, on the candidates as a solve leaves them after singles and after
eliminations.  And the finer reads (``read_cells``, ``deepest``) are enough: a search run
again after candidates go that it did not read (numbers not read whole, none of its cells,
more than ``deepest`` cells left if it shared a step's cell, the cells passed over still crowded) does the same, step
for step."""

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
            assert (fast.states, fast.crowded, fast.capped) == (slow.states, slow.crowded, slow.capped), (z, cap)
            assert not fast.read_numbers & ~slow.read_numbers, (z, cap)
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


def _unread_gone(ch: Chains, search: WhipSearch, rng: random.Random) -> list[int]:
    """``ch``'s candidates less some that ``search`` did not read (a copy)."""
    cand = list(ch.cand)
    for j in range(1, ch.n + 1):
        if ch.placed[j] or search.read_numbers >> j & 1 or rng.random() < 0.5:
            continue
        spare = cand[j] & ~search.read_cells
        least = max(search.deepest + 1, 1) if search.passed >> j & 1 else 1
        while spare and cand[j].bit_count() > least and rng.random() < 0.7:
            b = spare & -spare
            spare ^= b
            cand[j] ^= b
    return cand


@pytest.mark.parametrize(("adjacency", "size", "seed"), [("rook", 8, 1), ("king", 7, 2), ("hex", 8, 3)])
def test_a_search_runs_the_same_after_candidates_it_did_not_read_go(adjacency, size, seed):
    ch = minimal_chains(adjacency, size, seed)[0]
    rng = random.Random(seed)
    tables = ch.whip_tables()
    changed = 0
    for cap in (2, 3, 5):
        for z in ch.candidates():
            before = WhipSearch(ch, tables)
            outcome = before.find(z, cap)
            cand = _unread_gone(ch, before, rng)
            now = whips.WhipTables(cand, ch.placed, ch.n)
            if not whips.still(before.crowded, now):
                continue  # a crowded cell passed over is no longer: the replay's other check
            changed += cand != ch.cand
            after = WhipSearch(ch, now)
            assert after.find(z, cap) == outcome, (z, cap)
            assert (after.states, after.read_numbers, after.read_cells, after.deepest, after.crowded,
                    after.capped) == (before.states, before.read_numbers, before.read_cells, before.deepest,
                                      before.crowded, before.capped), (z, cap)
            assert not after.passed & ~before.passed, (z, cap)
    assert changed > 100, changed
