"""Which day it is for the site (webapp/core/days.py): the puzzle of the day turns over at
midnight in ``HIDATO_TIMEZONE`` (UTC by default), never in the host's own zone."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from webapp.core import days
from webapp.core.options import Options
from webapp.core.stored import generate
from webapp.store.pool import today_and_tomorrow

# Late on 25 November in UTC: already the 26th on Kiritimati (UTC+14), still the 25th
# at UTC-12 (Etc/GMT+12: POSIX signs are reversed).
LATE = datetime(2026, 11, 25, 23, 30, tzinfo=UTC)


@pytest.fixture
def host_zone() -> Iterator[None]:
    """The host's clock set to Kiritimati, where the date is a day ahead of UTC's much of the day."""
    old = os.environ.get("TZ")
    os.environ["TZ"] = "Pacific/Kiritimati"
    time.tzset()
    yield
    if old is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = old
    time.tzset()


def test_the_day_is_utcs_by_default_and_the_zones_when_given() -> None:
    assert days.today(now=LATE) == date(2026, 11, 25)
    assert days.today("Pacific/Kiritimati", now=LATE) == date(2026, 11, 26)
    assert days.today("Etc/GMT+12", now=LATE) == date(2026, 11, 25)
    assert days.today("Etc/GMT+12", now=LATE - timedelta(hours=12)) == date(2026, 11, 24)
    assert days.today(now=LATE.replace(tzinfo=None)) == date(2026, 11, 25)  # naive times are UTC


def test_the_hosts_own_zone_does_not_count(host_zone: None) -> None:
    before = datetime.now(UTC).date()
    found = days.today()
    assert found in (before, datetime.now(UTC).date())  # UTC's date (twice: midnight may pass)
    assert today_and_tomorrow()[0] == found and today_and_tomorrow()[1] == found + timedelta(days=1)


def test_the_pool_makes_the_zones_days() -> None:
    # 26 hours apart: their dates always differ.
    assert today_and_tomorrow("Etc/GMT+12")[0] < today_and_tomorrow("Pacific/Kiritimati")[0]
    assert today_and_tomorrow("Pacific/Kiritimati")[0] == days.today("Pacific/Kiritimati")


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "", "../etc/passwd", 3])
def test_a_bad_zone_is_refused_at_start(tmp_path: Path, make_app, zone: object) -> None:
    with pytest.raises(ValueError, match="HIDATO_TIMEZONE must be an IANA time zone name"):
        make_app(tmp_path / "instance", TIMEZONE=zone)


def test_the_home_page_and_my_puzzles_follow_the_setting(tmp_path: Path, make_app) -> None:
    instance = tmp_path / "instance"
    east = make_app(instance, TIMEZONE="Pacific/Kiritimati")
    west = make_app(instance, TIMEZONE="Etc/GMT+12")  # another host of the site, on the same database
    assert east.config["TIMEZONE"] == "Pacific/Kiritimati"
    store = east.extensions["hidato"].store
    ahead = store.save_puzzle(generate(Options("square", 4, "easy", "hidato"), seed=1,
                                       daily=days.today("Pacific/Kiritimati")))
    behind = store.save_puzzle(generate(Options("square", 4, "easy", "hidato"), seed=2,
                                        daily=days.today("Etc/GMT+12")))
    assert ahead.daily != behind.daily
    east_home = east.test_client().get("/").get_data(as_text=True)
    west_home = west.test_client().get("/").get_data(as_text=True)
    assert f"/p/{ahead.code}" in east_home and f"/p/{behind.code}" not in east_home
    assert f"/p/{behind.code}" in west_home and f"/p/{ahead.code}" not in west_home
    # My puzzles lists the past puzzles of the day: the west's today is the east's past.
    assert f"/p/{behind.code}" in east.test_client().get("/mine").get_data(as_text=True)
    assert f"/p/{ahead.code}" not in west.test_client().get("/mine").get_data(as_text=True)
