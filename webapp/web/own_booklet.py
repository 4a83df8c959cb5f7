"""Booklets of the puzzles a teacher chooses: pasted boards, ids, links, drawn shapes and
puzzles from My puzzles, printed as the generated booklets are (``paper.booklet``).

``/booklet/own`` is the form: a list of puzzles (``core.puzzle_list``: boards in the
notation separated by blank lines, or one id or link a line) with the paper, the number
to a page and the name line; ``?id=`` fills it (My puzzles sends the puzzles ticked
there), and the solver page's "Add to a booklet" posts its board to
``/booklet/own/from-solver``.  What can be seen at once (a malformed board or id, an
unknown short link, more than 50 puzzles, a board too large) is said at once, each
problem with the puzzle's place in the list; the rest is a job (``job_handlers.py``)
that checks every puzzle has exactly one solution, within the solving budget, and only
then lays out the PDF, so 50 puzzles never hold a request thread.  A puzzle that fails
is named with its place and why; nothing is printed until the list is right, or the
teacher presses the button that leaves the named ones out (the text as checked must not
have changed since: ``checked``).  Everything said is in the reader's language.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from engine import Puzzle, PuzzleFormatError, format_puzzle, puzzle_from_id, puzzle_to_id

from ..core.engine_words import parse_error_text
from ..core.messages import N_, Refusal, said
from ..core.options import VARIANTS, check_variant
from ..core.puzzle_list import Entry, board_of, declares_adjacency, split_list
from ..paper.booklet import MAX_COUNT, PAPER_NAMES, PER_PAGE, check_paper
from ..store.catalog import MAX_BOARD_CELLS
from ..store.shared import Ticket
from .editor import format_error, parse_draft, read_draft
from .i18n import words
from .job_answer import answer_job
from .limits import charge
from .printing import default_paper, pdf_response
from .services import services

bp = Blueprint("own", __name__)

KIND = "own_booklet"  # the job's kind (its handler: job_handlers.py)
MAX_TITLE = 80
FIELDS = ("puzzles", "title", "variant", "per_page", "paper", "name_line", "name_line_shown")


@dataclass(frozen=True)
class Listed:
    """A puzzle of the list, read: its place, its line and its compact id."""

    number: int
    line: int
    code: str


@dataclass
class Checked:
    """The list as read: the puzzles, and what is wrong with the others (place, words)."""

    listed: list[Listed]
    problems: list[tuple[int, str]]


# --- reading the form ---------------------------------------------------------------------


def read_options(form: Any) -> dict[str, str]:
    """The options as the job reads them again; Refusal (said in the reader's words) when
    one is wrong."""
    per_page = (form.get("per_page") or "2").strip()
    if per_page not in {str(n) for n in PER_PAGE}:
        raise Refusal(N_("Puzzles per page must be 1, 2 or 4, not %(count)s"), count=repr(per_page[:10]))
    title = " ".join((form.get("title") or "").split())
    if len(title) > MAX_TITLE:
        raise Refusal(N_("The title can have at most %(most)s characters; this one has %(count)s."), most=MAX_TITLE,
                      count=len(title))
    # An unticked box sends nothing: the hidden field tells that apart from a form without it.
    name_line = form.get("name_line") == "on" or not form.get("name_line_shown")
    return {"title": title, "variant": check_variant(form.get("variant")).key, "per_page": per_page,
            "paper": check_paper(form.get("paper") or default_paper()), "name_line": "on" if name_line else "",
            "name_line_shown": "1"}


def digest(text: str) -> str:
    """A short fingerprint of the list as checked, so "leave them out" applies to that list only."""
    lines = [line.rstrip() for line in re.split(r"\r\n|\r|\n", text)]
    return hashlib.sha256("\n".join(lines).strip().encode()).hexdigest()[:16]


def leave_out(form: Any, text: str) -> set[int]:
    """The places the teacher chose to leave out (the button under the problems), if the
    list is still the one they were found in."""
    if form.get("confirm") != "leave_out" or form.get("checked") != digest(text):
        return set()
    return {int(part) for part in (form.get("leave_out") or "").split() if part.isascii() and part.isdigit()}


def check_list(entries: list[Entry], adjacency: str, skip: set[int]) -> Checked:
    """Each entry as a compact id, or why not, seen without solving anything."""
    found = Checked([], [])
    for entry in entries:
        if entry.number in skip:
            continue
        try:
            code = _code_of(entry, adjacency)
        except _Problem as problem:
            found.problems.append((entry.number, problem.text))
            continue
        found.listed.append(Listed(entry.number, entry.line, code))
    return found


class _Problem(Exception):
    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


def _at(entry: Entry, why: str) -> _Problem:
    return _Problem(_("Puzzle %(number)s (line %(line)s): %(why)s", number=entry.number, line=entry.line, why=why))


def _code_of(entry: Entry, adjacency: str) -> str:
    """The entry's puzzle as a compact id (its board's size checked); _Problem otherwise."""
    if entry.problem is not None:
        raise _Problem(_("Puzzle %(number)s: %(why)s", number=entry.number, why=said(entry.problem, words())))
    if entry.text is not None:
        try:
            puzzle = board_of(entry, adjacency)
        except PuzzleFormatError as err:  # its message names the line and column
            raise _Problem(_("Puzzle %(number)s: %(why)s", number=entry.number, why=format_error(err))) from None
        return _sized(entry, puzzle)
    reference = entry.reference
    assert reference is not None
    if reference.kind == "id":
        try:
            puzzle = puzzle_from_id(reference.value)
        except PuzzleFormatError as err:
            raise _at(entry, _("this id can't be read: %(why)s", why=parse_error_text(err, words()))) from None
        return _sized(entry, puzzle)
    link = f"/s/{reference.value}"
    if reference.host and reference.host not in _our_hosts():
        raise _at(entry, _("%(link)s is a short link of another site (%(host)s): paste the puzzle's /p/ link or "
                           "its id instead", link=link, host=reference.host))
    stored = services().store.find_short(reference.value)
    if stored is None:
        raise _at(entry, _("there is no puzzle with the short link %(link)s on this site", link=link))
    return stored.code


def _sized(entry: Entry, puzzle: Puzzle) -> str:
    if puzzle.size > MAX_BOARD_CELLS:
        raise _at(entry, _("the board has %(size)s cells; booklets take boards of up to %(most)s cells",
                           size=puzzle.size, most=MAX_BOARD_CELLS))
    return puzzle_to_id(puzzle)


def _our_hosts() -> set[str]:
    """The hosts this site's printed links name: the public address's, and the request's."""
    hosts = {request.host.lower()}
    public = current_app.config.get("PUBLIC_URL") or ""
    if public:
        hosts.add(urlsplit(public).netloc.lower())
    return hosts


# --- the page -------------------------------------------------------------------------------


def render_form(values: Any = None, error: str | None = None, problems: list[tuple[int, str]] | None = None,
                status: int = 200, note: str | None = None) -> tuple[str, int]:
    """The form, holding ``values``; ``problems`` listed under ``error``, with the button
    that leaves them out when some puzzles are fine."""
    values = values or {}
    text = str(values.get("puzzles") or "")
    form = {
        "puzzles": text,
        "title": values.get("title") or "",
        "variant": values.get("variant") or "hidato",
        "per_page": values.get("per_page") or "2",
        "paper": values.get("paper") or default_paper(),
        "name_line": values.get("name_line") == "on" or not values.get("name_line_shown"),
    }
    problems = problems or []
    listed = len(split_list(text)) if problems else 0
    left = listed - len(problems)
    return render_template("own_booklet.html", form=form, form_error=error, problems=[p for _n, p in problems],
                           leave_out=" ".join(str(n) for n, _p in problems), checked=digest(text), left=left,
                           bad=len(problems), note=note, variants=VARIANTS, max_count=MAX_COUNT,
                           per_page_choices=PER_PAGE, papers=PAPER_NAMES), status


def problems_heading(count: int) -> str:
    return ngettext("%(num)s puzzle can't be printed. Nothing is printed until the list is right: put it right or "
                    "take it out.",
                    "%(num)s puzzles can't be printed. Nothing is printed until the list is right: put them right or "
                    "take them out.", count)


@bp.get("/booklet/own")
def form() -> Any:
    """The form, empty or holding the puzzles ``?id=`` names (one a line)."""
    ids = [code.strip() for code in request.args.getlist("id") if code.strip()]
    return render_form({"puzzles": "".join(f"{code}\n" for code in ids)})


@bp.post("/booklet/own/from-solver")
def from_solver() -> Any:
    """The solver page's board, as the start of a list (its adjacency kept in a line)."""
    draft = read_draft(request.form)
    text = draft.text.strip("\n")
    try:  # the board as the solver page reads it, so what is printed is what was shown
        puzzle = parse_draft(draft)
    except PuzzleFormatError:
        puzzle = None  # said when the booklet is made, with the place in the list
    if puzzle is not None:
        text = format_puzzle(puzzle).strip("\n")  # with its "# adjacency:" line when not king
    elif draft.adjacency != "king" and not declares_adjacency(text):
        text = f"# adjacency: {draft.adjacency}\n{text}"
    return render_form({"puzzles": f"{text}\n"}, note=_("The board from the solver page is in the list. Add more "
                                                        "puzzles below it, each after a blank line, or make the "
                                                        "booklet now."))


@bp.post("/booklet/own")
def make() -> Any:
    """Read the list, then check and print it in a job: the PDF at once if it is quick,
    else a page that waits for it."""
    values = request.form
    try:
        options = read_options(values)
    except ValueError as err:
        return render_form(values, said(err, words()), status=400)
    text = values.get("puzzles") or ""
    entries = split_list(text)
    skip = leave_out(values, text)
    wanted = [entry for entry in entries if entry.number not in skip]
    if not wanted:
        return render_form(values, _("Paste at least one puzzle: a board in the notation, or a puzzle's id or link "
                                     "(one a line)."), status=400)
    if len(wanted) > MAX_COUNT:
        return render_form(values, _("This list has %(count)s puzzles: a booklet takes at most %(most)s.",
                                     count=len(wanted), most=MAX_COUNT), status=400)
    checked = check_list(entries, VARIANTS[options["variant"]].adjacency, skip)
    if checked.problems:
        return render_form(values, problems_heading(len(checked.problems)), checked.problems, status=400)
    charge("booklet")  # only a list that will be worked on counts
    found = services()
    asked = {**options, "puzzles": text, "listed": [[p.number, p.line, p.code] for p in checked.listed]}
    ticket = found.jobs.submit(KIND, asked)
    if found.jobs.wait(ticket, KIND, float(current_app.config["BOOKLET_WAIT_SECONDS"])):
        return _finished(ticket, fresh=True)
    return redirect(url_for("own.waiting", ticket=ticket), 303)


def _finished(ticket: str, fresh: bool = False) -> Any:
    """The waiting page while the job runs; then the PDF (``fresh``: straight after the
    form) or its page, or the form saying what is wrong."""
    return answer_job(ticket, KIND, waiting=_making, finished=lambda job: _made(job, fresh),
                      expired=_("This booklet has expired (the server restarted or it was made a while ago). "
                                "Please ask for it again."))


def _making(job: Ticket) -> Any:
    return render_template("job_waiting.html", title=_("Making your booklet"), kind="booklet", job=job,
                           progress=job.result if job.status == "running" else _("waiting for its turn"))


def _made(job: Ticket, fresh: bool) -> Any:
    ticket = job.ticket
    found = services()
    made = json.loads(job.result or "{}") if job.status == "done" else {}
    if job.status == "done" and "problems" not in made:
        if not fresh:
            return render_template("own_booklet_ready.html", ticket=ticket, title=made.get("title", ""),
                                   pages=made.get("pages"))
        pdf = found.jobs.file(ticket)
        found.jobs.status(ticket, KIND, take=True)
        if pdf is None:
            abort(404, _("This booklet is not ready or has expired. Please ask for it again."))
        return pdf_response(str(made.get("title") or "booklet"), pdf)
    found.jobs.status(ticket, KIND, take=True)  # said once, in the form
    return _said_in_form(job, made)


def _said_in_form(job: Ticket, made: dict[str, Any]) -> tuple[str, int]:
    values = {key: job.request.get(key, "") for key in FIELDS}
    if job.status == "done":  # checked, and some puzzles failed
        problems = [(int(p["number"]), str(p["text"])) for p in made["problems"]]
        return render_form(values, problems_heading(len(problems)), problems, status=400)
    if job.status == "refused":  # out of time, or the server busy: said in the job's language
        return render_form(values, job.result or _("The booklet could not be made."), status=400)
    return render_form(values, _("The booklet could not be made: %(why)s", why=job.result), status=500)


@bp.get("/booklet/own/<ticket>")
def waiting(ticket: str) -> Any:
    """The booklet being checked and made: reloads itself until it is ready."""
    return _finished(ticket)


@bp.get("/booklet/own/<ticket>.pdf")
def pdf(ticket: str) -> Any:
    """The finished booklet's PDF."""
    found = services()
    job = found.jobs.status(ticket, KIND)
    data = found.jobs.file(ticket) if job is not None and job.status == "done" else None
    if job is None or data is None:
        abort(404, _("This booklet is not ready or has expired. Please ask for it again."))
    return pdf_response(str(json.loads(job.result or "{}").get("title") or "booklet"), data)
