"""Smoke tests: an unmodified discord.py client against the fake Discord (REST + gateway)."""

from __future__ import annotations

import asyncio
import io
import re
import signal
import struct
import zlib
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from . import FakeDiscord, run_client, running_fake
from . import payloads as p
from .process import spawn_client_check, spawn_keywood, write_config

GAMES = ["keyper", "keyflower", "keydom", "keythedral"]


def tiny_png() -> bytes:
    """A valid 1x1 PNG."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + \
        chunk(b"IEND", b"")


class Die(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"die:(?P<game>[a-z]+):(?P<face>[1-6])"):
    """A persistent button whose state lives in its custom_id."""

    clicks: list[tuple[str, int, int]] = []

    def __init__(self, game: str, face: int) -> None:
        super().__init__(discord.ui.Button(label=f"Roll {face}", custom_id=f"die:{game}:{face}"))
        self.game, self.face = game, face

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: Any) -> Die:
        return cls(match["game"], int(match["face"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        Die.clicks.append((self.game, self.face, interaction.user.id))
        await interaction.response.send_message(f"{self.game}: rolled {self.face}", ephemeral=True)


class Move(discord.ui.Modal, title="Your move"):
    move: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Move", custom_id="move")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"you played {self.move.value}")


class Board(discord.ui.View):
    """Persistent buttons answering with the other response types: update (7), deferred update (6), modal (9)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Pass", custom_id="board:pass")
    async def pass_(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.edit_message(content="passed", view=self)

    @discord.ui.button(label="Score", custom_id="board:score")
    async def score(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="scored")
        await interaction.followup.send("your score: 7", ephemeral=True)

    @discord.ui.button(label="Move", custom_id="board:move")
    async def move(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_modal(Move(custom_id="move-modal"))


class Bot(discord.Client):
    def __init__(self, *, sync: bool = True) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.sync = sync
        self.errors: list[BaseException] = []

        @self.tree.command(name="roll", description="Roll a die for a game")
        @app_commands.describe(game="Which game", mode="How to answer")
        async def roll(interaction: discord.Interaction, game: str, mode: str = "plain") -> None:
            if mode == "plain":
                view = discord.ui.View(timeout=None)
                view.add_item(Die(game, 6))
                await interaction.response.send_message(f"Rolling for {game}", view=view)
            elif mode == "defer":
                await interaction.response.defer(thinking=True)
                await interaction.followup.send(f"Deferred roll for {game}")
            elif mode == "late":
                await asyncio.sleep(3.2)
                await self._capture(interaction.response.send_message("too late"))
            elif mode == "double":  # two concurrent answers race past discord.py's own guard
                results = await asyncio.gather(interaction.response.send_message("one"),
                                               interaction.response.send_message("two"), return_exceptions=True)
                self.errors += [r for r in results if isinstance(r, BaseException)]

        @roll.autocomplete("game")
        async def game_autocomplete(interaction: discord.Interaction, current: str
                                    ) -> list[app_commands.Choice[str]]:
            if current == "many":
                return [app_commands.Choice(name=f"game {i}", value=str(i)) for i in range(30)]
            return [app_commands.Choice(name=g, value=g) for g in GAMES if current in g]

    async def _capture(self, coro: Any) -> None:
        try:
            await coro
        except discord.HTTPException as e:
            self.errors.append(e)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Die)
        self.add_view(Board())
        if self.sync:
            await self.tree.sync()


def roll(fake: FakeDiscord, world: p.World, who: str = "bob", **options: Any) -> dict[str, Any]:
    return fake.slash("roll", {"game": "keyper", **options}, user=world.members[who],
                      channel=world.channels["games"], guild=world.guild)


async def test_ready_guild_cache_and_command_sync(fake: FakeDiscord, world: p.World) -> None:
    bot = Bot()
    async with run_client(bot, fake):
        guild = bot.get_guild(int(world.guild["id"]))
        assert guild is not None and guild.name == world.guild["name"]
        assert {c.name for c in guild.text_channels} == {"general", "games"}
        assert bot.user is not None and bot.user.id == int(fake.application_id)
        cmd = fake.command("roll")
        assert cmd is not None and [o["name"] for o in cmd["options"]] == ["game", "mode"]
        assert cmd["options"][0]["autocomplete"] is True
        assert fake.requests_to("PUT", rf"/applications/{fake.application_id}/commands")
        conn = fake.gateway_connections[-1]
        assert conn.compress == discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE
        assert [f["op"] for f in conn.received[:2]] == [1, 2]  # heartbeat right after HELLO, then IDENTIFY
    assert fake.unknown_routes == []
    assert fake.violations == []


async def test_slash_plain_response_and_defer_followup(fake: FakeDiscord, world: p.World) -> None:
    async with run_client(Bot(), fake):
        plain = await fake.interact(roll(fake, world))
        first = await fake.wait_for_response(plain.id)
        assert first.type == 4 and first.accepted and first.data["content"] == "Rolling for keyper"
        msg = fake.original_response(plain.id)
        assert msg is not None and msg.custom_ids == ["die:keyper:6"] and not msg.ephemeral
        assert fake.messages(world.channels["games"]["id"]) == [msg]

        deferred = await fake.interact(roll(fake, world, mode="defer"))
        await fake.wait_for(lambda: fake.followups(deferred.id))
        assert [r.type for r in fake.interaction_responses(deferred.id)] == [5]
        original = fake.original_response(deferred.id)
        assert original is not None and not original.loading
        assert original.content == "Deferred roll for keyper"  # the first followup replaced "thinking..."
    assert fake.violations == []


async def test_autocomplete_returns_choices(fake: FakeDiscord, world: p.World) -> None:
    async with run_client(Bot(), fake):
        ac = await fake.interact(fake.autocomplete("roll", "game", "key", user=world.members["carol"],
                                                   channel=world.channels["games"], guild=world.guild))
        response = await fake.wait_for_response(ac.id)
        assert response.type == 8 and [c["value"] for c in response.choices] == GAMES

        too_many = await fake.interact(fake.autocomplete("roll", "game", "many", user=world.members["carol"],
                                                         channel=world.channels["games"], guild=world.guild))
        await fake.wait_for_response(too_many.id)
    assert [v.rule for v in fake.violations] == ["too_many_choices"]


async def test_button_reaches_dynamic_item_after_restart(fake: FakeDiscord, world: p.World) -> None:
    async with run_client(Bot(), fake):
        rec = await fake.interact(roll(fake, world))
        await fake.wait_for_response(rec.id)
    posted = fake.original_response(rec.id)
    assert posted is not None

    Die.clicks.clear()
    async with run_client(Bot(sync=False), fake) as bot:  # a new process: nothing cached, no views in memory
        assert len([c for c in fake.gateway_connections if c.session]) == 2
        click = await fake.interact(fake.component("die:keyper:6", user=world.members["carol"],
                                                   channel=world.channels["games"], message=posted,
                                                   guild=world.guild))
        response = await fake.wait_for_response(click.id)
        assert bot.is_ready()
    assert Die.clicks == [("keyper", 6, int(world.users["carol"]["id"]))]
    assert response.type == 4 and response.data["flags"] == 64
    assert fake.violations == []


async def test_update_deferred_update_and_modal(fake: FakeDiscord, world: p.World) -> None:
    games, guild = world.channels["games"], world.guild
    async with run_client(Bot(sync=False), fake) as bot:
        channel = bot.get_channel(int(games["id"]))
        assert isinstance(channel, discord.TextChannel)
        board = fake.message((await channel.send("board", view=Board())).id)
        assert board is not None and board.custom_ids == ["board:pass", "board:score", "board:move"]
        clicks = {}
        for custom_id in board.custom_ids:
            rec = await fake.interact(fake.component(custom_id, user=world.members["bob"], channel=games,
                                                     message=board, guild=guild))
            clicks[custom_id] = rec
            await fake.wait_for(lambda rec=rec: rec.acknowledged and (rec.ack_type != 6 or rec.followup_ids))
        submit = await fake.interact(fake.modal_submit("move-modal", {"move": "build a mill"},
                                                       user=world.members["bob"], channel=games, guild=guild))
        answer = await fake.wait_for_response(submit.id)
    assert {cid: rec.ack_type for cid, rec in clicks.items()} == {"board:pass": 7, "board:score": 6,
                                                                  "board:move": 9}
    assert [h["content"] for h in board.history] == ["board", "passed"] and board.content == "scored"
    (secret,) = fake.followups(clicks["board:score"].id)
    assert secret.ephemeral and secret.content == "your score: 7"
    assert fake.interaction_responses(clicks["board:move"].id)[0].data["custom_id"] == "move-modal"
    assert answer.data["content"] == "you played build a mill"
    assert fake.violations == []


async def test_late_and_double_responses_are_violations(fake: FakeDiscord, world: p.World) -> None:
    bot = Bot()
    async with run_client(bot, fake):
        late = await fake.interact(roll(fake, world, mode="late"))
        double = await fake.interact(roll(fake, world, mode="double"))
        await fake.wait_for(lambda: len(fake.interaction_responses(double.id)) == 2)
        await fake.wait_for(lambda: fake.interaction_responses(late.id), timeout=6)
        await fake.wait_for(lambda: len(bot.errors) == 2)
    assert sorted(v.rule for v in fake.violations) == ["double_response", "late_response"]
    by_rule = {v.rule: v for v in fake.violations}
    assert (by_rule["late_response"].status, by_rule["late_response"].code) == (404, 10062)
    assert (by_rule["double_response"].status, by_rule["double_response"].code) == (400, 40060)
    assert sorted(e.code for e in bot.errors if isinstance(e, discord.HTTPException)) == [10062, 40060]
    assert [r.accepted for r in fake.interaction_responses(double.id)] == [True, False]


async def test_dm_refused_user_raises_forbidden(fake: FakeDiscord, world: p.World) -> None:
    bob, carol = world.users["bob"]["id"], world.users["carol"]["id"]
    fake.refuse_dms(bob)
    async with run_client(Bot(sync=False), fake) as bot:
        user = await bot.fetch_user(int(bob))
        with pytest.raises(discord.Forbidden) as refused:
            await user.send("your turn")
        assert refused.value.code == 50007
        await (await bot.fetch_user(int(carol))).send("your turn")
    assert fake.dms(bob) == [] and [m.content for m in fake.dms(carol)] == ["your turn"]
    assert fake.violations == []


async def test_png_attachment_thread_and_unknown_route(fake: FakeDiscord, world: p.World) -> None:
    png = tiny_png()
    games = world.channels["games"]
    async with run_client(Bot(sync=False), fake) as bot:
        channel = bot.get_channel(int(games["id"]))
        assert isinstance(channel, discord.TextChannel)
        sent = await channel.send("the board", file=discord.File(io.BytesIO(png), filename="board.png"))
        assert await sent.attachments[0].read() == png  # served back by the fake
        thread = await channel.create_thread(name="keyper #1", type=discord.ChannelType.private_thread)
        await thread.send("welcome")
        with pytest.raises(discord.NotFound):
            await bot.http.request(discord.http.Route("GET", "/guilds/{guild_id}/bans", guild_id=guild_id(world)))
        with pytest.raises(discord.HTTPException) as too_long:
            await channel.send("x" * 2001)
        assert too_long.value.code == 50035
    (msg,) = fake.messages(games["id"])
    assert msg.content == "the board" and msg.files[0].filename == "board.png" and msg.files[0].data == png
    assert msg.payload["attachments"][0]["content_type"] == "image/png"
    assert [m.content for m in fake.messages(thread.id)] == ["welcome"]
    assert fake.unknown_routes == [("GET", f"/guilds/{guild_id(world)}/bans")]
    assert [v.rule for v in fake.violations] == ["content_too_long"]


async def test_reconnect_resumes_session(fake: FakeDiscord, world: p.World) -> None:
    async with run_client(Bot(sync=False), fake):
        session = await fake.wait_until_connected()
        await fake.request_reconnect()
        await fake.wait_for(lambda: any(f["op"] == 6 for c in fake.gateway_connections for f in c.received))
        await fake.wait_for(lambda: session.connection is fake.gateway_connections[-1])
        rec = await fake.interact(roll(fake, world))
        assert (await fake.wait_for_response(rec.id)).accepted
    assert fake.violations == []


def guild_id(world: p.World) -> str:
    return str(world.guild["id"])


async def test_an_enforced_nonce_returns_the_first_message(fake: FakeDiscord, world: p.World) -> None:
    games = world.channels["games"]
    async with run_client(Bot(sync=False), fake) as bot:
        channel = bot.get_channel(int(games["id"]))
        assert isinstance(channel, discord.TextChannel)
        first = await channel.send("your turn", nonce="kw1")
        again = await channel.send("your turn", nonce="kw1")  # discord.py sends enforce_nonce with every nonce
        assert again.id == first.id
        other = await channel.send("your turn", nonce="kw2")
        assert other.id != first.id
        # without enforce_nonce the nonce is only echoed back
        raw = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=games["id"])
        loose = await bot.http.request(raw, json={"content": "loose", "nonce": "kw1"})
        assert loose["id"] != str(first.id) and loose["nonce"] == "kw1"
        # the same nonce in another channel is another message
        general = bot.get_channel(int(world.channels["general"]["id"]))
        assert isinstance(general, discord.TextChannel)
        assert (await general.send("your turn", nonce="kw1")).id != first.id
        # a deleted message's nonce is refused; past the window the nonce is forgotten
        await other.delete()
        with pytest.raises(discord.NotFound):
            await channel.send("your turn", nonce="kw2")
        fake.nonce_window = 0
        assert (await channel.send("your turn", nonce="kw1")).id != first.id
    sends = fake.requests_to("POST", rf"/channels/{games['id']}/messages")
    assert [r.json["nonce"] for r in sends] == ["kw1", "kw1", "kw2", "kw1", "kw2", "kw1"]
    assert [m.content for m in fake.messages(games["id"])] == ["your turn", "loose", "your turn"]
    assert fake.violations == []


async def test_a_denied_channel_answers_missing_permissions(fake: FakeDiscord, world: p.World) -> None:
    games, general = world.channels["games"], world.channels["general"]
    fake.deny_send(games["id"])
    async with run_client(Bot(), fake) as bot:
        channel = bot.get_channel(int(games["id"]))
        assert isinstance(channel, discord.TextChannel)
        with pytest.raises(discord.Forbidden) as refused:
            await channel.send("the board")
        assert (refused.value.status, refused.value.code) == (403, 50013)
        assert refused.value.text == "Missing Permissions"
        other = bot.get_channel(int(general["id"]))
        assert isinstance(other, discord.TextChannel)
        await other.send("elsewhere")
        # an interaction in the denied channel is still answered (responses are webhooks, not channel posts)
        rec = await fake.interact(roll(fake, world))
        assert (await fake.wait_for_response(rec.id)).accepted
        fake.allow_send(games["id"])
        await channel.send("allowed again")
    assert [r.status for r in fake.requests_to("POST", rf"/channels/{games['id']}/messages")] == [403, 200]
    assert [m.content for m in fake.messages(games["id"], include_ephemeral=False)] == ["Rolling for keyper",
                                                                                        "allowed again"]
    assert [m.content for m in fake.messages(general["id"])] == ["elsewhere"]
    assert fake.violations == []


async def test_failing_sends_then_success(fake: FakeDiscord, world: p.World) -> None:
    games = world.channels["games"]
    path = rf"/channels/{games['id']}/messages"
    async with run_client(Bot(sync=False), fake) as bot:
        channel = bot.get_channel(int(games["id"]))
        assert isinstance(channel, discord.TextChannel)
        # a 503 is not retried by discord.py: the caller sees it
        fake.fail_sends(games["id"], 2, status=503)
        for _ in range(2):
            with pytest.raises(discord.DiscordServerError) as failed:
                await channel.send("turn", nonce="t1")
            assert failed.value.status == 503
        assert fake.messages(games["id"]) == []
        sent = await channel.send("turn", nonce="t1")
        assert [r.status for r in fake.requests_to("POST", path)] == [503, 503, 200]
        # a 502 whose message was created anyway: discord.py retries (after 1 s) and the nonce returns it
        fake.fail_sends(games["id"], 1, status=502, created=True)
        lost = await channel.send("lost answer", nonce="t2")
        assert lost.id != sent.id
        assert [r.status for r in fake.requests_to("POST", path)][3:] == [502, 200]
        # a 400 is the caller's: raised at once
        fake.fail_sends(games["id"], 1, status=400)
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send("refused")
        assert (refused.value.status, refused.value.code) == (400, 50035)
    assert [m.content for m in fake.messages(games["id"])] == ["turn", "lost answer"]
    for status, created in ((404, False), (400, True)):
        with pytest.raises(ValueError):
            fake.fail_sends(games["id"], 1, status=status, created=created)
    assert fake.violations == []


# --------------------------------------------------------------------------------------------------------------
# shards: several sessions, in this process or in others


class ShardBot(discord.AutoShardedClient):
    """A bare sharded client that answers every interaction, naming the shards it runs."""

    def __init__(self, shard_ids: list[int] | None = None, shard_count: int | None = None) -> None:
        options: dict[str, Any] = {"shard_ids": shard_ids, "shard_count": shard_count}  # None: ask /gateway/bot
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05, **options)
        self.answered: list[int] = []

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5-second pause between shards (discord.py's default)."""

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        self.answered.append(interaction.id)
        try:
            await interaction.response.send_message(f"shards {self.shard_ids}")
        except discord.HTTPException:  # a second session of the same shard answering too
            pass


@pytest.fixture
def shard_worlds() -> tuple[p.World, p.World]:
    """Two servers: the first on shard 0 of 2, the second on shard 1 of 2."""
    return (p.sample_world(guild_name="Shard Zero", guild_id=p.guild_id_on_shard(0, 2)),
            p.sample_world(guild_name="Shard One", guild_id=p.guild_id_on_shard(1, 2)))


def ping(fake: FakeDiscord, world: p.World, *, dm: bool = False) -> dict[str, Any]:
    """A /ping by bob in the world's #games (or in his DMs)."""
    bob = world.members["bob"]
    if dm:
        return fake.slash("ping", user=bob["user"], channel=p.dm_channel(bob["user"]))
    return fake.slash("ping", user=bob, channel=world.channels["games"], guild=world.guild)


def test_guild_ids_on_shards() -> None:
    for count in (1, 2, 3, 16):
        for shard in range(count):
            gid = p.guild_id_on_shard(shard, count)
            assert (int(gid) >> 22) % count == shard == p.shard_of(gid, count)
    with pytest.raises(ValueError):
        p.guild_id_on_shard(2, 2)


async def test_each_shard_gets_only_its_guilds_and_interactions(shard_worlds: tuple[p.World, p.World]) -> None:
    zero_world, one_world = shard_worlds
    zero_id, one_id = zero_world.guild["id"], one_world.guild["id"]
    async with running_fake(guilds=[zero_world.guild, one_world.guild]) as fake:
        zero, one = ShardBot([0], 2), ShardBot([1], 2)
        async with run_client(zero, fake), run_client(one, fake):
            assert sorted(fake.connected_shards()) == [(0, 2), (1, 2)]
            (s0,), (s1,) = fake.sessions_for_shard(0, 2), fake.sessions_for_shard(1, 2)
            assert [g.id for g in zero.guilds] == [int(zero_id)] and [g.id for g in one.guilds] == [int(one_id)]
            assert [g["id"] for g in s0.dispatched("READY")[0]["guilds"]] == [zero_id]
            assert [g["id"] for g in s1.dispatched("READY")[0]["guilds"]] == [one_id]
            assert s1.dispatched("READY")[0]["shard"] == [1, 2]

            rec = await fake.interact(ping(fake, one_world))
            assert (await fake.wait_for_response(rec.id)).data["content"] == "shards [1]"
            assert rec.delivered_to == [s1.id] and one.answered == [int(rec.id)]
            dm = await fake.interact(ping(fake, zero_world, dm=True))  # DMs go to shard 0
            assert (await fake.wait_for_response(dm.id)).data["content"] == "shards [0]"
            assert zero.answered == [int(dm.id)] and one.answered == [int(rec.id)]

            joined = p.guild("Joined Later", id=p.guild_id_on_shard(1, 2))
            fake.add_guild(joined)  # GUILD_CREATE to shard 1 only
            await fake.wait_for(lambda: one.get_guild(int(joined["id"])))
            assert [g["id"] for g in s0.dispatched("GUILD_CREATE")] == [zero_id]
            assert [g["id"] for g in s1.dispatched("GUILD_CREATE")] == [one_id, joined["id"]]
            assert zero.get_guild(int(joined["id"])) is None
        assert fake.connected_sessions() == [] and fake.shard_overlaps == []
    assert fake.violations == []


async def test_a_closed_shard_gets_nothing_until_a_new_session_holds_it(
        shard_worlds: tuple[p.World, p.World]) -> None:
    zero_world, one_world = shard_worlds
    async with running_fake(guilds=[zero_world.guild, one_world.guild]) as fake:
        zero, first, second = ShardBot([0], 2), ShardBot([1], 2), ShardBot([1], 2)
        async with run_client(zero, fake):
            async with run_client(first, fake):
                old = await fake.wait_for_shard(1, 2)
            await fake.wait_for_shard_closed(1, 2)
            assert not old.connected and fake.connected_shards() == [(0, 2)]

            lost = await fake.interact(ping(fake, one_world), timeout=0, must_deliver=False)
            assert not lost.delivered and lost.delivered_to == []
            with pytest.raises(TimeoutError, match="not delivered"):
                await fake.interact(ping(fake, one_world), timeout=0.1)

            waiting = asyncio.create_task(fake.interact(ping(fake, one_world)))  # delivered once shard 1 is back
            await asyncio.sleep(0.1)
            assert not waiting.done()
            async with run_client(second, fake):
                rec = await waiting
                assert (await fake.wait_for_response(rec.id)).accepted
                assert rec.delivered_to == [(await fake.wait_for_shard(1, 2)).id] != [old.id]
        assert zero.answered == [] and first.answered == [] and second.answered == [int(rec.id)]
        assert lost.responses == [] and len(fake.interactions) == 2
    assert fake.violations == []


async def test_a_shard_held_twice_gets_every_event_twice(shard_worlds: tuple[p.World, p.World]) -> None:
    _, one_world = shard_worlds
    async with running_fake(guilds=[one_world.guild]) as fake:
        a, b = ShardBot([1], 2), ShardBot([1], 2)
        async with run_client(a, fake), run_client(b, fake):
            first, second = fake.sessions_for_shard(1, 2)
            assert [(o.shard, o.session_id, o.others) for o in fake.shard_overlaps] == [((1, 2), second.id,
                                                                                         [first.id])]
            rec = await fake.interact(ping(fake, one_world))
            await fake.wait_for(lambda: len(rec.responses) == 2)
        assert rec.delivered_to == [first.id, second.id] and a.answered == b.answered == [int(rec.id)]
    assert [r.accepted for r in rec.responses] == [True, False]
    assert [v.rule for v in fake.violations] == ["double_response"]


async def test_gateway_bot_recommends_the_shard_count(shard_worlds: tuple[p.World, p.World]) -> None:
    async with running_fake(guilds=[w.guild for w in shard_worlds], recommended_shards=2) as fake:
        bot = ShardBot()  # no shard_count: discord.py asks GET /gateway/bot and launches every shard
        async with run_client(bot, fake):
            assert bot.shard_count == 2 and sorted(fake.connected_shards()) == [(0, 2), (1, 2)]
            assert len(bot.guilds) == 2
        assert [r.response["shards"] for r in fake.requests_to("GET", "/gateway/bot")] == [2]


async def test_an_invalid_shard_is_closed_with_4010(fake: FakeDiscord) -> None:
    with pytest.raises(discord.ConnectionClosed) as closed:
        async with run_client(discord.Client(intents=discord.Intents.default(), shard_id=2, shard_count=2), fake):
            pass
    assert closed.value.code == 4010 and fake.sessions == {}


async def test_processes_serve_their_shards_and_a_killed_one_is_replaced(
        shard_worlds: tuple[p.World, p.World], tmp_path: Path) -> None:
    zero_world, one_world = shard_worlds
    async with running_fake(guilds=[zero_world.guild, one_world.guild]) as fake:
        zero = spawn_client_check(fake, [0], 2, stay=True, log_path=tmp_path / "zero.log")
        one = spawn_client_check(fake, [1], 2, stay=True, log_path=tmp_path / "one.log")
        async with zero, one:
            await zero.wait_for_output(r"^READY .*shards=\[0\]")
            ready = await one.wait_for_output(r"^READY .*")
            assert f"guilds=[{one_world.guild['id']}]" in ready.group(0)
            rec = await fake.interact(ping(fake, one_world))
            answer = await fake.wait_for_response(rec.id)
            assert answer.data["content"] == f"pid {one.pid} shard 1 answered {rec.id}"

            one.kill()  # a crash: no close frame
            assert await one.wait() == -signal.SIGKILL
            await fake.wait_for_shard_closed(1, 2)
            lost = await fake.interact(ping(fake, one_world), timeout=0, must_deliver=False)
            assert not lost.delivered

            async with spawn_client_check(fake, [1], 2, stay=True, log_path=tmp_path / "again.log") as again:
                rec = await fake.interact(ping(fake, one_world), timeout=20)  # waits for the new process's shard
                answer = await fake.wait_for_response(rec.id)
                assert answer.data["content"] == f"pid {again.pid} shard 1 answered {rec.id}"
                dm = await fake.interact(ping(fake, zero_world, dm=True))
                assert (await fake.wait_for_response(dm.id)).data["content"].startswith(f"pid {zero.pid} shard 0 ")
            assert await zero.stop() == 0, zero.output()  # SIGTERM: the client closes its sessions, exits
        assert fake.connected_sessions() == []
        assert [c.close_code for c in fake.gateway_connections if c.session is not None
                and c.session.shard == [0, 2]] == [1000]
        assert lost.responses == [] and re.findall(r"^ANSWERED (\d+)", zero.output(), re.M) == [dm.id]
    assert fake.violations == []


async def test_a_client_process_finds_the_shard_count_and_gateway_through_the_fake(
        shard_worlds: tuple[p.World, p.World], tmp_path: Path) -> None:
    async with running_fake(guilds=[w.guild for w in shard_worlds], recommended_shards=2) as fake:
        async with spawn_client_check(fake, log_path=tmp_path / "auto.log") as proc:
            ready = await proc.wait_for_output(r"^READY .*")
            assert await proc.wait() == 0  # without --stay it closes after READY
        assert "shards=[0, 1] shard_count=2" in ready.group(0)
        assert sorted(s.shard for s in fake.sessions.values()) == [[0, 2], [1, 2]]
        assert fake.requests_to("GET", "/gateway/bot")


async def test_keywood_run_in_a_process_answers_through_the_fake(fake: FakeDiscord, world: p.World,
                                                                 tmp_path: Path) -> None:
    config = write_config(tmp_path / "config.toml", database_url=f"sqlite:///{tmp_path / 'keywood.db'}",
                          tick_seconds=1, log_level="INFO")
    async with spawn_keywood(fake, ["--config", str(config), "run"], log_path=tmp_path / "keywood.log") as proc:
        await fake.wait_for_shard(0, 1, timeout=60)  # one shard (unsharded, or the one /gateway/bot recommends)
        assert fake.command("games") is not None
        rec = await fake.interact(fake.slash("games", user=world.members["bob"], channel=world.channels["games"],
                                             guild=world.guild))
        assert (await fake.wait_for_response(rec.id, timeout=10)).accepted
        await fake.wait_for(lambda: rec.followup_ids or rec.ack_type == 4, timeout=10)  # the answer, if deferred
        assert await proc.stop() == 0, proc.output()  # SIGTERM (systemd's stop): a clean close
    assert re.search(rf"Keywood \S+ starting: database sqlite:///{re.escape(str(tmp_path))}/keywood.db; every shard",
                     proc.output()), "issue 41: one startup line with the version, database and shards"
    answer = fake.original_response(rec.id)
    assert answer is not None and not answer.loading and answer.content, proc.output()
    assert fake.connected_sessions() == [] and fake.gateway_connections[-1].close_code == 1000
    assert fake.violations == []
