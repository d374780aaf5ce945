"""Keyflower's chat texts and component lookup: the public table and one seat's screen, read from real engine views
taken along seeded random games (engine.playout.random_playout with an on_step hook), and `rules NAME` for every
tile by name and id, the summer boat powers, the boats, the turn-order tiles, resources, skills and keyple colours.

Sources: kf-spec.md ("The public view as built"), docs/rules/keyflower.md, the F-n rulings of docs/rulings.md.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot import rules
from bot.games import GameEntry
from engine.keyflower import lookup
from engine.keyflower.components import COMPONENTS, RESOURCES, SKILLS
from engine.keyflower.game import GAME
from engine.keyflower.lookup import DISCORD_SAFE, MARK, describe, effect_short, more, names, plural, slug
from engine.keyflower.texts import (
    DAGGER,
    RECONSTRUCTED_NOTE,
    activity,
    board,
    hand,
    holdings,
    label,
    picking_order,
    standing_colour,
    winter_now,
)
from engine.playout import random_playout
from tests import sources

REPO = Path(__file__).resolve().parents[2]
RULINGS = REPO / "docs" / "rulings.md"
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
GAMES = [(2, 11), (3, 5), (4, 3), (5, 8), (6, 2)]
"""(players, seed) of the recorded games."""


@dataclass(frozen=True)
class Step:
    """One moment of a recorded game: the public view, the acting seat's own view, and that seat."""

    public: dict[str, Any]
    own: dict[str, Any]
    seat: int

    @property
    def phase(self) -> str:
        return str(self.public["phase"])

    @property
    def season(self) -> str:
        return str(self.public["season"])


@cache
def recorded() -> tuple[tuple[Step, ...], ...]:
    """Every step of each recorded game, and the view after its end as a last step."""
    found = []
    for players, seed in GAMES:
        steps: list[Step] = []

        def hook(state: Any, seat: int, action: Any, steps: list[Step] = steps) -> None:
            steps.append(Step(GAME.view(state, None), GAME.view(state, seat), seat))

        final, _ = random_playout(GAME, NAMES[:players], seed, on_step=hook)
        steps.append(Step(GAME.view(final, None), GAME.view(final, 0), 0))
        found.append(tuple(steps))
    return tuple(found)


def all_steps() -> Iterator[Step]:
    """Every recorded step of every game."""
    for game in recorded():
        yield from game


def first(phase: str, season: str | None = None, when: Any = None) -> Step:
    """The first recorded step in a phase (and season) meeting a condition on the public view."""
    for step in all_steps():
        if step.phase == phase and season in (None, step.season) and (when is None or when(step.public)):
            return step
    pytest.fail(f"no recorded step in {phase} {season or ''} meets the condition: re-record or change the test")


# --- The public table from real views ---------------------------------------------------------------------------


def test_the_games_recorded_reach_every_phase_and_season() -> None:
    seen = {(step.phase, step.season) for step in all_steps()}
    for season in ("spring", "summer", "autumn", "winter"):
        assert ("turns", season) in seen
    assert {("boats", "spring"), ("place", "spring"), ("winter-choice", "winter"), ("over", "winter")} <= seen


def test_every_board_opens_with_season_phase_start_player_and_whom_it_waits_for() -> None:
    for step in all_steps():
        view = step.public
        first_line = board(view).splitlines()[0]
        start = view["names"][view["start_player"]]
        assert first_line.startswith(f"**Keyflower**, {view['season']}: "), first_line
        assert f"Start player: {start} (purple keyple)." in first_line
        assert view["waiting_for"][1:] in first_line


def test_every_board_shows_each_tile_up_for_auction_each_village_tile_and_the_counts() -> None:
    for step in all_steps():
        view = step.public
        text = board(view)
        for tile_id in view["auction"]:
            assert f"- {label(tile_id)} (" in text, tile_id
        for seat, village in enumerate(view["villages"]):
            player = next(line for line in text.splitlines() if line.startswith(f"- **{view['names'][seat]}**"))
            counts = f"{plural(view['screens'][seat], 'worker')}, {plural(view['skills_held'][seat], 'skill')}"
            in_hand = f", {plural(view['winter_in_hand'][seat], 'winter tile')} in hand"
            assert counts in player
            assert (in_hand in player) == (view["season"] != "winter" or view["phase"] == "winter-choice")
            lines = text.splitlines()
            village_line = lines[lines.index(player) + 1]
            for key, placed in village.items():
                assert f"{label(placed['tile'])}{' up' if placed['up'] else ''} {key}" in village_line
            for tile_id in view["won"][seat]:
                assert label(tile_id) in text
        supply = ", ".join(f"{k} {view['supply'][k]}" for k in RESOURCES if view["supply"].get(k))
        assert (f"Bag {plural(view['bag'], 'worker')}; greens {view['greens']}; skill pile {view['skill_pile']}; "
                f"supply {supply}") in text


def test_every_board_fits_in_four_discord_messages() -> None:
    for step in all_steps():
        text = board(step.public)
        assert len(text) < 4 * 1900 and max(len(line) for line in text.splitlines()) < 1900


def test_the_board_shows_nothing_a_screen_hides() -> None:
    """A seat's own view adds its screen; the board reads none of it (F-7): it is the public board exactly."""
    for step in all_steps():
        assert board(step.own) == board(step.public)
        shown = {t for t in (*step.public["auction"], *(p["tile"] for v in step.public["villages"] for p in
                                                         v.values()), *(t for w in step.public["won"] for t in w))}
        text = board(step.public)
        for tile in COMPONENTS.tiles:
            if tile.kind == "winter" and tile.id not in shown:
                assert tile.name not in text, tile.id


def test_bids_and_uses_show_the_colour_the_leader_and_the_next_use() -> None:
    step = first("turns", when=lambda v: any(p["bids"] and p["uses"] for p in v["places"].values())
                 or sum(1 for p in v["places"].values() if p["bids"]) >= 2)
    text = board(step.public)
    for loc, place in step.public["places"].items():
        colour = standing_colour(place)
        shown = activity(step.public, loc, bool(place["uses"]) and not loc.startswith("order-"))
        assert shown.startswith(f"{colour} \u2014 ")
        assert shown in text
        if place["bids"]:
            top = max(place["bids"].items(), key=lambda item: item[1][1])
            assert f"bids {step.public['names'][int(top[0])]} {top[1][1]}" in shown and "(leads)" in shown


def test_a_used_tile_says_how_many_workers_the_next_use_needs_or_that_it_is_full() -> None:
    used = [(step, loc, place) for step in all_steps() for loc, place in step.public["places"].items()
            if place["uses"] and step.phase == "turns"]
    assert used
    kinds = set()
    for step, loc, place in used[:400]:
        up = any(p["tile"] == loc and p["up"] for v in step.public["villages"] for p in v.values())
        shown = activity(step.public, loc, lookup.TILES[loc].front.kind in ("produce", "transport"))
        placed = sum(u[2] for u in place["uses"])
        need = place["uses"][-1][2] + 1
        expected = f"next use {need}+" if placed + need <= 6 else "full"
        assert shown.endswith(expected), (loc, up, shown)
        kinds.add(expected == "full")
    assert kinds == {True, False}


def test_flat_workers_of_boats_4a_and_4b_are_marked_and_never_set_the_colour() -> None:
    view = copy.deepcopy(first("turns", "spring", lambda v: len(v["names"]) >= 3).public)
    loc = view["auction"][0]
    view["places"][loc] = {"bids": {"0": ["red", 2], "1": ["green", 3, True]}, "uses": [[2, "red", 1, False],
                                                                                      [1, "blue", 2, True]]}
    assert standing_colour(view["places"][loc]) == "red"
    shown = activity(view, loc, True)
    assert shown == (f"red \u2014 bids {view['names'][1]} 3 green flat (leads), {view['names'][0]} 2; used by "
                     f"{view['names'][2]} 1, {view['names'][1]} 2 blue flat; next use 3+")
    view["places"][loc] = {"bids": {"1": ["green", 3, True]}, "uses": []}
    assert standing_colour(view["places"][loc]) == "green"  # F-10: the flat bid stands up


def test_turn_order_tiles_show_the_start_icon_on_the_highest_in_use() -> None:
    for game in recorded():
        view = game[0].public
        text = board(view)
        top = max(view["order_tiles"])
        assert f"{top}\u2605: " in text
        assert text.count("\u2605: ") == 1


def test_boats_show_their_loads_and_who_took_them() -> None:
    view = first("turns", "spring").public
    text = board(view)
    assert "Boats (spring and autumn face):" in text
    for boat in view["boats"]:
        workers = ", ".join(f"{c} {boat['workers'][c]}" for c in ("blue", "red", "yellow", "green")
                            if boat["workers"].get(c))
        assert f"- {label(boat['id'])}: workers {workers}; skills " in text
    summer = first("turns", "summer").public
    assert "Boats (summer face):" in board(summer)
    late = first("place", "spring").public
    for boat in late["boats"]:
        if boat["taken"] is not None:
            assert f"- {label(boat['id'])}: taken by {late['names'][boat['taken']]}" in board(late)


def test_while_boats_are_picked_the_picking_order_starts_with_the_seat_asked() -> None:
    steps = [step for step in all_steps() if step.phase == "boats"]
    assert steps
    for step in steps:
        order = picking_order(step.public)
        assert order[0] == step.public["to_act"][0]
        assert f"Picking: {', '.join(step.public['names'][s] for s in order)}." in board(step.public)


def test_tiles_to_place_and_summer_boat_powers_are_shown() -> None:
    step = first("place", when=lambda v: any(v["won"]))
    text = board(step.public)
    for won in step.public["won"]:
        if won:
            assert "  To place: " + ", ".join(label(t) for t in won) in text
    boats = [step for step in all_steps() if any(p["tile"].startswith("summerboat-") for v in step.public["villages"]
                                                  for p in v.values())]
    assert boats
    view = boats[-1].public
    for village in view["villages"]:
        for placed in village.values():
            if placed["tile"].startswith("summerboat-"):
                face = placed["tile"][-2:]
                assert f"summer boat {face} ({lookup.POWERS[face][0]})" in board(view)


def test_resources_upgrades_and_stored_resources_show_on_village_tiles() -> None:
    step = first("turns", when=lambda v: any(p["up"] and p["res"] for vil in v["villages"] for p in vil.values()))
    text = board(step.public)
    for village in step.public["villages"]:
        for key, placed in village.items():
            if placed["res"]:
                res = ", ".join(f"{k} {placed['res'][k]}" for k in RESOURCES if placed["res"].get(k))
                assert f"{label(placed['tile'])}{' up' if placed['up'] else ''} {key} [{res}" in text
    view = copy.deepcopy(step.public)
    view["villages"][0]["0/0"]["stored"] = {"gold": 1}
    view["villages"][0]["0/0"]["res"] = {"gold": 2}
    assert f"{label(view['villages'][0]['0/0']['tile'])}" in board(view) and "[gold 2; 1 stored]" in board(view)


def test_screens_opened_at_the_end_are_shown_when_the_view_has_them() -> None:
    view = copy.deepcopy(recorded()[0][-1].public)
    view["screens_opened"] = [{"workers": {"red": 2, "blue": 1}, "skills": {"saw": 1}}, {"workers": {},
                                                                                        "skills": {}}]
    text = board(view)
    assert "  Screen opened: workers blue 1, red 2; skills saw 1" in text
    assert "  Screen opened: workers none; skills none" in text


def test_the_winter_choice_says_who_still_chooses_and_shows_no_tile() -> None:
    step = first("winter-choice")
    text = board(step.public)
    still = ", ".join(step.public["names"][s] for s in step.public["to_act"])
    assert f"each player secretly picks at least one winter tile to offer (still choosing: {still})." in text
    assert "Boats (winter face; taken as village tiles at the end of winter):" in text


def test_reconstructed_fronts_carry_a_dagger_and_the_footnote() -> None:
    for step in all_steps():
        text = board(step.public)
        marked = [t for t in step.public["auction"] if f"{effect_short(lookup.TILES[t])}{DAGGER})" in text]
        own = {t: lookup.reconstructed_values(lookup.TILES[t]) for t in step.public["auction"]}
        expected = [t for t in step.public["auction"]
                    if "front" in own[t] or (lookup.TILES[t].front.kind == "points" and "points" in own[t])]
        assert marked == expected
        assert (RECONSTRUCTED_NOTE in text) == bool(marked)
    autumn = first("turns", "autumn").public
    if {"wainwright", "inn", "fair", "forge", "goldsmith", "sawmill", "sculptor", "well"} & set(autumn["auction"]):
        assert board(autumn).splitlines()[-1] == RECONSTRUCTED_NOTE


def test_labels_give_the_id_when_it_is_not_the_name() -> None:
    assert label("timber-yard") == "Timber Yard"
    assert label("craftsmens-guild") == "Craftsmen's Guild"
    assert label("home-2") == "Home tile 2 `home-2`"
    assert label("summerboat-3b") == "Summer boat 3b `summerboat-3b`"
    assert label("order-3") == "Turn-order tile 3 `order-3`"
    assert label("sea-bastion") == "Sea Bastion"
    for tile in COMPONENTS.tiles:
        assert label(tile.id) == tile.name or label(tile.id).endswith(f"`{tile.id}`")


# --- One seat's screen ------------------------------------------------------------------------------------------


def test_every_hand_lists_workers_by_colour_skills_by_kind_and_the_winter_tiles() -> None:
    for step in all_steps():
        view = step.own
        text = hand(view, step.seat)
        lines = text.splitlines()
        assert lines[0] == f"{view['names'][step.seat]}, behind your screen:"
        workers = ", ".join(f"{c} {view['workers'][c]}" for c in ("blue", "red", "yellow", "green")
                            if view["workers"].get(c)) or "none"
        assert f"Workers ({sum(view['workers'].values())}): {workers}." in lines
        skills = ", ".join(f"{k} {view['skills'][k]}" for k in SKILLS if view["skills"].get(k)) or "none"
        assert f"Skills ({sum(view['skills'].values())}): {skills}." in lines
        for tile_id in view["winter_hand"]:
            tile = lookup.TILES[tile_id]
            if step.season == "winter" and step.phase != "winter-choice":
                assert lines[3].startswith("Winter tiles you kept back (out of the game, F-9): ")
                assert label(tile_id) in lines[3]
            else:
                assert any(line.startswith(f"- **{tile.name}** `{tile_id}`: ") for line in lines)
        if view["legal"] and step.phase != "over":
            assert lines[-1].startswith(f"You may: {view['legal'][0]}")


def test_a_hand_says_what_each_winter_tile_scores_now() -> None:
    step = first("turns", "autumn")
    text = hand(step.own, step.seat)
    workers, skills, resources = holdings(step.own, step.seat)
    for tile_id in step.own["winter_hand"]:
        key = lookup.TILES[tile_id].front.scoring
        assert key is not None
        points = winter_now(key, workers, skills, resources)
        assert f"`{tile_id}`: {lookup.WINTER_SCORING[key][1]}. On its own with what you hold now: " \
               f"{plural(points, 'point')}." in text


def test_winter_tiles_score_on_their_own_as_the_rules_say() -> None:
    workers = {"blue": 4, "red": 3, "yellow": 2, "green": 3}
    skills = {"anvil": 2, "pick": 1, "saw": 3}
    resources = {"gold": 1, "iron": 2, "stone": 1, "wood": 2}
    expected = {"apothecary": 6, "craftsmens-guild": 6, "jeweller": 2, "key-guild": 10, "keythedral": 12,
                "key-market": 6, "mercers-guild": 10, "scholar": 9, "scribes": 10, "village-hall": 4,
                "watermill": 2, "windmill": 5}
    assert {key: winter_now(key, workers, skills, resources) for key in expected} == expected
    assert winter_now("mercers-guild", {}, {}, {"gold": 3}) == 5  # gold fills every slot of a Mercers' set


def test_in_winter_workers_on_ones_own_village_tiles_count_for_the_winter_tiles() -> None:
    step = first("turns", "winter", lambda v: any(p["uses"] for p in v["places"].values()))
    view = step.own
    workers, _, _ = holdings(view, step.seat)
    own_tiles = {p["tile"] for p in view["villages"][step.seat].values()}
    on_tiles = sum(u[2] for loc, p in view["places"].items() if loc in own_tiles for u in p["uses"])
    assert sum(workers.values()) == sum(view["workers"].values()) + on_tiles


def test_the_start_player_is_told_about_the_purple_keyple_and_a_chooser_that_it_has_chosen() -> None:
    step = first("turns", "spring")
    assert "You hold the purple keyple" in hand(step.own, step.public["start_player"])
    choice = first("winter-choice", when=lambda v: len(v["to_act"]) < len(v["names"]))
    done = next(s for s in range(len(choice.public["names"])) if s not in choice.public["to_act"])
    seat_keys = {"viewer": done, "workers": {}, "skills": {}, "winter_hand": [], "winter_played": [], "legal": []}
    assert "You have chosen your winter tiles" in hand(choice.public | seat_keys, done)



def test_a_long_list_of_moves_is_cut() -> None:
    step = first("turns", "spring")
    view = step.own | {"legal": [f"bid alehouse red {i}" for i in range(30)]}
    assert hand(view, step.seat).splitlines()[-1].endswith("\u2026 and 10 more")


def test_texts_do_not_change_the_view() -> None:
    for game in recorded():
        for step in game[:: max(1, len(game) // 10)]:
            before = copy.deepcopy(step.own)
            board(step.own)
            hand(step.own, step.seat)
            assert step.own == before


# --- The component lookup ---------------------------------------------------------------------------------------


def test_every_tile_is_found_by_name_and_id_in_any_spelling() -> None:
    for tile in COMPONENTS.tiles:
        text = describe(tile.name)
        assert text is not None and text.startswith(f"**{tile.name}** (`{tile.id}`): "), tile.id
        for spelling in (tile.id, tile.id.upper(), tile.id.replace("-", "_"), f"  {tile.name.lower()} ",
                         tile.name.replace(" ", "-")):
            assert describe(spelling) == text, spelling
        assert len(text) < DISCORD_SAFE


def test_each_face_shows_its_use_upgrade_cost_and_points() -> None:
    for tile in COMPONENTS.tiles:
        text = describe(tile.id) or ""
        if tile.kind == "winter":
            assert f"Scores: {lookup.WINTER_SCORING[str(tile.front.scoring)][1]}." in text
        elif tile.kind == "summerboat":
            assert f"Power ({lookup.POWERS[tile.id[-2:]][0]}): " in text
        else:
            front = next(line for line in text.splitlines() if line.startswith("Front: "))
            assert plural(tile.front.points, "point") in front
            assert tile.back is not None
            back = next(line for line in text.splitlines() if line.startswith("Back: "))
            assert plural(tile.back.points, "point") in back
            assert f"Upgrade: {lookup.cost_text(tile.upgrade)}" in text
        assert re.search(r"Source: reference §9\.\d", text), tile.id


@pytest.mark.parametrize(("name", "says"), [
    ("miner", ["each use gives 2 iron; 0 points.", "Upgrade: 1 anvil,", "each use gives 1 iron and 1 gold; 3 points"]),
    ("peddler", ["hand in an extra yellow worker (into the bag) and get 1 green worker from the supply", "F-3"]),
    ("tavern", ["an extra worker of any colour (into the bag only after the draw)", "3 workers drawn from the bag"]),
    ("hiring-fair", ["a skill of any kind (into the pile only after the draw) and get 2 skills drawn from the pile"]),
    ("workshop", ["1 wood, stone or iron, your pick", "Upgrade: 2 resources of any kind"]),
    ("stable", ["moves resources 2 steps", "4 steps", "up to 2 tiles", "5 points"]),
    ("timber-yard", ["2 points for each wood transported onto it", "Upgrade: 1 saw (reconstructed)", "F-21"]),
    ("barn", ["1 point for each resource of any kind", "2 skills of any kind (reconstructed)"]),
    ("home-1", ["home tile number 1", "water: N", "(reconstructed)", "F-13"]),
    ("keythedral", ["12 points, once", "F-19"]),
    ("summerboat-2b", ["twice the printed number of steps", "F-24"]),
])
def test_tiles_are_described_in_our_words(name: str, says: list[str]) -> None:
    text = describe(name) or ""
    for words in says:
        assert words in text, (name, words)


def _value_lines(text: str) -> list[str]:
    """The lines of a description that give values (not its sides)."""
    return [line for line in text.splitlines() if not line.startswith(("River sides", "Sides", "Roads"))
            and "Sides, upright" not in line]


def test_reconstructed_values_are_marked_and_reference_ones_are_not() -> None:
    """A tile whose data is reconstructed marks its values; every tile marks its sides, which F-2 makes ours."""
    for tile in COMPONENTS.tiles:
        text = describe(tile.id) or ""
        assert MARK in text, tile.id  # the sides
        marked = any(MARK in line for line in _value_lines(text))
        assert marked == (tile.provenance == "reconstructed"), tile.id
    for boat in COMPONENTS.boats:
        load = next(line for line in (describe(boat.id) or "").splitlines() if line.startswith("Load"))
        assert (MARK in load) == (boat.provenance == "reconstructed"), boat.id
    assert "summer face 4 workers + 1 skill (reconstructed)" in (describe("sea bastion") or "")
    assert "Keywood's own (reconstructed)" in (describe("sea breese") or "")
    for number in (1, 2, 3, 4):
        assert MARK in next(line for line in (describe(f"order-{number}") or "").splitlines()
                            if line.startswith("Faces"))


def test_only_the_values_f2_names_are_marked_on_autumn_tiles() -> None:
    forge = describe("forge") or ""
    assert "Upgrade: 3 iron (reconstructed)" in forge and "8 points (reconstructed)" in forge
    assert "scores only its printed points;" in forge
    blacksmith = describe("blacksmith") or ""
    assert "2 points for each iron transported onto it during play; 0 points." in blacksmith
    assert "Upgrade: 1 anvil (reconstructed)" in blacksmith


@pytest.mark.parametrize("face", ["1a", "1b", "2a", "2b", "3a", "3b", "4a", "4b"])
def test_summer_boat_powers_are_found_by_face(face: str) -> None:
    text = describe(face)
    assert text is not None and text == describe(f"summer boat {face}") == describe(f"summerboat-{face}")
    assert text.startswith(f"**Summer boat {face}** (`summerboat-{face}`)")
    assert f"Power ({lookup.POWERS[face][0]}): {lookup.POWERS[face][1]}." in text
    assert "F-17" in text


def test_boats_are_found_by_id_and_name_with_loads_and_winter_scoring() -> None:
    for boat in COMPONENTS.boats:
        text = describe(boat.name)
        assert text is not None and text.startswith(f"**{boat.name}** (`{boat.id}`): boat")
        assert describe(boat.id) == describe(f"{boat.name} boat") == text
        assert f"spring and autumn face {boat.workers_a} worker" in text
        assert f"summer face {boat.workers_b} worker" in text
        assert lookup.BOAT_SCORING[boat.id][1] in text
    assert describe("Sea Breeze") == describe("sea-breese")
    assert "in play with 6 players" in (describe("white wind") or "")
    assert "in play with 3+ players" in (describe("sea breese") or "")


def test_turn_order_tiles_resources_skills_and_keyples_are_described() -> None:
    assert (describe("order-2") or "").startswith("**Turn-order tile 2** (`order-2`)")
    assert "chooses a boat 2nd" in (describe("turn order 2") or "")
    assert "2 players: with the start icon" in (describe("order-1") or "")
    for resource in RESOURCES:
        text = describe(resource) or ""
        assert text.startswith(f"**{resource.capitalize()}** (resource, {COMPONENTS.resources[resource]} in")
    assert "Made by: Keywood, Woodcutter, Workshop, Carpenter." in (describe("wood") or "")
    assert "the home tiles" in (describe("stone") or "")
    for skill in SKILLS:
        assert (describe(skill) or "").startswith(f"**{skill.capitalize()}** (skill tile, 16 in the game)")
    assert describe("pick axe") == describe("pick")
    assert "uses of Mason" in (describe("pick") or "")
    for colour in ("blue", "red", "yellow"):
        assert (describe(f"{colour} keyples") or "").startswith(f"**{colour.capitalize()} keyples** (40, in the bag)")
    assert "The Peddler takes an extra yellow worker" in (describe("yellow") or "")
    assert (describe("green") or "").startswith("**Green keyples** (20, beside the bag)")
    assert "F-20" in (describe("start player keyple") or "")


@pytest.mark.parametrize("name", ["chess", "", "   ", "bag", "summer boat", "season", "summer boat 1a power",
                                  "keyflower boat scoring", "home tiles", "transport", "colour of a tile"])
def test_other_names_are_left_to_the_rules_sections(name: str) -> None:
    assert describe(name) is None


def test_names_are_unique_described_and_no_alias_names_two_components() -> None:
    found = names()
    assert len(found) == len(set(found)) == len(COMPONENTS.tiles) + 6 + 4 + 4 + 3 + 5
    assert found[: len(COMPONENTS.tiles)] == [t.name for t in COMPONENTS.tiles]
    owner: dict[str, str] = {}
    for entry in lookup._entries():
        for alias in (entry.name, *entry.aliases):
            key = lookup._key(alias)
            assert owner.setdefault(key, entry.name) == entry.name, (alias, owner[key], entry.name)
    for name in found:
        text = describe(name)
        assert text is not None and len(text) < DISCORD_SAFE, name


def test_slugs_spell_names_as_ids() -> None:
    assert slug("Timber Yard") == "timber-yard" and slug("Mercers' Guild") == "mercers-guild"


# --- Rules phrases and rulings ---------------------------------------------------------------------------------


EXPECTED_SECTION = {
    "home": "Home tiles", "spring": "Spring tiles", "summer": "Summer tiles", "autumn": "Autumn tiles",
    "Barn": "Storage tiles", "Blacksmith": "Storage tiles", "Stone Yard": "Storage tiles",
    "Timber Yard": "Storage tiles", "Craftsmen's Guild": "Craftsman's guild", "Mercers' Guild": "Mercer's guild",
    "Keyflower": "Keyflower boat", "gold": "Transport", "iron": "Transport", "stone": "Transport",
    "wood": "Transport", "anvil": "What a use gives and where it goes", "pick": "What a use gives and where it goes",
    "saw": "What a use gives and where it goes", "blue keyple": "Colour of a tile", "red keyple": "Colour of a tile",
    "yellow keyple": "Colour of a tile", "green keyple": "What a use gives and where it goes",
    "purple keyple": "Allocating at the end",
}


def expected_section(name: str) -> str:
    """The summary section a component's rules phrase should reach first."""
    if name in EXPECTED_SECTION:
        return EXPECTED_SECTION[name]
    tile = next((t for t in COMPONENTS.tiles if t.name == name), None)
    if name.startswith("Turn-order tile"):
        return "Turn-order tiles at the end"
    if tile is None or tile.kind in ("winter", "summerboat"):
        return name if tile is None or tile.kind == "summerboat" else name[0] + name[1:].lower()
    return EXPECTED_SECTION[tile.kind]


def test_descriptions_point_to_the_rules_section_for_more(keyflower_entry: GameEntry) -> None:
    """Each component has the rules topic that says more (lookup.more, which the chat layer points to; the text names
    no command, issue 40); describe() leaves the topic to the summary, which finds the component's own section
    first."""
    for name in names():
        text = describe(name) or ""
        topic = more(name)
        assert topic and text.endswith(".") and "/rules" not in text and "More" not in text, name
        assert describe(topic) is None, topic
        found = rules.lookup(keyflower_entry.id, topic)
        assert found and found[0].title == expected_section(name), (name, [s.title for s in found])
    assert more("chess") is None


def ruling_ids() -> set[str]:
    """Every F-n heading of docs/rulings.md."""
    return set(re.findall(r"^### (F-\d+) ", RULINGS.read_text(encoding="utf-8"), re.MULTILINE))


def test_cited_rulings_and_reference_sections_exist() -> None:
    known = ruling_ids()
    cited: set[str] = set()
    for name in names():
        text = describe(name) or ""
        cited |= set(re.findall(r"\bF-\d+\b", text))
        assert "Source: reference §" in text, name
    cited |= set(re.findall(r"\bF-\d+\b", RECONSTRUCTED_NOTE))
    assert cited and cited <= known, sorted(cited - known)


SOURCES = [REPO.parent / "shared" / "reference" / "keyflower-base-and-modules.md",
           REPO.parent / "shared" / "rules-sources" / "keyflower-modules-keymelequin-key-celeste.txt"]


def _words(text: str) -> list[str]:
    """Lowercase words, apostrophes normalised."""
    return re.findall(r"[a-z0-9']+", text.replace("\u2019", "'").replace("\u2018", "'").lower())


def test_our_words_not_the_sources() -> None:
    """No run of 12 consecutive words of the reference notes or the module sheet appears in a description."""
    found = sources.need(*SOURCES)
    grams = set()
    for path in found:
        words = _words(path.read_text(encoding="utf-8"))
        grams |= {tuple(words[i: i + 12]) for i in range(len(words) - 11)}
    for name in names():
        ours = _words(describe(name) or "")
        copied = [" ".join(ours[i: i + 12]) for i in range(len(ours) - 11) if tuple(ours[i: i + 12]) in grams]
        assert copied == [], name
