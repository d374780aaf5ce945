"""Refusals that teach: every refused action says what is wrong or what is missing (the resource, the colour, the
season, the side), and typed notation is read without regard to case or to the order of goods joined by '+'.

The engine contract (DESIGN.md, docs/notation.md Errors) asks for "a human sentence, the rule section it rests
on"; the rule each refusal cites is given in the test's docstring. Positions are arranged with the scenario
helpers; every move then goes through GAME.parse, GAME.apply and GAME.check.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.core import IllegalAction, InvalidAction
from engine.keyper import GAME
from engine.keyper.actions import Exchange, parse_syntax
from engine.keyper.components import default
from engine.keyper.explain import why_illegal
from engine.keyper.state import State
from tests.keyper.scenario import (
    build,
    choose_displays,
    end_season,
    give,
    goods,
    have,
    legal,
    place,
    play,
    table,
)
from tests.keyper.test_resources import fair_table

NO_GOODS = {"brick": 0, "wood": 0, "stone": 0}
FALLBACK = "is not one of your choices now"


def alone(state: State, seat: int = 0, **colours: int) -> State:
    """The seat holds only these keyples and every other seat holds none, so nobody is invited to join."""
    for other in range(len(state.players)):
        give(state, other)
    return give(state, seat, **colours)


def holding(colour: str = "grey", season: int = 0, **resources: int) -> State:
    """Seat 0 to play with one keyple of a colour and exactly these goods (no starting finished goods)."""
    state = table(3, active=0, season=season)
    alone(state, 0, **{colour: 1})
    goods(state, 0, **NO_GOODS)
    goods(state, 0, **resources)
    return state


def refused(state: State, seat: int, text: str) -> str:
    """The reason /check gives for refusing the notation, after checking apply refuses it the same way."""
    action = GAME.parse(state, seat, text)
    verdict = GAME.check(state, seat, action)
    assert not verdict.legal, text
    with pytest.raises(IllegalAction) as info:
        GAME.apply(state, seat, action)
    assert info.value.reason == verdict.reason and info.value.rule == verdict.rule
    assert FALLBACK not in verdict.reason, verdict.reason
    return verdict.reason


# --- Building (p.13 note 4, p.10) -----------------------------------------------------------------------------


def test_p13_a_build_without_the_resources_names_the_missing_ones() -> None:
    """rulebook p.13 note 4 (pay the build cost) and p.10: 'check build pavements v1' with a stone but no rock
    says the Pavements cost a stone and a rock and that the rock is missing (a stone could stand in for it). The
    wood and clay let the build unit build something else (the brickmaker), so the unit stays open."""
    state = holding(stone=1, wood=1, clay=1)
    state, _ = play(state, 0, "play grey 1.build")
    reason = refused(state, 0, "build pavements v1")
    assert "Pavements" in reason and "1 stone" in reason and "short of 1 rock" in reason
    assert "a stone may stand in" in reason
    state = holding(clay=1, wood=1)
    state, _ = play(state, 0, "play grey 1.build")
    reason = refused(state, 0, "build pavements v1")
    assert "short of 1 stone and 1 rock" in reason


def test_p13_a_build_of_a_tile_not_in_hand_or_on_the_wrong_plot_says_so() -> None:
    """rulebook p.13 note 4 (the player must own the tile), p.15 (farm tiles in the farm, village tiles in the
    village; a plot is built over only once)."""
    state = holding(clay=2, log=2, rock=2, brick=2, wood=2, stone=2)
    build(state, 0, "v2", "pavements")
    state.players[0].plots["v2"] = replace(state.players[0].plots["v2"], under="statue")
    state, _ = play(state, 0, "play grey 1.build")
    assert "do not hold the Windmill" in refused(state, 0, "build windmill f1")
    assert "you have built it already" in refused(state, 0, "build pavements v3")
    assert "village tile: it goes on plots v1 to v12, not f1" in refused(state, 0, "build brickmaker f1")
    assert "already been built over once" in refused(state, 0, "build brickmaker v2")
    assert "no building tile called 'palace'" in refused(state, 0, "build palace v1")
    assert "Only a discount build leaves out" in refused(state, 0, "build brickmaker v1 -clay")


def test_p13_a_discount_build_refusal_names_the_items() -> None:
    """rulebook p.13 note 4 (a discount always leaves at least one item to pay) and ruling K-20 (the player names
    the item left out)."""
    state = holding("green", clay=1, wood=1)
    state.players[0].tiles.append("farmer")
    state, _ = play(state, 0, "play green 1.discount_build")
    reason = refused(state, 0, "build brickmaker v1")
    assert "Name the cost item the discount leaves out" in reason and "-" in reason
    assert "no rock item to leave out" in refused(state, 0, "build brickmaker v1 -rock")


def test_p16_the_farm_labourer_refuses_a_village_tile_by_name() -> None:
    """rulebook p.16, Farm labourer: it builds farm tiles only."""
    state = holding("white")
    build(state, 0, "f1", "farm_labourer")
    state, _ = play(state, 0, "play white f1")
    assert "builds only farm tiles" in refused(state, 0, "build brickmaker v1")


def test_p13_a_keyple_building_on_its_plot_says_what_is_wrong() -> None:
    """rulebook p.13 note 4 (v), p.15 and p.4 2a (ruling K-27): a direct build may go over a tile, but "Each
    building tile can only be overbuilt once", a plot holding two keyples takes no third, the keyple does nothing
    but build, and the tile must be paid for."""
    state = holding("white", clay=1, wood=1)
    build(state, 0, "v3", "drainage")
    state.players[0].plots["v3"] = replace(state.players[0].plots["v3"], under="stonemason")
    build(state, 0, "v4", "scrapyard", "green", "grey/lying")
    assert "play white v5 build brickmaker" in legal(state, 0)
    assert "built over only once" in refused(state, 0, "play white v3 build brickmaker")
    assert "already holds two keyples" in refused(state, 0, "play white v4 build brickmaker")
    assert "short of 1 stone" in refused(state, 0, "play white v5 build carpenter")
    assert "does only that" in refused(state, 0, "play white v5 build brickmaker +lay")


# --- Upgrading (p.13 note 5) --------------------------------------------------------------------------------


def test_p13_an_upgrade_refusal_names_the_cost_or_the_plot() -> None:
    """rulebook p.13 note 5: a village tile upgrades for a finished good or wheat; only a built, not yet upgraded
    tile can be upgraded."""
    state = holding("orange", clay=2)
    build(state, 0, "v1", "brickmaker")
    build(state, 0, "v2", "carpenter")
    state.players[0].plots["v2"] = replace(state.players[0].plots["v2"], upgraded=True)
    build(state, 0, "f1", "cow_shed")
    state, _ = play(state, 0, "play orange 2.upgrade")
    assert "costs any finished good (or wheat); you have none" in refused(state, 0, "upgrade v1")
    assert "already upgraded" in refused(state, 0, "upgrade v2")
    assert "Plot v5 has no building tile" in refused(state, 0, "upgrade v5")


# --- Exchanges (pp.12-13, pp.15-19) ----------------------------------------------------------------------------


def test_p12_an_exchange_of_the_wrong_shape_says_what_the_field_does() -> None:
    """rulebook p.13 note 3: the raw-material trade field trades 1 raw material for 2; the refusal says so (and
    that a finished good may be handed in, p.10)."""
    state = holding("blue", clay=1)
    state, _ = play(state, 0, "play blue 1.trade_raw")
    reason = refused(state, 0, "exchange clay for ruby")
    assert "trades 1 raw material for 2 raw materials" in reason and "finished good may be handed in" in reason


def test_p12_an_exchange_without_the_goods_names_what_is_lacking() -> None:
    """rulebook p.13 note 3 with p.10: the player must hand in what the trade takes; the refusal names it."""
    state = holding("blue", clay=1)
    state, _ = play(state, 0, "play blue 1.trade_raw")
    assert "You lack 1 rock to hand in" in refused(state, 0, "exchange rock for clay+clay")


def test_notation_multi_item_exchanges_read_in_any_order() -> None:
    """docs/notation.md: goods joined by '+' may be typed in any order and are written sorted; rulebook p.15
    (scrapyard: 2 raw materials into 1 finished good) gives the exchange."""
    assert parse_syntax("exchange log+clay for brick") == parse_syntax("exchange clay+log for brick")
    assert str(parse_syntax("exchange log+clay for rock+clay")) == "exchange clay+log for clay+rock"
    assert Exchange(("log", "clay"), ("brick",)) == Exchange(("clay", "log"), ("brick",))
    state = holding("white", clay=1, log=1)
    build(state, 0, "v1", "scrapyard")
    state, _ = play(state, 0, "play white v1")
    assert GAME.check(state, 0, GAME.parse(state, 0, "exchange log+clay for brick")).legal
    state, _ = play(state, 0, "exchange log+clay for brick")
    assert (have(state, 0, "clay"), have(state, 0, "log"), have(state, 0, "brick")) == (0, 0, 1)


# --- Case (docs/notation.md) --------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["TAKE PIG", "Take Pig", "take PIG"])
def test_notation_upper_case_takes_are_read(text: str) -> None:
    """docs/notation.md (text is case-insensitive), rulebook p.12 (a pig field gives pigs)."""
    state = holding("green")
    state, _ = play(state, 0, "play green 1.pig")
    state, _ = play(state, 0, text)
    assert have(state, 0, "pig") == 1


@pytest.mark.parametrize("text", ["Play Green 1.Pig", "PLAY GREEN 1.PIG", "Play Green Pig", "GREEN 1.pig"])
def test_notation_upper_case_plays_are_read(text: str) -> None:
    """docs/notation.md (text is case-insensitive; the board may be left out when only one board fits),
    rulebook p.4, 2a (a keyple is played onto a field). The pig fields of the other boards are full, so 'pig'
    can only mean 1.pig."""
    state = table(3, active=0)
    alone(state, 0, green=1)
    for board in state.boards[1:]:
        if any(f.id == "pig" for f in default().display(board.display).fields):
            place(state, board.number, "pig", "brown", "brown")
    assert GAME.parse(state, 0, text) == GAME.parse(state, 0, "play green 1.pig")
    state, _ = play(state, 0, text)
    assert state.boards[0].spaces["pig"][0].colour == "green"


def test_notation_garbage_in_upper_case_is_still_quoted() -> None:
    """docs/notation.md Errors: text that is no action is refused with the text quoted, whatever its case."""
    with pytest.raises(InvalidAction) as info:
        parse_syntax("TAKE A BREAK")
    assert "'TAKE A BREAK'" in str(info.value)


# --- Units, boats and turns (p.4, p.12, p.14) --------------------------------------------------------------


def test_p4_spending_a_unit_when_none_is_earned_says_so() -> None:
    """rulebook p.4 (a keyple earns actions or resources when played): 'take pig' on one's turn, before any
    keyple has earned a unit, names what is being decided."""
    state = holding("green")
    reason = refused(state, 0, "take pig")
    assert "no earned unit to spend" in reason and "P0 to take a turn" in reason


def test_p13_a_take_on_a_build_unit_says_what_the_unit_is() -> None:
    """rulebook p.13 note 4: a build field gives build actions, not resources."""
    state = holding(clay=1, wood=1)
    state, _ = play(state, 0, "play grey 1.build")
    reason = refused(state, 0, "take pig")
    assert "a build action" in reason and "build TILE PLOT" in reason


def test_p14_a_sale_the_boat_does_not_buy_names_what_it_buys() -> None:
    """rulebook p.14 note 6 (a boat buys the types it shows) and p.10 (a finished good as its raw material)."""
    state = holding("blue", pig=1, sheep=0)
    state.boats = ["boat-1", "boat-2", "boat-3", "boat-4"]
    state, _ = play(state, 0, "play blue 1.river boat-1")
    reason = refused(state, 0, "sell pig")
    assert "buys only clay and sheep" in reason and "a brick as clay" in reason
    assert "You have no brick to sell as clay" in refused(state, 0, "sell brick")
    assert "You have no sheep" in refused(state, 0, "sell sheep")


def test_p13_a_tile_not_displayed_lists_the_display() -> None:
    """rulebook p.13 note 2: a country tile comes from the 8 displayed."""
    state = holding("green")
    state, _ = play(state, 0, "play green 1.country_tile")
    reason = refused(state, 0, "tile nonesuch")
    assert "not in the display" in reason and state.display[0] in reason


def test_p5_a_joiner_of_the_wrong_colour_is_told_which_colours_may_join() -> None:
    """rulebook p.5, 2b: the joiner must match the first keyple's colour or be white."""
    state = table(3, active=0)
    alone(state, 0, green=1)
    give(state, 1, green=1, brown=1)
    state, _ = play(state, 0, "play green 1.pig")
    assert "Only a green or white keyple may join here, not a brown one" in refused(state, 1, "join brown")


def test_p5_a_colour_not_in_the_keyp_lists_the_colours_held() -> None:
    """rulebook p.4, 2a: a keyple is played from the player's own keyp."""
    state = holding("green")
    assert "no orange keyple in your keyp (you have green)" in refused(state, 0, "play orange 1.pig")


# --- Paying (p.10, ruling K-21) -------------------------------------------------------------------------------


def test_p10_a_payment_with_the_wrong_resource_names_what_the_item_accepts() -> None:
    """rulebook p.10 (wheat never pays a named item) and ruling K-21: paying item by item, the refusal names the
    item and what may pay it."""
    state = holding(log=2, clay=1, wheat=1)
    state, _ = play(state, 0, "play grey 1.build")
    state, _ = play(state, 0, "build farmyard f1")
    assert state.phase == "pay" and legal(state, 0) == ["pay clay", "pay log", "pay wheat"]
    reason = refused(state, 0, "pay ruby")
    assert "The next item to pay is any raw material (or wheat): ruby cannot pay it" in reason
    assert "You have no rock to pay with" in refused(state, 0, "pay rock")


# --- Fairs (p.8 note 3, p.14) ---------------------------------------------------------------------------------




def test_p8_a_fair_refusal_names_what_is_lacking() -> None:
    """rulebook p.8 note 3 (show every resource the fair asks for) and p.10 (a finished good for its raw
    material): winter-2's summer side asks for 2 sheep, a log and a stone; with one sheep and a stone, the
    refusal names the missing sheep and log (a wood would do for it)."""
    state = fair_table(1, ["summer-1"], ["winter-2"], goat=1, brick=1, sheep=1, stone=1)
    state, _ = end_season(state, 1)
    assert state.phase == "fairs"
    reason = refused(state, 0, "hold winter-2:4")
    assert "you lack 1 sheep and 1 log (or wood in its place)" in reason


def test_p8_a_fair_refusal_names_the_fairs_already_held() -> None:
    """rulebook p.8 note 3: one resource is shown at one fair per season; after summer-1 takes the only brick,
    winter-1 (2 cows, wheat, brick) lacks a brick beside it."""
    state = fair_table(1, ["summer-1"], ["winter-1", "winter-2"], goat=1, brick=1, cow=2, wheat=1, sheep=2, log=1,
                       stone=1)
    state, _ = end_season(state, 1)
    state, _ = play(state, 0, "hold summer-1")
    assert state.phase == "fairs"
    reason = refused(state, 0, "hold winter-1:4")
    assert "beside what your fairs held this season already show" in reason and "you lack 1 brick" in reason
    assert "already held summer-1" in refused(state, 0, "hold summer-1")


def test_p8_a_fair_of_another_season_or_owner_says_which() -> None:
    """rulebook p.8 note 3 (each seasonal fair only in its own season) and p.14 (winter fair sides and their
    seasons): each refusal names the season, the side or the owner."""
    state = fair_table(1, ["summer-1", "autumn-2"], ["winter-2"], goat=1, brick=1, sheep=2, log=1, stone=1,
                       ruby=1, sapphire=1)
    state, _ = end_season(state, 1)
    assert "autumn fair: it can be held only at the end of autumn" in refused(state, 0, "hold autumn-2")
    assert "not one of your fairs" in refused(state, 0, "hold spring-1")
    assert "one side: write 'hold summer-1'" in refused(state, 0, "hold summer-1:2")
    assert "'hold winter-2:4'" in refused(state, 0, "hold winter-2")
    assert "6-point side of winter-2 can be held only at the end of autumn or winter" in refused(
        state, 0, "hold winter-2:6")
    assert "sides worth 4 and 6 points, not 5" in refused(state, 0, "hold winter-2:5")
    assert "no fair called 'summer-99'" in refused(state, 0, "hold summer-99")


def test_p8_a_winter_fair_in_spring_says_when_it_can_be_held() -> None:
    """rulebook p.8 note 3 and p.14: a winter fair is held at the end of summer, autumn or winter, never spring."""
    state = fair_table(0, ["spring-1"], ["winter-1"], sheep=1, rock=1, cow=2, wheat=1, brick=1)
    state, _ = end_season(state, 1)
    assert state.phase == "fairs"
    reason = refused(state, 0, "hold winter-1:4")
    assert "only at the end of summer, autumn, winter" in reason
    assert "only at the end of summer, autumn, winter" in refused(state, 0, "hold winter-1")


# --- Season start and housing (p.8 note 4, p.9) ----------------------------------------------------------------


def test_p9_a_display_of_another_season_lists_the_choices() -> None:
    """rulebook p.9 note 3: the new display must show the new season's icon."""
    state = fair_table(0, [])
    state, _ = end_season(state, 1)
    assert state.phase == "choose_display"
    reason = refused(state, 0, "display spring-1")
    assert "not a summer display" in reason and "summer-1" in reason


def test_p8_releasing_an_animal_that_can_be_housed_says_so() -> None:
    """rulebook p.8 note 4 and ruling K-12: an animal is let go only when not all can be housed, and only among
    the ways that keep the most."""
    state = fair_table(0, [])
    goods(state, 0, pig=6, cow=4, deer=1)
    build(state, 0, "f1", "pig_sty")
    build(state, 0, "f2", "farmyard")
    build(state, 0, "f3", "paddock")
    state, _ = end_season(state, 1)
    assert state.phase == "housing" and legal(state, 0) == ["release cow", "release pig"]
    assert "You have no horse" in refused(state, 0, "release horse")
    reason = refused(state, 0, "release deer")
    assert "can keep every deer" in reason and "cow, pig" in reason
    assert "wheat is not an animal" in refused(state, 0, "release wheat")


def test_p9_resting_a_colour_not_held_names_the_colours() -> None:
    """rulebook p.9 note 4: the excess keyples placed on the keyp tile are the player's own."""
    state = fair_table(0, [])
    state, _ = end_season(state, 1)
    assert state.phase == "choose_display"
    give(state, 0, green=5, brown=5)  # ten keyples came back: two too many
    state, _ = choose_displays(state)
    assert state.phase == "rest" and GAME.to_act(state) == [0]
    assert "no orange keyple to rest; you have green, brown" in refused(state, 0, "rest orange")


# --- No refusal falls back to a vague sentence ------------------------------------------------------------------

CANDIDATES = [
    "keyper 1", "keyper 9", "play green 1.pig", "play white 2.pig +lay", "play blue 1.river", "play blue 1.river "
    "boat-1", "play white v3", "play grey v4 build windmill", "play green 1.keyp", "laydown 1.pig",
    "laydown 1.pig x2", "laydown v1", "join green", "join white", "join brown", "decline", "take pig", "take clay",
    "take emerald", "sell clay", "sell brick", "sell pig", "tile windmill", "tile winter-3", "skip",
    "exchange clay for brick", "exchange brick for log+log", "exchange clay+log for ruby", "exchange wheat for cow",
    "build pavements v1", "build farmyard f1", "build windmill f3 -clay", "build brickmaker v1 -wood",
    "upgrade f1", "upgrade v1", "pay wheat", "pay rock", "pay brick", "hold spring-1", "hold summer-1",
    "hold winter-1:6", "hold winter-2", "done", "release cow", "release pig", "display summer-2",
    "display spring-1", "rest brown", "rest white",
]


@pytest.mark.parametrize("seed", [3, 11])
def test_no_refusal_in_a_whole_game_is_vague(seed: int) -> None:
    """Engine contract (DESIGN.md: IllegalAction carries a human sentence and a rule): across a whole random
    game, every refused action from a wide list of notations gets a specific reason, never the generic last
    resort, and always cites a rule."""
    chooser = random.Random(seed)
    state = GAME.setup(["Ana", "Ben", "Cleo"], seed)
    steps = 0
    while not GAME.is_over(state) and steps < 3000:
        seat = GAME.to_act(state)[0]
        options = GAME.legal_actions(state, seat)
        offered = {str(o) for o in options}
        for text in chooser.sample(CANDIDATES, 12):
            action = parse_syntax(text)
            if text not in offered and action not in options:
                reason, rule = why_illegal(state, seat, action, GAME.waiting_for(state))
                assert FALLBACK not in reason and rule, (text, state.phase, reason)
        GAME.apply_in_place(state, seat, chooser.choice(options))
        steps += 1
    assert GAME.is_over(state)


def test_wrong_seat_and_wrong_phase_name_who_and_what() -> None:
    """rulebook p.4 (one's own turn) and p.8 (fairs at the end of a season): an action out of turn names whose
    decision it is; one of another phase names when it is taken."""
    state = holding("green")
    assert "not your decision now: waiting for P0" in refused(state, 1, "play green 1.pig")
    assert "Fairs are held only at the end of a season" in refused(state, 0, "hold spring-1")
    assert "There is no invitation to join open now" in refused(state, 0, "join green")
