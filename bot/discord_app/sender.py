"""The sender: the outbox's queued messages as Discord calls.

What to send, and what became of each message (sent, failed, retried with back-off, a user's DMs found closed),
is the table's: the sender reads the pending rows from it, makes the calls, and reports back. Its rules of its
own: a message that must wait for a retry stops its destination (a channel, or one user's DMs) for the rest of that
flush, keeping the order per destination; and just before each message it checks that the message is still pending
and its shard still this process's (bot/shards.py), so that a process woken from a freeze after another took its
shard over does not send again what that one sent.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from datetime import datetime
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from bot.discord_app.texts import HOW_TO_OPEN_DMS, clip, decision_text, with_tail
from bot.discord_app.views import action_view, opener_view, prompt_view
from bot.store import OutboxRow, ShardSet, aware

if TYPE_CHECKING:
    from bot.discord_app.client import Keywood

log = logging.getLogger("keywood")
CANNOT_DM = 50007  # Discord's error code for a user whose DMs are closed to the bot


class ChannelGone(Exception):
    """The game's channel (or thread) no longer exists, or Keywood cannot see it."""


class Sender:
    """Delivers the outbox: in order per destination, each message once, retrying transient failures.

    A permanent failure (a missing permission, an unknown channel) is recorded and reported to the host once by
    the table; a user whose DMs are closed is not tried again for a while, and their decisions are opened in the
    channel behind a button only they can use.
    """

    def __init__(self, bot: Keywood) -> None:
        self.bot = bot
        self.lock = asyncio.Lock()

    async def flush(self) -> set[str]:
        """Send every due message in order; returns the channels that failed permanently in this flush."""
        held = self.bot.held
        if held is None:  # not started, or stopping: another process sends them
            return set()
        async with self.lock:
            rows = await asyncio.to_thread(self.bot.table.pending_messages, shards=held)
            blocked: set[str] = set()
            lost: set[int] = set()
            failed: set[str] = set()
            moment = discord.utils.utcnow()
            for row in rows:
                destination = row.recipient or f"#{row.channel_id}"
                if destination in blocked or row.shard_key % held.count in lost:
                    continue
                if aware(row.next_attempt_at) > moment:
                    blocked.add(destination)  # an earlier message waits for its retry: keep the order
                    continue
                if not await self._still_ours(row, held.count, lost):
                    continue
                try:
                    if not await self._send_one(row, failed):
                        blocked.add(destination)
                finally:
                    self.bot.leases.done_sending()
            return failed

    async def _still_ours(self, row: OutboxRow, count: int, lost: set[int]) -> bool:
        """Whether this process may send the message now: still pending, its shard's lease still this process's.

        A lease found lost (this process was frozen, say, and another took the shard over) ends the sending of that
        shard's messages, and the shard is no longer counted as held until a renewal gives it back.
        """
        assert row.id is not None
        check = await asyncio.to_thread(self.bot.leases.check_send, row.id, row.shard_key)
        if not check.held:
            shard = row.shard_key % count
            lost.add(shard)
            held = self.bot.held
            if held is not None and shard in held.ids:
                self.bot.held = ShardSet(held.ids - {shard}, held.count)
            log.warning("the lease of shard %d is no longer this process's; its messages are left to its holder",
                        shard)
        return check.held and check.pending

    async def _send_one(self, row: OutboxRow, failed: set[str]) -> bool:
        """Send one queued message and record the result at once; False to retry it later."""
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
        # recorded before the next message is sent: a process taking the shard over after a freeze here finds at
        # most this one message still pending (its nonce lets Discord recognise it for a few minutes)
        await asyncio.to_thread(self.bot.table.messages_sent, [row.id])
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
        mentions = discord.AllowedMentions(users=[discord.Object(id=int(u)) for u in users], roles=False,
                                           everyone=False, replied_user=False)
        await channel.send(content, file=_image(row), view=view, allowed_mentions=mentions, silent=not users,
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
        if not await asyncio.to_thread(self.bot.table.dms_closed, row.recipient):
            try:
                await user.send(text, view=prompt_view(payload["prompt"], payload["choices"]), file=_image(row),
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
        view = opener_view(prompt, user.id) if prompt is not None else discord.utils.MISSING
        await channel.send("\n".join(lines), view=view, nonce=_nonce(row, "c"), silent=not ping,
                           allowed_mentions=discord.AllowedMentions(users=[user] if ping else [], roles=False,
                                                                    everyone=False))


def _image(row: OutboxRow) -> Any:
    """A queued message's table image as an attachment (MISSING when it has none)."""
    return discord.File(io.BytesIO(row.image), filename="table.png") if row.image else discord.utils.MISSING


def _nonce(row: OutboxRow, suffix: str = "") -> str:
    """Discord's nonce for a queued message: a resend after a crash is recognised and not posted twice.

    The row's creation time is part of it: a row of another database (a fresh one, after a reset) reusing the id
    within Discord's nonce window would otherwise be taken for the earlier message and silently not posted.
    """
    return f"kw{row.id}.{int(aware(row.created_at).timestamp() * 1000):x}{suffix}"[:25]


def _origin(row: OutboxRow) -> str:
    """The first line of a DM: which game's channel it comes from."""
    return f"From the game in <#{row.channel_id}>:\n" if row.channel_id.isdigit() else ""


def _why(exc: discord.HTTPException | ChannelGone) -> str:
    """A short description of a refused delivery, for the host."""
    if isinstance(exc, discord.Forbidden):
        return "missing permission"
    if isinstance(exc, discord.NotFound | ChannelGone):
        return "the channel no longer exists"
    return f"Discord answered {exc.status}"
