"""The kinds of background job the site runs, each with its handler (``jobs.py``):
every process registers all of them, so any worker on any host can do any job."""

from __future__ import annotations

from .editor import shape_job
from .jobs import Jobs
from .own_booklet import KIND as OWN_BOOKLET
from .own_booklet_job import own_booklet_job
from .pages import generate_job
from .photo import KIND as PHOTO
from .photo import photo_job
from .printing import booklet_job_work


def register_jobs(jobs: Jobs) -> None:
    """Tell ``jobs`` how to do each kind."""
    jobs.handle("generate", generate_job)
    jobs.handle("shape", shape_job)
    jobs.handle("booklet", booklet_job_work)
    jobs.handle(OWN_BOOKLET, own_booklet_job)
    jobs.handle(PHOTO, photo_job)
