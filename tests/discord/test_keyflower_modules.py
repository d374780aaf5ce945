"""Keyflower with both modules, Keymelequin and Key Celeste, end to end: Ana, Ben and Cleo in #games through the
unmodified discord.py client and the fake Discord, on the real Table and a real SQLite file.

Spring and summer go through Discord, autumn through the real Table with the bot stopped, the winter choice and
winter through Discord again after the restart (as in test_keyflower.py, whose helpers this test shares). The moves
are the engine's play-out policy, nudged to take up what the modules add: a bid for Key Celeste when nobody has bid
there yet, and the ghost as soon as its owner may play it.
"""

from __future__ import annotations

import re
from typing import Any

from engine.core import Rng
from engine.keyflower import GAME
from engine.playout import pick
from tests.discord import MENTION, PLAYERS, PNG_MAGIC, Env, sql
from tests.discord.test_keyflower import (
    NAMES,
    SEATS,
    act,
    kf_state,
    outbox,
    outbox_leaks,
    play_on_table_to_the_winter_choice,
)
from tests.discord.test_outbox_decisions import sent_dms, settled

SEED = 12
OPTIONS = {"keymelequin": "keyflower", "key_celeste": True}


def module_policy(state: Any, chooser: Rng) -> tuple[int, str]:
    """The play-out policy's seat and move, except that the ghost is played whenever it may be, and Key Celeste
    gets a bid while nobody has bid there."""
    seat, options, index = pick(GAME, state, chooser)
    texts = [GAME.format(o) for o in options]
    ghost = [t for t in texts if t.startswith("ghost ")]
    celeste = [t for t in texts if t.startswith("bid key-celeste ")]
    if ghost:
        return seat, ghost[0]
    if celeste and not ("key-celeste" in state.places and state.places["key-celeste"].bids):
        return seat, celeste[0]
    return seat, texts[index]


async def play_until(env: Env, chooser: Rng, until: Any) -> int:
    """Moves by the module policy through Discord until the stored state meets `until`; returns how many."""
    moves = 0
    while not GAME.is_over(state := kf_state(env)) and not until(state):
        seat, action = module_policy(state, chooser)
        await act(env, PLAYERS[seat], action)
        moves += 1
    return moves


def channel_text(env: Env) -> str:
    """Everything posted in #games so far."""
    return "\n".join(m.content for m in env.public())


async def test_a_keyflower_game_with_keymelequin_and_key_celeste_is_played_to_its_end(env: Env) -> None:
    env.seed = SEED
    refused = await env.run("ana", "new", {"game": "keyflower", "keymelequin": "sea-breese"})
    assert refused.content == ("With 2 players the Keymelequin can replace keyflower, sea-bastion, not 'sea-breese': "
                               "the Sea Breese boat is in play from 3 players (raise min_players, or choose another "
                               "boat).")
    opened = await env.run("ana", "new", {"game": "keyflower", **OPTIONS})
    assert opened.content == "Table opened."
    for name in ("ben", "cleo"):
        assert (await env.run(name, "join")).content == "You are seated."
    assert (await env.run("ana", "start")).content == "Game started."
    await settled(env)
    state = kf_state(env)
    assert GAME.to_json(state)["options"] == {"keymelequin": "keyflower", "key_celeste": True}
    assert [b.id for b in state.boats] == ["keymelequin", "sea-bastion", "sea-breese"]
    # anyone sees the modules on the table: Sven aboard the Keymelequin, Key Celeste with the ghost on it
    board = (await env.run("zed", "board")).content
    assert re.search(r"- Keymelequin\u2020: workers Sven, ", board), board
    assert "Key Celeste `key-celeste` (bid like a turn-order tile; wins the ghost): no bids." in board
    assert "Ghost: on Key Celeste." in board
    # /rules answers for the module pieces in this channel
    ghost_rules = (await env.run("zed", "rules", {"topic": "ghost"})).content
    assert "F-39" in ghost_rules or "F-40" in ghost_rules, ghost_rules
    assert "Ghost" in await env.suggest("zed", "rules", "topic", "gho")  # the module pieces autocomplete too
    assert "Sven" in await env.suggest("zed", "rules", "topic", "sve")

    chooser = Rng.from_seed(3)
    spring = await play_until(env, chooser, lambda s: s.season >= 1)
    said = channel_text(env)
    holder = kf_state(env).ghost_holder
    assert holder is not None, "somebody won Key Celeste in spring"
    assert f"{NAMES[PLAYERS[holder]]} wins Key Celeste and takes the ghost." in said
    assert re.search(r"takes the Keymelequin boat's Sven", said), "Sven came off the boat with its load"
    assert "Summer begins: " in said
    board = (await env.run("zed", "board")).content
    assert f"Ghost: {NAMES[PLAYERS[holder]]}'s (behind the screen; may be played as a turn)." in board
    assert re.search(r"- Keymelequin\u2020: workers Paulo, ", board), board

    summer = await play_until(env, chooser, lambda s: s.season >= 2)
    said = channel_text(env)
    played = re.search(r"(\w+) plays the ghost on ([\w-]+): (\w+)'s winning bid \((.+?)\) goes behind \1's screen, "
                       r"and the ghost wins \2 for \3\.", said)
    assert played, "the ghost was played in summer"
    assert f"{played[3]} wins " in said and "The ghost goes back onto Key Celeste." in said
    replaced = re.search(r"(\w+) replaces the Keymelequin with the ([\w ]+) boat for autumn\.", said)
    assert replaced and replaced[2] in ("Keyflower", "Flipper", "Ianvincible", "White Wind"), said
    # the replacement was offered in the channel (nothing hidden in it), to its taker alone
    offer = next(m for m in env.public() if "to choose the boat that replaces the Keymelequin" in m.content)
    assert offer.custom_ids and all(c.split(":", 4)[4].startswith("replace ") for c in offer.custom_ids)
    assert MENTION.findall(offer.content) == [env.uid(replaced[1].lower())]
    assert "keymelequin" not in {b.id for b in kf_state(env).boats}

    await play_on_table_to_the_winter_choice(env, chooser)
    winter = await play_until(env, chooser, lambda s: False)
    assert spring > 20 and summer > 20 and winter > 20, (spring, summer, winter)

    await settled(env)
    state = kf_state(env)
    assert GAME.is_over(state)
    last = env.public()[-1]
    assert "Winter is over: the game ends." in last.content and last.files[0].data.startswith(PNG_MAGIC)
    final = GAME.score(state, None)
    owner = next((s for s, v in enumerate(state.villages) if any(p.tile == "key-celeste" for p in v.values())),

                 None)
    if owner is not None:  # Key Celeste's line is in its owner's score
        lines = next(p for p in final.players if p.seat == owner).lines
        assert any(line.label.startswith("Key Celeste") for line in lines), lines
    assert sql(env.path, "SELECT game, status FROM games") == [("keyflower", "finished")]

    # no leak: no screen's contents in the channel before the end; each DM shows only its reader's screen
    leaks = outbox_leaks(env, outbox(env))
    assert not leaks, leaks
    for name in PLAYERS:  # each player was told their own screen, Sven or Paulo included when they held one
        assert any(f"{NAMES[name]}, behind your screen:" in m.content for m in sent_dms(env, name))
    assert SEATS  # the shared helpers read the same seats
