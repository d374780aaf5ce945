"""The tables: one SQLModel class per table, the only kind of row the store reads, writes and hands out.

Times are stored as UTC wall times in columns without a time zone (as the migrations create them) and read back as
aware UTC datetimes. The schema is the migrations' (bot/migrations); these classes describe its newest revision.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import BigInteger, Column, DateTime, Dialect, Index, Integer, LargeBinary, UniqueConstraint, text
from sqlalchemy.types import TypeDecorator
from sqlmodel import Field, SQLModel
from sqlmodel.sql.sqltypes import AutoString

from bot.records import GameOptions, PromptPayload

LIVE = ("lobby", "active")
# Partial indexes' conditions, which a query must state as written for the database to use the index.
OPEN = "status = 'open'"  # the prompts indexed by deadline (ix_prompts_open_deadline): only open ones fall due
NOTICES = "kind = 'notice'"  # the outbox rows indexed by game (ix_outbox_game_notices)
BIG = BigInteger().with_variant(Integer(), "sqlite")  # SQLite's INTEGER holds 64 bits already


def now() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A time as UTC-aware (a naive time is taken as UTC)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


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


def columns(row: SQLModel) -> dict[str, Any]:
    """A row's column values by name, its id left out: what an UPDATE of the row by its id sets."""
    return {name: getattr(row, name) for name in type(row).model_fields if name != "id"}


class StoredJson(TypeDecorator[Any]):
    """A typed record (bot/records.py) in a text column, as its JSON: the one place the table's records are
    serialised."""

    impl = AutoString
    cache_ok = True

    def __init__(self, record: type[GameOptions] | type[PromptPayload]) -> None:
        super().__init__()
        self.record = record

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        return None if value is None else str(value.to_json())

    def process_result_value(self, value: str | None, dialect: Dialect) -> Any:
        return None if value is None else self.record.from_json(value)


class GameRow(SQLModel, table=True):
    """A game at a table: where it is played, which game, its seed, options, status and state version."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_where", "guild_id", "channel_id", "status"),)
    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(index=True)
    channel_id: str = Field(index=True)
    game: str
    options: GameOptions = Field(default_factory=GameOptions, sa_type=StoredJson(GameOptions))
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
    payload: PromptPayload = Field(default_factory=PromptPayload, sa_type=StoredJson(PromptPayload))
    status: str = "open"
    answer: str | None = None
    created_at: datetime = Field(default_factory=now, sa_type=UTCTime)


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


METADATA = SQLModel.metadata  # the tables above, the schema's newest revision

# The names the table layer knows three of them by (they were once plain records of their own).
GameRecord = GameRow
SeatRecord = SeatRow
PromptRecord = PromptRow
