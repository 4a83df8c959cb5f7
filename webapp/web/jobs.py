"""Slow work behind a ticket: a generated puzzle, a puzzle on a drawn shape, a PDF booklet.

A request adds a job to the database (``submit``) and answers with a page that waits
for it; the job's kind names a handler registered at start (``handle``), and what it
needs is in the job's request, so **any** worker process on **any** host can do it:

- Each server process does a few jobs at once (``HIDATO_JOB_THREADS``, 0: none, for web
  hosts whose jobs run on worker hosts with ``hidato worker``).  While it has room, its
  dispatcher takes the oldest waiting job (``Shared.claim_job``) under a lease of
  ``LEASE_SECONDS`` that a heartbeat renews while the job runs, and runs it in a thread;
  the heavy parts run in children under a budget (``work.budget``).
- A host that dies stops renewing: once the lease runs out, the next worker to look
  (every ``POLL_SECONDS``) starts the job again from the start.  After
  ``MAX_ATTEMPTS`` starts it is failed with a message saying so.
- The outcome (and a file: a booklet's PDF) is written to the job's row by the lease's
  owner only, so the waiting page on any host reads it.
- A job speaks the language of the request that asked for it: ``submit`` keeps the
  language in the job's request (``lang``) and the job runs under ``force_locale``, so
  its progress, its refusals and what it makes (a booklet's words) are in that language.

Why our own runner and not procrastinate or Celery: the default site is one machine on
SQLite with nothing else to start (``make run``), which neither supports; this runner
works the same on SQLite and PostgreSQL with one table, and jobs here are few, short
(a minute at most) and idempotent.  The README says more ("Several machines").
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import secrets
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import has_request_context
from flask_babel import force_locale
from flask_babel import gettext as _

from ..core.messages import N_, busy, generator_gave_up, said
from ..store.shared import Shared, Ticket
from ..work.budget import Busy, OutOfTime
from .i18n import words

log = logging.getLogger(__name__)

KEEP_SECONDS = 15 * 60  # a finished job's outcome (and file) is kept this long
QUEUE_SECONDS = 5 * 60  # how long a job may wait for a worker before it is refused
THREADS = 2  # default jobs at once per process (their heavy parts queue for slots)
LEASE_SECONDS = 5.0  # a worker that stops renewing loses its job after this long
HEARTBEAT_SECONDS = 1.0  # how often leases are renewed
POLL_SECONDS = 1.0  # how often an idle job thread looks for work started elsewhere
MAX_ATTEMPTS = 3  # starts of one job (the first and two takeovers)
# Kept on the job in English (the store fails it, outside any job's language) and said in
# the reader's language by ``status``.
GAVE_UP = N_("The server working on this stopped %(n)s times before finishing it (it was restarted or "
             "went away). Please try again; if it keeps happening, try smaller options.")
NOT_TAKEN = N_("No server was free to start on this within %(minutes)s minutes. Please try again later.")

Progress = Callable[[str], None]  # what is happening now, for the waiting page


@dataclass(frozen=True)
class Done:
    """A job's outcome: the text kept on the ticket and maybe a file (a booklet's PDF)."""

    result: str
    data: bytes | None = None


Work = Callable[[Ticket, Progress], Done]


class Jobs:
    """The job queue as this process sees it: submitting, waiting, and doing jobs."""

    def __init__(self, shared: Shared, threads: int = THREADS,
                 context: Callable[[], contextlib.AbstractContextManager[Any]] = contextlib.nullcontext):
        self.shared = shared
        self.threads = threads
        self._context = context  # entered around each job (the app context)
        self.owner = f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(4)}"
        self._handlers: dict[str, Work] = {}
        self._running: set[str] = set()  # tickets this process holds leases on
        self._random = random.Random()  # its own: polls of many processes spread out, apart from anyone's seed
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)  # new local work, or a local job finished
        self._stopping = threading.Event()
        self._workers: list[threading.Thread] = []
        self._pid = 0

    def handle(self, kind: str, work: Work) -> None:
        """Register the handler of a kind of job.

        ``work(ticket, progress)`` returns the outcome.  A ValueError it raises is kept as
        the message of a refusal, and so is running out of time or finding the server busy,
        each said in the job's language (it runs under ``force_locale``); anything else is
        a failure.
        """
        self._handlers[kind] = work

    # --- asking for work ---------------------------------------------------------------

    def submit(self, kind: str, request: dict[str, Any], data: bytes | None = None) -> str:
        """Queue a job of a registered kind, with the file it works on (``data``: a photo,
        kept in the database so a worker on any host reads it with ``file``); returns its
        ticket."""
        if kind not in self._handlers:
            raise KeyError(f"no handler for jobs of kind {kind!r}")
        ticket = uuid.uuid4().hex
        if has_request_context() and "lang" not in request:
            from .i18n import language  # the asker's language, for whoever does the job

            request = {**request, "lang": language()}
        self.shared.add_job(ticket, kind, request, QUEUE_SECONDS, KEEP_SECONDS, data)
        if self.threads:
            self.start()
            with self._wake:
                self._wake.notify_all()
        return ticket

    def wait(self, ticket: str, kind: str, seconds: float) -> bool:
        """Whether the job finished within ``seconds`` (wherever it runs); a wait of 0 does
        not look (the person goes straight to the waiting page)."""
        if seconds <= 0:
            return False
        deadline = time.monotonic() + seconds
        while True:
            found = self.shared.job(ticket, kind)
            if found is None or found.finished:
                return found is not None
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            with self._wake:  # woken at once by a job of this process, else look again soon
                self._wake.wait(min(left, 0.1))

    def status(self, ticket: str, kind: str, take: bool = False) -> Ticket | None:
        """The job, None if unknown; ``take``: a finished one is used once (then gone).

        A job no worker took within ``QUEUE_SECONDS`` is refused here, with a message.
        """
        found = self.shared.job(ticket, kind, take=take)
        if found is not None and found.status == "failed" and found.result == GAVE_UP % {"n": MAX_ATTEMPTS}:
            return Ticket(found.ticket, found.kind, found.request, found.status, _(GAVE_UP, n=MAX_ATTEMPTS),
                          found.created, found.deadline, found.attempts, found.started)
        if found is None or not found.overdue:
            return found
        message = _(NOT_TAKEN, minutes=QUEUE_SECONDS // 60)
        return Ticket(found.ticket, found.kind, found.request, "refused", message, found.created, found.deadline,
                      found.attempts, found.started)

    def file(self, ticket: str) -> bytes | None:
        """The file a finished job made (a booklet's PDF), or the one it was given while it
        has made none, if still kept."""
        return self.shared.job_file(ticket)

    # --- doing work ----------------------------------------------------------------------

    def start(self) -> None:
        """Start this process's job dispatcher and its heartbeat (once per process: a forked
        copy starts its own)."""
        if not self.threads:
            return
        with self._lock:
            if self._pid == os.getpid() or self._stopping.is_set():
                return
            self._pid = os.getpid()
            self.owner = f"{socket.gethostname()}/{self._pid}/{secrets.token_hex(4)}"
            self._running = set()
            self._workers = [threading.Thread(target=self._dispatch, daemon=True, name="hidato-jobs"),
                             threading.Thread(target=self._heartbeat, daemon=True, name="hidato-job-lease")]
        for thread in self._workers:
            thread.start()

    def _dispatch(self) -> None:
        """Take jobs while a job thread is free: one query a poll per process, however many threads."""
        kinds = list(self._handlers)
        gave_up = GAVE_UP % {"n": MAX_ATTEMPTS}
        while not self._stopping.is_set():
            with self._wake:
                while len(self._running) >= self.threads and not self._stopping.is_set():
                    self._wake.wait()
            if self._stopping.is_set():
                return
            try:
                job = self.shared.claim_job(self.owner, kinds, LEASE_SECONDS, MAX_ATTEMPTS, gave_up)
            except Exception:  # noqa: BLE001 - the database away for a moment: look again later
                log.exception("could not look for jobs")
                job = None
            if job is None:
                with self._wake:
                    self._wake.wait(POLL_SECONDS * (0.5 + self._random.random()))
                continue
            with self._lock:
                self._running.add(job.ticket)
            threading.Thread(target=self._run, args=(job,), daemon=True, name="hidato-job").start()

    def _run(self, job: Ticket) -> None:
        try:
            status, result, data = self._outcome(job, self._handlers[job.kind])
            try:
                if not self.shared.finish_job(job.ticket, self.owner, status, result, data):
                    log.warning("job %s was taken over before it finished here; its result is dropped", job.ticket)
            except Exception:  # noqa: BLE001 - the lease runs out and another worker does it again
                log.exception("could not record the outcome of job %s", job.ticket)
        finally:
            with self._wake:
                self._running.discard(job.ticket)
                self._wake.notify_all()

    def _outcome(self, job: Ticket, work: Work) -> tuple[str, str, bytes | None]:
        def progress(text: str) -> None:
            self.shared.job_progress(job.ticket, self.owner, text)

        with self._context(), force_locale(str(job.request.get("lang") or "en")):
            try:
                done = work(job, progress)
            except OutOfTime as err:
                return "refused", generator_gave_up(err.seconds, words()), None
            except (ValueError, Busy) as err:
                return "refused", _refusal(err), None
            except Exception as err:  # a bug: the person is told it failed, the log has why
                log.exception("job %s failed", job.ticket)
                return "failed", f"{type(err).__name__}: {err}", None
        return "done", done.result, done.data

    def _heartbeat(self) -> None:
        while not self._stopping.wait(HEARTBEAT_SECONDS):
            with self._lock:
                held = sorted(self._running)
            if not held:
                continue
            try:
                lost = self.shared.renew_jobs(held, self.owner, LEASE_SECONDS)
            except Exception:  # noqa: BLE001 - renewed at the next beat, within the lease
                log.exception("could not renew job leases")
                continue
            for ticket in lost:
                log.warning("lost the lease on job %s (this process was too slow to renew it)", ticket)

    def running(self) -> int:
        """How many jobs this process is doing now."""
        with self._lock:
            return len(self._running)

    def shutdown(self, wait: float = 0.0) -> None:
        """Take no more jobs; wait up to ``wait`` seconds for the ones running to finish (their
        leases run out otherwise, and another worker does them again).  The dispatcher and
        the heartbeat have ended when this returns, so the database can be closed."""
        self._stopping.set()
        with self._wake:
            self._wake.notify_all()
        deadline = time.monotonic() + wait
        while self.running() and time.monotonic() < deadline:
            time.sleep(0.05)
        with self._lock:
            threads, self._workers = self._workers, []
        for thread in threads:
            if thread is not threading.current_thread():
                thread.join(timeout=10)



def _refusal(err: ValueError | Busy) -> str:
    """A refusal's message in the job's language (the engine's own are English)."""
    if isinstance(err, Busy):
        return busy(err.retry_after, words())
    return said(err, words())
