"""Laying keyples down once the keyp is empty (rulebook p.6, 3 Lay down a keyple(s))."""

from __future__ import annotations

import pytest

from engine.keyper import GAME
from engine.keyper.state import State
from tests.keyper.scenario import build, claim_all, give, have, legal, pending, place, play, run, table, take_all, texts


def emptied(players: int = 3, active: int = 0) -> State:
    """A table where every keyper is out (seat s on board s + 1), `active` has an empty keyp and the
    others still hold two grey keyples each (so nobody is invited to join a green or brown keyple)."""
    state = table(players, active=active)
    claim_all(state)
    for seat in range(players):
        give(state, seat, grey=2)
    give(state, active)
    return state


def laydowns(options: list[str]) -> list[str]:
    """Only the lay-down actions of a legal list."""
    return [a for a in options if a.startswith("laydown")]


def test_lay_down_only_once_the_keyp_is_empty() -> None:
    """rulebook p.6, 3 (iii): a player still holding a keyple plays it; only an empty keyp (with others
    still to play) turns the turn into a lay-down."""
    state = emptied()
    place(state, 1, "pig", "green")
    assert legal(state, 0) == ["laydown 1.pig"]
    give(state, 0, grey=1)
    assert laydowns(legal(state, 0)) == []


def test_one_or_two_standing_keyples_may_be_laid_down() -> None:
    """rulebook p.6, 3: with two keyples standing the player may lay down one or both; with one already
    lying only the other can be laid down."""
    state = emptied()
    place(state, 1, "pig", "green", "green")
    place(state, 1, "wheat", "green/lying", "white")
    place(state, 1, "cow", "green/lying", "green/lying")
    assert sorted(legal(state, 0)) == ["laydown 1.pig", "laydown 1.pig x2", "laydown 1.wheat"]


@pytest.mark.parametrize(
    ("first", "second", "count", "earned"),
    [
        ("green", "green", 1, 2),
        ("green", "green", 2, 3),
        ("brown", "brown", 1, 1),
        ("brown", "brown", 2, 2),
        ("brown", "white", 2, 2),
        ("white", "green", 2, 3),
    ],
)
def test_lay_down_yields(first: str, second: str, count: int, earned: int) -> None:
    """rulebook p.6, 3 table: one keyple laid down earns 1 (2 on a match); two earn 2 (3 on a match) for the
    player alone; the second keyple only helps and earns nothing of its own."""
    state = emptied()
    place(state, 1, "pig", first, second)
    state, events = play(state, 0, "laydown 1.pig" + (" x2" if count == 2 else ""))
    assert pending(state) == [(0, ("pig",))] * earned
    assert sum(k.lying for k in state.boards[0].spaces["pig"]) == count
    state, _ = take_all(state)
    assert have(state, 0, "pig") == earned
    assert all(have(state, seat, "pig") == 0 for seat in (1, 2))


def test_lay_down_beside_a_lying_keyple_earns_the_single_yield() -> None:
    """rulebook p.6, 3: with one keyple lying and one standing, laying the second down earns 1 (2 on a match)."""
    state = emptied()
    place(state, 1, "pig", "green/lying", "white")
    state, _ = play(state, 0, "laydown 1.pig")
    state, _ = take_all(state)
    assert have(state, 0, "pig") == 2
    assert all(k.lying for k in state.boards[0].spaces["pig"])


def test_example_laying_down_both_light_green_keyples_gives_three_pigs() -> None:
    """rulebook p.6 example: both light-green keyples on the light-green pig field are laid down: 3 pigs."""
    state = emptied()
    place(state, 1, "pig", "green", "green")
    state, _ = play(state, 0, "laydown 1.pig x2")
    state, _ = take_all(state)
    assert have(state, 0, "pig") == 3


def test_example_laying_down_a_single_light_green_keyple_gives_two_pigs() -> None:
    """rulebook p.6 example: a single light-green keyple on the pig field of the claimed board is laid
    down: 2 pigs."""
    state = emptied()
    place(state, 1, "pig", "green")
    state, _ = play(state, 0, "laydown 1.pig")
    state, _ = take_all(state)
    assert have(state, 0, "pig") == 2


def test_own_plots_and_the_claimed_board_come_first() -> None:
    """rulebook p.6, 3 (iii)(a)(b): while a keyple stands on the player's plots or claimed board, only those
    may be laid down; other boards wait."""
    state = emptied()
    place(state, 1, "pig", "green")
    place(state, 2, "wheat", "green")
    build(state, 0, "v3", "brickmaker", "white")
    assert sorted(legal(state, 0)) == ["laydown 1.pig", "laydown v3"]


def test_other_boards_once_everything_at_home_is_lying() -> None:
    """rulebook p.6, 3 continued: when every keyple on the player's board and claimed board lies down, the
    player may lay down on any other board, even one claimed by an opponent."""
    state = emptied()
    place(state, 1, "pig", "green/lying", "green/lying")
    build(state, 0, "v3", "brickmaker", "white/lying")
    place(state, 2, "wheat", "green")
    place(state, 3, "pig", "brown", "brown")
    assert sorted(legal(state, 0)) == ["laydown 2.wheat", "laydown 3.pig", "laydown 3.pig x2"]


def test_the_order_is_rechecked_every_turn() -> None:
    """rulebook p.6, 3 continued: after another player plays onto the claimed board, the player must lay that
    keyple down before laying down on other boards again."""
    state = emptied()
    place(state, 2, "wheat", "green", "green")
    place(state, 3, "wheat", "green", "green")
    give(state, 1, brown=2)
    give(state, 2, black=2)
    assert legal(state, 0) == ["laydown 2.wheat", "laydown 2.wheat x2", "laydown 3.wheat", "laydown 3.wheat x2"]
    state, _ = play(state, 0, "laydown 2.wheat x2")
    state, _ = take_all(state)
    state, _ = play(state, 1, "play brown 1.pig")  # onto seat 0's claimed board; seat 2 cannot join
    state, _ = take_all(state)
    state, _ = play(state, 2, "play black 2.rock")  # seat 1 holds no black or white keyple
    state, _ = take_all(state)
    assert GAME.to_act(state) == [0]
    assert legal(state, 0) == ["laydown 1.pig"]


def test_a_player_with_nothing_to_lay_down_is_passed() -> None:
    """rulebook p.6, 3 continued (ruling K-2): with an empty keyp and no standing keyple anywhere the turn
    passes at once, and the log says so."""
    state = emptied(active=2)
    give(state, 2, black=1)
    give(state, 0)
    place(state, 1, "pig", "green/lying")
    build(state, 2, "v1", "brickmaker")
    state.players[2].goods.clear()  # nothing to convert or pay an upgrade with: the unit is lost at once
    state, events = play(state, 2, "play black v1")  # on seat 2's own board: nothing for seat 0
    assert GAME.to_act(state) == [1]
    assert state.active == 1
    assert any(t.startswith("P0") and "passes" in t for t in texts(events))


def test_lay_down_earns_nothing_for_the_other_players() -> None:
    """rulebook p.6, 3: a lay-down invites no joiners; the laying player decides every unit."""
    state = emptied()
    for seat in (1, 2):
        give(state, seat, green=1, white=1)
    place(state, 1, "pig", "green")
    state, events = play(state, 0, "laydown 1.pig")
    assert state.phase == "yields"
    assert not any(t.startswith("Joiners") for t in texts(events))
    state, _ = run(state, [(0, "take pig"), (0, "take pig")])
    assert GAME.to_act(state) == [1]
