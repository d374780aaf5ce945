"""Law cards: every card in its timing windows, the windows themselves and the secrecy of the cards held (rules:
Phase three, action six and the Appendix of law cards; rulings T-1, T-13 to T-23, T-27 to T-29 in docs/rulings.md).
"""

from __future__ import annotations

import json

import pytest

from engine.core import REACTION, SIMULTANEOUS, TURN, IllegalAction
from engine.keythedral import GAME, flow, laws
from engine.keythedral.pieces import Acquired, Fence, Marker, Worker
from engine.keythedral.state import KState
from engine.keythedral.steps import PhaseWindow
from tests.keythedral.scene import deal_law, give, play, texts
from tests.keythedral.scene_laws import (
    actions_table,
    cost,
    give_cost,
    quiet_step,
    run_while,
    set_tile,
    table,
    to_harvest,
    to_phase_one,
    turn_to,
)
from tests.keythedral.scene_laws import (
    options as legal,
)


def hold(state: KState, seat: int, *keys: str) -> None:
    """Deal law cards into a seat's hand."""
    for key in keys:
        deal_law(state, seat, key)


def own_turn(state: KState, seat: int, text: str) -> list:
    """Open one's hand on one's own turn (or placement) and play a card from it."""
    play(state, seat, "laws")
    return play(state, seat, text)


def law_options(state: KState, seat: int) -> list[str]:
    """The `law ...` actions a seat has now."""
    return [a for a in legal(state, seat) if a.startswith("law ")]


def hand_options(state: KState, seat: int) -> list[str]:
    """The law cards a seat could play from its hand on its own turn or placement (then goes back)."""
    play(state, seat, "laws")
    found = law_options(state, seat)
    play(state, seat, "back")
    return found


def window(state: KState) -> str | None:
    """The kind of the open law window (None: none open)."""
    return state.windows[-1].KIND if state.windows else None


def all_continue(state: KState) -> None:
    """Everyone asked in the open window plays nothing."""
    while state.windows and not state.pending:
        play(state, GAME.to_act(state)[0], "continue")


def to_phase_three(state: KState) -> None:
    """Phase one just ended with no workers out; the phase-two window (if any) is answered with `continue`."""
    to_harvest(state, {})
    while state.phase == "harvest":
        play(state, GAME.to_act(state)[0], "continue")


def at_stage(state: KState, stage: int) -> None:
    """Earlier stages all taken (by grey) and this stage's tiles turned up: a scene for later-stage purchases."""
    for space in state.mat:
        if space.stage < stage:
            space.taken = 2
            state.tiles[2].append(Acquired(space.space, space.tile, space.stage))
        if space.stage == stage:
            space.up = True


# --- the windows (T-13) -------------------------------------------------------------------------------------


def test_a_phase_start_window_asks_every_holder_even_without_a_card_playable_then() -> None:
    """ruling T-13: at the start of phase 1 every player holding a law card is asked, not only those who could play
    one then, so a window reveals nothing."""
    state = table()
    hold(state, 0, "bargain")  # no use at the start of phase 1
    hold(state, 2, "start-order")
    to_phase_one(state)
    assert window(state) == "phase"
    assert GAME.to_act(state) == [0, 2]
    assert legal(state, 0) == ["continue"]
    assert "law start-order grey" in legal(state, 2)
    assert {d.kind for d in GAME.decisions(state)} == {SIMULTANEOUS}
    assert [d.default for d in GAME.decisions(state)] == ["continue", "continue"]


def test_no_window_when_nobody_holds_a_law_card() -> None:
    """ruling T-13: the windows are for holders; with none, phase one goes straight to the start player's choice."""
    state = table()
    to_phase_one(state)
    assert state.windows == []
    assert GAME.to_act(state) == [0] and state.step == "order"
    assert [d.kind for d in GAME.decisions(state)] == [TURN]


def test_no_window_at_phases_two_and_three_without_holders() -> None:
    """ruling T-13: with nobody holding a card the harvest is collected and phase three begins at once."""
    state = table()
    to_harvest(state, {"O15": (0, 2)})
    assert state.phase == "actions" and state.windows == []
    assert state.cubes[0]["brown"] == 1
    assert GAME.to_act(state) == [0]


def test_windows_open_at_the_start_of_phases_one_two_three_and_five() -> None:
    """ruling T-13: a window opens at the start of phases 1, 2, 3 and 5 (none in phase 4)."""
    state = table()
    hold(state, 1, "bargain")
    seen = []
    to_phase_one(state)
    while state.round == 1:
        top = state.windows[-1] if state.windows else None
        if isinstance(top, PhaseWindow) and top.phase not in seen:
            seen.append(top.phase)
        quiet_step(state)
    assert seen == [1, 2, 3, 5]


def test_a_purchase_window_asks_every_other_holder_but_not_the_buyer() -> None:
    """ruling T-13: when a player declares a purchase, the other holders are asked (all of them), clockwise from the
    start player; the buyer is not."""
    state = actions_table(start=0)
    hold(state, 0, "design-change")
    hold(state, 1, "bargain")
    hold(state, 2, "price-increase")
    give_cost(state, 0, cost(state, "1.1"))
    play(state, 0, "buy 1.1")
    assert window(state) == "purchase"
    assert GAME.to_act(state) == [1, 2]
    assert legal(state, 1) == ["continue"]
    assert "law price-increase" in legal(state, 2)
    assert {d.kind for d in GAME.decisions(state)} == {REACTION}
    assert [d.default for d in GAME.decisions(state)] == ["continue", "continue"]


def test_a_repeal_window_follows_every_law_played() -> None:
    """ruling T-13; rules: Appendix, card 10: after a law card is played the other holders (not its player) are asked,
    for Repeal Law, before it acts."""
    state = table()
    hold(state, 0, "start-order", "craft-bargain")
    hold(state, 1, "repeal")
    hold(state, 2, "bargain")
    to_phase_one(state)
    play(state, 0, "law start-order grey")
    assert window(state) == "repeal"
    assert GAME.to_act(state) == [1, 2]  # not the card's own player
    assert state.start == 0  # not yet in effect
    assert legal(state, 1) == ["continue", "law repeal"]
    assert legal(state, 2) == ["continue"]
    play(state, 1, "continue")
    play(state, 2, "continue")
    assert state.start == 2


def test_the_repeal_window_is_for_repeal_alone_and_any_time_cards_come_after() -> None:
    """ruling T-13, T-40: the window after a law card is played offers Repeal Law only; once the card took effect
    the phase window asks everyone again, and an any-time card (Unsafe Fence) may be played there."""
    state = table()
    state.fences.append(Fence(2, "M12+", "M12"))
    state.fences_built[2] = 1
    hold(state, 0, "start-order")
    hold(state, 1, "unsafe-fence")
    to_phase_one(state)
    play(state, 0, "law start-order grey")
    assert window(state) == "repeal" and GAME.to_act(state) == [1]
    assert "law unsafe-fence m12+ m12" not in legal(state, 1)
    play(state, 1, "continue")
    assert state.start == 2
    assert window(state) == "phase" and 1 in GAME.to_act(state)
    assert "law unsafe-fence m12+ m12" in legal(state, 1)


def test_a_player_who_procured_still_answers_windows() -> None:
    """rules: Phase three, action six (except to play a law card as it allows); ruling T-13: a player who procured
    a card takes no more actions but is still asked, and may play Price Increase against a purchase."""
    state = actions_table(start=1)
    give(state, 1, black=1)
    play(state, 1, "procure 1")
    play(state, 1, "give black")
    hold(state, 1, "price-increase")
    set_tile(state, "1.2", "b1-2")
    give_cost(state, 2, cost(state, "1.2"))
    give(state, 2, green=1)
    play(state, 2, "buy 1.2")
    assert GAME.to_act(state) == [1]
    play(state, 1, "law price-increase")
    all_continue(state)
    assert legal(state, 2) == ["add green", "withdraw"]


def test_playing_a_law_is_not_an_action() -> None:
    """ruling T-14: on one's own turn a law card may be played and the turn goes on; it does not break the run of
    passes either."""
    state = actions_table(start=1)
    hold(state, 0, "upgrade-cottage")
    give(state, 0, black=1, brown=1)
    play(state, 1, "pass")
    play(state, 2, "pass")
    own_turn(state, 0, "law upgrade-cottage 1")
    assert state.cottages[0][0].house
    assert GAME.to_act(state) == [0]
    assert "house 2" in legal(state, 0)
    play(state, 0, "pass")
    assert state.phase == "bidding"


# --- secrecy (T-1) ------------------------------------------------------------------------------------------


def test_a_seats_view_lists_its_own_law_cards() -> None:
    """ruling T-1: a player sees the law cards in their own hand."""
    state = actions_table()
    hold(state, 1, "sale", "bargain")
    assert GAME.view(state, 1)["laws"] == ["Bargain", "Sale"]


def test_the_public_view_shows_only_how_many_law_cards_each_holds() -> None:
    """ruling T-1: law cards held are shown to others only as a count."""
    state = actions_table()
    hold(state, 1, "sale", "bargain")
    public = GAME.view(state, None)
    assert [p["laws_held"] for p in public["players"]] == [0, 2, 0]
    assert "laws" not in public
    text = json.dumps(public)
    assert "Sale" not in text and "Bargain" not in text


def test_other_seats_do_not_see_a_players_law_cards() -> None:
    """ruling T-1: another seat's view shows its own cards (none here) and not the holder's."""
    state = actions_table()
    hold(state, 1, "sale", "bargain")
    for seat in (0, 2):
        seen = GAME.view(state, seat)
        assert seen["laws"] == []
        assert "Sale" not in json.dumps(seen) and "Bargain" not in json.dumps(seen)


def test_the_card_procured_is_told_only_to_its_taker() -> None:
    """ruling T-1, T-26: the card is taken face down; only the taker learns which it is."""
    state = actions_table(start=0)
    card = laws.TITLES[state.law_spaces[0]]
    give(state, 0, black=1)
    play(state, 0, "procure 1")
    events = play(state, 0, "give black")
    assert any(card in e.text for e in events if e.visible_to(0))
    assert not any(card in e.text for e in events if e.visible_to(None) or e.visible_to(1))
    assert card not in json.dumps(GAME.view(state, 1))


def test_a_turn_offers_the_hand_not_the_cards() -> None:
    """ruling T-1: a holder's turn offers `laws` (open the hand), so the choices shown reveal no card (with
    `open_screens`, where a turn's other choices may be shown to everyone)."""
    state = actions_table(start=0, open_screens=True)
    hold(state, 0, "bargain")
    give(state, 0, black=1)
    options = legal(state, 0)
    assert "laws" in options and not any(a.startswith("law ") for a in options)
    assert all(d.public_choices for d in GAME.decisions(state))
    play(state, 0, "laws")
    assert legal(state, 0) == ["law bargain black", "back"]
    assert not any(d.public_choices for d in GAME.decisions(state))


# --- 1 Work Order (T-22) --------------------------------------------------------------------------------------


def test_work_order_sets_all_five_numbers_and_the_first_placer_rotates() -> None:
    """rules: Appendix, card 1; ruling T-22: at the start of phase one the card's player orders all five numbers;
    the start player places first for the first number, the next player for the second, and so on."""
    state = table()
    hold(state, 1, "work-order")
    to_phase_one(state)
    play(state, 1, "law work-order")
    for n in (3, 1, 5, 2):
        assert GAME.to_act(state) == [1]
        play(state, 1, f"order {n}")
    assert state.fixed_order == [3, 1, 5, 2, 4]
    all_continue(state)
    assert not any(a.startswith("order") for s in range(3) for a in legal(state, s))
    run_while(state, lambda s: s.phase == "workers")
    assert state.phase != "workers"
    assert state.markers == [Marker(3, 0), Marker(1, 1), Marker(5, 2), Marker(2, 0), Marker(4, 1)]


def test_work_order_only_at_the_start_of_phase_one() -> None:
    """rules: Appendix, card 1 (play it at the beginning of phase one): not in the phase 2 or 3 windows."""
    state = table()
    hold(state, 0, "work-order")
    to_harvest(state, {"O15": (0, 2)})
    assert window(state) == "phase" and legal(state, 0) == ["continue"]
    play(state, 0, "continue")
    assert window(state) == "phase" and legal(state, 0) == ["continue"]


# --- 2 Price Increase (T-29) ------------------------------------------------------------------------------------


def test_price_increase_adds_a_cube_of_a_type_shown_chosen_by_the_buyer() -> None:
    """rules: Appendix, card 2: played on another player's purchase, the tile costs one more cube of any type it
    shows; the buyer chooses which."""
    state = actions_table(start=0)
    set_tile(state, "1.2", "b1-2")  # black black blue green
    hold(state, 1, "price-increase")
    give_cost(state, 0, cost(state, "1.2"))
    give(state, 0, blue=1, green=1, red=1)
    store = dict(state.store)
    play(state, 0, "buy 1.2")
    play(state, 1, "law price-increase")
    all_continue(state)
    assert legal(state, 0) == ["add blue", "add green", "withdraw"]
    play(state, 0, "add green")
    assert [t.space for t in state.tiles[0]] == ["1.2"]
    assert {c: k for c, k in state.cubes[0].items() if k} == {"blue": 1, "red": 1}
    assert state.store["green"] == store["green"] + 2
    assert GAME.to_act(state) == [1]


def test_price_increase_is_not_played_on_ones_own_purchase() -> None:
    """rules: Appendix, card 2 (played on another player): the buyer's own card is never offered against it."""
    state = actions_table(start=0)
    hold(state, 0, "price-increase")
    give_cost(state, 0, cost(state, "1.1"))
    assert "law price-increase" not in hand_options(state, 0)
    play(state, 0, "buy 1.1")
    assert state.windows == [] and [t.space for t in state.tiles[0]] == ["1.1"]


def test_a_price_increase_the_buyer_cannot_pay_blocks_the_purchase_without_using_the_turn() -> None:
    """rules: Appendix, card 2; ruling T-29: a buyer who cannot pay the raised price has not acted: the tile stays,
    their cubes stay, it is still their turn, and the run of passes goes on."""
    state = actions_table(start=1)
    set_tile(state, "1.2", "b1-2")
    hold(state, 1, "price-increase")
    play(state, 1, "pass")
    play(state, 2, "pass")
    give_cost(state, 0, cost(state, "1.2"))
    before = dict(state.cubes[0])
    play(state, 0, "buy 1.2")
    play(state, 1, "law price-increase")
    all_continue(state)
    assert state.cubes[0] == before and state.tiles[0] == []
    assert GAME.to_act(state) == [0] and state.pending is None
    play(state, 0, "pass")
    assert state.phase == "bidding"


def test_a_price_increase_not_paid_stays_under_the_tile_for_the_next_buyer() -> None:
    """rules: Appendix, card 2; ruling T-29: the raised price stays with the tile until it is bought, and the next
    buyer chooses the extra cube."""
    state = actions_table(start=0)
    set_tile(state, "1.2", "b1-2")  # black black blue green
    hold(state, 1, "price-increase")
    give_cost(state, 0, cost(state, "1.2"))
    play(state, 0, "buy 1.2")
    play(state, 1, "law price-increase")
    all_continue(state)
    assert GAME.view(state, None)["mat"][1]["price_change"] == 1
    play(state, 0, "pass")
    give_cost(state, 1, cost(state, "1.2"))
    assert "buy 1.2" not in legal(state, 1)  # the raised price is more than the printed cost
    give(state, 1, blue=1)
    play(state, 1, "buy 1.2")
    assert legal(state, 1) == ["add blue", "withdraw"]
    play(state, 1, "add blue")
    assert [t.space for t in state.tiles[1]] == ["1.2"]
    assert sum(state.cubes[1].values()) == 0


# --- 3 Price Decrease ---------------------------------------------------------------------------------------------


def test_price_decrease_takes_one_cube_off_chosen_by_the_buyer() -> None:
    """rules: Appendix, card 3; ruling T-18: played on one's own turn, a tile costs one cube fewer, of a type shown,
    chosen by the buyer."""
    state = actions_table(start=0)
    set_tile(state, "1.1", "b1-1")  # black brown blue green
    hold(state, 0, "price-decrease")
    give(state, 0, black=1, brown=1, blue=1, green=1)
    own_turn(state, 0, "law price-decrease 1.1")
    assert GAME.to_act(state) == [0]
    play(state, 0, "buy 1.1")
    assert legal(state, 0) == ["drop black", "drop brown", "drop blue", "drop green"]
    play(state, 0, "drop blue")
    assert {c: k for c, k in state.cubes[0].items() if k} == {"blue": 1}
    assert [t.space for t in state.tiles[0]] == ["1.1"]


def test_price_decrease_makes_a_tile_affordable() -> None:
    """rules: Appendix, card 3: with a cube fewer to pay, a player one cube short may buy."""
    state = actions_table(start=0)
    set_tile(state, "1.1", "b1-1")
    hold(state, 0, "price-decrease")
    give(state, 0, black=1, brown=1, blue=1)
    assert "buy 1.1" not in legal(state, 0)
    own_turn(state, 0, "law price-decrease 1.1")
    play(state, 0, "buy 1.1")
    assert legal(state, 0) == ["drop green"]
    play(state, 0, "drop green")
    assert state.tiles[0] and sum(state.cubes[0].values()) == 0


def test_price_decrease_stays_under_the_tile() -> None:
    """rules: Appendix, card 3: not bought at once, the decrease stays with the tile for the next buyer, who chooses
    the cube anew."""
    state = actions_table(start=0)
    set_tile(state, "1.3", "b1-3")  # brown brown blue green
    hold(state, 0, "price-decrease")
    own_turn(state, 0, "law price-decrease 1.3")
    play(state, 0, "pass")
    give(state, 1, brown=2, blue=1)
    play(state, 1, "buy 1.3")
    assert legal(state, 1) == ["drop green"]
    play(state, 1, "drop green")
    assert [t.space for t in state.tiles[1]] == ["1.3"]


def test_price_decrease_never_takes_off_gold() -> None:
    """rules: Appendix, card 3: the cube saved may be any type shown except gold."""
    state = actions_table(start=0)
    at_stage(state, 4)
    set_tile(state, "4.1", "b4-3")  # ... red red red yellow
    hold(state, 0, "price-decrease")
    without_gold = [c for c in cost(state, "4.1") if c != "yellow"]
    give_cost(state, 0, without_gold)
    own_turn(state, 0, "law price-decrease 4.1")
    assert "buy 4.1" not in legal(state, 0)
    give(state, 0, yellow=1)
    play(state, 0, "buy 4.1")
    options = legal(state, 0)
    assert "drop yellow" not in options and options == ["drop blue", "drop green", "drop red"]


# --- 4 Upgrade Cottage -----------------------------------------------------------------------------------------


def test_upgrade_cottage_makes_one_of_ones_cottages_a_house_for_free() -> None:
    """rules: Appendix, card 4; ruling T-18: on one's own turn, one's own cottage becomes a house at no cost."""
    state = actions_table(start=0)
    hold(state, 0, "upgrade-cottage")
    assert hand_options(state, 0) == ["law upgrade-cottage 1", "law upgrade-cottage 2", "law upgrade-cottage 3"]
    own_turn(state, 0, "law upgrade-cottage 2")
    assert state.cottages[0][1].house
    assert sum(state.cubes[0].values()) == 0
    assert GAME.to_act(state) == [0]


# --- 5 Substitution (T-20) -----------------------------------------------------------------------------------


def test_substitution_pays_resource_cubes_with_other_resources() -> None:
    """rules: Appendix, card 5; ruling T-20: the printed resource cubes may be paid with resource cubes of other
    types."""
    state = actions_table(start=0)
    set_tile(state, "1.1", "b1-1")
    hold(state, 0, "substitution")
    give(state, 0, red=4)
    assert "buy 1.1" not in legal(state, 0)
    own_turn(state, 0, "law substitution")
    store = state.store["red"]
    play(state, 0, "buy 1.1")
    for _ in range(4):
        play(state, 0, "give red")
    assert [t.space for t in state.tiles[0]] == ["1.1"]
    assert state.store["red"] == store + 4


def test_substitution_swaps_resources_and_one_craft_in_one_purchase() -> None:
    """ruling T-20: in one purchase the resource cubes and one craft cube may all be substituted."""
    state = actions_table(start=0)
    at_stage(state, 3)
    set_tile(state, "3.1", "b3-1")  # brown brown blue blue green green red white
    hold(state, 0, "substitution")
    give(state, 0, black=7, purple=1)
    own_turn(state, 0, "law substitution")
    play(state, 0, "buy 3.1")
    assert "give purple" in legal(state, 0)
    for colour in ["purple"] + ["black"] * 7:
        play(state, 0, f"give {colour}")
    assert [t.space for t in state.tiles[0]] == ["3.1"]


def test_substitution_swaps_only_one_craft_cube() -> None:
    """rules: Appendix, card 5: one craft cube may be replaced by another kind, not two; resource cubes never pay for
    a craft cube."""
    state = actions_table(start=0)
    at_stage(state, 3)
    set_tile(state, "3.1", "b3-7")  # brown brown blue blue green green white white
    hold(state, 0, "substitution")
    give(state, 0, black=6, purple=2)
    own_turn(state, 0, "law substitution")
    assert "buy 3.1" not in legal(state, 0)
    give(state, 0, black=2)
    assert "buy 3.1" not in legal(state, 0)
    give(state, 0, white=1)
    assert "buy 3.1" in legal(state, 0)


def test_substitution_cannot_be_played_on_another_players_purchase() -> None:
    """rules: Appendix, card 5: this card may not be played on another player (not in a purchase window)."""
    state = actions_table(start=0)
    hold(state, 1, "substitution")
    give_cost(state, 0, cost(state, "1.1"))
    play(state, 0, "buy 1.1")
    assert window(state) == "purchase" and legal(state, 1) == ["continue"]


# --- 6 Cottage Number (T-28) --------------------------------------------------------------------------------------


def _cottage_number_scene() -> KState:
    state = table()
    hold(state, 0, "cottage-number")
    to_phase_one(state)
    play(state, 0, "continue")
    play(state, 0, "order 1")
    return state


def test_cottage_number_offers_only_cottages_whose_number_is_still_to_come() -> None:
    """rules: Appendix, card 6; ruling T-28: on one's own placement, a cottage whose number has not been chosen yet
    may be nominated (not the one being played)."""
    state = _cottage_number_scene()
    assert GAME.to_act(state) == [0]
    assert hand_options(state, 0) == ["law cottage-number 2", "law cottage-number 3"]


def test_the_nominated_cottage_works_now_and_not_when_its_number_comes() -> None:
    """rules: Appendix, card 6; ruling T-28: the nominated cottage sends its worker with the number just chosen, and
    none when its own number is chosen."""
    state = _cottage_number_scene()
    own_turn(state, 0, "law cottage-number 2")
    play(state, 0, "worker m12")  # cottage 1 (L12+)
    assert GAME.to_act(state) == [0]
    assert legal(state, 0)[:1] == ["worker n14"]  # cottage 2 (N14+) now
    play(state, 0, "worker n14")
    assert state.workers["N14"] == Worker(0, 2)
    run_while(state, lambda s: s.step != "order")
    assert GAME.to_act(state) == [1]
    play(state, 1, "order 2")
    run_while(state, lambda s: len(s.markers) < 3 and s.phase == "workers")
    assert [f for f, w in state.workers.items() if w == Worker(0, 2)] == ["N14"]


# --- 7 Craft Bargain ------------------------------------------------------------------------------------------------


def test_craft_bargain_buys_a_used_craft_cube_for_one_resource() -> None:
    """rules: Appendix, card 7: with used craft cubes in the store, one resource cube buys one of them (at any time,
    here at the start of phase three)."""
    state = table()
    hold(state, 0, "craft-bargain")
    state.store["white"] = 2
    give(state, 0, black=1)
    to_phase_three(state)
    assert window(state) == "phase" and state.phase == "actions"
    assert legal(state, 0) == ["continue", "law craft-bargain black white"]
    play(state, 0, "law craft-bargain black white")
    assert state.cubes[0]["white"] == 1 and state.cubes[0]["black"] == 0
    assert state.store["white"] == 1


def test_craft_bargain_needs_used_craft_cubes_in_the_store() -> None:
    """rules: Appendix, card 7: with no used craft cube in the store the card cannot be played."""
    state = actions_table(start=0)
    hold(state, 0, "craft-bargain")
    give(state, 0, black=3)
    assert all(state.store[c] == 0 for c in ("white", "purple", "yellow"))
    assert hand_options(state, 0) == []


def test_craft_bargain_in_a_purchase_window() -> None:
    """rules: Appendix, card 7 (play this card at any time); ruling T-13: the any-time cards answer a purchase too."""
    state = actions_table(start=0)
    hold(state, 1, "craft-bargain")
    state.store["purple"] = 1
    give(state, 1, green=1)
    give_cost(state, 0, cost(state, "1.1"))
    play(state, 0, "buy 1.1")
    assert "law craft-bargain green purple" in legal(state, 1)
    play(state, 1, "law craft-bargain green purple")
    assert state.cubes[1]["purple"] == 1


# --- 8 Unexpected Harvest (T-23) -----------------------------------------------------------------------------------


def test_unexpected_harvest_lets_the_player_choose_each_cube_of_one_field_type() -> None:
    """rules: Appendix, card 8; ruling T-23: named at the start of phase two, the field type's cubes are chosen by
    the player from the store, one by one, of any colours."""
    state = table()
    hold(state, 0, "unexpected-harvest")
    to_harvest(state, {"O15": (0, 2), "L12": (0, 1), "M12": (1, 1)})
    assert window(state) == "phase" and state.phase == "harvest"
    assert law_options(state, 0) == ["law unexpected-harvest woods"]
    play(state, 0, "law unexpected-harvest woods")
    all_continue(state)
    assert GAME.to_act(state) == [0] and state.pending.KIND == "take"
    play(state, 0, "take red")
    play(state, 0, "take blue")
    assert {c: k for c, k in state.cubes[0].items() if k} == {"red": 1, "blue": 1}
    assert state.cubes[1]["green"] == 1


# --- 9 Broken Fences (T-17) ------------------------------------------------------------------------------------


def _fenced_scene(holder: int) -> KState:
    state = table()
    state.fences.append(Fence(2, "M12+", "M12"))
    state.fences_built[2] = 1
    hold(state, holder, "broken-fences")
    to_phase_one(state)
    return state


def _yellow_number_one(state: KState) -> list[str]:
    """Play to yellow's placement for number 1 (blue chose it, blue placed at L12) and return yellow's options."""
    all_continue(state)
    play(state, 0, "order 1")
    play(state, 0, "worker l12")
    assert GAME.to_act(state) == [1]
    return legal(state, 1)


def test_fences_keep_workers_out() -> None:
    """rules: Phase one and Phase three, action three: a fence keeps the cottage's workers out of that field."""
    state = _fenced_scene(holder=2)
    assert "worker m12" not in _yellow_number_one(state)


def test_broken_fences_lets_the_named_player_ignore_fences_this_round() -> None:
    """rules: Appendix, card 9; ruling T-17: the player names any player (here another), whose workers climb over
    fences for one round; the fences stay."""
    state = _fenced_scene(holder=0)
    assert law_options(state, 0) == ["law broken-fences blue", "law broken-fences yellow", "law broken-fences grey"]
    play(state, 0, "law broken-fences yellow")
    assert "worker m12" in _yellow_number_one(state)
    assert Fence(2, "M12+", "M12") in state.fences


def test_broken_fences_on_ones_own_placement() -> None:
    """ruling T-13, T-17: Broken Fences may also be played on one's own placement in phase one."""
    state = _fenced_scene(holder=1)
    options = _yellow_number_one(state)
    assert "worker m12" not in options and "laws" in options
    own_turn(state, 1, "law broken-fences yellow")
    assert "worker m12" in legal(state, 1)


def test_broken_fences_last_one_round() -> None:
    """rules: Appendix, card 9: for one round only."""
    state = _fenced_scene(holder=0)
    play(state, 0, "law broken-fences yellow")
    run_while(state, lambda s: s.round == 1)
    assert state.broken == []


# --- 10 Repeal Law (T-15) ---------------------------------------------------------------------------------------


def test_repeal_cancels_the_card_just_played_and_closes_the_window() -> None:
    """rules: Appendix, card 10; ruling T-15, T-40: the card just played is discarded without effect; the repeal
    window closes, and the phase window, with no holder left to ask, closes too."""
    state = table()
    hold(state, 0, "start-order")
    hold(state, 1, "repeal")
    to_phase_one(state)
    play(state, 0, "law start-order grey")
    play(state, 1, "law repeal")
    assert state.start == 0
    assert window(state) is None
    assert GAME.view(state, None)["laws_played"] == ["Start Order", "Repeal Law"]
    assert state.hands[0] == [] and state.hands[1] == []
    assert GAME.to_act(state) == [0] and state.step == "order"


def test_the_buyer_may_repeal_a_price_increase() -> None:
    """rules: Appendix, cards 2 and 10: a Price Increase repealed leaves the printed price."""
    state = actions_table(start=0)
    set_tile(state, "1.2", "b1-2")
    hold(state, 0, "repeal")
    hold(state, 1, "price-increase")
    give_cost(state, 0, cost(state, "1.2"))
    play(state, 0, "buy 1.2")
    assert GAME.to_act(state) == [1]
    play(state, 1, "law price-increase")
    assert window(state) == "repeal" and GAME.to_act(state) == [0]
    play(state, 0, "law repeal")
    all_continue(state)
    assert [t.space for t in state.tiles[0]] == ["1.2"]
    assert flow.mat_space(state, "1.2").inc == 0


def test_repeal_only_answers_a_card_just_played() -> None:
    """rules: Appendix, card 10: Repeal Law acts on a card just played; at a phase start or on one's turn it is not
    offered."""
    state = table()
    hold(state, 0, "repeal")
    to_phase_one(state)
    assert legal(state, 0) == ["continue"]
    at_actions = actions_table(start=0)
    hold(at_actions, 0, "repeal")
    assert hand_options(at_actions, 0) == []


# --- 11 Unsafe Fence ----------------------------------------------------------------------------------------------


def test_unsafe_fence_removes_a_fence_for_good_at_any_time() -> None:
    """rules: Appendix, card 11: any fence is dismantled and cannot be re-laid; played at any time (here the start
    of phase one)."""
    state = table()
    state.fences.append(Fence(2, "M12+", "M12"))
    state.fences_built[2] = 1
    hold(state, 0, "unsafe-fence")
    to_phase_one(state)
    assert "law unsafe-fence m12+ m12" in legal(state, 0)
    play(state, 0, "law unsafe-fence m12+ m12")
    assert state.fences == []
    assert GAME.view(state, None)["fences_left"][2] == 2


def test_unsafe_fence_on_ones_own_turn() -> None:
    """rules: Appendix, card 11 (any time): on one's own phase-three turn too, without using the turn."""
    state = actions_table(start=0)
    give(state, 0, brown=1)
    play(state, 0, "fence m12+ m12")
    hold(state, 1, "unsafe-fence")
    own_turn(state, 1, "law unsafe-fence m12+ m12")
    assert state.fences == [] and GAME.to_act(state) == [1]


# --- 12 House Moratorium (T-21) -------------------------------------------------------------------------------------


def _moratorium_scene() -> KState:
    state = table()
    hold(state, 0, "house-moratorium")
    hold(state, 1, "upgrade-cottage")
    for seat in range(3):
        give(state, seat, black=1, brown=1)
    to_harvest(state, {})
    play(state, 0, "law house-moratorium")
    all_continue(state)
    return state


def test_house_moratorium_stops_the_other_players_houses() -> None:
    """rules: Appendix, card 12: played at the start of phase three, other players build no houses this round; its
    player builds as usual."""
    state = _moratorium_scene()
    assert GAME.to_act(state) == [0]
    assert "house 1" in legal(state, 0)
    play(state, 0, "house 1")
    assert not any(a.startswith("house") for a in legal(state, 1))
    with pytest.raises(IllegalAction):
        play(state, 1, "house 1")


def test_house_moratorium_stops_upgrade_cottage() -> None:
    """ruling T-21: the moratorium also stops another player's Upgrade Cottage."""
    state = _moratorium_scene()
    play(state, 0, "pass")
    assert hand_options(state, 1) == []


def test_house_moratorium_lasts_one_round() -> None:
    """rules: Appendix, card 12: in this round only."""
    state = _moratorium_scene()
    run_while(state, lambda s: s.round == 1 or s.phase != "actions" or bool(s.windows))
    turn_to(state, 1)
    assert "house 1" in legal(state, 1)


# --- 13 Design Change (T-16) -----------------------------------------------------------------------------------------


def test_design_change_swaps_a_tile_for_an_unused_one_of_its_stage() -> None:
    """rules: Appendix, card 13; ruling T-16: the new tile is drawn from the unused tiles of that stage; the old one
    joins them; on one's own turn it uses no action."""
    state = actions_table(start=0)
    hold(state, 0, "design-change")
    old = flow.mat_space(state, "1.2").tile
    pool = list(state.unused["1"])
    own_turn(state, 0, "law design-change 1.2")
    new = flow.mat_space(state, "1.2").tile
    assert new in pool and new != old
    assert sorted(state.unused["1"]) == sorted([t for t in pool if t != new] + [old])
    assert GAME.to_act(state) == [0]


def test_design_change_against_a_purchase_blocks_it_and_the_buyer_keeps_the_turn() -> None:
    """rules: Appendix, card 13; ruling T-16: against a purchase the tile changes, the purchase does not happen, and
    the buyer has not used an action (the run of passes goes on)."""
    state = actions_table(start=1)
    hold(state, 1, "design-change")
    play(state, 1, "pass")
    play(state, 2, "pass")
    give_cost(state, 0, cost(state, "1.2"))
    before = dict(state.cubes[0])
    old = flow.mat_space(state, "1.2").tile
    play(state, 0, "buy 1.2")
    play(state, 1, "law design-change 1.2")
    assert flow.mat_space(state, "1.2").tile != old
    assert state.tiles[0] == [] and state.cubes[0] == before
    assert state.windows == [] and GAME.to_act(state) == [0]
    play(state, 0, "pass")
    assert state.phase == "bidding"


def test_design_change_on_another_space_does_not_block_the_purchase() -> None:
    """ruling T-16: only a purchase of the tile replaced is blocked."""
    state = actions_table(start=0)
    hold(state, 1, "design-change")
    give_cost(state, 0, cost(state, "1.2"))
    play(state, 0, "buy 1.2")
    play(state, 1, "law design-change 1.3")
    all_continue(state)
    assert [t.space for t in state.tiles[0]] == ["1.2"]


def test_design_change_discards_price_changes_under_the_tile() -> None:
    """ruling T-16: law cards lying under the replaced tile are discarded."""
    state = actions_table(start=0)
    hold(state, 0, "price-decrease")
    hold(state, 1, "design-change")
    own_turn(state, 0, "law price-decrease 1.2")
    all_continue(state)
    play(state, 0, "pass")
    assert GAME.view(state, None)["mat"][1]["price_change"] == -1
    own_turn(state, 1, "law design-change 1.2")
    assert GAME.view(state, None)["mat"][1]["price_change"] == 0


def test_design_change_needs_an_unused_tile_of_that_stage() -> None:
    """ruling T-16: a space whose stage has no unused tile left cannot be targeted."""
    state = actions_table(start=0)
    hold(state, 0, "design-change")
    state.unused["1"] = []
    assert hand_options(state, 0) == []


# --- 14 Double Production, 18 Good Harvest, 19 Poor Harvest (T-19) ------------------------------------------------


def _harvest_scene(*cards: str) -> KState:
    state = table()
    hold(state, 0, *cards)
    to_harvest(state, {"O15": (0, 2), "M14": (1, 2), "L12": (0, 1)})
    return state


def test_double_production_doubles_one_of_ones_own_workers() -> None:
    """rules: Appendix, card 14: a worker in one field takes two cubes instead of one."""
    state = _harvest_scene("double-production")
    assert law_options(state, 0) == ["law double-production l12", "law double-production o15"]
    play(state, 0, "law double-production o15")
    all_continue(state)
    assert state.cubes[0]["brown"] == 3  # O15 twice, L12 once (both woods)
    assert state.cubes[1]["brown"] == 1


def test_good_harvest_doubles_every_field_of_a_type_for_everyone() -> None:
    """rules: Appendix, card 18: all fields of the type chosen produce double, for all players."""
    state = _harvest_scene("good-harvest")
    play(state, 0, "law good-harvest woods")
    all_continue(state)
    assert state.cubes[0]["brown"] == 4 and state.cubes[1]["brown"] == 2


def test_good_harvest_and_double_production_multiply() -> None:
    """ruling T-19: a worker under both brings four cubes."""
    state = _harvest_scene("double-production", "good-harvest")
    play(state, 0, "law double-production o15")
    play(state, 0, "law good-harvest woods")
    all_continue(state)
    assert state.cubes[0]["brown"] == 6  # O15: 4, L12: 2
    assert state.cubes[1]["brown"] == 2


def test_poor_harvest_gives_nothing_for_its_type_and_beats_the_others() -> None:
    """rules: Appendix, card 19; ruling T-19: no player takes cubes for that type, doubled or not."""
    state = _harvest_scene("double-production", "good-harvest", "poor-harvest")
    play(state, 0, "law double-production o15")
    play(state, 0, "law good-harvest woods")
    play(state, 0, "law poor-harvest woods")
    all_continue(state)
    assert state.cubes[0]["brown"] == 0 and state.cubes[1]["brown"] == 0


def test_harvest_cards_only_at_the_start_of_phase_two() -> None:
    """ruling T-18: the harvest cards are played at the start of phase 2, not at phase 1 or 3 or on a turn."""
    state = table()
    hold(state, 0, "good-harvest", "poor-harvest")
    to_phase_one(state)
    assert legal(state, 0) == ["continue"]
    turn = actions_table(start=0)
    hold(turn, 0, "good-harvest")
    assert hand_options(turn, 0) == []


# --- 15 Bargain, 16 Sale (T-27) ----------------------------------------------------------------------------------


def test_bargain_gives_two_resources_for_one() -> None:
    """rules: Appendix, card 15; ruling T-27: give one resource cube, take two resource cubes of any types."""
    state = actions_table(start=0)
    hold(state, 0, "bargain")
    give(state, 0, black=1, white=1)
    store = dict(state.store)
    assert hand_options(state, 0) == ["law bargain black"]  # a resource, not a craft cube
    own_turn(state, 0, "law bargain black")
    play(state, 0, "take red")
    play(state, 0, "take blue")
    assert {c: k for c, k in state.cubes[0].items() if k} == {"white": 1, "red": 1, "blue": 1}
    assert state.store["black"] == store["black"] + 1


@pytest.mark.parametrize(("card", "verb", "colour", "price"), [("gold", "gold", "yellow", 2),
                                                                ("glass", "glass", "purple", 1)])
def test_sale_takes_two_cubes_off_gold_or_glass(card: str, verb: str, colour: str, price: int) -> None:
    """rules: Appendix, card 16; ruling T-27: the goldsmith then sells gold for 2 cubes, the glassmaker stained glass
    for 1."""
    state = actions_table(start=0)
    hold(state, 0, "sale")
    give(state, 0, black=price)
    assert verb not in legal(state, 0)
    own_turn(state, 0, f"law sale {card}")
    play(state, 0, verb)
    for _ in range(price):
        play(state, 0, "give black")
    assert state.cubes[0][colour] == 1 and state.cubes[0]["black"] == 0
    assert GAME.to_act(state) == [1]


# --- 17 Downgrade House -----------------------------------------------------------------------------------------


def test_downgrade_house_turns_any_players_house_back() -> None:
    """rules: Appendix, card 17; ruling T-18: on one's own turn, any player's house becomes a cottage again."""
    state = actions_table(start=1)
    give(state, 1, black=1, brown=1)
    play(state, 1, "house 2")
    give(state, 2, black=1, brown=1)
    play(state, 2, "house 1")
    hold(state, 0, "downgrade-house")
    assert hand_options(state, 0) == ["law downgrade-house yellow2", "law downgrade-house grey1"]
    own_turn(state, 0, "law downgrade-house yellow2")
    assert not state.cottages[1][1].house and state.cottages[2][0].house


# --- 20 Start Order ---------------------------------------------------------------------------------------------


def test_start_order_at_the_start_of_phase_one() -> None:
    """rules: Appendix, card 20: at the start of phase one a new start player is chosen, who picks the first
    number."""
    state = table()
    hold(state, 1, "start-order")
    to_phase_one(state)
    play(state, 1, "law start-order grey")
    all_continue(state)
    assert state.start == 2 and GAME.to_act(state) == [2] and state.step == "order"


def test_start_order_at_the_start_of_phase_two() -> None:
    """rules: Appendix, card 20: at the start of phase two; collection then begins with the new start player."""
    state = table()
    hold(state, 1, "start-order")
    state.store["brown"] = 1
    to_harvest(state, {"O15": (0, 2), "M14": (1, 2)})
    play(state, 1, "law start-order yellow")
    all_continue(state)
    assert state.cubes[1]["brown"] == 1 and state.cubes[0]["brown"] == 0  # yellow collected first


def test_start_order_at_the_start_of_phase_three() -> None:
    """rules: Appendix, card 20: at the start of phase three; the turns then begin with the new start player."""
    state = table()
    hold(state, 0, "start-order")
    to_phase_three(state)
    assert state.phase == "actions"
    play(state, 0, "law start-order grey")
    all_continue(state)
    assert GAME.to_act(state) == [2]


def test_start_order_at_the_start_of_phase_five() -> None:
    """rules: Appendix, card 20 and Phase five: at the start of phase five the new start player is player A, who
    hands the marker to the player on their left."""
    state = actions_table(start=0)
    hold(state, 1, "start-order")
    for seat in (0, 1, 2):
        play(state, seat, "pass")
    assert state.phase == "bidding" and window(state) == "phase"
    play(state, 1, "law start-order grey")
    all_continue(state)
    assert state.bidding.b == 0 and state.start == 0
    assert GAME.to_act(state) == [1]


def test_start_order_not_on_a_turn_or_against_a_purchase() -> None:
    """rules: Appendix, card 20: only at the beginning of a phase, not on one's turn nor against a purchase."""
    state = actions_table(start=0)
    hold(state, 1, "start-order")
    give_cost(state, 0, cost(state, "1.1"))
    play(state, 0, "buy 1.1")
    assert window(state) == "purchase" and legal(state, 1) == ["continue"]
    play(state, 1, "continue")
    assert GAME.to_act(state) == [1]
    assert hand_options(state, 1) == []


def test_a_card_is_revealed_as_it_is_played() -> None:
    """rules: Phase three, action six: a card is revealed to everyone as it is played."""
    state = table()
    hold(state, 0, "start-order")
    to_phase_one(state)
    events = play(state, 0, "law start-order grey")
    assert any("Start Order" in e.text for e in events if e.public)


# --- further rulings on the cards (T-31, T-34, T-35, T-38 to T-41) ------------------------------------------------


def test_repealing_a_design_change_lets_the_purchase_go_ahead() -> None:
    """rules: Appendix, cards 10 and 13; ruling T-15: a Design Change repealed has no effect, so the purchase it
    was played against goes ahead."""
    state = actions_table(start=0)
    hold(state, 0, "repeal")
    hold(state, 1, "design-change")
    old = flow.mat_space(state, "1.2").tile
    give_cost(state, 0, cost(state, "1.2"))
    play(state, 0, "buy 1.2")
    play(state, 1, "law design-change 1.2")
    play(state, 0, "law repeal")
    all_continue(state)
    assert [(t.space, t.tile) for t in state.tiles[0]] == [("1.2", old)]


def test_a_buyer_who_can_pay_a_price_increase_may_withdraw() -> None:
    """ruling T-31: after a Price Increase the buyer may withdraw: no action used, the increase stays under the tile."""
    state = actions_table(start=0)
    set_tile(state, "1.2", "b1-2")
    hold(state, 1, "price-increase")
    give_cost(state, 0, cost(state, "1.2"))
    give(state, 0, green=1)
    before = dict(state.cubes[0])
    play(state, 0, "buy 1.2")
    play(state, 1, "law price-increase")
    all_continue(state)
    play(state, 0, "withdraw")
    assert state.cubes[0] == before and state.tiles[0] == []
    assert GAME.to_act(state) == [0] and state.pending is None
    assert GAME.view(state, None)["mat"][1]["price_change"] == 1


def test_a_price_increase_and_a_decrease_under_one_tile_both_apply() -> None:
    """ruling T-41: the buyer picks the colour added and the colour dropped (never gold)."""
    state = actions_table(start=0)
    set_tile(state, "1.2", "b1-2")  # black black blue green
    hold(state, 0, "price-decrease")
    hold(state, 1, "price-increase")
    own_turn(state, 0, "law price-decrease 1.2")
    all_continue(state)
    give(state, 0, black=3, blue=1)
    play(state, 0, "buy 1.2")
    play(state, 1, "law price-increase")
    all_continue(state)
    assert "add black" in legal(state, 0)
    play(state, 0, "add black")
    assert legal(state, 0) == ["drop green", "withdraw"]
    play(state, 0, "drop green")
    assert [t.space for t in state.tiles[0]] == ["1.2"] and sum(state.cubes[0].values()) == 0


def test_the_bargain_trade_is_the_turns_action() -> None:
    """rules: Appendix, card 15 ("The trader will accept one resource cube instead of two"), Phase three, action
    five; ruling T-34: Bargain sets the terms of the turn's trade with the trader, so once Ana has taken her two
    cubes her turn ends as after any trade: Ben is next and the count of passes starts again."""
    state = actions_table(start=1)
    hold(state, 0, "bargain")
    give(state, 0, green=1, black=1, brown=1)
    play(state, 1, "pass")
    play(state, 2, "pass")
    assert GAME.to_act(state) == [0] and state.passes == 2
    own_turn(state, 0, "law bargain green")
    assert GAME.to_act(state) == [0]  # still choosing the cubes
    play(state, 0, "take black")
    play(state, 0, "take brown")
    assert state.cubes[0]["black"] == 2 and state.cubes[0]["brown"] == 2 and state.cubes[0]["green"] == 0
    assert state.phase == "actions" and state.passes == 0 and GAME.to_act(state) == [1]
    assert "house 1" not in legal(state, 0)


def test_a_repealed_bargain_gives_the_turn_back() -> None:
    """rules: Appendix, cards 10 and 15; ruling T-15, T-34: Cleo repeals Ana's Bargain after its trade, before Ben
    starts his turn: the cubes go back, the turn is Ana's again with the passes counted before, and she may act."""
    state = actions_table(start=1)
    hold(state, 0, "bargain")
    hold(state, 2, "repeal")
    give(state, 0, green=1, black=1, brown=1)
    play(state, 1, "pass")
    play(state, 2, "pass")
    held, store = dict(state.cubes[0]), dict(state.store)
    own_turn(state, 0, "law bargain green")
    play(state, 2, "continue")
    play(state, 0, "take red")
    play(state, 0, "take red")
    assert GAME.to_act(state) == [1] and state.passes == 0
    said = texts(play(state, 2, "law repeal"))
    assert state.cubes[0] == held and state.store == store
    assert GAME.to_act(state) == [0] and state.passes == 2 and "It is Ana's turn again" in said
    assert "house 1" in legal(state, 0)
    play(state, 0, "house 1")
    assert GAME.to_act(state) == [1] and state.passes == 0


def test_substitution_is_spent_with_the_turn() -> None:
    """ruling T-35: Substitution covers that turn's purchase only; a later turn pays the printed cubes again."""
    state = actions_table(start=0)
    set_tile(state, "1.1", "b1-1")
    hold(state, 0, "substitution")
    give(state, 0, red=4, black=1, brown=1)
    own_turn(state, 0, "law substitution")
    play(state, 0, "house 1")
    turn_to(state, 0)
    assert state.hands[0] == []
    assert "buy 1.1" not in legal(state, 0)


def test_house_moratorium_is_not_offered_at_phase_five() -> None:
    """ruling T-38: House Moratorium at the start of phases 1 to 3 or on one's placement, never at phase five."""
    state = actions_table(start=0)
    hold(state, 0, "house-moratorium")
    for seat in (0, 1, 2):
        play(state, seat, "pass")
    assert window(state) == "phase" and state.windows[-1].phase == 5
    assert legal(state, 0) == ["continue"]


def test_poor_harvest_leaves_nothing_for_unexpected_harvest_to_choose() -> None:
    """ruling T-39: with Poor Harvest on the type named by Unexpected Harvest there is nothing to choose."""
    state = table()
    hold(state, 0, "unexpected-harvest", "poor-harvest")
    to_harvest(state, {"O15": (0, 2)})
    play(state, 0, "law unexpected-harvest woods")
    play(state, 0, "law poor-harvest woods")
    all_continue(state)
    assert state.phase == "actions" and state.pending is None
    assert sum(state.cubes[0].values()) == 0


def test_everyone_in_a_window_is_asked_again_after_a_card_takes_effect() -> None:
    """ruling T-40: after a card takes effect everyone in the window is asked again, even those who had answered."""
    state = table()
    hold(state, 0, "start-order")
    hold(state, 2, "bargain")
    to_phase_one(state)
    play(state, 2, "continue")
    assert GAME.to_act(state) == [0]
    play(state, 0, "law start-order yellow")
    assert 2 in GAME.to_act(state)


def test_own_turn_cards_are_not_offered_at_a_phase_start() -> None:
    """ruling T-18: Upgrade Cottage, Downgrade House, Price Decrease, Substitution, Bargain and Sale wait for one's own
    phase-three turn."""
    state = table()
    hold(state, 0, "upgrade-cottage", "price-decrease", "substitution", "bargain", "sale")
    give(state, 0, black=4)
    to_phase_three(state)
    assert state.phase == "actions" and window(state) == "phase"
    assert legal(state, 0) == ["continue"]
    play(state, 0, "continue")
    assert len(hand_options(state, 0)) > 5


# --- gaps filled: one round only, own workers only, more windows, open tiles, combined harvests -----------------


def test_work_order_lasts_one_round_only() -> None:
    """rules: Appendix, card 1 (for one round only): in the next round the players choose the numbers again, the
    start player first, any of the five."""
    state = table()
    hold(state, 1, "work-order")
    to_phase_one(state)
    play(state, 1, "law work-order")
    for n in (3, 1, 5, 2):
        play(state, 1, f"order {n}")
    all_continue(state)
    run_while(state, lambda s: s.phase == "workers")
    assert [m.number for m in state.markers] == [3, 1, 5, 2, 4]
    run_while(state, lambda s: s.round == 1)
    assert state.round == 2 and state.phase == "workers" and state.step == "order" and not state.windows
    assert state.fixed_order is None
    chooser = state.start
    assert GAME.to_act(state) == [chooser]
    assert legal(state, chooser) == [f"order {n}" for n in range(1, 6)]
    play(state, chooser, "order 4")
    assert state.markers[0] == Marker(4, chooser)
    run_while(state, lambda s: s.step != "order")
    assert GAME.to_act(state) == [(chooser + 1) % 3]
    assert legal(state, (chooser + 1) % 3) == ["order 1", "order 2", "order 3", "order 5"]


def test_unexpected_harvest_changes_only_the_card_players_own_workers() -> None:
    """rules: Appendix, card 8 ("obtained from one type of field by your own workers"); ruling T-23: another
    player's worker in a field of the type named still collects that field's own colour, and is not asked."""
    state = table()
    hold(state, 0, "unexpected-harvest")
    to_harvest(state, {"O15": (0, 2), "M14": (1, 2), "N13": (2, 1)})  # all three woods
    play(state, 0, "law unexpected-harvest woods")
    all_continue(state)
    assert GAME.to_act(state) == [0] and state.pending.left == 1
    play(state, 0, "take red")
    assert state.phase == "actions" and state.pending is None
    assert {c: k for c, k in state.cubes[0].items() if k} == {"red": 1}
    assert {c: k for c, k in state.cubes[1].items() if k} == {"brown": 1}
    assert {c: k for c, k in state.cubes[2].items() if k} == {"brown": 1}


@pytest.mark.parametrize("card", ["unexpected-harvest woods", "double-production o15", "good-harvest woods",
                                  "poor-harvest woods"])
def test_the_harvest_cards_act_on_this_rounds_harvest_only(card: str) -> None:
    """rules: Appendix, cards 8, 14, 18 and 19 ("for one round only", "this turn"); ruling T-18: the card changes
    the harvest of the round it is played in; the next round's workers in the same fields collect as usual."""
    workers = {"O15": (0, 2), "L12": (0, 1), "M14": (1, 2)}  # woods: two of blue's workers, one of yellow's
    state = table()
    hold(state, 0, card.split()[0])
    to_harvest(state, workers)
    before = [dict(c) for c in state.cubes]
    play(state, 0, f"law {card}")
    run_while(state, lambda s: s.phase == "harvest")
    first = {c: state.cubes[0][c] - before[0][c] for c in state.cubes[0] if state.cubes[0][c] != before[0][c]}
    assert first != {"brown": 2}  # the card changed this round's harvest
    run_while(state, lambda s: s.round == 1)
    assert state.round == 2 and state.hands[0] == []
    before = [dict(c) for c in state.cubes]
    to_harvest(state, workers)
    assert state.phase == "actions" and state.pending is None
    gained = [{c: s[c] - b[c] for c in s if s[c] != b[c]} for s, b in zip(state.cubes, before, strict=True)]
    assert gained == [{"brown": 2}, {"brown": 1}, {}]


@pytest.mark.parametrize("when", ["phase one", "phase three", "placement"])
def test_house_moratorium_at_the_start_of_phase_one_or_three_or_on_ones_placement(when: str) -> None:
    """rules: Appendix, card 12 ("before or at the start of phase three"); ruling T-38: House Moratorium may be
    played at the start of phase one, at the start of phase three or on one's own placement in phase one; in phase
    three only its player builds houses."""
    state = table()
    hold(state, 0, "house-moratorium")
    for seat in range(3):
        give(state, seat, black=1, brown=1)
    if when == "phase three":
        to_phase_three(state)
        assert state.phase == "actions" and "law house-moratorium" in legal(state, 0)
        play(state, 0, "law house-moratorium")
    else:
        to_phase_one(state)
        assert state.phase == "workers" and window(state) == "phase"
        if when == "phase one":
            assert "law house-moratorium" in legal(state, 0)
            play(state, 0, "law house-moratorium")
        else:
            play(state, 0, "continue")
            play(state, 0, "order 1")
            assert GAME.to_act(state) == [0] and "laws" in legal(state, 0)
            own_turn(state, 0, "law house-moratorium")
            assert state.phase == "workers" and GAME.to_act(state) == [0]
    assert state.moratorium == 0
    run_while(state, lambda s: s.phase != "actions" or bool(s.windows))
    assert state.round == 1 and GAME.to_act(state) == [0]
    assert "house 1" in legal(state, 0)
    play(state, 0, "house 1")
    assert not any(a.startswith("house") for a in legal(state, 1))
    with pytest.raises(IllegalAction):
        play(state, 1, "house 1")


def test_with_open_tiles_price_decrease_and_design_change_target_only_the_current_stage() -> None:
    """ruling T-30: in variation three every tile lies face up, but Price Decrease and Design Change may target
    only the untaken seats of the stage being built."""
    state = actions_table(start=0, open_tiles=True)
    assert all(s.up for s in state.mat)
    hold(state, 0, "price-decrease", "design-change")
    stage_one = [f"1.{k}" for k in range(1, 5)]
    assert hand_options(state, 0) == ([f"law price-decrease {s}" for s in stage_one]
                                      + [f"law design-change {s}" for s in stage_one])
    play(state, 0, "laws")
    for text in ("law price-decrease 2.1", "law design-change 2.1", "law price-decrease 5.1"):
        with pytest.raises(IllegalAction):
            play(state, 0, text)
    play(state, 0, "back")
    at_stage(state, 2)
    stage_two = [f"2.{k}" for k in range(1, 5)]
    assert hand_options(state, 0) == ([f"law price-decrease {s}" for s in stage_two]
                                      + [f"law design-change {s}" for s in stage_two])
    own_turn(state, 0, "law price-decrease 2.3")
    assert flow.mat_space(state, "2.3").dec == 1


@pytest.mark.parametrize(("card", "left", "others"), [
    pytest.param("good-harvest woods", 4, 2, id="good-harvest"),
    pytest.param("double-production o15", 3, 1, id="double-production"),
])
def test_unexpected_harvest_with_a_doubled_harvest_chooses_every_cube_freely(card: str, left: int,
                                                                              others: int) -> None:
    """ruling T-39: with Good Harvest or Double Production on the type named by Unexpected Harvest, each cube the
    workers earn (the doubled ones too) is chosen freely, one by one; the other players' woods give brown."""
    state = table()
    hold(state, 0, "unexpected-harvest", card.split()[0])
    to_harvest(state, {"O15": (0, 2), "L12": (0, 1), "M14": (1, 2)})
    play(state, 0, "law unexpected-harvest woods")
    play(state, 0, f"law {card}")
    all_continue(state)
    assert GAME.to_act(state) == [0] and state.pending.KIND == "take" and state.pending.left == left
    chosen = ["red", "blue", "green", "black"][:left]
    for colour in chosen:
        assert f"take {colour}" in legal(state, 0)
        play(state, 0, f"take {colour}")
    assert state.phase == "actions" and state.pending is None
    assert {c: k for c, k in state.cubes[0].items() if k} == {c: 1 for c in chosen}
    assert {c: k for c, k in state.cubes[1].items() if k} == {"brown": others}
