"""The Keyflower data: it loads, every validator rule catches a broken copy, and the reconstruction keeps its choices.

Sources cited below: "reference §N" is section N of shared/reference/keyflower-base-and-modules.md (sections 1-9
restate the rulebook, 12-13 list the gaps); kf-spec is the shared spec's "Component data"; docs/components.md
("Keyflower") explains the reconstruction.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from engine.keyflower.components import (
    BOAT_KEYS,
    COMPONENTS,
    DATA_DIR,
    FILES,
    PROVENANCES,
    RESOURCES,
    SEASONS,
    SKILLS,
    WINTER_KEYS,
    Boat,
    ComponentError,
    Components,
    Face,
    Tile,
    TurnOrderTile,
    load,
    validate,
)

ROOT = Path(__file__).resolve().parents[2]
Doc = dict[str, Any]


def tile(tile_id: str) -> Tile:
    return next(t for t in COMPONENTS.tiles if t.id == tile_id)


def boat(boat_id: str) -> Boat:
    return next(b for b in COMPONENTS.boats if b.id == boat_id)


# --- Helpers: copy the data, break one thing, collect the problems ------------------------------------


def _value(v: object) -> str:
    """TOML text for the few value kinds the data files use."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }" if v else "{}"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, str):
        return json.dumps(v)
    return str(v)


def dump(doc: Doc) -> str:
    """Write a data document (top-level tables of scalars, lists and inline tables) back as TOML."""
    lines: list[str] = []
    for section, table in doc.items():
        lines.append(f"[{section}]")
        lines += [f"{k} = {_value(v)}" for k, v in table.items()]
        lines.append("")
    return "\n".join(lines)


def copy_data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    return folder


def problems_in(folder: Path) -> list[str]:
    with pytest.raises(ComponentError) as info:
        load(folder)
    assert str(info.value) == "\n".join(info.value.problems)
    return info.value.problems


def edited(tmp_path: Path, file: str, change: Callable[[Doc], None]) -> list[str]:
    """Copy the packaged data, change one parsed file, write it back, and return the problems reported."""
    folder = copy_data(tmp_path)
    target = folder / f"{file}.toml"
    doc = tomllib.loads(target.read_text(encoding="utf-8"))
    change(doc)
    target.write_text(dump(doc), encoding="utf-8")
    return problems_in(folder)


def text_edited(tmp_path: Path, file: str, old: str, new: str) -> list[str]:
    """Copy the packaged data, replace one piece of text in a file, and return the problems reported."""
    folder = copy_data(tmp_path)
    target = folder / f"{file}.toml"
    text = target.read_text(encoding="utf-8")
    assert old in text, f"test edit does not apply: {old!r} not in {file}.toml"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return problems_in(folder)


def has(problems: list[str], fragment: str) -> bool:
    return any(fragment in p for p in problems)


def replaced(c: Components, **changes: Any) -> Components:
    return dataclasses.replace(c, **changes)


# --- The packaged data ---------------------------------------------------------------------------------


def test_packaged_data_loads_and_validates() -> None:
    """Reference §1: 6 home, 48 season tiles (12 each; summer's include 4 boats), 6 boats, 4 turn-order tiles."""
    c = load()
    kinds = Counter(t.kind for t in c.tiles)
    assert kinds == {"home": 6, "spring": 12, "summer": 8, "summerboat": 8, "autumn": 12, "winter": 12}
    assert len(c.boats) == 6 and {t.number for t in c.turn_order} == {1, 2, 3, 4}
    assert validate(c) == []
    assert c == COMPONENTS
    assert load(DATA_DIR) == COMPONENTS


def test_the_folder_may_be_given_as_a_file_or_a_parent() -> None:
    """load(path): a data file's path means its folder; a folder whose data/ holds the files means that."""
    assert load(DATA_DIR / "tiles.toml") == COMPONENTS
    assert load(DATA_DIR.parent) == COMPONENTS


def test_vocabulary_follows_the_spec() -> None:
    """kf-spec "Vocabulary": seasons, resources, skills; winter and boat scoring keys."""
    assert SEASONS == ("spring", "summer", "autumn", "winter")
    assert RESOURCES == ("gold", "iron", "stone", "wood") and SKILLS == ("anvil", "pick", "saw")
    assert BOAT_KEYS == ("keyflower", "sea-bastion", "sea-breese", "flipper", "ianvincible", "white-wind")
    assert {t.front.scoring for t in COMPONENTS.tiles if t.kind == "winter"} == set(WINTER_KEYS)
    assert len(WINTER_KEYS) == 12 and "craftsmens-guild" in WINTER_KEYS


def test_supplies_are_the_rulebooks() -> None:
    """Reference §1: 40 blue, red and yellow in the bag, 20 greens, 16 of each skill, 48/24/24/24 resources."""
    c = COMPONENTS
    assert dict(c.bag) == {"blue": 40, "red": 40, "yellow": 40} and c.greens == 20
    assert dict(c.skills) == {"anvil": 16, "pick": 16, "saw": 16}
    assert dict(c.resources) == {"gold": 48, "iron": 24, "stone": 24, "wood": 24}


def test_setup_table_is_the_rulebooks() -> None:
    """Reference §2: home tiles and boats per player, turn-order tiles, tiles per season, winter tiles dealt."""
    assert {n: dict(row) for n, row in COMPONENTS.setup.items()} == {
        2: {"home": 2, "boats": 2, "turn_order": 1, "per_season": 6, "winter_dealt": 3},
        3: {"home": 3, "boats": 3, "turn_order": 2, "per_season": 7, "winter_dealt": 3},
        4: {"home": 4, "boats": 4, "turn_order": 3, "per_season": 8, "winter_dealt": 3},
        5: {"home": 5, "boats": 5, "turn_order": 4, "per_season": 9, "winter_dealt": 2},
        6: {"home": 6, "boats": 6, "turn_order": 4, "per_season": 10, "winter_dealt": 2},
    }


def test_records_follow_the_spec() -> None:
    """kf-spec Component data: faces with pay/gain, transport, store; summer boats as two face records."""
    assert tile("peddler").front == Face(kind="produce", pay={"yellow": 1}, gain={"green": 1})
    assert tile("stable").back == Face(kind="transport", transport=4, upgrades=2, points=5)
    assert tile("blacksmith").front == Face(kind="store", store="iron", per=2)
    assert tile("workshop").front.gain == {"choice": 1} and tile("workshop").upgrade == {"resource": 2}
    assert tile("keythedral").front == Face(kind="winter", scoring="keythedral")
    boat_2a = tile("summerboat-2a")
    assert (boat_2a.kind, boat_2a.number, boat_2a.roads, boat_2a.back, dict(boat_2a.upgrade)) == (
        "summerboat", 2, (), None, {})
    assert tile("summerboat-2b").number == 2
    assert isinstance(boat_2a.roads, tuple) and isinstance(boat_2a.water, tuple)


def test_spring_and_summer_numbers_are_the_references() -> None:
    """Reference §9.5-9.6: a sample of the effects, upgrade costs and back VP."""
    assert (tile("key-mine").upgrade, tile("key-mine").back) == ({"anvil": 1}, Face("produce", gain={"iron": 3},
                                                                                     points=3))
    assert tile("miner").back == Face("produce", gain={"iron": 1, "gold": 1}, points=3)
    assert tile("carpenter").back == Face("produce", pay={"saw": 1}, gain={"gold": 3}, points=7)
    assert tile("hiring-fair").front == Face("produce", pay={"skill": 1}, gain={"skill": 2})
    assert tile("tavern").front == Face("produce", pay={"any": 1}, gain={"worker": 2})
    assert tile("store").front.pay == {"blue": 1} and tile("farrier").front.transport == 3
    assert all(t.front.points == 0 for t in COMPONENTS.tiles if t.kind in ("spring", "summer"))


def test_home_tiles() -> None:
    """Reference §9.1, §7: numbered 1-6, five roads and one water side, transport/upgrade tiles."""
    homes = [t for t in COMPONENTS.tiles if t.kind == "home"]
    assert [t.number for t in homes] == [1, 2, 3, 4, 5, 6]
    for t in homes:
        assert len(t.roads) == 5 and len(t.water) == 1
        assert t.front.kind == "transport" and t.back is not None and t.back.kind == "transport"


def test_boats() -> None:
    """Reference §2, §9.3: player-count marks, scoring keys, contents per face (Sea Bastion's b reconstructed)."""
    found = {b.id: (b.min_players, b.workers_a, b.skills_a, b.workers_b, b.skills_b) for b in COMPONENTS.boats}
    assert found == {"keyflower": (2, 7, 1, 3, 2), "sea-bastion": (2, 6, 2, 4, 1), "sea-breese": (3, 6, 1, 4, 1),
                     "flipper": (4, 5, 2, 2, 2), "ianvincible": (5, 5, 1, 3, 1), "white-wind": (6, 4, 2, 4, 1)}
    assert all(b.scoring == b.id and b.water for b in COMPONENTS.boats)
    assert boat("sea-bastion").provenance == "reconstructed"
    assert boat("sea-breese").name == "Sea Breese"


def faces_for(players: int) -> list[TurnOrderTile]:
    return [t for t in COMPONENTS.turn_order if t.players[0] <= players <= t.players[1]]


@pytest.mark.parametrize("players,numbers", [(2, [1]), (3, [1, 2]), (4, [1, 2, 3]), (5, [1, 2, 3, 4]),
                                             (6, [1, 2, 3, 4])])
def test_turn_order_tiles_by_player_count(players: int, numbers: list[int]) -> None:
    """Reference §2: 2p tile 1 only ... 5-6p all four; §9.2/§13: the start icon on the highest tile in use."""
    used = faces_for(players)
    assert [t.number for t in used] == numbers
    assert [t.number for t in used if t.start_icon] == [numbers[-1]]


def test_turn_order_faces() -> None:
    """Reference §13 (likely): tiles 1-3 have two faces, tile 4 one; sorted by number, then player range."""
    assert Counter(t.number for t in COMPONENTS.turn_order) == {1: 2, 2: 2, 3: 2, 4: 1}
    assert [t.players for t in COMPONENTS.turn_order] == [(2, 2), (3, 6), (3, 3), (4, 6), (4, 4), (5, 6), (5, 6)]


def raw_entries() -> list[tuple[str, str, Any]]:
    """(file, entry, table) for every entry of every data file."""
    out = []
    for name in FILES:
        doc = tomllib.loads((DATA_DIR / f"{name}.toml").read_text(encoding="utf-8"))
        out += [(name, key, table) for key, table in doc.items()]
    return out


@pytest.mark.parametrize("file,key,table", raw_entries(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_entry_says_where_it_comes_from(file: str, key: str, table: Any) -> None:
    """kf-spec: each entry has a provenance, and a note when reconstructed."""
    assert table["provenance"] in PROVENANCES, f"{file}.toml [{key}]"
    if table["provenance"] == "reconstructed":
        assert table["note"].strip()


# --- Every validator rule catches a broken copy --------------------------------------------------------
# Tile counts, names and numbers (reference §1, §9)


def test_missing_tile(tmp_path: Path) -> None:
    """Reference §1: 12 spring tiles; §9.5 names them."""
    problems = edited(tmp_path, "tiles", lambda d: d.pop("miner"))
    assert has(problems, "tiles.toml: there are 11 spring tiles; the game has 12 (reference section 1).")
    assert has(problems, "tiles.toml: the spring tiles are alehouse, ")
    assert has(problems, "; missing miner (reference section 9).")


def test_missing_summer_boat_face(tmp_path: Path) -> None:
    """Reference §1: 4 summer boats, two faces each."""
    problems = edited(tmp_path, "tiles", lambda d: d.pop("summerboat-3b"))
    assert has(problems, "there are 7 summerboat tiles; the game has 8 (reference section 1; 4 summer boats")


def test_tile_in_the_wrong_season(tmp_path: Path) -> None:
    """Reference §9.5-9.7: the Stable is a spring tile; roads follow the season."""
    problems = edited(tmp_path, "tiles", lambda d: d["stable"].update(kind="autumn", roads=[0, 3]))
    assert has(problems, "; unknown stable (reference section 9).")
    assert has(problems, "there are 13 autumn tiles; the game has 12")


def test_unknown_tile_kind(tmp_path: Path) -> None:
    problems = edited(tmp_path, "tiles", lambda d: d["well"].update(kind="fall"))
    assert problems[0] == ("tiles.toml [well]: kind 'fall' is not one of home, spring, summer, autumn, winter, "
                           "summerboat.")
    assert has(problems, "there are 11 autumn tiles; the game has 12")


def test_home_numbers(tmp_path: Path) -> None:
    """Reference §9.1: home tiles are numbered 1-6."""
    problems = edited(tmp_path, "tiles", lambda d: d["home-6"].update(number=1))
    assert problems == ["tiles.toml: the home tiles are numbered 1-6 once each, not [1, 1, 2, 3, 4, 5] "
                        "(reference section 9.1)."]


def test_only_home_tiles_and_summer_boats_are_numbered(tmp_path: Path) -> None:
    problems = edited(tmp_path, "tiles", lambda d: d["barn"].update(number=3))
    assert problems == ["tiles.toml [barn]: only home tiles and summer boats are numbered; set number 0 or leave "
                        "it out."]


def test_summer_boat_number_matches_its_id(tmp_path: Path) -> None:
    """kf-spec: both face records of a summer boat carry the physical tile's number."""
    problems = edited(tmp_path, "tiles", lambda d: d["summerboat-4a"].update(number=3))
    assert problems == ["tiles.toml [summerboat-4a]: a face of summer boat 4 has number 4, not 3."]


# Roads and water (reference §7; kf-spec hexes)


@pytest.mark.parametrize("tile_id,roads,expected", [
    ("home-1", [1, 2, 3, 4], "a home tile has 5 roads, not 4"),
    ("gold-mine", [0, 1, 4], "a spring tile has 4 roads, not 3"),
    ("mason", [0, 1, 3, 4], "a summer tile has 3 roads, not 4"),
    ("sawmill", [0], "a autumn tile has 2 roads, not 1"),
    ("scholar", [1, 4], "a winter tile has 1 roads, not 2"),
    ("summerboat-1a", [2], "a summerboat tile has 0 roads, not 1"),
])
def test_road_counts_per_kind(tmp_path: Path, tile_id: str, roads: list[int], expected: str) -> None:
    """Reference §7: roads per tile: home 5, spring 4, summer 3, autumn 2, winter 1, summer boats 0."""
    problems = edited(tmp_path, "tiles", lambda d: d[tile_id].update(roads=roads))
    assert problems == [f"tiles.toml [{tile_id}]: {expected} (reference section 7)."]


def test_edge_numbers(tmp_path: Path) -> None:
    """kf-spec: edges are 0..5, each listed once, never both road and water."""
    problems = edited(tmp_path, "tiles", lambda d: d["well"].update(roads=[4, 6]))
    assert problems == ["tiles.toml [well]: roads edges [6] must be 0..5 (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW)."]
    problems = edited(tmp_path / "2", "tiles", lambda d: d["well"].update(roads=[4, 4]))
    assert problems == ["tiles.toml [well]: roads edges [4] are listed twice."]
    problems = edited(tmp_path / "3", "tiles", lambda d: d["home-2"].update(water=[1]))
    assert problems == ["tiles.toml [home-2]: edges [1] cannot be both road and water."]


def test_one_water_side_per_home_tile(tmp_path: Path) -> None:
    """Reference §7, §9.1: each home tile has one water side (the Sea Breese river starts there)."""
    problems = edited(tmp_path, "tiles", lambda d: d["home-3"].pop("water"))
    assert problems == ["tiles.toml [home-3]: a home tile has one water side, not 0 (reference sections 7, 9.1)."]


def test_season_tiles_have_no_water(tmp_path: Path) -> None:
    """Reference §7: a road tile on the home tile's water side blocks the river, so village tiles carry none."""
    problems = edited(tmp_path, "tiles", lambda d: d["inn"].update(water=[0]))
    assert has(problems, "tiles.toml [inn]: only home tiles and boats have water sides")


def test_summer_boats_have_river_sides(tmp_path: Path) -> None:
    """Reference §9.3: Sea Breese scores boats (summer boats included) linked by river."""
    problems = edited(tmp_path, "tiles", lambda d: d["summerboat-2b"].pop("water"))
    assert has(problems, "tiles.toml [summerboat-2b]: a summer boat has river sides")


# Upgrades (reference §6, §9.4, §9.8)


def test_summer_boats_cannot_be_upgraded(tmp_path: Path) -> None:
    """Reference §6, §9.4: summer boat tiles are never upgraded."""

    def change(d: Doc) -> None:
        d["summerboat-1a"]["back"] = {"kind": "none"}
        d["summerboat-1a"]["upgrade"] = {"gold": 1}

    problems = edited(tmp_path, "tiles", change)
    assert problems == ["tiles.toml [summerboat-1a]: summerboat tiles cannot be upgraded: no back and no upgrade "
                        "cost (reference sections 6, 9.4, 9.8)."]


def test_winter_tiles_cannot_be_upgraded(tmp_path: Path) -> None:
    """Reference §6, §9.8: winter tiles are never upgraded."""
    problems = edited(tmp_path, "tiles", lambda d: d["windmill"].update(upgrade={"wood": 1}))
    assert problems == ["tiles.toml [windmill]: winter tiles cannot be upgraded: no back and no upgrade cost "
                        "(reference sections 6, 9.4, 9.8)."]


def test_other_tiles_need_a_back_and_a_cost(tmp_path: Path) -> None:
    """Reference §6: every other village tile flips to its back, paying the cost shown."""
    problems = edited(tmp_path, "tiles", lambda d: d["mason"].pop("back"))
    assert problems == ["tiles.toml [mason]: every summer tile can be upgraded, so it needs a back "
                        "(reference section 6)."]
    problems = edited(tmp_path / "2", "tiles", lambda d: d["mason"].pop("upgrade"))
    assert problems == ["tiles.toml [mason]: an upgradable tile needs an upgrade cost."]


def test_cost_keys(tmp_path: Path) -> None:
    """kf-spec Cost: gold iron stone wood anvil pick saw, resource, skill."""
    problems = edited(tmp_path, "tiles", lambda d: d["mason"]["upgrade"].update(brick=1))
    assert has(problems, "tiles.toml [mason]: upgrade cost 'brick' is not one of gold, iron, stone, wood, anvil")


# Faces (kf-spec Face; reference §6, §9)


def test_unknown_face_kind(tmp_path: Path) -> None:
    problems = edited(tmp_path, "tiles", lambda d: d["keywood"]["front"].update(kind="make"))
    assert has(problems, "tiles.toml [keywood] front: face kind 'make' is not one of produce, transport, store")


def test_face_fields_follow_its_kind(tmp_path: Path) -> None:
    """kf-spec Face: a produce face has no transport, a store face no gain, and so on."""
    problems = edited(tmp_path, "tiles", lambda d: d["keywood"]["back"].update(transport=2))
    assert problems == ["tiles.toml [keywood] back: a produce face has no 'transport'."]


def test_produce_face_gains_something(tmp_path: Path) -> None:
    problems = edited(tmp_path, "tiles", lambda d: d["keywood"]["front"].pop("gain"))
    assert problems == ["tiles.toml [keywood] front: a produce face gains something ('gain' is empty)."]


def test_pay_and_gain_keys(tmp_path: Path) -> None:
    """kf-spec Face: pay in bag colours, any, skills; gain in resources, worker, green, skill, choice."""

    def change(d: Doc) -> None:
        d["peddler"]["front"]["pay"] = {"purple": 1}
        d["peddler"]["front"]["gain"] = {"greens": 1}

    problems = edited(tmp_path, "tiles", change)
    assert has(problems, "tiles.toml [peddler] front: pay 'purple' is not one of blue, red, yellow, any, anvil")
    assert has(problems, "tiles.toml [peddler] front: gain 'greens' is not one of gold, iron, stone, wood, worker")


def test_transport_face_moves_and_upgrades(tmp_path: Path) -> None:
    """Reference §6: a transport use moves resources and upgrades 1 or 2 tiles."""
    problems = edited(tmp_path, "tiles", lambda d: d["farrier"]["front"].update(upgrades=0))
    assert problems == ["tiles.toml [farrier] front: a transport face moves at least 1 resource-step and upgrades "
                        "at least 1 tile (reference section 6)."]


def test_store_face_names_what_it_stores(tmp_path: Path) -> None:
    """Reference §9.7: the Blacksmith stores iron."""
    problems = edited(tmp_path, "tiles", lambda d: d["blacksmith"]["back"].update(store="stone"))
    assert problems == ["tiles.toml [blacksmith]: the Blacksmith stores iron (reference section 9.7)."]
    problems = edited(tmp_path / "2", "tiles", lambda d: d["barn"]["front"].update(store="gems"))
    assert has(problems, "tiles.toml [barn] front: a store face names what it stores (any, gold, iron")


@pytest.mark.parametrize("tile_id,face,expected", [
    ("stable", {"kind": "produce", "gain": {"wood": 1}}, "transport"),
    ("home-4", {"kind": "points"}, "transport"),
    ("timber-yard", {"kind": "points"}, "store"),
    ("sculptor", {"kind": "produce", "gain": {"stone": 1}}, "points"),
    ("apothecary", {"kind": "points", "points": 5}, "winter"),
    ("summerboat-3a", {"kind": "produce", "gain": {"gold": 1}}, "none"),
])
def test_faces_fit_the_tile(tmp_path: Path, tile_id: str, face: Doc, expected: str) -> None:
    """Reference §6, §9: transport tiles, storage tiles, points-only tiles, winter tiles and summer boats."""
    problems = edited(tmp_path, "tiles", lambda d: d[tile_id].update(front=face))
    assert has(problems, f"tiles.toml [{tile_id}]: its faces must be {expected} faces")


def test_only_the_known_tiles_transport(tmp_path: Path) -> None:
    """Reference §6: the home tiles, Stable, Farrier and Wainwright are the transport tiles."""

    def change(d: Doc) -> None:
        d["gold-mine"]["front"] = {"kind": "transport", "transport": 1, "upgrades": 1}
        d["gold-mine"]["back"] = {"kind": "transport", "transport": 2, "upgrades": 1}

    problems = edited(tmp_path, "tiles", change)
    assert problems == ["tiles.toml [gold-mine]: only the home tiles, Stable, Farrier and Wainwright transport, "
                        "only the Barn and the three yards store, only winter tiles score by key, and only summer "
                        "boats have no use (reference sections 6, 9)."]


def test_both_faces_of_one_kind(tmp_path: Path) -> None:
    problems = edited(tmp_path, "tiles", lambda d: d["workshop"].update(back={"kind": "points", "points": 3}))
    assert problems == ["tiles.toml [workshop]: both faces must be of one kind, not produce and points."]


def test_winter_scoring_keys(tmp_path: Path) -> None:
    """Reference §9.8: twelve winter tiles, each scoring its own way, by a key the scoring module knows."""
    problems = edited(tmp_path, "tiles", lambda d: d["scribes"]["front"].update(scoring="scholar"))
    assert "tiles.toml: the winter scoring key 'scholar' appears 2 times; each of the 12 winter tiles scores its " \
           "own way (reference section 9.8)." in problems
    assert has(problems, "the winter scoring key 'scribes' appears 0 times")
    problems = edited(tmp_path / "2", "tiles", lambda d: d["scribes"]["front"].update(scoring="scribe"))
    assert has(problems, "tiles.toml [scribes] front: scoring key 'scribe' is not one the scoring module knows")


def test_duplicate_ids_are_refused() -> None:
    """Ids must be unique, within tiles and between tiles and boats (TOML refuses a repeated table in one file)."""
    c = replaced(COMPONENTS, tiles=COMPONENTS.tiles + (COMPONENTS.tiles[0],))
    assert has(validate(c), "tiles.toml: the id 'home-1' is used 2 times")
    renamed = dataclasses.replace(tile("store"), id="keyflower")
    c = replaced(COMPONENTS, tiles=COMPONENTS.tiles + (renamed,))
    assert has(validate(c), "tiles.toml [keyflower]: the id also names a boat; ids must be unique.")
    c = replaced(COMPONENTS, boats=COMPONENTS.boats + (COMPONENTS.boats[0],))
    assert has(validate(c), "boats.toml: the id 'keyflower' is used 2 times")


def test_repeated_table_is_a_toml_error(tmp_path: Path) -> None:
    problems = text_edited(tmp_path, "tiles", "[home-2]", "[home-1]")
    assert problems[0].startswith("tiles.toml: not valid TOML")


# Schema: provenance, notes, unknown keys, types


def test_provenance_must_be_one_of_two_words(tmp_path: Path) -> None:
    """kf-spec: provenance is reference or reconstructed."""
    problems = edited(tmp_path, "tiles", lambda d: d["miner"].update(provenance="rulebook"))
    assert problems == ["tiles.toml [miner]: provenance 'rulebook' must be one of reference, reconstructed"]


def test_provenance_in_hand_built_components() -> None:
    c = replaced(COMPONENTS, boats=(dataclasses.replace(boat("flipper"), provenance="guess"),) + COMPONENTS.boats[1:])
    assert has(validate(c), "boats.toml [flipper]: provenance 'guess' must be one of reference, reconstructed.")


def test_reconstructed_entry_needs_a_note(tmp_path: Path) -> None:
    """kf-spec: a reconstructed entry says how it was made up."""
    problems = edited(tmp_path, "turn_order", lambda d: d["2a"].pop("note"))
    assert problems == ["turn_order.toml [2a]: a reconstructed entry needs a short 'note' saying how it was made up"]


def test_unknown_key_and_wrong_type(tmp_path: Path) -> None:
    """The loader reports typos and wrong value types instead of ignoring them."""

    def change(d: Doc) -> None:
        d["miner"]["road"] = d["miner"].pop("roads")
        d["miner"]["name"] = 7
        d["miner"]["front"]["gain"] = {"iron": 0}
        d["miner"]["back"]["points"] = "three"

    problems = edited(tmp_path, "tiles", change)
    assert "tiles.toml [miner]: unknown key 'road' (expected one of name, kind, number, roads, water, upgrade, " \
           "front, back, provenance, note)" in problems
    assert "tiles.toml [miner]: missing 'roads'" in problems
    assert "tiles.toml [miner]: 'name' must be a string, not 7" in problems
    assert "tiles.toml [miner] front: 'gain' must be a table of name = whole number of at least 1, not " \
           "{'iron': 0}" in problems
    assert "tiles.toml [miner] back: 'points' must be a whole number, not 'three'" in problems


def test_face_must_be_a_table(tmp_path: Path) -> None:
    problems = edited(tmp_path, "tiles", lambda d: d["well"].update(front="points"))
    assert problems == ["tiles.toml [well] front: must be a table, not 'points'"]
    problems = edited(tmp_path / "2", "tiles", lambda d: d["well"]["front"].update(colour="red"))
    assert has(problems, "tiles.toml [well] front: unknown key 'colour'")


def test_edges_must_be_a_list_of_numbers(tmp_path: Path) -> None:
    problems = edited(tmp_path, "tiles", lambda d: d["well"].update(roads="4, 5"))
    assert problems == ["tiles.toml [well]: 'roads' must be a list of edge numbers, not '4, 5'"]


# Boats (reference §2, §9.3)


def test_missing_boat(tmp_path: Path) -> None:
    problems = edited(tmp_path, "boats", lambda d: d.pop("flipper"))
    assert has(problems, "boats.toml: there are 5 boats; the game has 6 (reference section 1).")
    assert has(problems, "boats.toml: missing flipper (reference section 9.3).")


def test_unknown_boat(tmp_path: Path) -> None:
    problems = text_edited(tmp_path, "boats", "[white-wind]", "[black-wind]")
    assert has(problems, "boats.toml [black-wind]: not a boat of the game")
    assert has(problems, "boats.toml: missing white-wind")


@pytest.mark.parametrize("boat_id,mark", [("keyflower", 3), ("sea-bastion", 3), ("sea-breese", 2), ("flipper", 5),
                                          ("ianvincible", 4), ("white-wind", 5)])
def test_boat_player_marks(tmp_path: Path, boat_id: str, mark: int) -> None:
    """Reference §2: boats are marked 2+, 2+, 3+, 4+, 5+ and 6; one boat per player in every set-up."""
    problems = edited(tmp_path, "boats", lambda d: d[boat_id].update(min_players=mark))
    assert has(problems, f"boats.toml [{boat_id}]: the ")
    assert has(problems, f"is marked {boat(boat_id).min_players}+, not {mark}+ (reference sections 2, 9.3).")
    assert has(problems, "boats are marked for")


def test_boat_scoring_key(tmp_path: Path) -> None:
    """Reference §9.3: each boat scores its own way, by a key the scoring module knows."""
    problems = edited(tmp_path, "boats", lambda d: d["flipper"].update(scoring="flip"))
    assert problems == ["boats.toml [flipper]: scoring key 'flip' is not one the scoring module knows (keyflower, "
                        "sea-bastion, sea-breese, flipper, ianvincible, white-wind)."]
    problems = edited(tmp_path / "2", "boats", lambda d: d["flipper"].update(scoring="keyflower"))
    assert problems == ["boats.toml [flipper]: a boat scores by its own key 'flipper', not 'keyflower' "
                        "(reference section 9.3)."]


def test_boat_contents(tmp_path: Path) -> None:
    """Reference §9.3: every boat face carries keyples or skills; counts are whole numbers."""
    problems = edited(tmp_path, "boats", lambda d: d["flipper"].update(workers_b=0, skills_b=0))
    assert problems == ["boats.toml [flipper]: each face carries some keyples or skills (reference section 9.3)."]
    problems = edited(tmp_path / "2", "boats", lambda d: d["flipper"].update(workers_a=-1))
    assert problems == ["boats.toml [flipper]: 'workers_a' must be a whole number, not -1"]


def test_boats_have_river_sides(tmp_path: Path) -> None:
    problems = edited(tmp_path, "boats", lambda d: d["ianvincible"].update(water=[]))
    assert problems == ["boats.toml [ianvincible]: a boat has river sides; Sea Breese links boats by river "
                        "(reference 9.3)."]


# Turn-order tiles (reference §2, §9.2, §13)


def test_turn_order_face_missing_for_a_count(tmp_path: Path) -> None:
    """Reference §2: 3 players use tiles 1 and 2."""
    problems = edited(tmp_path, "turn_order", lambda d: d["2a"].update(players=[4, 4]))
    assert has(problems, "turn_order.toml: 3 players put up faces of tiles [1]; they use tiles [1, 2], one face "
                         "each (reference section 2).")
    assert has(problems, "turn_order.toml: 4 players put up faces of tiles [1, 2, 2, 3]")


def test_turn_order_start_icon(tmp_path: Path) -> None:
    """Reference §9.2, §13: the start icon is on the highest-numbered tile in use, alone."""
    problems = edited(tmp_path, "turn_order", lambda d: d["1b"].update(start_icon=True))
    assert problems == [f"turn_order.toml: with {n} players the start icon shows on tiles [1, {k}]; it is on the "
                        f"highest-numbered tile in use, {k}, alone (reference sections 9.2, 13)."
                        for n, k in ((3, 2), (4, 3), (5, 4), (6, 4))]


def test_turn_order_numbers_and_sides(tmp_path: Path) -> None:
    """Reference §1: four tiles numbered 1-4; a tile has two sides; player ranges within 2-6."""

    def change(d: Doc) -> None:
        d["4"]["number"] = 5
        d["5"] = d.pop("4")

    problems = edited(tmp_path, "turn_order", change)
    assert has(problems, "turn_order.toml [tile 5, 5-6 players]: turn-order tiles are numbered 1-4, not 5 "
                         "(reference section 1).")
    assert has(problems, "6 players put up faces of tiles [1, 2, 3, 5]")
    problems = text_edited(tmp_path / "k2", "turn_order", "[4]", "[3c]\n")
    assert problems == ["turn_order.toml [3c]: the key must be the tile's number 4 with an optional face letter "
                        "(e.g. '4a')"]
    extra = {"number": 1, "players": [7, 8], "start_icon": False, "roads": [0], "provenance": "reconstructed",
             "note": "x"}
    problems = edited(tmp_path / "2", "turn_order", lambda d: d.update({"1": extra}))
    assert has(problems, "turn_order.toml: tile 1 has 3 faces; a tile has two sides.")
    assert has(problems, "turn_order.toml [tile 1, 7-8 players]: players must be [lowest, highest] within 2-6.")
    problems = edited(tmp_path / "3", "turn_order", lambda d: d["1a"].update(players=[2]))
    assert problems == ["turn_order.toml [1a]: 'players' must be a pair [lowest, highest] of player counts, not [2]"]


# Game numbers (reference §1, §2)


def test_supply_counts(tmp_path: Path) -> None:
    """Reference §1: 40/40/40 in the bag, 20 greens, 16 of each skill, 48/24/24/24 resources."""

    def change(d: Doc) -> None:
        d["supply"]["bag"].update(blue=39, green=20)
        d["supply"]["greens"] = 21
        d["supply"]["skills"].pop("saw")
        d["supply"]["resources"]["gold"] = 40

    problems = edited(tmp_path, "game", change)
    assert problems == [
        "game.toml [supply] bag: 'green' is unknown (expected blue, red, yellow).",
        "game.toml [supply] bag: blue is 39; the game has 40 (reference section 1).",
        "game.toml [supply] greens: greens is 21; the game has 20 (reference section 1).",
        "game.toml [supply] skills: saw is missing; the game has 16 (reference section 1).",
        "game.toml [supply] resources: gold is 40; the game has 48 (reference section 1).",
    ]


def test_setup_table(tmp_path: Path) -> None:
    """Reference §2: the set-up table by player count."""
    problems = edited(tmp_path, "game", lambda d: d["setup"]["5"].update(per_season=8))
    assert problems == ["game.toml [setup] 5: per_season is 8; the game has 9 (reference section 2)."]
    problems = edited(tmp_path / "2", "game", lambda d: d["setup"].pop("6"))
    assert problems == ["game.toml [setup]: 6 players is missing (reference section 2)."]
    problems = edited(tmp_path / "3", "game", lambda d: d["setup"].update({"7": d["setup"]["6"]}))
    assert has(problems, "game.toml [setup]: unknown key '7'")
    problems = edited(tmp_path / "4", "game", lambda d: d["setup"]["2"].update(workers=8))
    assert has(problems, "game.toml [setup] 2: unknown key 'workers'")


def test_setup_fits_the_components() -> None:
    """Hand-built: every player count's set-up needs no more tiles than exist, and one marked boat per player."""
    setup = {n: dict(row) for n, row in COMPONENTS.setup.items()}
    setup[6].update(per_season=13, winter_dealt=3, home=7)
    problems = validate(replaced(COMPONENTS, setup=setup))
    assert has(problems, "game.toml [setup] 6: 13 spring tiles laid out, 12 exist.")
    assert has(problems, "game.toml [setup] 6: 13 summer tiles laid out, 12 exist.")
    assert has(problems, "game.toml [setup] 6: 3 winter tiles each for 6 players, 12 exist.")
    assert has(problems, "game.toml [setup] 6: 7 home tiles needed, 6 exist.")
    setup = {**{n: dict(row) for n, row in COMPONENTS.setup.items()}, 7: dict(COMPONENTS.setup[6])}
    assert has(validate(replaced(COMPONENTS, setup=setup)), "game.toml [setup]: 7 players is not a player count")


def test_missing_and_unknown_sections(tmp_path: Path) -> None:
    def change(d: Doc) -> None:
        d.pop("setup")
        d["set-up"] = {"provenance": "reference"}

    problems = edited(tmp_path, "game", change)
    assert problems == ["game.toml: missing section [setup]",
                        "game.toml: unknown section [set-up] (expected supply, setup)"]


# Files


def test_missing_file_and_bad_toml(tmp_path: Path) -> None:
    folder = copy_data(tmp_path)
    (folder / "boats.toml").unlink()
    (folder / "game.toml").write_text("[supply\n", encoding="utf-8")
    problems = problems_in(folder)
    assert problems[0] == f"boats.toml: missing from {folder}"
    assert problems[1].startswith("game.toml: not valid TOML")


def test_not_a_folder(tmp_path: Path) -> None:
    assert problems_in(tmp_path / "nowhere") == [f"{tmp_path / 'nowhere'}: not a folder"]


# --- The command-line validator --------------------------------------------------------------------------


def run_validator(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.keyflower.validate", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_cli_accepts_the_packaged_data() -> None:
    """python -m engine.keyflower.validate: prints OK and exits 0."""
    result = run_validator()
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("OK: 6 home, 12 spring, 8 summer (+ 8 summer boat faces), 12 autumn and 12 "
                                    "winter tiles, 6 boats, 4 turn-order tiles (7 faces)")


def test_cli_accepts_a_good_copy(tmp_path: Path) -> None:
    result = run_validator(str(copy_data(tmp_path)))
    assert result.returncode == 0, result.stdout + result.stderr


def test_cli_reports_each_problem_and_exits_1(tmp_path: Path) -> None:
    """A broken copy: one problem per line on stdout, the count on stderr, exit status 1."""
    folder = copy_data(tmp_path)
    target = folder / "tiles.toml"
    text = target.read_text(encoding="utf-8")
    target.write_text(text.replace("[well]\nname = \"Well\"\nkind = \"autumn\"\nroads = [4, 5]",
                                   "[well]\nname = \"Well\"\nkind = \"autumn\"\nroads = [4, 5, 0]", 1),
                      encoding="utf-8")
    result = run_validator(str(folder))
    assert result.returncode == 1
    assert result.stdout.splitlines() == ["tiles.toml [well]: a autumn tile has 2 roads, not 3 (reference section 7)."]
    assert result.stderr.strip() == f"1 problem in {folder}"


def test_cli_missing_folder(tmp_path: Path) -> None:
    result = run_validator(str(tmp_path / "nowhere"))
    assert result.returncode == 1
    assert "not a folder" in result.stdout
    assert "1 problem in" in result.stderr


def test_cli_bad_arguments_exit_2() -> None:
    result = run_validator("a", "b")
    assert result.returncode == 2


# --- The reconstruction's choices (docs/components.md, Keyflower) ----------------------------------------


def edge_kind(roads: Sequence[int], water: Sequence[int], edge: int) -> str:
    return "road" if edge in roads else "water" if edge in water else "field"


def side_by_side(a: Tile, b: Tile) -> int:
    """Directions e in which b may sit across a's edge e with the two facing edges alike (tiles never rotate)."""
    return sum(edge_kind(a.roads, a.water, e) == edge_kind(b.roads, b.water, (e + 3) % 6) for e in range(6))


def road_joins(a: Tile, b: Tile) -> int:
    """Directions in which a road of a runs straight into a road of b."""
    return sum(e in a.roads and (e + 3) % 6 in b.roads for e in range(6))


@pytest.mark.parametrize("season,share", [("spring", 8), ("summer", 4), ("autumn", 4), ("winter", 2)])
def test_each_edge_is_a_road_on_an_equal_share(season: str, share: int) -> None:
    """Reconstruction: tiles never rotate, so each edge carries a road on the same number of a season's tiles."""
    edges = Counter(e for t in COMPONENTS.tiles if t.kind == season for e in t.roads)
    assert edges == {e: share for e in range(6)}


@pytest.mark.parametrize("season", SEASONS)
def test_tiles_of_a_season_connect_in_several_ways(season: str) -> None:
    """Reconstruction: any two tiles of a season can sit side by side in at least two of the six directions;
    spring tiles can also join by road in two, summer tiles in one."""
    tiles = [t for t in COMPONENTS.tiles if t.kind == season]
    assert len({t.roads for t in tiles}) == (6 if season == "winter" else len(tiles))
    for a in tiles:
        for b in tiles:
            if a is not b:
                assert side_by_side(a, b) >= 2, (a.id, b.id)
                assert road_joins(a, b) >= {"spring": 2, "summer": 1}.get(season, 0), (a.id, b.id)


def test_spring_summer_and_autumn_tiles_can_join_the_home_tile_by_road() -> None:
    """Reconstruction: the home tile's five roads (every edge but the river's) meet a road of every such tile."""
    home = tile("home-1")
    for t in COMPONENTS.tiles:
        if t.kind in ("spring", "summer", "autumn"):
            assert road_joins(home, t) >= 1, t.id
            assert any(side_by_side_at(home, t, e) for e in home.roads), t.id


def side_by_side_at(a: Tile, b: Tile, e: int) -> bool:
    return edge_kind(a.roads, a.water, e) == edge_kind(b.roads, b.water, (e + 3) % 6)


def test_home_tiles_are_alike_but_for_their_number() -> None:
    """Reconstruction: the home tiles' numbers are unknown, so all six are the same; river side north."""
    homes = [t for t in COMPONENTS.tiles if t.kind == "home"]
    first = homes[0]
    for t in homes:
        assert (t.roads, t.water, t.front, t.back, t.upgrade) == (first.roads, first.water, first.front, first.back,
                                                                   first.upgrade)
    assert first.water == (0,)
    assert first.front == Face("transport", transport=1, upgrades=1)
    assert first.back == Face("transport", transport=2, upgrades=1, points=2)
    assert first.upgrade == {"wood": 1, "stone": 1}


def test_every_boat_can_join_the_river() -> None:
    """Reconstruction: each boat (and summer boat) can be linked by river to the home tile's water side (north),
    directly (water on its south side) or after another boat whose river turns towards it."""
    home_water = tile("home-1").water[0]
    river = [(b.id, b.water) for b in COMPONENTS.boats] + [
        (t.id, t.water) for t in COMPONENTS.tiles if t.kind == "summerboat"]
    first = {i for i, water in river if (home_water + 3) % 6 in water}
    for boat_id, water in river:
        follows = any((e + 3) % 6 in water for other, w in river if other in first and other != boat_id
                      for e in w if e != (home_water + 3) % 6)
        assert boat_id in first or follows, boat_id


def test_transport_grows_season_by_season() -> None:
    """Reconstruction: home < Stable < Farrier < Wainwright, front and back (reference §6, §9.5-9.7)."""
    chain = [tile(i) for i in ("home-1", "stable", "farrier", "wainwright")]
    fronts = [t.front.transport for t in chain]
    backs = [t.back.transport for t in chain if t.back is not None]
    assert fronts == sorted(set(fronts)) and backs == sorted(set(backs))
    assert tile("wainwright").front == Face("transport", transport=4, upgrades=1)
    assert tile("wainwright").back == Face("transport", transport=6, upgrades=2, points=5)


def test_the_suspicious_zero_vp_backs_are_kept() -> None:
    """Decision (reference §9.5-9.6, §12.5): Alehouse, Peddler and Tavern keep the source's 0 VP backs."""
    for tile_id in ("alehouse", "peddler", "tavern"):
        t = tile(tile_id)
        assert t.back is not None and t.back.points == 0 and t.provenance == "reference"
    assert tile("store").back == Face("produce", pay={"blue": 1}, gain={"green": 2}, points=3)


def test_autumn_reconstructions() -> None:
    """Reconstruction (reference §9.7, §12.2, §13): storage per-resource VP, Inn, Fair and the points-only tiles."""
    assert [(tile(i).front.per, tile(i).back.per) for i in ("barn", "blacksmith", "stone-yard", "timber-yard")
            if tile(i).back is not None] == [(1, 2), (2, 3), (2, 3), (2, 3)]
    assert tile("inn").front.gain == {"worker": 2} and tile("inn").upgrade == {"wood": 1, "stone": 1, "skill": 1}
    assert tile("fair").front == Face("produce", pay={"red": 1}, gain={"green": 1})
    for tile_id in ("forge", "goldsmith", "sawmill", "sculptor", "well"):
        t = tile(tile_id)
        assert t.front == Face("points") and t.back is not None
        assert t.back.points == 2 * sum(t.upgrade.values()) + 2, tile_id
        assert set(t.upgrade) <= set(RESOURCES)
    assert all(t.provenance == "reconstructed" for t in COMPONENTS.tiles if t.kind == "autumn")


def test_only_the_inn_mixes_resources_and_skills() -> None:
    """Reference §13 (likely): every base tile's upgrade is paid in resources only or skills only, but the Inn's."""
    resources = set(RESOURCES) | {"resource"}
    mixed = [t.id for t in COMPONENTS.tiles if set(t.upgrade) & resources and set(t.upgrade) - resources]
    assert mixed == ["inn"]


def test_sea_bastion_face_b_mirrors_keyflower() -> None:
    """Reconstruction: the two 2+ boats carry the same keyples and skills over both faces."""
    kf, sb = boat("keyflower"), boat("sea-bastion")
    assert (kf.workers_a + kf.workers_b, kf.skills_a + kf.skills_b) == (10, 3)
    assert (sb.workers_a + sb.workers_b, sb.skills_a + sb.skills_b) == (10, 3)


def test_winter_tiles_score_by_key_alone() -> None:
    """Decision: a winter tile's value is its scoring key (Keythedral's 12 included), so its points stay 0."""
    for t in COMPONENTS.tiles:
        if t.kind == "winter":
            assert t.front.points == 0 and t.front.scoring == t.id and t.back is None and not t.upgrade
