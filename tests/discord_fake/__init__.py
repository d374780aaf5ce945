"""A fake of Discord's HTTP API and gateway for end-to-end tests of the bot with the unmodified discord.py.

Typical use::

    from tests.discord_fake import payloads as p, running_fake, run_client

    world = p.sample_world()
    async with running_fake(guilds=[world.guild]) as fake:          # discord.py now talks to the fake
        client = make_my_bot(guild_ready_timeout=0.05)             # a short ready wait keeps tests fast
        async with run_client(client, fake):                        # start(); returns once READY arrived
            record = await fake.interact(fake.slash("ping", user=world.members["bob"],
                                                    channel=world.channels["games"], guild=world.guild))
            response = await fake.wait_for_response(record.id)
        assert fake.violations == []

Only one fake can be "running" (patched into discord.py) at a time in a process. Clients in other processes
(Keywood's real CLI, sharded or not) are started with :mod:`tests.discord_fake.process`
(``spawn_keywood(fake, args)``, also importable from here), which points their discord.py at the fake.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl

from . import payloads
from .server import (
    CallbackRecord,
    FakeDiscord,
    FakeFile,
    FakeMessage,
    InteractionRecord,
    RecordedRequest,
    Session,
    ShardOverlap,
    Violation,
)

__all__ = [
    "CallbackRecord",
    "FakeDiscord",
    "FakeFile",
    "FakeMessage",
    "FakeProcess",
    "InteractionRecord",
    "RecordedRequest",
    "Session",
    "ShardOverlap",
    "Violation",
    "payloads",
    "point_discord_at",
    "run_client",
    "running_fake",
    "spawn",
    "spawn_client_check",
    "spawn_keywood",
    "write_config",
]

FAKE_TOKEN = "fake-bot-token"
_PROCESS_NAMES = {"FakeProcess", "spawn", "spawn_client_check", "spawn_keywood", "write_config"}


def __getattr__(name: str) -> Any:
    """The launcher's helpers from :mod:`.process`, imported on first use (``python -m
    tests.discord_fake.process`` must not find that module imported by its package already)."""
    if name in _PROCESS_NAMES:
        from . import process

        return getattr(process, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@contextlib.contextmanager
def point_discord_at(fake: FakeDiscord) -> Iterator[FakeDiscord]:
    """Points discord.py's REST base and default gateway at ``fake`` (restored on exit).

    discord.py builds every REST URL from ``discord.http.Route.BASE`` (webhook/interaction routes too) and a
    plain ``Client`` connects to ``DiscordWebSocket.DEFAULT_GATEWAY`` without asking ``/gateway/bot`` (an
    ``AutoShardedClient`` asks, and gets the fake's URL). READY's ``resume_gateway_url`` is the fake's too.
    """
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield fake
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


@contextlib.asynccontextmanager
async def running_fake(**kwargs: Any) -> AsyncIterator[FakeDiscord]:
    """Starts a :class:`FakeDiscord` (``kwargs`` go to its constructor) and points discord.py at it."""
    async with FakeDiscord(**kwargs) as fake:
        with point_discord_at(fake):
            yield fake


@contextlib.asynccontextmanager
async def run_client(client: discord.Client, fake: FakeDiscord, token: str | None = None, *,
                     timeout: float = 10.0) -> AsyncIterator[discord.Client]:
    """Runs ``client.start(token)`` in a task until the block ends; enters once the client is ready.

    If the client fails before becoming ready (bad token, refused intents, an error in ``setup_hook``...) that
    exception is raised here. On exit the client is closed and its task awaited.
    """
    task = asyncio.create_task(client.start(token or fake.token or FAKE_TOKEN), name="discord-fake-client")
    ready = asyncio.create_task(client.wait_until_ready())
    try:
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()  # raises what start() raised
            raise RuntimeError("client.start() returned before the client was ready")
        if ready not in done:
            raise TimeoutError(f"client not ready after {timeout}s")
        yield client
    finally:
        ready.cancel()
        if not client.is_closed():
            await client.close()
        done, _ = await asyncio.wait({task}, timeout=5)
        if not done:
            task.cancel()
        elif not task.cancelled():
            task.exception()  # retrieved (raised above if it mattered); not re-raised over the block's own error
