"""The engine's puzzle-text errors in the reader's language.

The engine words its errors in English but keeps the facts apart
(``PuzzleFormatError.template`` and ``.params``); the templates are copied here as
msgids so ``make translations`` extracts them (``tests/test_translations.py`` checks that
every template the engine raises is here), and ``parse_error_text`` says one in the
language of the gettext object it is given.
"""

from __future__ import annotations

from engine import PuzzleFormatError

from .messages import ENGLISH, N_, Words

PARSE_ERRORS = (
    N_("unknown adjacency %(name)s: expected king, rook or hex"),
    N_("too many lines (more than %(most)s)"),
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


def parse_error_text(err: PuzzleFormatError, words: Words = ENGLISH) -> str:
    """The error's message without its line and column, in the language of ``words``."""
    if not err.params:
        return words.gettext(err.message)
    return words.gettext(err.template) % err.params
