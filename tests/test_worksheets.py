"""Worksheets as a teacher hands them out: boards sized to the page, name and date, the
rules, "Puzzle k of N", QR codes that decode to the puzzle's page (zxing-cpp, a real
decoder), A4 and US Letter; checked on the rendered PDF (poppler's pdftotext, pdftoppm)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image

from webapp.core.options import Options
from webapp.core.stored import generate
from webapp.paper.booklet import BookletOptions, layout, links_for, make_puzzles, render_pdf

from pdf_tools import page_count, render_png, text, tool

SITE = "https://hidato.example.org"


def _pdf(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / f"{name}.pdf"
    path.write_bytes(data)
    return path


def _page_size_pt(pdf: Path) -> tuple[float, float]:
    info = subprocess.run([tool("pdfinfo"), str(pdf)], capture_output=True, text=True, check=True).stdout
    found = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info)
    assert found is not None
    return float(found.group(1)), float(found.group(2))


def _board_width_share(png: Path) -> float:
    """The widest run of dark pixels in any row (the board's thick outline) over the page's width."""
    image = Image.open(png).convert("L")
    width, height = image.size
    pixels = image.load()
    assert pixels is not None
    best = 0
    for y in range(0, height, 2):
        run = longest = 0
        for x in range(width):
            value = pixels[x, y]
            run = run + 1 if isinstance(value, (int, float)) and value < 80 else 0
            longest = max(longest, run)
        best = max(best, longest)
    return best / width


def _codes(pdf: Path, page: int, out: Path) -> list[str]:
    png = render_png(pdf, page, out, dpi=300)
    return sorted(found.text for found in zxingcpp.read_barcodes(Image.open(png)))


@pytest.mark.slow
@pytest.mark.parametrize(("paper", "points"), [("a4", (595.3, 841.9)), ("letter", (612.0, 792.0))])
def test_one_to_a_page_fills_the_paper(tmp_path: Path, artifacts_dir: Path, paper: str,
                                       points: tuple[float, float]) -> None:
    options = BookletOptions("square", 8, "easy", "king", 1, 1, seed=4, paper=paper)
    puzzles = make_puzzles(options)
    pdf = _pdf(tmp_path, paper, render_pdf(puzzles, 1, "Worksheet", links_for(puzzles, SITE), paper))
    width, height = _page_size_pt(pdf)
    assert abs(width - points[0]) < 1 and abs(height - points[1]) < 1
    png = render_png(pdf, 1, artifacts_dir / f"worksheet-{paper}", dpi=72)
    # The board spans the printable width (the page less 2 x 10 mm): over 85% of the paper.
    assert _board_width_share(png) > 0.85
    words = text(pdf, 1)
    assert "Name" in words and "Date" in words and "Puzzle 1 of 1" in words
    assert "Write the numbers 1 to 64 in the empty cells so that each number touches the next" in words
    assert puzzles[0].code not in words.replace("\n", "").replace(" ", "")  # no long id on the worksheet
    assert _codes(pdf, 1, tmp_path / "qr") == [f"{SITE}/p/{puzzles[0].code}"]


@pytest.mark.slow
def test_four_to_a_page_keep_cells_large_or_drop_to_two(tmp_path: Path) -> None:
    squares = make_puzzles(BookletOptions("square", 10, "easy", "king", 4, 4, seed=2))
    assert layout(squares, 4, "a4", qr=True).per_page == 4  # 10 x 10 cells stay at least 9 mm
    # Short links, as the site prints (a long link's code is larger: see test_cli_links.py).
    links = {p.code: f"{SITE}/s/{number + 10:x}" for number, p in enumerate(squares)}
    pdf = _pdf(tmp_path, "four", render_pdf(squares, 4, "Four", links))
    assert page_count(pdf) == 2
    assert sorted(_codes(pdf, 1, tmp_path / "four")) == sorted(links.values())
    words = text(pdf, 1)
    assert all(f"Puzzle {k} of 4" in words for k in range(1, 5))
    hearts = make_puzzles(BookletOptions("heart", 12, "easy", "king", 4, 4, seed=3))
    assert layout(hearts, 4, "a4").per_page == 2  # 12 cells across a quarter page: 7.8 mm
    pdf = _pdf(tmp_path, "hearts", render_pdf(hearts, 4, "Hearts"))
    assert page_count(pdf) == 3 and "Printed 2 to a page (not 4)" in " ".join(text(pdf, 1).split())
    hexes = make_puzzles(BookletOptions("mixed", None, "easy", "hex", 4, 4, seed=3))
    pages = layout(hexes, 4, "a4").worksheets  # a big star alone, the others as many as fit
    assert len({grid.per_page for grid, _places in pages}) > 1
    pdf = _pdf(tmp_path, "hex", render_pdf(hexes, 4, "Hex"))
    assert "Some pages hold fewer than 4 puzzles so that every cell is at least 9 mm wide" in " ".join(
        text(pdf, 1).split())


def test_no_address_no_qr_code_and_no_name_line_when_asked(tmp_path: Path) -> None:
    puzzles = [generate(Options("diamond", 3, "easy", "hidato"), seed=1)]
    pdf = _pdf(tmp_path, "plain", render_pdf(puzzles, 2, "Plain", None, "a4", name_line=False))
    words = text(pdf, 1)
    assert "Name" not in words and "Scan to play" not in words and "Puzzle 1 of 1" in words
    assert _codes(pdf, 1, tmp_path / "plain") == []
