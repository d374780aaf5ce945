"""While you were away (issue "Keep games moving"): the message that asks a player to take a turn carries the public
record since their own last move, and `log since:me` shows the same on demand. Through the real Table on SQLite."""

from __future__ import annotations

import random

import pytest

from bot import games
from bot.table import DIGEST_LINES, Outcome, Table, Who
from tests.bot.helpers import ANA, BEN, CLEO, DEV, STRANGER, cmd

pytestmark = pytest.mark.databases("sqlite", "postgresql")  # the digest is one hand-written statement on each

ELI = Who("u-eli", "Eli")


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
    assert table.handle(cmd(CLEO, "log", "since me")).reply.startswith("So far:\n1. Ana: bid alehouse\n")
    refused = table.handle(cmd(STRANGER, "log", "since:me"))
    assert not refused.ok and refused.reply == "`log since:me` is for the players of this game: you have no seat here."


def digest_of(text: str) -> list[str]:
    """The 'since' heading and numbered lines of a turn message ([] when it has none)."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith(("Since your last move", "So far"))), None)
    if start is None:
        return []
    end = next((i for i in range(start + 1, len(lines)) if not lines[i][:1].isdigit()), len(lines))
    return lines[start:end]


def expected_digest(table: Table, game_id: int, seat: int, names: dict[int, str]) -> list[str]:
    """The log's public lines after the seat's own last action, the last DIGEST_LINES of them, as the digest shows."""
    with table.store.transaction() as tx:
        rows = tx.actions(game_id)
    last = max((r.seq for r in rows if r.seat == seat), default=0)
    since = [r for r in rows if r.seq > last]
    return [f"{r.seq}. {names[r.seat]}: {r.summary}" for r in since[-DIGEST_LINES:]]


def test_the_digest_is_the_last_public_lines_since_ones_move_and_nothing_private(table: Table) -> None:
    """Random five-player Keyflower play through the table: every turn message's digest is the log's public lines
    since the holder's own last move, at most DIGEST_LINES of them (the heading says how many were left out), and
    carries no private event of those moves; none when the holder's own step was the last action."""
    engine = games.get("keyflower").engine
    people = dict(enumerate((ANA, BEN, CLEO, DEV, ELI)))
    table.handle(cmd(ANA, "new", "keyflower", options={"seed": 12}))
    for who in (BEN, CLEO, DEV, ELI):
        table.handle(cmd(who, "join"))
    game_id = table.handle(cmd(ANA, "start")).game_id
    assert game_id is not None
    rng, private, cut, empty = random.Random(5), set[str](), 0, 0
    for _ in range(150):
        with table.store.transaction() as tx:
            data = tx.snapshot(game_id)
        assert data is not None
        state = engine.from_json(data)
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        action = rng.choice(engine.legal_actions(state, seat))
        private |= {e.text for e in engine.apply(state, seat, action)[1] if not e.public}
        outcome = table.handle(cmd(people[seat], "play", engine.format(action)))
        assert outcome.ok, outcome.reply
        for note in (n for n in outcome.opened if n.kind == "turn"):
            shown = digest_of(note.text)
            wanted = expected_digest(table, game_id, note.seat, {s: w.name for s, w in people.items()})
            assert shown[1:] == wanted and len(shown) <= DIGEST_LINES + 1, note.text
            assert not any(p in line for line in shown for p in private), note.text
            cut += f"(the last {DIGEST_LINES} of" in "".join(shown[:1])
            empty += note.seat == seat and not shown
    assert cut and empty and private, "no digest cut short, no turn right after its holder's step, or no secret"


def test_a_step_with_nothing_public_to_say_ends_its_log_line_with_the_action(table: Table) -> None:
    """`bid alehouse yellow` only opens the count step: its log line is the action in public notation (the colour
    stays behind the screen until the count places the workers, issue 39), without a dangling colon."""
    keyflower(table)
    table.handle(cmd(ANA, "play", "bid alehouse yellow"))
    table.handle(cmd(ANA, "play", "count 1"))
    lines = table.handle(cmd(BEN, "log")).reply.splitlines()
    assert "1. Ana: bid alehouse" in lines, lines
    assert any(line.startswith("2. Ana: count 1: ") for line in lines), lines
