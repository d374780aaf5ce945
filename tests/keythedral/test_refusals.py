"""Refusals say what exactly is wrong and change nothing (DEVELOPERS: bad input gets a clear message)."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction, InvalidAction
from engine.keythedral import GAME
from tests.keythedral.scene import played_setup


def refused(text: str, seat: int = 0) -> IllegalAction:
    """Play text for a seat at the first choice of round 1 (Ana chooses a number); the state must not change."""
    state = played_setup(3)
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as caught:
        GAME.apply_in_place(state, seat, GAME.parse(state, seat, text))
    assert GAME.to_json(state) == before
    return caught.value


def test_an_action_of_another_step_names_the_step_that_is_open() -> None:
    """rules: Phase one: while a number is being chosen, a worker or a purchase is refused by naming the choice."""
    for text in ("worker M13", "buy 3.1", "fence M12+ M13"):
        error = refused(text)
        assert error.reason == f"Now is the time to choose the next work-order number; '{text}' does not fit here."
        assert error.rule == "rules: Phase one" and error.alternatives == [f"order {n}" for n in range(1, 6)]


def test_a_number_off_the_mat_says_which_numbers_remain() -> None:
    """rules: Phase one: the numbers are 1 to 5, each chosen once a round."""
    error = refused("order 9")
    assert error.reason == "Choose a number from 1 to 5 not chosen yet this round (chosen: none yet)."


def test_out_of_turn_says_whose_decision_it_is() -> None:
    """rules: The game: only the seat to act may act."""
    assert refused("order 2", seat=1).reason == ("It is not your decision now: waiting for Ana to choose the next "
                                                  "work-order number.")


def test_unreadable_text_is_invalid_and_shows_examples() -> None:
    """Keywood notation: text that is no action at all."""
    state = played_setup(3)
    with pytest.raises(InvalidAction, match="is not a Keythedral action; try `buy 1.2`"):
        GAME.parse(state, 0, "frobnicate")


def test_a_purchase_of_a_later_stage_says_which_stage_is_being_built() -> None:
    """rules: Phase three, action one: only the stage being built is for sale."""
    state = played_setup(3)
    state.phase, state.step, state.turn, state.windows = "actions", "turn", 0, []
    with pytest.raises(IllegalAction, match="Stage 1 is being built: its seats must all be taken first."):
        GAME.apply_in_place(state, 0, GAME.parse(state, 0, "buy 3.1"))
