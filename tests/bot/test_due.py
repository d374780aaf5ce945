"""What falls due below any transport: reminders only for decisions whose deadline has passed, and outbox rows
that were delivered (or given up) never offered to a sender again.

DESIGN.md, Persistence: open decisions are rows with deadlines; queued messages are sent once. Runs on SQLite and
PostgreSQL.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from bot.store import Store
from bot.table import Table
from engine.keyper import GAME
from tests.bot.helpers import ANA, BEN, CLEO, PLAYERS, T0, cmd, read_state, start_game
from tests.databases import Database

pytestmark = pytest.mark.databases("sqlite", "postgresql")

HOUR = timedelta(hours=1)


def start_tokens(table: Table) -> int:
    """A Tokens game (three simultaneous secret picks, no default) with reminders every hour; returns its id."""
    assert table.handle(cmd(ANA, "new", "tokens", options={"seed": 3, "reminder_hours": 1})).ok
    for who in PLAYERS[1:]:
        assert table.handle(cmd(who, "join")).ok
    started = table.handle(cmd(ANA, "start"))
    assert started.ok and started.game_id is not None
    return started.game_id


def open_deadlines(table: Table, game_id: int) -> dict[int, object]:
    """seat -> deadline of the game's open decisions."""
    with table.store.transaction() as tx:
        return {p.seat: p.deadline for p in tx.open_prompts(game_id) if p.seat is not None}


def test_a_reminder_names_only_the_seats_whose_deadline_passed(table: Table) -> None:
    """Three picks are open; Cleo's deadline is later than the others'. An hour on, the reminder mentions Ana and
    Ben only, and pushes their deadlines; Cleo's is left as it was, and she is reminded once hers passes."""
    game_id = start_tokens(table)
    assert sorted(open_deadlines(table, game_id)) == [0, 1, 2]
    later = T0 + 3 * HOUR
    with table.store.transaction() as tx:
        [cleo] = [p for p in tx.open_prompts(game_id) if p.seat == 2]
        cleo.deadline = later
        tx.save_prompt(cleo)

    [reminder] = table.due(T0 + HOUR + timedelta(minutes=1))
    assert sorted(reminder.mention) == sorted([ANA.user_id, BEN.user_id])
    deadlines = open_deadlines(table, game_id)
    assert deadlines[2] == later, "a decision not yet due keeps its deadline"
    assert deadlines[0] == deadlines[1] == T0 + 2 * HOUR + timedelta(minutes=1)

    assert table.due(T0 + 2 * HOUR) == [], "nothing is due between the deadlines"
    [second] = table.due(later + timedelta(minutes=1))
    assert sorted(second.mention) == sorted([ANA.user_id, BEN.user_id, CLEO.user_id])


def test_a_sent_message_is_never_pending_again(table: Table) -> None:
    """The start queues the channel's messages; once recorded as sent they are not offered again, while the ones
    not yet sent still are, in the order they were queued."""
    start_tokens(table)
    pending = table.pending_messages()
    ids = [row.id for row in pending if row.id is not None]
    assert len(ids) == len(pending) >= 2 and ids == sorted(ids)
    first, rest = ids[0], ids[1:]
    table.messages_sent([first])
    assert [row.id for row in table.pending_messages()] == rest
    table.messages_sent(rest)
    assert table.pending_messages() == []
    with table.store.transaction() as tx:
        row = tx.outbox_row(first)
    assert row is not None and row.status == "sent" and row.sent_at is not None


def test_a_failed_message_is_retried_until_given_up(table: Table) -> None:
    """A transient failure leaves the message pending with a later attempt time; a permanent one takes it out of
    the queue for good (the host hears once, in a notice of its own)."""
    start_tokens(table)
    pending = table.pending_messages()
    channel = [row for row in pending if row.recipient is None]
    assert len(channel) >= 2
    retry, drop = channel[0].id, channel[1].id
    assert retry is not None and drop is not None
    table.message_failed(retry, "503 Service Unavailable", permanent=False, moment=T0)
    table.message_failed(drop, "403 Forbidden (error code: 50013): Missing Permissions", permanent=True, moment=T0)
    after = {row.id: row for row in table.pending_messages()}
    assert retry in after and drop not in after
    assert after[retry].attempts == 1 and after[retry].next_attempt_at > T0
    notices = [row for row in after.values() if row.kind == "notice"]
    assert len(notices) == 1 and notices[0].recipient == ANA.user_id
    assert "Missing Permissions" in json.loads(notices[0].payload)["text"]


def test_an_image_is_kept_only_until_its_message_is_sent(database: Database) -> None:
    """Issue 41 §4: a queued table image is stored until its message is delivered (or given up), then dropped: a
    game no longer leaves megabytes of sent images behind. A message still to send keeps its image."""
    store = Store(database.url)
    try:
        table = Table(store)  # with the table images
        game_id = start_game(table).game_id
        assert game_id is not None
        move = GAME.format(GAME.legal_actions(read_state(table, game_id)[0], 0)[0])
        assert table.handle(cmd(ANA, "play", move)).ok  # a second table image, queued
        pictured = [row.id for row in table.pending_messages() if row.image and row.id is not None]
        assert len(pictured) >= 2
        sent, given_up, waiting = pictured[0], pictured[1], pictured[2:]
        table.messages_sent([sent])
        table.message_failed(given_up, "403 Forbidden", permanent=True)
        with store.transaction() as tx:
            images = {row_id: row.image if (row := tx.outbox_row(row_id)) else b"gone" for row_id in pictured}
        assert images[sent] is None and images[given_up] is None
        assert all(images[row_id] for row_id in waiting)
    finally:
        store.close()
