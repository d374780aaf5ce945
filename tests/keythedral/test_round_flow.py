"""The round: phase four (workers home, markers off, new-law spaces refilled), the step into the next round with
the new start player, and whole random games to the end (The game; Phase four; Phase five; End of the game).
"""

from __future__ import annotations

import pytest

from engine.keythedral import GAME
from engine.keythedral.state import KState
from engine.playout import random_playout
from tests.keythedral.scene import NAMES, give, legal, play, played_setup
from tests.keythedral.scene_more import first_choice

COLOURS = ("blue", "yellow", "grey", "green", "red")


def to_phase_three(players: int = 3) -> KState:
    """Round 1 played through phases one and two with real choices (each seat's first legal one)."""
    state = played_setup(players)
    first_choice(state, lambda s: s.phase == "actions")
    return state


def all_pass(state: KState) -> None:
    """Phase three: every seat asked passes (law windows answered with continue) until the phase ends."""
    while state.phase == "actions":
        seat = GAME.to_act(state)[0]
        play(state, seat, "continue" if state.windows else "pass")


# --- Phase four ----------------------------------------------------------------------------------------------


def test_phase_four_brings_the_workers_home_and_clears_the_markers() -> None:
    """Phase four: players pick up their worker counters, and the work-order markers leave the mat."""
    state = to_phase_three()
    assert state.workers and len(state.markers) == 5
    all_pass(state)
    view = GAME.view(state, None)
    assert view["workers"] == [] and view["work_order"] == []
    assert state.phase == "bidding"


def test_phase_four_refills_an_empty_new_law_space_face_down_from_the_stack() -> None:
    """Phase four: an empty new-law space gets the top card of the stack, face down; a full one is left."""
    state = to_phase_three()
    give(state, 0, black=1)
    top, other = state.law_deck[0], state.law_spaces[1]
    stack = len(state.law_deck)
    play(state, 0, "procure 1")
    play(state, 0, "give black")
    assert state.law_spaces[0] is None
    all_pass(state)
    assert state.law_spaces == [top, other]
    view = GAME.view(state, None)
    assert view["law_spaces"] == [True, True] and view["law_stack"] == stack - 1
    assert "laws" not in view  # no card is shown to the public


def test_phase_four_lays_no_law_card_when_the_stack_is_empty() -> None:
    """Phase four: with no law cards left in the chapter house no further new laws are available."""
    state = to_phase_three()
    state.discards += state.law_deck
    state.law_deck = []
    give(state, 0, black=1)
    play(state, 0, "procure 1")
    play(state, 0, "give black")
    all_pass(state)
    assert state.law_spaces[0] is None
    assert GAME.view(state, None)["law_spaces"] == [False, True]


def test_phase_three_ends_when_everyone_still_active_has_passed_in_succession() -> None:
    """Phase three: a player who procured a law takes no more actions; the phase ends once all the others
    have passed in succession, and a passed player may act again while it lasts."""
    state = to_phase_three()
    give(state, 0, black=1)
    give(state, 2, brown=2)
    play(state, 0, "procure 2")
    play(state, 0, "give black")
    play(state, 1, "pass")
    play(state, 2, "trade")
    play(state, 2, "give brown")
    play(state, 2, "give brown")
    play(state, 2, "take red")
    assert state.phase == "actions" and GAME.to_act(state) == [1]  # Ana procured: skipped
    play(state, 1, "pass")
    assert state.phase == "actions" and GAME.to_act(state) == [2]
    play(state, 2, "pass")
    assert state.phase == "bidding"


# --- Into the next round ---------------------------------------------------------------------------------


def test_a_round_leads_into_the_next_with_the_new_start_player() -> None:
    """The game (five phases a round); Phase five: after the new start player is named, the next round begins
    with phase one; that player chooses the first work-order number and places first, the next player
    clockwise chooses the second."""
    state = to_phase_three()
    all_pass(state)
    for seat in (2, 0, 1):  # B is Ben (seat 1): bids from Cleo round to Ana, then Ben
        play(state, seat, "pass")
    play(state, 1, "start grey")
    view = GAME.view(state, None)
    assert view["round"] == 2 and view["phase"] == "workers" and view["start_player"] == 2
    assert view["workers"] == [] and view["work_order"] == [] and view["bids"] == []
    assert not any(p["procured"] or p["passed"] for p in view["players"])
    assert GAME.to_act(state) == [2]
    events = play(state, 2, legal(state, 2)[0])
    assert GAME.view(state, None)["work_order"][0]["seat"] == 2
    assert any(e.text.startswith("Work order 1:") and e.text.endswith("Cleo first.") for e in events)
    first_choice(state, lambda s: s.step == "order")
    assert GAME.to_act(state) == [0]


def test_a_procured_player_acts_again_in_the_next_round() -> None:
    """Phase three, action six: the bar on further actions after procuring lasts for that round only."""
    state = to_phase_three()
    give(state, 0, black=1)
    play(state, 0, "procure 1")
    play(state, 0, "give black")
    all_pass(state)
    first_choice(state, lambda s: s.round == 2 and s.phase == "actions" and not s.windows)
    all_seats = set()
    while state.phase == "actions":
        seat = GAME.to_act(state)[0]
        all_seats.add(seat)
        play(state, seat, "continue" if state.windows else "pass")
    assert 0 in all_seats


# --- whole games ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [11, 12])
def test_a_random_game_ends_with_all_seventeen_tiles_taken(players: int, seed: int) -> None:
    """End of the game; ruling T-25: the game ends as the last building tile is acquired: the 4 + 4 + 4 + 3 + 2
    = 17 seats are all taken, each by the player now holding it, and the scores are their values."""
    taken_before: list[int] = []

    def watch(state: KState, seat: int, action: object) -> None:
        taken_before.append(sum(len(t) for t in state.tiles))

    final, _ = random_playout(GAME, list(NAMES[:players]), seed, on_step=watch)
    assert GAME.is_over(final) and GAME.to_act(final) == []
    assert sum(len(t) for t in final.tiles) == 17
    assert all(space.taken is not None for space in final.mat)
    for seat in range(players):
        assert sorted(t.space for t in final.tiles[seat]) == sorted(s.space for s in final.mat
                                                                  if s.taken == seat)
    board = GAME.score(final, None)
    assert {p.seat: p.total for p in board.players} == {s: sum(t.stage for t in final.tiles[s])
                                                         for s in range(players)}
    assert taken_before[-1] == 16  # the action that took the last seat was the game's last one


def test_phase_four_refills_both_new_law_spaces_when_both_are_empty() -> None:
    """Phase four ¶3: if both new-law spaces are empty, a card from the top of the stack goes face down onto each."""
    state = to_phase_three()
    give(state, 0, black=1)
    give(state, 1, black=1)
    top_two = state.law_deck[:2]
    stack = len(state.law_deck)
    play(state, 0, "procure 1")
    play(state, 0, "give black")
    play(state, 1, "procure 2")
    play(state, 1, "give black")
    assert state.law_spaces == [None, None]
    all_pass(state)
    assert state.phase == "bidding"
    assert sorted(state.law_spaces) == sorted(top_two)
    assert len(state.law_deck) == stack - 2
    view = GAME.view(state, None)
    assert view["law_spaces"] == [True, True] and view["law_stack"] == stack - 2
    assert "laws" not in view
