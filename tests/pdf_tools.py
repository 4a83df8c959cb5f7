"""Looking inside PDFs with Debian's poppler-utils (pdfinfo, pdftotext, pdftoppm).

A missing tool fails the test with a clear message: ``make test`` installs poppler-utils.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest


def tool(name: str) -> str:
    """The path of a poppler-utils program, or a failed test saying how to install it."""
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is missing: install Debian's poppler-utils with "
                    "'apt-get install -y poppler-utils' (make test does this)", pytrace=False)
    return path


def _run(*args: str) -> bytes:
    return subprocess.run(args, check=True, capture_output=True, timeout=60).stdout


def page_count(pdf: Path) -> int:
    info = _run(tool("pdfinfo"), str(pdf)).decode()
    found = re.search(r"^Pages:\s+(\d+)", info, re.M)
    assert found, info
    return int(found.group(1))


def text(pdf: Path, page: int | None = None) -> str:
    pages = ["-f", str(page), "-l", str(page)] if page else []
    return _run(tool("pdftotext"), "-layout", *pages, str(pdf), "-").decode()


def render_png(pdf: Path, page: int, out_base: Path, dpi: int = 50) -> Path:
    """Page ``page`` as a PNG (kept for a person to look at); returns its path."""
    _run(tool("pdftoppm"), "-png", "-r", str(dpi), "-f", str(page), "-l", str(page),
         "-singlefile", str(pdf), str(out_base))
    return out_base.with_suffix(".png")


def ink(pdf: Path, page: int, dpi: int = 30) -> float:
    """The share of a page's pixels that are not white (0.0: a blank page)."""
    data = _run(tool("pdftoppm"), "-gray", "-r", str(dpi), "-f", str(page), "-l", str(page),
                "-singlefile", str(pdf))  # no output name: the picture comes on stdout
    # PGM: "P5", width, height, maxval, then one byte a pixel.
    found = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    assert found, data[:20]
    width, height = int(found.group(1)), int(found.group(2))
    pixels = data[found.end():found.end() + width * height]
    assert len(pixels) == width * height
    return sum(1 for value in pixels if value < 200) / len(pixels)
