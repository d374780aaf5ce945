"""The lobby (new, join, leave, start, abandon, settings) and undo, through Table.handle on a real database: every
test on SQLite and on PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from bot.table import Table, Where
from engine.core import Playout, clone
from engine.keyflower import GAME as KEYFLOWER
from engine.keyflower.actions import read
from engine.keyper import GAME
from engine.playout import chosen_moves, random_playout
from tests.bot.helpers import (
    ADMIN,
    ANA,
    BEN,
    CLEO,
    DEV,
    ELSEWHERE,
    T0,
    Started,
    cmd,
    dump,
    game_status,
    log_rows,
    read_state,
    start_game,
)
from tests.databases import Database

pytestmark = pytest.mark.databases("sqlite", "postgresql")


def seats(table: Table, game_id: int) -> list[tuple[int, str]]:
    """(seat, user id) of a game, in order."""
    with table.store.transaction() as tx:
        return [(s.seat, s.user_id) for s in tx.seats(game_id)]


def host(table: Table, game_id: int) -> str:
    """The host's user id."""
    with table.store.transaction() as tx:
        row = tx.game(game_id)
        assert row is not None
        return row.host_id


# lobby


def test_new_opens_a_lobby_with_the_host_seated(table: Table) -> None:
    """new seats its caller as host; others join in order."""
    outcome = table.handle(cmd(ANA, "new", "keyper"))
    assert outcome.ok and outcome.reply == "Table opened."
    assert outcome.public == ["Ana opened a Keyper table (2-4 players). Join with `join`; the host starts with "
                              "`start`."]
    game_id = outcome.game_id
    assert game_id is not None and game_status(table, game_id) == "lobby"
    assert host(table, game_id) == ANA.user_id
    joined = table.handle(cmd(BEN, "join"))
    assert joined.ok and joined.public == ["Ben joins the table (2 seated)."]
    assert seats(table, game_id) == [(0, ANA.user_id), (1, BEN.user_id)]


def test_one_live_game_per_channel(table: Table) -> None:
    """A channel holds one lobby or running game; other channels are independent; a closed game frees it."""
    first = table.handle(cmd(ANA, "new", "keyper"))
    assert not table.handle(cmd(BEN, "new", "keyper")).ok
    other = table.handle(cmd(BEN, "new", "keyper", where=ELSEWHERE))
    assert other.ok and other.game_id != first.game_id
    assert not table.handle(cmd(CLEO, "new", "keyper", where=Where("guild-1", "channel-2"))).ok
    third = table.handle(cmd(CLEO, "new", "keyper", where=Where("guild-2", "channel-1")))
    assert third.ok, "the same channel id in another server is another table"
    assert table.handle(cmd(ANA, "abandon")).ok
    again = table.handle(cmd(BEN, "new", "keyper"))
    assert again.ok and again.game_id not in (first.game_id, other.game_id, third.game_id)
    assert table.handle(cmd(DEV, "join")).ok
    assert seats(table, again.game_id or 0) == [(0, BEN.user_id), (1, DEV.user_id)]


def test_leave_renumbers_seats(table: Table) -> None:
    """A player leaving the lobby frees the seat; the rest close up."""
    game_id = table.handle(cmd(ANA, "new", "keyper")).game_id or 0
    for who in (BEN, CLEO, DEV):
        assert table.handle(cmd(who, "join")).ok
    left = table.handle(cmd(BEN, "leave"))
    assert left.ok and left.public == ["Ben leaves the table."]
    assert seats(table, game_id) == [(0, ANA.user_id), (1, CLEO.user_id), (2, DEV.user_id)]
    assert host(table, game_id) == ANA.user_id


def test_the_host_leaving_passes_the_host_on(table: Table) -> None:
    """When the host leaves, the first seated player becomes host and may start; the old host may not."""
    game_id = table.handle(cmd(ANA, "new", "keyper")).game_id or 0
    assert table.handle(cmd(BEN, "join")).ok and table.handle(cmd(CLEO, "join")).ok
    left = table.handle(cmd(ANA, "leave"))
    assert left.ok and left.public == ["Ana leaves the table.", "Ben is now the host."]
    assert host(table, game_id) == BEN.user_id
    refused = table.handle(cmd(CLEO, "start"))
    assert not refused.ok and "Only the host or a server admin" in refused.reply
    assert table.handle(cmd(ANA, "join")).ok
    assert not table.handle(cmd(ANA, "start")).ok, "rejoining does not make Ana host again"
    started = table.handle(cmd(BEN, "start"))
    assert started.ok and game_status(table, game_id) == "active"
    state, _ = read_state(table, game_id)
    assert [p.name for p in state.players] == ["Ben", "Cleo", "Ana"]


def test_the_last_player_leaving_closes_the_table(table: Table) -> None:
    """An empty lobby closes, and the channel is free again."""
    game_id = table.handle(cmd(ANA, "new", "keyper")).game_id or 0
    left = table.handle(cmd(ANA, "leave"))
    assert left.ok and "The table is empty and closes." in left.public
    assert game_status(table, game_id) == "abandoned"
    assert not table.handle(cmd(ANA, "join")).ok
    assert table.handle(cmd(BEN, "new", "keyper")).ok


def test_min_and_max_players(table: Table) -> None:
    """The table's limits (within the game's 2-4): too few cannot start, one too many cannot join."""
    game_id = table.handle(cmd(ANA, "new", "keyper", options={"min_players": 3, "max_players": 3})).game_id or 0
    assert table.handle(cmd(BEN, "join")).ok
    short = table.handle(cmd(ANA, "start"))
    assert not short.ok and short.reply == "At least 3 players are needed; 2 seated."
    assert table.handle(cmd(CLEO, "join")).ok
    full = table.handle(cmd(DEV, "join"))
    assert not full.ok and full.reply == "This table is full."
    assert table.handle(cmd(ANA, "start")).ok
    assert len(seats(table, game_id)) == 3


def test_the_default_limits_are_the_games(table: Table) -> None:
    """Keyper alone: one player cannot start; the fifth cannot join."""
    assert table.handle(cmd(ANA, "new", "keyper")).ok
    assert table.handle(cmd(ANA, "start")).reply == "At least 2 players are needed; 1 seated."
    for who in (BEN, CLEO, DEV):
        assert table.handle(cmd(who, "join")).ok
    assert table.handle(cmd(ADMIN, "join")).reply == "This table is full."
    for options, reply in (({"min_players": 1}, "min_players must be at least 2."),
                           ({"max_players": 5}, "max_players must be at most 4."),
                           ({"min_players": 3, "max_players": 2}, "min_players (3) is more than max_players (2).")):
        refused = table.handle(cmd(ANA, "new", "keyper", where=ELSEWHERE, options=options))
        assert not refused.ok and refused.reply == reply, options


def test_an_admin_may_start_and_abandon(table: Table) -> None:
    """A server admin who is not the host (nor seated) may start and abandon."""
    game_id = table.handle(cmd(ANA, "new", "keyper")).game_id or 0
    assert table.handle(cmd(BEN, "join")).ok
    assert not table.handle(cmd(BEN, "abandon")).ok
    assert table.handle(cmd(ADMIN, "start")).ok
    assert game_status(table, game_id) == "active"
    abandoned = table.handle(cmd(ADMIN, "abandon"))
    assert abandoned.ok and abandoned.public == ["Mod abandoned the game."]
    assert game_status(table, game_id) == "abandoned"
    assert table.handle(cmd(ANA, "board")).reply.startswith("There is no game in this channel")


def test_the_host_abandons_a_running_game(started: Started) -> None:
    """The host ends the game; nobody can play on."""
    outcome = started.table.handle(cmd(ANA, "abandon"))
    assert outcome.ok and outcome.reply == "Game abandoned."
    assert game_status(started.table, started.game_id) == "abandoned"
    refused = started.table.handle(cmd(ANA, "play", "keyper 1"))
    assert not refused.ok and "There is no game in this channel" in refused.reply


def test_settings_are_admin_only_and_become_new_tables_defaults(table: Table) -> None:
    """An admin sets the server's joiner deadline and reminder interval; new tables there use them."""
    refused = table.handle(cmd(ANA, "settings", options={"decision_minutes": 30}))
    assert not refused.ok and refused.reply == "Only a server admin can change Keywood's settings."
    done = table.handle(cmd(ADMIN, "settings", options={"decision_minutes": 30, "reminder_hours": 2}))
    assert done.ok and done.reply == "Decisions outside one's turn: 30 minutes to answer; reminders every 2 hours."
    shown = table.handle(cmd(ADMIN, "settings"))
    assert shown.ok and shown.reply == done.reply
    start_game(table)
    assert table.due(T0 + timedelta(minutes=119)) == []
    [reminder] = table.due(T0 + timedelta(minutes=121))
    assert reminder.public == ["Reminder: waiting for Ana to take a turn."]
    opened = table.handle(cmd(ANA, "play", "play green 1.pig")).opened
    assert {note.deadline for note in opened} == {T0 + timedelta(minutes=30)}
    other = start_game(table, where=Where("guild-2", "channel-1"))
    assert other.game_id is not None
    opened = table.handle(cmd(ANA, "play", "play green 1.pig", where=Where("guild-2", "channel-1"))).opened
    assert {note.deadline for note in opened} == {T0 + timedelta(minutes=720)}, "another server keeps defaults"


def test_table_options_override_the_servers_defaults(table: Table) -> None:
    """new's own joiner deadline wins over the server setting."""
    assert table.handle(cmd(ADMIN, "settings", options={"decision_minutes": 30})).ok
    start_game(table, decision_minutes=5)
    opened = table.handle(cmd(ANA, "play", "play green 1.pig")).opened
    assert {note.deadline for note in opened} == {T0 + timedelta(minutes=5)}


# undo


def views(game: Started) -> list[dict[str, Any]]:
    """The public view and every seat's private view of the stored state."""
    state = game.state()
    return [GAME.view(state, None)] + [GAME.view(state, seat) for seat in range(3)]


def test_undo_restores_the_previous_state_and_keeps_the_row_flagged(invited: Started) -> None:
    """Ana takes a pig and still has one to take: undo gives back exactly the state before, the log keeps the
    taken-back row marked undone, and the replay still matches."""
    invited.play(BEN, "decline")
    invited.play(CLEO, "decline")
    before, version = views(invited), invited.version()
    live = log_rows(invited.table, invited.game_id)
    invited.play(ANA, "take pig")
    assert views(invited) != before
    outcome = invited.table.handle(cmd(ANA, "undo"))
    assert outcome.ok and outcome.reply == "Undone."
    assert outcome.public[0] == "Ana takes back 'take pig'."
    assert outcome.mention == [ANA.user_id]
    assert views(invited) == before
    assert invited.version() > version and outcome.version == invited.version()
    assert log_rows(invited.table, invited.game_id) == live
    everything = log_rows(invited.table, invited.game_id, include_undone=True)
    assert everything[:-1] == live and everything[-1][1:] == (0, ANA.user_id, "take pig", True)
    assert invited.table.verify(invited.game_id)[0] == "same"
    again = invited.play(ANA, "take pig")
    assert again.ok and log_rows(invited.table, invited.game_id)[-1][0] == everything[-1][0] + 1


def test_undo_of_a_keyflower_bid_before_its_count_names_no_colour(table: Table) -> None:
    """Issue 39 (Keyflower reference §3, F-7: the workers stay behind the screen until they are placed): `bid
    alehouse yellow` waits for its count; taken back then, the channel hears only the bid's public notation
    ('bid alehouse'), never the colour Ana would have bid with, and the log keeps nothing of it."""
    steps = [cmd(ANA, "new", "keyflower", options={"seed": 12}), cmd(BEN, "join"), cmd(CLEO, "join"),
             cmd(ANA, "start")]
    assert all(table.handle(step).ok for step in steps)
    bid = table.handle(cmd(ANA, "play", "bid alehouse yellow"))
    assert bid.ok and bid.reply == "Done: bid alehouse yellow."
    undone = table.handle(cmd(ANA, "undo"))
    assert undone.ok, undone.reply
    assert undone.public[0] == f"Ana takes back '{KEYFLOWER.public_notation(read('bid alehouse yellow'))}'."
    assert "yellow" not in undone.public[0] and undone.public[0].startswith("Ana takes back 'bid alehouse")
    assert table.handle(cmd(BEN, "log")).reply == "Nothing has happened yet."


def test_undo_takes_back_only_the_last_action(invited: Started) -> None:
    """After one undo, the action before it (someone else's) stands."""
    invited.play(BEN, "decline")
    invited.play(CLEO, "decline")
    invited.play(ANA, "take pig")
    assert invited.table.handle(cmd(ANA, "undo")).ok
    before = dump(invited.db)
    second = invited.table.handle(cmd(ANA, "undo"))
    assert not second.ok
    assert second.reply == "You can only take back your own last action, and only before anyone else acts."
    assert dump(invited.db) == before


def test_undo_of_someone_elses_action_is_refused(invited: Started) -> None:
    """Ben cannot take back Ana's play, nor Cleo Ben's decline."""
    before = dump(invited.db)
    refused = invited.table.handle(cmd(BEN, "undo"))
    assert not refused.ok and "only take back your own last action" in refused.reply
    invited.play(BEN, "decline")
    before = dump(invited.db)
    refused = invited.table.handle(cmd(CLEO, "undo"))
    assert not refused.ok and "only take back your own last action" in refused.reply
    assert dump(invited.db) == before


def test_no_undo_once_play_has_passed(invited: Started) -> None:
    """Ana's play opened invitations: Ben must answer now, so Ana's play stands."""
    before = dump(invited.db)
    refused = invited.table.handle(cmd(ANA, "undo"))
    assert not refused.ok and refused.reply == "Play has passed to another player; that action stands."
    assert dump(invited.db) == before


def test_no_undo_of_a_timed_out_answer(invited: Started) -> None:
    """Answers given by the clock are not the player's to take back."""
    invited.play(BEN, "decline")
    invited.table.due(T0 + timedelta(days=1))
    refused = invited.table.handle(cmd(CLEO, "undo"))
    assert not refused.ok and "only take back your own last action" in refused.reply


def find_random_draw(seed: int) -> tuple[list[tuple[int, str]], int]:
    """In a seeded random 3-player game, the first action after which its player still acts although the
    generator moved (a season ended: boats were dealt and tiles drawn). Returns (actions, its index)."""
    befores: list[Any] = []
    _, record = random_playout(GAME, ["Ana", "Ben", "Cleo"], seed, on_step=lambda s, *_: befores.append(clone(s)))
    for i, (seat, _) in enumerate(record.actions[:-1]):
        before, after = befores[i], befores[i + 1]
        if seat in GAME.to_act(after) and before.rng != after.rng:
            return record.actions, i
    raise AssertionError("no such action in this game")


def test_no_undo_past_a_random_draw(table: Table, database: Database) -> None:
    """The action that ended the season dealt new boats and refilled the display: its player, who must now
    choose a display, cannot take it back."""
    actions, index = find_random_draw(1)
    game_id = start_game(table, seed=1).game_id or 0
    players = (ANA, BEN, CLEO)
    for seat, text in chosen_moves(GAME, Playout(["Ana", "Ben", "Cleo"], 1, {}, actions[: index + 1])):
        outcome = table.handle(cmd(players[seat], "play", text))
        assert outcome.ok, outcome.reply
    seat = actions[index][0]
    state, _ = read_state(table, game_id)
    assert seat in GAME.to_act(state)
    before = dump(database)
    refused = table.handle(cmd(players[seat], "undo"))
    assert not refused.ok
    assert refused.reply == "That action drew something at random or revealed something hidden; it cannot be undone."
    assert dump(database) == before


def test_undo_before_the_start_and_without_a_game(table: Table) -> None:
    """Nothing to undo in a lobby or an empty channel."""
    assert table.handle(cmd(ANA, "undo")).reply.startswith("There is no game in this channel")
    assert table.handle(cmd(ANA, "new", "keyper")).ok
    assert table.handle(cmd(ANA, "undo")).reply.startswith("The game has not started yet")


def test_undo_with_an_empty_log(started: Started) -> None:
    """Right after the start there is nothing of Ana's to take back."""
    refused = started.table.handle(cmd(ANA, "undo"))
    assert not refused.ok and "only take back your own last action" in refused.reply
