"""A list of puzzles as a person writes one: boards in the notation, compact ids, links.

Blocks are separated by blank lines (``engine.iter_puzzles``).  A block whose lines (its
comments aside) each name a puzzle holds one puzzle per line: a compact id
(``5x5:a18A…``), or a link to a puzzle's page ``/p/<id>`` or to a printed short link
``/s/<short>``, with or without the site's address (``hidato.example.org/s/2f``, as a
booklet prints it under its QR code).  Any other block is one board in the notation, its
``# adjacency:`` line honoured.  A block that mixes the two is refused: a blank line
between them is all it needs.

Pure Python: nothing here reads the database.  A short code is handed back as it is
(``Reference``), for the caller to look up; the web looks in its store, the command line
in the site's database when it can reach one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote, urlsplit

from engine import Puzzle, iter_puzzles, parse_puzzle

from .messages import N_, Refusal

# A compact id at the start of a line: "5x5:", "8x8r:", "7x7h:" (notation rows have no colon).
_ID = re.compile(r"[1-9][0-9]{0,3}x[1-9][0-9]{0,3}[rh]?:\S*")
# The path of a puzzle's page or of a short link, anywhere in a link: /p/<id>, /s/<short>.
_PATH = re.compile(r"/([ps])/([^/?#\s]+)")
_SHORT = re.compile(r"[0-9A-Za-z]{1,7}")
_ID_HEAD = re.compile(r"[1-9][0-9]{0,3}x[1-9][0-9]{0,3}[rh]?:")
_HOST = re.compile(r"(localhost|[\w-]+(\.[\w-]+)+|\[[0-9a-fA-F:.]+\])(:\d+)?", re.ASCII)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # as the notation counts lines
_DECLARED = re.compile(r"^\s*#\s*adjacency\s*:", re.IGNORECASE | re.MULTILINE)

MIXED_BLOCK = N_("lines %(first)s to %(last)s mix puzzle ids or links with the rows of a board: put a blank line "
                 "between them")


@dataclass(frozen=True)
class Reference:
    """A line that names a puzzle: its compact id, or a printed short code (``kind``);
    ``host`` is the address the link named ("" for a bare id or path)."""

    kind: Literal["id", "short"]
    value: str
    host: str = ""


@dataclass(frozen=True)
class Entry:
    """One puzzle of a list: a board in the notation (``text``), or a ``reference``;
    ``number`` its place in the list (from 1), ``line`` and ``last_line`` where it is."""

    number: int
    line: int
    last_line: int
    text: str | None = None
    reference: Reference | None = None
    problem: Refusal | None = None  # what is wrong with it, seen without solving anything


def reference_of(line: str) -> Reference | None:
    """The puzzle a line names (an id, a link to /p/<id> or /s/<short>), or None when the
    line is something else (a row of a board, a comment, text)."""
    text = line.strip()
    if not text or text.startswith("#") or any(space in text for space in " \t"):
        return None
    if _ID.fullmatch(text):
        return Reference("id", text)
    if "/" not in text:
        return None
    # A link as copied from a browser (with its scheme), from a sheet (its host first, as
    # "hidato.example.org/s/2f"), or a path; a relative file name ("data/p/x.txt") is none.
    if "://" not in text and not text.startswith("/") and not _HOST.fullmatch(text.split("/", 1)[0]):
        return None
    parts = urlsplit(text if "://" in text or text.startswith("/") else f"//{text}")
    # The last /p/ or /s/ of the path names the puzzle (/p/<id>/print too).
    found = next(reversed(list(_PATH.finditer(parts.path))), None)
    if found is None:
        return None
    kind, value = found.group(1), unquote(found.group(2))
    if kind == "p":
        if value.endswith(".txt"):
            value = value[:-4]
        # A whole link names a puzzle, even a mangled one (its errors are the id's); a
        # link without its scheme only if what follows /p/ starts as an id does ("5x5:").
        if "://" in text or _ID_HEAD.match(value):
            return Reference("id", value, parts.netloc.lower())
        return None
    return Reference("short", value, parts.netloc.lower()) if _SHORT.fullmatch(value) else None


def block_references(block: str, first_line: int) -> list[tuple[int, Reference]] | None:
    """The puzzles a block names line by line, with their line numbers; None when it is a
    board in the notation.  A block mixing the two raises a Refusal (``MIXED_BLOCK``)."""
    found: list[tuple[int, Reference]] = []
    rows = 0
    last = first_line
    for offset, line in enumerate(_lines(block)):
        last = first_line + offset
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        reference = reference_of(line)
        if reference is None:
            rows += 1
        else:
            found.append((last, reference))
    if not found:
        return None
    if rows:
        raise Refusal(MIXED_BLOCK, first=first_line, last=last)
    return found


def read_list(lines: Iterable[str]) -> Iterator[Entry]:
    """The puzzles of a list, in order, each with its place; a block that mixes ids and
    rows comes back as one entry with its ``problem``."""
    number = 0
    for first_line, block in iter_puzzles(lines):
        last_line = first_line + block.count("\n") - 1
        try:
            references = block_references(block, first_line)
        except Refusal as problem:
            number += 1
            yield Entry(number, first_line, last_line, text=block, problem=problem)
            continue
        if references is None:
            number += 1
            yield Entry(number, first_line, last_line, text=block)
            continue
        for line, reference in references:
            number += 1
            yield Entry(number, line, line, reference=reference)


def declares_adjacency(text: str) -> bool:
    """Whether a board's text has its own ``# adjacency:`` line."""
    return _DECLARED.search(text) is not None


def board_of(entry: Entry, adjacency: str = "king") -> Puzzle:
    """The puzzle of an entry in the notation: its own ``# adjacency:`` line, else
    ``adjacency`` (PuzzleFormatError when malformed, with the line in the list)."""
    assert entry.text is not None
    declared = declares_adjacency(entry.text)
    return parse_puzzle(entry.text, adjacency=None if declared else adjacency, first_line=entry.line)


def split_list(text: str) -> list[Entry]:
    """``read_list`` of a whole text (a form's field)."""
    return list(read_list(_lines(text)))


def _lines(text: str) -> list[str]:
    lines = _LINE_BREAK.split(text)
    return lines[:-1] if lines and lines[-1] == "" else lines
