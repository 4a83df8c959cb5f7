"""Contradiction chains: the reasoning behind the rating, measured as Berthier measures it.

A candidate is a pair (number k, cell c).  Two candidates are *linked* when they cannot
both hold: the same number in two cells, two numbers in one cell, or k and k±1 in cells
that do not touch.  There are two kinds of variables: each number has one cell, each cell
one number.  Denis Berthier rates a puzzle by the longest *whip* its solution needs: a
"what if" that fails in n steps (suppose Z, then n-1 variables in turn are left with one
candidate each, and the n-th with none).

``Chains`` works on the same model.  Singles with elementary propagation (placing a
number removes every candidate linked to it) cost nothing: length 0.  Length 1 is done
with bit masks (``ranges``, ``cell_ranges``).  Longer chains come from ``trial``: with
``whips`` (the rating's way) it searches for whips as Berthier defines them
(``whips.py``); without, it follows singles from the supposed candidate in order of how
many steps each rests on, and when a variable runs out of candidates, the steps the
contradiction used plus one give the length of a *braid* (a chain whose steps may lean
on any earlier step, not only the one before).  Braids are cheaper to find and never
miss a whip, so the generator uses them to judge removals; but some puzzles that braids
finish have no whip at all, so what a puzzle is rated and kept by is whips.
"""

from __future__ import annotations

import functools
import heapq
import time
from collections.abc import Iterator
from dataclasses import dataclass

from .board import Board, Puzzle
from .propagation import Contradiction, TimeUp, neighbour_ranges
from .whips import WhipSearch, WhipTables

_CLOCK_EVERY = 64  # trials between looks at the clock


class Broken(Exception):
    """The state contradicts itself: the puzzle (or a player's entries) has no solution."""


class OutOfSteps(Exception):
    """The trials went past their step budget (``Chains.max_steps``): the caller gives up.

    Counted steps, never the clock, so the same puzzle runs out at the same trial on
    any machine."""


@dataclass(frozen=True)
class Chain:
    """Why a candidate is ruled out: assume it, then the singles it forces, then a dead end.

    Cells are single-bit masks (``Board.bit``).  ``steps`` are the singles in the order
    they were placed (number, cell); ``empty`` names the variable left with nothing:
    ("number", k) or ("cell", cell).
    """

    number: int
    cell: int
    steps: tuple[tuple[int, int], ...]
    empty: tuple[str, int]

    @property
    def length(self) -> int:
        return len(self.steps) + 1


@dataclass(frozen=True)
class Deduction:
    """One step of a logical solve: a candidate ruled out (by a chain of ``length``) or a
    number placed by a single (length 0)."""

    # "single": a number with one cell left placed there; "only number": a cell only one
    # number can reach gets it; "ranges": candidates out of reach of the numbers around
    # them dropped (length 1); "chain": a candidate ruled out by ``chain``.
    kind: str
    number: int
    cell: int
    length: int
    chain: Chain | None = None


class Chains:
    """The candidates of one puzzle and the rules that narrow them (call ``singles``
    first: the givens are candidates until then)."""

    def __init__(self, puzzle: Puzzle, deadline: float | None = None, whips: bool = False,
                 max_steps: int | None = None) -> None:
        board = puzzle.board
        self.board = board
        self.n = n = board.size
        self.deadline = deadline  # the caller's outer time limit: past it TimeUp is raised
        self.max_steps = max_steps  # past this many steps OutOfSteps is raised
        self.steps = 0  # work done: one per trial, plus the partial whips or singles it followed
        self.near = {b: board.spread(b) for b in board.bit_of_index}
        self.full = board.mask
        self.cand = _initial(puzzle)
        self.placed = [0] * (n + 2)  # the cell of each number placed by a single (or given)
        self.taken = 0  # cells of placed numbers
        self.trials = 0
        self.whips = whips  # chains as whips (Berthier's) rather than trials (braids)
        self._tables: tuple[tuple[tuple[int, ...], int], WhipTables] | None = None
        self._crowding: _Crowding | None = None  # ``crowding()``
        # The last trial's counted steps and what its outcome rests on: the numbers it
        # read (a bit each) and, for whips, the cells it passed over as crowded
        # (``WhipSearch.crowded``).
        self.last_trial: tuple[int, int, tuple[tuple[int, int], ...]] = (0, 0, ())
        # Whether the last trial that was cut short was cut by its cap (False: by the whip
        # search's state budget, which cuts it the same way at any longer cap).
        self.last_capped = True
        # The last trial's finer reads (whips: ``WhipSearch.read_cells``, ``deepest`` and
        # ``passed``; braids: the cells passed over by their count, ``_Braid.passed``, as
        # cells read, then -1 and 0).
        self.last_reach: tuple[int, int, int] = (0, -1, 0)

    # -- state ----------------------------------------------------------------------

    @property
    def solved(self) -> bool:
        return all(self.placed[k] for k in range(1, self.n + 1))

    def open_numbers(self) -> list[int]:
        return [k for k in range(1, self.n + 1) if not self.placed[k]]

    def cell_index(self, bit: int) -> int:
        return self.board.cell_of_bitpos[bit.bit_length() - 1]

    # -- singles (length 0) -----------------------------------------------------------

    def singles(self) -> list[Deduction]:
        """Place every number a single gives, with elementary propagation, to a fixed point.

        Raises Broken on a contradiction."""
        found: list[Deduction] = []
        while True:
            reach = self._lone_numbers(found)
            if reach is None:
                continue  # something was placed: look again from the start
            if not self._lone_cell(reach, found):
                return found

    def _lone_numbers(self, found: list[Deduction]) -> tuple[int, int] | None:
        """Place each number with one cell left; None if any was, else the cells open
        numbers reach (once, twice or more)."""
        cand, placed = self.cand, self.placed
        progress = False
        ones = twos = 0
        for k in range(1, self.n + 1):
            if placed[k]:
                continue
            c = cand[k]
            if not c:
                raise Broken(f"{k} has no cell left")
            if not c & (c - 1):
                self._place(k, c)
                found.append(Deduction("single", k, self.cell_index(c), 0))
                progress = True
                continue
            twos |= ones & c
            ones |= c
        return None if progress else (ones, twos)

    def _lone_cell(self, reach: tuple[int, int], found: list[Deduction]) -> bool:
        """Give a free cell only one number reaches to that number; whether one was."""
        ones, twos = reach
        free = self.full & ~self.taken
        if free & ~ones:
            raise Broken("a cell no number can reach")
        once = ones & ~twos & free
        if not once:
            return False
        for k in range(1, self.n + 1):
            if not self.placed[k]:
                x = self.cand[k] & once
                if x:
                    if x & (x - 1):
                        raise Broken(f"{k} is the only number for two cells")
                    self._place(k, x)
                    found.append(Deduction("only number", k, self.cell_index(x), 0))
                    return True
        return False

    def _place(self, k: int, bit: int) -> None:
        cand, n = self.cand, self.n
        if bit & self.taken:
            raise Broken("two numbers in one cell")
        cand[k] = bit
        self.placed[k] = bit
        self.taken |= bit
        for j in range(1, n + 1):
            if j != k and cand[j] & bit:
                cand[j] &= ~bit
        near = self.near[bit]
        for j in (k - 1, k + 1):
            if 1 <= j <= n:
                cand[j] &= near

    def eliminate(self, k: int, bit: int) -> None:
        self.cand[k] &= ~bit

    # -- neighbour ranges (whips of length 1, the cheap way) ---------------------------

    def ranges(self) -> int:
        """k must touch k-1 and k+1: drop cells out of their reach, to a fixed point.

        Each cell dropped is a whip of length 1 (the variable "k+1" has no candidate
        next to it).  Returns how many candidates were dropped."""
        try:
            return neighbour_ranges(self.cand, list(range(1, self.n + 1)), self.n, self.near, self.board.spread)
        except Contradiction as why:
            raise Broken(why) from None  # worded only if someone reads it

    def cell_ranges(self) -> int:
        """A free cell that only k-1, k or k+1 can fill must touch k (or hold it): k's
        other cells go.  These are the whips of length 1 whose last variable is a cell;
        with ``ranges`` they are all of them.  Returns how many candidates were dropped."""
        cand, placed, near, n = self.cand, self.placed, self.near, self.n
        dropped = 0
        for d, numbers in self.cells_numbers().items():
            low, high = min(numbers), max(numbers)
            if high - low > 2 or low == high:
                continue  # a lone number is a single; a wider spread rules nothing out
            keep = near[d] | d
            for k in range(max(1, high - 1), min(n, low + 1) + 1):
                if placed[k]:
                    continue
                c = cand[k]
                if c & ~keep:
                    c &= keep
                    if not c:
                        raise Broken(f"{k} has no cell left near a cell it must touch")
                    dropped += (cand[k] & ~c).bit_count()
                    cand[k] = c
        return dropped

    # -- trials -----------------------------------------------------------------------

    def cells_numbers(self) -> dict[int, list[int]]:
        """For each free cell, the open numbers that may still go there."""
        table: dict[int, list[int]] = {}
        for k in self.open_numbers():
            c = self.cand[k]
            while c:
                b = c & -c
                c ^= b
                table.setdefault(b, []).append(k)
        return table

    def trial(self, k0: int, z: int, cap: int, numbers_of: dict[int, list[int]],
              tables: WhipTables | None = None) -> tuple[Chain | None, bool]:
        """Suppose ``k0`` in cell ``z`` and follow singles: the shortest contradiction
        found within ``cap`` steps (or None), and whether the cap cut the search short
        (if not, no longer cap finds anything either while the candidates stay as they are).
        ``tables``, for whips, are ``whip_tables()`` of the candidates as they are now (a
        sweep that fetched them after its last change passes them, sparing each trial
        the look)."""
        self.trials += 1
        if self.deadline is not None and self.trials % _CLOCK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise TimeUp()
        if self.whips:
            search = WhipSearch(self, tables or self.whip_tables())
            steps, empty, cut = search.find((k0, z), cap)
            self.last_trial = (1 + search.states, search.read_numbers, tuple(search.crowded.items()))
            self.last_capped = search.capped
            self.last_reach = (search.read_cells, search.deepest, search.passed)
            self._count(1 + search.states)
            return (None if empty is None else Chain(k0, z, tuple(steps or ()), empty)), cut
        trial = _Braid(self, numbers_of, cap)
        chain = trial.run(k0, z)
        self.last_trial = (1 + len(trial.steps), trial.read, ())
        self.last_capped = True
        self.last_reach = (trial.passed, -1, 0)
        self._count(1 + len(trial.steps))
        return chain, trial.cut

    def replay(self, steps: int) -> None:
        """Count a trial whose outcome is known without running it (``LogicSolve``: the
        candidates it read have not changed since it ran), as many steps as it took then:
        the step budget runs out at the same trial as if it had run again."""
        self.trials += 1
        if self.deadline is not None and self.trials % _CLOCK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise TimeUp()
        self._count(steps)

    def whip_tables(self) -> WhipTables:
        """The whip searches' tables for the candidates as they are now, made again only
        when they changed (every trial of a sweep that finds nothing shares them)."""
        key = (tuple(self.cand), self.taken)
        if self._tables is None:
            self._tables = (key, WhipTables(self.cand, self.placed, self.n))
        elif self._tables[0] != key:
            tables = self._tables[1]
            if not tables.update(self.cand, self.placed):
                tables = WhipTables(self.cand, self.placed, self.n)
            self._tables = (key, tables)
        return self._tables[1]

    def open_candidates(self) -> list[int]:
        """Each number's candidates as the trials read them (none once it is placed)."""
        return [0 if placed else c for placed, c in zip(self.placed, self.cand, strict=True)]

    def crowding(self) -> tuple[int, int, int, int]:
        """The cells held by at most 1, 2, 3 and 4 open numbers (a mask each), for the
        candidates as they are now (the braid trials of a sweep share them)."""
        if self._crowding is None:
            self._crowding = _Crowding(self)
        else:
            self._crowding.update(self)
        return self._crowding.few

    def _count(self, steps: int) -> None:
        self.steps += steps
        if self.max_steps is not None and self.steps > self.max_steps:
            raise OutOfSteps()

    def candidates(self) -> Iterator[tuple[int, int]]:
        """(number, cell bit) of every open candidate, low numbers first."""
        for k in self.open_numbers():
            c = self.cand[k]
            while c:
                b = c & -c
                c ^= b
                yield k, b


class _Crowding:
    """How many open numbers hold each cell, kept as a binary count over all cells at
    once (``planes[i]``: the cells whose count has bit i), brought up to date from the
    numbers that changed (candidates only go; one that came back makes it anew)."""

    __slots__ = ("cand", "few", "open", "planes", "taken")

    def __init__(self, chains: Chains) -> None:
        self._make(chains)

    def _make(self, chains: Chains) -> None:
        self.open = chains.open_candidates()
        self.planes = [0] * max(3, (chains.n + 1).bit_length())
        planes = self.planes
        for c in self.open:
            carry = c
            for i, plane in enumerate(planes):  # add one to each cell of c
                planes[i] = plane ^ carry
                carry &= plane
                if not carry:
                    break
        self._few(chains)

    def update(self, chains: Chains) -> None:
        """Brought to the chains' candidates, if they changed since."""
        if self.taken == chains.taken and self.cand == chains.cand:
            return
        now = chains.open_candidates()
        planes = self.planes
        for before, after in zip(self.open, now, strict=True):
            if before != after:
                if after & ~before:
                    self._make(chains)
                    return
                borrow = before & ~after
                for i, plane in enumerate(planes):  # take one from each cell it lost
                    planes[i] = plane ^ borrow
                    borrow &= ~plane
                    if not borrow:
                        break
        self.open = now
        self._few(chains)

    def _few(self, chains: Chains) -> None:
        one, two, four, *rest = self.planes
        spare = chains.full
        for plane in rest:  # eight or more
            spare &= ~plane
        self.few = (spare & ~four & ~two, spare & ~four & ~(two & one), spare & ~four,
                    spare & ~(four & (two | one)))
        self.taken = chains.taken
        self.cand = chains.cand.copy()


class _Braid:
    """One "what if" with braids: suppose ``k0`` in cell ``z`` (on a copy of the
    candidates), follow the singles it forces in order of how many steps each rests on,
    and stop at the first step that leaves a variable empty: the shortest contradiction
    that step found within ``cap`` (``run``), whether something lay beyond the cap
    (``cut``), the steps followed (``steps``) and what the outcome rests on, for
    ``rating.LogicSolve`` to replay the trial while none of it changes: the numbers read
    (``read``, a bit each: those it narrowed or assumed, their neighbours, and the one or
    two numbers it found still in each cell it looked at one by one) and the cells it
    passed over (``passed``: cells that lost numbers but, by their count, kept two or more).

    Every removal made while one step is asserted rests on that step's reasons (a bit
    mask over the steps), so a number's reasons are the union over the steps that took
    cells from it, and a cell's the union over the steps that took it from any number:
    looked up, when a single or a dead end needs them, in what each step took (``held``:
    the numbers that lost its cell; ``gone``: the cells some number lost), or kept as a
    running union for the few numbers a step narrows otherwise (k, k-1 and k+1:
    ``why_number``).  The trial before (tests/braid_oracle.py) kept each removal in a list.

    Most cells a step takes from some number (10x10 experts: nine in ten) are held by so
    many numbers that they cannot be left with one: each number loses a cell at most once
    in a trial, so a cell held by m open numbers when the trial starts
    (``Chains.crowding``) that has lost fewer than m - 1 of them keeps two.  Only the
    others are looked at one by one; the rest are passed over, and their outcome (nothing)
    rests on their numbers, which only go: while none of those cells loses a number it
    stays (``passed``, which ``LogicSolve`` checks as a whip search's cells read).
    tests/test_braid_trial.py holds the trial to the oracle's answers and its reads to
    what the answers rest on; tests/test_braid_replay.py reruns every trial replayed."""

    __slots__ = ("assumed", "best", "cand", "cap", "cut", "gone", "held", "low0", "low1", "low2", "low3", "n",
                 "near", "numbers_of", "passed", "placed", "queue", "read", "seq", "steps", "why_number")

    def __init__(self, chains: Chains, numbers_of: dict[int, list[int]], cap: int) -> None:
        self.cand = chains.cand.copy()
        self.placed = chains.placed
        self.near = chains.near
        self.n = chains.n
        self.numbers_of = numbers_of
        self.cap = cap
        # The cells that may be left with one number or none after 0, 1, 2, 3 more losses
        # (by their count when the trial starts; any cell after four losses).
        self.low0, self.low1, self.low2, self.low3 = chains.crowding()
        self.why_number: dict[int, int] = {}  # number -> reasons of the cells it lost, but as a holder
        self.held: list[tuple[int, int]] = []  # (numbers that lost a step's cell, its reasons), steps with reasons
        self.gone: list[tuple[int, int]] = []  # (cells some number lost, reasons) of each step that has reasons
        self.assumed: dict[int, int] = {}  # number -> cell, in this trial
        self.steps: list[tuple[int, int]] = []  # (number, cell bit); step i has bit 1 << i
        self.queue: list[tuple[int, int, int, int, int]] = []
        self.seq = 0
        self.best: tuple[int, tuple[str, int]] | None = None  # (reasons, what ran empty)
        self.cut = False  # something lay beyond the cap
        self.read = 0
        self.passed = 0

    def run(self, k0: int, z: int) -> Chain | None:
        step: tuple[int, int, int] | None = (k0, z, 0)
        while step is not None:
            k, bit, reasons = step
            self.assumed[k] = bit
            # What k in ``bit`` rules out: k-1's and k+1's cells not next to it, k's other
            # cells, ``bit`` from the other numbers; each number narrowed, then each cell
            # that lost one, may be a dead end or a single.
            beside, gone_cells = self._beside(k, bit, reasons)
            gone_cells |= self._own(k, bit, reasons)
            read = self._holders(k, bit, reasons)
            if read:
                gone_cells |= bit
            self._numbers(beside)
            self.read |= self._cells(gone_cells, bit, reasons, read | 7 << (k - 1))  # k and its neighbours too
            if self.best is not None:
                why, empty = self.best
                steps = self.steps
                return Chain(k0, z, tuple(steps[i] for i in range(len(steps)) if why >> i & 1), empty)
            step = self._next()
        return None

    def _beside(self, k: int, bit: int, reasons: int) -> tuple[list[int], int]:
        """Take from k-1 and k+1 their cells not next to ``bit`` (nor ``bit``: the
        holders lose it, after): those narrowed, and the cells they lost."""
        cand, why_number, placed = self.cand, self.why_number, self.placed
        keep = self.near[bit] | bit
        narrowed: list[int] = []
        gone_cells = 0
        for j in (k - 1, k + 1):
            if 1 <= j <= self.n and not placed[j]:
                c = cand[j]
                gone = c & ~keep
                if gone:
                    cand[j] = c ^ gone
                    narrowed.append(j)
                    gone_cells |= gone
                    self._lose(gone)
                    if reasons:
                        why_number[j] = why_number.get(j, 0) | reasons
        return narrowed, gone_cells

    def _own(self, k: int, bit: int, reasons: int) -> int:
        """Take from k its other cells: the cells it lost (``bit`` itself, left to k
        alone, is looked at whenever it loses a number from now on)."""
        cand = self.cand
        gone = cand[k] & ~bit
        if gone:
            cand[k] = bit
            self._lose(gone)
            if reasons:
                self.why_number[k] = self.why_number.get(k, 0) | reasons
        self.low0 |= bit
        return gone

    def _lose(self, cells: int) -> None:
        """Each of ``cells`` lost one more number: one loss nearer being looked at."""
        low1, low2, low3 = self.low1, self.low2, self.low3
        self.low0 |= low1 & cells
        self.low1 = low1 | low2 & cells
        self.low2 = low2 | low3 & cells
        self.low3 = low3 | cells

    def _holders(self, k: int, bit: int, reasons: int) -> int:
        """Take ``bit`` from the other numbers that hold it, and look at each (in the
        order of the sweep's table, which is by number) for none left or one: the
        numbers narrowed (a bit each; none: no other number held it).  k-1 and k+1 are
        narrowed already, so each sees its cells as they end this step."""
        cand, assumed = self.cand, self.assumed
        read = 0
        for j in self.numbers_of.get(bit, ()):
            c = cand[j]
            if c & bit and j != k:
                c ^= bit
                cand[j] = c
                read |= 1 << j
                if not c & (c - 1):
                    if not c:
                        self._empty(self._why(j) | reasons, ("number", j))
                    elif j not in assumed:
                        self._push(j, c, self._why(j) | reasons)
        if reasons and read:
            self.held.append((read, reasons))
        return read

    def _why(self, j: int) -> int:
        """The reasons of number ``j``'s cells lost: the steps that took ``bit`` from it
        (``held``), and the others (``why_number``)."""
        why = self.why_number.get(j, 0)
        for numbers, reasons in self.held:
            if numbers >> j & 1:
                why |= reasons
        return why

    def _numbers(self, narrowed: list[int]) -> None:
        """k-1 and k+1, if narrowed: none left is a contradiction, one left a single."""
        cand, assumed = self.cand, self.assumed
        for j in narrowed:
            c = cand[j]
            if not c:
                self._empty(self._why(j), ("number", j))
            elif not c & (c - 1) and j not in assumed:
                self._push(j, c, self._why(j))

    def _cells(self, gone_cells: int, bit: int, reasons: int, read: int) -> int:
        """Each cell that lost a number and may have one or none left (not ``bit``: k
        holds it alone): none left is a contradiction, one left a single."""
        if reasons:
            self.gone.append((gone_cells, reasons))
        near_out = self.low0
        look = gone_cells & near_out & ~bit
        self.passed |= gone_cells & ~near_out
        cand, numbers_of = self.cand, self.numbers_of
        while look:
            b = look & -look
            look ^= b
            left = only = 0
            for j in numbers_of.get(b, ()):
                if cand[j] & b:
                    read |= 1 << j
                    left += 1
                    only = j
                    if left > 1:
                        break
            if not left:
                self._empty(self._why_cell(b), ("cell", b))
            elif left == 1 and only not in self.assumed:
                self._push(only, b, self._why_cell(b))
        return read

    def _why_cell(self, b: int) -> int:
        """The reasons of every step that took cell ``b`` from some number."""
        why = 0
        for cells, reasons in self.gone:
            if cells & b:
                why |= reasons
        return why

    def _push(self, k: int, bit: int, reasons: int) -> None:
        self.seq += 1
        heapq.heappush(self.queue, (reasons.bit_count() + 1, self.seq, k, bit, reasons))

    def _empty(self, reasons: int, empty: tuple[str, int]) -> None:
        """A variable with nothing left: the contradiction kept if it is the shortest
        within the cap (the first of equals)."""
        size = reasons.bit_count()
        if size + 1 > self.cap:
            self.cut = True
        elif self.best is None or size < self.best[0].bit_count():
            self.best = (reasons, empty)

    def _next(self) -> tuple[int, int, int] | None:
        """The next single to follow, fewest reasons first (the first found among equals),
        with its reasons and its own step; None when none is left within the cap."""
        queue, assumed, placed, cand = self.queue, self.assumed, self.placed, self.cand
        while queue:
            size, _, k, bit, reasons = heapq.heappop(queue)
            if size >= self.cap:
                self.cut = True
                return None
            if k in assumed or placed[k] or not cand[k] & bit:
                continue
            reasons |= 1 << len(self.steps)
            self.steps.append((k, bit))
            return k, bit, reasons
        return None


def _initial(puzzle: Puzzle) -> list[int]:
    """Each number's cells from the givens alone: a given's own cell, and otherwise the
    cells no farther from the nearest givens before and after it than the numbers are
    apart (farther givens add nothing: they are no closer than the nearest allow).
    Distances are counted on the whole grid, holes included, as Berthier's model does."""
    board = puzzle.board
    n = board.size
    balls = _grid_balls(board)
    index = board.index
    taken = 0
    at: list[int | None] = [None] * (n + 2)
    for cell, value in puzzle.givens.items():
        taken |= board.bit(cell)
        at[value] = index[cell]
    free = board.mask & ~taken
    cand = [0] * (n + 2)
    before: tuple[int, int] | None = None
    for k in range(1, n + 1):
        i = at[k]
        if i is not None:
            cand[k] = board.bit_of_index[i]
            before = (k, i)
        else:
            c = free
            if before is not None:
                c &= _ball(balls[before[1]], k - before[0])
            cand[k] = c
    after: tuple[int, int] | None = None
    for k in range(n, 0, -1):
        i = at[k]
        if i is not None:
            after = (k, i)
        elif after is not None:
            cand[k] &= _ball(balls[after[1]], after[0] - k)
    return cand


def _ball(rings: list[int], radius: int) -> int:
    return rings[min(radius, len(rings) - 1)]


@functools.lru_cache(maxsize=16)
def _grid_balls(board: Board) -> list[list[int]]:
    """For each cell, the board cells within each distance of it on the whole grid
    (holes included); the last entry of each list holds the whole board."""
    grid = Board.rectangle(board.rows, board.cols, board.adjacency)
    out = []
    for bit in board.bit_of_index:
        ball = bit
        rings = [ball & board.mask]
        while ball & board.mask != board.mask:
            ball |= grid.spread(ball)
            rings.append(ball & board.mask)
        out.append(rings)
    return out
