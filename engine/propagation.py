"""The solver's deductions: narrowing each number's candidate cells to a fixed point.

The state is one bit mask per number: ``cand[k]`` holds the cells where k may still go
(``cand[0]`` and ``cand[N + 1]`` are unused zeros).  The rules, cheapest first:

- chain: k touches k-1 and k+1, so ``cand[k] &= spread(cand[k±1])``; run from each number
  that changed, this bounds every missing number by its distance to the numbers around
  it, through cells the numbers in between can still use;
- placed: a number with one cell left owns it; two numbers needing one cell is a
  contradiction;
- hidden single: a free cell only one number can reach gets it; a free cell no number
  can reach is a contradiction;
- dead end: a free cell with fewer than two neighbours it could link to holds 1 or N;
- paths: the numbers of a run between two placed numbers form a simple path through
  every free cell that only this run can reach; for short runs each number keeps only
  the cells some such path gives it, and cells on every path are taken from all other
  numbers;
- regions: a run lies inside one connected region of free cells, so the runs that can
  reach a region must fill it exactly.

Every rule only removes cells that no solution can use, so the search stays exact.

A ``deadline`` (a ``time.perf_counter()`` value: the caller's outer time limit) makes
the rules stop within a few milliseconds of it by raising ``TimeUp``: the solver and the
grader turn that into "gave up", so a budget covers propagation too, not only the search
after it.  Nothing here decides anything by the clock: the rules' own limits
(``_PATH_STEPS``) are counted steps.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from .board import Board, Cell
from .words import Phrase, english

_PATH_STEPS = 2000  # search steps per run; past them the run is left to the cheaper rules
_LONGEST_LISTED = 6  # longer runs cost more than they prune (measured with bench/)
_MEMO_LIMIT = 200_000


@dataclass(frozen=True)
class RunPaths:
    """What the simple paths of one run allow: cells per number, and cells on all of them."""

    domains: list[int]
    every: int


class Contradiction(Exception):
    """Raised inside the rules; propagate() turns it into a reason (a ``words.Phrase``).

    Raised often inside chains and searches and seldom read: the words are only made
    when asked for."""

    def __init__(self, template: str, /, **params: object) -> None:
        super().__init__(template)
        self.template = template
        self.params = params

    def reason(self) -> Phrase:
        """Why, in English words that keep their facts."""
        return Phrase(self.template, **self.params)

    def __str__(self) -> str:
        return self.template % english(self.params) if self.params else self.template


class _TooManySteps(Exception):
    """One path search went past its step budget: the run is left as it is."""


class TimeUp(Exception):
    """The rules passed their deadline; the caller gives up rather than guess."""


_CLOCK_EVERY = 256  # steps of the inner loops between looks at the clock


def where(board: Board, bits: int) -> Cell:
    """The lowest cell in a mask (a reason names it "row R, column C")."""
    return board.cells[board.cells_of_mask(bits & -bits)[0]]


class Propagator:
    """The rules for one board, with the tables and caches they share."""

    def __init__(self, board: Board, level: int = 3, longest_listed: int = _LONGEST_LISTED):
        self.board = board
        self.level = level
        self.longest_listed = longest_listed
        self.n = board.size
        self.spread = board.spread
        # spread() of a single cell is looked up, not computed: most numbers are placed.
        self.single = {b: board.spread(b) for b in board.bit_of_index}
        self.full = board.mask
        self.memo: dict[tuple[int, ...], RunPaths | None] = {}
        self.deadline: float | None = None  # perf_counter() past which TimeUp is raised

    def check_clock(self) -> None:
        """Raise TimeUp once the deadline has passed."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise TimeUp()

    def propagate(self, cand: list[int], changed: list[int]) -> Phrase | None:
        """Narrow ``cand`` in place to a fixed point; the reason on contradiction."""
        try:
            self._fixed_point(cand, changed)
        except Contradiction as why:
            return why.reason()
        return None

    def _fixed_point(self, cand: list[int], work: list[int]) -> None:
        open_numbers = list(range(1, self.n + 1))
        placed = 0
        while True:
            self.check_clock()
            self._chain(cand, work)
            open_numbers, fresh = self._settled(cand, open_numbers, placed)
            placed |= fresh
            if fresh:
                self._take(cand, open_numbers, fresh, work)
            if not open_numbers or not self._deduce(cand, open_numbers, self.full & ~placed, work):
                return

    def _settled(self, cand: list[int], open_numbers: list[int], placed: int) -> tuple[list[int], int]:
        """The numbers still open, and the cells of those just placed (never one cell twice)."""
        still = []
        fresh = 0
        for k in open_numbers:
            c = cand[k]
            if c & (c - 1):
                still.append(k)
            else:
                if c & (placed | fresh):
                    raise Contradiction("two numbers both need the cell at %(cell)s", cell=where(self.board, c))
                fresh |= c
        return still, fresh

    def _deduce(self, cand: list[int], open_numbers: list[int], free: int, work: list[int]) -> bool:
        """The first rule of this tier that narrows something, cheapest first; whether one did.

        Each later rule wants every placed number known, so the first that finds
        anything ends the round."""
        self._hidden_singles(cand, open_numbers, self.full & ~free, free, work)
        if work:
            return True
        if self.level < 2:
            return False
        self._dead_ends(cand, open_numbers, free, work)
        if work:
            return True
        runs = runs_of(open_numbers)
        self._paths(cand, runs, work)
        if work:
            return True
        if self.level < 3:
            return False
        self._regions(cand, runs, free, work)
        return bool(work)

    # -- cheap rules ----------------------------------------------------------------

    def _chain(self, cand: list[int], work: list[int]) -> None:
        neighbour_ranges(cand, work, self.n, self.single, self.spread, self.check_clock)

    def _take(self, cand: list[int], open_numbers: list[int], placed: int, work: list[int]) -> None:
        """Cells of newly placed numbers are no longer open to any other number."""
        for k in open_numbers:
            c = cand[k]
            if c & placed:
                c &= ~placed
                if not c:
                    raise Contradiction("%(number)s cannot be placed: every cell it could use is taken", number=k)
                cand[k] = c
                work.append(k)

    def _hidden_singles(self, cand: list[int], open_numbers: list[int], placed: int, free: int,
                        work: list[int]) -> None:
        ones = twos = 0
        for k in open_numbers:
            c = cand[k]
            twos |= ones & c
            ones |= c
        if free & ~ones:
            raise Contradiction("no number can go in the cell at %(cell)s", cell=where(self.board, free & ~ones))
        once = ones & ~twos & free
        if once:
            for k in open_numbers:
                c = cand[k]
                x = c & once
                if x:
                    if x & (x - 1):
                        raise Contradiction("%(number)s is the only number that can fill the cell at %(cell)s "
                                            "and another", number=k, cell=where(self.board, x))
                    if x != c:
                        cand[k] = x
                        work.append(k)

    def _dead_ends(self, cand: list[int], open_numbers: list[int], free: int, work: list[int]) -> None:
        """A free cell with fewer than two neighbours it could link to holds 1 or N."""
        n = self.n
        # A placed number can still link to a free cell if k-1 or k+1 is open.
        is_open = set(open_numbers)
        hungry = 0
        for k in open_numbers:
            if k - 1 >= 1 and k - 1 not in is_open:
                hungry |= cand[k - 1]
            if k + 1 <= n and k + 1 not in is_open:
                hungry |= cand[k + 1]
        ones = twos = 0
        for shifted in self.board.each_neighbour(free | hungry):
            twos |= ones & shifted
            ones |= shifted
        dead = free & ~twos
        if not dead:
            return
        ends = (cand[1] | cand[n]) & dead
        if ends != dead:
            raise Contradiction("the cell at %(cell)s is a dead end that neither 1 nor %(last)s can fill",
                                cell=where(self.board, dead & ~ends), last=n)
        for k in open_numbers:
            if k != 1 and k != n and cand[k] & dead:
                c = cand[k] & ~dead
                if not c:
                    raise Contradiction("%(number)s cannot be placed: only dead ends are left for it", number=k)
                cand[k] = c
                work.append(k)

    # -- paths ----------------------------------------------------------------------

    def _paths(self, cand: list[int], runs: list[tuple[int, int]], work: list[int]) -> None:
        owned = 0
        owner: list[tuple[int, int, int]] = []
        reach, alone = _reach(cand, runs)
        for (lo, hi), u in zip(runs, reach, strict=True):
            if hi - lo >= self.longest_listed:
                continue
            self.check_clock()
            found = self._run_paths(cand, lo, hi, u & alone if self.level >= 3 else 0)
            if found is None:
                continue
            for k, d in zip(range(lo, hi + 1), found.domains, strict=True):
                if d != cand[k]:
                    cand[k] = d
                    work.append(k)
            if found.every:
                if owned & found.every:
                    raise Contradiction("the numbers %(low)s to %(high)s need a cell another run needs too, "
                                        "at %(cell)s", low=lo, high=hi, cell=where(self.board, owned & found.every))
                owned |= found.every
                owner.append((lo, hi, found.every))
        if owned:
            self._keep_out_of_owned(cand, runs, owner, owned, work)

    def _run_paths(self, cand: list[int], lo: int, hi: int, must: int) -> RunPaths | None:
        """``_enumerate`` for one run, remembered by its domains and the cells it must cover."""
        memo = self.memo
        key = (must, *cand[lo - 1 : hi + 2])
        if key in memo:
            return memo[key]
        found = self._enumerate(cand, lo, hi, must)
        if found is None and must:
            # Covering the must-cells made the search too long: still use the
            # routes themselves, so this tier never knows less than the one below.
            found = self._enumerate(cand, lo, hi, 0)
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        memo[key] = found
        return found

    @staticmethod
    def _keep_out_of_owned(cand: list[int], runs: list[tuple[int, int]], owner: list[tuple[int, int, int]],
                           owned: int, work: list[int]) -> None:
        """A cell every path of one run uses is no other number's."""
        own_of = {}
        for lo, hi, every in owner:
            for k in range(lo, hi + 1):
                own_of[k] = every
        for lo, hi in runs:
            for k in range(lo, hi + 1):
                c = cand[k]
                taken = owned & ~own_of.get(k, 0)
                if c & taken:
                    c &= ~taken
                    if not c:
                        raise Contradiction("%(number)s cannot be placed: the cells left for it are needed by other "
                                            "numbers", number=k)
                    cand[k] = c
                    work.append(k)

    def _enumerate(self, cand: list[int], lo: int, hi: int, must: int) -> RunPaths | None:
        """Cells some simple path of run lo..hi can give each number, and cells all paths use.

        Rather than listing every path (there can be millions), it looks for one path
        through each (number, cell) pair not yet seen on a path, then for each cell of
        the first path one path avoiding it.  None when the step budget runs out.
        """
        n = self.n
        doms = cand[lo : hi + 1]
        start = self.single[cand[lo - 1]] if lo > 1 else -1
        end = self.single[cand[hi + 1]] if hi < n else -1
        self.steps = 0
        try:
            return self._covering(doms, start, end, must, lo, hi)
        except _TooManySteps:
            return None

    def _covering(self, doms: list[int], start: int, end: int, must: int, lo: int, hi: int) -> RunPaths:
        """The paths of ``_enumerate``: raises _TooManySteps past the step budget."""
        length = hi - lo + 1
        first = self._find_path(doms, start, end, must)
        if first is None:
            raise Contradiction("the numbers %(low)s to %(high)s have no path between the numbers around them",
                                low=lo, high=hi)
        union = list(first)
        every = 0
        for bit in first:
            every |= bit
        for i in range(length):
            untried = doms[i] & ~union[i]
            while untried:
                bit = untried & -untried
                untried ^= bit
                trial = doms.copy()
                trial[i] = bit
                found = self._find_path(trial, start, end, must)
                if found:
                    every = self._merge(union, every, found)
                    untried &= ~union[i]
        doubt = every & ~must
        while doubt:
            bit = doubt & -doubt
            doubt ^= bit
            found = self._find_path([d & ~bit for d in doms], start, end, must)
            if found:
                every = self._merge(union, every, found)
                doubt &= every
        return RunPaths(union, every)

    @staticmethod
    def _merge(union: list[int], every: int, path: list[int]) -> int:
        cells = 0
        for j, bit in enumerate(path):
            union[j] |= bit
            cells |= bit
        return every & cells

    def _find_path(self, doms: list[int], start: int, end: int, must: int) -> list[int] | None:
        """One simple path through ``doms`` covering ``must``; None if none.

        Raises _TooManySteps past the step budget (an exception, so the loop's one
        answer keeps one type).  Depth-first over bit masks in one flat loop: the
        solver's innermost search, kept in one piece for speed."""
        single = self.single
        length = len(doms)
        last = length - 1
        path = [0] * length
        options = [0] * length
        options[0] = doms[0] & start & (end if length == 1 else -1)
        i = 0
        used = 0
        steps = self.steps
        while i >= 0:
            opts = options[i]
            if not opts:
                i -= 1
                if i >= 0:
                    used ^= path[i]
                continue
            bit = opts & -opts
            options[i] = opts ^ bit
            steps += 1
            if steps % _CLOCK_EVERY == 0:
                self.check_clock()
            if steps > _PATH_STEPS:
                self.steps = steps
                raise _TooManySteps()
            path[i] = bit
            if i == last:
                if must & ~(used | bit):
                    continue
                self.steps = steps
                return path
            used |= bit
            if must and (must & ~used).bit_count() > last - i:
                used ^= bit
                continue
            i += 1
            nxt = doms[i] & single[bit] & ~used
            if i == last:
                nxt &= end
            options[i] = nxt
        self.steps = steps
        return None

    # -- regions --------------------------------------------------------------------

    def _regions(self, cand: list[int], runs: list[tuple[int, int]], free: int, work: list[int]) -> None:
        """Each run fills part of one region of free cells; the sizes must add up."""
        regions = self._split_regions(free)
        if len(regions) == 1:
            return  # one region: the hidden-single count already matches its size
        sizes = [r.bit_count() for r in regions]
        forced = [0] * len(regions)
        optional: list[list[int]] = [[] for _ in regions]
        homes_of_run: list[list[int]] = []
        for lo, hi in runs:
            length = hi - lo + 1
            first, last = cand[lo], cand[hi]
            homes = [i for i, r in enumerate(regions) if r & first and r & last and sizes[i] >= length]
            if not homes:
                raise Contradiction("the numbers %(low)s to %(high)s have no region of free cells large enough "
                                    "to hold them", low=lo, high=hi)
            homes_of_run.append(homes)
            if len(homes) == 1:
                forced[homes[0]] += length
            else:
                for i in homes:
                    optional[i].append(length)
        for i, size in enumerate(sizes):
            self._check_region_fills(regions[i], size - forced[i], optional[i])
        for (lo, hi), homes in zip(runs, homes_of_run, strict=True):
            keep = 0
            for i in homes:
                if len(homes) == 1 or sizes[i] > forced[i]:
                    keep |= regions[i]
            _narrow_run(cand, lo, hi, keep, work)

    def _split_regions(self, free: int) -> list[int]:
        """The connected regions of the free cells."""
        spread = self.spread
        regions: list[int] = []
        rest = free
        while rest:
            region = rest & -rest
            while True:
                grown = (region | spread(region)) & rest
                if grown == region:
                    break
                region = grown
            regions.append(region)
            rest &= ~region
        return regions

    def _check_region_fills(self, region: int, room: int, optional: list[int]) -> None:
        """The runs that must go in ``region`` leave ``room`` cells: some choice of the runs
        that may go there (their lengths ``optional``) must fill it exactly."""
        size = region.bit_count()
        if room < 0:
            raise Contradiction("the region around %(cell)s has %(size)s cells, too few for the numbers that "
                                "must go there", cell=where(self.board, region), size=size)
        if room:
            sums = 1
            for length in optional:
                sums |= sums << length
            if not (sums >> room) & 1:
                raise Contradiction("the region around %(cell)s has %(size)s cells, and no set of missing "
                                    "numbers fills it exactly", cell=where(self.board, region), size=size)


def neighbour_ranges(cand: list[int], work: list[int], n: int, single: dict[int, int],
                     spread: Callable[[int], int], tick: Callable[[], None] | None = None) -> int:
    """k must touch k-1 and k+1: narrow each number to the cells next to where its
    neighbours can go, from the numbers in ``work`` on, to a fixed point.  How many
    candidates were dropped; Contradiction when a number has no cell left.  ``tick`` is
    called now and then (the clock)."""
    pending = set(work)
    dropped = 0
    pops = 0
    while work:
        pops += 1
        if tick is not None and pops % _CLOCK_EVERY == 0:
            tick()
        k = work.pop()
        pending.discard(k)
        ck = cand[k]
        s = single.get(ck)
        if s is None:
            s = spread(ck)
        for j in (k - 1, k + 1):
            if 1 <= j <= n:
                cj = cand[j]
                nj = cj & s
                if nj != cj:
                    if not nj:
                        raise Contradiction("%(number)s cannot be placed: no free cell next to where %(other)s can go",
                                            number=j, other=k)
                    dropped += (cj & ~nj).bit_count()
                    cand[j] = nj
                    if j not in pending:
                        pending.add(j)
                        work.append(j)
    return dropped


def _narrow_run(cand: list[int], lo: int, hi: int, keep: int, work: list[int]) -> None:
    """The numbers lo..hi stay within ``keep`` (the regions with room for them)."""
    for k in range(lo, hi + 1):
        c = cand[k]
        if c & ~keep:
            c &= keep
            if not c:
                raise Contradiction("%(number)s cannot be placed: no region has room for it", number=k)
            cand[k] = c
            work.append(k)


def _reach(cand: list[int], runs: list[tuple[int, int]]) -> tuple[list[int], int]:
    """Each run's reachable cells, and the free cells only one run can reach (which lie
    on that run's path)."""
    reach = []
    ones = twos = 0
    for lo, hi in runs:
        u = 0
        for c in cand[lo : hi + 1]:
            u |= c
        reach.append(u)
        twos |= ones & u
        ones |= u
    return reach, ones & ~twos


def runs_of(open_numbers: list[int]) -> list[tuple[int, int]]:
    """Maximal runs lo..hi of consecutive numbers in an ascending list (the open numbers of a
    puzzle, the numbers a game still misses)."""
    runs: list[tuple[int, int]] = []
    if not open_numbers:
        return runs
    lo = prev = open_numbers[0]
    for k in open_numbers[1:]:
        if k != prev + 1:
            runs.append((lo, prev))
            lo = k
        prev = k
    runs.append((lo, prev))
    return runs
