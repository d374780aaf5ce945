"""Three Keywood processes on one PostgreSQL database, one killed with SIGKILL in the middle of a game (issue 17).

Each process is the real `keywood run --shards N --shard-count 3` in its own OS process (tests/discord_fake/process.py
points its discord.py at the fake Discord running in this test), all on one PostgreSQL database. Three servers, one
on each shard, each play a Keyper game. The process of shard 1 is killed while a message of its game is still
waiting to be sent and decisions of its game are overdue; another process must take shard 1 over, send the
message and fire the deadlines, each once. A restarted process for shard 1 gets its shard back, the game is played
to its end, a fourth process given shard 1 is refused, and at the end every queued message was delivered once.
"""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.keyper import GAME
from tests.databases import Database
from tests.discord_fake import FakeDiscord, FakeMessage, running_fake
from tests.discord_fake import payloads as p
from tests.discord_fake.process import FakeProcess, spawn_keywood, write_config

pytestmark = pytest.mark.databases("postgresql")

COUNT = 3
PLAYERS = ("ana", "ben", "cleo")
LEASE = 3  # seconds: a killed process's shard is taken over this long after its last renewal
NOW = "(now() AT TIME ZONE 'UTC')"  # deadlines are stored as UTC wall times
SLOW = 60.0  # seconds: a generous limit for anything a loaded machine may take


class Shard:
    """One server on one shard, its world in the fake, and its game in the database."""

    def __init__(self, fake: FakeDiscord, database: Database, number: int, world: p.World) -> None:
        self.fake, self.database, self.number, self.world = fake, database, number, world

    @property
    def channel(self) -> dict[str, Any]:
        return self.world.channels["games"]

    async def command(self, name: str, verb: str, options: dict[str, Any] | None = None) -> FakeMessage:
        """A slash command in the server's #games; its private reply, once the bot has done everything."""
        record = await self.fake.interact(self.fake.slash(verb, options, user=self.world.members[name],
                                                          channel=self.channel, guild=self.world.guild),
                                          timeout=SLOW)
        await self.fake.wait_for(lambda: record.followup_ids, timeout=SLOW)
        return self.fake.followups(record.id)[0]

    async def open_game(self) -> None:
        """Ana opens a table (its seed drawn in secret: the moves are read from the stored state), Ben and Cleo join,
        Ana starts."""
        assert (await self.command("ana", "new")).content == "Table opened."
        for name in PLAYERS[1:]:
            assert (await self.command(name, "join")).content == "You are seated."
        assert (await self.command("ana", "start")).content == "Game started."

    def game_id(self) -> int:
        (row,) = self.database.rows(f"SELECT id FROM games WHERE channel_id = '{self.channel['id']}'")
        return int(row[0])

    def state(self) -> Any:
        (row,) = self.database.rows(f"SELECT state FROM snapshots WHERE game_id = {self.game_id()}")
        return GAME.from_json(json.loads(row[0]))

    def over(self) -> bool:
        return GAME.is_over(self.state())

    async def move(self, rng: random.Random) -> None:
        """A random legal move by whoever must act (an invited joiner answers too), as a /play."""
        state = self.state()
        seat = rng.choice(GAME.to_act(state))
        action = rng.choice(GAME.legal_actions(state, seat))
        reply = await self.command(PLAYERS[seat], "play", {"action": GAME.format(action)})
        assert reply.content.startswith("Done"), reply.content

    def outbox(self) -> list[tuple[int, str, str]]:
        """(id, status, created_at) of the game's queued messages."""
        return [(int(i), str(s), str(c)) for i, s, c in self.database.rows(
            f"SELECT id, status, created_at FROM outbox WHERE game_id = {self.game_id()} ORDER BY id")]

    def reminders(self) -> list[FakeMessage]:
        """The reminders posted in the server's #games."""
        return [m for m in self.fake.messages(self.channel["id"]) if m.content.startswith("Reminder:")]

    def make_decisions_overdue(self) -> int:
        """Move every open decision's deadline of the game into the past; how many there are (counted first: the
        process may fire them the moment the change is committed)."""
        game = self.game_id()
        where = f"WHERE game_id = {game} AND status = 'open'"
        count = int(self.database.rows(f"SELECT count(*) FROM prompts {where}")[0][0])
        self.database.execute(f"UPDATE prompts SET deadline = {NOW} - interval '1 second' {where}")
        return count

    def overdue(self) -> int:
        """How many open decisions of the game are past their deadline."""
        return int(self.database.rows(f"SELECT count(*) FROM prompts WHERE game_id = {self.game_id()} AND "
                                      f"status = 'open' AND deadline < {NOW}")[0][0])


def start(fake: FakeDiscord, config: Path, shard: int, log: Path) -> FakeProcess:
    """`keywood run` for one shard of COUNT, in a process of its own."""
    return spawn_keywood(fake, ["--config", str(config), "run", "--shards", str(shard), "--shard-count", str(COUNT)],
                         log_path=log)


def leases(database: Database) -> dict[int, tuple[str, bool]]:
    return {int(s): (str(h), bool(b)) for s, h, b in database.rows("SELECT shard, holder, borrowed FROM leases")}


async def test_three_processes_survive_losing_one_mid_game(database: Database, tmp_path: Path) -> None:
    rng = random.Random(17)
    async with contextlib.AsyncExitStack() as stack:
        worlds = [p.sample_world(PLAYERS, admin="ana", guild_id=p.guild_id_on_shard(n, COUNT), guild_name=f"Shard {n}")
                  for n in range(COUNT)]
        fake = await stack.enter_async_context(running_fake(guilds=[w.guild for w in worlds]))
        shards = [Shard(fake, database, n, worlds[n]) for n in range(COUNT)]
        config = write_config(tmp_path / "config.toml", database_url=database.url, tick_seconds=0.3,
                              lease_seconds=LEASE, send_seconds=0.3, log_level="INFO")
        procs = [await stack.enter_async_context(start(fake, config, n, tmp_path / f"shard{n}.log"))
                 for n in range(COUNT)]
        for n in range(COUNT):
            await fake.wait_for_shard(n, COUNT, timeout=SLOW)
        for shard in shards:
            await shard.open_game()
            for _ in range(4):
                await shard.move(rng)

        # each process fires its own shard's deadlines: one reminder per overdue turn, not one per process
        zero = shards[0]
        assert zero.make_decisions_overdue() == 1
        await fake.wait_for(lambda: zero.overdue() == 0 and zero.reminders(), timeout=SLOW)

        # shard 1's process dies with a message of its game unsent and decisions of its game overdue
        one = shards[1]
        fake.fail_sends(one.channel["id"], 1, status=503)
        await one.move(rng)
        unsent = [row for row in one.outbox() if row[1] == "pending"]
        assert unsent, "the failed message waits for its retry"
        procs[1].kill()
        await fake.wait_for_shard_closed(1, COUNT, timeout=SLOW)
        assert one.make_decisions_overdue() == 1  # the turn of the seat to act
        await fake.wait_for(lambda: one.overdue() == 0 and one.reminders(), timeout=SLOW)
        await fake.wait_for(lambda: all(status == "sent" for _, status, _ in one.outbox()), timeout=SLOW)
        assert leases(database)[1][1], "shard 1 is borrowed by a live process"

        # shard 1's process comes back, gets its shard back; a second process given shard 1 is refused
        procs[1] = await stack.enter_async_context(start(fake, config, 1, tmp_path / "shard1-again.log"))
        await fake.wait_for_shard(1, COUNT, timeout=SLOW)
        await fake.wait_for(lambda: leases(database)[1][1] is False, timeout=SLOW)
        twin = start(fake, config, 1, tmp_path / "twin.log")
        assert await twin.wait(SLOW) == 2
        assert "shard 1 is already run by another Keywood process" in twin.output()

        # the game of shard 1 is played to its end, and the others go on
        while not one.over():
            await one.move(rng)
        for shard in (shards[0], shards[2]):
            await shard.move(rng)
        for shard in shards:
            await fake.wait_for(lambda s=shard: all(status == "sent" for _, status, _ in s.outbox()), timeout=SLOW)

        # every deadline fired once, every message arrived once
        assert len(zero.reminders()) == 1
        assert len(one.reminders()) == 1
        delivered = [m for cid in list(fake.channels) for m in fake.messages(cid, include_ephemeral=False)
                     if str(m.payload.get("nonce", "")).startswith("kw")]
        nonces = [str(m.payload["nonce"]) for m in delivered]
        assert len(nonces) == len(set(nonces))
        for shard in shards:
            for row_id, _, _ in shard.outbox():
                assert any(n.startswith(f"kw{row_id}.") for n in nonces), row_id
        assert "Final score:" in "\n".join(m.content for m in fake.messages(one.channel["id"]))
        assert fake.violations == []
        for proc in procs:
            assert proc.running, proc.output()
