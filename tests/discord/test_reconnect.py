"""Issue 41, item 3: Keywood rides out a dropped gateway and an outage of Discord while it runs. discord.py (the
real one, against the fake Discord) RESUMEs a dropped session, which is no new login (Discord counts logins, 1,000
a day); through an outage it tries again after growing, jittered pauses (its ExponentialBackoff, up to about 17
minutes), each refused try costing no login, and logs in once when Discord answers again. The game plays on and
nothing is posted twice."""

from __future__ import annotations

from tests.discord import Env


def identifies(env: Env) -> int:
    """How many times the bot logged in (IDENTIFY) on the fake's gateway."""
    return sum(f.get("op") == 2 for c in env.fake.gateway_connections for f in c.received)


async def test_a_dropped_gateway_is_resumed_and_an_outage_ridden_out_with_one_login(env: Env) -> None:
    """The gateway closes (code 4000) twice: the bot RESUMEs its session. Then it closes into an outage in which
    every new connection is refused: the bot tries again with pauses, and once the outage ends it logs in once
    more and answers commands; the channel holds each message once."""
    await env.start_game()
    fake = env.fake
    first = fake.connected_sessions()[0].id
    for _ in range(2):
        await fake.close_gateway(4000)
        await fake.wait_for(lambda: [s.id for s in fake.connected_sessions()] == [first], timeout=30)
    posted = [m.content for m in env.public()]
    fake.gateway_down = True
    await fake.close_gateway(4000)
    await fake.wait_for(lambda: fake.gateway_refusals >= 2, timeout=60)  # tried again, paused, tried again
    assert not fake.connected_sessions()
    assert identifies(env) == 1, "the two drops were resumed, and a refused try is no login"
    fake.gateway_down = False
    await fake.wait_for(lambda: len(fake.connected_sessions()) == 1, timeout=60)
    assert identifies(env) == 2
    env.clients += 1  # Env.check_discord_rules, after the test, counts one login per start: here one more
    board = await env.run("ben", "board")
    assert board.ephemeral and "Board 1" in board.content and board.filenames == ["table.png"], board.content
    assert [m.content for m in env.public()] == posted, "nothing was posted again after the reconnects"
