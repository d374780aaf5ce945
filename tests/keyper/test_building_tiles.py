"""Building tiles in play: what each tile with an action or effect yields and refuses, on both sides, and the
animals each farm tile houses (rulebook pp.15-19, with p.5-6 examples and p.8 note 4; rulings K-22 to K-27).

Positions are arranged with the scenario helpers; every move then goes through GAME.parse and GAME.apply. A
refusal is checked against the seat's legal actions.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations_with_replacement

import pytest

from engine.keyper import GAME
from engine.keyper.components import default
from engine.keyper.state import State
from engine.keyper.vocab import ANIMALS, FINISHED, GEMS, RAW
from tests.keyper.scenario import (
    build,
    claim_all,
    end_season,
    give,
    goods,
    have,
    legal,
    pending,
    place,
    play,
    run,
    table,
    texts,
)

COMPS = default()
NO_GOODS = {"brick": 0, "wood": 0, "stone": 0}
WILD = ("chicken", "deer", "goat", "boar")
KEY_MARKET = RAW + FINISHED + GEMS + ("wheat",)


def lone(state: State, seat: int = 0, **colours: int) -> State:
    """The seat holds only these keyples and every other seat holds none, so nobody is invited to join."""
    for other in range(len(state.players)):
        give(state, other)
    return give(state, seat, **colours)


def plot_for(tile: str) -> str:
    """The first plot of the tile's own area."""
    return "f1" if COMPS.tiles[tile].area == "farm" else "v1"


def tile_table(tile: str, upgraded: bool = False, *on_tile: str, **resources: int) -> State:
    """Seat 0 to play, holding two white keyples and exactly these goods, with the tile built on the first
    plot of its area (optionally upgraded, optionally with keyples standing on it)."""
    state = table(3, active=0)
    lone(state, 0, white=2)
    goods(state, 0, **NO_GOODS)
    goods(state, 0, **resources)
    build(state, 0, plot_for(tile), tile, *on_tile)
    state.players[0].plots[plot_for(tile)] = replace(state.players[0].plots[plot_for(tile)], upgraded=upgraded)
    return state


def exchanges(state: State, seat: int = 0) -> set[str]:
    """The exchanges among the seat's legal actions."""
    return {a for a in legal(state, seat) if a.startswith("exchange")}


def ex(gives: list[tuple[str, ...]], gets: list[tuple[str, ...]]) -> set[str]:
    """Exchange notations for every give and get (a get equal to its give is left out)."""
    return {f"exchange {'+'.join(sorted(g))} for {'+'.join(sorted(t))}" for g in gives for t in gets
            if sorted(g) != sorted(t)}


def plot_units(state: State) -> list[tuple[int, str]]:
    """The queued units in order as (seat, the plot they were earned on)."""
    return [(seat, options[0]) for seat, options in pending(state)]


def each(items: tuple[str, ...], n: int) -> list[tuple[str, ...]]:
    """Every choice of n items, repeats allowed, order not counted."""
    return list(combinations_with_replacement(items, n))


# --- Acquiring tiles (p.15, p.3 note 11) ----------------------------------------------------------------


def test_each_player_starts_with_the_same_twelve_home_tiles_and_no_country_tiles() -> None:
    """rulebook p.3 set-up note 11 and p.15, Acquiring building tiles: every player holds the same 12 home
    tiles, 6 farm and 6 village, unbuilt; country tiles come only from the country tile field."""
    state = GAME.setup(["A", "B", "C", "D"], 3)
    home = sorted(t.id for t in COMPS.tiles.values() if t.origin == "home")
    for player in state.players:
        assert sorted(player.tiles) == home and player.plots == {}
    farms = [t for t in home if COMPS.tiles[t].area == "farm"]
    assert len(home) == 12 and len(farms) == 6


# --- Activation: a keyple on the tile (p.15, p.5 2c) ----------------------------------------------------

ACTIVATED = sorted(t.id for t in COMPS.tiles.values() if t.activated)


def test_the_tiles_that_need_a_keyple_are_the_ones_with_actions() -> None:
    """rulebook pp.15-19 (the keyple icon after the name): the converters, builder, farm labourer, trading
    post, windmill and key market need a keyple; housing and scoring tiles and the shipping tiles do not."""
    assert ACTIVATED == sorted(["alchemist", "brickmaker", "builder", "carpenter", "copse", "farm_labourer",
                                "gem_dealer", "hop_field", "jewel_cutter", "key_market", "livestock_market",
                                "scrapyard", "stonemason", "trading_post", "windmill"])


@pytest.mark.parametrize("tile", ACTIVATED)
def test_a_keyple_placed_on_a_tile_gives_one_action_and_laying_an_existing_one_down_gives_two(tile: str) -> None:
    """rulebook p.4, 2a and p.5, 2c: plots have no border colour, so a keyple played onto one's own tile gives
    one action, and played beside an existing keyple that is laid down gives two."""
    plot = plot_for(tile)
    state = tile_table(tile, False, wheat=2)
    state, _ = play(state, 0, f"play white {plot}")
    assert plot_units(state) == [(0, plot)]
    state = tile_table(tile, False, "white", wheat=2)
    state, _ = play(state, 0, f"play white {plot} +lay")
    assert plot_units(state) == [(0, plot)] * 2
    state = tile_table(tile, False, "white", wheat=2)
    state, _ = play(state, 0, f"play white {plot}")
    assert plot_units(state) == [(0, plot)]


def test_laying_down_keyples_on_ones_own_tile_gives_one_or_two_actions() -> None:
    """rulebook p.6, 3 and p.13 note 4 (v): a keyple standing on one's tile may be laid down later to work the
    tile: one action for one keyple, two when both standing keyples are laid down."""
    for count, units in ((1, 1), (2, 2)):
        state = tile_table("brickmaker", False, "white", "white", clay=3)
        claim_all(state)
        give(state, 1, grey=1)
        give(state, 0)
        state, _ = play(state, 0, "laydown v1" + (" x2" if count == 2 else ""))
        assert plot_units(state) == [(0, "v1")] * units


def test_a_keyple_on_a_tile_without_an_action_can_only_upgrade_it() -> None:
    """rulebook p.13 note 5 (iv): a keyple on a tile that has no action of its own (here the cow shed) may
    still upgrade that tile, and nothing else."""
    state = tile_table("cow_shed", False, clay=1)
    state, _ = play(state, 0, "play white f1")
    assert legal(state, 0) == ["upgrade f1", "skip"]
    state, _ = play(state, 0, "upgrade f1")
    assert state.players[0].plots["f1"].upgraded and have(state, 0, "clay") == 0


def test_example_the_laid_down_keyple_upgrades_and_the_new_one_works_the_upgraded_side() -> None:
    """rulebook p.6, 2c example (ii): the keyple laid down upgrades the tile it stands on, and the keyple just
    placed then takes the upgraded tile's action (the brickmaker now makes two bricks from a clay)."""
    state = tile_table("brickmaker", False, "white", clay=1, wheat=1)
    state, _ = run(state, [(0, "play white v1 +lay"), (0, "upgrade v1")])
    assert state.players[0].plots["v1"].upgraded
    assert exchanges(state) == {"exchange clay for brick+brick"}
    state, _ = play(state, 0, "exchange clay for brick+brick")
    assert (have(state, 0, "clay"), have(state, 0, "brick")) == (0, 2)


# --- Converting tiles, both sides (pp.15-19) -------------------------------------------------------------

CONVERTERS = [
    # tile, upgraded, goods, what it offers, a refused exchange
    ("brickmaker", False, {"clay": 1, "log": 1, "brick": 1}, ex([("clay",)], [("brick",)]),
     "exchange brick for brick"),
    ("brickmaker", True, {"clay": 1, "log": 1}, ex([("clay",)], [("brick", "brick")]), "exchange clay for brick"),
    ("carpenter", False, {"log": 1, "clay": 1, "wood": 1}, ex([("log",)], [("wood",)]), "exchange wood for wood"),
    ("carpenter", True, {"log": 1, "clay": 1}, ex([("log",)], [("wood", "wood")]), "exchange log for wood"),
    ("stonemason", False, {"rock": 1, "log": 1, "stone": 1}, ex([("rock",)], [("stone",)]),
     "exchange stone for stone"),
    ("stonemason", True, {"rock": 1, "log": 1}, ex([("rock",)], [("stone", "stone")]), "exchange rock for stone"),
    ("scrapyard", False, {"clay": 1, "log": 1}, ex([("clay", "log")], each(FINISHED, 1)), "exchange clay for brick"),
    ("scrapyard", True, {"clay": 1, "log": 1}, ex([("clay",), ("log",)], each(FINISHED, 1)),
     "exchange clay+log for brick"),
    ("alchemist", False, {"clay": 1, "rock": 1}, ex([("clay", "rock")], each(GEMS, 1)), "exchange clay for ruby"),
    ("alchemist", True, {"clay": 1, "rock": 1}, ex([("clay",), ("rock",)], each(GEMS, 1)),
     "exchange clay+rock for ruby"),
    ("jewel_cutter", False, {"stone": 1, "rock": 1}, ex([("stone",)], each(GEMS, 1)), "exchange rock for ruby"),
    ("jewel_cutter", True, {"stone": 1, "rock": 1}, ex([("stone",)], each(GEMS, 2)), "exchange stone for ruby"),
    ("gem_dealer", False, {"emerald": 1, "clay": 1}, ex([("emerald",)], each(GEMS, 1)),
     "exchange emerald for emerald+gold"),
    ("gem_dealer", True, {"emerald": 1, "clay": 1}, ex([("emerald",)], each(GEMS, 2)), "exchange emerald for gold"),
    ("windmill", False, {"clay": 1, "brick": 1, "wheat": 1}, ex([("clay",), ("brick",)], [("wheat", "wheat")]),
     "exchange wheat for wheat+wheat"),
    ("windmill", True, {"clay": 1, "brick": 1, "wheat": 1}, ex([("clay",), ("brick",)], [("wheat", "wheat")]),
     "exchange wheat for wheat+wheat"),
    ("hop_field", False, {"wheat": 1, "clay": 1}, ex([("wheat",)], each(ANIMALS, 1)), "exchange clay for cow"),
    ("hop_field", True, {"wheat": 1, "clay": 1}, ex([("wheat",)], each(ANIMALS, 2)), "exchange wheat for cow"),
    ("livestock_market", False, {"cow": 1, "wheat": 1}, ex([("cow",)], each(ANIMALS, 1)),
     "exchange wheat for pig"),
    ("livestock_market", True, {"cow": 1, "wheat": 1}, ex([("cow",)], each(ANIMALS, 2)), "exchange cow for pig"),
    ("copse", False, {"wood": 1, "log": 1}, ex([("wood",)], each(WILD, 1)), "exchange wood for cow"),
    ("copse", True, {"wood": 1, "log": 1}, ex([("wood",)], each(WILD, 2)), "exchange wood for pig+pig"),
    ("key_market", False, {"clay": 1, "emerald": 1, "pig": 1}, ex([("clay", "emerald")], each(KEY_MARKET, 1)),
     "exchange clay+pig for wheat"),
    ("key_market", True, {"clay": 1, "emerald": 1, "pig": 1}, ex([("clay",), ("emerald",)], each(KEY_MARKET, 1)),
     "exchange pig for wheat"),
]


@pytest.mark.parametrize(("tile", "upgraded", "resources", "offered", "refused"), CONVERTERS,
                         ids=[f"{c[0]}-{'up' if c[1] else 'plain'}" for c in CONVERTERS])
def test_a_converting_tile_offers_exactly_its_exchanges(tile: str, upgraded: bool, resources: dict[str, int],
                                                        offered: set[str], refused: str) -> None:
    """rulebook pp.15-19, each converting tile's text: brickmaker, carpenter and stonemason turn a raw material
    into 1 (upgraded 2) of its finished good; scrapyard 2 raw (upgraded 1) into a finished good; alchemist 2 raw
    (upgraded 1) into a gem; jewel cutter a stone into 1 (2) gems; gem dealer a gem into 1 other (2 of any)
    gems; windmill a raw material into 2 wheat; hop field a wheat into 1 (2) animals; livestock market an animal
    into 1 other (2 of any) animals; copse a wood into 1 (2) of chicken, deer, goat, boar; key market 2 (1) of
    raw, finished, gem or wheat into 1 of those. Where a raw material is asked for, a finished good of its type
    may be handed in (p.10, ruling K-22): the windmill grinds a brick as clay; a brick handed in for a brick
    changes nothing and is not offered."""
    plot = plot_for(tile)
    state = tile_table(tile, upgraded, **resources)
    state, _ = play(state, 0, f"play white {plot}")
    assert exchanges(state) == offered
    assert refused not in legal(state, 0)
    choice = sorted(offered)[0]
    gave, got = choice.removeprefix("exchange ").split(" for ")
    before = {r: have(state, 0, r) for r in set(gave.split("+")) | set(got.split("+"))}
    state, _ = play(state, 0, choice)
    for r in gave.split("+"):
        before[r] -= 1
    for r in got.split("+"):
        before[r] += 1
    assert {r: have(state, 0, r) for r in before} == before


def test_the_upgraded_windmill_still_turns_a_raw_material_into_two_wheat() -> None:
    """rulebook p.17, Windmill: the upgraded side adds end-game points for wheat kept on it; its text does not
    take the conversion away, so Keywood keeps it (an ambiguity of the rulebook text)."""
    state = tile_table("windmill", True, rock=1)
    state, _ = run(state, [(0, "play white f1"), (0, "exchange rock for wheat+wheat")])
    assert (have(state, 0, "rock"), have(state, 0, "wheat")) == (0, 2)


def test_a_converter_needs_a_keyple_each_time() -> None:
    """rulebook p.15 (tile lay out): a tile with the keyple icon acts only through a keyple on it; holding the
    resources alone does nothing, and one keyple gives one conversion."""
    state = tile_table("brickmaker", False, clay=3)
    assert state.phase == "turn" and not exchanges(state)
    state, _ = run(state, [(0, "play white v1"), (0, "exchange clay for brick")])
    assert (have(state, 0, "clay"), have(state, 0, "brick")) == (2, 1)
    assert state.phase == "turn" and GAME.to_act(state) == [1]


# --- Trading post (p.17; ruling K-26) ---------------------------------------------------------------------


def test_the_trading_post_trades_one_raw_material_or_one_finished_good_for_two() -> None:
    """rulebook p.17, Trading post: the plain side exchanges 1 raw material for 2 of any type, or 1 finished
    good for 2 of any type: one trade per action, and never wheat. The brick may also be traded as clay for 2
    raw materials (p.10, ruling K-22)."""
    state = tile_table("trading_post", False, clay=1, brick=1, wheat=1)
    state, _ = play(state, 0, "play white v1")
    assert exchanges(state) == (ex([("clay",), ("brick",)], each(RAW, 2))
                                | ex([("brick",)], each(FINISHED, 2)))
    assert not any("wheat" in a.split(" for ")[0] for a in exchanges(state))
    state, _ = play(state, 0, "exchange clay for log+rock")
    assert state.phase == "turn" and GAME.to_act(state) == [1]
    assert (have(state, 0, "clay"), have(state, 0, "log"), have(state, 0, "rock"), have(state, 0, "brick")) == (
        0, 1, 1, 1)


def test_the_upgraded_trading_post_makes_both_trades_in_one_action() -> None:
    """rulebook p.17, Trading post (ruling K-26): the upgraded side exchanges raw materials and finished goods:
    after one trade the same action makes the other kind (which, for the raw trade, also takes a finished good
    as its raw material: p.10, ruling K-22)."""
    state = tile_table("trading_post", True, clay=1, brick=1)
    state, _ = run(state, [(0, "play white v1"), (0, "exchange brick for wood+wood")])
    assert exchanges(state) == ex([("clay",), ("wood",)], each(RAW, 2))
    state, _ = play(state, 0, "exchange clay for rock+rock")
    assert (have(state, 0, "wood"), have(state, 0, "rock")) == (2, 2)
    assert state.phase == "turn" and GAME.to_act(state) == [1]


def test_example_a_trade_feeds_the_next_on_the_trading_post() -> None:
    """rulebook p.10, Notes on resources example: using the trading post twice (existing keyple laid down) with a
    single clay, a log from the first trade pays for the second."""
    state = tile_table("trading_post", False, "white", clay=1)
    state, _ = run(state, [(0, "play white v1 +lay"), (0, "exchange clay for log+log"),
                           (0, "exchange log for rock+rock")])
    assert (have(state, 0, "clay"), have(state, 0, "log"), have(state, 0, "rock")) == (0, 1, 2)


def test_declining_the_second_trade_keeps_the_next_action() -> None:
    """rulebook p.4 (every action is optional) and p.17, Trading post (ruling K-26: after one trade the same
    action makes the other kind of trade or skips it): declining the finished-goods half of the first action
    must not cost the player the second action earned on the tile."""
    state = tile_table("trading_post", True, "white", clay=1, brick=1)
    state, _ = run(state, [(0, "play white v1 +lay"), (0, "exchange clay for log+log"), (0, "skip")])
    assert plot_units(state) == [(0, "v1")]
    assert "exchange log for rock+rock" in legal(state, 0)


# --- Builder (p.16; ruling K-24) ---------------------------------------------------------------------------


def test_the_builder_builds_any_tile_for_one_finished_good() -> None:
    """rulebook p.16, Builder: a build through the builder costs one finished good, whatever the tile's printed
    cost, farm or village."""
    state = tile_table("builder", False, brick=1)
    state, _ = play(state, 0, "play white v1")
    options = legal(state, 0)
    assert {"build cow_shed f1", "build drainage v2", "build pavements v12"} <= set(options)
    state, _ = play(state, 0, "build drainage v2")
    assert state.players[0].plots["v2"].tile == "drainage" and have(state, 0, "brick") == 0


def test_the_plain_builder_takes_no_wheat_and_upgrades_nothing_else() -> None:
    """rulebook p.16, Builder (ruling K-24): only the upgraded builder accepts wheat and upgrades tiles; the
    plain builder may still be upgraded itself at the usual village cost (K-23)."""
    state = tile_table("builder", False, wheat=1)
    build(state, 0, "f1", "cow_shed")
    state, _ = play(state, 0, "play white v1")
    assert legal(state, 0) == ["upgrade v1", "skip"]


def test_the_upgraded_builder_builds_or_upgrades_for_a_finished_good_or_wheat() -> None:
    """rulebook p.16, Builder: the upgraded builder builds or upgrades any tile for one finished good or
    wheat."""
    state = tile_table("builder", True, wheat=1)
    build(state, 0, "f1", "cow_shed")
    state, _ = play(state, 0, "play white v1")
    options = legal(state, 0)
    assert {"build drainage v2", "build pig_sty f2", "upgrade f1"} <= set(options)
    state, _ = play(state, 0, "upgrade f1")
    assert state.players[0].plots["f1"].upgraded and have(state, 0, "wheat") == 0


def test_example_upgraded_builder_existing_keyple_builds_and_the_next_upgrades_the_same_tile() -> None:
    """rulebook p.6, 2c example (iii): on the upgraded builder, the existing keyple laid down builds a tile
    and the keyple just placed upgrades that same tile."""
    state = tile_table("builder", True, "white", wheat=1, brick=1)
    state, _ = play(state, 0, "play white v1 +lay")
    assert len(pending(state)) == 2
    state, _ = run(state, [(0, "build stonemason v2"), (0, "pay wheat"), (0, "upgrade v2")])
    plot = state.players[0].plots["v2"]
    assert (plot.tile, plot.upgraded) == ("stonemason", True)
    assert (have(state, 0, "wheat"), have(state, 0, "brick")) == (0, 0)


# --- Farm labourer (p.16) ------------------------------------------------------------------------------------


def test_the_farm_labourer_builds_farm_tiles_free_and_nothing_else() -> None:
    """rulebook p.16, Farm labourer: any farm tile is built at no cost; village tiles are not, and the plain
    side upgrades nothing but itself."""
    state = tile_table("farm_labourer", False)
    build(state, 0, "f2", "cow_shed")
    state, _ = play(state, 0, "play white f1")
    options = legal(state, 0)
    assert "build stable f3" in options
    assert not any(a.startswith("build") and a.split()[2].startswith("v") for a in options)
    assert not any(a.startswith("upgrade") for a in options)
    state, _ = play(state, 0, "build stable f3")
    assert state.players[0].plots["f3"].tile == "stable"


def test_the_upgraded_farm_labourer_builds_or_upgrades_farm_tiles_free() -> None:
    """rulebook p.16, Farm labourer: upgraded, it builds or upgrades any farm tile at no cost, and still not
    village tiles."""
    state = tile_table("farm_labourer", True)
    build(state, 0, "f2", "cow_shed")
    build(state, 0, "v1", "brickmaker")
    state, _ = play(state, 0, "play white f1")
    options = legal(state, 0)
    assert {"upgrade f2", "build stable f3"} <= set(options)
    assert "upgrade v1" not in options
    state, _ = play(state, 0, "upgrade f2")
    assert state.players[0].plots["f2"].upgraded


def test_example_upgraded_farm_labourer_builds_and_upgrades_the_same_building() -> None:
    """rulebook p.16, Farm labourer example: with a second action on the upgraded farm labourer (a keyple
    joining the existing one), one action builds a farm tile and the other upgrades it, all free."""
    state = tile_table("farm_labourer", True, "white")
    state, _ = run(state, [(0, "play white f1 +lay"), (0, "build paddock f2"), (0, "upgrade f2")])
    plot = state.players[0].plots["f2"]
    assert (plot.tile, plot.upgraded) == ("paddock", True)


def test_the_farm_labourer_may_build_over_itself_once_and_is_then_gone() -> None:
    """rulebook p.16, Farm labourer: it may be used to build over itself, but cannot be used afterwards: the
    plot then holds the new tile, and on a later turn the keyple there works the new tile, not the labourer."""
    state = tile_table("farm_labourer", False, wheat=1)
    state, _ = play(state, 0, "play white f1")
    assert "build pig_sty f1" in legal(state, 0)
    state, _ = play(state, 0, "build pig_sty f1")
    plot = state.players[0].plots["f1"]
    assert (plot.tile, plot.under) == ("pig_sty", "farm_labourer")
    state, _ = run(state, [(1, "keyper 2"), (2, "keyper 3")])
    state, _ = play(state, 0, "play white f1 +lay")
    assert plot_units(state) == [(0, "f1")] * 2
    assert legal(state, 0) == ["upgrade f1", "skip"]


def test_the_farm_labourers_remaining_action_does_not_work_the_tile_built_over_it() -> None:
    """rulebook p.16 (the farm labourer cannot be used again after building over itself) and p.15 (an overbuilt
    tile is no longer operational; a keyple on it works the new tile by being laid down on a later turn): the
    second action earned on the farm labourer cannot run the hop field just built over it."""
    state = tile_table("farm_labourer", True, "white", wheat=1)
    state.players[0].tiles.append("hop_field")
    state, _ = run(state, [(0, "play white f1 +lay"), (0, "build hop_field f1")])
    assert not exchanges(state)


# --- Building plot (p.16) ------------------------------------------------------------------------------------


def plot_table(upgraded: bool, colour: str = "grey", **resources: int) -> State:
    """Seat 0 with a building plot on v6 (second row, second column) and one keyple for the build field."""
    state = tile_table("building_plot", upgraded, **resources)
    state.players[0].plots["v6"] = state.players[0].plots.pop("v1")
    lone(state, 0, **{colour: 1})
    return state


def test_the_building_plot_makes_the_plot_to_its_right_free() -> None:
    """rulebook p.16, Building plot: a build action on the plot to the right of the building plot ignores the
    tile's cost; other plots still cost the printed amount."""
    state = plot_table(False)
    state, _ = play(state, 0, "play grey 1.build")
    options = legal(state, 0)
    assert "build drainage v7" in options
    assert not any(a.startswith("build") and a.split()[2] in ("v2", "v5", "v8", "v10") for a in options)
    state, events = play(state, 0, "build drainage v7")
    assert state.players[0].plots["v7"].tile == "drainage"
    assert not any(" pays " in t for t in texts(events))


def test_the_upgraded_building_plot_also_frees_the_plots_above_and_below() -> None:
    """rulebook p.16, Building plot: upgraded, the plots above and below are free as well (the tile is never
    rotated, so left stays paid)."""
    state = plot_table(True)
    state, _ = play(state, 0, "play grey 1.build")
    free = {a.split()[2] for a in legal(state, 0) if a.startswith("build drainage")}
    assert free == {"v2", "v7", "v10"}


def test_the_building_plot_still_needs_a_build_action() -> None:
    """rulebook p.16, Building plot: the free plot is built on only with a build action; a keyple on the
    building plot itself gives no build."""
    state = plot_table(False, "white", wheat=1)
    state, _ = play(state, 0, "play white v6")
    assert legal(state, 0) == ["upgrade v6", "skip"]


def test_the_free_plot_can_be_used_on_the_turn_the_building_plot_is_built() -> None:
    """rulebook p.16, Building plot: with two build actions the building plot is built with the first and the
    plot to its right used free with the second."""
    state = table(3, active=0)
    lone(state, 0, orange=1)
    goods(state, 0, brick=1, wood=0, stone=0)
    state.players[0].tiles.append("building_plot")
    state, _ = run(state, [(0, "play orange 1.build"), (0, "build building_plot v6"), (0, "build drainage v7")])
    assert {p: plot.tile for p, plot in state.players[0].plots.items()} == {"v6": "building_plot", "v7": "drainage"}
    assert have(state, 0, "brick") == 0


# --- Seafarer, shipping agent, merchant (pp.17-18; ruling K-25) ---------------------------------------------

BOATS = ["boat-1", "boat-2", "boat-3", "boat-4"]  # spring sides: clay/sheep, log/pig, rock/cow, wheat/horse


def boat_table(**resources: int) -> State:
    """Seat 0 alone with two light-blue keyples and exactly these goods; this season's boats are boats 1-4."""
    state = table(3, active=0)
    state.boats = list(BOATS)
    lone(state, 0, blue=2)
    goods(state, 0, **NO_GOODS)
    goods(state, 0, **resources)
    return state


@pytest.mark.parametrize(("upgraded", "points"), [(False, 1), (True, 2)])
def test_the_seafarer_scores_each_time_its_owner_plays_on_a_boat(upgraded: bool, points: int) -> None:
    """rulebook p.17, Seafarer: every time the owner plays on a boat the owner scores 1 shipping point at once,
    2 when upgraded; no keyple is needed on the tile."""
    state = boat_table()
    build(state, 0, "v1", "seafarer")
    state.players[0].plots["v1"] = replace(state.players[0].plots["v1"], upgraded=upgraded)
    state, events = play(state, 0, "play blue 1.river boat-1")
    assert state.players[0].shipping == points
    assert any("seafarer scores" in t for t in texts(events))


def test_the_seafarer_scores_for_its_owner_as_a_joiner_too() -> None:
    """rulebook p.17, Seafarer: a play on a boat as a joiner counts as well; a player without the tile gets
    nothing from it."""
    state = boat_table()
    give(state, 1, blue=1)
    build(state, 1, "v1", "seafarer")
    state, _ = run(state, [(0, "play blue 1.river boat-1"), (1, "join blue")])
    assert (state.players[0].shipping, state.players[1].shipping) == (0, 1)


def test_the_seafarer_scores_nothing_for_other_fields_or_once_overbuilt() -> None:
    """rulebook p.17, Seafarer, and p.15 (an overbuilt tile no longer works): only boats count, and a seafarer
    built over gives nothing."""
    state = boat_table()
    build(state, 0, "v1", "seafarer")
    state, _ = play(state, 0, "play blue 1.wheat")
    assert state.players[0].shipping == 0
    state = boat_table()
    build(state, 0, "v1", "drainage")
    state.players[0].plots["v1"] = replace(state.players[0].plots["v1"], under="seafarer")
    state, _ = play(state, 0, "play blue 1.river boat-1")
    assert state.players[0].shipping == 0


def test_example_seafarer_joining_an_existing_keyple_scores_once() -> None:
    """rulebook p.17, Seafarer note (ruling K-25): a keyple played beside an existing keyple on a boat, which
    is laid down, is still one boat action: the upgraded seafarer scores 2, not 4."""
    state = boat_table()
    build(state, 0, "v1", "seafarer")
    state.players[0].plots["v1"] = replace(state.players[0].plots["v1"], upgraded=True)
    state.boards[0].boat = "boat-1"
    place(state, 1, "river", "blue")
    state, _ = play(state, 0, "play blue 1.river +lay")
    assert state.players[0].shipping == 2
    assert len(pending(state)) == 3


def test_example_seafarer_laying_down_two_keyples_scores_once() -> None:
    """rulebook p.17, Seafarer note (ruling K-25): two keyples laid down together on a boat are one boat
    action: the upgraded seafarer scores 2, not 4."""
    state = boat_table()
    claim_all(state)
    give(state, 0)
    give(state, 1, grey=1)
    build(state, 0, "v1", "seafarer")
    state.players[0].plots["v1"] = replace(state.players[0].plots["v1"], upgraded=True)
    state.boards[0].boat = "boat-1"
    place(state, 1, "river", "blue", "blue")
    state, _ = play(state, 0, "laydown 1.river x2")
    assert state.players[0].shipping == 2
    assert len(pending(state)) == 3


def test_the_shipping_agent_adds_a_point_for_two_sales() -> None:
    """rulebook p.17, Shipping agent (ruling K-25): selling 2 resources to a boat gives 1 extra point; one sale
    alone gives the usual 2."""
    state = boat_table(clay=1, sheep=1)
    build(state, 0, "v1", "shipping_agent")
    state, _ = play(state, 0, "play blue 1.river boat-1")
    state, _ = play(state, 0, "sell clay")
    assert state.players[0].shipping == 2
    state, _ = play(state, 0, "sell sheep")
    assert state.players[0].shipping == 5


def test_the_upgraded_shipping_agent_adds_a_point_for_every_sale() -> None:
    """rulebook p.17, Shipping agent: upgraded, every resource sold to a boat gives 1 extra point."""
    state = boat_table(clay=1, sheep=1)
    build(state, 0, "v1", "shipping_agent")
    state.players[0].plots["v1"] = replace(state.players[0].plots["v1"], upgraded=True)
    state, _ = run(state, [(0, "play blue 1.river boat-1"), (0, "sell clay")])
    assert state.players[0].shipping == 3
    state, _ = play(state, 0, "sell sheep")
    assert state.players[0].shipping == 6


def test_without_the_shipping_agent_a_sale_is_two_points() -> None:
    """rulebook p.14 note 6: a sale is worth 2 points; the agent's bonus needs the tile."""
    state = boat_table(clay=1, sheep=1)
    state, _ = run(state, [(0, "play blue 1.river boat-1"), (0, "sell clay"), (0, "sell sheep")])
    assert state.players[0].shipping == 4


def test_the_plain_merchant_adds_no_boat_action() -> None:
    """rulebook p.18, Merchant: the plain side only scores at the end; a light-blue keyple still has 2 boat
    actions."""
    state = boat_table()
    build(state, 0, "v1", "merchant")
    state, _ = play(state, 0, "play blue 1.river boat-1")
    assert len(pending(state)) == 2


def test_example_upgraded_merchant_with_a_joiner_gives_four_transactions() -> None:
    """rulebook p.18, Merchant example: the upgraded merchant's owner with a light-blue keyple on a boat and a
    joiner undertakes 4 transactions; the joiner, without the tile, has the usual 3."""
    state = boat_table(sheep=2)
    give(state, 1, blue=1)
    build(state, 0, "v1", "merchant")
    state.players[0].plots["v1"] = replace(state.players[0].plots["v1"], upgraded=True)
    state, _ = run(state, [(0, "play blue 1.river boat-1"), (1, "join blue")])
    seats = [seat for seat, _ in pending(state)]
    assert (seats.count(0), seats.count(1)) == (4, 3)
    state, _ = run(state, [(0, "sell sheep"), (1, "take clay"), (0, "sell sheep"), (1, "take clay"),
                           (0, "take clay"), (1, "take clay"), (0, "take clay")])
    assert state.players[0].shipping == 4 and have(state, 0, "clay") == 2


def test_the_upgraded_merchant_adds_an_action_for_its_owner_as_a_joiner() -> None:
    """rulebook p.18, Merchant: the extra boat action comes each time the owner uses a boat, joining included."""
    state = boat_table()
    give(state, 1, blue=1)
    build(state, 1, "v1", "merchant")
    state.players[1].plots["v1"] = replace(state.players[1].plots["v1"], upgraded=True)
    state, _ = run(state, [(0, "play blue 1.river boat-1"), (1, "join blue")])
    seats = [seat for seat, _ in pending(state)]
    assert (seats.count(0), seats.count(1)) == (3, 4)


# --- Housing animals on farm tiles (p.8 note 4; pp.15-19) -----------------------------------------------------

HOUSES = {
    "cow_shed": ("cow",), "pig_sty": ("pig",), "sheep_shelter": ("sheep",), "stable": ("horse",),
    "farmyard": ("cow", "horse", "pig", "sheep"), "paddock": WILD, "cluck_cluck_chicken_house": ("chicken",),
    "goat_pen": ("goat",), "game_wardens_cottage": ("deer",), "hunters_lodge": ("boar",), "hop_field": ANIMALS,
    "livestock_market": ANIMALS, "copse": WILD, "barn": (), "oast_house": (), "windmill": (),
    "farm_labourer": (), "farmers_cottage": (),
}


def test_every_farm_tile_is_listed() -> None:
    """rulebook pp.15-19: the table of farm tiles below covers every farm tile of the game."""
    assert set(HOUSES) == {t.id for t in COMPS.tiles.values() if t.area == "farm"}


def housed_table(tile: str, **animals: int) -> State:
    """Seat 0 with only this farm tile and these animals, no fairs to hold, at the end of spring's play."""
    state = table(3, active=0)
    for player in state.players:
        player.hidden_fairs = []
    build(state, 0, "f1", tile)
    goods(state, 0, **animals)
    return state


@pytest.mark.parametrize("tile", sorted(HOUSES))
def test_what_each_farm_tile_may_house(tile: str) -> None:
    """rulebook p.8 note 4 and pp.15-19: a farm tile houses only the animals it depicts (the hop field and
    livestock market any animal; the copse and paddock chickens, deer, goats and wild boar); one of every
    animal is offered and only the depicted ones stay. Where more than four types fit, the player picks
    which four."""
    state = housed_table(tile, **{a: 1 for a in ANIMALS})
    state, _ = end_season(state, 1)
    houses = HOUSES[tile]
    if len(houses) > 4:
        assert state.phase == "housing" and legal(state, 0) == [f"release {a}" for a in ANIMALS]
        state, _ = run(state, [(0, f"release {a}") for a in houses[4:]])
        houses = houses[:4]
    assert state.phase == "choose_display"
    assert {a for a in ANIMALS if have(state, 0, a)} == set(houses)


@pytest.mark.parametrize("tile", sorted(t for t, h in HOUSES.items() if h))
def test_a_farm_tile_houses_four_animals_at_most(tile: str) -> None:
    """rulebook p.8 note 4: at most four animals on a farm tile; the rest go back to the general supply."""
    animal = HOUSES[tile][0]
    state = housed_table(tile, **{animal: 6})
    supply = state.supply[animal]
    state, events = end_season(state, 1)
    assert have(state, 0, animal) == 4 and state.supply[animal] == supply + 2
    assert any("wander off" in t for t in texts(events))


def test_the_farmyard_holds_any_mix_of_its_four_animals() -> None:
    """rulebook p.15, Farmyard example: any four of cows, horses, pigs and sheep, e.g. 3 cows and 1 pig."""
    state = housed_table("farmyard", cow=3, pig=1)
    state, _ = end_season(state, 1)
    assert (have(state, 0, "cow"), have(state, 0, "pig")) == (3, 1)


def test_example_nine_cows_are_housed_four_and_four_and_the_ninth_returns() -> None:
    """rulebook p.8 note 4 example: with 9 cows, 4 live in the cow shed and 4 in the farmyard; the ninth
    wanders back to the supply."""
    state = housed_table("cow_shed", cow=9)
    build(state, 0, "f2", "farmyard")
    state, events = end_season(state, 1)
    assert have(state, 0, "cow") == 8
    assert any("1 cow wanders off" in t for t in texts(events))


def test_an_overbuilt_farm_tile_houses_nothing() -> None:
    """rulebook p.15 (overbuilt tiles are no longer operational) with p.8 note 4: a pig sty built over by a
    barn houses no pigs."""
    state = housed_table("barn", pig=2)
    state.players[0].plots["f1"] = replace(state.players[0].plots["f1"], under="pig_sty")
    state, _ = end_season(state, 1)
    assert have(state, 0, "pig") == 0
