"""The engine's reasons and errors in the reader's language, from their facts.

The engine words its reasons (why a puzzle has no solution), refusals (a shape that
cannot be played, a malformed puzzle text or id) and give-ups (the generator) in English
for the command line, and keeps the facts apart: an English template with ``%(name)s``
fields and its values (``engine.words.Phrase``, ``FactsError``; ``PuzzleFormatError``).
Here each template the engine can raise is matched with the msgid the site says it with
(``SAID``): the same words where they are plain enough for a player, other words where the
engine's are a programmer's ("rook", "seed", "time limit", "character 7").  The values
are said in the reader's language too: cells as "row 2, column 3" ("fila 2, columna 3"),
shapes and levels by their names, an adjacency by its variant's name (Hidato, Numbrix,
Hex), durations and numbers in the locale.  ``tests/test_translations.py`` checks that
every template the engine raises is here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine import CELLS_SHOWN, FactsError, Phrase, PuzzleFormatError, Seconds

from .messages import ENGLISH, N_, Words, decimal, seconds

# Puzzle text (the solver page): the engine's words are the site's.
PARSE_ERRORS = (
    N_("unknown adjacency %(name)s: expected king, rook or hex"),
    N_("too many lines (more than %(most)s)"),
    N_("line too long (%(count)s characters, at most %(most)s)"),
    N_("adjacency %(name)s contradicts %(declared)s declared on line %(first)s"),
    N_("blank line inside the board (write a row of holes as 'x x x')"),
    N_("too many rows (more than %(most)s)"),
    N_("too many columns (more than %(most)s)"),
    N_("board too large (more than %(most)s cells)"),
    N_("no cells: the puzzle needs at least one '.' or number"),
    N_("given %(given)s is larger than the number of cells (%(n)s)"),
    N_("negative number %(token)s: givens are 1..N"),
    N_("unknown token %(token)s: expected a number, '.' or 'x'"),
    N_("zero is not a given (%(token)s): write an empty cell as '.'"),
    N_("%(value)s is given twice (first at line %(first_line)s, column %(first_column)s)"),
)

# A puzzle's id (a link): said after "This link does not name a puzzle: ".
ID_ERRORS = {
    "puzzle id too long (%(count)s characters)": N_("the id is too long (%(count)s characters)"),
    "bad puzzle id: expected '{rows}x{cols}:' or '{rows}x{cols}r:' / 'h:' at the start":
        N_("the start is not a board's size (such as 7x7 followed by a colon)"),
    "bad puzzle id: %(rows)sx%(cols)s is larger than %(most)sx%(most)s":
        N_("a %(rows)s×%(cols)s board is larger than the largest, %(most)s×%(most)s"),
    "bad puzzle id: unexpected %(char)s at character %(at)s":
        N_("the character %(char)s at position %(at)s does not belong in an id"),
    "bad puzzle id: '_' must follow a number at character %(at)s":
        N_("the '_' at position %(at)s does not follow a number"),
    "bad puzzle id: number %(number)s at character %(at)s must not start with 0":
        N_("the number %(number)s at position %(at)s starts with 0"),
    "bad puzzle id: number %(number)s at character %(at)s is too large":
        N_("the number %(number)s at position %(at)s is too large"),
    "bad puzzle id: %(value)s at character %(at)s was already given at character %(first)s":
        N_("%(value)s is given twice, at positions %(first)s and %(at)s"),
    "bad puzzle id: more than %(area)s cells at character %(at)s":
        N_("at position %(at)s it goes past the end of its board"),
    "bad puzzle id: '_' must be followed by a number at character %(at)s":
        N_("the '_' before position %(at)s is not followed by a number"),
    "bad puzzle id: more than %(most)s cells at character %(at)s":
        N_("at position %(at)s its board has more than %(most)s cells"),
    "bad puzzle id: ends with '_'": N_("it ends with '_'"),
    "bad puzzle id: describes %(count)s of the %(area)s cells of a %(rows)sx%(cols)s grid":
        N_("it describes only %(count)s of the %(area)s cells of its %(rows)s×%(cols)s board"),
    "bad puzzle id: no cells": N_("its board has no cells"),
    "bad puzzle id: more than %(most)s cells": N_("its board has more than %(most)s cells"),
    "bad puzzle id: given %(value)s is larger than the number of cells (%(count)s)":
        N_("the given %(value)s is larger than the number of cells (%(count)s)"),
}

# Why a puzzle has no solution (engine.SolveResult.reason, a hint's NoSolution).
SOLVER_REASONS = {
    "two numbers both need the cell at %(cell)s": N_("two numbers both need the cell at %(cell)s"),
    "%(number)s cannot be placed: every cell it could use is taken":
        N_("%(number)s cannot be placed: every cell it could use is taken"),
    "no number can go in the cell at %(cell)s": N_("no number can go in the cell at %(cell)s"),
    "%(number)s is the only number that can fill the cell at %(cell)s and another":
        N_("%(number)s is the only number that can fill the cell at %(cell)s, and another cell too"),
    "the cell at %(cell)s is a dead end that neither 1 nor %(last)s can fill":
        N_("the cell at %(cell)s has only one neighbour the path can come from, so it must hold 1 or "
           "%(last)s, and neither can go there"),
    "%(number)s cannot be placed: only dead ends are left for it":
        N_("%(number)s cannot be placed: the only cells left for it are dead ends, where the path must "
           "start or stop"),
    "the numbers %(low)s to %(high)s need a cell another run needs too, at %(cell)s":
        N_("the numbers %(low)s to %(high)s must pass through the cell at %(cell)s, and so must other "
           "missing numbers"),
    "%(number)s cannot be placed: the cells left for it are needed by other numbers":
        N_("%(number)s cannot be placed: the cells left for it are needed by other numbers"),
    "the numbers %(low)s to %(high)s have no path between the numbers around them":
        N_("no path of free cells can hold the numbers %(low)s to %(high)s between the numbers around them"),
    "the numbers %(low)s to %(high)s have no region of free cells large enough to hold them":
        N_("no group of free cells is large enough to hold the numbers %(low)s to %(high)s"),
    "the region around %(cell)s has %(size)s cells, too few for the numbers that must go there":
        N_("the group of free cells around %(cell)s has %(size)s cells, too few for the numbers that must "
           "go there"),
    "the region around %(cell)s has %(size)s cells, and no set of missing numbers fills it exactly":
        N_("the group of free cells around %(cell)s has %(size)s cells, and no set of missing numbers fills "
           "it exactly"),
    "%(number)s cannot be placed: no free cell next to where %(other)s can go":
        N_("%(number)s cannot be placed: no free cell is next to a cell where %(other)s can go"),
    "%(number)s cannot be placed: no region has room for it":
        N_("%(number)s cannot be placed: no group of free cells has room for it"),
    "%(low)s at %(low_cell)s and %(high)s at %(high_cell)s are not connected: no path of cells leads from one "
    "to the other":
        N_("%(low)s at %(low_cell)s and %(high)s at %(high_cell)s are not connected: no path of cells leads "
           "from one to the other"),
    "%(low)s at %(low_cell)s and %(high)s at %(high_cell)s must touch, but they are %(distance)s steps apart":
        N_("%(low)s at %(low_cell)s and %(high)s at %(high_cell)s must touch, but they are %(distance)s "
           "steps apart"),
    "%(low)s at %(low_cell)s and %(high)s at %(high_cell)s are %(distance)s steps apart, but the path between "
    "them has only %(steps)s steps":
        N_("%(low)s at %(low_cell)s and %(high)s at %(high_cell)s are %(distance)s steps apart, but the path "
           "between them has only %(steps)s steps"),
}

# A shape that cannot be built or played (the forms, the solver page's Generate).
SHAPE_ERRORS = {
    "unknown shape %(name)s: expected one of %(choices)s":
        N_("there is no shape called %(name)s: choose one of %(choices)s"),
    "size must be a whole number, not %(size)s": N_("the size must be a whole number, not %(size)s"),
    "rows and cols apply to the rectangle only, not to the %(shape)s":
        N_("rows and columns can be chosen for the rectangle only, not for the %(shape)s shape"),
    "rectangle rows must be 1..%(most)s, not %(value)s": N_("a rectangle has 1 to %(most)s rows, not %(value)s"),
    "rectangle cols must be 1..%(most)s, not %(value)s":
        N_("a rectangle has 1 to %(most)s columns, not %(value)s"),
    "a %(rows)sx%(cols)s rectangle has %(cells)s cells, more than %(most)s":
        N_("a %(rows)s×%(cols)s rectangle has %(cells)s cells, more than %(most)s"),
    "size %(size)s is out of range for the %(shape)s: expected %(low)s..%(high)s":
        N_("the %(shape)s shape comes in sizes %(low)s to %(high)s, not %(size)s"),
    "unknown adjacency %(name)s: expected king, rook or hex": N_("unknown adjacency %(name)s: expected king, "
                                                                 "rook or hex"),
    "the %(shape)s shape is for %(allowed)s boards only, not %(adjacency)s":
        N_("the %(shape)s shape can't be played as %(adjacency)s"),
    "the %(rows)sx%(cols)s rectangle cannot be played with %(adjacency)s moves: %(why)s":
        N_("a %(rows)s×%(cols)s grid can't be played as %(adjacency)s: %(why)s"),
    "the %(shape)s of size %(size)s cannot be played with %(adjacency)s moves: %(why)s":
        N_("the %(shape)s shape of size %(size)s can't be played as %(adjacency)s: %(why)s"),
    "the cell at %(cell)s has no neighbour": N_("the cell at %(cell)s touches no other cell"),
    "%(count)s cells have no neighbour: %(cells)s": N_("%(count)s cells touch no other cell: %(cells)s"),
    "the shape falls apart into %(count)s pieces (of %(sizes)s cells)":
        N_("the shape falls apart into %(count)s pieces (of %(sizes)s cells), and one path cannot visit them all"),
    "the shape has %(count)s dead ends (cells with only one neighbour: %(cells)s); a path can start or stop in "
    "only two":
        N_("the shape has %(count)s dead ends (cells with only one neighbour: %(cells)s), but a path can start "
           "or stop in only two"),
    "a rook path alternates light and dark squares, but the shape has %(light)s light and %(dark)s dark ones "
    "(they may differ by at most one)":
        N_("a Numbrix path alternates light and dark squares, as on a chessboard, but this shape has %(light)s "
           "light and %(dark)s dark ones (they may differ by at most one)"),
    "the dead end at %(cell)s must be an end of the path, but it is light and a rook path over %(light)s light "
    "and %(dark)s dark squares starts and stops on dark ones":
        N_("the dead end at %(cell)s must be an end of the path, but it is a light square, and a Numbrix path "
           "over %(light)s light and %(dark)s dark squares starts and ends on dark ones"),
    "the dead end at %(cell)s must be an end of the path, but it is dark and a rook path over %(light)s light "
    "and %(dark)s dark squares starts and stops on light ones":
        N_("the dead end at %(cell)s must be an end of the path, but it is a dark square, and a Numbrix path "
           "over %(light)s light and %(dark)s dark squares starts and ends on light ones"),
    "the two dead ends are the same colour, but a rook path over as many light as dark squares starts and "
    "stops on different colours":
        N_("the two dead ends are the same colour, but a Numbrix path over as many light as dark squares starts "
           "and ends on different colours"),
    "removing the cell at %(cell)s splits the shape into %(count)s pieces; a path passes through it only once, "
    "so it can reach at most two":
        N_("removing the cell at %(cell)s splits the shape into %(count)s pieces, but a path passes through it "
           "only once, so it can reach at most two"),
    "%(count)s parts of the shape hang on a single cell (at %(cells)s); a path must end inside each of them, "
    "and it has only two ends":
        N_("%(count)s parts of the shape hang on a single cell (at %(cells)s): a path must end inside each of "
           "them, and it has only two ends"),
    "too many cells with at most two neighbours crowd round the cell at %(cell)s: a path passes through a cell "
    "once, so it can serve only two of them there, and it has only two ends for the rest":
        N_("too many cells with at most two neighbours crowd round the cell at %(cell)s: a path passes through "
           "a cell once, so it can serve only two of them there, and it has only two ends for the rest"),
    "no path covering every cell was found in %(steps)s search steps":
        N_("no path through every cell was found in %(steps)s steps of searching"),
    "no path can cover every cell of this board (every start was tried)":
        N_("no path can pass through every cell of this board (every starting cell was tried)"),
    "rows %(value)s is out of range for the rectangle: expected %(low)s..%(high)s":
        N_("a rectangle for a new puzzle has %(low)s to %(high)s rows, not %(value)s"),
    "cols %(value)s is out of range for the rectangle: expected %(low)s..%(high)s":
        N_("a rectangle for a new puzzle has %(low)s to %(high)s columns, not %(value)s"),
}

# The generator could not make the puzzle: in plain words, with no "seed" or "time
# limit" (the site's forms offer neither).
LEVEL_TOO_HARD_FOR_SHAPE = N_("the %(shape)s shape cannot make puzzles at the %(level)s level (%(range)s) in "
                              "%(adjacency)s: its paths are too constrained")
LEVEL_NEEDS_SIZE = N_("puzzles at the %(level)s level (%(range)s) need the %(shape)s shape at size %(smallest)s "
                      "or more in %(adjacency)s: on a smaller board the path has too few ways to go to need "
                      "chains that long")
GENERATION_ERRORS = {
    "no %(shape)s board with %(adjacency)s adjacency makes %(level)s puzzles (%(range)s): its paths are too "
    "constrained": LEVEL_TOO_HARD_FOR_SHAPE,
    "%(level)s puzzles (%(range)s) need %(article)s %(shape)s of size %(smallest)s or more with %(adjacency)s "
    "adjacency: on a smaller board the path has too few ways to go to need chains that long": LEVEL_NEEDS_SIZE,
    "could not make an %(level)s puzzle on this %(cells)s-cell board (tried %(attempts)s different solution "
    "paths): try another seed or a larger size":
        N_("no puzzle at the %(level)s level could be made on this board of %(cells)s cells: please try again, "
           "or choose a larger size"),
    "could not make %(article)s %(level)s puzzle on this %(cells)s-cell board (tried %(attempts)s different "
    "solution paths): try another seed, a larger size or an easier level":
        N_("no puzzle at the %(level)s level could be made on this board of %(cells)s cells: please try again, "
           "or choose a larger size or an easier level"),
    "gave up after %(time)s without an %(level)s puzzle on this %(cells)s-cell board: try another seed, a "
    "smaller size or a longer time limit":
        N_("no puzzle at the %(level)s level could be made on this board of %(cells)s cells in %(time)s: "
           "please try again, or choose a smaller size"),
    "gave up after %(time)s without %(article)s %(level)s puzzle on this %(cells)s-cell board: try another "
    "seed, a smaller size, an easier level or a longer time limit":
        N_("no puzzle at the %(level)s level could be made on this board of %(cells)s cells in %(time)s: "
           "please try again, or choose a smaller size or an easier level"),
    # A drawn shape (the solver page's Generate), said after "No puzzle could be made on this shape: ".
    "could not make an %(level)s puzzle on this %(cells)s-cell shape (tried %(attempts)s different solution "
    "paths): try another seed or a larger shape":
        N_("none of the %(attempts)s solution paths tried through its %(cells)s cells gave a puzzle at the "
           "%(level)s level: please try again, or draw a larger shape"),
    "could not make %(article)s %(level)s puzzle on this %(cells)s-cell shape (tried %(attempts)s different "
    "solution paths): try another seed, a larger shape or an easier level":
        N_("none of the %(attempts)s solution paths tried through its %(cells)s cells gave a puzzle at the "
           "%(level)s level: please try again, or draw a larger shape or choose an easier level"),
    "gave up after %(time)s without an %(level)s puzzle on this %(cells)s-cell shape: try another seed, a "
    "smaller shape or a longer time limit":
        N_("no puzzle at the %(level)s level was found on its %(cells)s cells in %(time)s: please try again, or "
           "draw a smaller shape"),
    "gave up after %(time)s without %(article)s %(level)s puzzle on this %(cells)s-cell shape: try another seed, "
    "a smaller shape, an easier level or a longer time limit":
        N_("no puzzle at the %(level)s level was found on its %(cells)s cells in %(time)s: please try again, or "
           "draw a smaller shape or choose an easier level"),
}

# Templates the site never shows: a mask is read by the command line only, and an id
# always comes to the site as text.
NOT_ON_THE_SITE = frozenset({
    "the mask has %(rows)s rows, more than %(most)s",
    "line %(line)s, column %(column)s: the mask is wider than %(most)s columns",
    "line %(line)s, column %(column)s: unexpected %(char)s in a mask (use '#' or 'o' for a cell, '.', 'x', '-' "
    "or space for none)",
    "line %(line)s, column %(column)s: the mask has more than %(most)s cells",
    "the mask has no cells: mark cells with '#' or 'o'",
    "a puzzle id must be text",
})

SAID: dict[str, str] = {**{template: template for template in PARSE_ERRORS}, **ID_ERRORS, **SOLVER_REASONS,
                        **SHAPE_ERRORS, **GENERATION_ERRORS}

# How an adjacency is named to a player: by the variant played with it (msgids of web/names.py).
VARIANT_NAMES = {"king": N_("Hidato"), "rook": N_("Numbrix"), "hex": N_("Hex")}
CELL = N_("row %(row)d, column %(col)d")  # as web/names.py says a cell
NAMED = ("shape", "level")  # parameters that are names with msgids of their own (web/names.py)


def facts_text(template: str, params: Mapping[str, Any], words: Words = ENGLISH) -> str:
    """The facts of an engine message in the language of ``words`` (its English when the
    template is unknown here, which the tests rule out)."""
    msgid = SAID.get(template)
    if msgid is None:
        return Phrase(template, **params)
    text = words.gettext(msgid)
    return text % {key: _value(key, value, words) for key, value in params.items()} if params else text


def phrase_text(phrase: Phrase, words: Words = ENGLISH) -> str:
    """An engine phrase (a solver's reason, say) in the language of ``words``."""
    return facts_text(phrase.template, phrase.params, words)


def error_text(err: FactsError | PuzzleFormatError, words: Words = ENGLISH) -> str:
    """An engine error's message in the language of ``words`` (a puzzle text's without its
    line and column: the caller places it)."""
    if isinstance(err, PuzzleFormatError):
        return parse_error_text(err, words)
    return facts_text(err.template, err.params, words)


def parse_error_text(err: PuzzleFormatError, words: Words = ENGLISH) -> str:
    """The error's message without its line and column, in the language of ``words``."""
    if not err.params:
        return words.gettext(SAID.get(err.message, err.message))
    return facts_text(err.template, err.params, words)


def cell_text(cell: tuple[int, int], words: Words = ENGLISH) -> str:
    """A cell as players count it, from 1: "row 2, column 3"."""
    return words.gettext(CELL) % {"row": cell[0] + 1, "col": cell[1] + 1}


def _value(key: str, value: Any, words: Words) -> Any:
    """One fact as the reader's language says it."""
    if isinstance(value, Phrase):
        return phrase_text(value, words)
    if isinstance(value, Seconds):
        return seconds(value, words)
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, float)):
        return decimal(value, words)
    if _is_cell(value):
        return cell_text(value, words)
    if isinstance(value, list) and value and all(_is_cell(v) for v in value):
        shown = "; ".join(cell_text(v, words) for v in value[:CELLS_SHOWN])
        return shown + ("; …" if len(value) > CELLS_SHOWN else "")
    if key == "adjacency" and value in VARIANT_NAMES:
        return words.gettext(VARIANT_NAMES[value])
    if key in NAMED and isinstance(value, str):
        return words.gettext(value)
    return value


def _is_cell(value: object) -> bool:
    return (isinstance(value, tuple) and len(value) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value))
