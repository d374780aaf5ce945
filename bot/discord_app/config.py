"""What `keywood run` configures: the bot's settings, and the one error that stops it at once."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.shards import Leases
from bot.store import Store


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
