"""Bad input of every kind gets its own clear message and leaves the database byte-for-byte unchanged.

"Unchanged" is checked twice: the SQL dump of the whole database, and on SQLite the main file's bytes after the
WAL has been checkpointed into it, on PostgreSQL every row's xmin (rewritten by any update, even to the same
values); both through a connection of their own. Every test runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.table import Command, Table
from tests.bot.helpers import (
    ADMIN,
    ANA,
    BEN,
    CLEO,
    DEV,
    ELSEWHERE,
    STRANGER,
    Started,
    cmd,
    dump,
    prompts,
)
from tests.databases import Database

pytestmark = pytest.mark.databases("sqlite", "postgresql")


def refused(table: Table, path: Database, command: Command, *fragments: str) -> str:
    """Send a command that must be refused; check its message and that the database did not change."""
    before = dump(path)
    outcome = table.handle(command)
    after = dump(path)
    assert not outcome.ok, f"accepted: {command.verb} {command.arg!r}: {outcome.reply}"
    for fragment in fragments:
        assert fragment in outcome.reply, outcome.reply
    assert outcome.public == [] and outcome.opened == [] and outcome.closed == []
    assert after[0] == before[0], "the SQL dump changed"
    assert after[1] == before[1], "the database file's bytes (PostgreSQL: a row's xmin) changed"
    return outcome.reply


@pytest.fixture
def joined(invited: Started) -> Started:
    """Cleo answers early ('join white' is kept), then Ben joins first, which closes Cleo's invitation.

    Ana then has pigs to take."""
    kept = invited.play(CLEO, "join white")
    assert kept.reply.startswith("Answer kept")
    outcome = invited.play(BEN, "join green")
    assert outcome.closed, "Cleo's invitation should close when Ben joins"
    return invited


# A game under way (Ana is taking her pigs; Cleo's invitation has closed)

CASES: dict[str, tuple[Callable[[Started], Command], tuple[str, ...]]] = {
    "unknown command": (lambda g: cmd(ANA, "frobnicate", "now"), ("Unknown command 'frobnicate'", "play")),
    "empty verb": (lambda g: cmd(ANA, ""), ("Unknown command",)),
    "unparseable action": (lambda g: cmd(ANA, "play", "blah blah"), ("'blah blah' is not a Keyper action",)),
    "empty action": (lambda g: cmd(ANA, "play", ""), ("is not a Keyper action",)),
    "unknown colour": (lambda g: cmd(ANA, "play", "play purple 1.pig"), ("not a Keyper action",)),
    "illegal action": (lambda g: cmd(ANA, "play", "keyper 1"),
                       ("Not allowed", "no turn is being played now", "waiting for Ana to choose what to take")),
    "unknown resource": (lambda g: cmd(ANA, "play", "take zebra"), ("'take zebra' is not a Keyper action",)),
    "resource not on offer": (lambda g: cmd(ANA, "play", "take wood"), ("Not allowed", "offers pig, not wood",
                                                                        "You could: take pig, skip")),
    "not your turn": (lambda g: cmd(BEN, "play", "take pig"), ("Not allowed", "not your decision now",
                                                               "waiting for Ana")),
    "not a player (play)": (lambda g: cmd(STRANGER, "play", "take pig"), ("You are not a player in this game.",)),
    "not a player (hand)": (lambda g: cmd(STRANGER, "hand"), ("You are not a player in this game.",)),
    "a huge repeat count": (lambda g: cmd(ANA, "play", "take pig x" + "9" * 5000),
                            ("A repeat count is from 1 to 20, not 999999999999… (5000 digits).",)),
    "a forged button's huge ids": (lambda g: cmd(ANA, "play", "take pig", game_id=10**30, seat=0, version=2**70),
                                   ("That button was not made by Keywood; nothing was changed.",)),
    "a forged decision id": (lambda g: cmd(ANA, "answer", "join green", prompt_id=-1),
                             ("That button was not made by Keywood",)),
    "a clock pace past any clock": (lambda g: cmd(ANA, "clock", "9999999999m"),
                                    ("'9999999999' is longer than any clock here", "The clock takes a pace")),
    "a seat handed to a bot": (lambda g: cmd(ANA, "kick", options={"user_id": CLEO.user_id, "replacement_id": "999",
                                                                   "replacement_name": "Keywood",
                                                                   "replacement_is_bot": True}),
                               ("A seat goes to a person, and Keywood is a bot.", "standin")),
    "not a player (undo)": (lambda g: cmd(STRANGER, "undo"), ("You are not a player in this game.",)),
    "no game in this channel (play)": (lambda g: cmd(ANA, "play", "take pig", where=ELSEWHERE),
                                       ("There is no game in this channel",)),
    "no game in this channel (board)": (lambda g: cmd(ANA, "board", where=ELSEWHERE),
                                        ("There is no game in this channel",)),
    "no game in this channel (join)": (lambda g: cmd(DEV, "join", where=ELSEWHERE),
                                       ("There is no game in this channel",)),
    "no game in this channel (start)": (lambda g: cmd(ANA, "start", where=ELSEWHERE),
                                        ("There is no game in this channel",)),
    "no game in this channel (abandon)": (lambda g: cmd(ANA, "abandon", where=ELSEWHERE),
                                          ("There is no game in this channel",)),
    "new while a game is open": (lambda g: cmd(BEN, "new", "keyper"), ("A game is already open in this channel",)),
    "new by an admin while a game is open": (lambda g: cmd(ADMIN, "new", "keyper"),
                                             ("A game is already open in this channel",)),
    "start twice": (lambda g: cmd(ANA, "start"), ("already running",)),
    "join after start": (lambda g: cmd(DEV, "join"), ("already started",)),
    "join after start (seated)": (lambda g: cmd(BEN, "join"), ("already started",)),
    "leave after start": (lambda g: cmd(BEN, "leave"), ("cannot leave",)),
    "abandon by a non-host": (lambda g: cmd(BEN, "abandon"), ("Only the host or a server admin",)),
    "settings by a non-admin": (lambda g: cmd(ANA, "settings", options={"reminder_hours": 2}),
                                ("Only a server admin",)),
    "settings below one": (lambda g: cmd(ADMIN, "settings", options={"decision_minutes": 0}),
                           ("decision_minutes must be at least 1",)),
    "unknown game": (lambda g: cmd(DEV, "new", "chess", where=ELSEWHERE), ("does not know the game 'chess'",)),
    "unknown game option": (lambda g: cmd(DEV, "new", "keyper", where=ELSEWHERE, options={"colour": "red"}),
                            ("Keyper has no option colour",)),
    "too many players": (lambda g: cmd(DEV, "new", "keyper", where=ELSEWHERE, options={"max_players": 6}),
                         ("max_players must be at most 4",)),
    "min above max": (lambda g: cmd(DEV, "new", "keyper", where=ELSEWHERE,
                                    options={"min_players": 4, "max_players": 3}),
                      ("min_players (4) is more than max_players (3)",)),
    "stale prompt answer (old version)": (lambda g: cmd(ANA, "play", "take pig", version=g.version() - 1),
                                          ("The table has moved on", "nothing was changed")),
    "stale prompt answer (future version)": (lambda g: cmd(ANA, "play", "take pig", version=g.version() + 5),
                                             ("The table has moved on",)),
    "answer to a closed invitation": (lambda g: cmd(CLEO, "play", "join white"), ("not your decision now",)),
    "decline of a closed invitation": (lambda g: cmd(CLEO, "play", "decline"), ("not your decision now",)),
    "undo of someone else's action": (lambda g: cmd(CLEO, "undo"), ("only take back your own last action",)),
    "check by a stranger": (lambda g: cmd(STRANGER, "check", "take pig"), ("You are not a player",)),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_is_refused_with_its_message_and_changes_nothing(joined: Started, case: str) -> None:
    """Each kind of bad input during a running game is refused with a specific message; the file is untouched."""
    make, fragments = CASES[case]
    refused(joined.table, joined.db, make(joined), *fragments)


def test_the_refusals_say_different_things(joined: Started) -> None:
    """The messages name the problem: no two classes of bad input share one generic text."""
    replies = {case: joined.table.handle(make(joined)).reply for case, (make, _) in CASES.items()}
    groups = {
        "unknown": replies["unknown command"], "unparseable": replies["unparseable action"],
        "illegal": replies["illegal action"], "turn": replies["not your turn"],
        "player": replies["not a player (play)"], "channel": replies["no game in this channel (play)"],
        "open": replies["new while a game is open"], "running": replies["start twice"],
        "started": replies["join after start"], "stale": replies["stale prompt answer (old version)"],
    }
    assert len(set(groups.values())) == len(groups), groups


def test_a_button_answer_to_a_closed_invitation_is_stale(invited: Started) -> None:
    """An invitation answered through its prompt (carrying the prompt's version) after it closed is refused."""
    opened = invited.table.handle(cmd(ANA, "board"))
    version = opened.version
    invited.play(BEN, "join green")
    refused(invited.table, invited.db, cmd(CLEO, "play", "join white", version=version),
            "The table has moved on")
    refused(invited.table, invited.db, cmd(CLEO, "play", "decline", version=version), "The table has moved on")


def test_answering_a_closed_invitation_by_its_prompt_is_refused(invited: Started) -> None:
    """The `answer` verb (a DM button names its prompt): a closed prompt, or someone else's, is refused."""
    ids = {seat: pid for pid, kind, seat, _, _ in prompts(invited.table, invited.game_id) if kind == "reaction"}
    refused(invited.table, invited.db, cmd(BEN, "answer", "join green", prompt_id=ids[2]),
            "This decision is for another player.")
    invited.play(BEN, "join green")
    refused(invited.table, invited.db, cmd(CLEO, "answer", "join white", prompt_id=ids[2]),
            "This decision has already been made or has closed; nothing was changed.")
    refused(invited.table, invited.db, cmd(CLEO, "answer", "decline", prompt_id=9999),
            "This decision has already been made or has closed")


def test_a_choice_offered_to_another_seat_is_refused(invited: Started) -> None:
    """A button shown to Ben and pressed by Cleo (the command names Ben's seat) changes nothing."""
    refused(invited.table, invited.db, cmd(CLEO, "play", "decline", seat=1), "offered to another player")


def test_answering_an_invitation_twice_is_refused(invited: Started) -> None:
    """A kept early answer cannot be replaced or repeated."""
    invited.play(CLEO, "join white")
    refused(invited.table, invited.db, cmd(CLEO, "play", "join white"), "already answered")
    refused(invited.table, invited.db, cmd(CLEO, "play", "decline"), "already answered")


def test_an_early_answer_that_is_not_on_offer_is_refused(invited: Started) -> None:
    """An invitee who is not yet asked may only give one of the offered answers."""
    refused(invited.table, invited.db, cmd(CLEO, "play", "join orange"), "Not allowed")
    refused(invited.table, invited.db, cmd(CLEO, "play", "take pig"), "Not allowed")
    assert all(answer is None for *_, answer in prompts(invited.table, invited.game_id))


def test_refusals_in_the_lobby_change_nothing(table: Table, database: Database) -> None:
    """Lobby mistakes: play before start, double join, leave unseated, too few to start, a full table."""
    assert table.handle(cmd(ANA, "new", "keyper", options={"seed": 3, "min_players": 3, "max_players": 3})).ok
    refused(table, database, cmd(ANA, "play", "keyper 1"), "has not started yet")
    refused(table, database, cmd(ANA, "board"), "has not started yet")
    refused(table, database, cmd(ANA, "join"), "already seated")
    refused(table, database, cmd(BEN, "leave"), "not seated")
    refused(table, database, cmd(ANA, "start"), "At least 3 players are needed; 1 seated")
    assert table.handle(cmd(BEN, "join")).ok
    refused(table, database, cmd(BEN, "start"), "Only the host or a server admin can start")
    assert table.handle(cmd(CLEO, "join")).ok
    refused(table, database, cmd(DEV, "join"), "This table is full")
    refused(table, database, cmd(ANA, "new", "keyper"), "already open")


def test_refusals_with_no_game_at_all_change_nothing(table: Table, database: Database) -> None:
    """Commands in a channel that never had a game."""
    assert table.handle(cmd(ANA, "new", "keyper", where=ELSEWHERE)).ok
    for verb in ("join", "leave", "start", "abandon", "play", "board", "hand", "log", "score", "check", "undo"):
        refused(table, database, cmd(ANA, verb, "keyper 1"), "There is no game in this channel")


def test_a_non_numeric_table_option_is_refused(table: Table, database: Database) -> None:
    """new with a player limit that is not a number gets a message, not an exception."""
    refused(table, database, cmd(ANA, "new", "keyper", options={"min_players": "many"}), "min_players")


def test_a_non_numeric_setting_is_refused(table: Table, database: Database) -> None:
    """settings with a value that is not a number gets a message, not an exception."""
    refused(table, database, cmd(ADMIN, "settings", options={"reminder_hours": "soon"}), "reminder_hours")


def test_a_table_deadline_below_one_is_refused(table: Table, database: Database) -> None:
    """new applies the same bounds as settings: a joiner deadline of -5 minutes is refused."""
    refused(table, database, cmd(ANA, "new", "keyper", options={"decision_minutes": -5}),
            "decision_minutes must be at least 1")


def test_accepted_commands_do_change_the_file(started: Started) -> None:
    """The byte comparison is not blind: an accepted play changes both the dump and the file."""
    before = dump(started.db)
    started.play(ANA, "keyper 1")
    after = dump(started.db)
    assert after[0] != before[0] and after[1] != before[1]


def test_reading_commands_change_nothing(joined: Started) -> None:
    """board, hand, log, score, check and rules answer without writing."""
    before = dump(joined.db)
    for verb, arg in (("board", ""), ("hand", ""), ("log", ""), ("score", ""), ("check", "take pig"),
                      ("check", "keyper 1")):
        assert joined.table.handle(cmd(ANA, verb, arg)).ok, verb
    assert dump(joined.db) == before
