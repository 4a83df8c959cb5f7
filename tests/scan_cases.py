"""The photo reader's test set (tests/data/scan, made by tools/scan_testset.py): its
pictures with their ground truth, and how a reading is compared with it.

Shared by the acceptance tests (tests/test_scan_set.py) and the benchmark
(bench/scan_bench.py).  A reading is right when it is the drawn puzzle:

- the same cells, up to where the board sits in the grid (a translation; for hex boards
  in the hex lattice's own coordinates, so a board moved by an odd number of rows is
  still the same board), and for a flat-top drawing (``hex_turns``) in any of its six
  turns, since such a picture has no upright row;
- the same numbers in the same cells; with ``entries``, the player's numbers too, and
  told apart from the givens.

"Numbers right" counts the numbers of the truth found with the right value in the right
cell, after placing the reading on the truth where most of its numbers agree.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from engine import Cell, Puzzle, parse_puzzle

DATA = Path(__file__).resolve().parent / "data" / "scan"

# An 8×8 Hidato with holes along two sides (a ragged outline): the reader's and the faint
# lines' tests draw it in their styles.
WITH_HOLES = parse_puzzle("""\
 .  33 35  .  .  x  x  x
 .  .  24 22  .  x  x  x
 .  .  .  21  .  .  x  x
 .  26  . 13 40 11  x  x
27  .  .  .  9  .  1  x
 x  x  .  .  18  .  .  x
 x  x  x  x  .  7  .  .
 x  x  x  x  x  x  5  .
""")
Point = tuple[int, int]  # a cell in the lattice's own coordinates (hex: axial q, r)


@dataclass(frozen=True)
class Case:
    """One picture of the set and what it shows."""

    name: str
    category: str
    path: Path
    record: dict[str, Any]

    @property
    def data(self) -> bytes:
        return self.path.read_bytes()

    @cached_property
    def truth(self) -> Puzzle:
        """The puzzle as printed (givens only)."""
        return parse_puzzle((self.path.parent / self.record["truth"]).read_text(encoding="utf-8"))

    @property
    def has_entries(self) -> bool:
        return "entries_truth" in self.record

    @cached_property
    def with_entries(self) -> Puzzle:
        """The givens and the player's numbers (the truth itself when there are none)."""
        if not self.has_entries:
            return self.truth
        return parse_puzzle((self.path.parent / self.record["entries_truth"]).read_text(encoding="utf-8"))

    @property
    def entry_cells(self) -> dict[Cell, int]:
        return {(r, c): v for r, c, v in self.record.get("entries", [])}

    @property
    def hex_turns(self) -> bool:
        return bool(self.record.get("hex_turns"))


def load_cases(folder: Path = DATA) -> list[Case]:
    """Every picture of the set, in the manifest's order."""
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    return [Case(r["name"], r["category"], folder / r["file"], r) for r in manifest["pictures"]]


def _point(cell: Cell, hex_board: bool) -> Point:
    r, c = cell
    if hex_board:  # odd-r offset -> axial
        return c - (r - (r & 1)) // 2, r
    return r, c


def _turned(point: Point, turns: int) -> Point:
    """An axial point turned by ``turns`` sixths of a turn about the origin."""
    q, r = point
    x, z = q, r
    y = -x - z
    for _ in range(turns % 6):
        x, y, z = -z, -x, -y
    return x, z


def _transforms(read: Puzzle, truth: Puzzle, hex_turns: bool) -> Iterable[int]:
    return range(6) if hex_turns and read.board.adjacency == "hex" and truth.board.adjacency == "hex" else range(1)


def _where(puzzle: Puzzle, cell: Cell, turns: int) -> Point:
    """A cell of ``puzzle`` in lattice coordinates, turned by ``turns`` sixths (hex only)."""
    if puzzle.board.adjacency == "hex":
        return _turned(_point(cell, True), turns)
    return _point(cell, False)


def _placed(puzzle: Puzzle, turns: int, numbers: Mapping[Cell, int] | None = None) -> dict[Point, int | None]:
    """Every cell in lattice coordinates (turned) with its number or None, moved so the
    board's lowest coordinates are 0; with ``numbers``, only those cells."""
    points = [_where(puzzle, cell, turns) for cell in puzzle.board.cells]
    low_a, low_b = min(a for a, _ in points), min(b for _, b in points)
    shown: Mapping[Cell, int | None] = puzzle.givens if numbers is None else numbers
    cells = puzzle.board.cells if numbers is None else tuple(numbers)
    out: dict[Point, int | None] = {}
    for cell in cells:
        a, b = _where(puzzle, cell, turns)
        out[(a - low_a, b - low_b)] = shown.get(cell)
    return out


def same_puzzle(read: Puzzle, truth: Puzzle, hex_turns: bool = False) -> bool:
    """Whether ``read`` is ``truth``: the same adjacency, cells and numbers, up to a
    translation (and, with ``hex_turns``, a turn of the hex lattice)."""
    if read.board.adjacency != truth.board.adjacency or read.board.size != truth.board.size:
        return False
    want = _placed(truth, 0)
    return any(_placed(read, turns) == want for turns in _transforms(read, truth, hex_turns))


def alignment(read: Puzzle, truth: Puzzle, hex_turns: bool = False) -> tuple[int, int, Point]:
    """How the reading lies on the truth where most numbers agree: (turns, count, offset)."""
    truth_at = {v: p for p, v in _placed(truth, 0).items() if v is not None}
    best = (0, 0, (0, 0))
    for turns in _transforms(read, truth, hex_turns):
        votes: Counter[Point] = Counter()
        for point, value in _placed(read, turns).items():
            if value is not None and value in truth_at:
                goal = truth_at[value]
                votes[(goal[0] - point[0], goal[1] - point[1])] += 1
        if votes:
            offset, count = votes.most_common(1)[0]
            if count > best[1]:
                best = (turns, count, offset)
    return best


def numbers_right(read: Puzzle | None, truth: Puzzle, hex_turns: bool = False) -> int:
    """How many numbers of ``truth`` the reading has, with the right value in the right cell."""
    if read is None:
        return 0
    return alignment(read, truth, hex_turns)[1]


def same_entries(read: Puzzle, read_entries: Mapping[Cell, int], truth: Puzzle, truth_entries: Mapping[Cell, int],
                 hex_turns: bool = False) -> bool:
    """Whether the reading (its puzzle already ``truth``) tells the player's numbers apart
    from the givens as drawn: the same cells, placed as ``same_puzzle`` places the board."""
    want = _placed(truth, 0, truth_entries)
    return any(_placed(read, turns) == _placed(truth, 0) and _placed(read, turns, read_entries) == want
               for turns in _transforms(read, truth, hex_turns))
