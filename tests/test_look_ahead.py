"""Attempts run ahead in forked children give what one process gives, attempt for attempt.

A toy attempt stands in for a solution path: it draws its prefix from the shared
``random.Random``, says so, then works a little and "makes something" or not.  Made on
one core or in children (real forks), the first attempt that makes something and the
random state after it must be the same, also when an attempt draws more after its
prefix, when a child dies, and when the time limit passes.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from process_state import alive

from engine import look_ahead
from engine.look_ahead import Attempts, OnPrefix, State
from engine.propagation import TimeUp

ROOT = Path(__file__).resolve().parent.parent


class Toy:
    """Attempts drawing from one ``random.Random``; ``made_at`` the share that succeed."""

    def __init__(self, seed: int, made_at: float = 0.15, draws_more: frozenset[int] = frozenset(),
                 dies: frozenset[int] = frozenset(), work: float = 0.01) -> None:
        self.rng = random.Random(seed)
        self.made_at = made_at
        self.draws_more = draws_more  # attempts that draw again after their work
        self.dies = dies  # attempts whose child ends without a word
        self.work = work
        self.parent = os.getpid()
        self.made_here: list[int] = []

    def run(self, attempt: int, on_prefix: OnPrefix | None,
            _report: object = None) -> tuple[tuple[int, float] | None, State]:
        first = self.rng.random()
        if on_prefix is not None and attempt not in self.draws_more:
            on_prefix(self.rng.getstate())
        if attempt in self.dies and os.getpid() != self.parent:
            os._exit(3)
        time.sleep(self.work)
        if attempt in self.draws_more:
            first = (first + self.rng.random()) / 2
        if os.getpid() == self.parent:
            self.made_here.append(attempt)
        return ((attempt, first) if first < self.made_at else None), self.rng.getstate()

    def first(self, spare: bool, count: int = 30,
              deadline: float | None = None) -> tuple[tuple[int, Any] | None, State]:
        attempts = Attempts(self.run, self.rng.setstate, self.rng.getstate, count, deadline, spare)
        return attempts.first(), self.rng.getstate()


@pytest.fixture(autouse=True)
def forked(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The pids of the children the attempts forked; each must be ended and reaped after."""
    pids: list[int] = []
    real = look_ahead._fork

    def fork(attempt: int, run: look_ahead.Attempt) -> look_ahead._Child | None:
        child = real(attempt, run)
        if child is not None:
            pids.append(child.pid)
        return child

    monkeypatch.setattr(look_ahead, "_fork", fork)
    yield pids
    for pid in pids:
        with pytest.raises(ChildProcessError):  # already reaped: nothing left running or a zombie
            os.waitpid(pid, os.WNOHANG)


@pytest.mark.parametrize("seed", range(8))
def test_children_find_the_same_first_attempt_as_one_process(seed: int) -> None:
    alone = Toy(seed).first(spare=False)
    ahead = Toy(seed).first(spare=True)
    assert ahead == alone
    assert alone[0] is not None


def test_an_attempt_that_draws_after_its_work_is_waited_for() -> None:
    draws_more = frozenset({0, 2, 3, 5, 8})
    alone = Toy(11, made_at=0.1, draws_more=draws_more).first(spare=False)
    ahead = Toy(11, made_at=0.1, draws_more=draws_more).first(spare=True)
    assert ahead == alone
    assert alone[0] is not None and alone[0][0] > 3  # it went past attempts that drew more


def test_an_attempt_whose_child_dies_is_made_here() -> None:
    alone = Toy(5, made_at=0.1).first(spare=False)
    found = alone[0]
    assert found is not None and found[0] >= 2
    toy = Toy(5, made_at=0.1, dies=frozenset({1}))
    assert toy.first(spare=True) == alone
    assert 1 in toy.made_here


def test_none_made_gives_none_and_the_state_after_the_last() -> None:
    assert Toy(3, made_at=-1).first(spare=True, count=6) == Toy(3, made_at=-1).first(spare=False, count=6)
    assert Toy(3, made_at=-1).first(spare=True, count=6)[0] is None


def test_children_are_used(forked: list[int]) -> None:
    Toy(4).first(spare=True)
    assert len(forked) >= 2


def test_the_time_limit_stops_the_children() -> None:
    toy = Toy(2, made_at=-1, work=5.0)
    started = time.perf_counter()
    with pytest.raises(TimeUp):
        toy.first(spare=True, deadline=started + 0.5)
    assert time.perf_counter() - started < 3


KILLED_PARENT = """
import os, random, threading, time
from engine.look_ahead import Attempts
rng = random.Random(1)
def run(attempt, on_prefix, report):
    rng.random()
    if on_prefix is not None:
        on_prefix(rng.getstate())
    time.sleep(60)
    return None, rng.getstate()
def tell():
    time.sleep(1)
    print(open(f"/proc/{os.getpid()}/task/{os.getpid()}/children").read(), flush=True)
threading.Thread(target=tell, daemon=True).start()
Attempts(run, rng.setstate, rng.getstate, 30, None, True).first()
"""


def test_children_end_when_their_parent_is_killed() -> None:
    """A request's budget kills a generation from outside: its children must go too,
    not sleep on (here for a minute) with nobody to hear them."""
    process = subprocess.Popen([sys.executable, "-c", KILLED_PARENT], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        children = [int(pid) for pid in process.stdout.readline().split()]
        assert len(children) == 2, children
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait()  # not communicate(): the children hold its stdout open as long as they live
        assert process.stdout is not None
        process.stdout.close()
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in children) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in children)
