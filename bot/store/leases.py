"""A transaction's queries on shard leases (bot/shards.py decides; these only read and write them)."""

from __future__ import annotations

from sqlmodel import col, delete, select

from bot.store.core import LEASE_LOCK, TxCore
from bot.store.rows import LeaseRow


class LeaseQueries(TxCore):
    """Which process holds which shard."""

    def leases(self) -> dict[int, LeaseRow]:
        """Every shard's lease by shard, all locked for this transaction (one process decides at a time)."""
        self._lock(LEASE_LOCK, "leases")
        return {row.shard: row for row in self._rows(select(LeaseRow))}

    def lease(self, shard: int) -> LeaseRow | None:
        """One shard's lease as last committed, without a lock (a sender's quick check that it still holds it)."""
        return self._row(select(LeaseRow).where(LeaseRow.shard == shard))

    def save_lease(self, row: LeaseRow) -> None:
        """Store a new or changed lease."""
        self._save_by_key(row)

    def drop_lease(self, row: LeaseRow) -> None:
        """Give a lease up."""
        self._write(delete(LeaseRow).where(col(LeaseRow.shard) == row.shard))
