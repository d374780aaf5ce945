"""The Keyper data pack: it loads, every validator rule bites, and the reconstruction keeps its choices."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.keyper import vocab
from engine.keyper.checks import colour_count, first_offered
from engine.keyper.components import DATA_DIR, ComponentError, Components, Display, default
from engine.keyper.loader import FILES, load_pack

ROOT = Path(__file__).resolve().parents[2]
PROVENANCE = re.compile(r"^(rulebook p\.\d+|reference|reconstructed)")


@pytest.fixture(scope="module")
def pack() -> Components:
    return load_pack(DATA_DIR)


def broken(tmp_path: Path, file: str, old: str, new: str) -> list[str]:
    """Copy the bundled pack, make one edit, and return the problems the loader reports."""
    folder = tmp_path / "pack"
    shutil.copytree(DATA_DIR, folder)
    target = folder / file
    text = target.read_text(encoding="utf-8")
    assert old in text, f"test edit does not apply: {old!r} not in {file}"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ComponentError) as info:
        load_pack(folder)
    return info.value.problems


def kinds_of(d: Display) -> set[str]:
    return {f.kind for f in d.fields}


# --- The bundled pack --------------------------------------------------------------------------------


def test_bundled_pack_loads(pack: Components) -> None:
    assert len(pack.field_kinds) == 27
    assert len(pack.displays) == 12
    assert len(pack.tiles) == 60
    assert len(pack.fairs) == 26
    assert len(pack.boats) == 6
    assert default() is default()


def test_displays_by_season_holds_four_numbered_displays_each(pack: Components) -> None:
    assert set(pack.displays_by_season) == set(vocab.SEASONS)
    for season, shown in pack.displays_by_season.items():
        assert [d.number for d in shown] == [1, 2, 3, 4]
        assert all(season in d.seasons for d in shown)


def test_display_lookup_and_field_ids_are_kind_names(pack: Components) -> None:
    d = pack.display("spring-1")
    assert d.field("keyp").cells == ((0, 0),)
    assert d.field("river").cells == ((0, 1), (0, 2))
    assert all(f.id == f.kind for x in pack.displays for f in x.fields)
    with pytest.raises(KeyError):
        pack.display("spring-9")


def raw_entries() -> Iterator[tuple[str, str, object]]:
    """(file, entry name, entry table) for every entry of every data file."""
    for name in FILES:
        doc = tomllib.loads((DATA_DIR / f"{name}.toml").read_text(encoding="utf-8"))
        if name == "keyp_tile":
            yield name, "keyp_tile", doc
            continue
        for key, table in doc.items():
            yield name, key, table


@pytest.mark.parametrize("file,key,table", list(raw_entries()), ids=lambda v: v if isinstance(v, str) else "")
def test_every_entry_has_a_provenance(file: str, key: str, table: object) -> None:
    assert isinstance(table, dict)
    assert PROVENANCE.match(table.get("provenance", "")), f"{file}.toml [{key}]"


def test_record_provenances_start_with_one_of_three_words(pack: Components) -> None:
    records = [*pack.field_kinds.values(), *pack.displays, *pack.tiles.values(), *pack.fairs.values(),
               *pack.boats.values(), pack.keyp_tile, pack.player_board]
    assert all(PROVENANCE.match(r.provenance) for r in records)


# --- Every validator rule fails a broken copy ---------------------------------------------------------

PIG = 'colour = "green"\nresource = "pig"'
BUILD = '[build]\ncategory = "build"\ncolour = "orange"'
AW1_TOP = '["emerald", "gold", "ruby", "sapphire"],'
AW3_BOTTOM = '["country_tile", "gold", "emerald", "trade_raw"],'
S1_ROWS = '["keyp", "river", "river", "country_tile"],\n  ["clay", "build", "trade_raw", "wheat"],'

BREAKS = [
    # field kinds
    ("fields.toml", PIG,
     'colour = "brown"\nresource = "pig"', "[pig]: the rulebook gives this field the colour 'green'"),
    ("fields.toml", BUILD, '[build]\ncategory = "build"\ncolour = "grey"', "[build]: the rulebook gives"),
    (
        "fields.toml",
        '[country_tile]\ncategory = "country_tile"',
        '[country_tile]\ncategory = "country_tile"\ncolour = "blue"',
        "[country_tile]: the rulebook gives this field the colour None",
    ),
    ("fields.toml", '[discount_build]\ncategory = "discount_build"',
     '[discount_build]\ncategory = "discount_build"\ncolour = "orange"', "no colour bonus"),
    ("fields.toml", '[trade_raw]\ncategory = "trade"\ncolour = "blue"',
     '[trade_raw]\ncategory = "trade"', "[trade_raw]: this kind of field has a colour bonus"),
    ("fields.toml", 'colour = "orange"\nresource = "clay"',
     'colour = "white"\nresource = "clay"', "[clay]: colour 'white' is not one of"),
    ("fields.toml", '[convert_clay]\ncategory = "convert"\ncolour = "orange"\nresource = "clay"',
     '[convert_clay]\ncategory = "convert"\ncolour = "orange"\nresource = "log"', "resource must be 'clay'"),
    ("fields.toml", '[rock]\ncategory = "resource"',
     '[rock]\ncategory = "trade"', "[rock]: category must be"),
    ("fields.toml", "[boar]", "[wild_boar]", "fields.toml: missing 'boar'"),
    ("fields.toml", "[boar]", "[wild_boar]", "fields.toml: unexpected 'wild_boar'"),
    ("fields.toml", "[wheat]\ncategory", "[wheat]\ncolor = 1\ncategory", "[wheat]: unknown key 'color'"),
    ("fields.toml", 'provenance = "rulebook p.13: note 4',
     'provenance = "guess: note 4', "[build]: provenance 'guess: note 4"),
    ("fields.toml", "[keyp]\ncategory", "[keyp\ncategory", "fields.toml: not valid TOML"),
    ("fields.toml", '[keyp]\ncategory = "keyp"',
     "[keyp]\ncategory = 3", "[keyp]: 'category' must be a string, not 3"),
    # displays: shape
    (
        "displays.toml",
        S1_ROWS,
        '["keyp", "river", "river"],\n  ["clay", "build", "trade_raw", "wheat"],',
        "[spring-1]: grid row 1 has 3 cells",
    ),
    (
        "displays.toml",
        S1_ROWS,
        '["keyp", "river", "river", "country_tile"],\n  ["clay", "build", "clay", "wheat"],',
        "[spring-1]: 'clay' covers 2 cells",
    ),
    (
        "displays.toml",
        S1_ROWS,
        '["keyp", "river", "river", "country_tile"],\n  ["clay", "build", "trade_raw", "mud"],',
        "[spring-1]: unknown field kind 'mud'",
    ),
    (
        "displays.toml",
        S1_ROWS,
        '["country_tile", "river", "river", "clay"],\n  ["keyp", "build", "trade_raw", "wheat"],',
        "[spring-1]: the keyp field does not touch the river",
    ),
    (
        "displays.toml",
        S1_ROWS,
        '["keyp", "river", "build", "country_tile"],\n  ["clay", "trade_raw", "river", "wheat"],',
        "[spring-1]: the two river cells are not side by side",
    ),
    (
        "displays.toml",
        S1_ROWS,
        '["keyp", "wheat", "river", "country_tile"],\n  ["clay", "build", "trade_raw", "log"],',
        "[spring-1]: 'river' covers 1 cell",
    ),
    (
        "displays.toml",
        S1_ROWS,
        '["river", "river", "clay", "country_tile"],\n  ["clay", "build", "trade_raw", "wheat"],',
        "[spring-1]: has no keyp field",
    ),
    ("displays.toml", 'seasons = ["summer"]\nnumber = 2',
     'seasons = ["summer"]\nnumber = 5', "number 5 is not 1..4"),
    ("displays.toml", 'seasons = ["summer"]\nnumber = 2',
     'seasons = ["summer"]\nnumber = 1', "summer must have displays numbered 1..4 once each"),
    ("displays.toml", 'seasons = ["summer"]\nnumber = 2',
     'seasons = ["summr"]\nnumber = 2', "unknown season 'summr'"),
    ("displays.toml", '[spring-2]\nseasons = ["spring"]', '[spring-two]\nseasons = ["spring"]', "id must be"),
    # displays: winter colour maxima (exceeded and never reached)
    (
        "displays.toml",
        AW3_BOTTOM,
        '["horse", "gold", "emerald", "trade_raw"],',
        "best winter display has 4 green-bordered fields; the farmer's cottage 3/9 maximum needs exactly 3",
    ),
    ("displays.toml", AW1_TOP, '["emerald", "gold", "ruby", "horse"],', "has 3 black-bordered fields"),
    (
        "displays.toml",
        AW3_BOTTOM,
        '["country_tile", "gold", "emerald", "convert_clay"],',
        "has 3 orange-bordered fields; the kiln 4/8 maximum needs exactly 2",
    ),
    ("displays.toml", AW3_BOTTOM,
     '["country_tile", "gold", "emerald", "convert_log"],', "4 brown-bordered fields; the log cabin"),
    (
        "displays.toml",
        '["rock", "convert_rock", "keyp", "ruby"],',
        '["rock", "trade_raw", "keyp", "ruby"],',
        "has 2 grey-bordered fields; the open pit 3/9 maximum needs exactly 3",
    ),
    ("displays.toml", '["clay", "convert_clay", "wheat", "chicken"],',
     '["clay", "trade_raw", "wheat", "chicken"],', "field kind 'convert_clay' appears in no display"),
    # displays: counted season absences
    (
        "displays.toml",
        '["country_tile", "build", "upgrade", "trade_raw"],',
        '["country_tile", "build", "upgrade", "convert_rock"],',
        "convert fields must be available in exactly 2 seasons",
    ),
    ("displays.toml", '["country_tile", "build", "upgrade", "trade_raw"],',
     '["country_tile", "build", "upgrade", "ruby"],', "gem fields must be available in exactly 2 seasons"),
    (
        "displays.toml",
        '["country_tile", "build", "upgrade", "trade_raw"],',
        '["country_tile", "build", "upgrade", "chicken"],',
        "chicken fields must be available in exactly 3 seasons",
    ),
    # tiles
    ("tiles.toml", 'name = "Goat pen"\norigin = "country"\narea = "farm"',
     'name = "Goat pen"\norigin = "country"\narea = "village"', "[goat_pen]: area must be 'farm'"),
    ("tiles.toml", 'name = "Thatcher"\norigin = "country"\narea = "village"',
     'name = "Thatcher"\norigin = "country"\narea = "farm"', "[thatcher]: area must be 'village'"),
    ("tiles.toml", 'houses = ["cow"]', 'houses = ["cow", "pig"]', "[cow_shed]: houses must be ['cow']"),
    ("tiles.toml", 'name = "Barn"\norigin = "country"\narea = "farm"\nspring = true',
     'name = "Barn"\norigin = "country"\narea = "farm"\nspring = false', "20 spring country tiles"),
    ("tiles.toml", 'name = "Windmill"\norigin = "country"\narea = "farm"',
     'name = "Windmill"\norigin = "country"\narea = "village"', "11 farm country tiles"),
    (
        "tiles.toml",
        'name = "Stable"\norigin = "home"\narea = "farm"\nspring = false',
        'name = "Stable"\norigin = "home"\narea = "farm"\nspring = true',
        "[stable]: home tiles never go into the bag",
    ),
    ("tiles.toml", "cost = { wood = 2 }", "cost = {}", "[dock]: cost must not be empty"),
    ("tiles.toml", "cost = { wood = 2 }",
     "cost = { diamond = 2 }", "[dock]: cost key 'diamond' is not a resource"),
    ("tiles.toml", "cost = { wood = 2 }", "cost = { wood = 0 }", "[dock]: cost of 'wood' must be at least 1"),
    ("tiles.toml", 'name = "Hunter\'s lodge"',
     'name = "Hunters cabin"', "[hunters_lodge]: name 'Hunters cabin'"),
    ("tiles.toml", "[timberyard]", "[timber_yard]", "tiles.toml: missing 'timberyard'"),
    ("tiles.toml", 'name = "Cow shed"\norigin = "home"',
     'name = "Cow shed"\norigin = "country"', "[cow_shed]: origin must be 'home'"),
    ("tiles.toml", "activated = false\ncost = { wood = 2 }",
     "activated = 0\ncost = { wood = 2 }", "[dock]: 'activated' must be true or false"),
    # fairs
    ("fairs.toml", "requires = { sheep = 1, rock = 1 }",
     "requires = { sheep = 1, clay = 1 }", "no spring fair asks for 1 sheep and 1 rock for 2 points"),
    (
        "fairs.toml",
        "requires = { pig = 1, clay = 1 }",
        "requires = { pig = 1, emerald = 1 }",
        "[spring-2]: side 1: asks for emerald, which no field offers by spring",
    ),
    ("fairs.toml", "requires = { pig = 1, clay = 1 }",
     "requires = { pig = 1, any_raw = 1 }", "[spring-2]: side 1: 'any_raw' is not a specific resource name"),
    ("fairs.toml", "requires = { pig = 1, clay = 1 }", "requires = { pig = 0, clay = 1 }", "count of 'pig'"),
    ("fairs.toml", 'sides = [{ seasons = ["summer"], requires = { goat = 1',
     'sides = [{ seasons = ["autumn"], requires = { goat = 1', "[summer-1]: a summer fair has one side"),
    ("fairs.toml", "requires = { cow = 2, wheat = 1, brick = 1 }, points = 4",
     "requires = { cow = 2, wheat = 1, brick = 1 }, points = 5", "[winter-1]: a winter fair has side 1"),
    ("fairs.toml", "requires = { emerald = 1, gold = 1, cow = 1, wheat = 1 }",
     "requires = { cow = 2, wheat = 2 }", "[winter-1]: the autumn/winter side must ask for gems"),
    ("fairs.toml", '[autumn-6]\nkind = "autumn"', '[autumn-6]\nkind = "spring"', "[autumn-6]: kind 'spring'"),
    ("fairs.toml", "[winter-8]", "[winter-9]", "fairs.toml: missing 'winter-8'"),
    # boats
    ("boats.toml", 'resources = ["clay", "sheep"]',
     'resources = ["clay", "clay"]', "[boat-1] side 1: the two resource types must differ"),
    ("boats.toml", 'resources = ["clay", "sheep"]',
     'resources = ["clay"]', "must name exactly 2 resource types"),
    ("boats.toml", 'resources = ["clay", "sheep"]',
     'resources = ["clay", "fish"]', "unknown resource 'fish'"),
    (
        "boats.toml",
        '{ seasons = ["spring", "summer"], resources = ["log", "pig"] }',
        '{ seasons = ["spring", "autumn"], resources = ["log", "pig"] }',
        "[boat-2]: its sides must show each season",
    ),
    ("boats.toml", "[boat-6]", "[boat-7]", "boats.toml: unexpected 'boat-7'"),
    # keyp tile
    ("keyp_tile.toml", 'white = ["clay"', 'pink = ["clay"', "keyp_tile.toml [gains]: missing 'white'"),
    ("keyp_tile.toml", 'orange = ["clay", "log", "rock"]', "orange = []", "orange gains nothing"),
    ("keyp_tile.toml", 'orange = ["clay", "log", "rock"]',
     'orange = ["clay", "coal"]', "unknown resource 'coal'"),
    # game
    ("game.toml", "wheat = 20, ", "", "game.toml [supply]: missing 'wheat'"),
    ("game.toml", "white = 2 }", "white = 3 }", "a team has 8 keyples, not 9"),
    ("game.toml", "grey = 4, white = 8",
     "grey = 4, white = 7", "setup needs 8 white keyples, the game has 7"),
    ("game.toml", "grey = 4, white = 8", "grey = 2, white = 8", "setup needs 4 grey keyples, the game has 2"),
    ("game.toml", 'colours = ["brown", "green", "grey", "orange"]',
     'colours = ["brown", "brown"]', "needs at least 2 different colours"),
    ("game.toml", "counts = { brick = 1,", "counts = { brick = 5,", "4 players start with 20 brick"),
    ("game.toml", "village_rows = 3\nvillage_cols = 4",
     "village_rows = 2\nvillage_cols = 6", "a 2x6 village gives pavements max 7"),
    ("game.toml", "farm_rows = 2", "farm_rows = 3", "the farm has 8 plots, not 3x4"),
    ("game.toml", "[starting_goods]", "[starting_stuff]", "game.toml: missing [starting_goods]"),
]


@pytest.mark.parametrize("file,old,new,message", BREAKS, ids=[f"{b[0]}:{b[3][:40]}" for b in BREAKS])
def test_a_broken_pack_names_the_problem(tmp_path: Path, file: str, old: str, new: str, message: str) -> None:
    problems = broken(tmp_path, file, old, new)
    assert any(message in p for p in problems), "\n".join(problems)


def test_every_problem_is_listed_not_just_the_first(tmp_path: Path) -> None:
    folder = tmp_path / "pack"
    shutil.copytree(DATA_DIR, folder)
    for file, old, new in (("tiles.toml", "cost = { wood = 2 }", "cost = {}"),
                           ("boats.toml", '["clay", "sheep"]', '["clay", "clay"]'),
                           ("game.toml", "farm_rows = 2", "farm_rows = 3")):
        target = folder / file
        target.write_text(target.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    with pytest.raises(ComponentError) as info:
        load_pack(folder)
    text = str(info.value)
    assert "[dock]: cost must not be empty" in text
    assert "[boat-1] side 1" in text
    assert "the farm has 8 plots" in text


def test_a_malformed_entry_is_reported_once(tmp_path: Path) -> None:
    problems = broken(tmp_path, "tiles.toml", "activated = false\ncost = { wood = 2 }",
                      'activated = "no"\ncost = { wood = 2 }')
    assert problems == ["tiles.toml [dock]: 'activated' must be true or false, not 'no'"]


def test_a_missing_file_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "pack"
    shutil.copytree(DATA_DIR, folder)
    (folder / "boats.toml").unlink()
    (folder / "fairs.toml").unlink()
    with pytest.raises(ComponentError) as info:
        load_pack(folder)
    assert [p for p in info.value.problems if "missing from" in p] == [
        f"fairs.toml: missing from {folder}", f"boats.toml: missing from {folder}"]


# --- The command-line validator ----------------------------------------------------------------------


def run_validator(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine.keyper.validate", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_validator_accepts_the_bundled_pack() -> None:
    result = run_validator()
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ok: 27 field kinds, 12 displays (16 season slots), 60 tiles")


def test_validator_rejects_a_broken_copy_with_a_clear_message(tmp_path: Path) -> None:
    folder = tmp_path / "pack"
    shutil.copytree(DATA_DIR, folder)
    fields = folder / "fields.toml"
    fields.write_text(fields.read_text(encoding="utf-8").replace(PIG, 'colour = "black"\nresource = "pig"'),
                      encoding="utf-8")
    result = run_validator(str(folder))
    assert result.returncode == 1
    assert "fields.toml [pig]: the rulebook gives this field the colour 'green', not 'black'" in result.stdout
    assert "problem" in result.stderr


def test_validator_reports_a_missing_folder(tmp_path: Path) -> None:
    result = run_validator(str(tmp_path / "nowhere"))
    assert result.returncode == 1
    assert "not a folder" in result.stdout


# --- The reconstruction's choices (documented in docs/components.md) ---------------------------------

COLOURS = {
    "clay": "orange", "log": "brown", "rock": "grey", "wheat": "green", "chicken": "green", "cow": "green",
    "goat": "green", "horse": "green", "pig": "green", "sheep": "green", "deer": "brown", "boar": "brown",
    "emerald": "black", "gold": "black", "ruby": "black", "sapphire": "black", "country_tile": None,
    "convert_clay": "orange", "convert_log": "brown", "convert_rock": "grey", "trade_raw": "blue",
    "trade_finished": "blue", "build": "orange", "discount_build": None, "upgrade": "grey", "river": "blue",
    "keyp": None,
}


def test_field_colours(pack: Components) -> None:
    assert {k: f.colour for k, f in pack.field_kinds.items()} == COLOURS


def test_autumn_and_winter_share_their_four_displays(pack: Components) -> None:
    by = pack.displays_by_season
    assert by["autumn"] == by["winter"]
    assert [d.id for d in by["winter"]] == [f"autumn-winter-{n}" for n in range(1, 5)]
    assert all(d.seasons == (s,) for s in ("spring", "summer") for d in by[s])


def seasons_offering(pack: Components, kinds: set[str]) -> set[str]:
    return {s for d in pack.displays for s in d.seasons if kinds & kinds_of(d)}


def test_season_availability(pack: Components) -> None:
    assert seasons_offering(pack, {"convert_clay", "convert_log", "convert_rock"}) == {"autumn", "winter"}
    assert seasons_offering(pack, set(vocab.GEMS)) == {"autumn", "winter"}
    assert seasons_offering(pack, {"chicken"}) == {"spring", "autumn", "winter"}


def test_chickens_and_goats_in_spring_only_on_the_three_and_four_player_boards(pack: Components) -> None:
    spring = pack.displays_by_season["spring"]
    for animal in ("chicken", "goat"):
        assert [d.number for d in spring if animal in kinds_of(d)] == [3, 4]


def test_every_display_is_playable(pack: Components) -> None:
    for d in pack.displays:
        k = kinds_of(d)
        assert "country_tile" in k and k & {"build", "discount_build"}, d.id
        assert "wheat" in k and k & set(vocab.RAW) and k & set(vocab.ANIMALS), d.id
    for d in pack.displays_by_season["spring"]:
        assert len(kinds_of(d) & set(vocab.RAW)) >= 2, d.id


WINTER_COUNTS = {  # display number -> (green, orange, brown, black, grey)
    1: (2, 1, 1, 4, 2),
    2: (2, 2, 2, 1, 3),
    3: (3, 2, 3, 2, 1),
    4: (3, 2, 2, 2, 2),
}


def test_winter_colour_counts_per_display(pack: Components) -> None:
    colours = ("green", "orange", "brown", "black", "grey")
    got = {d.number: tuple(colour_count(d, pack.field_kinds, c) for c in colours)
           for d in pack.displays_by_season["winter"]}
    assert got == WINTER_COUNTS
    assert tuple(max(col) for col in zip(*got.values(), strict=True)) == (3, 2, 3, 4, 3)


SPRING_TILES = {
    "alchemist", "barn", "boarding_house", "builder", "building_plot", "cluck_cluck_chicken_house", "dock",
    "farm_labourer", "gem_dealer", "goat_pen", "hop_field", "jewel_cutter", "livestock_market", "oast_house",
    "seafarer", "shipping_agent", "statue", "thatcher", "trading_post", "village_hall", "windmill",
}
ACTIVATED = {
    "brickmaker", "carpenter", "stonemason", "scrapyard",
    "alchemist", "builder", "farm_labourer", "gem_dealer", "hop_field", "jewel_cutter", "livestock_market",
    "copse", "trading_post", "windmill", "key_market",
}
FARM_COUNTRY = {
    "barn", "cluck_cluck_chicken_house", "goat_pen", "hop_field", "livestock_market", "copse",
    "game_wardens_cottage", "hunters_lodge", "oast_house", "windmill", "farm_labourer", "farmers_cottage",
}
GEM_SETS = {"bracelet_maker", "emporium", "gem_merchant", "goldsmith", "jeweller", "ring_maker"}


def test_tile_names_follow_the_rulebook(pack: Components) -> None:
    names = {t.name for t in pack.tiles.values()}
    assert {"Cluck cluck chicken house", "Farmer's cottage", "Game warden's cottage", "Hunter's lodge",
            "Pig sty", "Key market", "Scrap dealer", "Scrapyard"} <= names
    assert pack.tiles["farmers_cottage"].name == "Farmer's cottage"


def test_tile_choices(pack: Components) -> None:
    country = {i: t for i, t in pack.tiles.items() if t.origin == "country"}
    assert {i for i, t in country.items() if t.spring} == SPRING_TILES
    assert {i for i, t in pack.tiles.items() if t.activated} == ACTIVATED
    assert not pack.tiles["cluck_cluck_chicken_house"].activated
    assert {i for i, t in country.items() if t.area == "farm"} == FARM_COUNTRY
    assert pack.tiles["hop_field"].houses == vocab.ANIMALS


def items(cost: dict[str, int]) -> int:
    return sum(cost.values())


def test_costs_follow_the_design(pack: Components) -> None:
    for t in pack.tiles.values():
        n = items(t.cost)
        if t.origin == "home" or t.spring:
            assert 1 <= n <= 2, t.id
        else:
            assert 2 <= n <= 4, t.id
        if t.area == "farm":
            assert set(t.cost) <= {*vocab.RAW, "wheat", "any_raw"}, t.id
        else:
            assert set(t.cost) & {*vocab.FINISHED, "any_finished"}, t.id
    for tile_id in GEM_SETS:
        cost = pack.tiles[tile_id].cost
        assert items(cost) >= 3 and set(cost) & {*vocab.GEMS, "any_gem"}, tile_id


def test_fair_choices(pack: Components) -> None:
    assert pack.fairs["spring-1"].sides[0].requires == {"sheep": 1, "rock": 1}
    assert pack.fairs["spring-1"].sides[0].points == 2
    first = first_offered(pack)
    for f in pack.fairs.values():
        if f.kind != "winter":
            side = f.sides[0]
            assert 2 <= items(side.requires) <= 4 and side.points == items(side.requires), f.id
            earliest = vocab.SEASONS.index(f.kind)
        else:
            early, late = f.sides
            assert not set(early.requires) & set(vocab.GEMS), f.id
            assert sum(n for r, n in late.requires.items() if r in vocab.GEMS) == 2, f.id
            earliest = vocab.SEASONS.index("summer")
        assert all(first[r] <= earliest for r in f.sides[0].requires), f.id
    spring_needs = {r for f in pack.fairs.values() if f.kind == "spring" for r in f.sides[0].requires}
    assert not spring_needs & {"chicken", "goat"}


def test_boat_choices(pack: Components) -> None:
    for b in pack.boats.values():
        assert [s.seasons for s in b.sides] == [("spring", "summer"), ("autumn", "winter")]
        assert not set(b.sides[0].resources) & {*vocab.GEMS, "chicken"}, b.id
        assert b.side_for("winter") is b.sides[1]


def test_keyp_tile_gains(pack: Components) -> None:
    gains = pack.keyp_tile.gains
    for colour in ("orange", "brown", "grey"):
        assert gains[colour] == vocab.RAW
    for colour in ("green", "black", "blue"):
        assert gains[colour] == vocab.GEMS
    assert gains["white"] == vocab.RAW + vocab.GEMS


def test_game_numbers(pack: Components) -> None:
    assert pack.supply == {**{r: 16 for r in vocab.RAW + vocab.FINISHED + vocab.GEMS}, "wheat": 20,
                           **{a: 12 for a in vocab.ANIMALS}}
    assert pack.keyples == {**{c: 4 for c in vocab.FIELD_COLOURS}, "white": 8}
    assert pack.starting_keyples == {**{c: 1 for c in vocab.FIELD_COLOURS}, "white": 2}
    assert sorted(pack.two_player_pool) == ["brown", "green", "grey", "orange"]
    assert pack.starting_goods == {"brick": 1, "stone": 1, "wood": 1}
    b = pack.player_board
    assert (b.farm_rows, b.farm_cols, b.village_rows, b.village_cols) == (2, 4, 3, 4)
