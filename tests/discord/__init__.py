"""End-to-end tests of the Discord bot: the unmodified discord.py client of bot/discord_app.py, connected to the
in-process fake Discord (tests/discord_fake), with the real Table on a real SQLite file. The table draws its seeds
from ``Env.seed`` (a known source of randomness, as a clock is), since Discord's /new takes no seed.

tests/discord/conftest.py makes these fixtures available. Nothing of Keywood is mocked.

The world: one server with #general and #games; players ana, ben and cleo; mod (a server admin, seated nowhere)
and zed (a member who plays nothing). Seed 7 with Ana, Ben and Cleo seated in that order starts with Ana to act;
her `play green 1.pig` puts a keyple into an empty field and invites Ben, then Cleo. Ben's hidden fair tiles are
spring-3, summer-6 and autumn-4.

Every test ends with the fake's checks (in the ``env`` fixture): no Discord rule broken (``violations``), no
route the fake does not know, every interaction answered exactly once within 3 seconds, and the client
identified without privileged intents.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from bot.discord_app import BotConfig, Keywood
from bot.store import Store
from bot.table import Table
from engine.keyper import GAME
from tests.discord_fake import FakeDiscord, FakeMessage, InteractionRecord, run_client, running_fake
from tests.discord_fake import payloads as p

SEED = 7
PLAYERS = ("ana", "ben", "cleo")
BEN_FAIRS = "spring-3, summer-6, autumn-4"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SUPPRESS_NOTIFICATIONS = 1 << 12
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)  # members, presences, message content
TIMESTAMP = re.compile(r"Deadline: <t:(\d+):f> \(<t:\1:R>\)\.")  # a deadline: its date, then how far off it is
ANY_TIMESTAMP = re.compile(r"<t:\d+(:[tTdDfFR])?>")
ACK_DEADLINE = 3.0
MENTION = re.compile(r"<@!?(\d+)>")  # a user mention in a message's text


def dump(path: Path) -> str:
    """The whole database as SQL text, read on its own sqlite3 connection (never the store's), less the running
    bot's shard lease, which it renews at every tick."""
    con = sqlite3.connect(path)
    try:
        return "\n".join(line for line in con.iterdump() if not line.startswith('INSERT INTO "leases"'))
    finally:
        con.close()


def sql(path: Path, statement: str, *args: Any) -> list[tuple[Any, ...]]:
    """Run one statement on its own sqlite3 connection (committed) and return its rows."""
    con = sqlite3.connect(path)
    try:
        rows = con.execute(statement, args).fetchall()
        con.commit()
        return rows
    finally:
        con.close()


@dataclass
class Env:
    """The fake Discord, the world in it, the database file, and the running bot (restartable)."""

    fake: FakeDiscord
    world: p.World
    path: Path
    bot: Keywood | None = None
    store: Store | None = None
    clients: int = 0
    seed: int = SEED  # the seed the bot's table draws for the next game (Discord's /new takes none)
    _running: contextlib.AbstractAsyncContextManager[Any] | None = field(default=None, repr=False)

    # the bot
    async def start(self) -> Keywood:
        """Start a new Keywood process on the database file (as after a restart: nothing in memory)."""
        self.store = Store(f"sqlite:///{self.path}")
        table = Table(self.store, draw_seed=lambda: self.seed)
        bot = Keywood(table, BotConfig("token", [int(self.guild_id)], tick_seconds=0.2), guild_ready_timeout=0.05)
        self._running = run_client(bot, self.fake)
        await self._running.__aenter__()
        self.bot, self.clients = bot, self.clients + 1
        return bot

    async def stop(self) -> None:
        """Close the bot (its ticker stops) and its store."""
        if self._running is not None:
            await self._running.__aexit__(None, None, None)
            self._running = None
        if self.store is not None:
            self.store.close()
            self.store = None

    async def restart(self) -> Keywood:
        """Stop the bot and start a fresh one on the same database."""
        await self.stop()
        return await self.start()

    # the world
    @property
    def guild_id(self) -> str:
        return str(self.world.guild["id"])

    @property
    def games(self) -> dict[str, Any]:
        """The #games channel, where the tests play."""
        return self.world.channels["games"]

    @property
    def general(self) -> dict[str, Any]:
        return self.world.channels["general"]

    def uid(self, name: str) -> str:
        return str(self.world.users[name]["id"])

    def dm_channel(self, name: str) -> dict[str, Any]:
        """A user's DM channel with the bot (it exists once the bot has written to them)."""
        cid = self.fake.dm_channel_id(self.uid(name))
        assert cid is not None, f"no DM channel with {name}"
        return self.fake.channels[cid]

    # reading what the bot posted
    def public(self, channel: dict[str, Any] | None = None) -> list[FakeMessage]:
        """Messages the bot posted in a channel on its own (not replies to interactions), oldest first."""
        cid = (channel or self.games)["id"]
        return [m for m in self.fake.messages(cid, include_ephemeral=False) if m.source == "channel"]

    def dms(self, name: str) -> list[FakeMessage]:
        return self.fake.dms(self.uid(name))

    def request_of(self, message: FakeMessage) -> dict[str, Any]:
        """The JSON body of the request that created a channel message."""
        for record in self.fake.requests_to("POST", rf"/channels/{message.channel_id}/messages"):
            if isinstance(record.response, dict) and str(record.response.get("id")) == message.id:
                return dict(record.json or {})
        raise AssertionError(f"no request created message {message.id}")

    def game_id(self) -> int:
        """The id of the game in #games."""
        rows = sql(self.path, "SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC", self.games["id"])
        assert rows, "no game in #games"
        return int(rows[0][0])

    def state(self) -> Any:
        """The stored engine state of the game in #games."""
        (data,) = sql(self.path, "SELECT state FROM snapshots WHERE game_id = ?", self.game_id())[0]
        return GAME.from_json(json.loads(data))

    def log(self) -> list[tuple[int, str, str]]:
        """(seat, author, notation) of the game's log, without undone actions."""
        rows = sql(self.path, "SELECT seat, author_id, notation FROM actions WHERE game_id = ? AND undone = 0 "
                              "ORDER BY seq", self.game_id())
        return [(int(s), str(a), str(n)) for s, a, n in rows]

    def prompts(self, kind: str = "reaction") -> list[tuple[int, int | None, str, str | None]]:
        """(id, seat, status, answer) of the game's prompts of one kind (reaction: Keyper's joiner invitations)."""
        rows = sql(self.path, "SELECT id, seat, status, answer FROM prompts WHERE game_id = ? AND kind = ? "
                              "ORDER BY id", self.game_id(), kind)
        return [(int(i), s, str(st), a) for i, s, st, a in rows]

    # interacting
    def _where(self, name: str, channel: dict[str, Any] | None, dm: bool) -> dict[str, Any]:
        if dm:
            return {"user": self.world.users[name], "channel": self.dm_channel(name), "guild": None}
        return {"user": self.world.members[name], "channel": channel or self.games, "guild": self.world.guild}

    async def slash(self, name: str, command: str, options: dict[str, Any] | None = None, *,
                    channel: dict[str, Any] | None = None, dm: bool = False) -> InteractionRecord:
        """Dispatch a slash command from a user (in #games unless told otherwise) without waiting."""
        return await self.fake.interact(self.fake.slash(command, options, **self._where(name, channel, dm)))

    async def replies(self, record: InteractionRecord, count: int = 1) -> list[FakeMessage]:
        """Wait until the interaction has ``count`` replies (its deferred answer filled in, then followups)."""
        await self.fake.wait_for(lambda: len(record.followup_ids) >= count, timeout=10)
        return self.fake.followups(record.id)

    async def run(self, name: str, command: str, options: dict[str, Any] | None = None, *,
                  channel: dict[str, Any] | None = None, dm: bool = False) -> FakeMessage:
        """Send a slash command and return its (private) reply, once the bot has finished with it."""
        record = await self.slash(name, command, options, channel=channel, dm=dm)
        return (await self.replies(record))[0]

    async def suggest(self, name: str, command: str, option: str, typed: str) -> list[str]:
        """The autocomplete choices a user gets while typing into a command's option in #games."""
        record = await self.fake.interact(self.fake.autocomplete(command, option, typed, **self._where(name, None,
                                                                                                       False)))
        response = await self.fake.wait_for_response(record.id)
        assert response.type == 8 and response.accepted
        return [str(c["value"]) for c in response.choices]

    async def click(self, name: str, custom_id: str, message: FakeMessage, *, dm: bool = False) -> InteractionRecord:
        """A user clicks a button on a message (in #games or in the user's DMs)."""
        where = self._where(name, self.fake.channels[message.channel_id] if not dm else None, dm)
        return await self.fake.interact(self.fake.component(custom_id, message=message, **where))

    async def click_reply(self, name: str, custom_id: str, message: FakeMessage, *, dm: bool = False) -> FakeMessage:
        """Click, then return the private answer once the bot has finished (a deferred reply or a message)."""
        record = await self.click(name, custom_id, message, dm=dm)
        await self.fake.wait_for(lambda: record.acknowledged and (record.ack_type != 5 or record.followup_ids))
        if record.ack_type == 5:
            return self.fake.followups(record.id)[0]
        original = self.fake.original_response(record.id)
        assert original is not None
        return original

    async def wait_public(self, count: int, channel: dict[str, Any] | None = None) -> list[FakeMessage]:
        """Wait until the bot has posted ``count`` messages of its own in a channel; returns them all."""
        await self.fake.wait_for(lambda: len(self.public(channel)) >= count, timeout=10)
        return self.public(channel)

    # common openings
    def dms_noted(self, name: str) -> bool:
        """Whether the bot has recorded what it found of a user's DMs (after its DM check at /new or /join)."""
        return bool(sql(self.path, "SELECT 1 FROM recipients WHERE user_id = ?", self.uid(name)))

    async def seat_players(self, *, seed: int = SEED, **options: Any) -> None:
        """/new (ana; the table draws the seed given) and /join (ben, cleo), each waited for (DM checks and their
        records included)."""
        self.seed = seed
        opened = await self.run("ana", "new", options)
        assert opened.content == "Table opened.", opened.content
        await self.fake.wait_for(lambda: self.dms_noted("ana"))
        for name in PLAYERS[1:]:
            refused = self.uid(name) in self.fake.refused_dm_users
            record = await self.slash(name, "join")
            replies = await self.replies(record, 2 if refused else 1)
            assert replies[0].content == "You are seated.", replies[0].content
            await self.fake.wait_for(functools.partial(self.dms_noted, name))

    async def start_game(self, *, seed: int = SEED, **options: Any) -> None:
        """A started seed-7 game: Ana to act."""
        await self.seat_players(seed=seed, **options)
        started = await self.run("ana", "start")
        assert started.content == "Game started.", started.content
        assert GAME.to_act(self.state()) == [0]

    async def invite(self) -> FakeMessage:
        """Ana's `play green 1.pig` in a started game; returns the turn message (Ben asked, then Cleo)."""
        count = len(self.public())
        played = await self.run("ana", "play", {"action": "play green 1.pig"})
        assert played.content.startswith("Done"), played.content
        turn = (await self.wait_public(count + 1))[count]
        assert GAME.to_act(self.state()) == [1]
        return turn

    # the checks every test ends with
    def check_discord_rules(self) -> None:
        """No Discord rule broken, every interaction answered once in time, no privileged intent asked for."""
        assert self.fake.violations == [], self.fake.violations
        assert self.fake.unknown_routes == [], self.fake.unknown_routes
        for record in self.fake.interactions.values():
            accepted = [r for r in record.responses if r.accepted]
            assert len(record.responses) == 1 and len(accepted) == 1, (record.payload.get("data"), record.responses)
            assert accepted[0].elapsed < ACK_DEADLINE, (record.payload.get("data"), accepted[0].elapsed)
            if record.ack_type == 5:  # a deferred answer must be filled in
                original = self.fake.original_response(record.id)
                assert original is not None and not original.loading, record.payload.get("data")
        identifies = [f for c in self.fake.gateway_connections for f in c.received if f.get("op") == 2]
        assert len(identifies) == self.clients, (len(identifies), self.clients)
        assert all(int(f["d"]["intents"]) & PRIVILEGED_INTENTS == 0 for f in identifies), identifies


@pytest.fixture
async def env(tmp_path: Path) -> AsyncIterator[Env]:
    """A running bot on a fresh database file, connected to a fake Discord that refuses privileged intents."""
    world = p.sample_world(("ana", "ben", "cleo", "mod", "zed"), admin="mod")
    async with running_fake(guilds=[world.guild], allowed_intents=0) as fake:
        environment = Env(fake, world, tmp_path / "keywood.db")
        await environment.start()
        try:
            yield environment
        finally:
            await environment.stop()
        environment.check_discord_rules()
