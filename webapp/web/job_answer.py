"""The one way a page answers for a job behind a ticket (a new puzzle, a puzzle on a drawn
shape, a booklet, a photo's reading): unknown or used up, still waiting or running, finished."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import abort

from ..core.game import utcnow
from ..store.shared import Ticket
from .services import services


def answer_job(ticket: str, kind: str, *, expired: str, waiting: Callable[[Ticket], Any],
               finished: Callable[[Ticket], Any], take: bool = False) -> Any:
    """A 404 saying ``expired`` for a ticket that is unknown (or used up), ``waiting(job)``
    while the job waits or runs, ``finished(job)`` once it is done, refused or failed.

    ``take``: a finished job is used once (gone after this answer); else it stays until it
    expires, for what is fetched later (a booklet's PDF)."""
    job = services().jobs.status(ticket, kind, take=take)
    if job is None:
        abort(404, expired)
    return finished(job) if job.finished else waiting(job)


def elapsed_seconds(job: Ticket) -> float:
    """How long this attempt at the job has taken so far (since a worker took it, else since it was asked)."""
    return max(0.0, (utcnow() - (job.started or job.created)).total_seconds())
