"""The steps of a turn taken behind the screen (ruling F-7: only their owner sees the colours of the workers behind
a screen): `bid LOC COLOUR` or `use LOC COLOUR` before its count, `bid LOC sven` and each `add KIND` of a group
built a keyple at a time. Until the workers are placed, the texts everyone may read (the step's public notation,
which the table logs and posts when a step is taken back, the public events, the public view with its waiting
sentence, the decisions' phrases) are the same whichever keyples were taken; the owner's own view and hand say
which. Once placed, the events tell everyone.
"""

from __future__ import annotations

import json

import pytest

from engine.keyflower.game import GAME
from engine.keyflower.state import KfState
from engine.keyflower.texts import hand
from tests.keyflower.scene import at_turns, bid, give_wild, module_game, play, screen, spring, texts

TILES = ["alehouse", "keywood", "woodcutter"]


def scene() -> KfState:
    """Spring, Ana (0) to act, three tiles up for auction; Ana holds 2 blue and 2 yellow, the others 4 red and
    4 yellow."""
    state = spring(3)
    state.auction = list(TILES)
    screen(state, 0, blue=2, yellow=2)
    for seat in (1, 2):
        screen(state, seat, red=4, yellow=4)
    return state


def public(state: KfState, steps: list[str]) -> str:
    """Everything public about Ana's steps: their public notation, the public events, the public view after (the
    waiting sentence in it) and the phrases of the open decisions."""
    notations, events = [], []
    for text in steps:
        notations.append(GAME.public_notation(GAME.parse(state, 0, text)))
        events += play(state, 0, text)
    return json.dumps([notations, texts(events), GAME.view(state, None), [d.phrase for d in GAME.decisions(state)]],
                      sort_keys=True)


@pytest.mark.parametrize("verb", ["bid alehouse", "use keywood"])
def test_the_colour_of_a_bid_or_use_stays_behind_the_screen_until_the_count(verb: str) -> None:
    """F-7: `bid alehouse blue` and `bid alehouse yellow` (or a use) before the count look the same to everyone,
    and name no colour, so taking the step back tells nothing either; Ana's own view and hand show the colour, and
    the count then places the workers in everyone's sight."""
    seen = {}
    for colour in ("blue", "yellow"):
        state = scene()
        seen[colour] = public(state, [f"{verb} {colour}"])
        assert GAME.public_notation(GAME.parse(scene(), 0, f"{verb} {colour}")) == verb
        assert GAME.view(state, 0)["pending"]["colour"] == colour
        assert f"with {colour}: say how many" in hand(GAME.view(state, 0), 0)
        assert "Under way" not in hand(GAME.view(state, 1), 1)
        placed = texts(play(state, 0, "count 1"))
        assert f"1 {colour}" in placed
    assert seen["blue"] == seen["yellow"]


def test_the_keyples_added_to_a_group_stay_behind_the_screen() -> None:
    """F-7 with the Keymelequin (F-32: Sven is hidden behind a screen like any keyple): `bid alehouse sven` and
    `add blue` or `add yellow` look the same to everyone until `done` places the group; Ana's own view lists the
    group so far."""
    seen = {}
    for colour in ("blue", "yellow"):
        state = at_turns(module_game(3, 1, "keyflower", False), 0, 0)
        state.auction = list(TILES)
        screen(state, 0, blue=2, yellow=2)
        give_wild(state, 0, "sven")
        bid(state, 1, "alehouse", "blue", 1)
        state.turn = 0
        seen[colour] = public(state, ["bid alehouse sven", f"add {colour}"])
        assert json.loads(seen[colour])[0] == ["bid alehouse", "add (secret)"]
        assert GAME.view(state, 0)["pending"]["group"] == {"sven": 1, colour: 1}
        assert f"Sven, {colour} 1 so far" in hand(GAME.view(state, 0), 0)
        assert f"Sven, 1 {colour}" in texts(play(state, 0, "done"))
    assert seen["blue"] == seen["yellow"]


def test_a_moved_groups_colour_is_on_the_table() -> None:
    """F-7: an outbid group stands on the table, so moving it names its colour to everyone (notation and view);
    only the top-up from behind the screen is still to come."""
    state = scene()
    bid(state, 0, "alehouse", "yellow", 1)
    bid(state, 1, "alehouse", "yellow", 2)
    state.turn = 0
    step = GAME.parse(state, 0, "move alehouse bid woodcutter")
    play(state, 0, "move alehouse bid woodcutter")
    assert GAME.public_notation(step) == "move alehouse bid woodcutter"
    assert GAME.view(state, None)["pending"]["colour"] == "yellow"
