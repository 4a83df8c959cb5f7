"""webapp/core/number_index.py: the runs of missing numbers changed number by number are the
runs worked out afresh from the numbers (Hypothesis draws them and the changes)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import runs_of
from webapp.core.number_index import put_in, take_out


@settings(max_examples=500)
@given(st.sets(st.integers(1, 60), max_size=60),
       st.lists(st.tuples(st.booleans(), st.integers(1, 60)), max_size=20))
def test_runs_changed_number_by_number_are_the_runs_of_the_numbers(
        numbers: set[int], changes: list[tuple[bool, int]]) -> None:
    """``put_in`` and ``take_out`` (the missing numbers' runs carried from one move to the
    next) give ``runs_of`` of the numbers after each change: a number put in joins the runs
    it touches, one taken out splits its run, and either is nothing when already done."""
    runs = runs_of(sorted(numbers))
    for adding, number in changes:
        if adding:
            put_in(runs, number)
            numbers.add(number)
        else:
            take_out(runs, number)
            numbers.discard(number)
        assert runs == runs_of(sorted(numbers))
