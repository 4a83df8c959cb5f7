"""The whip search as it was before its fast path (``engine/whips.py`` at 4742a42), kept as
the reference ``tests/test_whip_search.py`` holds the fast one to: the same whips, counted
steps, reads and crowded cells for every trial.

Whips: the chains Berthier's rating counts, searched for directly.

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

from itertools import filterfalse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.chains import Chains

Candidate = tuple[int, int]  # (number, cell bit)
_MAX_STATES = 4_000  # partial whips kept per length; past it the search gives up (cut)


# A partial whip: its steps R1..Ri, and what Z and the steps before Ri leave each
# variable (Ri itself is added when the partial whip is extended): the numbers and the
# cells they hold, for the numbers next to theirs the cells still allowed, and (a bit per
# number) the numbers whose candidates the chain may have narrowed: its own numbers and
# the ones next to them.
_State = tuple[tuple[Candidate, ...], frozenset[int], int, dict[int, int], int]


class WhipTables:
    """What every whip search of one state of the candidates looks up: for each cell the
    open numbers that may go there (ascending, and as a bit mask over numbers), and for
    each count t the cells at least t numbers may take.

    A cell that two numbers the chain has not narrowed may still take is never left
    with one candidate or none, so ``WhipSearch`` skips it without looking at its
    numbers: most cells of a large sparse board, most of the time."""

    def __init__(self, cand: list[int], placed: list[int], n: int) -> None:
        self.n = n
        self.bits = [0] * (n + 2)  # each open number's cells, as the tables hold them
        self.numbers: dict[int, list[int]] = {}
        self.mask: dict[int, int] = {}
        numbers, mask = self.numbers, self.mask
        for k in range(1, n + 1):
            if placed[k]:
                continue
            c = self.bits[k] = cand[k]
            kb = 1 << k
            while c:
                b = c & -c
                c ^= b
                at = numbers.get(b)
                if at is None:
                    numbers[b] = [k]
                    mask[b] = kb
                else:
                    at.append(k)
                    mask[b] |= kb
        # The same masks by the cell's bit position plus one (``bit_length``): a list
        # index, not a dict look-up that hashes a 400-bit key, in the search's inner loop.
        self.at = [0] * (max(c.bit_length() for c in cand[1:n + 1]) + 1 if n else 1)
        for b, m in mask.items():
            self.at[b.bit_length()] = m
        self.crowded: list[int] = []
        self._count()
        # Each candidate's links as the candidates stand (``links``), made when a search
        # first steps on it: the searches of a sweep step on the same candidates again and again.
        self._links: dict[Candidate, tuple[list[int], int, int]] = {}

    def update(self, cand: list[int], placed: list[int]) -> bool:
        """Follow the candidates to their state now: the candidates gone since are taken
        out (the order of each cell's numbers stays).  False when some number gained a
        cell instead: then the tables are to be made afresh."""
        numbers, mask, bits, at = self.numbers, self.mask, self.bits, self.at
        for k in range(1, self.n + 1):
            new = 0 if placed[k] else cand[k]
            old = bits[k]
            if new == old:
                continue
            if new & ~old:
                return False
            gone = old ^ new
            kb = 1 << k
            while gone:
                b = gone & -gone
                gone ^= b
                numbers[b].remove(k)
                mask[b] ^= kb
                at[b.bit_length()] ^= kb
            bits[k] = new
        self._count()
        self._links = {}
        return True

    def links(self, last: Candidate, cand: list[int], placed: list[int],
              near: dict[int, int]) -> tuple[list[int], int, int]:
        """The numbers with a candidate linked to ``last`` (those that may take its cell,
        then the ones next to its own, if they have cells out of its reach), the cells its
        number or those neighbours lose, and the numbers looked at (a bit each), for the
        candidates these tables hold (``cand`` and ``placed`` as they are now)."""
        known = self._links.get(last)
        if known is not None:
            return known
        k, b = last
        linked = [j for j in self.numbers.get(b, ()) if j != k]
        free = cand[k] & ~b
        outside = ~near[b]
        for j in (k - 1, k + 1):
            if 1 <= j <= self.n and not placed[j]:
                far = cand[j] & outside
                if far:
                    linked.append(j)
                free |= far & ~b
        known = self._links[last] = (linked, free, self.mask.get(b, 0) | 7 << (k - 1))
        return known

    def _count(self) -> None:
        by_count: list[int] = [0]
        for b, js in self.numbers.items():
            while len(by_count) <= len(js):
                by_count.append(0)
            by_count[len(js)] |= b
        crowded = [0] * (len(by_count) + 1)  # crowded[t]: the cells t or more numbers may take
        for t in range(len(by_count) - 1, -1, -1):
            crowded[t] = crowded[t + 1] | by_count[t]
        self.crowded = crowded


class WhipSearch:
    """The whips of one state of the candidates."""

    def __init__(self, chains: Chains, tables: WhipTables) -> None:
        self.cand = chains.cand
        self.placed = chains.placed
        self.near = chains.near
        self.n = chains.n
        self.tables = tables  # chains.whip_tables() as the candidates are now
        self.states = 0  # partial whips extended so far: the work done, in counted steps
        # What the search's outcome rests on: the numbers whose candidates it read, a bit
        # each (bit k: number k), and for each count t the cells it passed over because t
        # or more numbers may take them (``WhipTables.crowded``).  Candidates only ever go,
        # so while none of these numbers changes and those cells keep t numbers or more,
        # the same search finds the same (``rating.LogicSolve`` replays it: ``still``).
        self.read_numbers = 0
        self.crowded: dict[int, int] = {}
        # Whether the cap (not the state budget) cut the last search short.  A search the
        # budget cut runs the same layers at any longer cap and is cut at the same one: the
        # same outcome, reads and counted steps (``rating.LogicSolve`` replays it there).
        self.capped = False

    def find(self, z: Candidate, cap: int) -> tuple[tuple[Candidate, ...] | None, tuple[str, int] | None, bool]:
        """The steps R1..R(n-1) and the empty variable of a shortest whip for ``z`` up to
        ``cap`` (None, None when there is none), and whether the cap (or the state budget)
        cut the search short.

        One loop with everything inlined: it runs millions of times while a large sparse
        puzzle is rated.  The variables linked to the last step are looked at in a fixed
        order (numbers sharing its cell, the numbers next to its own, then the cells its
        number or those neighbours lose), each for the candidates the chain leaves it."""
        near = self.near
        # Each partial whip is kept as its last step and what the steps before it leave
        # (its parent's numbers, cells, allowed cells and narrowed numbers): it is made
        # whole only when it is extended, so the partial whips of the last layer and of a
        # layer past the budget cost their key alone.
        layer: dict[tuple[frozenset[Candidate], Candidate], _State] = {
            (frozenset(), z): ((), frozenset(), 0, {}, 0)
        }
        for _ in range(cap):
            self.states += len(layer)
            nxt: dict[tuple[frozenset[Candidate], Candidate], _State] = {}
            for (_, last), (steps, numbers, cells, allowed, narrowed) in layer.items():
                numbers, cells, allowed, narrowed = _extended(numbers, cells, allowed, narrowed, last, near)
                found, empty = self._left(last, numbers, cells, allowed, narrowed)
                if empty is not None:
                    return steps, empty, False
                for r in found:
                    key = (frozenset((*steps, r)), r)
                    if key not in nxt:
                        nxt[key] = ((*steps, r), numbers, cells, allowed, narrowed)
            if not nxt:
                return None, None, False
            if len(nxt) > _MAX_STATES:
                return None, None, True
            layer = nxt
        self.capped = True
        return None, None, True

    def _left(self, last: Candidate, numbers: frozenset[int], cells: int, allowed: dict[int, int],
              narrowed: int) -> tuple[list[Candidate], tuple[str, int] | None]:
        """The variables linked to ``last`` that the chain (``numbers``, ``cells``,
        ``allowed``; ``narrowed``: the numbers it may have narrowed, a bit each) leaves
        with one candidate: those candidates, in the order met; and the first variable
        left with none, if any (then the whip ends there)."""
        cand, tables = self.cand, self.tables
        linked, free, read = tables.links(last, cand, self.placed, self.near)
        self.read_numbers |= read  # last's cell's numbers, its own and its neighbours
        found: list[Candidate] = []
        for j in filterfalse(numbers.__contains__, linked):  # those not in the chain
            c = cand[j] & ~cells & allowed.get(j, -1)
            if not c:
                return found, ("number", j)
            if not c & (c - 1):
                found.append((j, c))
        free &= ~cells
        # A cell two numbers the chain has not narrowed may take keeps two candidates:
        # only one with fewer numbers than those the chain narrowed and two more needs a look.
        crowded = tables.crowded
        t = narrowed.bit_count() + 2
        if t < len(crowded):
            skipped = free & crowded[t]
            if skipped:
                free ^= skipped
                self.crowded[t] = self.crowded.get(t, 0) | skipped
        at = tables.at
        read = 0
        while free:
            d = free & -free
            free ^= d
            m = at[d.bit_length()]
            read |= m
            untouched = m & ~narrowed
            if untouched & (untouched - 1):
                continue  # two numbers the chain leaves alone may take it
            count = 1 if untouched else 0
            only = untouched.bit_length() - 1
            touched = m & narrowed
            while touched and count < 2:
                bit = touched & -touched
                touched ^= bit
                j = bit.bit_length() - 1
                if j in numbers or not cand[j] & d & allowed.get(j, -1):
                    continue
                count += 1
                only = j
            if not count:
                return found, ("cell", d)
            if count == 1:
                found.append((only, d))
        self.read_numbers |= read
        return found, None


def still(crowded: dict[int, int] | tuple[tuple[int, int], ...], tables: WhipTables) -> bool:
    """Whether the cells a search passed over as crowded (count t -> cells) are all
    still taken by t numbers or more in ``tables``."""
    now = tables.crowded
    items = crowded.items() if isinstance(crowded, dict) else crowded
    return all(t < len(now) and not cells & ~now[t] for t, cells in items)


def _extended(numbers: frozenset[int], cells: int, allowed: dict[int, int], narrowed: int,
              candidate: Candidate, near: dict[int, int]) -> tuple[frozenset[int], int, dict[int, int], int]:
    """A partial whip's numbers, cells, allowed cells and narrowed numbers with one more candidate."""
    k, b = candidate
    spread = near[b]
    longer = dict(allowed)
    longer[k - 1] = longer.get(k - 1, -1) & spread
    longer[k + 1] = longer.get(k + 1, -1) & spread
    return numbers | {k}, cells | b, longer, narrowed | (7 << (k - 1))
