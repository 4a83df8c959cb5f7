"""Several app hosts on one PostgreSQL database behind a round-robin balancer, for the
two-host tests (tests/test_web_two_hosts.py) and benchmarks (bench/takeover.py).

- ``Database``: a throw-away database (CREATE DATABASE) on the server that
  tools/with_postgres.sh started (HIDATO_TEST_POSTGRES_URL), dropped afterwards.
- ``Hosts``: gunicorn servers (tests/gunicorn_server.py), each with its own instance
  folder and no SECRET_KEY, all on that database; ``kill`` one as a machine dies.
- ``Balancer``: one browser (one cookie jar) whose every request, and every redirect it
  follows, goes to the next live host in turn.
- ``TicketWatcher``: a thread that records every change of one job's row in ``tickets``
  (status, attempts, owner, start), with the time it saw it.
"""

from __future__ import annotations

import base64
import html
import json
import os
import re
import secrets
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import Message
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from gunicorn_server import Server

POSTGRES_URL = os.environ.get("HIDATO_TEST_POSTGRES_URL") or ""
NO_POSTGRES = ("These tests need a PostgreSQL server: run them beside one with "
               "`tools/with_postgres.sh .venv/bin/pytest tests/test_web_two_hosts.py` (make test does this), "
               "which sets HIDATO_TEST_POSTGRES_URL.")
_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"|"X-CSRF-Token": "([^"]+)"')
# What the job runner promises (webapp/web/jobs.py): a lease of 5 s, renewed every second,
# and idle workers that look for a job to take over every second.
LEASE_SECONDS = 5.0
POLL_SECONDS = 1.0


def _server_url(server_url: str | None = None) -> str:
    from webapp.store.store import database_url

    url = server_url or POSTGRES_URL
    if not url:
        raise RuntimeError(NO_POSTGRES)
    return database_url(url, "")


class Database:
    """A new, empty PostgreSQL database of its own, dropped by ``close``."""

    def __init__(self, server_url: str | None = None, prefix: str = "two_hosts"):
        base = make_url(_server_url(server_url))
        self.name = f"{prefix}_{secrets.token_hex(6)}"
        self._admin = create_engine(base, isolation_level="AUTOCOMMIT", poolclass=NullPool)
        with self._admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{self.name}"'))
        self.url = base.set(database=self.name).render_as_string(hide_password=False)
        self.engine = create_engine(self.url, poolclass=NullPool)

    def rows(self, sql: str, **params: Any) -> list[dict[str, Any]]:
        with self.engine.connect() as connection:
            return [dict(row._mapping) for row in connection.execute(text(sql), params)]

    def close(self) -> None:
        self.engine.dispose()
        with self._admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
        self._admin.dispose()


class Hosts:
    """Gunicorn servers ("A", "B", ...) on one database, each with its own instance folder."""

    def __init__(self, folder: Path, database: str, count: int = 2, workers: int = 2,
                 env: dict[str, str] | None = None):
        self.servers: dict[str, Server] = {}
        for index in range(count):
            label = chr(ord("A") + index)
            instance = folder / f"host-{label.lower()}" / "instance"
            instance.parent.mkdir(parents=True, exist_ok=True)
            self.servers[label] = Server(instance, database, workers, env=env)
        self.killed: set[str] = set()

    def start(self) -> None:
        for server in self.servers.values():
            server.launch()
        for server in self.servers.values():
            server.wait_ready()

    def bases(self) -> dict[str, str]:
        return {label: server.base for label, server in self.servers.items()}

    def host_of(self, pid: int) -> str | None:
        """Which live host runs the process ``pid`` (a worker or one of its children)."""
        for label, server in self.servers.items():
            if label not in self.killed and server.process is not None and pid in server.pids():
                return label
        return None

    def kill(self, label: str) -> float:
        """SIGKILL host ``label`` (master, workers, children at once); returns when (monotonic)."""
        at = time.monotonic()
        self.servers[label].kill()
        self.killed.add(label)
        return at

    def stop(self) -> None:
        for server in self.servers.values():
            server.stop()

    def tracebacks(self) -> str:
        """The first traceback in a live host's log, with its surroundings; "" if none."""
        for label, server in self.servers.items():
            if label in self.killed or not server.log.exists():
                continue
            log = server.log.read_text(errors="replace")
            if "Traceback" in log:
                at = log.find("Traceback")
                return f"host {label} ({server.log}):\n" + log[max(0, at - 1500):at + 4000]
        return ""


@contextmanager
def two_hosts(folder: Path, env: dict[str, str] | None = None, workers: int = 2,
              server_url: str | None = None) -> Iterator[tuple[Database, Hosts]]:
    """A fresh database and two started hosts on it; everything stopped and dropped after."""
    database = Database(server_url)
    hosts = Hosts(folder, database.url, workers=workers, env=env)
    try:
        hosts.start()
        yield database, hosts
    finally:
        hosts.stop()
        database.close()


# --- the balancer -----------------------------------------------------------------------


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_args: Any, **_kwargs: Any) -> None:
        return None  # the balancer follows redirects itself, each to the next host


@dataclass
class Answer:
    status: int
    headers: Message
    body: bytes
    host: str  # the label of the host that answered
    path: str

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    @property
    def location(self) -> str:
        """The redirect's target as a path (with its query), whatever host it names."""
        target = urllib.parse.urlsplit(self.headers.get("Location", ""))
        return target.path + (f"?{target.query}" if target.query else "")

    def __str__(self) -> str:
        where = f" -> {self.location}" if 300 <= self.status < 400 else ""
        return f"{self.status} from host {self.host} for {self.path}{where}: {self.gist()!r}"

    def gist(self, limit: int = 400) -> str:
        """The answer's words: a page's main part without its markup, or the start of the body."""
        body = self.text
        if "<main" in body:
            body = body[body.index("<main"):body.find("</main>") if "</main>" in body else None]
        if "html" in self.headers.get("Content-Type", ""):
            body = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())
        return body[:limit]


@dataclass
class Balancer:
    """One browser behind a round-robin balancer: each request (and each redirect followed)
    goes to the next live host; one cookie jar for all (they share 127.0.0.1)."""

    hosts: dict[str, str]  # label -> base URL
    down: set[str] = field(default_factory=set)
    token: str = ""
    history: list[str] = field(default_factory=list)  # "A GET /p/... 200"

    def __post_init__(self) -> None:
        self.jar = CookieJar()
        self._opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect())
        self._turn = 0

    def next_host(self) -> str:
        live = [label for label in self.hosts if label not in self.down]
        assert live, "no live host left"
        label = live[self._turn % len(live)]
        self._turn += 1
        return label

    def request(self, method: str, path: str, data: dict[str, str] | None = None,
                headers: dict[str, str] | None = None, host: str | None = None, timeout: float = 60) -> Answer:
        if host is None:
            label = self.next_host()
        else:  # asked for: the next one after it is the other host again
            label = host
            self._turn = list(self.hosts).index(host) + 1
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(self.hosts[label] + path, data=body, method=method,
                                         headers=headers or {})
        try:
            with self._opener.open(request, timeout=timeout) as response:
                answer = Answer(response.status, response.headers, response.read(), label, path)
        except urllib.error.HTTPError as err:
            answer = Answer(err.code, err.headers, err.read(), label, path)
        self.history.append(f"{label} {method} {path[:80]} {answer.status}")
        found = _TOKEN.search(answer.text) if "html" in answer.headers.get("Content-Type", "") else None
        if found:
            self.token = found.group(1) or found.group(2)
        return answer

    def get(self, path: str, follow: bool = True, host: str | None = None) -> Answer:
        """GET ``path``; redirects are followed, each hop on the next host."""
        answer = self.request("GET", path, host=host)
        return self.follow(answer) if follow else answer

    def post(self, path: str, data: dict[str, str], htmx: bool = False, follow: bool = False,
             host: str | None = None) -> Answer:
        """POST a form with this session's CSRF token (as htmx sends it: a header)."""
        headers = {"X-CSRF-Token": self.token}
        if htmx:
            headers["HX-Request"] = "true"
        answer = self.request("POST", path, data, headers, host=host)
        return self.follow(answer) if follow else answer

    def follow(self, answer: Answer, hops: int = 10) -> Answer:
        while answer.status in (301, 302, 303, 307, 308) and hops > 0:
            answer = self.request("GET", answer.location)
            hops -= 1
        return answer

    def session(self) -> dict[str, Any]:
        """What the session cookie holds (Flask's signed cookie, read without its key)."""
        for cookie in self.jar:
            if cookie.name == "session" and cookie.value:
                return session_data(cookie.value)
        return {}


def session_data(value: str) -> dict[str, Any]:
    """The data of a Flask session cookie (itsdangerous: payload.timestamp.signature,
    the payload zlib-compressed when it starts with a dot)."""
    compressed = value.startswith(".")
    payload = value.lstrip(".").split(".", 1)[0]
    raw = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    data = json.loads(zlib.decompress(raw) if compressed else raw)
    return data if isinstance(data, dict) else {}


# --- a job's row ------------------------------------------------------------------------


TICKET_FIELDS = ("status", "attempts", "owner", "started")


@dataclass
class Seen:
    at: float  # time.monotonic() when the watcher saw it
    row: dict[str, Any] | None  # None: the row is gone (its result was used)


class TicketWatcher:
    """Records each change of one ticket's row (``TICKET_FIELDS``) as it happens, every 20 ms."""

    def __init__(self, database: Database, ticket: str, interval: float = 0.02):
        self.database, self.ticket, self.interval = database, ticket, interval
        self.seen: list[Seen] = []
        self.errors: list[BaseException] = []
        self._changed = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ticket-watcher", daemon=True)

    def __enter__(self) -> TicketWatcher:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        last: Any = ()
        engine = create_engine(self.database.url, pool_size=1)
        try:
            while not self._stop.is_set():
                try:
                    with engine.connect() as connection:
                        found = connection.execute(text("SELECT * FROM tickets WHERE ticket = :ticket"),
                                                   {"ticket": self.ticket}).mappings().first()
                except Exception as err:  # noqa: BLE001 - reported by wait_for
                    self.errors.append(err)
                    time.sleep(0.1)
                    continue
                row = dict(found) if found is not None else None
                key = tuple(row.get(name) for name in TICKET_FIELDS) if row else None
                if key != last:
                    last = key
                    with self._changed:
                        self.seen.append(Seen(time.monotonic(), row))
                        self._changed.notify_all()
                self._stop.wait(self.interval)
        finally:
            engine.dispose()

    def wait_for(self, condition: Callable[[dict[str, Any] | None], bool], timeout: float, what: str) -> Seen:
        """The first state seen that meets ``condition``; fails after ``timeout`` seconds with
        the states seen so far."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                for seen in self.seen:
                    if condition(seen.row):
                        return seen
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"job {self.ticket}: not {what} within {timeout:g} s; "
                                         f"its row went {self.describe()}; watcher errors: {self.errors[:1]}")
                self._changed.wait(min(left, 0.2))

    def latest(self) -> dict[str, Any] | None:
        with self._changed:
            return self.seen[-1].row if self.seen else None

    def max_attempts(self) -> int:
        with self._changed:
            return max((seen.row.get("attempts") or 0 for seen in self.seen if seen.row), default=0)

    def describe(self) -> str:
        with self._changed:
            if not self.seen:
                return "(never seen)"
            start = self.seen[0].at
            return " -> ".join(
                f"[{seen.at - start:.2f} s] " + (", ".join(f"{name}={seen.row.get(name)}" for name in TICKET_FIELDS)
                                                if seen.row else "gone")
                for seen in self.seen)


def owner_pid(row: dict[str, Any] | None) -> int | None:
    """The process id in a ticket's owner ("hostname/pid/token")."""
    owner = (row or {}).get("owner") or ""
    parts = owner.split("/")
    return int(parts[1]) if len(parts) >= 2 and parts[1].isdigit() else None


def running(row: dict[str, Any] | None) -> bool:
    return bool(row) and row.get("status") == "running" and bool(row.get("owner"))  # type: ignore[union-attr]


def finished(row: dict[str, Any] | None) -> bool:
    return row is None or row.get("status") in ("done", "refused", "failed")


@dataclass
class Kill:
    victim: str  # the host killed: the one whose worker held the job
    at: float  # time.monotonic() of the SIGKILL
    first: dict[str, Any]  # the job's row as its first worker held it


def kill_the_jobs_host(watcher: TicketWatcher, hosts: Hosts, balancer: Balancer, timeout: float = 30,
                       hold: float = 0.3) -> Kill:
    """Wait until a worker holds the job, find the host that worker runs on (the pid in the
    row's owner), let it work ``hold`` seconds, then SIGKILL that whole host and take it
    out of the balancer."""
    seen = watcher.wait_for(running, timeout, "taken by a worker")
    assert seen.row is not None
    pid = owner_pid(seen.row)
    assert pid is not None, f"the job's owner {seen.row.get('owner')!r} does not name a process (host/pid/token)"
    victim = hosts.host_of(pid)
    assert victim is not None, (f"no host runs process {pid}, the owner of the job "
                                f"({seen.row.get('owner')!r}); hosts: "
                                + ", ".join(f"{label}: {sorted(s.pids())}" for label, s in hosts.servers.items()))
    time.sleep(hold)
    latest = watcher.latest()
    assert running(latest) and latest is not None and latest.get("owner") == seen.row.get("owner"), (
        f"the job finished (or moved) before the kill: choose a slower job; its row went {watcher.describe()}")
    at = hosts.kill(victim)
    balancer.down.add(victim)
    return Kill(victim, at, seen.row)
