"""Pictures for the photo reader's tests: two real ones of a board (tests/data/photo, see
its README) and the bad inputs a stranger may send, made here."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

from PIL import Image, ImageDraw

from engine import Puzzle, parse_puzzle

ROOT = Path(__file__).resolve().parent
DATA = ROOT / "data" / "photo"
# A phone's screenshot (390 x 844 at 2x) of the play page's board: the 8x8 classic with holes.
BOARD_SCREENSHOT = DATA / "classic-8x8-40-phone-board.png"
# The same board's printable sheet, as a JPEG, with its 9 printed as 19: a reading of it
# has no solution (the 19 is the cell to correct).
SHEET_WITH_19 = DATA / "classic-8x8-40-nine-as-19.jpg"
CLASSIC = ROOT / "data" / "puzzles" / "classic-8x8-40.txt"


def classic() -> Puzzle:
    """The puzzle both pictures show (the sheet with one number changed)."""
    return parse_puzzle(CLASSIC.read_text())


def nineteen_cell() -> tuple[int, int]:
    """The cell the sheet prints as 19 (9 in the puzzle): row 5, column 5."""
    return next(cell for cell, value in classic().givens.items() if value == 9)


def not_an_image() -> bytes:
    return b"These are the numbers of a puzzle: 1 2 3\n" * 20


def truncated_jpeg() -> bytes:
    """A real JPEG of the board cut off after 40% of its bytes (an upload that broke off)."""
    out = io.BytesIO()
    with Image.open(BOARD_SCREENSHOT) as board:
        board.convert("RGB").save(out, "JPEG", quality=90)
    whole = out.getvalue()
    return whole[: len(whole) * 2 // 5]


def decompression_bomb(side: int = 30_000) -> bytes:
    """A valid PNG of side x side black pixels (900 MP: 3.4 GB as RGBA once decoded) in
    about 100 KB: only its header should ever be read."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    row = b"\0" * (1 + (side + 7) // 8)  # filter byte, then one bit a pixel
    packer = zlib.compressobj(9)
    compressed = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    header = struct.pack(">IIBBBBB", side, side, 1, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", compressed) + chunk(b"IEND", b"")


def no_puzzle() -> bytes:
    """A photo-sized picture of a sunset: colours and shapes, no board of cells."""
    picture = Image.new("RGB", (1200, 900))
    draw = ImageDraw.Draw(picture)
    for y in range(900):
        draw.line([(0, y), (1200, y)], fill=(255 - y // 5, 120 + y // 10, 60 + y // 6))
    draw.ellipse((450, 250, 750, 550), fill=(255, 200, 60))
    draw.polygon([(0, 900), (300, 600), (600, 900)], fill=(40, 60, 40))
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=85)
    return out.getvalue()
