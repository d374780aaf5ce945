"""Turn clocks through the unmodified discord.py client and the fake Discord (issue "Keep games moving"): the ticker
warns a player and then carries out what the table chose when the clock runs out (the stand-in plays, substitutes
are invited and the host confirms one, or the host is asked and has the stand-in play), across a restart; /away
pauses one's clock; a turn's message by DM carries the digest and the table image.

A clock's moments are real times here, so the tests move a prompt's deadline into the past, as time passing would.
"""

from __future__ import annotations

import json

from engine.keyper import GAME
from tests.discord import MENTION, Env, sql
from tests.discord.test_outbox_decisions import settled

PAST = "2000-01-01 00:00:00.000000"


def open_clock(env: Env, seat: int) -> int:
    """The id of the open, clocked prompt of a seat."""
    rows = sql(env.path, "SELECT id, payload FROM prompts WHERE game_id = ? AND seat = ? AND status = 'open'",
               env.game_id(), seat)
    found = [int(i) for i, payload in rows if "clock" in json.loads(payload)]
    assert len(found) == 1, rows
    return found[0]


async def time_passes(env: Env, seat: int) -> str:
    """Move the seat's clock to its next moment (its warning, then its end); returns what the ticker posted."""
    count = len(env.public())
    sql(env.path, "UPDATE prompts SET deadline = ? WHERE id = ?", PAST, open_clock(env, seat))
    posted = await env.wait_public(count + 1)
    await settled(env)
    return "\n".join(m.content for m in env.public()[count:len(posted)])


async def ana_plays_her_first_turn(env: Env) -> None:
    """Ana's Farmyard on plot f7, paid with stone: then Ben must act."""
    for action in ("play orange f7 build farmyard", "pay stone"):
        assert (await env.run("ana", "play", {"action": action})).content.startswith("Done")
    await settled(env)
    assert GAME.to_act(env.state()) == [1]


async def bens_clock_runs_out(env: Env, on_timeout: str) -> str:
    """A clocked game with the given consequence in which Ana has played and Ben's clock has been warned and then
    run out; returns what the channel was told when it ran out."""
    await env.start_game(clock_hours=24, on_timeout=on_timeout)
    await ana_plays_her_first_turn(env)
    await time_passes(env, 1)
    return await time_passes(env, 1)


async def test_the_standin_plays_when_a_clock_runs_out_even_across_a_restart(env: Env) -> None:
    await env.start_game(clock_hours=24)
    warning = await time_passes(env, 0)
    assert warning.startswith("Ana, your clock runs out in ") and ": you are to take a turn." in warning
    assert MENTION.findall(warning) == [env.uid("ana")]
    await env.restart()
    played = await time_passes(env, 0)
    assert played.startswith("Ana's clock ran out (1 day for a decision).\nKeywood's stand-in plays for Ana: ")
    assert MENTION.findall(played) == [env.uid("ben")]
    assert env.public()[-1].filenames == ["table.png"]
    assert {author for seat, author, _ in env.log() if seat == 0} == {"standin"}
    log = (await env.run("cleo", "log")).content
    assert log.startswith("1. Ana (Keywood's stand-in): ")
    assert 0 not in GAME.to_act(env.state())
    env.check_discord_rules()


async def test_a_substitute_volunteers_and_the_host_confirms(env: Env) -> None:
    invited = await bens_clock_runs_out(env, "sub")
    assert invited.startswith("Ben's clock ran out (to take a turn). Anyone not playing here can offer to take over "
                              "Ben's seat with `sub`")
    assert sorted(MENTION.findall(invited)) == sorted([env.uid("ana"), env.uid("ben")])
    refused = await env.run("cleo", "sub")
    assert refused.content.startswith("You already play in this game")
    offer = await env.run("zed", "sub")
    assert offer.content == "Offer made; the host has been asked."
    await settled(env)
    assert env.public()[-1].content.startswith("Zed offers to take over Ben's seat; the host confirms with `/sub Zed`.")
    assert (await env.run("ana", "sub", {"name": "Zed"})).content == "Seat handed over."
    await settled(env)
    assert "Zed takes over Ben's seat." in env.public()[-1].content
    action = GAME.format(GAME.legal_actions(env.state(), 1)[0])
    assert "handed to Zed" in (await env.run("ben", "play", {"action": action})).content
    assert (await env.run("zed", "play", {"action": action})).content.startswith("Done")
    env.check_discord_rules()


async def test_the_host_is_asked_and_has_the_standin_play(env: Env) -> None:
    asked = await bens_clock_runs_out(env, "host")
    assert asked.startswith("Ben's clock ran out (to take a turn). Ana, as host you decide: `standin Ben`")
    assert GAME.to_act(env.state()) == [1]
    refused = await env.run("cleo", "standin", {"player": env.world.members["ben"]})
    assert refused.content == "Only the host or a server admin can ask the stand-in to play for another player."
    played = await env.run("ana", "standin", {"player": env.world.members["ben"]})
    assert played.content == "The stand-in played for Ben."
    await settled(env)
    assert "Ana asks Keywood's stand-in to play for Ben." in "\n".join(m.content for m in env.public()[-2:])
    assert 1 not in GAME.to_act(env.state())
    env.check_discord_rules()


async def test_away_pauses_the_clock_and_the_clock_command_shows_it(env: Env) -> None:
    await env.start_game(clock_hours=24)
    before = sql(env.path, "SELECT deadline FROM prompts WHERE id = ?", open_clock(env, 0))
    away = await env.run("ana", "away", {"duration": "12h"})
    assert away.content == "Your clock is paused for 12 hours. You have 2 days 12 hours of time away left."
    after = sql(env.path, "SELECT deadline FROM prompts WHERE id = ?", open_clock(env, 0))
    assert after != before
    shown = (await env.run("ben", "clock")).content
    assert shown.startswith("Clock: 1 day for each decision") and "Ana is away for 12 hours more." in shown
    assert (await env.run("ben", "clock", {"pace": "12h"})).content == ("Only the host or a server admin can change "
                                                                         "the clock.")
    env.check_discord_rules()


async def test_a_turn_by_message_carries_the_digest_and_the_table_image(env: Env) -> None:
    """Keyflower's turns are private to offer, so they come by DM: Cleo's, after Ben (first at seed 4) has passed,
    lists what happened so far and carries the current table image."""
    await env.seat_players(seed=4, game="keyflower")
    assert (await env.run("ana", "start")).content == "Game started."
    await settled(env)
    dms = len(env.dms("cleo"))
    assert (await env.run("ben", "play", {"action": "pass"})).content == "Done: pass."
    await settled(env)
    turn = [m for m in env.dms("cleo")[dms:] if "you are to take a turn" in m.content]
    assert turn, [m.content for m in env.dms("cleo")[dms:]]
    assert "So far:" in turn[-1].content and "Ben: pass" in turn[-1].content
    assert turn[-1].filenames == ["table.png"]
    env.check_discord_rules()
