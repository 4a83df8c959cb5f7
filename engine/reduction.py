"""Removing givens from a full solution: the three ways the generator makes a puzzle.

- ``by_chains``: take givens away in random order while singles and chains no longer
  than the level allows still solve the puzzle; each check stops as soon as the removed
  given is deduced again (the rest then follows as before), so most are short.  Easy
  and medium stop at a share of the cells, unless the puzzle is still too easy there.
- ``to_minimal``: take givens away while the solution stays unique, whatever reasoning
  that needs: first while the quickest rule tier (``tiers.py``) proves it, then while the
  full search finds no other solution within a step budget (a check that runs out keeps
  its given, so uniqueness is never assumed); a given whose stretch of the path can be
  walked another way (``detours.py``) stays without asking the full search.  The full
  search is one incremental SAT solver for the whole run (``incremental.py``): the
  givens are assumptions, and the encoding is made again only every few checks.
- ``add_back``: give back, one at a time, the number the chains know least about, until
  chains up to the level's longest solve the puzzle: a minimal puzzle that needs more
  than reasoning becomes one that reasoning finishes (each given back makes it easier,
  so only a few are tried).

What each function decides is bounded by counted steps only (the chains' cap, the
search's ``_SEARCH_CHECK_NODES``), so it is the same on any machine.  ``deadline`` is the
generator's outer time limit (a ``time.perf_counter()`` value): past it every function
raises propagation's TimeUp, never returns what a search cut short decided; the
generator turns that into its own "gave up" message.
"""

from __future__ import annotations

import bisect
import random
import time

from .board import Board, Cell, Grid, Puzzle
from .chains import Chains
from .detours import has_detour, has_swap
from .incremental import UniquenessChecks
from .propagation import Propagator, TimeUp
from .rating import LogicSolve, rate, solves_within
from .solver import solve, start_state

_QUICK_TIER = 1  # neighbour ranges and singles: tiers 2-3 prove a little more, at twice the cost
_SEARCH_CHECK_NODES = 1000  # per "another solution?" check; past it the given stays
_DETOUR_WIDTH = 2  # detours looked for across this many givens on either side, at most


def _check(deadline: float | None) -> None:
    if deadline is not None and time.perf_counter() > deadline:
        raise TimeUp()


def removal_order(board: Board, solution: Grid, rng: random.Random) -> list[Cell]:
    """The order givens are taken away in: the only thing here drawn from ``rng`` (one
    shuffle at the start), so the generator knows the random state after it at once."""
    n = board.size
    order = [cell for cell in board.cells if solution[cell] not in (1, n)]
    rng.shuffle(order)
    return order


def by_chains(board: Board, solution: Grid, longest: int, lowest: int, keep: int, rng: random.Random,
              deadline: float | None) -> Grid:
    """Remove givens while chains up to ``longest`` solve the puzzle, stopping at ``keep``
    givens unless the puzzle does not yet need a chain of ``lowest`` steps: then on."""
    givens = dict(solution)
    order = removal_order(board, solution, rng)
    for cell in order:
        if len(givens) <= keep:
            if rate(Puzzle(board, givens), cap=longest, max_seconds=_left(deadline)).length >= lowest:
                break
            keep = 0  # still too easy: go on to the end of the list
        _check(deadline)
        trial = {c: v for c, v in givens.items() if c != cell}
        if solves_within(Puzzle(board, trial), longest, deadline, solution[cell], board.bit(cell), whips=False):
            givens = trial
    return givens


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.perf_counter())


def to_minimal(board: Board, solution: Grid, rng: random.Random, deadline: float | None,
               *, incremental: bool = True) -> Grid:
    """Remove givens while the solution provably stays the only one."""
    givens = dict(solution)
    order = removal_order(board, solution, rng)
    index = board.index
    path = [index[c] for c, _ in sorted(solution.items(), key=lambda item: item[1])]  # path[k - 1]: k's cell
    # The quick tier's rules for every trial of the first pass: at tier 1 a Propagator
    # keeps nothing from one propagation to the next (its memo serves the path rules of
    # tier 2 and up), so one does for all of them (``tiers.logic_solve`` made one a trial).
    rules = Propagator(board, level=_QUICK_TIER, longest_listed=board.size)
    rules.deadline = deadline
    numbers = list(range(1, board.size + 1))
    for cell in order:
        _check(deadline)
        trial = {c: v for c, v in givens.items() if c != cell}
        # No cheap look for a second way first (``_second_way``, as the SAT pass below
        # has): where there is one no sound rule can finish the puzzle, so the rules
        # alone decide the same, and the look found one in 4% of these trials at a cost
        # of half the rules' own (10x10 experts).
        cand = start_state(Puzzle(board, trial))
        if rules.propagate(cand, numbers.copy()) is None and all(not c & (c - 1) for c in cand[1:-1]):
            givens = trial
    rest = [cell for cell in order if cell in givens]
    checks = UniquenessChecks(board, solution) if incremental else None
    try:
        for at, cell in enumerate(rest):
            _check(deadline)
            trial = {c: v for c, v in givens.items() if c != cell}
            if _second_way(board, path, trial, solution[cell]):
                continue  # a second solution: the given stays
            if checks is not None:
                another = checks.another(givens, rest[at + 1:], cell, _SEARCH_CHECK_NODES)
            else:
                another = fresh_another(board, solution, trial, cell, deadline)
            _check(deadline)  # a search the clock stopped proves nothing: never let it decide
            if another is False:
                givens = trial
    finally:
        if checks is not None:
            checks.close()
    return givens


def fresh_another(board: Board, solution: Grid, trial: Grid, cell: Cell, deadline: float | None) -> bool | None:
    """Whether ``trial`` has a solution without ``cell``'s number there, by a fresh
    propagation, encoding and search: True, False, or None past the step budget."""
    other = solve(Puzzle(board, trial), max_nodes=_SEARCH_CHECK_NODES, max_seconds=_left(deadline),
                  forbid={cell: solution[cell]}, prefer=solution)
    if not other.complete and not other.solutions:
        return None
    return bool(other.solutions)


def _second_way(board: Board, path: list[int], trial: Grid, number: int) -> bool:
    """Whether the puzzle ``trial`` (the givens without ``number``) is seen to have a
    second solution by a cheap look (``detours.py``): a run holding ``number`` trading
    cells with another, or a detour around it."""
    return has_swap(board, path, set(trial.values()), number) or \
        _detour(board, path, sorted(trial.values()), number)


def _detour(board: Board, path: list[int], given: list[int], number: int) -> bool:
    """Whether the path around ``number`` (not given) can be walked another way: between
    the givens next to it, or else across the givens on either side of those
    (``detours.py``); ``given`` holds the given numbers in order, ``path[k - 1]`` k's cell."""
    at = bisect.bisect(given, number)
    for wider in range(_DETOUR_WIDTH + 1):
        low, high = given[max(0, at - 1 - wider)], given[min(len(given) - 1, at + wider)]
        pinned = frozenset(v - low for v in given[max(0, at - wider):at + wider] if low < v < high)
        if has_detour(board, path[low - 1:high], pinned):
            return True
    return False


def most_telling(chains: Chains) -> int:
    """The open number with the most cells left (the lowest of those): given back, it
    tells the chains the most."""
    return max(chains.open_numbers(), key=lambda j: (chains.cand[j].bit_count(), -j))


def add_back(board: Board, solution: Grid, givens: Grid, longest: int, most: int,
             deadline: float | None) -> Grid | None:
    """Give back at most ``most`` numbers until chains up to ``longest`` solve the
    puzzle; None if that is not enough.  The number given back is the one with the most
    cells left when the chains are stuck: it tells the most.  (The generator's refit
    gives back with whips instead, rating each puzzle: ``generator._refitted``.)"""
    givens = dict(givens)
    where = {k: cell for cell, k in solution.items()}
    logic = LogicSolve(Puzzle(board, givens), deadline, whips=False)
    chains = logic.chains
    added = 0
    # Braids only answer whether the puzzle is finished and, if not, where they end:
    # closed at the longest length at once.
    while not logic.close(longest):
        if added == most:
            return None
        k = most_telling(chains)
        cell = where[k]
        givens[cell] = k
        chains.cand[k] = board.bit(cell)  # known true, so the state stays sound
        chains.singles()
        logic.dead.clear()
        added += 1
    return givens
