"""Builders for Discord API payloads shaped the way the real API sends them.

Everything here returns plain ``dict``s (the JSON Discord would send), so tests can tweak any field before
dispatching it through :class:`tests.discord_fake.server.FakeDiscord`. Ids are fresh, increasing snowflakes;
every interaction gets a fresh id and token.

The usual flow::

    w = sample_world()                       # one guild, two text channels, an admin and two players
    fake = FakeDiscord(guilds=[w.guild])
    ...
    payload = slash("play", {"seats": 3}, user=w.members["alice"], channel=w.channels["games"], guild=w.guild)
    record = await fake.interact(payload)
"""

from __future__ import annotations

import datetime as _dt
import itertools
import secrets
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

DISCORD_EPOCH_MS = 1420070400000
DEFAULT_APPLICATION_ID = "1100000000000000001"
DEFAULT_BOT_USER_ID = DEFAULT_APPLICATION_ID  # a bot's user id equals its application id
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024  # 10 MiB, the limit for unboosted guilds and DMs

# What an ordinary member may do in an ordinary text channel; admins get everything.
MEMBER_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    use_external_emojis=True,
    use_application_commands=True,
).value
ADMIN_PERMISSIONS = discord.Permissions.all().value
# The bot's own permissions in a channel (``app_permissions`` of an interaction).
BOT_PERMISSIONS = (
    discord.Permissions(
        create_private_threads=True,
        manage_threads=True,
        manage_messages=True,
    ).value
    | MEMBER_PERMISSIONS
)

_counter = itertools.count()


def snowflake() -> str:
    """A fresh snowflake id (as Discord sends ids: a string), strictly increasing within the process."""
    ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
    return str((ms << 22) | (next(_counter) & 0x3FFFFF))


def shard_of(guild_id: str | int, shard_count: int) -> int:
    """The shard that gets a guild's events: ``(guild_id >> 22) % shard_count``, as on Discord."""
    return (int(guild_id) >> 22) % shard_count


def guild_id_on_shard(shard_id: int, shard_count: int) -> str:
    """A fresh snowflake (for a guild) whose guild lands on shard ``shard_id`` of ``shard_count``."""
    if not 0 <= shard_id < shard_count:
        raise ValueError(f"no shard {shard_id} among {shard_count}")
    flake = int(snowflake())
    stamp = flake >> 22
    stamp += (shard_id - stamp) % shard_count  # the next timestamp on that shard (at most shard_count - 1 ms on)
    return str((stamp << 22) | (flake & 0x3FFFFF))


def interaction_token() -> str:
    """A fresh, opaque interaction token (real ones are long base64-ish strings)."""
    return "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)


def iso_now() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat()


# --------------------------------------------------------------------------------------------------------------
# users, members, roles, channels, guilds


def user(name: str = "player", *, id: str | int | None = None, bot: bool = False, global_name: str | None = None
         ) -> dict[str, Any]:
    """A user object."""
    return {
        "id": str(id) if id is not None else snowflake(),
        "username": name,
        "discriminator": "0",
        "global_name": global_name if global_name is not None else name.capitalize(),
        "avatar": None,
        "bot": bot,
        "public_flags": 0,
        "flags": 0,
    }


def bot_user(name: str = "Keywood", *, id: str | int = DEFAULT_BOT_USER_ID) -> dict[str, Any]:
    u = user(name, id=id, bot=True, global_name=None)
    u["global_name"] = None
    u.update({"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"})
    return u


def role(guild_id: str | int, name: str, *, id: str | int | None = None, permissions: int = 0, position: int = 0
         ) -> dict[str, Any]:
    return {
        "id": str(id) if id is not None else snowflake(),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def member(
    user_payload: Mapping[str, Any],
    guild: Mapping[str, Any] | None = None,
    *,
    admin: bool = False,
    permissions: int | None = None,
    roles: Iterable[str | int] = (),
    nick: str | None = None,
) -> dict[str, Any]:
    """A guild member object (with ``user`` inside, and ``permissions`` as interactions carry them).

    ``admin=True`` gives the member the guild's "Admin" role (if ``guild`` came from :func:`guild`) and all
    permissions; otherwise the member has :data:`MEMBER_PERMISSIONS`.
    """
    role_ids = [str(r) for r in roles]
    if admin and guild is not None:
        admin_role = next((r for r in guild.get("roles", []) if r["name"] == "Admin"), None)
        if admin_role is not None and admin_role["id"] not in role_ids:
            role_ids.append(admin_role["id"])
    if permissions is None:
        permissions = ADMIN_PERMISSIONS if admin else MEMBER_PERMISSIONS
    return {
        "user": dict(user_payload),
        "nick": nick,
        "avatar": None,
        "banner": None,
        "roles": role_ids,
        "joined_at": iso_now(),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
        "permissions": str(permissions),
    }


def text_channel(guild: Mapping[str, Any] | str | int, name: str, *, id: str | int | None = None,
                 position: int = 0, parent_id: str | int | None = None, topic: str | None = None) -> dict[str, Any]:
    guild_id = guild["id"] if isinstance(guild, Mapping) else str(guild)
    return {
        "id": str(id) if id is not None else snowflake(),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "parent_id": str(parent_id) if parent_id is not None else None,
        "topic": topic,
        "nsfw": False,
        "rate_limit_per_user": 0,
        "last_message_id": None,
        "flags": 0,
    }


def dm_channel(recipient: Mapping[str, Any], *, id: str | int | None = None) -> dict[str, Any]:
    """A DM channel between the bot and ``recipient`` (a user object)."""
    return {
        "id": str(id) if id is not None else snowflake(),
        "type": 1,
        "last_message_id": None,
        "flags": 0,
        "recipients": [dict(recipient)],
    }


def thread_channel(parent: Mapping[str, Any], name: str, *, owner_id: str | int, private: bool = False,
                   id: str | int | None = None, auto_archive_duration: int = 1440,
                   invitable: bool = True) -> dict[str, Any]:
    """A thread under the text channel ``parent``."""
    tid = str(id) if id is not None else snowflake()
    return {
        "id": tid,
        "type": 12 if private else 11,
        "guild_id": parent["guild_id"],
        "parent_id": parent["id"],
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": auto_archive_duration,
            "archive_timestamp": iso_now(),
            "locked": False,
            "invitable": invitable,
            "create_timestamp": iso_now(),
        },
        "member": {"id": tid, "user_id": str(owner_id), "join_timestamp": iso_now(), "flags": 0},
    }


def guild(
    name: str = "Keywood Test",
    *,
    id: str | int | None = None,
    owner_id: str | int | None = None,
    channels: Sequence[Mapping[str, Any]] = (),
    members: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """A full guild object as sent in GUILD_CREATE: an @everyone role (id = guild id) and an "Admin" role.

    Channels and members can be added later by appending to ``["channels"]`` / ``["members"]`` (before the
    guild is handed to the fake).
    """
    gid = str(id) if id is not None else snowflake()
    roles = [role(gid, "@everyone", id=gid, permissions=MEMBER_PERMISSIONS),
             role(gid, "Admin", permissions=discord.Permissions(administrator=True).value, position=1)]
    return {
        "id": gid,
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(owner_id) if owner_id is not None else None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": roles,
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "large": False,
        "unavailable": False,
        "member_count": len(members),
        "joined_at": iso_now(),
        "voice_states": [],
        "presences": [],
        "threads": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "channels": [dict(c) for c in channels],
        "members": [dict(m) for m in members],
    }


@dataclass
class World:
    """A small ready-made server: ``guild`` (with channels and members inside), plus handy lookups by name."""

    guild: dict[str, Any]
    channels: dict[str, dict[str, Any]] = field(default_factory=dict)
    users: dict[str, dict[str, Any]] = field(default_factory=dict)
    members: dict[str, dict[str, Any]] = field(default_factory=dict)


def sample_world(player_names: Sequence[str] = ("alice", "bob", "carol"), *, admin: str = "alice",
                 channel_names: Sequence[str] = ("general", "games"), guild_name: str = "Keywood Test",
                 guild_id: str | int | None = None) -> World:
    """A guild with text channels ``channel_names`` and members ``player_names``; ``admin`` has the Admin role.

    ``guild_id``: e.g. :func:`guild_id_on_shard` for a guild on a given shard (default: a fresh snowflake).
    """
    g = guild(guild_name, id=guild_id)
    w = World(guild=g)
    for pos, cname in enumerate(channel_names):
        ch = text_channel(g, cname, position=pos)
        g["channels"].append(ch)
        w.channels[cname] = ch
    for pname in player_names:
        u = user(pname)
        m = member(u, g, admin=(pname == admin))
        g["members"].append(m)
        w.users[pname] = u
        w.members[pname] = m
    g["owner_id"] = w.users[admin]["id"] if admin in w.users else None
    g["member_count"] = len(g["members"])
    return w


# --------------------------------------------------------------------------------------------------------------
# components and messages


def button(custom_id: str | None = None, label: str | None = "Go", *, style: int = 1, url: str | None = None,
           disabled: bool = False, emoji: Mapping[str, Any] | None = None) -> dict[str, Any]:
    b: dict[str, Any] = {"type": 2, "style": 5 if url else style, "disabled": disabled}
    if label is not None:
        b["label"] = label
    if url:
        b["url"] = url
    else:
        b["custom_id"] = custom_id
    if emoji is not None:
        b["emoji"] = dict(emoji)
    return b


def string_select(custom_id: str, options: Sequence[str | Mapping[str, Any]], *, min_values: int = 1,
                  max_values: int = 1, placeholder: str | None = None) -> dict[str, Any]:
    opts = [{"label": o, "value": o} if isinstance(o, str) else dict(o) for o in options]
    return {"type": 3, "custom_id": custom_id, "options": opts, "min_values": min_values,
            "max_values": max_values, "placeholder": placeholder, "disabled": False}


def action_row(*components: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": [dict(c) for c in components]}


def message(
    channel: Mapping[str, Any],
    *,
    author: Mapping[str, Any] | None = None,
    content: str = "",
    components: Sequence[Mapping[str, Any]] = (),
    embeds: Sequence[Mapping[str, Any]] = (),
    id: str | int | None = None,
    flags: int = 0,
) -> dict[str, Any]:
    """A message object in ``channel``; the author defaults to the bot (as for messages carrying buttons)."""
    m: dict[str, Any] = {
        "id": str(id) if id is not None else snowflake(),
        "type": 0,
        "channel_id": channel["id"],
        "author": dict(author) if author is not None else bot_user(),
        "content": content,
        "timestamp": iso_now(),
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [dict(e) for e in embeds],
        "pinned": False,
        "flags": flags,
        "components": [dict(c) for c in components],
    }
    if channel.get("guild_id"):
        m["guild_id"] = channel["guild_id"]
    return m


_make_message = message  # for builders whose ``message`` parameter shadows the function


# --------------------------------------------------------------------------------------------------------------
# interactions

_OPTION_TYPES = {"sub_command": 1, "sub_command_group": 2, "string": 3, "integer": 4, "boolean": 5, "user": 6,
                 "channel": 7, "role": 8, "mentionable": 9, "number": 10, "attachment": 11}


def _as_user_and_member(who: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """``who`` is a user object or a member object (with ``user`` inside)."""
    if "user" in who and "username" not in who:
        return dict(who["user"]), dict(who)
    return dict(who), None


def _option(name: str, value: Any, resolved: dict[str, dict[str, Any]], in_guild: bool) -> dict[str, Any]:
    """One option with its type guessed from the Python value; users, members, channels and roles get resolved."""
    if isinstance(value, Mapping) and "type" in value and "name" in value and ("value" in value or "options" in value):
        return dict(value)  # already a raw option
    if isinstance(value, bool):
        return {"name": name, "type": 5, "value": value}
    if isinstance(value, int):
        return {"name": name, "type": 4, "value": value}
    if isinstance(value, float):
        return {"name": name, "type": 10, "value": value}
    if isinstance(value, str):
        return {"name": name, "type": 3, "value": value}
    if isinstance(value, Mapping):
        if "username" in value or "user" in value:  # a user or a member
            u, m = _as_user_and_member(value)
            resolved.setdefault("users", {})[u["id"]] = u
            if m is not None and in_guild:
                m_no_user = {k: v for k, v in m.items() if k != "user"}
                resolved.setdefault("members", {})[u["id"]] = m_no_user
            return {"name": name, "type": 6, "value": u["id"]}
        if "permissions" in value and "hoist" in value:  # a role
            resolved.setdefault("roles", {})[value["id"]] = dict(value)
            return {"name": name, "type": 8, "value": value["id"]}
        if "type" in value and "id" in value:  # a channel
            ch = {k: value[k] for k in ("id", "type", "name", "parent_id", "thread_metadata") if k in value}
            ch["permissions"] = str(MEMBER_PERMISSIONS)
            resolved.setdefault("channels", {})[value["id"]] = ch
            return {"name": name, "type": 7, "value": value["id"]}
    raise TypeError(f"cannot guess the option type of {name}={value!r}; pass a raw option dict")


def _options(options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None, resolved: dict[str, dict[str, Any]],
             in_guild: bool) -> list[dict[str, Any]]:
    if options is None:
        return []
    if isinstance(options, Mapping):
        return [_option(k, v, resolved, in_guild) for k, v in options.items()]
    return [dict(o) for o in options]


def _nest(subcommand: str | Sequence[str] | None, leaf_options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Wrap options in a subcommand (``"sub"``) or a group and subcommand (``"group sub"`` / ``("group", "sub")``)."""
    if not subcommand:
        return leaf_options
    parts = subcommand.split() if isinstance(subcommand, str) else list(subcommand)
    if len(parts) == 1:
        return [{"name": parts[0], "type": 1, "options": leaf_options}]
    if len(parts) == 2:
        return [{"name": parts[0], "type": 2, "options": [{"name": parts[1], "type": 1, "options": leaf_options}]}]
    raise ValueError("a subcommand is 'sub' or 'group sub'")


def _base_interaction(
    type_: int,
    *,
    user: Mapping[str, Any],
    channel: Mapping[str, Any],
    guild: Mapping[str, Any] | str | int | None,
    admin: bool,
    application_id: str | int,
    app_permissions: int,
    locale: str,
) -> dict[str, Any]:
    u, m = _as_user_and_member(user)
    payload: dict[str, Any] = {
        "id": snowflake(),
        "application_id": str(application_id),
        "type": type_,
        "token": interaction_token(),
        "version": 1,
        "locale": locale,
        "app_permissions": str(app_permissions),
        "entitlements": [],
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        "channel_id": channel["id"],
        "channel": dict(channel),
    }
    if guild is not None:
        gid = guild["id"] if isinstance(guild, Mapping) else str(guild)
        if m is None:
            m = member(u, guild if isinstance(guild, Mapping) else None, admin=admin)
        m["user"] = u
        payload.update(
            guild_id=str(gid),
            guild={"id": str(gid), "locale": "en-US", "features": []},
            guild_locale="en-US",
            member=m,
            context=0,
            authorizing_integration_owners={"0": str(gid)},
        )
    else:
        payload.update(user=u, context=1, authorizing_integration_owners={"0": "0"})
    return payload


def slash(
    name: str,
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    *,
    user: Mapping[str, Any],
    channel: Mapping[str, Any],
    guild: Mapping[str, Any] | str | int | None = None,
    subcommand: str | Sequence[str] | None = None,
    admin: bool = False,
    command_id: str | int | None = None,
    command_guild_id: str | int | None = None,
    application_id: str | int = DEFAULT_APPLICATION_ID,
    app_permissions: int = BOT_PERMISSIONS,
    locale: str = "en-US",
) -> dict[str, Any]:
    """An APPLICATION_COMMAND interaction (type 2) for ``/name [subcommand] options...``.

    ``options`` is ``{name: value}`` (types guessed: str, int, float, bool, user/member, channel, role dicts —
    users/members/channels/roles also go into ``data.resolved``) or a list of raw option dicts.
    ``subcommand`` is ``"sub"`` or ``"group sub"``. ``user`` is a user (DM) or member (guild) payload; with a
    guild and a bare user a member is made (``admin`` says with which permissions). Set ``command_guild_id``
    for guild-registered commands (discord.py looks those up by it); ``FakeDiscord.slash`` fills it and the
    command id from the synced commands.
    """
    payload = _base_interaction(2, user=user, channel=channel, guild=guild, admin=admin,
                                application_id=application_id, app_permissions=app_permissions, locale=locale)
    resolved: dict[str, dict[str, Any]] = {}
    data: dict[str, Any] = {
        "id": str(command_id) if command_id is not None else snowflake(),
        "name": name,
        "type": 1,
        "options": _nest(subcommand, _options(options, resolved, guild is not None)),
    }
    if resolved:
        data["resolved"] = resolved
    if command_guild_id is not None:
        data["guild_id"] = str(command_guild_id)
    payload["data"] = data
    return payload


def autocomplete(
    name: str,
    focused_option: str,
    value: str | int | float = "",
    *,
    user: Mapping[str, Any],
    channel: Mapping[str, Any],
    guild: Mapping[str, Any] | str | int | None = None,
    options: Mapping[str, Any] | Sequence[Mapping[str, Any]] | None = None,
    focused_type: int | str = 3,
    subcommand: str | Sequence[str] | None = None,
    admin: bool = False,
    command_id: str | int | None = None,
    command_guild_id: str | int | None = None,
    application_id: str | int = DEFAULT_APPLICATION_ID,
    app_permissions: int = BOT_PERMISSIONS,
    locale: str = "en-US",
) -> dict[str, Any]:
    """An APPLICATION_COMMAND_AUTOCOMPLETE interaction (type 4): the user is typing ``value`` into
    ``focused_option`` (of ``focused_type``, string by default); ``options`` are the already-filled others.
    Like Discord, the focused value is sent as typed (a string for numbers too, when given as one)."""
    payload = slash(name, options, user=user, channel=channel, guild=guild, subcommand=None, admin=admin,
                    command_id=command_id, command_guild_id=command_guild_id, application_id=application_id,
                    app_permissions=app_permissions, locale=locale)
    payload["type"] = 4
    ftype = _OPTION_TYPES[focused_type] if isinstance(focused_type, str) else focused_type
    leaf = list(payload["data"]["options"]) + [
        {"name": focused_option, "type": ftype, "value": value, "focused": True}
    ]
    payload["data"]["options"] = _nest(subcommand, leaf)
    payload["data"].pop("resolved", None)  # Discord does not resolve entities during autocomplete
    return payload


def component(
    custom_id: str,
    *,
    user: Mapping[str, Any],
    channel: Mapping[str, Any],
    message: Mapping[str, Any] | Any | None = None,
    guild: Mapping[str, Any] | str | int | None = None,
    component_type: int = 2,
    values: Sequence[str] | None = None,
    admin: bool = False,
    application_id: str | int = DEFAULT_APPLICATION_ID,
    app_permissions: int = BOT_PERMISSIONS,
    locale: str = "en-US",
) -> dict[str, Any]:
    """A MESSAGE_COMPONENT interaction (type 3): ``user`` clicked ``custom_id`` on ``message``.

    ``message`` is a message dict, or anything with a ``payload`` dict (a ``FakeMessage`` from the fake's
    records), or ``None`` to make a bot message carrying just that button (or select, for ``component_type``
    3/5-8). ``guild=None`` means the click happened in a DM. ``values`` are a select menu's chosen values.
    """
    payload = _base_interaction(3, user=user, channel=channel, guild=guild, admin=admin,
                                application_id=application_id, app_permissions=app_permissions, locale=locale)
    if message is not None and not isinstance(message, Mapping):
        message = message.payload
    if message is None:
        if component_type == 2:
            comp = button(custom_id)
        else:
            comp = string_select(custom_id, list(values or ["a"]), max_values=max(1, len(values or [])))
            comp["type"] = component_type
        message = _make_message(channel, components=[action_row(comp)])
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if component_type != 2:
        data["values"] = list(values or [])
    payload["data"] = data
    payload["message"] = dict(message)
    return payload


def modal_submit(
    custom_id: str,
    fields: Mapping[str, str],
    *,
    user: Mapping[str, Any],
    channel: Mapping[str, Any],
    guild: Mapping[str, Any] | str | int | None = None,
    message: Mapping[str, Any] | Any | None = None,
    admin: bool = False,
    application_id: str | int = DEFAULT_APPLICATION_ID,
    app_permissions: int = BOT_PERMISSIONS,
    locale: str = "en-US",
) -> dict[str, Any]:
    """A MODAL_SUBMIT interaction (type 5) for the modal ``custom_id`` with text inputs ``{custom_id: value}``."""
    payload = _base_interaction(5, user=user, channel=channel, guild=guild, admin=admin,
                                application_id=application_id, app_permissions=app_permissions, locale=locale)
    payload["data"] = {
        "custom_id": custom_id,
        "components": [
            {"type": 1, "components": [{"type": 4, "custom_id": cid, "value": value}]} for cid, value in fields.items()
        ],
    }
    if message is not None:
        payload["message"] = dict(message if isinstance(message, Mapping) else message.payload)
    return payload
