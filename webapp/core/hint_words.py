"""A hint in words: the engine's facts (``engine.Hint``) as the sentences a player reads.

The engine says which rule placed which number in which cell; this module says it in
English, or in the player's language through the catalogue it is given (``words``, as in
``core.messages``: the site passes the reader's), so the command line and the pages tell
the same facts.  Every sentence is written here as a ``words.gettext("...")`` call so
``pybabel extract`` finds it, and its ``%(name)s`` fields are filled in here.

A hint is short enough to read at a glance: at most ``MAX_WORDS`` words in English.  A
long chain of "what if" is told by its first step and its last, with "…" between them.
"""

from __future__ import annotations

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
    Phrase,
    Solved,
)

from .engine_words import phrase_text
from .messages import ENGLISH, Words

MAX_WORDS = 60  # the longest hint, in English words (the tests walk many puzzles to check)
CHAIN_STEPS_SHOWN = 2  # a chain with more forced steps shows its first and its last, "…" between


def hint_text(hint: Hint, words: Words = ENGLISH) -> str:
    """The hint as one or more sentences: "7 must go in row 2, column 5: it is the only
    free cell touching both 6 and 8."."""
    return reason_text(hint.reason, words)


def reason_text(reason: HintReason, words: Words = ENGLISH) -> str:
    """A hint's reason in words (see ``hint_text``)."""
    if isinstance(reason, Mistake):
        return _mistake(reason, words)
    if isinstance(reason, OnlyCell):
        return words.gettext("%(number)s must go in row %(row)s, column %(column)s: it is the only free cell "
                             "touching both %(before)s and %(after)s.") % {
            **_place(reason.number, reason.cell), "before": reason.between[0], "after": reason.between[1]}
    if isinstance(reason, OnlyNeighbour):
        return words.gettext("%(number)s must go in row %(row)s, column %(column)s: %(anchor)s needs %(number)s "
                             "next to it, and this is the only free cell next to %(anchor)s.") % {
            **_place(reason.number, reason.cell), "anchor": reason.anchor}
    if isinstance(reason, Deduced):
        return _deduced(reason, words)
    if isinstance(reason, FromSolution):
        if reason.why == "long chain":
            message = words.gettext("The next deduction takes a long chain of reasoning; "
                                    "%(number)s goes in row %(row)s, column %(column)s.")
        else:
            message = words.gettext("No deduction short of guessing is left; "
                                    "%(number)s goes in row %(row)s, column %(column)s.")
        return message % _place(reason.number, reason.cell)
    if isinstance(reason, Solved):
        return words.gettext("The board is complete and correct.")
    if isinstance(reason, NoSolution):
        # The solver's reason, from its facts (engine_words), or a plain one.
        if isinstance(reason.why, Phrase):
            why = phrase_text(reason.why, words)
        else:
            why = reason.why or words.gettext("no way to place every number")
        return words.gettext("This puzzle has no solution: %(why)s.") % {"why": why}
    raise TypeError(f"not a hint's reason: {reason!r}")


def chain_text(chain: Chain, words: Words = ENGLISH) -> str:
    """A chain as a sentence without its full stop: "If 23 were in row 2, column 5, 24 would
    have to go in row 3, column 6 and 25 would have nowhere to go, so 23 is not in row 2,
    column 5".  A long chain shows its first forced step and its last: "…, 30 in row 4,
    column 4"."""
    parts = [words.gettext("If %(number)s were in row %(row)s, column %(column)s") % _place(chain.number, chain.cell)]
    steps = list(chain.steps)
    if len(steps) > CHAIN_STEPS_SHOWN:
        steps = [steps[0], steps[-1]]
    for index, step in enumerate(steps):
        if index == 0:
            parts.append(words.gettext("%(number)s would have to go in row %(row)s, column %(column)s")
                         % _place(step.number, step.cell))
        else:
            if len(chain.steps) > CHAIN_STEPS_SHOWN:
                parts.append("…")
            parts.append(words.gettext("%(number)s in row %(row)s, column %(column)s") % _place(step.number, step.cell))
    if chain.nowhere is not None:
        end = words.gettext("%(number)s would have nowhere to go") % {"number": chain.nowhere}
    else:
        assert chain.unfilled is not None
        end = words.gettext("no number could fill row %(row)s, column %(column)s") % _cell(chain.unfilled)
    return words.gettext("%(steps)s and %(end)s, so %(number)s is not in row %(row)s, column %(column)s") % {
        "steps": ", ".join(parts), "end": end, **_place(chain.number, chain.cell)}


def _deduced(reason: Deduced, words: Words) -> str:
    fields = _place(reason.number, reason.cell)
    if reason.chain is not None:
        chain = chain_text(reason.chain, words)
        if reason.rule == "only cell":
            message = words.gettext("%(chain)s. Then %(number)s goes in row %(row)s, column %(column)s, the only cell "
                                    "left for it.")
        else:
            message = words.gettext("%(chain)s. Then %(number)s goes in row %(row)s, column %(column)s, the only "
                                    "number left for that cell.")
        return message % {"chain": chain, **fields}
    if reason.ranges:
        if reason.rule == "only cell":
            message = words.gettext("%(number)s must go in row %(row)s, column %(column)s. Each missing number must "
                                    "touch the numbers just before and after it; crossing out the cells where that "
                                    "cannot happen leaves this as the only cell for %(number)s.")
        else:
            message = words.gettext("%(number)s must go in row %(row)s, column %(column)s. Each missing number must "
                                    "touch the numbers just before and after it; crossing out the cells where that "
                                    "cannot happen leaves %(number)s as the only number for this cell.")
        return message % fields
    if reason.rule == "only cell":
        return words.gettext("%(number)s must go in row %(row)s, column %(column)s: it is the only cell left where "
                             "%(number)s can still link up with the numbers before and after it.") % fields
    return words.gettext("%(number)s must go in row %(row)s, column %(column)s: no other missing number can reach "
                         "that cell.") % fields


def _mistake(reason: Mistake, words: Words) -> str:
    fields = _place(reason.entered, reason.cell)
    if reason.already_at is not None:
        other = _cell(reason.already_at)
        return words.gettext("The %(number)s in row %(row)s, column %(column)s is wrong: %(number)s is already at "
                             "row %(other_row)s, column %(other_column)s.") % {
            **fields, "other_row": other["row"], "other_column": other["column"]}
    if reason.apart is not None:
        neighbour, where = reason.apart
        other = _cell(where)
        return words.gettext("The %(number)s in row %(row)s, column %(column)s is wrong: it does not touch "
                             "%(neighbour)s at row %(other_row)s, column %(other_column)s.") % {
            **fields, "neighbour": neighbour, "other_row": other["row"], "other_column": other["column"]}
    return words.gettext("The %(number)s in row %(row)s, column %(column)s is wrong.") % fields


def _cell(cell: Cell) -> dict[str, int]:
    """A cell's row and column as players count them, from 1."""
    return {"row": cell[0] + 1, "column": cell[1] + 1}


def _place(number: int, cell: Cell) -> dict[str, int]:
    return {"number": number, **_cell(cell)}
