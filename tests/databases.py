"""The databases store tests run on: a SQLite file, or a fresh database on the suite's own PostgreSQL server.

A test (or a whole module, through `pytestmark`) marked `@pytest.mark.databases("sqlite", "postgresql")` and using
the `database` fixture (directly, or through `table`, `started`...) runs once on each; unmarked, it runs on SQLite
only. The PostgreSQL server (tests/postgres.py) starts at the first test that needs it and stops at the end of the
session; each test gets an empty database on it (one at HEAD, reused once emptied, when the test plays at a
`table`). Where the machine has no server binaries those variants are skipped, saying why, unless
KEYWOOD_REQUIRE_POSTGRES=1 (set by .ci/run), which makes a missing server a failure.

`Database` reads and writes on its own connection, never the store's: `rows`, `execute`, and `dump` (the whole
content, to prove that something changed nothing).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

KINDS = ("sqlite", "postgresql")


@dataclass(frozen=True)
class Database:
    """A database a test runs on: its kind, its store URL, and for SQLite its file."""

    kind: str
    url: str
    path: Path | None = None

    @property
    def sqlite(self) -> bool:
        """Whether this is a SQLite file."""
        return self.kind == "sqlite"

    def rows(self, sql: str) -> list[tuple[Any, ...]]:
        """The rows of one query, on a connection of its own."""
        if self.path is not None:
            con = sqlite3.connect(self.path)
            try:
                return [tuple(r) for r in con.execute(sql).fetchall()]
            finally:
                con.close()
        with _pg(self.url) as con:
            return [tuple(r) for r in con.execute(sql).fetchall()]

    def execute(self, *statements: str) -> None:
        """Run statements on a connection of its own, committed together."""
        if self.path is not None:
            con = sqlite3.connect(self.path)
            try:
                with con:
                    for statement in statements:
                        con.execute(statement)
            finally:
                con.close()
            return
        with _pg(self.url, autocommit=False) as con:
            for statement in statements:
                con.execute(statement)  # type: ignore[arg-type]

    def count(self, sql: str) -> int:
        """One integer from a query."""
        return int(self.rows(sql)[0][0])

    def dump(self) -> tuple[str, bytes]:
        """The whole database as text, and a second part that changes on any write: for SQLite the main file's
        bytes after the WAL is checkpointed into it, for PostgreSQL every row with its xmin (a row rewritten with the
        same values gets a new one)."""
        if self.path is not None:
            return sqlite_dump(self.path)
        with _pg(self.url) as con:
            text: list[str] = []
            versions: list[str] = []
            for (table,) in con.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"):
                columns = con.execute("SELECT column_name, data_type, is_nullable, column_default FROM "
                                      "information_schema.columns WHERE table_schema = 'public' AND table_name = %s "
                                      "ORDER BY ordinal_position", (table,)).fetchall()
                text.append(f"TABLE {table} {columns}")
                found = con.execute(f'SELECT xmin::text, * FROM "{table}"').fetchall()
                text += sorted(f"{table} {row[1:]!r}" for row in found)
                versions += sorted(f"{table} {row!r}" for row in found)
            text += [f"{r}" for r in con.execute("SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' "
                                                 "ORDER BY indexname")]
            text += [f"{r}" for r in con.execute("SELECT trigger_name, event_object_table FROM "
                                                 "information_schema.triggers ORDER BY 1, 2")]
        return "\n".join(text), "\n".join(versions).encode()


def sqlite_dump(path: Path | str) -> tuple[str, bytes]:
    """A SQLite file as SQL text, and its bytes after the WAL is checkpointed into it (its own connection)."""
    con = sqlite3.connect(path)
    try:
        text = "\n".join(con.iterdump())
        # A store connection's commit may be checkpointing at this moment (SQLITE_BUSY, the log not copied): try
        # again, for up to 5 s, until the whole log is in the file.
        deadline = time.monotonic() + 5
        while con.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        con.close()
    return text, Path(path).read_bytes()


def _pg(url: str, *, autocommit: bool = True) -> Any:
    """A psycopg connection to a store URL (postgresql+psycopg://...)."""
    import psycopg

    return psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://", 1), autocommit=autocommit)


# fixtures and the `databases` marker (registered by tests/conftest.py)


def generate(metafunc: pytest.Metafunc) -> None:
    """Run a test that uses `database` once per kind its `databases` marker names (only SQLite when unmarked)."""
    if "database" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("databases")
    if marker is None:
        return
    unknown = set(marker.args) - set(KINDS)
    assert not unknown, f"unknown database kinds {unknown} (known: {KINDS})"
    metafunc.parametrize("database", list(marker.args), indirect=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Any]:
    """The session's PostgreSQL server, started on first use; skips (fails under KEYWOOD_REQUIRE_POSTGRES=1) when
    this machine cannot run one."""
    from tests.postgres import Server, Unavailable

    try:
        server = Server().start()
    except Unavailable as exc:
        if os.environ.get("KEYWOOD_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"KEYWOOD_REQUIRE_POSTGRES=1 but {exc}", pytrace=False)
        pytest.skip(str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """The test's database: a new SQLite file in its temp dir, or an empty database on the PostgreSQL server (with
    Keywood's tables already made when the test uses a `table`, which would make them at once)."""
    at_head = "table" in request.fixturenames
    with new_database(request, getattr(request, "param", "sqlite"), tmp_path / "keywood.db", at_head) as made:
        yield made


@contextlib.contextmanager
def new_database(request: pytest.FixtureRequest, kind: str, path: Path, at_head: bool = False) -> Iterator[Database]:
    """A new empty database of a kind: the SQLite file at path (not created yet), or a database on the session's
    PostgreSQL server (at_head: with the tables a new Store makes), dropped afterwards."""
    if kind == "sqlite":
        yield Database("sqlite", f"sqlite:///{path}", path)
        return
    server = request.getfixturevalue("postgres_server")
    with server.database(at_head=at_head) as name:
        yield Database("postgresql", server.url(name))
