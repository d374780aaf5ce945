"""When law cards may be played, card by card as the Appendix words it (rulings T-13, T-15, T-16, T-18, T-40): Repeal
Law until the next player starts their turn, the "at any time" cards out of turn with nobody asked, the windows
that remain (phase starts, purchases) and whom they ask.

Card 10 (Repeal Law): "The effect of one law card just played by another player (player A) is ignored. Where
player B sits to the left of player A, this law card must be played before player B starts their turn."
"""

from __future__ import annotations

import pytest

from engine.core import TURN, IllegalAction
from engine.keythedral import GAME, flow
from engine.keythedral.pieces import Fence, Space, Worker
from engine.keythedral.state import KState
from tests.keythedral.scene import deal_law, give, play, texts
from tests.keythedral.scene_laws import actions_table, cost, give_cost, set_tile, table, to_harvest, to_phase_one
from tests.keythedral.scene_laws import options as legal


def hold(state: KState, seat: int, *keys: str) -> None:
    """Deal law cards into a seat's hand."""
    for key in keys:
        deal_law(state, seat, key)


def all_continue(state: KState) -> None:
    """Everyone asked in the open window plays nothing."""
    while state.windows and not state.pending:
        play(state, GAME.to_act(state)[0], "continue")


def space(state: KState, name: str) -> Space:
    """A mat space by name."""
    return flow.mat_space(state, name)


def refused(state: KState, seat: int, text: str) -> None:
    """The seat's action is refused and changes nothing."""
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction):
        play(state, seat, text)
    assert GAME.to_json(state) == before


def fenced(state: KState) -> KState:
    """Grey's fence between blue's cottage 1 (L12+) and the farm M12."""
    state.fences.append(Fence(2, "L12+", "M12"))
    state.fences_built[2] = 1
    return state


# --- Repeal Law: until the next player starts their turn (card 10; T-15) -----------------------------------------


def test_repeal_after_the_cards_player_declares_a_purchase_and_before_the_next_turn() -> None:
    """rules: Appendix, card 10 ("must be played before player B starts their turn"); ruling T-15: Ana plays Price
    Decrease on her turn and Cleo lets it stand; Ana then declares the purchase; Ben has not started his turn, so
    Cleo may still repeal it in the purchase window, and Ana pays the printed price."""
    state = actions_table(start=0)
    set_tile(state, "1.1", "b1-1")  # black brown blue green
    hold(state, 0, "price-decrease")
    hold(state, 2, "repeal")
    give_cost(state, 0, cost(state, "1.1"))
    play(state, 0, "laws")
    play(state, 0, "law price-decrease 1.1")
    play(state, 2, "continue")  # the repeal window right after the card: Cleo lets it stand
    assert space(state, "1.1").dec == 1
    play(state, 0, "buy 1.1")
    assert GAME.to_act(state) == [2] and "law repeal" in legal(state, 2)
    said = texts(play(state, 2, "law repeal"))
    assert "Price Decrease is repealed" in said
    assert space(state, "1.1").dec == 0
    all_continue(state)
    assert [t.space for t in state.tiles[0]] == ["1.1"] and sum(state.cubes[0].values()) == 0  # the printed cost paid
    assert GAME.to_act(state) == [1]


def test_repeal_out_of_turn_while_the_cards_player_is_still_on_their_turn() -> None:
    """rules: Appendix, card 10; ruling T-15: after the repeal window, while Ana is still on her turn (Ben has not
    started his), Cleo may repeal her card without being asked: no decision opens for it, and Ana's turn goes on."""
    state = actions_table(start=0)
    hold(state, 0, "price-decrease")
    hold(state, 2, "repeal")
    play(state, 0, "laws")
    play(state, 0, "law price-decrease 1.2")
    play(state, 2, "continue")
    assert GAME.to_act(state) == [0] and [d.seat for d in GAME.decisions(state)] == [0]
    assert legal(state, 2) == ["law repeal"]
    play(state, 2, "law repeal")
    assert space(state, "1.2").dec == 0 and state.hands[2] == []
    assert GAME.to_act(state) == [0] and [d.kind for d in GAME.decisions(state)] == [TURN]
    assert GAME.view(state, None)["laws_played"] == ["Price Decrease", "Repeal Law"]


def test_repeal_is_refused_once_the_next_player_has_started_their_turn() -> None:
    """rules: Appendix, card 10 ("before player B starts their turn"): once Ana has passed and Ben's turn has
    begun, Price Decrease can no longer be repealed; it stays under the tile."""
    state = actions_table(start=0)
    hold(state, 0, "price-decrease")
    hold(state, 2, "repeal")
    play(state, 0, "laws")
    play(state, 0, "law price-decrease 1.2")
    play(state, 2, "continue")
    play(state, 0, "pass")
    assert GAME.to_act(state) == [1]
    assert legal(state, 2) == []
    refused(state, 2, "law repeal")
    assert space(state, "1.2").dec == 1 and state.hands[2] == [10]


def test_repeal_only_of_another_players_card() -> None:
    """rules: Appendix, card 10 ("one law card just played by another player"): one's own card is never repealed."""
    state = actions_table(start=0)
    hold(state, 0, "price-decrease", "repeal")
    play(state, 0, "laws")
    play(state, 0, "law price-decrease 1.2")  # nobody else holds a card: it acts at once
    play(state, 0, "laws")
    assert "law repeal" not in legal(state, 0)
    play(state, 0, "back")
    assert legal(state, 1) == [] and legal(state, 2) == []


def test_repeal_only_of_the_card_just_played() -> None:
    """rules: Appendix, card 10 ("one law card just played"): once Ben plays Craft Bargain after Ana's Price
    Decrease, only Ben's card may be repealed; Cleo's repeal undoes the exchange, and Ana's card stands."""
    state = actions_table(start=0)
    hold(state, 0, "price-decrease")
    hold(state, 1, "craft-bargain")
    hold(state, 2, "repeal")
    state.store["white"] = 1
    give(state, 1, black=1)
    play(state, 0, "laws")
    play(state, 0, "law price-decrease 1.2")
    all_continue(state)
    play(state, 1, "law craft-bargain black white")  # out of turn: Ana's turn goes on
    play(state, 2, "continue")  # Cleo lets it act first
    assert state.cubes[1]["white"] == 1 and state.store["white"] == 0
    play(state, 2, "law repeal")
    assert (state.cubes[1]["black"], state.cubes[1]["white"], state.store["white"]) == (1, 0, 1)
    assert space(state, "1.2").dec == 1  # the earlier card was not the one just played
    assert GAME.to_act(state) == [0]


def test_a_repeal_undoes_the_cubes_a_bargain_gave() -> None:
    """rules: Appendix, cards 10 and 15; ruling T-15: a Bargain that has acted (its player took two cubes) and is
    repealed before the next turn gives the cubes back: the player holds what they held before the card."""
    state = actions_table(start=0)
    hold(state, 0, "bargain")
    hold(state, 2, "repeal")
    give(state, 0, green=1)
    before, store = dict(state.cubes[0]), dict(state.store)
    play(state, 0, "laws")
    play(state, 0, "law bargain green")
    play(state, 2, "continue")
    assert legal(state, 2) == []  # not while Ana chooses her cubes: the card is still acting
    play(state, 0, "take red")
    play(state, 0, "take blue")
    assert legal(state, 2) == ["law repeal"]
    play(state, 2, "law repeal")
    assert state.cubes[0] == before and state.store == store
    assert GAME.to_act(state) == [0]


def test_a_repealed_design_change_puts_the_old_tile_back_while_the_buyer_is_still_on_turn() -> None:
    """rules: Appendix, cards 10 and 13; ruling T-15, T-16: Cleo's Design Change blocks Ana's purchase and acts;
    Ana is still on her turn, so Ben may repeal it: the old tile is back and Ana may buy it."""
    state = actions_table(start=0)
    hold(state, 1, "repeal")
    hold(state, 2, "design-change")
    old = space(state, "1.2").tile
    give_cost(state, 0, cost(state, "1.2"))
    play(state, 0, "buy 1.2")
    play(state, 2, "law design-change 1.2")
    play(state, 1, "continue")
    drawn = space(state, "1.2").tile
    assert drawn != old and GAME.to_act(state) == [0] and state.tiles[0] == []
    said = texts(play(state, 1, "law repeal"))
    assert space(state, "1.2").tile == old and "has its old tile back" in said
    assert drawn in state.unused["1"] and old not in state.unused["1"]
    play(state, 0, "buy 1.2")
    assert [(t.space, t.tile) for t in state.tiles[0]] == [("1.2", old)]


def test_repeal_at_a_phase_start_lasts_until_the_phase_begins() -> None:
    """rules: Appendix, cards 10 and 20; ruling T-15, T-40: a Start Order played as phase 1 starts may be repealed
    in the window asked again after it acted; once that window closes and the start player's choice is due, the
    next player has started their turn and a repeal is refused."""
    state = table()
    hold(state, 0, "start-order", "craft-bargain")
    hold(state, 2, "repeal")
    to_phase_one(state)
    play(state, 0, "law start-order yellow")
    play(state, 2, "continue")
    assert state.start == 1 and state.windows[-1].KIND == "phase" and 2 in GAME.to_act(state)
    assert "law repeal" in legal(state, 2)
    said = texts(play(state, 2, "law repeal"))
    assert state.start == 0 and "Ana is the start player again" in said
    again = table()
    hold(again, 0, "start-order", "craft-bargain")
    hold(again, 2, "repeal")
    to_phase_one(again)
    play(again, 0, "law start-order yellow")
    all_continue(again)
    assert again.step == "order" and GAME.to_act(again) == [1]
    refused(again, 2, "law repeal")


def test_repeal_in_phase_one_ends_with_the_next_worker_placed() -> None:
    """rules: Appendix, cards 9 and 10; ruling T-15: Ana plays Broken Fences on her placement; before she places,
    Cleo may still repeal it; once a worker is placed the card's effect has been used and a repeal is refused."""
    for repeal_first in (True, False):
        state = fenced(table())
        hold(state, 0, "broken-fences")
        hold(state, 2, "repeal")
        to_phase_one(state)
        all_continue(state)
        play(state, 0, "order 1")
        assert "worker m12" not in legal(state, 0)
        play(state, 0, "laws")
        play(state, 0, "law broken-fences blue")
        play(state, 2, "continue")
        assert "worker m12" in legal(state, 0)
        if repeal_first:
            play(state, 2, "law repeal")
            assert state.broken == [] and "worker m12" not in legal(state, 0)
        else:
            play(state, 0, "worker m12")
            refused(state, 2, "law repeal")
            assert state.workers["M12"] == Worker(0, 1)


# --- the "at any time" cards, out of turn (cards 7, 11, 13; T-13) ------------------------------------------------


def test_craft_bargain_during_another_players_phase_three_turn() -> None:
    """rules: Appendix, card 7 ("Play this card at any time"); ruling T-13: while Ben takes his phase-3 turn,
    Cleo plays Craft Bargain unasked; nobody is asked about it and it is still Ben's turn."""
    state = actions_table(start=1)
    hold(state, 2, "craft-bargain")
    state.store["white"] = 1
    give(state, 2, green=1)
    assert GAME.to_act(state) == [1] and [d.seat for d in GAME.decisions(state)] == [1]
    assert legal(state, 2) == ["law craft-bargain green white"]
    play(state, 2, "law craft-bargain green white")
    assert state.cubes[2]["white"] == 1 and state.cubes[2]["green"] == 0
    assert GAME.to_act(state) == [1] and [d.kind for d in GAME.decisions(state)] == [TURN]


def test_unsafe_fence_during_another_players_phase_three_turn() -> None:
    """rules: Appendix, card 11 ("This card can be played at any time"): Cleo removes Ana's fence while Ben is
    deciding his turn (his hand open, even), and Ben's turn goes on."""
    state = actions_table(start=0)
    give(state, 0, brown=1)
    play(state, 0, "fence m12+ m12")
    hold(state, 1, "bargain")
    hold(state, 2, "unsafe-fence")
    play(state, 1, "laws")
    assert legal(state, 2) == ["law unsafe-fence m12+ m12"]
    play(state, 2, "law unsafe-fence m12+ m12")
    assert GAME.to_act(state) == [1] and legal(state, 1) == ["continue"]  # Ben, a holder, may repeal it first
    play(state, 1, "continue")
    assert state.fences == [] and GAME.view(state, None)["fences_left"][0] == 2
    assert GAME.to_act(state) == [1] and "pass" in legal(state, 1)


def test_design_change_during_another_players_phase_three_turn() -> None:
    """rules: Appendix, card 13 ("You may choose to change the tile at any time"); ruling T-16: while Ben decides,
    Cleo swaps a face-up tile; Ben's turn goes on, and he buys the new tile at its own cost."""
    state = actions_table(start=1)
    hold(state, 2, "design-change")
    old = space(state, "1.3").tile
    play(state, 2, "law design-change 1.3")
    new = space(state, "1.3").tile
    assert new != old and old in state.unused["1"]
    assert GAME.to_act(state) == [1]
    give_cost(state, 1, cost(state, "1.3"))
    play(state, 1, "buy 1.3")
    assert [(t.space, t.tile) for t in state.tiles[1]] == [("1.3", new)]


def test_design_change_by_the_buyer_on_their_declared_purchase_stops_it_the_same_way() -> None:
    """rules: Appendix, card 13 ("at any time, even when a player has declared that they are acquiring the target
    tile"); ruling T-16: the buyer, not asked in the purchase window, may still play it unasked; the purchase is
    stopped and the buyer's turn goes on, no action used."""
    state = actions_table(start=0)
    hold(state, 0, "design-change")
    hold(state, 1, "bargain")
    give_cost(state, 0, cost(state, "1.2"))
    held = dict(state.cubes[0])
    play(state, 0, "buy 1.2")
    assert GAME.to_act(state) == [1] and "law design-change 1.2" in legal(state, 0)
    play(state, 0, "law design-change 1.2")
    play(state, 1, "continue")  # Ben may repeal it first
    assert state.windows == [] and state.tiles[0] == [] and state.cubes[0] == held
    assert GAME.to_act(state) == [0] and state.passes == 0


def test_a_work_order_is_open_to_repeal_once_its_order_is_set() -> None:
    """rules: Appendix, cards 1 and 10; ruling T-15: while Ana sets her work order nobody plays a card; once it is
    set, the phase-1 window asks again and Cleo may repeal it, so the numbers are chosen as usual."""
    state = table()
    hold(state, 0, "work-order")
    hold(state, 2, "repeal", "bargain")
    to_phase_one(state)
    play(state, 0, "law work-order")
    play(state, 2, "continue")
    for n in (3, 1, 5):
        assert legal(state, 2) == []
        play(state, 0, f"order {n}")
    play(state, 0, "order 2")
    assert state.fixed_order == [3, 1, 5, 2, 4] and GAME.to_act(state) == [2]
    play(state, 2, "law repeal")
    assert state.fixed_order is None
    all_continue(state)
    assert state.step == "order" and GAME.to_act(state) == [0] and len(legal(state, 0)) == 5


def test_any_time_cards_wait_while_an_action_is_carried_out() -> None:
    """ruling T-13: an action under way (Cleo paying the trader cube by cube) is finished first: no card is played
    in the middle of it, and afterwards it may be."""
    state = fenced(actions_table(start=2))
    hold(state, 1, "unsafe-fence")
    give(state, 2, black=2)
    play(state, 2, "trade")
    assert legal(state, 1) == []
    refused(state, 1, "law unsafe-fence l12+ m12")
    play(state, 2, "give black")
    play(state, 2, "give black")
    assert legal(state, 1) == []  # still choosing the cube to take
    play(state, 2, "take red")
    assert GAME.to_act(state) == [0] and legal(state, 1) == ["law unsafe-fence l12+ m12"]


def test_no_window_opens_for_any_time_cards() -> None:
    """ruling T-13: nobody is asked about the any-time cards after an ordinary action: each turn is its player's
    decision alone, though others hold Craft Bargain, Unsafe Fence and Design Change; they may still play them."""
    state = fenced(actions_table(start=0))
    hold(state, 1, "design-change")
    hold(state, 2, "unsafe-fence", "craft-bargain")
    for seat in (0, 1, 2):
        assert [(d.seat, d.kind) for d in GAME.decisions(state)] == [(seat, TURN)]
        assert not state.windows
        assert all(legal(state, s) for s in (1, 2) if s != seat)
        if seat != 2:
            play(state, seat, "pass")


def test_a_non_holder_has_nothing_to_play_out_of_turn() -> None:
    """ruling T-13: only a holder may play out of turn; a seat holding no card has no action and is refused."""
    state = fenced(actions_table(start=0))
    hold(state, 2, "unsafe-fence")
    assert legal(state, 1) == []
    refused(state, 1, "law unsafe-fence l12+ m12")
    refused(state, 1, "pass")


def test_any_time_cards_during_the_bidding() -> None:
    """rules: Appendix, card 11 (at any time): during phase 5, once Cleo has bid and while Ana bids, Cleo's Unsafe
    Fence is played out of turn and the bidding goes on where it was."""
    state = fenced(actions_table(start=0))
    hold(state, 2, "unsafe-fence")
    for seat in (0, 1, 2):
        play(state, seat, "pass")
    all_continue(state)
    assert state.phase == "bidding" and GAME.to_act(state) == [2]  # bids begin left of B (Ben)
    play(state, 2, "pass")
    assert GAME.to_act(state) == [0]
    play(state, 2, "law unsafe-fence l12+ m12")
    assert state.fences == [] and GAME.to_act(state) == [0]
    assert state.bidding is not None and state.bidding.idx == 1


@pytest.mark.parametrize("card", [pytest.param("broken-fences blue", id="broken-fences"), "house-moratorium"])
def test_phase_one_cards_during_another_players_placement(card: str) -> None:
    """rules: Appendix, cards 9 ("Play this card before or during phase one") and 12 ("before or at the start of
    phase three"): Cleo plays it unasked while Ana places her worker; Ana's placement goes on under it."""
    state = fenced(table())
    hold(state, 2, card.split()[0])
    to_phase_one(state)
    play(state, 2, "continue")
    play(state, 0, "order 1")
    assert GAME.to_act(state) == [0] and f"law {card}" in legal(state, 2)
    play(state, 2, f"law {card}")
    assert GAME.to_act(state) == [0]
    if card.startswith("broken"):
        assert "worker m12" in legal(state, 0)
    else:
        assert state.moratorium == 2


def test_phase_start_cards_are_not_played_out_of_turn() -> None:
    """rules: Appendix, cards 1 and 20 (at the beginning of a phase) and T-18 (the harvest cards, at the start of
    phase 2): during another player's turn they are not offered; nor is House Moratorium once phase 3 is under way."""
    state = actions_table(start=0)
    hold(state, 2, "start-order", "good-harvest", "house-moratorium", "work-order")
    assert legal(state, 2) == []
    harvest = table()
    hold(harvest, 2, "good-harvest")
    to_harvest(harvest, {"O15": (0, 2)})
    assert GAME.to_act(harvest) == [2] and "law good-harvest woods" in legal(harvest, 2)


# --- the windows that remain (T-13, T-40) -------------------------------------------------------------------------


def test_the_buyer_is_not_asked_in_a_reopened_purchase_window() -> None:
    """ruling T-13, T-40: a purchase window asks the other holders; after a card played in it has acted (and again
    after a repeal), the window asks them again, never the buyer, who holds cards too."""
    state = actions_table(start=0)
    set_tile(state, "1.2", "b1-2")
    hold(state, 0, "unsafe-fence", "sale")
    hold(state, 1, "price-increase")
    hold(state, 2, "repeal", "design-change")
    give_cost(state, 0, cost(state, "1.2"))
    give(state, 0, green=1)
    play(state, 0, "buy 1.2")
    assert GAME.to_act(state) == [1, 2]
    play(state, 1, "law price-increase")
    assert GAME.to_act(state) == [0, 2]  # the repeal window asks everyone but the card's player
    play(state, 0, "continue")
    play(state, 2, "continue")
    assert state.windows[-1].KIND == "purchase" and GAME.to_act(state) == [2]
    assert 0 not in [d.seat for d in GAME.decisions(state)]
    play(state, 2, "law repeal")
    assert space(state, "1.2").inc == 0
    assert state.windows[-1].KIND == "purchase" and GAME.to_act(state) == [2]
    play(state, 2, "continue")
    assert [t.space for t in state.tiles[0]] == ["1.2"]
