"""Reading a puzzle from a photo: the upload, the job that reads it, and the result page.

- ``/photo`` (and a card on the solver page) takes a picture: a plain multipart form, so
  it works without JavaScript; on a phone its file input opens the camera.  The body may
  hold a photo (``limits.BODY_LIMITS``: a 413 page past it), and uploads are rate
  limited per address like the other expensive work.
- The picture's bytes are stored with the job in the database (``Jobs.submit(data=)``),
  so a worker on any host reads it: in a child process at low priority, in the shared
  work slots, under a time budget (``HIDATO_PHOTO_SECONDS``) and an address-space limit
  (``HIDATO_PHOTO_MEMORY_MB``), the reader's stages shown on the waiting page as they
  come.  OpenCV and the OCR model load only in that child (``photo_work.py``).
- ``/photo/<ticket>`` is the result: the solver's editor filled with what was read, beside
  the photo with each reading drawn over its cell (``photo_view.py``); its form posts back
  here, so Check, Solve, Grade, Play and Print work as on the solver page and the photo
  stays beside them.  The photo is kept, downscaled, as long as jobs are (15 minutes);
  after that the page still works on the puzzle, without the photo.

A picture that cannot be read is answered with the form again and the reason, in the
reader's language (kept as a refusal's msgid and facts): 415 not a picture, 413 too
large, 422 no board found or too much work, never a 500.
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, abort, current_app, g, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from ..core.draft import Draft, grid_of_text
from ..core.messages import N_, from_kept, said
from ..scan import MAX_BYTES, ImageTooLarge, NoBoard, NotAnImage
from ..store.shared import Ticket
from . import editor
from .i18n import words
from .job_answer import answer_job, elapsed_seconds
from .limits import charge, photo_too_large
from .photo_view import PhotoView, photo_view
from .services import services

bp = Blueprint("photo", __name__)

KIND = "photo"
ADJACENCY_CHOICES = ("", "king", "rook", "hex")  # "": as the picture shows
# How each refusal is answered: a picture that is not one, too large, or holds no board.
STATUS = {NotAnImage: 415, ImageTooLarge: 413, NoBoard: 422}
OUT_OF_TIME = N_("Reading this picture took longer than %(time)s, so it was stopped. A closer photo of the "
                 "puzzle alone, or a screenshot, is read faster.")
OUT_OF_MEMORY = N_("Reading this picture needed more memory than the %(mb)s MB the site gives it, so it was "
                   "stopped. A smaller copy of the picture, or a photo of the puzzle alone, will do.")
# The reader's stages (``read_picture``'s progress), said in the reader's language; one
# the site does not know is shown as the reader says it.
STAGES = {
    "loading the picture": N_("loading the picture"),
    "opening the picture": N_("opening the picture"),
    "finding the board": N_("finding the board"),
    "straightening the board": N_("straightening the board"),
    "finding the cells": N_("finding the cells"),
    "cutting the cells": N_("cutting the cells"),
    "choosing the rotation": N_("choosing which way up the picture is"),
    "choosing which way up": N_("choosing which way up the picture is"),
    "asking the solver": N_("checking the puzzle with the solver"),
    "checking the puzzle": N_("checking the puzzle with the solver"),
    "writing the debug pictures": N_("writing the debug pictures"),
}
# "reading 12 of 40 cells", "reading cells: 12 of 40": a count the page shows as a bar too.
_READING = re.compile(r"reading (?:cells: )?(\d+) of (\d+)(?: cells?)?")
_READING_ALL = re.compile(r"reading (\d+) cells?")


# --- the form ---------------------------------------------------------------------------


def _form_page(message: str | None = None, status: int = 200, asked: dict[str, Any] | None = None) -> Any:
    return render_template("photo.html", message=message, asked=asked or {}), status


@bp.app_template_global()
def photo_limit() -> dict[str, int]:
    """The largest photo, for the form (the solver page shows it too) and its script."""
    return {"mb": MAX_BYTES // (1024 * 1024), "bytes": MAX_BYTES}


@bp.get("/photo")
def page() -> Any:
    """The form: a photo or a screenshot of a puzzle to read."""
    return _form_page()


@bp.post("/photo")
def upload() -> Any:
    """Read the photo sent: a job with progress, then its result page."""
    adjacency = request.form.get("adjacency") or ""
    if adjacency not in ADJACENCY_CHOICES:
        abort(400, _("Unknown adjacency %(adjacency)s.", adjacency=repr(adjacency[:20])))
    asked = {"adjacency": adjacency, "entries": request.form.get("entries") == "1"}
    sent = request.files.get("photo")
    if sent is None or not sent.filename:
        return _form_page(_("Choose a photo or a screenshot of a puzzle first."), 400, asked)
    data = sent.read(MAX_BYTES + 1)
    if not data:
        return _form_page(_("The file %(name)s is empty: it holds no picture.", name=sent.filename[:80]), 400, asked)
    if len(data) > MAX_BYTES:  # the body's limit leaves room for the form's fields, not a larger file
        return _form_page(photo_too_large(), 413, asked)
    charge(KIND)
    found = services()
    ticket = found.jobs.submit(KIND, {"adjacency": adjacency or None, "entries": asked["entries"]}, data=data)
    if found.jobs.wait(ticket, KIND, float(current_app.config["PHOTO_WAIT_SECONDS"])):
        job = found.jobs.status(ticket, KIND)
        if job is not None and _refusal(job) is not None:
            return _refused(job)  # said at once, from the form's own request: not a picture, no board
    return redirect(url_for("photo.result", ticket=ticket), 303)


# --- the job ----------------------------------------------------------------------------


def stage_json(text: str) -> dict[str, Any]:
    """A stage of the reader as the waiting page shows it: its words in the job's language,
    and how many cells of how many are read when it says so."""
    text = text.strip()
    found = _READING.fullmatch(text)
    if found:
        done, total = int(found.group(1)), int(found.group(2))
        return {"text": ngettext("reading %(done)s of %(num)s cell", "reading %(done)s of %(num)s cells", total,
                                 done=done), "done": done, "of": total}
    found = _READING_ALL.fullmatch(text)
    if found:
        total = int(found.group(1))
        return {"text": ngettext("reading %(num)s cell", "reading %(num)s cells", total), "done": 0, "of": total}
    return {"text": _(STAGES[text]) if text in STAGES else text}


# --- the result -------------------------------------------------------------------------


def _refusal(job: Ticket) -> tuple[str, int] | None:
    """A finished job's refusal, said in this request's language, with its HTTP status; None
    when the picture was read."""
    if job.status == "refused":  # refused by the job runner (busy, the photo gone)
        return job.result or "", 503
    if job.status == "failed":
        return _("The photo could not be read, because of an error on our side (%(why)s). Please try again.",
                 why=job.result), 500
    outcome = json.loads(job.result or "{}")
    if "refused" in outcome:
        return said(from_kept(outcome["refused"]), words()), int(outcome.get("status") or 422)
    return None


def _refused(job: Ticket) -> Any:
    found = _refusal(job)
    assert found is not None
    message, status = found
    asked = {"adjacency": job.request.get("adjacency") or "", "entries": bool(job.request.get("entries"))}
    return _form_page(message, status, asked)


def _job(ticket: str) -> Ticket | None:
    return services().jobs.status(ticket, KIND) if re.fullmatch(r"[0-9a-f]{32}", ticket) else None


@bp.get("/photo/<ticket>")
def result(ticket: str) -> Any:
    """The reading: a waiting page while it is made, then the editor beside the photo."""
    expired = _("This photo's reading has expired (photos are kept for 15 minutes) or never existed. "
                "Please send the photo again.")
    if not re.fullmatch(r"[0-9a-f]{32}", ticket):
        abort(404, expired)
    return answer_job(ticket, KIND, expired=expired, waiting=_waiting, finished=_read)


def _read(job: Ticket) -> Any:
    """The editor beside the photo, with what was read; or the form saying why nothing was."""
    ticket = job.ticket
    if _refusal(job) is not None:
        return _refused(job)
    view = _view(ticket, job)
    draft = Draft(view.text, grid_of_text(view.text), view.adjacency)
    g.photo = view
    return _private(editor.page_with(draft))


def _view(ticket: str, job: Ticket) -> PhotoView:
    picture = url_for("photo.picture", ticket=ticket) if services().jobs.file(ticket) else None
    return photo_view(ticket, json.loads(job.result or "{}"), url_for("photo.act", ticket=ticket), picture)


def _waiting(job: Ticket) -> Any:
    elapsed = elapsed_seconds(job)
    stage: dict[str, Any] = {"text": _("waiting for its turn")}
    if job.status == "running" and job.result:
        try:
            stage = json.loads(job.result)
        except ValueError:
            stage = {"text": job.result}
    return _private(render_template("job_waiting.html", title=_("Reading your photo"), kind=KIND, job=job,
                                    progress=stage.get("text"), done=stage.get("done"), of=stage.get("of"),
                                    elapsed=elapsed))


@bp.post("/photo/<ticket>")
def act(ticket: str) -> Any:
    """The editor's buttons beside the photo: the same work as on the solver page."""
    job = _job(ticket)
    if job is not None and job.status == "done" and _refusal(job) is None:
        g.photo = _view(ticket, job)
    else:  # the photo has expired: the puzzle in the form is still worked on, on the solver page
        g.photo = PhotoView(ticket, url_for("editor.act"), None)
    return _private(editor.act())


@bp.get("/photo/<ticket>.jpg")
def picture(ticket: str) -> Any:
    """The photo as the result page shows it (downscaled, its orientation applied)."""
    job = _job(ticket)
    data = services().jobs.file(ticket) if job is not None and job.status == "done" else None
    if not data:
        abort(404, _("This photo is no longer kept (photos are kept for 15 minutes)."))
    response = make_response(data)
    response.mimetype = "image/jpeg"
    response.headers["Cache-Control"] = "private, max-age=900"  # one person's photo: never in a shared cache
    return response


def _private(answer: Any) -> Any:
    """One person's photo and what was read in it: kept by no shared cache, never stored."""
    response = make_response(answer)
    response.headers["Cache-Control"] = "private, no-store"
    return response
