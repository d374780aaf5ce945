"""`check` in Keythedral (engine contract: check and judge; issue 39 item 6): every kind of action is answered with
what it gets, costs and changes, in the words of the rules; a move that draws or reveals something hidden says so
and never what. Sources: "rules" is shared/rules-sources/keythedral-rules.txt; rulings are docs/rulings.md.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import clone
from engine.keythedral import GAME, board, flow, laws
from engine.keythedral.components import COMPONENTS
from engine.keythedral.outcome import describe
from engine.keythedral.pieces import Space, Worker
from engine.keythedral.state import KState
from tests.contract.kit import explained_verbs
from tests.keythedral.scene import NAMES, deal_law, give, play
from tests.keythedral.scene_laws import actions_table, cost, give_cost, set_tile, table, to_phase_one
from tests.keythedral.scene_more import fence, hand_board


def outcome(state: KState, seat: int, text: str) -> str:
    """check's outcome as one text; the check is legal and leaves the state as it was."""
    before = GAME.to_json(state)
    verdict = GAME.check(state, seat, GAME.parse(state, seat, text))
    assert verdict.legal, verdict.reason
    assert GAME.to_json(state) == before
    return " ".join(verdict.outcome)


def same_for_every_redraw(state: KState, seat: int, text: str, hidden: Callable[[KState], object]) -> str:
    """The check's text, the same on states the seat cannot tell apart, though `hidden(after)` (what the move
    draws) differs between them; the text never contains that hidden thing."""
    said = outcome(state, seat, text)
    drawn = set()
    for seed in range(1, 9):
        other = GAME.resample_hidden(state, seat, seed)
        assert outcome(other, seat, text) == said
        after = clone(other)
        play(after, seat, text)
        drawn.add(str(hidden(after)))
    assert len(drawn) > 1, "the redraws never changed what the move draws: the test could not fail"
    for thing in drawn:
        assert thing not in said
    return said


def all_continue(state: KState) -> None:
    """Everyone asked in the open law window plays nothing."""
    while state.windows and not state.pending:
        play(state, GAME.to_act(state)[0], "continue")


def seat_on(state: KState, space: str) -> Space:
    """The mat space of that name."""
    return flow.mat_space(state, space)


# --- set-up and phase one -----------------------------------------------------------------------------------------


def test_laying_the_drawn_field_names_its_terrain_and_cube() -> None:
    """rules: Set up (field tiles); ruling T-6: the drawn field is laid; a worker there collects its colour."""
    state = GAME.setup(list(NAMES[:3]), 1, {})
    lake = next(t.id for t in COMPONENTS.fields if t.terrain == "lake" and t.id in state.field_stack)
    state.field_stack[state.field_stack.index(lake)] = state.drawn or ""
    state.drawn = lake
    spot = str(GAME.legal_actions(state, 0)[0]).split()[1]
    said = outcome(state, 0, f"field {spot}")
    assert said == (f"You lay the drawn lake field at {spot}: a worker there brings 1 blue at each harvest. Next you "
                    "lay one of your cottages.")


def test_a_set_up_cottage_names_its_fields_and_says_the_next_field_is_drawn_unseen() -> None:
    """rules: Set up (cottage tiles); ruling T-5, T-6: the cottage's fields and cubes; then the next player draws
    a field tile from the face-down stack, which check does not name."""
    state = GAME.setup(list(NAMES[:3]), 1, {})
    play(state, 0, str(GAME.legal_actions(state, 0)[0]))
    touching = [f for f in board.square_fields("M12+") if f in state.fields]
    said = same_for_every_redraw(state, 0, "cottage 1 M12+",
                                 lambda after: f"draws a {flow.field_terrain(after.drawn or '')} field")
    assert said.startswith("You lay cottage 1 on M12+, touching ")
    for label in touching:
        assert f"the {state.fields[label].terrain} at {label}" in said
    assert "when number 1 is played" in said and "Then Ben draws the next field tile, shown to everyone." in said


def test_choosing_a_number_says_who_sends_workers() -> None:
    """rules: Phase one: the cottages and houses of the number chosen send out their workers, the chooser first;
    a house sends two."""
    state = hand_board(3, {}, {(0, 2): "M12+", (1, 2): "N12+"}, houses=[(0, 2)])
    assert outcome(state, 0, "order 2") == ("You choose number 2: cottages and houses numbered 2 send out their "
                                            "workers, you first (your house 2 on M12+ sends two workers).")
    assert "you have no cottage 4 on the board" in outcome(state, 0, "order 4")


def test_a_worker_names_its_field_and_the_cube_it_brings() -> None:
    """rules: Phase one, Phase two: a worker in a field collects one cube of that field's colour; a house sends a
    second worker."""
    state = hand_board(3, {}, {(0, 2): "M12+"}, houses=[(0, 2)])
    play(state, 0, "order 2")
    assert outcome(state, 0, "worker M13") == ("Your worker from house 2 goes into the quarry at M13: at harvest it "
                                               "brings 1 black. Then you place its second worker.")


def test_an_idle_cottage_says_it_sends_nobody() -> None:
    """rules: Phase one; ruling T-8: a cottage with no free field open to it sends no worker."""
    state = hand_board(3, {"M12": "farm", "N12": "vineyard"}, {(0, 2): "M12+"})
    deal_law(state, 0, "bargain")
    state.workers = {"M13": Worker(1, 1), "N13": Worker(1, 2), "M12": Worker(2, 1), "N12": Worker(2, 2)}
    play(state, 0, "order 2")
    assert outcome(state, 0, "idle") == "Your cottage 2 sends no worker this round: no free field is open to it."


# --- law cards ------------------------------------------------------------------------------------------------------


def test_opening_and_closing_the_hand() -> None:
    """ruling T-13, T-14: on one's turn the hand is opened to play a card, or put away."""
    state = actions_table(start=0)
    deal_law(state, 0, "bargain")
    assert outcome(state, 0, "laws") == "You look at your law card to play one now; `back` puts it away."
    play(state, 0, "laws")
    assert outcome(state, 0, "back") == "You put your law cards away without playing one and carry on."


def test_law_cards_say_what_they_do_with_their_arguments() -> None:
    """rules: Appendix, cards 3, 4, 5, 15, 16 (own-turn cards): each check names its effect on its target."""
    expected = {
        "law price-decrease 1.1": "You play Price Decrease (1.1): the seat on 1.1 costs one cube less (a printed "
                                  "colour, never gold) until it is bought.",
        "law upgrade-cottage 1": "You play Upgrade Cottage (1): your cottage 1 becomes a house for nothing and sends "
                                 "two workers.",
        "law bargain black": "You play Bargain (black): as your turn's trade, you give the trader 1 black and take "
                             "two resource cubes of your choice from the store; then your turn ends.",
        "law sale glass": "You play Sale (glass): the glassmaker asks you 1 cube instead of 3 this turn.",
        "law substitution": "You play Substitution: this turn, other resource colours may pay for a seat's resource "
                            "cubes, and one craft cube for another kind.",
    }
    for text, said in expected.items():
        state = actions_table(start=0)
        give(state, 0, black=1)
        deal_law(state, 0, text.split()[1])
        play(state, 0, "laws")
        assert outcome(state, 0, text) == said


def test_the_last_cube_of_a_bargain_says_the_turn_ends() -> None:
    """rules: Appendix, card 15; Phase three, action five; ruling T-34: Bargain's trade is the turn's action, so the
    check of the second cube taken says the turn ends with it."""
    state = actions_table(start=0)
    give(state, 0, black=1)
    deal_law(state, 0, "bargain")
    play(state, 0, "laws")
    play(state, 0, "law bargain black")
    assert outcome(state, 0, "take red") == "You take 1 red from the store; 1 more to take."
    play(state, 0, "take red")
    assert outcome(state, 0, "take blue") == ("You take 1 blue from the store: your Bargain trade is done, and with "
                                              "it your turn (T-34).")


def test_a_law_card_says_the_others_may_repeal_it_first() -> None:
    """rules: Appendix, card 10; ruling T-13, T-15: after a card is played, the other holders may repeal it."""
    state = actions_table(start=0)
    deal_law(state, 0, "upgrade-cottage")
    deal_law(state, 1, "repeal")
    play(state, 0, "laws")
    said = outcome(state, 0, "law upgrade-cottage 1")
    assert said.endswith("First the other law holders may repeal it.")
    play(state, 0, "law upgrade-cottage 1")
    assert outcome(state, 1, "law repeal") == "You play Repeal Law: Upgrade Cottage has no effect."


def test_design_change_says_a_tile_is_drawn_blind_and_not_which() -> None:
    """rules: Appendix, card 13; ruling T-16: the new tile is drawn blind from the unused tiles of its stage, so
    check cannot name it."""
    state = actions_table(start=0)
    deal_law(state, 0, "design-change")
    play(state, 0, "laws")
    said = same_for_every_redraw(state, 0, "law design-change 1.2",
                                 lambda after: f"costs {flow.cost_words(str(seat_on(after, '1.2').tile))}")
    assert said == ("You play Design Change (1.2): the tile on 1.2 is swapped for an unused stage-1 tile drawn "
                    "blind. Then an unused tile of that stage is drawn blind to take its place.")


def test_work_order_numbers_are_placed_one_by_one() -> None:
    """rules: Appendix, card 1; ruling T-22: the card's player orders the five numbers; the fourth fixes the fifth."""
    state = table()
    deal_law(state, 1, "work-order")
    to_phase_one(state)
    assert "you set the order of all five numbers for this round" in outcome(state, 1, "law work-order")
    play(state, 1, "law work-order")
    assert outcome(state, 1, "order 3") == "Number 3 comes first in this round's work order."
    for n in (3, 1, 5):
        play(state, 1, f"order {n}")
    assert outcome(state, 1, "order 2").startswith("Number 2 comes fourth and 4 last: this round's work order "
                                                   "is 3, 1, 5, 2, 4.")


def test_continue_in_a_purchase_window_lets_the_purchase_go_ahead_and_says_what_follows() -> None:
    """ruling T-13: a holder asked about another's purchase may play nothing; the purchase then goes ahead."""
    state = actions_table(start=0)
    set_tile(state, "1.2", "b1-2")
    deal_law(state, 1, "price-increase")
    give_cost(state, 0, cost(state, "1.2"))
    play(state, 0, "buy 1.2")
    said = outcome(state, 1, "continue")
    assert said.startswith("You let Ana's purchase of 1.2 go ahead without a law card.")
    assert "Ana pays 2 black, 1 blue, 1 green and takes the seat on 1.2, worth 1." in said


# --- phase three ------------------------------------------------------------------------------------------------


def test_a_purchase_names_the_seat_its_worth_and_its_price() -> None:
    """rules: Phase three, action one: a seat is bought for the cubes its tile shows; ruling T-13: the other
    holders may answer a declared purchase first."""
    state = actions_table(start=0)
    set_tile(state, "1.2", "b1-2")
    give_cost(state, 0, cost(state, "1.2"))
    assert outcome(state, 0, "buy 1.2").startswith("You buy the seat on 1.2, worth 1 point, for 2 black, 1 blue, "
                                                   "1 green")
    deal_law(state, 1, "price-increase")
    assert outcome(state, 0, "buy 1.2").endswith(": first the other law holders may answer it (Price Increase, "
                                                 "or a card playable at any time).")


def test_the_last_seat_of_a_stage_says_the_next_stage_is_turned_up_and_not_what_it_costs() -> None:
    """rules: Phase three, action one: when a stage is complete, the next stage's tiles are turned face up; they
    were face down, so check cannot tell their costs."""
    state = actions_table(start=0)
    for space in ("1.1", "1.2", "1.3"):
        seat_on(state, space).taken = 2
    give_cost(state, 0, cost(state, "1.4"))
    said = same_for_every_redraw(state, 0, "buy 1.4", lambda after: flow.costs_text(flow.stage_spaces(after, 2)))
    assert said.endswith("Then stage 1 is complete and the stage-2 tiles are turned face up.")


def test_a_house_costs_black_and_brown_and_sends_two_workers() -> None:
    """rules: Phase three, action two: a cottage becomes a house for 1 black and 1 brown; a house sends two."""
    state = actions_table(start=0)
    give(state, 0, black=1, brown=1)
    assert outcome(state, 0, "house 1") == ("You pay 1 black and 1 brown: your cottage 1 on L12+ becomes a house and "
                                            "sends two workers from now on.")


def test_a_fence_names_the_edge_and_a_cottage_it_cuts_off() -> None:
    """rules: Phase three, action three; ruling T-9, T-10: a fence costs 1 brown; a cottage fenced off from every
    field must move."""
    state = actions_table(start=0)
    give(state, 0, brown=1)
    assert outcome(state, 0, "fence K11+ L12") == (
        "You pay 1 brown and fence K11+ off from the woods at L12 (your fence 1 of 3): your cottage 3 can no longer "
        "send a worker there. It is then cut off from every field, and you must move it.")
    play(state, 0, "fence K11+ L12")
    assert outcome(state, 0, "relocate 3 N13+").startswith("You move your cottage 3 from K11+ to N13+, touching ")


def test_taking_a_fence_down_costs_two_red() -> None:
    """rules: Phase three, action three: a fence is removed for good for 2 red."""
    state = actions_table(start=0)
    fence(state, 1, "M12+", "M13")
    give(state, 0, red=2)
    assert outcome(state, 0, "unfence M12+ M13") == ("You pay 2 red: the fence between M12+ and M13 comes down for "
                                                     "good, and workers from M12+ may go into M13 again.")


def test_the_craftsmen_name_their_price_and_their_cube() -> None:
    """rules: Phase three, action four: the blacksmith asks 2 cubes for a white, the glassmaker 3 for a purple, the
    goldsmith 4 for a yellow; Appendix, card 16 (Sale) takes two off."""
    state = actions_table(start=0)
    give(state, 0, black=2, brown=2)
    assert outcome(state, 0, "smith") == ("You pay 2 cubes of your choice, one at a time, for 1 white cube from the "
                                          "blacksmith.")
    assert "You pay 3 cubes of your choice, one at a time, for 1 purple cube" in outcome(state, 0, "glass")
    assert "You pay 4 cubes of your choice, one at a time, for 1 yellow cube" in outcome(state, 0, "gold")
    state.flags["sale"] = "glass"
    assert "You pay 1 cube of your choice, one at a time (2 fewer under Sale), for 1 purple" in outcome(
        state, 0, "glass")
    play(state, 0, "smith")
    play(state, 0, "give black")
    assert outcome(state, 0, "give brown") == ("You give 1 brown to the store, completing the payment: you take 1 "
                                               "white cube.")


def test_an_empty_craftsman_says_one_used_cube_comes_back() -> None:
    """rules: Phase three, action four ("the required number"); ruling T-11: with the forge empty, the check says one
    used white cube comes back from the store for the sale and the others stay there."""
    state = actions_table(start=0)
    state.craftsmen["white"], state.store["white"] = 0, 3
    give(state, 0, black=2)
    assert outcome(state, 0, "smith") == ("You pay 2 cubes of your choice, one at a time, for 1 white cube from the "
                                          "blacksmith; he has none left, so one used white cube goes back to him "
                                          "from the store first, the others staying there.")


def test_the_trader_takes_two_cubes_for_one_of_choice() -> None:
    """rules: Phase three, action five: 2 cubes to the trader for 1 resource cube of one's choice."""
    state = actions_table(start=0)
    give(state, 0, black=2)
    assert outcome(state, 0, "trade") == ("You give the trader 2 cubes of your choice, one at a time, then take 1 "
                                          "resource cube of any colour from the store.")
    play(state, 0, "trade")
    assert outcome(state, 0, "give black") == "You give 1 black to the store; 1 cube still to give."
    play(state, 0, "give black")
    assert outcome(state, 0, "give black") == ("You give 1 black to the store, completing the payment: you take 1 "
                                               "resource cube of your choice from the store.")
    play(state, 0, "give black")
    assert outcome(state, 0, "take blue") == "You take 1 blue from the store."


def test_procuring_a_law_card_says_it_is_taken_face_down_and_not_which() -> None:
    """rules: Phase three, action six: 1 cube buys the face-down law card on a space, and the player takes no more
    actions that round; the card is secret, so check cannot name it."""
    state = actions_table(start=0)
    give(state, 0, black=1)
    assert outcome(state, 0, "procure 1") == ("You pay 1 cube of your choice for the face-down law card on new-law "
                                              "space 1: it goes into your hand, and you take no more actions this "
                                              "round.")
    play(state, 0, "procure 1")
    said = same_for_every_redraw(state, 0, "give black", lambda after: laws.TITLES[after.hands[0][-1]])
    assert said == ("You give 1 black to the store, completing the payment: the law card is yours, and you take no "
                    "more actions this round. Then the face-down law card goes into your hand.")


def test_passing_counts_the_passes_and_the_last_pass_refills_the_law_spaces_unseen() -> None:
    """rules: Phase three, B; Phase four: the phase ends when everyone still acting passes in a row; then new law
    cards are laid face down on the empty spaces (check does not name them)."""
    state = actions_table(start=0)
    assert outcome(state, 0, "pass") == ("You pass (1 of 3 in a row): phase 3 ends when everyone still taking "
                                         "actions passes in a row, and you may act again on a later turn.")
    play(state, 0, "pass")
    play(state, 1, "pass")
    state.law_deck.append(state.law_spaces[0] or 0)
    state.law_spaces[0] = None
    said = same_for_every_redraw(state, 2, "pass", lambda after: laws.TITLES[after.law_spaces[0] or 0])
    assert said == ("You pass, and everyone still taking actions has now passed in a row: phase 3 ends. Then the "
                    "workers come home and new law cards are laid face down on the empty new-law spaces.")


def _raised_purchase(decreased: bool) -> KState:
    """Ana buys 1.2 (2 black, 1 blue, 1 green) and Ben raises its price; with a Price Decrease under it too."""
    state = actions_table(start=0)
    set_tile(state, "1.2", "b1-2")
    seat_on(state, "1.2").dec = int(decreased)
    deal_law(state, 1, "price-increase")
    give_cost(state, 0, cost(state, "1.2"))
    give(state, 0, blue=1, green=1)
    play(state, 0, "buy 1.2")
    play(state, 1, "law price-increase")
    all_continue(state)
    return state


def test_price_changes_name_the_cube_added_or_saved_and_the_final_price() -> None:
    """rules: Appendix, cards 2 and 3; ruling T-29, T-31: the buyer picks the cube a price change adds or saves,
    or withdraws at a raised price."""
    state = _raised_purchase(False)
    assert outcome(state, 0, "add green") == ("The seat on 1.2 costs 1 more green (Price Increase); you pay 2 black, "
                                              "1 blue, 2 green.")
    assert outcome(state, 0, "withdraw").startswith("You withdraw from the purchase at the raised price: it was no "
                                                    "action")
    state = _raised_purchase(True)
    assert outcome(state, 0, "add green") == "The seat on 1.2 costs 1 more green (Price Increase)."
    play(state, 0, "add green")
    assert outcome(state, 0, "drop black") == ("The seat on 1.2 costs 1 black fewer (Price Decrease); you pay 1 "
                                               "black, 1 blue, 2 green.")


# --- phase five -------------------------------------------------------------------------------------------------


def test_bids_matches_and_passes_for_the_start_player_say_who_pays_whom() -> None:
    """rules: Phase five: the bidding runs from B's left, B bids last and wins by matching; the winner pays and
    names the next start player."""
    state = actions_table(start=0)
    for seat in (0, 1, 2):
        play(state, seat, "pass")
    give(state, 2, black=2)
    give(state, 1, black=2)
    assert outcome(state, 2, "bid 2") == ("You bid 2 cubes to name the next start player: if no one bids more, Ben "
                                          "either matches last (then Ben pays you 2 and chooses) or you pay Ben 2 and "
                                          "choose.")
    play(state, 2, "bid 2")
    assert outcome(state, 0, "pass") == "You pass: you make no bid for the start player this round."
    play(state, 0, "pass")
    assert outcome(state, 1, "match") == "You match Cleo's bid: you pay Cleo 2 cubes and name the next start player."
    assert outcome(state, 1, "pass") == ("You pass: Cleo's bid stands, so Cleo pays you 2 cubes and names the next "
                                         "start player. Cleo wins the bidding and pays 2 cubes to Ben.")
    play(state, 1, "match")
    play(state, 1, "give black")
    play(state, 1, "give black")
    said = outcome(state, 1, "start blue")
    assert said.startswith("You name Ana start player for round 2.") and "Round 2 begins." in said
    assert outcome(state, 1, "start yellow").startswith("You name yourself start player")


# --- every action -------------------------------------------------------------------------------------------------


def test_every_legal_action_of_a_random_game_is_explained() -> None:
    """engine contract (check): in random play-outs, every kind of legal action of every seat to act (a spread
    of them at each step, the first of each verb always) is answered by its own describer (the outcome's first
    line); tests/contract/test_check.py checks that the outcome is never a bare yes and blind to what is hidden."""
    tables: list[tuple[list[str], dict[str, object]]] = [(list(NAMES[:2 + seed % 3]), {}) for seed in range(1, 4)]
    seen = explained_verbs(GAME, describe, tables)
    assert {"field", "cottage", "order", "worker", "buy", "give", "bid", "start", "law", "continue"} <= seen
