"""Small helpers for messages in plain words: "1 puzzle" and "3 puzzles", "1 second",
"row 2, column 3"; and the engine's reasons and errors as facts with English words.

The command line, the engine's errors and the web pages all count things in sentences;
these keep the grammar right in one place.

The engine says why (the solver's reason there is no solution, a shape that cannot be
played, a generator that gave up) in English, but keeps the facts apart so that the web
says the same in the reader's language: a ``Phrase`` is the English text and also its
``template`` (``%(name)s`` fields) and ``params``; a ``FactsError`` is an error whose
message is one.  A parameter is a number, a name (a shape, a level, an adjacency, in
the engine's English), a cell ``(row, col)`` (said "row 2, column 3"), a list of cells,
a duration (``Seconds``), or another ``Phrase``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # for the annotation only: words stays free of engine imports at run time
    from .board import Cell

__all__ = ["FactsError", "Phrase", "Seconds", "cell_name", "english", "plural", "seconds"]


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



CELLS_SHOWN = 4  # cells a message names at most


def _is_cell(value: object) -> bool:
    return (isinstance(value, tuple) and len(value) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value))


def english(params: Mapping[str, object]) -> dict[str, object]:
    """A phrase's parameters as its English text shows them: cells as "row 2, column 3",
    a list of cells parted by semicolons (each name has a comma of its own; the first
    ``CELLS_SHOWN``, then "..."), ``Seconds`` as "1 second" or "2.5 seconds"."""
    shown: dict[str, object] = {}
    for key, value in params.items():
        if _is_cell(value):
            shown[key] = cell_name(value)  # type: ignore[arg-type]
        elif isinstance(value, list) and value and all(_is_cell(v) for v in value):
            more = "; ..." if len(value) > CELLS_SHOWN else ""
            shown[key] = "; ".join(cell_name(v) for v in value[:CELLS_SHOWN]) + more
        elif isinstance(value, Seconds):
            shown[key] = seconds(value)
        elif isinstance(value, float):
            shown[key] = f"{value:g}"
        else:
            shown[key] = value
    return shown


class Seconds(float):
    """A duration as a fact: a phrase says it "1 second", "0.5 seconds"."""


class Phrase(str):
    """English words that keep their facts: the text is ``template % params``; the
    template and the parameters are kept for whoever says it in another language."""

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, /, **params: Any) -> Phrase:
        self = super().__new__(cls, template % english(params) if params else template)
        self.template = template
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Across processes (the web app's children) with its facts.
        return (_phrase, (self.template, self.params))


def _phrase(template: str, params: dict[str, Any]) -> Phrase:
    return Phrase(template, **params)


class FactsError(ValueError):
    """A ValueError whose message is a ``Phrase``: English when printed, its facts kept
    (``template``, ``params``, ``phrase``) for a caller that words it otherwise."""

    def __init__(self, template: str, /, **params: Any) -> None:
        self.phrase = Phrase(template, **params)
        self.template = template
        self.params = params
        super().__init__(str(self.phrase))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_facts_error, (type(self), self.template, self.params))


def _facts_error(cls: type[FactsError], template: str, params: dict[str, Any]) -> FactsError:
    return cls(template, **params)
