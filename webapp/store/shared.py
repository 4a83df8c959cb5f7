"""What every host on one database must agree on: the job queue, job files, claims and
the site's shared secret key.

- **Jobs** (``tickets``): a request adds one; any worker process on any host takes
  the oldest it can (``claim_job``) under a lease it renews while it works.  A worker
  that stops renewing (killed, its machine gone) leaves the job to the next worker
  once the lease runs out; after ``max_attempts`` such starts the job is failed with
  a message the waiting person reads at once.  Only the lease's owner can report on
  a job, so a worker that lost its lease cannot overwrite the next one's result.
- **Job files** (``job_files``): a finished booklet's PDF, stored with the job's
  outcome in one transaction, so whichever host the person's browser reaches can
  send it; or what a job works on, stored with the job as it is added (a photo to
  read, which any host's worker may take), replaced by the job's own file if it
  makes one.
- **Claims** (``claims``): named work (filling one pool slot) held by a lease too.
- **Site keys** (``site_keys``): made once by whichever host asks first.

Every time compared here is the database's clock (``now``), so hosts whose clocks
disagree still agree on when a lease ran out.
"""

from __future__ import annotations

import json
import secrets
import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..core.game import utcnow
from .models import ClaimRow, JobFileRow, SiteKeyRow, TicketRow
from .store import Store

FINISHED = ("done", "refused", "failed")


@dataclass(frozen=True)
class Ticket:
    """A job as stored: what was asked, how far it got, and its result or message."""

    ticket: str
    kind: str
    request: dict[str, Any]
    status: str  # waiting, running, done, refused, failed
    result: str | None  # the outcome when finished; while running, what is happening
    created: datetime
    deadline: datetime  # waiting past this, no worker took it on
    attempts: int = 0
    started: datetime | None = None  # when the current attempt began
    stalled: bool = False  # running, but its worker stopped renewing the lease (being taken over)
    overdue: bool = False  # still waiting past its deadline: no worker took it on

    @property
    def finished(self) -> bool:
        return self.status in FINISHED


def now(session: Session) -> datetime:
    """The database's time, in UTC and naive like every stored time."""
    if session.get_bind().dialect.name == "postgresql":
        found = session.scalar(select(func.timezone("UTC", func.now())))
        assert isinstance(found, datetime)
        return found
    return utcnow()  # SQLite: the database is on this machine, its clock is ours


class Shared:
    """The tables several hosts share, over one ``Store``'s connections."""

    def __init__(self, store: Store):
        self.store = store

    # --- jobs ---------------------------------------------------------------------

    def add_job(self, ticket: str, kind: str, request: dict[str, Any], start_within: float,
                keep_seconds: float, data: bytes | None = None) -> None:
        """A new job, to be started within ``start_within`` seconds, with the file it works
        on (``data``, read back with ``job_file``); jobs older than ``keep_seconds`` go,
        with their files."""
        with self.store._session() as session:
            moment = now(session)
            old = moment - timedelta(seconds=keep_seconds)
            session.execute(delete(TicketRow).where(TicketRow.created < old))
            session.execute(delete(JobFileRow).where(JobFileRow.created < old))
            session.add(TicketRow(ticket=ticket, kind=kind, request=json.dumps(request), status="waiting",
                                  result=None, created=moment,
                                  deadline=moment + timedelta(seconds=start_within), attempts=0))
            if data is not None:
                session.add(JobFileRow(ticket=ticket, data=data, created=moment))

    def claim_job(self, owner: str, kinds: list[str], lease_seconds: float, max_attempts: int,
                  gave_up: str) -> Ticket | None:
        """Take the oldest job of these kinds that is waiting, or whose worker's lease ran
        out, for ``lease_seconds``; None if there is none.  Jobs whose lease ran out
        ``max_attempts`` times are failed with the message ``gave_up`` on the way."""
        if not self._anything_due():
            return None  # most polls: found without the write lock, which a move then waits less for
        with self.store._session() as session:
            moment = now(session)
            session.execute(
                update(TicketRow)
                .where(TicketRow.status == "running", TicketRow.lease_until < moment,
                       TicketRow.attempts >= max_attempts)
                .values(status="failed", result=gave_up, owner=None))
            query = (
                select(TicketRow)
                .where(TicketRow.kind.in_(kinds),
                       ((TicketRow.status == "waiting") & (TicketRow.deadline >= moment))
                       | ((TicketRow.status == "running") & (TicketRow.lease_until < moment)))
                .order_by(TicketRow.created)
                .limit(1)
            )
            if session.get_bind().dialect.name == "postgresql":
                query = query.with_for_update(skip_locked=True)  # workers never queue on each other's row
            row = session.scalar(query)
            if row is None:
                return None
            row.status, row.result, row.owner = "running", "", owner
            row.lease_until = moment + timedelta(seconds=lease_seconds)
            row.attempts = (row.attempts or 0) + 1
            row.started = moment
            return _ticket(row, moment)

    def _anything_due(self) -> bool:
        """Whether any job waits or has a lease run out (whatever its kind): a read, which on
        SQLite takes no write lock, where taking a job must take it."""
        with self.store._reading() as session:
            moment = now(session)
            found = session.scalar(
                select(TicketRow.ticket)
                .where(((TicketRow.status == "waiting") & (TicketRow.deadline >= moment))
                       | ((TicketRow.status == "running") & (TicketRow.lease_until < moment)))
                .limit(1))
            return found is not None

    def renew_jobs(self, tickets: list[str], owner: str, lease_seconds: float) -> set[str]:
        """Extend this owner's leases; returns the tickets it no longer holds."""
        if not tickets:
            return set()
        with self.store._session() as session:
            moment = now(session)
            held = set(session.scalars(
                select(TicketRow.ticket).where(TicketRow.ticket.in_(tickets), TicketRow.owner == owner,
                                               TicketRow.status == "running")))
            if held:
                session.execute(update(TicketRow).where(TicketRow.ticket.in_(held))
                                .values(lease_until=moment + timedelta(seconds=lease_seconds)))
        return set(tickets) - held

    def job_progress(self, ticket: str, owner: str, text: str) -> None:
        """Say what a running job is doing (only its lease's owner can)."""
        with self.store._session() as session:
            session.execute(update(TicketRow)
                            .where(TicketRow.ticket == ticket, TicketRow.owner == owner,
                                   TicketRow.status == "running")
                            .values(result=text))

    def finish_job(self, ticket: str, owner: str, status: str, result: str, data: bytes | None = None) -> bool:
        """Record a job's outcome (and its file), if ``owner`` still holds it; whether it did."""
        with self.store._session() as session:
            moment = now(session)
            done = session.execute(
                update(TicketRow)
                .where(TicketRow.ticket == ticket, TicketRow.owner == owner, TicketRow.status == "running")
                .values(status=status, result=result, owner=None, lease_until=None))
            if not done.rowcount:  # type: ignore[attr-defined]
                return False
            if data is not None:
                session.merge(JobFileRow(ticket=ticket, data=data, created=moment))
            return True

    def job(self, ticket: str, kind: str, take: bool = False) -> Ticket | None:
        """The job, if it is of this kind; ``take`` removes a finished one and its file
        (a result is used once)."""
        with self.store._session() as session:
            row = session.get(TicketRow, ticket, with_for_update=take)
            if row is None or row.kind != kind:
                return None
            found = _ticket(row, now(session))
            if take and found.finished:
                session.delete(row)
                session.execute(delete(JobFileRow).where(JobFileRow.ticket == ticket))
            return found

    def job_file(self, ticket: str) -> bytes | None:
        """The file a finished job made (or, until it made one, the file it was given), if
        it is still kept."""
        with self.store._reading() as session:
            data = session.scalar(select(JobFileRow.data).where(JobFileRow.ticket == ticket))
            return bytes(data) if data is not None else None

    # --- claims -------------------------------------------------------------------

    def claim(self, name: str, owner: str, seconds: float) -> bool:
        """Take on the work ``name`` for ``seconds`` (or renew it) unless another owner's
        lease on it still runs; whether we hold it now."""
        try:
            with self.store._session() as session:
                moment = now(session)
                row = session.get(ClaimRow, name, with_for_update=True)
                if row is not None and row.owner != owner and row.until > moment:
                    return False
                until = moment + timedelta(seconds=seconds)
                if row is None:
                    session.add(ClaimRow(name=name, owner=owner, until=until))
                else:
                    row.owner, row.until = owner, until
                return True
        except IntegrityError:  # claimed at the same moment by another process
            return False

    def release(self, name: str, owner: str) -> None:
        """Give up a claim (only its owner can)."""
        with self.store._session() as session:
            session.execute(delete(ClaimRow).where(ClaimRow.name == name, ClaimRow.owner == owner))

    # --- keys ---------------------------------------------------------------------

    def site_key(self, name: str, first: str | None = None) -> str:
        """The shared secret ``name``, made on first need (``first``: the value to make it
        with, e.g. a key this host kept before keys were shared, else a random one)."""
        value = self.find_site_key(name)
        if value:
            return value
        try:
            with self.store._session() as session:
                session.add(SiteKeyRow(name=name, value=first or secrets.token_hex(32), created=now(session)))
        except IntegrityError:
            pass  # another host made it at the same moment: theirs is the key
        found = self.find_site_key(name)
        if not found:
            raise RuntimeError(f"the site key {name!r} could not be made")
        return found

    def find_site_key(self, name: str) -> str | None:
        """A shared secret if it was made, else None (``site_key`` makes it)."""
        with self.store._reading() as session:
            value = session.scalar(select(SiteKeyRow.value).where(SiteKeyRow.name == name))
            return str(value) if value else None

    def set_site_key(self, name: str, value: str) -> None:
        """Replace a shared secret (key rotation)."""
        with self.store._session() as session:
            session.merge(SiteKeyRow(name=name, value=value, created=now(session)))


def _ticket(row: TicketRow, moment: datetime) -> Ticket:
    stalled = row.status == "running" and row.lease_until is not None and row.lease_until < moment
    overdue = row.status == "waiting" and row.deadline < moment
    return Ticket(row.ticket, row.kind, json.loads(row.request), row.status, row.result, row.created,
                  row.deadline, row.attempts or 0, row.started, stalled, overdue)


class HeldClaim:
    """A claim renewed by a background thread while its block runs: ``with HeldClaim(...) as held:``.

    The lease is short, so a holder that dies (killed, its machine gone) frees the work
    for another process within ``seconds``, whatever host or process id it had.
    """

    def __init__(self, shared: Shared, name: str, owner: str, seconds: float):
        self.shared, self.name, self.owner, self.seconds = shared, name, owner, seconds
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.held = False

    def __enter__(self) -> bool:
        self.held = self.shared.claim(self.name, self.owner, self.seconds)
        if self.held:
            self._thread = threading.Thread(target=self._renew, daemon=True, name="hidato-claim")
            self._thread.start()
        return self.held

    def _renew(self) -> None:
        while not self._stop.wait(self.seconds / 3):
            try:
                self.shared.claim(self.name, self.owner, self.seconds)
            except Exception:  # noqa: BLE001 - a database hiccup: the next renewal tries again
                continue

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.held:
            self.shared.release(self.name, self.owner)
