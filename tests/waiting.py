"""One way for tests to wait for something another thread or process does: ``wait_until``
asks again and again until the answer is the one awaited, and fails with what it last saw."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(look: Callable[[], T], done: Callable[[T], bool], seconds: float, every: float = 0.05,
               what: str = "the awaited state") -> T:
    """Call ``look`` until ``done`` says yes to what it returned, and return that.

    ``done`` may assert on what it sees meanwhile (a waiting page that should still say
    so). After ``seconds`` the test fails, naming ``what`` and the last thing seen.
    """
    deadline = time.monotonic() + seconds
    while True:
        seen = look()
        if done(seen):
            return seen
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not reached in {seconds:g} s; last seen: {_short(seen)}")
        time.sleep(every)


def _short(seen: object) -> str:
    text = seen.get_data(as_text=True) if hasattr(seen, "get_data") else repr(seen)
    status = f"{seen.status_code} " if hasattr(seen, "status_code") else ""
    return status + (text[:400] + "…" if len(text) > 400 else text)
