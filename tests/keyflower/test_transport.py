"""Transport and upgrading (reference §6, §9.4 boats 2a, 2b, 3a, ruling F-14): capacity split any way as
resource-steps along roads, upgrades paid with resources lying on the tile and skills from behind the screen,
moves and upgrades freely interleaved within one use.

Ana's (seat 0) village in every scene, with roads checked against the tile data:
    0/0  home tile (front: 1 step, 1 upgrade; its NE and SE sides are roads)
    1/0  Gold mine   one road step from home (upgrade: 1 iron + 1 stone)
    2/-1 Keywood     two road steps from home, through the Gold mine (upgrade: 1 saw)
    1/-1 Well        one road step from home (upgrade: 1 stone + 1 wood)
    1/1  Alehouse    touches only the Gold mine, field to field: no road reaches it
The Stable (front: 2 steps, 1 upgrade) is up for auction.
"""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.keyflower import transport as tr
from engine.keyflower import village as vg
from engine.keyflower.game import GAME
from engine.keyflower.state import KfState
from tests.keyflower.scene import (
    at_turns,
    home_of,
    legal,
    new_game,
    play,
    put_res,
    put_tile,
    res_at,
    screen,
    skills,
    use,
)


def scene() -> KfState:
    """Spring, three players; Ana's village as in the module docstring; the Stable up for auction."""
    state = at_turns(new_game(3, 1), 0, 0)
    state.auction = ["stable"]
    for seat in range(3):
        screen(state, seat, blue=5, red=5, yellow=5)
    put_tile(state, 0, "gold-mine", "1/0")
    put_tile(state, 0, "keywood", "2/-1")
    put_tile(state, 0, "well", "1/-1")
    put_tile(state, 0, "alehouse", "1/1")
    return state


def home(state: KfState) -> str:
    """Ana's home tile id."""
    return home_of(state, 0)


def carries(state: KfState) -> set[str]:
    """The carry steps open to Ana now."""
    return {a for a in legal(state, 0) if a.startswith("carry ")}


def upgrades(state: KfState) -> set[str]:
    """The upgrade steps open to Ana now."""
    return {a for a in legal(state, 0) if a.startswith("upgrade ")}


def test_the_scene_village_has_the_roads_it_claims() -> None:
    """The scene's geometry, read through the village module: Gold mine and Well 1 step, Keywood 2, Alehouse by
    road never; across fields (2a) the Alehouse is one step from the Gold mine."""
    state = scene()
    village = tr.village(state, 0)
    assert vg.road_steps(village, tr.sides, (0, 0)) == {(0, 0): 0, (1, 0): 1, (1, -1): 1, (2, -1): 2}
    assert vg.road_steps(village, tr.sides, (1, 0), True)[(1, 1)] == 1


# --- capacity -----------------------------------------------------------------------------------------------------


def test_the_home_tile_moves_one_resource_one_step() -> None:
    """§6, §9.1 (F-2 figures): the home tile's front moves 1 resource-step; 2 steps are out of reach."""
    state = scene()
    put_res(state, 0, "0/0", gold=2)
    use(state, 0, home(state), "red", 1)
    assert carries(state) == {f"carry gold {home(state)} gold-mine", f"carry gold {home(state)} well"}
    play(state, 0, f"carry gold {home(state)} gold-mine")
    assert carries(state) == set()
    assert res_at(state, 0, "1/0") == {"gold": 1}
    assert res_at(state, 0, "0/0") == {"gold": 1}


def test_capacity_moves_two_resources_one_step_each() -> None:
    """§6: capacity 2 (the Stable) moves two resources one step each ..."""
    state = scene()
    put_res(state, 0, "0/0", wood=1, stone=1)
    use(state, 0, "stable", "red", 1)
    play(state, 0, f"carry wood {home(state)} gold-mine")
    play(state, 0, f"carry stone {home(state)} well")
    assert res_at(state, 0, "1/0") == {"wood": 1}
    assert res_at(state, 0, "1/-1") == {"stone": 1}
    assert carries(state) == set()


def test_capacity_moves_one_resource_two_steps() -> None:
    """§6, F-14: ... or one resource two steps; each road crossed costs one step."""
    state = scene()
    put_res(state, 0, "0/0", wood=2)
    use(state, 0, "stable", "red", 1)
    assert f"carry wood {home(state)} keywood" in carries(state)
    play(state, 0, f"carry wood {home(state)} keywood")
    assert res_at(state, 0, "2/-1") == {"wood": 1}
    assert carries(state) == set()


def test_a_step_left_reaches_only_the_next_tile() -> None:
    """§6: after one step of two is spent, a resource can still move one step, not two."""
    state = scene()
    put_res(state, 0, "0/0", wood=2)
    use(state, 0, "stable", "red", 1)
    play(state, 0, f"carry wood {home(state)} well")
    assert f"carry wood {home(state)} keywood" not in carries(state)
    assert f"carry wood {home(state)} gold-mine" in carries(state)


def test_resources_move_along_roads_only() -> None:
    """§6: resources move along roads only: the Alehouse, joined to the Gold mine field to field, is unreachable,
    and what lies on it cannot leave."""
    state = scene()
    put_res(state, 0, "1/0", iron=1)
    put_res(state, 0, "1/1", stone=1)
    use(state, 0, "stable", "red", 1)
    options = carries(state)
    assert "carry iron gold-mine alehouse" not in options
    assert not [a for a in options if a.split()[2] == "alehouse"]
    assert f"carry iron gold-mine {home(state)}" in options


def test_summer_boat_2a_lets_resources_cross_fields() -> None:
    """§9.4 boat 2a: its owner's resources may also move across fields."""
    state = scene()
    put_tile(state, 0, "summerboat-2a", "-1/0")
    put_res(state, 0, "1/0", iron=1)
    use(state, 0, "stable", "red", 1)
    assert "carry iron gold-mine alehouse" in carries(state)
    play(state, 0, "carry iron gold-mine alehouse")
    assert res_at(state, 0, "1/1") == {"iron": 1}


def test_summer_boat_2b_doubles_capacity_and_upgrades() -> None:
    """§9.4 boat 2b: all its owner's transport capacity and upgrades are doubled: the home tile moves 2 steps and
    upgrades 2 tiles."""
    state = scene()
    put_tile(state, 0, "summerboat-2b", "-1/0")
    put_res(state, 0, "0/0", wood=1)
    put_res(state, 0, "1/0", iron=1, stone=1)
    put_res(state, 0, "1/-1", stone=1, wood=1)
    use(state, 0, home(state), "red", 1)
    assert f"carry wood {home(state)} keywood" in carries(state)
    play(state, 0, "upgrade gold-mine")
    play(state, 0, "upgrade well")
    assert state.villages[0]["1/0"].up and state.villages[0]["1/-1"].up


def test_capacity_left_unused_is_lost_when_the_use_ends() -> None:
    """F-14: steps or upgrades not used when the player says done are lost; the turn passes."""
    state = scene()
    put_res(state, 0, "0/0", wood=2)
    use(state, 0, "stable", "red", 1, f"carry wood {home(state)} well", "done")
    assert state.pending is None
    assert GAME.to_act(state) == [1]
    with pytest.raises(IllegalAction):
        play(state, 0, f"carry wood {home(state)} well")


def test_a_transport_tile_in_another_village_moves_the_users_own_resources() -> None:
    """§6: using a transport tile anywhere moves resources in the user's own village; Ben uses Ana's home tile and
    may carry only within his own."""
    state = scene()
    put_res(state, 0, "0/0", gold=1)
    put_tile(state, 1, "quarryman", "-1/0")  # NW of Ben's home: a road on both sides
    put_res(state, 1, "0/0", gold=1)
    use(state, 1, home(state), "red", 1)
    options = [a for a in legal(state, 1) if a.startswith("carry ")]
    assert options and all(a.split()[2:] == [home_of(state, 1), "quarryman"] for a in options)


# --- upgrading -------------------------------------------------------------------------------------------------------


def test_an_upgrade_is_paid_with_resources_lying_on_the_tile() -> None:
    """§6: the cost must be on the tile being upgraded; it goes back to the supply; leftovers stay on the tile."""
    state = scene()
    put_res(state, 0, "1/0", iron=1, stone=1, gold=1)
    before = dict(state.supply)
    use(state, 0, home(state), "red", 1)
    assert "upgrade gold-mine" in upgrades(state)
    play(state, 0, "upgrade gold-mine")
    placed = state.villages[0]["1/0"]
    assert placed.up is True
    assert res_at(state, 0, "1/0") == {"gold": 1}
    assert state.supply["iron"] == before["iron"] + 1 and state.supply["stone"] == before["stone"] + 1


def test_a_cost_lying_elsewhere_does_not_pay_an_upgrade() -> None:
    """§6: resources on the home tile do not pay for the Gold mine's upgrade."""
    state = scene()
    put_res(state, 0, "0/0", iron=1, stone=1)
    put_res(state, 0, "1/0", iron=1)
    use(state, 0, "stable", "red", 1)
    assert "upgrade gold-mine" not in upgrades(state)


def test_a_skill_cost_comes_from_behind_the_screen_to_the_pile() -> None:
    """§6: skill costs come from behind the screen and go to the skill pile (Keywood: 1 saw)."""
    state = scene()
    use(state, 0, home(state), "red", 1)
    assert "upgrade keywood" not in upgrades(state)
    play(state, 0, "done")
    skills(state, 0, saw=1, pick=1)
    pile = state.skill_pile["saw"]
    use(state, 0, "stable", "red", 1)
    play(state, 0, "upgrade keywood")
    assert state.villages[0]["2/-1"].up is True
    assert state.skills[0].get("saw", 0) == 0 and state.skills[0]["pick"] == 1
    assert state.skill_pile["saw"] == pile + 1


def test_one_upgrade_per_use_of_a_one_upgrade_tile() -> None:
    """§6: a use upgrades as many tiles as printed (the Stable's front: 1)."""
    state = scene()
    put_res(state, 0, "1/0", iron=1, stone=1)
    put_res(state, 0, "1/-1", stone=1, wood=1)
    use(state, 0, "stable", "red", 1, "upgrade gold-mine")
    assert upgrades(state) == set()
    assert state.villages[0]["1/-1"].up is False


def test_only_ones_own_tiles_are_upgraded() -> None:
    """§6: the user upgrades tiles of their own village only."""
    state = scene()
    put_tile(state, 1, "miner", "-1/0")
    skills(state, 0, anvil=1)
    skills(state, 1, anvil=1)
    use(state, 0, home_of(state, 1), "red", 1)
    assert "upgrade miner" not in upgrades(state)


def test_upgraded_tiles_summer_boats_and_winter_tiles_are_not_upgraded() -> None:
    """§6: summer boats and winter tiles cannot be upgraded; nor can a tile already flipped."""
    state = scene()
    put_tile(state, 0, "summerboat-1a", "-1/0", wood=3)
    put_tile(state, 0, "keythedral", "0/1", wood=3, stone=3)
    put_tile(state, 0, "woodcutter", "-1/1", up=True)
    skills(state, 0, saw=2)
    use(state, 0, "stable", "red", 1)
    assert upgrades(state) == {"upgrade keywood"}


def test_summer_boat_3a_lets_any_resource_pay_an_upgrade() -> None:
    """§9.4 boat 3a: when upgrading, any resource stands in for any other: wood and gold pay iron and stone."""
    state = scene()
    put_res(state, 0, "1/0", wood=1, gold=1)
    use(state, 0, home(state), "red", 1)
    assert "upgrade gold-mine" not in upgrades(state)
    play(state, 0, "done")
    put_tile(state, 0, "summerboat-3a", "-1/0")
    use(state, 0, "stable", "red", 1, "upgrade gold-mine")
    assert state.villages[0]["1/0"].up is True
    assert res_at(state, 0, "1/0") == {}


def test_an_upgraded_transport_tile_shows_its_back() -> None:
    """§6, §9.5: the flipped Stable moves 4 steps and upgrades 2 tiles."""
    state = scene()
    put_tile(state, 1, "stable", "-1/0", up=True)
    put_res(state, 0, "0/0", wood=2)
    use(state, 0, "stable", "red", 1, f"carry wood {home(state)} keywood")
    assert f"carry wood {home(state)} keywood" in carries(state)


# --- F-14: moves and upgrades interleaved ------------------------------------------------------------------------


def test_moves_and_upgrades_interleave_within_one_use() -> None:
    """F-14: move a cost onto a tile, upgrade it, move more, upgrade a second tile, in one use of the flipped
    Stable (4 steps, 2 upgrades)."""
    state = scene()
    put_tile(state, 1, "stable", "-1/0", up=True)
    put_res(state, 0, "0/0", iron=1, stone=2, wood=1)
    h = home(state)
    use(state, 0, "stable", "red", 1, f"carry iron {h} gold-mine")
    assert "upgrade gold-mine" not in upgrades(state)
    play(state, 0, f"carry stone {h} gold-mine")
    play(state, 0, "upgrade gold-mine")
    assert "upgrade well" not in upgrades(state)
    play(state, 0, f"carry stone {h} well")
    play(state, 0, f"carry wood {h} well")
    play(state, 0, "upgrade well")
    assert state.villages[0]["1/0"].up and state.villages[0]["1/-1"].up
    assert res_at(state, 0, "0/0") == {} and res_at(state, 0, "1/0") == {} and res_at(state, 0, "1/-1") == {}
    assert legal(state, 0) == ["done"]


def test_an_upgrade_first_then_moves() -> None:
    """F-14: the upgrade may come before the moves of the same use."""
    state = scene()
    put_res(state, 0, "1/0", iron=1, stone=1)
    put_res(state, 0, "0/0", gold=1)
    use(state, 0, "stable", "red", 1, "upgrade gold-mine", f"carry gold {home(state)} keywood")
    assert res_at(state, 0, "2/-1") == {"gold": 1}
