"""The puzzle of the day never depends on the machine's pace.

``catalog.daily`` tries the day's shapes in order and stores the first the generator
manages.  A shape the generator cannot manage at all gives way to the next (the same on
every machine); running out of the time budget raises instead, since taking the next
shape then would make the day's puzzle depend on how busy the machine was.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from engine import GenerationError, generate_shape
from webapp.core.options import Options, daily_options
from webapp.core.stored import StoredPuzzle
from webapp.store.catalog import daily, made_here

DAY = date(2026, 3, 14)


def test_running_out_of_time_raises_and_never_takes_the_next_shape(tmp_path: Path, make_app) -> None:
    store = make_app(tmp_path).extensions["hidato"].store
    asked: list[Options] = []

    def out_of_time(options: Options, seed: int, day: date, seconds: float | None) -> StoredPuzzle:
        asked.append(options)
        return made_here(options, seed, day, 1e-6)  # the engine's own give-up, a real one

    with pytest.raises(GenerationError, match=r"^gave up after "):
        daily(store, DAY, out_of_time, budget_seconds=60)
    assert asked == [daily_options(DAY)[0][0]]
    assert store.daily(DAY) is None
    # Asked again with time enough, the day's first shape is made: the same as anywhere.
    made = daily(store, DAY, made_here, budget_seconds=None)
    assert made.shape == daily_options(DAY)[0][0].shape and made.daily == DAY


def test_a_shape_the_generator_cannot_manage_gives_way_to_the_next(tmp_path: Path, make_app) -> None:
    store = make_app(tmp_path).extensions["hidato"].store
    first, second = daily_options(DAY)[0][0], daily_options(DAY)[1][0]

    def first_unmanageable(options: Options, seed: int, day: date, seconds: float | None) -> StoredPuzzle:
        if options == first:
            generate_shape("square", 4, "expert", "king", seed)  # a board too small for expert: raises
        return made_here(options, seed, day, seconds)

    made = daily(store, DAY, first_unmanageable, budget_seconds=None)
    assert (made.shape, made.size, made.difficulty) == (second.shape, second.size, second.difficulty)
