"""The pool refiller for real: child processes running ``hidato pool fill`` on a real
database, one killed half-way, two at once; and the clean-up of old tickets and rate counts."""

from __future__ import annotations

import os
import signal
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update
from waiting import wait_until

from webapp.core.game import utcnow
from webapp.core.options import Options
from webapp.store.models import ClaimRow, RateRow, TicketRow
from webapp.store.pool import CLAIM_SECONDS, Refiller
from webapp.store.shared import Shared
from webapp.store.store import Store, database_url

EASY = Options("diamond", 3, "easy", "hidato")
SLOW = Options("rectangle", 10, "expert", "hidato")  # a second or more: time to kill it half-way


def _key(options: Options) -> tuple[str, int, str, str]:
    return (options.shape, options.size, options.difficulty, options.adjacency)


def _claims(store: Store) -> list[str]:
    with store.engine.connect() as connection:
        return list(connection.execute(select(ClaimRow.name)).scalars())


@pytest.mark.slow
def test_a_refill_fills_its_slot(tmp_path: Path, databases) -> None:
    url = database_url(databases.url("pool"), str(tmp_path))
    store = Store(url)
    refiller = Refiller(url, str(tmp_path / "instance"))
    try:
        refiller.request(EASY)
        assert refiller.wait(120)
        assert store.pool_counts() == {_key(EASY): 1}
        assert _claims(store) == []  # released
    finally:
        refiller.stop()
        store.close()


@pytest.mark.slow
def test_a_refill_killed_half_way_leaves_no_slot_stuck(tmp_path: Path, databases) -> None:
    url = database_url(databases.url("pool"), str(tmp_path))
    store = Store(url)
    first = Refiller(url, str(tmp_path / "instance"))
    try:
        first.request(SLOW)
        def claimed(claims: list[Any]) -> bool:
            assert first.running_pid is not None, "the refill ended before claiming a slot"
            return bool(claims)

        # until the child has claimed the slot and is generating
        wait_until(lambda: _claims(store), claimed, 60, every=0.01, what="the refill's claim")
        pid = first.running_pid
        assert pid is not None
        os.kill(pid, signal.SIGKILL)
        assert first.wait(30)
        assert store.pool_counts() == {} and len(_claims(store)) == 1  # its claim is left behind
        killed = time.monotonic()
        # Another worker (on any host: the claim names no host it could check) asks for the
        # same slot: it is taken over as soon as the dead owner's lease runs out.
        second = Refiller(url, str(tmp_path / "instance"))
        while not store.pool_counts():
            second.request(SLOW)
            assert second.wait(180)
            assert time.monotonic() - killed < CLAIM_SECONDS + 180
        assert store.pool_counts() == {_key(SLOW): 1}
        assert _claims(store) == []
    finally:
        first.stop()
        store.close()


@pytest.mark.slow
def test_two_refillers_at_once_fill_each_slot_once(tmp_path: Path, databases) -> None:
    url = database_url(databases.url("pool"), str(tmp_path))
    store = Store(url)
    targets = [EASY, Options("rectangle", 4, "easy", "numbrix")]
    refillers = [Refiller(url, str(tmp_path / "instance")) for _ in range(2)]
    try:
        for refiller in refillers:  # as two workers would, each asking for both
            for options in targets:
                refiller.request(options)
        assert all(refiller.wait(180) for refiller in refillers)
        assert store.pool_counts() == {_key(options): 1 for options in targets}
    finally:
        for refiller in refillers:
            refiller.stop()
        store.close()


def test_old_tickets_and_rate_counts_are_cleared_away(tmp_path: Path, databases) -> None:
    store = Store(database_url(databases.url("clean"), str(tmp_path)))
    try:
        shared = Shared(store)
        shared.add_job("old", "generate", {}, 60, keep_seconds=900)
        with store.engine.begin() as connection:
            connection.execute(update(TicketRow).values(created=utcnow() - timedelta(hours=1)))
        shared.add_job("new", "generate", {}, 60, keep_seconds=900)
        assert shared.job("old", "generate") is None and shared.job("new", "generate") is not None
        store.count_hit("198.51.100.1", "solve", window=0)  # a window long past
        assert store.count_hit("198.51.100.1", "solve", window=0) == 2
        fresh = Store(store.url)  # counts are cleared now and then, the first time among them
        try:
            window = int(time.time())
            fresh.count_hit("198.51.100.2", "solve", window)
            with fresh.engine.connect() as connection:
                kept = set(connection.execute(select(RateRow.client)).scalars())
            assert kept == {"198.51.100.2"}
        finally:
            fresh.close()
    finally:
        store.close()
