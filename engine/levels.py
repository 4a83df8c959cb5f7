"""The difficulty levels as ranges of the rating, and how the generator reaches each.

A level is a range of chain lengths on Berthier's scale (``rating.py``): the puzzle must
need a chain of at least ``lowest`` steps and none longer than ``longest``.  Fewer givens
come from more rigid solution paths (``rigid.py``): ``rigidity`` is how hard the path is
reshaped.  Easy and medium stop removing givens at a share of the cells, so they keep the
help a newspaper puzzle of that level gives.

Calibrated on Berthier's ratings of published puzzles (``tests/data/rated/``): easy is
singles and one-step reasoning, medium the newspaper level (Smithsonian, Parade: W2),
hard the hardest puzzles of puzzlesandbrains.com and Mebane's W3 and W4, expert W5 and
beyond (Mebane's W8), but never past ``MAX_CHAIN``, where reasoning turns into guessing.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rating import MAX_CHAIN
from .words import Phrase


@dataclass(frozen=True)
class Level:
    """One difficulty: the chain lengths it allows and how puzzles of it are made."""

    name: str
    lowest: int  # the puzzle needs a chain at least this long
    longest: int  # and none longer
    keep_share: float  # givens are not removed below this share of the cells (king; see keep_share)
    rigidity: int  # backbite moves per cell toward a rigid path (0: a random path)
    minimal_first: bool  # reduce to a minimal unique puzzle, then add givens back to fit
    chains_fallback: bool = False  # when that does not fit, reduce by chains on the same path
    # Givens a minimal puzzle may be given back, at most, as a share of the cells (at least
    # two): a 20x20 minimal puzzle often needs five to ten back before chains of a hard
    # puzzle's length finish it, and with only two back most paths were thrown away, each
    # costing a whole minimal puzzle again.  Every given back makes the puzzle easier,
    # and the rating still decides whether it stays in the level.
    give_back: float = 0.0


LEVELS: dict[str, Level] = {
    "easy": Level("easy", 0, 1, 0.40, 0, False),
    "medium": Level("medium", 2, 2, 0.33, 0, False),
    "hard": Level("hard", 3, 4, 0.0, 30, True, chains_fallback=True, give_back=0.03),
    "expert": Level("expert", 5, MAX_CHAIN, 0.0, 100, True, give_back=0.02),
}
DIFFICULTIES: tuple[str, ...] = tuple(LEVELS)


# Numbrix and hex boards settle with fewer givens than Hidato's (fewer neighbours, fewer
# ways to go): the shares kept at easy and medium shrink with them.
_KEEP_FACTOR = {"king": 1.0, "hex": 0.8, "rook": 0.6}


def keep_share(level: Level, adjacency: str) -> float:
    """The share of cells ``level`` keeps given on a board of this adjacency, at least."""
    return level.keep_share * _KEEP_FACTOR.get(adjacency, 1.0)


def level_of(length: int) -> str:
    """The level whose range holds a chain length (past the last: the last)."""
    for level in LEVELS.values():
        if length <= level.longest:
            return level.name
    return DIFFICULTIES[-1]


def range_text(level: Level) -> str:
    """The level's range as Berthier writes it: "W3–W4", "W5 or more"."""
    if level.longest >= MAX_CHAIN:
        return f"W{level.lowest} or more"
    if level.lowest == level.longest:
        return f"W{level.lowest}"
    return f"W{level.lowest}–W{level.longest}"


# The smallest size of each shape at which each level is made reliably (every one of
# three seeds, at that size and the next), per adjacency: measured by
# tools/level_sizes.py.  A level a shape never reaches is missing.  Thin boards (rings
# with a narrow frame, small crosses) leave so few ways through that no puzzle on them
# needs long chains.  Drawn (custom) boards are not in the table: the generator tries.
SMALLEST: dict[str, dict[str, dict[str, int]]] = {
    "king": {
        "rectangle": {"easy": 4, "medium": 4, "hard": 4, "expert": 5},
        "diamond": {"easy": 2, "medium": 2, "hard": 3, "expert": 3},
        "cross": {"easy": 3, "medium": 3, "hard": 5, "expert": 5},
        "heart": {"easy": 6, "medium": 6, "hard": 7, "expert": 7},
        "ring": {"easy": 5, "medium": 5, "hard": 13, "expert": 13},
        "triangle": {"easy": 4, "medium": 4, "hard": 4, "expert": 6},
        "hexagon": {"easy": 3, "medium": 3, "hard": 3, "expert": 4},
        "star": {"easy": 12, "medium": 12, "hard": 12, "expert": 12},
        "skull": {"easy": 10, "medium": 10, "hard": 10, "expert": 10},
        "arrow": {"easy": 8, "medium": 8, "hard": 8, "expert": 10},
    },
    "rook": {
        "rectangle": {"easy": 4, "medium": 4, "hard": 5, "expert": 5},
        "diamond": {"easy": 2, "medium": 2, "hard": 5, "expert": 4},
        "cross": {"easy": 3, "medium": 3, "hard": 5, "expert": 5},
        "ring": {"easy": 5, "medium": 8, "hard": 8, "expert": 8},
        "hexagon": {"easy": 5, "medium": 5, "hard": 5, "expert": 5},
    },
    "hex": {
        "rectangle": {"easy": 4, "medium": 4, "hard": 4, "expert": 5},
        "diamond": {"easy": 2, "medium": 2, "hard": 3, "expert": 3},
        "cross": {"easy": 3, "medium": 3, "hard": 3, "expert": 3},
        "heart": {"easy": 6, "medium": 6, "hard": 6, "expert": 6},
        "ring": {"easy": 5, "medium": 8, "hard": 8, "expert": 8},
        "triangle": {"easy": 4, "medium": 4, "hard": 4, "expert": 5},
        "hexagon": {"easy": 3, "medium": 3, "hard": 3, "expert": 3},
        "star": {"easy": 12, "medium": 12, "hard": 12, "expert": 12},
        "skull": {"easy": 10, "medium": 10, "hard": 10, "expert": 10},
    },
}


def smallest_size(shape: str, adjacency: str, level: str) -> tuple[bool, int | None]:
    """Whether the table knows this shape and level, and the smallest size that makes it
    (None: no size does)."""
    table = SMALLEST.get(adjacency, {}).get("rectangle" if shape == "square" else shape)
    if table is None or level not in LEVELS:
        return False, None
    return True, table.get(level)


def unreachable(shape: str, size: int, adjacency: str, level: str) -> Phrase | None:
    """Why ``level`` cannot be made on this shape and size, or None when it can (English
    words that keep their facts: shape, adjacency, level, its range, the smallest size)."""
    known, smallest = smallest_size(shape, adjacency, level)
    if not known or (smallest is not None and size >= smallest):
        return None
    facts = {"shape": shape, "adjacency": adjacency, "level": level, "range": range_text(LEVELS[level])}
    if smallest is None:
        return Phrase("no %(shape)s board with %(adjacency)s adjacency makes %(level)s puzzles (%(range)s): "
                      "its paths are too constrained", **facts)
    return Phrase("%(level)s puzzles (%(range)s) need %(article)s %(shape)s of size %(smallest)s or more with "
                  "%(adjacency)s adjacency: on a smaller board the path has too few ways to go to need chains that "
                  "long", smallest=smallest, article="an" if shape[0] in "aeiou" else "a", **facts)
