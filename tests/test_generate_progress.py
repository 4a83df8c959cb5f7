"""A long generation says what it is doing: the engine tells each step through
``progress`` (facts, and the same puzzle as without it), ``hidato generate`` shows them
on stderr (a status line on a terminal, lines in a log, nothing with --quiet) and says
the random seed it chose, so a run can be repeated."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Stage, count_solutions, generate_shape, parse_puzzle
from webapp.cli import main, stages

ROOT = Path(__file__).resolve().parent.parent
# A slow run's progress, one line a step:
STEP_LINE = re.compile(r"(puzzle \d+ of \d+: )?path \d+ of \d+: [^\n]+ \(\d+ s\)")
DIAMOND = ["generate", "--shape", "diamond", "--size", "5", "--difficulty", "hard"]


def test_the_engine_tells_each_step_and_makes_the_same_puzzle() -> None:
    heard: list[Stage] = []
    made = generate_shape("diamond", 5, "hard", "king", seed=9, progress=heard.append)
    assert made.puzzle == generate_shape("diamond", 5, "hard", "king", seed=9).puzzle
    names = [stage.name for stage in heard]
    assert names[0] == "path" and names[-1] == "checking" and names.count("checking") == 1
    assert all(stage.attempts == 30 and 1 <= stage.attempt <= 30 for stage in heard)
    attempts = [stage.attempt for stage in heard]
    assert attempts == sorted(attempts)  # one attempt after another, each from its path
    for attempt in set(attempts):
        steps = [stage.name for stage in heard if stage.attempt == attempt]
        assert steps == ["path", "givens", "rating", "checking"][:len(steps)]


def test_generate_without_a_seed_says_the_one_it_chose(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run([sys.executable, "-m", "webapp.cli", *args], capture_output=True, text=True, cwd=ROOT,
                              timeout=120)
        # A run that takes more than a few seconds (a busy machine, a slow seed) says its
        # steps on stderr first, a line each: what is checked here comes after them.
        done.stderr = "".join(line for line in done.stderr.splitlines(keepends=True)
                              if not STEP_LINE.fullmatch(line.rstrip("\n")))
        return done

    first, second = run(*DIAMOND), run(*DIAMOND)
    seeds = []
    for result in (first, second):
        assert result.returncode == 0, result.stderr
        told = re.fullmatch(r"seed (\d+) \(--seed \1 makes the same puzzle again\)\n", result.stderr)
        assert told is not None, result.stderr
        seeds.append(told.group(1))
        assert count_solutions(parse_puzzle(result.stdout)) == 1
    assert seeds[0] != seeds[1] and first.stdout != second.stdout  # a new puzzle each time
    again = run(*DIAMOND, "--seed", seeds[0])
    assert again.stdout == first.stdout and again.stderr == ""  # the seed makes it again
    several = run(*DIAMOND, "--count", "2")
    assert re.fullmatch(r"seeds (\d+) to \d+ \(--seed \1 makes the same puzzles again\)\n", several.stderr)
    as_json = run(*DIAMOND, "--json")
    assert as_json.stderr == "" and json.loads(as_json.stdout)["seed"] >= 0  # the seed is in the object
    quiet = run(*DIAMOND, "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == "" and quiet.stdout


@pytest.fixture
def at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Show the stage from the first step (a real run waits a second or three)."""
    monkeypatch.setattr(stages, "TERMINAL_AFTER", 0.0)
    monkeypatch.setattr(stages, "LINES_AFTER", 0.0)


def test_a_log_gets_a_line_for_each_step(at_once: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*DIAMOND, "--seed", "9"]) == 0
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert lines[0].startswith("path 1 of 30: finding a solution path (")
    assert any(line.startswith("path 1 of 30: removing givens") for line in lines)
    assert lines[-1].startswith(tuple(f"path {k} of 30: checking that the solution is unique" for k in range(1, 31)))
    assert "path" not in captured.out and count_solutions(parse_puzzle(captured.out)) == 1


def test_a_terminal_gets_one_status_line_that_is_erased(at_once: None, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    assert main([*DIAMOND, "--seed", "9", "--count", "2"]) == 0
    shown = screen.getvalue()
    assert "\r\x1b[K" in shown and "\n" not in shown  # rewritten in place, never a new line
    assert "path 1 of 30: removing givens" in shown and "] 1/2" in shown
    assert shown.endswith("\r\x1b[K")  # erased at the end
    assert count_solutions(parse_puzzle(capsys.readouterr().out.split("\n\n")[0])) == 1


def test_quiet_shows_no_stage(at_once: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*DIAMOND, "--seed", "9", "--quiet"]) == 0
    assert capsys.readouterr().err == ""
