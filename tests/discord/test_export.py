"""/export through the unmodified discord.py client and the fake Discord: refused while the game runs, then, once it
has ended, the replay page comes as a file in a reply only the caller sees (issue "Keep games moving", replays)."""

from __future__ import annotations

from bot import games
from bot.table import Command, Where, Who
from tests.discord import Env
from tests.discord.test_outbox_decisions import settled


async def test_export_is_refused_mid_game_and_sent_privately_after_the_end(env: Env) -> None:
    env.seed = 2
    opened = await env.run("ana", "new", {"game": "tokens", "computers": 1})
    assert opened.content == "Table opened."
    await env.fake.wait_for(lambda: env.dms_noted("ana"))
    assert (await env.run("ana", "start")).content == "Game started."
    await settled(env)
    refused = await env.run("ben", "export")
    assert refused.ephemeral and refused.filenames == []
    assert refused.content.endswith("is still being played: only a finished game can be exported, since a replay of "
                                    "a game that has not ended could show what is still hidden.")
    assert env.bot is not None
    table, engine = env.bot.table, games.get("tokens").engine
    where, ana = Where(env.guild_id, str(env.games["id"])), Who(env.uid("ana"), "Ana")
    for _ in range(100):
        with table.store.transaction() as tx:
            row = tx.game(env.game_id())
            data = tx.snapshot(env.game_id())
        assert row is not None and data is not None
        if row.status == "finished":
            break
        state = engine.from_json(data)
        action = engine.legal_actions(state, 0)[0]
        assert table.handle(Command(where, ana, "play", engine.format(action))).ok
    await settled(env)
    posted = len(env.public())
    replay = await env.run("ben", "export")
    assert replay.ephemeral and replay.content.startswith("The replay of this Tokens game: ")
    assert replay.filenames == [f"keywood-game-{env.game_id()}.html"]
    assert replay.files[0].data.startswith(b"<!DOCTYPE html>")
    assert len(env.public()) == posted, "nothing was posted in the channel"
    env.check_discord_rules()
