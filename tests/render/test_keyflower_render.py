"""The Keyflower table image: renders tables taken from real engine games, stays under 1 MiB, is deterministic,
reads only the public view's keys (engine/keyflower/game.py view()), refuses a seat's view, shows nothing hidden,
and changes when something public changes.

The views come from seeded random play-outs (engine.playout.random_playout), taken at chosen moments by a step
hook: spring set-up (3 players), the busiest autumn table of a 4-player game, the busiest winter table of a
6-player game, the boats being picked, villages growing, the secret winter choice, and the end of a 4-player game.
Golden images live in tests/render/golden/keyflower_*.{json,png}: the JSON holds the input view (stored, so engine
changes do not move the goldens), the PNG the image at half size (a 2x2 box average, re-encoded). Rewrite both
after an intended change of the picture with
    python -m pytest tests/render -q -p no:cacheprovider --regen-golden
and look at the new PNGs before committing them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.core import PlayerScore, Scoreboard
from engine.keyflower.game import GAME
from engine.keyflower.state import KfState
from render.keyflower import WIDTH, _edge_of, _open_slots, _village, render, render_scoreboard
from tests.render.golden_images import GOLDEN, compare_half_golden, half, png, scoreboard_data, scoreboard_from
from tests.render.keyflower_scenes import Scene, View, busiest, end, first, scenario_fixture, scenes

MiB = 1 << 20
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]

# Every key engine/keyflower/game.py view(state, None) writes, by where it sits ("villages[].*" is a village
# entry, "places.*" a location's entry, "places.*.bids.*[]" the group of a bid with Sven or Paulo or of more than
# one colour, "places.*.uses[][]" a use's). The guard also asks whether a seat's keys are there, so those are
# allowed at the top level. "places.*.ghost" is the seat a played ghost wins the tile for (Key Celeste, F-40).
KINDS = {"blue", "red", "yellow", "green", "sven", "paulo"}
SPEC_KEYS: dict[str, set[str]] = {
    "": {"game", "viewer", "names", "season", "phase", "start_player", "to_act", "waiting_for", "villages",
         "auction", "order_tiles", "places", "boats", "bag", "greens", "skill_pile", "supply", "screens",
         "skills_held", "winter_in_hand", "won", "stacks", "screens_opened", "passes", "picking", "pending",
         "modules", "ghost", "celeste", "workers", "skills", "winter_hand", "legal"},
    "villages[]": {"0/0"},  # any 'q/r' key: checked apart below
    "villages[].*": {"tile", "up", "res", "stored"},
    "villages[].*.res": {"gold", "iron", "stone", "wood"},
    "villages[].*.stored": {"gold", "iron", "stone", "wood"},
    "places": set(),  # any location: checked apart below
    "places.*": {"bids", "uses", "ghost"},
    "places.*.bids": set(),  # any seat
    "places.*.bids.*[]": KINDS,
    "places.*.uses[][]": KINDS,
    "boats[]": {"id", "workers", "skills", "taken"},
    "boats[].workers": KINDS,
    "boats[].skills": {"anvil", "pick", "saw"},
    "supply": {"gold", "iron", "stone", "wood"},
    "stacks": {"summer", "autumn"},
    "screens_opened[]": {"workers", "skills"},
    "screens_opened[].workers": KINDS,
    "screens_opened[].skills": {"anvil", "pick", "saw"},
    "modules": {"keymelequin", "key_celeste"},
    "ghost": {"holder", "played", "gone"},
    "celeste": {"on_table", "face"},
}


# --- Tables from real games ----------------------------------------------------------------------------------


BUILDERS: dict[str, Callable[[], Scene]] = {
    "spring_3p": lambda: first(NAMES[:3], 2, lambda s: True),
    "autumn_4p": lambda: busiest(NAMES[:4], 7, lambda s: s.season == 2),
    "winter_6p": lambda: busiest(NAMES[:6], 5, lambda s: s.season == 3),
    "boats_4p": lambda: first(NAMES[:4], 7, lambda s: s.phase == "boats" and s.season == 1),
    "place_4p": lambda: first(NAMES[:4], 7, lambda s: s.phase == "place" and s.season == 2),
    "winter_choice_5p": lambda: first(NAMES[:5], 3, lambda s: s.phase == "winter-choice"),
    "end_4p": lambda: end(NAMES[:4], 10),
}
SCENARIOS = tuple(BUILDERS)
_built, table, state_of = scenes(BUILDERS)
scenario = scenario_fixture(SCENARIOS)


def test_the_scenarios_are_what_they_say() -> None:
    assert table("spring_3p")["season"] == "spring" and len(table("spring_3p")["names"]) == 3
    autumn = table("autumn_4p")
    assert autumn["season"] == "autumn" and autumn["phase"] == "turns" and len(autumn["names"]) == 4
    assert any(p["bids"] for p in autumn["places"].values()) and any(p["uses"] for p in autumn["places"].values())
    winter = table("winter_6p")
    assert winter["season"] == "winter" and winter["phase"] == "turns" and len(winter["names"]) == 6
    assert table("boats_4p")["phase"] == "boats" and table("place_4p")["phase"] == "place"
    assert table("winter_choice_5p")["phase"] == "winter-choice"
    assert table("end_4p")["phase"] == "over" and "screens_opened" in table("end_4p")


# --- Every table -------------------------------------------------------------------------------------------


def assert_renders_a_png_under_a_mebibyte(view: View) -> None:
    """The view's image is a PNG as wide as the table, 900 to 4000 pixels high, under 1 MiB."""
    data = render(view)
    image = png(data)
    assert image.width == WIDTH
    assert 900 < image.height < 4000
    assert len(data) < MiB


def assert_the_same_bytes(view: View) -> None:
    """The view, rendered again or after a trip through JSON, gives the same bytes."""
    first = render(view)
    assert render(view) == first
    assert render(json.loads(json.dumps(view))) == first


def test_each_table_renders_a_png_under_a_mebibyte(scenario: str) -> None:
    assert_renders_a_png_under_a_mebibyte(table(scenario))


def test_the_same_view_gives_the_same_bytes(scenario: str) -> None:
    assert_the_same_bytes(table(scenario))


@pytest.mark.parametrize("key", ["places", "start_player", "stacks", "modules"])
def test_a_view_missing_a_key_is_refused_rather_than_drawn_with_a_default(key: str) -> None:
    """The renderer reads the typed view (engine.keyflower.view.KfView) by plain subscripts: a key renamed or left
    out raises KeyError instead of silently drawing a default (issue 40)."""
    view = table("autumn_4p")
    del view[key]
    with pytest.raises(KeyError):
        render(view)



def test_an_unknown_tile_id_still_renders() -> None:
    view = table("autumn_4p")
    view["villages"][0]["1/-1"] = {"tile": "mystery", "up": False, "res": {"gold": 1}, "stored": {}}
    view["auction"].append("mystery-2")
    assert png(render(view)).width == WIDTH


def test_each_seat_owns_a_different_edge() -> None:
    for players in range(2, 7):
        edges = [_edge_of(seat, players) for seat in range(players)]
        assert len(set(edges)) == players and all(0 <= e < 6 for e in edges)
    assert [_edge_of(s, 6) for s in range(6)] == [3, 4, 5, 0, 1, 2]  # S, SW, NW, N, NE, SE


def assert_open_places_are_the_engines(view: View, state: KfState) -> None:
    """Each seat's dashed places with coordinates are exactly the engine's `place TILE Q/R` spots for it."""
    for seat in range(len(view["names"])):
        spots = {tuple(int(v) for v in str(a).split()[-1].split("/")) for a in GAME.legal_actions(state, seat)
                 if str(a).startswith("place ")}
        assert set(_open_slots(view, seat, _village(view, seat))) == spots


def test_open_places_are_where_the_engine_lets_won_tiles_go() -> None:
    """While villages grow, the dashed places with coordinates are exactly the engine's `place TILE Q/R` spots."""
    assert_open_places_are_the_engines(table("place_4p"), state_of("place_4p"))
    assert not _open_slots(table("autumn_4p"), 0, _village(table("autumn_4p"), 0))


# --- Public information only -------------------------------------------------------------------------------


def test_a_seats_private_view_is_refused() -> None:
    state = state_of("autumn_4p")
    with pytest.raises(ValueError, match="public view"):
        render(GAME.view(state, 1))
    view = table("autumn_4p")
    view["viewer"] = 0
    with pytest.raises(ValueError, match="public view"):
        render(view)


@pytest.mark.parametrize("key", ["workers", "skills", "winter_hand", "legal"])
def test_a_view_showing_a_screen_is_refused(key: str) -> None:
    view = table("autumn_4p")
    view[key] = {} if key in ("workers", "skills") else []
    with pytest.raises(ValueError, match="public view"):
        render(view)


def assert_hidden_things_do_not_show(state: KfState, seeds: Iterable[int]) -> None:
    """The public view's image is the same to the byte with what nobody sees redrawn with each seed."""
    plain = render(GAME.view(state, None))
    for seed in seeds:
        assert render(GAME.view(GAME.resample_hidden(state, None, seed), None)) == plain


def test_hidden_things_do_not_change_the_image(scenario: str) -> None:
    """Redrawing what nobody sees (the bag's colours, the screens, the pile, winter hands, the stacks' order)
    keeps every public count, so the image is the same to the byte."""
    assert_hidden_things_do_not_show(state_of(scenario), (1, 2))


class Recorder(Mapping[str, Any]):
    """A read-only view that records each key read, by where it sits ("villages[].*.res")."""

    def __init__(self, data: Mapping[str, Any], path: str, seen: set[tuple[str, str]]) -> None:
        self._data = data
        self._path = path
        self._seen = seen

    def _child(self, key: str) -> str:
        """Where a key's value sits: village positions, locations and seats are wildcards."""
        if self._path in ("villages[]", "places", "places.*.bids"):
            return f"{self._path}.*"
        return f"{self._path}.{key}".lstrip(".")

    def __getitem__(self, key: str) -> Any:
        self._seen.add((self._path, key))
        return wrap(self._data[key], self._child(key), self._seen)

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def wrap(value: Any, path: str, seen: set[tuple[str, str]]) -> Any:
    """Wrap mappings (and mappings inside lists) so that reading them is recorded."""
    if isinstance(value, Mapping):
        return Recorder(value, path, seen)
    if isinstance(value, list):
        return [wrap(v, path + "[]", seen) for v in value]
    return value


def assert_only_keys_the_view_has_are_read(view: View) -> None:
    """Rendering the view reads the keys of SPEC_KEYS only, and reading through a Recorder changes nothing."""
    seen: set[tuple[str, str]] = set()
    data = render(Recorder(view, "", seen))
    assert data == render(view)
    wild = ("villages[]", "places", "places.*.bids")
    unknown = sorted(f"{path}: {key}" for path, key in seen
                     if path not in wild and key not in SPEC_KEYS.get(path, set()))
    assert not unknown, f"render read keys the view does not have: {unknown}"


def test_only_keys_the_view_has_are_read(scenario: str) -> None:
    assert_only_keys_the_view_has_are_read(table(scenario))


# --- Public changes show -----------------------------------------------------------------------------------


def _a_bid(view: View) -> list[Any]:
    """Some bid with workers on the table."""
    return next(b for p in view["places"].values() for b in p["bids"].values() if b[1])


def _an_upgradable_tile(view: View) -> dict[str, Any]:
    """Some tile on the table not yet upgraded."""
    return next(p for v in view["villages"] for p in v.values() if not p["up"])


def raise_a_bid(view: View) -> None:
    _a_bid(view)[1] += 1


def recolour_a_bid(view: View) -> None:
    bid = _a_bid(view)
    bid[0] = "green" if bid[0] != "green" else "blue"


def new_bid(view: View) -> None:
    loc = view["auction"][0]
    entry = view["places"].setdefault(loc, {"bids": {}, "uses": []})
    seat = next(s for s in range(len(view["names"])) if str(s) not in entry["bids"])
    entry["bids"][str(seat)] = ["red", 5, False]


def flat_bid(view: View) -> None:
    _a_bid(view)[2:] = [True]  # [colour, count, flat]


def new_use(view: View) -> None:
    tile = view["villages"][1]["0/0"]["tile"]
    view["places"].setdefault(tile, {"bids": {}, "uses": []})["uses"].append([2, "yellow", 1, False])


def more_resources(view: View) -> None:
    res = view["villages"][0]["0/0"]["res"]
    res["wood"] = res.get("wood", 0) + 1


def store_a_resource(view: View) -> None:
    placed = view["villages"][0]["0/0"]
    placed["res"]["iron"] = placed["res"].get("iron", 0) + 1
    more = dict(placed)
    more["stored"] = {"iron": 1}
    view["villages"][0]["0/0"] = more


def upgrade(view: View) -> None:
    _an_upgradable_tile(view)["up"] = True


def new_start_player(view: View) -> None:
    view["start_player"] = (view["start_player"] + 1) % len(view["names"])


def screen_count(view: View) -> None:
    view["screens"][0] += 1


def skills_count(view: View) -> None:
    view["skills_held"][1] += 1


def winter_hand(view: View) -> None:
    view["winter_in_hand"][2] -= 1


def won_tile(view: View) -> None:
    view["won"][0].append("barn")


def boat_load(view: View) -> None:
    view["boats"][0]["workers"]["green"] = view["boats"][0]["workers"].get("green", 0) + 1


def boat_taken(view: View) -> None:
    view["boats"][1]["taken"] = 3


def bag_size(view: View) -> None:
    view["bag"] -= 1


def green_supply(view: View) -> None:
    view["greens"] -= 1


def skill_pile(view: View) -> None:
    view["skill_pile"] += 1


def resource_supply(view: View) -> None:
    view["supply"]["stone"] -= 1


def whose_turn(view: View) -> None:
    view["to_act"] = [(view["to_act"][0] + 1) % len(view["names"])]


CHANGES: dict[str, Callable[[View], None]] = {
    "raise a bid": raise_a_bid, "recolour a bid": recolour_a_bid, "a new bid": new_bid, "a flat bid": flat_bid,
    "a new use": new_use, "a resource more": more_resources, "a stored resource": store_a_resource,
    "an upgrade": upgrade, "start player": new_start_player, "screen": screen_count, "skills": skills_count,
    "winter hand": winter_hand, "tile won": won_tile, "boat load": boat_load, "boat taken": boat_taken,
    "bag": bag_size, "greens": green_supply, "skill pile": skill_pile, "supply": resource_supply,
    "whose turn": whose_turn,
}


def changes_the_image(view: View, change: Callable[[View], None]) -> bool:
    """Whether making a change to the view changes its image."""
    plain = render(view)
    change(view)
    return render(view) != plain


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_public_change_changes_the_image(change: str) -> None:
    assert changes_the_image(table("autumn_4p"), CHANGES[change])


def test_uses_vanish_once_the_seasons_turns_are_over() -> None:
    """After the turns the workers have gone behind the screens or into the bag; the view still lists them."""
    view = table("boats_4p")
    plain = render(view)
    tile = view["villages"][0]["0/0"]["tile"]
    view["places"].setdefault(tile, {"bids": {}, "uses": []})["uses"].append([1, "red", 2, False])
    assert render(view) == plain


# --- Scoreboard --------------------------------------------------------------------------------------------


def sample_scoreboard() -> Scoreboard:
    """The final scoreboard of the end_4p game."""
    return GAME.score(state_of("end_4p"), None)


def test_scoreboard_renders_deterministically() -> None:
    board = sample_scoreboard()
    data = render_scoreboard(board)
    assert png(data).width == 1000 and len(data) < MiB
    assert render_scoreboard(board) == data
    empty = render_scoreboard(Scoreboard((PlayerScore(0, "Ana", ()), PlayerScore(1, "Ben", ())), final=False))
    assert png(empty).height < png(data).height


# --- Golden images -----------------------------------------------------------------------------------------

GOLDEN_TABLES = {"keyflower_spring_3p": "spring_3p", "keyflower_autumn_4p": "autumn_4p",
                 "keyflower_winter_6p": "winter_6p", "keyflower_end_4p": "end_4p"}


def compare_table_golden(name: str, view: Callable[[], View], regen_golden: bool, tmp_path: Path) -> None:
    """Render the golden view `name` and compare the image with its golden PNG; with --regen-golden first rewrite
    the view (from `view()`) and the PNG."""
    source = GOLDEN / f"{name}.json"
    if regen_golden:
        source.write_text(json.dumps(view(), indent=1, sort_keys=True) + "\n")
    data = render(json.loads(source.read_text()))
    if regen_golden:
        (GOLDEN / f"{name}.png").write_bytes(half(data))
    compare_half_golden(name, data, tmp_path)


@pytest.mark.parametrize("name", sorted(GOLDEN_TABLES))
def test_table_matches_golden(name: str, regen_golden: bool, tmp_path: Path) -> None:
    compare_table_golden(name, lambda: table(GOLDEN_TABLES[name]), regen_golden, tmp_path)


def test_scoreboard_matches_golden(regen_golden: bool, tmp_path: Path) -> None:
    source = GOLDEN / "keyflower_scoreboard.json"
    if regen_golden:
        source.write_text(json.dumps(scoreboard_data(sample_scoreboard()), indent=1) + "\n")
    data = render_scoreboard(scoreboard_from(json.loads(source.read_text())))
    if regen_golden:
        (GOLDEN / "keyflower_scoreboard.png").write_bytes(half(data))
    compare_half_golden("keyflower_scoreboard", data, tmp_path)
