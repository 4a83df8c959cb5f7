"""What the views need besides Flask, one set per app: the store, the runner of heavy
work, the ticket runner and the pool refiller (``app.extensions["hidato"]``)."""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app

from ..store.pool import Refiller
from ..store.store import Store
from ..work.budget import Runner
from .jobs import Jobs


@dataclass
class Services:
    store: Store
    runner: Runner
    jobs: Jobs
    refiller: Refiller

    def close(self) -> None:
        """Stop the background work and close the database (tests, a worker leaving)."""
        self.refiller.stop()
        self.jobs.shutdown(wait=5)  # a job still writing to the database gets a moment to finish
        self.store.close()


def services() -> Services:
    """The current app's services."""
    found: Services = current_app.extensions["hidato"]
    return found
