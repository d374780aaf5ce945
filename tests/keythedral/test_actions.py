"""Phase three, spend resource cubes: turns, passing, and actions one to six (rules: Phase three; rulings T-9..T-11,
T-26). Sources: "rules" is shared/rules-sources/keythedral-rules.txt; rulings are docs/rulings.md (# Keythedral).
"""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.keythedral import GAME, board, flow
from engine.keythedral import supply as sup
from engine.keythedral.pieces import Cottage, Fence, Worker
from tests.keythedral.scene import at_actions, deal_law, give, play, texts
from tests.keythedral.scene_laws import actions_table, cost, run_while, set_tile, table, turn_to
from tests.keythedral.scene_laws import options as legal
from tests.keythedral.scene_more import hand_board


def cubes(state, seat: int) -> dict[str, int]:
    return dict(state.cubes[seat])


def verbs(state, seat: int) -> set[str]:
    return {a.split()[0] for a in legal(state, seat)}


# --- turns and passing ----------------------------------------------------------------------------------------


def test_phase_three_begins_with_the_start_player_after_the_real_phases_one_and_two() -> None:
    """rules: Phase three: starting with the start player each player in turn may act (reached through phases 1-2)."""
    state = table()
    state.start = 1
    state.round -= 1
    ev: list = []
    flow.begin_round(state, ev)
    flow.advance(state, ev)
    run_while(state, lambda s: s.phase != "actions")
    assert state.phase == "actions"
    assert GAME.to_act(state) == [1]


def test_turns_go_clockwise_from_the_start_player() -> None:
    """rules: Phase three: starting with the start player and continuing clockwise (yellow, grey, then blue)."""
    state = actions_table(start=1)
    seen = []
    for _ in range(3):
        seat = GAME.to_act(state)[0]
        seen.append(seat)
        play(state, seat, "pass")
    assert seen == [1, 2, 0]


def test_one_action_per_turn() -> None:
    """rules: Phase three: each player may do one of the actions on a turn; the turn then passes clockwise."""
    state = actions_table(start=0)
    give(state, 0, black=2, brown=2)
    play(state, 0, "house 1")
    assert GAME.to_act(state) == [1]
    assert legal(state, 0) == []


def test_phase_ends_when_everyone_passes_in_succession() -> None:
    """rules: Phase three, B: the phase ends once all players (none procured) have passed in succession."""
    state = actions_table(start=0)
    play(state, 0, "pass")
    play(state, 1, "pass")
    assert state.phase == "actions"
    play(state, 2, "pass")
    assert state.phase == "bidding"


def test_an_action_breaks_the_succession_of_passes() -> None:
    """rules: Phase three, B: the passes must come in succession; an action in between starts the count again."""
    state = actions_table(start=0)
    give(state, 2, black=1, brown=1)
    play(state, 0, "pass")
    play(state, 1, "pass")
    play(state, 2, "house 1")
    play(state, 0, "pass")
    play(state, 1, "pass")
    assert state.phase == "actions"
    assert GAME.to_act(state) == [2]
    play(state, 2, "pass")
    assert state.phase == "bidding"


def test_players_who_procured_are_skipped_and_the_others_passing_ends_the_phase() -> None:
    """rules: Phase three, A and B: after procuring a player takes no more actions; the phase ends when all who have
    not procured have passed in succession."""
    state = actions_table(start=0)
    give(state, 1, black=1)
    play(state, 0, "pass")
    play(state, 1, "procure 1")
    play(state, 1, "give black")
    assert state.procured[1]
    assert GAME.to_act(state) == [2]
    play(state, 2, "pass")
    assert GAME.to_act(state) == [0]
    play(state, 0, "pass")
    assert state.phase == "bidding"


def test_a_player_who_passed_may_act_again_later() -> None:
    """rules: Phase three: a player who has previously passed may still perform any of the actions."""
    state = actions_table(start=0)
    give(state, 0, black=1, brown=1)
    give(state, 2, black=1, brown=1)
    play(state, 0, "pass")
    play(state, 1, "pass")
    play(state, 2, "house 1")
    assert "house 1" in legal(state, 0)
    play(state, 0, "house 1")
    assert state.cottages[0][0].house
    assert state.phase == "actions"


# --- action one: acquire a seat -------------------------------------------------------------------------------


def test_buying_a_seat_pays_its_exact_cost_to_the_store_and_gives_the_tile() -> None:
    """rules: Phase three, action one: the cubes shown go to the store and the player takes the building tile."""
    state = actions_table(start=0)
    set_tile(state, "1.2", "b1-2")
    price = cost(state, "1.2")
    for colour in price:
        give(state, 0, **{colour: 1})
    give(state, 0, red=1)
    store = dict(state.store)
    play(state, 0, "buy 1.2")
    assert cubes(state, 0) == {c: (1 if c == "red" else 0) for c in sup.CUBES}
    for colour in set(price):
        assert state.store[colour] == store[colour] + price.count(colour)
    assert [t.space for t in state.tiles[0]] == ["1.2"]
    assert flow.mat_space(state, "1.2").taken == 0
    assert GAME.to_act(state) == [1]


def test_a_seat_is_not_for_sale_without_its_exact_cubes() -> None:
    """rules: Phase three, action one: the tile's own cube colours are needed; other colours do not pay for it."""
    state = actions_table(start=0)
    set_tile(state, "1.2", "b1-2")  # black black blue green
    give(state, 0, black=1, brown=1, blue=1, green=1)
    assert "buy 1.2" not in legal(state, 0)
    give(state, 0, black=1)
    assert "buy 1.2" in legal(state, 0)


def test_only_the_current_stage_can_be_bought() -> None:
    """rules: Phase three, action one: only face-up tiles are bought, and stage 2 turns up after stage 1."""
    state = actions_table(start=0)
    for colour in cost(state, "2.1"):
        give(state, 0, **{colour: 1})
    assert not any(a.startswith("buy 2.") for a in legal(state, 0))
    with pytest.raises(IllegalAction):
        play(state, 0, "buy 2.1")


def test_open_tiles_still_sell_only_the_current_stage() -> None:
    """rules: Variation three; spec "As built": every tile is face up, but only the current stage's seats are sold."""
    state = actions_table(start=0, open_tiles=True)
    assert all(s.up for s in state.mat)
    for colour in cost(state, "2.1"):
        give(state, 0, **{colour: 1})
    assert not any(a.startswith("buy 2.") for a in legal(state, 0))


def test_the_next_stage_turns_up_when_the_last_tile_of_a_stage_is_taken() -> None:
    """rules: Phase three, action one: once the stage-1 tiles are all acquired, the stage-2 tiles are turned over."""
    state = actions_table(start=0)
    for space in ("1.1", "1.2", "1.3"):
        turn_to(state, 0)
        for colour in cost(state, space):
            give(state, 0, **{colour: 1})
        play(state, 0, f"buy {space}")
        assert not any(s.up for s in flow.stage_spaces(state, 2))
    turn_to(state, 0)
    for colour in cost(state, "1.4"):
        give(state, 0, **{colour: 1})
    events = play(state, 0, "buy 1.4")
    assert all(s.up for s in flow.stage_spaces(state, 2))
    assert not any(s.up for s in flow.stage_spaces(state, 3))
    assert "stage-2 tiles are turned face up" in texts(events)
    for colour in cost(state, "2.3"):
        give(state, 1, **{colour: 1})
    assert "buy 2.3" in legal(state, 1)


# --- action two: a house --------------------------------------------------------------------------------------


def test_a_cottage_becomes_a_house_for_one_black_and_one_brown() -> None:
    """rules: Phase three, action two: one black and one brown go to the store and the cottage turns over."""
    state = actions_table(start=0)
    give(state, 0, black=1, brown=1, blue=1)
    store = dict(state.store)
    play(state, 0, "house 2")
    assert state.cottages[0][1].house
    assert cubes(state, 0)["blue"] == 1 and cubes(state, 0)["black"] == cubes(state, 0)["brown"] == 0
    assert state.store["black"] == store["black"] + 1 and state.store["brown"] == store["brown"] + 1


def test_no_house_without_black_and_brown() -> None:
    """rules: Phase three, action two: the conversion needs one black and one brown cube exactly."""
    state = actions_table(start=0)
    give(state, 0, black=2, blue=3)
    assert "house" not in verbs(state, 0)
    with pytest.raises(IllegalAction):
        play(state, 0, "house 1")


def test_a_house_sends_out_two_workers_next_phase_one() -> None:
    """rules: Phase three, action two: in future rounds a house places two workers, into two different fields."""
    state = actions_table(start=0)
    give(state, 0, black=1, brown=1)
    play(state, 0, "house 2")
    run_while(state, lambda s: s.phase != "workers")
    assert state.round == 2 and state.step == "order"
    play(state, GAME.to_act(state)[0], "order 2")
    run_while(state, lambda s: not (s.step == "worker" and s.queue[0] == 0))
    first = legal(state, 0)[0]
    assert first.startswith("worker")
    play(state, 0, first)
    assert GAME.to_act(state) == [0]
    second = legal(state, 0)
    assert first not in second and second[0].startswith("worker")
    play(state, 0, second[0])
    mine = [f for f, w in state.workers.items() if w == Worker(0, 2)]
    assert len(mine) == 2


# --- action three: fences -------------------------------------------------------------------------------------


def test_a_fence_costs_one_brown() -> None:
    """rules: Phase three, action three: one brown cube to the store, then one of the player's fences is laid."""
    state = actions_table(start=0)
    give(state, 0, brown=1, black=1)
    store = dict(state.store)
    play(state, 0, "fence m12+ m12")
    assert state.fences == [Fence(0, "M12+", "M12")]
    assert cubes(state, 0)["brown"] == 0 and cubes(state, 0)["black"] == 1
    assert state.store["brown"] == store["brown"] + 1
    assert GAME.view(state, None)["fences_left"][0] == 2


def test_no_fence_without_brown() -> None:
    """rules: Phase three, action three: a fence costs one brown cube; other cubes do not pay for it."""
    state = actions_table(start=0)
    give(state, 0, black=3, red=1)
    assert "fence" not in verbs(state, 0)


def test_fences_stand_only_between_a_cottage_or_house_and_a_placed_field() -> None:
    """ruling T-9: a fence goes on an edge between a square holding a cottage or house (anyone's) and a placed field;
    never beside the Keythedral or an empty square, never towards an empty lattice point."""
    state = actions_table(start=0)
    give(state, 0, brown=1)
    fences = {tuple(a.split()[1:]) for a in legal(state, 0) if a.startswith("fence")}
    assert ("m12+", "m12") in fences  # yellow's cottage: any player's
    assert ("l12+", "l12") in fences  # blue's own cottage
    assert not any(sq == "m13+" for sq, _ in fences)  # the Keythedral
    assert not any(sq == "n13+" for sq, _ in fences)  # an empty square
    assert ("k11+", "k11") not in fences  # no field there
    for sq, f in fences:
        occupied = {c.at.lower() for row in state.cottages for c in row if c.at}
        assert sq in occupied and f.upper() in state.fields


def test_one_fence_per_edge() -> None:
    """ruling T-9: one fence per edge: a fenced edge is not offered again, to anyone."""
    state = actions_table(start=0)
    give(state, 0, brown=1)
    give(state, 1, brown=1)
    play(state, 0, "fence m12+ m12")
    assert "fence m12+ m12" not in legal(state, 1)
    assert "fence m12+ n12" in legal(state, 1)


def test_three_fences_per_player_for_the_whole_game() -> None:
    """rules: Phase three, action three: no more than three fences can be played by a player during the game;
    one taken down does not give the fence back (T-9)."""
    state = actions_table(start=0)
    give(state, 0, brown=5)
    give(state, 1, red=2)
    for edge in ("m12+ m12", "m12+ n12", "n12+ o12"):
        turn_to(state, 0)
        play(state, 0, f"fence {edge}")
    turn_to(state, 1)
    play(state, 1, "unfence m12+ m12")
    turn_to(state, 0)
    assert cubes(state, 0)["brown"] == 2
    assert "fence" not in verbs(state, 0)
    assert GAME.view(state, None)["fences_left"][0] == 0


# --- relocation ----------------------------------------------------------------------------------------------


def test_a_cottage_fenced_off_from_every_field_is_moved_by_its_owner() -> None:
    """rules: Phase three, action three; ruling T-10: a cottage fenced off from all its fields is placed again at
    once, and its owner (not the player who fenced) chooses the square."""
    state = actions_table(start=2)
    give(state, 2, brown=1)
    play(state, 2, "fence o15+ o15")  # yellow's cottage 3 touches only O15
    assert GAME.to_act(state) == [1]
    assert state.phase == "actions" and state.pending.KIND == "relocate"
    assert "relocate 3 n13+" in legal(state, 1)
    play(state, 1, "relocate 3 n13+")
    assert state.cottages[1][2].at == "N13+"
    assert state.pending is None
    assert GAME.to_act(state) == [0]  # grey's turn is over; play goes on clockwise from grey


def test_relocation_squares_are_empty_squares_reaching_a_field() -> None:
    """ruling T-10: the new square is empty, not the Keythedral's, and touches a field across an unfenced edge."""
    state = actions_table(start=0)
    give(state, 0, brown=1)
    play(state, 0, "fence o15+ o15")
    squares = {a.split()[2] for a in legal(state, 1)}
    occupied = {c.at.lower() for row in state.cottages for c in row if c.at}
    assert "m13+" not in squares
    assert "o15+" not in squares  # its own square is fenced off
    assert not squares & occupied
    assert "n13+" in squares and "o14+" in squares


def test_a_house_stays_a_house_when_it_moves() -> None:
    """rules: Phase three, action three: house tiles remain houses when they are replaced (T-10)."""
    state = actions_table(start=1)
    give(state, 1, black=1, brown=1)
    play(state, 1, "house 3")
    give(state, 2, brown=1)
    play(state, 2, "fence o15+ o15")
    play(state, 1, "relocate 3 n13+")
    assert state.cottages[1][2] == Cottage("N13+", True)


def test_the_fences_stay_when_a_cottage_moves() -> None:
    """rules: Phase three, action three: the fences remain in the same position; the emptied square they cut off is
    no place to move to later (T-10)."""
    state = actions_table(start=0)
    give(state, 0, brown=2)
    play(state, 0, "fence o15+ o15")
    play(state, 1, "relocate 3 n13+")
    assert Fence(0, "O15+", "O15") in state.fences
    turn_to(state, 0)
    play(state, 0, "fence k11+ l12")
    assert "relocate 3 o15+" not in legal(state, 0)


def test_a_player_may_fence_off_their_own_cottage_to_move_it() -> None:
    """rules: Phase three, action three: you may fence off one of your own cottages to place it elsewhere."""
    state = actions_table(start=0)
    give(state, 0, brown=1)
    play(state, 0, "fence k11+ l12")
    assert GAME.to_act(state) == [0] and state.pending.KIND == "relocate"
    play(state, 0, "relocate 3 n13+")
    assert state.cottages[0][2].at == "N13+"
    assert GAME.to_act(state) == [1]


def test_a_partly_fenced_cottage_stays() -> None:
    """rules: Phase three, action three: only a cottage fenced off from all of its fields relocates."""
    state = actions_table(start=0)
    give(state, 0, brown=1)
    play(state, 0, "fence m12+ m12")
    assert state.pending is None
    assert state.cottages[1][0].at == "M12+"
    assert GAME.to_act(state) == [1]


# --- removing fences -------------------------------------------------------------------------------------------


def test_any_fence_comes_down_for_two_red_and_is_gone_for_good() -> None:
    """rules: Phase three, action three: two red cubes remove a fence of any colour; it cannot be re-laid."""
    state = actions_table(start=0)
    give(state, 0, brown=1)
    play(state, 0, "fence m12+ m12")
    give(state, 1, red=3)
    store = dict(state.store)
    assert "unfence m12+ m12" in legal(state, 1)
    play(state, 1, "unfence m12+ m12")
    assert state.fences == []
    assert cubes(state, 1)["red"] == 1 and state.store["red"] == store["red"] + 2
    assert state.fences_built[0] == 1 and GAME.view(state, None)["fences_left"][0] == 2


def test_no_fence_removal_with_one_red() -> None:
    """rules: Phase three, action three: removing a fence costs two red cubes."""
    state = actions_table(start=0)
    give(state, 0, brown=1)
    play(state, 0, "fence m12+ m12")
    give(state, 1, red=1, black=3)
    assert "unfence" not in verbs(state, 1)


# --- action four: the craftsmen -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("verb", "colour", "price"), [("smith", "white", 2), ("glass", "purple", 3),
                                                        ("gold", "yellow", 4)])
def test_a_craftsman_sells_his_cube_for_any_cubes_paid_to_the_store(verb: str, colour: str, price: int) -> None:
    """rules: Phase three, action four: the blacksmith, glassmaker and goldsmith give one white, purple or yellow
    cube for any 2, 3 or 4 resource or craft cubes, which go into the store."""
    state = actions_table(start=0)
    give(state, 0, red=price - 1, white=1)
    before_store, before_craft = dict(state.store), state.craftsmen[colour]
    play(state, 0, verb)
    assert GAME.to_act(state) == [0]
    play(state, 0, "give white")
    for _ in range(price - 1):
        assert GAME.to_act(state) == [0]
        play(state, 0, "give red")
    assert cubes(state, 0)[colour] == 1
    assert cubes(state, 0)["red"] == 0
    assert state.craftsmen[colour] == before_craft - 1
    assert state.store["red"] == before_store["red"] + price - 1
    assert state.store["white"] == before_store["white"] + 1
    assert GAME.to_act(state) == [1]


@pytest.mark.parametrize(("verb", "price"), [("smith", 2), ("glass", 3), ("gold", 4)])
def test_a_craftsman_needs_the_full_price(verb: str, price: int) -> None:
    """rules: Phase three, action four: fewer cubes than the price buy nothing."""
    state = actions_table(start=0)
    give(state, 0, black=price - 1)
    assert verb not in verbs(state, 0)
    give(state, 0, black=1)
    assert verb in verbs(state, 0)


def test_one_used_craft_cube_goes_back_to_an_empty_craftsman_per_purchase() -> None:
    """rules: Phase three, action four ("the required number"); ruling T-11: with none left at the forge, one used
    white cube goes back from the store to the blacksmith, who sells it at once; the others stay in the store."""
    state = actions_table(start=0)
    state.craftsmen["white"], state.store["white"] = 0, 3
    give(state, 0, black=2)
    play(state, 0, "smith")
    play(state, 0, "give black")
    events = play(state, 0, "give black")
    assert cubes(state, 0)["white"] == 1
    assert state.craftsmen["white"] == 0 and state.store["white"] == 2
    assert "a used white cube went back to the craftsman first" in texts(events)


def test_used_cubes_left_in_the_store_stay_open_to_craft_bargain() -> None:
    """rules: Phase three, action four ("the required number" of 'used' white cubes); Appendix, card 7; ruling
    T-11: the forge empty and 3 used white cubes in the store, Ana's purchase takes one back to the blacksmith and
    leaves 2 in the store, so Ben's Craft Bargain can still take a used white cube from there."""
    state = actions_table(start=0)
    deal_law(state, 1, "craft-bargain")
    state.craftsmen["white"], state.store["white"] = 0, 3
    give(state, 0, black=2)
    give(state, 1, green=1)
    play(state, 0, "smith")
    play(state, 0, "give black")
    play(state, 0, "give black")
    assert (cubes(state, 0)["white"], state.craftsmen["white"], state.store["white"]) == (1, 0, 2)
    play(state, 1, "laws")
    assert "law craft-bargain green white" in legal(state, 1)
    play(state, 1, "law craft-bargain green white")
    assert cubes(state, 1)["white"] == 1 and cubes(state, 1)["green"] == 0
    assert state.store["white"] == 1 and state.craftsmen["white"] == 0
    assert sup.craft_available(state, "white")  # the blacksmith can still sell the last used one


def test_an_empty_craftsman_with_no_used_cubes_sells_nothing() -> None:
    """rules: Phase three, action four: only a craftsman with cubes at hand, or used ones in the store, can sell."""
    state = actions_table(start=0)
    state.craftsmen["purple"], state.store["purple"] = 0, 0
    give(state, 0, black=5)
    assert "glass" not in verbs(state, 0)
    assert "smith" in verbs(state, 0)


# --- action five: the trader ---------------------------------------------------------------------------------


def test_the_trader_takes_two_cubes_for_one_resource_of_your_choice() -> None:
    """rules: Phase three, action five: any two resource or craft cubes to the store, one resource of your choice
    from the store."""
    state = actions_table(start=0)
    give(state, 0, black=1, white=1)
    store = dict(state.store)
    play(state, 0, "trade")
    play(state, 0, "give white")
    play(state, 0, "give black")
    choices = legal(state, 0)
    assert choices == [f"take {c}" for c in sup.RESOURCES if state.store[c] > 0]
    play(state, 0, "take red")
    assert cubes(state, 0) == {c: (1 if c == "red" else 0) for c in sup.CUBES}
    assert state.store["white"] == store["white"] + 1 and state.store["red"] == store["red"] - 1
    assert GAME.to_act(state) == [1]


def test_the_trader_never_gives_a_craft_cube() -> None:
    """rules: Phase three, action five: the trader gives a resource cube, not a craft cube, even with used craft cubes
    in the store."""
    state = actions_table(start=0)
    state.store["yellow"] = 2
    give(state, 0, black=2)
    play(state, 0, "trade")
    play(state, 0, "give black")
    play(state, 0, "give black")
    assert not any(c in a for a in legal(state, 0) for c in sup.CRAFTS)


def test_the_trader_wants_two_cubes() -> None:
    """rules: Phase three, action five: one cube is not enough for the trader."""
    state = actions_table(start=0)
    give(state, 0, black=1)
    assert "trade" not in verbs(state, 0)


# --- action six: procure a law ---------------------------------------------------------------------------------


def test_procuring_a_law_costs_one_cube_and_takes_the_card_from_its_space() -> None:
    """rules: Phase three, action six; ruling T-26: one cube to the store, the card on the chosen space to the hand."""
    state = actions_table(start=0)
    give(state, 0, green=1, black=1)
    card = state.law_spaces[1]
    store = dict(state.store)
    play(state, 0, "procure 2")
    play(state, 0, "give green")
    assert state.hands[0] == [card]
    assert state.law_spaces[1] is None and state.law_spaces[0] is not None
    assert state.store["green"] == store["green"] + 1 and cubes(state, 0)["black"] == 1
    assert "procure 2" not in legal(state, 1)


def test_after_procuring_a_player_takes_no_more_actions_that_round_while_the_others_go_on() -> None:
    """rules: Phase three, action six: after procuring the player may perform no further actions this round (so at
    most one law per round); the others continue."""
    state = actions_table(start=0)
    give(state, 0, black=5, brown=5)
    give(state, 1, black=1, brown=1)
    give(state, 2, black=1, brown=1)
    play(state, 0, "procure 1")
    play(state, 0, "give black")
    for _ in range(3):
        seat = GAME.to_act(state)[0]
        assert seat != 0
        assert legal(state, 0) == []
        play(state, seat, "house 1" if "house 1" in legal(state, seat) else "pass")
    assert state.phase == "actions" and state.cottages[1][0].house and state.cottages[2][0].house
    assert GAME.to_act(state) == [2]
    assert len(state.hands[0]) == 1


def test_procured_players_may_act_again_next_round() -> None:
    """rules: Phase three, action six: the bar lasts for the phase three of the round the card was procured in."""
    state = actions_table(start=0)
    give(state, 0, black=1)
    play(state, 0, "procure 1")
    play(state, 0, "give black")
    run_while(state, lambda s: s.phase != "workers")
    assert state.procured == [False, False, False]


def test_no_cube_no_law() -> None:
    """rules: Phase three, action six: the law master asks one cube for a card."""
    state = actions_table(start=0)
    assert "procure" not in verbs(state, 0)


def test_two_players_have_one_new_law_space() -> None:
    """rules: Variation one, item 3: with two players only one law card is available per round."""
    state = actions_table(players=2, start=0)
    give(state, 0, black=1)
    assert [a for a in legal(state, 0) if a.startswith("procure")] == ["procure 1"]


# --- no trading between players ---------------------------------------------------------------------------------


def test_players_may_not_trade_with_each_other() -> None:
    """rules: Phase three: players may not trade with each other; no phase-three action names another player, and a
    trade's cubes go to the store, not to anyone."""
    state = actions_table(start=0)
    give(state, 0, black=2, red=2, brown=2, white=1)
    names = set(state.names) | {"yellow", "grey"}
    assert not any(word in names for a in legal(state, 0) for word in a.split())
    with pytest.raises(Exception):  # noqa: B017 - any refusal: there is no such action
        play(state, 0, "give black")
    others = [cubes(state, 1), cubes(state, 2)]
    play(state, 0, "trade")
    play(state, 0, "give black")
    play(state, 0, "give black")
    play(state, 0, "take green")
    assert [cubes(state, 1), cubes(state, 2)] == others


def test_the_trader_may_give_back_a_colour_just_paid() -> None:
    """ruling T-36: the two cubes go into the store first, then the cube is chosen from the store."""
    state = actions_table(start=0)
    state.store["red"] = 0
    give(state, 0, black=1)
    state.cubes[0]["red"] = 1
    play(state, 0, "trade")
    play(state, 0, "give red")
    play(state, 0, "give black")
    assert "take red" in legal(state, 0)


# --- relocation after the last of several fences; nowhere to relocate (T-42) ------------------------------------


@pytest.mark.parametrize(("extra", "edges"), [
    pytest.param({}, ["m13", "m14"], id="two"),
    pytest.param({"L14": "farm"}, ["m13", "m14", "l14"], id="three"),
    pytest.param({"L13": "lake", "L14": "farm"}, ["m13", "m14", "l14", "l13"], id="four"),
])
def test_a_cottage_moves_after_the_last_of_several_fences(extra: dict[str, str], edges: list[str]) -> None:
    """rules: Phase three, action three ¶3 (one, two, three or four fences, depending on how many fields touch the
    cottage); ruling T-10: each fence but the last leaves the cottage where it is; the last one, whoever builds it,
    fences it off from every field and its owner moves it at once."""
    # Ben's cottage 1 on L13+ touches M13 and M14 (the centre), and L14 and L13 when those fields are laid.
    state = at_actions(hand_board(3, extra, {(1, 1): "L13+"}), 0)
    give(state, 0, brown=2)
    give(state, 2, brown=2)
    fencers = [0, 2, 0, 2]
    for k, field in enumerate(edges):
        turn_to(state, fencers[k])
        events = play(state, fencers[k], f"fence l13+ {field}")
        if k < len(edges) - 1:
            assert state.pending is None and "must move" not in texts(events)
            assert state.cottages[1][0].at == "L13+"
    assert len(state.fences) == len(edges)
    assert state.pending.KIND == "relocate" and GAME.to_act(state) == [1]
    assert "Ben's cottage 1 is fenced off from every field and must move" in texts(events)
    assert "relocate 1 n13+" in legal(state, 1) and "relocate 1 l13+" not in legal(state, 1)
    play(state, 1, "relocate 1 n13+")
    assert state.cottages[1][0] == Cottage("N13+", False)
    assert GAME.to_act(state) == [(fencers[len(edges) - 1] + 1) % 3]


def test_a_fenced_off_cottage_with_no_available_square_stays_where_it_is() -> None:
    """rules: Phase three, action three ¶3 ("any available new position"); ruling T-42: with no empty square next to
    an unfenced field the fenced-off cottage stays where it is and play goes on. The hand-laid board (the four
    centre fields alone, every square round them taken) is one no real set-up makes, which is why the ruling says
    the case does not arise in practice."""
    squares = ["L12+", "M12+", "N12+", "L13+", "N13+", "L14+", "M14+", "N14+"]
    seats_numbers = [(0, 1), (0, 2), (0, 3), (1, 1), (1, 2), (1, 3), (2, 1), (2, 2)]
    state = at_actions(hand_board(3, {}, dict(zip(seats_numbers, squares, strict=True))), 0)
    assert board.relocation_squares(state) == []
    give(state, 0, brown=1)
    events = play(state, 0, "fence l12+ m13")  # L12+ (Ana's cottage 1) touches only M13
    assert board.fenced_off(state, "L12+")
    assert state.pending is None and "must move" not in texts(events)
    assert state.cottages[0][0].at == "L12+"
    assert GAME.to_act(state) == [1]
    assert not any(a.startswith("relocate") for s in range(3) for a in legal(state, s))


# --- action four: the glassmaker's and goldsmith's restock (T-11) ----------------------------------------------


@pytest.mark.parametrize(("verb", "colour", "price"), [pytest.param("glass", "purple", 3, id="glass"),
                                                        pytest.param("gold", "yellow", 4, id="gold")])
def test_one_used_purple_or_yellow_cube_goes_back_to_an_empty_glassmaker_or_goldsmith(verb: str, colour: str,
                                                                                  price: int) -> None:
    """rules: Phase three, action four ¶6 and ¶9 ("the required number"); ruling T-11: with no purple cube left at
    the glassworks (no yellow at the workshop), one used cube goes back from the store to the craftsman, who sells
    it; the other two stay in the store."""
    state = actions_table(start=0)
    state.craftsmen[colour], state.store[colour] = 0, 3
    give(state, 0, black=price)
    assert verb in verbs(state, 0)
    play(state, 0, verb)
    for _ in range(price - 1):
        play(state, 0, "give black")
    events = play(state, 0, "give black")
    assert cubes(state, 0)[colour] == 1 and cubes(state, 0)["black"] == 0
    assert state.craftsmen[colour] == 0 and state.store[colour] == 2
    assert f"a used {colour} cube went back" in texts(events)
    assert GAME.to_act(state) == [1]


# --- action six: a craft cube pays the law master ------------------------------------------------------------------


@pytest.mark.parametrize("craft", ["white", "purple", "yellow"])
def test_the_law_master_accepts_a_craft_cube(craft: str) -> None:
    """rules: Phase three, action six ¶1: the law master issues a card for any one resource or craft cube; the craft
    cube goes into the store (a used cube)."""
    state = actions_table(start=0)
    give(state, 0, **{craft: 1})
    card = state.law_spaces[0]
    store = state.store[craft]
    assert "procure 1" in legal(state, 0)
    play(state, 0, "procure 1")
    assert legal(state, 0) == [f"give {craft}"]
    play(state, 0, f"give {craft}")
    assert state.hands[0] == [card] and state.procured[0]
    assert sum(cubes(state, 0).values()) == 0 and state.store[craft] == store + 1
    assert GAME.to_act(state) == [1]
