"""The Discord transport: interactions become table Commands, Outcomes become Discord messages.

Thin on purpose: no rules and no SQL here. Every interaction is deferred at once and the table runs in a
worker thread, so the event loop never blocks and Discord's 3-second deadline is always met.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import json
import logging
import re
import signal
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import tasks

from bot import games
from bot.clocks import CONSEQUENCES
from bot.games import Option
from bot.heap import freeze_long_lived
from bot.shards import Leases, ShardTaken
from bot.store import OutboxRow, ShardSet, Store, aware
from bot.table import OUTBOX_BATCH, Command, Outcome, Table, Where, Who

log = logging.getLogger("keywood")
MAX_CONTENT = 2000
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_CHOICES = 25
MAX_BUTTONS = 20
CANNOT_DM = 50007  # Discord's error code for a user whose DMs are closed to the bot
NO_TABLE_IN_DMS = "Open a table in a server channel or thread: a DM holds no game."
NO_THREAD = ("Keywood cannot open a thread here: it needs the Create Public Threads and Send Messages in Threads "
             "permissions in this channel. Ask a server admin, or run /new without thread to play in this channel.")
SEED_IS_SECRET = ("Keywood draws every game's seed in secret, so that nobody can work out what is hidden; only the "
                  "terminal's `keywood play --seed` chooses one.")
HOW_TO_OPEN_DMS = ("To get your private prompts by DM, allow direct messages from members of this server (the "
                   "server's name → Privacy Settings → Direct Messages). Until then they appear here, behind a "
                   "button only you can open; /hand shows your private view at any time.")


class TokenRefused(Exception):
    """Discord refused the bot token: nothing to retry, whoever runs Keywood must fix the configuration."""


@dataclass
class BotConfig:
    """What `keywood run` reads from config.toml (see config.example.toml)."""

    token: str
    dev_guild_ids: list[int] = field(default_factory=list)
    tick_seconds: float = 30.0
    shard_ids: list[int] | None = None  # None: this process runs every shard
    shard_count: int | None = None  # None with shard_ids None: Discord's recommended count
    lease_seconds: float = 90.0  # how long a silent process keeps its shards before another takes them over
    send_seconds: float = 2.0  # with shard_ids, how often the outbox is read (messages other processes queued)
    owns_process: bool = False  # the bot is all its process runs (keywood run): it may freeze the heap (bot/heap.py)

    def leases(self, store: Store) -> Leases:
        """This process's shard leases (one lease for the whole bot when it runs every shard)."""
        if self.shard_ids is None:
            return Leases(store, frozenset({0}), 1, self.lease_seconds)
        assert self.shard_count is not None
        return Leases(store, frozenset(self.shard_ids), self.shard_count, self.lease_seconds)


def where_of(interaction: discord.Interaction[Any]) -> Where:
    """The table an interaction happens at (a DM is its own table, so commands there find no game)."""
    guild = str(interaction.guild_id) if interaction.guild_id else "dm"
    return Where(guild, str(interaction.channel_id))


def who_of(interaction: discord.Interaction[Any]) -> Who:
    """The person behind an interaction; admins are those who may manage the server."""
    perms = interaction.permissions
    admin = bool(interaction.guild_id) and (perms.administrator or perms.manage_guild)
    return Who(str(interaction.user.id), interaction.user.display_name, admin)


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    """Cut a message to Discord's length limit."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def pieces(text: str, limit: int = MAX_CONTENT, most: int = 4) -> list[str]:
    """A long text as at most `most` messages within Discord's limit, split between lines (the last one clipped)."""
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) <= limit or not current:
            current = candidate
            continue
        parts.append(current)
        current = line
    parts.append(current)
    if len(parts) > most:
        parts = parts[: most - 1] + ["\n".join(parts[most - 1:])]
    return [clip(part, limit) for part in parts]


def with_tail(text: str, tail: str) -> str:
    """The text cut so that the tail (a line of mentions) always fits after it."""
    if not tail:
        return clip(text)
    return f"{clip(text, MAX_CONTENT - len(tail) - 1)}\n{tail}".strip()


ACTION_ID = r"kw:(?P<game>\d+):(?P<seat>\d+):(?P<version>\d+):(?P<action>.+)"
INVITE_ID = r"kwi:(?P<prompt>\d+):(?P<action>.+)"
OPEN_ID = r"kwo:(?P<prompt>\d+):(?P<user>\d+)"


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_ID):
    """A button for one legal action, tied to the game, the seat it was offered to, and the state version."""

    def __init__(self, game: int, seat: int, version: int, action: str) -> None:
        super().__init__(discord.ui.Button(label=action[:MAX_LABEL], style=discord.ButtonStyle.primary,
                                           custom_id=action_id(game, seat, version, action)))
        self.game, self.seat, self.version, self.action = game, seat, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionButton:
        """Rebuild the button from its custom_id (works after a restart)."""
        return cls(int(match["game"]), int(match["seat"]), int(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Send the action to the table as a play by the clicking user."""
        client = interaction.client
        assert isinstance(client, Keywood)
        await client.handle(interaction, "play", self.action, game_id=self.game, seat=self.seat, version=self.version)


def action_id(game: int, seat: int, version: int, action: str) -> str:
    """The custom_id of an action button (it must fit Discord's 100 characters whole: it carries the action)."""
    return f"kw:{game}:{seat}:{version}:{action}"


class InviteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=INVITE_ID):
    """A button answering one open decision (sent by DM, or shown privately in the channel).

    It is tied to the decision, not to the table's version: it works until that decision is made.
    """

    def __init__(self, prompt: int, action: str) -> None:
        style = discord.ButtonStyle.secondary if action in ("decline", "done", "skip") else discord.ButtonStyle.success
        super().__init__(discord.ui.Button(label=action[:MAX_LABEL], style=style, custom_id=f"kwi:{prompt}:{action}"))
        self.prompt, self.action = prompt, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> InviteButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["prompt"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Answer the decision."""
        client = interaction.client
        assert isinstance(client, Keywood)
        await client.handle(interaction, "answer", self.action, prompt_id=self.prompt)


class OpenInviteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=OPEN_ID):
    """For a player whose DMs are closed: opens their decision privately in the channel."""

    def __init__(self, prompt: int, user: int) -> None:
        super().__init__(discord.ui.Button(label="Open my decision", style=discord.ButtonStyle.primary,
                                           custom_id=f"kwo:{prompt}:{user}"))
        self.prompt, self.user = prompt, user

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> OpenInviteButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["prompt"]), int(match["user"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the decision and its buttons to the seat's current holder only (read from the table)."""
        client = interaction.client
        assert isinstance(client, Keywood)
        await interaction.response.defer(ephemeral=True, thinking=True)
        note = await asyncio.to_thread(client.table.prompt_choices, self.prompt, str(interaction.user.id))
        if note is None:
            text = ("This decision is for another player." if interaction.user.id != self.user
                    else "This decision has already been made or has closed.")
            await interaction.followup.send(text, ephemeral=True)
            return
        deadline = note.deadline if note.default is not None else None
        await interaction.followup.send(clip(decision_text(note.text, deadline)), ephemeral=True,
                                        view=prompt_view(note.prompt_id, list(note.choices)))


def decision_text(text: str, deadline: datetime | None) -> str:
    """The words of a decision, with its deadline (None: a decision without a default, whose deadline only brings
    a reminder, is shown without one)."""
    if deadline is None:
        return text
    return f"{text}\nDeadline: {when(deadline)}."


def when(moment: datetime) -> str:
    """A moment as Discord shows it to each reader: the date and time in their own time zone, then how far off it
    is ('in 12 hours'), both kept up to date by their client."""
    return f"{discord.utils.format_dt(moment, 'f')} ({discord.utils.format_dt(moment, 'R')})"


def prompt_view(prompt_id: int, choices: list[str]) -> Any:
    """Buttons for each answer to a decision (MISSING when there are none that fit)."""
    fitting = [c for c in choices if len(f"kwi:{prompt_id}:{c}") <= MAX_CUSTOM_ID][:MAX_BUTTONS]
    if not fitting:
        return discord.utils.MISSING
    view = discord.ui.View(timeout=None)
    for choice in fitting:
        view.add_item(InviteButton(prompt_id, choice))
    return view


def action_view(game_id: int, seat: int, version: int, choices: list[str]) -> discord.ui.View | None:
    """Buttons for a short list of legal actions (an action too long for a custom_id is left to /play)."""
    fitting = [c for c in choices if len(action_id(game_id, seat, version, c)) <= MAX_CUSTOM_ID]
    if not fitting:
        return None
    view = discord.ui.View(timeout=None)
    for choice in fitting[:MAX_BUTTONS]:
        view.add_item(ActionButton(game_id, seat, version, choice))
    return view


class Keywood(discord.AutoShardedClient):
    """The Keywood bot: slash commands, buttons, the outbox sender and the deadline ticker around one Table."""

    def __init__(self, table: Table, config: BotConfig, **options: Any) -> None:
        """options go to discord.Client (e.g. guild_ready_timeout); the intents are always the unprivileged
        defaults: Keywood needs no members, presences or message content."""
        if config.shard_ids is not None:
            options |= {"shard_ids": config.shard_ids, "shard_count": config.shard_count}
        super().__init__(intents=discord.Intents.default(), **options)
        self.table = table
        self.config = config
        self.leases = config.leases(table.store)
        self.held: ShardSet | None = None  # the shards whose deadlines and messages are this process's, once started
        # Keywood is installed to servers; a command is usable in servers and in a DM with the bot unless it is
        # one of the table's (register_commands makes those server-only)
        self.tree = app_commands.CommandTree(
            self, allowed_contexts=app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=False),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False))
        self.sender = Sender(self)
        register_commands(self)

    async def setup_hook(self) -> None:
        """Take this process's shards (raises ShardTaken when another process has one), register the dynamic
        buttons, sync the slash commands if they changed, start the ticker."""
        self.held = await self.take_shards()
        self.add_dynamic_items(ActionButton, InviteButton, OpenInviteButton)
        for guild_id in self.config.dev_guild_ids:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.sync_commands(guild)
        if not self.config.dev_guild_ids:
            await self.sync_commands(None)
        self.ticker.change_interval(seconds=self.config.tick_seconds)
        self.ticker.start()
        if self.config.shard_ids is not None:
            self.courier.change_interval(seconds=self.config.send_seconds)
            self.courier.start()

    async def take_shards(self) -> ShardSet:
        """This process's shards. One held by a process that may be gone (it crashed on another machine, or just
        now) is waited for until its lease lapses, and taken then; raises ShardTaken when it was renewed meanwhile (a
        live process has it) or when another process runs with another shard count."""
        try:
            return await asyncio.to_thread(self.leases.start)
        except ShardTaken as exc:
            if exc.until is None:
                raise
            log.warning("%s; waiting until then in case that process is gone", exc)
            await asyncio.sleep((exc.until - discord.utils.utcnow()).total_seconds() + 1)
            return await asyncio.to_thread(self.leases.start)

    async def sync_commands(self, guild: discord.Object | None) -> bool:
        """Send the slash commands to Discord (to one server, or globally) only when Discord holds others: a
        restart with the same commands changes nothing, and Discord's daily limit on command creations is spared.
        Returns whether they were sent."""
        scope = f"server {guild.id}" if guild is not None else "every server (global)"
        local = [c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)]
        try:
            remote = await self._fetch_command_payloads(guild)
        except discord.HTTPException as exc:  # cannot compare: send them, as a sync always did
            log.warning("could not read the slash commands Discord has for %s (%s); syncing them", scope, exc)
            remote = None
        if remote is not None and same_commands(local, remote, scoped=guild is not None):
            log.info("slash commands for %s unchanged (%d): not synced", scope, len(local))
            return False
        await self.tree.sync(guild=guild)
        log.info("slash commands synced to %s (%d)%s", scope, len(local),
                 "" if guild is not None else "; Discord may take up to an hour to show them everywhere")
        return True

    async def _fetch_command_payloads(self, guild: discord.Object | None) -> list[dict[str, Any]]:
        """The commands Discord holds, as Discord sends them. Read raw rather than through tree.fetch_commands:
        discord.py 2.7's AppCommand reads the contexts [0] (servers) as none, and leaves out some fields."""
        assert self.application_id is not None
        if guild is None:
            found = await self.http.get_global_commands(self.application_id)
        else:
            found = await self.http.get_guild_commands(self.application_id, guild.id)
        return [dict(c) for c in found]

    async def on_ready(self) -> None:
        """Say in the log that Keywood is connected, and where; when the bot owns its process, freeze what
        connecting made (the servers and channels Discord sent) out of the garbage collector's walks."""
        assert self.user is not None
        log.info("Keywood is ready as %s (id %s) in %d server(s)", self.user, self.user.id, len(self.guilds))
        if self.config.owns_process:
            freeze_long_lived()

    async def close(self) -> None:
        """Stop the loops, give up this process's shards (others may take them over at once), then disconnect."""
        self.ticker.cancel()
        self.courier.cancel()
        if self.held is not None:
            self.held = None
            try:
                await asyncio.to_thread(self.leases.release)
            except Exception:  # they expire anyway
                log.exception("giving up the shard leases failed")
        await super().close()

    @tasks.loop(seconds=30)
    async def ticker(self) -> None:
        """Renew the shard leases, process decisions whose deadline passed, then send whatever the outbox holds
        (also after a restart); stop when another process has taken this one's own shards."""
        try:
            self.held = await asyncio.to_thread(self.leases.renew)
        except ShardTaken as exc:
            log.error("%s; this process stops", exc)
            self.held = None
            await self.close()
            return
        except Exception:  # the database may be back at the next tick; until then the leases run on
            log.exception("renewing the shard leases failed")
            return
        try:
            await asyncio.to_thread(self.table.due, None, self.held)
        except Exception:  # keep ticking whatever one game does
            log.exception("deadline processing failed")
        await self.courier()

    @tasks.loop(seconds=2)
    async def courier(self) -> None:
        """Send whatever the outbox holds for this process's shards."""
        try:
            await self.sender.flush()
        except Exception:  # an unhandled error would end the loop for good (no more sending)
            log.exception("sending the outbox failed")

    @courier.before_loop
    async def _before_courier(self) -> None:
        """Send nothing before the gateway is ready."""
        await self.wait_until_ready()

    @ticker.before_loop
    async def _before_ticker(self) -> None:
        """Deliver nothing before the gateway is ready (channels are cached by then)."""
        await self.wait_until_ready()

    async def handle(self, interaction: discord.Interaction[Any], verb: str, arg: str = "", *,
                     options: dict[str, Any] | None = None, where: Where | None = None,
                     dm_check: bool = False, **command: Any) -> Outcome:
        """Defer, hand the command to the table in a worker thread, send the outbox, then reply privately.

        The private reply comes last, so the caller's "thinking..." ends once everything is done; with dm_check
        (a seat was taken) Keywood first sees whether it can DM the player, and says so after the reply if not.
        """
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        cmd = Command(where or where_of(interaction), who_of(interaction), verb, arg, options or {}, slash=True,
                      **command)
        try:
            outcome = await asyncio.to_thread(self.table.handle, cmd)
        except Exception:
            log.exception("command %s %r failed", verb, arg)
            outcome = Outcome(False, "Something went wrong on Keywood's side; nothing was changed.")
        try:
            failed = await self.sender.flush(outcome.outbox) if outcome.ok else set()
        except Exception:  # the ticker sends it later; the caller still gets an answer
            log.exception("sending the outbox failed")
            failed = set()
        reply = outcome.reply or ("Done." if outcome.ok else "That did not work.")
        reply = self._fits(interaction, outcome, reply)
        if outcome.where is not None and outcome.where.channel_id in failed:
            reply += "\n(Keywood could not post in the game's channel; check its permissions there.)"
        view: Any = discord.utils.MISSING
        if outcome.reply_prompt is not None and outcome.reply_choices:
            view = prompt_view(outcome.reply_prompt, outcome.reply_choices)
        dms_open = await self._dms_open(interaction) if dm_check and outcome.ok else True
        *first, last = pieces(reply)
        for piece in first:  # a long reply (a late-game board) comes in several messages, nothing cut off
            await interaction.followup.send(piece, ephemeral=True)
        await interaction.followup.send(last, ephemeral=True, file=self._image(outcome), view=view)
        if not dms_open:
            await interaction.followup.send(f"Your DMs are closed. {HOW_TO_OPEN_DMS}", ephemeral=True)
        return outcome

    @staticmethod
    def _fits(interaction: discord.Interaction[Any], outcome: Outcome, reply: str) -> str:
        """The reply, with a file too large for this server's uploads taken off and the reason said instead."""
        if outcome.attachment is None:
            return reply
        limit = interaction.guild.filesize_limit if interaction.guild else discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES
        size = len(outcome.attachment[1])
        if size <= limit:
            return reply
        outcome.attachment = None
        return (f"The replay is {size / 2**20:.1f} MiB, more than this server's upload limit of {limit / 2**20:.0f} "
                f"MiB. Whoever runs Keywood can write it with `keywood export {outcome.game_id}`.")

    async def _dms_open(self, interaction: discord.Interaction[Any]) -> bool:
        """After a seat was taken: DM the player once to see (and record) whether private prompts can reach them."""
        seated = "You are seated; decisions you make outside your turn (and your private view) will come here."
        return await self.check_dms(interaction.user, seated)

    @staticmethod
    def _image(outcome: Outcome) -> Any:
        """A reading command's board image (or a file for the caller, such as a replay) as an attachment (images of
        actions go with the channel message)."""
        if outcome.attachment is not None:
            name, data = outcome.attachment
            return discord.File(io.BytesIO(data), filename=name)
        if outcome.image is None or outcome.public or not outcome.ok:
            return discord.utils.MISSING
        return discord.File(io.BytesIO(outcome.image), filename="table.png")

    async def find_channel(self, channel_id: str) -> discord.abc.Messageable | None:
        """A guild channel or thread by id (None when it does not exist or is not one Keywood can see)."""
        if not channel_id.isdigit():
            return None
        channel = self.get_channel(int(channel_id))
        if channel is None:
            try:
                channel = await self.fetch_channel(int(channel_id))
            except discord.HTTPException:
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def find_user(self, user_id: str) -> discord.User | None:
        """A user by id, from the cache or Discord; None for an id that is not a Discord user."""
        if not user_id.isdigit():
            return None
        user = self.get_user(int(user_id))
        if user is not None:
            return user
        try:
            return await self.fetch_user(int(user_id))
        except discord.HTTPException:
            return None

    async def check_dms(self, user: discord.User | discord.Member, text: str) -> bool:
        """Send a DM to see whether a player can receive private prompts (recorded); False when DMs are closed."""
        try:
            await user.send(text)
        except discord.Forbidden:
            await asyncio.to_thread(self.table.note_dms, str(user.id), open_=False)
            return False
        await asyncio.to_thread(self.table.note_dms, str(user.id), open_=True)
        return True


class Sender:
    """Delivers the outbox: in order per destination, each message once, retrying transient failures.

    A permanent failure (a missing permission, an unknown channel) is recorded and reported to the host once by
    the table; a user whose DMs are closed is not tried again for a while, and their decisions are opened in the
    channel behind a button only they can use.
    """

    def __init__(self, bot: Keywood) -> None:
        self.bot = bot
        self.lock = asyncio.Lock()
        self.clear_upto: int | None = None  # every message up to this id has been dealt with

    async def flush(self, fresh: list[OutboxRow] | None = None) -> set[str]:
        """Send every due message in order; returns the channels that failed permanently in this flush.

        fresh: the rows a command just queued. When every message before them has been sent (the outbox was
        clear up to the id just before theirs), they are sent without reading the outbox again.
        """
        held = self.bot.held
        if held is None:  # not started, or stopping: another process sends them
            return set()
        async with self.lock:
            if fresh and self.clear_upto is not None and [r.id for r in fresh] == list(
                    range(self.clear_upto + 1, self.clear_upto + 1 + len(fresh))):
                rows, newest = fresh, fresh[-1].id or 0
            else:
                rows, newest = await asyncio.to_thread(self.bot.table.pending_messages, OUTBOX_BATCH, held)
            rows = [row for row in rows if held.covers(row.guild_id)]  # a DM's command may queue another shard's
            blocked: set[str] = set()
            failed: set[str] = set()
            sent: list[int] = []
            moment = discord.utils.utcnow()
            for row in rows:
                destination = row.recipient or f"#{row.channel_id}"
                if destination in blocked:
                    continue
                if aware(row.next_attempt_at) > moment:
                    blocked.add(destination)  # an earlier message waits for its retry: keep the order
                    continue
                if not await self._send_one(row, failed, sent):
                    blocked.add(destination)
            await asyncio.to_thread(self.bot.table.messages_sent, sent)
            self.clear_upto = None if blocked or len(rows) >= OUTBOX_BATCH else newest
            return failed

    async def _send_one(self, row: OutboxRow, failed: set[str], sent: list[int]) -> bool:
        """Send one queued message and record the result (delivered ones in sent); False to retry it later."""
        assert row.id is not None
        try:
            await self._deliver(row)
        except (discord.HTTPException, ChannelGone) as exc:
            # 403, 404 and any other refusal of the request itself (400...) would fail the same way again: retrying
            # forever would hold up every later message to the destination. 5xx and Cloudflare's 429 are retried.
            permanent = not isinstance(exc, discord.HTTPException) or (exc.status < 500 and exc.status != 429)
            if permanent and row.recipient is None:
                failed.add(row.channel_id)  # the table tells the host once; a DM's failure is only recorded
            log.warning("outbox %s: %s (%s)", row.id, exc, "permanent" if permanent else "will retry")
            await asyncio.to_thread(self.bot.table.message_failed, row.id, _why(exc), permanent=permanent)
            return permanent
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            log.warning("outbox %s: %r, will retry", row.id, exc)
            await asyncio.to_thread(self.bot.table.message_failed, row.id, repr(exc), permanent=False)
            return False
        except Exception as exc:  # a row this version cannot send (e.g. a malformed payload): never block the queue
            log.exception("outbox %s cannot be sent", row.id)
            await asyncio.to_thread(self.bot.table.message_failed, row.id, f"internal error ({type(exc).__name__})",
                                    permanent=True)
            return True
        sent.append(row.id)
        return True

    async def _deliver(self, row: OutboxRow) -> None:
        """Carry out one message by its kind; raises discord.HTTPException when Discord refuses it."""
        payload = json.loads(row.payload)
        if row.recipient is None:
            await self._post(row, payload)
        elif row.kind == "decision":
            await self._decision(row, payload)
        else:
            await self._private(row, payload)

    async def _post(self, row: OutboxRow, payload: dict[str, Any]) -> None:
        """One channel message: the text, the image, a mention of who must act, and buttons with public texts.

        Only the players named are pinged; a message that names nobody is sent silently.
        """
        channel = await self.bot.find_channel(row.channel_id)
        if channel is None:
            raise ChannelGone(row.channel_id)
        users = [u for u in payload.get("mention", []) if u.isdigit()]
        content = with_tail(payload["text"], " ".join(f"<@{u}>" for u in users))
        view: Any = discord.utils.MISSING
        buttons = payload.get("buttons")
        if buttons:
            view = action_view(buttons["game"], buttons["seat"], buttons["version"], buttons["choices"]) or view
        file: Any = discord.File(io.BytesIO(row.image), filename="table.png") if row.image else discord.utils.MISSING
        mentions = discord.AllowedMentions(users=[discord.Object(id=int(u)) for u in users], roles=False,
                                           everyone=False, replied_user=False)
        await channel.send(content, file=file, view=view, allowed_mentions=mentions, silent=not users,
                           nonce=_nonce(row))

    async def _private(self, row: OutboxRow, payload: dict[str, Any]) -> None:
        """A private message by DM; dropped for a user whose DMs are closed (they have /hand)."""
        assert row.recipient is not None
        user = await self.bot.find_user(row.recipient)
        if user is None or await asyncio.to_thread(self.bot.table.dms_closed, row.recipient):
            return
        try:
            await user.send(clip(_origin(row) + payload["text"]), nonce=_nonce(row))
        except discord.Forbidden as exc:
            if exc.code != CANNOT_DM:
                raise
            await self._closed(row, user, None)

    async def _decision(self, row: OutboxRow, payload: dict[str, Any]) -> None:
        """A decision by DM with its buttons; for closed DMs, one mention in the channel with a private opener."""
        assert row.recipient is not None
        user = await self.bot.find_user(row.recipient)
        if user is None:
            return
        timed = payload.get("default") is not None or payload.get("clocked")
        deadline = datetime.fromisoformat(payload["deadline"]) if timed else None
        text = clip(_origin(row) + decision_text(payload["text"], deadline))
        file: Any = discord.File(io.BytesIO(row.image), filename="table.png") if row.image else discord.utils.MISSING
        if not await asyncio.to_thread(self.bot.table.dms_closed, row.recipient):
            try:
                await user.send(text, view=prompt_view(payload["prompt"], payload["choices"]), file=file,
                                nonce=_nonce(row))
                return
            except discord.Forbidden as exc:
                if exc.code != CANNOT_DM:
                    raise
        await self._closed(row, user, payload["prompt"], ping=not payload.get("pinged"), phrase=payload.get("phrase"))

    async def _closed(self, row: OutboxRow, user: discord.User, prompt: int | None, ping: bool = True,
                      phrase: str | None = None) -> None:
        """A user's DMs are closed: record it, and in the channel open their decision (telling them how, once).

        ping is False when the turn message of the same command already pinged them: the opener names them silently.
        """
        first = await asyncio.to_thread(self.bot.table.note_dms, str(user.id), open_=False)
        if prompt is None and not first:
            return
        channel = await self.bot.find_channel(row.channel_id)
        if channel is None:
            return
        what = f"you are to {phrase}" if phrase else "you have a decision to make"
        lines = [f"<@{user.id}> {what} in this game; your DMs are closed, so open it here."
                 if prompt is not None else f"<@{user.id}> Keywood cannot DM you."]
        if first:
            lines.append(HOW_TO_OPEN_DMS)
        view: Any = discord.utils.MISSING
        if prompt is not None:
            view = discord.ui.View(timeout=None)
            view.add_item(OpenInviteButton(prompt, user.id))
        await channel.send("\n".join(lines), view=view, nonce=_nonce(row, "c"), silent=not ping,
                           allowed_mentions=discord.AllowedMentions(users=[user] if ping else [], roles=False,
                                                                    everyone=False))


COMMAND_FIELDS = ("type", "name", "description", "default_member_permissions", "nsfw")
GLOBAL_FIELDS = ("contexts", "integration_types")  # Discord keeps these for global commands only
OPTION_DEFAULTS: dict[str, Any] = {"required": False, "autocomplete": False, "choices": [], "channel_types": [],
                                   "min_value": None, "max_value": None, "min_length": None, "max_length": None}


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


def _nonce(row: OutboxRow, suffix: str = "") -> str:
    """Discord's nonce for a queued message: a resend after a crash is recognised and not posted twice.

    The row's creation time is part of it: a row of another database (a fresh one, after a reset) reusing the id
    within Discord's nonce window would otherwise be taken for the earlier message and silently not posted.
    """
    return f"kw{row.id}.{int(aware(row.created_at).timestamp() * 1000):x}{suffix}"[:25]


def _origin(row: OutboxRow) -> str:
    """The first line of a DM: which game's channel it comes from."""
    return f"From the game in <#{row.channel_id}>:\n" if row.channel_id.isdigit() else ""


class ChannelGone(Exception):
    """The game's channel (or thread) no longer exists, or Keywood cannot see it."""


def _why(exc: discord.HTTPException | ChannelGone) -> str:
    """A short description of a refused delivery, for the host."""
    if isinstance(exc, discord.Forbidden):
        return "missing permission"
    if isinstance(exc, discord.NotFound | ChannelGone):
        return "the channel no longer exists"
    return f"Discord answered {exc.status}"


def register_commands(bot: Keywood) -> None:
    """Define the slash commands on the bot's tree: the table's are for servers only (a DM holds no game); /rules
    and /games work anywhere."""
    tree = bot.tree

    tree.add_command(new_command(bot))

    @tree.command(name="join", description="Take a seat at this channel's table")
    async def join(interaction: discord.Interaction[Any]) -> None:
        await bot.handle(interaction, "join", dm_check=True)

    for verb, text in (("leave", "Leave the table before the game starts"), ("start", "Start the game (host)"),
                       ("board", "Show the table"), ("hand", "Your private view: fairs, tiles, choices"),
                       ("score", "The score so far, or the final score"),
                       ("undo", "Take back your own last action"), ("abandon", "End the game (host or admin)"),
                       ("export", "The finished game as one HTML replay, step by step (after its end)")):
        _simple(tree, bot, verb, text)

    @tree.command(name="log", description="The recent actions; since:me, what happened since your last move")
    @app_commands.describe(since="me: only what happened since your own last move")
    @app_commands.choices(since=[app_commands.Choice(name="me", value="me")])
    async def log_command(interaction: discord.Interaction[Any], since: app_commands.Choice[str] | None = None
                          ) -> None:
        await bot.handle(interaction, "log", f"since:{since.value}" if since else "")

    @tree.command(name="play", description="Take an action (suggestions list what you may do)")
    @app_commands.describe(action="The action in notation; suggestions list your legal actions")
    async def play(interaction: discord.Interaction[Any], action: str) -> None:
        await bot.handle(interaction, "play", action)

    @tree.command(name="check", description="Would this action be allowed, and what would it do?")
    @app_commands.describe(action="The action to check, in notation; suggestions list your legal actions")
    async def check(interaction: discord.Interaction[Any], action: str) -> None:
        await bot.handle(interaction, "check", action)

    async def suggest(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        try:
            found = await asyncio.to_thread(bot.table.suggest, where_of(interaction), str(interaction.user.id),
                                            current)
        except Exception:  # an empty list still answers Discord
            log.exception("autocomplete failed")
            found = []
        return [app_commands.Choice(name=s, value=s) for s in found if len(s) <= 100][:MAX_CHOICES]

    play.autocomplete("action")(suggest)
    check.autocomplete("action")(suggest)

    @tree.command(name="rules", description="Look up a rule of this channel's game")
    @app_commands.describe(topic="A rule section or a component's name; suggestions list them")
    async def rules_command(interaction: discord.Interaction[Any], topic: str) -> None:
        await bot.handle(interaction, "rules", topic)

    @rules_command.autocomplete("topic")
    async def rule_topics(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        known = await asyncio.to_thread(bot.table.topics, where_of(interaction))
        titles = [t for t in known if current.lower() in t.lower()]
        return [app_commands.Choice(name=t[:100], value=t[:100]) for t in titles[:MAX_CHOICES]]

    @tree.command(name="games", description="The games Keywood can referee, with their options")
    async def games_command(interaction: discord.Interaction[Any]) -> None:
        await bot.handle(interaction, "games")

    @tree.command(name="kick", description="Remove a player from the lobby, or hand their seat to someone (host)")
    @app_commands.describe(player="The seated player to remove",
                           replacement="Who takes over the seat (needed once the game has started)")
    async def kick(interaction: discord.Interaction[Any], player: discord.User,
                   replacement: discord.User | None = None) -> None:
        options: dict[str, Any] = {"user_id": str(player.id)}
        if replacement:
            options |= {"replacement_id": str(replacement.id), "replacement_name": replacement.display_name}
        await bot.handle(interaction, "kick", options=options)

    tree.add_command(settings_command(bot))
    clock_commands(bot)
    for command in tree.get_commands():
        if command.name not in ANYWHERE:
            server_only(command)


def clock_commands(bot: Keywood) -> None:
    """The turn clock's commands: /clock, /away, /sub and /standin (bot/clocks.py says what a clock is)."""
    tree = bot.tree

    @tree.command(name="clock", description="The table's clock; the host sets a pace (12h, 2d, off) and what "
                                            "happens when it runs out")
    @app_commands.describe(pace="Time for each decision: 12h, 2d, or off", on_timeout="When a clock runs out")
    @app_commands.choices(on_timeout=[app_commands.Choice(name=c, value=c) for c in CONSEQUENCES])
    async def clock(interaction: discord.Interaction[Any], pace: str | None = None,
                    on_timeout: app_commands.Choice[str] | None = None) -> None:
        await bot.handle(interaction, "clock", " ".join(x for x in (pace, on_timeout and on_timeout.value) if x))

    @tree.command(name="away", description="Pause your own clock for a while (12h, 2d), or off when you are back")
    @app_commands.describe(duration="How long you will be away: 12h, 2d, 1d6h; off ends it early")
    async def away(interaction: discord.Interaction[Any], duration: str) -> None:
        await bot.handle(interaction, "away", duration)

    @tree.command(name="sub", description="Offer to take over a seat whose clock ran out; the host confirms")
    @app_commands.describe(name="Volunteers: the player whose seat you would take. Host: the volunteer to confirm")
    async def sub(interaction: discord.Interaction[Any], name: str | None = None) -> None:
        await bot.handle(interaction, "sub", name or "")

    @tree.command(name="standin", description="Keywood's stand-in plays a decision now: yours, or (host) a player's")
    @app_commands.describe(player="Whose decision (the host may name any player); yours when left out")
    async def standin_command(interaction: discord.Interaction[Any], player: discord.User | None = None) -> None:
        await bot.handle(interaction, "standin", options={"user_id": str(player.id)} if player else {})


ANYWHERE = ("rules", "games")  # the commands that need no table, usable in a DM with the bot too


def server_only(command: app_commands.Command[Any, ..., Any] | app_commands.Group | app_commands.ContextMenu) -> None:
    """Offer a command in servers only: Discord does not show it in DMs (a DM holds no table)."""
    app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)(command)
    app_commands.guild_only(command)


def _simple(tree: app_commands.CommandTree[Any], bot: Keywood, verb: str, description: str) -> None:
    """A slash command with no arguments that maps straight to a table verb."""

    async def callback(interaction: discord.Interaction[Any]) -> None:
        await bot.handle(interaction, verb)

    tree.command(name=verb, description=description)(callback)


def _parameters(schema: list[Option]) -> list[inspect.Parameter]:
    """The callback parameters of a command taking options from a schema: each optional, typed and ranged."""
    return [inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(o) | None, default=None)
            for o in schema]


def new_command(bot: Keywood) -> app_commands.Command[Any, Any, None]:
    """/new, with the game as a choice and every registered option (from the registry's schema, less those only the
    terminal sets) as a parameter; an option it does not offer is refused, saying so."""
    schema = _option_union()
    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction),
                  inspect.Parameter("game", inspect.Parameter.KEYWORD_ONLY, annotation=str | None, default=None),
                  inspect.Parameter("thread", inspect.Parameter.KEYWORD_ONLY, annotation=bool, default=False)]
    parameters += _parameters(schema)
    offered = {p.name for p in parameters[1:]}

    async def new(interaction: discord.Interaction[Any], game: str | None = None, thread: bool = False,
                  **values: Any) -> None:
        if interaction.guild_id is None:  # a DM holds no table (nobody else could join it)
            await interaction.response.send_message(NO_TABLE_IN_DMS, ephemeral=True)
            return
        unknown = sorted(set(vars(interaction.namespace)) - offered)  # discord.py would drop them unsaid
        if unknown:  # an old registration of /new (it once took a seed), or a forged interaction
            await interaction.response.send_message(not_offered(unknown), ephemeral=True)
            return
        options = {k: v for k, v in values.items() if v is not None}
        where = where_of(interaction)
        created: discord.Thread | None = None
        if thread and isinstance(interaction.channel, discord.TextChannel):
            await interaction.response.defer(ephemeral=True, thinking=True)
            refusal = await asyncio.to_thread(bot.table.check_new, where.guild_id, game or "", options)
            created = await _open_thread(interaction.channel, game) if refusal is None else None
            if created is None:
                await interaction.followup.send(clip(refusal or NO_THREAD), ephemeral=True)
                return
            where = Where(where.guild_id, str(created.id))
        outcome = await bot.handle(interaction, "new", game or "", options=options, where=where, dm_check=True)
        if created is not None and not outcome.ok:  # checked first, so only an error on Keywood's side gets here
            with contextlib.suppress(discord.HTTPException):  # removing a thread needs Manage Threads
                await created.delete()

    new.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    described = app_commands.describe(game="Which game (default: the first listed)",
                                      thread="Open a new thread for the game (Keywood needs Create Public Threads)",
                                      **{o.name: _described(o) for o in schema})(new)
    choices = [app_commands.Choice(name=e.title, value=e.id) for e in games.all_games()]
    command: app_commands.Command[Any, Any, None] = app_commands.Command(
        name="new", description="Open a game table in this channel (or a new thread)",
        callback=app_commands.choices(game=choices)(described))  # type: ignore[arg-type]
    return command


async def _open_thread(channel: discord.TextChannel, game: str | None) -> discord.Thread | None:
    """A new public thread for a table in the channel; None when Keywood may not create one there."""
    title = games.get(game).title if game else games.default().title
    try:
        return await channel.create_thread(name=f"{title} table", type=discord.ChannelType.public_thread)
    except discord.Forbidden:
        log.warning("no permission to create a thread in channel %s", channel.id)
        return None


def settings_command(bot: Keywood) -> app_commands.Command[Any, Any, None]:
    """/keywood-settings: a server's defaults for new tables, with the ranges the registry allows."""
    schema = [o for o in games.default().table_options if o.name in ("decision_minutes", "reminder_hours")]
    parameters = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                    annotation=discord.Interaction), *_parameters(schema)]

    async def settings(interaction: discord.Interaction[Any], **values: Any) -> None:
        options = {k: v for k, v in values.items() if v is not None}
        await bot.handle(interaction, "settings", options=options)

    settings.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    described = app_commands.describe(**{o.name: _described(o) for o in schema})(settings)
    command: app_commands.Command[Any, Any, None] = app_commands.Command(
        name="keywood-settings", description="Server defaults for new games (admins)",
        callback=described)  # type: ignore[arg-type]
    return app_commands.default_permissions(manage_guild=True)(command)


def not_offered(names: list[str]) -> str:
    """Why /new refuses options it does not offer, naming them (a seed is secret on Discord)."""
    return f"/new has no option {', '.join(names)}; no table was opened." + (
        f" {SEED_IS_SECRET}" if "seed" in names else "")


def _option_union() -> list[Option]:
    """Every option of every registered game once, integer ranges widened to cover all games; none that only a
    local table chooses (the terminal's seed)."""
    found: dict[str, Option] = {}
    for entry in games.all_games():
        for option in (o for o in entry.all_options() if not o.local):
            seen = found.get(option.name)
            if seen is not None and option.type is int and seen.min is not None and option.min is not None:
                option = Option(option.name, int, None, option.description, min(seen.min, option.min),
                                max(seen.max or 0, option.max or 0))
            found[option.name] = seen if seen is not None and option.type is not int else option
    return list(found.values())


def _annotation(option: Option) -> Any:
    """The slash-command type of an option: a ranged integer, a yes/no, a choice of words, or text."""
    if option.type is int and option.min is not None and option.max is not None:
        return app_commands.Range[int, option.min, option.max]
    return option.type


def close_on_sigterm(client: discord.Client) -> None:
    """Close the client cleanly (gateway sessions closed, then start() returns) when the process gets SIGTERM.

    The loop's own signal handler wakes the loop whichever thread the signal reaches, which a plain signal.signal
    handler does not: that one runs only when the main thread next wakes. Does nothing where the loop cannot handle
    signals (Windows, or a loop outside the main thread)."""
    loop = asyncio.get_running_loop()
    closing: set[asyncio.Task[None]] = set()

    def close() -> None:
        task = loop.create_task(client.close())
        closing.add(task)  # a reference until it is done: the loop keeps only weak ones
        task.add_done_callback(closing.discard)

    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        loop.add_signal_handler(signal.SIGTERM, close)


def _described(option: Option) -> str:
    """An option's description for Discord (at most 100 characters), naming the games it belongs to."""
    owners = [e.title for e in games.all_games() if option.name in {o.name for o in e.options}]
    text = f"{option.description} ({', '.join(owners)})" if owners else option.description
    return text[:100]


async def serve(table: Table, config: BotConfig) -> None:
    """Run the bot until it is stopped (SIGTERM, as systemd and Docker stop a service, closes it cleanly and it
    returns); raises TokenRefused when Discord does not accept the token."""
    try:
        async with Keywood(table, config) as bot:
            close_on_sigterm(bot)
            await bot.start(config.token)
    except discord.LoginFailure as exc:
        raise TokenRefused(str(exc)) from None
