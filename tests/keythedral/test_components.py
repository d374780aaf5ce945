"""The Keythedral data: it loads, every validator rule catches a broken copy, and the reconstruction keeps its choices.

Sources cited below: "rulebook" is shared/rules-sources/keythedral-rules.txt; "reference §N" is section N of
shared/reference/keythedral-components.md; docs/components.md ("Keythedral") explains the reconstruction.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.keythedral.components import (
    COMPONENTS,
    CRAFTS,
    CUBE_ORDER,
    DATA_DIR,
    FILES,
    PROVENANCES,
    RESOURCES,
    TERRAINS,
    BuildingTile,
    ComponentError,
    Components,
    load,
    validate,
)

ROOT = Path(__file__).resolve().parents[2]
Doc = dict[str, Any]


# --- Helpers: copy the data, break one thing, collect the problems ------------------------------------


def _value(v: object) -> str:
    """TOML text for the few value kinds the data files use."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, str):
        return json.dumps(v)
    return str(v)


def dump(doc: Doc) -> str:
    """Write a data document (top-level tables of scalars and inline tables) back as TOML."""
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


# --- The packaged data ---------------------------------------------------------------------------------


def test_packaged_data_loads_and_validates() -> None:
    """Rulebook contents: 29 field tiles, 34 building tiles, 20 law cards; the packaged data breaks no rule."""
    c = load()
    assert (len(c.fields), len(c.buildings), len(c.laws)) == (29, 34, 20)
    assert validate(c) == []
    assert c == COMPONENTS
    assert load(DATA_DIR) == COMPONENTS


def test_constants_follow_the_spec() -> None:
    """kt-spec "Colours": eight cube colours, five resources, three crafts, one cube colour per terrain."""
    assert CUBE_ORDER == ("black", "brown", "blue", "green", "red", "white", "purple", "yellow")
    assert RESOURCES == CUBE_ORDER[:5] and CRAFTS == CUBE_ORDER[5:]
    assert TERRAINS == {"quarry": "black", "woods": "brown", "lake": "blue", "farm": "green", "vineyard": "red"}


def test_game_numbers_are_the_rulebooks() -> None:
    """Rulebook contents and preparation: cube supply, mat spaces per stage, each player's pieces."""
    c = COMPONENTS
    assert dict(c.resource_supply) == {"black": 20, "brown": 20, "blue": 15, "green": 15, "red": 15}
    assert dict(c.craft_supply) == {"white": 10, "purple": 10, "yellow": 10}
    assert dict(c.mat_slots) == {1: 4, 2: 4, 3: 4, 4: 3, 5: 2}
    assert (c.cottages, c.fences, c.workers) == (5, 3, 10)


def test_laws_are_numbered_with_the_spec_keys() -> None:
    """Rulebook appendix: reference numbers 1..20 and titles; kt-spec: the keys players type."""
    laws = COMPONENTS.laws
    assert [law.number for law in laws] == list(range(1, 21))
    assert laws[0].key == "work-order" and laws[9].key == "repeal" and laws[9].title == "Repeal Law"
    assert laws[12].key == "design-change" and laws[19].title == "Start Order"
    assert all(law.provenance == "rulebook" for law in laws)


def test_costs_are_sorted_colour_tuples() -> None:
    """kt-spec components API: a cost is a tuple of cube colours in CUBE_ORDER, repeats allowed."""
    tile = next(b for b in COMPONENTS.buildings if b.id == "b1-2")
    assert tile.cost == ("black", "black", "blue", "green")
    for b in COMPONENTS.buildings:
        assert list(b.cost) == sorted(b.cost, key=CUBE_ORDER.index)


def raw_entries() -> list[tuple[str, str, Any]]:
    """(file, entry, table) for every entry of every data file."""
    out = []
    for name in FILES:
        doc = tomllib.loads((DATA_DIR / f"{name}.toml").read_text(encoding="utf-8"))
        out += [(name, key, table) for key, table in doc.items()]
    return out


@pytest.mark.parametrize("file,key,table", raw_entries(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_entry_says_where_it_comes_from(file: str, key: str, table: Any) -> None:
    """docs/components.md, Keythedral: each entry has a provenance, and a note when reconstructed."""
    assert table["provenance"] in PROVENANCES, f"{file}.toml [{key}]"
    if table["provenance"] == "reconstructed":
        assert table["note"].strip()


def test_the_folder_may_be_given_as_a_file_or_a_parent(tmp_path: Path) -> None:
    """load(path): a data file's path means its folder; a folder whose data/ holds the files means that."""
    assert load(DATA_DIR / "fields.toml") == COMPONENTS
    assert load(DATA_DIR.parent) == COMPONENTS


# --- Every validator rule catches a broken copy --------------------------------------------------------
# Field tiles (rulebook contents and set-up; reference §3)


def test_missing_field_tile(tmp_path: Path) -> None:
    """Rulebook contents: 29 field tiles."""
    problems = edited(tmp_path, "fields", lambda d: d.pop("f5-5"))
    assert has(problems, "there are 28 field tiles; the game has 29")


def test_unknown_terrain(tmp_path: Path) -> None:
    """Rulebook contents: five terrains (quarry, woods, lake, farm, vineyard)."""
    problems = edited(tmp_path, "fields", lambda d: d["f5-5"].update(terrain="swamp"))
    assert has(problems, "fields.toml [f5-5]: terrain 'swamp' is not one of")


def test_back_number_out_of_range(tmp_path: Path) -> None:
    """Rulebook set-up: backs are player counts, 1..5."""
    problems = edited(tmp_path, "fields", lambda d: d["f5-5"].update(back=6))
    assert has(problems, "fields.toml [f5-5]: back number 6 must be 1..5")


def test_back_counts(tmp_path: Path) -> None:
    """Reference §3: backs 1/2/3/4/5 on 4/10/5/5/5 tiles."""
    problems = edited(tmp_path, "fields", lambda d: d["f5-1"].update(back=4))
    assert has(problems, "6 tiles have back number 4; the game has 5")
    assert has(problems, "4 tiles have back number 5; the game has 5")


def test_terrain_totals(tmp_path: Path) -> None:
    """Rulebook contents: 6 quarries, 8 woods, 5 lakes, 5 farms, 5 vineyards."""
    problems = edited(tmp_path, "fields", lambda d: d["f5-5"].update(terrain="lake"))
    assert has(problems, "there are 6 lake tiles; the game has 5")
    assert has(problems, "there are 4 vineyard tiles; the game has 5")


def test_number_one_tiles_are_two_quarries_and_two_woods(tmp_path: Path) -> None:
    """Rulebook set-up and variation one: the #1 tiles are 2 grey quarries and 2 brown woods."""

    def swap(d: Doc) -> None:
        d["f1-2"]["terrain"], d["f2-3"]["terrain"] = "woods", "quarry"

    problems = edited(tmp_path, "fields", swap)
    assert problems == ["fields.toml: the #1 tiles must be 2 quarries and 2 woods (rulebook set-up), "
                        "not 1 quarry, 3 woods."]


def test_duplicate_ids_are_refused() -> None:
    """Ids must be unique (TOML itself refuses a repeated table, so this checks hand-built components)."""
    c = dataclasses.replace(COMPONENTS, fields=COMPONENTS.fields[:-1] + (COMPONENTS.fields[0],),
                            buildings=COMPONENTS.buildings[:-1] + (COMPONENTS.buildings[0],))
    problems = validate(c)
    assert has(problems, "fields.toml: the id 'f1-1' is used 2 times")
    assert has(problems, "buildings.toml: the id 'b1-1' is used 2 times")


def test_repeated_table_is_a_toml_error(tmp_path: Path) -> None:
    """A copy-pasted tile keeps its id: the TOML parser reports it before anything else."""
    problems = text_edited(tmp_path, "fields", "[f2-1]", "[f1-1]")
    assert problems[0].startswith("fields.toml: not valid TOML")


# Schema: provenance, notes, unknown keys, types


def test_provenance_must_be_one_of_three_words(tmp_path: Path) -> None:
    """docs/components.md, Keythedral: provenance is rulebook, reference or reconstructed."""
    problems = edited(tmp_path, "fields", lambda d: d["f1-1"].update(provenance="rule book"))
    assert problems == ["fields.toml [f1-1]: provenance 'rule book' must be one of rulebook, reference, reconstructed"]


def test_reconstructed_entry_needs_a_note(tmp_path: Path) -> None:
    """docs/components.md, Keythedral: a reconstructed entry says how it was made up."""
    problems = edited(tmp_path, "buildings", lambda d: d["b3-4"].pop("note"))
    assert problems == ["buildings.toml [b3-4]: a reconstructed entry needs a short 'note' saying how it was made up"]


def test_unknown_key_and_wrong_type(tmp_path: Path) -> None:
    """The loader reports typos and wrong value types instead of ignoring them."""
    problems = text_edited(tmp_path, "fields", 'terrain = "quarry"\nback = 1', 'terain = "quarry"\nback = "one"')
    assert "fields.toml [f1-1]: unknown key 'terain' (expected one of terrain, back, provenance, note)" in problems
    assert "fields.toml [f1-1]: missing 'terrain'" in problems
    assert "fields.toml [f1-1]: 'back' must be an integer, not 'one'" in problems


def test_cost_counts_must_be_positive(tmp_path: Path) -> None:
    """A cost is a table of colour = count of at least 1."""
    problems = edited(tmp_path, "buildings", lambda d: d["b1-1"]["cost"].update(black=0))
    assert problems == ["buildings.toml [b1-1]: 'cost' must be a table of name = whole number of at least 1, "
                        "not {'black': 0, 'brown': 1, 'blue': 1, 'green': 1}"]


# Building tiles (rulebook contents and phase three, action one; reference §4)


def test_missing_building_tile(tmp_path: Path) -> None:
    """Rulebook contents: 34 building tiles; reference §4: 6 of them in stage 5."""
    problems = edited(tmp_path, "buildings", lambda d: d.pop("b5-6"))
    assert has(problems, "there are 33 building tiles; the game has 34")
    assert has(problems, "stage 5 has 5 tiles; the game has 6")


def test_stage_counts_and_mat_spaces(tmp_path: Path) -> None:
    """Reference §4: stages hold 6/8/8/6/6 tiles, never fewer than the mat's spaces (rulebook: 4/4/4/3/2)."""

    def shrink(d: Doc) -> None:
        for n in range(1, 6):
            d.pop(f"b5-{n}")

    problems = edited(tmp_path, "buildings", shrink)
    assert has(problems, "stage 5 has 1 tiles; the game has 6")
    assert has(problems, "stage 5 has 1 tiles for 2 mat spaces")


def test_stage_out_of_range(tmp_path: Path) -> None:
    """Rulebook: seat values run 1..5."""
    problems = edited(tmp_path, "buildings", lambda d: d["b5-6"].update(stage=6))
    assert has(problems, "buildings.toml [b5-6]: stage 6 must be 1..5")


def test_id_must_match_stage(tmp_path: Path) -> None:
    """Ids read b<stage>-<n> (kt-spec view: "tile": "b1-3"), so a mistyped stage shows up."""
    problems = edited(tmp_path, "buildings", lambda d: d["b1-1"].update(stage=2))
    assert has(problems, "buildings.toml [b1-1]: a stage-2 tile's id must look like 'b2-N'")


def test_empty_cost(tmp_path: Path) -> None:
    """Rulebook contents: the front of every building tile shows its cost in cubes."""
    problems = text_edited(tmp_path, "buildings", "cost = { black = 1, brown = 1, blue = 1, green = 1 }", "cost = {}")
    assert has(problems, "buildings.toml [b1-1]: the cost is empty")


def test_unknown_cube_colour(tmp_path: Path) -> None:
    """Rulebook contents: eight cube colours."""
    problems = edited(tmp_path, "buildings", lambda d: d["b1-1"]["cost"].update(pink=1))
    assert has(problems, "buildings.toml [b1-1]: 'pink' is not a cube colour")


def test_unsorted_cost_in_hand_built_components() -> None:
    """kt-spec components API: cost colours are sorted by CUBE_ORDER."""
    tile = BuildingTile(id="b1-1", stage=1, cost=("green", "black", "brown", "blue"), provenance="reconstructed")
    c = dataclasses.replace(COMPONENTS, buildings=(tile,) + COMPONENTS.buildings[1:])
    assert has(validate(c), "buildings.toml [b1-1]: the cost must list colours in the order black, brown")


@pytest.mark.parametrize("tile,colour,why", [
    ("b3-1", "black", "reference §4 (box hints): no stone after stage 2"),
    ("b4-1", "brown", "reference §4 (box hints): no timber after stage 3"),
    ("b2-1", "white", "rulebook action one: crafts only from stage 3"),
    ("b3-1", "purple", "rulebook action one: stage 3 may need ironwork, not glass or gold"),
    ("b1-1", "red", "rulebook action one: stages 1-2 need stone, timber, food and water"),
])
def test_colour_a_stage_does_not_use(tmp_path: Path, tile: str, colour: str, why: str) -> None:
    """Each stage asks only for the colours the rulebook and the box hints give it."""
    problems = edited(tmp_path, "buildings", lambda d: d[tile]["cost"].update({colour: 1}))
    assert has(problems, f"buildings.toml [{tile}]: a stage-{tile[1]} tile cannot ask for {colour}"), why


@pytest.mark.parametrize("stage,colour", [(1, "black"), (2, "brown"), (3, "brown"), (4, "blue"), (5, "green")])
def test_colour_a_stage_needs(tmp_path: Path, stage: int, colour: str) -> None:
    """Rulebook action one and reference §4: stone and timber in stages 1-2, timber in 3, food and water always."""

    def strip(d: Doc) -> None:
        other = "white" if stage > 2 else "green"
        for table in d.values():
            if table["stage"] == stage and colour in table["cost"]:
                table["cost"][other] = table["cost"].get(other, 0) + table["cost"].pop(colour)

    problems = edited(tmp_path, "buildings", strip)
    assert has(problems, f"no stage-{stage} tile asks for {colour}")


def test_every_stage_five_tile_has_a_craft(tmp_path: Path) -> None:
    """Reference §4 (PE): every stage-5 tile includes at least one craft cube."""
    problems = edited(tmp_path, "buildings", lambda d: d["b5-3"].update(cost={"blue": 4, "green": 4, "red": 4}))
    assert problems == ["buildings.toml [b5-3]: every stage-5 tile asks for at least one craft cube "
                        "(reference section 4)."]


def test_some_late_tile_asks_for_gold(tmp_path: Path) -> None:
    """Reference §4: the Price Decrease law (rulebook appendix, law 3) implies some tiles show gold."""

    def no_gold(d: Doc) -> None:
        for table in d.values():
            if "yellow" in table["cost"]:
                table["cost"]["purple"] = table["cost"].get("purple", 0) + table["cost"].pop("yellow")

    problems = edited(tmp_path, "buildings", no_gold)
    assert problems == ["buildings.toml: no stage-4 or stage-5 tile asks for yellow (gold); the Price Decrease law "
                        "implies some do (reference section 4)."]


def test_no_tile_needs_more_than_the_supply(tmp_path: Path) -> None:
    """Rulebook contents: the supply is limited (15 blue), so a tile asking for 16 could never be bought."""
    problems = edited(tmp_path, "buildings", lambda d: d["b5-3"]["cost"].update(blue=16))
    assert has(problems, "buildings.toml [b5-3]: asks for 16 blue cubes but the game has only 15")


def test_cost_per_point_falls_by_stage(tmp_path: Path) -> None:
    """Reference §4 (PE): each stage costs more, but fewer cubes per point."""
    problems = edited(tmp_path, "buildings", lambda d: d["b5-1"]["cost"].update(green=7))
    assert problems == ["buildings.toml: stage 5 costs 2.53 cubes per seat point on average, not less than "
                        "stage 4's 2.50; the cost per point falls with each stage (reference section 4)."]


# Law cards (rulebook appendix; kt-spec keys)


def test_missing_law(tmp_path: Path) -> None:
    """Rulebook contents: 20 law cards, numbers 1..20."""
    problems = edited(tmp_path, "laws", lambda d: d.pop("start-order"))
    assert has(problems, "there are 19 law cards; the game has 20")
    assert has(problems, "law number 20 appears 0 times")


def test_repeated_law_number(tmp_path: Path) -> None:
    """Rulebook appendix: each reference number once."""
    problems = edited(tmp_path, "laws", lambda d: d["bargain"].update(number=16))
    assert has(problems, "law number 16 appears 2 times")
    assert has(problems, "law number 15 appears 0 times")


def test_law_number_out_of_range(tmp_path: Path) -> None:
    """Rulebook appendix: reference numbers 1..20."""
    problems = edited(tmp_path, "laws", lambda d: d["sale"].update(number=21))
    assert has(problems, "laws.toml [sale]: number 21 must be 1..20")


def test_law_key_is_fixed(tmp_path: Path) -> None:
    """kt-spec: the engine and the notation use the spec's law keys."""
    problems = text_edited(tmp_path, "laws", "[repeal]", "[repeal-law]")
    assert problems == ["laws.toml [repeal-law]: law 10 has the key 'repeal', which the engine and the players' "
                        "notation use."]


def test_law_title_is_fixed(tmp_path: Path) -> None:
    """Rulebook appendix / kt-spec: the card titles."""
    problems = text_edited(tmp_path, "laws", 'title = "Repeal Law"', 'title = "Repeal"')
    assert problems == ["laws.toml [repeal]: law 10 is titled 'Repeal Law', not 'Repeal' (rulebook appendix)."]


# Game numbers (rulebook contents, preparation, phase three action one)


def test_supply_counts(tmp_path: Path) -> None:
    """Rulebook contents: 20 black, ..., 10 of each craft; no other colours."""

    def change(d: Doc) -> None:
        d["supply"]["resources"].update(black=19, orange=5)
        d["supply"]["crafts"].pop("yellow")

    problems = edited(tmp_path, "game", change)
    assert "game.toml [supply] resources: black is 19; the game has 20 (rulebook contents)." in problems
    assert has(problems, "game.toml [supply] resources: 'orange' is unknown")
    assert "game.toml [supply] crafts: yellow is missing; the game has 10 (rulebook contents)." in problems


def test_mat_slots(tmp_path: Path) -> None:
    """Rulebook phase three, action one: 4/4/4/3/2 spaces; slot keys are stage numbers."""
    problems = edited(tmp_path, "game", lambda d: d["mat"]["slots"].update({"4": 2, "six": 1}))
    assert has(problems, "game.toml [mat]: slot key 'six' must be a stage number 1..5")
    folder = copy_data(tmp_path / "again")
    target = folder / "game.toml"
    target.write_text(target.read_text(encoding="utf-8").replace("4 = 3", "4 = 2"), encoding="utf-8")
    assert problems_in(folder) == [
        "game.toml [mat] slots: 4 is 2; the game has 3 (rulebook phase three, action one)."]


def test_player_pieces(tmp_path: Path) -> None:
    """Rulebook preparation: 5 cottages, 3 fences, 10 workers each."""
    problems = edited(tmp_path, "game", lambda d: d["player"].update(fences=4))
    assert problems == ["game.toml [player]: fences is 4; the game has 3 (rulebook preparation)."]


def test_missing_and_unknown_sections(tmp_path: Path) -> None:
    """game.toml has exactly [supply], [mat] and [player]."""

    def change(d: Doc) -> None:
        d.pop("player")
        d["players"] = {"provenance": "rulebook"}

    problems = edited(tmp_path, "game", change)
    assert problems == ["game.toml: missing section [player]",
                        "game.toml: unknown section [players] (expected supply, mat, player)"]


# Files


def test_missing_file_and_bad_toml(tmp_path: Path) -> None:
    """Every one of the four files must be there and parse."""
    folder = copy_data(tmp_path)
    (folder / "laws.toml").unlink()
    (folder / "game.toml").write_text("[supply\n", encoding="utf-8")
    problems = problems_in(folder)
    assert problems[0] == f"laws.toml: missing from {folder}"
    assert problems[1].startswith("game.toml: not valid TOML")


def test_not_a_folder(tmp_path: Path) -> None:
    assert problems_in(tmp_path / "nowhere") == [f"{tmp_path / 'nowhere'}: not a folder"]


# --- The command-line validator --------------------------------------------------------------------------


def run_validator(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.keythedral.validate", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_cli_accepts_the_packaged_data() -> None:
    """python -m engine.keythedral.validate: prints OK and exits 0."""
    result = run_validator()
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("OK: 29 field tiles, 34 building tiles (6/8/8/6/6 by stage), 20 law cards")


def test_cli_accepts_a_good_copy(tmp_path: Path) -> None:
    result = run_validator(str(copy_data(tmp_path)))
    assert result.returncode == 0, result.stdout + result.stderr


def test_cli_reports_each_problem_and_exits_1(tmp_path: Path) -> None:
    """A broken copy: one problem per line on stdout, the count on stderr, exit status 1."""
    folder = copy_data(tmp_path)
    target = folder / "buildings.toml"
    target.write_text(target.read_text(encoding="utf-8").replace(
        "cost = { black = 1, brown = 1, blue = 1, green = 1 }",
        "cost = { black = 1, brown = 1, blue = 1, green = 1, red = 1 }", 1), encoding="utf-8")
    result = run_validator(str(folder))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "buildings.toml [b1-1]: a stage-1 tile cannot ask for red; stage 1 uses only black, brown, blue, green "
        "(rulebook phase three, action one; reference section 4)."]
    assert result.stderr.strip() == f"1 problem in {folder}"


def test_cli_missing_folder(tmp_path: Path) -> None:
    result = run_validator(str(tmp_path / "nowhere"))
    assert result.returncode == 1
    assert "not a folder" in result.stdout
    assert "1 problem in" in result.stderr


# --- The reconstruction's choices (docs/components.md, Keythedral) ---------------------------------------


def field_set(c: Components, players: int) -> Counter[str]:
    """The terrains a game of this many players lays (rulebook set-up and variation one)."""
    if players == 2:
        ones = Counter({"quarry": 1, "woods": 1})
        return ones + Counter(f.terrain for f in c.fields if f.back == 2)
    return Counter(f.terrain for f in c.fields if f.back <= players)


@pytest.mark.parametrize("players,size", [(2, 12), (3, 19), (4, 24), (5, 29)])
def test_every_player_count_has_every_terrain_in_balance(players: int, size: int) -> None:
    """Reconstruction: each player count's set has all five terrains, as evenly spread as the totals allow."""
    terrains = field_set(COMPONENTS, players)
    assert sum(terrains.values()) == size
    assert set(terrains) == set(TERRAINS)
    if players < 5:
        assert max(terrains.values()) - min(terrains.values()) <= 1


def test_number_two_tiles_hold_every_terrain() -> None:
    """Reconstruction: the 2-player game uses only the #2 tiles besides one quarry and one woods (variation one)."""
    assert set(f.terrain for f in COMPONENTS.fields if f.back == 2) == set(TERRAINS)


def test_cubes_per_tile_follow_the_reference_reading() -> None:
    """Reference §4 (WDE reading): 4/6/8/10/12 cubes per tile in stages 1..5."""
    for b in COMPONENTS.buildings:
        assert len(b.cost) == 2 * b.stage + 2, b.id


def test_tiles_of_a_stage_differ() -> None:
    """Reconstruction: no two tiles of one stage cost the same, so Design Change (law 13) changes something."""
    for stage in range(1, 6):
        costs = [b.cost for b in COMPONENTS.buildings if b.stage == stage]
        assert len(set(costs)) == len(costs)


def test_most_tiles_ask_for_food_and_water() -> None:
    """Reference §4 (box hints): food and water throughout; the reconstruction puts both on most tiles."""
    for stage in range(1, 6):
        tiles = [b for b in COMPONENTS.buildings if b.stage == stage]
        both = [b for b in tiles if "green" in b.cost and "blue" in b.cost]
        assert len(both) * 2 > len(tiles)


def test_stage_three_crafts_are_ironwork_only() -> None:
    """Rulebook action one: stage 3 may need ironwork; glass and gold come in stages 4-5, gold in some."""
    assert all(set(b.cost) <= set(RESOURCES) | {"white"} for b in COMPONENTS.buildings if b.stage == 3)
    assert any("yellow" in b.cost for b in COMPONENTS.buildings if b.stage == 4)
    assert any("yellow" in b.cost for b in COMPONENTS.buildings if b.stage == 5)
