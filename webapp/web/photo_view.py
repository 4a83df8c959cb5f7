"""What the photo reader's result page draws over the photo: each cell's outline and the
number read in it, the doubtful cells marked, and a summary of the reading in words.

A reading is kept on its job as JSON (``reading_json``: the puzzle's text and, for each
cell, what was read, how sure the reader was and where the cell is in the picture), so
any host shows it; ``PhotoView`` turns it into an SVG overlay in the picture's own pixels
(``viewBox`` of its width and height: the outlines are fractions of them), drawn over the
picture at whatever size the page gives it.  A doubtful cell is marked in three ways,
never by colour alone: a dashed outline, a "?" after its number, and its name in the list
of cells to compare with the photo.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from flask_babel import format_decimal, ngettext
from flask_babel import gettext as _

from engine import Cell

from ..core.messages import seconds as seconds_words
from ..scan import Reading
from .i18n import words
from .names import cell_words

DOUBTS_NAMED = 8  # doubtful cells the summary names at most
FORMAT = 1  # the version of the JSON a reading is kept as


def reading_json(reading: Reading) -> str:
    """A reading as its job keeps it."""
    return json.dumps({
        "format": FORMAT,
        "text": reading.text(),
        "adjacency": reading.puzzle.board.adjacency,
        "width": reading.width,
        "height": reading.height,
        "cells": [[c.cell[0], c.cell[1], c.value, round(c.confidence, 3), c.given,
                   [round(v, 5) for point in c.outline for v in point]] for c in reading.cells],
        "doubtful": [list(cell) for cell in reading.doubtful],
        "solutions": reading.solutions,
        "seconds": round(reading.seconds, 3),
    }, separators=(",", ":"))


@dataclass(frozen=True)
class Mark:
    """One cell drawn over the photo, in the picture's pixels."""

    cell: Cell
    value: int | None
    confidence: float
    given: bool
    doubt: bool
    points: str  # the outline, for <polygon points=...>
    x: float  # where its number's text starts (top left of the cell)
    y: float  # the text's baseline
    font: float  # the text's size
    badge: tuple[float, float, float, float]  # the box behind the number: x, y, width, height

    @property
    def label(self) -> str:
        """What is written in the cell's corner: the number read, "?" after a doubtful one."""
        text = "" if self.value is None else str(self.value)
        return text + "?" if self.doubt else text

    @property
    def field_id(self) -> str:
        """The id of the editor grid's field for this cell."""
        return f"g-{self.cell[0] + 1}-{self.cell[1] + 1}"

    def title(self) -> str:
        """The cell and what was read, in a sentence (the outline's tooltip)."""
        where = cell_words(self.cell)
        sure = format_decimal(round(self.confidence * 100), format="0")
        if self.value is None:
            text = _("%(cell)s: read as empty (%(sure)s%% sure)", cell=where, sure=sure)
        else:
            text = _("%(cell)s: read %(number)s (%(sure)s%% sure)", cell=where, number=self.value, sure=sure)
        return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class Summary:
    """The reading in words: its kind (for the notice's look) and the sentence."""

    kind: str  # unique, none, multiple, gave-up
    message: str


@dataclass
class PhotoView:
    """The photo and the reading drawn over it, for the result page."""

    ticket: str
    action: str  # where the editor's form posts (the result page itself)
    picture: str | None  # the picture's URL; None when it is no longer kept
    width: int = 0
    height: int = 0
    marks: list[Mark] = field(default_factory=list)
    doubtful: list[Cell] = field(default_factory=list)
    solutions: int | None = None
    seconds: float = 0.0
    text: str = ""
    adjacency: str = "king"

    @property
    def entries(self) -> bool:
        """Whether numbers a player wrote in were kept (they are drawn apart)."""
        return any(not mark.given and mark.value is not None for mark in self.marks)

    def doubts(self, row: int, col: int, token: str) -> bool:
        """Whether the grid's cell is one of the doubtful ones and still holds what was read
        (a cell the person changed is theirs now)."""
        mark = self._by_cell.get((row, col))
        return mark is not None and mark.doubt and token == ("" if mark.value is None else str(mark.value))

    def __post_init__(self) -> None:
        self._by_cell = {mark.cell: mark for mark in self.marks}

    def open_doubts(self, grid: list[list[str]] | None) -> list[tuple[Mark, str]]:
        """The doubtful cells the grid still holds as they were read, most doubtful first,
        each with its words ("row 2, column 5, read as 17")."""
        found = []
        for cell in self.doubtful:
            mark = self._by_cell.get(cell)
            if mark is None:
                continue
            row, col = cell
            token = grid[row][col] if grid and row < len(grid) and col < len(grid[row]) else None
            if token is None or self.doubts(row, col, token):
                found.append((mark, self._doubt_words(mark)))
        return found[:DOUBTS_NAMED]

    def summary(self) -> Summary:
        """What the page says of the reading above the photo."""
        numbers = sum(1 for mark in self.marks if mark.value is not None)
        read = ngettext("%(num)s cell read, %(numbers)s of them with a number, in %(time)s.",
                        "%(num)s cells read, %(numbers)s of them with a number, in %(time)s.",
                        len(self.marks), numbers=numbers, time=seconds_words(round(self.seconds, 1), words()))
        compare = ngettext("Compare the cell marked ? with your photo.",
                           "Compare the %(num)s cells marked ? with your photo, most doubtful first.",
                           len(self.doubtful)) if self.doubtful else ""
        if self.solutions == 1:
            kind, said = "unique", _("It has exactly one solution: press Solve to see it, or Play this puzzle.")
        elif self.solutions == 0:
            kind, said = "none", _("What was read has no solution, so a number was probably misread: fix it in the "
                                   "grid, then press Check.")
        elif self.solutions is not None:
            kind, said = "multiple", _("What was read has more than one solution: a number may have been missed or "
                                       "misread. Fix it in the grid, then press Check.")
        else:
            kind, said = "gave-up", _("Whether it has exactly one solution was not settled in time: press Check.")
        if self.solutions == 1 and self.doubtful:
            said += " " + _("Some numbers were hard to read: a misread one can still give a puzzle with one "
                            "solution, so check them first.")
        return Summary(kind, " ".join(part for part in (read, said, compare) if part))

    @staticmethod
    def _doubt_words(mark: Mark) -> str:
        if mark.value is None:
            return _("%(cell)s, read as empty", cell=cell_words(mark.cell))
        return _("%(cell)s, read as %(number)s", cell=cell_words(mark.cell), number=mark.value)


def photo_view(ticket: str, kept: dict[str, Any], action: str, picture: str | None) -> PhotoView:
    """The view of a reading kept by ``reading_json``."""
    width, height = int(kept["width"]), int(kept["height"])
    doubtful = [(int(r), int(c)) for r, c in kept.get("doubtful", [])]
    doubt = set(doubtful)
    marks = [_mark((int(r), int(c)), value, float(confidence), bool(given), (int(r), int(c)) in doubt, outline,
                   width, height)
             for r, c, value, confidence, given, outline in kept["cells"]]
    return PhotoView(ticket, action, picture, width, height, marks, doubtful, kept.get("solutions"),
                     float(kept.get("seconds") or 0), str(kept["text"]), str(kept.get("adjacency") or "king"))


def _mark(cell: Cell, value: int | None, confidence: float, given: bool, doubt: bool, outline: list[float],
          width: int, height: int) -> Mark:
    xs = [x * width for x in outline[0::2]]
    ys = [y * height for y in outline[1::2]]
    left, top = min(xs), min(ys)
    w, h = max(xs) - left, max(ys) - top
    font = 0.3 * min(w, h)
    # The number goes in the cell's top left corner, clear of the digits printed in its
    # middle, so both are seen at once; a hexagon's corner is further in.
    inset = 0.07 if len(xs) <= 4 else 0.2
    x, y = left + inset * w, top + inset * h + font
    label = ("" if value is None else str(value)) + ("?" if doubt else "")
    pad = 0.12 * font
    badge = (x - pad, y - 0.86 * font, 0.62 * font * max(1, len(label)) + 2 * pad, 1.08 * font)
    points = " ".join(f"{px:.1f},{py:.1f}" for px, py in zip(xs, ys, strict=True))
    return Mark(cell, value, confidence, given, doubt, points, round(x, 1), round(y, 1), round(font, 1),
                tuple(round(v, 1) for v in badge))  # type: ignore[arg-type]
