"""What each kind of country-board field yields and what it refuses (rulebook pp.10-14, notes 1-6; rulings
K-8 to K-10, K-20 to K-23).

Positions are arranged with the scenario helpers; every move then goes through GAME.parse and GAME.apply. A
refusal is checked against the seat's legal actions, which the engine treats as the single source of truth.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import IllegalAction
from engine.keyper import GAME
from engine.keyper.components import default
from engine.keyper.housing import housing_tiles
from engine.keyper.state import State
from engine.keyper.vocab import ANIMALS, GEMS, SEASONS
from tests.keyper.scenario import (
    build,
    claim,
    give,
    goods,
    have,
    legal,
    pending,
    place,
    play,
    run,
    table,
    take_all,
    texts,
)

COMPS = default()
NO_GOODS = {"brick": 0, "wood": 0, "stone": 0}


def lone(state: State, seat: int = 0, **colours: int) -> State:
    """The seat holds only these keyples and every other seat holds none, so nobody is invited to join."""
    for other in range(len(state.players)):
        give(state, other)
    return give(state, seat, **colours)


def board_showing(state: State, kind: str) -> int:
    """The number of the first board whose display has a field of this kind."""
    for board in state.boards:
        if any(f.kind == kind for f in COMPS.display(board.display).fields):
            return board.number
    raise AssertionError(f"no board shows {kind}")


def colour_of(kind: str) -> str | None:
    """The border colour of a field kind."""
    return COMPS.field_kinds[kind].colour


def other_colour(kind: str) -> str:
    """A keyple colour that does not match this field's border (and is not white)."""
    return next(c for c in ("blue", "grey", "orange") if c != colour_of(kind))


def not_legal(state: State, seat: int, *texts_: str) -> None:
    """None of these actions is among the seat's legal actions."""
    options = legal(state, seat)
    for text in texts_:
        assert text not in options, text


# --- Resource fields (p.12 table) ---------------------------------------------------------------------

RESOURCE_FIELDS = ["clay", "log", "rock", "wheat", *ANIMALS, *GEMS]


def resource_table(kind: str) -> State:
    """A three-player table in a season whose boards show this resource field (gems open in autumn)."""
    return table(3, active=0, season=2 if kind in GEMS else 0)


@pytest.mark.parametrize("kind", RESOURCE_FIELDS)
def test_a_resource_field_gives_its_resource_two_on_a_colour_match(kind: str) -> None:
    """rulebook p.12 table and p.4, 2a: a resource field gives its own resource, one unit alone and two when
    the keyple matches the field's border colour; each unit is taken from the supply."""
    for colour, earned in ((colour_of(kind), 2), (other_colour(kind), 1)):
        state = resource_table(kind)
        lone(state, 0, **{colour: 1})
        board = board_showing(state, kind)
        before = state.supply[kind]
        state, _ = play(state, 0, f"play {colour} {board}.{kind}")
        assert pending(state) == [(0, (kind,))] * earned
        state, _ = take_all(state)
        assert have(state, 0, kind) == earned
        assert state.supply[kind] == before - earned


@pytest.mark.parametrize("kind", RESOURCE_FIELDS)
def test_a_resource_field_offers_nothing_but_its_own_resource(kind: str) -> None:
    """rulebook p.12 table: a unit from a resource field is only that resource (or a skip), never another."""
    state = resource_table(kind)
    lone(state, 0, **{colour_of(kind): 1})
    state, _ = play(state, 0, f"play {colour_of(kind)} {board_showing(state, kind)}.{kind}")
    assert legal(state, 0) == [f"take {kind}", "skip"]
    other = "cow" if kind != "cow" else "pig"
    not_legal(state, 0, f"take {other}", f"sell {kind}")


# --- Country tile field (p.13 note 2) ------------------------------------------------------------------


def test_a_lone_keyple_takes_one_of_the_eight_tiles_and_the_display_is_refilled_from_the_bag() -> None:
    """rulebook p.13 note 2: the uncoloured country tile field gives a lone keyple one tile, free, chosen
    from the 8 on display; at the end of the turn the display is topped up to 8 from the bag."""
    state = table(3, active=0)
    lone(state, 0, green=1)
    shown, bag = list(state.display), list(state.bag)
    state, _ = play(state, 0, "play green 1.country_tile")
    assert legal(state, 0) == [f"tile {t}" for t in shown] + ["skip"]
    state, _ = play(state, 0, f"tile {shown[2]}")
    assert state.players[0].tiles[-1] == shown[2]
    assert len(state.display) == 8 and shown[2] not in state.display
    new = [t for t in state.display if t not in shown]
    assert len(new) == 1 and new[0] in bag and len(state.bag) == len(bag) - 1


def test_a_tile_not_on_display_cannot_be_taken() -> None:
    """rulebook p.13 note 2: only the displayed tiles may be chosen; a tile still in the bag or in the stacks
    set aside is not offered."""
    state = table(3, active=0)
    lone(state, 0, green=1)
    state, _ = play(state, 0, "play green 1.country_tile")
    not_legal(state, 0, f"tile {state.bag[0]}", f"tile {state.stacks[0]}", "tile cow_shed")


def test_with_a_joiner_the_active_player_chooses_first_and_fourth_and_the_display_is_refilled() -> None:
    """rulebook p.13 note 2 (ruling K-8): with a joiner both take two tiles, active player 1st and 4th, joiner
    2nd and 3rd; then the display is refilled to 8 from the bag."""
    state = table(3, active=0)
    lone(state, 0, white=1)
    give(state, 1, white=1)
    shown, bag = list(state.display), len(state.bag)
    state, _ = run(state, [(0, "play white 1.country_tile"), (1, "join white")])
    assert [seat for seat, _ in pending(state)] == [0, 1, 1, 0]
    state, _ = run(state, [(0, f"tile {shown[7]}"), (1, f"tile {shown[0]}"), (1, f"tile {shown[1]}"),
                           (0, f"tile {shown[6]}")])
    assert state.players[0].tiles[-2:] == [shown[7], shown[6]]
    assert state.players[1].tiles[-2:] == [shown[0], shown[1]]
    assert len(state.display) == 8 and len(state.bag) == bag - 4


def test_tiles_taken_in_the_seasons_last_action_are_not_replaced() -> None:
    """rulebook p.13 note 2 (ruling K-15): when taking country tiles was the last action of the season, the
    display is not topped up; the 7 tiles left are what goes to the discard pile (p.8 note 7)."""
    state = table(2, active=1)
    for player in state.players:
        player.hidden_fairs = []
    claim(state, 0, 1)
    claim(state, 1, 2)
    give(state, 0)
    give(state, 1, grey=1)
    place(state, 1, "country_tile", "white")
    shown = list(state.display)
    state, _ = play(state, 1, "play grey 2.wheat")
    state, _ = play(state, 1, "skip")
    assert legal(state, 0) == ["laydown 1.country_tile"]
    state, _ = run(state, [(0, "laydown 1.country_tile"), (0, f"tile {shown[0]}")])
    assert state.season == 1
    assert sorted(state.discard) == sorted(shown[1:])


def test_tiles_taken_in_the_last_action_are_not_replaced_when_the_remaining_turns_pass() -> None:
    """rulebook p.13 note 2 with p.6 (a player with nothing to lay down takes no action) and ruling K-2: when
    the only final turn left after a tile is taken passes automatically, taking the tile was the season's last
    action, so the display is not refilled and 7 tiles go to the discard pile."""
    state = table(3, active=1)
    for player in state.players:
        player.hidden_fairs = []
    for seat in range(3):
        claim(state, seat, seat + 1)
    lone(state, 1, white=1)
    place(state, 3, "country_tile", "white")
    shown = list(state.display)
    state, _ = run(state, [(1, "play white 3.country_tile +lay"), (1, "skip")])
    state, events = run(state, [(2, "laydown 3.country_tile"), (2, f"tile {shown[0]}")])
    assert any("P0 has no keyple to lay down and passes" in t for t in texts(events))
    assert state.season == 1
    assert len(state.discard) == 7


def test_an_empty_bag_is_refilled_from_the_discard_pile_after_spring() -> None:
    """rulebook p.13 note 2 (ruling K-19): in summer, autumn or winter an emptied bag is refilled at once
    with the discarded country tiles."""
    state = table(3, active=0, season=1)
    state.discard, state.bag = state.bag[:5], []
    discarded = list(state.discard)
    lone(state, 0, green=1)
    shown = list(state.display)
    state, _ = run(state, [(0, "play green 1.country_tile"), (0, f"tile {shown[0]}")])
    new = [t for t in state.display if t not in shown]
    assert len(state.display) == 8 and len(new) == 1 and new[0] in discarded
    assert state.discard == [] and len(state.bag) == 4


def test_an_empty_bag_in_spring_takes_in_the_later_tiles_and_winter_fairs() -> None:
    """rulebook p.13 note 2 (ruling K-19): when spring empties the bag, the set-aside non-spring country
    tiles and winter fairs go into it and the display is filled from them."""
    state = table(3, active=0)
    later = list(state.stacks)
    state.bag = []
    lone(state, 0, green=1)
    shown = list(state.display)
    state, _ = run(state, [(0, "play green 1.country_tile"), (0, f"tile {shown[0]}")])
    new = [t for t in state.display if t not in shown]
    assert len(new) == 1 and new[0] in later
    assert state.stacks == [] and len(state.bag) == len(later) - 1


def test_a_winter_fair_on_display_is_taken_like_a_country_tile() -> None:
    """rulebook p.14, Fair tiles and p.13 note 2: winter fairs in the display are taken from the country tile
    field like any tile, free, and kept beside the board until held."""
    state = table(3, active=0, season=1)
    state.display[0] = "winter-3"
    lone(state, 0, green=1)
    state, _ = run(state, [(0, "play green 1.country_tile"), (0, "tile winter-3")])
    assert state.players[0].winter_fairs == ["winter-3"]
    assert "winter-3" not in state.players[0].tiles and "winter-3" not in state.display


# --- Convert fields (p.12 table, x1 x2 x2 x3) ----------------------------------------------------------

CONVERTS = [("convert_clay", "clay", "brick", "orange"), ("convert_log", "log", "wood", "brown"),
            ("convert_rock", "rock", "stone", "grey")]


@pytest.mark.parametrize(("kind", "raw", "good", "colour"), CONVERTS)
@pytest.mark.parametrize(("matching", "joined", "each"), [(False, False, 1), (True, False, 2), (False, True, 2),
                                                          (True, True, 3)])
def test_convert_field_counts(kind: str, raw: str, good: str, colour: str, matching: bool, joined: bool,
                              each: int) -> None:
    """rulebook p.12 table (x1, x2, x2, x3) and p.10: a convert field turns one raw material into the finished
    good of its type per unit: 1 alone, 2 on a colour match, 2 each with a joiner, 3 each with both."""
    state = table(3, active=0, season=2)
    keyple = colour if matching else "blue"
    lone(state, 0, **{keyple: 1})
    goods(state, 0, **{raw: 3, good: 0})
    if joined:
        give(state, 1, **{keyple: 1})
        goods(state, 1, **{raw: 3, good: 0})
    board = board_showing(state, kind)
    state, _ = play(state, 0, f"play {keyple} {board}.{kind}")
    if joined:
        state, _ = play(state, 1, f"join {keyple}")
    seats = [0, 1] if joined else [0]
    assert sorted(seat for seat, _ in pending(state)) == sorted(seats * each)
    while state.phase == "yields":
        state, _ = play(state, GAME.to_act(state)[0], f"exchange {raw} for {good}")
    for seat in seats:
        assert (have(state, seat, raw), have(state, seat, good)) == (3 - each, each)


def test_a_convert_field_takes_only_its_own_raw_material() -> None:
    """rulebook p.12 (convert X to Y) and ruling K-22: the clay convert field turns clay into bricks; a brick
    could stand in for the clay (p.10) but would come back as the same brick, so that exchange is not offered;
    logs are not turned into bricks."""
    state = table(3, active=0, season=2)
    lone(state, 0, orange=1)
    goods(state, 0, clay=1, log=1, brick=1)
    state, _ = play(state, 0, f"play orange {board_showing(state, 'convert_clay')}.convert_clay")
    assert legal(state, 0) == ["exchange clay for brick", "skip"]
    not_legal(state, 0, "exchange brick for brick", "exchange log for brick", "exchange log for wood")


# --- Trade fields (p.13 note 3, p.10) ------------------------------------------------------------------


def test_example_a_raw_material_from_the_first_trade_feeds_the_second() -> None:
    """rulebook p.10 Notes on resources example and p.13 note 3: with two 1:2 trades and a single clay, the
    player may trade the clay for two logs and then one of those logs for two rocks."""
    state = table(3, active=0)
    lone(state, 0, blue=1)
    goods(state, 0, clay=1, **NO_GOODS)
    state, _ = play(state, 0, "play blue 1.trade_raw")
    assert len(pending(state)) == 2
    assert [a for a in legal(state, 0) if a.startswith("exchange")] == [
        "exchange clay for clay+clay", "exchange clay for clay+log", "exchange clay for clay+rock",
        "exchange clay for log+log", "exchange clay for log+rock", "exchange clay for rock+rock"]
    state, _ = play(state, 0, "exchange clay for log+log")
    assert "exchange log for rock+rock" in legal(state, 0)
    state, _ = play(state, 0, "exchange log for rock+rock")
    assert (have(state, 0, "clay"), have(state, 0, "log"), have(state, 0, "rock")) == (0, 1, 2)


def test_a_finished_good_from_the_first_trade_feeds_the_second() -> None:
    """rulebook p.13 note 3: the finished goods trade works the same way, 1 for 2, feeding a later trade."""
    state = table(3, active=0)
    lone(state, 0, blue=1)
    goods(state, 0, brick=1, wood=0, stone=0)
    state, _ = run(state, [(0, "play blue 2.trade_finished"), (0, "exchange brick for stone+stone"),
                           (0, "exchange stone for wood+wood")])
    assert (have(state, 0, "brick"), have(state, 0, "stone"), have(state, 0, "wood")) == (0, 1, 2)


def test_trade_fields_keep_raw_materials_and_finished_goods_apart_and_take_no_wheat() -> None:
    """rulebook p.13 note 3, p.10 and ruling K-22: the raw trade gives raw materials only and the finished trade
    finished goods only; the raw trade takes a raw material or a finished good standing in for its raw material
    (a brick as clay), the finished trade only a finished good; wheat is traded by neither."""
    state = table(3, active=0)
    lone(state, 0, blue=1)
    goods(state, 0, clay=1, brick=1, wheat=2, wood=0, stone=0)
    state, _ = play(state, 0, "play blue 1.trade_raw")
    options = legal(state, 0)
    assert all(a.startswith(("exchange clay for", "exchange brick for")) for a in options if a != "skip")
    assert all(a.split(" for ")[1].split("+")[0] in ("clay", "log", "rock") for a in options if a != "skip")
    not_legal(state, 0, "exchange brick for brick+brick", "exchange wheat for clay+clay", "exchange clay for brick")
    state = table(3, active=0)
    lone(state, 0, blue=1)
    goods(state, 0, clay=1, brick=1, wheat=2, wood=0, stone=0)
    state, _ = play(state, 0, "play blue 2.trade_finished")
    assert all(a.startswith("exchange brick for") for a in legal(state, 0) if a != "skip")
    not_legal(state, 0, "exchange clay for clay+clay", "exchange wheat for brick+brick", "exchange brick for clay")


# --- Build field (p.13 note 4, p.15) -------------------------------------------------------------------


def builder_table(colour: str = "grey", **resources: int) -> State:
    """Seat 0 alone with one keyple of a colour and exactly these goods (no starting finished goods)."""
    state = table(3, active=0)
    lone(state, 0, **{colour: 1})
    goods(state, 0, **NO_GOODS)
    goods(state, 0, **resources)
    return state


def test_a_build_field_builds_an_owned_tile_at_its_printed_cost() -> None:
    """rulebook p.13 note 4: a build action places a tile the player owns on a plot and the printed cost is
    paid (the cow shed costs a log and a rock in this pack)."""
    state = builder_table(log=1, rock=1)
    state, _ = play(state, 0, "play grey 1.build")
    assert "build cow_shed f1" in legal(state, 0)
    state, events = play(state, 0, "build cow_shed f1")
    assert state.players[0].plots["f1"].tile == "cow_shed"
    assert "cow_shed" not in state.players[0].tiles
    assert (have(state, 0, "log"), have(state, 0, "rock")) == (0, 0)
    assert any("builds the Cow shed on plot f1" in t for t in texts(events))


def test_an_orange_keyple_on_the_orange_build_field_builds_twice() -> None:
    """rulebook p.13 note 4 and p.4, 2a: the build field is orange, so an orange keyple alone gets two
    build actions."""
    state = builder_table("orange", log=2, rock=1, clay=1)
    state, _ = run(state, [(0, "play orange 1.build"), (0, "build cow_shed f1"), (0, "build pig_sty f2")])
    assert {p: plot.tile for p, plot in state.players[0].plots.items()} == {"f1": "cow_shed", "f2": "pig_sty"}


def test_a_build_needs_the_tile_in_hand() -> None:
    """rulebook p.13 note 4: a player must already own the tile (a home tile, or a country tile taken from the
    country tile field); a tile still on display cannot be built."""
    state = builder_table(clay=1, rock=1)
    shown = state.display[0]
    state, _ = play(state, 0, "play grey 1.build")
    assert not any(a.split()[1] == shown for a in legal(state, 0) if a.startswith("build"))
    not_legal(state, 0, "build windmill f1")


def test_farm_tiles_go_on_farm_plots_and_village_tiles_on_village_plots() -> None:
    """rulebook p.15 Building a building tile and p.10: farm tiles only in the farm (f1-f8), village tiles
    only in the village (v1-v12)."""
    state = builder_table(log=1, rock=1, clay=1, wood=1)
    state, _ = play(state, 0, "play grey 1.build")
    options = legal(state, 0)
    assert {a.split()[2] for a in options if a.startswith("build cow_shed")} == {f"f{i}" for i in range(1, 9)}
    assert {a.split()[2] for a in options if a.startswith("build brickmaker")} == {f"v{i}" for i in range(1, 13)}
    not_legal(state, 0, "build cow_shed v1", "build brickmaker f1")


def test_a_build_the_player_cannot_pay_for_is_not_offered() -> None:
    """rulebook p.13 note 4: the printed cost must be paid; with only a log the cow shed (log and rock) cannot
    be built, and the unit is lost when nothing at all can be built."""
    state = builder_table(log=1)
    state, events = play(state, 0, "play grey 1.build")
    assert state.phase == "turn" and GAME.to_act(state) == [1]
    assert state.players[0].plots == {}
    assert any("is lost" in t for t in texts(events))


def test_overbuilding_keeps_the_old_tile_underneath_at_the_new_tiles_cost() -> None:
    """rulebook p.15 Overbuilding: a built tile may be built over at the new tile's ordinary cost; the old
    tile stays underneath and no longer counts (here the cow shed no longer houses cows)."""
    state = builder_table(clay=1, log=1)
    build(state, 0, "f1", "cow_shed")
    state, _ = run(state, [(0, "play grey 1.build"), (0, "build pig_sty f1")])
    plot = state.players[0].plots["f1"]
    assert (plot.tile, plot.under, plot.upgraded) == ("pig_sty", "cow_shed", False)
    assert (have(state, 0, "clay"), have(state, 0, "log")) == (0, 0)
    assert housing_tiles(state.players[0]) == [("pig",)]


def test_a_plot_is_overbuilt_only_once() -> None:
    """rulebook p.15 Overbuilding: each building tile can only be overbuilt once, so a plot already holding
    two tiles takes no third."""
    state = builder_table(clay=2, log=2, rock=1, wheat=1)
    build(state, 0, "f1", "pig_sty")
    state.players[0].plots["f1"] = replace(state.players[0].plots["f1"], under="cow_shed")
    state, _ = play(state, 0, "play grey 1.build")
    options = legal(state, 0)
    assert not any(a.startswith("build") and a.split()[2] == "f1" for a in options)
    assert "build paddock f2" in options


def test_a_keyple_on_an_overbuilt_tile_stays_on_the_new_tile() -> None:
    """rulebook p.15 Building tiles continued: a tile with a keyple on it may be overbuilt; the keyple is put
    back on the new tile, and later works it."""
    state = builder_table(clay=1, log=1)
    build(state, 0, "f1", "cow_shed", "green")
    state, _ = run(state, [(0, "play grey 1.build"), (0, "build pig_sty f1")])
    assert [k.colour for k in state.players[0].plot_keyples["f1"]] == ["green"]
    assert state.players[0].plots["f1"].tile == "pig_sty"


# --- Discount build field (p.12, p.13 note 4; ruling K-20) ---------------------------------------------


def test_a_discount_build_waives_one_named_item() -> None:
    """rulebook p.12 (discount build) and p.13 note 4, ruling K-20: the build costs one item less, the player
    naming the item left out; the cow shed is built for its log alone."""
    state = builder_table(log=1)
    state, _ = play(state, 0, "play grey 1.discount_build")
    options = legal(state, 0)
    assert "build cow_shed f1 -rock" in options
    not_legal(state, 0, "build cow_shed f1", "build cow_shed f1 -log", "build cow_shed f1 -clay")
    state, _ = play(state, 0, "build cow_shed f1 -rock")
    assert state.players[0].plots["f1"].tile == "cow_shed" and have(state, 0, "log") == 0


def test_a_discount_never_brings_a_cost_below_one_item() -> None:
    """rulebook p.13 note 4 (ruling K-20): a discounted build always costs at least one resource, so a tile
    costing a single item (the shipping agent: one wood) still costs it."""
    state = builder_table(wood=1)
    state.players[0].tiles.append("shipping_agent")
    state, _ = play(state, 0, "play grey 1.discount_build")
    assert "build shipping_agent v1" in legal(state, 0)
    not_legal(state, 0, "build shipping_agent v1 -wood")
    state, _ = play(state, 0, "build shipping_agent v1")
    assert have(state, 0, "wood") == 0
    poor = builder_table()
    poor.players[0].tiles.append("shipping_agent")
    poor, _ = play(poor, 0, "play grey 1.discount_build")
    assert poor.phase == "turn" and poor.players[0].plots == {}


@pytest.mark.parametrize(("colour", "joined", "each"), [("orange", False, 1), ("white", False, 1),
                                                         ("orange", True, 2), ("white", True, 2)])
def test_discount_build_counts(colour: str, joined: bool, each: int) -> None:
    """rulebook p.12 table (x1 x1 x2 x2): the discount build field has no border colour, so a keyple gets one
    action alone and two each with a joiner, whatever its colour."""
    state = builder_table(colour, log=2, rock=2)
    if joined:
        give(state, 1, **{colour: 1})
    state, _ = play(state, 0, f"play {colour} 1.discount_build")
    if joined:
        state, _ = play(state, 1, f"join {colour}")
    assert [seat for seat, _ in pending(state)].count(0) == each


# --- Upgrade field (p.13 note 5, p.10) -----------------------------------------------------------------


def test_a_farm_tile_upgrades_for_a_raw_material_or_wheat() -> None:
    """rulebook p.13 note 5 and p.10: upgrading a farm tile costs one raw material or wheat; the player picks
    which when both are at hand, and the tile turns to its upgraded side."""
    state = builder_table("orange", clay=1, wheat=1)
    build(state, 0, "f1", "cow_shed")
    state, _ = run(state, [(0, "play orange 2.upgrade"), (0, "upgrade f1")])
    assert state.phase == "pay" and legal(state, 0) == ["pay clay", "pay wheat"]
    state, _ = play(state, 0, "pay wheat")
    assert state.players[0].plots["f1"].upgraded
    assert (have(state, 0, "clay"), have(state, 0, "wheat")) == (1, 0)


def test_a_village_tile_upgrades_for_a_finished_good_or_wheat_not_a_raw_material() -> None:
    """rulebook p.13 note 5 and p.10: upgrading a village tile costs one finished good or wheat; a raw material
    does not pay it."""
    state = builder_table("orange", clay=2)
    build(state, 0, "v1", "brickmaker")
    build(state, 0, "f1", "cow_shed")
    state, _ = play(state, 0, "play orange 2.upgrade")
    assert legal(state, 0) == ["upgrade f1", "skip"]
    for payment in ({"wheat": 1}, {"stone": 1}):
        state = builder_table("orange", **payment)
        build(state, 0, "v1", "brickmaker")
        state, _ = run(state, [(0, "play orange 2.upgrade"), (0, "upgrade v1")])
        assert state.players[0].plots["v1"].upgraded and not any(have(state, 0, r) for r in payment)


def test_an_upgraded_tile_is_not_upgraded_again_and_a_keyple_on_a_tile_does_not_stop_it() -> None:
    """rulebook p.13 note 5: a built tile can be upgraded once, even with a keyple standing on it."""
    state = builder_table(wheat=2)
    build(state, 0, "f1", "cow_shed", "green")
    build(state, 0, "f2", "pig_sty")
    state.players[0].plots["f2"] = replace(state.players[0].plots["f2"], upgraded=True)
    state, _ = play(state, 0, "play grey 2.upgrade")
    assert len(pending(state)) == 2
    assert legal(state, 0) == ["upgrade f1", "skip"]
    state, _ = play(state, 0, "upgrade f1")
    assert state.players[0].plots["f1"].upgraded
    assert [k.colour for k in state.players[0].plot_keyples["f1"]] == ["green"]


# --- Boats (p.13-14 note 6; ruling K-10) ---------------------------------------------------------------

BOATS = ["boat-1", "boat-2", "boat-3", "boat-4"]  # spring sides: clay/sheep, log/pig, rock/cow, wheat/horse


def boat_table(colour: str = "blue", **resources: int) -> State:
    """Seat 0 alone with one keyple and exactly these goods (no starting finished goods, which a boat showing
    their raw material would also buy); this season's boats are boats 1-4."""
    state = table(3, active=0)
    state.boats = list(BOATS)
    lone(state, 0, **{colour: 1})
    goods(state, 0, **NO_GOODS)
    goods(state, 0, **resources)
    return state


def test_a_boat_is_chosen_from_those_not_yet_on_a_river() -> None:
    """rulebook p.13 note 6: a keyple going onto an empty river brings a boat of the player's choice from those
    still free; a boat already on another river is not offered."""
    state = boat_table()
    state.boards[0].boat = "boat-2"
    place(state, 1, "river", "grey")
    rivers = [a for a in legal(state, 0) if "2.river" in a]
    assert rivers == ["play blue 2.river boat-1", "play blue 2.river boat-3", "play blue 2.river boat-4"]
    not_legal(state, 0, "play blue 2.river boat-2", "play blue 2.river boat-5", "play blue 2.river")


@pytest.mark.parametrize(("colour", "joined", "each"), [("grey", False, 1), ("blue", False, 2), ("white", False, 2),
                                                         ("grey", True, 2), ("blue", True, 3), ("white", True, 3)])
def test_boat_action_counts(colour: str, joined: bool, each: int) -> None:
    """rulebook p.13 note 6: one boat action alone, two for a light-blue or white keyple on the light-blue
    river, and one more each when a joiner comes."""
    state = boat_table(colour)
    if joined:
        give(state, 1, **{colour: 1})
    state, _ = play(state, 0, f"play {colour} 1.river boat-1")
    if joined:
        state, _ = play(state, 1, f"join {colour}")
    units = pending(state)
    assert [seat for seat, _ in units].count(0) == each
    assert [seat for seat, _ in units].count(1) == (each if joined else 0)
    assert all(options == ("clay", "sheep") for _, options in units)


def test_a_boat_action_takes_a_shown_type_or_sells_one_for_two_points() -> None:
    """rulebook p.14 note 6: each boat action either takes a resource of a type the boat shows, or sells one
    such resource back for 2 points on the shipping track at once."""
    state = boat_table(sheep=1)
    state, _ = play(state, 0, "play blue 1.river boat-1")
    assert legal(state, 0) == ["take clay", "take sheep", "sell sheep", "skip"]
    state, events = play(state, 0, "sell sheep")
    assert state.players[0].shipping == 2 and have(state, 0, "sheep") == 0
    assert any("for 2 points" in t for t in texts(events))
    state, _ = play(state, 0, "take clay")
    assert have(state, 0, "clay") == 1


def test_a_boat_buys_only_the_types_it_shows_and_only_what_the_player_has() -> None:
    """rulebook p.14 note 6: a boat takes back only resources of its own types, and only ones the player
    holds."""
    state = boat_table(pig=2, wood=1)
    state, _ = play(state, 0, "play blue 1.river boat-1")
    not_legal(state, 0, "sell pig", "sell wood", "sell clay", "sell sheep", "take pig")


def test_a_type_taken_from_a_boat_cannot_be_sold_in_the_same_turn_and_vice_versa() -> None:
    """rulebook p.14 note 6 (ruling K-10): within one turn a player never both takes and sells the same type."""
    state = boat_table(clay=1, sheep=1)
    state, _ = play(state, 0, "play blue 1.river boat-1")
    state, _ = play(state, 0, "take clay")
    assert legal(state, 0) == ["take clay", "take sheep", "sell sheep", "skip"]
    state = boat_table(clay=1, sheep=1)
    state, _ = run(state, [(0, "play blue 1.river boat-1"), (0, "sell clay")])
    assert legal(state, 0) == ["take sheep", "sell sheep", "skip"]


def test_the_rule_holds_across_both_keyples_of_one_turn() -> None:
    """rulebook p.6 example (i) and ruling K-10: a light-blue keyple joining an existing light-blue keyple on
    a boat, which is laid down, gives three actions; the player may take one type and sell the other, but
    a type taken by one action is never sold by another in that turn."""
    state = boat_table(sheep=1)
    state.boards[0].boat = "boat-1"
    place(state, 1, "river", "blue")
    state, _ = play(state, 0, "play blue 1.river +lay")
    assert len(pending(state)) == 3
    state, _ = run(state, [(0, "take clay"), (0, "sell sheep")])
    assert legal(state, 0) == ["take clay", "skip"]
    state, _ = play(state, 0, "take clay")
    assert (have(state, 0, "clay"), have(state, 0, "sheep"), state.players[0].shipping) == (2, 0, 2)


def test_the_take_and_sell_memory_ends_with_the_turn() -> None:
    """rulebook p.14 note 6 (ruling K-10): the restriction is for one turn; on a later turn a type taken from
    the boat may be sold to it."""
    state = boat_table()
    give(state, 0, blue=2)
    state, _ = run(state, [(0, "play blue 1.river boat-1"), (0, "take clay"), (0, "take clay"),
                           (1, "keyper 2"), (2, "keyper 3")])
    assert GAME.to_act(state) == [0] and have(state, 0, "clay") == 2
    state, _ = play(state, 0, "play blue 1.river +lay")
    assert "sell clay" in legal(state, 0)
    state, _ = play(state, 0, "sell clay")
    assert state.players[0].shipping == 2


def test_only_boat_sales_move_the_shipping_track() -> None:
    """rulebook p.3 set-up note 10 and p.14 note 6: the shipping score starts at zero, and a sale to a boat is
    the only thing that records points during the game (taking from a boat or working a field scores none)."""
    state = boat_table(sheep=1)
    assert all(p.shipping == 0 for p in state.players)
    state, _ = run(state, [(0, "play blue 1.river boat-1"), (0, "take clay")])
    assert state.players[0].shipping == 0
    state, _ = play(state, 0, "sell sheep")
    assert state.players[0].shipping == 2


def test_every_unit_is_optional() -> None:
    """rulebook p.4, A player's turn (ruling K-8): taking any action or resource is always optional; a skip gives
    up the rest of the player's units from that placement and the turn moves on."""
    state = builder_table("orange", log=1, rock=1)
    state, events = run(state, [(0, "play orange 1.build"), (0, "skip")])
    assert state.players[0].plots == {} and (have(state, 0, "log"), have(state, 0, "rock")) == (1, 1)
    assert GAME.to_act(state) == [1] and any("skips 2 units" in t for t in texts(events))


# --- Two players building together (p.15) ----------------------------------------------------------------


def test_two_players_building_together_decide_one_building_at_a_time_active_player_first() -> None:
    """rulebook p.15 Upgrading building tiles: when a joiner joins a build, the players decide one building at
    a time, starting with the player whose turn it is and then alternating; each build is paid before the
    other player decides."""
    state = builder_table("orange", log=2, rock=1, clay=1)
    give(state, 1, orange=1)
    goods(state, 1, **NO_GOODS)
    goods(state, 1, log=2, clay=1, rock=1)
    state, _ = run(state, [(0, "play orange 1.build"), (1, "join orange")])
    assert [seat for seat, _ in pending(state)] == [0, 1, 0, 1, 0, 1]
    state, _ = play(state, 0, "build cow_shed f1")
    assert GAME.to_act(state) == [1] and state.players[0].plots["f1"].tile == "cow_shed"
    state, _ = play(state, 1, "build pig_sty f1")
    assert GAME.to_act(state) == [0] and state.players[1].plots["f1"].tile == "pig_sty"
    state, _ = play(state, 0, "skip")
    assert GAME.to_act(state) == [1]
    state, _ = play(state, 1, "build cow_shed f2")
    assert state.players[1].plots["f2"].tile == "cow_shed"


def test_two_players_upgrading_together_alternate_the_same_way() -> None:
    """rulebook p.15: two players upgrading together (one having joined the other) also alternate, active
    player first."""
    state = builder_table("grey", wheat=2)
    build(state, 0, "f1", "cow_shed")
    build(state, 0, "f2", "pig_sty")
    give(state, 1, grey=1)
    goods(state, 1, **NO_GOODS)
    goods(state, 1, wheat=1)
    build(state, 1, "v1", "brickmaker")
    state, _ = run(state, [(0, "play grey 2.upgrade"), (1, "join grey")])
    assert [seat for seat, _ in pending(state)] == [0, 1, 0, 1, 0, 1]
    state, _ = run(state, [(0, "upgrade f1"), (1, "upgrade v1"), (0, "upgrade f2")])
    assert state.players[0].plots["f1"].upgraded and state.players[0].plots["f2"].upgraded
    assert state.players[1].plots["v1"].upgraded


# --- Refusing economy actions through apply --------------------------------------------------------------


@pytest.mark.parametrize("text", ["build cow_shed v1", "upgrade f1", "exchange clay for brick", "pay wheat"])
def test_an_illegal_economy_action_is_refused_with_a_reason(text: str) -> None:
    """Engine contract (docs/notation.md, Errors) with rulebook p.13 notes 4-5: a build, upgrade, exchange or
    payment the rules forbid raises IllegalAction with a reason, and leaves the game unchanged."""
    state = builder_table(log=1, rock=1)
    state, _ = play(state, 0, "play grey 1.build")
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as info:
        play(state, 0, text)
    assert info.value.reason and GAME.to_json(state) == before


def test_every_season_shows_the_fields_these_tests_use() -> None:
    """rulebook p.12 table (availability) with this pack's displays: the boards of a 3-player spring table show
    build, discount build, upgrade and both trades; the autumn boards show the convert and gem fields."""
    spring = table(3, active=0)
    for kind in ("build", "discount_build", "upgrade", "trade_raw", "trade_finished", "river", "country_tile"):
        board_showing(spring, kind)
    autumn = table(3, active=0, season=2)
    assert SEASONS[autumn.season] == "autumn"
    for kind in ("convert_clay", "convert_log", "convert_rock", *GEMS):
        board_showing(autumn, kind)
