"""The Keyflower table with the two modules (Keymelequin: Sven and Paulo; Key Celeste: the tile and its ghost):
renders tables from real engine games with both modules, reads only the public view's keys, shows nothing hidden,
changes when a module's public piece changes, and matches its golden images.

The views come from seeded random play-outs with options {"keymelequin": "flipper", "key_celeste": True}: the
busiest spring turn with two bids on Key Celeste (Sven aboard the Keymelequin), the busiest summer turn with the
ghost played and a bid holding Sven or Paulo, a winter village placing with Key Celeste won, and the end of a game
with Key Celeste in a village. Goldens: tests/render/golden/keyflower_modules_{spring,summer}_4p.{json,png}, made
and compared as in test_keyflower_render.py (`--regen-golden`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.keyflower.components import COMPONENTS
from engine.keyflower.game import GAME
from engine.keyflower.state import KfState
from render.keyflower import WIDTH, _parts, _pill_look, _sides, _worker_pill_width, render
from tests.render.golden_images import png
from tests.render.keyflower_scenes import Scene, View, busiest, end, first, scenario_fixture, scenes
from tests.render.test_keyflower_render import (
    assert_hidden_things_do_not_show,
    assert_only_keys_the_view_has_are_read,
    assert_open_places_are_the_engines,
    assert_renders_a_png_under_a_mebibyte,
    assert_the_same_bytes,
    changes_the_image,
    compare_table_golden,
)

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
MODULES: dict[str, Any] = {"keymelequin": "flipper", "key_celeste": True}


def _wild(group: Any) -> bool:
    """Whether a bid's or use's group holds Sven or Paulo."""
    return isinstance(group, dict) and bool(group.get("sven") or group.get("paulo"))


def spring_celeste(state: KfState) -> bool:
    """A spring turn with two bids or more on Key Celeste."""
    return state.season == 0 and "key-celeste" in state.places and len(state.places["key-celeste"].bids) >= 2


def summer_ghost(state: KfState) -> bool:
    """A summer turn with the ghost played and a bid holding Sven or Paulo."""
    return state.season == 1 and bool(state.ghost_at) and any(
        _wild(b.group) for p in state.places.values() for b in p.bids.values())



def placing_celeste(state: KfState) -> bool:
    """Winter's villages growing, Key Celeste among the tiles won."""
    return state.phase == "place" and state.season == 3 and any("key-celeste" in w for w in state.won)


BUILDERS: dict[str, Callable[[], Scene]] = {
    "modules_spring_4p": lambda: busiest(NAMES, 38, spring_celeste, MODULES),
    "modules_summer_4p": lambda: busiest(NAMES, 39, summer_ghost, MODULES),
    "modules_place_4p": lambda: first(NAMES, 11, placing_celeste, MODULES),
    "modules_end_4p": lambda: end(NAMES, 11, MODULES),
}
SCENARIOS = tuple(BUILDERS)
_built, table, state_of = scenes(BUILDERS)
scenario = scenario_fixture(SCENARIOS)


def _boat(view: View, boat_id: str) -> dict[str, Any]:
    """A boat of the view by id."""
    return next(b for b in view["boats"] if b["id"] == boat_id)


def _wild_bid(view: View) -> list[Any]:
    """Some bid holding Sven or Paulo."""
    return next(b for p in view["places"].values() for b in p["bids"].values() if len(b) > 3 and _wild(b[3]))


def test_the_scenarios_are_what_they_say() -> None:
    spring = table("modules_spring_4p")
    assert spring["season"] == "spring" and spring["modules"] == {"keymelequin": "flipper", "key_celeste": True}
    assert len(spring["places"]["key-celeste"]["bids"]) >= 2
    assert _boat(spring, "keymelequin")["workers"].get("sven") == 1
    assert spring["ghost"] == {"holder": None, "played": None, "gone": False}
    summer = table("modules_summer_4p")
    assert summer["season"] == "summer" and summer["ghost"]["played"] in summer["auction"]
    assert isinstance(summer["places"][summer["ghost"]["played"]]["ghost"], int)
    assert _wild_bid(summer) and _boat(summer, "keymelequin")["workers"].get("paulo") == 1
    place = table("modules_place_4p")
    assert place["phase"] == "place" and any("key-celeste" in w for w in place["won"])
    end = table("modules_end_4p")
    assert end["phase"] == "over"
    assert any(p["tile"] == "key-celeste" for v in end["villages"] for p in v.values())


# --- Every table -------------------------------------------------------------------------------------------


def test_each_table_renders_a_png_under_a_mebibyte(scenario: str) -> None:
    assert_renders_a_png_under_a_mebibyte(table(scenario))


def test_the_same_view_gives_the_same_bytes(scenario: str) -> None:
    assert_the_same_bytes(table(scenario))


def test_a_played_ghost_renders_without_the_seat_it_wins_for() -> None:
    """Without the place's "ghost" (the seat it wins for) the ghost stands at the tile's corner and the line names
    the tile only."""
    view = table("modules_summer_4p")
    plain = render(view)
    del view["places"][view["ghost"]["played"]]["ghost"]
    assert png(render(view)).width == WIDTH and render(view) != plain


def test_labels_and_groups_never_break_a_colour_lookup() -> None:
    """A two-colour label without its group, a 'mixed' use, an unknown kind: all draw."""
    view = table("modules_summer_4p")
    loc = view["auction"][0]
    entry = view["places"].setdefault(loc, {"bids": {}, "uses": []})
    entry["bids"]["0"] = ["blue/yellow", 2, False]
    entry["bids"]["1"] = ["green/red", 3, False, {"paulo": 1, "green": 1, "red": 1}]
    entry["uses"] += [[2, "mixed", 3, True, {"blue": 1, "red": 2}], [3, "mixed", 2, True], [1, "teal", 1, False]]
    home = view["villages"][0]["0/0"]["tile"]
    view["places"].setdefault(home, {"bids": {}, "uses": []})["uses"].append([0, "blue/yellow", 2, False,
                                                                              {"sven": 1, "yellow": 1}])
    assert png(render(view)).width == WIDTH
    assert _parts("blue/yellow", 3, {"yellow": 2, "sven": 1}) == (("sven", 1), ("yellow", 2))
    assert _parts("blue/yellow", 2, None) == (("blue/yellow", 2),)
    assert len(_pill_look("blue/yellow", 2)[0]) == 2 and len(_pill_look("sven", 1)[0]) == 2
    assert _pill_look("sven", 1)[1] == "S" and _pill_look("paulo", None)[1] == "P"
    assert _worker_pill_width("mixed", 3) > 0


def test_key_celeste_joins_a_village_as_a_boat_with_its_data_sides() -> None:
    sides = _sides("key-celeste")
    tile = COMPONENTS.key_celeste
    assert sides.boat and sides.roads == frozenset(tile.roads) and sides.water == frozenset(tile.water)


def test_open_places_for_key_celeste_are_where_the_engine_lets_it_go() -> None:
    assert_open_places_are_the_engines(table("modules_place_4p"), state_of("modules_place_4p"))


# --- Public information only -------------------------------------------------------------------------------


def test_a_seats_private_view_is_refused() -> None:
    with pytest.raises(ValueError, match="public view"):
        render(GAME.view(state_of("modules_summer_4p"), 1))


def test_hidden_things_do_not_change_the_image(scenario: str) -> None:
    """Redrawing what nobody sees (Sven or Paulo behind a screen or in the bag, the bag's colours, the screens, the
    pile, winter hands, the stacks' order) keeps every public count, so the image is the same to the byte."""
    assert_hidden_things_do_not_show(state_of(scenario), (1, 2, 3))


def _swap_for(pool: dict[str, int], wild: str) -> None:
    """Put a wild keyple in a pool in the place of one of its plain keyples (the pool's size stays)."""
    colour = next(c for c in ("blue", "red", "yellow", "green") if pool.get(c))
    pool[colour] -= 1
    pool[wild] = pool.get(wild, 0) + 1


def test_a_wild_keyple_behind_a_screen_or_in_the_bag_does_not_show() -> None:
    """Sven behind a screen and Paulo in the bag are counted like any keyple and never drawn."""
    state = state_of("modules_summer_4p")
    plain = render(GAME.view(state, None))
    seat = next(s for s, w in enumerate(state.workers) if sum(w.values()))
    _swap_for(state.workers[seat], "sven")
    _swap_for(state.bag, "paulo")
    assert render(GAME.view(state, None)) == plain


def test_only_keys_the_view_has_are_read(scenario: str) -> None:
    assert_only_keys_the_view_has_are_read(table(scenario))


# --- Public changes show -----------------------------------------------------------------------------------


def ghost_holder(view: View) -> None:
    view["ghost"]["holder"] = 0 if view["ghost"]["holder"] != 0 else 1


def ghost_gone(view: View) -> None:
    view["ghost"].update(holder=None, played=None, gone=True)


def ghost_seat(view: View) -> None:
    place = view["places"][view["ghost"]["played"]]
    place["ghost"] = (place["ghost"] + 1) % 4


def celeste_bid(view: View) -> None:
    place = view["places"].setdefault("key-celeste", {"bids": {}, "uses": []})
    place["bids"].setdefault("3", ["red", 0, False])[1] += 5


def celeste_face(view: View) -> None:
    view["celeste"]["face"] = "winter"


def wild_in_group(view: View) -> None:
    bid = _wild_bid(view)
    group = bid[3]
    wild = "sven" if group.get("sven") else "paulo"
    group[wild] -= 1
    group["blue" if wild == "sven" else "green"] = group.get("blue" if wild == "sven" else "green", 0) + 1


def paulo_aboard(view: View) -> None:
    _boat(view, "keymelequin")["workers"].pop("paulo")


CHANGES: dict[str, Callable[[View], None]] = {
    "ghost holder": ghost_holder, "ghost gone": ghost_gone, "ghost wins for": ghost_seat,
    "key celeste bid": celeste_bid, "key celeste face": celeste_face, "wild keyple in a bid": wild_in_group,
    "paulo aboard": paulo_aboard,
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_public_change_changes_the_image(change: str) -> None:
    assert changes_the_image(table("modules_summer_4p"), CHANGES[change])


def test_the_ghost_holder_is_shown_in_spring_once_won() -> None:
    assert changes_the_image(table("modules_spring_4p"), lambda view: view["ghost"].update(holder=2))


def test_sven_aboard_shows() -> None:
    assert changes_the_image(table("modules_spring_4p"), lambda view: _boat(view, "keymelequin")["workers"].pop("sven"))


# --- Golden images -----------------------------------------------------------------------------------------

GOLDEN_TABLES = {"keyflower_modules_spring_4p": "modules_spring_4p",
                 "keyflower_modules_summer_4p": "modules_summer_4p"}


@pytest.mark.parametrize("name", sorted(GOLDEN_TABLES))
def test_table_matches_golden(name: str, regen_golden: bool, tmp_path: Path) -> None:
    compare_table_golden(name, lambda: table(GOLDEN_TABLES[name]), regen_golden, tmp_path)
