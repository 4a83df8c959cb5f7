"""A hint in words: the engine's facts (``engine.Hint``) as the sentence a player reads.

The engine says which rule placed which number in which cell; this module says it in
English, or in the player's language through the translation functions it is given
(Flask-Babel's on the site), so the command line and the pages tell the same facts.
Core does not import Flask: the caller passes ``gettext`` and ``ngettext``, and every
sentence is written here as a ``gettext("...")`` call so ``pybabel extract`` finds it.

``gettext`` returns a message translated and unformatted; the ``%(name)s`` fields are
filled in here.  ``ngettext`` may fill ``%(num)d`` itself (Flask-Babel's does) or not
(the standard library's): plural messages here have no other field, so both work.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import (
    Cell,
    Chain,
    Deduced,
    FromSolution,
    Hint,
    HintReason,
    Mistake,
    NoSolution,
    OnlyCell,
    OnlyNeighbour,
    Solved,
)

from .messages import ENGLISH

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]
# English, the language the messages are written in (the standard library's null catalogue).
english: Gettext = ENGLISH.gettext
english_plural: Ngettext = ENGLISH.ngettext


def hint_text(hint: Hint, gettext: Gettext = english) -> str:
    """The hint as one or more sentences: "7 must go in row 2, column 5: it is the only
    free cell touching both 6 and 8."."""
    return reason_text(hint.reason, gettext)


def reason_text(reason: HintReason, gettext: Gettext = english) -> str:
    """A hint's reason in words (see ``hint_text``)."""
    if isinstance(reason, Mistake):
        return _mistake(reason, gettext)
    if isinstance(reason, OnlyCell):
        return gettext("%(number)s must go in row %(row)s, column %(column)s: it is the only free cell "
                       "touching both %(before)s and %(after)s.") % {
            **_place(reason.number, reason.cell), "before": reason.between[0], "after": reason.between[1]}
    if isinstance(reason, OnlyNeighbour):
        if reason.anchor > reason.number:
            message = gettext("%(number)s must go in row %(row)s, column %(column)s: %(anchor)s needs the "
                              "number before it next to it, and this is its only free neighbour.")
        else:
            message = gettext("%(number)s must go in row %(row)s, column %(column)s: %(anchor)s needs the "
                              "number after it next to it, and this is its only free neighbour.")
        return message % {**_place(reason.number, reason.cell), "anchor": reason.anchor}
    if isinstance(reason, Deduced):
        return _deduced(reason, gettext)
    if isinstance(reason, FromSolution):
        if reason.why == "long chain":
            message = gettext("The next deduction takes a long chain of reasoning; "
                              "%(number)s goes in row %(row)s, column %(column)s.")
        else:
            message = gettext("No deduction short of guessing is left; "
                              "%(number)s goes in row %(row)s, column %(column)s.")
        return message % _place(reason.number, reason.cell)
    if isinstance(reason, Solved):
        return gettext("The board is complete and correct.")
    if isinstance(reason, NoSolution):
        # The solver's reason is English: it names numbers and cells in its own sentence.
        why = reason.why or gettext("no way to place every number")
        return gettext("This puzzle has no solution: %(why)s.") % {"why": why}
    raise TypeError(f"not a hint's reason: {reason!r}")


def chain_text(chain: Chain, gettext: Gettext = english) -> str:
    """A chain as a sentence without its full stop: "If 23 were in row 2, column 5, 24 would
    have to go in row 3, column 6 and 25 would have nowhere to go, so 23 is not in row 2,
    column 5"."""
    parts = [gettext("If %(number)s were in row %(row)s, column %(column)s") % _place(chain.number, chain.cell)]
    for step in chain.steps:
        parts.append(gettext("%(number)s would have to go in row %(row)s, column %(column)s")
                     % _place(step.number, step.cell))
    if chain.nowhere is not None:
        end = gettext("%(number)s would have nowhere to go") % {"number": chain.nowhere}
    else:
        assert chain.unfilled is not None
        end = gettext("no number could fill row %(row)s, column %(column)s") % _cell(chain.unfilled)
    return gettext("%(steps)s and %(end)s, so %(number)s is not in row %(row)s, column %(column)s") % {
        "steps": ", ".join(parts), "end": end, **_place(chain.number, chain.cell)}


def _deduced(reason: Deduced, gettext: Gettext) -> str:
    fields = _place(reason.number, reason.cell)
    if reason.ranges:
        if reason.rule == "only cell":
            message = gettext("%(number)s must go in row %(row)s, column %(column)s: once each missing number "
                              "is kept next to the cells its neighbours can still use, it is the only cell left "
                              "for %(number)s within reach of the numbers around it.")
        else:
            message = gettext("%(number)s must go in row %(row)s, column %(column)s: once each missing number "
                              "is kept next to the cells its neighbours can still use, no other missing number "
                              "can reach that cell.")
        return message % fields
    if reason.rule == "only cell":
        placed = gettext("%(number)s must go in row %(row)s, column %(column)s: it is the only cell left for "
                         "%(number)s within reach of the numbers around it.") % fields
    else:
        placed = gettext("%(number)s must go in row %(row)s, column %(column)s: no other missing number can "
                         "reach that cell.") % fields
    if reason.chain is None:
        return placed
    return gettext("%(chain)s. Then %(placement)s") % {"chain": chain_text(reason.chain, gettext),
                                                        "placement": placed}


def _mistake(reason: Mistake, gettext: Gettext) -> str:
    fields = _place(reason.entered, reason.cell)
    if reason.already_at is not None:
        other = _cell(reason.already_at)
        return gettext("The %(number)s in row %(row)s, column %(column)s is wrong: %(number)s is already at "
                       "row %(other_row)s, column %(other_column)s.") % {
            **fields, "other_row": other["row"], "other_column": other["column"]}
    if reason.apart is not None:
        neighbour, where = reason.apart
        other = _cell(where)
        return gettext("The %(number)s in row %(row)s, column %(column)s is wrong: it does not touch "
                       "%(neighbour)s at row %(other_row)s, column %(other_column)s.") % {
            **fields, "neighbour": neighbour, "other_row": other["row"], "other_column": other["column"]}
    return gettext("The %(number)s in row %(row)s, column %(column)s is wrong.") % fields


def _cell(cell: Cell) -> dict[str, int]:
    """A cell's row and column as players count them, from 1."""
    return {"row": cell[0] + 1, "column": cell[1] + 1}


def _place(number: int, cell: Cell) -> dict[str, int]:
    return {"number": number, **_cell(cell)}
