"""The words for the engine's names: shapes, levels, variants, the rule, cells.

The engine and ``core.options`` name things by key ("heart", "hard", "numbrix", "king");
pages and sheets show those keys in the reader's language through these tables, which
``pybabel extract`` reads (lazy_gettext), so every name has a msgid.  Templates get the
functions below as globals (``shape_name(stored.shape)``, ``level_name("hard")``,
``variant_label(adjacency)``, ``variant_key_name("numbrix")``, ``touching(adjacency)``,
``cell_words(cell)``, ``cell_title(cell)``, ``new_puzzle_words(options)``).

A puzzle is described in whole phrases, one msgid for each level and each shape with its
article ("an expert Hidato puzzle", "a heart-shaped board"), never by gluing a level's or
a shape's name to an article: English says "a" or "an" by the word that follows, and
Spanish makes articles and adjectives agree with the noun's gender.
"""

from __future__ import annotations

from typing import Any

from engine import Cell

from ..core.messages import N_
from ..core.options import VARIANTS, Options, variant_of
from .catalogue import gettext as _
from .catalogue import lazy_gettext, ngettext, translations

# Lower case, as in a sentence; templates capitalise them for labels.
SHAPE_NAMES: dict[str, Any] = {
    "rectangle": lazy_gettext("rectangle"),
    "square": lazy_gettext("square"),
    "diamond": lazy_gettext("diamond"),
    "cross": lazy_gettext("cross"),
    "heart": lazy_gettext("heart"),
    "ring": lazy_gettext("ring"),
    "triangle": lazy_gettext("triangle"),
    "hexagon": lazy_gettext("hexagon"),
    "star": lazy_gettext("star"),
    "skull": lazy_gettext("skull"),
    "arrow": lazy_gettext("arrow"),
    "custom": lazy_gettext("custom"),
}
# A level describes a puzzle ("a hard puzzle"): translate as an adjective for "puzzle".
LEVEL_NAMES: dict[str, Any] = {
    "easy": lazy_gettext("easy"),
    "medium": lazy_gettext("medium"),
    "hard": lazy_gettext("hard"),
    "expert": lazy_gettext("expert"),
}
# By variant key (core.options.VARIANTS): the names of the puzzles.
VARIANT_NAMES: dict[str, Any] = {
    "hidato": lazy_gettext("Hidato"),
    "numbrix": lazy_gettext("Numbrix"),
    "hex": lazy_gettext("Hex"),
}
# By adjacency: how consecutive numbers touch ("… each number touches the next <this>").
TOUCHING: dict[str, Any] = {
    "king": lazy_gettext("across a side or a corner"),
    "rook": lazy_gettext("across a side, not a corner"),
    "hex": lazy_gettext("across one of the six sides"),
}


# A puzzle of each level, with its article: "an expert Hidato puzzle".
PUZZLE_OF_LEVEL: dict[str, Any] = {
    "easy": lazy_gettext("an easy %(variant)s puzzle"),
    "medium": lazy_gettext("a medium %(variant)s puzzle"),
    "hard": lazy_gettext("a hard %(variant)s puzzle"),
    "expert": lazy_gettext("an expert %(variant)s puzzle"),
}
# A board of each named shape, with its article (the rectangle and the square are grids).
SHAPED_BOARD: dict[str, Any] = {
    "diamond": lazy_gettext("a diamond-shaped board"),
    "cross": lazy_gettext("a cross-shaped board"),
    "heart": lazy_gettext("a heart-shaped board"),
    "ring": lazy_gettext("a ring-shaped board"),
    "triangle": lazy_gettext("a triangular board"),
    "hexagon": lazy_gettext("a hexagonal board"),
    "star": lazy_gettext("a star-shaped board"),
    "skull": lazy_gettext("a skull-shaped board"),
    "arrow": lazy_gettext("an arrow-shaped board"),
}


def shape_name(name: str | None) -> str:
    """A shape's name in the current language, lower case ("heart" → "corazón")."""
    if not name:
        return ""
    return str(SHAPE_NAMES.get(name, name))


def level_name(level: str | None) -> str:
    """A difficulty's name in the current language, lower case."""
    if not level:
        return ""
    return str(LEVEL_NAMES.get(level, level))


def variant_name(key: str) -> str:
    """A variant's name by its key ("numbrix")."""
    return str(VARIANT_NAMES.get(key, VARIANTS[key].label if key in VARIANTS else key))


def variant_label(adjacency: str) -> str:
    """The name of the variant played with this adjacency ("rook" → "Numbrix")."""
    return variant_name(variant_of(adjacency).key)


def touching(adjacency: str) -> str:
    """How consecutive numbers touch with this adjacency, in words."""
    return str(TOUCHING.get(variant_of(adjacency).adjacency, variant_of(adjacency).touching))


def a_puzzle(level: str | None, adjacency: str) -> str:
    """A puzzle of a level and variant, with its article: "an expert Hidato puzzle"."""
    variant = variant_label(adjacency)
    if level in PUZZLE_OF_LEVEL:
        return str(PUZZLE_OF_LEVEL[level]) % {"variant": variant}
    return _("a %(variant)s puzzle", variant=variant)


def a_board(shape: str | None, rows: int, cols: int, cells: int | None = None, size: int | None = None) -> str:
    """The board a puzzle is played on, with its article: "a square grid of 10×10 cells",
    "a heart-shaped board of 52 cells" (or "… of size 7", before it is made)."""
    if shape in ("rectangle", "square"):
        if rows == cols:
            return _("a square grid of %(rows)s×%(cols)s cells", rows=rows, cols=cols)
        return _("a rectangular grid of %(rows)s×%(cols)s cells", rows=rows, cols=cols)
    board = str(SHAPED_BOARD[shape]) if shape in SHAPED_BOARD else _("a board")
    if cells is None:
        return _("%(board)s of size %(size)s", board=board, size=size)
    return ngettext("%(board)s of %(num)s cell", "%(board)s of %(num)s cells", cells, board=board)


def new_puzzle_words(options: Options) -> str:
    """What is being made, as a sentence's start: "An expert Hidato puzzle on a heart-shaped
    board of size 7"."""
    board = a_board(options.shape, options.size, options.size, size=options.size)
    text = _("%(puzzle)s on %(where)s", puzzle=a_puzzle(options.difficulty, options.adjacency), where=board)
    return text[:1].upper() + text[1:]


def cell_words(cell: Cell) -> str:
    """A cell as players count it, from 1: "row 2, column 3" for (1, 2)."""
    return _cell_said(_CELL_WORDS, cell)


def cell_title(cell: Cell) -> str:
    """The same, to begin a sentence or label a field: "Row 2, column 3"."""
    return _cell_said(_CELL_TITLE, cell)


_CELL_WORDS = N_("row %(row)d, column %(col)d")
_CELL_TITLE = N_("Row %(row)d, column %(col)d")
# Cells said, by catalogue (Flask-Babel keeps one per language), message and cell: a cell
# entry's answer names its cells a dozen times (labels, notes, the numbers entered twice).
_CELLS_SAID: dict[tuple[Any, str, int, int], str] = {}
_CELLS_SAID_KEPT = 8192  # a bound, not a policy: emptied when full


def _cell_said(message: str, cell: Cell) -> str:
    catalogue = translations()
    key = (catalogue, message, cell[0], cell[1])
    said = _CELLS_SAID.get(key)
    if said is None:
        if len(_CELLS_SAID) >= _CELLS_SAID_KEPT:
            _CELLS_SAID.clear()
        said = _CELLS_SAID[key] = catalogue.ugettext(message) % {"row": cell[0] + 1, "col": cell[1] + 1}
    return said


TEMPLATE_GLOBALS = {
    "shape_name": shape_name,
    "level_name": level_name,
    "variant_key_name": variant_name,
    "variant_label": variant_label,
    "touching": touching,
    "cell_words": cell_words,
    "cell_title": cell_title,
    "new_puzzle_words": new_puzzle_words,
}
