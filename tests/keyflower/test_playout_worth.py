"""What a Keyflower position is worth to the stand-in's play-out cut short (the engine contract's playout_worth):
the tiles up for auction that a seat's bid leads for now. The projected score moves only when a season ends and
its tiles are won (reference §4: the highest bid wins the tile), so a short play-out sees bids through this alone."""

from __future__ import annotations

from engine.keyflower.game import GAME, LEAD
from tests.keyflower.scene import bid, screen, spring


def scene():
    """Spring, three players, two tiles up for auction (alehouse: no points on either face; keywood: 3 points
    upgraded), every screen holding 4 blue, 4 red, 4 yellow."""
    state = spring(3)
    state.auction = ["alehouse", "keywood"]
    for seat in range(3):
        screen(state, seat, blue=4, red=4, yellow=4)
    return state


def test_nobody_bidding_is_worth_nothing() -> None:
    state = scene()
    assert [GAME.playout_worth(state, s) for s in range(3)] == [0.0, 0.0, 0.0]


def test_a_leading_bid_is_worth_part_of_the_tile_and_an_outbid_one_nothing() -> None:
    """§4: a counter-bid must be larger; the seat outbid no longer leads, so its worth goes to the new leader."""
    state = scene()
    bid(state, 0, "keywood", "red", 1)
    assert GAME.playout_worth(state, 0) == LEAD * 3
    bid(state, 1, "keywood", "red", 2)
    assert GAME.playout_worth(state, 0) == 0.0
    assert GAME.playout_worth(state, 1) == LEAD * 3


def test_a_tile_without_points_still_counts_once_and_leads_add_up() -> None:
    state = scene()
    bid(state, 2, "alehouse", "blue", 1)
    assert GAME.playout_worth(state, 2) == LEAD * 1
    bid(state, 2, "keywood", "yellow", 1)
    assert GAME.playout_worth(state, 2) == LEAD * (1 + 3)
