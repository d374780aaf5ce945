"""A whole Keythedral game end to end: Ana, Ben and Cleo in #games, through the unmodified discord.py client and
the fake Discord, on the real Table and a real SQLite file.

What goes which way:

- Through Discord, as players would: `/new game:keythedral` (seed 6 drawn), `/join`, `/start`; set-up (each drawn field
  laid with its channel button, each cottage with `/play`); round one (work-order numbers and workers with channel
  buttons; phase three's procuring, trading, paying and the bid, payment and new start player of phase five with
  `/play` or channel buttons (choices that show a player's cubes come by DM, ruling T-1); the purchase window
  and the phase-5 law window answered with DM buttons; a later bidder passing ahead with `/play`); round two's
  phase-1 law window, where Ana plays Work Order from her DM and Cleo lets it stand from hers; then the rest of
  rounds two and three with the play-out policy.
- Through the real Table on the same database, the bot stopped: from round four up to the start of the third
  last round, with the same policy. The channel messages and DMs these moves queue are marked delivered (the bot
  never posts them), except those of the last command, which the restarted bot delivers; the leak checks read
  them all from the outbox.
- Through Discord again, after that restart: the last three rounds, with the same policy, to the final score.

The policy is the engine's own (GAME.playout_weights over GAME.legal_actions with a seeded engine.core.Rng, as
engine/playout.py chooses), applied before each move to the state stored in the database; each move goes in with
`/play` by the seat to act, or with the DM button of a decision whose choices came by DM (a law window, the
private law-card step of a turn). Which round is the last is found first by playing the policy ahead on copies.
A whole game through Discord took 34-38 s with this choice seed (about 35 ms a move), and games of other seeds run
up to 2.5 times as many moves; this way the test takes 15-20 s.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import json
import math
import re
from collections.abc import Callable
from typing import Any

from bot.store import Store
from bot.table import Command, Table, Where, Who
from engine.core import TURN, Rng
from engine.keythedral import GAME, flow
from engine.keythedral.laws import TITLES
from engine.playout import forced_move, pick
from tests.discord import MENTION, PLAYERS, PNG_MAGIC, Env, sql
from tests.discord.test_outbox_decisions import button, decision_dms, prompt_of, settled
from tests.discord_fake import FakeMessage

SEED = 6  # the new-law spaces start with Work Order (space 1) and Design Change (space 2)
CHOICE_SEED = 26  # the play-out policy's generator, from the middle of round two on
NAMES = {name: name.title() for name in PLAYERS}

# Set-up: each turn lays the drawn field, then a cottage; Ana, Ben, Cleo, five times round.
SETUP = (("field L14", "cottage 2 M12+"), ("field L13", "cottage 5 N13+"), ("field K14", "cottage 2 N14+"),
         ("field N15", "cottage 4 K14+"), ("field O14", "cottage 3 L14+"), ("field M12", "cottage 5 O13+"),
         ("field K13", "cottage 5 M14+"), ("field P13", "cottage 2 J14+"), ("field L12", "cottage 3 M11+"),
         ("field M15", "cottage 1 P12+"), ("field Q13", "cottage 1 J12+"), ("field K15", "cottage 1 K12+"),
         ("field R13", "cottage 3 L15+"), ("field L11", "cottage 4 Q13+"), ("field P14", "cottage 4 J15+"))
# Round one's phase one (a worker with a single field open is placed by the table itself). It brings Ana brown,
# blue x2, green, red; Ben black, brown, blue, red x2 (the trader turns his reds into the green that 1.2 needs);
# Cleo black, brown x2, green.
WORKERS = (("ana", "order 4"), ("ana", "worker K15"), ("ben", "worker R13"), ("ben", "order 5"),
           ("ben", "worker N14"), ("cleo", "worker P14"), ("ana", "worker N15"), ("cleo", "order 3"),
           ("ben", "worker M14"), ("ana", "order 1"), ("ana", "worker Q13"), ("cleo", "worker L12"),
           ("ana", "worker N13"))
TITLE_TEXT = {title: re.compile(rf"(?<!Craft )\b{re.escape(title)}\b") for title in TITLES.values()}


# reading
def kt_state(env: Env) -> Any:
    """The stored state of the Keythedral game in #games."""
    (data,) = sql(env.path, "SELECT state FROM snapshots WHERE game_id = ?", env.game_id())[0]
    return GAME.from_json(json.loads(data))


def channel_button(message: FakeMessage, action: str) -> str | None:
    """The custom_id of a channel message's button for an action (None when it has none)."""
    return next((c for c in message.custom_ids if c.startswith("kw:") and c.split(":", 4)[4] == action), None)


def titles_in(text: str) -> set[str]:
    """The law-card titles a text names."""
    return {title for title, pattern in TITLE_TEXT.items() if pattern.search(text)}


def open_prompt(env: Env, seat: int, key: str) -> int | None:
    """The open prompt of a seat's decision (by the engine's key)."""
    rows = sql(env.path, "SELECT id FROM prompts WHERE game_id = ? AND seat = ? AND key = ? AND status = 'open'",
               env.game_id(), seat, key)
    return int(rows[0][0]) if rows else None


def outbox(env: Env) -> list[tuple[int, str | None, str, dict[str, Any]]]:
    """(id, recipient, kind, payload) of every message the game queued, oldest first."""
    rows = sql(env.path, "SELECT id, recipient, kind, payload FROM outbox WHERE game_id = ? ORDER BY id",
               env.game_id())
    return [(int(i), r, str(k), json.loads(p)) for i, r, k, p in rows]


# the play-out policy (engine/playout.py's choice, on the state as stored)
def policy(state: Any, chooser: Rng) -> tuple[int, str]:
    """A seat among those to act and its move, as a random play-out chooses them."""
    seat, legal, index = pick(GAME, state, chooser)
    return seat, GAME.format(legal[index])


def last_round(state: Any, chooser: Rng) -> int:
    """The round the game ends in when the policy plays on (on copies; the table's forced moves included)."""
    state, ahead = copy.deepcopy(state), Rng(chooser.state)
    while not GAME.is_over(state):
        seat, text = policy(state, ahead)
        GAME.apply_in_place(state, seat, GAME.parse(state, seat, text))
        while not GAME.is_over(state) and (forced := forced_move(GAME, state)) is not None:
            GAME.apply_in_place(state, *forced)
    return int(state.round)


# playing through Discord
async def turn(env: Env, name: str, action: str) -> None:
    """A turn as a player takes it: the button on the last channel message when it has one, else /play."""
    last = env.public()[-1]
    found = channel_button(last, action)
    if found is not None:
        # it is theirs: they are pinged when the decision opens, not again at each step of it (give, give, ...)
        assert MENTION.findall(last.content) in ([env.uid(name)], []), last.content
        reply = await env.click_reply(name, found, last)
    else:
        reply = await env.run(name, "play", {"action": action})
    done = f"Done: {action}.".replace(" x2.", " ×2.")
    assert reply.ephemeral and reply.content == done, (name, action, reply.content)


def decision_dm(env: Env, name: str, phrase: str) -> FakeMessage:
    """A player's last decision DM about something."""
    found = [m for m in decision_dms(env, name) if phrase in m.content]
    assert found, f"no DM to {name} about '{phrase}'"
    return found[-1]


async def answer(env: Env, name: str, action: str, phrase: str) -> FakeMessage:
    """A player answers a decision outside their turn with the button of its DM; returns the DM."""
    dm = decision_dm(env, name, phrase)
    reply = await env.click_reply(name, button(dm, action), dm, dm=True)
    assert reply.content == f"Done: {action}.", (name, action, reply.content)
    return dm


async def play_by_policy(env: Env, chooser: Rng, until: Callable[[Any], bool]) -> tuple[int, int]:
    """Moves chosen by the policy through Discord until the stored state meets `until` (or the game ends):
    /play by the seat to act, or the DM button of a decision outside one's turn. Returns (moves, by DM)."""
    moves = by_dm = 0
    while not GAME.is_over(state := kt_state(env)) and not until(state):
        seat, action = policy(state, chooser)
        name = PLAYERS[seat]
        moves += 1
        decision = next(d for d in GAME.decisions(state) if d.seat == seat and d.must)
        if decision.kind != TURN or not decision.public_choices:  # its choices came by DM
            prompt = open_prompt(env, seat, decision.key)
            dm = next((m for m in reversed(decision_dms(env, name)) if prompt_of(m) == prompt), None)
            if dm is not None and f"kwi:{prompt}:{action}" in dm.custom_ids:
                reply = await env.click_reply(name, f"kwi:{prompt}:{action}", dm, dm=True)
                assert reply.content == f"Done: {action}.", (name, action, reply.content)
                by_dm += 1
                continue
        reply = await env.run(name, "play", {"action": action})
        assert reply.content == f"Done: {action}.", (name, action, reply.content)
    return moves, by_dm


def play_on_table(env: Env, chooser: Rng, until: Callable[[Any], bool]) -> list[int]:
    """Moves chosen by the policy through the real Table on the game's database (the bot stopped) until the state
    meets `until`; returns the outbox ids the last command queued."""
    store = Store(f"sqlite:///{env.path}")
    try:
        table, where = Table(store, images=False), Where(env.guild_id, env.games["id"])
        queued: list[int] = []
        while not GAME.is_over(state := kt_state(env)) and not until(state):
            seat, action = policy(state, chooser)
            name = PLAYERS[seat]
            outcome = table.handle(Command(where, Who(env.uid(name), NAMES[name]), "play", action))
            assert outcome.ok and outcome.reply == f"Done: {action}.", (name, action, outcome.reply)
            queued = [row.id for row in outcome.outbox if row.id is not None]
        return queued
    finally:
        store.close()


async def test_a_keythedral_game_is_played_to_its_end_with_the_law_cards_kept_secret(env: Env) -> None:
    # the table: opened, joined, started; the opening message with the table image, Ana pinged to lay a field
    env.seed = SEED
    opened = await env.run("ana", "new", {"game": "keythedral"})
    assert opened.content == "Table opened."
    assert env.public()[-1].content.startswith("Ana opened a Keythedral table (2-5 players).")
    await env.fake.wait_for(lambda: env.dms_noted("ana"))
    for name in ("ben", "cleo"):
        assert (await env.run(name, "join")).content == "You are seated."
        await env.fake.wait_for(functools.partial(env.dms_noted, name))
    assert (await env.run("ana", "start")).content == "Game started."
    await settled(env)
    opening = env.public()[-1]
    assert opening.content.startswith("The Keythedral game starts.")
    state = kt_state(env)
    drawn = flow.field_terrain(state.drawn)
    assert f"Waiting for Ana to lay the drawn {drawn} field tile." in opening.content
    assert MENTION.findall(opening.content) == [env.uid("ana")]
    assert opening.files and opening.files[0].data.startswith(PNG_MAGIC)
    assert [c.split(":", 4)[4] for c in opening.custom_ids] == [f"field {f}" for f in ("M12", "N12", "L13", "O13",
                                                                                       "L14", "O14", "M15", "N15")]
    # the opening names the drawn field; the table's text shows it too, to anyone who asks
    board = await env.run("zed", "board")
    assert f"Field to lay: {drawn} (back " in board.content and board.files[0].data.startswith(PNG_MAGIC)

    # set-up: the drawn field by its channel button, the cottage by /play (too many squares for buttons); every
    # later draw is announced in the channel with its terrain
    for number, (field, cottage) in enumerate(SETUP):
        name = PLAYERS[number % 3]
        await turn(env, name, field)
        await turn(env, name, cottage)
        state = kt_state(env)
        if state.phase == "setup":
            after = PLAYERS[(number + 1) % 3]
            assert f"{NAMES[after]} draws a {flow.field_terrain(state.drawn)} field tile to lay." in (
                env.public()[-1].content)
    assert "Set-up is complete. The four stage-1 building tiles are turned face up: 1.1 costs" in (
        env.public()[-2].content + env.public()[-1].content)

    # round one, phase one: the numbers and the workers by channel buttons; the harvest follows by itself
    for name, action in WORKERS:
        await turn(env, name, action)
    state = kt_state(env)
    assert (state.phase, state.round, state.turn) == ("actions", 1, 0)
    cubes = [{c: k for c, k in held.items() if k} for held in state.cubes]
    assert cubes == [{"brown": 1, "blue": 2, "green": 1, "red": 1}, {"black": 1, "brown": 1, "blue": 1, "red": 2},
                     {"black": 1, "brown": 2, "green": 1}]

    # phase three: Ana procures the law card on space 1 and pays with a channel button; its title is told to her
    # alone, in a DM; the channel says only that she takes a law card
    dms_before = {name: len(env.dms(name)) for name in PLAYERS}
    await turn(env, "ana", "procure 1")
    await turn(env, "ana", "give red")
    state = kt_state(env)
    (card,) = [TITLES[c] for c in state.hands[0]]
    assert card == "Work Order"
    told = env.dms("ana")[dms_before["ana"]:]
    assert [m.content for m in told if "law card:" in m.content] == [
        "From the game in <#{}>:\nYour new law card: Work Order (play it at the start of phase 1).".format(
            env.games["id"])]
    # the cubes she could pay with were hers alone to see (ruling T-1): they came by DM, not as channel buttons
    assert any("you are to choose the cubes to pay" in m.content and "Cubes (5):" in m.content for m in told)
    assert not any(titles_in(m.content) for name in ("ben", "cleo") for m in env.dms(name)[dms_before[name]:])
    assert env.public()[-1].content.startswith("Ana gives 1 red and takes a law card; no more actions for them this "
                                               "round.")
    assert not titles_in(env.public()[-1].content)

    # Ben trades his two reds (one `give red x2` button) for a green; Cleo procures space 2 (Design Change)
    await turn(env, "ben", "trade")
    await turn(env, "ben", "give red x2")
    assert "Ben gives the trader 2 red." in env.public()[-1].content
    await turn(env, "ben", "take green")
    await turn(env, "cleo", "procure 2")
    await turn(env, "cleo", "give black")
    assert "Your new law card: Design Change" in env.dms("cleo")[-1].content
    assert kt_state(env).hands == [[1], [], [13]]

    # Ben buys 1.2: the two law holders are asked by DM, with buttons; the channel shows no law choice
    await turn(env, "ben", "buy 1.2")
    window = env.public()[-1]
    assert "Ben wants to buy the seat on space 1.2." in window.content and window.custom_ids == []
    assert "Waiting for Ana and Cleo to answer Ben's purchase of 1.2 with a law card, or continue." in window.content
    purchase = "answer Ben's purchase of 1.2"
    assert decision_dm(env, "ana", purchase).custom_ids == [f"kwi:{prompt_of(decision_dm(env, 'ana', purchase))}"
                                                            ":continue"]
    cleo_choices = [c.split(":", 2)[2] for c in decision_dm(env, "cleo", purchase).custom_ids]
    assert cleo_choices == ["continue"] + [f"law design-change 1.{k}" for k in range(1, 5)]
    assert not [m for m in decision_dms(env, "ben") if purchase in m.content]
    await answer(env, "ana", "continue", purchase)
    await answer(env, "cleo", "continue", purchase)
    paid = env.public()[-1].content
    assert "Ben pays 1 black, 1 brown, 1 blue, 1 green and takes the seat on 1.2, worth 1." in paid
    # Ben has nothing left, so he can only pass; the table does not pass for him, which would show that his screen
    # is empty (ruling T-1): he passes himself
    assert "Waiting for Ben to take a phase-3 action." in paid
    await turn(env, "ben", "pass")
    paid = env.public()[-1].content
    assert "Phase 4: the workers come home; 2 new law cards laid face down." in paid

    # the start of phase five: every holder (Ana, Cleo) is asked by DM with buttons, Ben (holding none) is not
    assert "Waiting for Ana and Cleo to play a law card at the start of phase 5, or continue." in paid
    assert sorted(MENTION.findall(paid)) == sorted([env.uid("ana"), env.uid("cleo")])
    for name in ("ana", "cleo"):
        asked = decision_dm(env, name, "start of phase 5")
        assert button(asked, "continue") and asked.content.count("Law cards (") == 1
    assert not [m for m in decision_dms(env, "ben") if "start of phase 5" in m.content]
    await answer(env, "ana", "continue", "start of phase 5")
    await answer(env, "cleo", "continue", "start of phase 5")

    # phase five: Cleo bids first; Ana, a later bidder, passes ahead with /play (autocomplete offers it to her)
    bids = env.public()[-1]
    assert "Phase 5: Ana hands the start-player marker to Ben." in bids.content
    assert "Anyone may pass ahead of their turn (`pass`)." in bids.content
    # the bids Cleo may make show how many cubes she holds: they come to her alone, by DM (ruling T-1)
    assert bids.custom_ids == []
    bidding = decision_dm(env, "cleo", "bid or pass for the start player")
    assert [c.split(":", 2)[2] for c in bidding.custom_ids] == ["pass", "bid 1", "bid 2", "bid 3"]
    assert await env.suggest("ana", "play", "action", "") == ["pass"]
    # the phase-5 message tells the later bidders they may pass ahead (no DM: the decision is public and not due)
    kept = await env.run("ana", "play", {"action": "pass"})
    assert kept.content == ("Answer kept: 'pass'. It counts once the players before you have decided (waiting for "
                            "Cleo to bid or pass for the start player).")
    await turn(env, "cleo", "bid 1")
    won = env.public()[-1].content
    assert "Ana passes." in won and "Waiting for Ben to match the highest bid or pass." in won
    await turn(env, "ben", "pass")  # Ben cannot match; the table does not pass for him (T-1)
    await turn(env, "cleo", "give brown")
    await turn(env, "cleo", "start blue")
    assert "Round 2 begins. Ana is the start player." in env.public()[-1].content

    # round two, phase one: Ana plays Work Order from her DM; the channel names it only now; Cleo lets it stand
    assert not any(titles_in(m.content) for m in env.fake.messages(env.games["id"], include_ephemeral=False))
    asked = await answer(env, "ana", "law work-order", "start of phase 1")
    assert [c.split(":", 2)[2] for c in asked.custom_ids] == ["continue", "law work-order"]
    assert "Ana plays the law card Work Order." in env.public()[-1].content
    assert [c.split(":", 2)[2] for c in decision_dm(env, "cleo", "repeal Work Order").custom_ids] == ["continue"]
    await answer(env, "cleo", "continue", "repeal Work Order")
    for number in (3, 1, 5, 2):  # the last number is the only one left: the table sets it
        await turn(env, "ana", f"order {number}")
    assert "Ana sets this round's work order: 3, 1, 5, 2, 4." in env.public()[-1].content
    # after the card took effect the phase-1 window asks again only those still holding a card: Cleo (T-40)
    assert kt_state(env).windows[-1].seats == [2]

    # the rest of rounds two and three by the policy through Discord; the middle through the Table; the last three
    # rounds through Discord again
    chooser = Rng.from_seed(CHOICE_SEED)
    final = last_round(kt_state(env), chooser)
    assert final > 6
    moves, by_dm = await play_by_policy(env, chooser, lambda s: s.round >= 4)
    await env.stop()
    queued = await asyncio.to_thread(play_on_table, env, chooser, lambda s: s.round >= final - 2)
    assert queued  # the middle had moves
    sql(env.path, "UPDATE outbox SET status = 'sent' WHERE status = 'pending' AND id < ?", min(queued))
    await env.start()
    await settled(env)
    more, more_by_dm = await play_by_policy(env, chooser, lambda s: False)
    assert moves + more > 100 and by_dm + more_by_dm > 10, (moves, by_dm, more, more_by_dm)

    # the end: the final score with the scoreboard image, everyone pinged; the game is finished in that round
    await settled(env)
    state = kt_state(env)
    assert GAME.is_over(state) and state.round == final
    last = env.public()[-1]
    assert "The last seat of the Keythedral is taken: the game is over." in last.content
    assert "Final score:" in last.content and last.files and last.files[0].data.startswith(PNG_MAGIC)
    assert sorted(MENTION.findall(last.content)) == sorted(env.uid(n) for n in PLAYERS)
    assert [m for m in env.public() if "Final score:" in m.content] == [last]
    assert sql(env.path, "SELECT game, status FROM games") == [("keythedral", "finished")]
    rows = outbox(env)
    assert {row[2] for row in rows} == {"public", "private", "decision"}
    assert sql(env.path, "SELECT DISTINCT status FROM outbox") == [("sent",)]
    prompts = [payload["prompt"] for _, _, kind, payload in rows if kind == "decision"]
    assert len(prompts) == len(set(prompts)) > 50  # one DM per decision, never two

    # no leak, over the whole game as queued (the middle included) and over the channel as posted: a law card's
    # title is public only from the message that plays it; a player's DMs name only cards they drew or saw played;
    # no channel button is a law card
    played: dict[str, float] = {}
    drawn_by: dict[tuple[str, str], int] = {}
    for row_id, recipient, kind, payload in rows:
        for title in TITLES.values():
            if kind == "public" and f"plays the law card {title}" in payload["text"]:
                played.setdefault(title, row_id)
            if recipient and f"Your new law card: {title}" in payload["text"]:
                drawn_by.setdefault((recipient, title), row_id)
    assert "Work Order" in played and len(drawn_by) >= 4
    for row_id, recipient, kind, payload in rows:
        for title in titles_in(payload["text"]):
            if recipient is None:
                assert row_id >= played.get(title, math.inf), (title, payload["text"])
            else:
                assert row_id >= min(played.get(title, math.inf), drawn_by.get((recipient, title), math.inf)), (
                    recipient, title, payload["text"])
        choices = (payload.get("buttons") or {}).get("choices", []) if kind == "public" else []
        assert not any(c.startswith("law ") for c in choices), choices
    posted = {str(r.response["id"]): int(r.json["nonce"][2:].split(".")[0])
              for r in env.fake.requests_to("POST", rf"/channels/{env.games['id']}/messages")
              if isinstance(r.response, dict) and r.json and "nonce" in r.json}
    channel = env.fake.messages(env.games["id"], include_ephemeral=False)
    assert len(channel) > 100
    for message in channel:
        for title in titles_in(message.content):
            assert posted[message.id] >= played.get(title, math.inf), (title, message.content)
        assert not any(c.startswith("kw:") and c.split(":", 4)[4].startswith("law ") for c in message.custom_ids)
