"""Syncing the slash commands: sent to Discord only when Discord holds others than this version's."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger("keywood")
COMMAND_FIELDS = ("type", "name", "description", "default_member_permissions", "nsfw")
GLOBAL_FIELDS = ("contexts", "integration_types")  # Discord keeps these for global commands only
OPTION_DEFAULTS: dict[str, Any] = {"required": False, "autocomplete": False, "choices": [], "channel_types": [],
                                   "min_value": None, "max_value": None, "min_length": None, "max_length": None}


async def sync_commands(tree: app_commands.CommandTree[Any], guild: discord.Object | None) -> bool:
    """Send the slash commands to Discord (to one server, or globally) only when Discord holds others: a
    restart with the same commands changes nothing, and Discord's daily limit on command creations is spared.
    Returns whether they were sent."""
    scope = f"server {guild.id}" if guild is not None else "every server (global)"
    local = [c.to_dict(tree) for c in tree.get_commands(guild=guild)]
    try:
        remote = await _fetch_command_payloads(tree.client, guild)
    except discord.HTTPException as exc:  # cannot compare: send them, as a sync always did
        log.warning("could not read the slash commands Discord has for %s (%s); syncing them", scope, exc)
        remote = None
    if remote is not None and same_commands(local, remote, scoped=guild is not None):
        log.info("slash commands for %s unchanged (%d): not synced", scope, len(local))
        return False
    await tree.sync(guild=guild)
    log.info("slash commands synced to %s (%d)%s", scope, len(local),
             "" if guild is not None else "; Discord may take up to an hour to show them everywhere")
    return True


async def _fetch_command_payloads(client: discord.Client, guild: discord.Object | None) -> list[dict[str, Any]]:
    """The commands Discord holds, as Discord sends them. Read raw rather than through tree.fetch_commands:
    discord.py 2.7's AppCommand reads the contexts [0] (servers) as none, and leaves out some fields."""
    assert client.application_id is not None
    if guild is None:
        found = await client.http.get_global_commands(client.application_id)
    else:
        found = await client.http.get_guild_commands(client.application_id, guild.id)
    return [dict(c) for c in found]


def same_commands(local: list[dict[str, Any]], remote: list[dict[str, Any]], *, scoped: bool) -> bool:
    """Whether Discord's commands (remote) are the ones this version would sync (local), field by field, ignoring
    what Discord adds (ids, versions, empty lists and defaults). scoped: server commands, which have no contexts."""
    def keyed(payloads: list[dict[str, Any]]) -> dict[tuple[int, str], dict[str, Any]]:
        return {(int(c.get("type") or 1), str(c["name"])): _command_shape(c, scoped) for c in payloads}

    return keyed(local) == keyed(remote)


def _command_shape(payload: dict[str, Any], scoped: bool) -> dict[str, Any]:
    """A command payload's fields that matter, in one form whether it was built here or read from Discord."""
    shape = {key: payload.get(key) for key in COMMAND_FIELDS}
    shape["type"] = int(shape["type"] or 1)
    shape["nsfw"] = bool(shape["nsfw"])
    shape["description"] = shape["description"] or ""
    permissions = shape["default_member_permissions"]
    shape["default_member_permissions"] = None if permissions is None else int(permissions)
    if not scoped:
        for key in GLOBAL_FIELDS:
            shape[key] = sorted(payload.get(key) or []) or None
    shape["options"] = [_option_shape(o) for o in payload.get("options") or []]
    return shape


def _option_shape(option: dict[str, Any]) -> dict[str, Any]:
    """An option's fields that matter (with Discord's defaults filled in), its own options included."""
    shape = {"type": int(option["type"]), "name": option["name"], "description": option.get("description") or ""}
    shape |= {key: option.get(key) if option.get(key) is not None else default
              for key, default in OPTION_DEFAULTS.items()}
    shape["choices"] = [(c["name"], c["value"]) for c in shape["choices"]]
    shape["channel_types"] = sorted(shape["channel_types"])
    shape["options"] = [_option_shape(o) for o in option.get("options") or []]
    return shape
