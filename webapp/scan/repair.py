"""Mending a reading the engine cannot solve, from the numbers its doubtful cells may hold.

Two givens ``a`` and ``b`` of a Hidato lie at most ``|a - b|`` steps apart on the board
(the path from one to the other takes one step per number), and no number is given
twice.  A misread number breaks these rules with many of the givens around it: a blurred
187 read as 107 on a board where 106 lies eleven steps away.  So:

1. the givens that break the rules are set aside one by one, the one that breaks them
   with the most others first (the least sure of equals), until the rest keep them all
   (at most a quarter of the givens: a reading worse than that is not mended);
2. each cell set aside then takes, of its own reading and the other numbers it may hold
   (``DigitReading.others``: the cell's other readings and their digits' runners-up), the
   surest that keeps the rules with every given placed so far, surest cells first;
3. a cell nothing fits, not even its own reading, is weighed against the givens it
   clashes with: surer than all of them, it was likely right and they wrong (two misread
   numbers outvote one right one in step 1), so they are set aside and mended in its
   place (a few rounds); else, when read unsurely, it is left out, and the engine
   points at its cell (a sure reading is never left out: the mending fails instead);
4. but first, a small number may have lost a digit (143 read 13, the two 1s of 112
   merged into one): the number with one digit put back that fits every given is taken,
   or of several that fit, the one the model's readings of the cell find far likelier
   (``weigh``: CTC's likelihood of each text), else none.

Distances are counted on the board itself (holes are walked round), with the moves of
its adjacency; on a Numbrix's (a rook's steps) a path between two cells also keeps the
parity of the shortest one, so two givens must differ by the steps between them plus an
even number (a 46 read 45 beside 44 breaks no distance, only that parity).  A mending
that still breaks a rule is dropped.  Nothing here is sure: the reader keeps a mended
puzzle when the engine finds it one solution, or when the reading broke the rules (so
it had no solution) and the engine does not refute the mended one (on a large board its
check may run out of time).  Pure Python, no OpenCV.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from engine import Board, Cell

MOST_SET_ASIDE = 0.25  # of the givens: a reading that breaks the rules in more places is not mended here
KEEP = 0.8  # a reading at least this sure (the judge's DOUBT) is never left out: the mending fails instead
ROUNDS = 3  # times the givens a stuck reading clashes with are set aside in its place
FEWEST_GIVENS = 6  # a reading with fewer givens says too little about where its numbers lie
ODD_ONES = 0.1  # of the givens: a Numbrix read with more of them off its parity is not taken for one
PUT_BACK = 0.5  # how much of its reading's sureness a number with a digit put back keeps

CLEAR = 10.0  # a number put back in a cell is taken over others that fit when the model finds it this much likelier

Givens = dict[Cell, tuple[int, float]]  # {cell: (number, confidence)}
# How likely the model finds each of these numbers in a cell (``digits_model.likelihood``).
Weigh = Callable[[Cell, Sequence[int]], Sequence[float]]


def conflicts(board: Board, givens: Mapping[Cell, tuple[int, float]],
              far: Mapping[Cell, Mapping[Cell, int]] | None = None) -> dict[Cell, set[Cell]]:
    """For each given, the givens it cannot stand with: the same number, or farther apart
    on the board than their numbers are (``far``: the steps between cells, when known)."""
    far = far if far is not None else _distances(board, list(givens))
    out: dict[Cell, set[Cell]] = {cell: set() for cell in givens}
    cells = list(givens)
    for k, a in enumerate(cells):
        for b in cells[k + 1:]:
            if not _fits(far, a, givens[a][0], b, givens[b][0]):
                out[a].add(b)
                out[b].add(a)
    return out


def repair(board: Board, givens: Mapping[Cell, tuple[int, float]],
           others: Mapping[Cell, Sequence[tuple[int, float]]], weigh: Weigh | None = None) -> Givens | None:
    """The givens with their rule-breakers mended (see the module's docstring), the cells
    left out missing; None when nothing breaks the rules, or too much does, or the mended
    givens still break them.  ``weigh`` tells which of several numbers with a digit put
    back the model saw in a cell."""
    n = board.size
    kept: Givens = {c: g for c, g in givens.items() if 1 <= g[0] <= n}
    if len(kept) < FEWEST_GIVENS:
        return None
    far = _distances(board, list(givens) + [c for c in others if c not in givens])
    clash = conflicts(board, kept, far)
    if not any(clash.values()):
        return None
    aside: list[Cell] = []
    while True:
        worst = max(clash, key=lambda c: (len(clash[c]), -kept[c][1]))
        if not clash[worst]:
            break
        if len(aside) >= MOST_SET_ASIDE * len(givens):
            return None
        aside.append(worst)
        for other in clash.pop(worst):
            clash[other].discard(worst)
        del kept[worst]
    mended = _rounds(far, kept, aside, givens, others, n, weigh)
    if any(not _fits(far, a, va, b, vb) for a, (va, _) in mended.items() for b, (vb, _) in mended.items() if a < b):
        return None  # still breaking the rules after the rounds: nothing believable to offer
    # Readings outside 1..N stay as they were (the judge leaves them out and doubts them).
    mended.update({c: g for c, g in givens.items() if not 1 <= g[0] <= n})
    changed = any(c not in mended or mended[c][0] != givens[c][0] for c in givens)
    return mended if changed else None


def _rounds(far: Mapping[Cell, Mapping[Cell, int]], kept: Givens, aside: list[Cell],
            givens: Mapping[Cell, tuple[int, float]], others: Mapping[Cell, Sequence[tuple[int, float]]],
            n: int, weigh: Weigh | None = None) -> Givens:
    """The cells set aside mended (``_mend``), and mended again while some still clash."""
    mended = _mend(far, kept, aside, givens, others, n)
    for _ in range(ROUNDS):
        # A reading set aside that nothing fits in its place, not even itself: when it is
        # surer than every given it clashes with, it was likely right and they wrong (two
        # misread neighbours outvote one right number), so they are set aside in its place
        # and mended again; otherwise, read unsurely, it is left out (a blurred 112 read
        # as 12, no other number of it fitting), and the engine points at its cell.  A
        # sure reading is never left out: its clash may be the board's (a cell missed).
        blamed: set[Cell] = set()
        for cell in [c for c in aside if c in mended]:
            value, sure = mended[cell]
            against = [o for o, (v, _) in mended.items() if o != cell and not _fits(far, cell, value, o, v)]
            if not against:
                continue
            if all(mended[o][1] < sure for o in against):
                blamed.update(against)
            elif sure < KEEP:
                del mended[cell]
                put_back = _put_back(far, cell, value, mended, n, weigh)
                if put_back is not None:
                    mended[cell] = (put_back, sure * PUT_BACK)
        if not blamed:
            break
        kept = {c: g for c, g in mended.items() if c not in blamed}
        aside = sorted(blamed)
        mended = _mend(far, kept, aside, givens, others, n)
    return mended


def _mend(far: Mapping[Cell, Mapping[Cell, int]], kept: Givens, aside: Sequence[Cell],
          givens: Mapping[Cell, tuple[int, float]], others: Mapping[Cell, Sequence[tuple[int, float]]],
          n: int) -> Givens:
    """``kept`` with each cell set aside given the surest of its reading and its others
    that fits every given placed so far (surest cells first), or its reading when none does."""
    mended: Givens = dict(kept)
    choices = {cell: [givens[cell], *others.get(cell, ())] for cell in aside}
    for cell in sorted(aside, key=lambda c: -max(sure for _, sure in choices[c])):
        for value, sure in sorted(choices[cell], key=lambda choice: -choice[1]):
            if 1 <= value <= n and all(_fits(far, cell, value, c, v) for c, (v, _) in mended.items()):
                mended[cell] = (value, sure)
                break
        else:
            mended[cell] = givens[cell]
    return mended


def rook_parity(givens: Mapping[Cell, tuple[int, float]]) -> bool:
    """Whether the givens keep a Numbrix's parity (on squares walked by a rook's steps,
    ``row + column + number`` has one parity all along the path), all but a few that
    may be misread (``ODD_ONES``); a Hidato's givens split about evenly."""
    if len(givens) < FEWEST_GIVENS:
        return False
    odd = sum((r + c + value) % 2 for (r, c), (value, _) in givens.items())
    return min(odd, len(givens) - odd) <= ODD_ONES * len(givens)


def _put_back(far: Mapping[Cell, Mapping[Cell, int]], cell: Cell, value: int, mended: Givens, n: int,
              weigh: Weigh | None) -> int | None:
    """A small number may have lost a digit to the blur or the crop (143 read 13, two 1s
    merged in 112 read 12): of the numbers with a digit put back, the one that fits every
    given placed, or of several that fit, the one the model finds far likelier (``CLEAR``)."""
    fitting = [v for v in _with_a_digit_more(value, n)
               if all(_fits(far, cell, v, o, w) for o, (w, _) in mended.items() if o != cell)]
    if len(fitting) == 1:
        return fitting[0]
    if len(fitting) < 2 or weigh is None:
        return None
    ranked = sorted(zip(weigh(cell, fitting), fitting, strict=True), reverse=True)
    (best, value_best), (second, _) = ranked[0], ranked[1]
    return value_best if best > 0 and best >= CLEAR * second else None


def _with_a_digit_more(value: int, n: int) -> list[int]:
    """The numbers of 1..n that ``value`` is with one more digit put in anywhere."""
    text = str(value)
    out = {int(text[:k] + d + text[k:]) for k in range(len(text) + 1) for d in "0123456789"}
    return sorted(v for v in out if v <= n and len(str(v)) == len(text) + 1)


def _fits(far: Mapping[Cell, Mapping[Cell, int]], a: Cell, va: int, b: Cell, vb: int) -> bool:
    if va == vb:
        return False
    steps = far[a].get(b) if a in far else None
    if steps is None or steps > abs(va - vb):
        return False
    # On a board whose cells take two colours, each step changing colour (a rook's moves),
    # every path between two cells has the parity of the shortest one.
    return not isinstance(far, Steps) or not far.two_coloured or (abs(va - vb) - steps) % 2 == 0


class Steps(dict[Cell, dict[Cell, int]]):
    """Steps on a board between cells (source -> cell -> steps), and whether its cells
    take two colours that every move changes (a rook's moves on squares: a Numbrix)."""

    def __init__(self, two_coloured: bool) -> None:
        super().__init__()
        self.two_coloured = two_coloured


def _distances(board: Board, sources: list[Cell]) -> Steps:
    """Steps on the board from each source to every cell it can reach."""
    index, cells = board.index, board.cells
    out = Steps(board.adjacency == "rook")
    for source in sources:
        if source not in index or source in out:
            continue
        out[source] = {cells[i]: d for i, d in enumerate(board.distances_from(index[source])) if d >= 0}
    return out
