"""Steps are dispatched by their kind, and a kind nobody handles raises instead of falling into the last branch
(issue 40: the old string chains' final `else` swallowed anything unknown)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.keyflower import apply as apply_mod
from engine.keyflower import legal
from engine.keyflower import transport as tr
from engine.keyflower.actions import act
from engine.keyflower.state import TransportStep
from tests.keyflower.scene import spring


class Teleport:
    """A kind of step under way that the game does not know."""

    seat = 0
    kind = "teleport"


def test_an_unknown_kind_of_step_under_way_has_no_actions_but_an_error() -> None:
    state = spring()
    stray: Any = Teleport()
    with pytest.raises(AssertionError):
        legal.step_actions(state, stray)


def test_an_unknown_kind_of_step_under_way_is_not_carried_out_as_a_transport() -> None:
    state = spring()
    state.pending = Teleport()  # type: ignore[assignment]
    with pytest.raises(AssertionError):
        apply_mod.apply(state, 0, act("done"))


def test_a_verb_no_turn_takes_raises_rather_than_moving_a_group() -> None:
    """Reference §3.2: a turn bids, uses, moves an outbid group (§4), plays the ghost or passes."""
    state = spring()
    with pytest.raises(ValueError, match="no turn of Keyflower"):
        apply_mod.apply(state, 0, act("teleport", "alehouse"))


def test_a_verb_no_transport_step_takes_raises_rather_than_upgrading() -> None:
    """Reference §6: a transport use carries, upgrades or is done."""
    state = spring()
    step = state.pending = TransportStep(0, 2, 1)
    with pytest.raises(ValueError, match="no step of a transport"):
        tr.step(state, step, act("teleport", "wood"), [])
