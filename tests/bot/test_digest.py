"""While you were away (issue "Keep games moving"): the message that asks a player to take a turn carries the public
record since their own last move, and `log since:me` shows the same on demand. Through the real Table on SQLite."""

from __future__ import annotations

from bot.table import Outcome, Table
from tests.bot.helpers import ANA, BEN, CLEO, STRANGER, cmd


def keyflower(table: Table) -> Outcome:
    """Ana, Ben and Cleo at a seed-12 Keyflower table (Ana, home tile 3, starts)."""
    table.handle(cmd(ANA, "new", "keyflower", options={"seed": 12}))
    table.handle(cmd(BEN, "join"))
    table.handle(cmd(CLEO, "join"))
    return table.handle(cmd(ANA, "start"))


def note_for(outcome: Outcome, user_id: str) -> str:
    """The text of the decision message an outcome opens for a user."""
    return next(n.text for n in outcome.opened if n.user_id == user_id)


def test_the_turn_message_tells_what_happened_since_ones_last_move(table: Table) -> None:
    keyflower(table)
    table.handle(cmd(ANA, "play", "bid alehouse yellow"))
    table.handle(cmd(ANA, "play", "count 1"))
    table.handle(cmd(BEN, "play", "pass"))
    back = table.handle(cmd(CLEO, "play", "pass"))
    text = note_for(back, ANA.user_id)
    assert "Ana, you are to take a turn." in text
    assert "Since your last move:\n3. Ben: pass: Ben passes.\n4. Cleo: pass: Cleo passes." in text, text


def test_a_step_of_ones_own_turn_carries_no_digest(table: Table) -> None:
    """Nothing happened since the player's own last step: no 'since' lines."""
    keyflower(table)
    asked = table.handle(cmd(ANA, "play", "bid alehouse yellow"))
    assert "Since your last move" not in note_for(asked, ANA.user_id)


def test_log_since_me_shows_the_same_on_demand(table: Table) -> None:
    keyflower(table)
    table.handle(cmd(ANA, "play", "bid alehouse yellow"))
    table.handle(cmd(ANA, "play", "count 1"))
    table.handle(cmd(BEN, "play", "pass"))
    assert table.handle(cmd(ANA, "log", "since:me")).reply == "Since your last move:\n3. Ben: pass: Ben passes."
    assert table.handle(cmd(BEN, "log", "since:me")).reply == "Nothing has happened since your last move."
    assert table.handle(cmd(CLEO, "log", "since me")).reply.startswith("So far:\n1. Ana: bid alehouse yellow")
    refused = table.handle(cmd(STRANGER, "log", "since:me"))
    assert not refused.ok and refused.reply == "`log since:me` is for the players of this game: you have no seat here."
