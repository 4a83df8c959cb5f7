"""The braid trial as ``chains._Trial`` ran it before ``chains._Braid`` replaced it: every
removal kept with the steps it rests on, and each number's and cell's reasons looked up
from them.  tests/test_braid_trial.py holds the two to the same answers."""

from __future__ import annotations

import heapq

from engine.chains import Chain, Chains


def oracle(chains: Chains, numbers_of: dict[int, list[int]], cap: int, k0: int,
           z: int) -> tuple[Chain | None, bool, int, int]:
    """What ``chains._Braid`` gives for the same trial: chain, cut, steps, numbers read."""
    trial = _Trial(chains, numbers_of, cap)
    chain = trial.run(k0, z)
    return chain, trial.cut, len(trial.steps), trial.read_numbers


class _Trial:
    """One "what if": a copy of the candidates, the singles it forces, and for each
    removal the steps it rests on (a bit mask over the steps)."""

    def __init__(self, chains: Chains, numbers_of: dict[int, list[int]], cap: int) -> None:
        self.placed = chains.placed
        self.near = chains.near
        self.n = chains.n
        self.numbers_of = numbers_of
        self.cap = cap
        self.cand = chains.cand.copy()
        self.removed: dict[int, list[tuple[int, int]]] = {}  # number -> [(cells removed, reasons)]
        self.assumed: dict[int, int] = {}  # number -> cell, in this trial
        self.steps: list[tuple[int, int]] = []  # (number, cell bit), step i has bit 1 << i
        self.queue: list[tuple[int, int, int, int, int]] = []
        self.seq = 0
        self.best: tuple[int, tuple[str, int]] | None = None  # (reasons, what ran empty)
        self.cut = False  # something lay beyond the cap
        # The numbers whose candidates the trial's outcome rests on, a bit each: those it
        # narrowed or asserted, their neighbours, and the one or two numbers it found
        # still in each cell it looked at.  Candidates only ever go, so a number it found
        # missing from a cell stays missing: while none of these numbers changes, the
        # trial comes out the same (``rating.LogicSolve`` replays it).
        self.read_numbers = 0

    def run(self, k0: int, z: int) -> Chain | None:
        self._assert(k0, z, 0)
        queue, cand, assumed, placed = self.queue, self.cand, self.assumed, self.placed
        while self.best is None and queue:
            size, _, k, bit, reasons = heapq.heappop(queue)
            if size >= self.cap:
                self.cut = True
                break
            if k in assumed or placed[k] or not cand[k] & bit:
                continue
            index = len(self.steps)
            self.steps.append((k, bit))
            self._assert(k, bit, reasons | (1 << index))
        if self.best is None:
            return None
        reasons, empty = self.best
        used = tuple(self.steps[i] for i in range(len(self.steps)) if reasons >> i & 1)
        return Chain(k0, z, used, empty)

    def _assert(self, k: int, bit: int, reasons: int) -> None:
        self.assumed[k] = bit
        touched, gone_cells = self._propagate(k, bit, reasons)
        read = 7 << (k - 1)  # k and its neighbours
        cand, assumed = self.cand, self.assumed
        for j in touched:
            read |= 1 << j
            c = cand[j]
            if not c:
                self._contradiction(self._why_number(j), ("number", j))
            elif not c & (c - 1) and j not in assumed:
                self._push(j, c, self._why_number(j))
        numbers_of = self.numbers_of
        while gone_cells:  # each cell that lost a number: empty is a contradiction,
            # one number left a single (inlined: the hottest loop of a trial)
            b = gone_cells & -gone_cells
            gone_cells ^= b
            left = only = 0
            for j in numbers_of.get(b, ()):
                if cand[j] & b:
                    read |= 1 << j
                    left += 1
                    only = j
                    if left > 1:
                        break
            if not left:
                self._contradiction(self._why_cell(b, None), ("cell", b))
            elif left == 1 and only not in assumed:
                self._push(only, b, self._why_cell(b, only))
        self.read_numbers |= read

    def _propagate(self, k: int, bit: int, reasons: int) -> tuple[list[int], int]:
        """Remove every candidate linked to k in ``bit``: the numbers touched, and the cells
        some number lost."""
        cand, removed, numbers_of = self.cand, self.removed, self.numbers_of
        drops: list[tuple[int, int]] = [(k, ~bit)]
        drops += [(j, bit) for j in numbers_of.get(bit, ()) if j != k]
        near = self.near[bit]
        for j in (k - 1, k + 1):
            if 1 <= j <= self.n and not self.placed[j]:
                drops.append((j, ~near))
        touched: list[int] = []
        gone_cells = 0
        for j, cells in drops:
            c = cand[j]
            gone = c & cells
            if gone:
                cand[j] = c ^ gone
                removed.setdefault(j, []).append((gone, reasons))
                touched.append(j)
                gone_cells |= gone
        return touched, gone_cells

    def _why_number(self, k: int) -> int:
        reasons = 0
        for _, r in self.removed.get(k, ()):
            reasons |= r
        return reasons

    def _why_cell(self, b: int, keep: int | None) -> int:
        reasons = 0
        removed = self.removed
        for j in self.numbers_of.get(b, ()):
            if j == keep:
                continue
            for gone, r in removed.get(j, ()):
                if gone & b:
                    reasons |= r
                    break
        return reasons

    def _push(self, k: int, bit: int, reasons: int) -> None:
        self.seq += 1
        heapq.heappush(self.queue, (reasons.bit_count() + 1, self.seq, k, bit, reasons))

    def _contradiction(self, reasons: int, empty: tuple[str, int]) -> None:
        if reasons.bit_count() + 1 > self.cap:
            self.cut = True
            return
        if self.best is None or reasons.bit_count() < self.best[0].bit_count():
            self.best = (reasons, empty)

