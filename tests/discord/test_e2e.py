"""The Discord bot end to end: slash commands, autocomplete, buttons, DM invitations with their channel fallback,
deadlines fired by the ticker, restarts and stale buttons, all through the unmodified discord.py client talking
to the fake Discord, on a real SQLite file.
"""

from __future__ import annotations

from datetime import UTC, datetime

from engine.keyper import GAME
from tests.discord import (
    BEN_FAIRS,
    MENTION,
    PNG_MAGIC,
    SEED,
    SUPPRESS_NOTIFICATIONS,
    TIMESTAMP,
    Env,
    dump,
    sql,
)
from tests.discord_fake import FakeMessage


def check_turn_message(env: Env, message: FakeMessage, *lines: str, mention: str | None) -> None:
    """A channel message of the bot's own: the log lines, the board PNG, a ping for exactly one player (or none,
    and then silent), and allowed_mentions that let nobody else be pinged."""
    assert message.source == "channel" and not message.ephemeral and message.interaction_id is None
    for line in lines:
        assert line in message.content, message.content
    assert message.filenames == ["table.png"] and message.files[0].data.startswith(PNG_MAGIC)
    allowed = env.request_of(message)["allowed_mentions"]
    assert allowed["parse"] == []
    if mention is None:
        assert MENTION.findall(message.content) == [] and allowed.get("users", []) == []
        assert message.flags & SUPPRESS_NOTIFICATIONS
    else:
        assert MENTION.findall(message.content) == [env.uid(mention)]
        assert [str(u) for u in allowed["users"]] == [env.uid(mention)]
        assert not message.flags & SUPPRESS_NOTIFICATIONS


def check_routine(env: Env, message: FakeMessage, text: str) -> None:
    """A lobby message: no ping, sent silently."""
    assert text in message.content and MENTION.findall(message.content) == []
    assert message.flags & SUPPRESS_NOTIFICATIONS
    assert env.request_of(message)["allowed_mentions"] == {"parse": [], "users": []}


def only_new(env: Env, count: int) -> FakeMessage:
    """The one message the bot posted in #games after the first ``count`` (the bot replies after posting)."""
    (message,) = env.public()[count:]
    return message


def legal(env: Env, seat: int) -> set[str]:
    """The formatted legal actions of a seat in the stored game."""
    state = env.state()
    return {GAME.format(a) for a in GAME.legal_actions(state, seat)}


async def test_a_short_game_with_slash_commands_buttons_and_autocomplete(env: Env) -> None:
    # the lobby: routine messages, a DM check at every seat taken
    assert env.seed == SEED  # the seed the table draws
    new = await env.run("ana", "new")
    assert new.ephemeral and new.content == "Table opened."
    await env.fake.wait_for(lambda: env.dms("ana") and env.dms_noted("ana"))
    for count, name in enumerate(("ben", "cleo"), start=2):
        joined = await env.run(name, "join")
        assert joined.ephemeral and joined.content == "You are seated."
        await env.fake.wait_for(lambda name=name: env.dms(name) and env.dms_noted(name))
        assert "decisions you make outside your turn" in env.dms(name)[0].content
        check_routine(env, env.public()[-1], f"joins the table ({count} seated)")
    check_routine(env, env.public()[0], "Ana opened a Keyper table")

    # the start: one message with the board, Ana pinged; everyone's hand by DM
    assert (await env.run("ana", "start")).content == "Game started."
    (start,) = env.public()[3:]
    check_turn_message(env, start, "The Keyper game starts.", "Waiting for Ana to take a turn.", mention="ana")
    assert BEN_FAIRS in env.dms("ben")[-1].content and f"<#{env.games['id']}>" in env.dms("ben")[-1].content

    # /hand: Ben's hidden fairs, for his eyes only
    hand = await env.run("ben", "hand")
    assert hand.ephemeral and BEN_FAIRS in hand.content and hand.files == []

    # autocomplete offers only the caller's legal actions, filtered by the typed words, at most 25; when more match,
    # their first words in groups ('play green'), which narrow down as one types
    everything = await env.suggest("ana", "play", "action", "")
    assert everything == ["keyper 1", "keyper 2", "keyper 3", "play blue", "play orange", "play green", "play brown",
                          "play black", "play grey", "play white"]
    def leads_to_a_legal_action(text: str) -> bool:
        return any(a == text or a.startswith(text + " ") for a in legal(env, 0))

    assert all(leads_to_a_legal_action(s) for s in everything)
    greens = await env.suggest("ana", "play", "action", "play green")
    assert len(greens) == 25 and all(g.startswith("play green ") and leads_to_a_legal_action(g) for g in greens)
    assert "play green 1.pig" in greens and "play green 1.river" in greens  # an action, and the start of some
    pigs = await env.suggest("ana", "play", "action", "green pig")
    assert pigs and all("green" in s and "pig" in s for s in pigs) and set(pigs) <= legal(env, 0)
    assert "play green 1.pig" in pigs
    assert await env.suggest("ben", "play", "action", "") == []  # not his turn and nothing to answer
    assert await env.suggest("zed", "play", "action", "") == []  # not a player
    assert await env.suggest("ana", "check", "action", "keyper") == ["keyper 1", "keyper 2", "keyper 3"]

    # /check answers without moving anything
    before = dump(env.path)
    check = await env.run("ana", "check", {"action": "play green 1.pig"})
    assert check.ephemeral and check.content.startswith("Yes.") and "Ben, Cleo" in check.content
    assert dump(env.path) == before and len(env.public()) == 4

    # /play by slash: one turn message pinging Ben (asked first), with his answers as buttons
    played = await env.run("ana", "play", {"action": "play green 1.pig"})
    assert played.ephemeral and played.content == "Done: play green 1.pig."
    (turn,) = env.public()[4:]
    check_turn_message(env, turn, "Ana plays a green keyple onto the pig field on board 1.",
                       "Waiting for Ben to join or decline.", mention="ben")
    version = sql(env.path, "SELECT version FROM games")[0][0]
    assert turn.custom_ids == [f"kw:{env.game_id()}:1:{version}:{a}" for a in ("join green", "join white", "decline")]

    # /board for anyone, privately, with the image
    board = await env.run("zed", "board")
    assert board.ephemeral and "Board 1" in board.content
    assert board.filenames == ["table.png"] and board.files[0].data.startswith(PNG_MAGIC)

    # Ben declines by slash; Cleo sees her answers in autocomplete and declines too
    count = len(env.public())
    assert (await env.run("ben", "play", {"action": "decline"})).content == "Done: decline."
    check_turn_message(env, only_new(env, count), "Ben declines to join.", mention="cleo")
    assert await env.suggest("cleo", "play", "action", "") == ["join green", "join white", "decline"]
    assert await env.suggest("cleo", "play", "action", "join") == ["join green", "join white"]
    assert (await env.run("cleo", "play", {"action": "decline"})).content == "Done: decline."
    earns = only_new(env, count + 1)
    check_turn_message(env, earns, "Cleo declines to join.", "Ana earns 2 pigs", mention="ana")
    assert [c.split(":")[-1] for c in earns.custom_ids] == ["take pig", "take pig x2", "skip"]  # both units at once

    # Ana takes a pig with the button, then takes it back with /undo, then takes it by slash again
    take = next(c for c in earns.custom_ids if c.endswith(":take pig"))
    clicked = await env.click_reply("ana", take, earns)
    assert clicked.ephemeral and clicked.content == "Done: take pig."
    check_turn_message(env, only_new(env, count + 2), "Ana takes", mention="ana")
    assert env.log()[-1] == (0, env.uid("ana"), "take pig")
    assert (await env.run("ana", "undo")).content == "Undone."
    check_turn_message(env, only_new(env, count + 3), "Ana takes back 'take pig'.", mention="ana")
    assert env.log()[-1] == (2, env.uid("cleo"), "decline")
    assert (await env.run("ana", "play", {"action": "take pig"})).content == "Done: take pig."
    check_turn_message(env, only_new(env, count + 4), "Ana takes", mention="ana")

    # /log, /score, /rules (with topics by autocomplete) answer privately
    log = await env.run("zed", "log")
    assert log.ephemeral and "Ana: play green 1.pig" in log.content and "Ben: decline" in log.content
    score = await env.run("ben", "score")
    assert score.ephemeral and score.content.startswith("Projected score:")
    topics = await env.suggest("zed", "rules", "topic", "join")
    assert "Joiners" in topics and all("join" in t.lower() for t in topics)
    rules = await env.run("zed", "rules", {"topic": "Joiners"})
    assert rules.ephemeral and rules.content.startswith("## Joiners")

    # nothing private ever reached the channel, and every answer to a command was private
    public_text = "\n".join(m.content for m in env.fake.all_messages() if not m.ephemeral
                            and m.channel_id == env.games["id"])
    assert BEN_FAIRS not in public_text and "your fair tiles" not in public_text
    assert all(m.ephemeral for m in env.fake.all_messages() if m.interaction_id is not None)


def invitation(env: Env, name: str) -> FakeMessage:
    """The last joiner invitation in a player's DMs."""
    found = [m for m in env.dms(name) if any(c.startswith("kwi:") for c in m.custom_ids)]
    assert found, f"no invitation in {name}'s DMs"
    return found[-1]


def button(message: FakeMessage, label: str) -> str:
    """The custom_id of a message's button ending with the label."""
    return next(c for c in message.custom_ids if c.endswith(f":{label}"))


async def test_a_joiner_offer_comes_by_dm_with_deadline_and_buttons(env: Env) -> None:
    await env.start_game()
    await env.invite()
    await env.fake.wait_for(lambda: len(env.prompts()) == 2 and all(
        any("kwi:" in c for m in env.dms(n) for c in m.custom_ids) for n in ("ben", "cleo")))
    prompts = {seat: pid for pid, seat, _, _ in env.prompts()}
    (stored,) = {d for (d,) in sql(env.path, "SELECT deadline FROM prompts WHERE kind = 'reaction'")}
    stamp = int(datetime.fromisoformat(stored).replace(tzinfo=UTC).timestamp())
    deadline = f"Deadline: <t:{stamp}:f> (<t:{stamp}:R>)."  # the date in the reader's time zone, and how far off
    for name, seat in (("ben", 1), ("cleo", 2)):
        dm = invitation(env, name)
        assert f"{name.title()}, you are to join or decline." in dm.content and deadline in dm.content
        assert f"<#{env.games['id']}>" in dm.content
        assert "If you have not answered by the deadline: decline." in dm.content
        assert dm.custom_ids == [f"kwi:{prompts[seat]}:{a}" for a in ("join green", "join white", "decline")]
    assert not any(c.startswith("kwi:") for m in env.dms("ana") for c in m.custom_ids)

    # the wrong player cannot use Ben's buttons
    before = dump(env.path)
    refused = await env.click_reply("cleo", button(invitation(env, "ben"), "join green"), invitation(env, "ben"))
    assert refused.ephemeral and refused.content == "This decision is for another player."
    assert dump(env.path) == before

    # Ben joins from his DM: applied, and the turn message goes to #games (not to his DM)
    count = len(env.public())
    joined = await env.click_reply("ben", button(invitation(env, "ben"), "join green"), invitation(env, "ben"),
                                   dm=True)
    assert joined.ephemeral and joined.content == "Done: join green."
    assert env.log()[-1] == (1, env.uid("ben"), "join green")
    (turn,) = env.public()[count:]
    check_turn_message(env, turn, "Ben", "green", mention="ana")
    assert not any(m.files for m in env.dms("ben"))  # no turn message went to the DM the click came from
    assert [status for _, _, status, _ in env.prompts()] == ["closed", "closed"]

    # Cleo's invitation closed with Ben's yes
    late = await env.click_reply("cleo", button(invitation(env, "cleo"), "join white"), invitation(env, "cleo"),
                                 dm=True)
    assert late.ephemeral and "closed" in late.content and len(env.public()) == count + 1


async def test_a_later_invitees_early_yes_waits_for_the_earlier_decline(env: Env) -> None:
    await env.start_game()
    await env.invite()
    await env.fake.wait_for(lambda: any("kwi:" in c for m in env.dms("cleo") for c in m.custom_ids))
    count = len(env.public())
    kept = await env.click_reply("cleo", button(invitation(env, "cleo"), "join white"), invitation(env, "cleo"),
                                 dm=True)
    assert kept.ephemeral and kept.content.startswith("Answer kept: 'join white'.")
    assert len(env.public()) == count and GAME.to_act(env.state()) == [1]
    assert [(seat, answer) for _, seat, _, answer in env.prompts()] == [(1, None), (2, "join white")]

    declined = await env.click_reply("ben", button(invitation(env, "ben"), "decline"), invitation(env, "ben"),
                                     dm=True)
    assert declined.content == "Done: decline."
    (turn,) = env.public()[count:]
    check_turn_message(env, turn, "Ben declines to join.", "Cleo", mention="ana")
    assert [(seat, notation) for seat, _, notation in env.log()[-2:]] == [(1, "decline"), (2, "join white")]


async def test_closed_dms_fall_back_to_a_private_opener_in_the_channel(env: Env) -> None:
    env.fake.refuse_dms(env.uid("cleo"))
    await env.seat_players()
    cleo_join = next(r for r in env.fake.interactions.values() if r.payload["data"]["name"] == "join"
                     and r.payload["member"]["user"]["id"] == env.uid("cleo"))
    (seated, closed) = env.fake.followups(cleo_join.id)
    assert seated.ephemeral and closed.ephemeral and "Your DMs are closed" in closed.content
    assert env.dms("cleo") == []

    # her hand is not sent (she was told at /join how to open her DMs, and she has /hand): only the start is posted
    count = len(env.public())
    assert (await env.run("ana", "start")).content == "Game started."
    (start,) = env.public()[count:]
    check_turn_message(env, start, "The Keyper game starts", mention="ana")

    count = len(env.public())
    await env.run("ana", "play", {"action": "play green 1.pig"})
    turn, opener = env.public()[count:]
    check_turn_message(env, turn, "Ana plays a green keyple", mention="ben")
    assert opener.content == (f"<@{env.uid('cleo')}> you are to join or decline in this game; your DMs are closed, so "
                              "open it here.")
    assert env.request_of(opener)["allowed_mentions"]["users"] == [int(env.uid("cleo"))]
    cleo_prompt = next(pid for pid, seat, _, _ in env.prompts() if seat == 2)
    assert opener.custom_ids == [f"kwo:{cleo_prompt}:{env.uid('cleo')}"]
    # refused once at /join, then never tried again (neither her hand nor her invitation)
    cleo_dm = env.fake.dm_channel_id(env.uid("cleo"))
    assert [r.status for r in env.fake.requests_to("POST", rf"/channels/{cleo_dm}/messages")] == [403]

    # someone else clicking it is refused
    other = await env.click_reply("ben", opener.custom_ids[0], opener)
    assert other.ephemeral and other.content == "This decision is for another player."

    # Cleo gets her invitation privately (with its deadline), and again after a restart (from the table)
    answers = [f"kwi:{cleo_prompt}:{a}" for a in ("join green", "join white", "decline")]
    mine = await env.click_reply("cleo", opener.custom_ids[0], opener)
    assert mine.ephemeral and TIMESTAMP.search(mine.content) and mine.custom_ids == answers
    await env.restart()
    again = await env.click_reply("cleo", opener.custom_ids[0], opener)
    assert again.ephemeral and "Cleo, you are to join or decline." in again.content and again.custom_ids == answers

    # her early yes is kept, and counts once Ben declines
    kept = await env.click_reply("cleo", again.custom_ids[1], again)
    assert kept.ephemeral and kept.content.startswith("Answer kept")
    await env.run("ben", "play", {"action": "decline"})
    check_turn_message(env, env.public()[-1], "Ben declines to join.", "Cleo", mention="ana")
    assert env.log()[-1][1:] == (env.uid("cleo"), "join white")


async def test_an_opener_of_a_closed_decision_says_so_and_offers_no_buttons(env: Env) -> None:
    env.fake.refuse_dms(env.uid("cleo"))
    await env.start_game()
    count = len(env.public())
    await env.run("ana", "play", {"action": "play green 1.pig"})
    _, opener = (await env.wait_public(count + 2))[count:]
    (prompt,) = [pid for pid, seat, _, _ in env.prompts() if seat == 2]
    assert opener.custom_ids == [f"kwo:{prompt}:{env.uid('cleo')}"]
    mine = await env.click_reply("cleo", opener.custom_ids[0], opener)  # opened while it is open: its answers
    assert mine.custom_ids == [f"kwi:{prompt}:{a}" for a in ("join green", "join white", "decline")]

    # Ben joins first: Cleo's invitation closes with his yes
    assert (await env.run("ben", "play", {"action": "join green"})).content == "Done: join green."
    await env.fake.wait_for(lambda: len(env.public()) == count + 3)
    assert [status for _, seat, status, _ in env.prompts() if seat == 2] == ["closed"]

    # her opener, now and after a restart, says the decision is gone and shows no buttons; her old buttons are
    # refused; nothing is stored or posted
    before, posted = dump(env.path), len(env.public())
    for restart in (False, True):
        if restart:
            await env.restart()
        stale = await env.click_reply("cleo", opener.custom_ids[0], opener)
        assert stale.ephemeral and stale.content == "This decision has already been made or has closed."
        assert stale.custom_ids == [] and stale.components == []
    late = await env.click_reply("cleo", button(mine, "join white"), mine)
    assert late.ephemeral and late.custom_ids == []
    assert late.content == "This decision has already been made or has closed; nothing was changed."
    assert dump(env.path) == before and len(env.public()) == posted


async def test_a_deadline_passing_counts_as_a_decline(env: Env) -> None:
    await env.start_game(decision_minutes=1)
    await env.invite()
    (ben_prompt, cleo_prompt) = [pid for pid, *_ in env.prompts()]
    count = len(env.public())
    sql(env.path, "UPDATE prompts SET deadline = '2000-01-01 00:00:00.000000' WHERE id = ?", ben_prompt)
    (timed_out,) = (await env.wait_public(count + 1))[count:]  # the ticker (every 0.2 s) fires it
    check_turn_message(env, timed_out, "Ben did not answer in time.", "Waiting for Cleo", mention="cleo")
    assert env.log()[-1] == (1, "timeout", "decline")

    sql(env.path, "UPDATE prompts SET deadline = '2000-01-01 00:00:00.000000' WHERE id = ?", cleo_prompt)
    (alone,) = (await env.wait_public(count + 2))[count + 1:]
    check_turn_message(env, alone, "Cleo did not answer in time.", "Ana earns 2 pigs", mention="ana")
    assert [status for _, _, status, _ in env.prompts()] != ["open", "open"]
    assert GAME.to_act(env.state()) == [0]


async def test_buttons_work_after_a_restart(env: Env) -> None:
    await env.start_game()
    turn = await env.invite()
    await env.fake.wait_for(lambda: any("kwi:" in c for m in env.dms("cleo") for c in m.custom_ids))
    cleo_dm = invitation(env, "cleo")

    await env.restart()  # a new process: no views, no invitations, no games in memory
    count = len(env.public())
    declined = await env.click_reply("ben", button(turn, "decline"), turn)  # a channel button of the first bot
    assert declined.content == "Done: decline."
    check_turn_message(env, env.public()[count], "Ben declines to join.", mention="cleo")

    await env.restart()
    joined = await env.click_reply("cleo", button(cleo_dm, "join white"), cleo_dm, dm=True)  # a DM button
    assert joined.content == "Done: join white."
    check_turn_message(env, env.public()[count + 1], "Cleo", mention="ana")  # in #games, not in Cleo's DM
    assert env.log()[-1] == (2, env.uid("cleo"), "join white")
    assert not any(m.files for m in env.dms("cleo"))


async def test_a_stale_button_changes_nothing(env: Env) -> None:
    await env.start_game()
    turn = await env.invite()
    assert (await env.run("ben", "play", {"action": "decline"})).content == "Done: decline."
    count, before = len(env.public()), dump(env.path)
    stale = await env.click_reply("ben", button(turn, "join green"), turn)
    assert stale.ephemeral and "the table has moved on" in stale.content.lower()
    assert dump(env.path) == before and len(env.public()) == count
