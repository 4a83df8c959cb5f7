"""The home page and the player's progress: nothing looked up for a visitor without a
session, two small queries for a player, and what they show (the browser test is
tests/e2e/test_home_progress.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from flask import Flask
from sqlalchemy import event

from webapp.core.days import today as site_today
from webapp.core.options import Options
from webapp.core.stored import StoredPuzzle, generate


@contextmanager
def _statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements the app sends while the block runs."""
    engine = app.extensions["hidato"].store.engine
    seen: list[str] = []

    def record(_conn, _cursor, statement, *_args) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def _enter(client, stored: StoredPuzzle, count: int | None = None) -> None:
    cells = [c for c in stored.puzzle.board.cells if c not in stored.puzzle.givens][:count]
    for r, c in cells:
        client.post(f"/p/{stored.code}/cell/{r + 1}/{c + 1}", data={f"c-{r + 1}-{c + 1}": str(stored.solution[(r, c)])},
                    headers={"HX-Request": "true"})


def test_a_visitor_costs_no_progress_query_and_a_player_two(app: Flask) -> None:
    store = app.extensions["hidato"].store
    day = site_today(app.config["TIMEZONE"])
    daily = store.save_puzzle(generate(Options("diamond", 3, "easy", "hidato"), seed=2, daily=day))
    client = app.test_client()
    with _statements(app) as seen:
        html = client.get("/").get_data(as_text=True)
    assert not [s for s in seen if "progress" in s]
    assert "Play today's puzzle" in html and "Continue" not in html

    other = store.save_puzzle(generate(Options("square", 4, "easy", "hidato"), seed=3))
    _enter(client, other, 1)
    with _statements(app) as seen:
        html = client.get("/").get_data(as_text=True)
    assert len([s for s in seen if "progress" in s]) == 2
    assert f'href="/p/{other.code}"' in html and "Continue where you left off" in html

    _enter(client, daily)
    html = client.get("/").get_data(as_text=True)
    assert "Solved in " in html and "Play today's puzzle" not in html
    assert "<strong>1</strong> day in a row" in html


def test_the_streak_counts_yesterday_until_today_is_solved(app: Flask) -> None:
    store = app.extensions["hidato"].store
    day = site_today(app.config["TIMEZONE"])
    client = app.test_client()
    for back in (1, 2):
        _enter(client, store.save_puzzle(generate(Options("diamond", 2, "easy", "hidato"), seed=back,
                                                  daily=day - timedelta(days=back))))
    today = store.save_puzzle(generate(Options("diamond", 3, "easy", "hidato"), seed=9, daily=day))
    _enter(client, today, 2)
    html = client.get("/").get_data(as_text=True)
    assert "<strong>2</strong> days in a row" in html
    assert "Continue today's puzzle" in html and "2 of " in html
    assert f'href="/p/{today.code}"' in html
    assert "Continue where you left off" not in html  # today's is the only game left: said once
