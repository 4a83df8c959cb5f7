"""Our own drawing rasterised: the site's board SVG (``webapp/paper/drawing.py`` through
``templates/_board_svg.html``) printed by WeasyPrint and rasterised by pdftoppm, and the
worksheet pages of ``hidato print`` rasterised the same way.

pdftoppm (poppler-utils) is what ``make test`` installs for the booklet tests; the PDF
is made in memory and only its pixels are kept.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

from engine import Cell, Puzzle
from webapp.paper.drawing import THICK, draw_board

ROOT = Path(__file__).resolve().parents[2]
MM_PER_UNIT = 0.25  # a 40-unit cell printed 10 mm wide, as a worksheet's


def rasterise(pdf: bytes, dpi: int, first: int = 1, last: int = 1, grey: bool = False) -> list[Image.Image]:
    """Pages ``first``..``last`` of ``pdf`` as pictures at ``dpi`` (pdftoppm, anti-aliased)."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.pdf"
        source.write_bytes(pdf)
        mode = ["-gray"] if grey else []
        subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(first), "-l", str(last), *mode, "-png",
                        str(source), str(Path(folder) / "page")], check=True)
        pages = sorted(Path(folder).glob("page*.png"))
        return [Image.open(io.BytesIO(page.read_bytes())).convert("RGB") for page in pages]


def board_pdf(puzzle: Puzzle, values: dict[Cell, int] | None = None, margin_mm: float = 8.0) -> tuple[bytes, float]:
    """The site's drawing of ``puzzle`` (``values`` in the other cells, in the colour the
    site gives them) on a page of its own size, and the board's width in mm."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape
    from weasyprint import HTML

    drawing = draw_board(puzzle, values)
    width_mm = (drawing.width + 2 * THICK) * MM_PER_UNIT
    height_mm = (drawing.height + 2 * THICK) * MM_PER_UNIT
    environment = Environment(loader=FileSystemLoader(str(ROOT / "templates")), autoescape=select_autoescape(["html"]))
    page = environment.from_string(
        '{% from "_board_svg.html" import board_svg %}<!doctype html><html><head><style>'
        "@page { size: {{ w }}mm {{ h }}mm; margin: {{ m }}mm; } body { margin: 0; }"
        "svg { display: block; }</style></head><body>"
        '{{ board_svg(d, "puzzle", width=bw ~ "mm", height=bh ~ "mm") }}</body></html>'
    ).render(d=drawing, w=width_mm + 2 * margin_mm, h=height_mm + 2 * margin_mm, m=margin_mm,
             bw=f"{width_mm:.2f}", bh=f"{height_mm:.2f}")
    return HTML(string=page).write_pdf(), width_mm


def booklet_pdf(shape: str, size: int | None, adjacency: str, difficulty: str, count: int, seed: int,
                paper: str = "a4", url: str | None = None) -> bytes:
    """The PDF ``hidato print`` writes (one puzzle to a page), run as a person runs it."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "booklet.pdf"
        command = [str(Path(sys.executable).with_name("hidato")), "print", "--shape", shape, "--adjacency", adjacency,
                   "--difficulty", difficulty, "--count", str(count), "--per-page", "1", "--seed", str(seed),
                   "--paper", paper, "--out", str(out), "--quiet"]
        if size is not None:
            command += ["--size", str(size)]
        if url:
            command += ["--url", url, "--long-links"]
        env = {**os.environ, "DATABASE_URL": "sqlite:///" + str(Path(folder) / "none.db")}
        subprocess.run(command, check=True, env=env, cwd=folder)
        return out.read_bytes()


def booklet_puzzles(shape: str, size: int | None, adjacency: str, difficulty: str, count: int,
                    seed: int) -> list[Puzzle]:
    """The puzzles of that booklet, in order: planned from its seed as ``hidato print`` does."""
    from webapp.paper.booklet import BookletOptions, make_puzzles

    options = BookletOptions(shape, size, difficulty, adjacency, count, 1, seed)
    return [stored.puzzle for stored in make_puzzles(options)]
