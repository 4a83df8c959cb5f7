"""Every hint a player can be given is short and reads as sentences (issue 25, item 14).

Games are walked from start to end as a player asking for a hint at every move would,
over puzzles of every level, several sizes and all three adjacencies (published puzzles
and generated ones rated by Berthier's CSP-Rules), with a wrong entry made now and then
so the mistakes are said too.  Each hint must be at most ``MAX_WORDS`` English words,
begin with a capital or a number, end with a full stop, and leave no field unfilled and
no fragment dangling.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from engine import Grid, Puzzle, parse_puzzle
from engine.hints import hint
from webapp.core.hint_words import MAX_WORDS, hint_text

from puzzle_files import PUZZLE_FILES, load
from rated_files import rated_puzzles

# Published puzzles, and one generated puzzle of each adjacency and level (the longest
# chains those levels need), besides the small example files.
RATED = [r for r in rated_puzzles()
         if r.generated_as is None or re.search(r"-s(1|6)$", r.name)]
SMALL = [p for p in PUZZLE_FILES if "large" not in p.parts]


def _sentence_problems(text: str) -> list[str]:
    problems = []
    words = text.split()
    if len(words) > MAX_WORDS:
        problems.append(f"{len(words)} words")
    if not re.match(r"[A-Z0-9]", text):
        problems.append("does not begin with a capital or a number")
    if not text.endswith("."):
        problems.append("does not end with a full stop")
    if "%(" in text or "%s" in text:
        problems.append("a field left unfilled")
    if re.search(r"\s[,.;:]|,,|\.\.|  |, and\b.*, and\b", text):
        problems.append("a dangling fragment")
    if re.search(r"\b(\w+) \1\b", text, re.IGNORECASE):
        problems.append("a word said twice")
    return problems


def _walk(puzzle: Puzzle, solution: Grid, seed: int) -> list[str]:
    """The hints of a whole game, from the empty board to the solved one, a wrong entry
    made (and then fixed by the hint) every few moves."""
    rng = random.Random(seed)
    entries: dict = {}
    said = []
    for move in range(3 * puzzle.size):
        if move % 7 == 3:
            empty = [c for c in puzzle.board.cells if c not in puzzle.givens and c not in entries]
            if empty:
                cell = rng.choice(empty)
                entries[cell] = solution[cell] % puzzle.size + 1  # a number that is not the cell's
        step = hint(puzzle, entries, solution)
        said.append(hint_text(step))
        if step.kind == "solved":
            return said
        if step.kind == "mistake":
            del entries[step.cells[0]]
        else:
            entries[step.cells[0]] = step.number
    raise AssertionError("the game did not finish")


@pytest.mark.parametrize("rated", RATED, ids=lambda r: r.name)
def test_hints_of_whole_games_are_short_sentences(rated) -> None:
    puzzle, solution = rated.load()
    kinds: Counter[str] = Counter()
    for text in _walk(puzzle, solution, seed=len(rated.name)):
        problems = _sentence_problems(text)
        assert not problems, f"{problems}: {text}"
        kinds[text.split()[0]] += 1
    assert kinds["The"] >= 2  # a mistake was said ("The 12 in row …"), and the board's completion


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
def test_hints_of_the_example_puzzles_are_short_sentences(path) -> None:
    puzzle, solution = load(path)
    for text in _walk(puzzle, solution, seed=1):
        assert not _sentence_problems(text), text


def test_a_puzzle_without_a_solution_is_said_in_a_sentence() -> None:
    puzzle = parse_puzzle("1 . .\n. . 2\n. . .")  # 1 and 2 must touch, but they are two steps apart
    step = hint(puzzle, {})
    assert step.kind == "no solution"
    text = hint_text(step)
    assert not _sentence_problems(text), text
    assert text == ("This puzzle has no solution: 1 at row 1, column 1 and 2 at row 2, column 3 must touch, but "
                    "they are 2 steps apart.")


def test_the_sentence_checks_catch_what_they_look_for() -> None:
    """The checks above can fail: each kind of fault is seen."""
    assert _sentence_problems("A " + " ".join(f"w{i}" for i in range(61)) + ".") == ["62 words"]
    assert "does not end with a full stop" in _sentence_problems("7 must go in row 1, column 2")
    assert "a field left unfilled" in _sentence_problems("%(number)s must go here.")
    assert "a dangling fragment" in _sentence_problems("7 must go in row 1 , column 2.")
    assert "a word said twice" in _sentence_problems("The the board is complete.")
