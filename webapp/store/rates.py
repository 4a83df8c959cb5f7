"""Hits counted for the per-client rate limits, shared by every server process (on one
host or many) through the database."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError

from .database import Database
from .models import RateRow

# Rate-limit counts older than this are deleted now and then (longer than any window).
RATE_KEEP_SECONDS = 3600


class RateRecords(Database):
    """Rate-limit counts."""

    def __init__(self, url: str, upgrade: bool = True):
        super().__init__(url, upgrade)
        self._hits_counted = 0

    def count_hit(self, client: str, kind: str, window: int) -> int:
        """Count one use of ``kind`` by ``client`` in the window starting at ``window``; the count so far."""
        insert = sqlite_insert if self.is_sqlite else postgresql_insert
        statement = insert(RateRow).values(client=client, kind=kind, window=window, hits=1)
        statement = statement.on_conflict_do_update(
            index_elements=[RateRow.client, RateRow.kind, RateRow.window],
            set_={"hits": RateRow.__table__.c.hits + 1},
        )
        with self._session() as session:
            session.execute(statement)
            hits = session.scalar(select(RateRow.hits).where(
                RateRow.client == client, RateRow.kind == kind, RateRow.window == window))
        self._hits_counted += 1
        if self._hits_counted % 100 == 1:
            self._forget_old_hits(window - RATE_KEEP_SECONDS)
        return int(hits or 0)

    def _forget_old_hits(self, before: int) -> None:
        # Its own transaction, holding no other lock, so it cannot deadlock with a count;
        # best effort: a clash with another process's clean-up is left for the next time.
        try:
            with self._session() as session:
                session.execute(delete(RateRow).where(RateRow.window < before))
        except DBAPIError:
            pass
