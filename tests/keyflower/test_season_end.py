"""The end of a season (reference §7, §9.4, rulings F-16, F-17, F-18): the six steps in order - losing bids home,
unbid tiles out with their users into the bag, winners take tiles and users and their winning bids go into the
bag, village users to the village's owner, turn-order tiles and boats (picked in turn-order number, then
clockwise from the new start player; the start marker), and the new tiles placed in the villages.

Scenes are set by hand (screens, tiles up for auction, boat loads); the season is ended by everyone passing
through GAME, and boats and tiles are taken and placed with real actions.
"""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.keyflower import transport as tr
from engine.keyflower import village as vg
from engine.keyflower.game import GAME
from engine.keyflower.state import KfState
from tests.keyflower.scene import (
    all_pass,
    at_turns,
    bid,
    home_of,
    legal,
    new_game,
    pick_first_boats,
    place_first,
    play,
    put_tile,
    screen,
    texts,
    use,
)

TILES = ("alehouse", "gold-mine", "keywood", "woodcutter")


def scene(players: int = 3, start: int = 0, season: int = 0, tiles: tuple[str, ...] = TILES) -> KfState:
    """This season's turns with these tiles up for auction; every seat holds 4 blue, 4 red, 4 yellow; each boat
    holds i+1 blue workers and one pick (boat i in the rulebook's order)."""
    state = at_turns(new_game(players, 1), season, start)
    state.auction = list(tiles)
    for seat in range(players):
        screen(state, seat, blue=4, red=4, yellow=4)
    for i, boat in enumerate(state.boats):
        boat.workers, boat.skills, boat.taken = {"blue": i + 1}, {"pick": 1}, None
    return state


def bag(state: KfState) -> dict[str, int]:
    """The bag's contents, empty colours left out."""
    return {k: n for k, n in state.bag.items() if n}


def delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    """What was added to a pool."""
    keys = set(before) | set(after)
    return {k: after.get(k, 0) - before.get(k, 0) for k in keys if after.get(k, 0) != before.get(k, 0)}


def held(state: KfState, seat: int) -> dict[str, int]:
    """A seat's screen, empty colours left out."""
    return {k: n for k, n in state.workers[seat].items() if n}


def picking_order(state: KfState) -> list[int]:
    """Play the boat picks (first boat offered) and say who picked, in order."""
    order = []
    while state.phase == "boats":
        seat = GAME.to_act(state)[0]
        order.append(seat)
        play(state, seat, legal(state, seat)[0])
    return order


# --- when the season ends ---------------------------------------------------------------------------------------


def test_the_season_ends_only_when_everyone_has_passed_in_succession() -> None:
    """§3.2: a player who passed may act again if someone else acts before the round of passes is complete; the
    season ends when all players pass in succession."""
    state = scene()
    play(state, 0, "pass")
    bid(state, 1, "alehouse", "red", 1)
    play(state, 2, "pass")
    play(state, 0, "pass")
    assert state.phase == "turns" and GAME.to_act(state) == [1]
    assert "bid keywood red" in legal(state, 1)
    play(state, 1, "pass")
    assert state.phase == "boats"


# --- steps 1 to 4 ------------------------------------------------------------------------------------------------


def test_step_1_losing_bids_go_back_behind_their_owners_screens() -> None:
    """§7 step 1, F-16: each player takes back the workers of their losing bids."""
    state = scene()
    bid(state, 0, "alehouse", "red", 1)
    bid(state, 1, "alehouse", "red", 2)
    bid(state, 2, "alehouse", "red", 3)
    all_pass(state)
    assert held(state, 0) == {"blue": 4, "red": 4, "yellow": 4}
    assert held(state, 1) == {"blue": 4, "red": 4, "yellow": 4}
    assert held(state, 2) == {"blue": 4, "red": 1, "yellow": 4}


def test_step_1_losing_bids_on_turn_order_tiles_come_home_too() -> None:
    """§7 step 1: a losing bid on a turn-order tile comes back as well."""
    state = scene()
    bid(state, 0, "order-1", "yellow", 1)
    bid(state, 1, "order-1", "yellow", 2)
    all_pass(state)
    assert held(state, 0)["yellow"] == 4


def test_step_2_tiles_nobody_bid_on_leave_and_their_users_go_into_the_bag() -> None:
    """§7 step 2: season tiles nobody bid on leave the game; workers on them, greens included, go into the bag."""
    state = scene()
    screen(state, 0, blue=4, green=1)
    use(state, 0, "keywood", "green", 1)
    use(state, 2, "woodcutter", "red", 1)
    before = bag(state)
    all_pass(state)
    assert delta(before, bag(state)) == {"green": 1, "red": 1}
    assert not any("keywood" in w for w in state.won) and not any("woodcutter" in w for w in state.won)
    assert "keywood" not in state.auction
    assert state.greens == 19


def test_step_3_the_winner_takes_the_tile_and_every_worker_on_it() -> None:
    """§7 step 3: the winner takes the tile won and the workers placed on it by anyone to use it; the winning bid
    goes into the bag."""
    state = scene()
    bid(state, 0, "gold-mine", "red", 2)
    use(state, 1, "gold-mine", "red", 1)
    use(state, 2, "gold-mine", "red", 2)
    before = bag(state)
    all_pass(state)
    assert state.won[0] == ["gold-mine"]
    assert held(state, 0) == {"blue": 4, "red": 2 + 3, "yellow": 4}
    assert held(state, 1)["red"] == 3 and held(state, 2)["red"] == 2
    assert delta(before, bag(state)) == {"red": 2}


def test_step_3_winning_greens_go_into_the_bag() -> None:
    """§7 step 3, reference §1: workers of winning bids, greens included, go into the bag."""
    state = scene()
    screen(state, 1, green=2)
    bid(state, 1, "alehouse", "green", 2)
    before = bag(state)
    all_pass(state)
    assert delta(before, bag(state)) == {"green": 2}
    assert state.won[1] == ["alehouse"]


def test_step_3_winners_settle_from_the_start_player_clockwise() -> None:
    """§7 step 3: starting with the start player and going clockwise, each winner takes their tiles."""
    state = scene(start=1)
    bid(state, 0, "alehouse", "red", 1)
    bid(state, 2, "keywood", "red", 1)
    bid(state, 1, "gold-mine", "red", 1)
    events = all_pass(state)
    log = texts(events)
    assert log.index("Ben wins") < log.index("Cleo wins") < log.index("Ana wins")


def test_step_4_workers_used_in_a_village_go_to_its_owner() -> None:
    """§7 step 4: workers used on the tiles of a village, by anyone, go behind the village owner's screen."""
    state = scene()
    put_tile(state, 1, "keywood", "1/-1")
    state.auction = ["alehouse"]
    use(state, 0, "keywood", "yellow", 1)
    use(state, 2, "keywood", "yellow", 2)
    use(state, 0, home_of(state, 1), "blue", 1, "done")
    use(state, 2, home_of(state, 2), "red", 1, "done")
    all_pass(state)
    assert held(state, 1) == {"blue": 5, "red": 4, "yellow": 7}
    assert held(state, 0) == {"blue": 3, "red": 4, "yellow": 3}
    assert held(state, 2) == {"blue": 4, "red": 4, "yellow": 2}


def test_the_steps_run_in_the_rulebooks_order() -> None:
    """F-16: one season's end in full: losing bid home (1), the unbid tile's user into the bag (2), the winner's
    tile and its user (3), a village user to the owner (4), then the boats (5) and the villages (6)."""
    state = scene()
    bid(state, 0, "alehouse", "red", 1)
    bid(state, 1, "alehouse", "red", 2)
    use(state, 2, "alehouse", "red", 3)
    use(state, 0, "keywood", "blue", 1)
    use(state, 1, home_of(state, 2), "yellow", 1, "done")
    before = bag(state)
    events = all_pass(state)
    assert delta(before, bag(state)) == {"red": 2, "blue": 1}
    assert held(state, 0) == {"blue": 3, "red": 4, "yellow": 4}
    assert held(state, 1)["red"] == 2 + 3
    assert held(state, 2)["yellow"] == 5
    assert state.phase == "boats"
    log = texts(events)
    assert log.index("Nobody bid for Keywood") < log.index("Ben wins")


# --- step 5: turn-order tiles and boats ---------------------------------------------------------------------------


def test_boats_are_picked_by_turn_order_number_then_clockwise_from_the_new_start_player() -> None:
    """§7 step 5, F-16: with four players (tiles 1-3, the start icon on 3): Dev wins tile 2, Ben tile 3; Dev
    picks first, then Ben, then the others clockwise from Ben, the new start player: Cleo, Ana."""
    state = scene(4)
    bid(state, 3, "order-2", "red", 1)
    bid(state, 1, "order-3", "red", 1)
    all_pass(state)
    assert picking_order(state) == [3, 1, 2, 0]


def test_the_start_player_changes_as_soon_as_the_start_tile_is_settled() -> None:
    """§7 step 5: the start-player marker moves at once to the winner of the tile with the purple icon (before
    the boats are picked), and that player starts the next season."""
    state = scene(4)
    bid(state, 2, "order-3", "yellow", 1)
    all_pass(state)
    assert state.phase == "boats"
    assert GAME.view(state, None)["start_player"] == 2
    pick_first_boats(state)
    place_first(state)
    assert state.season == 1 and GAME.to_act(state) == [2]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_highest_turn_order_tile_gives_the_start_player_at_every_player_count(players: int) -> None:
    """§7 step 5, F-4: the winner of the highest-numbered turn-order tile in use (1, 2, 3, 4, 4 for 2-6 players),
    the one with the purple icon, becomes the start player; the marker does not pass left."""
    top = {2: 1, 3: 2, 4: 3, 5: 4, 6: 4}[players]
    state = scene(players)
    winner = players - 1
    bid(state, winner, f"order-{top}", "red", 1)
    all_pass(state)
    assert state.start == winner
    assert picking_order(state)[0] == winner
    assert state.start == winner


def test_nobody_bid_for_the_start_tile_the_old_start_player_leads_and_the_marker_passes_left() -> None:
    """§7 step 5, F-16: if nobody bid for the start-player tile, the current start player counts as start player
    for the picking; after all boats are taken the marker passes to the left."""
    state = scene(4, start=2)
    bid(state, 0, "order-1", "red", 1)
    all_pass(state)
    assert GAME.view(state, None)["start_player"] == 2
    assert picking_order(state) == [0, 2, 3, 1]
    assert GAME.view(state, None)["start_player"] == 3
    place_first(state)
    assert state.season == 1 and GAME.to_act(state) == [3]


def test_with_no_turn_order_bids_everyone_picks_clockwise_from_the_start_player() -> None:
    """§7 step 5: nobody won a turn-order tile: the picking goes clockwise from the start player."""
    state = scene(3, start=1)
    all_pass(state)
    assert picking_order(state) == [1, 2, 0]
    assert state.start == 2


def test_several_turn_order_tiles_still_give_one_boat() -> None:
    """§4, §7 step 5: a player may win several turn-order tiles but takes only one boat."""
    state = scene(4)
    bid(state, 1, "order-1", "red", 1)
    bid(state, 1, "order-3", "blue", 1)
    all_pass(state)
    assert picking_order(state) == [1, 2, 3, 0]


def test_the_boat_picked_gives_its_workers_and_skills() -> None:
    """§7 step 5: the picker takes the contents of the boat chosen behind their screen."""
    state = scene(3)
    bid(state, 2, "order-1", "yellow", 1)
    all_pass(state)
    assert GAME.to_act(state) == [2]
    assert sorted(legal(state, 2)) == ["boat keyflower", "boat sea-bastion", "boat sea-breese"]
    play(state, 2, "boat sea-breese")
    assert held(state, 2) == {"blue": 4 + 3, "red": 4, "yellow": 3}
    assert state.skills[2] == {"pick": 1}
    assert "boat sea-breese" not in legal(state, GAME.to_act(state)[0])


def test_winning_turn_order_bids_go_into_the_bag_once_the_boats_are_taken() -> None:
    """§7 step 5 a, F-16: the boats are chosen (i, ii), then "v. Place the workers used in the bids for the turn
    order tiles into the bag": while the boats are picked the winning bids still stand beside their turn-order
    tiles; after the last pick they go into the bag (Cleo's Alehouse bid went in at step 3)."""
    state = scene(3)
    bid(state, 0, "order-1", "yellow", 2)
    bid(state, 1, "order-2", "red", 1)
    bid(state, 2, "alehouse", "blue", 1)
    before = bag(state)
    all_pass(state)
    assert state.phase == "boats" and delta(before, bag(state)) == {"blue": 1}
    assert set(GAME.view(state, None)["places"]) == {"order-1", "order-2"}
    events = texts(pick_first_boats(state))
    assert state.phase == "place" and delta(before, bag(state)) == {"blue": 1, "yellow": 2, "red": 1}
    assert events.rindex("boat's") < events.index("turn-order tiles go into the bag")


def test_turn_order_tiles_stay_on_the_table_before_winter() -> None:
    """§7 step 5: in spring, summer and autumn turn-order tiles are only bid for; nobody takes them home."""
    state = scene(3)
    bid(state, 0, "order-1", "yellow", 1)
    all_pass(state)
    pick_first_boats(state)
    assert state.won[0] == []
    assert state.order_tiles == [1, 2]


# --- summer boats 1a and 1b (F-17) ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("power", "extra"), [("1a", {"red": 2}), ("1b", {"green": 1})])
def test_summer_boat_1a_or_1b_adds_to_that_summers_boat_pick(power: str, extra: dict[str, int]) -> None:
    """F-17, §9.4: boat 1a (2 workers from the bag) and 1b (1 green) work from the moment the tile is won, in
    step 3, so already at that summer's boats; 1a's workers "are drawn from the bag after all of the workers ...
    used in winning bids in that round have been placed in the bag" (F-16): with an empty bag, it draws the two
    reds just bid."""
    tile = f"summerboat-{power}"
    state = scene(3, season=1, tiles=(tile, "tavern", "brewer"))
    bid(state, 0, tile, "red", 2)
    state.bag = {}
    greens = state.greens
    all_pass(state)
    assert bag(state) == {"red": 2}
    pick_first_boats(state)
    got = delta({"blue": 4, "red": 2, "yellow": 4}, held(state, 0))
    boat = next(b.id for b in state.boats if b.taken == 0)
    blue = [b["id"] for b in GAME.view(state, None)["boats"]].index(boat) + 1
    assert got == {"blue": blue, **extra}
    assert state.greens == greens - extra.get("green", 0)


def test_summer_boat_1a_gives_nothing_to_others() -> None:
    """§9.4: the power belongs to the owner only; its two workers come once every boat is taken (F-16), after
    everyone, the owner included, has taken just the load."""
    state = scene(3, season=1, tiles=("summerboat-1a", "tavern"))
    bid(state, 0, "summerboat-1a", "red", 1)
    all_pass(state)
    before = [sum(w.values()) for w in state.workers]
    loads = [0, 0, 0]
    while state.phase == "boats":
        seat = GAME.to_act(state)[0]
        boat = legal(state, seat)[0].split()[1]
        loads[seat] = sum(next(b for b in state.boats if b.id == boat).workers.values())
        last = texts(play(state, seat, f"boat {boat}"))
        if state.phase == "boats":
            assert sum(state.workers[seat].values()) - before[seat] == loads[seat]
    assert [sum(w.values()) - b for w, b in zip(state.workers, before, strict=True)] == [loads[0] + 2, *loads[1:]]
    assert "Ana draws 2 workers from the bag (summer boat 1a)" in last


# --- step 6: placing the new tiles (F-18) -----------------------------------------------------------------------


def placing(won: dict[int, list[str]], season: int = 0) -> KfState:
    """Step 6 reached: these seats have won these tiles (three players, villages of a home tile only)."""
    state = scene(3, season=season)
    state.auction = []
    state.phase = "place"
    for seat, tiles in won.items():
        state.won[seat] = list(tiles)
    return state


def test_everyone_places_at_the_same_time() -> None:
    """§7 step 6, F-18: everyone places simultaneously; nobody waits for anyone."""
    state = placing({0: ["alehouse"], 2: ["keywood"]})
    assert GAME.to_act(state) == [0, 2]
    decisions = GAME.decisions(state)
    assert {d.seat for d in decisions} == {0, 2} and all(d.kind == "simultaneous" for d in decisions)
    play(state, 2, legal(state, 2)[0])
    assert GAME.to_act(state) == [0]


def test_a_new_tile_goes_where_every_touching_side_matches() -> None:
    """§7 step 6, F-18: every spot offered touches the village and every shared side matches; the Alehouse may
    not go against the home tile's water side (0/-1)."""
    state = placing({0: ["alehouse"]})
    spots = [a.split()[2] for a in legal(state, 0)]
    assert spots == ["-1/0", "1/-1", "1/0"]
    village = tr.village(state, 0)
    for spot in spots:
        q, r = (int(x) for x in spot.split("/"))
        assert vg.can_place(village, (q, r), "alehouse", tr.sides)
    with pytest.raises(IllegalAction):
        play(state, 0, "place alehouse 0/-1")
    play(state, 0, "place alehouse 1/0")
    assert state.villages[0]["1/0"].to_json() == {"tile": "alehouse", "up": False, "res": {}, "stored": {}}



def test_several_tiles_are_placed_one_at_a_time_in_any_order() -> None:
    """F-18: a player with several tiles places them one at a time, in any order, each checked against the
    village as it then stands."""
    for first, second in (("alehouse", "gold-mine"), ("gold-mine", "alehouse")):
        state = placing({0: ["alehouse", "gold-mine"]})
        assert {a.split()[1] for a in legal(state, 0)} == {"alehouse", "gold-mine"}
        play(state, 0, [a for a in legal(state, 0) if a.split()[1] == first][0])
        assert {a.split()[1] for a in legal(state, 0)} == {second}
        village = tr.village(state, 0)
        for a in legal(state, 0):
            q, r = (int(x) for x in a.split()[2].split("/"))
            assert vg.can_place(village, (q, r), second, tr.sides)
        play(state, 0, legal(state, 0)[0])
        assert {p.tile for p in state.villages[0].values()} == {home_of(state, 0), "alehouse", "gold-mine"}


def test_every_tile_won_must_be_placed() -> None:
    """F-18: no tile can be kept aside; the season goes on only when all are placed."""
    state = placing({0: ["alehouse"]})
    assert legal(state, 0) and all(a.startswith("place ") for a in legal(state, 0))
    play(state, 0, legal(state, 0)[0])
    assert state.season == 1 and state.phase == "turns"


def test_a_tile_with_no_matching_spot_goes_on_any_touching_spot() -> None:
    """F-18: the Key guild's one road faces the home tile's water side, so no spot matches; it may go on any
    empty spot touching the village."""
    state = placing({0: ["key-guild"]}, season=3)
    spots = sorted(a.split()[2] for a in legal(state, 0))
    assert spots == sorted(["-1/0", "-1/1", "0/-1", "0/1", "1/-1", "1/0"])


def test_summer_boat_2a_frees_placing_in_the_season_it_is_won() -> None:
    """F-17, §9.4 boat 2a: placed tiles need not match edges, already for the tiles of the summer it is won,
    itself included: the Tavern may go against the home tile's water side (not without the boat)."""
    state = placing({0: ["summerboat-2a", "tavern"]}, season=1)
    spots = {a.split()[2] for a in legal(state, 0) if a.split()[1] == "tavern"}
    assert "0/-1" in spots
    assert {a.split()[2] for a in legal(state, 0) if a.split()[1] == "summerboat-2a"} >= {"0/1", "1/0"}
    other = placing({1: ["tavern"]}, season=1)
    assert "0/-1" not in {a.split()[2] for a in legal(other, 1)}


# --- winter -------------------------------------------------------------------------------------------------------


def winter(players: int = 3) -> KfState:
    """Winter's turns with two winter tiles up for auction; the boats are empty and free to be taken."""
    state = scene(players, season=3, tiles=("keythedral", "windmill"))
    for boat in state.boats:
        boat.workers, boat.skills = {}, {}
    return state


def test_in_winter_turn_order_tiles_and_boats_join_the_villages() -> None:
    """§7 step 5 (winter): each winner takes the turn-order tile won plus one boat tile; the others pick a boat
    clockwise from the start player; turn-order and boat tiles join the villages in step 6; no boat contents
    arrive. (Ben wins tile 1; nobody bids for tile 2, the start tile, so Ana still leads the others.)"""
    state = winter()
    bid(state, 1, "order-1", "red", 1)
    bid(state, 0, "keythedral", "blue", 1)
    all_pass(state)
    order = picking_order(state)
    assert order == [1, 0, 2]
    boat_of = {b.taken: b.id for b in state.boats}
    assert sorted(state.won[1]) == sorted(["order-1", boat_of[1]])
    assert sorted(state.won[0]) == sorted(["keythedral", boat_of[0]])
    assert held(state, 0) == {"blue": 3, "red": 4, "yellow": 4}
    assert state.skills == [{}, {}, {}]
    place_first(state)
    assert state.phase == "over"
    for seat in range(3):
        tiles = {p.tile for p in state.villages[seat].values()}
        assert tiles & {b.id for b in state.boats} == {boat_of[seat]}
    assert "order-1" in {p.tile for p in state.villages[1].values()}
    assert "order-2" not in {p.tile for v in state.villages for p in v.values()}
    assert "keythedral" in {p.tile for p in state.villages[0].values()}


def test_in_winter_the_start_tile_winner_picks_and_a_player_with_two_tiles_takes_one_boat() -> None:
    """§7 step 5 (winter): winning several turn-order tiles still gives one boat; all of them join the village."""
    state = winter()
    bid(state, 1, "order-1", "red", 1)
    bid(state, 1, "order-2", "red", 1)
    all_pass(state)
    assert picking_order(state) == [1, 2, 0]
    place_first(state)
    tiles = {p.tile for p in state.villages[1].values()}
    assert {"order-1", "order-2"} <= tiles
    assert len(tiles & {b.id for b in state.boats}) == 1


def test_winter_boats_can_be_placed_water_to_field() -> None:
    """§7 step 6, F-18: a boat need not put water against water; its roads must still match."""
    state = placing({0: ["keyflower"]}, season=3)
    spots = {a.split()[2] for a in legal(state, 0)}
    village = tr.village(state, 0)
    assert spots == {tr.key_of(p) for p in vg.places(village, "keyflower", tr.sides)}
    assert spots


def test_a_real_game_offers_every_boat_at_the_end_of_winter() -> None:
    """§7 step 5 (winter), §3.1: the boats come back for winter (showing their winter face, with no new load);
    at the end of winter every player takes one boat tile into their village. Played through a real game from
    set-up: nobody bids in spring, summer or autumn."""
    state = new_game(3, 4)
    for _ in range(3):
        all_pass(state)
        pick_first_boats(state)
        place_first(state)
    assert state.season == 3 and state.phase == "winter-choice"
    for seat in range(3):
        play(state, seat, legal(state, seat)[0])
    assert all(b.taken is None for b in state.boats)
    all_pass(state)
    assert state.phase == "boats"
    pick_first_boats(state)
    assert all(len(w) == 1 for w in state.won)
    place_first(state)
    for seat in range(3):
        assert {p.tile for p in state.villages[seat].values()} & {b.id for b in state.boats}
