"""Fixtures for tests that run a discord.py client against the fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from . import FakeDiscord, running_fake
from . import payloads as p


@pytest.fixture
def world() -> p.World:
    """A guild with #general and #games, admin alice and players bob and carol."""
    return p.sample_world()


@pytest.fixture
async def fake(world: p.World) -> AsyncIterator[FakeDiscord]:
    """A running fake holding ``world``'s guild, with discord.py pointed at it for the test's duration."""
    async with running_fake(guilds=[world.guild]) as f:
        yield f
