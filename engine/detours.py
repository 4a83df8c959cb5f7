"""Another way through one stretch of a solution: a cheap proof that a given must stay.

Taking a given away from a unique puzzle leaves its two nearest givens, a below it and
b above, with nothing fixed between them.  If the cells the solution walks from a to b
can be walked another way, from a's cell to b's and through exactly those cells, the
rest of the solution stays as it was and the puzzle without that given has a second
solution.  Most givens the generator tries to take away from a nearly minimal puzzle
fail this way (20x20: about four in five), and a short depth-first search over a dozen
cells finds the detour far faster than encoding the whole puzzle for the SAT solver.

The search is bounded by counted steps (``max_nodes``), never by the clock; when it
runs out or finds no detour it proves nothing, and the caller asks the full search.
"""

from __future__ import annotations

from .board import Board

MAX_NODES = 2_000  # search steps per stretch: a detour, when there is one, is found in far fewer
SWAP_RUN = 3  # runs of up to this many numbers are tried for a trade of cells


def has_detour(board: Board, stretch: list[int], pinned: frozenset[int] = frozenset(),
               max_nodes: int = MAX_NODES) -> bool:
    """Whether the cells of ``stretch`` (cell indices, in the solution's order from one
    given to another) hold a second path from its first cell to its last that visits
    each of them once, keeping the cells of ``pinned`` (positions in the stretch: the
    givens inside it) where they are.  False also when the step budget runs out first."""
    length = len(stretch)
    if length - len(pinned) < 4:
        return False  # two free cells at most: a second order would need a third
    neighbours = board.neighbours
    inside = set(stretch)
    links = {i: [j for j in neighbours[i] if j in inside] for i in stretch}
    # Position -> the cell that must be there (the ends and the givens between); a pinned
    # cell is visited at its own position only.
    fixed = {at: stretch[at] for at in (0, length - 1, *pinned)}
    held = set(fixed.values())
    end = stretch[-1]
    route = [stretch[0]]
    seen = {stretch[0]}
    nodes = 0
    # Depth-first, each level's choices in a fixed order: the same answer on every machine.
    stack = [iter(links[stretch[0]])]
    while stack:
        nodes += 1
        if nodes > max_nodes:
            return False
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            seen.discard(route.pop())
            continue
        must = fixed.get(len(route))
        if step in seen or (step != must if must is not None else step in held):
            continue
        route.append(step)
        if step == end:
            if route != stretch:
                return True
            route.pop()
            continue
        if not _all_linked(links, seen, step, end):
            route.pop()
            continue
        seen.add(step)
        stack.append(iter(links[step]))
    return False


def _all_linked(links: dict[int, list[int]], seen: set[int], at: int, end: int) -> bool:
    """No cell still to visit (other than the end) is left with fewer than two ways in
    and out among the cells not yet walked, counting the one we stand on."""
    for j in links[at]:
        if j in seen or j == end:
            continue
        free = 0
        for t in links[j]:
            if t not in seen or t == at:
                free += 1
                if free == 2:
                    break
        else:
            return False  # the loop ran out before a second way: fewer than two
    return True


def has_swap(board: Board, path: list[int], given: set[int], number: int, longest: int = SWAP_RUN) -> bool:
    """Whether a run of up to ``longest`` numbers holding ``number`` (not given) can trade
    cells with another run as long, in the same order or reversed, none of either given,
    and the path stay a path: a second solution far from ``number`` (on a king board most
    second solutions are two numbers swapped).  ``path[k - 1]`` is k's cell."""
    n = len(path)
    at = {cell: k for k, cell in enumerate(path, start=1)}
    neighbours = board.neighbours
    for size in range(1, longest + 1):
        for s in range(max(2, number - size + 1), min(number, n - size) + 1):
            run = range(s, s + size)
            if any(k in given for k in run):
                continue
            # The run's first number goes next to s-1's cell: the other run has an end there.
            for x in neighbours[path[s - 2]]:
                w = at[x]
                for t, backwards in ((w, False), (w - size + 1, True)):
                    if _swapped_is_path(board, path, given, s, t, size, backwards):
                        return True
    return False


def _swapped_is_path(board: Board, path: list[int], given: set[int], s: int, t: int, size: int,
                     backwards: bool) -> bool:
    """Whether trading the cells of s..s+size-1 and t..t+size-1 (one of them reversed)
    keeps every step between neighbours; runs that overlap or hold a given do not trade."""
    n = len(path)
    if t < 2 or t + size - 1 > n - 1 or (t < s + size and s < t + size):
        return False
    if any(k in given for k in range(t, t + size)):
        return False
    moved: dict[int, int] = {}
    for i in range(size):
        j = size - 1 - i if backwards else i
        moved[s + i] = path[t + j - 1]
        moved[t + j] = path[s + i - 1]
    touches = board.neighbours
    for k in moved:
        here = moved[k]
        for m in (k - 1, k + 1):
            if 1 <= m <= n and moved.get(m, path[m - 1]) not in touches[here]:
                return False
    return True
