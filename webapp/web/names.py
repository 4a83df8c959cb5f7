"""The words for the engine's names: shapes, levels, variants, the rule, cells.

The engine and ``core.options`` name things by key ("heart", "hard", "numbrix", "king");
pages and sheets show those keys in the reader's language through these tables, which
``pybabel extract`` reads (lazy_gettext), so every name has a msgid.  Templates get the
functions below as globals (``shape_name(stored.shape)``, ``level_name("hard")``,
``variant_label(adjacency)``, ``variant_key_name("numbrix")``, ``touching(adjacency)``,
``cell_words(cell)``, ``cell_title(cell)``).
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext

from engine import Cell

from ..core.options import VARIANTS, variant_of

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


def cell_words(cell: Cell) -> str:
    """A cell as players count it, from 1: "row 2, column 3" for (1, 2)."""
    return _("row %(row)d, column %(col)d", row=cell[0] + 1, col=cell[1] + 1)


def cell_title(cell: Cell) -> str:
    """The same, to begin a sentence or label a field: "Row 2, column 3"."""
    return _("Row %(row)d, column %(col)d", row=cell[0] + 1, col=cell[1] + 1)


TEMPLATE_GLOBALS = {
    "shape_name": shape_name,
    "level_name": level_name,
    "variant_key_name": variant_name,
    "variant_label": variant_label,
    "touching": touching,
    "cell_words": cell_words,
    "cell_title": cell_title,
}
