"""The play page's clock between page and server: the page counts from the moment it opens
(opening writes nothing), the server takes that count with the first entry or action,
bounded by the signed stamp the page was drawn with, and every answer that draws the
timer says how many seconds and whether it runs. Also: the numbers entered twice travel
with every entry's answer."""

from __future__ import annotations

import re
import time
from datetime import datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient

from engine import puzzle_to_id
from webapp.core.game import Game
from webapp.web import page_clock

from puzzle_files import DATA, load

PUZZLE, SOLUTION = load(DATA / "seed000-5x5.txt")
CODE = puzzle_to_id(PUZZLE)
PAGE = f"/p/{CODE}"
HTMX = {"HX-Request": "true"}
OPEN = [cell for cell in PUZZLE.board.cells if cell not in PUZZLE.givens]
T0 = datetime(2026, 1, 1, 12, 0, 0)


def field(cell: tuple[int, int]) -> str:
    return f"c-{cell[0] + 1}-{cell[1] + 1}"


def timer(html: str) -> dict[str, str]:
    """The data attributes of the #timer drawn in ``html``."""
    found = re.search(r'<span id="timer"([^>]*)>', html)
    assert found, "no timer in the answer"
    return dict(re.findall(r'data-(\w+)="([^"]*)"', found.group(1)))


def page_stamp(client: FlaskClient, monkeypatch: pytest.MonkeyPatch, ago: int = 0, path: str = PAGE) -> str:
    """The stamp of the timer a page draws, as if the page had been opened ``ago`` seconds ago."""

    signed_at = page_clock.now_seconds() - ago
    with monkeypatch.context() as patch:
        patch.setattr(page_clock, "now_seconds", lambda: signed_at)
        return timer(client.get(path).get_data(as_text=True))["stamp"]


def enter(client: FlaskClient, cell: tuple[int, int], value: int | str, **clock: str):
    return client.post(f"{PAGE}/cell/{cell[0] + 1}/{cell[1] + 1}", data={field(cell): str(value), **clock},
                       headers=HTMX)


def seconds_saved(app: Flask, client: FlaskClient) -> int:
    with client.session_transaction() as session:
        player = session["player"]
    store = app.extensions["hidato"].store
    state = store.load_progress(player, CODE)
    assert state is not None
    return Game(PUZZLE, SOLUTION, state).seconds()


# --- the game's own clock (no web) ------------------------------------------------------


def test_a_game_takes_the_seconds_a_page_showed_within_their_bound() -> None:
    game = Game(PUZZLE, SOLUTION)
    game.sync_clock(40, ceiling=30, now=T0)  # more than the page can have counted
    assert game.seconds(T0) == 30 and game.clock_running
    game.sync_clock(10, ceiling=99, now=T0 + timedelta(seconds=5))  # never below the server's own
    assert game.seconds(T0 + timedelta(seconds=5)) == 35
    game.sync_clock(50, ceiling=99, now=T0 + timedelta(seconds=5))
    assert game.seconds(T0 + timedelta(seconds=7)) == 52


def test_a_paused_or_finished_game_keeps_its_time() -> None:
    game = Game(PUZZLE, SOLUTION)
    game.sync_clock(20, ceiling=20, now=T0)
    game.pause(T0 + timedelta(seconds=3))
    game.sync_clock(500, ceiling=500, now=T0 + timedelta(seconds=9))
    assert game.seconds(T0 + timedelta(seconds=60)) == 23 and not game.clock_running
    game.resume(T0 + timedelta(seconds=60))
    game.reveal(T0 + timedelta(seconds=61))
    game.sync_clock(500, ceiling=500, now=T0 + timedelta(seconds=62))
    assert game.seconds(T0 + timedelta(seconds=90)) == 24


def test_the_page_clock_ticks_until_paused_or_finished_and_a_run_changes_with_restart() -> None:
    game = Game(PUZZLE, SOLUTION)
    assert game.ticking and game.epoch == ""  # not started: the page counts by itself
    game.enter(OPEN[0], SOLUTION[OPEN[0]], T0)
    first = game.epoch
    assert first
    game.pause(T0)
    assert not game.ticking
    game.restart(T0 + timedelta(seconds=1))
    assert game.ticking and game.epoch not in ("", first)


# --- the routes -------------------------------------------------------------------------


def test_the_page_draws_a_running_clock_and_writes_nothing(client: FlaskClient) -> None:
    html = client.get(PAGE).get_data(as_text=True)
    drawn = timer(html)
    assert drawn["running"] == "true" and drawn["seconds"] == "0" and drawn["epoch"] == ""
    assert drawn["stamp"]
    assert client.post(f"{PAGE}/clock", data={"event": "tick", "clock": "5", "clock_stamp": drawn["stamp"]}
                       ).status_code == 204
    assert "haven't played" in client.get("/mine").get_data(as_text=True)


def test_the_first_entry_brings_the_seconds_the_page_counted(app: Flask, client: FlaskClient,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    stamp = page_stamp(client, monkeypatch, ago=120)  # the page was opened two minutes ago
    answer = enter(client, OPEN[0], SOLUTION[OPEN[0]], clock="95", clock_stamp=stamp).get_data(as_text=True)
    drawn = timer(answer)
    assert 95 <= int(drawn["seconds"]) <= 97 and drawn["running"] == "true" and drawn["epoch"]
    assert 'hx-swap-oob="true"' in re.search(r'<span id="timer"[^>]*>', answer).group(0)  # type: ignore[union-attr]
    assert 95 <= seconds_saved(app, client) <= 97


@pytest.mark.parametrize("claim", ["5000", "99999999999", "-3", "x"])
def test_a_page_cannot_claim_more_than_it_can_have_counted(app: Flask, client: FlaskClient,
                                                         monkeypatch: pytest.MonkeyPatch, claim: str) -> None:
    stamp = page_stamp(client, monkeypatch, ago=60)
    enter(client, OPEN[0], SOLUTION[OPEN[0]], clock=claim, clock_stamp=stamp)
    assert seconds_saved(app, client) <= 62
    if claim == "5000":
        assert seconds_saved(app, client) >= 60


@pytest.mark.parametrize("kind", ["forged", "another puzzle", "none"])
def test_a_stamp_that_is_not_this_pages_counts_nothing(app: Flask, client: FlaskClient,
                                                      monkeypatch: pytest.MonkeyPatch, kind: str) -> None:
    stamp = page_stamp(client, monkeypatch, ago=600)
    if kind == "forged":
        stamp = re.sub(r"^\d+", "9000", stamp)
    elif kind == "another puzzle":
        other = puzzle_to_id(load(DATA / "classic-8x8-40.txt")[0])
        stamp = page_stamp(client, monkeypatch, ago=600, path=f"/p/{other}")
    elif kind == "none":
        stamp = ""
    enter(client, OPEN[0], SOLUTION[OPEN[0]], clock="500", clock_stamp=stamp)
    assert seconds_saved(app, client) <= 2


def test_an_action_brings_the_seconds_too_and_pause_stops_them(app: Flask, client: FlaskClient,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    stamp = page_stamp(client, monkeypatch, ago=40)
    html = client.post(PAGE, data={"action": "pause", "clock": "30", "clock_stamp": stamp},
                       headers=HTMX).get_data(as_text=True)
    drawn = timer(html)
    assert drawn["running"] == "false" and 30 <= int(drawn["seconds"]) <= 31
    time.sleep(1.1)  # a paused clock stands still on the server
    paused = seconds_saved(app, client)
    assert paused == int(drawn["seconds"])
    html = client.post(PAGE, data={"action": "resume"}, headers=HTMX).get_data(as_text=True)
    assert timer(html)["running"] == "true" and int(timer(html)["seconds"]) == paused


def test_hiding_the_page_banks_what_it_counted(app: Flask, client: FlaskClient,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    enter(client, OPEN[0], SOLUTION[OPEN[0]])  # a game begun: the clock events count now
    stamp = page_stamp(client, monkeypatch, ago=100)
    assert client.post(f"{PAGE}/clock", data={"event": "away", "clock": "80", "clock_stamp": stamp}
                       ).status_code == 204
    assert 80 <= seconds_saved(app, client) <= 81
    time.sleep(1.1)  # away: the server's clock stands still too
    assert 80 <= seconds_saved(app, client) <= 81


def test_a_solved_game_draws_a_stopped_clock(client: FlaskClient) -> None:
    for cell in OPEN:
        html = enter(client, cell, SOLUTION[cell]).get_data(as_text=True)
    drawn = timer(html)
    assert drawn["running"] == "false"
    assert f"Solved in {int(drawn['seconds']) // 60}:{int(drawn['seconds']) % 60:02d}" in html


def duplicates_box(html: str) -> str | None:
    """What an answer's out-of-band list of numbers entered twice holds (None: not sent)."""
    box = re.search(r'<div id="duplicates" class="duplicates" hx-swap-oob="true">(.*?)</div>', html, re.S)
    return box.group(1) if box else None


def test_an_entry_carries_the_numbers_entered_twice_when_it_changes_them(client: FlaskClient) -> None:
    a, b, c = OPEN[0], OPEN[1], OPEN[2]
    # 2 is in no other cell: the list (empty) is what the page shows already, not sent.
    assert duplicates_box(enter(client, a, 2).get_data(as_text=True)) is None
    box = duplicates_box(enter(client, b, 2).get_data(as_text=True))
    assert box and "2 is in 2 cells" in box
    assert f"row {a[0] + 1}, column {a[1] + 1}" in box and f"row {b[0] + 1}, column {b[1] + 1}" in box
    # An entry that touches neither copy leaves the list as it is: not sent.
    other = next(v for v in range(3, 26) if v not in PUZZLE.givens.values())
    assert duplicates_box(enter(client, c, other).get_data(as_text=True)) is None
    # The same number again changes nothing: not sent either.
    assert duplicates_box(enter(client, c, other).get_data(as_text=True)) is None
    # A third copy, then clearing them: sent each time, and empty when none is left twice.
    box = duplicates_box(enter(client, c, 2).get_data(as_text=True))
    assert box and "2 is in 3 cells" in box
    box = duplicates_box(enter(client, c, "").get_data(as_text=True))
    assert box and "2 is in 2 cells" in box
    assert duplicates_box(enter(client, b, "").get_data(as_text=True)) == ""
    # The page drawn afresh agrees with what the answers left.
    page = client.get(PAGE).get_data(as_text=True)
    assert re.search(r'<div id="duplicates" class="duplicates"></div>', page)


def test_an_entry_answer_stays_small_on_a_big_board(client: FlaskClient) -> None:
    big, solution = load(DATA / "large" / "rectangle20_s1.txt")
    code = puzzle_to_id(big)
    open_cells = [c for c in big.board.cells if c not in big.givens]
    client.get(f"/p/{code}")
    for cell in open_cells[:30]:  # thirty copies of one number: the list is capped
        client.post(f"/p/{code}/cell/{cell[0] + 1}/{cell[1] + 1}", data={field(cell): "7"}, headers=HTMX)
    cell = open_cells[31]
    html = client.post(f"/p/{code}/cell/{cell[0] + 1}/{cell[1] + 1}", data={field(cell): "7"},
                       headers=HTMX).get_data(as_text=True)
    assert "7 is in" in html and len(html) < 12_000


@pytest.mark.parametrize("keys", [["one key"], ["an old key", "the current key"], ["k" * 80]])
def test_a_stamp_is_what_itsdangerous_signs(keys: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The page clock's own ``sign`` (one keyed HMAC copied per stamp) writes the bytes
    itsdangerous's ``TimestampSigner`` writes with the same keys, salt and time, so its
    stamps check wherever that class checks them (another host, the previous release),
    and that class's stamps check here."""
    ours = page_clock._Signer(keys)
    theirs = page_clock.TimestampSigner(keys, salt=page_clock._SALT)
    for moment in (0, 1, 255, 256, 1_700_000_000, int(time.time())):
        monkeypatch.setattr(page_clock, "now_seconds", lambda moment=moment: moment)
        monkeypatch.setattr(theirs, "get_timestamp", lambda moment=moment: moment)
        for value in ("0:abcdef0123", "12345:0123456789", "é:x"):
            assert ours.sign(value) == theirs.sign(value)
            assert ours.unsign(theirs.sign(value)) == value.encode()
