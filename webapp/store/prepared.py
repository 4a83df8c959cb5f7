"""Statements a cell entry sends, compiled once per database and sent straight to the
driver's cursor, in a transaction begun and committed on the driver (``DriverTransaction``).

An entry's transaction sends three statements (its progress row read and updated, its move
inserted); going through SQLAlchemy's execution (an execution context, the compiled
statement looked up in its cache by a key built from the statement, events, a result
object) cost more than the statements themselves.  Here each statement is compiled by
SQLAlchemy from the table (``select``, ``update``, ``insert``: the same SQL, ``FOR UPDATE``
where the database has it), once per dialect, and its values go through the columns' own
type processors (SQLite stores a time as text: the same text SQLAlchemy writes and reads),
so what is stored is what the ORM would have stored, and what is read what it would have read.

The transaction (the pool's connection, SQLite's ``BEGIN IMMEDIATE``, the commit) is the
driver's too: SQLAlchemy's ``Connection`` and its transaction's bookkeeping cost as much
as the statements.  Errors come as the driver's (BEGIN's and COMMIT's wrapped as
SQLAlchemy's), and end the transaction the same way.  The engine's
``before_cursor_execute`` and ``after_cursor_execute`` listeners (statement counts,
tracing) are told of each statement as SQLAlchemy would tell them, without an execution
context.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime
from sqlalchemy.engine import Connection, Dialect, Engine
from sqlalchemy.exc import DBAPIError
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

    def execute(self, transaction: DriverTransaction, values: Mapping[str, Any]) -> Any:
        """Send the statement in the transaction, on its driver connection; returns the cursor."""
        cursor = transaction.cursor()
        send(transaction.engine, cursor, self.sql, self.parameters(values))
        return cursor

    def first(self, transaction: DriverTransaction, values: Mapping[str, Any]) -> dict[str, Any] | None:
        """The first row the statement returns, as column name -> value (processed), or None."""
        cursor = self.execute(transaction, values)
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

    def run(self, transaction: DriverTransaction, values: Mapping[str, Any]) -> None:
        """Send a statement that returns nothing (an UPDATE, an INSERT)."""
        self.execute(transaction, values).close()


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


def send(target: Connection | Engine, cursor: Any, sql: str, parameters: Any) -> None:
    """Execute ``sql`` on a driver cursor of ``target``'s transaction (a move's: the engine's).
    The statement listeners (counts, tracing) still hear of it, as from SQLAlchemy's own
    execution, with no execution context (they cannot rewrite it), given ``target``. A
    driver's error comes as the driver's."""
    for listener in target.dispatch.before_cursor_execute:
        listener(target, cursor, sql, parameters, None, False)
    cursor.execute(sql, parameters)
    for listener in target.dispatch.after_cursor_execute:
        listener(target, cursor, sql, parameters, None, False)


def send_wrapped(target: Connection | Engine, cursor: Any, sql: str) -> None:
    """``send`` a statement without parameters (BEGIN), a driver's error wrapped as
    SQLAlchemy wraps it (``sqlalchemy.exc.OperationalError`` for SQLite's "database is
    locked"), which callers catch (``rates.py``: ``DBAPIError``)."""
    dbapi = target.dialect.loaded_dbapi
    try:
        send(target, cursor, sql, ())
    except dbapi.Error as err:
        raise DBAPIError.instance(sql, (), err, dbapi.Error, dialect=target.dialect) from err


class DriverTransaction:
    """A move's transaction on a pooled driver connection, begun and ended on the driver.

    Through SQLAlchemy's ``Connection`` (``engine.begin()``: the connection's object, its
    joined events, the transaction's object, the commit's and the check-in's bookkeeping)
    the transaction cost as much as its three statements; here it is the pool's check-out,
    the driver's ``BEGIN IMMEDIATE`` (SQLite; sent as SQLAlchemy sends it, the statement
    listeners told, an error wrapped as SQLAlchemy's) and the driver's ``commit()``, which is
    what SQLAlchemy's commit calls: durability is the same (README, "Durability").  The
    statements a move seldom sends (a first move's INSERT, Undo's reads, the DELETEs) go
    through ``connection``: SQLAlchemy's ``Connection`` on the same driver connection, in
    the same transaction, made when first asked for and then committed or rolled back with it.
    The connection goes back to the pool either way (which rolls back whatever was left)."""

    def __init__(self, engine: Engine, begin: str | None):
        self.engine = engine
        self.dialect = engine.dialect
        self._pooled = engine.raw_connection()
        self._driver: Any = self._pooled.driver_connection
        self._connection: Connection | None = None
        if begin is not None:
            cursor = self._pooled.cursor()
            try:
                send_wrapped(engine, cursor, begin)
            except BaseException:
                self._pooled.close()
                raise
            finally:
                cursor.close()

    def cursor(self) -> Any:
        """A new cursor of the driver connection."""
        return self._pooled.cursor()

    @property
    def connection(self) -> Connection:
        """SQLAlchemy's ``Connection`` on this transaction's driver connection."""
        if self._connection is None:
            connection = Connection(self.engine, connection=self._pooled)
            # SQLAlchemy's own transaction over the driver's, already begun (the engine's
            # BEGIN listener sends nothing then: ``database._lock_on_begin``).
            connection.begin()
            self._connection = connection
        return self._connection

    def commit(self) -> None:
        """Commit (before any answer is sent) and give the connection back; on an error,
        roll back and give it back, then raise (wrapped as SQLAlchemy wraps it)."""
        if self._connection is not None:
            try:
                self._connection.commit()
            finally:
                self._connection.close()
            return
        dbapi = self.dialect.loaded_dbapi
        try:
            self._driver.commit()
        except dbapi.Error as err:
            self.rollback()
            raise DBAPIError.instance("COMMIT", (), err, dbapi.Error, dialect=self.dialect) from err
        self._pooled.close()

    def rollback(self) -> None:
        """Roll back and give the connection back (a connection the driver says is lost is
        not given back: the pool makes a new one)."""
        if self._connection is not None:
            self._connection.close()  # rolls SQLAlchemy's transaction back, gives the connection back
            return
        try:
            self._driver.rollback()
        except self.dialect.loaded_dbapi.Error as err:
            if self.dialect.is_disconnect(err, self._driver, None):
                self._pooled.invalidate(err)
        finally:
            self._pooled.close()


class PreparedSet:
    """Statements prepared on first use for each dialect they are sent to."""

    def __init__(self, build: Callable[[Dialect], Prepared]):
        self._build = build
        self._prepared: dict[str, Prepared] = {}

    def on(self, transaction: DriverTransaction) -> Prepared:
        dialect = transaction.dialect
        key = f"{dialect.name}+{dialect.driver}"
        found = self._prepared.get(key)
        if found is None:
            found = self._prepared[key] = self._build(dialect)
        return found
