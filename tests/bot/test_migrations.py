"""Schema migrations: new databases, the pre-Alembic database of commit ff0c4a6, no-op reopening, refusals.

Every test works on copies in tmp_path; tests/fixtures/keywood-ff0c4a6.db (written by the code of ff0c4a6, with
three players, one action, two joiner prompts, a reminder and a guild's settings) is never opened in place.

The tests that take a `database` run on SQLite and on PostgreSQL: there the ff0c4a6 database is rebuilt from the
file (revision 0001's tables, no alembic_version, the same rows) and must upgrade to the same data. Backups are
SQLite's own (PostgreSQL has none to write); the revision 0001 schema compared with the file's, the in-memory
database and the `keywood` command on the file stay SQLite-only.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import sqlite3
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Boolean, DateTime, Engine, MetaData, Table, event, inspect
from sqlmodel import SQLModel

from bot import migrate, store
from bot.store.prompts import due_games
from tests.databases import Database, new_database

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "keywood-ff0c4a6.db"
BACKUP_NAME = re.compile(r"^keywood\.db\.backup-pre-alembic-\d{14}$")
OLD_TABLES = ("games", "guild_settings", "seats", "actions", "snapshots", "prompts")  # ff0c4a6's, parents first

pytestmark = pytest.mark.databases("sqlite", "postgresql")


@pytest.fixture
def engines() -> Iterator[list[Engine]]:
    """Engines made by a test, disposed of at its end."""
    made: list[Engine] = []
    yield made
    for engine in made:
        engine.dispose()


def open_engine(engines: list[Engine], target: Path | str | Database) -> Engine:
    """An engine set up as the store's (store.connect: on SQLite WAL, foreign keys, BEGIN IMMEDIATE), creating no
    table, on a database, a file, or memory for "sqlite://"."""
    if isinstance(target, Database):
        url = target.url
    else:
        url = str(target) if str(target).startswith("sqlite") else f"sqlite:///{target}"
    engine = store.connect(url)
    engines.append(engine)
    return engine


def upgrade(engine: Engine) -> str | None:
    """Run the migration runner as the store will."""
    return migrate.upgrade(engine, str(engine.url), SQLModel.metadata.create_all)


def step_by_step(engine: Engine) -> None:
    """Run every revision in turn on an empty database, one transaction each, as a long-lived database sees them."""
    for revision in migrate.REVISIONS:
        with engine.begin() as connection:
            command.upgrade(migrate.alembic_config(connection), revision)


def schema(engine: Engine) -> dict[str, Any]:
    """Tables with their columns (type, nullability, server default), keys, unique constraints and indexes."""
    inspector = inspect(engine)
    tables: dict[str, Any] = {}
    for table in sorted(inspector.get_table_names()):
        tables[table] = {
            "columns": {c["name"]: (str(c["type"]), c["nullable"], c.get("default"))
                        for c in inspector.get_columns(table)},
            "primary key": inspector.get_pk_constraint(table)["constrained_columns"],
            "foreign keys": sorted((tuple(f["constrained_columns"]), f["referred_table"], tuple(f["referred_columns"]))
                                   for f in inspector.get_foreign_keys(table)),
            "unique": sorted(tuple(u["column_names"]) for u in inspector.get_unique_constraints(table)),
            "indexes": sorted((i["name"], tuple(str(c) for c in i["column_names"]), bool(i["unique"]))
                              for i in inspector.get_indexes(table)),
        }
    return tables


def rows(target: Path | Database, table: str) -> list[dict[str, Any]]:
    """Every row of a table as stored (raw sqlite3, no type conversion), in rowid order; from PostgreSQL in the
    order of the first column (every table's key), times and booleans written as SQLite stores them."""
    if isinstance(target, Database) and target.path is None:
        found = target.rows(f"SELECT * FROM {table} ORDER BY 1")
        names = [r[0] for r in target.rows("SELECT column_name FROM information_schema.columns WHERE table_name = "
                                           f"'{table}' ORDER BY ordinal_position")]
        return [{name: as_sqlite(value) for name, value in zip(names, row, strict=True)} for row in found]
    path = target.path if isinstance(target, Database) else target
    assert path is not None
    with sqlite3.connect(path) as connection:
        connection.row_factory = sqlite3.Row
        return [dict(r) for r in connection.execute(f"SELECT * FROM {table} ORDER BY rowid")]


def as_sqlite(value: Any) -> Any:
    """A value read from PostgreSQL as SQLAlchemy stores it in SQLite (times as text, booleans as 0 or 1)."""
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S.%f")
    return int(value) if isinstance(value, bool) else value


def dump(target: Path | Database) -> list[str]:
    """The whole content of a database as text (SQLite: as SQL statements)."""
    if isinstance(target, Database):
        return target.dump()[0].splitlines()
    connection = sqlite3.connect(target)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


def stored_version(target: Path | Database) -> list[str]:
    """The revisions recorded in alembic_version."""
    if isinstance(target, Database):
        return [r[0] for r in target.rows("SELECT version_num FROM alembic_version")]
    with sqlite3.connect(target) as connection:
        return [r[0] for r in connection.execute("SELECT version_num FROM alembic_version")]


def digest(path: Path) -> str:
    """The SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def old_db(database: Database, tmp_path: Path, engines: list[Engine]) -> Iterator[tuple[Database, Path]]:
    """The ff0c4a6 database to upgrade (on SQLite a copy of the file, keywood.db; on PostgreSQL the same tables and
    rows) and a copy of the file kept pristine (original/old.db)."""
    before = digest(FIXTURE)
    (tmp_path / "original").mkdir()
    shutil.copyfile(FIXTURE, tmp_path / "original" / "old.db")
    if database.path is not None:
        shutil.copyfile(FIXTURE, database.path)
    else:
        load_old(database, tmp_path / "original" / "old.db", engines)
    yield database, tmp_path / "original" / "old.db"
    assert digest(FIXTURE) == before, "the fixture must never change"


def load_old(database: Database, source: Path, engines: list[Engine]) -> None:
    """Rebuild a pre-Alembic SQLite database on PostgreSQL: revision 0001's tables without alembic_version (as the
    code of ff0c4a6 left a database), the file's rows with their ids, the id sequences past them."""
    engine = open_engine(engines, database)
    with engine.begin() as connection:
        command.upgrade(migrate.alembic_config(connection), migrate.INITIAL)
        connection.exec_driver_sql("DROP TABLE alembic_version")
    with sqlite3.connect(source) as old, engine.begin() as connection:
        old.row_factory = sqlite3.Row
        for name in OLD_TABLES:
            table = Table(name, MetaData(), autoload_with=connection)
            found = [dict(r) for r in old.execute(f"SELECT * FROM {name} ORDER BY rowid")]
            for row in found:
                for column in table.columns:
                    if isinstance(column.type, Boolean) and row[column.name] is not None:
                        row[column.name] = bool(row[column.name])
                    elif isinstance(column.type, DateTime) and row[column.name] is not None:
                        row[column.name] = datetime.fromisoformat(row[column.name])
            if found:
                connection.execute(table.insert(), found)
            if "id" in table.columns:
                connection.exec_driver_sql(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                                           f"(SELECT coalesce(max(id), 0) + 1 FROM {name}), false)")
    engine.dispose()


def files(folder: Path) -> set[str]:
    """The names of the database files and backups in a folder (not SQLite's -wal and -shm companions)."""
    return {p.name for p in folder.iterdir() if p.is_file() and not p.name.endswith(("-wal", "-shm"))}


def test_the_known_revisions_are_the_scripts_in_order() -> None:
    """HEAD and REVISIONS, which the at-head check reads without loading scripts, match bot/migrations."""
    script = ScriptDirectory(str(migrate.SCRIPTS))
    assert script.get_heads() == [migrate.HEAD]
    chain = [r.revision for r in script.walk_revisions("base", "heads")]
    assert tuple(reversed(chain)) == migrate.REVISIONS


@pytest.mark.databases("sqlite")
def test_the_initial_revision_is_the_ff0c4a6_schema(tmp_path: Path, old_db: tuple[Database, Path],
                                                    engines: list[Engine]) -> None:
    """0001 alone writes, statement for statement, the tables and indexes that the code of ff0c4a6 created."""
    engine = open_engine(engines, tmp_path / "initial.db")
    with engine.begin() as connection:
        command.upgrade(migrate.alembic_config(connection), migrate.INITIAL)
    engine.dispose()
    query = "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE tbl_name != 'alembic_version' ORDER BY 1, 2"
    with sqlite3.connect(tmp_path / "initial.db") as mine, sqlite3.connect(old_db[1]) as theirs:
        assert mine.execute(query).fetchall() == theirs.execute(query).fetchall()


def test_a_new_database_is_created_at_head_with_the_migrated_schema(database: Database, tmp_path: Path,
                                                                   engines: list[Engine],
                                                                   request: pytest.FixtureRequest) -> None:
    """The fast path (the models' create_all, stamped HEAD) gives the schema the revisions build one by one.

    Needs bot/store/rows.py's models at the 0002 schema (prompts.key with server default '', decision_minutes, outbox,
    recipients; times in columns without a time zone).
    """
    fresh = open_engine(engines, database)
    assert upgrade(fresh) is None
    assert stored_version(database) == [migrate.HEAD]
    with new_database(request, database.kind, tmp_path / "migrated.db") as other:
        migrated = open_engine(engines, other)
        step_by_step(migrated)
        assert stored_version(other) == [migrate.HEAD]
        assert schema(fresh) == schema(migrated)
        migrated.dispose()
    assert not [name for name in files(tmp_path) if ".backup-" in name]  # no backup of a new database


def test_the_migrated_schema_matches_the_models(database: Database, engines: list[Engine]) -> None:
    """Alembic's autogenerate finds nothing to change between the revisions' result and bot/store/rows.py's models.

    Needs bot/store/rows.py's models at the 0002 schema.
    """
    engine = open_engine(engines, database)
    step_by_step(engine)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, SQLModel.metadata)
    assert differences == []


def test_the_ff0c4a6_database_is_upgraded_with_its_data(old_db: tuple[Database, Path], engines: list[Engine]) -> None:
    """Games, seats, log and snapshots survive; prompts, settings and options take the new shape; a SQLite file is
    backed up first."""
    path, original = old_db
    backup = upgrade(open_engine(engines, path))
    for engine in engines:
        engine.dispose()

    assert stored_version(path) == [migrate.HEAD]
    for table in ("seats", "actions", "snapshots"):
        assert rows(path, table) == rows(original, table), table
        assert rows(path, table)

    old_games, new_games = rows(original, "games"), rows(path, "games")
    assert [{**g, "options": None} for g in new_games] == [{**g, "options": None} for g in old_games]
    for old, new in zip(old_games, new_games, strict=True):
        options = json.loads(old["options"])
        options["decision_minutes"] = options.pop("joiner_deadline_minutes")
        assert new["options"] == json.dumps(options, sort_keys=True)
        assert "joiner_deadline_minutes" not in new["options"]

    kinds = {"joiner": "reaction", "reminder": "turn"}
    expected = [{**{k: v for k, v in p.items() if k != "user_id"}, "kind": kinds[p["kind"]], "key": ""}
                for p in rows(original, "prompts")]
    prompts = rows(path, "prompts")
    assert prompts == expected
    assert [(p["kind"], p["seat"], p["answer"]) for p in prompts] == [
        ("turn", None, None), ("reaction", 1, None), ("reaction", 2, "join white")]
    assert json.loads(prompts[2]["payload"]) == {"choices": ["join green", "join white", "decline"],
                                                 "default": "decline"}

    assert rows(path, "guild_settings") == [{"guild_id": "guild-1", "decision_minutes": 90, "reminder_hours": 24}]
    assert rows(path, "outbox") == [] and rows(path, "recipients") == []

    if path.path is None:
        assert backup is None
        return
    assert backup is not None and Path(backup).parent == path.path.parent
    assert BACKUP_NAME.match(Path(backup).name), backup
    assert files(path.path.parent) == {"keywood.db", Path(backup).name}
    assert dump(Path(backup)) == dump(original)


def test_a_joiner_prompt_without_seat_gets_the_seat_of_its_user(old_db: tuple[Database, Path],
                                                                 engines: list[Engine]) -> None:
    """The decision passes from user to seat: a joiner row that named only its user gets that user's seat."""
    path, _ = old_db
    path.execute("UPDATE prompts SET seat = NULL WHERE id = 3")  # u-cleo, seat 2
    upgrade(open_engine(engines, path))
    assert [(p["id"], p["kind"], p["seat"]) for p in rows(path, "prompts")] == [
        (1, "turn", None), (2, "reaction", 1), (3, "reaction", 2)]


def test_upgrading_again_changes_nothing_and_costs_one_query(old_db: tuple[Database, Path], engines: list[Engine],
                                                             monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """At HEAD, upgrade reads alembic_version once, loads no Alembic script, writes no backup and changes nothing."""
    path, _ = old_db
    engine = open_engine(engines, path)
    assert (upgrade(engine) is not None) == path.sqlite  # a backup of the SQLite file
    before, names = path.dump(), files(tmp_path)

    def no_alembic(*_: Any) -> Any:
        raise AssertionError("Alembic must not be loaded at HEAD")

    monkeypatch.setattr(migrate, "alembic_config", no_alembic)
    statements: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    assert upgrade(engine) is None
    assert [s for s in statements if s != "BEGIN IMMEDIATE"] == ["SELECT version_num FROM alembic_version"]
    assert upgrade(open_engine(engines, path)) is None  # a new engine, as when the bot restarts
    assert path.dump() == before
    assert files(tmp_path) == names


def test_a_database_from_a_newer_keywood_is_refused_and_left_alone(database: Database, tmp_path: Path,
                                                                   engines: list[Engine]) -> None:
    """An unknown revision raises SchemaTooNew saying what to do, and nothing is written or backed up."""
    path = database
    step_by_step(open_engine(engines, path))
    path.execute("UPDATE alembic_version SET version_num = 'ffffffffffff'")
    before = dump(path)
    with pytest.raises(migrate.SchemaTooNew) as raised:
        upgrade(open_engine(engines, path))
    message = str(raised.value)
    assert "'ffffffffffff'" in message and "newer Keywood" in message
    assert "Upgrade Keywood, or point it at another database" in message
    assert isinstance(raised.value, RuntimeError)
    assert dump(path) == before
    assert files(tmp_path) == ({"keywood.db"} if path.sqlite else set())


def test_an_in_memory_database_works_without_backup(engines: list[Engine]) -> None:
    """sqlite:// is created at HEAD (and reopening it through the same engine is a no-op)."""
    engine = open_engine(engines, "sqlite://")
    assert upgrade(engine) is None
    assert upgrade(engine) is None
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalars().all() == [migrate.HEAD]
    assert {"games", "seats", "actions", "snapshots", "prompts", "guild_settings"} <= set(schema(engine))


def test_a_failed_upgrade_leaves_the_database_as_it_was(old_db: tuple[Database, Path], engines: list[Engine],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The stamp and every revision run in one transaction: a failure midway (here in 0002's options rewrite,
    after prompts and guild_settings were rebuilt) rolls all of it back."""
    path, original = old_db
    before = dump(path)

    def broken(*_: Any, **__: Any) -> str:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(json, "dumps", broken)
    with pytest.raises(RuntimeError, match="disk on fire"):
        upgrade(open_engine(engines, path))
    monkeypatch.undo()
    for engine in engines:
        engine.dispose()
    assert dump(path) == before
    if path.path is not None:
        assert dump(path.path) == dump(original)
    upgrade(open_engine(engines, path))  # and it can be upgraded afterwards
    assert stored_version(path) == [migrate.HEAD]


def test_two_processes_upgrading_at_once_upgrade_once(old_db: tuple[Database, Path], engines: list[Engine]) -> None:
    """BEGIN IMMEDIATE serialises two upgraders of one file (on PostgreSQL, an advisory lock): the second finds HEAD
    under the lock and does nothing."""
    path, _ = old_db
    racers = [open_engine(engines, path) for _ in range(2)]
    start = threading.Barrier(len(racers))
    results: list[Any] = [None] * len(racers)

    def run(i: int) -> None:
        start.wait()
        try:
            results[i] = upgrade(racers[i])
        except Exception as error:  # reported by the assertion below
            results[i] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(racers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert stored_version(path) == [migrate.HEAD]
    assert [p["kind"] for p in rows(path, "prompts")] == ["turn", "reaction", "reaction"]
    if path.path is None:
        assert results == [None, None], results  # neither failed (no backup on PostgreSQL)
        return
    backups = [r for r in results if isinstance(r, str)]
    assert len(backups) == 1 and results.count(None) == 1, results
    assert len([n for n in files(path.path.parent) if n.startswith("keywood.db.backup-")]) == 1


def test_a_database_of_something_else_is_refused(database: Database, tmp_path: Path, engines: list[Engine]) -> None:
    """Tables without a schema version and without Keywood's tables are not taken for an old Keywood database."""
    path = database
    path.execute("CREATE TABLE recipes (name TEXT)")
    before = dump(path)
    with pytest.raises(migrate.NotKeywoodDatabase, match="not a Keywood database"):
        upgrade(open_engine(engines, path))
    assert dump(path) == before
    assert files(tmp_path) == ({"keywood.db"} if path.sqlite else set())


def test_the_keywood_command_upgrades_on_start_and_refuses_a_newer_database(tmp_path: Path) -> None:
    """`keywood play` on the ff0c4a6 database upgrades it (with a backup) and resumes nothing broken; on a database
    stamped by a newer Keywood it stops with the message and exit code 2, leaving the file as it was."""
    from tests.bot.helpers import keywood

    old = tmp_path / "old.db"
    shutil.copy(FIXTURE, old)
    script = tmp_path / "moves.txt"
    script.write_text("Ana: board\n", encoding="utf-8")
    upgraded = keywood("play", "--db", str(old), "--script", str(script), "--no-images")
    assert upgraded.returncode == 0, upgraded.stderr
    assert list(tmp_path.glob("old.db.backup-pre-alembic-*"))
    con = sqlite3.connect(old)
    assert con.execute("SELECT version_num FROM alembic_version").fetchall() == [(migrate.HEAD,)]
    con.execute("UPDATE alembic_version SET version_num = 'ffffffffffff'")
    con.commit()
    before = "\n".join(con.iterdump())
    refused = keywood("play", "--db", str(old), "--no-images")
    assert refused.returncode == 2
    assert "newer Keywood" in refused.stderr and "'ffffffffffff'" in refused.stderr, refused.stderr
    assert "\n".join(con.iterdump()) == before, "nothing was written"
    con.close()


def test_0003_gives_queued_messages_their_shard_and_widens_the_seed(database: Database, engines: list[Engine]) -> None:
    """A database at 0002 with a game and two queued messages (one for a Discord server, one for a terminal table)
    upgrades to shard keys id >> 22 and 0, an empty leases table, and (PostgreSQL) a seed column taking 2**40."""
    engine = open_engine(engines, database)
    with engine.begin() as connection:
        command.upgrade(migrate.alembic_config(connection), "0002_decisions_outbox")
    server = (987654321 << 22) + 17
    at = "'2026-11-27 06:00:00'"
    database.execute(
        "INSERT INTO games (id, guild_id, channel_id, game, options, seed, status, version, host_id, created_at, "
        f"updated_at) VALUES (1, '{server}', '5', 'keyper', '{{}}', 7, 'active', 0, 'u', {at}, {at})",
        *(f"INSERT INTO outbox (game_id, guild_id, channel_id, kind, payload, status, attempts, next_attempt_at, "
          f"last_error, created_at) VALUES (1, '{guild}', '5', 'public', '{{}}', 'pending', 0, {at}, '', {at})"
          for guild in (server, "guild-1")))
    upgrade(engine)
    assert stored_version(database) == [migrate.HEAD]
    assert [r[0] for r in database.rows("SELECT shard_key FROM outbox ORDER BY id")] == [987654321, 0]
    assert database.rows("SELECT count(*) FROM leases") == [(0,)]
    database.execute("UPDATE games SET seed = 1099511627776")
    assert database.rows("SELECT seed FROM games") == [(2 ** 40,)]


def test_0004_drops_the_two_covered_indexes_and_keeps_the_rows(database: Database, engines: list[Engine]) -> None:
    """A database at 0003 with a game, a log row and an open decision upgrades without ix_actions_game_id and
    ix_prompts_game_id (each covered by another index of its table), and with the outbox indexed by game for its
    notices alone (SQLite then finds a game's notices through that index), its rows as they were."""
    engine = open_engine(engines, database)
    with engine.begin() as connection:
        command.upgrade(migrate.alembic_config(connection), "0003_shards")
    at = "'2026-11-27 06:00:00'"
    database.execute(
        "INSERT INTO games (id, guild_id, channel_id, game, options, seed, status, version, host_id, created_at, "
        f"updated_at) VALUES (1, 'g', '5', 'keyper', '{{}}', 7, 'active', 1, 'u', {at}, {at})",
        "INSERT INTO actions (game_id, seq, seat, author_id, notation, summary, version, undone, at) "
        f"VALUES (1, 1, 0, 'u', 'pass', 'Ana passes.', 0, false, {at})",
        "INSERT INTO prompts (game_id, kind, seat, key, deadline, payload, status, created_at) "
        f"VALUES (1, 'turn', 1, 'turn:0:2', {at}, '{{}}', 'open', {at})")
    before = {name: database.rows(f"SELECT * FROM {name}") for name in ("games", "actions", "prompts")}
    assert {"ix_actions_game_id", "ix_prompts_game_id"} <= index_names(engine)
    upgrade(engine)
    assert stored_version(database) == [migrate.HEAD]
    assert not {"ix_actions_game_id", "ix_prompts_game_id"} & index_names(engine)
    assert "ix_prompts_game_status" in index_names(engine)
    assert "ix_outbox_game_notices" in index_names(engine) and "ix_outbox_game_id" not in index_names(engine)
    assert {name: database.rows(f"SELECT * FROM {name}") for name in ("games", "actions", "prompts")} == before
    if database.kind == "sqlite":
        plan = database.rows(f"EXPLAIN QUERY PLAN SELECT id FROM outbox WHERE game_id = 1 AND {store.NOTICES}")
        assert "ix_outbox_game_notices" in str(plan)


def test_0005_indexes_only_open_prompts_by_deadline(database: Database, engines: list[Engine]) -> None:
    """A database at 0004 with an open and a closed decision upgrades without ix_prompts_deadline and
    ix_prompts_status, with ix_prompts_open_deadline (SQLite then finds the due decisions through it), its rows as
    they were; the due game is still found, and only by its open decision."""
    engine = open_engine(engines, database)
    with engine.begin() as connection:
        command.upgrade(migrate.alembic_config(connection), "0004_covered_indexes")
    at = "'2026-11-27 06:00:00'"
    database.execute(*(
        "INSERT INTO games (id, guild_id, channel_id, game, options, seed, status, version, host_id, created_at, "
        f"updated_at) VALUES ({n}, 'g', '{n}', 'keyper', '{{}}', 7, 'active', 1, 'u', {at}, {at})" for n in (1, 2)),
        "INSERT INTO prompts (game_id, kind, seat, key, deadline, payload, status, created_at) "
        f"VALUES (1, 'turn', 1, 'turn:0:2', {at}, '{{}}', 'open', {at})",
        "INSERT INTO prompts (game_id, kind, seat, key, deadline, payload, status, created_at) "
        f"VALUES (2, 'turn', 0, 'turn:0:1', {at}, '{{}}', 'closed', {at})")
    before = database.rows("SELECT * FROM prompts ORDER BY id")
    assert {"ix_prompts_deadline", "ix_prompts_status"} <= index_names(engine)
    upgrade(engine)
    assert stored_version(database) == [migrate.HEAD]
    assert not {"ix_prompts_deadline", "ix_prompts_status"} & index_names(engine)
    assert "ix_prompts_open_deadline" in index_names(engine)
    assert database.rows("SELECT * FROM prompts ORDER BY id") == before
    def due(hour: str) -> str:
        """The store's due_games query at this hour of the day the rows were written, as SQL text."""
        moment = datetime.fromisoformat(f"2026-11-27 {hour}").replace(tzinfo=UTC)
        return str(due_games(moment).compile(engine, compile_kwargs={"literal_binds": True}))

    assert database.rows(due("05:00:00")) == []
    assert database.rows(due("07:00:00")) == [(1, "g")]
    if database.kind == "sqlite":
        assert "ix_prompts_open_deadline" in str(database.rows(f"EXPLAIN QUERY PLAN {due('07:00:00')}"))


def index_names(engine: Engine) -> set[str]:
    """The names of the indexes on actions, prompts and outbox."""
    found = inspect(engine)
    return {str(index["name"]) for table in ("actions", "prompts", "outbox") for index in found.get_indexes(table)}
