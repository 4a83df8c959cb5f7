"""The photo reader against its test set (issue 27): every committed picture read back as
the puzzle drawn in it, and the pictures it must refuse, each with the right error.

The set is in tests/data/scan (made by tools/scan_testset.py, which says how);
``scan_cases`` holds how a reading is compared with the truth.  Each picture is one test,
named after its file: square Hidato, Numbrix, hex, holes and ragged outlines, screenshots
of our pages and other apps, our PDF pages, newsprint photos, and a player's numbers
(read with ``entries=True``: the player's numbers too, told apart from the givens).
"""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import textwrap
import time
import zlib

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont, ImageOps

from engine import Puzzle, format_puzzle, parse_puzzle
from webapp.scan import MAX_BYTES, ImageTooLarge, NoBoard, NotAnImage, ScanError, read_picture
from webapp.scan import Reading as ScanReading

from scan_cases import DATA, Case, load_cases, numbers_right, same_entries, same_puzzle

CASES = load_cases()


def _shown(case: Case, reading: ScanReading, truth: Puzzle) -> str:
    read = reading.text()
    right = numbers_right(reading.puzzle, truth, case.hex_turns)
    return (f"{case.path.name} ({case.category}): {right} of {len(truth.givens)} numbers right\n"
            f"drawn:\n{format_puzzle(truth)}read:\n{read}")


# --- every picture of the set ----------------------------------------------------------

# What the reader must reach in each category: the share of the drawn numbers read with the
# right value in the right cell, and of the boards read exactly as drawn (holes, outline and
# every number; a player's numbers too, told apart, where the picture has them).  The issue
# asks for 99 % and 95 % everywhere; the reader does not reach that yet (README, "Reading
# photos"), so these are a ratchet at what it reads today, rounded down: a change that reads
# worse fails, and each gain is locked in by raising them.  TARGET is what to raise them to.
TARGET = (0.99, 0.95)
FLOORS: dict[str, tuple[float, float]] = {
    # measured 2026-11-26 (README, "Reading photos"), less one board of slack: the engine's
    # check that settles Numbrix against Hidato has a time budget, so a busy machine may differ
    # (after the board and small-digits rounds: README, "After the board round" and
    # "After the small-digits round"; the merged figures are in "Both rounds together")
    # (after the mending round, README "After the mending round": square, Numbrix, hex,
    # pdf and entries raised) (after the lost-digit round, README "After the lost-digit
    # round": Numbrix's numbers 650 of 656 on a quiet machine, 99.1 %; the floor keeps three
    # numbers of slack because numbrix-09's second look reads one or two fewer under load)
    "square": (0.99, 0.92),  # 27 of 28
    "numbrix": (0.985, 0.90),  # 19 of 20
    "hex": (0.99, 0.91),  # 23 of 24
    "holes": (0.99, 0.91),  # 23 of 24
    "screenshots": (0.99, 0.94),  # 18 of 18
    "pdf": (0.99, 0.92),  # 14 of 14
    "newsprint": (0.99, 0.94),  # 18 of 18
    "entries": (0.99, 0.94),  # 18 of 18
}
CATEGORIES = sorted(FLOORS)


def _read_exactly(case: Case, reading: ScanReading) -> bool:
    truth = case.with_entries
    if not same_puzzle(reading.puzzle, truth, case.hex_turns):
        return False
    if not case.has_entries:
        return True
    written = {c.cell: c.value for c in reading.cells if not c.given and c.value is not None}
    return same_entries(reading.puzzle, written, truth, case.entry_cells, case.hex_turns)


@pytest.mark.slow
@pytest.mark.parametrize("category", CATEGORIES)
def test_the_reader_returns_the_puzzles_drawn_in_each_category(category: str) -> None:
    cases = [case for case in CASES if case.category == category]
    numbers = right = exact = 0
    misread = []
    for case in cases:
        truth = case.with_entries
        numbers += len(truth.givens)
        try:
            reading = read_picture(case.data, entries=case.has_entries)
        except ScanError as error:  # a board not found is a board misread, with all its numbers
            misread.append(f"{case.path.name} ({case.category}): {error}")
            continue
        image = ImageOps.exif_transpose(Image.open(case.path))
        assert (reading.width, reading.height) == image.size  # the picture as shown, EXIF turn applied
        right += numbers_right(reading.puzzle, truth, case.hex_turns)
        if _read_exactly(case, reading):
            exact += 1
        else:
            misread.append(_shown(case, reading, truth))
    least_numbers, least_boards = FLOORS[category]
    shown = "\n".join(misread)
    assert right / numbers >= least_numbers, f"{right} of {numbers} numbers right in {category}\n{shown}"
    assert exact / len(cases) >= least_boards, f"{exact} of {len(cases)} boards exact in {category}\n{shown}"


def test_the_floors_never_pass_the_target() -> None:
    assert set(FLOORS) == {case.category for case in CASES}
    assert all(n <= TARGET[0] and b <= TARGET[1] for n, b in FLOORS.values())


ENTRIES = [case for case in CASES if case.has_entries]


def _givens_read(case: Case) -> bool:
    try:
        return same_puzzle(read_picture(case.data).puzzle, case.truth, case.hex_turns)
    except ScanError:
        return False


@pytest.mark.slow
def test_without_entries_only_the_givens_are_read_from_a_played_picture() -> None:
    # The puzzle is the givens alone: the player's numbers are not taken for givens.
    missed = [case.name for case in ENTRIES if not _givens_read(case)]
    assert 1 - len(missed) / len(ENTRIES) >= FLOORS["entries"][1], f"{len(missed)} of {len(ENTRIES)} misread: {missed}"


# --- the set itself ---------------------------------------------------------------------


def test_the_set_covers_every_category_and_stays_small() -> None:
    counts: dict[str, int] = {}
    for case in CASES:
        counts[case.category] = counts.get(case.category, 0) + 1
    assert set(counts) == {"square", "numbrix", "hex", "holes", "screenshots", "pdf", "newsprint", "entries"}
    assert min(counts.values()) >= 10, counts
    assert 120 <= len(CASES) <= 200
    size = sum(path.stat().st_size for path in DATA.iterdir())
    assert size < 15_000_000, f"the set is {size / 1e6:.1f} MB"


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_truth_is_a_puzzle_of_our_notation_that_matches_its_picture(case: Case) -> None:
    text = (DATA / case.record["truth"]).read_text(encoding="utf-8")
    assert text.startswith(f"# picture: {case.path.name}\n# adjacency: {case.truth.board.adjacency}\n")
    assert case.truth.board.adjacency == case.record["adjacency"]
    assert len(case.truth.givens) == case.record["givens"] and case.truth.board.size == case.record["cells"]
    assert same_puzzle(case.truth, case.truth, case.hex_turns)
    if case.has_entries:
        assert case.with_entries.givens == {**case.truth.givens, **case.entry_cells}
        assert not set(case.entry_cells) & set(case.truth.givens)
    image = Image.open(case.path)
    assert image.format in ("PNG", "JPEG", "WEBP")
    assert ImageOps.exif_transpose(image).size == (case.record["width"], case.record["height"])
    orientation = case.record.get("photo", {}).get("orientation", 1)
    assert image.getexif().get(0x0112, 1) == orientation


def test_the_comparison_takes_a_board_moved_or_turned_only_where_it_should() -> None:
    hexagon = parse_puzzle("# adjacency: hex\nx 1 .\n. . 6\nx 3 x\n")
    # Two rows down, one to the right; one row down (odd rows sit half a cell to the right,
    # so the columns shift with it): the same board.
    assert same_puzzle(parse_puzzle("# adjacency: hex\nx x x x\nx x x x\nx x 1 .\nx . . 6\nx x 3 x\n"), hexagon)
    assert same_puzzle(parse_puzzle("# adjacency: hex\nx x x x\nx 1 . x\nx . . 6\nx 3 x x\n"), hexagon)
    # Rows moved down by one with their columns kept: another shape.
    assert not same_puzzle(parse_puzzle("# adjacency: hex\nx x x\nx 1 .\n. . 6\nx 3 x\n"), hexagon)
    # A sixth of a turn: the same only for a flat-top picture, which has no upright row.
    turned = parse_puzzle("# adjacency: hex\nx x x x\nx . 1 x\nx 3 . .\nx x 6 x\n")
    assert not same_puzzle(turned, hexagon)
    assert same_puzzle(turned, hexagon, hex_turns=True)
    square = parse_puzzle("1 . 3\n. 5 .\n")
    assert same_puzzle(parse_puzzle("x x x x\nx 1 . 3\nx . 5 .\n"), square)
    assert not same_puzzle(parse_puzzle(". 5 .\n1 . 3\n"), square)
    assert not same_puzzle(parse_puzzle("# adjacency: rook\n1 . 3\n. 5 .\n"), square)
    assert numbers_right(parse_puzzle("1 . 3\n. 6 .\n"), square) == 2
    assert numbers_right(parse_puzzle("x x x\n1 . 3\n. 5 .\n"), square) == 3


# --- what the reader must refuse --------------------------------------------------------


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def _png_declaring(width: int, height: int) -> bytes:
    """A valid PNG header that says ``width`` x ``height`` pixels, with a little data."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = zlib.compress(b"\x00" * 4096)
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", data) + _png_chunk(b"IEND", b"")


def _jpeg_declaring(width: int, height: int) -> bytes:
    """A JPEG of 16 x 16 pixels whose frame header is changed to say ``width`` x ``height``."""
    out = io.BytesIO()
    Image.new("RGB", (16, 16), (200, 200, 200)).save(out, "JPEG")
    data = bytearray(out.getvalue())
    sof = data.index(b"\xff\xc0")
    data[sof + 5:sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def _jpeg(image: Image.Image, quality: int = 85) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality)
    return out.getvalue()


def _a_photo_with_no_puzzle() -> bytes:
    """A photo-like picture: a smooth light gradient, a vignette, sensor noise."""
    rng = np.random.default_rng(7)
    yy, xx = np.mgrid[0:900, 0:1200].astype(np.float32)
    base = 90 + 100 * (xx / 1200) + 40 * np.sin(yy / 170) - ((xx - 600) ** 2 + (yy - 450) ** 2) / 6000
    image = np.clip(base[..., None] * np.array([1.0, 0.9, 0.75]) + rng.normal(0, 4, (900, 1200, 3)), 0, 255)
    return _jpeg(Image.fromarray(image.astype(np.uint8)))


def _a_page_of_text() -> bytes:
    """A page of words and numbers in columns, as a newspaper page without a puzzle."""
    page = Image.new("RGB", (1240, 1754), "white")
    draw = ImageDraw.Draw(page)
    face = ImageFont.truetype("DejaVuSerif.ttf", 22)
    text = ("The council met on 14 March and voted 7 to 2 for the new road, which will cost 12 million "
            "and open in 2028. Rain is expected on 3 of the next 5 days, with 18 mm on Thursday. ") * 12
    for column in range(2):
        for i, line in enumerate(textwrap.wrap(text, 44)[:58]):
            draw.text((80 + column * 570, 100 + i * 28), line, fill="black", font=face)
    return _jpeg(page)


def test_bytes_that_are_not_a_picture_are_refused() -> None:
    for data in (b"", b"hello, this is text\n", b"%PDF-1.7\n" + bytes(range(256)) * 8, bytes(range(256)) * 40):
        with pytest.raises(NotAnImage):
            read_picture(data)


def test_a_truncated_jpeg_is_refused() -> None:
    photo = next(case for case in CASES if case.path.suffix == ".jpg" and "photo" in case.name)
    data = photo.data
    with pytest.raises(NotAnImage):
        read_picture(data[: len(data) // 3])


@pytest.mark.parametrize("bomb", [_png_declaring(100_000, 100_000), _jpeg_declaring(60_000, 60_000)],
                         ids=["png-100000x100000", "jpeg-60000x60000"])
def test_a_decompression_bomb_is_refused_by_its_pixel_count_before_decoding(bomb: bytes) -> None:
    # In a child: its peak memory after the reader's own imports, then after the bomb.
    child = textwrap.dedent("""
        import resource, sys, time
        import webapp.scan.reader  # whatever the reader loads with its module
        from webapp.scan import ImageTooLarge, read_picture
        data = sys.stdin.buffer.read()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.perf_counter()
        try:
            read_picture(data)
            print("read")
        except ImageTooLarge:
            print("refused", time.perf_counter() - started,
                  resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
    """)
    # The child imports the same webapp as this test (its sys.path; run from a folder with no
    # package in it, since ``-c`` puts the working folder first).
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run([sys.executable, "-c", child], input=bomb, capture_output=True, timeout=120, check=False,
                          env=env, cwd=DATA)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    words = done.stdout.decode().split()
    assert words[0] == "refused", done.stdout.decode()
    seconds, grown_kb = float(words[1]), int(words[2])
    assert seconds < 0.5
    assert grown_kb < 50_000  # KB: nothing decoded (100 000 x 100 000 pixels would be 30 GB)


def test_a_file_too_large_is_refused_before_it_is_read() -> None:
    with pytest.raises(ImageTooLarge):
        read_picture(b"\xff\xd8\xff\xe0" + bytes(MAX_BYTES))


@pytest.mark.parametrize("picture", [_a_photo_with_no_puzzle, _a_page_of_text], ids=["photo", "page-of-text"])
def test_a_picture_with_no_puzzle_says_so(picture: object) -> None:
    assert callable(picture)
    started = time.perf_counter()
    with pytest.raises(NoBoard):
        read_picture(picture())
    assert time.perf_counter() - started < 10


def test_the_manifest_lists_every_picture_once() -> None:
    manifest = json.loads((DATA / "manifest.json").read_text(encoding="utf-8"))
    files = [r["file"] for r in manifest["pictures"]]
    assert len(files) == len(set(files))
    pictures = {p.name for p in DATA.iterdir() if p.suffix in (".png", ".jpg", ".webp")}
    assert pictures == set(files)
