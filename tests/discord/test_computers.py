"""Computer seats through the unmodified discord.py client and the fake Discord: one person opens a Keyflower table
with `computers:2`, starts it alone, and plays; Keywood's stand-in plays the two computer seats at once, says so in
the channel, and never sends them anything."""

from __future__ import annotations

from bot.table import COMPUTER
from tests.discord import MENTION, Env, sql
from tests.discord.test_outbox_decisions import settled


async def test_one_person_plays_keyflower_against_two_computers(env: Env) -> None:
    env.seed = 4
    opened = await env.run("ana", "new", {"game": "keyflower", "computers": 2})
    assert opened.content == "Table opened."
    await env.fake.wait_for(lambda: env.dms_noted("ana"))
    assert (await env.run("ana", "start")).content == "Game started."
    await settled(env)
    seats = sql(env.path, "SELECT seat, user_id, name FROM seats ORDER BY seat")
    assert seats == [(0, env.uid("ana"), "Ana"), (1, f"{COMPUTER}1", "Computer 1"), (2, f"{COMPUTER}2", "Computer 2")]
    last = env.public()[-1]
    assert "Waiting for Ana to take a turn." in last.content and MENTION.findall(last.content) == [env.uid("ana")]
    before = len(env.public())
    assert (await env.run("ana", "play", {"action": "pass"})).content == "Done: pass."
    await settled(env)
    said = "\n".join(m.content for m in env.public()[before:])
    assert "Ana passes." in said and "Keywood's stand-in plays for Computer " in said
    assert "Waiting for Ana" in env.public()[-1].content  # the computers have played their turns in between
    assert sql(env.path, f"SELECT COUNT(*) FROM outbox WHERE recipient LIKE '{COMPUTER}%'") == [(0,)]
    assert sql(env.path, "SELECT COUNT(*) FROM prompts WHERE seat IN (1, 2)") == [(0,)]
    authors = {a for (a,) in sql(env.path, "SELECT DISTINCT author_id FROM actions WHERE seat IN (1, 2)")}
    assert authors == {"standin"}
    since = (await env.run("ana", "log", {"since": "me"})).content  # what the computers did since Ana's pass
    assert since.startswith("Since your last move:\n") and "Computer " in since and "Ana:" not in since
