"""The pool keeps only what the generator can make: levels a shape reaches at its size."""

from __future__ import annotations

from engine import SHAPES, unreachable
from webapp.store.pool import POOLED_DIFFICULTIES, default_targets


def test_pool_targets_are_the_reachable_slow_levels_of_each_default_shape():
    targets = default_targets()
    assert targets
    for options in targets:
        assert options.difficulty in POOLED_DIFFICULTIES
        assert unreachable(options.shape, options.size, options.adjacency, options.difficulty) is None
        assert options.size in SHAPES[options.shape].sizes(options.adjacency)  # never a heart for Numbrix
    kinds = {(o.shape, o.adjacency, o.difficulty) for o in targets}
    ring = SHAPES["ring"]
    assert unreachable("ring", ring.default_size, "king", "hard") is not None  # a thin frame
    assert ("ring", "king", "hard") not in kinds
    assert ("rectangle", "king", "expert") in kinds and ("rectangle", "rook", "expert") in kinds
    assert ("heart", "king", "hard") in kinds and ("heart", "rook", "hard") not in kinds
