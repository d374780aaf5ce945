"""The Keythedral table image: renders every kind of table, stays under 1 MiB, is deterministic, reads only the
public view's keys (kt-spec.md), refuses a private view, and changes when something public changes.

The views come from tests/render/keythedral_views.py (hand-built, in the engine's view shape, with every screen
open); closed() turns one into what the public sees while the screens are closed (ruling T-1). Golden images live
in tests/render/golden/keythedral_*.{json,png}: the JSON holds the input, the PNG the image at half size (a 2x2
box average, re-encoded), which keeps the files small and still shows a moved or missing piece. Rewrite both
after an intended change of the picture with
    python -m pytest tests/render -q -p no:cacheprovider --regen-golden
and look at the new PNGs before committing them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.core import PlayerScore, Scoreboard, ScoreLine
from engine.keythedral import GAME
from render.keythedral import (
    LATTICE_W,
    MAX_LATTICE_H,
    WIDTH,
    _board,
    _open_fields,
    _open_squares,
    field_label,
    parse_label,
    render,
    render_scoreboard,
    squares_labelled,
)
from tests.render.golden_images import GOLDEN, compare_half_golden, half, png, scoreboard_data, scoreboard_from
from tests.render.keythedral_views import SCENARIOS, sample_view

MiB = 1 << 20

# Every key kt-spec.md lists for the public view, by where it sits ("players[]" is an entry of "players").
SPEC_KEYS: dict[str, set[str]] = {
    "": {"game", "viewer", "names", "colours", "round", "variation", "phase", "step", "start_player", "to_act",
         "waiting_for", "keythedral", "fields", "drawn_field", "field_stack", "cottages", "fences", "fences_left",
         "workers", "work_order", "current_number", "mat", "stage", "craftsmen", "store", "law_spaces", "law_stack",
         "laws_played", "players", "bids", "effects", "pending", "laws", "legal", "open_screens"},
    "variation": {"two_player", "no_laws", "open_tiles"},
    "fields[]": {"at", "x", "y", "terrain", "back"},
    "drawn_field": {"terrain", "back"},
    "cottages[]": {"seat", "colour", "number", "at", "x", "y", "house"},
    "fences[]": {"seat", "colour", "square", "field"},
    "workers[]": {"seat", "colour", "field", "cottage"},
    "work_order[]": {"marker", "number", "seat"},
    "mat[]": {"space", "stage", "face_up", "tile", "cost", "reconstructed", "taken", "taken_by", "price_change"},
    "craftsmen": {"white", "purple", "yellow"},
    "store": {"black", "brown", "blue", "green", "red", "white", "purple", "yellow"},
    "players[]": {"seat", "name", "colour", "cubes", "cube_count", "tiles", "points", "laws_held", "procured",
                  "passed"},
    "players[].cubes": {"black", "brown", "blue", "green", "red", "white", "purple", "yellow"},
    "players[].tiles[]": {"space", "stage"},
    "bids[]": {"seat", "bid"},
}


SCREENED = ("cubes", "cube_count", "tiles", "points")  # a player's keys that stand behind the screen (T-1)


def closed(view: dict[str, Any]) -> dict[str, Any]:
    """The view as the public sees it with the screens closed (ruling T-1): no player's cubes, tiles or points, and
    a taken mat space shows only that it is taken."""
    view = json.loads(json.dumps(view))
    view["open_screens"] = False
    for player in view["players"]:
        for key in SCREENED:
            player.pop(key, None)
    for space in view["mat"]:
        space["taken"] = space["taken_by"] is not None
        if space["taken"]:
            space.update(taken_by=None, tile=None, cost=None, reconstructed=False)
    return view


def opened(view: dict[str, Any]) -> dict[str, Any]:
    """The view with every screen open (table option open_screens, or the game over)."""
    view = json.loads(json.dumps(view))
    view["open_screens"] = view.get("phase") != "over"
    for space in view["mat"]:
        space["taken"] = space["taken_by"] is not None
    return view


@pytest.fixture(params=SCENARIOS)
def scenario(request: pytest.FixtureRequest) -> str:
    """Each hand-built table in turn."""
    return str(request.param)


# --- Every table -------------------------------------------------------------------------------------------


def test_each_table_renders_a_png_under_a_mebibyte(scenario: str) -> None:
    data = render(sample_view(scenario))
    image = png(data)
    assert image.width == WIDTH
    assert 1000 < image.height < 2600
    assert len(data) < MiB


def test_the_same_view_gives_the_same_bytes(scenario: str) -> None:
    view = sample_view(scenario)
    first = render(view)
    assert render(view) == first
    assert render(json.loads(json.dumps(view))) == first


def test_a_sprawling_lattice_takes_the_whole_width() -> None:
    """A line of 22 fields is too wide beside the mats: the lattice gets the full width, the mats go below."""
    view = sample_view("midgame")
    terrains = ("quarry", "woods", "lake", "farm", "vineyard")
    view["fields"] = [{"at": field_label(x, 12), "x": x, "y": 12, "terrain": terrains[x % 5], "back": 2}
                      for x in range(2, 24)]
    view.update(cottages=[], fences=[], keythedral=None,
                workers=[{"seat": 0, "colour": "blue", "field": "F13", "cottage": 1}])
    board = _board(view)
    assert not board.side and (board.x0, board.x1) == (1, 24)
    assert board.pitch * 22 > LATTICE_W  # wider than the left column could hold at the smallest side pitch
    data = render(view)
    assert png(data).width == WIDTH and len(data) < MiB


def test_a_tall_lattice_gets_smaller_cells_not_a_taller_image() -> None:
    view = sample_view("midgame")
    view["fields"] = [{"at": field_label(12, y), "x": 12, "y": y, "terrain": "lake", "back": 2} for y in range(25)]
    view.update(cottages=[], fences=[], workers=[])
    board = _board(view)
    assert board.side and board.rows == 26 and board.rows * board.pitch <= MAX_LATTICE_H
    assert png(render(view)).height < 1900


def test_the_hand_built_views_have_every_key_of_the_engines_view(scenario: str) -> None:
    """The views here stand for the engine's public view (engine.keythedral.view.KView): every key it has is there,
    the store's eight colours too."""
    engine_view = GAME.view(GAME.setup(["Ana", "Ben", "Cy"], 1, {}), None)
    view = sample_view(scenario)
    assert set(engine_view) <= set(view) and set(engine_view["store"]) == set(view["store"])


@pytest.mark.parametrize("key", ["players", "mat", "fields", "cottages", "store", "phase"])
def test_a_view_missing_a_key_is_refused_not_drawn_with_a_default(key: str) -> None:
    """Issue 40: the renderer reads every key of the typed view by name, so a key renamed or left out fails loudly
    instead of drawing a default."""
    view = sample_view("midgame")
    del view[key]
    with pytest.raises(KeyError):
        render(view)


# --- Labels and the lattice --------------------------------------------------------------------------------


@pytest.mark.parametrize("label,pos", [("M13", (12, 12)), ("M13+", (12, 12)), ("a1", (0, 0)), ("Z26", (25, 25))])
def test_labels_read_as_lattice_positions(label: str, pos: tuple[int, int]) -> None:
    assert parse_label(label) == pos
    assert field_label(*pos) == label.upper().removesuffix("+")


@pytest.mark.parametrize("bad", ["", "M", "13", "M1x", "+", "é4"])
def test_a_bad_label_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="label"):
        parse_label(bad)


def test_the_crop_is_what_is_placed_plus_one_ring_of_slots() -> None:
    view = sample_view("setup")
    board = _board(view)
    xs = [f["x"] for f in view["fields"]]
    ys = [f["y"] for f in view["fields"]]
    assert (board.x0, board.x1, board.y0, board.y1) == (min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1)
    placed = {(f["x"], f["y"]) for f in view["fields"]}
    open_fields = _open_fields(board)
    assert (12, 15) in open_fields  # M16, north of the quarry at M15
    assert not placed & set(open_fields)
    squares = _open_squares(board)
    taken = {parse_label(c["at"]) for c in view["cottages"] if c["at"]}
    assert (12, 12) not in squares and not taken & set(squares)  # the Keythedral's square and cottages' squares
    assert (12, 14) in squares  # M15+, touching the quarry at M15


# --- Public information only -------------------------------------------------------------------------------


def test_a_seats_private_view_is_refused() -> None:
    view = sample_view("midgame")
    view["viewer"] = 2
    with pytest.raises(ValueError, match="public view"):
        render(view)


def test_a_view_showing_law_cards_in_hand_is_refused() -> None:
    view = sample_view("midgame")
    view["laws"] = ["work-order"]
    with pytest.raises(ValueError, match="public view"):
        render(view)


class Recorder(Mapping[str, Any]):
    """A read-only view that records each key read, by where it sits ("players[].cubes")."""

    def __init__(self, data: Mapping[str, Any], path: str, seen: set[tuple[str, str]]) -> None:
        self._data = data
        self._path = path
        self._seen = seen

    def __getitem__(self, key: str) -> Any:
        self._seen.add((self._path, key))
        return wrap(self._data[key], f"{self._path}.{key}".lstrip("."), self._seen)

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


@pytest.mark.parametrize("screens", [closed, opened])
def test_only_keys_the_spec_lists_are_read(scenario: str, screens: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    seen: set[tuple[str, str]] = set()
    data = render(Recorder(screens(sample_view(scenario)), "", seen))
    assert data == render(screens(sample_view(scenario)))
    unknown = sorted(f"{path}: {key}" for path, key in seen if key not in SPEC_KEYS.get(path, set()))
    assert not unknown, f"render read keys kt-spec.md does not list: {unknown}"


def test_hidden_things_outside_the_view_do_not_change_the_image() -> None:
    """Extra keys (stack orders, surplus tiles, the generator) are never read, so they cannot leak."""
    view = sample_view("midgame")
    plain = render(view)
    view.update(rng=12345, field_order=["lake", "farm"], law_order=[3, 7], surplus=["b2-6"], new_laws=[4, 9])
    view["players"][0]["law_cards"] = ["repeal"]
    assert render(view) == plain


# --- Public changes show -----------------------------------------------------------------------------------


def free_field(view: Mapping[str, Any]) -> str:
    """A placed field no worker stands on."""
    occupied = {w["field"] for w in view["workers"]}
    return str(next(f["at"] for f in view["fields"] if f["at"] not in occupied))


def move_worker(view: dict[str, Any]) -> None:
    view["workers"][0]["field"] = free_field(view)


def add_worker(view: dict[str, Any]) -> None:
    view["workers"].append({"seat": 1, "colour": view["colours"][1], "field": free_field(view), "cottage": 2})


def add_fence(view: dict[str, Any]) -> None:
    fenced = {(f["square"], f["field"]) for f in view["fences"]}
    placed = {f["at"] for f in view["fields"]}
    for cottage in view["cottages"]:
        if not cottage["at"]:
            continue
        x, y = parse_label(cottage["at"])
        for field in (field_label(x + dx, y + dy) for dx in (0, 1) for dy in (0, 1)):
            if field in placed and (cottage["at"], field) not in fenced:
                view["fences"].append({"seat": 0, "colour": view["colours"][0], "square": cottage["at"],
                                       "field": field})
                return
    raise AssertionError("no unfenced cottage edge")


def upgrade_cottage(view: dict[str, Any]) -> None:
    next(c for c in view["cottages"] if c["at"] and not c["house"])["house"] = True


def more_cubes(view: dict[str, Any]) -> None:
    view["players"][0]["cubes"]["black"] += 1


def take_tile(view: dict[str, Any]) -> None:
    space = next(m for m in view["mat"] if m["face_up"] and m["taken_by"] is None)
    space["taken_by"] = 1


def price_change(view: dict[str, Any]) -> None:
    space = next(m for m in view["mat"] if m["face_up"] and m["taken_by"] is None)
    space["price_change"] = 1 if space["price_change"] != 1 else -1


def unmark_reconstructed(view: dict[str, Any]) -> None:
    space = next(m for m in view["mat"] if m["face_up"] and m["taken_by"] is None and m["reconstructed"])
    space["reconstructed"] = False


def move_marker(view: dict[str, Any]) -> None:
    used = {m["number"] for m in view["work_order"]}
    view["work_order"][0]["number"] = next(n for n in range(1, 6) if n not in used) if len(used) < 5 else (
        view["work_order"][1]["number"])


def craftsman_sells(view: dict[str, Any]) -> None:
    view["craftsmen"]["purple"] -= 1


def law_space_empties(view: dict[str, Any]) -> None:
    view["law_spaces"][0] = not view["law_spaces"][0]


def new_start_player(view: dict[str, Any]) -> None:
    view["start_player"] = (view["start_player"] + 1) % len(view["players"])


def player_passes(view: dict[str, Any]) -> None:
    view["players"][2]["passed"] = not view["players"][2]["passed"]


CHANGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "move a worker": move_worker, "add a worker": add_worker, "add a fence": add_fence,
    "upgrade a cottage": upgrade_cottage, "a cube more": more_cubes, "take a tile": take_tile,
    "price change": price_change, "printed cost": unmark_reconstructed, "move a marker": move_marker,
    "craftsman sells": craftsman_sells, "law space": law_space_empties, "start player": new_start_player,
    "pass": player_passes,
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_public_change_changes_the_image(change: str) -> None:
    view = sample_view("midgame")
    plain = render(view)
    CHANGES[change](view)
    assert render(view) != plain


def take_tile_closed(view: dict[str, Any]) -> None:
    space = next(m for m in view["mat"] if m["face_up"] and not m["taken"])
    space.update(taken=True, tile=None, cost=None, reconstructed=False, price_change=0)


CLOSED_CHANGES: dict[str, Callable[[dict[str, Any]], None]] = {
    "take a tile": take_tile_closed, "pass": player_passes, "law space": law_space_empties,
    "start player": new_start_player,
}


@pytest.mark.parametrize("change", sorted(CLOSED_CHANGES))
def test_a_public_change_changes_the_image_with_the_screens_closed(change: str) -> None:
    """Ruling T-1: with the screens closed, a seat taken from the mat (by nobody named) and the moves made in the
    open still show."""
    view = closed(sample_view("midgame"))
    plain = render(view)
    CLOSED_CHANGES[change](view)
    assert render(view) != plain


def test_closed_screens_draw_a_screen_where_the_cubes_and_seats_were() -> None:
    """Ruling T-1: the public image of a table with closed screens differs from the open one exactly in the player
    rows and the taken mat spaces; the rows show a screen, not zero cubes."""
    view = sample_view("midgame")
    shut = closed(view)
    assert render(shut) != render(opened(view))
    for player in view["players"]:  # emptied screens drawn open would show zeros: a closed screen is not that
        player["cubes"] = dict.fromkeys(player["cubes"], 0)
        player.update(cube_count=0, tiles=[], points=0)
    assert render(shut) != render(opened(view))


def test_current_number_rings_its_cottages_while_workers_are_placed() -> None:
    view = sample_view("two_player")
    lit = render(view)
    view["current_number"] = 4
    assert render(view) != lit


def test_open_squares_are_labelled_only_while_cottages_are_laid_or_relocated() -> None:
    view = sample_view("setup")
    assert squares_labelled(view)
    view["phase"], view["step"] = "workers", "order"
    assert not squares_labelled(view)
    view["phase"], view["step"] = "actions", "relocate"
    assert squares_labelled(view)


# --- Scoreboard --------------------------------------------------------------------------------------------


def sample_scoreboard() -> Scoreboard:
    """A final five-player scoreboard with a tie settled by cube value."""
    def tiles(*spaces: str) -> tuple[ScoreLine, ...]:
        return tuple(ScoreLine(f"seat {s} (stage {s[0]})", int(s[0])) for s in spaces)

    return Scoreboard(
        (
            PlayerScore(2, "Cy", tiles("1.2", "3.1", "3.2", "5.1")),
            PlayerScore(4, "Eve", tiles("1.4", "2.3", "4.1", "5.2")),
            PlayerScore(0, "Ana", tiles("2.2", "3.3", "4.3", "1.1")),
            PlayerScore(1, "Ben", tiles("1.3", "2.4", "4.2")),
            PlayerScore(3, "Dee", ()),
        ),
        final=True,
        tie_break="Cy and Eve both have 12 points; Cy's cubes left over are worth more (3 against 2).",
    )


def test_scoreboard_renders_deterministically() -> None:
    board = sample_scoreboard()
    data = render_scoreboard(board)
    assert png(data).width == 1000 and len(data) < MiB
    assert render_scoreboard(board) == data
    empty = render_scoreboard(Scoreboard((PlayerScore(0, "Ana", ()), PlayerScore(1, "Ben", ())), final=False))
    assert png(empty).height < png(data).height


# --- Golden images -----------------------------------------------------------------------------------------

GOLDEN_TABLES = {"keythedral_setup_4p": ("setup", closed), "keythedral_midgame_4p": ("midgame", closed),
                 "keythedral_midgame_open_4p": ("midgame", opened), "keythedral_end_5p": ("end", opened),
                 "keythedral_2p_workers": ("two_player", closed)}  # the game over opens every screen (T-1)


@pytest.mark.parametrize("name", sorted(GOLDEN_TABLES))
def test_table_matches_golden(name: str, regen_golden: bool, tmp_path: Path) -> None:
    source = GOLDEN / f"{name}.json"
    if regen_golden:
        scenario, screens = GOLDEN_TABLES[name]
        source.write_text(json.dumps(screens(sample_view(scenario)), indent=1, sort_keys=True) + "\n")
    data = render(json.loads(source.read_text()))
    if regen_golden:
        (GOLDEN / f"{name}.png").write_bytes(half(data))
    compare_half_golden(name, data, tmp_path)


def test_scoreboard_matches_golden(regen_golden: bool, tmp_path: Path) -> None:
    source = GOLDEN / "keythedral_scoreboard.json"
    if regen_golden:
        source.write_text(json.dumps(scoreboard_data(sample_scoreboard()), indent=1) + "\n")
    data = render_scoreboard(scoreboard_from(json.loads(source.read_text())))
    if regen_golden:
        (GOLDEN / "keythedral_scoreboard.png").write_bytes(half(data))
    compare_half_golden("keythedral_scoreboard", data, tmp_path)
