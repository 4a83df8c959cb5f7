"""The pool of pre-generated puzzles, so large and expert puzzles are served at once.

``fill`` tops the pool up to a count per set of options (and makes today's and
tomorrow's puzzle of the day); ``hidato pool fill`` runs it.  What it keeps are the
boards players wished for (``wishes``: asked, not ready, not made in time) and then the
default ones (``pool_targets``).  The web app runs that
command as a low-priority child process on start and whenever a puzzle is taken from
the pool, so generation never competes with requests for the server's interpreter.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from datetime import date, timedelta

from engine import DIFFICULTIES, SHAPES, unreachable

from ..core.days import today as today_in
from ..core.options import VARIANTS, Options
from ..core.stored import generate
from .catalog import daily
from .shared import HeldClaim, Shared
from .store import Store
from .wishes import wished

# Where ``python -m webapp.cli`` finds the package even when it is not installed.
_PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Difficulties always kept in the pool: the ones whose generation can take seconds.
POOLED_DIFFICULTIES = ("hard", "expert")
# A claim on a slot is a lease this long, renewed while its holder works: a holder that
# died (on any host) frees the slot within it.
CLAIM_SECONDS = 15.0


def default_targets() -> list[Options]:
    """Each shape at its default size, in every variant that takes it there, at the slow
    difficulties it can reach."""
    return [
        Options(name, spec.default_size, difficulty, variant)
        for name, spec in SHAPES.items()
        for variant in VARIANTS
        for difficulty in POOLED_DIFFICULTIES
        if difficulty in DIFFICULTIES and spec.default_size in spec.sizes(VARIANTS[variant].adjacency)
        and unreachable(name, spec.default_size, VARIANTS[variant].adjacency, difficulty) is None
    ]


def pool_targets(store: Store) -> list[Options]:
    """What the filler keeps in the pool, in the order it makes them: the boards players
    wished for (most recent first: they said they would come back for them), then the
    default ones."""
    first = wished(store)
    return first + [options for options in default_targets() if options not in first]


def option_key(options: Options) -> tuple[str, int, str, str]:
    return (options.shape, options.size, options.difficulty, options.adjacency)


def fill(store: Store, targets: Iterable[Options], count: int = 1,
         report: Callable[[str], None] | None = None, days: Iterable[date] = ()) -> int:
    """Generate puzzles until each target has ``count`` waiting; returns how many were made.

    Every server process on every host may run this at once on one database: each slot
    (a set of options, a day's puzzle) is claimed first under a lease renewed while it
    is filled, and a slot claimed by another process is left to it, so no slot is ever
    filled twice over.
    """
    owner = f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(4)}"
    shared = Shared(store)
    made = 0
    for day in days:
        if store.daily(day) is not None:
            continue
        with HeldClaim(shared, f"daily:{day.isoformat()}", owner, CLAIM_SECONDS) as held:
            if held and store.daily(day) is None:
                daily(store, day)
                if report:
                    report(f"puzzle of the day {day.isoformat()}: made")
    for options in targets:
        name = "pool:" + ":".join(str(part) for part in option_key(options))
        with HeldClaim(shared, name, owner, CLAIM_SECONDS) as held:
            if not held:
                if report:
                    report(f"{_describe(options)}: another process is filling it")
                continue
            made += _fill_slot(store, options, count, report)
    return made


def _fill_slot(store: Store, options: Options, count: int, report: Callable[[str], None] | None) -> int:
    """Top up one claimed slot; counted after the claim, so nothing made elsewhere is missed."""
    made = 0
    waiting = store.pool_counts().get(option_key(options), 0)
    for _ in range(max(0, count - waiting)):
        try:
            stored = generate(options)
        except ValueError as err:  # the engine refuses these options (e.g. ShapeError)
            if report:
                report(f"{_describe(options)}: skipped: {err}")
            break
        store.save_puzzle(stored, pooled=True)
        made += 1
        if report:
            report(f"{_describe(options)}: added {stored.code[:40]}")
    return made


def _describe(options: Options) -> str:
    return f"{options.shape} {options.size} {options.difficulty} {options.variant}"


def today_and_tomorrow(zone: str = "UTC") -> list[date]:
    """The days whose puzzle of the day should exist, in the site's zone (``HIDATO_TIMEZONE``)."""
    today = today_in(zone)
    return [today, today + timedelta(days=1)]


class Refiller:
    """Runs ``hidato pool fill`` in a child process, one at a time, when asked."""

    def __init__(self, database_url: str, instance_path: str, enabled: bool = True):
        self.database_url = database_url
        self.instance_path = instance_path
        self.enabled = enabled  # off: this process never starts a filler (the operator runs one)
        self._lock = threading.Lock()
        self._running: subprocess.Popen[bytes] | None = None
        self._wanted: list[Options] | None = None  # None: nothing more asked for
        self._defaults_wanted = False

    def request(self, options: Options | None = None) -> None:
        """Refill the defaults (options None) or one set of options, soon."""
        if not self.enabled:
            return
        with self._lock:
            if options is None:
                self._defaults_wanted = True
            elif options not in (self._wanted or []):  # asked twice before it starts: made once
                self._wanted = (self._wanted or []) + [options]
            if self._running is None:
                self._start_locked()

    def _start_locked(self) -> None:
        args = [sys.executable, "-m", "webapp.cli", "pool", "fill"]
        if not self._defaults_wanted:
            if not self._wanted:
                return
            for options in self._wanted:
                args += ["--only", f"{options.shape}:{options.size}:{options.difficulty}:{options.variant}"]
        self._wanted = None
        self._defaults_wanted = False
        nice = shutil.which("nice")
        if nice:  # lowest priority: the pool never slows the pages down
            args = [nice, "-n", "19"] + args
        # The database URL goes through the environment: a password in it must not show in ps.
        env = {**os.environ, "DATABASE_URL": self.database_url, "HIDATO_INSTANCE": self.instance_path}
        self._running = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            cwd=_PROJECT_ROOT, env=env,
        )
        threading.Thread(target=self._watch, args=(self._running,), daemon=True,
                         name="hidato-pool-watch").start()

    def _watch(self, process: subprocess.Popen[bytes]) -> None:
        process.wait()
        with self._lock:
            self._running = None
            if self._wanted or self._defaults_wanted:
                self._start_locked()

    def wait(self, timeout: float) -> bool:
        """Wait until no refill runs or is wanted; whether that happened within ``timeout``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                idle = self._running is None and not self._wanted and not self._defaults_wanted
            if idle:
                return True
            time.sleep(0.05)
        return False

    @property
    def running_pid(self) -> int | None:
        """The process id of the refill running now, if any."""
        with self._lock:
            return self._running.pid if self._running is not None else None

    def stop(self) -> None:
        """End the child process if it is running (used by tests and shutdown)."""
        with self._lock:
            self._wanted = None
            self._defaults_wanted = False
            process = self._running
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
