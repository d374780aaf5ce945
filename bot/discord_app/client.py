"""The Keywood client: one discord.py client around one Table, with the loops that fire deadlines and send.

Every interaction is deferred at once and the table runs in a worker thread, so the event loop never blocks and
Discord's 3-second deadline is always met.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import random
import signal
from typing import Any

import discord
from discord import app_commands
from discord.ext import tasks

from bot.discord_app.commands import register_commands, where_of, who_of
from bot.discord_app.config import BotConfig, TokenRefused
from bot.discord_app.sender import Sender
from bot.discord_app.sync import sync_commands
from bot.discord_app.texts import HOW_TO_OPEN_DMS, pieces
from bot.discord_app.views import ActionButton, InviteButton, OpenInviteButton, prompt_view
from bot.heap import freeze_long_lived
from bot.shards import ShardTaken
from bot.store import ShardSet
from bot.table import Command, Outcome, Table, Where

log = logging.getLogger("keywood")


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
        self.sending: asyncio.Task[None] | None = None  # the ticker's latest send, run beside it
        register_commands(self)

    async def setup_hook(self) -> None:
        """Take this process's shards (raises ShardTaken when another process has one), register the dynamic
        buttons, sync the slash commands if they changed, start the ticker."""
        self.held = await self.take_shards()
        self.add_dynamic_items(ActionButton, InviteButton, OpenInviteButton)
        for guild_id in self.config.dev_guild_ids:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            await sync_commands(self.tree, guild)
        if not self.config.dev_guild_ids:
            await sync_commands(self.tree, None)
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
        if self.sending is not None:
            self.sending.cancel()
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
        (also after a restart) beside the ticker; stop when another process has taken this one's own shards."""
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
        self.send_beside()

    def send_beside(self) -> None:
        """Send the outbox in a task of its own, so that a slow send (rate limits, a slow Discord) never holds up
        the next tick's lease renewal: a lease lapsed that way would stop the sending (bot/shards.py) and let another
        process take the shard over. While the last such task is not done, a later tick sends what this one would."""
        if self.sending is None or self.sending.done():
            self.sending = asyncio.create_task(self.courier())

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
            failed = await self.sender.flush() if outcome.ok else set()
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


# Discord out of reach at start (DNS, an outage): try again after a pause that doubles up to five minutes, drawn
# between half of it and all of it (so that many bots do not come back at once). At most 288 logins a day this way,
# far inside Discord's 1,000; once connected, discord.py reconnects by itself.
FIRST_PAUSE, LONGEST_PAUSE = 1.0, 300.0
OUT_OF_REACH = (OSError, asyncio.TimeoutError, discord.GatewayNotFound, discord.DiscordServerError)


async def serve(table: Table, config: BotConfig) -> None:
    """Run the bot until it is stopped (SIGTERM, as systemd and Docker stop a service, closes it cleanly and it
    returns), trying again while Discord cannot be reached; raises TokenRefused when Discord refuses the token."""
    pause = FIRST_PAUSE
    while True:
        try:
            async with Keywood(table, config) as bot:
                close_on_sigterm(bot)
                await bot.start(config.token)
            return
        except discord.LoginFailure as exc:
            raise TokenRefused(str(exc)) from None
        except OUT_OF_REACH as exc:  # aiohttp's connection errors are OSErrors
            wait = random.uniform(pause / 2, pause)
            log.warning("cannot reach Discord (%s); trying again in %.0f s", " ".join(str(exc).split()) or
                        type(exc).__name__, wait)
            if not await _pause_unless_stopped(wait):
                return
            pause = min(pause * 2, LONGEST_PAUSE)


async def _pause_unless_stopped(seconds: float) -> bool:
    """Wait, unless SIGTERM comes first (then the process stops as it would have while connected); returns whether
    the whole pause passed."""
    loop = asyncio.get_running_loop()
    stopped = asyncio.Event()
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        loop.add_signal_handler(signal.SIGTERM, stopped.set)
    try:
        await asyncio.wait_for(stopped.wait(), seconds)
        return False
    except TimeoutError:
        return True
    finally:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.remove_signal_handler(signal.SIGTERM)
