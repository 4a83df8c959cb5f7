"""A plain depth-first search with propagation, for boards too open to encode for SAT.

A board with hardly any givens leaves every number free to go almost anywhere, and the
SAT encoding (one boolean per number and candidate cell) would grow with N squared.
Such boards have solutions in plenty: extending the path from the most constrained
number, with propagation after every step, finds them quickly.  Proving there is only
one, on a board that open, is out of reach; the budget then says so.
"""

from __future__ import annotations

import time

from .propagation import Propagator, TimeUp


def backtrack(
    rules: Propagator,
    cand: list[int],
    limit: int,
    max_nodes: int | None,
    deadline: float | None,
) -> tuple[list[list[int]], bool, int]:
    """(solved states up to ``limit``, whether the search finished, nodes) from a propagated state."""
    n = rules.n
    found: list[list[int]] = []
    stack: list[tuple[list[int], int, int]] = []  # (parent state, number, cell bit) still to try
    nodes = 0
    state: list[int] | None = cand
    while True:
        if state is not None:
            k = _most_constrained(state, n)
            if not k:
                found.append(state)
                if len(found) >= limit:
                    return found, True, nodes
            else:
                options = state[k]
                bits = []
                while options:
                    low = options & -options
                    options ^= low
                    bits.append(low)
                stack.extend((state, k, bit) for bit in reversed(bits))
        if not stack:
            return found, True, nodes
        nodes += 1
        if (max_nodes is not None and nodes > max_nodes) or (
            deadline is not None and nodes % 8 == 0 and time.perf_counter() > deadline
        ):
            return found, False, nodes
        parent, k, bit = stack.pop()
        state = parent.copy()
        state[k] = bit
        try:
            if rules.propagate(state, [k]) is not None:
                state = None
        except TimeUp:
            return found, False, nodes


def _most_constrained(cand: list[int], n: int) -> int:
    best, best_count = 0, 1 << 62
    for k in range(1, n + 1):
        c = cand[k]
        if c & (c - 1):
            count = c.bit_count()
            if count < best_count:
                best, best_count = k, count
                if count == 2:
                    break
    return best
