"""The outbox, for every transport: the rows an accepted outcome queues in its transaction, the queued messages a
sender reads, delivery recorded (sent, or failed: retried with back-off, or given up and reported to the host), and
whether a user's DMs are open. Sending itself is the transport's (Discord calls, terminal text)."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

import orjson

from bot.store import OutboxRow, ShardSet, Store, StoreTrouble, Tx, aware, now
from bot.table.commands import Outcome, is_computer
from engine.core import json_text

log = logging.getLogger("keywood")
MAX_BACKOFF_SECONDS = 600
OUTBOX_BATCH = 200  # the most queued messages read at once
DM_RETRY = timedelta(hours=24)  # a user whose DMs were refused is not tried again for this long
# The messages of a command whose image is drawn after it committed wait for it this long at most (a crash in
# between: they are then sent without it). All of them wait, so that a turn's DMs never arrive before its post.
IMAGE_WAIT = timedelta(seconds=30)
DRAWING = b""  # the image column of a waiting message that is to carry the image


def queue(tx: Tx, outcome: Outcome) -> list[OutboxRow]:
    """Queue what an accepted outcome must send, in its transaction; returns the rows. While its image is not drawn
    yet (outcome.draw) they wait for it: Outbox.attach_image, once the transaction has committed."""
    return tx.add_outbox(outbox_rows(outcome, tx.now()))


def awaiting_image(outcome: Outcome) -> list[OutboxRow]:
    """The queued rows of an outcome that wait for its image."""
    return [row for row in outcome.outbox if aware(row.next_attempt_at) > aware(row.created_at)]


def outbox_rows(outcome: Outcome, moment: datetime) -> list[dict[str, Any]]:
    """What an accepted outcome must send, as outbox rows queued at moment: the channel message first, then private
    messages."""
    if not outcome.ok or outcome.where is None:
        return []
    where = outcome.where
    rows: list[dict[str, Any]] = []

    waits = outcome.draw is not None and outcome.image is None

    def row(kind: str, recipient: str | None, payload: dict[str, Any], image: bool = False) -> None:
        rows.append({"game_id": outcome.game_id, "guild_id": where.guild_id, "channel_id": where.channel_id,
                     "recipient": recipient, "kind": kind, "payload": json_text(payload),
                     "image": (DRAWING if waits else outcome.image) if image else None, "status": "pending",
                     "attempts": 0, "next_attempt_at": moment + IMAGE_WAIT if waits else moment, "last_error": "",
                     "created_at": moment})

    if outcome.public:
        buttons = None
        if len(outcome.choices) == 1 and outcome.game_id is not None and outcome.version is not None:
            user_id, choices = next(iter(outcome.choices.items()))
            buttons = {"game": outcome.game_id, "seat": outcome.seats.get(user_id, 0), "version": outcome.version,
                       "choices": choices}
        mention = [m for m in outcome.mention if not is_computer(m)]
        row("public", None, {"text": "\n".join(outcome.public), "mention": mention, "buttons": buttons}, image=True)
    for user_id, lines in outcome.private.items():
        if not is_computer(user_id):  # nobody reads a computer seat's messages
            row("private", user_id, {"text": "\n".join(lines)})
    for note in (n for n in outcome.opened if not is_computer(n.user_id)):
        row("decision", note.user_id, {"prompt": note.prompt_id, "text": note.text, "choices": list(note.choices),
                                       "deadline": note.deadline.isoformat(), "default": note.default,
                                       "kind": note.kind, "phrase": note.phrase, "clocked": note.clocked,
                                       "pinged": note.user_id in outcome.mention},
            image=note.with_image)
    return rows


class Outbox:
    """Delivery bookkeeping on a store: what is queued, what was sent or failed, and users' DM state."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def pending(self, limit: int = OUTBOX_BATCH, shards: ShardSet | None = None) -> list[OutboxRow]:
        """Queued messages (for servers on these shards, or anywhere) not yet sent, oldest first (the sender keeps
        order per destination); reads only, so the sender never waits for a command's write lock."""
        with self.store.reading() as tx:
            return tx.pending_outbox(limit, shards)

    def attach_image(self, outcome: Outcome) -> None:
        """Draw an accepted outcome's image (outcome.draw), now that its transaction has committed, and hand it to
        the queued rows waiting for it, which may then be sent; a database in trouble leaves them to be sent
        without it once IMAGE_WAIT has passed."""
        if outcome.draw is None:
            return
        draw, outcome.draw = outcome.draw, None
        try:
            outcome.image = draw()
        except Exception:  # a drawing bug must not take back a committed move: its messages go without the image
            log.exception("the table image of game %s could not be drawn", outcome.game_id)
        waiting = awaiting_image(outcome)
        if not waiting:
            return
        moment = now()
        pictured = [row.id for row in waiting if row.image == DRAWING and row.id is not None]
        others = [row.id for row in waiting if row.image != DRAWING and row.id is not None]
        try:
            with self.store.transaction() as tx:
                tx.release_waiting(pictured, outcome.image, moment)
                tx.release_waiting(others, None, moment)
        except StoreTrouble:
            return
        for row in waiting:
            row.image, row.next_attempt_at = outcome.image if row.image == DRAWING else None, moment

    def sent(self, row_ids: list[int], moment: datetime | None = None) -> None:
        """Record that queued messages were delivered."""
        if row_ids:
            with self.store.transaction() as tx:
                tx.mark_sent(row_ids, moment or now())

    def failed(self, row_id: int, error: str, *, permanent: bool, moment: datetime | None = None) -> None:
        """Record a failed delivery: retried later with back-off, or (permanent) given up and reported to the host.

        The host hears once per game and channel about a channel Keywood cannot post in. A message no longer pending
        (another process, which took its shard over, sent it meanwhile) is left as it is.
        """
        moment = moment or now()
        with self.store.transaction() as tx:
            row = tx.outbox_row(row_id)
            if row is None or row.status != "pending":
                return
            row.attempts += 1
            row.last_error = error[:500]
            if not permanent:
                row.next_attempt_at = moment + timedelta(seconds=min(2 ** row.attempts, MAX_BACKOFF_SECONDS))
                tx.save_outbox(row)
                return
            row.status, row.image = "failed", None  # never sent: its image is no longer needed either
            tx.save_outbox(row)
            if row.recipient is None:
                _report_failure(tx, row)

    def dms_closed(self, user_id: str, moment: datetime | None = None) -> bool:
        """Whether a user's DMs were found closed recently (then Keywood does not try them again)."""
        with self.store.reading() as tx:
            closed = tx.recipient(user_id).dms_closed_at
        return closed is not None and aware(closed) > (moment or now()) - DM_RETRY

    def note_dms(self, user_id: str, *, open_: bool, moment: datetime | None = None) -> bool:
        """Record whether a user's DMs are open; True when they were just found closed and not yet told so."""
        moment = moment or now()
        with self.store.transaction() as tx:
            row = tx.recipient(user_id)
            if open_:
                row.dms_closed_at = None
                tx.save_recipient(row)
                return False
            row.dms_closed_at = moment
            tell = row.told_at is None
            row.told_at = row.told_at or moment
            tx.save_recipient(row)
            return tell


def _report_failure(tx: Tx, row: OutboxRow) -> None:
    """Tell the game's host, once, that Keywood cannot post in the game's channel, and what to fix."""
    game = tx.game(row.game_id) if row.game_id is not None else None
    if game is None or any(orjson.loads(n.payload).get("about") == row.channel_id
                           for n in tx.outbox_kinds(row.game_id, "notice")):
        return
    text = f"Keywood cannot post in <#{row.channel_id}> ({row.last_error}). " + _what_to_fix(row.last_error)
    tx.add_outbox([OutboxRow(game_id=row.game_id, guild_id=row.guild_id, channel_id=row.channel_id,
                             recipient=game.host_id, kind="notice",
                             payload=json_text({"text": text, "about": row.channel_id})).model_dump(exclude={"id"})])


def _what_to_fix(error: str) -> str:
    """What a host can do about a channel message Keywood could not deliver, by the reason it failed."""
    if "permission" in error:
        fix = ("Please give Keywood the View Channel, Send Messages, Send Messages in Threads and Attach Files "
               "permissions there.")
    elif "exist" in error:
        fix = "Check that the channel (or thread) still exists and that Keywood can see it."
    else:
        fix = "That message was skipped; if it happens again, please report it to whoever runs Keywood."
    return fix + " The game goes on: its players can still use /board and /hand."
