"""``hidato scan``, run as a subprocess like a user would: a picture read into the notation
on standard output with how sure the reader is on standard error, and every file it
cannot read answered with one ``error:`` line and exit status 2."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from engine import format_puzzle, parse_puzzle
from webapp.scan import MAX_BYTES

from photo_files import (
    BOARD_SCREENSHOT,
    SHEET_WITH_19,
    classic,
    decompression_bomb,
    nineteen_cell,
    no_puzzle,
    not_an_image,
    truncated_jpeg,
)

ROOT = Path(__file__).resolve().parents[1]


def scan(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "webapp.cli", "scan", *args], input=stdin, capture_output=True,
                          cwd=ROOT, timeout=120)
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


def test_a_screenshot_is_printed_in_the_notation_with_how_sure_the_reader_is() -> None:
    done = scan(str(BOARD_SCREENSHOT))
    assert done.returncode == 0, done.stderr
    assert done.stdout == format_puzzle(classic())
    lines = done.stderr.splitlines()
    assert lines[0].startswith("read 40 cells (15 numbers) in ")
    assert lines[-1] == "the puzzle read has exactly one solution"
    # What it prints is what hidato solve reads.
    assert parse_puzzle(done.stdout) == classic()


def test_a_reading_without_a_solution_names_the_cell_most_likely_misread() -> None:
    done = scan(str(SHEET_WITH_19))
    assert done.returncode == 0, done.stderr  # a puzzle was read: what it holds is said on stderr
    row, col = nineteen_cell()
    assert parse_puzzle(done.stdout).givens[(row, col)] == 19
    named = re.search(r"^\d+ cells? most likely misread(?: \(most doubtful first\))?: (.*)$", done.stderr, re.M)
    assert named, done.stderr
    assert f"row {row + 1}, column {col + 1} (read 19, confidence " in named.group(1)
    assert "the puzzle read has no solution: a number was probably misread" in done.stderr


def test_the_adjacency_can_be_forced_and_standard_input_read() -> None:
    done = scan("--adjacency", "rook", "-", stdin=BOARD_SCREENSHOT.read_bytes())
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# adjacency: rook\n")
    assert parse_puzzle(done.stdout).givens == classic().givens


def test_debug_writes_the_intermediate_pictures(tmp_path: Path) -> None:
    folder = tmp_path / "made" / "here"  # made when missing
    done = scan("--debug", str(folder), str(BOARD_SCREENSHOT))
    assert done.returncode == 0, done.stderr
    written = [path for path in folder.rglob("*") if path.is_file()]
    assert written, "nothing written to the debug folder"
    assert all(path.stat().st_size > 0 for path in written)


@pytest.mark.parametrize("make", [not_an_image, truncated_jpeg, decompression_bomb, no_puzzle],
                         ids=["not an image", "truncated JPEG", "decompression bomb", "no puzzle"])
def test_a_picture_it_cannot_read_is_one_error_line_and_status_2(tmp_path: Path, make: Callable[[], bytes]) -> None:
    path = tmp_path / "picture.jpg"
    path.write_bytes(make())
    done = scan(str(path))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(f"error: {path}: ")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_files_it_cannot_open_are_refused_before_reading(tmp_path: Path) -> None:
    huge = tmp_path / "huge.jpg"
    with huge.open("wb") as handle:
        handle.truncate(MAX_BYTES + 1)  # sparse: nothing of it is read
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    cases = {
        str(tmp_path / "missing.jpg"): f"error: cannot read {tmp_path / 'missing.jpg'}: No such file or directory\n",
        str(tmp_path): f"error: cannot read {tmp_path}: it is a directory\n",
        str(empty): f"error: {empty} is empty: it holds no picture\n",
        str(huge): f"error: {huge} is too large (25.0 MB): the photo reader takes files of up to 25 MB\n",
    }
    for path, said in cases.items():
        done = scan(path)
        assert (done.returncode, done.stderr) == (2, said), path
    folder = tmp_path / "file"
    folder.write_text("")
    done = scan("--debug", str(folder / "sub"), str(BOARD_SCREENSHOT))
    assert done.returncode == 2 and done.stderr.startswith(f"error: cannot write to {folder / 'sub'}: ")


def test_the_other_commands_never_load_opencv_or_the_model(tmp_path: Path) -> None:
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("1 . 3\n")
    script = ("import sys; from webapp.cli import main; main(['solve', sys.argv[1]]); "
              "print(sorted(m for m in ('cv2', 'numpy', 'onnxruntime', 'rapidocr_onnxruntime', 'PIL') "
              "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script, str(puzzle)], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
