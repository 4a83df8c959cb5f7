"""``hidato scan``: read the puzzle in a photo or a screenshot and print it in the notation.

The puzzle goes to standard output, ready for ``hidato solve``; how sure the reader is
goes to standard error: the cells it most likely misread (with their confidence) and
whether what was read has exactly one solution.  OpenCV and the OCR model load here,
when a picture is read (``webapp.scan.read_picture``), never in the other commands.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import BinaryIO, NoReturn, TextIO

from engine import ADJACENCIES, cell_name, plural, seconds

from ..scan import MAX_BYTES, Reading, ScanError, read_picture
from .common import EXIT_OK, UsageError, fail

CONFIDENCE_SHOWN = 8  # doubtful cells named on standard error at most

SCAN_EPILOG = f"""\
input:
  A photo or a screenshot of a Hidato, Numbrix or hex puzzle (JPEG, PNG, WebP...),
  or - for standard input.  Files over {MAX_BYTES // (1024 * 1024)} MB are refused, and so are pictures of
  too many pixels, before they are decoded.

output:
  The puzzle in the notation (see 'hidato --help'): '# adjacency: hex' for hex
  boards, holes as x.  Only the printed givens, unless --entries keeps the numbers
  a player wrote in too.  Standard error says how many cells were read, the cells
  most likely misread (those read with low confidence, and those the solver's
  reasons point at when the puzzle read has no solution or several) with how
  sure the reader was of each (0 to 1), and whether the puzzle read has exactly
  one solution, none or several.

exit status:
  0  a puzzle was read (whatever its solutions: see standard error)
  2  not a picture, a truncated one, too large, no board found, or a bad option

examples:
  $ hidato scan photo.jpg > puzzle.txt && hidato solve puzzle.txt
  $ hidato scan --adjacency rook --debug /tmp/scan screenshot.png
"""


def add_scan(commands: argparse._SubParsersAction) -> None:
    sub = commands.add_parser(
        "scan",
        help="read a puzzle from a photo or a screenshot",
        description="Read the puzzle in IMAGE and print it in the puzzle notation.",
        epilog=SCAN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.add_argument("image", metavar="IMAGE", help="the picture's file, or - for standard input")
    sub.add_argument("--adjacency", choices=ADJACENCIES,
                     help="how the cells touch (default: hex for hex boards; for square boards rook when the puzzle "
                          "read has one solution as a Numbrix and not as a Hidato, or its one Hidato "
                          "solution never steps diagonally, else king)")
    sub.add_argument("--entries", action="store_true",
                     help="keep the numbers a player wrote in too, not only the printed givens")
    sub.add_argument("--debug", metavar="DIR", type=Path,
                     help="write the intermediate pictures (the board found, the cells, each reading) to DIR")
    sub.set_defaults(handler=_cmd_scan)


def _cmd_scan(args: argparse.Namespace) -> int:
    try:
        if args.debug is not None:
            _debug_folder(args.debug)
        data = _picture(args.image)
    except UsageError as err:
        return fail(str(err))
    stages = Stages(sys.stderr)
    try:
        reading = read_picture(data, adjacency=args.adjacency, entries=args.entries, debug=args.debug,
                               progress=stages)
    except ScanError as err:
        stages.clear()
        name = "standard input" if args.image == "-" else args.image
        return fail(f"{name}: {_sentence(str(err))}")
    stages.clear()
    print(reading.text(), end="")
    for line in report(reading):
        print(line, file=sys.stderr)
    return EXIT_OK


def _picture(path: str) -> bytes:
    """The file's bytes, refused (UsageError) when it cannot be read or passes MAX_BYTES,
    before more than MAX_BYTES are read."""
    name = "standard input" if path == "-" else path
    if path != "-" and os.path.isdir(path):
        raise UsageError(f"cannot read {name}: it is a directory")
    if path != "-" and os.path.isfile(path) and os.path.getsize(path) > MAX_BYTES:
        _too_large(name, os.path.getsize(path))
    try:
        handle: BinaryIO = sys.stdin.buffer if path == "-" else open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as err:
        raise UsageError(f"cannot read {name}: {err.strerror or err}") from None
    try:
        data = handle.read(MAX_BYTES + 1)
    except OSError as err:
        raise UsageError(f"cannot read {name}: {err.strerror or err}") from None
    finally:
        if handle is not sys.stdin.buffer:
            handle.close()
    if len(data) > MAX_BYTES:  # standard input, or a file that grew
        _too_large(name, None)
    if not data:
        raise UsageError(f"{name} is empty: it holds no picture")
    return data


def _too_large(name: str, size: int | None) -> NoReturn:
    shown = f" ({size / (1024 * 1024):.1f} MB)" if size else ""
    raise UsageError(f"{name} is too large{shown}: the photo reader takes files of up to "
                     f"{MAX_BYTES // (1024 * 1024)} MB")


def _debug_folder(folder: Path) -> None:
    """--debug's folder, made if missing: checked before the picture is read."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise UsageError(f"cannot write to {folder}: {err.strerror or err}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"cannot write to {folder}: permission denied")


def _sentence(text: str) -> str:
    """A refusal as the rest of an ``error:`` line: no capital first, no full stop last."""
    text = text.strip().rstrip(".")
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def report(reading: Reading) -> list[str]:
    """What standard error says of a reading: the cells read, the doubtful ones with their
    confidence (worst first), and the solutions."""
    numbers = sum(1 for cell in reading.cells if cell.value is not None)
    lines = [f"read {plural(len(reading.cells), 'cell')} ({plural(numbers, 'number')}) "
             f"in {seconds(reading.seconds, 3)}"]
    confidence = {cell.cell: cell for cell in reading.cells}
    if reading.doubtful:
        named = []
        for cell in reading.doubtful[:CONFIDENCE_SHOWN]:
            found = confidence.get(cell)
            value = "read as empty" if found is None or found.value is None else f"read {found.value}"
            sure = f" ({value}, confidence {found.confidence:.2f})" if found is not None else ""
            named.append(f"{cell_name(cell)}{sure}")
        more = len(reading.doubtful) - len(named)
        tail = f"; and {more} more" if more > 0 else ""
        first = " (most doubtful first)" if len(reading.doubtful) > 1 else ""
        lines.append(f"{plural(len(reading.doubtful), 'cell')} most likely misread{first}: {'; '.join(named)}{tail}")
    else:
        lines.append("no cell is doubtful: every one was read with high confidence")
    lines.append(_solutions(reading))
    return lines


def _solutions(reading: Reading) -> str:
    if reading.solutions == 1:
        return "the puzzle read has exactly one solution"
    if reading.solutions == 0:
        return ("the puzzle read has no solution: a number was probably misread "
                "(check the doubtful cells above against the picture)")
    if reading.solutions is not None:
        return "the puzzle read has more than one solution: a given may have been missed or misread"
    return "whether the puzzle read has exactly one solution was not settled in time"


class Stages:
    """The reader's stage on a terminal's status line, rewritten in place and erased at
    the end; nothing when standard error is a file or a pipe (a log needs no stages)."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.terminal = stream.isatty()
        self.shown = 0

    def __call__(self, stage: str) -> None:
        if not self.terminal:
            return
        text = f"{stage}…"[:79]
        self._write("\r" + text.ljust(self.shown))
        self.shown = len(text)

    def clear(self) -> None:
        if self.terminal and self.shown:
            self._write("\r" + " " * self.shown + "\r")
            self.shown = 0

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()
