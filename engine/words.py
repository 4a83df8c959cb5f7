"""Small helpers for messages in plain words: "1 puzzle" and "3 puzzles", "1 second",
"row 2, column 3".

The command line, the engine's errors and the web pages all count things in sentences;
these keep the grammar right in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotation only: words stays free of engine imports at run time
    from .board import Cell

__all__ = ["cell_name", "plural", "seconds"]


def plural(count: int, noun: str, plural_noun: str | None = None) -> str:
    """``count`` and the noun agreeing with it: "1 puzzle", "0 puzzles", "2 cells".

    ``plural_noun`` is for nouns that do not just take an "s" ("1 match", "2 matches").
    """
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {plural_noun if plural_noun is not None else noun + 's'}"


def seconds(value: float, digits: int = 6) -> str:
    """A duration in words: "1 second", "0.5 seconds", "60 seconds".

    The number is written with ``:g`` to ``digits`` significant digits (measured times
    read better with 3), and the noun agrees with what is printed, so 1.0000001 is
    "1 second".
    """
    shown = f"{value:.{digits}g}"
    return f"{shown} {'second' if shown == '1' else 'seconds'}"


def cell_name(cell: Cell) -> str:
    """A cell as players count it, from 1: "row 2, column 3" for (1, 2)."""
    return f"row {cell[0] + 1}, column {cell[1] + 1}"

