"""Whips: the chains Berthier's rating counts, searched for directly.

A whip of length n for a candidate Z is a sequence of variables V1..Vn (numbers or
cells, none holding Z) with, for each i < n, one candidate Ri of Vi: every other
candidate of Vi is linked to Z or to an earlier R, and at least one of them (the
left-linking one) is linked to the R just before (to Z for V1); Vn has no candidate left
at all.  Whips are a narrower kind of chain than the trials of ``chains.py`` (there a
step may lean on any earlier one, not only the one just before), and some puzzles that
trials finish have no whip at all: Berthier's rater calls those beyond whips.

``find_whip`` searches breadth first, one length at a time, merging sequences that reach
the same candidates with the same last step.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .chains import Chains

Candidate = tuple[int, int]  # (number, cell bit)
_MAX_STATES = 4_000  # partial whips kept per length; past it the search gives up (cut)


class WhipSearch:
    """The whips of one state of the candidates."""

    def __init__(self, chains: Chains, numbers_of: dict[int, list[int]]) -> None:
        self.cand = chains.cand
        self.placed = chains.placed
        self.near = chains.near
        self.n = chains.n
        self.numbers_of = numbers_of
        self.states = 0  # partial whips extended so far: the work done, in counted steps

    def find(self, z: Candidate, cap: int) -> tuple[tuple[Candidate, ...] | None, tuple[str, int] | None, bool]:
        """The steps R1..R(n-1) and the empty variable of a shortest whip for ``z`` up to
        ``cap`` (None, None when there is none), and whether the cap (or the state budget)
        cut the search short."""
        layer: dict[tuple[frozenset[Candidate], Candidate], tuple[tuple[Candidate, ...], _Chain]] = {
            (frozenset(), z): ((), _Chain(self).extended(z))
        }
        for _ in range(cap):
            self.states += len(layer)
            nxt: dict[tuple[frozenset[Candidate], Candidate], tuple[tuple[Candidate, ...], _Chain]] = {}
            for (_, last), (steps, chain) in layer.items():
                for variable in self._linked_to(last, chain):
                    left = chain.left(variable)
                    if left is None:
                        continue
                    if not left:
                        return steps, variable, False
                    r = left[0]
                    key = (frozenset((*steps, r)), r)
                    if key not in nxt:
                        nxt[key] = ((*steps, r), chain.extended(r))
            if not nxt:
                return None, None, False
            if len(nxt) > _MAX_STATES:
                return None, None, True
            layer = nxt
        return None, None, True

    def _linked_to(self, r: Candidate, chain: _Chain) -> Iterator[tuple[str, int]]:
        """The variables with a candidate linked to ``r``, none holding a candidate of the chain."""
        k, b = r
        cand, near, placed, n = self.cand, self.near, self.placed, self.n
        held_numbers = chain.numbers
        for j in self.numbers_of.get(b, ()):  # the table is a sweep old: check the candidate
            if j != k and cand[j] & b and j not in held_numbers and not placed[j]:
                yield ("number", j)
        cells = cand[k] & ~b
        for j in (k - 1, k + 1):
            if 1 <= j <= n and not placed[j]:
                far = cand[j] & ~near[b]
                if far and j not in held_numbers:
                    yield ("number", j)
                cells |= far & ~b
        cells &= ~chain.cells
        while cells:
            d = cells & -cells
            cells ^= d
            yield ("cell", d)


class _Chain:
    """Z and the steps so far, as what they leave each variable: the numbers and cells
    they hold, and for the numbers next to theirs, the cells still allowed."""

    def __init__(self, search: WhipSearch) -> None:
        self.search = search
        self.numbers: frozenset[int] = frozenset()
        self.cells = 0
        self.allowed: dict[int, int] = {}

    def extended(self, candidate: Candidate) -> _Chain:
        """This chain with one more candidate."""
        k, b = candidate
        near = self.search.near[b]
        longer = _Chain(self.search)
        longer.numbers = self.numbers | {k}
        longer.cells = self.cells | b
        allowed = dict(self.allowed)
        for j in (k - 1, k + 1):
            allowed[j] = allowed.get(j, -1) & near
        longer.allowed = allowed
        return longer

    def left(self, variable: tuple[str, int]) -> list[Candidate] | None:
        """The candidates of ``variable`` linked to nothing in the chain; None when more than one."""
        search = self.search
        what, which = variable
        if what == "number":
            c = search.cand[which] & ~self.cells & self.allowed.get(which, -1)
            if c & (c - 1):
                return None
            return [(which, c)] if c else []
        left: list[Candidate] = []
        cand, placed, numbers, allowed = search.cand, search.placed, self.numbers, self.allowed
        for j in search.numbers_of.get(which, ()):
            if placed[j] or j in numbers or not cand[j] & which & allowed.get(j, -1):
                continue
            left.append((j, which))
            if len(left) > 1:
                return None
        return left
