"""The command line and the ids and links printed in booklets: ``hidato print`` checks
``--out`` first and puts short links (or larger long ones) in its QR codes, read back
from a 100-dpi render with zxing-cpp; ``hidato solve`` and ``hint`` take ids, ``/p/``
links and short links; ``hint --puzzle`` names a wrong entry.  Run as a user runs them:
subprocesses with their own environment."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import zxingcpp
from flask import Flask
from PIL import Image

from engine import format_puzzle, parse_puzzle, puzzle_to_id

from pdf_tools import page_count, render_png, text
from puzzle_files import DATA, load

ROOT = Path(__file__).resolve().parent.parent
SITE = "https://hidato.example.org"
SMALL, SMALL_SOLUTION = load(DATA / "seed000-5x5.txt")
SMALL_ID = puzzle_to_id(SMALL)
CLASSIC, CLASSIC_SOLUTION = load(DATA / "classic-8x8-40.txt")
CLASSIC_ID = puzzle_to_id(CLASSIC)
PRINT = ["print", "--shape", "diamond", "--size", "4", "--difficulty", "easy", "--count", "4", "--per-page", "4",
         "--seed", "12", "--url", SITE]


def hidato(*args: str, env: dict[str, str] | None = None, stdin: str | None = None,
           instance: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``hidato ARGS`` in a child, never near a real database: DATABASE_URL only as given,
    the instance folder a test's own."""
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("DATABASE_URL", "HIDATO_DATABASE_URL", "HIDATO_INSTANCE")}
    if instance is not None:
        environment["HIDATO_INSTANCE"] = str(instance)
    environment.update(env or {})
    return subprocess.run([sys.executable, "-m", "webapp.cli", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, env=environment, timeout=300)


def one_line(result: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def qr_links(pdf: Path, page: int, out: Path) -> list[str]:
    """The QR codes of a page as a 100-dpi scan sees them (pdftoppm, zxing-cpp)."""
    png = render_png(pdf, page, out, dpi=100)
    return sorted(found.text for found in zxingcpp.read_barcodes(Image.open(png)))


def printed_ids() -> list[str]:
    """The ids of PRINT's puzzles: the same seed makes the same puzzles in this process."""
    from webapp.paper.booklet import BookletOptions, make_puzzles

    return [stored.code for stored in make_puzzles(BookletOptions("diamond", 4, "easy", "king", 4, 4, seed=12))]


# --- hidato print -----------------------------------------------------------------------


@pytest.mark.parametrize("where", ["missing-dir/x.pdf", "."])
def test_print_refuses_an_output_it_cannot_write_before_any_work(tmp_path: Path, where: str) -> None:
    out = tmp_path / where if where != "." else tmp_path
    started = time.monotonic()
    # 50 expert puzzles would take minutes: the refusal must come first.
    result = hidato("print", "--difficulty", "expert", "--count", "50", "--out", str(out), instance=tmp_path)
    elapsed = time.monotonic() - started
    assert result.returncode == 2
    line = one_line(result)
    assert line.startswith(f"error: cannot write {out}: ")
    assert ("there is no directory" in line) if where != "." else ("it is a directory" in line)
    assert elapsed < 3.0  # a bound, not a benchmark: the command stops before making anything
    assert not (tmp_path / "missing-dir").exists()


@pytest.mark.slow
def test_print_puts_the_sites_short_links_in_its_qr_codes(tmp_path: Path, make_app: Callable[..., Flask]) -> None:
    """With the site's database here (the instance one, or DATABASE_URL), the puzzles are
    registered and the QR codes carry /s/ links that the site resolves to them."""
    instance = tmp_path / "instance"
    app = make_app(instance)
    url = app.config["DATABASE_URL"]
    out = tmp_path / "short.pdf"
    result = hidato(*PRINT, "--out", str(out), instance=instance, env={"DATABASE_URL": url} if url else None)
    assert result.returncode == 0, result.stderr
    assert "short links registered in the site database" in result.stderr
    links = qr_links(out, 1, tmp_path / "short")
    assert len(links) == 4 and all(re.fullmatch(rf"{SITE}/s/[0-9a-z]+", link) for link in links)
    client = app.test_client()
    opened = []
    for link in links:
        answer = client.get(link[len(SITE):])
        assert answer.status_code == 301
        opened.append(answer.headers["Location"][len("/p/"):])
    assert sorted(opened) == sorted(printed_ids())  # each short link opens one of the booklet's puzzles
    for code in opened:
        stored = app.extensions["hidato"].store.find_puzzle(code)
        assert stored is not None and stored.shape == "diamond"
    assert f"{SITE.split('://')[1]}/s/" in text(out, 1)  # printed beside the code, as on the site


@pytest.mark.slow
def test_print_without_a_database_prints_long_links_large_enough_for_a_100_dpi_scan(tmp_path: Path) -> None:
    out = tmp_path / "long.pdf"
    result = hidato(*PRINT, "--out", str(out), instance=tmp_path / "no-site")
    assert result.returncode == 0, result.stderr
    assert "long links: short links are registered in the site's database, but DATABASE_URL is not set" \
           in result.stderr
    assert not (tmp_path / "no-site").exists()  # no database made up for the occasion
    assert qr_links(out, 1, tmp_path / "long") == sorted(f"{SITE}/p/{code}" for code in printed_ids())
    assert page_count(out) == 2  # still 4 to a page
    again = hidato(*PRINT, "--long-links", "--out", str(tmp_path / "again.pdf"), instance=tmp_path)
    assert again.returncode == 0 and "long links (--long-links)" in again.stderr
    assert (tmp_path / "again.pdf").read_bytes() == out.read_bytes()


# --- hidato solve and hint take the ids and links printed in booklets ---------------------


def test_solve_takes_an_id_on_the_command_line() -> None:
    result = hidato("solve", SMALL_ID)
    assert result.returncode == 0, result.stderr
    assert result.stdout == format_puzzle(SMALL, SMALL_SOLUTION)


def test_solve_reads_ids_and_links_one_a_line_beside_boards(tmp_path: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text(f"{SMALL_ID}\n{SITE}/p/{CLASSIC_ID}\nhidato.example.org/p/{SMALL_ID}/print\n\n"
                       f"# adjacency: rook\n1 . .\n. . .\n. . 9\n")
    result = hidato("solve", "--json", str(listing))
    assert result.returncode == 0, result.stderr
    answers = [json.loads(line) for line in result.stdout.splitlines()]
    assert [a["status"] for a in answers] == ["unique", "unique", "unique", "multiple"]
    solved = [{(r, c): v for r, row in enumerate(a["solution"]) for c, v in enumerate(row) if v} for a in answers]
    assert solved[0] == SMALL_SOLUTION and solved[1] == CLASSIC_SOLUTION and solved[2] == SMALL_SOLUTION
    assert answers[3]["adjacency"] == "rook"  # the notation's own line still counts
    labelled = hidato("solve", str(listing))
    assert "# puzzle 2 (line 2)" in labelled.stdout and "# puzzle 4 (line 5)" in labelled.stdout


def test_a_bad_id_or_a_mixed_block_names_its_line(tmp_path: Path) -> None:
    listing = tmp_path / "bad.txt"
    listing.write_text(f"{SMALL_ID}\n5x5:a18A11a17aAa10_1AbBa5aB4a6a99\n\n1 . 3\n{SMALL_ID}\n")
    result = hidato("solve", str(listing))
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors[0].startswith("error: line 2: ")
    assert errors[1] == ("error: line 4: lines 4 to 5 mix puzzle ids or links with the rows of a board: put a "
                         "blank line between them")
    assert format_puzzle(SMALL, SMALL_SOLUTION) in result.stdout  # the good one is still solved


def test_a_short_link_is_read_from_the_sites_database(tmp_path: Path, make_app: Callable[..., Flask]) -> None:
    instance = tmp_path / "instance"
    app = make_app(instance)
    store = app.extensions["hidato"].store
    from webapp.core.stored import StoredPuzzle

    store.save_puzzle(StoredPuzzle(CLASSIC_ID, CLASSIC, CLASSIC_SOLUTION))
    short = store.short_code(CLASSIC_ID)
    url = app.config["DATABASE_URL"]
    env = {"DATABASE_URL": url} if url else None
    result = hidato("solve", f"hidato.example.org/s/{short}", instance=instance, env=env)
    assert result.returncode == 0, result.stderr
    assert parse_puzzle(result.stdout).givens == CLASSIC_SOLUTION
    unknown = hidato("solve", "/s/zzzzzz", instance=instance, env=env)
    assert unknown.returncode == 2
    assert one_line(unknown) == "error: line 1: there is no puzzle with the short link /s/zzzzzz in the site database"


def test_a_short_link_without_the_sites_database_says_what_to_use(tmp_path: Path) -> None:
    result = hidato("solve", "https://hidato.example.org/s/2f", instance=tmp_path / "none")
    assert result.returncode == 2
    line = one_line(result)
    assert line.startswith("error: line 1: a short link is looked up in the site's database, but DATABASE_URL is "
                           "not set and ")
    assert line.endswith("use the puzzle's id (printed with its solution) or its /p/ link instead")


def test_solving_an_id_loads_none_of_the_web_stack() -> None:
    script = ("import sys; from webapp.cli import main; code = main(['solve', sys.argv[1]]); "
              "heavy = ('flask', 'sqlalchemy', 'weasyprint', 'jinja2', 'alembic'); "
              "print(sorted(m for m in heavy if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", script, f"{SITE}/p/{SMALL_ID}"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_hint_with_the_printed_puzzle_names_a_wrong_entry(tmp_path: Path) -> None:
    # Row 4, column 2 holds 2 in the solution; the player wrote 3 there, and 16 right.
    assert SMALL_SOLUTION[(3, 1)] == 2 and SMALL_SOLUTION[(0, 0)] == 16
    sheet = tmp_path / "sheet.txt"
    sheet.write_text(format_puzzle(SMALL, {**SMALL.givens, (3, 1): 3, (0, 0): 16}))
    alone = hidato("hint", str(sheet))
    assert alone.returncode == 1
    assert alone.stdout.startswith("This puzzle has no solution")
    assert "give the puzzle as printed with --puzzle" in alone.stderr
    for printed in (SMALL_ID, f"{SITE}/p/{SMALL_ID}", str(DATA / "seed000-5x5.txt")):
        named = hidato("hint", "--puzzle", printed, str(sheet))
        assert named.returncode == 0, named.stderr
        assert named.stdout == "The 3 in row 4, column 2 is wrong.\n"
    right = tmp_path / "right.txt"
    right.write_text(format_puzzle(SMALL, {**SMALL.givens, (0, 0): 16}))
    step = hidato("hint", "--puzzle", SMALL_ID, str(right))
    assert step.returncode == 0 and "is wrong" not in step.stdout
    number = int(step.stdout.split()[0])
    row, col = re.search(r"row (\d+), column (\d+)", step.stdout).groups()  # type: ignore[union-attr]
    assert SMALL_SOLUTION[(int(row) - 1, int(col) - 1)] == number  # a true step


def test_hint_refuses_a_sheet_of_another_puzzle(tmp_path: Path) -> None:
    sheet = tmp_path / "other.txt"
    changed = dict(SMALL.givens)
    changed[(0, 1)] = 17  # the given 18 rewritten
    sheet.write_text(format_puzzle(SMALL, {**changed, (1, 0): 18}))
    result = hidato("hint", "--puzzle", SMALL_ID, str(sheet))
    assert result.returncode == 2
    assert one_line(result) == ("error: the sheet has 17 in row 1, column 2, where the puzzle gives 18: it is not a "
                                "sheet of this puzzle")
    two = tmp_path / "two.txt"
    two.write_text(f"{SMALL_ID}\n{CLASSIC_ID}\n")
    several = hidato("hint", "--puzzle", str(two), str(sheet))
    assert several.returncode == 2
    assert one_line(several) == f"error: --puzzle: {two} holds more than one puzzle: give the one the sheet is of"
    missing = hidato("hint", "--puzzle", str(tmp_path / "nothing.txt"), str(sheet))
    assert missing.returncode == 2 and one_line(missing).startswith("error: --puzzle: cannot read")
    small = hidato("hint", "--puzzle", "2x3:a5d", str(sheet))
    assert small.returncode == 2
    assert one_line(small) == ("error: the sheet is not of this puzzle: row 1, column 3 is a cell in the puzzle but "
                               "not on the sheet")


def test_hint_with_a_printed_puzzle_of_several_solutions_says_so(tmp_path: Path) -> None:
    open_board = puzzle_to_id(parse_puzzle("1 . .\n. . .\n"))
    sheet = tmp_path / "open.txt"
    sheet.write_text("1 2 .\n. . .\n")
    result = hidato("hint", "--puzzle", open_board, str(sheet))
    assert result.returncode == 1
    assert one_line(result) == ("the puzzle given with --puzzle has more than one solution, so entries cannot be "
                                "checked against it")
