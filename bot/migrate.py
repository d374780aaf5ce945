"""Brings a Keywood database to the schema this code expects, with Alembic, and backs up SQLite files first.

Every Store opening calls `upgrade`; at the newest revision it costs one small query and loads no Alembic script.
After revisions ran on a SQLite file, it is vacuumed, so that the space they freed goes back to the file system.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Column, Connection, Engine, MetaData, PrimaryKeyConstraint, String, Table, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

# oldest first; a test checks the scripts
REVISIONS: tuple[str, ...] = ("0001_initial", "0002_decisions_outbox", "0003_shards", "0004_covered_indexes",
                              "0005_open_deadlines", "0006_sent_images")
HEAD: str = REVISIONS[-1]
"""The newest revision id known to this code."""
INITIAL = REVISIONS[0]
PRE_ALEMBIC_TABLES = frozenset({"games", "seats", "actions", "snapshots", "prompts", "guild_settings"})
SCRIPTS = Path(str(resources.files("bot.migrations")))  # package data: the revisions ship in the wheel
PG_LOCK_KEY = 0x4B6579776F6F64  # "Keywood": one migrating process at a time on a shared PostgreSQL database
log = logging.getLogger("keywood")

# Alembic's own version table, written directly when a new database is created at HEAD (no script loading).
_VERSION = Table(
    "alembic_version",
    MetaData(),
    Column("version_num", String(32), nullable=False),
    PrimaryKeyConstraint("version_num", name="alembic_version_pkc"),
)


class SchemaTooNew(RuntimeError):
    """The database was migrated by a newer Keywood than this one."""

    def __init__(self, revision: str) -> None:
        self.revision = revision
        super().__init__(
            f"This database has schema revision {revision!r}, which this version of Keywood does not know "
            f"(the newest it knows is {HEAD!r}): a newer Keywood has upgraded it. Upgrade Keywood, or point it "
            "at another database. The database was left untouched."
        )


class NotKeywoodDatabase(RuntimeError):
    """The database holds tables but neither a schema version nor Keywood's original tables."""

    def __init__(self, missing: set[str]) -> None:
        super().__init__(
            "This database has tables but is not a Keywood database (no schema version, and no "
            f"{', '.join(sorted(missing))} table): point Keywood at another database. It was left untouched."
        )


def upgrade(engine: Engine, url: str, create_all: Callable[[Connection], None]) -> str | None:
    """Bring the database to HEAD; return the path of the backup written first, or None when none was needed."""
    versions = stored_versions(engine)
    if versions == [HEAD]:
        return None
    unknown = [v for v in versions or () if v not in REVISIONS]
    if unknown:
        raise SchemaTooNew(unknown[0])
    with engine.begin() as connection:  # on SQLite the store's listener makes this BEGIN IMMEDIATE
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_LOCK_KEY})
        ran, backup = _upgrade_locked(connection, url, create_all)
    if ran:  # committed: VACUUM cannot run inside a transaction
        give_back_space(engine)
    return backup


def give_back_space(engine: Engine) -> None:
    """VACUUM a SQLite database and checkpoint its write-ahead log, so that the file shrinks to what it holds (e.g.
    after 0006_sent_images dropped the images of sent messages); nothing for another database (PostgreSQL reuses
    the space by itself). A VACUUM that cannot run (the file held busy past the lock wait, no room on the disk for
    its copy) is logged and skipped: the upgrade stands, only the space is not given back yet."""
    if engine.dialect.name != "sqlite":
        return
    raw = engine.raw_connection()  # the driver's connection, outside any transaction (isolation_level None)
    try:
        cursor = raw.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute("VACUUM")
            cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            cursor.close()
    except sqlite3.Error as exc:
        log.warning("the database was upgraded, but VACUUM failed (%s): its free space was not given back; "
                    "a VACUUM with Keywood stopped gives it back (docs/deploy.md, \"How big the database gets\")", exc)
    finally:
        raw.close()


def stored_versions(engine: Engine) -> list[str] | None:
    """The revisions in alembic_version (one query); None when the table cannot be read (e.g. it is missing)."""
    try:
        with engine.connect() as connection:
            return [str(v) for v in connection.execute(text("SELECT version_num FROM alembic_version")).scalars()]
    except DBAPIError:
        return None


def _upgrade_locked(connection: Connection, url: str,
                    create_all: Callable[[Connection], None]) -> tuple[bool, str | None]:
    """Decide again under the write lock (another process may have upgraded meanwhile), then upgrade; returns whether
    revisions ran, and the backup written first."""
    tables = set(inspect(connection).get_table_names())
    versions: list[str] = []
    if _VERSION.name in tables:
        versions = [str(v) for v in connection.execute(text("SELECT version_num FROM alembic_version")).scalars()]
        tables.discard(_VERSION.name)
    if versions == [HEAD]:
        return False, None
    unknown = [v for v in versions if v not in REVISIONS]
    if unknown:
        raise SchemaTooNew(unknown[0])
    if not tables:  # a new database: the models' tables at once, stamped HEAD, no migration run one by one
        create_all(connection)
        _VERSION.create(connection, checkfirst=True)
        connection.execute(_VERSION.delete())
        connection.execute(_VERSION.insert().values(version_num=HEAD))
        return False, None
    if not versions and not PRE_ALEMBIC_TABLES <= tables:
        raise NotKeywoodDatabase(set(PRE_ALEMBIC_TABLES - tables))
    backup = _backup(connection, url, versions[0] if versions else "pre-alembic")
    config = alembic_config(connection)
    if not versions:  # written before Keywood used Alembic: the schema of revision 0001
        command.stamp(config, INITIAL)
    command.upgrade(config, HEAD)
    return True, backup


def alembic_config(connection: Connection) -> Config:
    """An Alembic configuration (no ini file) that runs bot/migrations on this connection, in its transaction."""
    config = Config()
    config.set_main_option("script_location", str(SCRIPTS).replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def _backup(connection: Connection, url: str, tag: str) -> str | None:
    """Copy a SQLite file, as committed, to `<file>.backup-<tag>-<UTC time>` with the online backup API."""
    if connection.dialect.name != "sqlite":
        return None
    database = make_url(url).database
    if not database or database == ":memory:" or "mode=memory" in url:
        return None
    source_path = Path(database)
    if database.startswith("file:"):  # a SQLite URI filename (?uri=true): the path part
        source_path = Path(database[len("file:"):].split("?", 1)[0])
    moment = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
    target = Path(f"{source_path}.backup-{tag}-{moment}")
    counter = 1
    while target.exists():  # never overwrite an earlier backup
        counter += 1
        target = Path(f"{source_path}.backup-{tag}-{moment}-{counter}")
    # A separate reader sees the last committed state, which this transaction (holding the write lock, nothing
    # written yet) keeps unchanged until the copy is done.
    source = sqlite3.connect(source_path, timeout=60)
    try:
        copy = sqlite3.connect(target)
        try:
            source.backup(copy)
        finally:
            copy.close()
    finally:
        source.close()
    return str(target)
