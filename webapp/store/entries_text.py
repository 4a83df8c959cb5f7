"""A game's entries column (``[[row, col, number], ...]``, sorted by cell, the text
``json.dumps`` writes) read and written without going over the whole board at every move.

A move changes one cell, yet reading the column parses every entry and writing it formats
every entry again: on a 20x20 board that was most of a move's transaction.  So each
process keeps the entries of the texts it read or wrote last, keyed by the text itself:
a text found here is, character for character, the one those entries were written as, so
another host's write (a different text) is never mistaken for a known one: it is read
afresh, and the move's text written whole.  A text written after a move is the text before it with the changed cells'
items replaced, taken out or put in at their place in the order; the result is the same
text as writing every entry again (Hypothesis-tested in tests/test_store_codec.py).
"""

from __future__ import annotations

import json
import threading
from bisect import bisect_left, insort
from collections import OrderedDict
from collections.abc import Mapping, Set

from engine import Cell

from ..core.number_index import NumberIndex

# Games whose entries are kept per process (about a host's players in play at once; a 20x20 game's
# entries and text take about 40 KB, its number index a dict more: its sets are shared from one
# text of the game to the next, but for the few cells each move changed).
KEPT = 256
# More changed cells than this (a Restart, a reveal): the whole text written again.
MAX_PATCHED = 8


class _Known:
    """The entries a text holds, their cells in order (where a new item goes) and, once
    asked for, their number index (``NumberIndex``: which cells hold each number)."""

    __slots__ = ("entries", "cells", "index")

    def __init__(self, entries: dict[Cell, int], cells: list[Cell], index: NumberIndex | None = None):
        self.entries = entries
        self.cells = cells
        self.index = index


_known: OrderedDict[str, _Known] = OrderedDict()
_lock = threading.Lock()


def _keep(text: str, known: _Known, before: str | None = None) -> None:
    with _lock:
        # The text a move's write replaces goes: its game's row holds the new one now (or,
        # should the transaction not commit, the next read parses the old one afresh), so
        # the kept texts are the games' last, not one game's last 256 moves.
        if before is not None and before != text:
            _known.pop(before, None)
        _known[text] = known
        _known.move_to_end(text)
        while len(_known) > KEPT:
            _known.popitem(last=False)


def _find(text: str) -> _Known | None:
    with _lock:
        found = _known.get(text)
        if found is not None:
            _known.move_to_end(text)
        return found


def read_entries(text: str) -> dict[Cell, int]:
    """The entries a column's text holds (a new dict: the caller may change it)."""
    return read_indexed_entries(text)[0]


def read_indexed_entries(text: str) -> tuple[dict[Cell, int], NumberIndex | None]:
    """The entries a column's text holds (a new dict) and, for a text kept here, their
    number index (made the first time a kept text is read, then kept with it; never
    changed, so shared); None for a text not kept."""
    found = _find(text)
    if found is not None:
        index = found.index
        if index is None:
            index = found.index = NumberIndex.of(found.entries)
        return dict(found.entries), index
    # Not kept: only texts written here are patched (an older release's text, or another
    # writer's, may be spelled otherwise); the move's write keeps its own.
    return {(r, c): v for r, c, v in json.loads(text)}, None


def write_entries(entries: Mapping[Cell, int], before: str | None = None,
                  hint: Set[Cell] | None = None) -> str:
    """The column's text for ``entries``; ``before``: the text they were read from, patched
    when it is known here and few cells changed; ``hint``: the cells said to have changed
    since (``State.changed_cells``), checked before it is used."""
    known = _find(before) if before is not None else None
    text: str | None = None
    cells: list[Cell] | None = None
    index: NumberIndex | None = None
    kept: dict[Cell, int] | None = None
    if known is not None:
        old = known.entries
        found = _changes_hinted(entries, old, hint) if hint is not None and len(hint) <= MAX_PATCHED else None
        if found is not None:
            kept, changed, gone = found
        else:
            get = old.get
            # A loop, not ``entries.items() - old.items()``: hashing every (cell, number) cost
            # six times more.  Cells taken out show in the counts before they are looked for.
            changed = [(cell, value) for cell, value in entries.items() if get(cell) != value]
            added = sum(1 for cell, _value in changed if cell not in old)
            gone = old.keys() - entries.keys() if len(old) + added != len(entries) else set()
        if len(changed) + len(gone) <= MAX_PATCHED:
            assert before is not None
            text, cells = _patched(before, old, known.cells, changed, gone)
            if known.index is not None:  # the index follows the same few changes
                index = known.index.changed([(cell, old.get(cell, 0), value) for cell, value in changed]
                                            + [(cell, old[cell], 0) for cell in gone])
    if text is None:
        text = whole_text(entries)
    if cells is None:
        cells = sorted(entries)
    _keep(text, _Known(kept if kept is not None else dict(entries), cells, index), before)
    return text


def _changes_hinted(entries: Mapping[Cell, int], old: dict[Cell, int], hint: Set[Cell],
                    ) -> tuple[dict[Cell, int], list[tuple[Cell, int]], set[Cell]] | None:
    """The entries as a new dict, the changed cells with their numbers and the cells emptied,
    found from the hint's few cells (no loop over the board), or None if the hint is wrong:
    the old entries with the hinted cells as they are now must equal the entries (a
    comparison in C, which is what makes the hint safe to use)."""
    now = dict(old)
    changed: list[tuple[Cell, int]] = []
    gone: set[Cell] = set()
    for cell in hint:
        value = entries.get(cell)
        if value is None:
            if now.pop(cell, None) is not None:
                gone.add(cell)
        elif old.get(cell) != value:
            now[cell] = value
            changed.append((cell, value))
    if now != entries:
        return None
    return now, changed, gone


def whole_text(entries: Mapping[Cell, int]) -> str:
    """``json.dumps`` of the entries as sorted ``[row, col, number]`` lists, the same text,
    written straight from the numbers (the lists built for ``json.dumps`` cost more)."""
    return "[" + ", ".join([f"[{r}, {c}, {v}]" for (r, c), v in sorted(entries.items())]) + "]"


def _patched(text: str, old: Mapping[Cell, int], cells: list[Cell], changed: list[tuple[Cell, int]],
             gone: set[Cell]) -> tuple[str, list[Cell]]:
    # Every item starts with "[" and only items do (besides the list's own, followed by
    # "["): "[r, c, " is found exactly where that cell's item starts.  The cells in order
    # are copied only when one comes or goes (the kept list is shared).
    if gone or any(cell not in old for cell, _value in changed):
        cells = list(cells)
    for cell in gone:
        item = f"[{cell[0]}, {cell[1]}, {old[cell]}]"
        if text == f"[{item}]":
            text = "[]"
        elif f", {item}" in text:
            text = text.replace(f", {item}", "", 1)
        else:
            text = text.replace(f"{item}, ", "", 1)
        del cells[bisect_left(cells, cell)]
    for cell, value in changed:
        item = f"[{cell[0]}, {cell[1]}, {value}]"
        if cell in old:
            text = text.replace(f"[{cell[0]}, {cell[1]}, {old[cell]}]", item, 1)
            continue
        insort(cells, cell)
        at = bisect_left(cells, cell)
        if at + 1 < len(cells):
            after = cells[at + 1]
            where = text.index(f"[{after[0]}, {after[1]}, ", 1)
            text = f"{text[:where]}{item}, {text[where:]}"
        elif text == "[]":
            text = f"[{item}]"
        else:
            text = f"{text[:-1]}, {item}]"
    return text, cells
