"""The game store: sqlmodel tables and the only code in Keywood that speaks SQL.

SQLite by default (WAL, foreign keys on, every transaction BEGIN IMMEDIATE so commands on one file are
serialised). PostgreSQL (`postgresql+psycopg://...`) gives the same guarantee per game, channel, server and user
instead of per file: the game row is read FOR UPDATE (so two commands on one game run one after the other, the
second seeing what the first committed; a prompt or queued message is read after its game's or its own row lock),
and what may not exist yet is guarded by a transaction-scoped advisory lock taken before it is read: a channel
(two `new` in one channel open one table), a server's settings, a user's DM record. Times are stored as UTC wall
times in columns without a time zone on both, as the migrations create them, and read back as aware UTC datetimes.
"""

from __future__ import annotations

import functools
import logging
import re
import sqlite3
import threading
import weakref
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

import orjson
from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Dialect,
    Engine,
    Index,
    Integer,
    LargeBinary,
    UniqueConstraint,
    event,
    text,
)
from sqlalchemy import select as sa_select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import configure_mappers
from sqlalchemy.orm.attributes import manager_of_class
from sqlalchemy.pool import QueuePool, StaticPool
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, Session, SQLModel, col, create_engine, delete, func, select, update

DEFAULT_URL = "sqlite:///keywood.db"
LIVE = ("lobby", "active")
# PostgreSQL advisory locks (two-key form): the first key says what is locked ("KW" and a number), the second is a
# hash of its name.
CHANNEL_LOCK, SETTINGS_LOCK, RECIPIENT_LOCK, LEASE_LOCK = 0x4B570001, 0x4B570002, 0x4B570003, 0x4B570004


def now() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A time read back from the database as UTC-aware (SQLite returns the naive UTC time it stored)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def sqlite_time_text(moment: datetime | None) -> str | None:
    """A time as SQLite stores it (SQLAlchemy's text for a DATETIME: UTC, 'YYYY-MM-DD HH:MM:SS.ffffff'); a naive time
    is taken as UTC."""
    return None if moment is None else _utc_text(moment)


@functools.lru_cache(maxsize=64)
def _utc_text(moment: datetime) -> str:
    """sqlite_time_text of a time, kept for the times written again and again (a transaction stamps its rows with one
    moment, Tx.now; deadlines repeat). Equal times give the same text: a naive one never equals an aware one."""
    naive = moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo is not None else moment
    return naive.isoformat(" ", "microseconds")


def sqlite_time(text: str | None) -> datetime | None:
    """A time SQLite stored (sqlite_time_text, or SQLAlchemy's own) as aware UTC."""
    return None if text is None else _utc_time(text)


@functools.lru_cache(maxsize=256)
def _utc_time(text: str) -> datetime:
    """sqlite_time of a text, kept for the times read again and again (an open decision's, at every command of its
    game; datetimes never change, so one may be shared)."""
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


BIG = BigInteger().with_variant(Integer(), "sqlite")  # SQLite's INTEGER holds 64 bits already


def guild_key(guild_id: str) -> int:
    """The part of a Discord server id that decides its shard (shard = key % shard count); 0 for a DM or a
    terminal table, which Discord's shard 0 carries."""
    return int(guild_id) >> 22 if guild_id.isdigit() else 0


@dataclass(frozen=True)
class ShardSet:
    """Some of Discord's shards: the servers whose deadlines and messages one process looks after."""

    ids: frozenset[int]
    count: int

    def covers(self, guild_id: str) -> bool:
        """Whether a server (its id as stored) is on one of these shards."""
        return guild_key(guild_id) % self.count in self.ids


class UTCTime(TypeDecorator[datetime]):
    """A moment stored as its UTC wall time in a column without time zone (SQLite DATETIME, PostgreSQL TIMESTAMP, as
    the migrations create them) and read back as an aware UTC datetime; a naive time given is taken as UTC."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """An aware time as naive UTC (so no database converts it by its session's time zone)."""
        return None if value is None else aware(value).astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """The stored wall time as aware UTC (an aware value, from a column with a time zone, converted to UTC)."""
        return None if value is None else aware(value).astimezone(UTC)


class GameRow(SQLModel, table=True):
    """A game at a table: where it is played, which game, its seed, options, status and state version."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_where", "guild_id", "channel_id", "status"),)
    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(index=True)
    channel_id: str = Field(index=True)
    game: str
    options: str = "{}"
    seed: int = Field(sa_type=BIG)  # signed 64 bits, secret until the game ends (bot.table.draw_seed)
    status: str = Field(default="lobby", index=True)
    version: int = 0
    host_id: str
    created_at: datetime = Field(default_factory=now, sa_type=UTCTime)
    updated_at: datetime = Field(default_factory=now, sa_type=UTCTime)


class SeatRow(SQLModel, table=True):
    """A player's seat (clockwise order) in a game."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"), UniqueConstraint("game_id", "user_id"))
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    seat: int
    user_id: str
    name: str


class ActionRow(SQLModel, table=True):
    """One accepted action: the log is the truth, replayed from the seed it reproduces the state."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)  # its index also serves lookups by game alone
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id")
    seq: int
    seat: int
    author_id: str
    notation: str
    summary: str = ""
    version: int
    undone: bool = False
    at: datetime = Field(default_factory=now, sa_type=UTCTime)


class SnapshotRow(SQLModel, table=True):
    """The current state of a game as JSON (a cache of the log)."""

    __tablename__ = "snapshots"
    game_id: int = Field(foreign_key="games.id", primary_key=True)
    version: int
    state: str


OPEN = "status = 'open'"  # the prompts indexed by deadline (ix_prompts_open_deadline): only open ones fall due


class PromptRow(SQLModel, table=True):
    """An open decision of a seat (a turn, a simultaneous choice or a reaction) with its deadline.

    A seat, not a user, owns it: when the seat changes hands the decision follows. key is the engine's name for
    the decision; answer is an answer kept before the seat's turn to answer came.
    """

    __tablename__ = "prompts"
    __table_args__ = (
        Index("ix_prompts_game_status", "game_id", "status"),  # also serves lookups by game alone
        Index("ix_prompts_open_deadline", "deadline", sqlite_where=text(OPEN), postgresql_where=text(OPEN)),
    )
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id")
    kind: str
    seat: int | None = None
    key: str = Field(default="", sa_column_kwargs={"server_default": ""})
    deadline: datetime = Field(sa_type=UTCTime)
    payload: str = "{}"
    status: str = "open"
    answer: str | None = None
    created_at: datetime = Field(default_factory=now, sa_type=UTCTime)


@dataclass(slots=True, kw_only=True)
class GameRecord:
    """A game's row (GameRow's columns) as the command path reads and writes it: a plain object, so that reading a
    field or setting one costs what a plain attribute does, not the ORM's bookkeeping."""

    id: int | None = None
    guild_id: str
    channel_id: str
    game: str
    options: str = "{}"
    seed: int
    status: str = "lobby"
    version: int = 0
    host_id: str
    created_at: datetime = field(default_factory=now)
    updated_at: datetime = field(default_factory=now)


@dataclass(slots=True, kw_only=True)
class SeatRecord:
    """A seat's row (SeatRow's columns) as the command path reads and writes it."""

    id: int | None = None
    game_id: int
    seat: int
    user_id: str
    name: str


@dataclass(slots=True, kw_only=True)
class PromptRecord:
    """A prompt's row (PromptRow's columns) as the command path reads and writes it."""

    id: int | None = None
    game_id: int
    kind: str
    seat: int | None = None
    key: str = ""
    deadline: datetime
    payload: str = "{}"
    status: str = "open"
    answer: str | None = None
    created_at: datetime = field(default_factory=now)


NOTICES = "kind = 'notice'"  # the outbox rows indexed by game (ix_outbox_game_notices)


class OutboxRow(SQLModel, table=True):
    """A message an accepted command must send, written in its transaction and delivered later, once.

    recipient is a user id for a private message, None for the game's channel; payload is JSON.
    """

    __tablename__ = "outbox"
    __table_args__ = (
        Index("ix_outbox_status_next", "status", "next_attempt_at"),
        # Only notices are looked up by game (Tx.outbox_kinds); every other message skips this index.
        Index("ix_outbox_game_notices", "game_id", sqlite_where=text(NOTICES), postgresql_where=text(NOTICES)),
    )
    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="games.id")
    guild_id: str
    shard_key: int = Field(default=0, sa_type=BIG, sa_column_kwargs={"server_default": "0"})  # guild_key(guild_id)
    channel_id: str
    recipient: str | None = None
    kind: str
    payload: str = "{}"
    image: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    status: str = "pending"
    attempts: int = 0
    next_attempt_at: datetime = Field(default_factory=now, sa_type=UTCTime)
    last_error: str = ""
    created_at: datetime = Field(default_factory=now, sa_type=UTCTime)
    sent_at: datetime | None = Field(default=None, sa_type=UTCTime)


class LeaseRow(SQLModel, table=True):
    """Which process looks after a shard's deadlines and messages, until when (see bot/shards.py).

    borrowed: held by a process that took the shard over from one that stopped renewing; waiting: the process that
    owns the shard by its configuration and wants it back from the borrower.
    """

    __tablename__ = "leases"
    shard: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    count: int
    holder: str
    borrowed: bool = False
    waiting: str | None = None
    expires_at: datetime = Field(sa_type=UTCTime)


class RecipientRow(SQLModel, table=True):
    """What Keywood knows of a user's DMs: when they were found closed, and when the user was told how to open them."""

    __tablename__ = "recipients"
    user_id: str = Field(primary_key=True)
    dms_closed_at: datetime | None = Field(default=None, sa_type=UTCTime)
    told_at: datetime | None = Field(default=None, sa_type=UTCTime)


class GuildSettingsRow(SQLModel, table=True):
    """A server's defaults for new games."""

    __tablename__ = "guild_settings"
    guild_id: str = Field(primary_key=True)
    decision_minutes: int = 720
    reminder_hours: int = 24


def make_engine(url: str = DEFAULT_URL) -> Engine:
    """Create the database engine and bring its schema up to date (raises migrate.SchemaTooNew for a newer one)."""
    engine = connect(url)
    from bot import migrate

    migrate.upgrade(engine, url, SQLModel.metadata.create_all)
    return engine


def connect(url: str) -> Engine:
    """The engine of a database URL, set up as the store uses it, without touching the schema.

    SQLite gets WAL, foreign keys and immediate transactions; PostgreSQL sessions work in UTC.
    """
    if not url.startswith("sqlite"):
        engine = create_engine(url)
        if engine.dialect.name == "postgresql":
            event.listen(engine, "connect", _postgres_connect)
        return engine
    memory = ":memory:" in url or url in ("sqlite://", "sqlite:///")
    # One shared connection keeps an in-memory database alive; a file keeps a small pool of open connections
    # (opening one per command costs its PRAGMAs and a WAL checkpoint each time).
    pool = StaticPool if memory else QueuePool
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 60}, poolclass=pool)
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    """Let SQLAlchemy, not the driver, begin transactions; switch on WAL and foreign keys."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    # A new file gets 2 KiB pages (an existing one keeps its own): a command's COMMIT writes about 15 pages to the
    # write-ahead log, most of them a small change each, and smaller pages cost less to log (docs/benchmarks.md).
    cursor.execute(f"PRAGMA page_size={PAGE_SIZE}")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=60000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    # The Checkpointer copies the log into the file; a COMMIT does it itself only if that falls far behind.
    cursor.execute(f"PRAGMA wal_autocheckpoint={BACKSTOP_PAGES}")
    cursor.close()


log = logging.getLogger("keywood.store")
PAGE_SIZE = 2048  # bytes, for new SQLite files
IDLE_CONNECTIONS = 4  # SQLite connections a Store keeps out of the pool between transactions (Store._idle)
BACKSTOP_PAGES = 25_000  # about 100 MB of write-ahead log
CHECKPOINT_SECONDS = 0.2


class Checkpointer:
    """Copies a SQLite file's write-ahead log into the database, in a thread of its own, a few times a second.

    SQLite otherwise does it inside the COMMIT that takes the log past 1,000 pages, and waits for the disk there: a
    command in every hundred or so took several milliseconds longer, and the mean command doubled. Here no command
    waits for it (a PASSIVE checkpoint lets readers and writers go on). The thread stops with close(), or when the
    store that started it is gone.
    """

    def __init__(self, path: str, seconds: float = CHECKPOINT_SECONDS) -> None:
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(path, seconds, self._stop),
                                        name="keywood-checkpoint", daemon=True)

    def start(self, owner: object) -> Checkpointer:
        """Start the thread; it stops when owner is garbage-collected, if close() was not called first."""
        weakref.finalize(owner, self._stop.set)
        self._thread.start()
        return self

    @staticmethod
    def _run(path: str, seconds: float, stop: threading.Event) -> None:
        """Checkpoint every `seconds` until stopped (holding no reference to the store, so that it can go)."""
        connection = sqlite3.connect(path, timeout=60, isolation_level=None, check_same_thread=False)
        try:
            while not stop.wait(seconds):
                try:
                    connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error as exc:  # a busy or vanished file: commits still checkpoint at the backstop
                    log.warning("checkpoint of %s failed: %s", path, exc)
        finally:
            connection.close()

    def close(self) -> None:
        """Stop the thread and wait for it."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    @property
    def running(self) -> bool:
        """Whether the thread is alive."""
        return self._thread.is_alive()


def _postgres_connect(dbapi_connection: Any, _record: Any) -> None:
    """Set the session's time zone to UTC (a column with a time zone, in a database made by an older Keywood, is
    then read and compared in UTC too)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("SET TIME ZONE 'UTC'")
    cursor.close()
    dbapi_connection.commit()


def _sqlite_begin(conn: Any) -> None:
    """Take the write lock at the start of every transaction, so read-then-write never deadlocks (a Connection that
    joins a transaction the store began through the driver leaves it be)."""
    dbapi = conn.connection.driver_connection
    if not dbapi.in_transaction:
        _begin_immediate(dbapi)


def _begin_immediate(dbapi: sqlite3.Connection) -> None:
    """BEGIN IMMEDIATE through the driver itself (SQLAlchemy's statement machinery cost more than the BEGIN); a
    failure is raised as SQLAlchemy would have raised it."""
    try:
        dbapi.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        raise DBAPIError.instance("BEGIN IMMEDIATE", None, exc, sqlite3.Error) from exc


class StaleVersion(Exception):
    """A game's stored version is no longer the one this transaction read: another command changed the game."""


M = TypeVar("M", bound=SQLModel)
R = TypeVar("R")


def _columns(table: str) -> tuple[str, ...]:
    """A table's column names, in the schema's order."""
    return tuple(column.name for column in SQLModel.metadata.tables[table].columns)


GAME_COLUMNS, SEAT_COLUMNS, PROMPT_COLUMNS, OUTBOX_COLUMNS, ACTION_COLUMNS = (
    _columns("games"), _columns("seats"), _columns("prompts"), _columns("outbox"), _columns("actions"))
_LIVE = "status IN ('lobby', 'active')"


def _listed(columns: Sequence[str], alias: str = "") -> str:
    """Columns as a SELECT lists them ("key" quoted: a keyword in some dialects)."""
    return ", ".join(f'{alias}"{name}"' if name == "key" else f"{alias}{name}" for name in columns)


SEAT_FIELDS = ("id", "seat", "user_id", "name")  # a seat as the game's read lists it (its game is the game)
PROMPT_FIELDS = PROMPT_COLUMNS


def _game_query(where: str) -> str:
    """A game's row with, in two more columns, its seats and its open prompts as JSON arrays of arrays ({array} and
    {rows} stand for the dialect's JSON functions: SQLite json_array and json_group_array, PostgreSQL
    json_build_array and json_agg)."""
    seats = f"{{rows}}({{array}}({_listed(SEAT_FIELDS)})) FROM seats WHERE game_id = g.id"
    prompts = f"{{rows}}({{array}}({_listed(PROMPT_FIELDS)})) FROM prompts WHERE game_id = g.id AND status = 'open'"
    return f"SELECT {_listed(GAME_COLUMNS, 'g.')}, (SELECT {seats}), (SELECT {prompts}) FROM games g WHERE {where}"


def _insert(table: str, columns: Sequence[str], rows: int = 1) -> str:
    """An INSERT of `rows` rows (parameters named column_0, column_1, ...) that returns their ids."""
    values = ", ".join("(" + ", ".join(f":{name}_{i}" for name in columns) + ")" for i in range(rows))
    return f"INSERT INTO {table} ({_listed(columns)}) VALUES {values} RETURNING id"


_SAVE_GAME = ("UPDATE games SET status = :status, options = :options, host_id = :host_id, updated_at = :updated_at, "
              "version = CASE WHEN version = :expected THEN :version END WHERE id = :id")
# A play changes only the version and the time: SQLite rewrites the entries of every index on a column an UPDATE
# sets, changed or not (here status's two), so that write leaves the other columns out.
_BUMP_GAME = ("UPDATE games SET updated_at = :updated_at, version = CASE WHEN version = :expected THEN :version END "
              "WHERE id = :id")
_WITH_SNAPSHOT = ("WITH snapshot AS (INSERT INTO snapshots (game_id, version, state) VALUES (:id, :snapshot_version, "
                  ":state) ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state) ")


def _save_prompt(deadline: bool, status: bool) -> str:
    """The name of the statement writing a prompt row back with its deadline and its status only if these changed."""
    return "save_prompt" + "_deadline" * deadline + "_status" * status


def _save_prompt_sql(deadline: bool, status: bool) -> str:
    """That statement: SQLite rewrites the entries of every index on a column an UPDATE sets, changed or not
    (deadline: one index; status: two)."""
    sets = ['seat = :seat', '"key" = :key', "payload = :payload", "answer = :answer"]
    sets += ["deadline = :deadline"] * deadline + ["status = :status"] * status
    return f"UPDATE prompts SET {', '.join(sets)} WHERE id = :id"


# The command path's statements, written once with :name parameters (translated for drivers that want %(name)s).
SQL = {
    "live_game": _game_query(f"g.guild_id = :guild AND g.channel_id = :channel AND g.{_LIVE}"),
    "game": _game_query("g.id = :id"),
    "latest_game": _game_query("g.id = (SELECT max(id) FROM games WHERE guild_id = :guild AND channel_id = :channel "
                               "AND status = :status)"),
    "games": f"SELECT {_listed(GAME_COLUMNS)} FROM games ORDER BY id",
    "games_with": f"SELECT {_listed(GAME_COLUMNS)} FROM games WHERE status = :status ORDER BY id",
    # PostgreSQL: locks taken in statements of their own before a game is read, so that the read's snapshot comes
    # after every transaction that held them has committed (a lock waited for inside the read would not be).
    "lock_channel": "SELECT pg_advisory_xact_lock(:space, hashtext(:name))",
    "lock_live_game": f"SELECT id FROM games WHERE guild_id = :guild AND channel_id = :channel AND {_LIVE} FOR UPDATE",
    "lock_game": "SELECT id FROM games WHERE id = :id FOR UPDATE",
    "lock_prompt_game": "SELECT id FROM games WHERE id = (SELECT game_id FROM prompts WHERE id = :id) FOR UPDATE",
    "add_game": _insert("games", GAME_COLUMNS[1:]),
    # A game row whose stored version is no longer the one read gets no version: the schema refuses that (NOT NULL),
    # so the transaction fails there, before its COMMIT, even when the COMMIT is sent with it (StaleVersion).
    "save_game": _SAVE_GAME,
    "bump_game": _BUMP_GAME,
    # PostgreSQL: the snapshot and the game row in one statement.
    "save_game_state": _WITH_SNAPSHOT + _SAVE_GAME,
    "bump_game_state": _WITH_SNAPSHOT + _BUMP_GAME,
    "seats": f"SELECT {_listed(SEAT_COLUMNS)} FROM seats WHERE game_id = :game ORDER BY seat",
    "add_seat": _insert("seats", SEAT_COLUMNS[1:]),
    "save_seat": "UPDATE seats SET seat = :seat, user_id = :user_id, name = :name WHERE id = :id",
    "drop_seat": "DELETE FROM seats WHERE game_id = :game AND user_id = :user_id",
    # One statement appends a log row numbered after the game's last: the max(seq) read and the insert together.
    "append_action": ("INSERT INTO actions (game_id, seq, seat, author_id, notation, summary, version, undone, at) "
                      "SELECT :game, coalesce(max(seq), 0) + 1, :seat, :author, :notation, :summary, :version, "
                      ":undone, :at FROM actions WHERE game_id = :game"),
    "last_seq": "SELECT max(seq) FROM actions WHERE game_id = :game",
    # The newest `limit` live actions after a seat's own last live one (not counting those by the authors left
    # out), with how many there are in all and that seat action's seq (0: none); walks the log's (game_id, seq)
    # index from its end, never the whole log.
    "actions_since": (
        "WITH mine AS (SELECT coalesce((SELECT seq FROM actions WHERE game_id = :game AND seat = :seat AND NOT undone "
        "AND author_id NOT IN (:not_a, :not_b) ORDER BY seq DESC LIMIT 1), 0) AS seq) "
        f"SELECT {_listed(ACTION_COLUMNS, 'a.')}, (SELECT count(*) FROM actions WHERE game_id = :game AND NOT undone "
        "AND seq > mine.seq), mine.seq FROM actions a, mine WHERE a.game_id = :game AND NOT a.undone "
        "AND a.seq > mine.seq ORDER BY a.seq DESC LIMIT :limit"),
    "snapshot": "SELECT state FROM snapshots WHERE game_id = :game",
    "save_snapshot": ("INSERT INTO snapshots (game_id, version, state) VALUES (:game, :version, :state) "
                      "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state"),
    "open_prompts": (f"SELECT {_listed(PROMPT_COLUMNS)} FROM prompts WHERE game_id = :game AND status = 'open' "
                     "ORDER BY id"),
    "open_prompts_of": (f"SELECT {_listed(PROMPT_COLUMNS)} FROM prompts WHERE game_id = :game AND status = 'open' "
                        "AND kind = :kind ORDER BY id"),
    "prompt": f"SELECT {_listed(PROMPT_COLUMNS)} FROM prompts WHERE id = :id",
    "add_prompt": _insert("prompts", PROMPT_COLUMNS[1:]),
    # A prompt row written back, setting of its indexed columns only those that changed (see Tx._prompt_write).
    **{_save_prompt(deadline, status): _save_prompt_sql(deadline, status)
       for deadline in (True, False) for status in (True, False)},
    # The partial index's condition as written, in a subquery: as a join, SQLite's planner scanned another index.
    "due_games": (f"SELECT g.id, g.guild_id FROM games g WHERE g.id IN (SELECT game_id FROM prompts WHERE {OPEN} "
                  "AND deadline <= :moment)"),
}
_TIMES = {"created_at", "updated_at", "deadline", "next_attempt_at", "sent_at", "at"}
_SQLITE_JSON = {"array": "json_array", "rows": "json_group_array"}
_POSTGRES_JSON = {"array": "json_build_array", "rows": "json_agg"}


class Driver:
    """One database driver as the command path speaks to it: the statements in its parameter style, its conversion
    of times (SQLAlchemy's own, as the columns' type does it), and how it runs several statements at once."""

    def __init__(self, dialect: Dialect) -> None:
        configure_mappers()  # rows are made without a session (made), which needs the mapped classes ready
        self.sqlite = dialect.name == "sqlite"
        self.named = dialect.paramstyle in ("named", "qmark")  # sqlite3 takes :name whatever its default style
        functions = _SQLITE_JSON if self.sqlite else _POSTGRES_JSON
        self.sql = {name: self.style(statement.replace("{array}", functions["array"]).replace(
            "{rows}", functions["rows"])) for name, statement in SQL.items()}
        self.error: type[Exception] = dialect.loaded_dbapi.Error
        time = UTCTime().dialect_impl(dialect)
        self.bind_time: Callable[[Any], Any] = time.bind_processor(dialect) or (lambda value: value)
        self.read_time: Callable[[Any], Any] = time.result_processor(dialect, None) or (lambda value: value)
        if self.sqlite:  # the same text both ways, written and read by C code (a third of SQLAlchemy's time)
            self.bind_time, self.read_time = sqlite_time_text, sqlite_time
        self.pipeline = not self.sqlite and _pipelines(dialect)
        self.game_writes = {self.sql[f"{how}_{what}"] for how in ("save", "bump") for what in ("game", "game_state")}
        self._outbox: dict[int, str] = {}

    def style(self, statement: str) -> str:
        """A statement in the driver's parameter style."""
        return statement if self.named else re.sub(r"(?<![:\w]):(\w+)", r"%(\1)s", statement)

    def outbox_insert(self, rows: int) -> str:
        """The INSERT of `rows` outbox rows (made once per count)."""
        if rows not in self._outbox:
            self._outbox[rows] = self.style(_insert("outbox", OUTBOX_COLUMNS[1:], rows))
        return self._outbox[rows]

    def bind(self, values: dict[str, Any]) -> dict[str, Any]:
        """Column values as the driver takes them (times converted as the columns' type does)."""
        return {k: self.bind_time(v) if k in _TIMES else v for k, v in values.items()}

    def numbered(self, rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> dict[str, Any]:
        """Rows' values as the parameters of one INSERT of them all (column_0, column_1, ...), times converted."""
        return {f"{name}_{i}": self.bind_time(row[name]) if name in _TIMES else row[name]
                for i, row in enumerate(rows) for name in columns}

    def read(self, record: Callable[..., R], columns: Sequence[str], values: Sequence[Any]) -> R:
        """A row read by the driver as a record (times converted back)."""
        return record(**{k: self.read_time(v) if k in _TIMES else v for k, v in zip(columns, values, strict=True)})

    def read_json(self, record: Callable[..., R], columns: Sequence[str], values: Sequence[Any], **more: Any) -> R:
        """A row read from a JSON array (a game's seats or prompts) as a record: times come as SQLite stores them, or
        as PostgreSQL writes them in JSON (ISO 8601)."""
        row = dict(zip(columns, values, strict=True), **more)
        for name in _time_columns(tuple(row)):
            row[name] = self.read_time(row[name]) if self.sqlite else aware(datetime.fromisoformat(row[name]))
        return record(**row)

    def stale(self, exc: Exception) -> bool:
        """Whether a database error is save_game's refusal of a game row whose version moved (see SQL)."""
        return "version" in str(exc) and ("NOT NULL" in str(exc) or "not-null" in str(exc))


@functools.cache
def _time_columns(columns: tuple[str, ...]) -> tuple[str, ...]:
    """Which of these columns hold times."""
    return tuple(name for name in columns if name in _TIMES)


def _pipelines(dialect: Dialect) -> bool:
    """Whether the driver sends several statements in one round trip (psycopg's pipeline mode, libpq 14 and later)."""
    try:
        import psycopg
    except ImportError:  # pragma: no cover - only psycopg is supported for PostgreSQL
        return False
    return dialect.driver == "psycopg" and psycopg.Pipeline.is_supported()


def made(model: type[M], values: dict[str, Any]) -> M:
    """A model object with these column values, made as SQLAlchemy makes a loaded one (no validation), in no session:
    what a command changes in it is written by the store's own statements."""
    row: M = manager_of_class(model).new_instance()
    row.__dict__.update(values)
    return row


def _action_row(**values: Any) -> ActionRow:
    """A log row read by the driver, as a model object in no session."""
    return made(ActionRow, values)


@dataclass(frozen=True)
class Since:
    """A seat's part of the log since its own last move (Tx.actions_since): the newest rows, oldest first; how many
    there are in all; whether the seat has a move of its own in the log at all."""

    rows: list[ActionRow]
    total: int
    acted: bool


def _outbox_defaults(moment: datetime) -> dict[str, Any]:
    """The values an outbox row gets for the columns a caller leaves out (queued at moment)."""
    return {"game_id": None, "recipient": None, "payload": "{}", "image": None, "status": "pending", "attempts": 0,
            "next_attempt_at": moment, "last_error": "", "created_at": moment, "sent_at": None}


def _listing(value: Any) -> list[Any]:
    """A JSON array column as a list (psycopg decodes JSON itself; an aggregate of no rows is NULL)."""
    if value is None:
        return []
    return list(orjson.loads(value)) if isinstance(value, str) else list(value)


Batch = list[tuple[str, dict[str, Any]]]
WRITES = ("log", "states", "games", "prompts", "outbox")  # the kinds of writes that wait (Tx._pending)


class Store:
    """Opens transactions; each Tx offers the queries the table layer needs."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.driver = Driver(self.engine.dialect)
        path = self.engine.url.database if self.driver.sqlite else None
        self.checkpointer = Checkpointer(path).start(self) if path and path != ":memory:" else None
        self._idle: list[Any] = []  # SQLite: pooled connections between transactions, ready for the next

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One unit of work: committed when the block ends (then its after_commit callbacks run), rolled back if it
        raises."""
        with self._sqlite_transaction() if self.driver.sqlite else self._engine_transaction() as tx:
            yield tx
        for callback in tx.after_commit:
            callback()

    @contextmanager
    def _engine_transaction(self) -> Iterator[Tx]:
        """A transaction on one of SQLAlchemy's Connections (PostgreSQL)."""
        with self.engine.connect() as connection, connection.begin():
            tx = Tx(self.driver, connection.connection.driver_connection, lambda: connection)
            try:
                yield tx
                tx.finish()
            finally:
                tx.close()

    @contextmanager
    def _sqlite_transaction(self) -> Iterator[Tx]:
        """A transaction on a pooled SQLite connection through the driver itself (a SQLAlchemy Connection with its
        begin and commit cost 30-60 us, more than a command's statements); a Connection for the ORM session joins it
        only when a rarely-run path asks for one."""
        try:
            pooled = self._idle.pop()
        except IndexError:
            pooled = self.engine.raw_connection()
        joined: list[Connection] = []
        done = False

        def join() -> Connection:
            joined.append(Connection(self.engine, pooled))
            joined[0].begin()  # _sqlite_begin finds the driver's transaction open and leaves it be
            return joined[0]

        try:
            dbapi = pooled.driver_connection
            assert isinstance(dbapi, sqlite3.Connection)
            _begin_immediate(dbapi)
            tx = Tx(self.driver, dbapi, join)
            try:
                yield tx
                tx.finish()
            except BaseException:
                tx.close()
                dbapi.rollback()
                raise
            tx.close()  # the session only joined: closing it leaves the transaction to commit
            dbapi.commit()
            done = True
        finally:
            if done and not joined and len(self._idle) < IDLE_CONNECTIONS:
                self._idle.append(pooled)  # kept checked out: the next transaction skips the pool's checkout
            else:
                (joined[0] if joined else pooled).close()  # back to the pool (a Connection, once made, holds it)

    def close(self) -> None:
        """Stop the checkpointer and release the engine's connections."""
        if self.checkpointer is not None:
            self.checkpointer.close()
        self.release()

    def release(self) -> None:
        """Close every connection the store holds open (the next transaction opens a new one)."""
        while self._idle:
            self._idle.pop().close()
        self.engine.dispose()

    # whole tables, for copying a database (bot/dbcopy.py)
    @staticmethod
    def table_names() -> list[str]:
        """Keywood's tables, each after the tables it refers to."""
        return [table.name for table in SQLModel.metadata.sorted_tables]

    def row_counts(self) -> dict[str, int]:
        """How many rows each table holds."""
        with self.engine.connect() as connection:
            return {table.name: int(connection.execute(select(func.count()).select_from(table)).scalar_one())
                    for table in SQLModel.metadata.sorted_tables}

    def read_rows(self, name: str, batch: int = 500) -> Iterator[list[dict[str, Any]]]:
        """A table's rows in the order of its key, a batch at a time, as the columns' Python values (times aware
        UTC, flags bool), all read in one transaction."""
        table = SQLModel.metadata.tables[name]
        with self.engine.connect() as connection:
            result = connection.execution_options(yield_per=batch).execute(
                sa_select(table).order_by(*table.primary_key.columns))
            for part in result.mappings().partitions():
                yield [dict(row) for row in part]

    @contextmanager
    def loading(self, *, replace: bool = False) -> Iterator[Callable[[str, list[dict[str, Any]]], None]]:
        """One transaction that writes whole tables through the function it yields, (table, rows) with their ids:
        every table emptied first when replace; at the end PostgreSQL's id sequences are moved past the largest id
        (SQLite needs nothing), so new rows get new ids. Commits when the block ends, rolls back if it raises."""
        with self.engine.begin() as connection:
            if replace:
                for table in reversed(SQLModel.metadata.sorted_tables):
                    connection.execute(table.delete())

            def insert_rows(name: str, rows: list[dict[str, Any]]) -> None:
                if rows:
                    connection.execute(SQLModel.metadata.tables[name].insert(), rows)

            yield insert_rows
            if connection.dialect.name == "postgresql":
                for table in SQLModel.metadata.sorted_tables:
                    for column in table.primary_key.columns:
                        if isinstance(column.type, Integer):  # setval(NULL, ...) when it has no sequence: nothing
                            connection.execute(text(
                                f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column.name}'), "
                                f"coalesce(max({column.name}), 0) + 1, false) FROM {table.name}"))


class Tx:
    """The queries of one transaction.

    What every command does (its game with the seats, the snapshot, the log, the open decisions, the outbox) runs in
    the driver's own SQL on the transaction's connection, with no ORM in between: rows come back as model objects no
    session knows, and what a command changes is written by the store's own statements. Writes that need no answer
    at once (log rows, the snapshot and version, changed game rows and prompts) wait for the next read, the outbox
    or the commit, and then go together (on PostgreSQL in one round trip). The rarely-run paths (the log read back,
    the sender's outbox, leases, recipients, settings) use an ORM session on the same connection, opened on first use.
    """

    def __init__(self, driver: Driver, dbapi: Any, connection: Callable[[], Connection]) -> None:
        """A transaction already begun on a driver connection; connection() gives a SQLAlchemy Connection in it (for
        the ORM session)."""
        self.driver = driver
        self.sqlite = driver.sqlite
        self.after_commit: list[Callable[[], None]] = []  # run only once the transaction has committed
        self._dbapi: Any = dbapi
        self._connection = connection
        self._session: Session | None = None
        self._log: list[dict[str, Any]] = []  # log rows to append, in order
        self._states: dict[int, tuple[int, Callable[[], str]]] = {}  # game id -> (version, its state's text)
        self._games: dict[int, tuple[GameRecord, int]] = {}  # game rows to write back, with the version first read
        self._as_read: dict[int, tuple[str, str, str | None]] = {}  # game id -> its status, options and host as read
        self._prompts: dict[int, PromptRecord] = {}  # changed prompts by id
        self._seats: dict[int, list[SeatRecord]] = {}  # seats read with their game in this transaction
        self._prefetched: dict[int, list[PromptRecord]] = {}  # open prompts read with their game
        self._stored_prompts: dict[int, tuple[datetime, str]] = {}  # prompt id -> its deadline and status as stored
        self._outbox: list[tuple[dict[str, Any], list[OutboxRow]]] = []  # queued messages to insert: (params, rows)
        self._numbering: dict[int, list[OutboxRow]] = {}  # the rows an outbox INSERT being sent inserts, by id(params)
        self._moment: datetime | None = None

    def now(self) -> datetime:
        """The transaction's time, taken when first asked for: every row it stamps gets the same one."""
        if self._moment is None:
            self._moment = now()
        return self._moment

    # running statements
    @property
    def session(self) -> Session:
        """The ORM session of this transaction, opened on first use; what waits to be written is written first."""
        if self._waiting():
            self._write()
        if self._session is None:
            self._session = Session(bind=self._connection(), expire_on_commit=False)
        return self._session

    def _waiting(self) -> bool:
        """Whether writes wait to be sent."""
        return bool(self._log or self._states or self._games or self._prompts or self._outbox)

    def _run(self, batch: Batch, *, commit: bool = False) -> list[Any]:
        """Execute statements in order, returning their cursors; on PostgreSQL in one round trip, which also carries
        the COMMIT when commit is set (then a statement that fails, save_game's check included, leaves nothing)."""
        try:
            if not self.driver.pipeline or (len(batch) < 2 and not commit):
                return [self._dbapi.execute(sql, params) for sql, params in batch]
            with self._dbapi.pipeline():
                cursors = [self._dbapi.execute(sql, params) for sql, params in batch]
                if commit:
                    self._dbapi.commit()  # SQLAlchemy's own COMMIT then finds nothing left to commit
            return cursors
        except self.driver.error as exc:
            if self.driver.stale(exc):
                raise StaleVersion(str(exc)) from exc
            raise DBAPIError.instance("; ".join(sql for sql, _ in batch), None, exc, self.driver.error) from exc

    def _query(self, statements: Batch, after: Collection[str] = WRITES) -> list[Any]:
        """Run statements (with the session's changes and the waiting writes of the kinds named sent first, in the
        same round trip); returns their cursors."""
        if self._session is not None:
            self._session.flush()
        batch = self._pending(after)
        return self._sent([*batch, *statements])[len(batch):]

    def _fetch(self, name: str, params: dict[str, Any], locks: Batch | None = None,
               after: Collection[str] = WRITES) -> list[Any]:
        """The rows of one named statement, sent after the locks given and the waiting writes of the kinds named."""
        return list(self._query([*(locks or []), (self.driver.sql[name], params)], after)[-1].fetchall())

    def _execute(self, name: str, params: dict[str, Any]) -> Any:
        """Run one named statement after every waiting write; returns its cursor."""
        return self._query([(self.driver.sql[name], params)])[-1]

    def _write(self) -> None:
        """Send every waiting write now."""
        self._sent(self._pending())

    def _pending(self, kinds: Collection[str] = WRITES) -> Batch:
        """The waiting writes of these kinds as statements, in order (log rows, snapshots, game rows, prompts); they
        are no longer waiting once taken (_sent checks what they did)."""
        sql, bind = self.driver.sql, self.driver.bind
        batch: Batch = []
        if "log" in kinds:
            batch += [(sql["append_action"], bind(row)) for row in self._log]
            self._log = []
        if "states" in kinds and "games" in kinds and not self.sqlite:  # both in one statement
            for game_id in [g for g in self._games if g in self._states]:
                version, state = self._states.pop(game_id)
                row, expected = self._games.pop(game_id)
                batch.append((sql[self._game_write(row, "game_state")], {**self._game_params(row, expected),
                                                                        "snapshot_version": version,
                                                                        "state": state()}))
        if "states" in kinds:
            batch += [(sql["save_snapshot"], {"game": game_id, "version": version, "state": state()})
                      for game_id, (version, state) in self._states.items()]
            self._states = {}
        if "games" in kinds:
            batch += [(sql[self._game_write(row, "game")], self._game_params(row, expected))
                      for row, expected in self._games.values()]
            self._games = {}
        if "prompts" in kinds:
            batch += [(sql[self._prompt_write(p)], bind({"id": p.id, "seat": p.seat, "key": p.key,
                                                         "deadline": p.deadline, "payload": p.payload,
                                                         "status": p.status, "answer": p.answer}))
                      for p in self._prompts.values()]
            self._prompts = {}
        if "outbox" in kinds:
            for params, rows in self._outbox:
                batch.append((self.driver.outbox_insert(len(rows)), params))
                self._numbering[id(params)] = rows
            self._outbox = []
        return batch

    def _game_write(self, row: GameRecord, what: str) -> str:
        """The statement writing a game row back (what: 'game', or 'game_state' with its snapshot): save_, or bump_
        when its status, options and host are still as this transaction read them (only version and time change)."""
        unchanged = self._as_read.get(row.id or 0) == (row.status, row.options, row.host_id)
        return ("bump_" if unchanged else "save_") + what

    def _prompt_write(self, row: PromptRecord) -> str:
        """The statement writing a prompt row back: it leaves out the deadline and the status when still as stored
        (both in, when this transaction does not know what is stored)."""
        assert row.id is not None
        stored = self._stored_prompts.get(row.id)
        self._stored_prompts[row.id] = (row.deadline, row.status)
        if stored is None:
            return _save_prompt(deadline=True, status=True)
        return _save_prompt(deadline=row.deadline != stored[0], status=row.status != stored[1])

    def _stored(self, rows: Iterable[PromptRecord]) -> list[PromptRecord]:
        """Prompt rows as just read or inserted, their deadline and status noted as stored (see _prompt_write)."""
        rows = list(rows)
        self._stored_prompts.update((row.id, (row.deadline, row.status)) for row in rows if row.id is not None)
        return rows

    def _game_params(self, row: GameRecord, expected: int) -> dict[str, Any]:
        """save_game's parameters for a game row read at version `expected`."""
        return self.driver.bind({"id": row.id, "status": row.status, "options": row.options, "host_id": row.host_id,
                                 "version": row.version, "updated_at": row.updated_at, "expected": expected})

    def _sent(self, batch: Batch, *, commit: bool = False) -> list[Any]:
        """Run a batch that may begin with waiting writes (see _run for commit), and check what those did: a game row
        whose version moved meanwhile raises StaleVersion, and queued messages get their ids."""
        cursors = self._run(batch, commit=commit)
        for (statement, params), cursor in zip(batch, cursors, strict=True):
            if statement in self.driver.game_writes and cursor.rowcount != 1:
                raise StaleVersion(f"game {params['id']} is no longer at version {params['expected']}")
            if id(params) in self._numbering:
                # One statement numbers its rows in the order given (SQLite: max + 1 as each is inserted;
                # PostgreSQL: the id sequence, row by row); RETURNING's own order is not promised, so ids are sorted.
                ids = sorted(row_id for (row_id,) in cursor.fetchall())
                for row, row_id in zip(self._numbering.pop(id(params)), ids, strict=True):
                    row.id = row_id
        return cursors

    def finish(self) -> None:
        """Write everything still waiting, just before the commit (PostgreSQL: with the COMMIT, in one round trip)."""
        if self._session is not None:
            self._session.flush()
        if self._waiting():
            self._sent(self._pending(), commit=self.driver.pipeline)

    def close(self) -> None:
        """Close the ORM session, if one was opened."""
        if self._session is not None:
            self._session.close()

    # games
    def live_game(self, guild_id: str, channel_id: str, *, claim: bool = False) -> GameRecord | None:
        """The lobby or running game of a channel, locked for this transaction; claim: the channel itself too, even
        when it has no game (PostgreSQL: an advisory lock, so that a second `new` waits and then finds the first's;
        SQLite's transactions hold the whole file)."""
        where: dict[str, Any] = {"guild": guild_id, "channel": channel_id}
        channel: dict[str, Any] = {"space": CHANNEL_LOCK, "name": f"{guild_id}/{channel_id}"}
        locks = [(self.driver.sql["lock_live_game"], where)]
        return self._game("live_game", where, [(self.driver.sql["lock_channel"], channel), *locks] if claim else locks)

    def game(self, game_id: int) -> GameRecord | None:
        """A game by id, locked for this transaction."""
        return self._game("game", {"id": game_id}, [(self.driver.sql["lock_game"], {"id": game_id})])

    def _game(self, name: str, params: dict[str, Any], locks: Batch) -> GameRecord | None:
        """A game read with its seats and open prompts (kept for seats() and open_prompts()), in one statement.

        PostgreSQL: after the locks given, sent in statements of their own in the same round trip; a game the lock
        did not find (it moved on meanwhile) is not taken from the read."""
        sql = self.driver.sql
        if self.sqlite:
            locks = []
        cursors = self._query([*locks, (sql[name], params)])
        rows = cursors[-1].fetchall()
        if not rows or (locks and rows[0][0] not in {r[0] for r in cursors[-2].fetchall()}):
            return None
        game = self.driver.read(GameRecord, GAME_COLUMNS, rows[0][:len(GAME_COLUMNS)])
        assert game.id is not None
        self._as_read[game.id] = (game.status, game.options, game.host_id)
        seats, prompts = (_listing(value) for value in rows[0][len(GAME_COLUMNS):])
        self._seats[game.id] = sorted((self.driver.read_json(SeatRecord, SEAT_FIELDS, r, game_id=game.id)
                                       for r in seats), key=lambda seat: seat.seat)
        self._prefetched[game.id] = sorted(self._stored(self.driver.read_json(PromptRecord, PROMPT_FIELDS, r)
                                                        for r in prompts), key=lambda prompt: prompt.id or 0)
        return game

    def _lock(self, space: int, name: str) -> None:
        """PostgreSQL: wait for, then hold until the end of this transaction, the advisory lock on a name (SQLite's
        transactions already hold the whole file)."""
        if not self.sqlite:
            self._execute("lock_channel", {"space": space, "name": name})

    def latest_game(self, guild_id: str, channel_id: str, status: str) -> GameRecord | None:
        """The most recent game of a channel with this status."""
        return self._game("latest_game", {"guild": guild_id, "channel": channel_id, "status": status}, [])

    def games(self, status: str | None = None) -> list[GameRecord]:
        """Every game, or those with one status."""
        rows = self._fetch("games_with", {"status": status}) if status else self._fetch("games", {})
        return [self.driver.read(GameRecord, GAME_COLUMNS, row) for row in rows]

    def add_game(self, row: GameRecord) -> GameRecord:
        """Insert a new game and return it with its id."""
        values = self.driver.numbered([{name: getattr(row, name) for name in GAME_COLUMNS[1:]}], GAME_COLUMNS[1:])
        [(row.id,)] = self._fetch("add_game", values)
        self._seats[row.id] = []
        return row

    def set_status(self, game: GameRecord, status: str) -> None:
        """Change a game's status (and store whatever else of its row changed: options, host)."""
        game.status = status
        game.updated_at = self.now()
        self._stage(game)

    def _stage(self, game: GameRecord) -> None:
        """Write a game's row back with the next writes, if its version is still the one first seen."""
        assert game.id is not None
        staged = self._games.get(game.id)
        self._games[game.id] = (game, staged[1] if staged else game.version)

    def save_state(self, game: GameRecord, state: Callable[[], str]) -> None:
        """Advance a game's version and store its new state (state() gives its JSON text, the engine's to_json_text,
        made only if it is still the game's state when the writes go) with the next writes; raises StaleVersion then
        if the stored version is no longer the one this transaction read (the optimistic check behind the locks)."""
        assert game.id is not None
        self._stage(game)
        game.version += 1
        game.updated_at = self.now()
        self._states[game.id] = (game.version, state)

    # seats
    def seats(self, game_id: int) -> list[SeatRecord]:
        """A game's seats in clockwise order."""
        if game_id not in self._seats:
            self._seats[game_id] = [SeatRecord(**dict(zip(SEAT_COLUMNS, row, strict=True)))
                                    for row in self._fetch("seats", {"game": game_id}, after=())]
        return list(self._seats[game_id])

    def add_seat(self, game_id: int, user_id: str, name: str) -> SeatRecord:
        """Seat a player at the next free seat."""
        row = SeatRecord(game_id=game_id, seat=len(self.seats(game_id)), user_id=user_id, name=name)
        [(row.id,)] = self._fetch("add_seat", {"game_id_0": game_id, "seat_0": row.seat, "user_id_0": user_id,
                                               "name_0": name})
        self._seats[game_id].append(row)
        return row

    def remove_seat(self, game_id: int, user_id: str) -> None:
        """Take a player out of a lobby and close the gap in the seat numbers."""
        self._execute("drop_seat", {"game": game_id, "user_id": user_id})
        self._seats.pop(game_id, None)
        for i, row in enumerate(self.seats(game_id)):
            if row.seat != i:
                row.seat = i
                self._save_seat(row)

    def reassign_seat(self, seat: SeatRecord, user_id: str, name: str) -> None:
        """Give a seat to another person."""
        seat.user_id, seat.name = user_id, name
        self._save_seat(seat)
        self._seats.pop(seat.game_id, None)

    def _save_seat(self, row: SeatRecord) -> None:
        """Write a seat row back."""
        self._execute("save_seat", {"id": row.id, "seat": row.seat, "user_id": row.user_id, "name": row.name})

    # log and snapshot
    def actions(self, game_id: int, *, include_undone: bool = False) -> list[ActionRow]:
        """A game's action log in order."""
        query = select(ActionRow).where(ActionRow.game_id == game_id).order_by(col(ActionRow.seq))
        if not include_undone:
            query = query.where(col(ActionRow.undone).is_(False))
        return list(self.session.exec(query))

    def actions_since(self, game_id: int, seat: int, limit: int, not_by: tuple[str, str]) -> Since:
        """The live actions after a seat's own last live action (all of them if it has not acted): the newest
        `limit`, oldest first, and how many in all. An action of the seat by one of the authors not_by (the
        stand-in, a timeout) does not count as its own. One statement, however long the log."""
        params = {"game": game_id, "seat": seat, "limit": limit, "not_a": not_by[0], "not_b": not_by[1]}
        found = self._fetch("actions_since", params, after=("log",))
        if not found:
            return Since([], 0, acted=False)
        width = len(ACTION_COLUMNS)
        rows = [self.driver.read(_action_row, ACTION_COLUMNS, row[:width]) for row in reversed(found)]
        return Since(rows, int(found[0][width]), acted=int(found[0][width + 1]) > 0)

    def recent_actions(self, game_id: int, limit: int) -> list[ActionRow]:
        """The last few live actions, oldest first."""
        query = (
            select(ActionRow)
            .where(ActionRow.game_id == game_id, col(ActionRow.undone).is_(False))
            .order_by(col(ActionRow.seq).desc())
            .limit(limit)
        )
        return list(reversed(list(self.session.exec(query))))

    def append_action(self, game: GameRecord, seat: int, author_id: str, notation: str, summary: str) -> None:
        """Append an accepted action to the log (with the next writes), stamped with the version it applied to."""
        assert game.id is not None
        self._log.append({"game": game.id, "seat": seat, "author": author_id, "notation": notation,
                          "summary": summary, "version": game.version, "undone": False, "at": self.now()})

    def action_count(self, game_id: int) -> int:
        """How many actions a game's log holds (undone ones included): a number that grows with every action."""
        return int(self._fetch("last_seq", {"game": game_id}, after=("log",))[0][0] or 0)

    def mark_undone(self, row: ActionRow) -> None:
        """Take an action out of the live log (kept for the record)."""
        row.undone = True
        self.session.add(row)

    def snapshot(self, game_id: int) -> dict[str, Any] | None:
        """The stored current state of a game."""
        rows = self._fetch("snapshot", {"game": game_id}, after=("states",))
        return dict(orjson.loads(rows[0][0])) if rows else None

    # prompts
    def open_prompts(self, game_id: int, kind: str | None = None) -> list[PromptRecord]:
        """A game's open prompts, oldest first (the first time, those read with the game if they were)."""
        if not kind and game_id in self._prefetched:
            return self._prefetched.pop(game_id)
        if kind:
            rows = self._fetch("open_prompts_of", {"game": game_id, "kind": kind}, after=("prompts",))
        else:
            rows = self._fetch("open_prompts", {"game": game_id}, after=("prompts",))
        return self._stored(self.driver.read(PromptRecord, PROMPT_COLUMNS, row) for row in rows)

    def prompt(self, prompt_id: int) -> PromptRecord | None:
        """A prompt by id, read (on PostgreSQL) once its game is locked for this transaction: a command in flight on
        the game has committed by then, and what it did to the prompt is seen."""
        locks = None if self.sqlite else [(self.driver.sql["lock_prompt_game"], {"id": prompt_id})]
        rows = self._fetch("prompt", {"id": prompt_id}, locks, after=("prompts",))
        return self._stored([self.driver.read(PromptRecord, PROMPT_COLUMNS, rows[0])])[0] if rows else None

    def add_prompt(self, row: PromptRecord) -> PromptRecord:
        """Open a prompt."""
        values = self.driver.numbered([{name: getattr(row, name) for name in PROMPT_COLUMNS[1:]}],
                                      PROMPT_COLUMNS[1:])
        [(row.id,)] = self._fetch("add_prompt", values, after=())
        self._stored([row])
        self._prefetched.pop(row.game_id, None)
        return row

    def save_prompt(self, row: PromptRecord) -> None:
        """Store a changed prompt (written with the next writes)."""
        assert row.id is not None
        self._prompts[row.id] = row
        self._prefetched.pop(row.game_id, None)

    def due_game_ids(self, moment: datetime, shards: ShardSet | None = None) -> list[int]:
        """Games (on these shards, or anywhere) with an open prompt whose deadline has passed."""
        rows = self._fetch("due_games", {"moment": self.driver.bind_time(moment)})
        return sorted(game_id for game_id, guild_id in rows if shards is None or shards.covers(guild_id))

    # outbox
    def add_outbox(self, rows: list[dict[str, Any]]) -> list[OutboxRow]:
        """Queue messages (OutboxRow fields as dicts; left out: their defaults) to send once this transaction
        commits, in one INSERT that goes with the next writes; returns them as rows, whose ids are filled in when
        the INSERT is sent (at the latest just before the commit)."""
        if not rows:
            return []
        defaults = _outbox_defaults(self.now())
        full = [{**defaults, **row, "shard_key": guild_key(row["guild_id"]), "id": None} for row in rows]
        queued = [made(OutboxRow, row) for row in full]
        self._outbox.append((self.driver.numbered(full, OUTBOX_COLUMNS[1:]), queued))
        return queued

    def last_outbox_id(self) -> int:
        """The id of the newest queued message (0 when there is none)."""
        return int(self.session.exec(select(func.max(OutboxRow.id))).one() or 0)

    def mark_sent(self, row_ids: list[int], moment: datetime) -> None:
        """Record that these queued messages were delivered."""
        self.session.execute(update(OutboxRow).where(col(OutboxRow.id).in_(row_ids)).values(status="sent",
                                                                                            sent_at=moment))

    def pending_outbox(self, limit: int = 200, shards: ShardSet | None = None) -> list[OutboxRow]:
        """Messages (for servers on these shards, or anywhere) not yet sent, oldest first (due or waiting for a
        retry)."""
        query = select(OutboxRow).where(OutboxRow.status == "pending")
        if shards is not None:
            query = query.where((col(OutboxRow.shard_key) % shards.count).in_(sorted(shards.ids)))
        return list(self.session.exec(query.order_by(col(OutboxRow.id)).limit(limit)))

    def outbox_row(self, row_id: int) -> OutboxRow | None:
        """One queued message by id, locked for this transaction."""
        return self.session.get(OutboxRow, row_id, with_for_update=not self.sqlite)

    def save_outbox(self, row: OutboxRow) -> None:
        """Store a changed queued message."""
        self.session.add(row)
        self.session.flush()

    def outbox_kinds(self, game_id: int | None, kind: str) -> list[OutboxRow]:
        """A game's queued or sent messages of one kind, oldest first (notices through their own index, whose
        condition a query must state as written for the database to use it)."""
        of_kind = text(NOTICES) if kind == "notice" else OutboxRow.kind == kind
        query = select(OutboxRow).where(OutboxRow.game_id == game_id, of_kind)
        return list(self.session.exec(query.order_by(col(OutboxRow.id))))

    # leases (bot/shards.py decides; these only read and write them)
    def leases(self) -> dict[int, LeaseRow]:
        """Every shard's lease by shard, all locked for this transaction (one process decides at a time)."""
        self._lock(LEASE_LOCK, "leases")
        return {row.shard: row for row in self.session.exec(select(LeaseRow))}

    def save_lease(self, row: LeaseRow) -> None:
        """Store a new or changed lease."""
        self.session.merge(row)

    def drop_lease(self, row: LeaseRow) -> None:
        """Give a lease up."""
        self.session.execute(delete(LeaseRow).where(col(LeaseRow.shard) == row.shard))

    # recipients
    def recipient(self, user_id: str) -> RecipientRow:
        """What is known of a user's DMs (a blank record when nothing is), locked for this transaction."""
        self._lock(RECIPIENT_LOCK, user_id)
        return self.session.get(RecipientRow, user_id) or RecipientRow(user_id=user_id)

    def save_recipient(self, row: RecipientRow) -> None:
        """Store what is known of a user's DMs."""
        self.session.merge(row)

    # settings
    def settings(self, guild_id: str, decision_minutes: int = 720, reminder_hours: int = 24) -> GuildSettingsRow:
        """A server's settings (the given defaults when it has none), locked for this transaction."""
        self._lock(SETTINGS_LOCK, guild_id)
        return self.session.get(GuildSettingsRow, guild_id) or GuildSettingsRow(
            guild_id=guild_id, decision_minutes=decision_minutes, reminder_hours=reminder_hours)

    def save_settings(self, row: GuildSettingsRow) -> None:
        """Store a server's settings."""
        self.session.merge(row)

    def execute_raw(self, sql: str) -> Any:
        """Run a literal SQL statement (used by maintenance commands and tests), after every waiting write."""
        return self.session.execute(text(sql))
