"""Tests for ``hidato generate``, ``hidato grade`` and ``hidato hint``, run as a subprocess."""

from __future__ import annotations

import json
import time

import pytest
from busy import BUSY_SLACK
from test_cli import assert_one_error_line, run

from engine import LEVELS, count_solutions, grade, parse_puzzle, plural, puzzle_from_id, rate, split_puzzles
from engine.levels import range_text
from webapp.cli import main
from webapp.core.ratings import technique_name

from puzzle_files import DATA, load


def test_generate_prints_a_unique_puzzle_and_its_solution():
    result = run("generate", "--shape", "diamond", "--size", "4", "--difficulty", "hard", "--seed", "7", "--solution")
    assert result.returncode == 0, result.stderr
    (_, puzzle_text), (_, solution_text) = split_puzzles(result.stdout)
    puzzle = parse_puzzle(puzzle_text)
    assert count_solutions(puzzle) == 1
    assert grade(puzzle).level == "hard"  # the level asked for: the generator's promise
    solved = parse_puzzle(solution_text)
    assert len(solved.givens) == puzzle.size
    assert all(solved.givens[c] == v for c, v in puzzle.givens.items())


def test_generate_is_deterministic_by_seed_and_count_steps_the_seed():
    first = run("generate", "--shape", "heart", "--size", "8", "--seed", "4", "--count", "2")
    again = run("generate", "--shape", "heart", "--size", "8", "--seed", "5")
    assert first.returncode == 0 and again.returncode == 0
    blocks = [text for _, text in split_puzzles(first.stdout)]
    assert len(blocks) == 2 and blocks[0] != blocks[1]
    assert blocks[1] == again.stdout


def test_generate_json_carries_id_grade_and_givens():
    result = run("generate", "--rows", "5", "--cols", "7", "--adjacency", "rook", "--json", "--difficulty", "easy")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    puzzle = puzzle_from_id(payload["id"])
    assert puzzle == parse_puzzle(payload["puzzle"])
    assert puzzle.board.adjacency == "rook" and puzzle.size == 35
    assert payload["grade"] == "easy" and payload["givens"] == len(puzzle.givens)
    assert payload["seconds"] >= 0


def test_generate_json_carries_the_rating_of_the_printed_puzzle():
    result = run("generate", "--shape", "diamond", "--size", "4", "--difficulty", "hard", "--seed", "3", "--json")
    assert result.returncode == 0, result.stderr
    payload = json.loads(result.stdout)
    assert "techniques" not in payload
    rating = rate(parse_puzzle(payload["puzzle"]))
    assert payload["rating"] == round(rating.score, 1) and f"{payload['rating']:.1f}" == rating.text
    assert payload["chain_length"] == rating.length
    assert payload["uses"] == {str(length): count for length, count in rating.uses.items()}
    assert LEVELS["hard"].lowest <= payload["chain_length"] <= LEVELS["hard"].longest


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--shape", "blob"], "unknown shape 'blob'"),
        (["--shape", "diamond", "--size", "99"], "out of range"),
        (["--shape", "heart", "--size", "1"], "out of range"),
        (["--difficulty", "fiendish"], "invalid choice"),
        (["--rows", "4"], "--rows and --cols go together"),
        (["--shape", "arrow", "--adjacency", "rook"], "arrow"),
    ],
)
def test_generate_bad_options_exit_2_with_one_line(args, message):
    result = run("generate", *args)
    assert result.returncode == 2
    assert message in assert_one_error_line(result)


@pytest.mark.parametrize("name", ["classic-8x8-40.txt", "large/rectangle12_s1.txt"])
def test_grade_prints_level_rating_and_techniques(name):
    result = run("grade", str(DATA / name))
    assert result.returncode == 0, result.stderr
    puzzle, _ = load(DATA / name)
    graded = grade(puzzle)
    rating = graded.rating
    lines = result.stdout.splitlines()
    assert lines[0] == f"level: {graded.level}"
    number, _, words = lines[1].removeprefix("rating: ").partition(" ")
    assert lines[1].startswith("rating: ") and number == rating.text
    if rating.length:
        assert words == f"(longest chain: {plural(rating.length, 'step')}, W{rating.length} on Berthier's scale)"
    else:
        assert words == "(singles only, W0 on Berthier's scale)"
    assert lines[2] == f"  singles: {puzzle.size - len(puzzle.givens)} numbers placed"
    assert lines[3:] == [f"  {technique_name(length)}: {plural(count, 'candidate')} ruled out"
                         for length, count in sorted(rating.uses.items())]
    assert max(rating.uses, default=0) == rating.length


def test_grade_help_names_the_scale_and_the_levels(capsys):
    assert main(["grade", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Berthier's whip scale" in out
    assert "easy W0–W1, medium W2, hard W3–W4, expert W5 or more" in out
    assert "techniques" not in out


def test_generate_help_gives_each_level_its_range_of_the_rating(capsys):
    assert main(["generate", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for name, level in LEVELS.items():
        assert f"{name} {range_text(level)}" in out
    assert "lose every given" not in out and "tier" not in out


def test_grade_refuses_a_puzzle_without_a_unique_solution():
    result = run("grade", stdin=". . .\n. . .\n")
    assert result.returncode == 1
    assert "more than one solution" in assert_one_error_line(result)


def test_hint_prints_a_true_deduction():
    path = DATA / "classic-8x8-40.txt"
    _, known = load(path)
    result = run("hint", str(path))
    assert result.returncode == 0, result.stderr
    text = result.stdout.strip()
    number = int(text.split()[0])
    row, col = text.split("row ")[1].split(":")[0].split(", column ")
    assert known[(int(row) - 1, int(col) - 1)] == number


def test_hint_on_malformed_input_names_the_place():
    result = run("hint", stdin=". .\n. y\n")
    assert result.returncode == 2
    assert assert_one_error_line(result).startswith("error: line 2, column 3")


@pytest.mark.slow
def test_print_writes_a_booklet_deterministic_by_seed(tmp_path):
    from pdf_tools import page_count, text

    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    for out in (first, second):
        result = run("print", "--shape", "diamond", "--size", "3", "--difficulty", "easy",
                     "--count", "3", "--per-page", "2", "--seed", "5", "--out", str(out), "--quiet")
        assert result.returncode == 0, result.stderr
    assert first.read_bytes() == second.read_bytes()
    assert page_count(first) == 3  # two pages of puzzles, one of solutions
    assert "Solution" in text(first, page=3)


def test_print_refuses_too_many_puzzles():
    result = run("print", "--count", "51", "--out", "x.pdf")
    assert result.returncode == 2
    assert "--count" in assert_one_error_line(result)


# --- limits: board size and time --------------------------------------------------------


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    ("sides", "message"),
    [
        (["--rows", "50", "--cols", "50"], "rows 50 is out of range for the rectangle: expected 4..21"),
        (["--rows", "8", "--cols", "22"], "cols 22 is out of range for the rectangle: expected 4..21"),
        (["--rows", "3", "--cols", "8"], "rows 3 is out of range for the rectangle: expected 4..21"),
    ],
)
def test_generate_rows_and_cols_obey_the_size_range(capsys, sides, message):
    started = time.perf_counter()
    assert main(["generate", *sides]) == 2
    assert one_error_line(capsys) == f"error: {message}"
    assert time.perf_counter() - started < 1


def test_generate_help_documents_the_time_limit_and_the_sides(capsys):
    assert main(["generate", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--time-limit SECONDS give up on a puzzle after SECONDS seconds (default 60)" in out
    assert "each obeys the rectangle's range, 4..21" in out


def test_generate_time_limit_message_is_one_line(capsys):
    started = time.perf_counter()
    # Unbounded, this one takes about 4 s of CPU: stopped within two seconds of its limit,
    # even on a machine the whole suite keeps busy, it was stopped.
    status = main(["generate", "--rows", "20", "--cols", "20", "--difficulty", "hard", "--adjacency", "rook",
                   "--time-limit", "0.5", "--seed", "0"])
    elapsed = time.perf_counter() - started
    captured = capsys.readouterr()
    assert status == 2 and captured.out == ""
    assert captured.err.splitlines() == [
        "error: gave up after 0.5 seconds without a hard puzzle on this 400-cell board: "
        "try another seed, a smaller size, an easier level or a longer time limit"
    ]
    assert 0.5 <= elapsed < 0.5 + BUSY_SLACK


def test_generate_time_limit_applies_to_each_puzzle_and_names_the_seed(capsys):
    status = main(["generate", "--rows", "20", "--cols", "20", "--difficulty", "expert",
                   "--count", "3", "--seed", "40", "--time-limit", "1"])
    assert status == 2
    assert one_error_line(capsys).startswith("error: seed 40: gave up after 1 second without an expert puzzle")


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon"])
def test_generate_time_limit_must_be_a_positive_number(capsys, value):
    assert main(["generate", "--time-limit", value]) == 2
    assert one_error_line(capsys).startswith("error: argument --time-limit:")


# --- grade and hint read puzzles one at a time ------------------------------------------


def test_grade_and_hint_on_several_puzzles(tmp_path, capsys):
    classic = (DATA / "classic-8x8-40.txt").read_text()
    path = tmp_path / "two.txt"
    path.write_text(classic + "\n" + ". .\n. y\n")
    assert main(["grade", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out.startswith("puzzle 1 (line 1): level: ")
    second = len(classic.splitlines()) + 2
    assert captured.err.splitlines() == [
        f"error: puzzle 2 (line {second}): line {second + 1}, column 3: "
        "unknown token 'y': expected a number, '.' or 'x'"
    ]
    assert main(["hint", str(path)]) == 2
    assert capsys.readouterr().out.startswith("puzzle 1 (line 1): ")


def test_grade_answers_the_puzzles_read_before_bad_bytes(tmp_path, capsys):
    classic = (DATA / "classic-8x8-40.txt").read_bytes()
    path = tmp_path / "broken.txt"
    path.write_bytes(classic + b"\n\xff\n")
    assert main(["grade", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out.startswith("level: ")
    assert captured.err.splitlines() == [f"error: {path} is not UTF-8 text (byte {len(classic) + 2})"]
