"""What the booklet form says before printing: how many boards of each shape and size
go to a page, from the same layout code that lays out the PDF (``layout.py``).

For each paper, adjacency and shape, ``per_page_facts`` lists every size's pages as the
layout would make them when 4 and when 2 to a page are asked ("42": 4, then 2), or "0"
when even one to a page leaves cells under MIN_CELL_MM; for mixed booklets, for each
level, the choices (of 4 and 2) that some of its shapes would print fewer to a page.
The form's script (``static/booklet-form.js``) only looks these up: it measures nothing.
``form_note`` says the same on the page as sent, for a browser without scripts.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from engine import ADJACENCIES, DIFFICULTIES, SHAPES, Board, shape_cells

from ..core.messages import ENGLISH, Words
from .booklet import FEWER, MIXED, SOME_SHAPES, TOO_BIG, mixed_shapes, size_note
from .drawing import extent
from .layout import MIN_CELL_MM, PAPERS, PUZZLE_GRIDS, board_box, cell_mm, puzzle_pages

ASKED = (4, 2)  # the choices that can fall back (1 to a page is 1 to a page)
TOO_BIG_MARK = "0"


@cache
def _cells(shape: str, size: int) -> tuple[tuple[int, int], ...]:
    return tuple(shape_cells(shape, size))  # the same for every adjacency and paper


def _pages(shape: str, size: int, adjacency: str, paper: str, qr: bool) -> str:
    """One size's entry: the puzzles to a page when 4 and when 2 are asked, or TOO_BIG_MARK."""
    found = extent(Board.from_cells(_cells(shape, size), adjacency))  # type: ignore[arg-type]
    if cell_mm(found, board_box(paper, PUZZLE_GRIDS[1], True, qr)) < MIN_CELL_MM:
        return TOO_BIG_MARK
    return "".join(str(puzzle_pages([found], asked, paper, qr)[0][0].per_page) for asked in ASKED)


@lru_cache(maxsize=2)
def per_page_facts(qr: bool) -> dict[str, Any]:
    """The facts for the form (see the module's docstring), for sheets with or without QR
    codes; computed once per process (1300 boards' extents, about half a second)."""
    sizes: dict[str, Any] = {}
    mixed: dict[str, Any] = {}
    for paper in PAPERS:
        for adjacency in ADJACENCIES:
            table = sizes.setdefault(paper, {}).setdefault(adjacency, {})
            for name, spec in SHAPES.items():
                table[name] = " ".join(_pages(name, size, adjacency, paper, qr)
                                       for size in range(spec.min_size, spec.max_size + 1))
            levels = mixed.setdefault(paper, {}).setdefault(adjacency, {})
            for level in DIFFICULTIES:
                entries = [table[name].split()[SHAPES[name].default_size - SHAPES[name].min_size]
                           for name in mixed_shapes(adjacency, level)]
                levels[level] = "".join(str(asked) for position, asked in enumerate(ASKED)
                                        if any(entry == TOO_BIG_MARK or int(entry[position]) < asked
                                               for entry in entries))
    return {"sizes": sizes, "mixed": mixed}


def form_note(shape: str, size: int | None, adjacency: str, difficulty: str, per_page: int, paper: str, qr: bool,
              words: Words = ENGLISH) -> str:
    """What the form says beside "Puzzles per page" for these choices, in the reader's
    words: "Printed 2 to a page (not 4) so that every cell is at least 9 mm wide.", or
    nothing when the booklet prints as asked (or the choices do not go together)."""
    facts = per_page_facts(qr)
    if shape == MIXED:
        some = facts["mixed"].get(paper, {}).get(adjacency, {}).get(difficulty, "")
        return size_note(SOME_SHAPES, words, asked=per_page) if str(per_page) in some else ""
    spec = SHAPES.get(shape)
    entries = facts["sizes"].get(paper, {}).get(adjacency, {}).get(shape)
    if spec is None or entries is None:
        return ""
    size = spec.default_size if size is None else size
    if not spec.min_size <= size <= spec.max_size:
        return ""
    entry = entries.split()[size - spec.min_size]
    if entry == TOO_BIG_MARK:
        return size_note(TOO_BIG, words)
    if per_page in ASKED and int(entry[ASKED.index(per_page)]) < per_page:
        return size_note(FEWER, words, count=entry[ASKED.index(per_page)], asked=per_page)
    return ""


def note_templates(words: Words = ENGLISH) -> dict[str, str]:
    """The form's three notes for its script, in the reader's words: the millimetres said,
    %(count)s and %(asked)s left for the script to fill in."""
    return {"fewer": size_note(FEWER, words), "some": size_note(SOME_SHAPES, words),
            "too-big": size_note(TOO_BIG, words)}
