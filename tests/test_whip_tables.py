"""The whip searches' tables follow the candidates (``whips.WhipTables``): each candidate's
links, made once and kept while the candidates stay (``links``), each cell's numbers by
bit position (``at``), the cells t or more numbers take (``crowded``) and the numbers with
t cells or fewer (``few``), both kept as candidates go, must be what tables made afresh
from the candidates as they are now would give, after eliminations and placements as
before them; and the whip ratings they serve must not
change (``tests/test_rating_replay.py`` and ``test_rating_steps.py`` check those)."""

from __future__ import annotations

import random

import pytest
from minimal_chains import minimal_chains

from engine.chains import Chains
from engine.whips import WhipTables


def _same_as_fresh(ch: Chains, tables: WhipTables) -> None:
    fresh = WhipTables(ch.cand, ch.placed, ch.n)
    for k, bit in ch.candidates():
        assert tables.links((k, bit), ch.near) == fresh.links((k, bit), ch.near), (k, bit)
    for b, mask in fresh.mask.items():
        assert tables.at[b.bit_length()] == mask == fresh.at[b.bit_length()]
    # The cells t or more numbers may take (t >= 1: a cell no number takes any more stays
    # a key of the followed tables), kept as numbers go: at most longer by zeros.
    assert _trimmed(tables.crowded[1:]) == _trimmed(fresh.crowded[1:])
    assert tables.few == fresh.few


def _trimmed(masks: list[int]) -> list[int]:
    while masks and not masks[-1]:
        masks = masks[:-1]
    return masks


@pytest.mark.parametrize(("adjacency", "size", "seed"), [("rook", 9, 1), ("king", 8, 2), ("hex", 8, 3)])
def test_the_tables_links_follow_the_candidates_as_they_go(adjacency, size, seed):
    ch, solution = minimal_chains(adjacency, size, seed)
    tables = ch.whip_tables()
    _same_as_fresh(ch, tables)  # every candidate's links made and kept
    rng = random.Random(seed)
    gone = 0
    for k, bit in rng.sample(list(ch.candidates()), 30):
        if ch.cand[k] & bit and bit != solution[k]:
            ch.eliminate(k, bit)  # the tables only follow what is there
            gone += 1
    assert gone, "nothing was taken out: the test would prove nothing"
    followed = ch.whip_tables()
    assert followed is tables, "the tables were made afresh, not followed"
    _same_as_fresh(ch, followed)
    open_before = len(ch.open_numbers())
    k = min(ch.open_numbers(), key=lambda j: ch.cand[j].bit_count())
    ch.eliminate(k, ch.cand[k] & ~solution[k])  # all its cells but its own
    ch.singles()  # numbers placed: they leave the tables (and ``few``) altogether
    assert len(ch.open_numbers()) < open_before, "nothing placed: the test would prove less"
    assert ch.whip_tables() is tables
    _same_as_fresh(ch, tables)
