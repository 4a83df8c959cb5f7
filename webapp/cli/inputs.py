"""Each puzzle of the input as a ``Puzzle``: a board in the notation, a compact id, a
link to ``/p/<id>``, or a printed short link ``/s/<short>``.

Ids and links carry their own adjacency (``--adjacency`` changes only boards in the
notation).  A short link names a row of the site's database: it is looked up there
(``site.py``: ``DATABASE_URL``, or the instance database ``hidato serve`` uses), which is
opened on the first short link, so input without one never loads SQLAlchemy.  Every
problem is a ``PuzzleFormatError`` naming the line, as for a malformed board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine import Puzzle, PuzzleFormatError, parse_puzzle, puzzle_from_id

from .common import Block
from .site import NoDatabase, close, open_store

if TYPE_CHECKING:
    from ..store.store import Store


class Puzzles:
    """Turns the blocks of the input into puzzles; ``close`` when done (the database)."""

    def __init__(self, adjacency: str | None = None):
        self.adjacency = adjacency
        self._store: Store | None = None
        self._store_problem: str | None = None

    def puzzle(self, block: Block) -> Puzzle:
        """The block's puzzle; PuzzleFormatError (with the line) when it is not one."""
        if block.problem is not None:
            raise _at(str(block.problem), block.first_line)
        reference = block.reference
        if reference is None:
            return parse_puzzle(block.text, adjacency=self.adjacency, first_line=block.first_line)
        if reference.kind == "id":
            try:
                return puzzle_from_id(reference.value)
            except PuzzleFormatError as err:
                located = _at(err.message, block.first_line)
                located.template, located.params = err.template, err.params
                raise located from None
        return self._short(reference.value, block.first_line)

    def _short(self, short: str, line: int) -> Puzzle:
        store = self._open(line)
        found = store.find_short(short)
        if found is None:
            raise _at(f"there is no puzzle with the short link /s/{short} in the site database", line)
        return found.puzzle

    def _open(self, line: int) -> Store:
        if self._store is None and self._store_problem is None:
            try:
                self._store, _shown = open_store()
            except NoDatabase as err:
                self._store_problem = str(err)
        if self._store is None:
            raise _at(f"a short link is looked up in the site's database, but {self._store_problem}: use the "
                      "puzzle's id (printed with its solution) or its /p/ link instead", line)
        return self._store

    def close(self) -> None:
        close(self._store)
        self._store = None


def _at(message: str, line: int) -> PuzzleFormatError:
    return PuzzleFormatError(message, line)
