"""The slash commands as Discord holds them: where each is offered, every option described and ranged, and synced
only when they changed (a restart with the same commands sends nothing; an upgrade that changes them does).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import discord

from bot import games
from bot.discord_app import BotConfig, Keywood
from bot.games import Option
from bot.store import Store
from bot.table import Table
from tests.discord import Env
from tests.discord_fake import FakeDiscord, run_client, running_fake
from tests.discord_fake import payloads as p

TABLE_COMMANDS = {"new", "join", "leave", "start", "play", "check", "board", "hand", "log", "score", "undo",
                  "clock", "away", "sub", "standin", "export",
                  "abandon", "kick", "keywood-settings"}
ANYWHERE = {"rules", "games"}
GUILD, BOT_DM = 0, 1
INTEGER = 4
PLACEHOLDER = "…"  # discord.py's description for an option nobody described


def options(command: dict[str, Any]) -> list[dict[str, Any]]:
    """A command's options, those of its subcommands included."""
    found = []
    for option in command.get("options") or []:
        found += [option, *options(option)]
    return found


def command_puts(fake: FakeDiscord, guild_id: str | None) -> int:
    """How many times the bot has overwritten its commands (of one server, or the global ones)."""
    scope = f"/guilds/{guild_id}" if guild_id else ""
    return len(fake.requests_to("PUT", rf"/applications/\d+{scope}/commands"))


async def test_table_commands_are_offered_in_servers_only(env: Env) -> None:
    synced = {c["name"]: c for c in env.fake.commands(env.guild_id)}
    assert set(synced) == TABLE_COMMANDS | ANYWHERE
    for name in TABLE_COMMANDS:
        assert synced[name]["contexts"] == [GUILD] and synced[name]["dm_permission"] is False, synced[name]
    for name in ANYWHERE:
        assert synced[name]["contexts"] == [GUILD, BOT_DM] and synced[name]["dm_permission"] is True
    assert all(c["integration_types"] == [0] for c in synced.values())  # installed to servers, not to users
    # and /rules and /games do answer in a DM (Ben's DM channel with the bot exists once he is seated)
    await env.seat_players()
    dm = await env.run("ben", "games", dm=True)
    assert dm.ephemeral and "**Keyper**" in dm.content
    rules = await env.run("ben", "rules", {"topic": "Joiners"}, dm=True)
    assert rules.ephemeral and rules.content.startswith("## Joiners")


async def test_every_option_is_described_and_every_number_ranged(env: Env) -> None:
    synced = env.fake.commands(env.guild_id)
    for command in synced:
        assert command["description"] not in ("", PLACEHOLDER), command["name"]
        for option in options(command):
            assert option["description"] not in ("", PLACEHOLDER), (command["name"], option["name"])
            if option["type"] == INTEGER:
                assert option.get("min_value") is not None and option.get("max_value") is not None, (
                    command["name"], option["name"])
    # the server settings take the ranges the registry gives a table's deadlines
    (settings,) = [c for c in synced if c["name"] == "keywood-settings"]
    registry = {o.name: o for o in games.default().table_options}
    assert [(o["name"], o["type"], o["min_value"], o["max_value"], o["description"]) for o in settings["options"]] == [
        (name, INTEGER, registry[name].min, registry[name].max, registry[name].description)
        for name in ("decision_minutes", "reminder_hours")]
    assert settings["default_member_permissions"] == 1 << 5  # Manage Server
    # a value out of range that reaches the bot anyway (an old client) is refused by the table
    reply = await env.run("mod", "keywood-settings", {"decision_minutes": 0})
    assert reply.content == "decision_minutes must be at least 1."


async def test_commands_are_synced_only_when_they_changed(env: Env) -> None:
    def stored() -> dict[str, dict[str, Any]]:
        return {c["name"]: c for c in env.fake.commands(env.guild_id)}

    assert command_puts(env.fake, env.guild_id) == 1  # the first start: Discord had none

    # a restart with the same commands reads them and sends nothing
    await env.restart()
    assert command_puts(env.fake, env.guild_id) == 1
    assert len(env.fake.requests_to("GET", rf"/applications/\d+/guilds/{env.guild_id}/commands")) == 2

    # Discord holds an older version's commands: an option not yet described, a command since removed, another
    # range, a command once for admins only; each is put right by the next start, once
    changes: tuple[Callable[[dict[str, dict[str, Any]]], None], ...] = (
        lambda c: c["check"]["options"][0].update(description=PLACEHOLDER),
        lambda c: env.fake.commands_by_scope[env.guild_id].append(dict(c["board"], name="table", id="1")),
        lambda c: c["keywood-settings"]["options"][0].update(max_value=60),
        lambda c: c["hand"].update(default_member_permissions=8))
    for number, change in enumerate(changes, start=2):
        change(stored())
        await env.restart()
        assert command_puts(env.fake, env.guild_id) == number
        await env.restart()
        assert command_puts(env.fake, env.guild_id) == number
    assert set(stored()) == TABLE_COMMANDS | ANYWHERE
    assert stored()["check"]["options"][0]["description"] != PLACEHOLDER
    assert stored()["hand"]["default_member_permissions"] is None

    # a new version of Keywood with another game's option: /new changed, so the commands are sent
    extra = dataclasses.replace(games.get("tokens"), id="tokens-relay", title="Tokens Relay",
                                options=(Option("relay_legs", int, 2, "Legs of the relay", 1, 5),))
    games.register(extra)
    try:
        await env.restart()
    finally:
        games.unregister(extra.id)
    assert command_puts(env.fake, env.guild_id) == len(changes) + 2
    relay = next(o for o in stored()["new"]["options"] if o["name"] == "relay_legs")
    assert (relay["min_value"], relay["max_value"]) == (1, 5)


async def test_global_commands_are_synced_only_when_they_changed(tmp_path: Path) -> None:
    world = p.sample_world(("ana",))
    async with running_fake(guilds=[world.guild], allowed_intents=0) as fake:
        for start, puts in enumerate((1, 1, 2)):  # the first start, not the second; the third, after a change
            if start == 2:  # Discord holds one command fewer (an older version's set)
                fake.commands_by_scope[None] = [c for c in fake.commands_by_scope[None] if c["name"] != "log"]
            store = Store(f"sqlite:///{tmp_path / 'keywood.db'}")
            bot = Keywood(Table(store, images=False), BotConfig("token", [], tick_seconds=0.2),
                          guild_ready_timeout=0.05)
            try:
                async with run_client(bot, fake):
                    pass
            finally:
                store.close()
            assert command_puts(fake, None) == puts, start
        assert command_puts(fake, world.guild["id"]) == 0 and fake.violations == []
    synced = {c["name"]: c for c in fake.commands_by_scope[None]}
    assert set(synced) == TABLE_COMMANDS | ANYWHERE
    assert synced["play"]["contexts"] == [GUILD] and synced["games"]["contexts"] == [GUILD, BOT_DM]


def test_the_documented_permissions_add_up_to_the_documented_integer() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "discord.md").read_text(encoding="utf-8")
    table = text[text.index("| Permission |"):text.index("That is all")]
    names = re.findall(r"^\| \*\*([^*]+)\*\* \|", table, flags=re.MULTILINE)
    attributes = {"View Channels": "view_channel", "Send Messages": "send_messages", "Attach Files": "attach_files",
                  "Create Public Threads": "create_public_threads",
                  "Send Messages in Threads": "send_messages_in_threads"}
    assert sorted(names) == sorted(attributes)
    value = discord.Permissions(**{attributes[n]: True for n in names}).value
    assert f"permissions integer is `{value}`" in text and f"permissions={value}`" in text
