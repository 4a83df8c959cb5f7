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

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .chains import Chains

Candidate = tuple[int, int]  # (number, cell bit)
_MAX_STATES = 4_000  # partial whips kept per length; past it the search gives up (cut)


# A partial whip: its steps R1..Ri, and what Z and they leave each variable: the numbers
# and the cells they hold, and for the numbers next to theirs, the cells still allowed.
_State = tuple[tuple[Candidate, ...], frozenset[int], int, dict[int, int]]


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
        cut the search short.

        One loop with everything inlined: it runs millions of times while a large sparse
        puzzle is rated.  The variables linked to the last step are looked at in a fixed
        order (numbers sharing its cell, the numbers next to its own, then the cells its
        number or those neighbours lose), each for the candidates the chain leaves it."""
        near = self.near
        layer: dict[tuple[frozenset[Candidate], Candidate], _State] = {
            (frozenset(), z): ((), *_extended(frozenset(), 0, {}, z, near))
        }
        for _ in range(cap):
            self.states += len(layer)
            nxt: dict[tuple[frozenset[Candidate], Candidate], _State] = {}
            for (_, last), (steps, numbers, cells, allowed) in layer.items():
                found, empty = self._left(last, numbers, cells, allowed)
                if empty is not None:
                    return steps, empty, False
                for r in found:
                    key = (frozenset((*steps, r)), r)
                    if key not in nxt:
                        nxt[key] = ((*steps, r), *_extended(numbers, cells, allowed, r, near))
            if not nxt:
                return None, None, False
            if len(nxt) > _MAX_STATES:
                return None, None, True
            layer = nxt
        return None, None, True

    def _left(self, last: Candidate, numbers: frozenset[int], cells: int,
              allowed: dict[int, int]) -> tuple[list[Candidate], tuple[str, int] | None]:
        """The variables linked to ``last`` that the chain (``numbers``, ``cells``,
        ``allowed``) leaves with one candidate: those candidates, in the order met; and the
        first variable left with none, if any (then the whip ends there)."""
        cand, placed, numbers_of = self.cand, self.placed, self.numbers_of
        linked, free = self._linked(last, numbers)
        found: list[Candidate] = []
        for j in linked:
            c = cand[j] & ~cells & allowed.get(j, -1)
            if not c:
                return found, ("number", j)
            if not c & (c - 1):
                found.append((j, c))
        free &= ~cells
        while free:
            d = free & -free
            free ^= d
            only = count = 0
            for j in numbers_of.get(d, ()):
                if placed[j] or j in numbers or not cand[j] & d & allowed.get(j, -1):
                    continue
                count += 1
                if count > 1:
                    break
                only = j
            if not count:
                return found, ("cell", d)
            if count == 1:
                found.append((only, d))
        return found, None

    def _linked(self, last: Candidate, numbers: frozenset[int]) -> tuple[list[int], int]:
        """The numbers with a candidate linked to ``last`` and not in the chain (those that
        may take its cell, then the ones next to its own), and the cells its number or
        those neighbours lose."""
        k, b = last
        cand, placed, n = self.cand, self.placed, self.n
        # The table is a sweep old: check the candidate.
        linked = [j for j in self.numbers_of.get(b, ()) if j != k and cand[j] & b and j not in numbers
                  and not placed[j]]
        free = cand[k] & ~b
        outside = ~self.near[b]
        for j in (k - 1, k + 1):
            if 1 <= j <= n and not placed[j]:
                far = cand[j] & outside
                if far and j not in numbers:
                    linked.append(j)
                free |= far & ~b
        return linked, free


def _extended(numbers: frozenset[int], cells: int, allowed: dict[int, int], candidate: Candidate,
              near: dict[int, int]) -> tuple[frozenset[int], int, dict[int, int]]:
    """A partial whip's numbers, cells and allowed cells with one more candidate."""
    k, b = candidate
    spread = near[b]
    longer = dict(allowed)
    longer[k - 1] = longer.get(k - 1, -1) & spread
    longer[k + 1] = longer.get(k + 1, -1) & spread
    return numbers | {k}, cells | b, longer
