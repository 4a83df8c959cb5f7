"""The rating on the pages: the puzzle page, the puzzle of the day, the printable sheet and
the solver's Grade; puzzles stored before ratings still show, without one."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from engine import Grade, Rating, SolveResult, generate_shape, grade, puzzle_from_id, puzzle_to_id
from webapp.core import days
from webapp.core.stored import StoredPuzzle, grade_record, stored_from
from webapp.web.editor import _graded
from webapp.work.tasks import Examined

from puzzle_files import DATA, load

OLD_GRADE = {"level": "hard", "techniques": {"single": 30, "neighbours": 12, "paths": 3}}


def meta(html: str) -> str:
    """The line under a page's heading, without its tags and with its spaces closed up."""
    found = re.search(r'<p class="meta">(.*?)</p>', html, re.S)
    assert found, "no meta line"
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split())


def test_a_new_puzzle_page_shows_its_level_and_rating(client: FlaskClient) -> None:
    made = client.post("/new", data={"shape": "diamond", "size": "4", "difficulty": "medium", "variant": "hidato"})
    code = made.headers["Location"][len("/p/"):]
    rating = grade(puzzle_from_id(code)).rating
    line = meta(client.get(f"/p/{code}").get_data(as_text=True))
    assert line.endswith(f"cells · Medium · {rating.text}")
    printed = client.get(f"/p/{code}/print").get_data(as_text=True)
    # A pupil's sheet says the level, not the bare rating (that is for the teacher's solutions).
    assert "Hidato · Diamond 4 · Medium · 40 cells" in printed and rating.text not in printed


def test_a_puzzle_stored_before_ratings_shows_its_level_without_one(app: Flask, client: FlaskClient) -> None:
    puzzle, solution = load(DATA / "classic-8x8-40.txt")
    stored = StoredPuzzle(puzzle_to_id(puzzle), puzzle, solution, shape="rectangle", size=8,
                          difficulty="hard", grade=OLD_GRADE)
    assert stored.rating_text is None
    app.extensions["hidato"].store.save_puzzle(stored)
    response = client.get(f"/p/{stored.code}")
    assert response.status_code == 200
    line = meta(response.get_data(as_text=True))
    assert line.endswith(f"{puzzle.size} cells · Hard") and 'class="rating"' not in response.get_data(as_text=True)
    printed = client.get(f"/p/{stored.code}/print")
    assert printed.status_code == 200
    assert f"Hidato · Rectangle 8 · Hard · {puzzle.size} cells" in printed.get_data(as_text=True)


@pytest.mark.parametrize("rated", [True, False])
def test_the_puzzle_of_the_day_on_the_home_page_shows_its_rating(app: Flask, client: FlaskClient,
                                                                 rated: bool) -> None:
    made = generate_shape("heart", 6, "easy", "king", seed=2)
    stored = stored_from(made, daily=days.today())
    if not rated:
        stored = StoredPuzzle(stored.code, stored.puzzle, stored.solution, stored.shape, stored.size,
                              stored.difficulty, {"level": "easy", "techniques": {"single": 9}}, daily=days.today())
    app.extensions["hidato"].store.save_puzzle(stored)
    line = meta(client.get("/").get_data(as_text=True))
    expected = f"Heart · {made.puzzle.size} cells · Easy"
    if rated:
        assert line.endswith(f"{expected} · {grade(made.puzzle).rating.text}")
    else:
        assert line.endswith(expected)


def test_the_stored_grade_is_the_rating_of_the_puzzle() -> None:
    made = generate_shape("diamond", 4, "hard", "king", seed=5)
    record = stored_from(made).grade
    rating = grade(made.puzzle).rating
    assert record == {"level": "hard", "rating": round(rating.score, 1), "length": rating.length,
                      "uses": {str(k): v for k, v in rating.uses.items()}}
    assert stored_from(made).rating_text == rating.text


def _examined(rating: Rating) -> Examined:
    """What the child hands back for a unique puzzle graded ``rating``."""
    _, solution = load(DATA / "seed000-5x5.txt")
    result = SolveResult([solution], complete=True, seconds=0.01, limit=2)
    return Examined(result, Grade("hard" if rating.solved else "expert", rating))


def test_grade_outcome_names_the_rating_and_each_length() -> None:
    puzzle, _ = load(DATA / "seed000-5x5.txt")
    rating = Rating(3, {1: 20, 2: 6, 3: 2}, True, empty=15, size=25)
    outcome = _graded(puzzle, _examined(rating))
    assert outcome.message.startswith(f"Difficulty: Hard, rating {rating.text} (longest chain: 3 steps, W3 ")
    assert outcome.details == ["singles: 15 numbers placed",
                               "one-step eliminations (length 1): 20 candidates ruled out",
                               "chains of length 2: 6 candidates ruled out",
                               "chains of length 3: 2 candidates ruled out"]


def test_grade_outcome_of_a_puzzle_that_needs_guessing() -> None:
    puzzle, _ = load(DATA / "seed000-5x5.txt")
    outcome = _graded(puzzle, _examined(Rating(12, {1: 5, 12: 1}, False, empty=15, size=25)))
    assert outcome.message == ("Difficulty: harder than Expert (rating over 12): chains of up to 12 steps "
                               "cannot finish it, so it needs guessing.")
    assert not any(line.startswith("singles") for line in outcome.details)


def test_grade_record_keys_are_json_strings() -> None:
    made = generate_shape("rectangle", 4, "easy", "king", seed=1)
    assert all(isinstance(key, str) for key in grade_record(made.grade)["uses"])
