"""Keyper's chat texts: the public table lists every board's fields, the hand shows what one's fairs and tiles
need, and `rules NAME` describes a component; every reconstructed value is marked where players read it."""

from __future__ import annotations

import copy
import dataclasses
import random
from collections import Counter
from typing import Any

import pytest

from bot import rules
from engine.core import clone
from engine.keyper import GAME, scoring
from engine.keyper.components import default
from engine.keyper.fairs import covers, shortfall
from engine.keyper.lookup import (
    DAGGER,
    DISCORD_SAFE,
    colour_sources,
    describe,
    field_label,
    items,
    names,
    side_text,
    tile_text,
)
from engine.keyper.state import Keyple, State
from engine.keyper.texts import RECONSTRUCTED_NOTE, _table_note, hand, table
from engine.keyper.vocab import RESOURCES
from engine.playout import random_playout

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def setup(players: int = 4, seed: int = 4) -> State:
    """A fresh table."""
    return GAME.setup(NAMES[:players], seed)


def own_view(state: State, seat: int, **changes: Any) -> dict[str, Any]:
    """The seat's own view, with the seat's player fields changed (texts are pure functions of the view)."""
    view = copy.deepcopy(GAME.view(state, seat))
    view["players"][seat].update(changes)
    return view


def fair_line(text: str, label: str) -> str:
    """The hand's line about one fair (side)."""
    found = [ln for ln in text.splitlines() if ln.startswith(f"- {label}")]
    assert len(found) == 1, text
    return found[0]


# --- The component lookup ----------------------------------------------------------------------------------


def test_a_tile_is_found_by_id_or_printed_name_in_any_case() -> None:
    text = describe("alchemist")
    assert text is not None
    for spelling in ("Alchemist", "  ALCHEMIST ", "alchemist"):
        assert describe(spelling) == text
    assert describe("Farmer's cottage") == describe("farmers_cottage") == describe("farmers cottage") is not None
    assert describe("Game warden’s cottage") == describe("game-wardens-cottage") is not None


def test_a_tile_shows_its_costs_both_sides_and_what_is_reconstructed() -> None:
    tile = default().tiles["alchemist"]
    text = describe("Alchemist")
    assert text is not None
    assert f"Build cost: {items(tile.cost, ' + ')}{DAGGER}." in text
    assert "Upgrade: 1 finished good or wheat" in text
    plain, upgraded = scoring.FLAT["alchemist"]
    assert f"Plain side: Turns 2 raw materials (any mix) into 1 gem of any kind. {plain} points" in text
    assert f"Upgraded side: Turns 1 raw material into 1 gem of any kind. {upgraded} points" in text
    assert f"{DAGGER} Reconstructed for Keywood's data pack: build cost not public" in text
    assert "A keyple must stand on it" in text and "country tile (spring), village" in text


def test_a_farm_tile_upgrade_costs_a_raw_material_or_wheat() -> None:
    text = describe("cow shed")
    assert text is not None and "Upgrade: 1 raw material or wheat" in text and "Houses up to 4 cows." in text


def sides(tile_id: str) -> tuple[str, str]:
    """The plain and upgraded side lines of a tile's description."""
    lines = tile_text(default().tiles[tile_id]).splitlines()
    plain = next(ln for ln in lines if ln.startswith("Plain side: "))
    upgraded = next(ln for ln in lines if ln.startswith("Upgraded side: "))
    return plain, upgraded


def points(n: int) -> str:
    """'1 point', '3 points'."""
    return f"{n} point{'' if n == 1 else 's'}"


def test_tile_points_in_the_text_are_the_engines() -> None:
    for tile_id, (animal, plain, upgraded) in scoring.ONE_ANIMAL.items():
        lines = sides(tile_id)
        assert f"{points(plain)} per {animal} here" in lines[0] and f"{points(upgraded)} per {animal} here" in lines[1]
    for tile_id, (plain, upgraded) in scoring.FLAT.items():
        lines = sides(tile_id)
        assert (f"{points(plain)} at the end." if plain else "No points.") in lines[0], tile_id
        assert f"{points(upgraded)} at the end." in lines[1], tile_id
    for tile_id, (pair, triple) in scoring.GEM_SETS.items():
        lines = sides(tile_id)
        assert f"4 points per {'+'.join(pair)} set" in lines[0] and f"6 points per {'+'.join(triple)} set" in lines[1]
    for tile_id, (colour, plain, upgraded) in scoring.BOARD_TILES.items():
        lines = sides(tile_id)
        assert f"{points(plain)} per {colour}-bordered field" in lines[0]
        assert f"{points(upgraded)} per {colour}-bordered field" in lines[1]
    for tile_id, colour in scoring.KEYPLE_TILES.items():
        lines = sides(tile_id)
        assert f"1 point per {colour} keyple" in lines[0] and f"2 points per {colour} keyple" in lines[1]


def test_every_tile_says_something_about_both_sides() -> None:
    for tile in default().tiles.values():
        lines = tile_text(tile).splitlines()
        plain = next(ln for ln in lines if ln.startswith("Plain side: "))
        upgraded = next(ln for ln in lines if ln.startswith("Upgraded side: "))
        assert len(plain) > len("Plain side: ") + 5 and len(upgraded) > len("Upgraded side: ") + 5, tile.id
        assert plain != upgraded.replace("Upgraded side:", "Plain side:") or tile.id == "merchant", tile.id


def test_a_value_from_the_rulebook_carries_no_dagger() -> None:
    tile = dataclasses.replace(default().tiles["barn"], provenance="rulebook p.16: printed on the tile")
    text = tile_text(tile)
    assert DAGGER not in text and "Source: rulebook p.16: printed on the tile." in text
    example = describe("spring-1")  # the rulebook's own example fair (p.8)
    assert example is not None and DAGGER not in example and "Source: rulebook p.8" in example
    assert "sheep, rock → 2 pts" in example


def test_fairs_boats_and_displays_are_described() -> None:
    comps = default()
    summer = describe("summer-3")
    assert summer is not None
    assert f"**Fair summer-3**{DAGGER}" in summer and side_text(comps.fairs["summer-3"].sides[0]) in summer
    assert "`display summer-3`" in summer  # the board display of the same name is pointed to
    winter = describe("Winter-2")
    assert winter is not None
    for number, side in enumerate(comps.fairs["winter-2"].sides, start=1):
        assert f"Side {number}: held at the {side_text(side)}." in winter
    boat = describe("boat 4")
    assert boat is not None and boat == describe("BOAT-4")
    for boat_side in comps.boats["boat-4"].sides:
        assert ", ".join(boat_side.resources) in boat
    display = describe("display spring-1")
    assert display is not None and "Row 1: keyp | river | river | country tile" in display
    assert colour_sources(comps) in display.lower() or "Field colours" in display


@pytest.mark.parametrize("name", ["fairs", "boats", "Building tiles", "", "K-25", "boat-9", "spring-7", "cow"])
def test_what_is_no_component_gives_none(name: str) -> None:
    assert describe(name) is None


def test_no_rules_topic_is_taken_by_the_lookup() -> None:
    """`rules NAME` asks the lookup first: a section title must fall through to the rules summary."""
    for topic in rules.topics("keyper"):
        assert describe(topic) is None, topic


def test_every_name_is_described_within_discords_limit() -> None:
    known = names()
    comps = default()
    assert len(known) == len(set(known)) == len(comps.tiles) + len(comps.fairs) + len(comps.boats) + len(
        comps.displays)
    assert "Alchemist" in known and "summer-3" in known and "boat-4" in known and "display spring-1" in known
    for name in known:
        text = describe(name)
        assert text is not None and len(text) <= DISCORD_SAFE, name


# --- The hand ------------------------------------------------------------------------------------------------


def test_the_hand_lists_each_fair_with_its_needs_and_points() -> None:
    state = setup()
    ben = state.players[1]
    text = hand(GAME.view(state, 1), 1)
    assert text.startswith(f"Ben, your fair tiles: {', '.join(ben.hidden_fairs)}; winter fairs: none.")
    for fair_id in ben.hidden_fairs:
        side = default().fairs[fair_id].sides[0]
        assert f"{fair_id}{DAGGER}, {side_text(side)}." in fair_line(text, fair_id)
    assert text.endswith(RECONSTRUCTED_NOTE)


def test_the_hand_says_which_fair_is_ready_and_what_the_others_lack() -> None:
    state = setup()
    # spring-2 needs a pig and clay; summer-3 a horse, a pig and stone
    lacking = hand(own_view(state, 0, hidden_fairs=["spring-2", "summer-3"], goods={"pig": 1}), 0)
    assert fair_line(lacking, "spring-2").endswith("Missing clay.")
    assert fair_line(lacking, "summer-3").endswith("Not yet; missing horse, stone.")
    brick = hand(own_view(state, 0, hidden_fairs=["spring-2"], goods={"pig": 1, "brick": 1}), 0)
    assert fair_line(brick, "spring-2").endswith("Ready: you have everything it needs.")  # a brick stands in
    view = own_view(state, 0, hidden_fairs=["spring-2"], goods={"pig": 1, "clay": 1})
    view["phase"] = "fairs"
    assert fair_line(hand(view, 0), "spring-2").endswith("Can be held now.")


def test_items_already_shown_at_a_fair_this_season_are_not_counted_twice() -> None:
    state = setup()
    held = {"spring": [{"fair": "spring-1", "points": 2}]}  # spring-1 shows a sheep and a rock
    goods = {"pig": 1, "clay": 1, "sheep": 1}
    text = hand(own_view(state, 0, hidden_fairs=["spring-2"], goods=goods, fairground=held), 0)
    assert fair_line(text, "spring-2").startswith("- spring-2")
    assert "Missing rock (counting what your fairs this season already show)." in text
    free = hand(own_view(state, 0, hidden_fairs=["spring-2"], goods=goods, fairground={}), 0)
    assert fair_line(free, "spring-2").endswith("Ready: you have everything it needs.")


def test_winter_fairs_show_both_sides_and_a_past_side_is_too_late() -> None:
    state = setup()
    view = own_view(state, 0, hidden_fairs=[], winter_fairs=["winter-1"], goods={})
    view["season_name"] = "winter"
    text = hand(view, 0)
    first, second = default().fairs["winter-1"].sides
    assert fair_line(text, "winter-1† side 1") == f"- winter-1{DAGGER} side 1, {side_text(first)}. Too late: " \
        "its seasons are past."
    assert fair_line(text, "winter-1† side 2").endswith("Missing emerald, gold, cow, wheat.")
    assert side_text(second) in text


def test_the_hand_lists_unbuilt_tiles_with_their_costs() -> None:
    state = setup()
    text = hand(GAME.view(state, 0), 0)
    line = next(ln for ln in text.splitlines() if ln.startswith("Your unbuilt tiles"))
    assert line.startswith(f"Your unbuilt tiles, with build costs{DAGGER}: ")
    for tile_id in state.players[0].tiles:
        tile = default().tiles[tile_id]
        assert f"{tile.name} ({items(tile.cost, ' + ')})" in line


def test_shortfall_is_empty_exactly_when_the_fair_logic_says_covered() -> None:
    """What the hand says a fair lacks (fairs.shortfall) is empty exactly when covers() holds, and is enough."""
    rng = random.Random(7)
    pool = RESOURCES[:9]  # raw materials, finished goods and wheat: where stand-ins matter
    for _ in range(2000):
        goods = {r: rng.randint(0, 2) for r in pool}
        need = Counter({r: rng.randint(0, 2) for r in rng.sample(pool, 3)})
        lack = shortfall(goods, need)
        assert (not lack) == covers(goods, need), (goods, need, lack)
        with_lack = {r: goods.get(r, 0) + lack.get(r, 0) for r in set(goods) | set(lack)}
        assert covers(with_lack, need), (goods, need, lack)


def test_the_hand_stays_well_inside_a_discord_message() -> None:
    longest = 0

    def hook(state: State, seat: int, action: object) -> None:
        nonlocal longest
        for s in range(len(state.players)):
            longest = max(longest, len(hand(GAME.view(state, s), s)))

    random_playout(GAME, NAMES, 3, on_step=hook)
    assert 0 < longest < 1700


# --- The public table ----------------------------------------------------------------------------------------


def board_groups(line: str) -> dict[str, list[str]]:
    """'Board 1 (...): orange: clay, build; green: wheat' as {'orange': ['clay', 'build'], ...}."""
    body = line.split("): ", 1)[1]
    groups = {}
    for part in body.split("; "):
        colour, _, fields = part.partition(": ")
        groups[colour] = fields.split(", ")
    return groups


def test_each_board_line_lists_its_fields_by_colour() -> None:
    state = setup()
    text = table(GAME.view(state, None))
    comps = default()
    for board in state.boards:
        line = next(ln for ln in text.splitlines() if ln.startswith(f"Board {board.number} ("))
        assert line.startswith(f"Board {board.number} ({board.display}{DAGGER}): ")
        expected: dict[str, list[str]] = {}
        for f in comps.display(board.display).fields:
            if f.kind != "keyp":
                expected.setdefault(comps.field_kinds[f.kind].colour or "plain", []).append(field_label(f.kind))
        assert {c: sorted(v) for c, v in board_groups(line).items()} == {c: sorted(v) for c, v in expected.items()}


def test_keyples_claims_and_boats_stay_on_the_board_lines() -> None:
    state = clone(setup())
    board = state.boards[0]
    board.spaces["clay"] = [Keyple("orange"), Keyple("white", lying=True)]
    board.keyper, board.boat = 1, state.boats[0]
    text = table(GAME.view(state, None))
    line = next(ln for ln in text.splitlines() if ln.startswith("Board 1 ("))
    assert f"claimed by Ben, {state.boats[0]})" in line
    assert "clay (orange+white_)" in board_groups(line)["orange"]
    season_side = default().boats[state.boats[0]].side_for("spring").resources
    assert f"{state.boats[0]} {'/'.join(season_side)}" in text


def test_the_table_footnote_names_what_is_reconstructed() -> None:
    text = table(GAME.view(setup(), None))
    note = text.splitlines()[-1]
    assert note.startswith(f"{DAGGER} Reconstructed (no public source): board layouts, boat cargo, field colours "
                           "except pig, build, upgrade and river.")
    comps = default()
    printed = dataclasses.replace(comps, field_kinds={
        k: dataclasses.replace(v, provenance="rulebook p.12") for k, v in comps.field_kinds.items()})
    assert _table_note(printed, False, False) == ""
    assert _table_note(printed, True, False) == f"{DAGGER} Reconstructed (no public source): board layouts."


def test_the_table_shows_nothing_hidden() -> None:
    state = setup()
    other = clone(state)
    fairs = default().fairs
    for player in other.players:  # each face-down fair becomes the next of its kind
        for i, fair_id in enumerate(player.hidden_fairs):
            kind = sorted(f for f in fairs if fairs[f].kind == fairs[fair_id].kind)
            player.hidden_fairs[i] = kind[(kind.index(fair_id) + 1) % len(kind)]
    other.bag = list(reversed(state.bag))
    assert [p.hidden_fairs for p in other.players] != [p.hidden_fairs for p in state.players]
    assert table(GAME.view(other, None)) == table(GAME.view(state, None))
