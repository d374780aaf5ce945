"""A finished good stands in for the raw material of its type wherever a raw material is asked for (rulebook
p.10, Notes on resources: "always"; ruling K-22): one test per place that asks for a raw material, with the
notation that names the good handed in, the supply limits, and the limits of the stand-in.

Costs and fairs have their own tests in test_resources.py (test_a_finished_good_pays_the_raw_material_of_its_type,
test_a_finished_good_shows_for_its_raw_material_at_a_fair); the upgrade cost of a farm tile is here.
Positions are arranged with the scenario helpers; every move then goes through GAME.parse and GAME.apply.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import IllegalAction
from engine.keyper import GAME
from engine.keyper.components import default
from engine.keyper.state import State
from engine.keyper.vocab import RAW
from tests.keyper.scenario import build, give, goods, have, legal, pending, play, run, table, texts

COMPS = default()
NO_GOODS = {"brick": 0, "wood": 0, "stone": 0}
BOATS = ["boat-1", "boat-2", "boat-3", "boat-4"]  # spring sides: clay/sheep, log/pig, rock/cow, wheat/horse


def alone(state: State, seat: int = 0, **colours: int) -> State:
    """The seat holds only these keyples and every other seat holds none, so nobody is invited to join."""
    for other in range(len(state.players)):
        give(state, other)
    return give(state, seat, **colours)


def holding(season: int = 0, colour: str = "blue", **resources: int) -> State:
    """Seat 0 to play with one keyple of a colour and exactly these goods (no starting finished goods)."""
    state = table(3, active=0, season=season)
    state.boats = list(BOATS)
    alone(state, 0, **{colour: 1})
    goods(state, 0, **NO_GOODS)
    goods(state, 0, **resources)
    return state


def board_showing(state: State, kind: str) -> int:
    """The number of the first board whose display has a field of this kind."""
    for board in state.boards:
        if any(f.kind == kind for f in COMPS.display(board.display).fields):
            return board.number
    raise AssertionError(f"no board shows {kind}")


def on_tile(tile: str, upgraded: bool = False, **resources: int) -> State:
    """Seat 0 holds a white keyple, exactly these goods, and the tile built (optionally upgraded) on plot v1."""
    state = holding(colour="white", **resources)
    build(state, 0, "v1", tile)
    state.players[0].plots["v1"] = replace(state.players[0].plots["v1"], upgraded=upgraded)
    return state


def exchanges(state: State, seat: int = 0) -> list[str]:
    """The exchanges among the seat's legal actions."""
    return [a for a in legal(state, seat) if a.startswith("exchange")]


# --- Trade fields -----------------------------------------------------------------------------------------------


def test_p10_a_player_holding_only_a_wood_uses_both_units_of_the_raw_trade_field() -> None:
    """rulebook p.10 (a finished good can always be used as the raw material of its type) and p.13 note 3: with
    only a wood, a colour-matched keyple on the raw-material trade field makes two trades: the wood as a log for
    a clay and a rock, then the clay for two logs. Under the old ruling both units were lost."""
    state = holding(wood=1)
    state, _ = play(state, 0, "play blue 1.trade_raw")
    assert len(pending(state)) == 2
    assert "exchange wood for clay+rock" in exchanges(state)
    state, events = play(state, 0, "exchange wood for clay+rock")
    assert (have(state, 0, "wood"), have(state, 0, "clay"), have(state, 0, "rock")) == (0, 1, 1)
    assert any("exchanges 1 wood for 1 clay, 1 rock" in t for t in texts(events))
    state, _ = play(state, 0, "exchange clay for log+log")
    assert (have(state, 0, "clay"), have(state, 0, "log"), have(state, 0, "rock")) == (0, 2, 1)


def test_p10_the_notation_names_the_good_handed_in() -> None:
    """rulebook p.10 and ruling K-22 (docs/notation.md): holding both a clay and a brick, the raw trade offers
    both as hand-ins; 'exchange brick for log+log' spends the brick and keeps the clay."""
    state = holding(clay=1, brick=1)
    state, _ = play(state, 0, "play blue 1.trade_raw")
    offered = exchanges(state)
    assert "exchange clay for log+log" in offered and "exchange brick for log+log" in offered
    state, _ = play(state, 0, "exchange brick for log+log")
    assert (have(state, 0, "brick"), have(state, 0, "clay"), have(state, 0, "log")) == (0, 1, 2)


def test_p10_the_stand_in_goes_back_to_its_own_pile_and_the_supply_still_limits_the_trade() -> None:
    """rulebook p.10 (resources are limited) with ruling K-33: a brick handed in as clay goes back to the brick
    pile, so it does not make up for clay the supply lacks; a real clay handed in does."""
    state = holding(clay=1, brick=1)
    state.supply["clay"] = 1
    bricks = state.supply["brick"]
    state, _ = play(state, 0, "play blue 1.trade_raw")
    offered = exchanges(state)
    assert "exchange clay for clay+clay" in offered
    assert "exchange brick for clay+clay" not in offered and "exchange brick for clay+log" in offered
    with pytest.raises(IllegalAction) as info:
        play(state, 0, "exchange brick for clay+clay")
    assert "supply cannot give 2 clay" in info.value.reason
    state, _ = play(state, 0, "exchange brick for clay+log")
    assert state.supply["brick"] == bricks + 1 and state.supply["clay"] == 0


def test_p10_a_raw_material_never_stands_in_for_a_finished_good() -> None:
    """rulebook p.10: the stand-in works one way, so the finished-goods trade field takes no raw material."""
    state = holding(clay=1, log=1)
    state, _ = play(state, 0, "play blue 2.trade_finished")
    assert exchanges(state) == []
    assert state.phase == "turn"  # both units were lost: nothing to hand in


# --- Convert fields and the brickmaker, carpenter, stonemason --------------------------------------------------


def test_p10_on_a_convert_field_a_brick_for_a_brick_is_not_offered() -> None:
    """rulebook p.10 and p.12 (convert clay to bricks), ruling K-22: a brick may stand in for the clay, but the
    field would give the same brick back, which changes nothing; holding only bricks, the unit is lost with a
    log line, and typing it is refused with that reason."""
    state = holding(season=2, colour="orange", brick=1, clay=1)
    board = board_showing(state, "convert_clay")
    state, _ = play(state, 0, f"play orange {board}.convert_clay")
    assert exchanges(state) == ["exchange clay for brick"]
    with pytest.raises(IllegalAction) as info:
        play(state, 0, "exchange brick for brick")
    assert "changes nothing" in info.value.reason
    state = holding(season=2, colour="blue", brick=1)
    state, events = play(state, 0, f"play blue {board}.convert_clay")
    assert any("is lost" in t for t in texts(events)) and have(state, 0, "brick") == 1


@pytest.mark.parametrize(("tile", "good"), [("brickmaker", "brick"), ("carpenter", "wood"), ("stonemason", "stone")])
def test_p10_the_upgraded_converter_turns_its_finished_good_into_two(tile: str, good: str) -> None:
    """rulebook p.10 and p.15 (the upgraded brickmaker, carpenter and stonemason turn 1 raw material into 2 of
    its finished good), ruling K-22: the finished good may be handed in as its raw material, giving two."""
    state = on_tile(tile, True, **{good: 1})
    state, _ = play(state, 0, "play white v1")
    assert exchanges(state) == [f"exchange {good} for {good}+{good}"]
    state, _ = play(state, 0, f"exchange {good} for {good}+{good}")
    assert have(state, 0, good) == 2


# --- Scrapyard, alchemist, windmill, trading post --------------------------------------------------------------


def test_p10_the_scrapyard_takes_a_finished_good_as_one_of_its_raw_materials() -> None:
    """rulebook p.10 and p.15 (scrapyard: 2 raw materials into 1 finished good): a brick and a clay, the brick as
    clay, make a stone."""
    state = on_tile("scrapyard", brick=1, clay=1)
    state, _ = play(state, 0, "play white v1")
    assert "exchange brick+clay for stone" in exchanges(state)
    state, _ = play(state, 0, "exchange brick+clay for stone")
    assert (have(state, 0, "brick"), have(state, 0, "clay"), have(state, 0, "stone")) == (0, 0, 1)


def test_p10_the_alchemist_takes_finished_goods_as_raw_materials() -> None:
    """rulebook p.10 and p.16 (alchemist: 2 raw materials into 1 gem): a wood and a stone make a gem."""
    state = on_tile("alchemist", wood=1, stone=1)
    state, _ = play(state, 0, "play white v1")
    state, _ = play(state, 0, "exchange stone+wood for ruby")
    assert (have(state, 0, "wood"), have(state, 0, "stone"), have(state, 0, "ruby")) == (0, 0, 1)


def test_p10_the_windmill_grinds_a_finished_good_as_its_raw_material() -> None:
    """rulebook p.10 and p.17 (windmill: any 1 raw material into 2 wheat): a stone is ground as a rock."""
    state = on_tile("windmill", stone=1)
    state, _ = play(state, 0, "play white v1")
    assert exchanges(state) == ["exchange stone for wheat+wheat"]
    state, _ = play(state, 0, "exchange stone for wheat+wheat")
    assert (have(state, 0, "stone"), have(state, 0, "wheat")) == (0, 2)


def test_p10_the_upgraded_trading_post_trades_a_brick_as_clay_then_makes_the_finished_trade() -> None:
    """rulebook p.10, p.17 (trading post) and rulings K-22, K-26: a brick traded as clay for two raw materials
    is the raw-material trade, so the same action then offers the finished-goods trade."""
    state = on_tile("trading_post", True, brick=1, wood=1)
    state, _ = play(state, 0, "play white v1")
    state, _ = play(state, 0, "exchange brick for log+rock")
    assert exchanges(state) and all(a.startswith("exchange wood for") for a in exchanges(state))
    assert all(a.split(" for ")[1].split("+")[0] not in RAW for a in exchanges(state))


# --- Boats -------------------------------------------------------------------------------------------------------


def test_p10_a_boat_showing_clay_buys_a_brick_as_clay() -> None:
    """rulebook p.10 and p.14 note 6 (sell a resource the boat shows for 2 points), ruling K-22: a boat showing
    clay buys a brick as clay; the brick goes back to the supply and the log says what it was sold as."""
    state = holding(brick=1, sheep=1)
    state, _ = play(state, 0, "play blue 1.river boat-1")
    assert legal(state, 0) == ["take clay", "take sheep", "sell sheep", "sell brick", "skip"]
    bricks = state.supply["brick"]
    state, events = play(state, 0, "sell brick")
    assert state.players[0].shipping == 2 and have(state, 0, "brick") == 0 and state.supply["brick"] == bricks + 1
    assert any("sells 1 brick as clay to the boat for 2 points" in t for t in texts(events))


def test_p10_a_brick_sold_as_clay_counts_as_clay_for_the_take_and_sell_rule() -> None:
    """rulebook p.14 note 6 with p.10, rulings K-10 and K-22: after selling a brick as clay the player may not
    take clay from a boat that turn; after taking clay, no brick is sold as clay."""
    state = holding(brick=1)
    state, _ = run(state, [(0, "play blue 1.river boat-1"), (0, "sell brick")])
    assert "take clay" not in legal(state, 0)
    with pytest.raises(IllegalAction) as info:
        play(state, 0, "take clay")
    assert "sold clay" in info.value.reason
    state = holding(brick=1)
    state, _ = run(state, [(0, "play blue 1.river boat-1"), (0, "take clay")])
    assert "sell brick" not in legal(state, 0)
    with pytest.raises(IllegalAction) as info:
        play(state, 0, "sell brick")
    assert "took clay" in info.value.reason


def test_p10_a_boat_never_buys_a_raw_material_as_a_finished_good() -> None:
    """rulebook p.10: the stand-in works one way; a boat showing wood (boat-5 in spring) buys no log."""
    state = holding(log=1, wood=0)
    state.boats = ["boat-5", "boat-2", "boat-3", "boat-4"]
    state, _ = play(state, 0, "play blue 1.river boat-5")
    assert "sell log" not in legal(state, 0)


# --- Costs: the upgrade of a farm tile ------------------------------------------------------------------------


def test_p10_a_finished_good_pays_the_raw_material_of_a_farm_upgrade() -> None:
    """rulebook p.10 and p.13 note 5 (a farm tile upgrades for one raw material or wheat): a brick pays it."""
    state = holding(colour="grey", brick=1)
    build(state, 0, "f1", "cow_shed")
    state, _ = run(state, [(0, "play grey 2.upgrade"), (0, "upgrade f1")])
    assert state.players[0].plots["f1"].upgraded and have(state, 0, "brick") == 0


def test_p10_a_stand_in_is_checked_like_any_action() -> None:
    """rulebook p.10 with the engine contract: /check of a stand-in exchange says it is legal and what it does."""
    state = holding(wood=1)
    state, _ = play(state, 0, "play blue 1.trade_raw")
    verdict = GAME.check(state, 0, GAME.parse(state, 0, "exchange wood for rock+clay"))
    assert verdict.legal and any("1 wood for 1 clay, 1 rock" in line for line in verdict.outcome)
