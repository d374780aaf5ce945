"""Keyper's typed view (engine.keyper.view.KeyperView): every view has exactly the record's keys, and the renderer
and the chat texts, which read it by its keys, fail on a view that lacks one instead of drawing a default."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.keyper import GAME
from engine.keyper.choices import summary
from engine.keyper.state import State
from engine.keyper.texts import hand, table
from engine.keyper.view import BoardView, KeyperView, PlayerView, as_view, own_hidden_fairs
from engine.playout import random_playout
from render.keyper import render

NAMES = ["Ana", "Ben", "Cy"]


@pytest.fixture(scope="module")
def states() -> list[State]:
    """Every 25th state of a seeded 3-player game, and its end."""
    seen: list[State] = []
    final, _ = random_playout(GAME, NAMES, 8, on_step=lambda s, seat, a: seen.append(GAME.from_json(GAME.to_json(s))))
    return seen[::25] + [final]


def test_every_view_has_exactly_the_typed_records_keys(states: list[State]) -> None:
    """Contract (Game.view): the public view and each seat's view hold the keys KeyperView, PlayerView and
    BoardView declare, no more and no fewer."""
    for state in states:
        for seat in [None, *range(len(state.players))]:
            view = GAME.view(state, seat)
            assert set(view) == set(KeyperView.__required_keys__)
            assert all(set(p) == set(PlayerView.__required_keys__) for p in view["players"])
            assert all(set(b) == set(BoardView.__required_keys__) for b in view["boards"])


def public(state: State) -> dict[str, Any]:
    """A deep copy of the public view, to change."""
    return copy.deepcopy(GAME.view(state, None))


def test_a_view_without_one_of_its_keys_is_refused(states: list[State]) -> None:
    """A view lacking a key (as one from before a rename would) is refused by name, by the renderer and the texts."""
    view = public(states[1])
    del view["last_space"]
    with pytest.raises(ValueError, match="not a Keyper view: no last_space"):
        as_view(view)
    with pytest.raises(ValueError, match="no last_space"):
        render(view)
    with pytest.raises(ValueError, match="no last_space"):
        table(view)


def test_a_renamed_player_key_fails_the_renderer_instead_of_drawing_a_default(states: list[State]) -> None:
    """The renderer reads a player's shipping by its key: under another name it raises, where a default would have
    drawn 0."""
    view = public(states[1])
    view["players"][0]["shipping_track"] = view["players"][0].pop("shipping")
    with pytest.raises(KeyError, match="shipping"):
        render(view)


def test_a_hand_needs_the_seats_own_view(states: list[State]) -> None:
    """The hand text and the choices summary read the seat's face-down fairs: another seat's view shows a count."""
    state = states[1]
    with pytest.raises(ValueError, match="count"):
        hand(GAME.view(state, 1), 0)
    mine = GAME.view(state, 0)
    assert own_hidden_fairs(as_view(mine)["players"][0]) == state.players[0].hidden_fairs
    assert hand(mine, 0).startswith("Ana, your fair tiles:")
    seat = GAME.to_act(state)[0]
    assert "choices" in summary(GAME.view(state, seat), seat, GAME.view(state, seat)["legal"])
