"""The outbox and the decisions end to end, through the unmodified discord.py client and the fake Discord.

Every message a command must send is an outbox row written with the command; the bot's sender delivers the rows
(after the command, and on every tick of the ticker, so also after a restart), each with a Discord nonce so that a
resend is not posted twice. These tests count what arrives where, exactly: one DM per decision, secret choices
never in the channel, a permanent failure reported once to the host, a transient one retried until it passes, a
message that can never be sent not holding up the next, a crash between commit and send delivered once after the
restart, a fresh database not mistaken for an old one, closed DMs tried once and again only after the table's
retry window, a seat handed over with its
decisions, a second game (the test game Tokens) played to its end with no bot code naming it, and /new built
from the registry.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

from bot import games
from bot.discord_app import HOW_TO_OPEN_DMS
from bot.store import Store
from bot.table import DM_RETRY, Command, Table, Where, Who
from engine.keyper import GAME
from engine.playout import chosen_moves, random_playout
from tests.discord import (
    ANY_TIMESTAMP,
    MENTION,
    PLAYERS,
    PNG_MAGIC,
    SEED,
    SUPPRESS_NOTIFICATIONS,
    TIMESTAMP,
    Env,
    dump,
    sql,
)
from tests.discord_fake import FakeMessage
from tests.toygame import GAME as TOKENS

# A random play-out of the seed-7 game (Ana, Ben, Cleo) choosing with this seed ends spring with Cleo alone able to
# hold a fair: the fairs decision is hers only, and its choices name her face-down fair tile. Its first twenty
# actions invite Cleo three times, the second time (its ninth action) to join with grey, white, or decline.
FAIRS_CHOICE_SEED = 4078


# reading
def custom_ids(messages: list[FakeMessage]) -> list[str]:
    """Every button's custom_id on the messages."""
    return [c for m in messages for c in m.custom_ids]


def sent_dms(env: Env, name: str) -> list[FakeMessage]:
    """The DMs the bot sent a player on its own (not its answers to the player's clicks there)."""
    return [m for m in env.dms(name) if m.source == "channel"]


def decision_dms(env: Env, name: str) -> list[FakeMessage]:
    """A player's DMs that carry decision buttons (kwi:{prompt}:{answer})."""
    return [m for m in sent_dms(env, name) if any(c.startswith("kwi:") for c in m.custom_ids)]


def prompt_of(message: FakeMessage) -> int:
    """The prompt a decision message answers."""
    (prompt,) = {int(c.split(":")[1]) for c in message.custom_ids if c.startswith(("kwi:", "kwo:"))}
    return prompt


def button(message: FakeMessage, label: str) -> str:
    """The custom_id of a message's button ending with the label."""
    return next(c for c in message.custom_ids if c.endswith(f":{label}"))


def pings(env: Env, name: str, messages: list[FakeMessage]) -> int:
    """How many of the messages ping a player (a mention the request allowed)."""
    uid = env.uid(name)
    return sum(1 for m in messages if uid in MENTION.findall(m.content)
               and uid in [str(u) for u in env.request_of(m)["allowed_mentions"].get("users", [])])


def dm_posts(env: Env, name: str) -> list[int]:
    """The statuses of every message POST the bot made to a player's DM channel (delivered or refused)."""
    cid = env.fake.dm_channel_id(env.uid(name))
    return [r.status for r in env.fake.requests_to("POST", rf"/channels/{cid}/messages")] if cid else []


def outbox(env: Env, kind: str | None = None) -> list[tuple[int, str | None, str, str]]:
    """(id, recipient, kind, status) of the outbox rows (of one kind), oldest first."""
    rows = sql(env.path, "SELECT id, recipient, kind, status FROM outbox ORDER BY id")
    return [(int(i), r, str(k), str(s)) for i, r, k, s in rows if kind is None or k == kind]


async def settled(env: Env) -> None:
    """Wait until the outbox holds nothing the sender has yet to try."""
    await env.fake.wait_for(lambda: not sql(env.path, "SELECT 1 FROM outbox WHERE status = 'pending'"), timeout=10)


# playing
async def play(env: Env, name: str, action: str) -> None:
    """/play by a player, which must be accepted."""
    reply = await env.run(name, "play", {"action": action})
    assert reply.content.startswith(("Done", "Answer kept")), (name, action, reply.content)


def keyper_script(phase: str) -> list[tuple[int, str]]:
    """The actions (seat, notation) of the seed-7 game played with FAIRS_CHOICE_SEED up to the first state in phase
    (fairs: the end of spring, where Cleo alone may hold a fair; choose_display: the start of summer)."""
    moments: list[int] = []
    steps: list[int] = []

    def note(state: Any, seat: int, action: Any) -> None:
        if state.phase == phase and not moments:
            moments.append(len(steps))
        steps.append(seat)

    _, record = random_playout(GAME, [n.title() for n in PLAYERS], SEED, choice_seed=FAIRS_CHOICE_SEED, on_step=note)
    assert moments, f"the play-out no longer reaches {phase}: search another FAIRS_CHOICE_SEED"
    record.actions = record.actions[:moments[0]]
    return chosen_moves(GAME, record)


async def play_script(env: Env, actions: list[tuple[int, str]]) -> None:
    """Each action by its seat's player through /play, one after another."""
    for seat, notation in actions:
        await play(env, PLAYERS[seat], notation)


# the tests
async def test_fairs_left_to_one_player_are_asked_by_dm_never_in_the_channel(env: Env) -> None:
    await env.start_game()
    await play_script(env, keyper_script("fairs"))
    state = env.state()
    assert state.phase == "fairs" and GAME.to_act(state) == [2]
    cleo_fairs = list(state.players[2].hidden_fairs)
    holds = [GAME.format(a) for a in GAME.legal_actions(state, 2)]
    assert holds == ["hold spring-2", "done"] and "spring-2" in cleo_fairs

    # the channel says whose decision it is, with no buttons and no name of her face-down tiles
    await settled(env)
    season_end = env.public()[-1]
    assert "The spring season ends." in season_end.content and "Waiting for Cleo to hold fairs." in season_end.content
    assert season_end.custom_ids == [] and MENTION.findall(season_end.content) == [env.uid("cleo")]
    channel = env.fake.messages(env.games["id"], include_ephemeral=False)
    assert not any(c.split(":")[-1].startswith("hold") for c in custom_ids(channel))
    for fair in cleo_fairs:
        assert not any(fair in m.content for m in channel), fair
        assert not any(fair in str(r.json) for r in env.fake.requests_to("POST", rf"/channels/{env.games['id']}/.*"))

    # she has them by DM, once, with her hand, and answers there
    (dm,) = [m for m in decision_dms(env, "cleo") if "hold fairs" in m.content]
    prompt = prompt_of(dm)
    assert dm.custom_ids == [f"kwi:{prompt}:hold spring-2", f"kwi:{prompt}:done"]
    assert "spring-2" in dm.content and not ANY_TIMESTAMP.search(dm.content), "no default: the deadline only reminds"
    assert not any("hold fairs" in m.content for name in ("ana", "ben") for m in sent_dms(env, name))
    count = len(env.public())
    held = await env.click_reply("cleo", button(dm, "hold spring-2"), dm, dm=True)
    assert held.ephemeral and held.content == "Done: hold spring-2.", held.content
    assert env.log()[-1] == (2, env.uid("cleo"), "hold spring-2")
    await settled(env)
    assert len(env.public()) == count + 1 and "spring-2" in env.public()[-1].content  # now shown: held openly


async def test_a_kicked_players_stale_answer_is_refused_and_the_seat_follows_its_new_holder(env: Env) -> None:
    await env.start_game()
    turn = await env.invite()
    await settled(env)
    (ben_dm,) = decision_dms(env, "ben")
    zed_dms = len(sent_dms(env, "zed"))

    # the kick: one channel message pinging both, and Zed told privately what he holds, with Ben's open decision
    count = len(env.public())
    handed = await env.run("ana", "kick", {"player": env.world.members["ben"],
                                           "replacement": env.world.members["zed"]})
    assert handed.content == "Seat handed over."
    await settled(env)
    (kick,) = env.public()[count:]
    assert kick.content.startswith("Zed takes over Ben's seat.")
    assert sorted(MENTION.findall(kick.content)) == sorted([env.uid("ben"), env.uid("zed")])
    assert sorted(str(u) for u in env.request_of(kick)["allowed_mentions"]["users"]) == sorted(
        [env.uid("ben"), env.uid("zed")])
    told, invited = sent_dms(env, "zed")[zed_dms:]
    assert "You now hold Ben's seat in this Keyper game. Waiting for Zed to join or decline." in told.content
    assert "Zed, your fair tiles: spring-3, summer-6, autumn-4" in told.content and told.custom_ids == []
    assert "Zed, you are to join or decline." in invited.content and TIMESTAMP.search(invited.content)
    prompt = prompt_of(invited)
    assert prompt == prompt_of(ben_dm)  # the seat's decision, not a new one
    assert invited.custom_ids == [f"kwi:{prompt}:{a}" for a in ("join green", "join white", "decline")]
    assert len(decision_dms(env, "ben")) == 1 and len(decision_dms(env, "cleo")) == 1  # nobody else asked again

    # Ben's old DM button and his channel button are refused and change nothing
    before, posted = dump(env.path), len(env.fake.all_messages())
    stale = await env.click_reply("ben", button(ben_dm, "join green"), ben_dm, dm=True)
    assert stale.ephemeral and stale.content == "This seat has been handed to Zed; you no longer play it."
    channel_button = await env.click_reply("ben", button(turn, "join green"), turn)
    assert channel_button.ephemeral and "Your seat was handed to Zed" in channel_button.content
    by_slash = await env.run("ben", "play", {"action": "join green"})
    assert "Your seat was handed to Zed" in by_slash.content
    assert dump(env.path) == before
    assert len([m for m in env.fake.all_messages() if not m.ephemeral]) == len(
        [m for m in env.fake.all_messages()[:posted] if not m.ephemeral])

    # the texts use Zed's name: his hand, the table, the log
    hand = await env.run("zed", "hand")
    assert hand.ephemeral and hand.content.startswith("Zed, your fair tiles: spring-3, summer-6, autumn-4")
    assert "Ben" not in hand.content

    # Zed answers with his DM button: applied as his, the channel names him
    count = len(env.public())
    joined = await env.click_reply("zed", button(invited, "join green"), invited, dm=True)
    assert joined.ephemeral and joined.content == "Done: join green."
    assert env.log()[-1] == (1, env.uid("zed"), "join green")
    await settled(env)
    (after,) = env.public()[count:]
    assert "Zed" in after.content and "Ben" not in after.content, after.content
    log = await env.run("mod", "log")
    assert "Zed: join green" in log.content and "Ben" not in log.content, log.content

    # on to the seat's own turn: the turn message waits for Zed and pings him
    while (state := env.state()).phase != "turn" or GAME.to_act(state) != [1]:
        (seat,) = GAME.to_act(state)
        options = [GAME.format(a) for a in GAME.legal_actions(state, seat)]
        await play(env, "zed" if seat == 1 else PLAYERS[seat], "skip" if "skip" in options else options[0])
    await settled(env)
    assert "Waiting for Zed to take a turn." in env.public()[-1].content
    assert MENTION.findall(env.public()[-1].content) == [env.uid("zed")]
    board = await env.run("cleo", "board")
    assert "Waiting for Zed to take a turn." in board.content and "Zed: " in board.content
    assert "Ben" not in board.content
    assert not any("Ben" in m.content for m in env.public()[count:])


async def test_a_channel_keywood_cannot_post_in_is_reported_once_to_the_host(env: Env) -> None:
    await env.start_game()
    await settled(env)
    ana_dms, count = len(sent_dms(env, "ana")), len(env.public())
    env.fake.deny_send(env.games["id"])
    sends = rf"/channels/{env.games['id']}/messages"

    # the turn message is refused (403 Missing Permissions): the player is told, the invitations still go out
    played = await env.run("ana", "play", {"action": "play green 1.pig"})
    assert played.content == ("Done: play green 1.pig.\n(Keywood could not post in the game's channel; check its "
                              "permissions there.)")
    await settled(env)
    assert len(env.public()) == count
    assert [r.status for r in env.fake.requests_to("POST", sends)][-1] == 403
    assert [len(decision_dms(env, n)) for n in ("ben", "cleo")] == [1, 1]
    (failed,) = [row for row in outbox(env, "public") if row[3] == "failed"]
    (notice,) = sent_dms(env, "ana")[ana_dms:]
    assert f"Keywood cannot post in <#{env.games['id']}> (missing permission)." in notice.content
    assert "Send Messages" in notice.content and "Attach Files" in notice.content
    assert outbox(env, "notice") == [(outbox(env, "notice")[0][0], env.uid("ana"), "notice", "sent")]

    # a second refused post: the host is not told again; nothing is retried
    ben_dm = decision_dms(env, "ben")[0]
    declined = await env.click_reply("ben", button(ben_dm, "decline"), ben_dm, dm=True)
    assert declined.content.startswith("Done: decline.") and "could not post" in declined.content
    await settled(env)
    assert [r.status for r in env.fake.requests_to("POST", sends)][-2:] == [403, 403]
    assert len(sent_dms(env, "ana")) == ana_dms + 1 and len(outbox(env, "notice")) == 1
    assert [row[0] for row in outbox(env, "public") if row[3] == "failed"][0] == failed[0]
    assert len([row for row in outbox(env, "public") if row[3] == "failed"]) == 2
    assert len(env.fake.requests_to("POST", sends)) == count + 2  # each refused post was tried once

    # once the permission is given back, the next message is posted (the failed ones are not resent)
    env.fake.allow_send(env.games["id"])
    await play(env, "cleo", "decline")
    await settled(env)
    (turn,) = env.public()[count:]
    assert "Cleo declines to join." in turn.content and "Ben declines" not in turn.content


async def test_a_transient_failure_is_retried_with_back_off_and_posted_once(env: Env) -> None:
    await env.start_game()
    await settled(env)
    count = len(env.public())
    sends = rf"/channels/{env.games['id']}/messages"
    # 503: a server error discord.py does not retry itself, so the sender's own back-off is what retries it
    env.fake.fail_sends(env.games["id"], 2, status=503)
    played = await env.run("ana", "play", {"action": "play green 1.pig"})
    assert played.content == "Done: play green 1.pig."  # a transient failure is not the player's concern
    (row,) = [r for r in outbox(env, "public") if r[3] == "pending"]
    (attempts, error, wait) = sql(env.path, "SELECT attempts, last_error, (julianday(next_attempt_at) - "
                                            "julianday('now')) * 86400 FROM outbox WHERE id = ?", row[0])[0]
    assert attempts == 1 and "503" in error and 0 < wait <= 2
    # the invitations are for other destinations: they do not wait behind the channel's retry
    await env.fake.wait_for(lambda: [len(decision_dms(env, n)) for n in ("ben", "cleo")] == [1, 1])
    assert len(env.public()) == count

    # the first retry comes by itself (2 s later); the second back-off (4 s) is cut short here
    await env.fake.wait_for(lambda: sql(env.path, "SELECT attempts FROM outbox WHERE id = ?", row[0])[0][0] == 2,
                            timeout=5)
    assert len(env.public()) == count
    sql(env.path, "UPDATE outbox SET next_attempt_at = '2000-01-01 00:00:00.000000' WHERE id = ?", row[0])
    await settled(env)
    (turn,) = env.public()[count:]
    assert "Waiting for Ben to join or decline." in turn.content and turn.files[0].data.startswith(PNG_MAGIC)
    assert [r.status for r in env.fake.requests_to("POST", sends)][count:] == [503, 503, 200]
    assert sql(env.path, "SELECT status FROM outbox WHERE id = ?", row[0]) == [("sent",)]

    # a failure after Discord created the message (the answer was lost): the retry, with the same nonce, gets
    # the same message back; it is not posted twice
    env.fake.fail_sends(env.games["id"], 1, status=503, created=True)
    await play(env, "ben", "decline")
    (lost,) = [r for r in outbox(env, "public") if r[3] == "pending"]
    assert len(env.public()) == count + 2
    sql(env.path, "UPDATE outbox SET next_attempt_at = '2000-01-01 00:00:00.000000' WHERE id = ?", lost[0])
    await settled(env)
    assert len(env.public()) == count + 2 and "Ben declines to join." in env.public()[-1].content
    retried = env.fake.requests_to("POST", sends)[-2:]
    assert [r.status for r in retried] == [503, 200] and retried[0].json["nonce"] == retried[1].json["nonce"]


async def test_a_message_that_can_never_be_sent_does_not_hold_up_the_rest(env: Env) -> None:
    await env.start_game()
    await settled(env)
    sends = rf"/channels/{env.games['id']}/messages"
    # a row this version cannot build (its payload lacks the text): recorded as failed, the host told once
    sql(env.path, "INSERT INTO outbox (game_id, guild_id, channel_id, kind, payload, status, attempts, "
                  "next_attempt_at, last_error, created_at) VALUES (?, ?, ?, 'public', '{}', 'pending', 0, "
                  "'2000-01-01 00:00:00.000000', '', '2000-01-01 00:00:00.000000')",
        env.game_id(), env.guild_id, env.games["id"])
    await settled(env)
    (broken,) = [row for row in outbox(env, "public") if row[3] == "failed"]
    assert sql(env.path, "SELECT last_error FROM outbox WHERE id = ?", broken[0]) == [("internal error (KeyError)",)]
    await env.fake.wait_for(lambda: outbox(env, "notice") and outbox(env, "notice")[0][3] == "sent")
    assert env.bot is not None and env.bot.ticker.is_running()

    # a message Discord refuses as invalid (400) is not retried: the next one goes out behind it
    count, posts = len(env.public()), len(env.fake.requests_to("POST", sends))
    env.fake.fail_sends(env.games["id"], 1, status=400)
    await play(env, "ana", "play green 1.pig")
    await play(env, "ben", "decline")
    await settled(env)
    (turn,) = env.public()[count:]
    assert "Ben declines to join." in turn.content
    assert [r.status for r in env.fake.requests_to("POST", sends)][posts:] == [400, 200]
    assert [row[3] for row in outbox(env, "public")][-2:] == ["failed", "sent"]
    assert len(outbox(env, "notice")) == 1


async def test_messages_committed_before_a_crash_are_sent_once_after_the_restart(env: Env) -> None:
    env.fake.refuse_dms(env.uid("cleo"))
    await env.start_game()
    await settled(env)
    count, ben_dms = len(env.public()), len(sent_dms(env, "ben"))
    assert dm_posts(env, "cleo") == [403]  # her DM check at /join

    # the bot dies; the command was committed with its outbox rows by a process that never got to send them
    await env.stop()
    store = Store(f"sqlite:///{env.path}")
    try:
        where, ana = Where(env.guild_id, env.games["id"]), Who(env.uid("ana"), "Ana")
        assert Table(store).handle(Command(where, ana, "play", "play green 1.pig")).ok
    finally:
        store.close()
    pending = [(recipient, kind) for _, recipient, kind, status in outbox(env) if status == "pending"]
    assert pending == [(None, "public"), (env.uid("ben"), "decision"), (env.uid("cleo"), "decision")]

    # the restarted bot delivers each of them once: the turn with its image, Ben's DM, Cleo's opener
    await env.start()
    await settled(env)
    turn, opener = env.public()[count:]
    assert "Waiting for Ben to join or decline." in turn.content and turn.files[0].data.startswith(PNG_MAGIC)
    assert MENTION.findall(turn.content) == [env.uid("ben")]
    assert opener.content.startswith(f"<@{env.uid('cleo')}> you are to join or decline in this game; your DMs are "
                                     "closed, so open it here.")
    assert opener.custom_ids == [f"kwo:{prompt_of(opener)}:{env.uid('cleo')}"]
    (invitation,) = sent_dms(env, "ben")[ben_dms:]
    assert invitation.custom_ids and all(c.startswith("kwi:") for c in invitation.custom_ids)
    assert dm_posts(env, "cleo") == [403]  # not tried again
    assert all(status == "sent" for *_, status in outbox(env))

    # another restart sends nothing again
    posts = len(env.fake.requests_to("POST", r"/channels/\d+/messages"))
    await env.restart()
    await asyncio.sleep(0.6)  # three ticks of the ticker
    assert len(env.fake.requests_to("POST", r"/channels/\d+/messages")) == posts

    # rows sent but not recorded as sent (a crash right after Discord answered) are resent with the same nonces:
    # Discord answers with the messages already posted, and nothing appears twice
    first = {str(r.response["id"]): r.json["nonce"] for r in env.fake.requests_to("POST", r"/channels/\d+/messages")
             if r.status == 200}
    ids = [i for i, _, kind, _ in outbox(env) if kind in ("public", "decision")][-3:]
    sql(env.path, f"UPDATE outbox SET status = 'pending' WHERE id IN ({', '.join(map(str, ids))})")
    await env.restart()
    await settled(env)
    resent = env.fake.requests_to("POST", r"/channels/\d+/messages")[posts:]
    assert len(resent) == 3 and all(r.status == 200 for r in resent)
    assert {str(r.response["id"]) for r in resent} == {turn.id, invitation.id, opener.id}
    assert all(r.json["nonce"] == first[str(r.response["id"])] for r in resent)
    assert sorted(r.json["nonce"].split(".")[0] for r in resent) == sorted(f"kw{i}" for i in ids)
    assert env.public()[count:] == [turn, opener] and sent_dms(env, "ben")[ben_dms:] == [invitation]


async def test_a_fresh_database_in_the_same_channel_is_not_taken_for_the_old_one(env: Env) -> None:
    # the same row ids in a new database, within Discord's nonce window: the nonces still differ
    env.seed = 1
    assert (await env.run("ana", "new")).content == "Table opened."
    await env.stop()
    for leftover in (env.path, env.path.with_name(env.path.name + "-wal"), env.path.with_name(env.path.name + "-shm")):
        leftover.unlink(missing_ok=True)
    await env.start()
    assert (await env.run("ben", "new")).content == "Table opened."
    await settled(env)
    assert [m.content.split(" opened")[0] for m in env.public()] == ["Ana", "Ben"]


async def test_a_simultaneous_choice_is_one_dm_each_answerable_until_made(env: Env) -> None:
    await env.start_game()
    await play_script(env, keyper_script("choose_display"))
    state = env.state()
    assert state.phase == "choose_display" and GAME.to_act(state) == [0, 1, 2]
    await settled(env)
    opened = env.public()[-1]
    assert "Waiting for Ana, Ben and Cleo to choose a board display." in opened.content
    assert opened.custom_ids == [] and sorted(MENTION.findall(opened.content)) == sorted(env.uid(n) for n in PLAYERS)

    # one DM each for the choice, with its own buttons
    dms: dict[str, FakeMessage] = {}
    for name in PLAYERS:
        (dm,) = [m for m in decision_dms(env, name) if "choose a board display" in m.content]
        assert dm.custom_ids == [f"kwi:{prompt_of(dm)}:display summer-{n}" for n in range(1, 5)]
        dms[name] = dm
    assert len({prompt_of(dm) for dm in dms.values()}) == 3
    sent = {name: len(sent_dms(env, name)) for name in PLAYERS}

    # Ana chooses: her choice stays secret, nobody else is asked again or pinged
    count = len(env.public())
    chosen = await env.click_reply("ana", button(dms["ana"], "display summer-2"), dms["ana"], dm=True)
    assert chosen.ephemeral and chosen.content == "Done: display summer-2."
    await settled(env)
    after = env.public()[count:]
    assert all("summer-2" not in m.content and m.custom_ids == [] for m in after)
    assert pings(env, "ben", after) == 0 and pings(env, "cleo", after) == 0
    assert {name: len(sent_dms(env, name)) for name in PLAYERS} == sent

    # Ben's and Cleo's buttons, sent before Ana's answer changed the table, still answer their decisions
    chosen = await env.click_reply("ben", button(dms["ben"], "display summer-3"), dms["ben"], dm=True)
    assert chosen.content == "Done: display summer-3."
    again = await env.click_reply("ana", button(dms["ana"], "display summer-1"), dms["ana"], dm=True)
    assert again.ephemeral and "already been made" in again.content  # a decision made is closed
    chosen = await env.click_reply("cleo", button(dms["cleo"], "display summer-2"), dms["cleo"], dm=True)
    assert chosen.content == "Done: display summer-2."
    assert [(seat, notation) for seat, _, notation in env.log()[-3:]] == [
        (0, "display summer-2"), (1, "display summer-3"), (2, "display summer-2")]
    assert env.state().phase != "choose_display"
    await settled(env)
    assert sum(1 for name in PLAYERS for m in decision_dms(env, name) if "choose a board display" in m.content) == 3


async def test_closed_dms_are_tried_once_then_each_decision_is_opened_once_in_the_channel(env: Env) -> None:
    await env.seat_players()
    env.fake.refuse_dms(env.uid("cleo"))  # she closes her DMs after taking her seat
    assert dm_posts(env, "cleo") == [200]
    count = len(env.public())
    assert (await env.run("ana", "start")).content == "Game started."
    await settled(env)

    # her hand could not be sent: the channel tells her once how to open her DMs, showing nothing private
    start, hint = env.public()[count:]
    assert "The Keyper game starts" in start.content
    assert hint.content == f"<@{env.uid('cleo')}> Keywood cannot DM you.\n{HOW_TO_OPEN_DMS}"
    assert dm_posts(env, "cleo") == [200, 403]

    # twenty actions with several decisions of hers: three invitations (one answered with her opener), her turn
    # and yields; every seat acts by /play except her answer to the second invitation
    script = keyper_script("fairs")[:20]
    assert script[8] == (2, "join grey")
    states = [GAME.setup([n.title() for n in PLAYERS], SEED)]
    for index, (seat, notation) in enumerate(script):
        state = states[-1]
        states.append(GAME.apply(state, seat, GAME.parse(state, seat, notation))[0])
        if index != 8:
            await play(env, PLAYERS[seat], notation)
            continue
        await settled(env)
        opener = env.public()[-1]
        prompt = prompt_of(opener)
        assert opener.custom_ids == [f"kwo:{prompt}:{env.uid('cleo')}"]
        assert (await env.click_reply("ben", opener.custom_ids[0], opener)).content == (
            "This decision is for another player.")
        mine = await env.click_reply("cleo", opener.custom_ids[0], opener)
        assert mine.ephemeral and "Cleo, you are to join or decline." in mine.content
        assert mine.custom_ids == [f"kwi:{prompt}:{a}" for a in ("join grey", "join white", "decline")]
        joined = await env.click_reply("cleo", button(mine, "join grey"), mine)
        assert joined.ephemeral and joined.content == "Done: join grey."
        assert env.log()[-1] == (2, env.uid("cleo"), "join grey")
    await settled(env)
    assert GAME.to_json(env.state()) == GAME.to_json(states[-1])

    # one opener per decision sent to her (her three invitations), never one per action
    channel = env.public()[count:]
    openers = [m for m in channel if any(c.startswith("kwo:") for c in m.custom_ids)]
    invitations = [pid for pid, seat, _, _ in env.prompts("reaction") if seat == 2]
    assert len(invitations) == 3 and [prompt_of(m) for m in openers] == invitations
    assert all(m.content == f"<@{env.uid('cleo')}> you are to join or decline in this game; your DMs are closed, "
                            "so open it here." for m in openers)
    # and one ping in the turn messages per decision of hers that fell due (a key the engine names once)
    due = {d.key for s in states[1:] for d in GAME.decisions(s) if d.seat == 2 and d.must}
    assert len(due) >= 6 and pings(env, "cleo", [m for m in channel if m not in [*openers, hint]]) == len(due)
    # the how-to text once, and no DM tried after the first refusal
    assert sum(HOW_TO_OPEN_DMS in m.content for m in env.fake.all_messages()) == 1
    assert dm_posts(env, "cleo") == [200, 403]


def openers(messages: list[FakeMessage]) -> list[FakeMessage]:
    """The messages with an "Open my decision" button (kwo:{prompt}:{user})."""
    return [m for m in messages if any(c.startswith("kwo:") for c in m.custom_ids)]


async def tokens_round(env: Env) -> None:
    """Everyone picks their highest card by /play and the round's winner passes, which opens the next round's
    secret picks (a decision for each player, sent by DM)."""
    state = tokens_state(env)
    for seat, name in enumerate(PLAYERS):
        await play(env, name, f"pick {max(state.hands[seat])}")
    state = tokens_state(env)
    assert state.phase == "draw" and state.winner is not None
    await play(env, PLAYERS[state.winner], "pass")
    await settled(env)


async def test_closed_dms_are_tried_again_only_once_the_retry_window_has_passed(env: Env) -> None:
    # Tokens: each of its three rounds opens a secret pick for every player, one decision DM each
    env.fake.refuse_dms(env.uid("cleo"))
    await env.seat_players(seed=3, game="tokens")
    assert dm_posts(env, "cleo") == [403]  # her DM check at /join, whose reply told her how to open them
    assert env.bot is not None
    table, cleo = env.bot.table, env.uid("cleo")

    async def found_closed(ago: timedelta) -> None:
        """Cleo's DMs were last found closed this long ago."""
        await asyncio.to_thread(table.note_dms, cleo, open_=False, moment=datetime.now(UTC) - ago)

    # round 1, her DMs found closed a minute short of the retry window: not tried, her pick opened in the channel
    await found_closed(DM_RETRY - timedelta(minutes=1))
    count = len(env.public())
    assert (await env.run("ana", "start")).content == "Game started."
    await settled(env)
    assert dm_posts(env, "cleo") == [403]
    (first,) = openers(env.public()[count:])
    assert first.custom_ids == [f"kwo:{prompt_of(first)}:{cleo}"]
    assert [len(decision_dms(env, n)) for n in ("ana", "ben")] == [1, 1]

    # round 2, the window passed and her DMs still closed: tried once (the private note of her round-1 pick),
    # refused, and round 2's pick opened in the channel
    await found_closed(DM_RETRY + timedelta(minutes=1))
    count = len(env.public())
    await tokens_round(env)
    assert tokens_state(env).round == 2
    assert dm_posts(env, "cleo") == [403, 403]
    (second,) = openers(env.public()[count:])
    assert prompt_of(second) != prompt_of(first)

    # the refusal began a new window: her DMs, opened meanwhile, are not tried for the private note of her pick
    env.fake.allow_dms(cleo)
    count, notes = len(env.public()), len(outbox(env, "private"))
    state = tokens_state(env)
    for seat, name in enumerate(PLAYERS):
        await play(env, name, f"pick {max(state.hands[seat])}")
    await settled(env)
    assert [row[3] for row in outbox(env, "private")[notes:] if row[1] == cleo] == ["sent"]
    assert dm_posts(env, "cleo") == [403, 403] and openers(env.public()[count:]) == []

    # once that window has passed too, round 3's pick comes to her by DM with its buttons, and no opener
    await found_closed(DM_RETRY + timedelta(minutes=1))
    state = tokens_state(env)
    assert state.phase == "draw" and state.winner is not None
    await play(env, PLAYERS[state.winner], "pass")
    await settled(env)
    assert tokens_state(env).round == 3
    posts = dm_posts(env, "cleo")
    assert posts[:2] == [403, 403] and posts[2:] and set(posts[2:]) == {200}
    (third,) = decision_dms(env, "cleo")
    assert "pick a card" in third.content and prompt_of(third) not in {prompt_of(first), prompt_of(second)}
    assert openers(env.public()[count:]) == []

    # each of her decisions was opened in the channel once at most, and the how-to was never posted there
    assert [prompt_of(m) for m in openers(env.public())] == [prompt_of(first), prompt_of(second)]
    assert not any(HOW_TO_OPEN_DMS in m.content for m in env.public())


def tokens_state(env: Env) -> Any:
    """The stored state of the Tokens game in #games."""
    (data,) = sql(env.path, "SELECT state FROM snapshots WHERE game_id = ?", env.game_id())[0]
    return TOKENS.from_json(json.loads(data))


def open_decision(env: Env, name: str, phrase: str) -> FakeMessage:
    """A player's last decision DM about something (its buttons answer it)."""
    found = [m for m in decision_dms(env, name) if phrase in m.content]
    assert found, f"no DM to {name} about '{phrase}'"
    return found[-1]


PRIVATE_TEXTS = ("your hand", "You pick", "You draw", "secret pick")


async def test_a_second_game_from_the_registry_is_played_to_its_end(env: Env) -> None:
    env.seed = 3
    opened = await env.run("ana", "new", {"game": "tokens"})
    assert opened.content == "Table opened."
    assert env.public()[-1].content.startswith("Ana opened a Tokens table (2-3 players).")
    await env.fake.wait_for(lambda: env.dms_noted("ana"))
    for name in ("ben", "cleo"):
        assert (await env.run(name, "join")).content == "You are seated."
        await env.fake.wait_for(functools.partial(env.dms_noted, name))
    assert (await env.run("ana", "start")).content == "Game started."
    await settled(env)
    names = {seat: name for seat, name in enumerate(PLAYERS)}
    reactions = {name: 0 for name in PLAYERS}

    # three rounds: secret picks by DM buttons, the winner's draw by /play, the others' reactions by DM buttons
    for number, plan in enumerate(("allow ahead", "object", "pass"), start=1):
        state = tokens_state(env)
        assert state.phase == "pick" and state.round == number
        picks = [f"pick {max(hand)}" for hand in state.hands]
        for seat, name in names.items():
            dm = open_decision(env, name, "pick a card")
            assert dm.custom_ids == [f"kwi:{prompt_of(dm)}:pick {c}" for c in sorted(set(state.hands[seat]))]
            assert len([m for m in decision_dms(env, name) if "pick a card" in m.content]) == number
            picked = await env.click_reply(name, button(dm, picks[seat]), dm, dm=True)
            assert picked.content == f"Done: {picks[seat]}.", picked.content
        await settled(env)
        state = tokens_state(env)
        assert state.phase == "draw" and f"Round {number} picks:" in env.public()[-1].content
        winner = names[state.winner]
        draw = env.public()[-1]
        assert MENTION.findall(draw.content) == [env.uid(winner)]
        assert [c.split(":")[-1] for c in draw.custom_ids] == ["take", "pass"]  # public choices: channel buttons
        if plan == "pass":
            await play(env, winner, "pass")
            break
        await play(env, winner, "take")
        await settled(env)
        first, second = (names[s] for s in tokens_state(env).order)
        for name in (first, second):
            reactions[name] += 1
            assert len([m for m in decision_dms(env, name) if "object or allow" in m.content]) == reactions[name]
        if plan == "allow ahead":
            ahead = open_decision(env, second, "object or allow")
            kept = await env.click_reply(second, button(ahead, "allow"), ahead, dm=True)
            assert kept.content.startswith("Answer kept: 'allow'.")
            dm = open_decision(env, first, "object or allow")
            assert (await env.click_reply(first, button(dm, "allow"), dm, dm=True)).content == "Done: allow."
            await settled(env)
            assert "Nobody objects." in env.public()[-1].content
        else:
            dm = open_decision(env, first, "object or allow")
            assert (await env.click_reply(first, button(dm, "object"), dm, dm=True)).content == "Done: object."
            late = open_decision(env, second, "object or allow")
            closed = await env.click_reply(second, button(late, "allow"), late, dm=True)
            assert "closed" in closed.content
            await settled(env)
            assert "loses a point" in env.public()[-1].content

    # the end: the final score in the channel, with its image; the game is finished
    await settled(env)
    final = env.public()[-1]
    assert "Final score:" in final.content and final.files and final.files[0].data.startswith(PNG_MAGIC)
    assert sql(env.path, "SELECT game, status FROM games") == [("tokens", "finished")]
    assert [(seat, notation) for seat, _, notation in env.log()][-1][1] == "pass"

    # nothing private in the channel: no hand, no pick before its reveal, no drawn card, no pick button
    channel = env.fake.messages(env.games["id"], include_ephemeral=False)
    for message in channel:
        assert not any(text in message.content for text in PRIVATE_TEXTS), message.content
        assert not any(c.split(":")[-1].startswith("pick") for c in message.custom_ids), message.custom_ids
    reveals = [i for i, m in enumerate(channel) if "picks:" in m.content]
    assert len(reveals) == 3
    for i in reveals:
        shown = re.search(r"picks: ([^.]+)\.", channel[i].content)
        assert shown is not None and not any(shown.group(1) in m.content for m in channel[:i])
    assert all("draws a card." in m.content or "draws a" not in m.content for m in channel)


async def test_new_offers_every_registered_option_with_its_range_and_the_table_checks_them(env: Env) -> None:
    new = env.fake.command("new", env.guild_id)
    assert new is not None
    offered = {o["name"]: o for o in new["options"]}
    entries = games.all_games()
    assert [(c["name"], c["value"]) for c in offered["game"]["choices"]] == [(e.title, e.id) for e in entries]
    assert {e.id for e in entries} >= {"keyper", "tokens"}
    types = {int: 4, bool: 5, str: 3}
    for entry in entries:
        for option in (o for o in entry.all_options() if not o.local):
            sent = offered[option.name]
            assert sent["type"] == types[option.type] and sent["required"] is False
            assert sent["description"].startswith(option.description[:80]), (sent, option)
            if option.type is int:  # the widest range over the games that have the option
                same = [o for e in entries for o in e.all_options() if o.name == option.name and not o.local]
                assert sent["min_value"] == min(o.min for o in same if o.min is not None)
                assert sent["max_value"] == max(o.max for o in same if o.max is not None)
    assert set(offered) == {"game", "thread"} | {o.name for e in entries for o in e.all_options() if not o.local}
    assert "joiner_minutes" not in offered and "seed" not in offered, "the seed is secret: the terminal's alone"
    settings = env.fake.command("keywood-settings", env.guild_id)
    assert settings is not None and [o["name"] for o in settings["options"]] == ["decision_minutes", "reminder_hours"]

    # Discord keeps values within the offered range; the table refuses what this game does not allow
    for options, why in (({"game": "tokens", "max_players": 4}, "max_players must be at most 3."),
                         ({"game": "tokens", "unlimited_supply": True}, "Tokens has no option unlimited_supply."),
                         ({"game": "keyper", "decision_minutes": 0}, "decision_minutes must be at least 1."),
                         ({"game": "keyper", "min_players": 4, "max_players": 3},
                          "min_players (4) is more than max_players (3).")):
        before, posted = dump(env.path), len(env.fake.all_messages())
        reply = await env.run("ana", "new", options)
        assert reply.ephemeral and reply.content.startswith(why), reply.content
        assert dump(env.path) == before and len(env.fake.all_messages()) == posted + 1  # the reply alone

    # /games lists every game with its player counts and its own options
    listed = (await env.run("zed", "games")).content
    assert "**Keyper** (`keyper`, 2-4 players)" in listed and "**Tokens** (`tokens`, 2-3 players)" in listed
    assert "unlimited_supply (default False)" in listed and "fast (default False)" in listed


async def test_the_game_end_pings_every_player_once(env: Env) -> None:
    # a fast (two-round) Tokens game for Ana and Ben, every move by /play; each round's winner passes
    env.seed = 3
    assert (await env.run("ana", "new", {"game": "tokens", "fast": True, "max_players": 2})).content == (
        "Table opened.")
    assert (await env.run("ben", "join")).content == "You are seated."
    await env.fake.wait_for(lambda: env.dms_noted("ana") and env.dms_noted("ben"))
    assert (await env.run("ana", "start")).content == "Game started."
    names = ("ana", "ben")
    while (state := tokens_state(env)).phase != "over":
        if state.phase == "pick":
            for seat in [s for s, pick in enumerate(state.picks) if pick is None]:
                await play(env, names[seat], f"pick {max(state.hands[seat])}")
        else:
            assert state.phase == "draw" and state.winner is not None
            await play(env, names[state.winner], "pass")
    await settled(env)

    # the final score: one message with its image, pinging both players (not sent silently), nobody else
    channel = env.public()
    finals = [m for m in channel if "Final score:" in m.content]
    assert finals == [channel[-1]]
    final = finals[0]
    assert final.files and final.files[0].data.startswith(PNG_MAGIC)
    players = sorted(env.uid(n) for n in names)
    assert sorted(MENTION.findall(final.content)) == players
    assert sorted(str(u) for u in env.request_of(final)["allowed_mentions"]["users"]) == players
    assert not final.flags & SUPPRESS_NOTIFICATIONS
    assert sql(env.path, "SELECT game, status FROM games") == [("tokens", "finished")]
