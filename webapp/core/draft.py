"""The solver page's puzzle as a person holds it (pure, no Flask): its text in the notation
and its drawing grid, both ways, with the notation's own tokens for empty cells and holes."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine import EMPTY_TOKENS, HOLE_TOKENS, Cell

Grid = list[list[str]]  # the drawing grid's cells as typed: "" empty, "x" hole, else a number
DRAW_MAX = 30  # rows and columns of the drawing grid
LINE_BREAKS = re.compile(r"\r\n|\r|\n")  # line breaks as the parser counts them
_EMPTY = EMPTY_TOKENS | {""}
_HOLE = HOLE_TOKENS


@dataclass
class Draft:
    """What the editor holds: the puzzle's text, its drawing grid and the options."""

    text: str
    grid: Grid | None  # None when the text is too big to draw
    adjacency: str = "king"
    difficulty: str = "medium"
    bad_cell: Cell | None = None  # the grid cell a parse error points at
    from_text: bool = False  # the text was changed since the page was drawn, so it counts

    @property
    def rows(self) -> int:
        """Rows of the grid, or of the text when it is too big to draw."""
        return len(self.grid) if self.grid else len(text_rows(self.text))

    @property
    def cols(self) -> int:
        """Columns of the grid, or of the text when it is too big to draw."""
        return max((len(row) for row in self.grid or text_rows(self.text)), default=0)

    @property
    def lines(self) -> int:
        """Lines of the text, for the height of its box."""
        return len(LINE_BREAKS.split(self.text.rstrip("\r\n")))


def token(raw: str) -> str:
    """A cell as typed, as the grid holds it: "" empty, "x" a hole, else what was typed (12 characters at most)."""
    raw = raw.strip()
    if raw in _EMPTY:
        return ""
    if raw in _HOLE:
        return "x"
    return raw[:12]


def text_rows(text: str) -> Grid:
    """The rows of a text as grid tokens (bad tokens kept as typed), however many."""
    return [[token(t) for t in line.split()] for line in LINE_BREAKS.split(text)
            if line.strip() and not line.strip().startswith("#")]


def grid_of_text(text: str) -> Grid | None:
    """The drawing grid of a text, token by token (bad tokens kept as typed), or None if too big."""
    rows = text_rows(text)
    if not rows or len(rows) > DRAW_MAX or max(len(row) for row in rows) > DRAW_MAX:
        return None
    width = max(len(row) for row in rows)
    return [row + ["x"] * (width - len(row)) for row in rows]


def text_of_grid(grid: Grid) -> str:
    """The grid in the text notation, columns aligned."""
    shown = [["." if t == "" else t for t in row] for row in grid]
    width = max((len(t) for row in shown for t in row), default=1)
    return "\n".join(" ".join(t.rjust(width) for t in row) for row in shown) + "\n"


def resize(grid: Grid | None, rows: int, cols: int) -> Grid:
    """The grid cut or grown to rows x cols; new places are empty cells."""
    old = grid or []
    return [[(old[r][c] if r < len(old) and c < len(old[r]) else "") for c in range(cols)]
            for r in range(rows)]


def normalised(text: str) -> str:
    """The text with its line breaks and trailing spaces made plain, to compare two texts."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    return "\n".join(lines).strip("\n")
