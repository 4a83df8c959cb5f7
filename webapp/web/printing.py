"""Printing: a puzzle's printable page, and PDF booklets of new puzzles.

``/p/<id>/print`` is the board alone as the browser prints it (``?solution=1``: solved);
the play page prints the same sheet through its print stylesheet, and ``/p/<id>/preview.png``
is its board as the picture a shared link shows (``preview.py``).  ``/booklet`` asks
for the kind and number of puzzles and answers with a PDF (``booklet.py``); a booklet
that takes more than a moment is made in the background (``jobs.py``) behind a page
that reloads itself until the PDF is ready.

Words are in the reader's language; a booklet's job carries the language of the request
that asked for it (``jobs.submit``) and runs under it, and the PDF is rendered in a child
process that is given the language's code and loads its catalogue (``render_pdf(lang=)``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from typing import Any
from urllib.parse import quote, urlencode

from flask import Blueprint, Response, abort, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _

from engine import DIFFICULTIES, SHAPES, puzzle_from_id, puzzle_to_id

from ..core.messages import said
from ..core.options import VARIANTS, check_difficulty, check_shape, check_size, check_variant
from ..core.stored import StoredPuzzle
from ..paper.booklet import (
    MAX_COUNT,
    MIXED,
    PAPER_NAMES,
    PER_PAGE,
    BookletOptions,
    Sheet,
    check_options,
    check_paper,
    describe,
    qr_svg,
    rule_of,
    title_of,
    with_seed,
)
from ..paper.drawing import Drawing, draw_board
from ..paper.fits import form_note, note_templates, per_page_facts
from ..paper.preview import preview_png
from ..store.catalog import MalformedId, NotPlayable
from ..store.shared import Ticket
from .i18n import DEFAULT, language, words
from .job_answer import answer_job, elapsed_seconds
from .puzzles import not_a_puzzle, puzzle_for_request
from .security import public_link
from .services import services

bp = Blueprint("printing", __name__)

# How long laying out and rendering the pages may take (50 large boards: about 40 s).
RENDER_SECONDS = 180.0
# A child making a booklet's puzzles gives its slot back after this long (it finishes the
# puzzle it is making first), so work queued meanwhile (a player's new puzzle) goes first.
SLICE_SECONDS = 3.0
MAX_SEED = 2**63 - 1
FORM_FIELDS = ("shape", "size", "difficulty", "variant", "count", "per_page", "seed", "paper", "name_line")
# Where US Letter is the usual paper (the rest of the world prints on A4).
LETTER_REGIONS = {"US", "CA", "MX", "PH", "CL", "CO", "VE", "GT", "CR", "PA", "DO", "PR", "SV", "NI", "HN"}


# Boards drawn, by puzzle id and solved or not: a drawing depends on nothing else, and the
# play page draws its printable sheet at every load (a fifth of the page's time).  Emptied
# when full: a few hundred puzzles played at once keep theirs.
_DRAWINGS: dict[tuple[str, bool], Drawing] = {}
_DRAWINGS_KEPT = 256


def _drawing(stored: StoredPuzzle, solution: bool) -> Drawing:
    key = (stored.code, solution)
    found = _DRAWINGS.get(key)
    if found is None:
        found = draw_board(stored.puzzle, stored.solution if solution else None)
        if len(_DRAWINGS) >= _DRAWINGS_KEPT:
            _DRAWINGS.clear()
        _DRAWINGS[key] = found
    return found


@bp.app_template_global()
def print_sheet(stored: StoredPuzzle, solution: bool = False) -> Sheet:
    """The printable board of a stored puzzle, with the words under it."""
    drawing = _drawing(stored, solution)
    short = services().store.short_code(stored.code) if current_app.config["PUBLIC_URL"] else None
    link = public_link(short_path(short) if short else url_for("play.page", code=stored.code))
    said_in = words()
    # A pupil's sheet says the level without the rating, a bare "2.4" that meant nothing to
    # pupils; the solution keeps it, explained ("Medium (rating 2.4)").
    return Sheet(1, stored, drawing, describe(stored, said_in, rating=solution), stored.code, link,
                 rule=rule_of(stored, said_in),
                 qr=qr_svg(link) if link and not solution else "",
                 link_text=link.split("://", 1)[-1] if link and short else "")


def short_path(short: str) -> str:
    """A printed short link's path in the sheet's language: ``/s/2f``, or ``/s/2f?lang=es``
    on a Spanish sheet, so the QR code opens the page in the language the pupil reads
    (English, the site's default, keeps the shortest link)."""
    lang = language()
    return f"/s/{short}" if lang == DEFAULT else f"/s/{short}?{urlencode({'lang': lang})}"


# --- one puzzle -------------------------------------------------------------------------


@bp.get("/p/<code>/print")
def sheet(code: str) -> Any:
    """The printable board alone; ``?solution=1`` the solved board."""
    solved = request.args.get("solution") == "1"
    try:
        stored = puzzle_for_request(code)
    except MalformedId as err:
        abort(404, not_a_puzzle(code, err))
    except NotPlayable as err:
        if solved or err.puzzle is None:
            abort(404, _("%(why)s So there is no solution to print.", why=said(err, words())))
        stored = StoredPuzzle(puzzle_to_id(err.puzzle), err.puzzle, {})
    if stored.code != code:
        return redirect(url_for("printing.sheet", code=stored.code, solution="1" if solved else None), 301)
    return render_template("print.html", stored=stored, sheet=print_sheet(stored, solved), solution=solved)


@lru_cache(maxsize=64)
def _preview(code: str, caption: str) -> bytes:
    return preview_png(puzzle_from_id(code), caption)


@bp.get("/p/<code>/preview.png")
def preview(code: str) -> Any:
    """The board as a 1200x630 PNG, for the preview a shared link shows (og:image).

    Only puzzles the site has stored (its page was opened once): nothing is solved here,
    and an unknown id is a 404. A puzzle never changes, so caches may keep it for a year.
    """
    stored = services().store.find_puzzle(code)
    if stored is None:
        abort(404, _("There is no puzzle with the id %(code)s on this site.", code=repr(code[:60])))
    response = make_response(_preview(stored.code, describe(stored, words())))
    response.mimetype = "image/png"
    response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


# --- booklets ---------------------------------------------------------------------------


def _whole(form: Any, name: str, label: str, low: int, high: int, default: int | None) -> int | None:
    raw = (form.get(name) or "").strip()
    if not raw:
        return default
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 19:
        raise ValueError(_("%(label)s must be a whole number from %(low)s to %(high)s", label=label, low=low,
                           high=high))
    value = int(raw)
    if not low <= value <= high:
        raise ValueError(_("%(label)s must be from %(low)s to %(high)s, not %(value)s", label=label, low=low,
                           high=high, value=value))
    return value


def parse_booklet_form(form: Any) -> BookletOptions:
    """Check the booklet form; raises ValueError with a message for the person (``said``)."""
    shape = (form.get("shape") or MIXED).strip().lower()
    size = None
    if shape != MIXED:
        spec = check_shape(shape)
        size = check_size(spec, form.get("size"))
    difficulty = check_difficulty(form.get("difficulty"))
    variant = check_variant(form.get("variant"))
    count = _whole(form, "count", _("The number of puzzles"), 1, MAX_COUNT, 6)
    per_page = _whole(form, "per_page", _("Puzzles per page"), 1, 4, 2)
    seed = _whole(form, "seed", _("The seed"), 0, MAX_SEED, None)
    assert count is not None and per_page is not None
    paper = check_paper(form.get("paper") or default_paper())
    # An unticked box sends nothing: the hidden field tells that apart from an old form.
    name_line = form.get("name_line") == "on" or not form.get("name_line_shown")
    options = BookletOptions(shape, size, difficulty, variant.adjacency, count, per_page, seed, paper, name_line)
    check_options(options)
    return options


def _booklet_form(values: Any = None, error: str | None = None, status: int = 200) -> tuple[str, int]:
    values = values or {}
    form = {
        "shape": values.get("shape") or MIXED,
        "size": values.get("size") or "",
        "difficulty": values.get("difficulty") or "medium",
        "variant": values.get("variant") or "hidato",
        "count": values.get("count") or "6",
        "per_page": values.get("per_page") or "2",
        "seed": values.get("seed") or "",
        "paper": values.get("paper") or default_paper(),
        "name_line": values.get("name_line") == "on" or not values.get("name_line_shown"),
    }
    qr = bool(current_app.config["PUBLIC_URL"])  # QR codes take room under each board
    return render_template("booklet.html", form=form, form_error=error, shapes=SHAPES,
                           difficulties=DIFFICULTIES, variants=VARIANTS, max_count=MAX_COUNT,
                           per_page_choices=PER_PAGE, papers=PAPER_NAMES,
                           fits_json=json.dumps(per_page_facts(qr), separators=(",", ":")),
                           per_page_note=_per_page_note(form, qr), notes=note_templates(words())), status


def _per_page_note(form: dict[str, Any], qr: bool) -> str:
    """What the form says beside "Puzzles per page" for the choices it is sent with (its
    script says it again as they change): nothing for choices that do not go together."""
    variant = VARIANTS.get(str(form["variant"]))
    size, per_page = str(form["size"]).strip(), str(form["per_page"]).strip()
    if variant is None or not per_page.isdigit() or (size and not size.isdigit()) or len(size + per_page) > 6:
        return ""
    return form_note(str(form["shape"]), int(size) if size else None, variant.adjacency, str(form["difficulty"]),
                     int(per_page), str(form["paper"]), qr, words())


def default_paper() -> str:
    """US Letter for browsers whose first language names a Letter country (en-US), else A4."""
    for tag, _quality in request.accept_languages:
        region = tag.replace("_", "-").split("-")[1:2]
        return "letter" if region and region[0].upper() in LETTER_REGIONS else "a4"
    return "a4"


@bp.get("/booklet")
def booklet_form() -> Any:
    """The booklet form: kind of puzzles, how many, how many to a page (filled in from the
    query, as the ready page's "Make another booklet" link asks)."""
    return _booklet_form(request.args)


@bp.post("/booklet")
def booklet() -> Any:
    """Make the booklet: the PDF at once if it is quick, else a page that waits for it."""
    try:
        options = with_seed(parse_booklet_form(request.form))  # no seed asked: a new one, said with the booklet
    except ValueError as err:
        return _booklet_form(request.form, said(err, words()), 400)
    found = services()
    asked = {name: request.form.get(name, "") for name in FORM_FIELDS}
    # What the request decided (the paper from its languages, the name line's box, the
    # seed), so the job, done by any worker outside this request, reads the same options.
    asked.update(paper=options.paper, name_line="on" if options.name_line else "", name_line_shown="1",
                 seed=str(options.seed))
    ticket = found.jobs.submit("booklet", asked)
    if found.jobs.wait(ticket, "booklet", float(current_app.config["BOOKLET_WAIT_SECONDS"])):
        job = found.jobs.status(ticket, "booklet")
        pdf = found.jobs.file(ticket) if job is not None and job.status == "done" else None
        if job is not None and job.finished:
            found.jobs.status(ticket, "booklet", take=True)
        if pdf is not None:
            return pdf_response(title_of(options, words()), pdf)
        if job is not None and job.status != "done":
            return _failed(job)
    return redirect(url_for("printing.booklet_job", ticket=ticket), 303)


@bp.get("/booklet/<ticket>")
def booklet_job(ticket: str) -> Any:
    """The booklet being made: reloads itself until the PDF is ready, then links to it."""
    return answer_job(ticket, "booklet", waiting=_making, finished=_made,
                      expired=_("This booklet has expired (the server restarted or it was made a while ago). "
                                "Please ask for it again."))


def _seed(job: Ticket) -> Any:
    return job.request.get("seed") or None  # chosen when it was asked for (older jobs: none yet)


def _making(job: Ticket) -> Any:
    return render_template("job_waiting.html", title=_("Making your booklet"), kind="booklet", job=job,
                           progress=job.result if job.status == "running" else _("waiting for its turn"),
                           seed=_seed(job), elapsed=elapsed_seconds(job))


def _made(job: Ticket) -> Any:
    """The ready page (the PDF is fetched from it later), or the form saying why there is none."""
    ticket = job.ticket
    seed = _seed(job)
    if job.status != "done":
        services().jobs.status(ticket, "booklet", take=True)
        return _failed(job)
    made = json.loads(job.result or "{}")
    # "Make another booklet": the same options, a new seed (new puzzles).
    again = {name: job.request[name] for name in FORM_FIELDS if name != "seed" and job.request.get(name)}
    again.update(name_line_shown="1")
    return render_template("booklet_ready.html", ticket=ticket, title=made.get("title", _("Your booklet")),
                           pages=made.get("pages"), seed=made.get("seed") or seed,
                           again=url_for("printing.booklet_form", **again))


def _failed(job: Ticket) -> tuple[str, int]:
    """The form again, saying why the booklet could not be made."""
    if job.status == "refused":  # the generator refused: e.g. expert on a tiny board
        return _booklet_form(job.request, job.result or _("The generator refused these options."), 400)
    return _booklet_form(job.request, _("The booklet could not be made: %(why)s", why=job.result), 500)


@bp.get("/booklet/<ticket>.pdf")
def booklet_pdf(ticket: str) -> Any:
    """The finished booklet's PDF."""
    job = services().jobs.status(ticket, "booklet")
    pdf = services().jobs.file(ticket) if job is not None and job.status == "done" else None
    if job is None or pdf is None:
        abort(404, _("This booklet is not ready or has expired. Please ask for it again."))
    return pdf_response(json.loads(job.result or "{}").get("title", "booklet"), pdf)


def pdf_response(title: str, pdf: bytes) -> Response:
    """A booklet's PDF as a download named after its title (never cached: it is one person's)."""
    response = make_response(pdf)
    response.mimetype = "application/pdf"
    response.headers["Content-Disposition"] = attachment(title)
    response.headers["Cache-Control"] = "no-store"
    return response


def attachment(title: str) -> str:
    """``Content-Disposition`` for a PDF named after its title, accents kept: the name in
    UTF-8 (``filename*``, RFC 6266 and 5987) and, for older clients, an ASCII one
    without them ("triángulo" -> "triangulo", not "tri-ngulo")."""
    name = re.sub(r"[\W_]+", "-", title.lower()).strip("-")[:60].strip("-") or "booklet"
    plain = re.sub(r"[^a-z0-9]+", "-", unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode())
    plain = plain.strip("-") or "booklet"
    return f"attachment; filename=\"hidato-{plain}.pdf\"; filename*=UTF-8''{quote(f'hidato-{name}.pdf', safe='')}"
