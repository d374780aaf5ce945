"""The store: a WAL SQLite file with foreign keys, immediate transactions, database URLs, the log as the truth.

The tests that use a table run on SQLite and on PostgreSQL; those that open the SQLite file themselves (its journal
mode, its lock, other SQLite URLs) on SQLite only.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from bot import cli
from bot.records import PromptPayload
from bot.store import GameRecord, PromptRecord, SeatRow, StaleVersion, Store, aware, make_engine
from bot.table import Table
from tests.bot.helpers import ANA, BEN, Started, cmd, count, dump, keywood, log_rows, prompts, start_game, url

pytestmark = pytest.mark.databases("sqlite", "postgresql")


@pytest.mark.databases("sqlite")
def test_the_file_is_in_wal_mode_with_foreign_keys_on(started: Started) -> None:
    """Asked through a store connection: journal_mode wal, foreign_keys 1, busy timeout set."""
    with started.table.store.transaction() as tx:
        assert tx.execute_raw("PRAGMA journal_mode").scalar() == "wal"
        assert tx.execute_raw("PRAGMA foreign_keys").scalar() == 1
        assert tx.execute_raw("PRAGMA busy_timeout").scalar() >= 1000
    header = started.path.read_bytes()[:20]
    assert header.startswith(b"SQLite format 3\x00") and header[18:20] == b"\x02\x02", "WAL in the file header"


def test_foreign_keys_are_enforced(started: Started) -> None:
    """A seat for a game that does not exist is refused by the database, and nothing is stored."""
    before = dump(started.db)
    with pytest.raises(IntegrityError, match="(?i)FOREIGN KEY"):
        with started.table.store.transaction() as tx:
            tx.add_rows([SeatRow(game_id=9999, seat=0, user_id="ghost", name="Ghost")])
    assert dump(started.db) == before


@pytest.mark.databases("sqlite")
def test_every_transaction_takes_the_write_lock_at_once(started: Started) -> None:
    """BEGIN IMMEDIATE: even a reading transaction holds the write lock, so another writer must wait."""
    other = sqlite3.connect(started.path, timeout=0, isolation_level=None)
    try:
        with started.table.store.transaction() as tx:
            tx.game(started.game_id)
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                other.execute("BEGIN IMMEDIATE")
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
    finally:
        other.close()


@pytest.mark.databases("sqlite")
def test_a_pooled_connection_holds_nothing_of_a_refused_transaction(started: Started) -> None:
    """After a transaction that wrote and then raised, nothing of it is stored, the next transactions (on the pool's
    connections) work, and no pooled connection holds the lock."""
    store = started.table.store
    before = dump(started.db)
    with pytest.raises(RuntimeError, match="refused"):
        with store.transaction() as tx:
            tx.add_game(GameRecord(guild_id="g", channel_id="elsewhere", game="keyper", seed=1,
                                   host_id="ghost"))
            raise RuntimeError("refused")
    for _ in range(3):
        with store.transaction() as tx:
            assert tx.live_game("g", "elsewhere") is None
    assert dump(started.db) == before
    other = sqlite3.connect(started.path, timeout=0, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
    finally:
        other.close()


@pytest.mark.databases("sqlite")
def test_the_rows_a_command_writes_carry_one_moment(started: Started) -> None:
    """A transaction stamps every row it writes with one time (Tx.now): the log row, the game row and the queued
    messages of a play all say the same moment."""
    last = count(started.db, "SELECT max(id) FROM outbox")
    started.play(ANA, "play green 1.pig")
    with sqlite3.connect(started.path) as db:
        (at,) = db.execute("SELECT at FROM actions ORDER BY id DESC LIMIT 1").fetchone()
        (updated,) = db.execute("SELECT updated_at FROM games WHERE id = ?", (started.game_id,)).fetchone()
        queued = [row[0] for row in db.execute("SELECT created_at FROM outbox WHERE id > ?", (last,))]
    assert queued and at == updated and set(queued) == {at}


def test_the_optimistic_version_check_refuses_a_changed_game(started: Started) -> None:
    """save_state only advances the version it read; if the row moved meanwhile the transaction is refused
    (StaleVersion) and leaves nothing; otherwise the version goes up by one with the snapshot."""
    version = started.version()
    with pytest.raises(StaleVersion), started.table.store.transaction() as tx:
        row = tx.game(started.game_id)
        assert row is not None
        state = tx.snapshot(started.game_id)
        assert state is not None
        tx.execute_raw(f"UPDATE games SET version = version + 1 WHERE id = {started.game_id}")
        tx.save_state(row, lambda: json.dumps(state))
    assert started.version() == version
    with started.table.store.transaction() as tx:
        row = tx.game(started.game_id)
        assert row is not None
        tx.save_state(row, lambda: json.dumps(state))
    assert started.version() == version + 1
    assert count(started.db, "SELECT version FROM snapshots") == version + 1


def test_a_game_row_written_back_stores_what_changed_since_it_was_read(started: Started) -> None:
    """save_state advances the version by one whether or not the rest of the row changed, and stores changed
    options and host with it."""
    version = started.version()
    with started.table.store.transaction() as tx:
        row = tx.game(started.game_id)
        state = tx.snapshot(started.game_id)
        assert row is not None and state is not None
        tx.save_state(row, lambda: json.dumps(state))  # as read: the version and the time only
    with started.table.store.transaction() as tx:
        row = tx.game(started.game_id)
        assert row is not None and row.version == version + 1
        row.options = replace(row.options, values={**row.options.values, "note": "changed"})
        row.host_id = "new-host"
        tx.save_state(row, lambda: json.dumps(state))
    with started.table.store.transaction() as tx:
        row = tx.game(started.game_id)
        assert row is not None and row.version == version + 2 and row.status == "active"
        assert row.options.values["note"] == "changed" and row.host_id == "new-host"


def test_a_prompt_written_back_stores_each_change_whichever_columns_moved(started: Started) -> None:
    """A new payload alone, a new deadline alone, a new status alone, and two writes of one prompt in one
    transaction (a read between them) are each stored as made."""
    moment = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)
    store = started.table.store
    step_1, step_2 = PromptPayload(phrase="take step 1"), PromptPayload(phrase="take step 2")

    def stored(prompt_id: int) -> tuple[PromptPayload, datetime, str]:
        with store.transaction() as tx:
            row = tx.prompt(prompt_id)
            assert row is not None
            return row.payload, aware(row.deadline), row.status

    with store.transaction() as tx:
        prompt = tx.add_prompt(PromptRecord(game_id=started.game_id, kind="turn", seat=0, deadline=moment))
        assert prompt.id is not None
        prompt.payload = step_1  # opened and changed in one transaction
        tx.save_prompt(prompt)
    assert stored(prompt.id) == (step_1, moment, "open")
    changes = [("payload", step_2), ("deadline", moment + timedelta(hours=1)), ("status", "closed")]
    expected: list[object] = [step_1, moment, "open"]
    for index, (name, value) in enumerate(changes):
        with store.transaction() as tx:
            row = tx.prompt(prompt.id)
            assert row is not None
            setattr(row, name, value)
            tx.save_prompt(row)
        expected[index] = value
        assert stored(prompt.id) == tuple(expected), name
    with store.transaction() as tx:
        row = tx.prompt(prompt.id)
        assert row is not None
        row.status, row.deadline = "open", moment
        tx.save_prompt(row)
        assert started.game_id in tx.due_game_ids(moment)  # the first write is sent before this read
        row.status = "closed"  # back as it was read, but no longer as the first write stored it
        tx.save_prompt(row)
    assert stored(prompt.id) == (step_2, moment, "closed")


def test_a_row_changed_but_not_saved_is_not_stored(started: Started) -> None:
    """The rows a transaction reads are the command's to change: only a save method stores a change. A game's options
    and a prompt's payload, changed and left unsaved, stay as stored, though the transaction then writes and reads."""
    changed = PromptPayload(phrase="changed")
    with started.table.store.transaction() as tx:
        row = tx.game(started.game_id)
        opened = tx.open_prompts(started.game_id)
        assert row is not None and opened and opened[0].id is not None
        row.options = replace(row.options, values={"changed": True})
        opened[0].payload = changed
        tx.add_prompt(PromptRecord(game_id=started.game_id, kind="turn", seat=1, deadline=aware(opened[0].deadline)))
        again = tx.prompt(opened[0].id)
        assert again is not None and again.payload != changed
    with started.table.store.transaction() as tx:
        row = tx.game(started.game_id)
        assert row is not None and "changed" not in row.options.values
        now_open = tx.open_prompts(started.game_id)
        assert len(now_open) == len(opened) + 1 and changed not in [p.payload for p in now_open]


def test_each_accepted_action_advances_the_version_by_one(started: Started) -> None:
    """games.version goes up by exactly one per accepted action and equals the snapshot's version."""
    version = started.version()
    started.play(ANA, "play green 1.pig")
    assert started.version() == version + 1
    assert count(started.db, "SELECT version FROM snapshots") == count(started.db, "SELECT version FROM games")


def test_the_log_is_the_truth(started: Started) -> None:
    """Every accepted action is a row with seat, author, time and the version it applied to; replaying them from
    the seed gives the stored snapshot."""
    started.play(ANA, "play green 1.pig")
    started.play(BEN, "join green")
    version = started.version()
    with started.table.store.transaction() as tx:
        rows = tx.actions(started.game_id)
        assert [(r.seq, r.seat, r.author_id, r.notation) for r in rows] == [
            (1, 0, ANA.user_id, "play green 1.pig"), (2, 1, BEN.user_id, "join green")]
        assert rows[0].version < rows[1].version < version
        assert all(r.at is not None and r.summary for r in rows)
    assert started.table.verify(started.game_id) == ("same", "2 actions replay to the stored state")


def test_replay_and_patch_find_and_repair_a_damaged_snapshot(started: Started) -> None:
    """`keywood replay` reports a snapshot that no longer matches its log; `patch --write` stores the replay."""
    started.play(ANA, "keyper 2")
    started.db.execute("UPDATE snapshots SET state = replace(state, '\"turn\":2', '\"turn\":9')")
    db = started.db.url
    bad = keywood("replay", str(started.game_id), "--db", db)
    assert bad.returncode == 1 and f"game {started.game_id}: differs" in bad.stdout
    dry = keywood("patch", "--db", db)
    assert dry.returncode == 1 and "differs" in dry.stdout and "replay stored" not in dry.stdout
    fixed = keywood("patch", "--db", db, "--write")
    assert "(replay stored)" in fixed.stdout
    good = keywood("replay", str(started.game_id), "--db", db)
    assert good.returncode == 0 and f"game {started.game_id}: same" in good.stdout


@pytest.mark.parametrize("form", ["relative", "absolute", "pysqlite", "uri"])
@pytest.mark.databases("sqlite")
def test_make_engine_accepts_other_sqlite_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, form: str) -> None:
    """sqlite:///relative, sqlite:////absolute, sqlite+pysqlite:///, and a file: URI all reach the same file."""
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "other.db"
    database_url = {
        "relative": "sqlite:///other.db",
        "absolute": f"sqlite:///{target}",
        "pysqlite": f"sqlite+pysqlite:///{target}",
        "uri": f"sqlite:///file:{target}?mode=rwc&uri=true",
    }[form]
    engine = make_engine(database_url)
    engine.dispose()
    store = Store(database_url)
    try:
        table = Table(store)
        game_id = start_game(table).game_id
        assert table.handle(cmd(ANA, "play", "keyper 1")).ok
        with store.transaction() as tx:
            assert tx.execute_raw("PRAGMA journal_mode").scalar() == "wal"
    finally:
        store.close()
    assert target.exists()
    assert count(target, f"SELECT count(*) FROM actions WHERE game_id = {game_id}") == 1


def test_an_in_memory_database_works(tmp_path: Path) -> None:
    """sqlite:///:memory: keeps its tables for the store's lifetime (handy for demos and tests)."""
    store = Store("sqlite:///:memory:")
    try:
        assert Table(store).handle(cmd(ANA, "new", "keyper")).ok
    finally:
        store.close()


def test_the_database_url_comes_from_db_then_config(tmp_path: Path) -> None:
    """--db wins (a path becomes sqlite:///path, a URL is kept); else config's database_url; else keywood.db."""
    config = {"database_url": f"sqlite:///{tmp_path / 'cfg.db'}"}
    assert cli.database_url(config, "x.db") == "sqlite:///x.db"
    assert cli.database_url(config, "sqlite+pysqlite:////tmp/y.db") == "sqlite+pysqlite:////tmp/y.db"
    assert cli.database_url(config, None) == config["database_url"]
    assert cli.database_url({}, None) == "sqlite:///keywood.db"


def test_replay_reads_database_url_from_the_config_file(started: Started, tmp_path: Path) -> None:
    """`keywood --config FILE replay GAME` opens the database named in the config file."""
    started.play(ANA, "keyper 1")
    config = tmp_path / "config.toml"
    database_url = started.db.url.replace("sqlite:///", "sqlite+pysqlite:///")
    config.write_text(f'database_url = "{database_url}"\n', encoding="utf-8")
    result = keywood("--config", str(config), "replay", str(started.game_id))
    assert result.returncode == 0, result.stderr
    assert f"game {started.game_id}: same — 1 actions replay to the stored state" in result.stdout


def test_a_second_store_on_the_same_file_sees_everything(started: Started) -> None:
    """State lives in the database: a new Store and Table continue the game."""
    started.play(ANA, "play green 1.pig")
    other = Store(url(started.db))
    try:
        table = Table(other)
        assert table.handle(cmd(BEN, "play", "decline")).ok
        assert [r[3] for r in log_rows(table, started.game_id)] == ["play green 1.pig", "decline"]
    finally:
        other.close()
    assert [r[3] for r in log_rows(started.table, started.game_id)] == ["play green 1.pig", "decline"]


def test_times_are_stored_as_utc_whatever_the_servers_time_zone(started: Started) -> None:
    """A deadline written as an aware UTC time is stored as that UTC wall time (the PostgreSQL test server's own time
    zone is Pacific/Auckland) and read back as the same moment, and deadlines compare by the moment."""
    moment = datetime(2026, 11, 22, 23, 30, 15, 123456, tzinfo=UTC)
    with started.table.store.transaction() as tx:
        prompt = tx.add_prompt(PromptRecord(game_id=started.game_id, kind="turn", seat=0, deadline=moment))
        assert prompt.id is not None
        prompt_id = prompt.id
    with started.table.store.transaction() as tx:
        row = tx.prompt(prompt_id)
        assert row is not None and aware(row.deadline) == moment
        assert started.game_id in tx.due_game_ids(moment)
        assert started.game_id not in tx.due_game_ids(moment - timedelta(microseconds=1))
    stored = started.db.rows(f"SELECT deadline FROM prompts WHERE id = {prompt_id}")[0][0]
    assert str(stored).replace("T", " ") == "2026-11-22 23:30:15.123456"


def test_a_prompt_is_read_after_the_command_in_flight_on_its_game(invited: Started) -> None:
    """While one transaction has closed a prompt and not yet committed, another that reads the prompt waits for it
    and then sees it closed, as a second answer to one decision must (SQLite: the file's lock; PostgreSQL: the
    game row's, taken before the prompt is read)."""
    [prompt_id, *_] = [pid for pid, _, _, status, _ in prompts(invited.table, invited.game_id) if status == "open"]
    other = Store(url(invited.db))
    seen: list[str] = []

    def read() -> None:
        with other.transaction() as tx:
            row = tx.prompt(prompt_id)
            assert row is not None
            seen.append(row.status)

    reader = threading.Thread(target=read)
    try:
        with invited.table.store.transaction() as tx:
            assert tx.game(invited.game_id) is not None
            row = tx.prompt(prompt_id)
            assert row is not None and row.status == "open"
            row.status = "closed"
            tx.save_prompt(row)
            reader.start()
            reader.join(timeout=0.5)
            assert reader.is_alive(), "the reader did not wait for the transaction in flight"
        reader.join(timeout=60)
    finally:
        other.close()
    assert seen == ["closed"]
