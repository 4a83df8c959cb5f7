"""Slow work behind a ticket: a generated puzzle, a puzzle on a drawn shape, a PDF booklet.

The one runner of such work.  A job runs in a background thread of the server process
that was asked (its heavy parts in children under a budget, ``work.budget``); its
ticket, progress and outcome are kept in the database (``Store.add_ticket``), so the
page that waits for it can be answered by any server process.  A ticket whose process
died (a restart) runs out at its deadline, which each step of progress moves on.  Files
a job makes (a booklet's PDF) live in the instance folder, which every process on the
machine shares.  Out of time and a busy server are refusals with a message, like the
engine refusing the options; anything else is a failure, logged.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from ..core.game import utcnow
from ..core.messages import generator_gave_up
from ..store.store import Store, Ticket
from ..work.budget import Busy, OutOfTime

log = logging.getLogger(__name__)

KEEP_SECONDS = 15 * 60  # a finished job's outcome (and file) is kept this long
QUEUE_SECONDS = 5 * 60  # how long a job may wait behind others before it starts
GRACE_SECONDS = 30  # past its budget, a job whose process is gone is still "waiting" this long
THREADS = 2  # jobs running at once in one process (their heavy parts queue for slots)

Progress = Callable[[str, float], None]  # (what is happening, seconds until the next word)
Work = Callable[[str, Progress], str]  # (ticket, progress) -> the result kept on the ticket


class Jobs:
    """Jobs of this process, their tickets in the database."""

    def __init__(self, store: Store, folder: str):
        self.store = store
        self.folder = folder  # where jobs keep their files
        self._executor: ThreadPoolExecutor | None = None
        self._futures: dict[str, Future[None]] = {}
        self._lock = threading.Lock()

    def submit(self, kind: str, request: dict[str, Any], seconds: float, work: Work,
               out_of_time: Callable[[float], str] = generator_gave_up) -> str:
        """Start ``work(ticket, progress)``, whose first step takes at most ``seconds``; returns the ticket.

        ``work`` returns the text kept as the ticket's result.  A ValueError it raises
        is kept as the message of a refusal, and so is running out of time
        (``out_of_time(seconds)`` says it) or finding the server busy; anything else is
        a failure.
        """
        ticket = uuid.uuid4().hex
        self.store.add_ticket(ticket, kind, request, QUEUE_SECONDS + seconds, KEEP_SECONDS)
        self._forget_old_files()
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="hidato-jobs")
            self._futures[ticket] = self._executor.submit(self._run, ticket, seconds, work, out_of_time)
        return ticket

    def _run(self, ticket: str, seconds: float, work: Work, out_of_time: Callable[[float], str]) -> None:
        def progress(text: str, next_seconds: float) -> None:
            self.store.update_ticket(ticket, "running", text, seconds=next_seconds)

        progress("", seconds + GRACE_SECONDS)
        try:
            result = work(ticket, progress)
        except OutOfTime as err:
            self.store.update_ticket(ticket, "refused", out_of_time(err.seconds))
        except (ValueError, Busy) as err:
            self.store.update_ticket(ticket, "refused", str(err))
        except Exception as err:  # a bug: the person is told it failed, the log has why
            log.exception("job %s failed", ticket)
            self.store.update_ticket(ticket, "failed", f"{type(err).__name__}: {err}")
        else:
            self.store.update_ticket(ticket, "done", result)

    def wait(self, ticket: str, seconds: float) -> bool:
        """Whether the job (started by this process) finished within ``seconds``."""
        with self._lock:
            future = self._futures.get(ticket)
        if future is None:
            return False
        try:
            future.result(timeout=max(0.0, seconds))
        except FutureTimeout:
            return False
        finally:
            if future.done():
                with self._lock:
                    self._futures.pop(ticket, None)
        return True

    def status(self, ticket: str, kind: str, take: bool = False) -> Ticket | None:
        """The ticket, None if unknown or if the process doing it stopped; ``take``: used once."""
        found = self.store.ticket(ticket, kind, take=take)
        if found is None:
            return None
        if found.status in ("waiting", "running") and found.deadline < utcnow():
            return None
        return found

    def path(self, ticket: str, suffix: str) -> str:
        """Where a job keeps its file (made by any process, read by any)."""
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        return os.path.join(self.folder, f"{ticket}{suffix}")

    def _forget_old_files(self) -> None:
        if not os.path.isdir(self.folder):
            return
        cutoff = time.time() - KEEP_SECONDS
        for name in os.listdir(self.folder):
            path = os.path.join(self.folder, name)
            try:
                if os.path.getmtime(path) < cutoff:
                    os.unlink(path)
            except FileNotFoundError:
                pass  # another process cleared it first

    def shutdown(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
