"""Whether a process still runs, as the tests of forked children ask it."""

from __future__ import annotations


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting for its new parent to reap it does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
