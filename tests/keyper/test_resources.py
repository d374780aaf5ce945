"""Resources: the white "any type" icons, wheat as a stand-in, finished goods for raw materials, the limited
supply and the unlimited_supply option, and the fairs (rulebook p.10 Notes on resources, p.3 components, p.8
note 3, p.14 Fair tiles; rulings K-8, K-9, K-11, K-21, K-22, K-24).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.keyper import GAME
from engine.keyper.economy import accepts
from engine.keyper.state import HeldFair, State
from engine.keyper.vocab import ANIMALS, FINISHED, GEMS, RAW
from tests.keyper.scenario import (
    build,
    choose_displays,
    end_season,
    give,
    goods,
    have,
    legal,
    pending,
    play,
    run,
    table,
    take_all,
    texts,
)

NO_GOODS = {"brick": 0, "wood": 0, "stone": 0}


def lone(state: State, seat: int = 0, **colours: int) -> State:
    """The seat holds only these keyples and every other seat holds none, so nobody is invited to join."""
    for other in range(len(state.players)):
        give(state, other)
    return give(state, seat, **colours)


def building(tile: str | None = None, **resources: int) -> State:
    """Seat 0 has played a grey keyple onto the orange build field of board 1 (one build action), holding
    exactly these goods and, if named, one extra country tile."""
    state = table(3, active=0)
    lone(state, 0, grey=1)
    goods(state, 0, **NO_GOODS)
    goods(state, 0, **resources)
    if tile:
        state.players[0].tiles.append(tile)
    state, _ = play(state, 0, "play grey 1.build")
    return state


def builds(state: State, tile: str) -> set[str]:
    """The plots the seat to act may build this tile on now."""
    return {a.split()[2] for a in legal(state) if a.startswith(f"build {tile} ")}


# --- White icons and wheat (p.10) ------------------------------------------------------------------------


def test_white_icons_accept_any_type_of_their_kind() -> None:
    """rulebook p.10, Notes on resources: a white raw material icon takes any raw material, a white finished
    good icon any finished good, a white gem icon any gem."""
    assert set(RAW) <= set(accepts("any_raw"))
    assert set(FINISHED) <= set(accepts("any_finished"))
    assert set(accepts("any_gem")) == set(GEMS)


def test_wheat_stands_for_white_raw_materials_and_finished_goods_only() -> None:
    """rulebook p.10, Notes on resources (ruling K-21): wheat may replace a raw material or finished good shown
    by a white icon, never a gem, never a named item, and never a three-coloured (brick, wood or stone) icon."""
    assert "wheat" in accepts("any_raw") and "wheat" in accepts("any_finished")
    assert "wheat" not in accepts("any_gem")
    assert "wheat" not in accepts("finished_only")
    for named in (*RAW, *FINISHED, *GEMS):
        assert "wheat" not in accepts(named)


def test_a_white_raw_material_is_paid_with_the_players_choice_of_type() -> None:
    """rulebook p.10 and ruling K-21: the farmyard's white raw material may be paid with any raw material; the
    player picks, item by item."""
    state = building(log=1, clay=1, rock=1)
    assert "f1" in builds(state, "farmyard")
    state, _ = play(state, 0, "build farmyard f1")
    assert state.phase == "pay" and legal(state, 0) == ["pay clay", "pay rock"]
    state, _ = play(state, 0, "pay rock")
    assert (have(state, 0, "log"), have(state, 0, "clay"), have(state, 0, "rock")) == (0, 1, 0)


def test_wheat_pays_a_white_raw_material() -> None:
    """rulebook p.10: with a log and a wheat the farmyard (a log and any raw material) is built, the wheat
    standing in for the white raw material."""
    state = building(log=1, wheat=1)
    state, _ = play(state, 0, "build farmyard f1")
    assert state.players[0].plots["f1"].tile == "farmyard"
    assert (have(state, 0, "log"), have(state, 0, "wheat")) == (0, 0)


def test_wheat_pays_a_white_finished_good() -> None:
    """rulebook p.10: the building plot costs a white finished good, so wheat pays it."""
    state = building("building_plot", wheat=1)
    state, _ = play(state, 0, "build building_plot v1")
    assert state.players[0].plots["v1"].tile == "building_plot" and have(state, 0, "wheat") == 0


def test_wheat_never_pays_a_named_item() -> None:
    """rulebook p.10: the pig sty's clay and log are named items, so a log and a wheat cannot build it."""
    state = building(log=1, wheat=1)
    assert builds(state, "pig_sty") == set()


def test_wheat_never_pays_a_gem() -> None:
    """rulebook p.10: wheat replaces no gem, so the jeweller (any gem and two stones) needs a real gem."""
    state = building("jeweller", stone=2, wheat=1)
    assert builds(state, "jeweller") == set()
    state = building("jeweller", stone=2, ruby=1, gold=1)
    state, _ = play(state, 0, "build jeweller v1")
    assert legal(state, 0) == ["pay gold", "pay ruby"]


# --- Finished goods for raw materials (p.10) -----------------------------------------------------------


def test_a_finished_good_pays_the_raw_material_of_its_type() -> None:
    """rulebook p.10: a finished good can always be used as the raw material of the same type, so a brick
    and a wood build the pig sty (a clay and a log)."""
    state = building(brick=1, wood=1)
    state, _ = play(state, 0, "build pig_sty f1")
    assert state.players[0].plots["f1"].tile == "pig_sty"
    assert (have(state, 0, "brick"), have(state, 0, "wood")) == (0, 0)


def test_the_player_chooses_between_the_raw_material_and_its_finished_good() -> None:
    """rulebook p.10 (ruling K-21): with a clay and a brick at hand, the pig sty's clay may be paid with either."""
    state = building(clay=1, brick=1, log=1)
    state, _ = play(state, 0, "build pig_sty f1")
    assert legal(state, 0) == ["pay clay", "pay brick"]
    state, _ = play(state, 0, "pay brick")
    assert (have(state, 0, "clay"), have(state, 0, "brick"), have(state, 0, "log")) == (1, 0, 0)


def test_no_stand_in_across_types_or_from_raw_to_finished() -> None:
    """rulebook p.10: the stand-in works one way and within a type: a stone is no clay, and a log is no wood
    (the brickmaker costs a wood and a clay)."""
    state = building(stone=1, log=1)
    assert builds(state, "pig_sty") == set()
    state = building(log=1, clay=1)
    assert builds(state, "brickmaker") == set()


def test_a_finished_good_shows_for_its_raw_material_at_a_fair() -> None:
    """rulebook p.10 (including for exhibiting at the fairs) and p.8 note 3: the spring example fair asks for a
    sheep and a rock; a sheep and a stone hold it, and the stone is kept."""
    state = table(3, active=0)
    for player in state.players:
        player.hidden_fairs = []
    state.players[0].hidden_fairs = ["spring-1"]
    goods(state, 0, **NO_GOODS)
    goods(state, 0, sheep=1, stone=1)
    state, _ = end_season(state, 1)
    assert legal(state, 0) == ["hold spring-1", "done"]
    state, _ = play(state, 0, "hold spring-1")
    assert state.players[0].fairground["spring"] == [HeldFair("spring-1", 2)]
    assert have(state, 0, "stone") == 1


# --- Limited supply (p.3, p.10; rulings K-8, K-9) --------------------------------------------------------


def test_the_supply_holds_sixteen_twenty_and_twelve() -> None:
    """rulebook p.3, Components: 16 of each raw material, finished good and gem, 20 wheat, 12 of each animal;
    the starting brick, wood and stone come out of the supply."""
    state = GAME.setup(["A", "B", "C"], 7)
    for resource in (*RAW, *GEMS):
        assert state.supply[resource] == 16
    for resource in FINISHED:
        assert state.supply[resource] == 16 - 3
    assert state.supply["wheat"] == 20
    for animal in ANIMALS:
        assert state.supply[animal] == 12


@pytest.mark.parametrize(("field", "colour", "season", "left", "split"), [
    ("wheat", "green", 0, 3, (2, 1)),
    ("cow", "green", 0, 4, (2, 2)),
    ("clay", "orange", 0, 1, (1, 0)),
    ("emerald", "black", 2, 5, (3, 2)),
])
def test_a_short_supply_alternates_from_the_active_player_and_owes_nothing(
        field: str, colour: str, season: int, left: int, split: tuple[int, int]) -> None:
    """rulebook p.10, Notes on resources (rulings K-8, K-9): when the supply runs short the active player takes
    first, then the joiner, alternating; units left when it is empty are lost, with nothing owed later."""
    state = table(3, active=0, season=season)
    lone(state, 0, **{colour: 1})
    give(state, 1, **{colour: 1})
    goods(state, 0, **{field: 0})
    goods(state, 1, **{field: 0})
    state.supply[field] = left
    state, _ = run(state, [(0, f"play {colour} 1.{field}"), (1, f"join {colour}")])
    assert len(pending(state)) == 6
    state, events = take_all(state)
    assert (have(state, 0, field), have(state, 1, field)) == split
    assert state.supply[field] == 0
    assert any("is lost" in t and "nothing is left" in t for t in texts(events))
    state.supply[field] = 10
    assert (have(state, 0, field), have(state, 1, field)) == split
    assert state.steps == []


def test_an_exchange_needs_the_supply_to_hold_what_it_gives() -> None:
    """rulebook p.10: resources are limited, so a converter cannot hand out a brick the supply does not have;
    with nothing else to do the action is lost."""
    state = table(3, active=0)
    lone(state, 0, white=1)
    goods(state, 0, clay=1, **NO_GOODS)
    state.supply["brick"] = 0
    build(state, 0, "v1", "brickmaker")
    state.players[0].plots["v1"] = replace(state.players[0].plots["v1"], upgraded=True)
    state, events = play(state, 0, "play white v1")
    assert state.phase == "turn" and have(state, 0, "clay") == 1
    assert any("is lost" in t for t in texts(events))


def test_a_boat_gives_nothing_the_supply_lacks() -> None:
    """rulebook p.14 note 6 (if available) and p.10: a boat action takes a resource only while the supply has
    one; selling is still possible."""
    state = table(3, active=0)
    state.boats = ["boat-1", "boat-2", "boat-3", "boat-4"]
    lone(state, 0, blue=1)
    goods(state, 0, sheep=1, **NO_GOODS)
    state.supply["clay"] = 0
    state, _ = play(state, 0, "play blue 1.river boat-1")
    assert legal(state, 0) == ["take sheep", "sell sheep", "skip"]


# --- The unlimited_supply option -----------------------------------------------------------------------


def test_unlimited_supply_never_runs_out() -> None:
    """Keywood option unlimited_supply (lifting the limit of rulebook p.10): a resource is taken even when the
    supply count is zero, and the count does not move."""
    state = table(3, active=0, options={"unlimited_supply": True})
    lone(state, 0, green=1)
    give(state, 1, green=1)
    state.supply["pig"] = 0
    state, _ = run(state, [(0, "play green 1.pig"), (1, "join green")])
    state, _ = take_all(state)
    assert (have(state, 0, "pig"), have(state, 1, "pig")) == (3, 3)
    assert state.supply["pig"] == 0


def test_unlimited_supply_also_serves_exchanges_and_boats() -> None:
    """Keywood option unlimited_supply: converters and boats hand out resources the counted supply lacks."""
    state = table(3, active=0, options={"unlimited_supply": True})
    state.boats = ["boat-1", "boat-2", "boat-3", "boat-4"]
    lone(state, 0, blue=1)
    state.supply["clay"] = 0
    state, _ = play(state, 0, "play blue 1.river boat-1")
    assert "take clay" in legal(state, 0)
    state = table(3, active=0, options={"unlimited_supply": True})
    lone(state, 0, blue=1)
    goods(state, 0, clay=1, **NO_GOODS)
    state.supply["log"] = 0
    state, _ = play(state, 0, "play blue 1.trade_raw")
    assert "exchange clay for log+log" in legal(state, 0)


def test_a_players_stores_have_no_limit() -> None:
    """rulebook p.10, The player board: there is no limit to the resources a player may keep; with the
    unlimited_supply option a player holding 16 clay takes more."""
    state = table(3, active=0, options={"unlimited_supply": True})
    lone(state, 0, orange=1)
    goods(state, 0, clay=16)
    state, _ = play(state, 0, "play orange 1.clay")
    state, _ = take_all(state)
    assert have(state, 0, "clay") == 18


def test_the_supply_is_limited_by_default() -> None:
    """rulebook p.10: without the option, the game starts with unlimited_supply off."""
    assert table(3, active=0).options["unlimited_supply"] is False


# --- Fairs (p.8 note 3, p.14; ruling K-11) ------------------------------------------------------------------


def fair_table(season: int, fairs: list[str], winter: list[str] | None = None, **resources: int) -> State:
    """Seat 0 alone holds these fairs and goods in a season; the others hold no fairs."""
    state = table(3, active=0, season=season)
    for player in state.players:
        player.hidden_fairs = []
    state.players[0].hidden_fairs = list(fairs)
    state.players[0].winter_fairs = list(winter or [])
    goods(state, 0, **NO_GOODS)
    goods(state, 0, **resources)
    return state


@pytest.mark.parametrize(("season", "fair"), [(1, "spring-1"), (0, "summer-2"), (2, "summer-2")])
def test_a_seasonal_fair_is_held_only_in_its_own_season(season: int, fair: str) -> None:
    """rulebook p.8 note 3: spring, summer and autumn fairs are held once, only at the end of their own season,
    even with everything they ask for at hand."""
    state = fair_table(season, [fair], sheep=1, rock=1, cow=1, wood=1)
    state, _ = end_season(state, 1)
    assert state.phase != "fairs"
    assert "hold" not in " ".join(legal(state, 0))


@pytest.mark.parametrize(("season", "sides"), [(1, [4]), (2, [4, 6]), (3, [6])])
def test_winter_fair_sides(season: int, sides: list[int]) -> None:
    """rulebook p.14, Fair tiles and p.8 note 3 (ii): a winter fair's summer/autumn side scores 4 and its
    autumn/winter side 6; in autumn either may be shown."""
    state = fair_table(season, [], ["winter-1"], cow=2, wheat=1, brick=1, emerald=1, gold=1)
    state, _ = end_season(state, 1)
    assert legal(state, 0) == [f"hold winter-1:{p}" for p in sides] + ["done"]


def test_a_winter_fair_is_not_held_in_spring() -> None:
    """rulebook p.8 note 3: a winter fair may be held at the end of summer, autumn or winter only."""
    state = fair_table(0, [], ["winter-1"], cow=2, wheat=1, brick=1, emerald=1, gold=1)
    state, _ = end_season(state, 1)
    assert state.phase != "fairs" and state.players[0].winter_fairs == ["winter-1"]


def test_one_resource_is_shown_at_one_fair_per_season() -> None:
    """rulebook p.8 note 3: a resource cannot be exhibited at two fairs in the same season; two fairs asking for
    the same brick need two bricks (summer-1: goat and brick; winter-1: 2 cows, wheat, brick)."""
    state = fair_table(1, ["summer-1"], ["winter-1"], goat=1, brick=1, cow=2, wheat=1)
    state, _ = end_season(state, 1)
    assert legal(state, 0) == ["hold summer-1", "hold winter-1:4", "done"]
    state, _ = play(state, 0, "hold winter-1:4")
    assert state.phase != "fairs"
    assert [h.fair for h in state.players[0].fairground["summer"]] == ["winter-1"]
    assert have(state, 0, "brick") == 1


def test_the_same_resource_may_be_shown_again_in_a_later_season() -> None:
    """rulebook p.8 note 3: a resource shown at a fair is kept, and may be exhibited again in a different
    season: one brick shows at the summer fair (goat and brick) and again at the autumn fair (ruby and brick)."""
    state = fair_table(1, ["summer-1", "autumn-2"], goat=1, brick=1, ruby=1)
    state, _ = end_season(state, 1)
    state, _ = play(state, 0, "hold summer-1")
    state, _ = choose_displays(state)
    assert state.season == 2 and have(state, 0, "brick") == 1
    state, _ = end_season(state, 1)
    assert legal(state, 0) == ["hold autumn-2", "done"]
    state, _ = play(state, 0, "hold autumn-2")
    assert {s: [h.fair for h in held] for s, held in state.players[0].fairground.items()} == {
        "summer": ["summer-1"], "autumn": ["autumn-2"]}


def test_stacked_fairs_of_one_season_all_score() -> None:
    """rulebook p.8 note 3 (fair tiles completed in one season are stacked) and p.9 (iv): every fair in the
    stack counts in the score."""
    state = fair_table(1, ["summer-1"], ["winter-1"], goat=1, brick=2, cow=2, wheat=1)
    state, _ = end_season(state, 1)
    state, _ = run(state, [(0, "hold summer-1"), (0, "hold winter-1:4")])
    assert [h.fair for h in state.players[0].fairground["summer"]] == ["summer-1", "winter-1"]
    lines = [ln for ps in GAME.score(state, None).players if ps.seat == 0 for ln in ps.lines]
    fair_lines = {ln.label: ln.points for ln in lines if "fair" in ln.label}
    assert fair_lines == {"summer fair summer-1": 2, "summer fair winter-1": 4}


def test_a_fair_without_all_its_resources_cannot_be_held() -> None:
    """rulebook p.8 note 3: every resource the fair asks for must be shown; one short, and it is not offered."""
    state = fair_table(1, ["summer-1"], goat=1)
    state, _ = end_season(state, 1)
    assert state.phase != "fairs" and state.players[0].fairground == {}
