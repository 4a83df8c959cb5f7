"""The generator's attempts, on both cores when the machine has them to spare.

A generation tries solution paths one after another until one gives a puzzle of the
level (``generator._attempts``); on 10x10 hex experts two in three paths come out too
easy, so most of the time goes into paths that are thrown away.  Each attempt draws from
the seeded ``random.Random`` only at its start (the path, making it rigid, the order the
givens are taken away in: its *prefix*), and the rest (removing givens, rating) is
counted work that draws nothing.  So once an attempt's prefix is done, the random state
the next attempt starts from is known, and the next attempt can start at once in another
process.  The answer is still the first attempt, in order, that makes a puzzle, each made
from exactly the random state it had one after the other: the same puzzle as on one
core, only sooner.

Attempts run in forked children, at most two at once, and only while the runnable
processes leave a core idle for each (the kernel's count in /proc/loadavg); otherwise
the attempt is made here, as on one core.  So the machine's load changes how soon a
puzzle comes, never which one.  A child ends when its parent does (``PR_SET_PDEATHSIG``)
and at the generation's own time limit; an attempt whose child is lost is made again
here.  Children never report progress (the parent's ``progress`` may write to a pipe of
its own) and never print.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import time
from collections.abc import Callable
from multiprocessing import Pipe
from multiprocessing.connection import Connection, wait
from typing import Any

from .propagation import TimeUp
from .solver import SolverGaveUp
from .words import FactsError

_PR_SET_PDEATHSIG = 1
_MOST_CHILDREN = 2  # attempts running at once: a third is too rarely needed to pay for its work
_POLL_SECONDS = 0.5  # how often a wait looks at the time limit

State = tuple[Any, ...]  # what random.Random.getstate() gives
OnPrefix = Callable[[State], None]
Report = Callable[[Any], None]
# run(attempt, on_prefix, report) -> (what it made or None, the random state after it); it
# calls on_prefix(state) with the next attempt's start once it will draw nothing more
# (never when it may draw more later).  In a child ``report`` takes its progress (a
# picklable value) to the parent; here it is None and the attempt reports as it likes.
Attempt = Callable[[int, OnPrefix | None, Report | None], tuple[Any, State]]


class _Child:
    """One attempt running in a forked child: its pid and the pipe its messages come by."""

    def __init__(self, attempt: int, pid: int, conn: Connection) -> None:
        self.attempt = attempt
        self.pid = pid
        self.conn = conn


class Attempts:
    """Attempts ``0 .. count - 1`` made in order of need, here or ahead in children.

    ``run`` makes one attempt from the random state the process has (``set_state`` and
    ``get_state`` reach it).  ``spare`` says whether children may be used: None when the
    machine has idle cores, True always (tests), False never.  ``relay`` hears what the
    children reported, in order, of each attempt once it is the one awaited: so progress
    reads as if every attempt were made here.
    """

    def __init__(self, run: Attempt, set_state: Callable[[State], None], get_state: Callable[[], State],
                 count: int, deadline: float | None, spare: bool | None,
                 relay: Report | None = None) -> None:
        self._run = run
        self._set_state = set_state
        self._get_state = get_state
        self._count = count
        self._deadline = deadline
        self._spare = spare if hasattr(os, "fork") else False
        self._relay = relay or (lambda _report: None)
        self._reports: dict[int, list[Any]] = {}  # attempt -> what its child reported, not yet relayed
        self._awaited = -1
        self._starts: dict[int, State] = {}  # attempt -> the random state it starts from, once known
        self._children: dict[int, _Child] = {}
        self._done: dict[int, tuple[Any, State]] = {}  # attempt -> (what it made, the state after it)
        self._here: set[int] = set()  # attempts to make here (their child was lost)
        self._timed_out: set[int] = set()  # attempts whose child met the time limit
        self._next = 0  # the first attempt not yet started anywhere

    def first(self) -> tuple[int, Any] | None:
        """The first attempt that made something, and what it made; None when none did.
        Raises TimeUp when the time limit passes while children work; the random state
        is left where it was after that attempt."""
        self._starts[0] = self._get_state()
        try:
            for attempt in range(self._count):
                made, state = self._outcome(attempt)
                self._set_state(state)
                if made is not None:
                    return attempt, made
            return None
        finally:
            self.stop()

    def stop(self) -> None:
        """End every child: what they make is not needed."""
        for child in list(self._children.values()):
            self._end(child)

    def _outcome(self, attempt: int) -> tuple[Any, State]:
        self._awaited = attempt
        for report in self._reports.pop(attempt, []):
            self._relay(report)
        while attempt not in self._done:
            if attempt in self._timed_out:
                raise TimeUp()
            self._start_children()
            if attempt not in self._children:  # no core to spare for it: made here, as on one core
                self._next = max(self._next, attempt + 1)
                self._set_state(self._starts[attempt])
                self._finished(attempt, *self._run(attempt, self._ahead_of(attempt), None))
            else:
                self._receive()
        return self._done.pop(attempt)

    def _finished(self, attempt: int, made: Any, state: State) -> None:
        """Keep what ``attempt`` made; the state after it starts the next one (known
        sooner from its prefix, unless it drew to the end)."""
        self._done[attempt] = (made, state)
        self._starts.setdefault(attempt + 1, state)

    def _ahead_of(self, attempt: int) -> OnPrefix:
        """What an attempt made here does once the next one's start is known: start it
        in a child if a core is idle, while this one goes on."""
        def on_prefix(state: State) -> None:
            self._starts[attempt + 1] = state
            self._start_children(working_here=True)
        return on_prefix

    def _start_children(self, working_here: bool = False) -> None:
        while self._next < self._count and self._next in self._starts and self._next not in self._here \
                and len(self._children) < _MOST_CHILDREN:
            # With nothing running and this process about to wait, a lone child would only
            # make the attempt one at a time as this process can: ask for two idle cores.
            alone = not self._children and not working_here
            if not self._free_core(working_here, wanted=2 if alone else 1):
                return
            child = self._fork(self._next)
            if child is None:
                return
            self._children[child.attempt] = child
            self._next += 1

    def _fork(self, attempt: int) -> _Child | None:
        saved = self._get_state()
        self._set_state(self._starts[attempt])
        try:
            return _fork(attempt, self._run)
        finally:
            self._set_state(saved)

    def _receive(self) -> None:
        """Wait for a message from a child, and act on it; past the time limit with none
        come, raise TimeUp."""
        left = None if self._deadline is None else self._deadline - time.perf_counter()
        ready = wait([child.conn for child in self._children.values()],
                     _POLL_SECONDS if left is None else max(0.0, min(_POLL_SECONDS, left)))
        if not ready and self._deadline is not None and time.perf_counter() >= self._deadline:
            raise TimeUp()
        for child in [c for c in list(self._children.values()) if c.conn in ready]:
            try:
                kind, *rest = child.conn.recv()
            except (EOFError, OSError):
                kind, rest = "lost", []
            if kind == "report":
                if child.attempt == self._awaited:
                    self._relay(rest[0])
                else:
                    self._reports.setdefault(child.attempt, []).append(rest[0])
            elif kind == "next":
                self._starts.setdefault(child.attempt + 1, rest[0])
            elif kind == "made":
                self._finished(child.attempt, rest[0], rest[1])
                self._end(child)
            elif kind == "time up":  # what counts is whether the attempt awaited meets it
                self._timed_out.add(child.attempt)
                self._end(child)
            else:  # lost, or it failed there: made again here, to fail the same way if it must
                self._here.add(child.attempt)
                self._reports.pop(child.attempt, None)  # made here, it reports again
                self._end(child)

    def _end(self, child: _Child) -> None:
        self._children.pop(child.attempt, None)
        child.conn.close()
        with contextlib.suppress(ProcessLookupError):
            os.kill(child.pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(child.pid, 0)

    def _free_core(self, working_here: bool, wanted: int = 1) -> bool:
        """Whether ``wanted`` more processes would each find a core idle."""
        if self._spare is not None:
            return self._spare
        ours = len(self._children)
        others = max(0, _running() - 1 - ours)  # this process is running as it asks, and our children are
        return others + ours + (1 if working_here else 0) + wanted <= _cores()


def _fork(attempt: int, run: Attempt) -> _Child | None:
    receive, send = Pipe(duplex=False)
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        receive.close()
        send.close()
        return None
    if pid == 0:  # the child: make the attempt, send what it made, and go
        code = 0
        try:
            receive.close()
            _die_with(parent)
            _child_attempt(attempt, run, send)
        except BaseException:  # noqa: BLE001 - nothing may escape a forked child
            code = 1
        finally:
            os._exit(code)
    send.close()
    return _Child(attempt, pid, receive)


def _child_attempt(attempt: int, run: Attempt, send: Connection) -> None:
    def on_prefix(state: State) -> None:
        send.send(("next", state))

    def report(what: Any) -> None:
        send.send(("report", what))

    try:
        made, state = run(attempt, on_prefix, report)
    except (TimeUp, SolverGaveUp, FactsError):  # the time limit (the generator's check raises a FactsError)
        send.send(("time up",))
        return
    except Exception:  # noqa: BLE001 - the parent makes this attempt again and meets it there
        send.send(("failed",))
        return
    send.send(("made", made, state))


def _die_with(parent: int) -> None:
    """Have the kernel kill this child when its parent ends (Linux), so a generation
    killed from outside (a request's budget) leaves nothing running."""
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent ended before the line above
        os._exit(0)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _running() -> int:
    """Processes ready to run now, this one too (the kernel's count in /proc/loadavg);
    more than the cores when it cannot be read, so no child is started."""
    try:
        with open("/proc/loadavg", encoding="ascii") as loadavg:
            return int(loadavg.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return _cores() + 1
