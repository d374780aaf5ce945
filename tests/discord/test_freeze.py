"""A frozen Keywood process (SIGSTOP, a paused VM) that wakes after another took its shard over sends nothing more
(issue 41, item 6).

Two real `keywood run` processes on one PostgreSQL database against the fake Discord: A for shard 0, B for shard
1. A game on shard 0 starts; its start queues four messages (the channel's, then one DM per player). The fake holds
A's post of the channel message, and A is frozen while it waits for the answer, the DMs read but not yet sent. The
held post then fails as if it had never reached Discord. B takes shard 0 over once A's lease lapses and delivers all
four. When A wakes it must send none of them again (Discord's nonce would hide a repeat only for a few minutes,
so the fake here dedupes nothing), and it gets its shard back through the usual hand-over.

The check under it (bot/shards.py, Leases.check_send) is tested on its own too, with two Leases on one database:
a lease that lapsed by this process's clock or names another process stops the sending, and a borrower does not
hand a shard back while one of its messages is in flight (its owner would find it pending and send it again).
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.shards import Leases, SendCheck
from bot.store import OutboxRow, Store, now
from tests.databases import Database
from tests.discord_fake import FakeDiscord, FakeMessage, running_fake
from tests.discord_fake import payloads as p
from tests.discord_fake.process import FakeProcess, spawn_keywood, write_config

pytestmark = pytest.mark.databases("postgresql")

COUNT = 2
PLAYERS = ("ana", "ben", "cleo")
LEASE = 3  # seconds: a frozen process's shard is taken over this long after its last renewal
SLOW = 60.0  # seconds: a generous limit for anything a loaded machine may take


def start(fake: FakeDiscord, config: Path, shard: int, log: Path) -> FakeProcess:
    """`keywood run` for one shard of COUNT, in a process of its own."""
    return spawn_keywood(fake, ["--config", str(config), "run", "--shards", str(shard), "--shard-count", str(COUNT)],
                         log_path=log)


@contextlib.contextmanager
def frozen(proc: FakeProcess) -> Iterator[None]:
    """The process stopped (SIGSTOP) for the block, and woken (SIGCONT) after it, whatever happens in it."""
    os.kill(proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(proc.pid, signal.SIGCONT)


def holder(database: Database, shard: int) -> tuple[str, bool]:
    """Who holds a shard's lease ("" for nobody), and whether borrowed."""
    rows = database.rows(f"SELECT holder, borrowed FROM leases WHERE shard = {shard}")
    return (str(rows[0][0]), bool(rows[0][1])) if rows else ("", False)


def owned_by(lease: tuple[str, bool], proc: FakeProcess) -> bool:
    """Whether a lease is held by the process (its name is host:pid:...), as the shard's owner (not borrowed)."""
    name, borrowed = lease
    return not borrowed and name.split(":")[1:2] == [str(proc.pid)]


def outbox(database: Database, channel_id: str) -> list[tuple[int, str]]:
    """(id, status) of the queued messages of the channel's game."""
    return [(int(i), str(s)) for i, s in database.rows(
        f"SELECT id, status FROM outbox WHERE channel_id = '{channel_id}' ORDER BY id")]


def delivered(fake: FakeDiscord) -> list[FakeMessage]:
    """Every outbox message the fake created, in channels and DMs (they carry Keywood's kw... nonce)."""
    return [m for cid in list(fake.channels) for m in fake.messages(cid, include_ephemeral=False)
            if str(m.payload.get("nonce", "")).startswith("kw")]


async def command(fake: FakeDiscord, world: p.World, name: str, verb: str) -> str:
    """A slash command in #games; its private reply's text, once the bot has done everything."""
    record = await fake.interact(fake.slash(verb, None, user=world.members[name], channel=world.channels["games"],
                                            guild=world.guild), timeout=SLOW)
    await fake.wait_for(lambda: record.followup_ids, timeout=SLOW)
    return fake.followups(record.id)[0].content


async def test_a_woken_process_sends_nothing_its_shard_taker_sent(database: Database, tmp_path: Path) -> None:
    async with contextlib.AsyncExitStack() as stack:
        world = p.sample_world(PLAYERS, admin="ana", guild_id=p.guild_id_on_shard(0, COUNT))
        fake = await stack.enter_async_context(running_fake(guilds=[world.guild]))
        fake.nonce_window = 0  # a repeat later than Discord's few minutes: nothing dedupes it
        games: dict[str, Any] = world.channels["games"]
        config = write_config(tmp_path / "config.toml", database_url=database.url, tick_seconds=0.3,
                              lease_seconds=LEASE, send_seconds=0.3, log_level="INFO")
        a = await stack.enter_async_context(start(fake, config, 0, tmp_path / "a.log"))
        b = await stack.enter_async_context(start(fake, config, 1, tmp_path / "b.log"))
        for shard in range(COUNT):
            await fake.wait_for_shard(shard, COUNT, timeout=SLOW)
        assert await command(fake, world, "ana", "new") == "Table opened."
        for name in PLAYERS[1:]:
            assert await command(fake, world, name, "join") == "You are seated."
        # B may have borrowed shard 0 before A started: A has it once B handed it over
        await fake.wait_for(lambda: owned_by(holder(database, 0), a), timeout=SLOW)
        await fake.wait_for(lambda: all(s == "sent" for _, s in outbox(database, games["id"])), timeout=SLOW)
        a_name = holder(database, 0)[0]
        before, earlier = len(delivered(fake)), len(outbox(database, games["id"]))

        # A posts the start's channel message and is frozen waiting for the answer, its DMs still to send
        fake.hold_sends(games["id"])
        start_record = await fake.interact(fake.slash("start", None, user=world.members["ana"], channel=games,
                                                      guild=world.guild), timeout=SLOW)
        await fake.wait_for(lambda: fake.held_sends.get(games["id"]), timeout=SLOW)
        with frozen(a):
            fake.fail_sends(games["id"], 1, status=503)  # the held post never reached Discord
            fake.release_sends(games["id"])
            queued = outbox(database, games["id"])[earlier:]
            assert [status for _, status in queued] == ["pending"] * 4, queued

            # B takes shard 0 over and delivers every message once
            await fake.wait_for(lambda: holder(database, 0)[0] not in ("", a_name), timeout=SLOW)
            await fake.wait_for(lambda: all(s == "sent" for _, s in outbox(database, games["id"])), timeout=SLOW)
            assert holder(database, 0)[1], "shard 0 is borrowed"
            assert len(delivered(fake)) == before + 4

        # A wakes: it finishes the start command without sending anything again, and gets shard 0 back
        await fake.wait_for(lambda: start_record.followup_ids, timeout=SLOW)
        assert fake.followups(start_record.id)[0].content == "Game started."
        await fake.wait_for(lambda: holder(database, 0) == (a_name, False), timeout=SLOW)
        nonces = [str(m.payload["nonce"]) for m in delivered(fake)]
        assert len(nonces) == len(set(nonces)), sorted(nonces)
        for row_id, _ in outbox(database, games["id"]):
            assert sum(n.startswith(f"kw{row_id}.") for n in nonces) == 1, row_id
        assert fake.violations == []
        assert a.running, a.output()
        assert b.running, b.output()


def queue_message(store: Store, shard: int) -> OutboxRow:
    """A channel message queued for a server on the shard."""
    with store.transaction() as tx:
        (row,) = tx.add_outbox([{"guild_id": p.guild_id_on_shard(shard, COUNT), "channel_id": "1", "kind": "public"}])
    return row


def test_a_lease_lapsed_or_taken_stops_the_sending(database: Database) -> None:
    store = Store(database.url)
    try:
        row = queue_message(store, 0)
        assert row.id is not None
        frozen_one = Leases(store, frozenset({0}), COUNT, LEASE)
        frozen_one.start(now() - timedelta(seconds=2 * LEASE))  # renewed last before a freeze
        assert frozen_one.check_send(row.id, row.shard_key) == SendCheck(held=False, pending=True)
        taker = Leases(store, frozenset({1}), COUNT, LEASE)
        assert taker.start().ids == {0, 1}  # shard 0's lease lapsed: borrowed
        assert taker.check_send(row.id, row.shard_key) == SendCheck(held=True, pending=True)
        taker.done_sending()
        with store.transaction() as tx:
            tx.mark_sent([row.id], now())
        assert taker.check_send(row.id, row.shard_key) == SendCheck(held=True, pending=False)
        assert frozen_one.renew().ids == frozenset()  # it wakes, and asks for shard 0 back
        assert frozen_one.check_send(row.id, row.shard_key) == SendCheck(held=False, pending=False)
    finally:
        store.close()


def test_a_borrowed_shard_is_handed_back_only_between_sends(database: Database) -> None:
    store = Store(database.url)
    try:
        borrower, owner = Leases(store, frozenset({1}), COUNT, LEASE), Leases(store, frozenset({0}), COUNT, LEASE)
        assert borrower.start().ids == {0, 1}  # nobody held shard 0
        assert owner.start().ids == frozenset()  # it asks for shard 0 back
        row = queue_message(store, 0)
        assert row.id is not None
        assert borrower.check_send(row.id, row.shard_key) == SendCheck(held=True, pending=True)
        assert borrower.renew().ids == {0, 1}  # the message is in flight: shard 0 is kept one more tick
        assert owner.renew().ids == frozenset()
        with store.transaction() as tx:
            tx.mark_sent([row.id], now())
        borrower.done_sending()
        assert borrower.renew().ids == {1}  # handed back
        assert borrower.check_send(row.id, row.shard_key) == SendCheck(held=False, pending=False)
        assert owner.renew().ids == {0}
        assert owner.check_send(row.id, row.shard_key) == SendCheck(held=True, pending=False)
    finally:
        store.close()
