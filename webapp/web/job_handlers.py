"""Every kind of background job the site runs and its handler, in one place (``jobs.py``
runs them): every process registers all of them, so any worker on any host can do any job.
Each handler runs in its request's language and returns its outcome (``Done``); what the
pages then show of it is theirs (``job_answer.py``).

- ``generate``: New puzzle's options, from the pool's generator under the budget (a board
  not made in time is wished for instead: ``NOT_MADE_YET``);
- ``shape``: a puzzle on the cells drawn on the solver page;
- ``booklet``: a booklet's puzzles from its seed, then its PDF;
- ``own_booklet``: a booklet of one's own puzzles, each checked first (see its part below);
- ``photo``: a photo's reading, in a child under a time and memory budget.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from flask_babel import ngettext

from engine import GenerationError, Seconds, SolveResult, puzzle_from_id

from ..core.engine_words import phrase_text
from ..core.messages import Refusal, kept, seconds
from ..core.options import VARIANTS, Options, variant_of
from ..core.stored import StoredPuzzle, stored_from
from ..paper.booklet import Stage, layout, make_share, plan, render_pdf, title_of, with_seed
from ..scan import ScanError
from ..store.catalog import unplayable_reason
from ..store.shared import Ticket
from ..store.wishes import record_wish
from ..work import tasks
from ..work.budget import OutOfMemory, OutOfTime
from . import heavy, photo_work
from .heavy import engine_seconds
from .i18n import language, words
from .jobs import Done, Jobs, Progress
from .own_booklet import KIND as OWN_BOOKLET
from .photo import KIND as PHOTO
from .photo import OUT_OF_MEMORY, OUT_OF_TIME, STATUS, stage_json
from .photo_view import reading_json
from .printing import RENDER_SECONDS, SLICE_SECONDS, parse_booklet_form, short_path
from .services import services

NOT_MADE_YET = "-not-made-yet"  # a generate job's outcome when the board was wished for instead


def register_jobs(jobs: Jobs) -> None:
    """Tell ``jobs`` how to do each kind."""
    jobs.handle("generate", generate_job)
    jobs.handle("shape", shape_job)
    jobs.handle("booklet", booklet_job)
    jobs.handle(OWN_BOOKLET, own_booklet_job)
    jobs.handle(PHOTO, photo_job)


# --- generate ------------------------------------------------------------------------------


def generate_job(job: Ticket, _progress: Progress) -> Done:
    """The job behind New puzzle: a puzzle for the options asked, stored; its id.

    A board the generator did not make within the budget (out of time, or no path it
    tried gave one) is wished for instead: kept in the database, so the pool's filler on
    any host makes it next, and this host's filler starts on it now (or after the run it
    is on)."""
    found = services()
    budget = float(current_app.config["GENERATE_SECONDS"])
    options = generate_options(job)
    try:
        made = heavy.generate(found.runner, budget, options)
    except (OutOfTime, GenerationError) as err:
        if isinstance(err, GenerationError) and not {"time", "attempts"} & set(err.params):
            raise  # the level cannot be reached on this board at all: a refusal, said as one
        record_wish(found.store, options)
        found.refiller.request()  # the pool's targets, wishes first: never more than the few kept
        return Done(NOT_MADE_YET)
    return Done(found.store.save_puzzle(made).code)


def generate_options(job: Ticket) -> Options:
    """The options a generate job was asked for (its request also holds its language)."""
    return Options(**{key: value for key, value in job.request.items() if key != "lang"})


# --- shape ---------------------------------------------------------------------------------


def shape_job(job: Ticket, _progress: Progress) -> Done:
    """The job behind Generate: a puzzle on the drawn cells, stored; its id."""
    found = services()
    budget = float(current_app.config["GENERATE_SECONDS"])
    cells = [(int(r), int(c)) for r, c in job.request["cells"]]
    made = found.runner.run_queued(budget, tasks.generate_on, cells, job.request["board_adjacency"],
                                   job.request["difficulty"], secrets.randbits(48), heavy.engine_seconds(budget))
    return Done(found.store.save_puzzle(stored_from(made)).code)


# --- booklet -------------------------------------------------------------------------------


def booklet_job(job: Ticket, progress: Progress) -> Done:
    """The job that makes a booklet: its puzzles, then the PDF, in child processes under
    their budgets, saying how far they have got; the PDF is kept with the job.

    The puzzles come from the booklet's seed alone, never from the pool: a pooled puzzle
    was made from a seed of its own, and the seed printed with the booklet must make the
    booklet again.  They are made in as many children at once as there are shared slots
    free (``Runner.run_split``), each child giving its slot back every few seconds."""
    found = services()
    options = with_seed(parse_booklet_form(job.request))  # a job queued by an older release may have none
    budget = float(current_app.config["GENERATE_SECONDS"])
    title = title_of(options, words())  # the job runs in its request's language (jobs.py)
    made = 0

    def one_made(_index: int) -> None:
        nonlocal made
        made += 1
        progress(_("%(done)s of %(count)s puzzles made", done=made, count=options.count))

    puzzles = found.runner.run_split(budget, make_share, plan(options), engine_seconds(budget), SLICE_SECONDS,
                                     progress=one_made)
    for stored in puzzles:  # so /p/<id> knows each puzzle's shape and difficulty at once
        found.store.save_puzzle(stored)
    return booklet_outcome(puzzles, options.per_page, options.paper, options.name_line, title, progress,
                           seed=options.seed)


def booklet_outcome(puzzles: list[StoredPuzzle], per_page: int, paper: str, name_line: bool, title: str,
                    progress: Progress, seed: int | None = None) -> Done:
    """A booklet job's end, for stored puzzles: their short links (the QR codes, when the
    site has an address), the PDF rendered in a child saying how far it has got, and the
    outcome the ready page reads (title, pages, seed)."""
    found = services()
    link_root = current_app.config["PUBLIC_URL"] or None  # no address: no QR codes
    links = {}
    for stored in puzzles:
        short = found.store.short_code(stored.code) if link_root else None
        if link_root and short:  # a short link the site resolves (/s/<code>), in the sheet's language
            links[stored.code] = link_root + short_path(short)
    progress(_("laying out the pages"))

    def stage(message: Stage) -> None:
        step, done, of = message
        if step == "prepare":
            progress(_("preparing the pages, step %(step)s of %(steps)s", step=done, steps=of))
        elif step == "layout":
            progress(_("laying out page %(page)s of %(pages)s", page=done, pages=of))
        else:
            progress(_("writing page %(page)s of %(pages)s into the PDF", page=done, pages=of))

    try:  # in a child process too: WeasyPrint holds the interpreter for seconds on end
        pdf = found.runner.run_queued(RENDER_SECONDS, render_pdf, puzzles, per_page, title, links,
                                      paper, name_line, language(), seed, progress=stage)
    except OutOfTime as err:
        raise ValueError(_("Laying out the pages took longer than %(time)s: try fewer puzzles or more to a page.",
                           time=seconds(err.seconds, words()))) from None
    laid_out = layout(puzzles, per_page, paper, links=links)
    return Done(json.dumps({"title": title, "pages": laid_out.page_count, "seed": seed}), pdf)


# --- own_booklet: The job behind a booklet of one's own puzzles (``own_booklet.py``): check each puzzle,
# then lay out the PDF.
#
# A puzzle the site has stored is known to have one solution; any other is solved in a
# child process within the solving budget (``HIDATO_SOLVE_SECONDS``), one after another,
# the waiting page saying which.  One that has no solution, several, or cannot be settled
# in time is named with its place in the list and why (in the asker's language: the job
# runs under it); if any is, nothing is printed and the form says them all.  Otherwise the
# puzzles are stored (so the site knows them, and they get short links for the QR codes
# when the site has a public address, as generated booklets do) and the PDF is rendered
# in a child process by the same code as the generated booklets (``render_pdf``).


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
    title = str(asked.get("title") or "") or own_title(puzzles)
    for stored in puzzles:  # the site knows them now (and they get short links)
        found.store.save_puzzle(stored)
    return booklet_outcome(puzzles, per_page, paper, name_line, title, progress)


def own_title(puzzles: list[StoredPuzzle]) -> str:
    """``12 Hidato puzzles`` (one variant), else ``12 puzzles``, in the job's language."""
    count = len(puzzles)
    kinds = {variant_of(stored.adjacency).key for stored in puzzles}
    if len(kinds) == 1:
        variant = _(VARIANTS[kinds.pop()].label)  # the variants' names: msgids in names.py
        return ngettext("%(num)s %(variant)s puzzle", "%(num)s %(variant)s puzzles", count, variant=variant)
    return ngettext("%(num)s puzzle", "%(num)s puzzles", count)


# --- photo ---------------------------------------------------------------------------------


def photo_job(job: Ticket, progress: Progress) -> Done:
    """The job behind the form: the picture read in a child under a time and memory budget.

    Its outcome is JSON: the reading (and the picture for the page as the job's file, in
    place of the upload), or a refusal as its msgid and facts, said later in the language
    of whoever looks."""
    found = services()
    data = found.jobs.file(job.ticket)
    if data is None:  # kept with the job when it was added: only a job from before a cleanup lacks it
        raise ValueError(_("The photo is no longer kept. Please send it again."))
    seconds = float(current_app.config["PHOTO_SECONDS"])
    memory = int(current_app.config["PHOTO_MEMORY_MB"]) * 1024 * 1024

    def stage(text: Any) -> None:
        progress(json.dumps(stage_json(str(text))))

    stage("loading the picture")
    refusal: Refusal
    try:
        reading, picture = found.runner.run_queued(seconds, photo_work.read_photo, data, job.request.get("adjacency"),
                                                   bool(job.request.get("entries")), progress=stage, memory=memory)
    except ScanError as err:
        refusal, status = err, STATUS.get(type(err), 422)
    except OutOfTime as err:
        refusal, status = Refusal(OUT_OF_TIME, time=Seconds(err.seconds)), 422
    except OutOfMemory as err:
        refusal, status = Refusal(OUT_OF_MEMORY, mb=err.limit // (1024 * 1024)), 422
    else:
        return Done(reading_json(reading), picture)
    # b"": the stranger's file goes at once, not when the job expires.
    return Done(json.dumps({"refused": kept(refusal), "status": status}), b"")
