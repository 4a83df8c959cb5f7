"""The photo reader (webapp/scan) on pictures drawn here: a square board photographed,
a hexagonal board turned 30°, a player's numbers, an EXIF orientation tag; and the
pictures it must refuse with a clear sentence: a truncated JPEG, a decompression bomb,
a file that is no picture, a picture with no board.

The test set's own acceptance tests (tests/test_scan_set.py) read the whole set; these
check the reader's parts on a few small pictures, quickly."""

from __future__ import annotations

import io
import struct
import zlib

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFile, ImageFont
from scan_pictures import APP, OURS, Camera, Style, draw, photograph, screenshot

from engine import parse_puzzle, solve
from webapp.scan import ImageTooLarge, NoBoard, NotAnImage, read_picture

from scan_cases import WITH_HOLES as SQUARE

HEX = parse_puzzle("""\
# adjacency: hex
 x  .  1  .  x
 .  . 19  .  x
15  .  .  .  5
 .  .  .  .  x
 x 12  8  7  x
""")

SMALL_PHOTO = (1600, 1200)  # pictures as a phone sends them (a 12-MP one is the benchmark's)


def _givens_placed(read: dict[tuple[int, int], int], truth: dict[tuple[int, int], int]) -> bool:
    """The same numbers in the same cells, up to where the board sits in the grid."""
    if len(read) != len(truth):
        return False
    (r0, c0), (t0, u0) = min(read), min(truth)
    return {(r - r0, c - c0): v for (r, c), v in read.items()} == {(r - t0, c - u0): v for (r, c), v in truth.items()}


def test_a_photographed_square_board_is_read_as_drawn() -> None:
    picture = photograph(draw(SQUARE, OURS, cell_px=60), Camera(seed=3, size=SMALL_PHOTO, turn=8, blur=0.8))
    said: list[str] = []
    reading = read_picture(picture, progress=said.append)
    # The stages are said as they start (the site shows them) and timed (the benchmark).
    assert said[:2] == ["opening the picture", "finding the board"]
    assert "checking the puzzle" in said
    assert any(words.startswith("reading ") and words.endswith(" cells") for words in said)
    assert {"open", "board", "rotation", "cells", "engine"} <= set(reading.stages)
    assert reading.puzzle.board.adjacency == "king"
    assert reading.puzzle.size == SQUARE.size
    assert _givens_placed(dict(reading.puzzle.givens), dict(SQUARE.givens))
    assert (reading.width, reading.height) == SMALL_PHOTO
    # Every cell has an outline inside the picture, in fractions of it.
    assert len(reading.cells) == SQUARE.size
    assert all(0 <= x <= 1 and 0 <= y <= 1 for c in reading.cells for x, y in c.outline)
    assert reading.solutions == 1


def test_a_hex_board_turned_30_degrees_is_read_as_hex() -> None:
    # Turned 30°, pointy-top cells become flat-top: the lattice is the same up to a
    # sixth of a turn, so the reading is compared in any of the board's six turns.
    picture = screenshot(draw(HEX, Style(turn=30.0), cell_px=70))
    reading = read_picture(picture)
    assert reading.puzzle.board.adjacency == "hex"
    assert reading.text().startswith("# adjacency: hex")
    assert sorted(reading.puzzle.givens.values()) == sorted(HEX.givens.values())
    assert reading.puzzle.size == HEX.size


def test_a_players_numbers_are_kept_only_when_asked() -> None:
    # The player's numbers: the solution's, in a few empty cells, drawn in blue.
    solved = solve(SQUARE).solutions
    assert solved
    empty = [cell for cell in sorted(SQUARE.board.cells) if cell not in SQUARE.givens]
    entries = {cell: solved[0][cell] for cell in empty[:6]}
    sheet = draw(SQUARE, APP, cell_px=60, entries={**dict(SQUARE.givens), **entries})
    picture = screenshot(sheet)
    plain = read_picture(picture)
    assert _givens_placed(dict(plain.puzzle.givens), dict(SQUARE.givens))
    kept = read_picture(picture, entries=True)
    written = {c.cell: c.value for c in kept.cells if not c.given and c.value is not None}
    assert sorted(written.values()) == sorted(entries.values())
    assert _givens_placed(dict(kept.puzzle.givens), {**dict(SQUARE.givens), **entries})


@pytest.mark.parametrize("orientation", [6, 3, 8])
def test_the_exif_orientation_is_applied_before_reading(orientation: int) -> None:
    camera = Camera(seed=5, size=SMALL_PHOTO, exif=orientation, shadow=0.0, blur=0.6)
    picture = photograph(draw(SQUARE, OURS, cell_px=60), camera)
    stored = Image.open(io.BytesIO(picture))
    assert stored.getexif().get(0x0112) == orientation
    reading = read_picture(picture)
    # The picture as shown is the upright one: its size, and the numbers the right way up.
    assert (reading.width, reading.height) == SMALL_PHOTO
    assert _givens_placed(dict(reading.puzzle.givens), dict(SQUARE.givens))


@pytest.mark.parametrize("pillow_told_to_load_truncated", [False, True], ids=["alone", "after-weasyprint"])
def test_a_truncated_jpeg_is_refused_with_a_sentence(monkeypatch: pytest.MonkeyPatch,
                                                     pillow_told_to_load_truncated: bool) -> None:
    # WeasyPrint, once imported in the process, sets this flag for everyone.
    monkeypatch.setattr(ImageFile, "LOAD_TRUNCATED_IMAGES", pillow_told_to_load_truncated)
    picture = photograph(draw(SQUARE, OURS, cell_px=40), Camera(seed=1, size=(800, 600)))
    with pytest.raises(NotAnImage) as refused:
        read_picture(picture[: len(picture) // 2])
    assert "cut short" in str(refused.value)
    assert ImageFile.LOAD_TRUNCATED_IMAGES is pillow_told_to_load_truncated


def _png_header(width: int, height: int) -> bytes:
    """A tiny PNG that says it holds ``width`` × ``height`` pixels (a decompression bomb)."""
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\0" * 64)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


@pytest.mark.parametrize("side", [20_000, 100_000])
def test_a_decompression_bomb_is_refused_before_decoding(side: int) -> None:
    bomb = _png_header(side, side)
    assert len(bomb) < 200
    with pytest.raises(ImageTooLarge) as refused:
        read_picture(bomb)
    assert "megapixels" in str(refused.value)


@pytest.mark.parametrize("data", [b"", b"hello, this is text", b"%PDF-1.4\n" + b"0" * 100])
def test_what_is_no_picture_is_refused(data: bytes) -> None:
    with pytest.raises(NotAnImage):
        read_picture(data)


def test_a_picture_with_no_board_says_so() -> None:
    rng = np.random.default_rng(7)
    scene = np.full((900, 1200, 3), 200, np.uint8)
    for _ in range(12):  # blobs and a few words: a photo of something else
        centre = (int(rng.integers(100, 1100)), int(rng.integers(100, 800)))
        colour = tuple(int(v) for v in rng.integers(0, 255, 3))
        cv2.circle(scene, centre, int(rng.integers(20, 120)), colour, -1)
    cv2.putText(scene, "no puzzle here", (100, 450), cv2.FONT_HERSHEY_SIMPLEX, 3, (20, 20, 20), 6)
    ok, data = cv2.imencode(".jpg", scene)
    assert ok
    with pytest.raises(NoBoard) as refused:
        read_picture(data.tobytes())
    assert str(refused.value)


def _screen(puzzle: object, tiles: bool) -> bytes:
    """A screenshot of ``puzzle`` (SQUARE's kind) as two other apps draw boards: ``tiles``,
    cells as white and green tiles apart on a grey page, no lines; else every position of
    the grid drawn as a cell, the holes holding a grey "x" (as our solver page does)."""
    from engine import Puzzle

    assert isinstance(puzzle, Puzzle)
    cell, gap, margin = 64, 8, 120
    rows = 1 + max(r for r, _ in puzzle.board.cells)
    cols = 1 + max(c for _, c in puzzle.board.cells)
    page = (236, 238, 242) if tiles else (255, 255, 255)
    sheet = Image.new("RGB", (2 * margin + cols * cell, 2 * margin + rows * cell + 200), page)
    pen = ImageDraw.Draw(sheet)
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 28)
    letters = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 26)
    cross = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 36)  # an x as tall as a digit's bowl
    pen.text((margin, 40), "Level 12", fill=(90, 90, 90), font=letters)
    for r in range(rows):
        for c in range(cols):
            x, y = margin + c * cell, margin + r * cell
            box = (x + gap // 2, y + gap // 2, x + cell - gap // 2, y + cell - gap // 2)
            given = puzzle.givens.get((r, c))
            middle = (x + cell // 2, y + cell // 2)
            if tiles:
                if (r, c) in puzzle.board.cell_set:
                    pen.rounded_rectangle(box, 6, fill=(214, 240, 214) if given else (255, 255, 255))
            else:
                pen.rectangle((x, y, x + cell, y + cell), outline=(150, 150, 150), width=2)
                if (r, c) not in puzzle.board.cell_set:
                    pen.text(middle, "x", fill=(110, 110, 110), font=cross, anchor="mm")
            if given:
                pen.text(middle, str(given), fill=(0, 0, 0), font=font, anchor="mm")
    out = io.BytesIO()
    sheet.save(out, "PNG")
    return out.getvalue()


@pytest.mark.parametrize("tiles", [True, False], ids=["tiles with no lines", "holes marked x"])
def test_boards_drawn_as_other_apps_draw_them_are_read(tiles: bool) -> None:
    reading = read_picture(_screen(SQUARE, tiles))
    assert reading.puzzle.size == SQUARE.size
    assert _givens_placed(dict(reading.puzzle.givens), dict(SQUARE.givens))
    assert reading.solutions == 1
