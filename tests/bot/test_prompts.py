"""Joiner invitations and turn reminders: prompt rows with deadlines, answered early or late, timed out, resumed.

Every test runs on SQLite and on PostgreSQL (whose test server keeps a time zone other than UTC).
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from bot.store import Store
from bot.table import Table
from engine.keyper import GAME
from tests.bot.helpers import (
    ANA,
    BEN,
    CLEO,
    T0,
    Started,
    cmd,
    dump,
    log_rows,
    prompts,
    start_game,
    unanswered_joiners,
    url,
)

JOINER = timedelta(minutes=720)  # the default joiner deadline

pytestmark = pytest.mark.databases("sqlite", "postgresql")


def open_joiners(game: Started) -> dict[int, tuple[int, str | None]]:
    """seat -> (prompt id, kept answer) of the open joiner prompts."""
    return {seat: (pid, answer) for pid, kind, seat, status, answer in prompts(game.table, game.game_id)
            if kind == "reaction" and status == "open" and seat is not None}


def test_every_eligible_invitee_gets_a_prompt_at_once(started: Started) -> None:
    """A keyple into an empty field opens one prompt for each player who may join, all in the same Outcome."""
    outcome = started.play(ANA, "play green 1.pig")
    notes = {note.seat: note for note in outcome.opened}
    assert sorted(notes) == [1, 2]
    assert [notes[1].user_id, notes[2].user_id] == [BEN.user_id, CLEO.user_id]
    for note in notes.values():
        assert note.kind == "reaction" and note.game_id == started.game_id
        assert note.deadline == T0 + JOINER
        assert note.choices == ("join green", "join white", "decline")
        assert note.version == outcome.version
        assert "Ana plays a green keyple onto the pig field on board 1." in note.text, "it says what happened"
        assert "you are to join or decline" in note.text and "by the deadline: decline" in note.text
        assert note.default == "decline"
    assert "You may answer now" in notes[2].text and "You may answer now" not in notes[1].text
    assert outcome.mention == [BEN.user_id], "only the first invitee must act now"
    assert sorted(open_joiners(started)) == [1, 2]
    assert {pid for pid, _ in open_joiners(started).values()} == {n.prompt_id for n in outcome.opened}


def test_a_later_yes_waits_and_an_earlier_decline_releases_it(invited: Started) -> None:
    """Cleo (second in priority) says yes first: kept, nothing moves; Ben declines, then Cleo's yes applies."""
    before = log_rows(invited.table, invited.game_id)
    version = invited.version()
    kept = invited.play(CLEO, "join white")
    assert kept.reply.startswith("Answer kept: 'join white'") and "waiting for Ben" in kept.reply
    assert kept.public == [] and kept.version == version
    assert invited.version() == version and log_rows(invited.table, invited.game_id) == before
    assert GAME.to_act(invited.state()) == [1]
    assert open_joiners(invited)[2][1] == "join white"

    ids = {seat: pid for seat, (pid, _) in open_joiners(invited).items()}
    outcome = invited.play(BEN, "decline")
    rows = log_rows(invited.table, invited.game_id)
    assert [(seat, author, text) for _, seat, author, text, _ in rows[len(before):]] == [
        (1, BEN.user_id, "decline"), (2, CLEO.user_id, "join white")]
    assert any("Cleo joins with a white keyple" in line for line in outcome.public)
    assert sorted(outcome.closed) == sorted(ids.values())
    assert open_joiners(invited) == {}
    assert invited.table.verify(invited.game_id)[0] == "same"


def test_an_earlier_yes_closes_the_later_prompts(invited: Started) -> None:
    """Ben (first) joins: Cleo's prompt closes and her kept answer is never applied."""
    invited.play(CLEO, "join white")
    cleo_prompt = open_joiners(invited)[2][0]
    outcome = invited.play(BEN, "join green")
    assert cleo_prompt in outcome.closed
    assert all(seat != 2 for _, seat, *_ in log_rows(invited.table, invited.game_id))
    statuses = {pid: status for pid, _, _, status, _ in prompts(invited.table, invited.game_id)}
    assert statuses[cleo_prompt] == "closed"
    assert open_joiners(invited) == {}


def test_the_first_invitee_answering_in_turn_moves_play_to_the_next(invited: Started) -> None:
    """Ben declines in his turn; Cleo is now the one to act and her prompt stays open."""
    outcome = invited.play(BEN, "decline")
    assert outcome.mention == [CLEO.user_id]
    assert len(outcome.closed) == 1 and outcome.opened == []
    assert sorted(open_joiners(invited)) == [2]
    assert GAME.to_act(invited.state()) == [2]


def test_a_timeout_counts_as_a_decline(invited: Started) -> None:
    """Past the deadline, due() declines for both silent invitees, and Ana's keyple works alone."""
    assert invited.table.due(T0 + JOINER - timedelta(minutes=1)) == []
    outcomes = invited.table.due(T0 + JOINER + timedelta(minutes=1))
    assert len(outcomes) == 1
    outcome = outcomes[0]
    assert outcome.ok and outcome.game_id == invited.game_id
    assert "Ben did not answer in time." in outcome.public and "Cleo did not answer in time." in outcome.public
    assert len(outcome.closed) == 2
    assert outcome.mention == [ANA.user_id]
    rows = log_rows(invited.table, invited.game_id)
    assert [(seat, author, text) for _, seat, author, text, _ in rows[-2:]] == [
        (1, "timeout", "decline"), (2, "timeout", "decline")]
    assert invited.state().phase == "yields"
    assert open_joiners(invited) == {}
    assert invited.table.verify(invited.game_id)[0] == "same"


def test_a_timeout_of_the_first_releases_a_kept_yes(invited: Started) -> None:
    """Cleo's early yes waits for Ben; when Ben's time runs out it counts, under Cleo's name."""
    invited.play(CLEO, "join white")
    [outcome] = invited.table.due(T0 + JOINER)
    rows = log_rows(invited.table, invited.game_id)
    assert [(seat, author, text) for _, seat, author, text, _ in rows[-2:]] == [
        (1, "timeout", "decline"), (2, CLEO.user_id, "join white")]
    assert "Ben did not answer in time." in outcome.public
    assert "Cleo did not answer in time." not in outcome.public


def test_due_before_any_deadline_changes_nothing(invited: Started) -> None:
    """Nothing is due: due() says nothing and writes nothing."""
    before = dump(invited.db)
    assert invited.table.due(T0 + timedelta(hours=11)) == []
    assert dump(invited.db) == before


def test_due_after_a_restart_catches_up(invited: Started) -> None:
    """The bot was down past the deadline: a brand-new Store and Table on the same database fire what fell due."""
    invited.play(CLEO, "decline")  # an early decline, kept
    invited.table.store.close()
    fresh = Table(Store(url(invited.db)))
    try:
        outcomes = fresh.due(T0 + timedelta(days=3))
        joined = [o for o in outcomes if o.closed]
        assert len(joined) == 1 and "Ben did not answer in time." in joined[0].public
        rows = log_rows(fresh, invited.game_id)
        assert [(seat, author, text) for _, seat, author, text, _ in rows[-2:]] == [
            (1, "timeout", "decline"), (2, CLEO.user_id, "decline")]
        assert joined[0].mention == [ANA.user_id]
        assert fresh.verify(invited.game_id)[0] == "same"
        assert fresh.due(T0 + timedelta(days=3)) == [], "nothing fires twice"
    finally:
        fresh.store.close()
    again = Table(Store(url(invited.db)))
    try:
        [reminder] = again.due(T0 + timedelta(days=5))
        assert reminder.public == ["Reminder: waiting for Ana to choose what to take."]
        assert reminder.mention == [ANA.user_id]
    finally:
        again.store.close()


def test_reminders_fire_after_reminder_hours_and_mention_only_who_must_act(table: Table) -> None:
    """With a 1-hour reminder: nothing at 59 minutes, a reminder at 61 naming the seat to act, then again
    an interval later; during an invitation only the invitee asked now is mentioned."""
    start = start_game(table, reminder_hours=1)
    game_id = start.game_id
    assert game_id is not None
    assert table.due(T0 + timedelta(minutes=59)) == []
    [first] = table.due(T0 + timedelta(minutes=61))
    assert first.public == ["Reminder: waiting for Ana to take a turn."]
    assert first.mention == [ANA.user_id] and first.game_id == game_id
    assert table.due(T0 + timedelta(minutes=62)) == [], "the reminder is re-armed, not repeated at once"
    [again] = table.due(T0 + timedelta(minutes=122))
    assert again.mention == [ANA.user_id]

    moment = T0 + timedelta(minutes=130)
    assert table.handle(cmd(ANA, "play", "play green 1.pig", at=moment)).ok
    assert table.due(moment + timedelta(minutes=61)) == [], "an invitation has its own deadline, not a reminder"
    [timed_out] = table.due(moment + JOINER)
    assert timed_out.public[:4] == ["Ben did not answer in time.", "Ben declines to join.",
                                    "Cleo did not answer in time.", "Cleo declines to join."]
    assert timed_out.mention == [ANA.user_id], "both invitations ran out together; Ana is on again"


def test_abandon_closes_every_open_prompt(invited: Started) -> None:
    """Abandoning lists both invitations in Outcome.closed (Ana's turn closed when they opened), and due() has
    nothing left."""
    ids = [pid for pid, _, _, status, _ in prompts(invited.table, invited.game_id) if status == "open"]
    assert len(ids) == 2
    outcome = invited.table.handle(cmd(ANA, "abandon"))
    assert outcome.ok and sorted(outcome.closed) == sorted(ids)
    assert invited.table.due(T0 + timedelta(days=30)) == []


def open_reactions(game: Started) -> dict[int, bool]:
    """seat -> whether its open reaction prompt is due now (must), as stored."""
    with game.table.store.transaction() as tx:
        return {p.seat: p.payload.must for p in tx.open_prompts(game.game_id, "reaction")
                if p.seat is not None}


def open_ids(game: Started) -> set[int]:
    """Ids of every open prompt (invitations and the reminder)."""
    return {pid for pid, _, _, status, _ in prompts(game.table, game.game_id) if status == "open"}


def test_prompts_match_the_engines_invitees_through_a_whole_game(started: Started) -> None:
    """In a random game, every Outcome opens prompts for exactly the seats that may newly answer, each open
    prompt offers exactly the engine's pending answers, and the game ends with no open prompt."""
    rng = random.Random(11)
    invitations = 0
    for _ in range(2000):
        state = started.state()
        if GAME.is_over(state):
            break
        reactions = {d.seat: d.must for d in GAME.decisions(state) if d.kind == "reaction"}
        assert open_reactions(started) == reactions
        assert all(GAME.pending_answers(state, s) for s, must in reactions.items() if not must)
        joiners = unanswered_joiners(started.table, started.game_id)
        choices = [(s, a) for s in GAME.to_act(state) for a in GAME.legal_actions(state, s)]
        choices += [(s, a) for s in joiners if s not in GAME.to_act(state) for a in GAME.pending_answers(state, s)]
        seat, action = rng.choice(choices)
        had, had_ids = open_joiners(started), open_ids(started)
        outcome = started.play(started.players[seat], GAME.format(action))
        now = open_joiners(started)
        new_ids = {pid for pid, _ in now.values()} - {pid for pid, _ in had.values()}
        assert {note.prompt_id for note in outcome.opened if note.kind == "reaction"} == new_ids
        gone = had_ids - open_ids(started)
        assert set(outcome.closed) == gone, "every prompt that closed is listed, and nothing else"
        invitations += len(outcome.opened)
    assert GAME.is_over(started.state())
    assert invitations > 10
    assert all(status != "open" for _, _, _, status, _ in prompts(started.table, started.game_id))


def test_an_invitation_answered_by_its_prompt_id(invited: Started) -> None:
    """The `answer` verb (a DM button) keeps an early answer and applies an answer in turn, like play does."""
    ids = {seat: pid for seat, (pid, _) in open_joiners(invited).items()}
    kept = invited.table.handle(cmd(CLEO, "answer", "join white", prompt_id=ids[2]))
    assert kept.ok and kept.reply.startswith("Answer kept")
    outcome = invited.table.handle(cmd(BEN, "answer", "decline", prompt_id=ids[1]))
    assert outcome.ok and sorted(outcome.closed) == sorted(ids.values())
    assert [r[3] for r in log_rows(invited.table, invited.game_id)[-2:]] == ["decline", "join white"]
    assert kept.reply_prompt == ids[2], "an answer kept early may still be changed by the same prompt's buttons"
    assert outcome.reply_prompt is None and outcome.reply_choices == [], "no buttons for a decision now closed"
