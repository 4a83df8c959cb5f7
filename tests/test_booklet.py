"""PDF booklets (webapp/booklet.py) and ``hidato print`` (webapp/booklet_cli.py).

The PDFs are opened with poppler-utils: page count, text, and a page rendered to pixels
to see that it is not blank.
"""

from __future__ import annotations

import argparse
import io
import logging
import math
import random
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from engine import grade, is_solution
from webapp.cli.booklet import add_print_arguments, print_booklet_command
from webapp.paper import booklet
from webapp.paper.booklet import (
    BookletOptions,
    check_options,
    describe,
    layout,
    make_puzzles,
    make_share,
    mixed_shapes,
    new_seed,
    plan,
    render_pdf,
    sheets,
    with_seed,
)

from pdf_boards import words
from pdf_tools import ink, page_count, render_png, text

SMALL = BookletOptions("diamond", 3, "easy", "king", 3, 2, seed=11)


@pytest.fixture(scope="module")
def small_puzzles():
    return make_puzzles(SMALL)


def test_puzzles_are_unique_solved_and_the_same_for_the_same_seed(small_puzzles) -> None:
    assert len(small_puzzles) == 3
    for stored in small_puzzles:
        assert is_solution(stored.puzzle, stored.solution)
        assert (stored.shape, stored.size, stored.difficulty) == ("diamond", 3, "easy")
    assert [s.code for s in make_puzzles(SMALL)] == [s.code for s in small_puzzles]
    other = make_puzzles(BookletOptions("diamond", 3, "easy", "king", 3, 2, seed=12))
    assert [s.code for s in other] != [s.code for s in small_puzzles]
    assert len({s.code for s in small_puzzles}) == 3


def test_mixed_goes_round_the_shapes_that_take_the_adjacency() -> None:
    made = make_puzzles(BookletOptions("mixed", None, "easy", "hex", 4, 4, seed=3))
    shapes = [s.shape for s in made]
    assert len(set(shapes)) == 4
    assert set(shapes) <= set(mixed_shapes("hex"))
    assert "arrow" not in mixed_shapes("hex") and "arrow" in mixed_shapes("king")
    assert all(s.adjacency == "hex" for s in made)


def test_each_puzzle_follows_from_the_seed_the_options_and_its_place_alone() -> None:
    options = BookletOptions("mixed", None, "easy", "king", 5, 2, seed=4)
    whole = make_puzzles(options)
    planned = plan(options)
    # Made out of order, a few at a time (as the site's children make them): the same puzzles.
    apart = make_share(planned[3:4], None, 60) + make_share([planned[1], planned[0]], None, 60)
    assert [p.code for p in apart] == [whole[3].code, whole[1].code, whole[0].code]
    # Given a short slice of time, a share stops after the first puzzle (the slot goes back).
    assert [p.code for p in make_share(planned[2:5], None, 0)] == [whole[2].code]
    # Seeds given before there was a plan still make their old booklets: the order of the
    # shapes, then each puzzle's seed, drawn in turn from the booklet's seed.
    rng = random.Random("hidato-booklet/4")
    order = mixed_shapes("king", "easy")
    rng.shuffle(order)
    assert [one.seed for one in planned] == [rng.getrandbits(48) for _ in range(5)]
    assert [one.choices[0].shape for one in planned] == [order[i % len(order)] for i in range(5)]
    assert [p.shape for p in whole] == [one.choices[0].shape for one in planned]
    assert len({p.code for p in whole}) == 5


def test_a_booklet_without_a_seed_gets_a_new_one_of_nine_digits() -> None:
    seeds = {new_seed() for _ in range(20)}
    assert len(seeds) == 20 and all(10**8 <= seed < 10**9 for seed in seeds)
    unseeded = BookletOptions("diamond", 3, "easy", "king", 2, 2)
    chosen = with_seed(unseeded)
    assert chosen.seed is not None and replace(chosen, seed=None) == unseeded
    assert with_seed(SMALL) == SMALL  # a seed asked for is kept
    with pytest.raises(TypeError):
        plan(unseeded)


def test_render_pdf_says_how_far_it_has_got_and_prints_the_seed(small_puzzles, tmp_path: Path) -> None:
    heard: list[tuple[str, int, int]] = []
    pdf = tmp_path / "progress.pdf"
    pdf.write_bytes(render_pdf(small_puzzles, 1, seed=123456789, progress=heard.append))
    assert page_count(pdf) == 4  # three puzzles one to a page, their solutions on one page
    assert [stage for stage in heard if stage[0] == "prepare"] == [("prepare", 1, 3), ("prepare", 2, 3),
                                                                   ("prepare", 3, 3)]
    assert [stage for stage in heard if stage[0] == "layout"] == [("layout", page, 4) for page in range(1, 5)]
    assert [stage for stage in heard if stage[0] == "write"] == [("write", page, 4) for page in range(1, 5)]
    assert [stage[0] for stage in heard] == ["prepare"] * 3 + ["layout"] * 4 + ["write"] * 4
    note = "Seed 123456789: the same options with this seed make this booklet again."
    assert all(note not in " ".join(text(pdf, page).split()) for page in (1, 2, 3))  # not on the pupils' sheets
    assert note in " ".join(text(pdf, 4).split())
    assert "Page 4 of 4" in text(pdf, 4)  # the page number keeps its line beside the note


def test_boards_in_few_paths_look_the_same_as_a_polygon_a_cell(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The PDF draws each board in a few elements (drawing.grid, .shaded, .given_numbers,
    .other_numbers): the same picture as the polygon and centred number per cell the
    screen draws, square and hex, givens and solutions, and the same text in the PDF."""
    puzzles = make_puzzles(BookletOptions("mixed", None, "easy", "king", 2, 2, seed=5))
    puzzles += make_puzzles(BookletOptions("mixed", None, "easy", "hex", 2, 2, seed=5))
    compact = tmp_path / "compact.pdf"
    compact.write_bytes(render_pdf(puzzles, 2))
    assert booklet_svg_paths(puzzles) < 12 * len(puzzles)  # a few elements a board, not two a cell
    made = booklet._environment

    def polygons(words):  # noqa: ANN001, ANN202
        environment = made(words)
        environment.globals["compact_boards"] = False
        return environment

    monkeypatch.setattr(booklet, "_environment", polygons)
    cells = tmp_path / "cells.pdf"
    cells.write_bytes(render_pdf(puzzles, 2))
    assert cells.read_bytes() != compact.read_bytes()
    assert text(cells) == text(compact)  # every number where it was, read back the same
    for page in (1, 2, 3, 4):
        first = Image.open(render_png(compact, page, tmp_path / f"compact-{page}", dpi=100)).convert("L")
        second = Image.open(render_png(cells, page, tmp_path / f"cells-{page}", dpi=100)).convert("L")
        differ = ImageChops.difference(first, second).point(lambda value: 255 if value > 60 else 0)
        assert differ.getbbox() is None or sum(differ.histogram()[255:]) < 20, page  # a few pixels at most


def booklet_svg_paths(puzzles: list) -> int:  # noqa: ANN001 - the SVG elements of the booklet's boards
    html = booklet.booklet_html(puzzles, 2, "t")
    return len(re.findall(r"<(?:path|polygon|text)\b", html))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (BookletOptions("blob", None, "easy", "king", 1, 1), "Unknown shape"),
        (BookletOptions("diamond", 99, "easy", "king", 1, 1), "Size for diamond must be from"),
        (BookletOptions("diamond", 3, "insane", "king", 1, 1), "Unknown difficulty"),
        (BookletOptions("diamond", 3, "easy", "queen", 1, 1), "Unknown adjacency"),
        (BookletOptions("diamond", 3, "easy", "king", 0, 1), "from 1 to 50"),
        (BookletOptions("diamond", 3, "easy", "king", 51, 1), "from 1 to 50"),
        (BookletOptions("diamond", 3, "easy", "king", 2, 3), "1, 2 or 4"),
        (BookletOptions("arrow", None, "easy", "hex", 2, 1), "The arrow shape is for Hidato only, not Hex"),
    ],
)
def test_bad_options_are_refused_with_a_message(options: BookletOptions, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_options(options)


def test_pupils_see_the_level_and_the_teacher_the_rating_said_as_one(small_puzzles) -> None:
    """A pupil's caption says the shape, the level and the cells; the solution's says the
    level with its rating, explained ("Easy (rating 1.6)", not a bare "Easy · 1.6")."""
    worksheets = sheets(small_puzzles, 2, solutions=False)
    answers = sheets(small_puzzles, 12, solutions=True)
    for pupil, key, stored in zip(worksheets, answers, small_puzzles, strict=True):
        rating = grade(stored.puzzle).rating.text
        assert stored.rating_text == rating
        assert pupil.parts == ("Diamond 3", "Easy", f"{stored.puzzle.size} cells")
        assert key.parts == (f"Easy (rating {rating})",)
        assert pupil.title == key.title == f"Hidato · Diamond 3 · Easy (rating {rating}) · {stored.puzzle.size} cells"
    old = replace(small_puzzles[0], grade={"level": "easy", "techniques": {"single": 9}})
    assert describe(old) == f"Hidato · Diamond 3 · Easy · {old.puzzle.size} cells"


@pytest.mark.parametrize("per_page", [1, 2, 4])
def test_pdf_pages_solutions_and_ink(small_puzzles, tmp_path: Path, per_page: int,
                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="weasyprint")
    pdf = tmp_path / "booklet.pdf"
    pdf.write_bytes(render_pdf(small_puzzles, per_page))
    assert pdf.read_bytes().startswith(b"%PDF-")
    pages = math.ceil(len(small_puzzles) / per_page)
    assert page_count(pdf) == pages + 1  # the puzzles, then all three solutions on one page
    first, solutions = text(pdf, 1), text(pdf, pages + 1)
    assert "Name" in first and "Date" in first and f"Puzzle 1 of {len(small_puzzles)}" in first
    assert "Diamond 3 · Easy · 24 cells" in " ".join(first.split())  # no bare rating for pupils
    assert small_puzzles[0].rating_text not in first
    assert "Solutions" not in first.split("\n", 1)[1]
    assert f"Write the numbers 1 to {small_puzzles[0].puzzle.size} in the empty cells" in first
    assert "Solutions 1–3" in solutions
    key = words(pdf)[pages]  # the teacher's key: under each number, the level and the rating, explained
    for number, stored in enumerate(small_puzzles, start=1):
        label = next(first for first, second in zip(key, key[1:], strict=False)
                     if first.text == "Solution" and second.text == str(number))
        under = sorted((word for word in key if label.bottom < word.top < label.bottom + 4 and
                        abs(word.left - label.left) < 30), key=lambda word: word.left)
        assert " ".join(word.text for word in under).startswith(f"Easy (rating {stored.rating_text})"), under
    whole = text(pdf).replace("\n", "").replace(" ", "")
    for stored in small_puzzles:  # no long id anywhere; no link without an address
        assert stored.code not in whole
    assert "localhost" not in text(pdf) and "http" not in text(pdf)
    assert f"Page 1 of {pages + 1}" in first
    # The solutions hold every number; the puzzle pages only the givens.
    assert str(small_puzzles[0].puzzle.size) in solutions
    assert ink(pdf, 1) > 0.01 and ink(pdf, pages + 1) > 0.01
    assert not [r for r in caplog.records if r.name.startswith("weasyprint")], "WeasyPrint complained"


def test_a_page_renders_to_png(small_puzzles, tmp_path: Path, artifacts_dir: Path) -> None:
    pdf = tmp_path / "booklet.pdf"
    pdf.write_bytes(render_pdf(small_puzzles, 4))
    png = render_png(pdf, 1, artifacts_dir / "booklet-page-1")
    assert png.read_bytes().startswith(b"\x89PNG")


@pytest.mark.slow
def test_hex_boards_stay_on_their_page(tmp_path: Path) -> None:
    puzzles = make_puzzles(BookletOptions("rectangle", 14, "easy", "hex", 5, 4, seed=1))
    pdf = tmp_path / "hex.pdf"
    pdf.write_bytes(render_pdf(puzzles, 4))
    # 14 x 14 hexagons need a page each for 9-mm cells; their 5 solutions fit one page.
    assert [grid.per_page for grid, _places in layout(puzzles, 4).worksheets] == [1] * 5
    assert page_count(pdf) == 6  # nothing spilled onto an extra page


# --- hidato print ------------------------------------------------------------------------


def run_print(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="hidato print")
    add_print_arguments(parser)
    return print_booklet_command(parser.parse_args(argv))


def test_print_command_writes_the_same_booklet_for_the_same_seed(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--shape", "diamond", "--size", "3", "--difficulty", "easy", "--count", "3",
            "--per-page", "2", "--seed", "5"]
    assert run_print(args + ["--out", str(tmp_path / "a.pdf")]) == 0
    err = capsys.readouterr().err
    assert "puzzle 3 of 3 made" in err and "3 puzzles on 3 pages" in err
    assert run_print(args + ["--out", str(tmp_path / "b.pdf"), "--quiet"]) == 0
    assert capsys.readouterr().err == ""
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()
    assert page_count(tmp_path / "a.pdf") == 3


def test_print_command_without_a_seed_says_which_it_used(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--shape", "diamond", "--size", "3", "--difficulty", "easy", "--count", "1", "--per-page", "1"]
    assert run_print(args + ["--out", str(tmp_path / "c.pdf")]) == 0
    err = capsys.readouterr().err
    found = re.search(r"^seed (\d+) \(--seed \1 makes the same puzzles again\)$", err, re.M)
    assert found is not None, err
    seed = found.group(1)
    assert err.rstrip().endswith(f"(A4), seed {seed}")  # and again on the last line
    assert page_count(tmp_path / "c.pdf") == 2
    assert f"Seed {seed}: the same options" in text(tmp_path / "c.pdf", 2)
    # Another run without a seed: another seed, other puzzles; with the seed it said, the same PDF.
    assert run_print(args + ["--out", str(tmp_path / "d.pdf"), "--quiet"]) == 0
    assert text(tmp_path / "d.pdf", 1) != text(tmp_path / "c.pdf", 1)
    assert run_print(args + ["--seed", seed, "--out", str(tmp_path / "e.pdf"), "--quiet"]) == 0
    assert (tmp_path / "e.pdf").read_bytes() == (tmp_path / "c.pdf").read_bytes()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--shape", "mixed", "--size", "4"], "--size does not apply"),
        (["--shape", "arrow", "--adjacency", "hex"], "The arrow shape is for Hidato only, not Hex"),
        (["--shape", "diamond", "--size", "40"], "Size for diamond"),
    ],
)
def test_print_command_refuses_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           argv: list[str], message: str) -> None:
    assert run_print(argv + ["--count", "1", "--out", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
    assert not (tmp_path / "x.pdf").exists()


def test_print_command_cannot_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "missing" / "x.pdf"
    assert run_print(["--shape", "diamond", "--size", "3", "--difficulty", "easy", "--count", "1",
                      "--seed", "1", "--quiet", "--out", str(out)]) == 2
    assert "cannot write" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--count", "51"], "from 1 to 50"),
        (["--count", "many"], "expected a whole number"),
        (["--per-page", "3"], "must be 1, 2 or 4"),
        (["--difficulty", "insane"], "unknown difficulty"),
        (["--shape", "blob"], "unknown shape"),
        (["--adjacency", "queen"], "unknown adjacency"),
        (["--seed", "-1"], "from 0"),
    ],
)
def test_print_arguments_are_checked_by_argparse(argv: list[str], message: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser(prog="hidato print")
    add_print_arguments(parser)
    with pytest.raises(SystemExit):
        parser.parse_args(argv + ["--out", "x.pdf"])
    assert message in capsys.readouterr().err


@pytest.mark.slow
def test_print_command_on_letter_with_qr_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("DATABASE_URL", "HIDATO_DATABASE_URL"):  # --url registers puzzles in a site database
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HIDATO_INSTANCE", str(tmp_path / "no-site"))  # none here: long links
    out = tmp_path / "letter.pdf"
    assert run_print(["--shape", "diamond", "--size", "3", "--difficulty", "easy", "--count", "2", "--per-page",
                      "2", "--seed", "3", "--paper", "letter", "--url", "https://hidato.example.org/",
                      "--no-name", "--out", str(out)]) == 0
    assert "(US Letter)" in capsys.readouterr().err
    words = text(out, 1)
    assert "Name" not in words and "Scan to play it online" in words and "Puzzle 2 of 2" in words
    with pytest.raises(SystemExit):  # argparse refuses an address that is not a site's
        run_print(["--url", "ftp://x", "--out", str(out)])
    assert "not a site's address" in capsys.readouterr().err


def test_print_shows_a_progress_bar_on_a_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a terminal, tqdm's bar instead of one line per puzzle."""

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    assert run_print(["--shape", "diamond", "--size", "3", "--difficulty", "easy", "--count", "3", "--seed", "1",
                      "--out", str(tmp_path / "t.pdf")]) == 0
    shown = screen.getvalue()
    assert "making puzzles" in shown and "/3 [" in shown and "puzzle 1 of 3 made" not in shown
    assert "laying out the pages" in shown and "3 puzzles on 3 pages" in shown
