"""A puzzle's rating on Berthier's scale: the longest chain of reasoning its solution needs.

The solve runs the simplest reasoning first (``chains.py`` holds the rules): singles
(length 0), then every chain of length 1 (the neighbour ranges among them) until none is
left, and only then chains of length 2, and so on; after any progress it goes back to
the shortest.  The rating's whole part is the longest chain length it had to use, so it
reads on the same scale as Berthier's W rating (W0 = singles).  Its tenths say how much
work was done at that length: 4.0 is one chain of length 4, 4.9 dozens.

Chains are whips unless ``whips=False`` asks for braids (``chains.py``: faster, a little
stronger, not Berthier's measure).  A puzzle that whips up to ``MAX_CHAIN`` cannot
finish needs a guess: its rating has ``solved`` False.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .board import Puzzle
from .chains import Broken, Chain, Chains, Deduction, OutOfSteps
from .propagation import TimeUp
from .solver import SolverGaveUp
from .whips import few_table, still
from .words import seconds as seconds_text

MAX_CHAIN = 12  # longer "what if"s than this are guessing, not reasoning
# How a trial that found nothing ended (``LogicSolve.known``): run to its end (nothing at
# any longer cap either: dead), cut by the whip search's state budget (cut at the same
# layer, with the same counted steps, at any longer cap: replayed there too, but never
# dead, since a dead trial is skipped without counting its steps), or cut by its cap.
_WHOLE, _BUDGET, _CAPPED = 0, 1, 2
# A known trial (``LogicSolve.known``): cap, how it ended, counted steps, numbers read whole,
# crowded cells passed over, epoch, cells read, deepest, numbers passed over.
_Known = tuple[int, int, int, int, tuple[tuple[int, int], ...], int, int, int, int]


@dataclass(frozen=True)
class Rating:
    """The longest chain a puzzle needs, the rating number, and how often each length was used."""

    length: int
    uses: dict[int, int] = field(default_factory=dict)  # chain length -> candidates it ruled out
    solved: bool = True  # False: chains up to the cap leave it unfinished (it needs a guess)
    empty: int = 0  # cells not given
    size: int = 0

    @property
    def score(self) -> float:
        """The rating as one number: the chain length, and a tenth per step of work there."""
        if self.length == 0:
            tenths = min(9, (5 * self.empty) // max(1, self.size))
        else:
            top = self.uses.get(self.length, 1)
            tenths = min(9, int(1.3 * math.log2(max(1, top))))
        return self.length + tenths / 10

    def techniques(self) -> list[tuple[int, int]]:
        """(chain length, how often) from singles (0: numbers placed) up to the longest."""
        return [(0, self.empty), *sorted(self.uses.items())]

    @property
    def text(self) -> str:
        """"4.2", or "over 12" for a puzzle that needs a guess."""
        return f"{self.score:.1f}" if self.solved else f"over {MAX_CHAIN}"


class Unsolvable(ValueError):
    """The givens contradict each other."""


class StepsRanOut(SolverGaveUp):
    """``rated`` went past its ``max_steps``; ``solve`` is where it stopped.  That state is
    sound (the trial that ran out is never applied), so a caller may give the puzzle more
    givens and go on from there (``reduction.add_back``'s ``stuck``) after raising
    ``solve.chains.max_steps``."""

    def __init__(self, message: str, solve: LogicSolve) -> None:
        super().__init__(message)
        self.solve = solve


def rate(puzzle: Puzzle, cap: int = MAX_CHAIN, max_seconds: float | None = None, whips: bool = True,
         max_steps: int | None = None) -> Rating:
    """Rate ``puzzle``: the shortest chain length that, with singles, solves it.

    Raises Unsolvable when the givens contradict each other, and SolverGaveUp past
    ``max_steps`` counted steps (``Chains.steps``: the same on any machine) or past
    ``max_seconds`` (a time limit: whether it passes depends on the machine)."""
    return rated(puzzle, cap, max_seconds, whips, max_steps)[0]


def rated(puzzle: Puzzle, cap: int = MAX_CHAIN, max_seconds: float | None = None, whips: bool = True,
          max_steps: int | None = None) -> tuple[Rating, LogicSolve]:
    """``rate``, and the solve where it ended: a caller that gives a puzzle the chains
    could not finish more givens (``reduction.add_back``) goes on from there instead of
    solving the same puzzle again."""
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    solve: LogicSolve | None = None
    try:
        solve = LogicSolve(puzzle, deadline, whips, max_steps)
        solve.run(cap)
    except TimeUp:
        assert max_seconds is not None
        raise SolverGaveUp(f"gave up after {seconds_text(max_seconds, 3)}") from None
    except OutOfSteps:
        if solve is None:
            raise SolverGaveUp(f"gave up after {max_steps} steps") from None
        raise StepsRanOut(f"gave up after {max_steps} steps", solve) from None
    except Broken as why:
        raise Unsolvable(f"the puzzle has no solution: {why}") from None
    return solve.rating(), solve


def solves_within(puzzle: Puzzle, cap: int, deadline: float | None = None,
                  number: int | None = None, cell_bit: int = 0, whips: bool = True) -> bool:
    """Whether singles and chains up to ``cap`` solve ``puzzle`` (or, with ``number``,
    place that number in ``cell_bit``; once it is placed the rest follows as before)."""
    try:
        solve = LogicSolve(puzzle, deadline, whips)
        if number is None:
            return solve.run(cap)
        return solve.run(cap, lambda ch: ch.placed[number] == cell_bit)
    except Broken:
        return False


class LogicSolve:
    """A solve by the simplest reasoning first, keeping what it used."""

    def __init__(self, puzzle: Puzzle, deadline: float | None = None, whips: bool = True,
                 max_steps: int | None = None) -> None:
        self.chains = Chains(puzzle, deadline, whips, max_steps)
        self.uses: dict[int, int] = {}
        self.deductions: list[Deduction] = self.chains.singles()
        self.given = len(puzzle.givens)
        self.size = puzzle.size
        self.longest = 0
        # Trials that ran out of singles before the cap, since the candidates last changed:
        # a longer cap finds nothing new for them.
        self.dead: set[tuple[int, int]] = set()
        # Trials that found nothing, by candidate: (cap, how it ended (``_WHOLE``, ``_BUDGET``,
        # ``_CAPPED``), counted steps, numbers read,
        # crowded cells passed over: ``Chains.last_trial``).  While what its outcome rests
        # on stays, such a trial finds nothing again at the same cap, or at any longer one
        # if the cap did not cut it: it is counted as run (``Chains.replay``) instead of
        # run.  A sweep after an elimination tried every candidate again, though one
        # elimination reaches few of them: the same eliminations, rating and counted
        # steps as before, sooner.
        # Each entry also holds the epoch it was made in: candidates are compared with
        # how they were (``_seen``) after each elimination, the numbers changed and the
        # cells they lost are kept by epoch (``_changed``), and the entries are checked
        # once a sweep.  Last, a whip search's finer reads (``Chains.last_reach``): a
        # changed number it did not read whole leaves it as it was unless it lost one of
        # those cells or, if the search passed it over by its count, has ``deepest`` cells
        # or fewer now (``_stale``).
        self.known: dict[tuple[int, int], _Known] = {}
        self._seen = self.chains.open_candidates()
        self._low: list[int] | None = None  # ``whips.few_table(_seen)``, made when first needed
        self._epoch = 0
        self._checked = 0  # the epoch the entries were last checked in
        self._changed: list[tuple[int, int]] = []  # (numbers changed, cells lost) in each epoch since then
        self._ranged: tuple[tuple[int, ...], tuple[int, ...]] | None = None  # candidates ranges last left alone

    def run(self, cap: int, done: Callable[[Chains], bool] | None = None) -> bool:
        """Solve with chains up to ``cap``; True when solved (or ``done`` says so)."""
        ch = self.chains
        finished = done or (lambda c: c.solved)
        if cap < 1:
            return finished(ch)
        level = 2  # length 1 is ranges and cell_ranges, below
        while not finished(ch):
            if self._ranges():
                continue
            if level > cap:
                return False
            if self._sweep(level, first=False):
                continue  # the same length again: shorter chains are found there too,
                # and the rating is the longest one used
            level += 1
        return True

    def close(self, cap: int) -> bool:
        """Apply chains up to ``cap`` until none is left, longest first, and say whether
        that solved the puzzle.  Where the chains end (the candidates left) is all a
        caller learns: no rating, since the simplest chains are not tried first.  Far
        fewer sweeps than ``run`` (one per change instead of one per change and length),
        so the cheaper way to ask whether chains up to ``cap`` finish a puzzle: giving
        numbers back with braids (``reduction.add_back``) a third to a half cheaper.

        With whips as Berthier defines them the end would not depend on the order; a
        braid as ``chains._Braid`` finds it is measured by the steps that trial happened
        to use, so now and then the order does change the end (seen at cap 3 on an 8x8
        king minimal puzzle; at 4 and 12, the caps the generator asks, on none of the
        puzzles tried, nor did any of 50 generated 10x10 and 14x14 puzzles change)."""
        ch = self.chains
        while not ch.solved:
            if self._ranges():
                continue
            if not self._sweep(cap, first=False):
                return False
        return True

    def step(self, cap: int, first: bool = True) -> int | None:
        """The simplest progress from here: ranges (length 1), or else the shortest chains
        up to ``cap`` (the first one found, or with ``first`` False every one of that
        length in one sweep; their eliminations and the singles they allow are added to
        ``deductions``).  The length used, or None when nothing up to ``cap`` helps."""
        if self._ranges():
            return 1
        for level in range(2, cap + 1):
            if self._sweep(level, first=first):
                return level
        return None

    def _ranges(self) -> bool:
        ch = self.chains
        # Ranges are a fixed point of the candidates: when they last dropped nothing and
        # the candidates are as they were then (``run`` going on to a longer length after
        # a sweep that found nothing), they drop nothing again.
        now = (tuple(ch.cand), tuple(ch.placed))
        if now == self._ranged:
            return False
        dropped = ch.ranges() + ch.cell_ranges()
        self._ranged = None if dropped else now
        if dropped:
            self.dead.clear()
            self._used(1, dropped)
            self.deductions.append(Deduction("ranges", 0, -1, 1))
            self.deductions.extend(ch.singles())
        return bool(dropped)

    def _sweep(self, level: int, first: bool) -> int:
        ch = self.chains
        numbers_of = {} if ch.whips else ch.cells_numbers()  # braids look numbers up by cell, whips by tables
        found = 0
        dead = self.dead
        self._forget_changed()
        known_of = self.known
        dirty = lost = 0  # numbers changed and cells lost in this sweep: the entries it looks up were made before it
        # The whip searches' tables, fetched again after each change of the candidates.
        tables = ch.whip_tables() if ch.whips else None
        cand, placed = ch.cand, ch.placed
        for key in list(ch.candidates()):  # (number, cell bit): the key of ``dead`` and ``known`` too
            k, bit = key
            if placed[k] or not cand[k] & bit or key in dead:
                continue
            known = known_of.get(key)
            if known is not None and (known[0] == level or (known[1] != _CAPPED and level > known[0])) and \
                    not (dirty and self._stale(known, dirty, lost)) and \
                    (not known[4] or tables is None or still(known[4], tables)):
                ch.replay(known[2])
                if known[1] == _WHOLE:
                    dead.add(key)
                continue
            chain, cut = ch.trial(k, bit, level, numbers_of, tables)
            if chain is None:
                how = _WHOLE if not cut else _CAPPED if ch.last_capped else _BUDGET
                known_of[key] = (level, how, *ch.last_trial, self._epoch, *ch.last_reach)
                if not cut:
                    dead.add(key)
                continue
            ch.eliminate(k, bit)
            found += 1
            self._used(chain.length, 1)
            self.deductions.append(Deduction("chain", k, ch.cell_index(bit), chain.length, chain))
            self.deductions.extend(ch.singles())
            if first:
                break
            numbers, cells = self._changes()
            dirty |= numbers
            lost |= cells
            if ch.whips:
                tables = ch.whip_tables()
        if found:
            dead.clear()  # the candidates changed: every trial may go further now
        return found

    def _changes(self) -> tuple[int, int]:
        """The numbers whose candidates changed since the last look (a bit each) and the
        cells they lost, noted in a new epoch."""
        now = self.chains.open_candidates()
        seen = self._seen
        if now == seen:
            return 0, 0
        self._epoch += 1
        numbers = cells = 0
        for k in [k for k, before, after in zip(range(len(now)), seen, now, strict=True) if before != after]:
            before, after = seen[k], now[k]
            if after & ~before:  # a candidate back (never, in a solve): forget them all
                self.known.clear()
            numbers |= 1 << k
            cells |= before & ~after
        self._seen = now
        self._low = None
        self._changed.append((numbers, cells))
        return numbers, cells

    def _stale(self, known: _Known, numbers: int, cells: int) -> bool:
        """Whether a known trial may end otherwise after ``numbers`` changed and lost
        ``cells``: a number it read whole changed, or one lost a cell whose numbers it
        read, or a changed number it passed over by its count now has few enough cells
        that it would have looked at it (``WhipSearch.deepest``)."""
        if known[3] & numbers or known[6] & cells:
            return True
        passed = numbers & known[8]
        if not passed:
            return False
        if self._low is None:
            self._low = few_table(self._seen)
        return bool(passed & self._low[known[7]])

    def _forget_changed(self) -> None:
        """Drop the known trials that read a number whose candidates changed since they
        were made."""
        self._changes()
        changed, checked = self._changed, self._checked
        if changed:
            # after[e], lost[e]: the numbers changed and the cells lost after epoch e
            # (since the last check)
            after = [0] * (len(changed) + 1)
            lost = [0] * (len(changed) + 1)
            for e in range(len(changed) - 1, -1, -1):
                after[e] = after[e + 1] | changed[e][0]
                lost[e] = lost[e + 1] | changed[e][1]
            stale = self._stale
            kept = {}
            for key, known in self.known.items():
                # Made before the last check: any change since counts; made after it, only
                # the changes after it was made.
                e = 0 if known[5] <= checked else known[5] - checked
                numbers = after[e]
                # (``_stale``'s first tests written out: most entries end there)
                if numbers and (known[3] & numbers or known[6] & lost[e] or
                                (numbers & known[8] and stale(known, numbers, lost[e]))):
                    continue
                kept[key] = known
            self.known = kept
        self._changed = []
        self._checked = self._epoch

    def _used(self, length: int, times: int) -> None:
        self.uses[length] = self.uses.get(length, 0) + times
        self.longest = max(self.longest, length)

    def rating(self) -> Rating:
        solved = self.chains.solved
        return Rating(self.longest, dict(sorted(self.uses.items())), solved,
                      self.size - self.given, self.size)


__all__ = ["MAX_CHAIN", "Chain", "LogicSolve", "Rating", "Unsolvable", "rate", "rated", "solves_within"]
