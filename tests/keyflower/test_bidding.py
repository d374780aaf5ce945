"""Bidding (reference §4, rulings F-10, F-11, F-26): the colour of a tile, counter-bids strictly larger, adding to
one's own bid, outbid workers moved together, topped up and never back behind the screen, turn-order tiles.

Each test builds a spring scene for three players (Ana 0, Ben 1, Cleo 2) with known screens and tiles up for
auction, then plays the bids through GAME.
"""

from __future__ import annotations

import copy

import pytest

from engine.core import IllegalAction
from engine.keyflower.game import GAME
from engine.keyflower.state import KfState
from tests.keyflower.scene import (
    bid,
    bid_at,
    counts,
    home_of,
    legal,
    move,
    offered,
    play,
    put_tile,
    res_at,
    screen,
    spring,
    use,
    uses_at,
)

TILES = ("alehouse", "gold-mine", "keywood", "woodcutter")


def four_tiles_and_full_screens(state: KfState, players: int) -> KfState:
    """The state with four tiles up for auction (TILES) and every seat holding 4 blue, 4 red, 4 yellow."""
    state.auction = list(TILES)
    for seat in range(players):
        screen(state, seat, blue=4, red=4, yellow=4)
    return state


def scene(players: int = 3) -> KfState:
    """Spring; four tiles up for auction; every seat holds 4 blue, 4 red, 4 yellow."""
    return four_tiles_and_full_screens(spring(players), players)


def bid_colours(state: KfState, seat: int, loc: str) -> set[str]:
    """The colours a seat may bid with at a location."""
    return {a.split()[2] for a in offered(state, seat) if a.startswith(f"bid {loc} ")}


def use_colours(state: KfState, seat: int, loc: str) -> set[str]:
    """The colours a seat may use a location with."""
    return {a.split()[2] for a in offered(state, seat) if a.startswith(f"use {loc} ")}


def held(state: KfState, seat: int) -> int:
    """Workers behind a seat's screen."""
    return sum(state.workers[seat].values())


# --- where bids go -------------------------------------------------------------------------------------------


def test_bids_go_on_tiles_up_for_auction_and_turn_order_tiles_only() -> None:
    """§4: a bid goes on a season tile up for auction or a turn-order tile; boats are never bid for, and nobody
    bids for a tile already in a village."""
    state = scene()
    places = {a.split()[1] for a in legal(state, 0) if a.startswith("bid ")}
    assert places == set(TILES) | {"order-1", "order-2"}
    with pytest.raises(IllegalAction):
        play(state, 0, f"bid {home_of(state, 1)} red")
    with pytest.raises(IllegalAction):
        play(state, 0, "bid keyflower red")


def test_a_bid_is_placed_on_the_bidders_own_side() -> None:
    """§4: each player bids on their own edge of the tile: two players' bids on one tile stay apart."""
    state = scene()
    bid(state, 0, "alehouse", "red", 1)
    bid(state, 1, "alehouse", "red", 2)
    assert bid_at(state, "alehouse", 0) == ("red", 1)
    assert bid_at(state, "alehouse", 1) == ("red", 2)
    assert GAME.view(state, None)["places"]["alehouse"]["bids"].keys() == {"0", "1"}
    assert held(state, 0) == 11 and held(state, 1) == 10


# --- colour identity -------------------------------------------------------------------------------------------


def test_the_first_bid_sets_the_tiles_colour() -> None:
    """§4: every worker bid on a tile must be the colour of the workers already around it."""
    state = scene()
    assert bid_colours(state, 1, "alehouse") == {"blue", "red", "yellow"}
    bid(state, 0, "alehouse", "yellow", 1)
    assert bid_colours(state, 1, "alehouse") == {"yellow"}
    assert bid_colours(state, 1, "gold-mine") == {"blue", "red", "yellow"}  # other tiles are not touched
    state.turn = 1
    with pytest.raises(IllegalAction):
        play(state, 1, "bid alehouse red")


def test_a_use_of_a_tile_up_for_auction_sets_the_colour_of_bids() -> None:
    """§4: the colour is that of the workers around the tile as bids and on it as users: a first use sets it."""
    state = scene()
    use(state, 0, "keywood", "blue", 1)
    assert bid_colours(state, 1, "keywood") == {"blue"}
    assert bid_colours(state, 0, "keywood") == {"blue"}


def test_a_use_of_a_tile_bid_on_must_match_the_bid() -> None:
    """§5: a first use of a tile up for auction must match the colour of a bid already there."""
    state = scene()
    bid(state, 0, "gold-mine", "red", 1)
    assert use_colours(state, 1, "gold-mine") == {"red"}
    assert use_colours(state, 1, "keywood") == {"blue", "red", "yellow"}


def test_a_seat_without_workers_of_the_tiles_colour_cannot_bid_there() -> None:
    """§4: with no worker of the tile's colour, there is no bid to make on it."""
    state = scene()
    screen(state, 1, blue=5)
    bid(state, 0, "alehouse", "red", 1)
    assert bid_colours(state, 1, "alehouse") == set()
    assert bid_colours(state, 1, "keywood") == {"blue"}


def test_the_colour_follows_the_workers_left_and_is_reset_when_the_standing_ones_go() -> None:
    """F-10 (§4, boat 4a in §9.4): the colour is that of the standing workers now around and on the tile, not of
    the first ones. Cleo's blues are laid flat by boat 4a against Ana's red bid; when Ana moves her outbid reds
    away and nobody uses the tile, the blues stand up and blue becomes the tile's colour."""
    state = scene()
    put_tile(state, 2, "summerboat-4a", "-1/0")
    bid(state, 0, "alehouse", "red", 1)
    assert "blue" in bid_colours(state, 2, "alehouse")  # 4a: a counter-bid of another colour
    bid(state, 2, "alehouse", "blue", 2)
    assert bid_colours(state, 1, "alehouse") == {"red"}  # the standing reds still decide for everyone else
    move(state, 0, "alehouse", "bid", "gold-mine", 0)
    assert bid_at(state, "alehouse", 0) is None
    assert bid_colours(state, 1, "alehouse") == {"blue"}
    assert use_colours(state, 1, "alehouse") == {"blue"}


def test_boat_4a_does_not_break_the_colour_of_a_turn_order_tile() -> None:
    """F-26: summer boat 4a's counter-bid of another colour is for a season tile only, not a turn-order tile."""
    state = scene()
    put_tile(state, 2, "summerboat-4a", "-1/0")
    bid(state, 0, "order-1", "red", 1)
    bid(state, 0, "keywood", "red", 1)
    assert bid_colours(state, 2, "keywood") == {"blue", "red", "yellow"}  # the boat works on a season tile
    assert bid_colours(state, 2, "order-1") == {"red"}


def test_boat_4a_does_not_counter_a_green_bid() -> None:
    """F-26, §9.4: summer boat 4a counters a blue, red or yellow bid, not a green one."""
    state = scene()
    put_tile(state, 2, "summerboat-4a", "-1/0")
    screen(state, 1, green=2, red=4)
    bid(state, 1, "keywood", "green", 1)
    assert bid_colours(state, 2, "keywood") == set()


def test_boat_4a_still_needs_more_workers_than_the_highest_bid() -> None:
    """F-26: the off-colour counter-bid of boat 4a still has to beat the highest bid."""
    state = scene()
    put_tile(state, 2, "summerboat-4a", "-1/0")
    bid(state, 0, "alehouse", "red", 2)
    state.turn = 2
    play(state, 2, "bid alehouse blue")
    assert min(counts(state, 2)) == 3


# --- counter-bids ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("first", [1, 2, 3])
def test_a_counter_bid_needs_strictly_more_workers(first: int) -> None:
    """§4: a counter-bid must hold more workers than the highest bid; there is no maximum."""
    state = scene()
    screen(state, 1, red=9)
    bid(state, 0, "alehouse", "red", first)
    state.turn = 1
    play(state, 1, "bid alehouse red")
    assert counts(state, 1) == list(range(first + 1, 10))
    with pytest.raises(IllegalAction):
        play(state, 1, f"count {first}")
    play(state, 1, f"count {first + 1}")
    assert bid_at(state, "alehouse", 1) == ("red", first + 1)


def test_no_counter_bid_without_enough_workers() -> None:
    """§4: a player with no more workers of the colour than the highest bid cannot counter-bid there."""
    state = scene()
    screen(state, 1, red=2, blue=6)
    bid(state, 0, "alehouse", "red", 2)
    assert bid_colours(state, 1, "alehouse") == set()


def test_a_counter_bid_must_beat_the_highest_bid_not_the_latest() -> None:
    """§4: with bids of 3 and then 4, a third bidder needs 5."""
    state = scene()
    screen(state, 2, red=8)
    bid(state, 0, "woodcutter", "red", 3)
    bid(state, 1, "woodcutter", "red", 4)
    state.turn = 2
    play(state, 2, "bid woodcutter red")
    assert min(counts(state, 2)) == 5


# --- adding to one's own bid (F-11) ------------------------------------------------------------------------------


def test_a_winning_bid_can_be_raised_by_any_number() -> None:
    """§4 item 4, F-11: a player has one bid per tile; adding to a winning bid takes any number of workers."""
    state = scene()
    bid(state, 0, "alehouse", "red", 2)
    state.turn = 0
    play(state, 0, "bid alehouse red")
    assert counts(state, 0) == [1, 2]
    play(state, 0, "count 1")
    assert bid_at(state, "alehouse", 0) == ("red", 3)
    assert len(GAME.view(state, None)["places"]["alehouse"]["bids"]) == 1
    assert held(state, 0) == 9


def test_a_losing_bid_raised_must_become_the_highest() -> None:
    """F-11: adding to a losing bid is a new counter-bid: the sum must beat the highest bid."""
    state = scene()
    bid(state, 0, "alehouse", "red", 1)
    bid(state, 1, "alehouse", "red", 3)
    state.turn = 0
    play(state, 0, "bid alehouse red")
    assert counts(state, 0) == [3]  # 1 + 3 = 4 > 3; she has 3 red left
    play(state, 0, "count 3")
    assert bid_at(state, "alehouse", 0) == ("red", 4)
    assert bid_at(state, "alehouse", 1) == ("red", 3)


def test_ones_own_bid_keeps_its_colour() -> None:
    """§4: added workers match those already there."""
    state = scene()
    bid(state, 0, "alehouse", "blue", 1)
    assert bid_colours(state, 0, "alehouse") == {"blue"}


# --- outbid workers ---------------------------------------------------------------------------------------------


def outbid() -> KfState:
    """Ana bid 2 red on the Alehouse and Ben outbid her with 3 red; Ana to act."""
    state = scene()
    bid(state, 0, "alehouse", "red", 2)
    bid(state, 1, "alehouse", "red", 3)
    state.turn = 0
    return state


def test_a_winning_bid_cannot_be_moved() -> None:
    """§4: a player may not remove a bid that is winning."""
    state = outbid()
    assert not [a for a in offered(state, 1) if a.startswith("move alehouse")]
    assert [a for a in offered(state, 0) if a.startswith("move alehouse")]


def test_an_outbid_group_moves_whole_to_another_bid() -> None:
    """§4: outbid workers may be moved as a turn to another location, but stay together."""
    state = outbid()
    events = move(state, 0, "alehouse", "bid", "gold-mine", 0)
    assert bid_at(state, "alehouse", 0) is None
    assert bid_at(state, "gold-mine", 0) == ("red", 2)
    assert bid_at(state, "alehouse", 1) == ("red", 3)
    assert held(state, 0) == 10
    assert events and GAME.to_act(state) == [1]  # it was her whole turn


def test_an_outbid_group_is_topped_up_from_the_screen_to_beat_a_bid() -> None:
    """§4: the moved group may be topped up from behind the screen; the new bid must still be the highest."""
    state = outbid()
    bid(state, 2, "keywood", "red", 3)
    state.turn = 0
    play(state, 0, "move alehouse bid keywood")
    assert counts(state, 0) == [2]  # 2 + 2 = 4 > 3; two red left behind her screen
    play(state, 0, "count 2")
    assert bid_at(state, "keywood", 0) == ("red", 4)
    assert state.workers[0].get("red", 0) == 0


def test_an_outbid_group_only_goes_where_its_colour_fits() -> None:
    """§4: the moved workers must match the colour of their new location."""
    state = outbid()
    bid(state, 2, "keywood", "blue", 1)
    state.turn = 0
    options = legal(state, 0)
    assert "move alehouse bid keywood" not in options
    assert "move alehouse use keywood" not in options
    assert "move alehouse bid woodcutter" in options


def test_an_outbid_group_can_be_used_on_a_tile() -> None:
    """§4, F-12: the moved group may use a tile instead, all of it, even more workers than the use needs; the
    use gives its output once (Keywood up for auction: 1 wood on Ana's home tile, F-13)."""
    state = outbid()
    move(state, 0, "alehouse", "use", "keywood", 0)
    assert uses_at(state, "keywood") == [(0, "red", 2)]
    assert bid_at(state, "alehouse", 0) is None
    assert res_at(state, 0, "0/0") == {"wood": 1}


def test_an_outbid_group_used_on_a_tile_is_topped_up_to_the_next_use() -> None:
    """§4, §5: a second use needs more workers than the first; the group of 2 after a use of 2 needs one more."""
    state = outbid()
    use(state, 2, "woodcutter", "red", 2)
    state.turn = 0
    play(state, 0, "move alehouse use woodcutter")
    assert counts(state, 0) == [1, 2]  # 3 or 4 in all: at most 6 on the tile
    play(state, 0, "count 1")
    assert uses_at(state, "woodcutter") == [(2, "red", 2), (0, "red", 3)]


def test_outbid_workers_never_go_back_behind_the_screen_during_the_season() -> None:
    """§4: outbid workers can never return behind the screen during the season: no action open to Ana brings a
    worker back, whatever she does with the outbid group."""
    state = outbid()
    before = held(state, 0)
    assert {a.split()[0] for a in legal(state, 0)} <= {"bid", "use", "move", "pass"}
    for option in [a for a in legal(state, 0) if a.startswith("move ")]:
        trial = copy.deepcopy(state)
        play(trial, 0, option)
        play(trial, 0, f"count {min(counts(trial, 0))}")
        while trial.pending:  # any further steps of a use: the first offered
            play(trial, 0, legal(trial, 0)[0])
        assert held(trial, 0) <= before, option
    play(state, 0, "pass")
    assert held(state, 0) == before and bid_at(state, "alehouse", 0) == ("red", 2)


def test_an_outbid_group_may_also_stay_where_it_is() -> None:
    """§4: outbid workers can stay on the tile and come back at the end of the season."""
    state = outbid()
    play(state, 0, "pass")
    bid(state, 2, "keywood", "yellow", 1)
    assert bid_at(state, "alehouse", 0) == ("red", 2)


def test_an_outbid_group_can_join_ones_own_winning_bid_elsewhere() -> None:
    """F-11: a player has one bid per tile; adding to one's own winning bid takes any number of workers of the
    tile's colour, and an outbid group may be moved onto it (adding to a bid 'by moving an outbid group onto
    it')."""
    state = scene()
    bid(state, 0, "gold-mine", "red", 1)
    bid(state, 0, "alehouse", "red", 1)
    bid(state, 1, "alehouse", "red", 2)
    state.turn = 0
    assert "move alehouse bid gold-mine" in legal(state, 0)
    move(state, 0, "alehouse", "bid", "gold-mine", 0)
    assert bid_at(state, "gold-mine", 0) == ("red", 2)


def test_an_outbid_group_moved_onto_ones_own_losing_bid_must_make_it_highest() -> None:
    """F-11: moving an outbid group onto one's own losing bid elsewhere is a counter-bid: the sum must beat the
    highest bid there."""
    state = scene()
    bid(state, 0, "gold-mine", "red", 1)
    bid(state, 2, "gold-mine", "red", 3)
    bid(state, 0, "alehouse", "red", 2)
    bid(state, 1, "alehouse", "red", 3)
    state.turn = 0
    play(state, 0, "move alehouse bid gold-mine")
    assert counts(state, 0) == [1]  # 1 + 2 + 1 = 4 > 3; one red left
    play(state, 0, "count 1")
    assert bid_at(state, "gold-mine", 0) == ("red", 4)


# --- turn-order tiles --------------------------------------------------------------------------------------------


def test_turn_order_tiles_are_bid_for_like_season_tiles() -> None:
    """§4: turn-order tiles take bids the same way: one colour, counter-bids strictly larger."""
    state = scene()
    bid(state, 0, "order-1", "yellow", 2)
    assert bid_colours(state, 1, "order-1") == {"yellow"}
    state.turn = 1
    play(state, 1, "bid order-1 yellow")
    assert min(counts(state, 1)) == 3


def test_turn_order_tiles_cannot_be_used() -> None:
    """§4, §5: a turn-order tile is only bid for; nobody produces on it."""
    state = scene()
    assert not [a for a in legal(state, 0) if a.startswith("use order-")]
    bid(state, 0, "order-2", "red", 1)
    state.turn = 1
    assert not [a for a in legal(state, 1) if a.startswith("use order-")]


def test_a_player_may_bid_for_several_turn_order_tiles() -> None:
    """§4: a player may win several turn-order tiles."""
    state = scene()
    bid(state, 0, "order-1", "red", 1)
    bid(state, 0, "order-2", "blue", 1)
    assert bid_at(state, "order-1", 0) == ("red", 1)
    assert bid_at(state, "order-2", 0) == ("blue", 1)
