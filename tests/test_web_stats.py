"""My puzzles: solved count, best time per kind, the daily streak and the archive, from
real games in a real database."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from flask import Flask

from webapp.core.days import today as site_today
from webapp.core.game import Game
from webapp.core.options import Options
from webapp.core.stats import record
from webapp.core.stored import generate

TODAY = date(2026, 11, 24)


def _solve(game: Game, start: datetime, seconds: int) -> None:
    cells = game.open_cells
    for i, cell in enumerate(cells):
        game.enter(cell, game.solution[cell], start + timedelta(seconds=seconds * (i + 1) / len(cells)))


def test_record_counts_best_times_and_the_streak() -> None:
    easy = generate(Options("diamond", 3, "easy", "hidato"), seed=1)
    other = generate(Options("diamond", 3, "easy", "hidato"), seed=2)
    games = []
    for stored, seconds in ((easy, 90), (other, 40)):
        game = Game(stored.puzzle, stored.solution)
        _solve(game, datetime(2026, 11, 20, 9), seconds)
        games.append((stored, game.state))
    days = []
    for back in (0, 1, 2, 4):  # today, yesterday, two days ago; then a gap
        day = TODAY - timedelta(days=back)
        stored = generate(Options("square", 4, "easy", "hidato"), seed=back, daily=day)
        game = Game(stored.puzzle, stored.solution)
        _solve(game, datetime(2026, 11, 20, 9), 30)
        days.append((stored, game.state))
    revealed = Game(easy.puzzle, easy.solution)
    revealed.reveal()
    found = record([*games, *days, (easy, revealed.state)], TODAY)
    assert found.solved == 6
    diamond = next(b for b in found.best if b.shape == "diamond")
    times = [Game(stored.puzzle, stored.solution, state).seconds() for stored, state in games]
    assert diamond.solved == 2 and diamond.seconds == min(times) < 40 < max(times)
    assert found.streak == 3
    assert record(days[1:], TODAY).streak == 2  # today's still to do: the streak holds


def test_my_puzzles_shows_the_record_and_the_archive(app: Flask) -> None:
    store = app.extensions["hidato"].store
    past = store.save_puzzle(generate(Options("square", 4, "easy", "hidato"), seed=5,
                                      daily=site_today() - timedelta(days=3)))
    client = app.test_client()
    page = client.get(f"/p/{past.code}").get_data(as_text=True)
    assert "Puzzle of the day" in page
    stored = store.find_puzzle(past.code)
    for cell in [c for c in stored.puzzle.board.cells if c not in stored.puzzle.givens]:
        client.post(f"/p/{past.code}/cell/{cell[0] + 1}/{cell[1] + 1}",
                    data={f"c-{cell[0] + 1}-{cell[1] + 1}": str(stored.solution[cell])}, headers={"HX-Request": "true"})
    html = client.get("/mine").get_data(as_text=True)
    assert "<strong>1</strong> solved" in html and "Best times" in html
    assert "Past puzzles of the day" in html and f"/p/{past.code}" in html
    assert (site_today() - timedelta(days=3)).strftime("%-d %B %Y") in html


def test_my_puzzles_writes_dates_and_times_as_the_other_pages_in_the_site_zone(tmp_path, make_app) -> None:
    app = make_app(tmp_path / "instance", TIMEZONE="America/New_York")
    store = app.extensions["hidato"].store
    day = site_today("America/New_York") - timedelta(days=2)
    past = store.save_puzzle(generate(Options("square", 4, "easy", "hidato"), seed=8, daily=day))
    client = app.test_client()
    client.get(f"/p/{past.code}")
    cell = next(c for c in past.puzzle.board.cells if c not in past.puzzle.givens)
    client.post(f"/p/{past.code}/cell/{cell[0] + 1}/{cell[1] + 1}",
                data={f"c-{cell[0] + 1}-{cell[1] + 1}": str(past.solution[cell])}, headers={"HX-Request": "true"})
    with client.session_transaction() as session:
        player = session["player"]
    updated = store.list_progress(player)[0].updated
    local = updated.replace(tzinfo=UTC).astimezone(ZoneInfo("America/New_York"))
    html = client.get("/mine").get_data(as_text=True)
    assert f"Puzzle of the day {day.day} {day:%B %Y}" in html  # as the home page and the archive write it
    assert day.isoformat() not in html.split("<table", 1)[1].split("</table>")[0]
    assert f"{local.day} {local:%B %Y}, {local:%H:%M}" in html
    assert "UTC" not in html
    spanish = client.get("/mine?lang=es").get_data(as_text=True)
    assert f"{local.day} de " in spanish and f", {local:%H:%M}" in spanish
