"""A throwaway PostgreSQL server for the tests, started from the machine's own binaries.

`Server.start()` runs initdb into a new folder under /tmp, starts postgres listening only on a Unix socket in that
folder (no TCP port, so nothing can clash with another server), and leaves a watchdog process holding a pipe from
this one: when the pipe closes (the session ends, or pytest dies however it dies) the watchdog stops the server and
deletes the folder. So no server outlives the test run.

PostgreSQL refuses to run as root: then the server runs as the `postgres` system user (or `nobody` when there is
none), which owns the folder. Durability is switched off (fsync, full page writes): the data is thrown away anyway.
The server's time zone is deliberately not UTC, so the store must set its own.

Binaries are looked for in $KEYWOOD_PG_BIN, then on PATH, then in /usr/lib/postgresql/*/bin (Debian, newest first)
and /usr/local/pgsql/bin.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

SUPERUSER = "postgres"
SERVER_TIME_ZONE = "Pacific/Auckland"  # not UTC, on purpose
SETTINGS = {
    "listen_addresses": "",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",
    "timezone": SERVER_TIME_ZONE,
    "log_min_messages": "warning",
}

# The watchdog: waits for its stdin to close, then stops the server at once and removes its folder.
WATCHDOG = """
import os, shutil, subprocess, sys
pg_ctl, data, root, user = sys.argv[1:5]
sys.stdin.buffer.read()
kwargs = {} if user == "-" else {"user": user, "extra_groups": []}
subprocess.run([pg_ctl, "stop", "-D", data, "-m", "immediate", "-w", "-t", "30"], stdout=subprocess.DEVNULL,
               stderr=subprocess.DEVNULL, cwd="/", **kwargs)
shutil.rmtree(root, ignore_errors=True)
"""


class Unavailable(RuntimeError):
    """No PostgreSQL server binaries on this machine (or no psycopg); the message says what is missing."""


def find_bindir() -> Path:
    """The folder holding initdb and pg_ctl; raises Unavailable when there is none."""
    candidates: list[Path] = []
    if os.environ.get("KEYWOOD_PG_BIN"):
        candidates.append(Path(os.environ["KEYWOOD_PG_BIN"]))
    on_path = shutil.which("pg_ctl")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: _version(p.parent.name), reverse=True)
    candidates += [*debian, Path("/usr/local/pgsql/bin")]
    for folder in candidates:
        if all((folder / name).is_file() for name in ("initdb", "pg_ctl", "postgres")):
            return folder
    raise Unavailable("no PostgreSQL server binaries (initdb, pg_ctl, postgres) in $KEYWOOD_PG_BIN, on PATH, in "
                      "/usr/lib/postgresql/*/bin or /usr/local/pgsql/bin; install them (Debian: apt-get install "
                      "postgresql) to run the PostgreSQL variants of the store tests")


def _version(name: str) -> tuple[int, ...]:
    """'15' -> (15,), for sorting Debian's version folders; non-numbers sort first."""
    return tuple(int(part) for part in name.split(".") if part.isdigit()) or (0,)


def _server_user() -> str | None:
    """Who runs the server: None for the current user, or a system user when we are root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise Unavailable("running as root with no 'postgres' or 'nobody' user to run PostgreSQL as")


class Server:
    """One running throwaway server; `database()` hands out fresh databases on it."""

    def __init__(self) -> None:
        try:
            import psycopg  # noqa: F401 - only to fail early with a clear reason
        except ImportError as exc:
            raise Unavailable(f"psycopg is not installed ({exc}); pip install -e '.[test]'") from None
        self.bindir = find_bindir()
        self.user = _server_user()
        # A short path: a Unix socket's full name must stay under about 100 bytes.
        self.root = Path(tempfile.mkdtemp(prefix="kwpg-", dir="/tmp"))
        self.data = self.root / "data"
        self.watchdog: subprocess.Popen[bytes] | None = None
        self._names = itertools.count(1)
        self._template = ""
        self._schema: list[tuple[str, ...]] = []
        self._free: list[str] = []  # databases at HEAD, emptied, ready for the next test
        self._made: set[str] = set()

    def _run(self, *args: str) -> None:
        """Run a server binary (as the server's user); raises RuntimeError with its output when it fails."""
        kwargs = {} if self.user is None else {"user": self.user, "extra_groups": []}
        done = subprocess.run([str(self.bindir / args[0]), *args[1:]], capture_output=True, text=True, timeout=120,
                              cwd=self.root, **kwargs)  # type: ignore[call-overload]
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed ({done.returncode}): {done.stdout}{done.stderr}")

    def start(self) -> Server:
        """initdb, start on a Unix socket in the folder, and arm the watchdog; returns self."""
        if self.user is not None:
            record = pwd.getpwnam(self.user)
            os.chown(self.root, record.pw_uid, record.pw_gid)
        self.watchdog = subprocess.Popen(
            [sys.executable, "-c", WATCHDOG, str(self.bindir / "pg_ctl"), str(self.data), str(self.root),
             self.user or "-"], stdin=subprocess.PIPE, start_new_session=True, cwd="/")
        try:
            self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--locale=C",
                      "--no-sync")
            options = " ".join(f"-c {name}={value or repr('')}" for name, value in SETTINGS.items())
            self._run("pg_ctl", "start", "-D", str(self.data), "-l", str(self.root / "server.log"), "-w", "-t", "60",
                      "-o", f"-k {self.root} {options}")
        except BaseException as exc:
            log = self.root / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            self.stop()
            if tail and isinstance(exc, RuntimeError):
                raise RuntimeError(f"{exc}\nserver log:\n{tail}") from None
            raise
        return self

    def stop(self) -> None:
        """Stop the server and remove its folder (the watchdog does both once its pipe closes)."""
        if self.watchdog is None:
            shutil.rmtree(self.root, ignore_errors=True)
            return
        assert self.watchdog.stdin is not None
        self.watchdog.stdin.close()
        self.watchdog.wait(timeout=60)
        self.watchdog = None

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of a database on this server (psycopg 3, over the Unix socket)."""
        return f"postgresql+psycopg://{SUPERUSER}@/{database}?host={self.root}"

    @contextlib.contextmanager
    def database(self, *, at_head: bool = False) -> Iterator[str]:
        """A database for one test: a new empty one (dropped afterwards, with any connection still open to it), or
        at_head: one with Keywood's tables as a new Store makes them and no rows. Those are copied from a template
        made once, and reused: after the test its connections are closed and its tables emptied (ids restarting
        at 1), unless the test changed its schema (then it is dropped). Emptying costs far less than CREATE
        DATABASE."""
        if not at_head:
            name = f"kw_{next(self._names)}"
            self._admin(f"CREATE DATABASE {name}")
            try:
                yield name
            finally:
                self._admin(f"DROP DATABASE {name} WITH (FORCE)")
            return
        template = self._head_template()
        name = self._free.pop() if self._free else f"kw_{next(self._names)}"
        if name not in self._made:
            self._admin(f"CREATE DATABASE {name} TEMPLATE {template}")
            self._made.add(name)
        try:
            yield name
        finally:
            if self._empty(name):
                self._free.append(name)
            else:
                self._admin(f"DROP DATABASE {name} WITH (FORCE)")
                self._made.discard(name)

    def _head_template(self) -> str:
        """The database a new Store made (schema at HEAD, no rows), made on first use, with its schema's print."""
        if not self._template:
            from bot.store import Store

            self._admin("CREATE DATABASE kw_head")
            Store(self.url("kw_head")).close()
            self._template = "kw_head"
            self._schema = self._schema_of("kw_head")
        return self._template

    def _schema_of(self, name: str, con: Any = None) -> list[tuple[str, ...]]:
        """What a test might add to or change in a database's schema: relations, columns, triggers, functions."""
        import psycopg

        if con is None:
            with psycopg.connect(host=str(self.root), user=SUPERUSER, dbname=name, autocommit=True) as own:
                return self._schema_of(name, own)
        return [tuple(str(v) for v in row) for row in con.execute(
            "SELECT 'relation', relname, relkind::text, '' FROM pg_class c JOIN pg_namespace n ON n.oid = "
            "relnamespace WHERE nspname = 'public' UNION ALL SELECT 'column', table_name, column_name, data_type "
            "FROM information_schema.columns WHERE table_schema = 'public' UNION ALL SELECT 'trigger', tgname, "
            "'', '' FROM pg_trigger WHERE NOT tgisinternal UNION ALL SELECT 'function', proname, '', '' FROM "
            "pg_proc p JOIN pg_namespace n ON n.oid = pronamespace WHERE nspname = 'public' ORDER BY 1, 2, 3, 4")]

    def _empty(self, name: str) -> bool:
        """Close every other connection to a database and empty its tables; False (nothing emptied) when its schema
        is no longer the template's."""
        import psycopg

        with psycopg.connect(host=str(self.root), user=SUPERUSER, dbname=name, autocommit=True) as con:
            con.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
                        "AND pid != pg_backend_pid()")
            if self._schema_of(name, con) != self._schema:
                return False
            tables = [r[0] for r in con.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND "
                                                "tablename != 'alembic_version'")]
            con.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE")  # type: ignore[arg-type]
        return True

    def _admin(self, statement: str) -> None:
        """Run one statement on the server's maintenance database."""
        import psycopg

        with psycopg.connect(host=str(self.root), user=SUPERUSER, dbname="postgres", autocommit=True) as admin:
            admin.execute(statement)  # type: ignore[arg-type]
