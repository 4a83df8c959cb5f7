"""The job behind a booklet of one's own puzzles (``own_booklet.py``): check each puzzle,
then lay out the PDF.

A puzzle the site has stored is known to have one solution; any other is solved in a
child process within the solving budget (``HIDATO_SOLVE_SECONDS``), one after another,
the waiting page saying which.  One that has no solution, several, or cannot be settled
in time is named with its place in the list and why (in the asker's language: the job
runs under it); if any is, nothing is printed and the form says them all.  Otherwise the
puzzles are stored (so the site knows them, and they get short links for the QR codes
when the site has a public address, as generated booklets do) and the PDF is rendered
in a child process by the same code as the generated booklets (``render_pdf``).
"""

from __future__ import annotations

import json
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from flask_babel import ngettext

from engine import SolveResult, puzzle_from_id

from ..core.engine_words import phrase_text
from ..core.messages import kept, seconds
from ..core.options import VARIANTS, variant_of
from ..core.stored import StoredPuzzle
from ..store.catalog import unplayable_reason
from ..store.shared import Ticket
from ..work import tasks
from ..work.budget import OutOfTime
from . import heavy
from .i18n import words
from .jobs import Done, Progress
from .printing import booklet_outcome
from .services import services


def own_booklet_job(job: Ticket, progress: Progress) -> Done:
    """Check every puzzle of the list, then the PDF; or the problems found, and no PDF."""
    asked = job.request
    listed = [(int(number), int(line), str(code)) for number, line, code in asked["listed"]]
    puzzles: list[StoredPuzzle] = []
    problems: list[dict[str, Any]] = []
    for done, (number, line, code) in enumerate(listed, start=1):
        progress(_("checking puzzle %(done)s of %(count)s", done=done, count=len(listed)))
        stored, why = checked(code)
        if stored is None:
            problems.append({"number": number, "text": _("Puzzle %(number)s (line %(line)s): %(why)s",
                                                         number=number, line=line, why=why)})
        else:
            puzzles.append(stored)
    if problems:
        return Done(json.dumps({"problems": problems}))
    return _printed(asked, puzzles, progress)


def checked(code: str) -> tuple[StoredPuzzle | None, str]:
    """The puzzle, stored, when it has exactly one solution; else None and why, in words."""
    found = services()
    stored = found.store.find_puzzle(code)
    if stored is not None:
        return stored, ""
    puzzle = puzzle_from_id(code)  # read once already, in the request
    budget = float(current_app.config["SOLVE_SECONDS"])
    try:
        result: SolveResult = found.runner.run_queued(budget, tasks.solve, puzzle, heavy.engine_seconds(budget))
    except OutOfTime:
        result = SolveResult(complete=False, seconds=budget, limit=2)
    problem = unplayable_reason(result)
    if problem is None and result.solution is not None:
        return found.store.save_puzzle(StoredPuzzle(code, puzzle, result.solution)), ""
    if problem is not None:
        found.store.save_unplayable(code, kept(problem))  # as a puzzle page would: asked again, no solve
    return None, _reason(result, budget)


def _reason(result: SolveResult, budget: float) -> str:
    """Why a puzzle cannot be printed, for a teacher."""
    if result.count >= 2:
        return _("it has more than one solution, and a printed puzzle needs exactly one: a given or two more "
                 "would settle it")
    if result.count == 0 and result.complete:
        if result.reason:
            return _("it has no solution: %(why)s", why=phrase_text(result.reason, words()))
        return _("it has no solution")
    return _("it could not be checked within %(time)s: the solver stopped before it could tell whether it has "
             "exactly one solution", time=seconds(budget, words()))


def _printed(asked: dict[str, Any], puzzles: list[StoredPuzzle], progress: Progress) -> Done:
    """The PDF of checked puzzles, with short links in its QR codes when the site has an address."""
    found = services()
    per_page, paper, name_line = int(asked["per_page"]), str(asked["paper"]), asked.get("name_line") == "on"
    title = str(asked.get("title") or "") or title_of(puzzles)
    for stored in puzzles:  # the site knows them now (and they get short links)
        found.store.save_puzzle(stored)
    return booklet_outcome(puzzles, per_page, paper, name_line, title, progress)


def title_of(puzzles: list[StoredPuzzle]) -> str:
    """``12 Hidato puzzles`` (one variant), else ``12 puzzles``, in the job's language."""
    count = len(puzzles)
    kinds = {variant_of(stored.adjacency).key for stored in puzzles}
    if len(kinds) == 1:
        variant = _(VARIANTS[kinds.pop()].label)  # the variants' names: msgids in names.py
        return ngettext("%(num)s %(variant)s puzzle", "%(num)s %(variant)s puzzles", count, variant=variant)
    return ngettext("%(num)s puzzle", "%(num)s puzzles", count)
