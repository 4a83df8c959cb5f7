"""Puzzles by id for a request: found in the store, or (new to the site) charged to the
rate limit like a new puzzle and solved in a child process within the solving budget;
and what a link that names no puzzle is told."""

from __future__ import annotations

from flask import current_app
from flask_babel import gettext as _

from engine import Puzzle, SolveResult

from ..core.engine_words import error_text
from ..core.stored import StoredPuzzle
from ..store.catalog import MalformedId, load
from . import heavy
from .i18n import words
from .limits import charge
from .services import services


def puzzle_for_request(code: str) -> StoredPuzzle:
    """The stored puzzle with this id, for a request: solved (charged to the client, in a child
    under the solving budget) if it is new; MalformedId, NotPlayable, TooManyRequests or Busy."""
    solve = heavy.solver(services().runner, float(current_app.config["SOLVE_SECONDS"]))

    def charged(puzzle: Puzzle) -> SolveResult:
        charge("generate")
        return solve(puzzle)

    return load(services().store, code, charged)


def not_a_puzzle(code: str, err: MalformedId) -> str:
    """A malformed id in a plain sentence, in the reader's language, from the engine's facts."""
    shown = code if len(code) <= 40 else code[:40] + "…"
    return _("This link does not name a puzzle: in “%(id)s”, %(why)s. Check that the link was copied whole.",
             id=shown, why=error_text(err.error, words()))
