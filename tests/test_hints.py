"""Tests for engine.hints and its words (webapp.core.hint_words): every hint is true, mistakes
are pointed out, and each fact reads as the same English sentence."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine import (
    Board,
    Chain,
    ChainStep,
    Deduced,
    FromSolution,
    Hint,
    Mistake,
    NoSolution,
    OnlyCell,
    OnlyNeighbour,
    Puzzle,
    Solved,
    SolverGaveUp,
    parse_puzzle,
)
from engine.hints import hint
from engine.words import Phrase
from webapp.core.hint_words import hint_text

from puzzle_files import DATA, PUZZLE_FILES, load
from rated_files import rated_puzzles

SMALL = [p for p in PUZZLE_FILES if "large" not in p.parts]


@pytest.mark.parametrize("path", SMALL, ids=lambda p: p.name)
def test_following_the_hints_solves_the_puzzle(path):
    puzzle, known = load(path)
    entries: dict = {}
    for _ in range(puzzle.size):
        step = hint(puzzle, entries, known)
        if step.kind == "solved":
            break
        assert step.kind == "deduction"
        target = step.cells[0]
        assert known[target] == step.number  # the deduction agrees with the solution
        assert str(step.number) in hint_text(step)
        entries[target] = step.number
    assert len(entries) + len(puzzle.givens) == puzzle.size


def test_first_hint_on_a_fresh_puzzle_is_explained():
    puzzle, known = load(DATA / "classic-8x8-40.txt")
    step = hint(puzzle, {})
    assert step.kind == "deduction"
    assert known[step.cells[0]] == step.number
    assert "must go in row" in hint_text(step)


def test_a_wrong_entry_is_pointed_at():
    puzzle, known = load(DATA / "seed000-5x5.txt")
    open_cells = [c for c in puzzle.board.cells if c not in puzzle.givens]
    right, wrong = open_cells[0], open_cells[1]
    entries = {right: known[right], wrong: known[right]}
    step = hint(puzzle, entries)
    assert step.kind == "mistake"
    assert step.cells[0] == wrong
    assert f"The {known[right]} in row {wrong[0] + 1}, column {wrong[1] + 1} is wrong" in hint_text(step)


def test_bad_entries_are_refused():
    puzzle = Puzzle(Board.rectangle(2, 2), {(0, 0): 1})
    with pytest.raises(ValueError, match="outside 1..4"):
        hint(puzzle, {(0, 1): 9})
    with pytest.raises(ValueError, match="holds a given"):
        hint(puzzle, {(0, 0): 2})


def test_a_hint_with_a_budget_gives_up_within_it() -> None:
    puzzle = parse_puzzle((Path(__file__).parent / "data" / "budget" / "hard-900.txt").read_text())
    started = time.perf_counter()
    with pytest.raises(SolverGaveUp, match="gave up after 0.2 seconds"):
        hint(puzzle, {}, max_seconds=0.2)  # no solution given: it must solve first
    # Stopped by its budget, not by finishing (this board takes the solver minutes): the
    # margin allows a SAT slice in flight and a machine whose other core is busy.
    assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize("name", ["mebane-III.7", "puzzlesandbrains-numbrix-VH08", "square10-king-expert-s5"])
def test_a_hint_that_needs_a_chain_tells_the_chain(name):
    rated = next(r for r in rated_puzzles() if r.name == name)
    puzzle, known = rated.load()
    entries: dict = {}
    longest = 0
    while True:
        step = hint(puzzle, entries, known)
        if step.kind == "solved":
            break
        assert known[step.cells[0]] == step.number
        if step.length >= 2:
            # "If 34 were in row 5, column 7, ... and 35 would have nowhere to go, so 34 is not in ..."
            said = hint_text(step)
            assert said.startswith("If ") and " so " in said and " is not in row " in said
            assert said.count("would have to go in") == 1  # the first forced step
            assert ("…" in said) == (step.length - 1 > 2)  # a long chain shows its first step and its last
            assert "Then " in said
            assert isinstance(step.reason, Deduced) and step.reason.chain is not None
            assert step.reason.chain.length == step.length and step.cells[1] == step.reason.chain.cell
        longest = max(longest, step.length)
        entries[step.cells[0]] = step.number
    assert longest >= 2  # these puzzles need chains, so some hint explained one


def test_with_the_solution_known_a_slow_deduction_gives_the_number_within_the_budget():
    rated = next(r for r in rated_puzzles() if r.name == "mebane-III.4")  # its first step is a long whip
    puzzle, known = rated.load()
    started = time.perf_counter()
    step = hint(puzzle, {}, known, max_seconds=0.001)
    assert time.perf_counter() - started < 0.5
    assert step.kind == "deduction" and known[step.cells[0]] == step.number
    assert hint_text(step).startswith("The next deduction takes a long chain of reasoning;")


def test_a_wrong_entry_is_a_fact_with_its_cells():
    puzzle, known = load(DATA / "seed000-5x5.txt")
    open_cells = [c for c in puzzle.board.cells if c not in puzzle.givens]
    right, wrong = open_cells[0], open_cells[1]
    step = hint(puzzle, {right: known[right], wrong: known[right]})
    assert step.reason == Mistake(wrong, known[right], already_at=right)
    assert step.cells == (wrong, right) and step.number == known[right]


# Every kind of fact, and the English sentence it reads as (the words of the hints before
# they became facts: the site's and the command line's tests match on them).
SAID = [
    (Mistake((2, 3), 12), "The 12 in row 3, column 4 is wrong."),
    (Mistake((2, 3), 12, already_at=(0, 0)), "The 12 in row 3, column 4 is wrong: 12 is already at row 1, column 1."),
    (Mistake((2, 3), 12, apart=(11, (5, 5))),
     "The 12 in row 3, column 4 is wrong: it does not touch 11 at row 6, column 6."),
    (OnlyCell(7, (1, 4), (6, 8)),
     "7 must go in row 2, column 5: it is the only free cell touching both 6 and 8."),
    (OnlyNeighbour(7, (1, 4), 8),
     "7 must go in row 2, column 5: 8 needs 7 next to it, and this is the only free cell next to 8."),
    (OnlyNeighbour(9, (1, 4), 8),
     "9 must go in row 2, column 5: 8 needs 9 next to it, and this is the only free cell next to 8."),
    (Deduced(1, (0, 6), "only cell"),
     "1 must go in row 1, column 7: it is the only cell left where 1 can still link up with the numbers before "
     "and after it."),
    (Deduced(1, (0, 6), "only number"), "1 must go in row 1, column 7: no other missing number can reach that cell."),
    (Deduced(1, (0, 6), "only cell", ranges=True),
     "1 must go in row 1, column 7. Each missing number must touch the numbers just before and after it; crossing "
     "out the cells where that cannot happen leaves this as the only cell for 1."),
    (Deduced(1, (0, 6), "only number", ranges=True),
     "1 must go in row 1, column 7. Each missing number must touch the numbers just before and after it; crossing "
     "out the cells where that cannot happen leaves 1 as the only number for this cell."),
    (Deduced(1, (0, 6), "only cell", chain=Chain(34, (4, 6), (ChainStep(35, (4, 5)), ChainStep(36, (3, 5))),
                                                   nowhere=37)),
     "If 34 were in row 5, column 7, 35 would have to go in row 5, column 6, 36 in row 4, column 6 and 37 would "
     "have nowhere to go, so 34 is not in row 5, column 7. Then 1 goes in row 1, column 7, the only cell left "
     "for it."),
    (Deduced(1, (0, 6), "only number", chain=Chain(34, (4, 6), (ChainStep(35, (1, 5)),), unfilled=(3, 3))),
     "If 34 were in row 5, column 7, 35 would have to go in row 2, column 6 and no number could fill row 4, "
     "column 4, so 34 is not in row 5, column 7. Then 1 goes in row 1, column 7, the only number left for that "
     "cell."),
    # A long chain: its first forced step and its last.
    (Deduced(1, (0, 6), "only cell", chain=Chain(34, (4, 6), tuple(ChainStep(k, (k - 30, 2)) for k in range(35, 42)),
                                                   nowhere=42)),
     "If 34 were in row 5, column 7, 35 would have to go in row 6, column 3, …, 41 in row 12, column 3 and 42 "
     "would have nowhere to go, so 34 is not in row 5, column 7. Then 1 goes in row 1, column 7, the only cell "
     "left for it."),
    (FromSolution(2, (1, 1), "long chain"),
     "The next deduction takes a long chain of reasoning; 2 goes in row 2, column 2."),
    (FromSolution(2, (1, 1), "guessing"), "No deduction short of guessing is left; 2 goes in row 2, column 2."),
    (Solved(), "The board is complete and correct."),
    (NoSolution(), "This puzzle has no solution: no way to place every number."),
    (NoSolution("2 cannot be placed"), "This puzzle has no solution: 2 cannot be placed."),
    (NoSolution(Phrase("%(number)s cannot be placed: no region has room for it", number=2)),
     "This puzzle has no solution: 2 cannot be placed: no group of free cells has room for it."),
]


@pytest.mark.parametrize(("reason", "said"), SAID)
def test_each_fact_reads_as_its_english_sentence(reason, said):
    assert hint_text(Hint(reason)) == said


def test_every_sentence_goes_through_gettext() -> None:
    """Each sentence is looked up whole, and the translation's fields are filled in."""
    asked: list[str] = []

    class Shout:
        def gettext(self, message: str) -> str:
            asked.append(message)
            return message.upper().replace("%(NUMBER)S", "%(number)s").replace("%(ROW)S", "%(row)s") \
                .replace("%(COLUMN)S", "%(column)s")

        def ngettext(self, singular: str, plural: str, n: int) -> str:
            return self.gettext(singular if n == 1 else plural)

    said = hint_text(Hint(Deduced(1, (0, 6), "only number")), Shout())
    assert said == "1 MUST GO IN ROW 1, COLUMN 7: NO OTHER MISSING NUMBER CAN REACH THAT CELL."
    assert asked == ["%(number)s must go in row %(row)s, column %(column)s: no other missing number can reach "
                     "that cell."]
