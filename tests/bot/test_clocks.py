"""Turn clocks through the real Table on a SQLite file (issue "Keep games moving"): a pace per decision chosen at
`new` and changed by the host, a warning before it runs out, and each consequence when it does (the stand-in plays,
the seat is offered to substitutes, the host is asked); `away` pausing one's own clock within the table's allowance;
a restart in the middle; and a 4-player game whose fourth player never answers still reaching its end.

Seed 7 with Ana, Ben and Cleo: Ana (the host) acts first; her Farmyard on plot f7, paid with stone, hands the turn
to Ben.
"""

from __future__ import annotations

import json
import random
from datetime import timedelta
from pathlib import Path

from bot.store import Store
from bot.table import STANDIN_AUTHOR, Table, Who
from engine.keyper import GAME
from tests.bot.helpers import (
    ANA,
    BEN,
    CLEO,
    DEV,
    STRANGER,
    T0,
    cmd,
    dump,
    game_status,
    log_rows,
    read_state,
    start_game,
    url,
)
from tests.quick import QUICK_STANDIN

HOUR = timedelta(hours=1)
EVE = Who("u-eve", "Eve")


def quick_table(db_path: Path) -> Table:
    """A Table whose stand-in thinks briefly and the same way every run."""
    return Table(Store(url(db_path)), images=False, standin_budget=QUICK_STANDIN)


def to_act(table: Table, game_id: int) -> list[int]:
    """The seats that must act in the stored game."""
    return GAME.to_act(read_state(table, game_id)[0])


FIRST_TURN = ("play orange f7 build farmyard", "pay stone")  # Ana's first turn, after which Ben must act


def bens_turn(table: Table, **options: object) -> int:
    """A clocked seed-7 game in which Ana has played her first turn at T0, so Ben's clock starts at T0; returns the
    game id."""
    opened = start_game(table, **{"clock_hours": 24, **options})
    assert opened.game_id is not None
    for text in FIRST_TURN:
        assert table.handle(cmd(ANA, "play", text)).ok
    assert to_act(table, opened.game_id) == [1]
    return opened.game_id


def test_a_player_may_have_the_standin_play_their_own_decision(db_path: Path) -> None:
    """`standin` with no name: the stand-in plays the caller's decision (and the rest of the turn), logged as its."""
    table = quick_table(db_path)
    game_id = start_game(table).game_id
    asked = table.handle(cmd(ANA, "standin"))
    assert asked.ok and asked.reply == "The stand-in played for Ana."
    assert asked.public[0] == "Ana asks Keywood's stand-in to play for their own seat."
    assert asked.public[1].startswith("Keywood's stand-in plays for Ana: ")
    assert game_id is not None and 0 not in to_act(table, game_id)
    assert {author for _, seat, author, _, _ in log_rows(table, game_id)} == {STANDIN_AUTHOR}


def test_a_clock_warns_once_then_the_standin_plays_that_decision(db_path: Path) -> None:
    """The clock of a 24-hour table warns Ana with 6 hours left, once; at 24 hours the stand-in plays her turn, logged
    as the stand-in's and marked so in the log; Ben's clock starts then."""
    table = quick_table(db_path)
    game_id = start_game(table, clock_hours=24).game_id
    assert game_id is not None
    assert table.due(T0 + 17 * HOUR) == []
    [warning] = table.due(T0 + 18 * HOUR)
    assert warning.public == ["Ana, your clock runs out in 6 hours: you are to take a turn."]
    assert warning.mention == [ANA.user_id]
    assert table.due(T0 + 23 * HOUR) == []
    [played] = table.due(T0 + 24 * HOUR)
    assert played.public[0] == "Ana's clock ran out (1 day for a decision)."
    assert played.public[1].startswith("Keywood's stand-in plays for Ana: ")
    assert played.public[-1] == "Waiting for Ben to take a turn." and played.mention == [BEN.user_id]
    rows = log_rows(table, game_id)
    assert rows and {author for _, seat, author, _, _ in rows} == {STANDIN_AUTHOR}
    log = table.handle(cmd(CLEO, "log")).reply
    assert log.startswith("1. Ana (Keywood's stand-in): ")
    assert table.handle(cmd(CLEO, "clock", at=T0 + 24 * HOUR)).reply.endswith("Ben's clock runs out in 1 day.")


def test_a_restart_between_the_warning_and_the_end_warns_once_and_catches_up(db_path: Path) -> None:
    """The clock lives in the database: a new Table on the same file does not warn again, and a clock that ran out
    while the bot was down is acted on at the first tick."""
    first = quick_table(db_path)
    game_id = start_game(first, clock_hours=24).game_id
    [_] = first.due(T0 + 18 * HOUR)
    first.store.close()
    second = quick_table(db_path)
    assert second.due(T0 + 20 * HOUR) == []
    [played] = second.due(T0 + 3 * 24 * HOUR)
    assert played.public[0] == "Ana's clock ran out (1 day for a decision)."
    assert game_id is not None and 0 not in to_act(second, game_id)
    second.store.close()


def test_substitutes_volunteer_and_the_host_confirms_one(db_path: Path) -> None:
    """on_timeout=sub: when Ben's clock runs out the channel invites substitutes and mentions the host; a player
    cannot volunteer, a stranger can (once); the host confirms her and the seat is hers."""
    table = quick_table(db_path)
    game_id = bens_turn(table, on_timeout="sub")
    [_] = table.due(T0 + 18 * HOUR)
    [notice] = table.due(T0 + 24 * HOUR)
    assert notice.public == ["Ben's clock ran out (to take a turn). Anyone not playing here can offer to take over "
                             "Ben's seat with `sub`; Ana, the host, confirms with `sub NAME`. Ben can still play "
                             "meanwhile."]
    assert notice.mention == [ANA.user_id, BEN.user_id]
    assert to_act(table, game_id) == [1] and log_rows(table, game_id)[-1][1] == 0  # nothing was played for Ben
    before = dump(db_path)[0]
    for who, arg, refusal in (
            (CLEO, "", "You already play in this game: only someone not playing can offer to take a seat, and only "
                       "the host confirms them."),
            (EVE, "Cleo", "Cleo's seat is not offered to substitutes."),
            (ANA, "Eve", "'Eve' has not offered to take a seat (offers: nobody yet)."),
    ):
        refused = table.handle(cmd(who, "sub", arg))
        assert not refused.ok and refused.reply == refusal
    assert dump(db_path)[0] == before
    offer = table.handle(cmd(EVE, "sub"))
    assert offer.public == ["Eve offers to take over Ben's seat; the host confirms with `sub Eve`."]
    assert offer.mention == [ANA.user_id]
    again = table.handle(cmd(EVE, "sub"))
    assert not again.ok and again.reply == "You have already offered to take this seat; the host has been asked."
    assert table.handle(cmd(ANA, "sub")).reply == "Offers: Eve for Ben's seat. Confirm one with `sub NAME`."
    [reminder] = table.due(T0 + 48 * HOUR)
    assert reminder.public[0].startswith("Reminder: Ben's clock has run out (to take a turn).")
    taken = table.handle(cmd(ANA, "sub", "eve", at=T0 + 49 * HOUR))
    assert taken.ok and taken.public == ["Eve takes over Ben's seat."]
    assert table.handle(cmd(CLEO, "clock", at=T0 + 49 * HOUR)).reply.endswith("Eve's clock runs out in 1 day.")
    assert table.due(T0 + 66 * HOUR) == []  # a whole clock for the new holder: no reminder of the old one
    legal = GAME.legal_actions(read_state(table, game_id)[0], 1)
    refused = table.handle(cmd(BEN, "play", GAME.format(legal[0])))
    assert not refused.ok and "handed to Eve" in refused.reply
    assert table.handle(cmd(EVE, "play", GAME.format(legal[0]))).ok
    late = table.handle(cmd(STRANGER, "sub"))
    assert not late.ok and late.reply == "No seat here is looking for a substitute."


def test_a_player_who_comes_back_takes_the_seat_off_offer(db_path: Path) -> None:
    """on_timeout=sub: Ben plays after his clock ran out; his seat is no longer offered and the volunteer cannot
    be confirmed."""
    table = quick_table(db_path)
    game_id = bens_turn(table, on_timeout="sub")
    table.due(T0 + 18 * HOUR)
    table.due(T0 + 24 * HOUR)
    assert table.handle(cmd(EVE, "sub")).ok
    legal = GAME.legal_actions(read_state(table, game_id)[0], 1)
    back = table.handle(cmd(BEN, "play", GAME.format(legal[0]), at=T0 + 25 * HOUR))
    assert back.ok and back.public[0] == "Ben is back, so their seat is no longer offered to substitutes."
    refused = table.handle(cmd(ANA, "sub", "Eve"))
    assert not refused.ok and refused.reply.startswith("'Eve' has not offered to take a seat")


def test_the_host_is_asked_and_may_have_the_standin_play(db_path: Path) -> None:
    """on_timeout=host: the host is asked (and asked again every reminder_hours); only the host may have the
    stand-in play another's decision, and only for a seat that must act."""
    table = quick_table(db_path)
    game_id = bens_turn(table, on_timeout="host")
    table.due(T0 + 18 * HOUR)
    [asked] = table.due(T0 + 24 * HOUR)
    assert asked.public == ["Ben's clock ran out (to take a turn). Ana, as host you decide: `standin Ben` lets "
                            "Keywood's stand-in play for them now, `kick` hands the seat to someone else, or `clock` "
                            "gives everyone more time. Ben can still play meanwhile."]
    assert asked.mention == [ANA.user_id, BEN.user_id]
    assert table.due(T0 + 47 * HOUR) == []
    [again] = table.due(T0 + 48 * HOUR)
    assert again.public[0].startswith("Reminder: Ben's clock has run out")
    before = dump(db_path)[0]
    for who, arg, refusal in (
            (CLEO, "Ben", "Only the host or a server admin can ask the stand-in to play for another player."),
            (ANA, "Cleo", "Cleo has nothing to decide now, so the stand-in has nothing to play."),
            (ANA, "Zed", "No player here is called 'Zed'. The players: Ana, Ben and Cleo."),
            (STRANGER, "", "You are not a player in this game."),
    ):
        refused = table.handle(cmd(who, "standin", arg))
        assert not refused.ok and refused.reply == refusal
    assert dump(db_path)[0] == before
    played = table.handle(cmd(ANA, "standin", "ben", at=T0 + 49 * HOUR))
    assert played.ok and played.public[0] == "Ana asks Keywood's stand-in to play for Ben."
    assert played.public[1].startswith("Keywood's stand-in plays for Ben: ")
    bens = [author for _, seat, author, _, _ in log_rows(table, game_id) if seat == 1]
    assert bens and set(bens) == {STANDIN_AUTHOR}
    assert 1 not in to_act(table, game_id)


def test_away_pauses_ones_own_clock_within_the_allowance(db_path: Path) -> None:
    """`away 12h` moves Ana's warning and end on by 12 hours; more than the allowance left is refused and changes
    nothing; `away off` gives the unused time back."""
    table = quick_table(db_path)
    game_id = start_game(table, clock_hours=24, away_hours=36).game_id
    away = table.handle(cmd(ANA, "away", "12h"))
    assert away.ok and away.public == ["Ana is away for 12 hours: their clock is paused until then."]
    assert away.reply == "Your clock is paused for 12 hours. You have 1 day of time away left."
    assert table.due(T0 + 29 * HOUR) == []
    before = dump(db_path)[0]
    for arg, refusal in (
            ("2d", "You may pause your clock for 1 day more in this game (the table allows 1 day 12 hours in all); "
                   "nothing was changed."),
            ("soon", "'soon' is not a duration: write it as 12h, 2d, 1d6h or 90m. For example: `away 12h`."),
    ):
        refused = table.handle(cmd(ANA, "away", arg, at=T0 + HOUR))
        assert not refused.ok and refused.reply == refusal
    assert dump(db_path)[0] == before
    back = table.handle(cmd(ANA, "away", "off", at=T0 + 2 * HOUR))
    assert back.ok and back.reply == "Your clock runs again. You have 1 day 10 hours of time away left."
    assert table.handle(cmd(BEN, "clock", at=T0 + 2 * HOUR)).reply.endswith("Ana's clock runs out in 1 day.")
    [warning] = table.due(T0 + 20 * HOUR)
    assert warning.public == ["Ana, your clock runs out in 6 hours: you are to take a turn."]
    assert table.handle(cmd(ANA, "away", "2h", at=T0 + 21 * HOUR)).ok  # warned already: not warned again
    assert table.due(T0 + 28 * HOUR - timedelta(minutes=1)) == []
    [played] = table.due(T0 + 28 * HOUR)
    assert played.public[0] == "Ana's clock ran out (1 day for a decision)."
    assert game_id is not None


def test_a_decision_opened_while_away_starts_its_clock_when_the_player_is_back(db_path: Path) -> None:
    """Ben is away for 2 days when his turn comes: his clock runs from the end of his time away."""
    table = quick_table(db_path)
    start_game(table, clock_hours=24)
    assert table.handle(cmd(BEN, "away", "2d")).ok
    for text in FIRST_TURN:
        assert table.handle(cmd(ANA, "play", text)).ok
    shown = table.handle(cmd(CLEO, "clock")).reply.splitlines()
    assert shown[1:] == ["Ben's clock runs out in 3 days.", "Ben is away for 2 days more."]


def test_away_is_for_players_at_a_clocked_table(table: Table) -> None:
    """Without a clock there is nothing to pause; a stranger is not a player."""
    start_game(table)
    refused = table.handle(cmd(ANA, "away", "1d"))
    assert not refused.ok and refused.reply == ("No clock runs at this table, so there is nothing to pause; the host "
                                                "can set one with `clock`.")
    stranger = table.handle(cmd(STRANGER, "away", "1d"))
    assert not stranger.ok and stranger.reply == "You are not a player in this game."


def test_the_host_changes_the_clock_and_open_decisions_follow(table: Table, db_path: Path) -> None:
    """Only the host sets the clock; a new pace restarts the open decisions' clocks; off brings back plain
    reminders; bad values are refused with what the clock takes."""
    game_id = start_game(table).game_id
    assert table.handle(cmd(BEN, "clock")).reply.startswith("No clock: ")
    before = dump(db_path)[0]
    for who, arg, refusal in (
            (BEN, "12h", "Only the host or a server admin can change the clock."),
            (ANA, "soon", "'soon' is not a duration: write it as 12h, 2d, 1d6h or 90m. The clock takes a pace "
                          "(12h, 2d), off, and what happens when it runs out: standin, sub, host."),
            (ANA, "90m", "The clock's pace is whole hours, from 1h to 14d."),
    ):
        refused = table.handle(cmd(who, "clock", arg))
        assert not refused.ok and refused.reply == refusal
    assert dump(db_path)[0] == before
    changed = table.handle(cmd(ANA, "clock", "12h host"))
    assert changed.ok and changed.public[0].startswith("Ana set the clock. Clock: 12 hours for each decision, with a "
                                                       "warning when 3 hours are left; when it runs out, the host is "
                                                       "asked what to do.")
    [warning] = table.due(T0 + 9 * HOUR)
    assert warning.public == ["Ana, your clock runs out in 3 hours: you are to take a turn."]
    assert table.handle(cmd(ANA, "clock", "off", at=T0 + 10 * HOUR)).ok
    [reminder] = table.due(T0 + 34 * HOUR)
    assert reminder.public == ["Reminder: waiting for Ana to take a turn."]
    assert game_id is not None and to_act(table, game_id) == [0]


def test_the_clock_is_chosen_at_new(table: Table) -> None:
    """clock_hours, on_timeout and away_hours are table options of every game, checked at `new`."""
    refused = table.handle(cmd(ANA, "new", "keyper", options={"on_timeout": "never"}))
    assert not refused.ok and refused.reply == "on_timeout must be one of standin, sub, host, not 'never'."
    opened = table.handle(cmd(ANA, "new", "keythedral", options={"clock_hours": 48, "on_timeout": "sub"}))
    assert opened.ok
    assert table.handle(cmd(BEN, "clock")).reply.startswith("Clock: 2 days for each decision")


def test_a_private_decision_says_when_its_clock_runs_out(table: Table) -> None:
    """A Keyflower turn (its choices are private, so it comes by message) carries the clock's end as its deadline
    and says what happens then."""
    steps = [cmd(ANA, "new", "keyflower", options={"seed": 4, "clock_hours": 24}), cmd(BEN, "join"),
             cmd(ANA, "start")]
    outcomes = [table.handle(step) for step in steps]
    assert all(o.ok for o in outcomes)
    [note] = outcomes[-1].opened
    assert note.deadline == T0 + 24 * HOUR
    assert ("Your clock runs out at the deadline; then Keywood's stand-in plays that decision (`away` pauses it)."
            in note.text)


def test_a_four_player_game_with_a_vanished_player_still_finishes(db_path: Path) -> None:
    """Dev never answers: every decision of his is played by the stand-in when his clock runs out (or takes its
    default), and the game reaches its final score with his moves marked in the log."""
    table = quick_table(db_path)
    players = (ANA, BEN, CLEO, DEV)
    game_id = start_game(table, players, seed=11, clock_hours=24).game_id
    assert game_id is not None
    rng, moment, ticks = random.Random(5), T0, 0
    while game_status(table, game_id) == "active":
        state = read_state(table, game_id)[0]
        present = [s for s in GAME.to_act(state) if s != 3]
        if present:
            seat = present[0]
            action = rng.choice(GAME.legal_actions(state, seat))
            assert table.handle(cmd(players[seat], "play", GAME.format(action), at=moment)).ok
            continue
        moment, ticks = moment + 25 * HOUR, ticks + 1
        assert table.due(moment), "Dev's clock ran out but nothing happened"
    assert game_status(table, game_id) == "finished"
    devs = {author for _, seat, author, _, _ in log_rows(table, game_id) if seat == 3}
    assert devs and devs <= {STANDIN_AUTHOR, "timeout", "auto"} and STANDIN_AUTHOR in devs
    assert ticks > 5
    with table.store.transaction() as tx:
        summaries = [json.loads(r.payload)["text"] for r in tx.outbox_kinds(game_id, "public")]
    assert any("Dev's clock ran out" in text for text in summaries)
