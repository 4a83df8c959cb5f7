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
FEW = 16  # ``WhipTables.few`` for t up to this (depth + 2 at caps up to 15); past it every number gets a look


# A partial whip: its steps R1..Ri (Ri, or Z when there are none, is its last step), and
# what Z and the steps before its last leave each variable: the numbers (a bit each) and
# the cells they hold, for the numbers next to theirs the cells still allowed, and (a bit
# per number) the numbers whose candidates the chain may have narrowed: its own numbers
# and the ones next to them.  The last step is added only when the partial whip has
# followers (a dict copy saved for the others, and for the whole last layer).
_State = tuple[tuple[Candidate, ...], Candidate, int, int, dict[int, int], int]


# What a step on one candidate (k in cell b) looks up, as the candidates stand
# (``WhipTables.links``): the numbers it reads whole (a bit each: k and its neighbours); the
# numbers other than k that may take b (a bit each); k's neighbours that do not, but have
# cells out of b's reach (linked to it by those alone); the cells k or its neighbours lose;
# the cells next to b; k's neighbours (a bit each).
_Links = tuple[int, int, int, int, int, int]


class WhipTables:
    """What every whip search of one state of the candidates looks up: for each cell the
    open numbers that may go there (ascending, and as a bit mask over numbers), for each
    count t the cells at least t numbers may take (``crowded``), and the open numbers
    with t cells or fewer (``few``).

    A cell that two numbers the chain has not narrowed may still take is never left
    with one candidate or none, so ``WhipSearch`` skips it without looking at its
    numbers: most cells of a large sparse board, most of the time.  Likewise a number
    the chain has not narrowed loses only the chain's cells: with two more than those
    it is skipped (most numbers of a dense 10x10 board)."""

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
        # first steps on it: the searches of a sweep step on the same candidates again and
        # again.
        self._links: dict[Candidate, _Links] = {}

    def update(self, cand: list[int], placed: list[int]) -> bool:
        """Follow the candidates to their state now: the candidates gone since are taken
        out (the order of each cell's numbers stays).  False when some number gained a
        cell instead: then the tables are to be made afresh."""
        numbers, mask, bits, at = self.numbers, self.mask, self.bits, self.at
        crowded, few = self.crowded, self.few
        changed = False
        # (the numbers whose cells changed found first: most have not, after one elimination)
        for k in [k for k in range(1, self.n + 1) if (0 if placed[k] else cand[k]) != bits[k]]:
            new = 0 if placed[k] else cand[k]
            old = bits[k]
            if new & ~old:
                return False
            changed = True
            gone = old ^ new
            kb = 1 << k
            while gone:
                b = gone & -gone
                gone ^= b
                js = numbers[b]
                crowded[len(js)] ^= b  # one number fewer: no longer among the cells that many take
                js.remove(k)
                mask[b] ^= kb
                at[b.bit_length()] ^= kb
            bits[k] = new
            # k is among few[t] from its count of cells on (none: never)
            was, now = min(old.bit_count(), FEW + 1), min(new.bit_count(), FEW + 1)
            for t in range(now or FEW + 1, was):
                few[t] |= kb
            if not now:
                for t in range(was, FEW + 1):
                    few[t] ^= kb
        if changed:
            self._links = {}
        return True

    def links(self, last: Candidate, near: dict[int, int]) -> _Links:
        """The links of ``last`` (k in cell b), as ``_Links`` says: made once per state of
        the candidates."""
        known = self._links.get(last)
        if known is not None:
            return known
        k, b = last
        bits = self.bits
        outside = ~near[b]
        free = bits[k] & ~b
        far = 0
        for j in (k - 1, k + 1):
            if 1 <= j <= self.n:
                away = bits[j] & outside
                if away:
                    far |= 1 << j
                free |= away & ~b
        mask = self.mask.get(b, 0)
        sharing = mask & ~(1 << k)
        known = self._links[last] = (7 << (k - 1), sharing, far & ~sharing, free, near[b],
                                     1 << (k - 1) | 1 << (k + 1))
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
        few = few_table(self.bits)
        none = few[0]  # placed numbers, and the unused ends: no cells, never looked at
        self.few = [f & ~none for f in few]  # few[t]: the open numbers with t cells or fewer


def few_table(cand: list[int]) -> list[int]:
    """For each t up to ``FEW``, the numbers (indexes of ``cand``, a bit each) with t cells
    or fewer, those with none among them."""
    by_size = [0] * (FEW + 1)
    for k, c in enumerate(cand):
        size = c.bit_count()
        if size <= FEW:
            by_size[size] |= 1 << k
    for t in range(1, FEW + 1):
        by_size[t] |= by_size[t - 1]
    return by_size


class WhipSearch:
    """The whips of one state of the candidates."""

    def __init__(self, chains: Chains, tables: WhipTables) -> None:
        self.near = chains.near
        self.tables = tables  # chains.whip_tables() as the candidates are now
        self.states = 0  # partial whips extended so far: the work done, in counted steps
        # What the search's outcome rests on: the numbers whose candidates it read, a bit
        # each (bit k: number k), and for each count t the cells it passed over because t
        # or more numbers may take them (``WhipTables.crowded``).  Candidates only ever go,
        # so while none of these numbers changes and those cells keep t numbers or more,
        # the same search finds the same (``rating.LogicSolve`` replays it: ``still``).
        self.read_numbers = 0
        self.crowded: dict[int, int] = {}
        # Finer than whole numbers: the cells whose numbers it read (``WhipTables.at``, a
        # cell's mask: which numbers still may take it is all it looked at), and the most
        # cells a number it passed over by its count (``WhipTables.few``) could have had
        # and still been looked at.  A number changed since, but not among
        # ``read_numbers``, that lost none of ``read_cells`` and, if among ``passed``,
        # keeps more than ``deepest`` cells, leaves every step of the search as it was.
        self.read_cells = 0
        self.deepest = -1
        self.passed = 0  # the numbers that shared a step's cell (those passed over by count among them)
        # Whether the cap (not the state budget) cut the last search short.  A search the
        # budget cut runs the same layers at any longer cap and is cut at the same one: the
        # same outcome, reads and counted steps (``rating.LogicSolve`` replays it there).
        self.capped = False

    def find(self, z: Candidate, cap: int) -> tuple[tuple[Candidate, ...] | None, tuple[str, int] | None, bool]:
        """The steps R1..R(n-1) and the empty variable of a shortest whip for ``z`` up to
        ``cap`` (None, None when there is none), and whether the cap (or the state budget)
        cut the search short.

        Breadth first, one length at a time; partial whips that reach the same set of
        steps with the same last one are merged (the first one met is kept), and each
        layer is looked at in the order it was met.  For each partial whip the variables
        linked to its last step are looked at in a fixed order (numbers sharing its cell,
        the numbers next to its own, then the cells its number or those neighbours lose),
        each for the candidates the chain leaves it; the first one left with none ends
        the search.  Three methods (this, ``_layer`` once per layer and ``_cells`` once
        per partial whip) that call nothing else but the tables' ``links`` once per
        candidate: they run millions of times while a puzzle is rated (a call per partial
        whip cost about a twentieth of the search's CPU)."""
        few = self.tables.few
        layer: list[_State] = [((), z, 0, 0, {}, 0)]
        for depth in range(cap):
            self.states += len(layer)
            if depth + 2 <= FEW:
                self.deepest = depth + 2
            # The chains of this layer hold ``depth`` cells before their last step: a
            # number they leave alone (not narrowed) with more than depth + 2 cells keeps
            # two after it, so only numbers with fewer need a look.
            small = few[depth + 2] if depth + 2 <= FEW else -1
            nxt: dict[tuple[frozenset[Candidate], Candidate], _State] = {}
            ends: list[tuple[tuple[Candidate, ...], list[Candidate]]] = []
            # The last layer's followers are only counted, never looked at (``ends``).
            whip = self._layer(layer, small, nxt, ends if depth == cap - 1 else None)
            if whip is not None:
                return whip[0], whip[1], False
            if depth == cap - 1:
                return self._last(ends)
            if not nxt:
                return None, None, False
            if len(nxt) > _MAX_STATES:
                return None, None, True
            layer = list(nxt.values())
        self.capped = True  # cap 0: nothing looked at
        return None, None, True

    def _layer(self, layer: list[_State], small: int, nxt: dict[tuple[frozenset[Candidate], Candidate], _State],
               ends: list[tuple[tuple[Candidate, ...], list[Candidate]]] | None
               ) -> tuple[tuple[Candidate, ...], tuple[str, int]] | None:
        """Each partial whip of ``layer`` with its followers: those put in ``nxt`` (merged
        on their set of steps and last one), or in the last layer with ``ends`` (each
        partial whip's, only counted); a whip (its steps and the empty variable) as soon
        as one of them ends in one.  ``small``: the numbers with few enough cells that the
        chain may leave them one (``WhipTables.few``).

        For each partial whip, the variables linked to its last step that the chain
        before it and that step leave with one candidate (its followers, in the order
        met), and the first one left with none: the numbers that may take the step's cell
        (its neighbours only within its reach), ascending, then its neighbours with cells
        out of its reach, each for what the chain leaves it; then the cells the step's
        number or those neighbours lose (``_cells``)."""
        tables = self.tables
        known, bits = tables._links, tables.bits
        for steps, last, numbers, cells, allowed, narrowed in layer:
            read, sharing, far, free, spread, beside = known.get(last) or tables.links(last, self.near)
            k, b = last
            keep = ~(cells | b)
            # Of the numbers sharing b, only those looked at are read whole; the others
            # only by their count (``deepest``): one that loses b, or other cells, while it
            # keeps more than ``deepest``, is passed over all the same.
            first = sharing & ~numbers & (narrowed | small | beside)
            self.read_numbers |= read | first
            self.passed |= sharing
            found: list[Candidate] = []
            for look in (first, far & ~numbers):
                while look:
                    jb = look & -look
                    look ^= jb
                    j = jb.bit_length() - 1
                    c = bits[j] & keep & allowed.get(j, -1) & (spread if jb & beside else -1)
                    if not c:
                        return steps, ("number", j)
                    if not c & (c - 1):
                        found.append((j, c))
            # The chain with its last step: what its followers start from.
            narrowed |= 7 << (k - 1)
            numbers |= 1 << k
            empty = self._cells(free & ~cells, spread, beside, numbers, allowed, narrowed, found)
            if empty is not None:
                return steps, empty
            if not found:
                continue
            if ends is not None:
                ends.append((steps, found))
                continue
            longer = dict(allowed)
            longer[k - 1] = longer.get(k - 1, -1) & spread
            longer[k + 1] = longer.get(k + 1, -1) & spread
            cells |= b
            for r in found:
                seq = (*steps, r)
                key = (frozenset(seq), r)
                if key not in nxt:
                    nxt[key] = (seq, r, numbers, cells, longer, narrowed)
        return None

    def _cells(self, free: int, spread: int, beside: int, numbers: int, allowed: dict[int, int], narrowed: int,
               found: list[Candidate]) -> tuple[str, int] | None:
        """The cells of ``free`` (those a step's number k or its neighbours (``beside``)
        lose, less the chain's) that the chain (``numbers`` and ``narrowed`` with k's,
        ``allowed`` before k's step) leaves to one number: those candidates added to
        ``found``; or the first one it leaves to none.

        A cell two numbers the chain has not narrowed may take keeps two candidates: only
        one with fewer numbers than those the chain narrowed and two more needs a look
        (the others are passed over as crowded, by their count)."""
        tables = self.tables
        crowded = tables.crowded
        t = narrowed.bit_count() + 2
        if t < len(crowded):
            skipped = free & crowded[t]
            if skipped:
                free ^= skipped
                self.crowded[t] = self.crowded.get(t, 0) | skipped
        if not free:
            return None
        at = tables.at
        self.read_cells |= free  # each cell's numbers, and nothing else of theirs
        outside = ~narrowed
        while free:
            d = free & -free
            free ^= d
            m = at[d.bit_length()]
            untouched = m & outside
            if untouched & (untouched - 1):
                continue  # two numbers the chain leaves alone may take it
            count = 1 if untouched else 0
            only = untouched.bit_length() - 1
            touched = m & narrowed & ~numbers
            while touched and count < 2:
                bit = touched & -touched
                touched ^= bit
                j = bit.bit_length() - 1
                if d & allowed.get(j, -1) & (spread if bit & beside else -1):
                    count += 1
                    only = j
            if not count:
                return "cell", d
            if count == 1:
                found.append((only, d))
        return None

    def _last(self, ends: list[tuple[tuple[Candidate, ...], list[Candidate]]]) -> tuple[None, None, bool]:
        """How a search whose last layer found no whip ends: the followers of that layer
        (``ends``: each partial whip's) are what a longer cap would look at, so none ends
        it (no longer cap finds anything), more than the state budget (merged) cuts it,
        and otherwise the cap did."""
        total = sum(len(found) for _, found in ends)
        if not total:
            return None, None, False
        if total > _MAX_STATES and len({(frozenset((*steps, r)), r) for steps, found in ends for r in found}) > \
                _MAX_STATES:
            return None, None, True
        self.capped = True
        return None, None, True


def still(crowded: dict[int, int] | tuple[tuple[int, int], ...], tables: WhipTables) -> bool:
    """Whether the cells a search passed over as crowded (count t -> cells) are all
    still taken by t numbers or more in ``tables``."""
    now = tables.crowded
    items = crowded.items() if isinstance(crowded, dict) else crowded
    if len(items) == 1:  # most searches pass over cells at one count: no generator for them
        ((t, cells),) = items
        return t < len(now) and not cells & ~now[t]
    return all(t < len(now) and not cells & ~now[t] for t, cells in items)

