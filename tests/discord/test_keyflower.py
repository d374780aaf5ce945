"""A whole Keyflower game end to end: Ana, Ben and Cleo in #games, through the unmodified discord.py client and
the fake Discord, on the real Table and a real SQLite file.

A Keyflower turn is private to offer (its choices show what is behind the screen) and public once made, so each
step of a turn comes to its player by DM, with buttons when there are few enough choices, or else is typed with
`/play` (whose autocomplete offers the player's own choices); the channel says what was done. The boats are picked
with channel buttons; the new tiles are placed at once by everyone (a DM each, with buttons); the winter choice is
secret and simultaneous (a DM each), and nothing of it is shown until all have chosen.

What goes which way:

- Through Discord, as players would: `/new game:keyflower` (seed 12 drawn), `/join`, `/start`; the whole of spring,
  scripted: bids and uses typed with `/play` and counted with the DM's buttons, an outbid group moved, a resource
  chosen, a home tile worked to upgrade itself, passes, the boat picks by channel button (the last one played by
  the table itself) and the villages' new tiles placed from the DMs; then summer with the play-out policy.
- Through the real Table on the same database, the bot stopped: autumn, up to the winter choice, with the same
  policy. The messages these moves queue are marked delivered (the bot never posts them), except those of the last
  command (the start of winter and its three secret DMs), which the restarted bot delivers; the leak checks read
  them all from the outbox.
- Through Discord again, after that restart: the winter choice from the DMs' buttons, then winter by the policy to
  the final score.

The policy is the engine's own (GAME.playout_weights over GAME.legal_actions with a seeded engine.core.Rng, as
engine/playout.py chooses), applied before each move to the state stored in the database; each move goes in with
the last channel message's button when it has one, else with the player's decision DM's button, else with `/play`.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from bot.store import Store
from bot.table import Command, Table, Where, Who
from engine.core import Rng
from engine.keyflower import GAME
from engine.keyflower.components import COMPONENTS
from engine.keyflower.flow import tile
from engine.playout import pick
from tests.discord import MENTION, PLAYERS, PNG_MAGIC, Env, sql
from tests.discord.test_outbox_decisions import prompt_of, sent_dms, settled
from tests.discord_fake import FakeMessage

SEED = 12  # Ana (home tile 3) starts; spring offers Apprentice Hall, Workshop, Keystone Quarry, Alehouse, Miner,
# Stable and Keywood; behind the screens Ana has blue 3, red 1, yellow 4, Ben blue 3, red 2, yellow 3, Cleo blue 4,
# red 1, yellow 3
CHOICE_SEED = 1  # the play-out policy's generator, from summer on
NAMES = {name: name.title() for name in PLAYERS}
SEATS = {name: seat for seat, name in enumerate(PLAYERS)}
# Spring, move by move: who, what, and how it goes in (play: typed, as a turn offers more than 20 choices; dm: the
# button of the player's decision DM; channel: the button of the last channel message).
SPRING = (
    ("ana", "bid alehouse yellow", "play"), ("ana", "count 1", "dm"),
    ("ben", "use keywood blue", "play"), ("ben", "count 1", "dm"),
    ("cleo", "bid alehouse yellow", "play"), ("cleo", "count 2", "dm"),  # Ana is outbid
    ("ana", "move alehouse bid stable", "play"), ("ana", "count 0", "dm"),  # her group moves on, nothing added
    ("ben", "use keystone-quarry blue", "play"), ("ben", "count 1", "dm"),
    ("cleo", "use workshop blue", "play"), ("cleo", "count 1", "dm"), ("cleo", "take iron", "dm"),
    ("ana", "use miner red", "play"), ("ana", "count 1", "dm"),
    ("ben", "use home-6 yellow", "play"), ("ben", "count 1", "dm"),  # his wood and stone lie on his home tile
    ("ben", "upgrade home-6", "dm"), ("ben", "done", "dm"),
    ("cleo", "bid order-2 blue", "play"), ("cleo", "count 1", "dm"),  # the start-player tile
    ("ana", "pass", "play"), ("ben", "pass", "play"), ("cleo", "pass", "play"),
    ("cleo", "boat keyflower", "channel"), ("ana", "boat sea-bastion", "channel"),
    ("ana", "place stable 1/0", "dm"), ("cleo", "place alehouse 1/-1", "dm"),  # (Cleo's also had channel buttons)
)
WINTER = {t.id: t.name for t in COMPONENTS.tiles if t.kind == "winter"}
WINTER_TEXT = {key: re.compile(rf"(?<![\w-])({re.escape(key)}|{re.escape(name)})(?![\w-])")
               for key, name in WINTER.items()}
SCREEN_TEXT = re.compile(r"behind your screen|Workers \(\d+\)|Skills \(\d+\)|Winter tiles in hand|You may:")
SKILL_COUNT = re.compile(r"\b\d+ (anvil|pick|saw)\b")  # a skill named by kind ('1 saw'; not 'pick a boat')
PAID_FIXED = re.compile(r"^\w+ pays \d+ (anvil|pick|saw)\.$")  # Carpenter, Mason, Smelter: the kind is printed
UPGRADE = re.compile(r"^\w+ upgrades (?P<tile>.+), paying (?P<paid>.+)\.$")
PUBLIC_VERBS = ("boat ", "place ")  # the only decisions whose choices may be channel buttons


# reading
def kf_state(env: Env) -> Any:
    """The stored state of the Keyflower game in #games."""
    (data,) = sql(env.path, "SELECT state FROM snapshots WHERE game_id = ?", env.game_id())[0]
    return GAME.from_json(json.loads(data))


def channel_button(message: FakeMessage, action: str) -> str | None:
    """The custom_id of a channel message's button for an action (None when it has none)."""
    return next((c for c in message.custom_ids if c.startswith("kw:") and c.split(":", 4)[4] == action), None)


def open_prompt(env: Env, seat: int) -> int | None:
    """The open prompt of a seat's decision (Keyflower gives a seat one decision at a time)."""
    rows = sql(env.path, "SELECT id FROM prompts WHERE game_id = ? AND seat = ? AND status = 'open' ORDER BY id",
               env.game_id(), seat)
    assert len(rows) <= 1, rows
    return int(rows[0][0]) if rows else None


def decision_dm(env: Env, name: str) -> FakeMessage | None:
    """The latest message in a player's DMs with buttons answering their open decision: its DM, or the reply to
    their last click on it when the decision stays open (placing several tiles)."""
    prompt = open_prompt(env, SEATS[name])
    return next((m for m in reversed(env.dms(name)) if any(c.startswith(f"kwi:{prompt}:") for c in m.custom_ids)),
                None)


def dm_choices(message: FakeMessage) -> list[str]:
    """The answers a decision DM's buttons give."""
    return [c.split(":", 2)[2] for c in message.custom_ids if c.startswith("kwi:")]


def legal(env: Env, name: str) -> list[str]:
    """A player's legal actions now, in the engine's order."""
    state = kf_state(env)
    return [GAME.format(a) for a in GAME.legal_actions(state, SEATS[name])]


def outbox(env: Env) -> list[tuple[int, str | None, str, dict[str, Any]]]:
    """(id, recipient, kind, payload) of every message the game queued, oldest first."""
    rows = sql(env.path, "SELECT id, recipient, kind, payload FROM outbox WHERE game_id = ? ORDER BY id",
               env.game_id())
    return [(int(i), r, str(k), json.loads(p)) for i, r, k, p in rows]


def winter_named(text: str) -> set[str]:
    """The winter tiles (ids) a text names, by id or by name."""
    return {key for key, pattern in WINTER_TEXT.items() if pattern.search(text)}


def screen_leaks(text: str) -> list[str]:
    """Sentences of a public text that show what is behind a screen: a hand's listing, a drawn worker's colour, or
    a skill's kind where the rules hide it (a skill paid face down: Brewer, Hiring fair, an upgrade costing any
    skill). A kind printed on the tile (Carpenter's saw, Keywood's upgrade) is public."""
    found = []
    for sentence in (s for line in text.splitlines() for s in re.split(r"(?<=\.) ", line)):
        if SCREEN_TEXT.search(sentence) or (" gains " in sentence and re.search(r"\b(blue|red|yellow)\b", sentence)):
            found.append(sentence)
        elif SKILL_COUNT.search(sentence) and not PAID_FIXED.match(sentence):
            upgrade = UPGRADE.match(sentence)
            printed = next((set(t.upgrade) for t in COMPONENTS.tiles if upgrade and t.name == upgrade["tile"]),
                           set())
            if not set(SKILL_COUNT.findall(sentence)) <= printed:
                found.append(sentence)
    return found


# the play-out policy (engine/playout.py's choice, on the state as stored)
def policy(state: Any, chooser: Rng) -> tuple[int, str]:
    """A seat among those to act and its move, as a random play-out chooses them."""
    seat, options, index = pick(GAME, state, chooser)
    return seat, GAME.format(options[index])


# playing through Discord
async def act(env: Env, name: str, action: str, way: str | None = None) -> str:
    """A move as a player makes it (`way`), by default with the last channel message's button for it, else with
    the button of their decision's DM (when its buttons are exactly their legal actions now), else with /play.
    Returns the way it went in ('stale' for /play where the decision's last buttons were out of date)."""
    last = env.public()[-1]
    found = channel_button(last, action)
    dm = decision_dm(env, name)
    offered = dm_choices(dm) if dm is not None else []
    fresh = offered == legal(env, name)
    way = way or ("channel" if found else "dm" if fresh and action in offered else "play")
    if way == "channel":
        assert found is not None and found.split(":")[2] == str(SEATS[name]), (found, name, last.content)
        reply = await env.click_reply(name, found, last)
    elif way == "dm":
        assert dm is not None and fresh and action in offered, (name, action, offered)
        reply = await env.click_reply(name, f"kwi:{prompt_of(dm)}:{action}", dm, dm=True)
    else:
        assert found is None and not (fresh and action in offered), (name, action)  # buttons are used if any
        reply = await env.run(name, "play", {"action": action})
        way = "stale" if offered and not fresh else way
    assert reply.ephemeral and reply.content == f"Done: {action}.", (name, action, reply.content)
    return way


async def play_by_policy(env: Env, chooser: Rng, until: Callable[[Any], bool]) -> Counter[str]:
    """Moves chosen by the policy through Discord until the stored state meets `until` (or the game ends); returns
    how many went in each way."""
    ways: Counter[str] = Counter()
    while not GAME.is_over(state := kf_state(env)) and not until(state):
        seat, action = policy(state, chooser)
        ways[await act(env, PLAYERS[seat], action)] += 1
    return ways


def play_on_table(env: Env, chooser: Rng, until: Callable[[Any], bool]) -> list[int]:
    """Moves chosen by the policy through the real Table on the game's database (the bot stopped) until the state
    meets `until`; returns the outbox ids the last command queued."""
    store = Store(f"sqlite:///{env.path}")
    try:
        table, where = Table(store, images=False), Where(env.guild_id, env.games["id"])
        queued: list[int] = []
        while not GAME.is_over(state := kf_state(env)) and not until(state):
            seat, action = policy(state, chooser)
            name = PLAYERS[seat]
            outcome = table.handle(Command(where, Who(env.uid(name), NAMES[name]), "play", action))
            assert outcome.ok and outcome.reply == f"Done: {action}.", (name, action, outcome.reply)
            queued = [row.id for row in outcome.outbox if row.id is not None]
        return queued
    finally:
        store.close()


async def play_on_table_to_the_winter_choice(env: Env, chooser: Rng) -> None:
    """With the bot stopped, the policy's moves through the real Table up to the winter choice; their messages are
    marked delivered except those of the last command, which the restarted bot delivers."""
    await env.stop()
    queued = await asyncio.to_thread(play_on_table, env, chooser, lambda s: s.phase == "winter-choice")
    assert queued and kf_state(env).phase == "winter-choice"
    sql(env.path, "UPDATE outbox SET status = 'sent' WHERE status = 'pending' AND id < ?", min(queued))
    await env.start()
    await settled(env)


def outbox_leaks(env: Env, rows: list[tuple[int, str | None, str, dict[str, Any]]]) -> list[tuple[int, str]]:
    """The sentences of the queued channel messages before the final score that show what is behind a screen, as
    (outbox row, sentence); a DM that shows a screen other than its reader's own fails at once."""
    user_seat = {env.uid(n): s for s, n in enumerate(PLAYERS)}
    final_row = next(i for i, r, k, p in rows if r is None and "Final score:" in p["text"])
    leaks: list[tuple[int, str]] = []
    for row_id, recipient, _, payload in rows:
        if recipient is None and row_id < final_row:
            leaks += [(row_id, line) for line in screen_leaks(payload["text"])]
        elif recipient is not None:
            screens = set(re.findall(r"(\w+), behind your screen", payload["text"]))
            assert screens <= {NAMES[PLAYERS[user_seat[recipient]]]}, (recipient, screens)
    return leaks


async def test_a_keyflower_game_is_played_to_its_end_with_screens_and_winter_tiles_kept_secret(env: Env) -> None:
    dealt = GAME.setup([NAMES[n] for n in PLAYERS], SEED).winter_hand  # each seat's three winter tiles

    # the table: opened, joined, started; the opening message with the table image, Ana pinged to take a turn
    env.seed = SEED
    opened = await env.run("ana", "new", {"game": "keyflower"})
    assert opened.content == "Table opened."
    assert env.public()[-1].content.startswith("Ana opened a Keyflower table (2-6 players).")
    await env.fake.wait_for(lambda: env.dms_noted("ana"))
    for name in ("ben", "cleo"):
        assert (await env.run(name, "join")).content == "You are seated."
        await env.fake.wait_for(functools.partial(env.dms_noted, name))
    assert (await env.run("ana", "start")).content == "Game started."
    await settled(env)
    opening = env.public()[-1]
    assert opening.content.startswith("The Keyflower game starts.")
    assert "Waiting for Ana to take a turn." in opening.content
    assert MENTION.findall(opening.content) == [env.uid("ana")]
    assert opening.files and opening.files[0].data.startswith(PNG_MAGIC)
    assert opening.custom_ids == []  # a turn's choices are private: no buttons in the channel
    # the table's text shows the spring tiles to anyone who asks
    board = await env.run("zed", "board")
    assert "Up for auction (7):" in board.content and "- Alehouse (→ 1 worker): no bids" in board.content
    assert board.files[0].data.startswith(PNG_MAGIC)

    # each player sees their own screen and winter tiles, privately: Ana with her turn (too many choices for
    # buttons), Ben and Cleo in a plain DM
    (turn_dm,) = [m for m in sent_dms(env, "ana") if "you are to take a turn" in m.content]
    assert "Ana, you are to take a turn." in turn_dm.content and "Workers (8): blue 3, red 1, yellow 4." in (
        turn_dm.content)
    assert "Too many answers for buttons: answer with `/play`" in turn_dm.content and dm_choices(turn_dm) == []
    for seat, name in enumerate(PLAYERS):
        told = "\n".join(m.content for m in sent_dms(env, name))
        assert f"{NAMES[name]}, behind your screen:" in told
        assert winter_named(told) == set(dealt[seat]), (name, winter_named(told))
    # /play's autocomplete offers the player to act their own choices, and nobody else anything
    assert await env.suggest("ana", "play", "action", "bid alehouse") == [
        "bid alehouse blue", "bid alehouse red", "bid alehouse yellow"]
    assert await env.suggest("ben", "play", "action", "bid") == []
    assert await env.suggest("zed", "play", "action", "") == []

    # spring through Discord, move by move
    for name, action, way in SPRING:
        before = len(env.public())
        await act(env, name, action, way)
        said = env.public()[-1]
        assert len(env.public()) > before and said.content, (name, action)
        if way == "play" and action != "pass":  # the turn goes on privately: the channel waits, with no buttons
            assert said.content.startswith(f"Waiting for {NAMES[name]} to say how many workers to "), said.content
            dm = decision_dm(env, name)
            assert dm is not None and "you are to say how many workers to " in dm.content
            assert f"{NAMES[name]}, behind your screen:" in dm.content
            assert all(c.startswith("count ") for c in dm_choices(dm)) and said.custom_ids == []
    texts = [m.content for m in env.public()]
    joined = "\n".join(texts)
    for line in ("Ana bids 1 yellow on alehouse.", "Ben uses keywood with 1 blue.",
                 "Ben gains 1 wood on home-6.", "Cleo bids 2 yellow on alehouse.",
                 "Ana moves outbid workers (1 yellow) from alehouse.", "Ana bids 1 yellow on stable.",
                 "Cleo takes 1 iron.", "Ana gains 2 iron on home-3.",
                 "Ben uses home-6 with 1 yellow.", "Ben upgrades Home tile 6, paying 1 stone, 1 wood.",
                 "Cleo bids 1 blue on order-2.", "Everyone has passed: the end of spring.",
                 "Nobody bid for Keywood: it leaves the game.", "Ana wins Stable with 1 yellow.",
                 "Cleo wins Alehouse with 2 yellow.", "Cleo won the start-player tile and takes the purple keyple.",
                 "Ben has only one possible choice, so Keywood plays it: boat sea-breese.",
                 "Waiting for Ana and Cleo to place new tiles in the village.", "Ana places stable at 1/0.",
                 "Cleo places alehouse at 1/-1.", "Summer begins: "):
        assert line in joined, line
    # the boat picks were offered in the channel (public: the boats' loads are in plain view)
    boats = next(m for m in env.public() if "Waiting for Cleo to pick a boat." in m.content)
    assert [c.split(":", 4)[4] for c in boats.custom_ids] == ["boat keyflower", "boat sea-bastion",
                                                              "boat sea-breese"]
    assert MENTION.findall(boats.content) == [env.uid("cleo")]
    # the placing is simultaneous: each placer had a DM with buttons, none in the channel while both were due
    placing = next(m for m in env.public() if "Waiting for Ana and Cleo to place" in m.content)
    assert placing.custom_ids == [] and sorted(MENTION.findall(placing.content)) == sorted(
        [env.uid("ana"), env.uid("cleo")])
    # once Ana had placed, Cleo alone was due: her spots (public) came as channel buttons too, without a new ping
    placed = next(m for m in env.public() if "Ana places stable at 1/0." in m.content)
    assert [c.split(":", 4)[4] for c in placed.custom_ids if c.split(":")[2] == "2"] == [
        "place alehouse -1/0", "place alehouse 1/-1", "place alehouse 1/0"]
    assert MENTION.findall(placed.content) == []
    state = kf_state(env)
    assert (state.season, state.phase, state.start) == (1, "turns", 2)
    assert [sorted(p.tile for p in v.values()) for v in state.villages] == [
        ["home-3", "stable"], ["home-6"], ["alehouse", "home-4"]]
    assert state.villages[1]["0/0"].up  # Ben's home tile is upgraded

    # winning bids and workers on tiles that left went into the bag, Ben's worker on his own home tile came back
    # to him, and each took a boat's load: Ana 6 + 6, Ben 6 + 6, Cleo 4 + 7
    assert [sum(w.values()) for w in state.workers] == [12, 12, 11]

    # summer by the policy through Discord; autumn through the Table; the winter choice and winter through Discord
    chooser = Rng.from_seed(CHOICE_SEED)
    summer = await play_by_policy(env, chooser, lambda s: s.season >= 2)
    await play_on_table_to_the_winter_choice(env, chooser)

    # the winter choice: everyone asked at once by DM, with their own tiles as buttons; the channel names none
    asked = env.public()[-1]
    assert "Winter: everyone secretly chooses the winter tiles they put into play (at least one)." in asked.content
    assert "Waiting for Ana, Ben and Cleo to choose winter tiles." in asked.content and asked.custom_ids == []
    assert sorted(MENTION.findall(asked.content)) == sorted(env.uid(n) for n in PLAYERS)
    for seat, name in enumerate(PLAYERS):
        dm = decision_dm(env, name)
        assert dm is not None and "you are to choose winter tiles." in dm.content
        hand = sorted(dealt[seat])
        assert dm_choices(dm) == [" ".join(["winter", *combo]) for k in range(1, 4)
                                  for combo in itertools.combinations(hand, k)]
    while kf_state(env).phase == "winter-choice":
        seat, action = policy(kf_state(env), chooser)
        name = PLAYERS[seat]
        assert await act(env, name, action) == "dm"
        said = env.public()[-1].content
        assert said.startswith(f"{NAMES[name]} has chosen their winter tiles."), said
        told = f"You put {', '.join(tile(t).name for t in action.split()[1:])} into play."
        assert [m for m in sent_dms(env, name) if told in m.content], (name, told)
    state = kf_state(env)
    played = [list(p) for p in state.winter_played]
    reveal = env.public()[-1].content
    counts = ", ".join(f"{NAMES[n]} {len(played[s])}" for s, n in enumerate(PLAYERS))
    assert f"The winter choices are shown together: {counts}." in reveal
    assert "Winter tiles up for auction: " in reveal and winter_named(reveal) == {t for p in played for t in p}
    winter = await play_by_policy(env, chooser, lambda s: False)
    assert sum(summer.values()) >= 30 and sum(winter.values()) >= 30, (summer, winter)  # whole seasons were played
    assert summer["dm"] > 20 and summer["play"] > 10 and summer["channel"] > 0, summer
    assert not (summer + winter)["stale"]  # a player's latest buttons (a DM, or the reply to a click) were current

    # the end: the final score with the scoreboard image, everyone pinged; the game is finished
    await settled(env)
    state = kf_state(env)
    assert GAME.is_over(state)
    last = env.public()[-1]
    assert "Winter is over: the game ends." in last.content
    board_final = GAME.score(state, None)
    top = board_final.players[0]
    assert f"Final score:\n1. {top.name}: {top.total}" in last.content
    assert last.files and last.files[0].data.startswith(PNG_MAGIC)
    assert sorted(MENTION.findall(last.content)) == sorted(env.uid(n) for n in PLAYERS)
    assert [m for m in env.public() if "Final score:" in m.content] == [last]
    assert sql(env.path, "SELECT game, status FROM games") == [("keyflower", "finished")]
    rows = outbox(env)
    assert {row[2] for row in rows} == {"public", "private", "decision"}
    assert sql(env.path, "SELECT DISTINCT status FROM outbox") == [("sent",)]
    prompts = [payload["prompt"] for _, _, kind, payload in rows if kind == "decision"]
    assert len(prompts) == len(set(prompts)) > 100  # one DM per decision, never two

    # no leak, over the whole game as queued (the middle included) and over the channel as posted: no screen's
    # contents in the channel before the end opens them; no winter tile named in the channel before the reveal,
    # and none kept back ever; a player's DMs name only their own winter tiles until the reveal and show only
    # their own screen; no channel button offers a turn's private choices
    revealed = {t for p in played for t in p}
    kept = {t for hand in dealt for t in hand} - revealed
    user_seat = {env.uid(n): s for s, n in enumerate(PLAYERS)}
    reveal_row = next(i for i, r, k, p in rows if r is None and "Winter tiles up for auction:" in p["text"])
    leaks = outbox_leaks(env, rows)  # (outbox row, channel message or log seq; the sentence)
    for row_id, recipient, _, payload in rows:
        text = payload["text"]
        named = winter_named(text)
        if recipient is None:
            assert not named & kept and (row_id >= reveal_row or not named), (row_id, named, text)
            choices = (payload.get("buttons") or {}).get("choices", [])
            assert all(c.startswith(PUBLIC_VERBS) for c in choices), choices
        else:
            own = set(dealt[user_seat[recipient]])
            assert named <= own | (revealed if row_id >= reveal_row else set()), (recipient, named, text)
    channel = env.fake.messages(env.games["id"], include_ephemeral=False)
    assert len(channel) > 100
    posted_reveal = next(k for k, m in enumerate(channel) if "Winter tiles up for auction:" in m.content)
    for k, message in enumerate(channel):
        named = winter_named(message.content)
        assert not named & kept and (k >= posted_reveal or not named), (named, message.content)
        if "Final score:" not in message.content:
            leaks += [(k, line) for line in screen_leaks(message.content)]
        actions = [c.split(":", 4)[4] for c in message.custom_ids if c.startswith("kw:")]
        assert all(a.startswith(PUBLIC_VERBS) for a in actions), actions
    # the log's public words (what /log shows anyone) likewise
    logged = sql(env.path, "SELECT seq, summary FROM actions WHERE game_id = ? ORDER BY seq", env.game_id())
    reveal_seq = next(seq for seq, summary in logged if "Winter tiles up for auction:" in summary)
    for seq, summary in logged:
        notation, _, said = summary.partition(": ")
        named = winter_named(summary)
        assert not named & kept and (seq >= reveal_seq or not named), (seq, summary)
        leaks += [(seq, notation)] * bool(re.match(r"pay (anvil|pick|saw)$", notation))
        leaks += [(seq, sentence) for sentence in screen_leaks(said)]
    assert not leaks, leaks
