"""What every ``hidato`` subcommand shares: exit statuses, argument types, reading input.

Usage mistakes and unreadable input are reported as one ``error: ...`` line on stderr
with exit status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Callable

EXIT_OK = 0
EXIT_NO_SOLUTION = 1
EXIT_BAD_INPUT = 2
EXIT_GAVE_UP = 3
# Worst first: for a file of several puzzles the exit status is the worst of theirs.
_SEVERITY = (EXIT_BAD_INPUT, EXIT_GAVE_UP, EXIT_NO_SOLUTION, EXIT_OK)
# Far above any legal file (2500 cells), low enough that `yes | hidato solve` stops.
MAX_INPUT_BYTES = 16 * 1024 * 1024


class UsageError(Exception):
    """A bad command line; reported as one line instead of argparse's usage dump."""


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see '{self.prog} --help')")


def bounded_int(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type for whole numbers from ``low`` to ``high`` (no upper bound if None)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if high is None and value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        if high is not None and not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be from {low} to {high}, got {value}")
        return value

    return parse


positive_int = bounded_int(1)


def positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def worst(codes: list[int]) -> int:
    return min(codes, key=_SEVERITY.index, default=EXIT_OK)


def read_input(path: str) -> str:
    """The text of FILE or of stdin for ``-``; raises UsageError when it cannot be read."""
    name = "standard input" if path == "-" else path
    try:
        if path == "-":
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as err:
        raise UsageError(f"cannot read {name}: {err.strerror or err}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(f"{name} is too large (more than {MAX_INPUT_BYTES} bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise UsageError(f"{name} is not UTF-8 text (byte {err.start + 1})") from None
