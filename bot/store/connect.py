"""Engines: a database URL opened as the store uses it, and its schema brought up to date.

SQLite (the default, `keywood.db`): WAL, foreign keys on, and every writing transaction BEGIN IMMEDIATE, so that
commands on one file run one after the other and a read-then-write never deadlocks; a reading transaction (a
connection with the execution option READING) is a plain BEGIN, which in WAL mode waits for no writer. PostgreSQL (`postgresql+psycopg://...`):
sessions in UTC; its row and advisory locks are taken by the queries (bot/store/core.py).
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.pool import QueuePool, StaticPool
from sqlmodel import create_engine

from bot.store.rows import METADATA

DEFAULT_URL = "sqlite:///keywood.db"


READING = "keywood_reading"  # a connection's execution option: its transactions only read
LOCK_WAIT = 60.0  # seconds a SQLite transaction waits for another program's lock before it fails as "locked"


def make_engine(url: str = DEFAULT_URL, lock_wait: float = LOCK_WAIT) -> Engine:
    """Create the database engine and bring its schema up to date (raises migrate.SchemaTooNew for a newer one)."""
    engine = connect(url, lock_wait)
    from bot import migrate

    migrate.upgrade(engine, url, METADATA.create_all)
    return engine


def backup(url: str, target: Path) -> None:
    """Copy a SQLite database, as it stands committed, to a new file, with SQLite's online backup: consistent while
    other connections write (the write-ahead log included, a transaction in flight left out), taking no write lock
    and leaving the schema as it is; raises ValueError for another kind of database."""
    engine = connect(url)
    try:
        if engine.dialect.name != "sqlite":
            raise ValueError("only a SQLite database is copied this way")
        raw = engine.raw_connection()
        try:
            with contextlib.closing(sqlite3.connect(target)) as copy:
                raw.driver_connection.backup(copy)  # type: ignore[union-attr]
        finally:
            raw.close()
    finally:
        engine.dispose()


def connect(url: str, lock_wait: float = LOCK_WAIT) -> Engine:
    """The engine of a database URL, set up as the store uses it, without touching the schema."""
    if not url.startswith("sqlite"):
        engine = create_engine(url)
        if engine.dialect.name == "postgresql":
            event.listen(engine, "connect", _postgres_connect)
        return engine
    memory = ":memory:" in url or url in ("sqlite://", "sqlite:///")
    # One shared connection keeps an in-memory database alive; a file gets a pool of connections.
    pool = StaticPool if memory else QueuePool
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": lock_wait}, poolclass=pool)
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    """Let SQLAlchemy, not the driver, begin transactions; switch on WAL and foreign keys."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")  # WAL's usual setting: a power cut may lose the last commits, no more
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    """Take the write lock at the start of every writing transaction (two commands on one game never both apply);
    a reading one takes none."""
    connection.exec_driver_sql("BEGIN" if connection.get_execution_options().get(READING) else "BEGIN IMMEDIATE")


def _postgres_connect(dbapi_connection: Any, _record: Any) -> None:
    """Set the session's time zone to UTC (a column with a time zone, in a database made by an older Keywood, is
    then read and compared in UTC too)."""
    cursor = dbapi_connection.cursor()
    cursor.execute("SET TIME ZONE 'UTC'")
    cursor.close()
    dbapi_connection.commit()
