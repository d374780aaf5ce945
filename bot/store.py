"""The game store: sqlmodel tables and the only code in Keywood that speaks SQL.

SQLite by default (WAL, foreign keys on, every transaction BEGIN IMMEDIATE so commands on one file are
serialised); any SQLAlchemy URL works, and on other databases the game row is locked FOR UPDATE instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Column, Engine, Index, LargeBinary, UniqueConstraint, bindparam, event, text
from sqlalchemy.pool import QueuePool, StaticPool
from sqlmodel import Field, Session, SQLModel, col, create_engine, delete, func, insert, select, update

DEFAULT_URL = "sqlite:///keywood.db"
LIVE = ("lobby", "active")


def now() -> datetime:
    """The current time in UTC."""
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A time read back from the database as UTC-aware (SQLite returns the naive UTC time it stored)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class GameRow(SQLModel, table=True):
    """A game at a table: where it is played, which game, its seed, options, status and state version."""

    __tablename__ = "games"
    __table_args__ = (Index("ix_games_where", "guild_id", "channel_id", "status"),)
    id: int | None = Field(default=None, primary_key=True)
    guild_id: str = Field(index=True)
    channel_id: str = Field(index=True)
    game: str
    options: str = "{}"
    seed: int
    status: str = Field(default="lobby", index=True)
    version: int = 0
    host_id: str
    created_at: datetime = Field(default_factory=now)
    updated_at: datetime = Field(default_factory=now)


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
    at: datetime = Field(default_factory=now)


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
    deadline: datetime = Field(index=True)
    payload: str = "{}"
    status: str = Field(default="open", index=True)
    answer: str | None = None
    created_at: datetime = Field(default_factory=now)


class OutboxRow(SQLModel, table=True):
    """A message an accepted command must send, written in its transaction and delivered later, once.

    recipient is a user id for a private message, None for the game's channel; payload is JSON.
    """

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_status_next", "status", "next_attempt_at"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="games.id", index=True)
    guild_id: str
    channel_id: str
    recipient: str | None = None
    kind: str
    payload: str = "{}"
    image: bytes | None = Field(default=None, sa_column=Column(LargeBinary, nullable=True))
    status: str = "pending"
    attempts: int = 0
    next_attempt_at: datetime = Field(default_factory=now)
    last_error: str = ""
    created_at: datetime = Field(default_factory=now)
    sent_at: datetime | None = None


class RecipientRow(SQLModel, table=True):
    """What Keywood knows of a user's DMs: when they were found closed, and when the user was told how to open them."""

    __tablename__ = "recipients"
    user_id: str = Field(primary_key=True)
    dms_closed_at: datetime | None = None
    told_at: datetime | None = None


class GuildSettingsRow(SQLModel, table=True):
    """A server's defaults for new games."""

    __tablename__ = "guild_settings"
    guild_id: str = Field(primary_key=True)
    decision_minutes: int = 720
    reminder_hours: int = 24


def make_engine(url: str = DEFAULT_URL) -> Engine:
    """Create the database engine and bring its schema up to date (raises migrate.SchemaTooNew for a newer one).

    SQLite gets WAL, foreign keys and immediate transactions.
    """
    if not url.startswith("sqlite"):
        engine = create_engine(url)
    else:
        memory = ":memory:" in url or url in ("sqlite://", "sqlite:///")
        # One shared connection keeps an in-memory database alive; a file keeps a small pool of open connections
        # (opening one per command costs its PRAGMAs and a WAL checkpoint each time).
        pool = StaticPool if memory else QueuePool
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 60}, poolclass=pool)
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    from bot import migrate

    migrate.upgrade(engine, url, SQLModel.metadata.create_all)
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
_SAVE_SNAPSHOT = (update(SnapshotRow).where(col(SnapshotRow.game_id) == bindparam("gid"))
                  .values(version=bindparam("v"), state=bindparam("text")))
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


class Tx:
    """The queries of one transaction."""

    def __init__(self, session: Session, sqlite: bool) -> None:
        self.session = session
        self.sqlite = sqlite
        self.after_commit: list[Callable[[], None]] = []  # run only once the transaction has committed

    # games
    def live_game(self, guild_id: str, channel_id: str) -> GameRow | None:
        """The lobby or running game of a channel, locked for this transaction."""
        query = _LIVE_GAME if self.sqlite else _LIVE_GAME.with_for_update()
        return self.session.exec(query, params={"guild": guild_id, "channel": channel_id}).first()

    def game(self, game_id: int) -> GameRow | None:
        """A game by id, locked for this transaction."""
        query = select(GameRow).where(GameRow.id == game_id)
        if not self.sqlite:
            query = query.with_for_update()
        return self.session.exec(query).first()

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
        game.version = expected + 1  # the ORM may already have synchronised it; set, never add
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
        last = self.session.exec(_LAST_SEQ, params={"game": game.id}).one()
        self.session.add(ActionRow(game_id=game.id, seq=(last or 0) + 1, seat=seat, author_id=author_id,
                                   notation=notation, summary=summary, version=game.version))

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
        """A prompt by id."""
        return self.session.get(PromptRow, prompt_id)

    def add_prompt(self, row: PromptRow) -> PromptRow:
        """Open a prompt."""
        self.session.add(row)
        self.session.flush()
        return row

    def save_prompt(self, row: PromptRow) -> None:
        """Store a changed prompt (written at the next flush or the commit)."""
        self.session.add(row)

    def due_game_ids(self, moment: datetime) -> list[int]:
        """Games with an open prompt whose deadline has passed."""
        query = select(PromptRow.game_id).where(PromptRow.status == "open", PromptRow.deadline <= moment).distinct()
        return sorted(self.session.exec(query))

    # outbox
    def add_outbox(self, rows: list[dict[str, Any]]) -> list[OutboxRow]:
        """Queue messages (OutboxRow fields as dicts) to send once this transaction commits, in one INSERT; returns
        them as rows with their ids."""
        if not rows:
            return []
        ids = self.session.execute(_ADD_OUTBOX, rows).scalars().all()
        return [OutboxRow.model_construct(id=row_id, **row) for row_id, row in zip(ids, rows, strict=True)]

    def last_outbox_id(self) -> int:
        """The id of the newest queued message (0 when there is none)."""
        return int(self.session.exec(select(func.max(OutboxRow.id))).one() or 0)

    def mark_sent(self, row_ids: list[int], moment: datetime) -> None:
        """Record that these queued messages were delivered."""
        self.session.execute(update(OutboxRow).where(col(OutboxRow.id).in_(row_ids)).values(status="sent",
                                                                                            sent_at=moment))

    def pending_outbox(self, limit: int = 200) -> list[OutboxRow]:
        """Messages not yet sent, oldest first (due or waiting for a retry)."""
        query = select(OutboxRow).where(OutboxRow.status == "pending").order_by(col(OutboxRow.id)).limit(limit)
        return list(self.session.exec(query))

    def outbox_row(self, row_id: int) -> OutboxRow | None:
        """One queued message by id."""
        return self.session.get(OutboxRow, row_id)

    def save_outbox(self, row: OutboxRow) -> None:
        """Store a changed queued message."""
        self.session.add(row)
        self.session.flush()

    def outbox_kinds(self, game_id: int | None, kind: str) -> list[OutboxRow]:
        """A game's queued or sent messages of one kind, oldest first."""
        query = select(OutboxRow).where(OutboxRow.game_id == game_id, OutboxRow.kind == kind)
        return list(self.session.exec(query.order_by(col(OutboxRow.id))))

    # recipients
    def recipient(self, user_id: str) -> RecipientRow:
        """What is known of a user's DMs (a blank record when nothing is)."""
        return self.session.get(RecipientRow, user_id) or RecipientRow(user_id=user_id)

    def save_recipient(self, row: RecipientRow) -> None:
        """Store what is known of a user's DMs."""
        self.session.merge(row)

    # settings
    def settings(self, guild_id: str, decision_minutes: int = 720, reminder_hours: int = 24) -> GuildSettingsRow:
        """A server's settings (the given defaults when it has none)."""
        return self.session.get(GuildSettingsRow, guild_id) or GuildSettingsRow(
            guild_id=guild_id, decision_minutes=decision_minutes, reminder_hours=reminder_hours)

    def save_settings(self, row: GuildSettingsRow) -> None:
        """Store a server's settings."""
        self.session.merge(row)

    def execute_raw(self, sql: str) -> Any:
        """Run a literal SQL statement (used by maintenance commands and tests)."""
        return self.session.execute(text(sql))
