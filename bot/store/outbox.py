"""A transaction's queries on the outbox: messages queued by accepted commands, and what became of them."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlmodel import col, delete, select, text, update

from bot.store.core import TxCore
from bot.store.rows import NOTICES, OutboxRow, ShardSet, guild_key

SENT_KEPT = timedelta(days=7)  # how long a delivered message stays in the outbox, for whoever wants to look it up
PRUNE_BATCH = 500  # the most delivered messages one mark_sent deletes (an old backlog goes over several deliveries)


class OutboxQueries(TxCore):
    """Queued messages."""

    def add_outbox(self, rows: list[dict[str, Any]]) -> list[OutboxRow]:
        """Queue messages (OutboxRow fields as dicts; left out: their defaults, queued at this transaction's time) to
        send once this transaction commits; returns them as rows with their ids."""
        moment = self.now()
        return self.add_rows([OutboxRow(**{"next_attempt_at": moment, "created_at": moment, **row,
                                          "shard_key": guild_key(row["guild_id"])}) for row in rows])

    def release_waiting(self, row_ids: list[int], image: bytes | None, moment: datetime) -> None:
        """Make queued messages that waited for their command's image due from moment, with this image."""
        if row_ids:
            self._write(update(OutboxRow).where(col(OutboxRow.id).in_(row_ids), col(OutboxRow.status) == "pending")
                        .values(image=image, next_attempt_at=moment))

    def mark_sent(self, row_ids: list[int], moment: datetime) -> None:
        """Record that these queued messages were delivered, and drop their images: nothing reads an image once its
        message is sent (an export draws the table again from the log), and a game's images would otherwise keep
        the database growing by megabytes. Then prune_sent(moment)."""
        if row_ids:
            self._write(update(OutboxRow).where(col(OutboxRow.id).in_(row_ids)).values(status="sent", sent_at=moment,
                                                                                        image=None))
        self.prune_sent(moment)

    def prune_sent(self, moment: datetime) -> int:
        """Delete up to PRUNE_BATCH messages delivered more than SENT_KEPT before moment, notices kept (they say a
        host was told); returns how many. Nothing reads a sent message, and a long game's messages (a payload, three
        times and the channel's ids each) would otherwise outweigh its log. The newest row is as a rule younger, so
        SQLite does not hand a deleted message's id out again; if it did, the sender's nonce, which holds the row's
        creation time too, still tells the two apart."""
        cutoff = moment - SENT_KEPT
        # A message is sent once due (next_attempt_at <= sent_at): the condition on next_attempt_at lets
        # ix_outbox_status_next find the old rows alone (one sent before it was due merely stays longer).
        old = (select(OutboxRow.id).where(OutboxRow.status == "sent", col(OutboxRow.next_attempt_at) < cutoff,
                                          col(OutboxRow.sent_at) < cutoff, OutboxRow.kind != "notice")
               .order_by(col(OutboxRow.next_attempt_at)).limit(PRUNE_BATCH))
        return self._write(delete(OutboxRow).where(col(OutboxRow.id).in_(old.scalar_subquery())))

    def pending_outbox(self, limit: int = 200, shards: ShardSet | None = None) -> list[OutboxRow]:
        """Messages (for servers on these shards, or anywhere) not yet sent, oldest first (due or waiting for a
        retry)."""
        query = select(OutboxRow).where(OutboxRow.status == "pending")
        if shards is not None:
            query = query.where((col(OutboxRow.shard_key) % shards.count).in_(sorted(shards.ids)))
        return self._rows(query.order_by(col(OutboxRow.id)).limit(limit))

    def outbox_row(self, row_id: int) -> OutboxRow | None:
        """One queued message by id, locked for this transaction."""
        return self._row(select(OutboxRow).where(OutboxRow.id == row_id).with_for_update())

    def outbox_status(self, row_id: int) -> str | None:
        """A queued message's status ('pending', 'sent', 'failed'), without a lock; None when there is no such row."""
        status: str | None = self._value(select(OutboxRow.status).where(OutboxRow.id == row_id))
        return status

    def save_outbox(self, row: OutboxRow) -> None:
        """Store a changed queued message."""
        self._save(row)

    def outbox_kinds(self, game_id: int | None, kind: str) -> list[OutboxRow]:
        """A game's queued or sent messages of one kind, oldest first (notices through their own index, whose
        condition a query must state as written for the database to use it)."""
        of_kind = text(NOTICES) if kind == "notice" else OutboxRow.kind == kind
        query = select(OutboxRow).where(OutboxRow.game_id == game_id, of_kind)
        return self._rows(query.order_by(col(OutboxRow.id)))
