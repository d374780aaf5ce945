"""Winter (reference §3.1, §5, ruling F-9): the secret choice of at least one winter tile, the choices shown
together and shuffled, unchosen tiles out of the game, no boat loads, and winter tiles that cannot be used.

Most scenes are real games played to winter through GAME with nobody bidding in spring, summer or autumn.
"""

from __future__ import annotations

import copy
import itertools

import pytest

from engine.core import IllegalAction
from engine.keyflower import flow
from engine.keyflower.actions import act
from engine.keyflower.game import GAME
from engine.keyflower.state import KfState
from tests.keyflower.scene import (
    at_turns,
    bid,
    bid_at,
    home_of,
    legal,
    new_game,
    offered,
    play,
    put_tile,
    screen,
    texts,
    to_winter,
    use,
)


def choose_all(state: KfState, pick: int = 1) -> list[list[str]]:
    """Every seat puts its first `pick` winter tiles (sorted) into play; returns what each chose."""
    chosen = []
    for seat in range(state.n):
        tiles = sorted(state.winter_hand[seat])[:pick]
        chosen.append(tiles)
        play(state, seat, "winter " + " ".join(tiles))
    return chosen


# --- the secret choice ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_winter_opens_with_everyone_choosing_at_once(players: int) -> None:
    """§3.1, F-9: at the start of winter every player secretly picks winter tiles, all at the same time."""
    state = to_winter(players)
    assert state.season == 3 and state.phase == "winter-choice"
    assert GAME.to_act(state) == list(range(players))
    decisions = GAME.decisions(state)
    assert {d.seat for d in decisions} == set(range(players))
    assert all(d.kind == "simultaneous" for d in decisions)
    assert state.auction == []


@pytest.mark.parametrize("players", [3, 5])
def test_the_choice_is_any_nonempty_set_of_ones_own_winter_tiles(players: int) -> None:
    """§3.1, F-9: one or more of one's own winter tiles, up to all of them (3 dealt: 7 choices; 2 dealt: 3)."""
    state = to_winter(players)
    hand = sorted(state.winter_hand[0])
    options = {tuple(sorted(a.split()[1:])) for a in legal(state, 0)}
    expected = {c for k in range(1, len(hand) + 1) for c in itertools.combinations(hand, k)}
    assert options == expected
    assert all(a.startswith("winter ") for a in legal(state, 0))


def test_at_least_one_winter_tile_must_be_chosen() -> None:
    """§2 table, §3.1: each player must put in at least one winter tile."""
    state = to_winter(3)
    assert "winter" not in legal(state, 0)
    with pytest.raises(IllegalAction):
        GAME.apply_in_place(state, 0, act("winter"))


def test_nobody_chooses_anothers_winter_tile() -> None:
    """§3.1: a player chooses among their own winter tiles."""
    state = to_winter(3)
    theirs = state.winter_hand[1][0]
    with pytest.raises(IllegalAction):
        play(state, 0, f"winter {theirs}")


def test_a_choice_stays_secret_until_everyone_has_chosen() -> None:
    """§3.1, F-9: nothing is revealed until all have chosen: the others learn only that the player is done."""
    state = to_winter(3)
    mine = sorted(state.winter_hand[0])[:2]
    events = play(state, 0, "winter " + " ".join(mine))
    names = [flow.tile(t).name for t in mine]
    for seat in (None, 1, 2):
        log = texts(events, seat)
        assert "Ana" in log
        assert not any(name in log for name in names)
        view = GAME.view(state, seat)
        assert view["auction"] == []
        assert not any(t in str(view) for t in mine)
    assert any(name in texts(events, 0) for name in names)
    assert GAME.public_notation(act("winter", *mine)) == "winter (secret)"
    assert state.phase == "winter-choice" and GAME.to_act(state) == [1, 2]
    assert legal(state, 0) == []


def test_the_choices_are_shown_together() -> None:
    """§3.1, F-9: once all have chosen, the counts are shown together and the chosen tiles go up for auction."""
    state = to_winter(3)
    chosen: list[list[str]] = []
    events = []
    for seat, k in ((0, 1), (1, 3), (2, 2)):
        tiles = sorted(state.winter_hand[seat])[:k]
        chosen.append(tiles)
        events += play(state, seat, "winter " + " ".join(tiles))
    assert sorted(state.auction) == sorted(t for c in chosen for t in c)
    log = texts(events)
    assert "Ana 1" in log and "Ben 3" in log and "Cleo 2" in log
    assert state.phase == "turns"


@pytest.mark.parametrize("players", [2, 3])
def test_the_chosen_tiles_are_shuffled_with_any_player_count(players: int) -> None:
    """§3.1, F-9: the chosen tiles are shuffled (with two players too), so the layout does not tell whose is
    whose: over several games the auction is not always laid out seat by seat."""
    in_seat_order = []
    for seed in range(8):
        state = to_winter(players, seed)
        chosen = choose_all(state, pick=2)
        in_seat_order.append(state.auction == [t for c in chosen for t in c])
        assert sorted(state.auction) == sorted(t for c in chosen for t in c)
    assert not all(in_seat_order)


@pytest.mark.parametrize("players", [2, 3, 5])
def test_the_layout_does_not_depend_on_who_put_in_which_tile(players: int) -> None:
    """§3.1, F-9: the tiles are shuffled and laid out "so that players do not know which tiles were selected by
    which player". Two games alike but for whose hand held which winter tile (the same tiles in all, and as many
    from each seat) lay out the same winter auction, with the same public events and the same public view."""
    first = to_winter(players)
    second = copy.deepcopy(first)
    second.winter_hand = second.winter_hand[1:] + second.winter_hand[:1]  # each hand passed to the seat before
    seen = []
    for state in (first, second):
        events = [e for seat in range(players)
                  for e in play(state, seat, f"winter {' '.join(sorted(state.winter_hand[seat])[:2])}")]
        seen.append((texts(events), GAME.view(state, None)))
    assert first.winter_played != second.winter_played
    assert seen[0] == seen[1]
    assert "Winter tiles up for auction" in seen[0][0] and first.auction == second.auction


def test_tiles_not_chosen_leave_the_game() -> None:
    """§3.1, F-9: winter tiles not chosen go back in the box: nobody holds them any more and they never come
    up for auction."""
    state = to_winter(3)
    hands = [list(h) for h in state.winter_hand]
    chosen = choose_all(state, pick=1)
    left = [t for h, c in zip(hands, chosen, strict=True) for t in h if t not in c]
    assert not set(left) & set(state.auction)
    assert GAME.view(state, None)["winter_in_hand"] == [0, 0, 0]
    assert GAME.view(state, 0)["winter_hand"] == []


def test_winter_turns_begin_with_the_start_player() -> None:
    """§3.1: the start player begins the winter's turns once the tiles are out."""
    state = to_winter(3)
    choose_all(state)
    assert GAME.to_act(state) == [state.start]


def test_no_workers_or_skills_arrive_on_the_boats_in_winter() -> None:
    """§3.1: in winter the boats show their winter face, and no new workers or skills arrive."""
    state = to_winter(4)
    bag = sum(state.bag.values())
    choose_all(state)
    assert all(not b.workers and not b.skills for b in state.boats)
    assert sum(state.bag.values()) == bag


# --- winter tiles cannot be used -----------------------------------------------------------------------------------


def winter_turns() -> KfState:
    """Winter's turns (set by hand): two winter tiles up for auction; Ana has a Keywood; everyone holds 4 of each
    colour."""
    state = at_turns(new_game(3, 1), 3, 0)
    state.auction = ["keythedral", "windmill"]
    put_tile(state, 0, "keywood", "1/-1")
    for seat in range(3):
        screen(state, seat, blue=4, red=4, yellow=4)
    return state


def test_winter_tiles_up_for_auction_cannot_be_used() -> None:
    """§5: in winter, winter tiles cannot be produced on; they are only bid for."""
    state = winter_turns()
    options = offered(state, 0)
    assert not [a for a in options if a.split()[:2] in (["use", "keythedral"], ["use", "windmill"])]
    assert "bid keythedral red" in options
    with pytest.raises(IllegalAction):
        play(state, 0, "use keythedral red")


def test_a_winter_tile_in_a_village_cannot_be_used() -> None:
    """§5, §9.8: a winter tile never produces, in a village either."""
    state = winter_turns()
    put_tile(state, 1, "apothecary", "1/0")
    assert not [a for a in offered(state, 0) if a.startswith("use apothecary")]


def test_village_tiles_can_still_be_used_in_winter() -> None:
    """§5: only winter tiles are barred: village tiles and home tiles still work in winter."""
    state = winter_turns()
    use(state, 1, "keywood", "red", 1)
    assert state.villages[1]["0/0"].res == {"wood": 1}
    assert f"use {home_of(state, 2)} blue" in offered(state, 0)


def test_a_winter_tile_is_won_like_any_other() -> None:
    """§4, §7: winter tiles are bid for like any season tile, and the winner adds them to the village."""
    state = winter_turns()
    bid(state, 2, "windmill", "yellow", 2)
    bid(state, 0, "windmill", "yellow", 3)
    assert bid_at(state, "windmill", 0) == ("yellow", 3)
    assert bid_at(state, "windmill", 2) == ("yellow", 2)
