"""A refused bid, use or ghost says what exactly is wrong, cites its rule, and changes nothing (the project's
standard for bad input; engine/keyflower/refusals.py names the first reason that applies)."""

from __future__ import annotations

import pytest

from engine.keyflower.game import GAME
from engine.keyflower.state import KfState
from tests.keyflower.scene import at_turns, bid, module_game, refusal, screen

TILES = ["alehouse", "miner", "stable", "keywood"]


def scene(season: int = 1) -> KfState:
    """Ana (0) to act, four tiles up for auction, both modules on, every seat holding 2 blue, 2 red and 2 yellow."""
    state = at_turns(module_game(3, 1, "keyflower", True), season, 0)
    state.auction = list(TILES)
    for seat in range(3):
        screen(state, seat, blue=2, red=2, yellow=2)
    return state



def test_a_bid_for_a_tile_not_up_for_auction_says_which_tiles_take_bids() -> None:
    """Reference §4: bids go on the season's tiles up for auction, the turn-order tiles and Key Celeste only."""
    reason, rule = refusal(scene(), 0, "bid gold-mine red")
    assert reason == ("'bid gold-mine red' is not possible: gold-mine takes no bids now (up for auction, turn-order "
                      "tiles and Key Celeste only).") and rule == "reference §4"


def test_a_bid_in_another_colour_names_the_tiles_colour() -> None:
    """Reference §4: every worker at a tile has its colour; F-29: with Sven it may be two."""
    state = scene()
    bid(state, 1, "alehouse", "blue", 1)
    state.turn = 0
    reason, rule = refusal(state, 0, "bid alehouse red")
    assert reason.endswith("the workers at alehouse are blue: a bid there must be too.") and "§4" in rule


def test_a_bid_too_small_to_lead_says_how_many_are_needed() -> None:
    """Reference §4: a counter-bid must have more workers than the highest bid."""
    state = scene()
    screen(state, 1, blue=2, red=2, yellow=2)
    bid(state, 1, "alehouse", "blue", 2)
    state.turn = 0
    screen(state, 0, blue=2)
    reason, _ = refusal(state, 0, "bid alehouse blue")
    assert reason.endswith("you have 2 blue; 3 are needed to lead the bidding.")


def test_sven_not_behind_the_screen_is_named() -> None:
    """Module sheet, Using Sven and Paulo: only the player holding Sven may place him."""
    reason, _ = refusal(scene(), 0, "bid alehouse sven")
    assert reason.endswith("you have no Sven behind your screen.")


def test_the_ghosts_tile_takes_nothing_more() -> None:
    """F-40: nobody may bid, counter-bid or use the tile the ghost is winning."""
    state = scene()
    state.ghost_holder = 2
    bid(state, 1, "alehouse", "blue", 1)
    state.turn = 2
    GAME.apply_in_place(state, 2, GAME.parse(state, 2, "ghost alehouse"))
    state.turn = 0
    reason, rule = refusal(state, 0, "bid alehouse red")
    assert reason.endswith("the ghost is winning alehouse: nothing more may go there this season.") and rule == "F-40"


@pytest.mark.parametrize(("setup", "text", "why", "rule"), [
    ("nobody", "ghost alehouse", "you do not hold the ghost.", "F-38"),
    ("spring", "ghost alehouse", "the ghost may be played from summer on.", "F-39"),
    ("no bid", "ghost alehouse", "the ghost goes only beside a winning bid for a tile up for auction; alehouse has "
                                 "none.", "F-39"),
    ("own bid", "ghost alehouse", "the ghost never replaces your own bid.", "F-39"),
    ("order", "ghost order-1", "the ghost goes only beside a winning bid for a tile up for auction; order-1 has none.",
     "F-39"),
])
def test_a_refused_ghost_says_why(setup: str, text: str, why: str, rule: str) -> None:
    """Module sheet, The ghost; F-38, F-39: who may play it, when and where."""
    state = scene(0 if setup == "spring" else 1)
    state.ghost_holder = None if setup == "nobody" else 0
    if setup == "own bid":
        bid(state, 0, "alehouse", "blue", 1)
    if setup == "order":
        bid(state, 1, "order-1", "blue", 1)
    state.turn = 0
    reason, found = refusal(state, 0, text)
    assert reason.endswith(why) and found == rule


def test_without_key_celeste_there_is_no_ghost() -> None:
    """F-35: the modules are table options; without Key Celeste the ghost does not exist."""
    state = at_turns(module_game(3, 1, "off", False), 1, 0)
    reason, rule = refusal(state, 0, "ghost alehouse")
    assert reason.endswith("this game is played without Key Celeste: there is no ghost.") and rule == "F-35"
