"""Several bot processes on one database (issue 17, part 2): shard leases, and each process's share of the work.

Leases (bot/shards.py) decide which process looks after a shard's deadlines and messages: one process per shard at
any moment; a silent process's shards are borrowed once its leases expire and handed back when it returns; a second
process given a live process's shard is refused. Processes here are Leases objects with their own Store, and time
is passed in, so every step of a schedule is exact. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.shards import Leases, ShardTaken, parse_shards
from bot.store import ShardSet, Store, guild_key
from bot.table import Where
from tests.bot.helpers import ANA, PLAYERS, T0, Started, cmd, keywood, start_game
from tests.databases import Database

pytestmark = pytest.mark.databases("sqlite", "postgresql")

LEASE = 90.0  # seconds
TICK = timedelta(seconds=30)


@pytest.fixture
def stores(database: Database) -> Iterator[list[Store]]:
    """Stores opened by a test (one per process it plays), closed at its end."""
    made: list[Store] = []
    yield made
    for store in made:
        store.close()


def process(stores: list[Store], database: Database, own: str, count: int = 4) -> Leases:
    """A process with its own store, owning some of `count` shards."""
    store = Store(database.url)
    stores.append(store)
    return Leases(store, parse_shards(own), count, LEASE)


def holders(database: Database) -> dict[int, tuple[str, bool]]:
    """Each shard's lease holder and whether it is borrowed, as stored."""
    return {shard: (holder, bool(borrowed))
            for shard, holder, borrowed in database.rows("SELECT shard, holder, borrowed FROM leases")}


def test_shard_ranges_are_read_as_written() -> None:
    assert parse_shards("0-3") == {0, 1, 2, 3}
    assert parse_shards("0, 2,5-7") == {0, 2, 5, 6, 7}
    assert parse_shards("4") == {4}
    for bad in ("", "a-3", "3-1", "1-", "-2", "0..3"):
        with pytest.raises(ValueError, match="not a shard range"):
            parse_shards(bad)


def test_a_server_is_on_the_shard_discord_gives_it() -> None:
    """Discord's rule: shard = (server id >> 22) % shard count; a DM or a terminal table is on shard 0."""
    guild = str((1234 << 22) + 99)
    assert guild_key(guild) == 1234
    assert ShardSet(frozenset({1234 % 8}), 8).covers(guild)
    assert not ShardSet(frozenset({(1234 + 1) % 8}), 8).covers(guild)
    assert guild_key("dm") == guild_key("guild-1") == 0


def test_a_process_needs_shards_among_the_count(stores: list[Store], database: Database) -> None:
    with pytest.raises(ValueError, match="not all among the 4 shards"):
        process(stores, database, "2-4")


def test_two_processes_split_the_shards_and_the_first_borrows_until_the_second_comes(
        stores: list[Store], database: Database) -> None:
    """The first process alone does every shard's work; the second's shards are handed over to it within two ticks,
    and no shard is ever held by both."""
    a, b = process(stores, database, "0-1"), process(stores, database, "2-3")
    assert a.start(T0).ids == {0, 1, 2, 3}
    assert holders(database) == {0: (a.name, False), 1: (a.name, False), 2: (a.name, True), 3: (a.name, True)}
    assert b.start(T0 + timedelta(seconds=1)).ids == set()  # its shards are borrowed: it asks for them back
    assert a.renew(T0 + TICK).ids == {0, 1}  # hands 2 and 3 over
    assert holders(database)[2] == (b.name, False)
    assert b.renew(T0 + TICK + timedelta(seconds=1)).ids == {2, 3}
    for k in range(2, 6):  # from then on each keeps its own
        assert a.renew(T0 + k * TICK).ids == {0, 1}
        assert b.renew(T0 + k * TICK).ids == {2, 3}


def test_a_second_process_given_a_live_process_shard_is_refused_and_takes_nothing(
        stores: list[Store], database: Database) -> None:
    a, b = process(stores, database, "0-1"), process(stores, database, "1-2")
    a.start(T0)
    before = database.rows("SELECT shard, holder, borrowed, waiting, expires_at FROM leases ORDER BY shard")
    with pytest.raises(ShardTaken, match=r"shard 1 is already run by another Keywood process \(.*\): give each"):
        b.start(T0 + TICK)
    assert database.rows("SELECT shard, holder, borrowed, waiting, expires_at FROM leases ORDER BY shard") == before


def test_a_process_with_another_shard_count_is_refused(stores: list[Store], database: Database) -> None:
    a, b = process(stores, database, "0-1", count=4), process(stores, database, "5", count=8)
    a.start(T0)
    with pytest.raises(ShardTaken, match="with 4 shards; this one was given 8"):
        b.start(T0 + TICK)


def test_a_silent_process_shards_are_taken_over_once_its_leases_expire_and_handed_back_when_it_returns(
        stores: list[Store], database: Database) -> None:
    """A is killed after its renewal at T0: B borrows A's shards only once A's leases have run out (never before),
    and a new process owning them gets them back, B handing over before the new one starts on them."""
    a, b = process(stores, database, "0-1"), process(stores, database, "2-3")
    a.start(T0)
    b.start(T0)
    a.renew(T0 + TICK)
    assert b.renew(T0 + TICK).ids == {2, 3}
    # A dies here. Its leases run until T0 + TICK + LEASE.
    assert b.renew(T0 + TICK + timedelta(seconds=LEASE - 1)).ids == {2, 3}  # not yet: the lease still runs
    taken = T0 + TICK + timedelta(seconds=LEASE + 1)
    assert b.renew(taken).ids == {0, 1, 2, 3}
    back = process(stores, database, "0-1")
    assert back.start(taken + timedelta(seconds=5)).ids == set()  # borrowed, not refused: it asks for them
    assert b.renew(taken + TICK).ids == {2, 3}
    assert back.renew(taken + TICK + timedelta(seconds=1)).ids == {0, 1}


def test_a_process_that_froze_past_its_lease_and_lost_its_shard_to_a_new_owner_stops(
        stores: list[Store], database: Database) -> None:
    a = process(stores, database, "0-3")
    a.start(T0)
    replacement = process(stores, database, "0-3")
    later = T0 + timedelta(seconds=LEASE + 1)
    assert replacement.start(later).ids == {0, 1, 2, 3}
    with pytest.raises(ShardTaken, match="already run by another Keywood process"):
        a.renew(later + timedelta(seconds=1))
    assert set(holders(database).values()) == {(replacement.name, False)}


def test_released_shards_are_free_at_once_and_a_late_renewal_does_not_take_them_back(
        stores: list[Store], database: Database) -> None:
    a, b = process(stores, database, "0-1"), process(stores, database, "2-3")
    a.start(T0)
    b.start(T0)
    a.release()
    assert a.renew(T0 + timedelta(seconds=1)).ids == set()  # e.g. a renewal still in its thread at the stop
    assert b.renew(T0 + timedelta(seconds=2)).ids == {0, 1, 2, 3}
    assert all(holder == b.name for holder, _ in holders(database).values())


def test_each_process_sees_only_its_shards_deadlines_and_messages(table_on: tuple[Started, Started]) -> None:
    """Games in servers on shards 0 and 1 of 2, each with a passed deadline and a queued message: the store's
    queries for one shard find that shard's alone, and with no shard given, both."""
    first, second = table_on
    table = first.table
    late = T0 + timedelta(days=30)
    with table.store.transaction() as tx:
        assert tx.due_game_ids(late) == [first.game_id, second.game_id]
        assert tx.due_game_ids(late, ShardSet(frozenset({0}), 2)) == [first.game_id]
        assert tx.due_game_ids(late, ShardSet(frozenset({1}), 2)) == [second.game_id]
    everything = table.pending_messages()
    zero = table.pending_messages(shards=ShardSet(frozenset({0}), 2))
    one = table.pending_messages(shards=ShardSet(frozenset({1}), 2))
    assert {r.game_id for r in zero} == {first.game_id} and {r.game_id for r in one} == {second.game_id}
    assert sorted(r.id for r in zero + one) == sorted(r.id for r in everything)
    assert all(json.loads(r.payload) for r in everything)


@pytest.fixture
def table_on(started: Started) -> tuple[Started, Started]:
    """The started game moved to a server on shard 0 of 2, and a second game in a server on shard 1 of 2, each with
    an open decision and queued messages."""
    zero, one = str((10 << 22) + 5), str((11 << 22) + 5)
    started.db.execute(f"UPDATE games SET guild_id = '{zero}'",
                       f"UPDATE outbox SET guild_id = '{zero}', shard_key = 10")
    outcome = start_game(started.table, PLAYERS, where=Where(one, "channel-9"))
    assert outcome.game_id is not None
    second = Started(started.table, started.db, outcome.game_id)
    assert started.table.handle(cmd(ANA, "play", "play green 1.pig", where=Where(one, "channel-9"))).ok
    return started, second


@pytest.mark.databases("sqlite")
@pytest.mark.parametrize(("args", "message"), [
    (["--shards", "0-3"], "--shards needs --shard-count"),
    (["--shard-count", "8"], "--shard-count needs --shards"),
    (["--shards", "6-9", "--shard-count", "8"], "shards 6-9 are not all among the 8 shards 0-7"),
    (["--shards", "0..3", "--shard-count", "8"], "not a shard range: '0..3'"),
])
def test_keywood_run_refuses_shards_that_do_not_fit_before_connecting(tmp_path: Path, args: list[str],
                                                                     message: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'token = "not-a-real-token"\ndatabase_url = "sqlite:///{tmp_path / "k.db"}"\n')
    done = keywood("--config", str(config), "run", *args)
    assert done.returncode == 2
    assert done.stderr.startswith(f"keywood run: {message}") and done.stderr.count("\n") == 1
    assert not (tmp_path / "k.db").exists()


def test_a_crashed_process_of_this_machine_gives_its_shards_up_at_once(stores: list[Store],
                                                                       database: Database) -> None:
    """A bot restarted right after a crash (its old pid no longer runs here) takes its shards without waiting for
    their leases; a holder still running here (this test's parent process) keeps them, and the refusal says until
    when its lease runs (the bot waits that long, then tries again)."""
    dead_pid = subprocess.Popen([sys.executable, "-c", "pass"])
    dead_pid.wait()
    crashed = process(stores, database, "0-3")
    crashed.name = f"{socket.gethostname()}:{dead_pid.pid}:crashed"
    crashed.start(T0)
    restarted = process(stores, database, "0-3")
    assert restarted.start(T0 + timedelta(seconds=5)).ids == {0, 1, 2, 3}
    alive = process(stores, database, "0-3")
    alive.name = f"{socket.gethostname()}:{os.getppid()}:parent"
    alive.start(T0 + timedelta(seconds=LEASE + 10))  # restarted's leases have lapsed by then
    with pytest.raises(ShardTaken) as refused:
        process(stores, database, "0-3").start(T0 + timedelta(seconds=LEASE + 20))
    assert refused.value.until == T0 + timedelta(seconds=2 * LEASE + 10)
