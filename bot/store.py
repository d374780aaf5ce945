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

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Dialect,
    Engine,
    Index,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
    bindparam,
    event,
    text,
)
from sqlalchemy import select as sa_select
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.pool import QueuePool, StaticPool
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, Session, SQLModel, col, create_engine, delete, func, insert, select, update

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
    seed: int = Field(sa_type=BIG)
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
    __table_args__ = (UniqueConstraint("game_id", "seq"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
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


class PromptRow(SQLModel, table=True):
    """An open decision of a seat (a turn, a simultaneous choice or a reaction) with its deadline.

    A seat, not a user, owns it: when the seat changes hands the decision follows. key is the engine's name for
    the decision; answer is an answer kept before the seat's turn to answer came.
    """

    __tablename__ = "prompts"
    __table_args__ = (Index("ix_prompts_game_status", "game_id", "status"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    kind: str
    seat: int | None = None
    key: str = Field(default="", sa_column_kwargs={"server_default": ""})
    deadline: datetime = Field(index=True, sa_type=UTCTime)
    payload: str = "{}"
    status: str = Field(default="open", index=True)
    answer: str | None = None
    created_at: datetime = Field(default_factory=now, sa_type=UTCTime)


class OutboxRow(SQLModel, table=True):
    """A message an accepted command must send, written in its transaction and delivered later, once.

    recipient is a user id for a private message, None for the game's channel; payload is JSON.
    """

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_next", "status", "next_attempt_at"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="games.id", index=True)
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
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=60000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _postgres_connect(dbapi_connection: Any, _record: Any) -> None:
    """Set the session's time zone to UTC (a column with a time zone, in a database made by an older Keywood, is
    then read and compared in UTC too)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("SET TIME ZONE 'UTC'")
    cursor.close()
    dbapi_connection.commit()


def _sqlite_begin(conn: Any) -> None:
    """Take the write lock at the start of every transaction, so read-then-write never deadlocks."""
    conn.exec_driver_sql("BEGIN IMMEDIATE")


# The statements of every command, built once (building a statement costs more than running it on SQLite).
_LIVE_GAME = select(GameRow).where(GameRow.guild_id == bindparam("guild"), GameRow.channel_id == bindparam("channel"),
                                   col(GameRow.status).in_(LIVE))
_SEATS = select(SeatRow).where(SeatRow.game_id == bindparam("game")).order_by(col(SeatRow.seat))
_LAST_SEQ = select(func.max(ActionRow.seq)).where(ActionRow.game_id == bindparam("game"))
_OPEN_PROMPTS = select(PromptRow).where(PromptRow.game_id == bindparam("game"),
                                        PromptRow.status == "open").order_by(col(PromptRow.id))
_BUMP = (update(GameRow).where(col(GameRow.id) == bindparam("gid"), col(GameRow.version) == bindparam("expected"))
         .values(version=bindparam("next"), updated_at=bindparam("at")))
_LIVE_GAME_LOCKED = _LIVE_GAME.with_for_update()
_ADVISORY_LOCK = text("SELECT pg_advisory_xact_lock(:space, hashtext(:name))")
_SAVE_SNAPSHOT = (update(SnapshotRow).where(col(SnapshotRow.game_id) == bindparam("gid"))
                  .values(version=bindparam("v"), state=bindparam("text")))
# One statement appends a log row numbered after the game's last: the max(seq) read and the insert in one round trip.
_APPEND_ACTION = insert(SQLModel.metadata.tables["actions"]).from_select(
    ["game_id", "seq", "seat", "author_id", "notation", "summary", "version", "undone", "at"],
    sa_select(bindparam("game", type_=Integer), func.coalesce(func.max(ActionRow.seq), 0) + 1,
              bindparam("seat", type_=Integer), bindparam("author", type_=String), bindparam("notation", type_=String),
              bindparam("summary", type_=String), bindparam("version", type_=Integer),
              bindparam("undone", type_=Boolean), bindparam("at", type_=UTCTime))
    .where(col(ActionRow.game_id) == bindparam("game", type_=Integer)))
_ADD_OUTBOX = insert(OutboxRow).returning(col(OutboxRow.id), sort_by_parameter_order=True)


class Store:
    """Opens transactions; each Tx offers the queries the table layer needs."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        self.url = url
        self.engine = make_engine(url)

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One unit of work: committed when the block ends, rolled back if it raises."""
        with Session(self.engine, expire_on_commit=False) as session:
            tx = Tx(session, self.url.startswith("sqlite"))
            try:
                yield tx
                session.commit()
            except BaseException:
                session.rollback()
                raise
        for callback in tx.after_commit:
            callback()

    def close(self) -> None:
        """Release the engine's connections."""
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
    """The queries of one transaction."""

    def __init__(self, session: Session, sqlite: bool) -> None:
        self.session = session
        self.sqlite = sqlite
        self.after_commit: list[Callable[[], None]] = []  # run only once the transaction has committed

    # games
    def live_game(self, guild_id: str, channel_id: str) -> GameRow | None:
        """The lobby or running game of a channel, locked for this transaction; so is the channel itself, even
        when it has no game (PostgreSQL: an advisory lock, so a second `new` waits and then finds the first's)."""
        if self.sqlite:
            return self.session.exec(_LIVE_GAME, params={"guild": guild_id, "channel": channel_id}).first()
        self._lock(CHANNEL_LOCK, f"{guild_id}/{channel_id}")
        return self.session.exec(_LIVE_GAME_LOCKED, params={"guild": guild_id, "channel": channel_id}).first()

    def game(self, game_id: int) -> GameRow | None:
        """A game by id, locked for this transaction."""
        query = select(GameRow).where(GameRow.id == game_id)
        if not self.sqlite:
            query = query.with_for_update()
        return self.session.exec(query).first()

    def _lock(self, space: int, name: str) -> None:
        """PostgreSQL: wait for, then hold until the end of this transaction, the advisory lock on a name (SQLite's
        transactions already hold the whole file)."""
        if not self.sqlite:
            self.session.execute(_ADVISORY_LOCK, {"space": space, "name": name})

    def latest_game(self, guild_id: str, channel_id: str, status: str) -> GameRow | None:
        """The most recent game of a channel with this status."""
        query = select(GameRow).where(
            GameRow.guild_id == guild_id, GameRow.channel_id == channel_id, GameRow.status == status
        ).order_by(col(GameRow.id).desc())
        return self.session.exec(query).first()

    def games(self, status: str | None = None) -> list[GameRow]:
        """Every game, or those with one status."""
        query = select(GameRow).order_by(col(GameRow.id))
        if status:
            query = query.where(GameRow.status == status)
        return list(self.session.exec(query))

    def add_game(self, row: GameRow) -> GameRow:
        """Insert a new game and return it with its id."""
        self.session.add(row)
        self.session.flush()
        return row

    def set_status(self, game: GameRow, status: str) -> None:
        """Change a game's status."""
        game.status = status
        game.updated_at = now()
        self.session.add(game)
        self.session.flush()

    def bump_version(self, game: GameRow) -> bool:
        """Advance the version if nobody else did (optimistic check); False when the table changed."""
        expected = game.version
        result = self.session.execute(_BUMP, {"gid": game.id, "expected": expected, "next": expected + 1,
                                              "at": now()})
        if result.rowcount != 1:  # type: ignore[attr-defined]
            return False
        # Record the new version as already stored: set plainly, the ORM would write it again at the flush.
        set_committed_value(game, "version", expected + 1)
        return True

    # seats
    def seats(self, game_id: int) -> list[SeatRow]:
        """A game's seats in clockwise order."""
        return list(self.session.exec(_SEATS, params={"game": game_id}))

    def add_seat(self, game_id: int, user_id: str, name: str) -> SeatRow:
        """Seat a player at the next free seat."""
        row = SeatRow(game_id=game_id, seat=len(self.seats(game_id)), user_id=user_id, name=name)
        self.session.add(row)
        self.session.flush()
        return row

    def remove_seat(self, game_id: int, user_id: str) -> None:
        """Take a player out of a lobby and close the gap in the seat numbers."""
        self.session.execute(delete(SeatRow).where(col(SeatRow.game_id) == game_id, col(SeatRow.user_id) == user_id))
        for i, row in enumerate(self.seats(game_id)):
            row.seat = i
            self.session.add(row)
        self.session.flush()

    def reassign_seat(self, seat: SeatRow, user_id: str, name: str) -> None:
        """Give a seat to another person."""
        seat.user_id, seat.name = user_id, name
        self.session.add(seat)
        self.session.flush()

    # log and snapshot
    def actions(self, game_id: int, *, include_undone: bool = False) -> list[ActionRow]:
        """A game's action log in order."""
        query = select(ActionRow).where(ActionRow.game_id == game_id).order_by(col(ActionRow.seq))
        if not include_undone:
            query = query.where(col(ActionRow.undone).is_(False))
        return list(self.session.exec(query))

    def actions_since(self, game_id: int, seat: int, not_by: tuple[str, ...] = ()) -> list[ActionRow]:
        """The live actions after a seat's own last live action (all of them if it has not acted), oldest first;
        an action of the seat whose author is in not_by (the stand-in's, a timeout's) does not count as its own."""
        rows = self.actions(game_id)
        last = max((r.seq for r in rows if r.seat == seat and r.author_id not in not_by), default=0)
        return [r for r in rows if r.seq > last]

    def recent_actions(self, game_id: int, limit: int) -> list[ActionRow]:
        """The last few live actions, oldest first."""
        query = (
            select(ActionRow)
            .where(ActionRow.game_id == game_id, col(ActionRow.undone).is_(False))
            .order_by(col(ActionRow.seq).desc())
            .limit(limit)
        )
        return list(reversed(list(self.session.exec(query))))

    def append_action(self, game: GameRow, seat: int, author_id: str, notation: str, summary: str) -> None:
        """Append an accepted action to the log, stamped with the version it applied to."""
        assert game.id is not None
        self.session.execute(_APPEND_ACTION, {"game": game.id, "seat": seat, "author": author_id, "notation": notation,
                                              "summary": summary, "version": game.version, "undone": False,
                                              "at": now()})

    def action_count(self, game_id: int) -> int:
        """How many actions a game's log holds (undone ones included): a number that grows with every action."""
        return int(self.session.exec(_LAST_SEQ, params={"game": game_id}).one() or 0)

    def mark_undone(self, row: ActionRow) -> None:
        """Take an action out of the live log (kept for the record)."""
        row.undone = True
        self.session.add(row)

    def snapshot(self, game_id: int) -> dict[str, Any] | None:
        """The stored current state of a game."""
        row = self.session.get(SnapshotRow, game_id)
        return None if row is None else dict(json.loads(row.state))

    def save_snapshot(self, game_id: int, version: int, state: dict[str, Any]) -> None:
        """Store the current state of a game."""
        text = json.dumps(state, separators=(",", ":"), sort_keys=True)
        result = self.session.execute(_SAVE_SNAPSHOT, {"gid": game_id, "v": version, "text": text})
        if result.rowcount != 1:  # type: ignore[attr-defined]
            self.session.add(SnapshotRow(game_id=game_id, version=version, state=text))
            self.session.flush()

    # prompts
    def open_prompts(self, game_id: int, kind: str | None = None) -> list[PromptRow]:
        """A game's open prompts, oldest first."""
        if not kind:
            return list(self.session.exec(_OPEN_PROMPTS, params={"game": game_id}))
        query = select(PromptRow).where(PromptRow.game_id == game_id, PromptRow.status == "open",
                                        PromptRow.kind == kind)
        return list(self.session.exec(query.order_by(col(PromptRow.id))))

    def prompt(self, prompt_id: int) -> PromptRow | None:
        """A prompt by id, read (on PostgreSQL) once its game is locked for this transaction: a command in flight on
        the game has committed by then, and what it did to the prompt is seen."""
        row = self.session.get(PromptRow, prompt_id)
        if row is None or self.sqlite:
            return row
        self.game(row.game_id)
        return self.session.get(PromptRow, prompt_id, populate_existing=True)

    def add_prompt(self, row: PromptRow) -> PromptRow:
        """Open a prompt."""
        self.session.add(row)
        self.session.flush()
        return row

    def save_prompt(self, row: PromptRow) -> None:
        """Store a changed prompt (written at the next flush or the commit)."""
        self.session.add(row)

    def due_game_ids(self, moment: datetime, shards: ShardSet | None = None) -> list[int]:
        """Games (on these shards, or anywhere) with an open prompt whose deadline has passed."""
        query = (select(PromptRow.game_id, GameRow.guild_id).join(GameRow, col(GameRow.id) == PromptRow.game_id)
                 .where(PromptRow.status == "open", PromptRow.deadline <= moment).distinct())
        return sorted(game_id for game_id, guild_id in self.session.exec(query)
                      if shards is None or shards.covers(guild_id))

    # outbox
    def add_outbox(self, rows: list[dict[str, Any]]) -> list[OutboxRow]:
        """Queue messages (OutboxRow fields as dicts) to send once this transaction commits, in one INSERT; returns
        them as rows with their ids."""
        if not rows:
            return []
        rows = [{**row, "shard_key": guild_key(row["guild_id"])} for row in rows]
        ids = self.session.execute(_ADD_OUTBOX, rows).scalars().all()
        return [OutboxRow.model_construct(id=row_id, **row) for row_id, row in zip(ids, rows, strict=True)]

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
        """A game's queued or sent messages of one kind, oldest first."""
        query = select(OutboxRow).where(OutboxRow.game_id == game_id, OutboxRow.kind == kind)
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
        """Run a literal SQL statement (used by maintenance commands and tests)."""
        return self.session.execute(text(sql))
