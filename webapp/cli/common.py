"""What every ``hidato`` subcommand shares: exit statuses, argument types, reading input.

Input is read as a stream, one puzzle at a time, so a long file of puzzles takes no
more memory than its largest puzzle.  A puzzle may be a board in the notation, or a
line naming one: a compact id, a link to ``/p/<id>`` or a printed short link
(``core.puzzle_list``); the input itself may be such an id or link instead of a file
(``hidato solve 5x5:a18A…``).  ``inputs.py`` turns each into a puzzle.

Usage mistakes and unreadable input are reported as one ``error: ...`` line on stderr
with exit status 2, never as a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import BinaryIO, NamedTuple

from engine import iter_puzzles, plural

from ..core.messages import Refusal
from ..core.puzzle_list import Reference, block_references, reference_of

EXIT_OK = 0
EXIT_NO_SOLUTION = 1
EXIT_BAD_INPUT = 2
EXIT_GAVE_UP = 3
# Worst first: for a file of several puzzles the exit status is the worst of theirs.
_SEVERITY = (EXIT_BAD_INPUT, EXIT_GAVE_UP, EXIT_NO_SOLUTION, EXIT_OK)
# Far above any legal file (2500 cells), low enough that `yes | hidato solve` stops;
# counted as the input is read, since puzzles are read one at a time.
MAX_INPUT_BYTES = 16 * 1024 * 1024
_BOM = b"\xef\xbb\xbf"


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


def worse(status: int, other: int) -> int:
    """The worse of two exit statuses, so a long input keeps one status, not a list."""
    return worst([status, other])


class Block(NamedTuple):
    """One puzzle of the input, as the commands that read puzzles see it: a board in the
    notation (``text``), or a line naming one (``reference``, ``text`` its line)."""

    number: int  # 1 for the first puzzle of the input
    first_line: int
    text: str
    several: bool  # whether the input holds more than one puzzle (known by then)
    reference: Reference | None = None
    problem: Refusal | None = None  # a block that mixes ids and rows

    def label(self) -> str:
        """"puzzle K (line L)" when there are several puzzles, else ""."""
        return f"puzzle {self.number} (line {self.first_line})" if self.several else ""


def read_blocks(path: str) -> Iterator[Block]:
    """The puzzles of FILE (or stdin for ``-``, or the id or link ``path`` itself), one at
    a time as the input is read.

    Only one puzzle is read ahead, to know whether there are several.  UsageError comes
    when the input cannot be read, is not UTF-8 or passes MAX_INPUT_BYTES, possibly
    after some puzzles were handed out (they were read before the trouble).
    """
    items = _items(_source_lines(path))
    current = next(items, None)
    if current is None:
        # No puzzle at all: the parser still says what is wrong ("no cells").
        yield Block(1, 1, "", False)
        return
    number, several = 1, False
    while current is not None:
        try:
            following = next(items, None)
        except UsageError:
            yield Block(number, *current[:2], several, *current[2:])
            raise
        several = several or following is not None
        yield Block(number, *current[:2], several, *current[2:])
        current, number = following, number + 1


_Item = tuple[int, str, Reference | None, Refusal | None]


def _items(lines: Iterator[str]) -> Iterator[_Item]:
    """(first line, text, reference, problem) of each puzzle: a block of ids or links gives
    one item per line."""
    for first_line, block in iter_puzzles(lines):
        try:
            references = block_references(block, first_line)
        except Refusal as problem:
            yield first_line, block, None, problem
            continue
        if references is None:
            yield first_line, block, None, None
            continue
        lines_of = block.split("\n")
        for line, reference in references:
            yield line, lines_of[line - first_line], reference, None


def _source_lines(path: str) -> Iterator[str]:
    """The input's lines: a file's, stdin's for ``-``, or a single id or link given instead
    of a file name (a file of that name wins)."""
    if path != "-" and not os.path.exists(path) and reference_of(path) is not None:
        return iter([path])
    return read_lines(path)


def read_lines(path: str) -> Iterator[str]:
    """The lines of FILE (or stdin for ``-``) as text, read and decoded one at a time.

    A UTF-8 byte order mark is skipped.  The whole input may hold MAX_INPUT_BYTES, so
    one line can never hold more; UsageError says what went wrong, with the byte
    position of text that is not UTF-8.
    """
    name = "standard input" if path == "-" else path
    with _open(path, name) as handle:
        consumed = 0
        while True:
            try:
                raw = handle.readline(MAX_INPUT_BYTES - consumed + 1)
            except OSError as err:
                raise UsageError(f"cannot read {name}: {err.strerror or err}") from None
            if not raw:
                return
            if consumed + len(raw) > MAX_INPUT_BYTES:
                raise UsageError(f"{name} is too large (more than {plural(MAX_INPUT_BYTES, 'byte')})")
            yield _decode(raw, consumed, name)
            consumed += len(raw)


def _open(path: str, name: str) -> AbstractContextManager[BinaryIO]:
    if path == "-":
        return contextlib.nullcontext(sys.stdin.buffer)  # not ours to close
    try:
        return open(path, "rb")
    except OSError as err:
        raise UsageError(f"cannot read {name}: {err.strerror or err}") from None


def _decode(raw: bytes, offset: int, name: str) -> str:
    """One line of the input as text; ``offset`` is where it starts in the input."""
    skip = len(_BOM) if offset == 0 and raw.startswith(_BOM) else 0
    try:
        return raw[skip:].decode("utf-8")
    except UnicodeDecodeError as err:
        raise UsageError(f"{name} is not UTF-8 text (byte {offset + skip + err.start + 1})") from None
