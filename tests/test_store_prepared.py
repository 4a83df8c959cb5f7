"""webapp/store/prepared.py: an entry's statements, compiled once and sent to the driver, send
the values SQLAlchemy's own execution would send (the same text for a time on SQLite), in the
order the driver takes them, on SQLite and PostgreSQL's dialects."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import DateTime
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect

from webapp.store.prepared import Prepared, _quicker
from webapp.store.progress import _SAVE_GAME
from webapp.store.progress_codec import ROW_COLUMNS

DIALECTS: list[Dialect] = [sqlite.dialect(), postgresql.dialect(driver="psycopg")]
naive = st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31))


@settings(max_examples=300)
@given(naive, st.sampled_from([None, UTC, timezone(timedelta(hours=-5))]))
def test_a_time_is_written_as_the_dialect_writes_it(moment: datetime, zone: timezone | None) -> None:
    """SQLite keeps times as text: the quicker writer (``isoformat`` in C) writes, for any
    time, the text SQLAlchemy's SQLite dialect writes (a time with a zone: the dialect's own
    writer, which drops the zone)."""
    own = DateTime().dialect_impl(sqlite.dialect()).bind_processor(sqlite.dialect())
    assert own is not None
    quick = _quicker(DateTime(), own)
    assert quick is not None and quick is not own
    value = moment.replace(tzinfo=zone)
    assert quick(value) == own(value)


def test_a_dialect_with_no_time_writer_keeps_none() -> None:
    """PostgreSQL's driver takes datetimes as they are: nothing is put in its way."""
    dialect = postgresql.dialect(driver="psycopg")
    assert _quicker(DateTime(), DateTime().dialect_impl(dialect).bind_processor(dialect)) is None


@settings(max_examples=50)
@given(naive, st.one_of(st.none(), naive), st.booleans(), st.floats(0, 1e6))
def test_the_update_of_a_game_sends_what_sqlalchemy_would(moment: datetime, solved: datetime | None, paused: bool,
                                                          elapsed: float) -> None:
    """The progress row's UPDATE: each value through its column's processor (the dialect's,
    the time's quicker one giving the same text), in the order of the statement's
    parameters, by position (SQLite) or by name (PostgreSQL)."""
    values = {"row_id": 7, "entries": "[[0, 1, 5]]", "undo_pos": 3, "undo_floor": 0, "redo_top": 4, "mistakes": 1,
              "elapsed": elapsed, "clock_started": moment, "paused": paused, "last_activity": moment,
              "started": moment, "solved_at": solved, "revealed": False, "notes": "[]", "updated": moment,
              "history": None, "before_restart": None}
    for dialect in DIALECTS:
        prepared = Prepared(_SAVE_GAME, dialect, ROW_COLUMNS)
        compiled = _SAVE_GAME.compile(dialect=dialect, column_keys=list(ROW_COLUMNS))
        expected = {}
        for name, bind in compiled.binds.items():
            process = bind.type.dialect_impl(dialect).bind_processor(dialect)
            value = values[name]
            expected[name] = process(value) if process is not None and value is not None else value
        sent = prepared.parameters(values)
        if compiled.positiontup is not None:
            assert sent == tuple(expected[name] for name in compiled.positiontup)
        else:
            assert sent == expected
