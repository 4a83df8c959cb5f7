"""Statements a cell entry sends, compiled once per database and sent straight to the
driver's cursor, inside the SQLAlchemy transaction that saves the game.

An entry's transaction sends three statements (its progress row read and updated, its move
inserted); going through SQLAlchemy's execution (an execution context, the compiled
statement looked up in its cache by a key built from the statement, events, a result
object) cost more than the statements themselves.  Here each statement is compiled by
SQLAlchemy from the table (``select``, ``update``, ``insert``: the same SQL, ``FOR UPDATE``
where the database has it), once per dialect, and its values go through the columns' own
type processors (SQLite stores a time as text: the same text SQLAlchemy writes and reads),
so what is stored is what the ORM would have stored, and what is read what it would have read.

The transaction itself (the pool, ``BEGIN IMMEDIATE``, commit or rollback) stays
SQLAlchemy's; errors come as the driver's, and end the transaction the same way.  The
engine's ``before_cursor_execute`` and ``after_cursor_execute`` listeners (statement
counts, tracing) are told of each statement as SQLAlchemy would tell them, without an
execution context.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

Processor = Callable[[Any], Any] | None


class Prepared:
    """One statement compiled for one dialect: its SQL, the order of its parameters (for
    drivers that take them by position), and the type processors of its values and of the
    columns it returns."""

    def __init__(self, statement: ClauseElement, dialect: Dialect, column_keys: Sequence[str] | None = None):
        compiled = statement.compile(dialect=dialect, column_keys=list(column_keys) if column_keys else None)
        assert isinstance(compiled, SQLCompiler)  # a select, update or insert
        self.sql = compiled.string
        self._positions: tuple[str, ...] | None = (tuple(compiled.positiontup)
                                                   if compiled.positiontup is not None else None)
        # Each value by its parameter's name (a column's, or the bindparam's), with the type
        # SQLAlchemy gave it (the column's, for a column compared or set).
        binds: dict[str, Processor] = {
            name: _quicker(bind.type, bind.type.dialect_impl(dialect).bind_processor(dialect))
            for name, bind in compiled.binds.items()}
        # The values in the order the driver takes them (by position, or the names' order),
        # and which of them go through a processor (most do not).
        self._names: tuple[str, ...] = self._positions if self._positions is not None else tuple(binds)
        self._processed: tuple[tuple[int, Callable[[Any], Any]], ...] = tuple(
            (at, processor) for at, name in enumerate(self._names) if (processor := binds[name]) is not None)
        returned = getattr(statement, "selected_columns", None)
        self._returned = list(returned) if returned is not None else []
        self.names: tuple[str, ...] = tuple(c.key for c in self._returned)
        self._dialect = dialect
        # Made from the first cursor's description: some drivers' processors depend on the
        # type the database says it sent (as SQLAlchemy's own results do).
        self._results: tuple[Processor, ...] | None = None

    def parameters(self, values: Mapping[str, Any]) -> Any:
        """The values as the driver takes them (a tuple in order, or a dict), processed."""
        ordered = [values[name] for name in self._names]
        for at, processor in self._processed:
            value = ordered[at]
            if value is not None:
                ordered[at] = processor(value)
        if self._positions is not None:
            return tuple(ordered)
        return dict(zip(self._names, ordered, strict=True))

    def execute(self, connection: Connection, values: Mapping[str, Any]) -> Any:
        """Send the statement on the transaction's own driver connection; returns the cursor."""
        cursor = connection.connection.cursor()
        send(connection, cursor, self.sql, self.parameters(values))
        return cursor

    def first(self, connection: Connection, values: Mapping[str, Any]) -> dict[str, Any] | None:
        """The first row the statement returns, as column name -> value (processed), or None."""
        cursor = self.execute(connection, values)
        try:
            found = cursor.fetchone()
            if self._results is None:
                self._results = tuple(
                    column.type.dialect_impl(self._dialect).result_processor(self._dialect, described[1])
                    for column, described in zip(self._returned, cursor.description, strict=True))
        finally:
            cursor.close()
        if found is None:
            return None
        return {name: (process(value) if process is not None and value is not None else value)
                for name, process, value in zip(self.names, self._results, found, strict=True)}

    def run(self, connection: Connection, values: Mapping[str, Any]) -> None:
        """Send a statement that returns nothing (an UPDATE, an INSERT)."""
        self.execute(connection, values).close()


def _quicker(kind: Any, processor: Processor) -> Processor:
    """The dialect's bind processor, or for a datetime stored as text (SQLite's) one that
    writes the same text in C: the dialect formats each time with a dict of its seven
    fields, about a microsecond and a half each, five times an entry.  Used only when it
    gives the dialect's text on probes (whole seconds, microseconds, a year under 1000),
    so a dialect that stores times otherwise keeps its own."""
    if processor is None or not isinstance(kind, DateTime):
        return processor
    probes = (datetime(2026, 11, 26, 21, 5, 3), datetime(2026, 1, 2, 3, 4, 5, 60), datetime(987, 6, 5, 4, 3, 2, 1))
    try:
        if any(processor(probe) != probe.isoformat(" ", "microseconds") for probe in probes):
            return processor
    except Exception:  # noqa: BLE001 - a processor that takes no datetimes keeps its own way
        return processor
    fallback = processor

    def text(value: Any) -> Any:
        if value.__class__ is datetime and value.tzinfo is None:
            return value.isoformat(" ", "microseconds")
        return fallback(value)

    return text


def send(connection: Connection, cursor: Any, sql: str, parameters: Any) -> None:
    """Execute ``sql`` on a driver cursor of ``connection``'s transaction. The engine's
    statement listeners (counts, tracing) still hear of it, as from SQLAlchemy's own
    execution, with no execution context (they cannot rewrite it). A driver's error comes
    as the driver's."""
    for listener in connection.dispatch.before_cursor_execute:
        listener(connection, cursor, sql, parameters, None, False)
    cursor.execute(sql, parameters)
    for listener in connection.dispatch.after_cursor_execute:
        listener(connection, cursor, sql, parameters, None, False)


class PreparedSet:
    """Statements prepared on first use for each dialect they are sent to."""

    def __init__(self, build: Callable[[Dialect], Prepared]):
        self._build = build
        self._prepared: dict[str, Prepared] = {}

    def on(self, connection: Connection) -> Prepared:
        dialect = connection.dialect
        key = f"{dialect.name}+{dialect.driver}"
        found = self._prepared.get(key)
        if found is None:
            found = self._prepared[key] = self._build(dialect)
        return found
