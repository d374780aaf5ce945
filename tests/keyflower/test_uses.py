"""Using tiles (reference §5, §9.5, §9.6, rulings F-12, F-13, F-15): one worker, then at least one more than the
use before, at most six a season; more workers than needed; the colour; where the output goes; each kind of
production tile; extra workers and skills paid; the Tavern's and Hiring fair's hand-in returned after the draw;
a use when the supply has run out.

Scenes: three players (Ana 0, Ben 1, Cleo 2), spring unless a summer tile is in play, screens and villages set by
hand; each use is played through GAME.
"""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.keyflower.game import GAME
from engine.keyflower.state import KfState
from tests.keyflower.scene import (
    at_turns,
    bid,
    counts,
    home_of,
    legal,
    new_game,
    offered,
    play,
    put_tile,
    res_at,
    screen,
    skills,
    use,
    uses_at,
)

AUCTION = ("alehouse", "gold-mine", "keywood", "workshop", "peddler", "apprentice-hall")


def scene(season: int = 0) -> KfState:
    """Three players, this season; six spring tiles up for auction; every seat holds 6 blue, 6 red, 6 yellow."""
    state = at_turns(new_game(3, 1), season, 0)
    state.auction = list(AUCTION)
    for seat in range(3):
        screen(state, seat, blue=6, red=6, yellow=6)
    return state


def use_colours(state: KfState, seat: int, loc: str) -> set[str]:
    """The colours a seat may use a location with."""
    return {a.split()[2] for a in offered(state, seat) if a.startswith(f"use {loc} ")}


def held(state: KfState, seat: int, colour: str | None = None) -> int:
    """Workers behind a seat's screen (of one colour)."""
    w = state.workers[seat]
    return sum(w.values()) if colour is None else w.get(colour, 0)


def nonzero(pool: dict[str, int]) -> dict[str, int]:
    """A counted pool without its empty entries."""
    return {k: n for k, n in pool.items() if n}


def start_use(state: KfState, seat: int, loc: str, colour: str) -> list[int]:
    """Begin a use and say which counts it allows."""
    state.turn = seat
    play(state, seat, f"use {loc} {colour}")
    return counts(state, seat)


# --- how many workers --------------------------------------------------------------------------------------------


def test_a_first_use_takes_one_worker() -> None:
    """§5: the first use of a tile in a season needs one worker."""
    state = scene()
    assert min(start_use(state, 0, "keywood", "red")) == 1


def test_each_use_needs_at_least_one_more_worker_than_the_one_before() -> None:
    """§5: a second use needs at least one more worker than the previous use; the pattern is 1, 2, 3."""
    state = scene()
    use(state, 0, "keywood", "red", 1)
    assert min(start_use(state, 1, "keywood", "red")) == 2
    with pytest.raises(IllegalAction):
        play(state, 1, "count 1")
    play(state, 1, "count 2")
    assert min(start_use(state, 2, "keywood", "red")) == 3


def test_a_tile_holds_six_workers_a_season_so_one_two_three_ends_it() -> None:
    """§5: at most six workers on a tile per season; after uses of 1, 2 and 3 nobody can use it again."""
    state = scene()
    use(state, 0, "keywood", "red", 1)
    use(state, 1, "keywood", "red", 2)
    use(state, 2, "keywood", "red", 3)
    for seat in range(3):
        assert not [a for a in offered(state, seat) if a.startswith("use keywood")]
    assert "use alehouse red" in offered(state, 0)


def test_a_first_use_of_two_leaves_room_for_only_one_more() -> None:
    """§5: a first use of 2 means the next needs at least 3 (5 in all), and there is no third use."""
    state = scene()
    use(state, 0, "gold-mine", "blue", 2)
    assert start_use(state, 1, "gold-mine", "blue") == [3, 4]
    play(state, 1, "count 3")
    assert not [a for a in offered(state, 2) if a.startswith("use gold-mine")]


def test_a_first_use_of_three_ends_the_tiles_uses() -> None:
    """§5: if the first use was 3 or more, there are no further uses."""
    state = scene()
    use(state, 0, "gold-mine", "blue", 3)
    assert not [a for a in offered(state, 1) if a.startswith("use gold-mine")]


def test_more_workers_than_needed_up_to_six_on_the_tile() -> None:
    """F-12: a use may take more workers than it needs, never taking the tile past six this season."""
    state = scene()
    assert start_use(state, 0, "keywood", "red") == [1, 2, 3, 4, 5, 6]
    play(state, 0, "count 1")
    assert start_use(state, 1, "keywood", "red") == [2, 3, 4, 5]
    with pytest.raises(IllegalAction):
        play(state, 1, "count 6")


def test_more_workers_than_needed_give_the_output_once() -> None:
    """F-12: the use of 4 workers on Keywood gives 1 wood, and the next use needs 5 (more than 6 in all: none)."""
    state = scene()
    use(state, 0, "keywood", "yellow", 4)
    assert res_at(state, 0, "0/0") == {"wood": 1}
    assert uses_at(state, "keywood") == [(0, "yellow", 4)]
    assert not [a for a in offered(state, 1) if a.startswith("use keywood")]


def test_a_use_cannot_take_more_workers_than_the_screen_holds() -> None:
    """§5: the workers come from behind the screen."""
    state = scene()
    screen(state, 0, red=2)
    assert start_use(state, 0, "keywood", "red") == [1, 2]


# --- colour --------------------------------------------------------------------------------------------------------


def test_a_later_use_keeps_the_colour_of_the_first() -> None:
    """§5: the second use's workers are all the colour of the earlier workers, whoever uses the tile."""
    state = scene()
    use(state, 0, "keywood", "yellow", 1)
    assert use_colours(state, 1, "keywood") == {"yellow"}
    assert use_colours(state, 0, "keywood") == {"yellow"}
    assert use_colours(state, 1, "alehouse") == {"blue", "red", "yellow"}


def test_the_colour_rule_holds_in_a_village_too() -> None:
    """§5: a village tile's later uses match its first use this season."""
    state = scene()
    home = home_of(state, 1)
    use(state, 1, home, "blue", 1, "done")
    assert use_colours(state, 0, home) == {"blue"}


def test_a_seat_must_hold_enough_workers_of_the_colour() -> None:
    """§5: with one red worker a seat cannot make a second use of a red tile."""
    state = scene()
    screen(state, 1, red=1, blue=5)
    use(state, 0, "keywood", "red", 1)
    assert use_colours(state, 1, "keywood") == set()


# --- what can be used -------------------------------------------------------------------------------------------


def test_tiles_in_any_village_and_up_for_auction_can_be_used() -> None:
    """§5: a player may use tiles in their own village, in other villages, and the season's tiles up for auction."""
    state = scene()
    put_tile(state, 1, "woodcutter", "1/0")
    options = offered(state, 0)
    for loc in ("woodcutter", home_of(state, 0), home_of(state, 1), home_of(state, 2), "keywood", "alehouse"):
        assert f"use {loc} red" in options


def test_summer_boats_and_tiles_without_production_cannot_be_used() -> None:
    """§9.4: no workers may be placed on a summer boat; a storage or points-only tile produces nothing."""
    state = scene()
    put_tile(state, 0, "summerboat-1a", "-1/0")
    put_tile(state, 0, "barn", "1/0")
    put_tile(state, 0, "forge", "0/1")
    options = offered(state, 0)
    assert not [a for a in options if a.split()[:2] in (["use", "summerboat-1a"], ["use", "barn"], ["use", "forge"])]


# --- where the output goes (F-13) -----------------------------------------------------------------------------------


def test_resources_made_in_ones_own_village_stay_on_the_tile() -> None:
    """§5, F-13: resources made in one's own village are left on the tile that made them."""
    state = scene()
    put_tile(state, 0, "gold-mine", "1/0")
    state.auction = [t for t in AUCTION if t != "gold-mine"]
    use(state, 0, "gold-mine", "red", 1)
    assert res_at(state, 0, "1/0") == {"gold": 1}
    assert res_at(state, 0, "0/0") == {}


def test_resources_made_in_another_village_go_to_the_makers_home_tile() -> None:
    """§5, F-13: resources made on another player's tile go at once onto the maker's home tile."""
    state = scene()
    put_tile(state, 0, "gold-mine", "1/0")
    state.auction = [t for t in AUCTION if t != "gold-mine"]
    use(state, 1, "gold-mine", "red", 1)
    assert res_at(state, 1, "0/0") == {"gold": 1}
    assert res_at(state, 0, "1/0") == {}
    assert res_at(state, 0, "0/0") == {}


def test_resources_made_on_an_auction_tile_go_to_the_makers_home_tile() -> None:
    """§5, F-13: resources made on a tile up for auction go onto the maker's home tile."""
    state = scene()
    use(state, 2, "gold-mine", "red", 1)
    assert res_at(state, 2, "0/0") == {"gold": 1}
    assert state.supply["gold"] == 47


def test_workers_and_skills_go_behind_the_screen() -> None:
    """§5, F-13: workers and skills gained go behind the screen, wherever the tile is."""
    state = scene()
    put_tile(state, 1, "apprentice-hall", "1/0")
    state.auction = [t for t in AUCTION if t != "apprentice-hall"]
    use(state, 0, "apprentice-hall", "red", 1)
    assert sum(state.skills[0].values()) == 1
    assert not state.skills[1]
    assert all(not p.res for p in state.villages[1].values())


# --- each kind of production tile (§9.5, §9.6) ---------------------------------------------------------------------


@pytest.mark.parametrize(("tile", "up", "gain"), [
    ("gold-mine", False, {"gold": 1}),
    ("gold-mine", True, {"gold": 2}),
    ("keywood", False, {"wood": 1}),
    ("keywood", True, {"wood": 3}),
    ("key-mine", True, {"iron": 3}),
    ("keystone-quarry", True, {"stone": 3}),
    ("miner", False, {"iron": 2}),
    ("miner", True, {"iron": 1, "gold": 1}),
    ("quarryman", False, {"stone": 2}),
    ("woodcutter", True, {"wood": 1, "gold": 1}),
    ("workshop", True, {"wood": 1, "stone": 1, "iron": 1}),
])
def test_resource_tiles_make_their_printed_resources(tile: str, up: bool, gain: dict[str, int]) -> None:
    """§9.5: each resource tile's face (front, or back once upgraded) makes its resources, out of the supply."""
    state = scene()
    state.auction = []
    put_tile(state, 0, tile, "1/0", up=up)
    before = dict(state.supply)
    use(state, 0, tile, "blue", 1)
    assert res_at(state, 0, "1/0") == gain
    assert {k: before[k] - state.supply[k] for k in gain} == gain


@pytest.mark.parametrize(("up", "drawn"), [(False, 1), (True, 2)])
def test_the_alehouse_draws_random_workers_from_the_bag(up: bool, drawn: int) -> None:
    """§9.5: the Alehouse gives 1 worker from the bag (2 once upgraded), behind the screen."""
    state = scene()
    state.auction = []
    put_tile(state, 0, "alehouse", "1/0", up=up)
    bag = sum(state.bag.values())
    use(state, 0, "alehouse", "red", 1)
    assert held(state, 0) == 18 - 1 + drawn
    assert sum(state.bag.values()) == bag - drawn


def test_the_apprentice_hall_draws_a_random_skill() -> None:
    """§9.5: the Apprentice hall gives 1 skill from the face-down pile."""
    state = scene()
    pile = sum(state.skill_pile.values())
    use(state, 0, "apprentice-hall", "red", 1)
    assert sum(state.skills[0].values()) == 1
    assert sum(state.skill_pile.values()) == pile - 1


def test_the_workshop_gives_a_resource_of_the_players_choice() -> None:
    """§9.5: the Workshop gives one of wood, stone or iron, as the player chooses (never gold)."""
    state = scene()
    use(state, 0, "workshop", "red", 1)
    assert sorted(legal(state, 0)) == ["take iron", "take stone", "take wood"]
    play(state, 0, "take stone")
    assert res_at(state, 0, "0/0") == {"stone": 1}
    assert state.supply["stone"] == 23
    assert GAME.to_act(state) == [1]


@pytest.mark.parametrize(("tile", "colour", "season"), [("peddler", "yellow", 0), ("store", "blue", 1),
                                                        ("fair", "red", 2)])
def test_green_tiles_take_an_extra_worker_of_their_colour_into_the_bag(tile: str, colour: str, season: int) -> None:
    """§9.5, §9.6, §9.7: the Peddler (yellow), the Store (blue) and the Fair (red here, F-2) take one extra worker
    of their colour into the bag, on top of the workers placed, and give a green from the supply."""
    state = scene(season)
    state.auction = []
    put_tile(state, 0, tile, "1/0")
    other = next(c for c in ("blue", "red", "yellow") if c != colour)
    bag = state.bag.get(colour, 0)
    use(state, 0, tile, other, 1)
    assert state.workers[0] == {**{c: 6 for c in ("blue", "red", "yellow")}, other: 5, colour: 5, "green": 1}
    assert state.bag.get(colour, 0) == bag + 1
    assert state.greens == 19
    assert uses_at(state, tile) == [(0, other, 1)]


def test_the_peddlers_extra_yellow_comes_on_top_of_a_yellow_use() -> None:
    """§9.5: using the Peddler with yellow needs one yellow more than the use; a seat with 1 yellow cannot."""
    state = scene()
    screen(state, 0, yellow=1, red=1)
    assert use_colours(state, 0, "peddler") == {"red"}
    screen(state, 0, yellow=2)
    assert start_use(state, 0, "peddler", "yellow") == [1]
    play(state, 0, "count 1")
    assert state.workers[0] == {"green": 1}


def test_a_green_tile_without_a_worker_of_its_colour_cannot_be_used() -> None:
    """§9.5: without the extra yellow, no Peddler."""
    state = scene()
    screen(state, 0, red=4, blue=4)
    assert use_colours(state, 0, "peddler") == set()


@pytest.mark.parametrize(("tile", "skill", "up", "gain"), [
    ("carpenter", "saw", False, {"wood": 3}),
    ("carpenter", "saw", True, {"gold": 3}),
    ("mason", "pick", False, {"stone": 3}),
    ("smelter", "anvil", False, {"iron": 3}),
    ("smelter", "anvil", True, {"gold": 3}),
])
def test_skill_tiles_take_their_skill_to_the_pile(tile: str, skill: str, up: bool, gain: dict[str, int]) -> None:
    """§9.6: the Carpenter, Mason and Smelter take their skill from behind the screen to the pile."""
    state = scene(1)
    state.auction = []
    put_tile(state, 0, tile, "1/0", up=up)
    assert use_colours(state, 0, tile) == set()  # no skill, no use
    skills(state, 0, **{skill: 1})
    pile = state.skill_pile[skill]
    use(state, 0, tile, "red", 1)
    assert res_at(state, 0, "1/0") == gain
    assert state.skills[0].get(skill, 0) == 0
    assert state.skill_pile[skill] == pile + 1


def test_the_brewer_takes_any_skill_chosen_by_the_player() -> None:
    """§9.6: the Brewer takes one skill of any kind, the player's choice, and gives 2 workers from the bag."""
    state = scene(1)
    state.auction = []
    put_tile(state, 0, "brewer", "1/0")
    skills(state, 0, pick=1, saw=1)
    use(state, 0, "brewer", "red", 1)
    assert sorted(legal(state, 0)) == ["pay pick", "pay saw"]
    play(state, 0, "pay saw")
    assert state.skills[0] == {"pick": 1}
    assert held(state, 0) == 18 - 1 + 2


def test_the_tavern_takes_an_extra_worker_of_any_colour() -> None:
    """§9.6: the Tavern takes one extra worker (any colour, the player's choice) besides the worker placed."""
    state = scene(1)
    state.auction = ["tavern"]
    screen(state, 0, red=1)
    assert use_colours(state, 0, "tavern") == set()  # nothing left to hand in
    screen(state, 0, red=1, green=1)
    use(state, 0, "tavern", "red", 1)
    assert legal(state, 0) == ["pay green"]


def test_the_tavern_returns_the_handed_in_worker_only_after_the_draw() -> None:
    """§9.6, F-15: the Tavern's extra worker goes into the bag after the draw: it cannot be drawn back. A bag of
    one red: the player hands in a blue and draws only the red."""
    state = scene(1)
    state.auction = ["tavern"]
    screen(state, 0, yellow=1, blue=1)
    state.bag = {"red": 1}
    use(state, 0, "tavern", "yellow", 1, "pay blue")
    assert nonzero(state.workers[0]) == {"red": 1}
    assert nonzero(state.bag) == {"blue": 1}


def test_the_hiring_fair_returns_the_handed_in_skill_only_after_the_draw() -> None:
    """§9.6: the Hiring fair's skill is shuffled back after the draw of 2. A pile of one saw: the player hands in an
    anvil and draws only the saw."""
    state = scene(1)
    state.auction = ["hiring-fair"]
    skills(state, 0, anvil=1)
    state.skill_pile = {"saw": 1}
    use(state, 0, "hiring-fair", "red", 1, "pay anvil")
    assert nonzero(state.skills[0]) == {"saw": 1}
    assert nonzero(state.skill_pile) == {"anvil": 1}


# --- an empty supply (F-15) ------------------------------------------------------------------------------------------


def test_a_resource_tile_can_be_used_when_its_resource_has_run_out() -> None:
    """F-15, reference §1: the player gets what is left, perhaps nothing; the use itself stands."""
    state = scene()
    state.supply["gold"] = 0
    use(state, 0, "gold-mine", "red", 1)
    assert res_at(state, 0, "0/0") == {}
    assert uses_at(state, "gold-mine") == [(0, "red", 1)]
    assert GAME.to_act(state) == [1]


def test_a_short_supply_gives_what_is_left() -> None:
    """F-15: upgraded Keywood makes 3 wood; with 2 left the player gets 2."""
    state = scene()
    state.auction = []
    put_tile(state, 0, "keywood", "1/0", up=True)
    state.supply["wood"] = 2
    use(state, 0, "keywood", "red", 1)
    assert res_at(state, 0, "1/0") == {"wood": 2}
    assert state.supply["wood"] == 0


def test_the_peddler_is_paid_even_with_no_green_left() -> None:
    """F-15: with the green supply empty the Peddler can still be used, and its yellow is still paid."""
    state = scene()
    state.greens = 0
    use(state, 0, "peddler", "red", 1)
    assert held(state, 0, "yellow") == 5 and held(state, 0, "green") == 0
    assert state.greens == 0


def test_the_alehouse_and_apprentice_hall_can_be_used_with_nothing_to_draw() -> None:
    """F-15: an empty bag or skill pile gives nothing, and the use is still allowed."""
    state = scene()
    state.bag = {}
    state.skill_pile = {}
    use(state, 0, "alehouse", "red", 1)
    assert held(state, 0) == 17
    use(state, 1, "apprentice-hall", "red", 1)
    assert not state.skills[1]


def test_the_workshop_with_no_wood_stone_or_iron_left_ends_at_once() -> None:
    """F-15: the Workshop's choice has nothing to choose from; the use ends without a resource."""
    state = scene()
    for k in ("wood", "stone", "iron"):
        state.supply[k] = 0
    use(state, 0, "workshop", "red", 1)
    assert state.pending is None
    assert GAME.to_act(state) == [1]
    assert res_at(state, 0, "0/0") == {}


def test_bids_do_not_count_as_uses() -> None:
    """§5: the 1-2-3 pattern counts uses; a bid on the tile does not make the first use larger."""
    state = scene()
    bid(state, 1, "keywood", "red", 3)
    assert min(start_use(state, 0, "keywood", "red")) == 1
