"""Tests for engine.words: counts and durations in plain words."""

from __future__ import annotations

import pytest

import engine
from engine.words import plural, seconds


@pytest.mark.parametrize(
    ("count", "noun", "plural_noun", "expected"),
    [
        (1, "puzzle", None, "1 puzzle"),
        (0, "puzzle", None, "0 puzzles"),
        (3, "puzzle", None, "3 puzzles"),
        (1, "match", "matches", "1 match"),
        (2, "match", "matches", "2 matches"),
        (-1, "cell", None, "-1 cells"),
    ],
)
def test_plural(count: int, noun: str, plural_noun: str | None, expected: str):
    assert plural(count, noun, plural_noun) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1, "1 second"),
        (1.0, "1 second"),
        (0.5, "0.5 seconds"),
        (60, "60 seconds"),
        (0, "0 seconds"),
        (2.25, "2.25 seconds"),
        (1e-9, "1e-09 seconds"),
    ],
)
def test_seconds(value: float, expected: str):
    assert seconds(value) == expected


def test_seconds_agrees_with_what_is_printed():
    # Rounded to 3 digits 1.0004 prints as "1", so the noun is singular too.
    assert seconds(1.0004, 3) == "1 second"
    assert seconds(12.3456, 3) == "12.3 seconds"
    assert seconds(0.0012345, 3) == "0.00123 seconds"


def test_exported_from_the_engine():
    assert engine.plural is plural and engine.seconds is seconds
    assert {"plural", "seconds", "iter_puzzles"} <= set(engine.__all__)
