"""Boards players asked for that the site could not give them at once: neither waiting in
the pool nor made within a page's budget.

A wish is kept in the database (``pool_wishes``), so the pool's filler on **any** host
makes that board next (``pool.pool_targets``), and the board is waiting when the player
comes back.  Few are kept: the newest ``MAX_WISHES`` asked within ``WISH_DAYS``, so a flood
of odd requests cannot fill the database or keep the filler busy for ever (each wish is
one board kept in the pool, like the default ones).

``nearest_ready`` is what the player is offered meanwhile: the boards of the same shape
and variant waiting in the pool now, nearest in size and level first.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from engine import DIFFICULTIES

from ..core.options import VARIANTS, Options
from .models import WishRow
from .shared import now
from .store import Store

MAX_WISHES = 12  # boards wished for at once; the least recently asked goes first
WISH_DAYS = 14  # a wish nobody repeats for this long is forgotten
# How many sizes one level apart is worth, when ranking the boards to offer instead: a
# board two sizes smaller at the level asked beats the asked size a level easier.
LEVEL_WEIGHT = 3


def wish_name(options: Options) -> str:
    return f"{options.shape}:{options.size}:{options.difficulty}:{options.variant}"


def record_wish(store: Store, options: Options, keep: int = MAX_WISHES) -> None:
    """Remember that a player wants this board (again); forget the oldest beyond ``keep``."""
    for _attempt in range(2):  # a second try when another process adds the same wish at once
        try:
            with store._session() as session:
                moment = now(session)
                row = session.get(WishRow, wish_name(options))
                if row is None:
                    session.add(WishRow(name=wish_name(options), shape=options.shape, size=options.size,
                                        difficulty=options.difficulty, variant=options.variant, asked=moment,
                                        asks=1))
                else:
                    row.asked = moment
                    row.asks += 1
                session.flush()
                kept = select(WishRow.name).order_by(WishRow.asked.desc(), WishRow.name).limit(keep)
                session.execute(delete(WishRow).where(
                    (WishRow.name.not_in(kept.scalar_subquery()))
                    | (WishRow.asked < moment - timedelta(days=WISH_DAYS))))
            return
        except IntegrityError:
            continue


def wished(store: Store) -> list[Options]:
    """The boards wished for, the most recently asked first (old wishes are not returned)."""
    with store._reading() as session:
        since = now(session) - timedelta(days=WISH_DAYS)
        rows = session.scalars(select(WishRow).where(WishRow.asked >= since)
                               .order_by(WishRow.asked.desc(), WishRow.name).limit(MAX_WISHES))
        return [Options(row.shape, row.size, row.difficulty, row.variant) for row in rows
                if row.variant in VARIANTS]


def nearest(options: Options, ready: dict[tuple[str, int, str, str], int], most: int = 3) -> list[Options]:
    """The boards in ``ready`` (the pool's counts) of the same shape and variant as
    ``options``, but not ``options`` itself, nearest first: sizes apart plus
    ``LEVEL_WEIGHT`` per level apart; on a tie the smaller, then the easier one (the asked
    one was too slow to make)."""
    level = {name: index for index, name in enumerate(DIFFICULTIES)}
    asked_level = level.get(options.difficulty, 0)
    found = []
    for (shape, size, difficulty, adjacency), count in ready.items():
        if (count <= 0 or shape != options.shape or adjacency != options.adjacency or difficulty not in level
                or (size, difficulty) == (options.size, options.difficulty)):
            continue
        distance = abs(size - options.size) + LEVEL_WEIGHT * abs(level[difficulty] - asked_level)
        found.append((distance, size, level[difficulty], Options(shape, size, difficulty, options.variant)))
    found.sort(key=lambda entry: entry[:3])
    return [entry[3] for entry in found[:most]]


def nearest_ready(store: Store, options: Options, most: int = 3) -> list[Options]:
    """The boards waiting in the pool now that are nearest to ``options`` (see ``nearest``)."""
    return nearest(options, store.pool_counts(), most)
