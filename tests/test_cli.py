"""Tests for the ``hidato`` command line, run as a subprocess like a user would."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.board import Puzzle, is_solution
from engine.notation import PuzzleFormatError, parse_puzzle, split_puzzles
from webapp.cli import main
from webapp.cli.common import MAX_INPUT_BYTES

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).parent / "data" / "puzzles"
PUZZLE_FILES = sorted(p for p in DATA.rglob("*.txt") if not p.name.endswith(".solution.txt"))
SMALL = DATA / "seed000-5x5.txt"
CLASSIC = DATA / "classic-8x8-40.txt"
UNSOLVABLE = "1 3 .\n"  # 2 would have to touch both 1 and 3
MALFORMED = ". .\n. y\n"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "webapp.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def solution_of(path: Path) -> Puzzle:
    return parse_puzzle(path.with_name(path.name[:-4] + ".solution.txt").read_text())


def brute_force_count(puzzle: Puzzle) -> int:
    """Solutions of a tiny puzzle by trying every numbering."""
    cells = puzzle.board.cells
    return sum(
        is_solution(puzzle, dict(zip(cells, order, strict=True)))
        for order in itertools.permutations(range(1, len(cells) + 1))
    )


def assert_one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


# --- help -----------------------------------------------------------------------------


def test_main_help():
    result = run("--help")
    assert result.returncode == 0
    assert "solve" in result.stdout and "example" in result.stdout
    assert "| hidato solve" in result.stdout


def test_solve_help():
    result = run("solve", "--help")
    assert result.returncode == 0
    for option in ("--adjacency", "--count", "--limit", "--json", "--max-seconds", "FILE"):
        assert option in result.stdout
    assert "exit status" in result.stdout and "$ hidato solve puzzle.txt" in result.stdout


def test_main_returns_status_in_process(capsys: pytest.CaptureFixture[str]):
    assert main(["--help"]) == 0
    assert main(["solve", "--limit", "x"]) == 2
    assert "error: argument --limit" in capsys.readouterr().err


def test_help_example_is_true():
    # The example in `hidato --help` must really print what it claims.
    help_text = run("--help").stdout
    example = help_text.split("$ printf '")[1].split("'")[0].replace("\\n", "\n")
    claimed = help_text.split("| hidato solve\n")[1].split("\n\n")[0]
    result = run("solve", stdin=example)
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout.split() == claimed.split()


# --- solving --------------------------------------------------------------------------


@pytest.mark.parametrize("path", PUZZLE_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_shared_puzzle_solves_to_its_solution_file(path: Path):
    result = run("solve", str(path))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    printed = parse_puzzle(result.stdout)
    expected = solution_of(path)
    assert printed.board == expected.board
    assert printed.givens == expected.givens


def test_reads_stdin_by_default_and_with_dash():
    text = SMALL.read_text()
    expected = solution_of(SMALL).givens
    for args in (("solve",), ("solve", "-")):
        result = run(*args, stdin=text)
        assert result.returncode == 0
        assert parse_puzzle(result.stdout).givens == expected


def test_multiple_solutions_prints_one_and_warns():
    text = ". .\n. .\n"
    result = run("solve", stdin=text)
    assert result.returncode == 0
    assert is_solution(parse_puzzle(text), parse_puzzle(result.stdout).givens)
    line = assert_one_error_line(result)
    assert "warning" in line and "solutions" in line


def test_no_solution():
    result = run("solve", stdin=UNSOLVABLE)
    assert result.returncode == 1
    assert result.stdout == ""
    assert assert_one_error_line(result).startswith("no solution")


def test_adjacency_option_overrides():
    text = "1 . .\n. . .\n"
    result = run("solve", "--adjacency", "rook", stdin=text)
    assert result.returncode == 0
    assert result.stdout.startswith("# adjacency: rook\n")
    printed = parse_puzzle(result.stdout)
    assert is_solution(parse_puzzle(text, adjacency="rook"), printed.givens)


def test_gave_up_exits_3():
    text = "1" + " ." * 7 + "\n" + (". " * 8 + "\n") * 6 + ". " * 7 + "64\n"
    result = run("solve", "--max-seconds", "1e-9", stdin=text)
    assert result.returncode == 3
    line = assert_one_error_line(result)
    assert line.startswith("gave up after") and " seconds (" in line
    assert line.endswith("with 0 solutions found")


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [MALFORMED, "1 . 1\n", ". 9\n", "# adjacency: queen\n. .\n", "x x\n"],
    ids=["token", "twice", "too-large", "adjacency", "no-cells"],
)
def test_malformed_input_exit_2_with_position(text: str):
    with pytest.raises(PuzzleFormatError) as info:
        parse_puzzle(text)
    result = run("solve", stdin=text)
    assert result.returncode == 2
    assert result.stdout == ""
    assert assert_one_error_line(result) == f"error: {info.value}"


def test_malformed_message_names_line_and_column():
    line = assert_one_error_line(run("solve", stdin=MALFORMED))
    assert line.startswith("error: line 2, column 3: unknown token 'y'")


def test_missing_file():
    result = run("solve", "no-such-puzzle.txt")
    assert result.returncode == 2
    line = assert_one_error_line(result)
    assert line.startswith("error: ") and "no-such-puzzle.txt" in line


def test_directory_and_binary_file(tmp_path: Path):
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe1 .\n")
    for target in (tmp_path, binary):
        result = run("solve", str(target))
        assert result.returncode == 2
        assert assert_one_error_line(result).startswith("error: ")


@pytest.mark.parametrize(
    "args",
    [
        (),
        ("frob",),
        ("solve", "--bogus"),
        ("solve", "--limit", "0"),
        ("solve", "--limit", "two"),
        ("solve", "--adjacency", "queen"),
        ("solve", "--max-seconds", "-1"),
        ("solve", "a.txt", "b.txt"),
    ],
)
def test_bad_options_exit_2_one_line(args: tuple[str, ...]):
    result = run(*args, stdin="")
    assert result.returncode == 2
    assert result.stdout == ""
    assert assert_one_error_line(result).startswith("error: ")


# --- several puzzles in one file ------------------------------------------------------


def test_multi_puzzle_file(tmp_path: Path):
    parts = [SMALL.read_text(), UNSOLVABLE, MALFORMED, CLASSIC.read_text()]
    path = tmp_path / "several.txt"
    path.write_text("\n".join(parts))
    starts = [start for start, _ in split_puzzles(path.read_text())]
    result = run("solve", str(path))
    assert result.returncode == 2  # the worst: malformed
    blocks = result.stdout.split("\n\n")
    assert len(blocks) == 4
    for number, (block, start) in enumerate(zip(blocks, starts, strict=True), start=1):
        assert block.startswith(f"# puzzle {number} (line {start})")
    assert parse_puzzle(blocks[0]).givens == solution_of(SMALL).givens
    assert parse_puzzle(blocks[3]).givens == solution_of(CLASSIC).givens
    errors = result.stderr.splitlines()
    assert len(errors) == 2
    assert errors[0].startswith(f"puzzle 2 (line {starts[1]}): no solution")
    # The error names the line in the whole file, not in its block.
    assert errors[1].startswith(f"error: line {starts[2] + 1}, column 3: unknown token 'y'")


@pytest.mark.parametrize(
    "parts, status",
    [([SMALL, CLASSIC], 0), ([SMALL, UNSOLVABLE, CLASSIC], 1), ([MALFORMED, UNSOLVABLE], 2)],
    ids=["all-solved", "one-unsolvable", "malformed-wins"],
)
def test_multi_puzzle_exit_status_is_the_worst(parts: list, status: int):
    text = "\n".join(p.read_text() if isinstance(p, Path) else p for p in parts)
    assert run("solve", stdin=text).returncode == status


# --- counting and JSON ----------------------------------------------------------------


def test_count_unique_and_none():
    result = run("solve", "--count", str(SMALL))
    assert (result.returncode, result.stdout) == (0, "solutions: 1\n")
    result = run("solve", "--count", stdin=UNSOLVABLE)
    assert (result.returncode, result.stdout) == (1, "solutions: 0\n")


def test_count_is_capped_by_limit():
    text = ". .\n. .\n"
    total = brute_force_count(parse_puzzle(text))
    assert total > 5
    assert run("solve", "--count", stdin=text).stdout == "solutions: 2\n"
    assert run("solve", "--count", "--limit", "5", stdin=text).stdout == "solutions: 5\n"
    result = run("solve", "--count", "--limit", str(total + 10), stdin=text)
    assert (result.returncode, result.stdout) == (0, f"solutions: {total}\n")


def test_json_output():
    result = run("solve", "--json", str(CLASSIC))
    assert result.returncode == 0
    payload = json.loads(result.stdout)
    assert payload["status"] == "unique"
    assert payload["solutions"] == 1 and payload["complete"] is True
    assert isinstance(payload["seconds"], float)
    solved = solution_of(CLASSIC)
    board = solved.board
    expected = [[solved.givens.get((r, c)) for c in range(board.cols)] for r in range(board.rows)]
    assert payload["solution"] == expected
    assert None in payload["solution"][-1]  # holes are null


def test_json_one_line_per_puzzle():
    text = "\n".join([SMALL.read_text(), UNSOLVABLE, MALFORMED, ". .\n. .\n"])
    result = run("solve", "--json", stdin=text)
    assert result.returncode == 2
    payloads = [json.loads(line) for line in result.stdout.splitlines()]
    assert [p["status"] for p in payloads] == ["unique", "no_solution", "error", "multiple"]
    assert payloads[1]["solution"] is None and payloads[1]["reason"]
    malformed_start = split_puzzles(text)[2][0]
    assert (payloads[2]["line"], payloads[2]["column"]) == (malformed_start + 1, 3)


# --- reading puzzles one at a time ----------------------------------------------------

# Runs the command as a child of a small Python process that reports the child's peak
# resident memory (ru_maxrss, in KiB on Linux) and counts its output lines without
# keeping them, so neither the test nor a pipe holds the output.
PEAK_RSS = """
import resource, subprocess, sys
child = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
lines = sum(1 for _ in child.stdout)
errors = child.stderr.read().decode()
status = child.wait()
print(status, lines, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, repr(errors))
"""


def peak_rss(*args: str) -> tuple[int, int, float, str]:
    """Exit status, output lines, peak memory in MB and stderr of ``hidato ARGS``."""
    command = [sys.executable, "-c", PEAK_RSS, sys.executable, "-m", "webapp.cli", *args]
    result = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120, check=True)
    status, lines, kib, errors = result.stdout.split(" ", 3)
    return int(status), int(lines), int(kib) / 1024, eval(errors)


@pytest.mark.slow
def test_solve_reads_many_puzzles_in_constant_memory(tmp_path: Path):
    # Before puzzles were streamed, a 16 MB file of one-cell puzzles took 1.07 GB, and
    # going from 2,000 to 30,000 puzzles raised the peak by 4.9 MB (from 62.5 MB).
    peaks = []
    for count in (2_000, 40_000):
        path = tmp_path / f"{count}.txt"
        path.write_text("1\n\n" * count)
        status, lines, peak, errors = peak_rss("solve", str(path))
        assert (status, errors) == (0, "")
        assert lines == 3 * count - 1  # "# puzzle K (line L)", the solution "1", a blank line
        assert peak < 120, f"{peak:.0f} MB for {count} puzzles"
        peaks.append(peak)
    assert peaks[1] - peaks[0] < 2, f"peak grew from {peaks[0]:.1f} to {peaks[1]:.1f} MB"


def test_solve_labels_puzzles_read_ahead_by_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "three.txt"
    path.write_text("# first\n1 .\n\n\n. 1\n\n# only a comment\n\n1 . 3\n")
    assert main(["solve", "--count", str(path)]) == 0
    assert capsys.readouterr().out == (
        "# puzzle 1 (line 1)\nsolutions: 1\n\n"
        "# puzzle 2 (line 5)\nsolutions: 1\n\n"
        "# puzzle 3 (line 9)\nsolutions: 1\n"
    )


def test_input_with_no_puzzle_is_refused_by_the_parser(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "comments.txt"
    for text in ("", "\n\n", "# a comment\n\n# another\n"):
        path.write_text(text)
        assert main(["solve", str(path)]) == 2
        assert capsys.readouterr().err == "error: no cells: the puzzle needs at least one '.' or number\n"


def test_byte_order_mark_is_skipped(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + SMALL.read_bytes())
    assert main(["solve", str(path)]) == 0
    assert parse_puzzle(capsys.readouterr().out).givens == solution_of(SMALL).givens
    # Bad bytes are counted from the start of the file, the mark included.
    path.write_bytes(b"\xef\xbb\xbf1 \xff\n")
    assert main(["solve", str(path)]) == 2
    assert capsys.readouterr().err == f"error: {path} is not UTF-8 text (byte 6)\n"


def test_puzzles_before_bad_bytes_are_still_solved(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    good = SMALL.read_bytes()
    path = tmp_path / "broken.txt"
    path.write_bytes(good + b"\n" + good + b"\n. \xff .\n")
    assert main(["solve", str(path)]) == 2
    captured = capsys.readouterr()
    solutions = [parse_puzzle(block) for _, block in split_puzzles(captured.out)]
    assert [s.givens for s in solutions] == [solution_of(SMALL).givens] * 2
    assert captured.err == f"error: {path} is not UTF-8 text (byte {2 * len(good) + 5})\n"


def test_input_over_the_cap_stops_as_it_is_read():
    # Like `yes x | hidato solve`: one endless block, cut where the parser gives up
    # (its 251st row), then read on without being kept until the input cap.
    row = "x " * 200 + "\n"
    text = row * (MAX_INPUT_BYTES // len(row) + 1)
    started = time.perf_counter()
    result = run("solve", stdin=text)
    assert time.perf_counter() - started < 20
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: line 251, column 1: too many rows (more than 250)",
        f"error: standard input is too large (more than {MAX_INPUT_BYTES} bytes)",
    ]


def test_input_at_the_cap_is_read_in_full(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = tmp_path / "padded.txt"
    puzzle = SMALL.read_bytes()
    # Padded with long blank lines: a few thousand lines read quicker than 16 million.
    padding = MAX_INPUT_BYTES - len(puzzle)
    blank = b" " * 4095 + b"\n"
    path.write_bytes(puzzle + blank * (padding // len(blank)) + b"\n" * (padding % len(blank)))
    assert main(["solve", "--count", str(path)]) == 0
    assert capsys.readouterr().out == "solutions: 1\n"
    with path.open("ab") as more:
        more.write(b"\n")
    assert main(["solve", "--count", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "solutions: 1\n"
    assert captured.err == f"error: {path} is too large (more than {MAX_INPUT_BYTES} bytes)\n"
