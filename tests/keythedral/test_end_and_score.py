"""The end of the game and the winner (rules: End of the game, The winner; ruling T-25). Every game here is played
to its last seat through real purchases (tests/keythedral/scene_laws.py: buy_as)."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.keythedral import GAME, flow
from engine.keythedral.state import KState
from tests.keythedral.scene import deal_law, give, play, texts
from tests.keythedral.scene_laws import actions_table, buy_all_but_last, buy_as, cost, give_cost, turn_to
from tests.keythedral.scene_laws import options as legal

SPACES = ("1.1", "1.2", "1.3", "1.4", "2.1", "2.2", "2.3", "2.4", "3.1", "3.2", "3.3", "3.4", "4.1", "4.2", "4.3",
          "5.1", "5.2")
# A split of the seats worth 23 points each: blue 1+1+2+3+3+4+4+5, yellow 1+1+2+2+2+3+3+4+5; grey none.
TIE = {"1.1": 0, "1.2": 0, "2.1": 0, "3.1": 0, "3.2": 0, "4.1": 0, "4.2": 0, "5.1": 0}


def tie_buyer(i: int) -> int:
    return TIE.get(SPACES[i], 1)


def almost_over(buyers=lambda i: i % 3) -> tuple[KState, str]:
    """A three-player game in phase three with every seat bought but the last (by these buyers)."""
    state = actions_table(start=0)
    last = buy_all_but_last(state, buyers)
    return state, last


def finished(extra: dict[int, dict[str, int]], buyers=tie_buyer, last_buyer: int = 1) -> KState:
    """A game played to its end; before the last purchase each seat in `extra` is handed those cubes."""
    state, last = almost_over(buyers)
    for seat, cubes in extra.items():
        give(state, seat, **cubes)
    buy_as(state, last_buyer, last)
    assert GAME.is_over(state)
    return state


# --- End of the game -------------------------------------------------------------------------------------------


def test_the_game_goes_on_until_the_last_tile_is_taken() -> None:
    """rules: End of the game: with one stage-5 seat left the game is not over."""
    state, last = almost_over()
    assert last == "5.2"
    assert not GAME.is_over(state) and state.phase == "actions"
    assert GAME.score(state, None).final is False


def test_the_game_ends_at_once_when_the_last_stage_five_tile_is_taken() -> None:
    """rules: End of the game; ruling T-25: it ends immediately; the rest of the round (turns, phases four and five)
    is not played."""
    state, last = almost_over()
    turn_to(state, 1)
    give_cost(state, 1, cost(state, last))
    give(state, 0, black=2, brown=1)
    spaces = list(state.law_spaces)
    events = play(state, 1, f"buy {last}")
    assert GAME.is_over(state) and state.phase == "over"
    assert GAME.to_act(state) == [] and all(legal(state, s) == [] for s in range(3))
    assert state.bidding is None and state.law_spaces == spaces
    assert "game is over" in texts(events)
    with pytest.raises(IllegalAction):
        play(state, 2, "pass")
    assert GAME.score(state, None).final is True


def test_the_score_is_the_sum_of_the_seat_values() -> None:
    """rules: The winner and Phase three, action one: a player's score is the total of the numbers on the building
    tiles acquired."""
    buyers = {i: (0 if i < 4 else 1 if i < 12 else 2) for i in range(17)}
    state = finished({}, buyers=lambda i: buyers[i], last_buyer=2)
    stage = {s: int(s[0]) for s in SPACES}
    expected = {seat: sum(stage[s] for i, s in enumerate(SPACES) if buyers[i] == seat) for seat in range(3)}
    board = GAME.score(state, None)
    assert {p.seat: p.total for p in board.players} == expected == {0: 4, 1: 20, 2: 22}
    assert [p.seat for p in board.players] == [2, 1, 0]
    assert board.tie_break == ""


@pytest.mark.parametrize(("blue", "yellow", "winner"), [
    ({"black": 3}, {"yellow": 1}, 1),  # gold counts 4
    ({"yellow": 1}, {"red": 3}, 0),
    ({"white": 1}, {"purple": 1}, 1),  # stained glass 3 beats ironwork 2
    ({"black": 1}, {"white": 1}, 1),  # ironwork 2 beats one resource
    ({"yellow": 1}, {"black": 1, "brown": 1, "blue": 1, "green": 1, "red": 1}, 1),  # every resource counts 1
])
def test_a_tie_on_seats_is_broken_by_the_value_of_the_cubes(blue: dict[str, int], yellow: dict[str, int],
                                                              winner: int) -> None:
    """rules: The winner: equal on seats, the most valuable cubes win; gold 4, stained glass 3, ironwork 2 and each
    resource cube 1."""
    state = finished({0: blue, 1: yellow})
    board = GAME.score(state, None)
    assert [p.total for p in board.players[:2]] == [23, 23]
    assert "Tied on 23" in board.tie_break
    assert board.players[0].seat == winner
    assert "share" not in board.tie_break


def test_players_equal_on_seats_and_cubes_share_the_place() -> None:
    """rules: The winner: still equal, the players with the highest score in tiles and cubes have drawn; the
    scoreboard's tie-break says they share it."""
    state = finished({0: {"purple": 1}, 1: {"blue": 3}})
    board = GAME.score(state, None)
    assert {p.seat for p in board.players[:2]} == {0, 1}
    assert "Ana 3" in board.tie_break and "Ben 3" in board.tie_break
    assert "share the place" in board.tie_break


# --- a law against the last purchase ---------------------------------------------------------------------------


def test_a_price_increase_against_the_last_purchase_can_prevent_the_end() -> None:
    """rules: End of the game: a Price Increase played as a player tries to buy the last tile can stop the
    acquisition, and the game goes on (ruling T-29)."""
    state, last = almost_over()
    deal_law(state, 2, "price-increase")
    turn_to(state, 1)
    give_cost(state, 1, cost(state, last))
    play(state, 1, f"buy {last}")
    play(state, 2, "law price-increase")
    while state.windows:
        play(state, GAME.to_act(state)[0], "continue")
    assert not GAME.is_over(state) and state.phase == "actions"
    assert GAME.to_act(state) == [1]
    play(state, 1, "pass")
    give_cost(state, 2, cost(state, last))
    give(state, 2, red=1)
    play(state, 2, f"buy {last}")
    play(state, 2, "add red")
    assert GAME.is_over(state)


def test_a_design_change_against_the_last_purchase_prevents_the_end() -> None:
    """rules: End of the game and Appendix, card 13: the last tile is swapped during the purchase, the purchase does
    not happen and the game goes on (ruling T-16)."""
    state, last = almost_over()
    deal_law(state, 0, "design-change")
    turn_to(state, 1)
    old = flow.mat_space(state, last).tile
    give_cost(state, 1, cost(state, last))
    play(state, 1, f"buy {last}")
    play(state, 0, f"law design-change {last}")
    assert not GAME.is_over(state) and state.phase == "actions"
    assert flow.mat_space(state, last).tile != old
    assert last not in [t.space for t in state.tiles[1]]
    assert GAME.to_act(state) == [1]
