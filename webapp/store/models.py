"""The database tables (SQLAlchemy models), and nothing else.

Only the store layer imports these; the other layers get plain dataclasses back.  A
change here needs a migration in ``migrations/versions`` (``hidato db upgrade``).
"""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import (
    BigInteger,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class PuzzleRow(Base):
    __tablename__ = "puzzles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # sha256 of the compact id: ids of large boards are too long for some indexes.
    key: Mapped[str] = mapped_column(String(64), unique=True)
    code: Mapped[str] = mapped_column(Text)  # the compact id, engine.puzzle_to_id
    shape: Mapped[str] = mapped_column(String(40))
    size: Mapped[int | None] = mapped_column(Integer)
    adjacency: Mapped[str] = mapped_column(String(8))
    difficulty: Mapped[str | None] = mapped_column(String(16))
    # JSON: {"level", "rating", "length", "uses"}; rows made before ratings: {"level", "techniques"}
    grade: Mapped[str | None] = mapped_column(Text)
    puzzle: Mapped[str] = mapped_column(Text)  # text notation
    solution: Mapped[str] = mapped_column(Text)  # text notation, every cell filled
    seed: Mapped[int | None] = mapped_column(BigInteger)
    created: Mapped[datetime] = mapped_column(DateTime)
    # Waiting in the pool of pre-generated puzzles; cleared when handed to a player.
    pooled: Mapped[bool] = mapped_column(default=False, index=True)
    daily: Mapped[date | None] = mapped_column(Date, unique=True)


class UnplayableRow(Base):
    """A puzzle id found not to be playable (no solution, several, too hard to settle),
    remembered so that asking again costs nothing."""

    __tablename__ = "unplayable"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)  # sha256 of the compact id
    message: Mapped[str] = mapped_column(Text)  # why, as facts (core.messages.kept); older rows: English text
    created: Mapped[datetime] = mapped_column(DateTime)


class ProgressRow(Base):
    __tablename__ = "progress"
    __table_args__ = (UniqueConstraint("player", "puzzle_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player: Mapped[str] = mapped_column(String(64), index=True)  # the browser session
    puzzle_id: Mapped[int] = mapped_column(ForeignKey("puzzles.id"), index=True)
    entries: Mapped[str] = mapped_column(Text, default="[]")  # JSON [[row, col, value], ...]
    # The game's moves are rows of ``moves``, numbered from 1: Undo and Redo walk them
    # between these (core.game.State says how).
    undo_pos: Mapped[int] = mapped_column(Integer, default=0)
    undo_floor: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    redo_top: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    mistakes: Mapped[int] = mapped_column(Integer, default=0)
    elapsed: Mapped[float] = mapped_column(Float, default=0.0)
    clock_started: Mapped[datetime | None] = mapped_column(DateTime)
    paused: Mapped[bool] = mapped_column(default=False)
    last_activity: Mapped[datetime | None] = mapped_column(DateTime)
    started: Mapped[datetime] = mapped_column(DateTime)
    updated: Mapped[datetime] = mapped_column(DateTime)
    solved_at: Mapped[datetime | None] = mapped_column(DateTime)
    revealed: Mapped[bool] = mapped_column(default=False)
    notes: Mapped[str] = mapped_column(Text, default="[]", server_default="[]")  # JSON [[row, col, [k, ...]], ...]
    # Written only by a host still on the release before the moves table (migration 0007)
    # while hosts are upgraded one at a time: the game's moves as one JSON list, and the
    # game before its last Restart.  This release leaves them empty (None); a later
    # migration drops them.
    history: Mapped[str | None] = mapped_column(Text)
    before_restart: Mapped[str | None] = mapped_column(Text)


class MoveRow(Base):
    """One move of a player's game, numbered from 1 in that game: an entry or a clear (the
    cell, its number before and after; 0 is empty), or a Restart (what it cleared).  A move
    is one new row, whatever the game's length; Undo and Redo read one row."""

    __tablename__ = "moves"

    progress_id: Mapped[int] = mapped_column(ForeignKey("progress.id", ondelete="CASCADE"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    cell_row: Mapped[int | None] = mapped_column(Integer)  # an entry's cell, 0-based; None: a Restart
    cell_col: Mapped[int | None] = mapped_column(Integer)
    old_value: Mapped[int | None] = mapped_column(Integer)
    new_value: Mapped[int | None] = mapped_column(Integer)
    # A Restart: JSON {"entries": [[row, col, value], ...], "notes": [[row, col, [k, ...]], ...], "mistakes": n}
    cleared: Mapped[str | None] = mapped_column(Text)


class TicketRow(Base):
    """Slow work (a generated puzzle, a booklet) that any server process can take on and report on."""

    __tablename__ = "tickets"

    ticket: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    request: Mapped[str] = mapped_column(Text)  # JSON: what was asked for
    status: Mapped[str] = mapped_column(String(16), index=True)  # waiting, running, done, refused, failed
    result: Mapped[str | None] = mapped_column(Text)  # the puzzle's id when done, else the message
    created: Mapped[datetime] = mapped_column(DateTime, index=True)
    # Waiting past this, no worker took it on: the person is told so.
    deadline: Mapped[datetime] = mapped_column(DateTime)
    # The process working on it ("host/pid/token"), and until when: a worker that stops
    # renewing its lease (killed, its machine gone) leaves the job to another.
    owner: Mapped[str | None] = mapped_column(String(80))
    lease_until: Mapped[datetime | None] = mapped_column(DateTime)
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    started: Mapped[datetime | None] = mapped_column(DateTime)  # when the current attempt began


class JobFileRow(Base):
    """A file a job made (a booklet's PDF), kept in the database so any host can send it."""

    __tablename__ = "job_files"

    ticket: Mapped[str] = mapped_column(String(32), primary_key=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)
    created: Mapped[datetime] = mapped_column(DateTime, index=True)


class SiteKeyRow(Base):
    """A secret every host shares (the key that signs session cookies), made once."""

    __tablename__ = "site_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime)


class ClaimRow(Base):
    """A named piece of work one process has taken on (e.g. filling one pool slot), held
    by a lease its owner renews while it works."""

    __tablename__ = "claims"

    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    until: Mapped[datetime] = mapped_column(DateTime)  # a claim whose owner died runs out


class RateRow(Base):
    """How often a client used an expensive endpoint in one time window."""

    __tablename__ = "rate_limits"

    client: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    window: Mapped[int] = mapped_column(BigInteger, primary_key=True)  # the window's start, epoch seconds
    hits: Mapped[int] = mapped_column(Integer, default=0)


class WishRow(Base):
    """A board a player asked for that was neither in the pool nor made in time: the pool's
    filler (on any host) makes it next.  Few rows by design (``store.wishes`` keeps the
    newest few and forgets old ones)."""

    __tablename__ = "pool_wishes"

    name: Mapped[str] = mapped_column(String(120), primary_key=True)  # shape:size:difficulty:variant
    shape: Mapped[str] = mapped_column(String(40))
    size: Mapped[int] = mapped_column(Integer)
    difficulty: Mapped[str] = mapped_column(String(16))
    variant: Mapped[str] = mapped_column(String(16))
    asked: Mapped[datetime] = mapped_column(DateTime, index=True)  # the last time someone asked
    asks: Mapped[int] = mapped_column(Integer, default=1)
