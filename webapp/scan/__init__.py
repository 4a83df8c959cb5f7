"""Reading a puzzle from a photo or a screenshot: the board found, straightened and cut
into cells, each cell read alone by an OCR model, the rotation chosen, and the engine
asked whether what was read is a puzzle.

A layer of its own beside ``paper`` (web → store, paper, work, scan → core → engine):
no Flask, no database.  OpenCV and the OCR model (PP-OCRv4 through ONNX Runtime, in the
``rapidocr_onnxruntime`` wheel: nothing is downloaded) load on the first picture read,
never when the web app starts or in other commands.

This module is the package's public face: what a reading is, the errors a picture can
give, and ``read_picture``.  Everything else is inside.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from engine import Cell, Puzzle, format_puzzle

from ..core.messages import Refusal

# A picture is refused before it is decoded when its file or its pixels pass these: a
# 12-MP phone JPEG is 3-6 MB; 50 MP leaves room for the largest phone cameras.
MAX_BYTES = 25 * 1024 * 1024
MAX_PIXELS = 50_000_000

Point = tuple[float, float]  # in the picture as shown (EXIF orientation applied), as fractions of its width and height


@dataclass(frozen=True)
class CellReading:
    """What was read in one cell of the board."""

    cell: Cell  # (row, col) of the puzzle read, 0-based (hex boards: the odd-r layout)
    value: int | None  # the number read, None for an empty cell
    confidence: float  # 0..1: how sure the reader is of ``value`` (or that the cell is empty)
    outline: tuple[Point, ...]  # the cell's corners in the picture, in order around it
    given: bool = True  # printed as a given; False: written in by a player (kept with ``entries``)


@dataclass(frozen=True)
class Reading:
    """A puzzle read from a picture: the puzzle, and each cell as it was read."""

    puzzle: Puzzle  # the board and its givens (with ``entries``, the player's numbers too)
    cells: tuple[CellReading, ...]
    width: int  # the picture's size as shown (EXIF orientation applied), in pixels
    height: int
    # Cells most likely misread, worst first: low confidence, or (when what was read has
    # no solution or several) the cells the engine's reasons point at.
    doubtful: tuple[Cell, ...] = ()
    solutions: int | None = None  # 0, 1 or 2 (two or more) if the engine settled it in time
    seconds: float = 0.0
    stages: dict[str, float] = field(default_factory=dict)  # where the time went, for the benchmark

    def text(self) -> str:
        """The puzzle in the text notation (``# adjacency: hex`` for hex boards, holes as ``x``)."""
        return format_puzzle(self.puzzle)


class ScanError(Refusal):
    """A picture that cannot be read as a puzzle; ``str()`` English, ``say(words)`` any language."""


class NotAnImage(ScanError):
    """Not a picture this reader can decode (or a truncated one)."""


class ImageTooLarge(ScanError):
    """Too many bytes or pixels: refused before decoding (a decompression bomb too)."""


class NoBoard(ScanError):
    """A picture, but no board of cells could be found or read in it."""


Progress = Callable[[str], None]  # a stage's name: "finding the board", "reading 12 of 40 cells", ...


def read_picture(data: bytes, *, adjacency: str | None = None, entries: bool = False,
                 debug: Path | None = None, progress: Progress | None = None) -> Reading:
    """Read the puzzle in a picture (the file's bytes: JPEG, PNG, WebP...).

    ``adjacency`` ("king", "rook", "hex") forces how cells touch; by default square
    boards are read as Hidato (king) unless the picture shows otherwise, hex lattices as
    hex.  ``entries``: keep the numbers a player wrote in too, not only the givens.
    ``debug``: a folder where the intermediate pictures are written.  Raises ScanError."""
    from .reader import read  # OpenCV and the model load here, on first use

    return read(data, adjacency=adjacency, entries=entries, debug=debug, progress=progress)
