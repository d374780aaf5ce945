"""Phase five - change start player: A hands the marker to B, one bid each from B's left round to A, B last and
winning by a match, who pays whom, and the choice of the next start player (ruling T-24).

Each test plays phase three's passes into phase five and then the bids through GAME.
"""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.keythedral import GAME
from engine.keythedral.state import KState
from tests.keythedral.scene import give, legal, play, played_setup
from tests.keythedral.scene_more import to_bidding

COLOURS = ("blue", "yellow", "grey", "green", "red")


def bidding(players: int = 3, start: int = 0, cubes: tuple[int, ...] = (4, 4, 4, 4, 4)) -> KState:
    """Phase five of round 1 with this start player (A); each seat holds the given number of black cubes."""
    state = played_setup(players)
    for seat in range(players):
        if cubes[seat]:
            give(state, seat, black=cubes[seat])
    return to_bidding(state, start)


def held(state: KState) -> list[int]:
    """Cubes each seat holds."""
    return [sum(c.values()) for c in state.cubes]


def pay_all(state: KState) -> None:
    """The payer gives cubes one by one until the payment is made (black first)."""
    while state.pending and state.pending.KIND == "give":
        seat = GAME.to_act(state)[0]
        play(state, seat, legal(state, seat)[0])


@pytest.mark.parametrize(("players", "start"), [(2, 0), (3, 0), (3, 2), (5, 4)])
def test_a_hands_the_start_player_marker_to_b(players: int, start: int) -> None:
    """Phase five: the start player (A) passes the marker to the player on their left (B) before the bids."""
    state = bidding(players, start)
    b = (start + 1) % players
    assert GAME.view(state, None)["start_player"] == b
    assert state.round == 1


@pytest.mark.parametrize(("players", "start"), [(2, 1), (3, 0), (4, 1), (5, 3)])
def test_bids_run_from_bs_left_round_to_a_and_b_bids_last(players: int, start: int) -> None:
    """Phase five: starting with the player left of B, each player has one opportunity to bid, round to A; B's
    bid comes last. Nobody is asked twice."""
    state = bidding(players, start)
    b = (start + 1) % players
    asked = []
    k = 0
    while state.phase == "bidding" and not state.pending:
        seat = GAME.to_act(state)[0]
        asked.append(seat)
        k += 1
        play(state, seat, f"bid {k}" if seat != b else "pass")
    assert asked == [(b + 1 + i) % players for i in range(players - 1)] + [b]


def test_each_bid_must_be_higher_than_the_last() -> None:
    """Phase five: each bid must be higher than the previous bid."""
    state = bidding(4, 0)  # B is seat 1; bids from seat 2, 3, then 0
    play(state, 2, "bid 2")
    assert [a for a in legal(state, 3) if a.startswith("bid")] == ["bid 3", "bid 4"]
    for low in (1, 2):
        with pytest.raises(IllegalAction):
            GAME.parse(state, 3, f"bid {low}")
    play(state, 3, "pass")
    assert "bid 2" not in legal(state, 0) and "bid 3" in legal(state, 0)


def test_b_may_only_match_or_pass() -> None:
    """Phase five: B makes the last bid, which wins by matching the highest bid; B does not outbid."""
    state = bidding(3, 0)
    play(state, 2, "bid 2")
    play(state, 0, "pass")
    assert sorted(legal(state, 1)) == ["match", "pass"]
    with pytest.raises(IllegalAction):
        GAME.parse(state, 1, "bid 3")


def test_b_wins_by_matching_and_pays_the_player_whose_bid_was_matched() -> None:
    """Phase five: if B matches the highest bid, B wins, pays those cubes to the player whose bid was matched
    (not to earlier, lower bidders) and chooses the start player."""
    state = bidding(3, 0, cubes=(4, 5, 2))
    play(state, 2, "bid 1")
    play(state, 0, "bid 3")
    play(state, 1, "match")
    assert GAME.to_act(state) == [1]
    pay_all(state)
    assert held(state) == [4 + 3, 5 - 3, 2]
    assert GAME.to_act(state) == [1] and all(a.startswith("start ") for a in legal(state, 1))


def test_an_outsider_who_wins_pays_b() -> None:
    """Phase five: if a player other than B wins the bidding, that player pays the cubes to B and chooses."""
    state = bidding(3, 0, cubes=(4, 5, 2))
    play(state, 2, "bid 2")
    play(state, 0, "pass")
    play(state, 1, "pass")
    assert GAME.to_act(state) == [2]
    pay_all(state)
    assert held(state) == [4, 5 + 2, 2 - 2]
    assert GAME.to_act(state) == [2] and all(a.startswith("start ") for a in legal(state, 2))


def test_the_payer_chooses_which_cubes_to_pay() -> None:
    """Phase five; ruling T-24: bids are paid in cubes, each worth one, and whoever pays chooses which."""
    state = played_setup(3)
    give(state, 2, black=1, green=1, white=1)
    give(state, 0, red=1)
    state = to_bidding(state, 0)
    play(state, 2, "bid 2")
    play(state, 0, "pass")
    play(state, 1, "pass")
    assert set(legal(state, 2)) == {"give black", "give green", "give white"}
    play(state, 2, "give white")
    play(state, 2, "give green")
    assert {c: k for c, k in state.cubes[1].items() if k} == {"white": 1, "green": 1}
    assert {c: k for c, k in state.cubes[2].items() if k} == {"black": 1}


def test_with_no_bids_b_chooses_the_start_player_and_nobody_pays() -> None:
    """Phase five: if no player bids, B chooses the start player."""
    state = bidding(3, 2)  # A is seat 2, B seat 0
    before = held(state)
    for seat in (1, 2, 0):
        play(state, seat, "pass")
    assert GAME.to_act(state) == [0]
    assert sorted(legal(state, 0)) == sorted(f"start {c}" for c in COLOURS[:3])
    assert held(state) == before


@pytest.mark.parametrize("named", [0, 1, 2])
def test_the_winner_may_name_any_player_start_player(named: int) -> None:
    """Phase five; ruling T-24: the winner chooses the new start player, usually themself but anyone may be named;
    the named player starts the next round."""
    state = bidding(3, 0)
    play(state, 2, "bid 1")
    play(state, 0, "pass")
    play(state, 1, "pass")
    pay_all(state)
    play(state, 2, f"start {COLOURS[named]}")
    assert state.round == 2
    assert GAME.view(state, None)["start_player"] == named
    assert GAME.to_act(state) == [named]


def test_a_bid_may_not_exceed_the_cubes_held() -> None:
    """Phase five; ruling T-24: bids are made in cubes, so no bid may be larger than the cubes the bidder holds;
    a player with no cubes can only pass."""
    state = bidding(3, 0, cubes=(0, 5, 2))
    assert [a for a in legal(state, 2) if a.startswith("bid")] == ["bid 1", "bid 2"]
    with pytest.raises(IllegalAction):
        GAME.parse(state, 2, "bid 3")
    play(state, 2, "pass")
    assert legal(state, 0) == ["pass"]
    with pytest.raises(IllegalAction):
        GAME.parse(state, 0, "bid 1")


def test_b_cannot_match_a_bid_larger_than_their_cubes() -> None:
    """Phase five; ruling T-24: B can match only while holding enough cubes."""
    state = bidding(3, 0, cubes=(3, 2, 1))
    play(state, 2, "pass")
    play(state, 0, "bid 3")
    assert legal(state, 1) == ["pass"]
    with pytest.raises(IllegalAction):
        GAME.parse(state, 1, "match")
    play(state, 1, "pass")
    assert GAME.to_act(state) == [0]  # A's bid stands: A wins and pays B


def test_two_players_a_bids_then_b_matches() -> None:
    """Phase five with two players (Variation one): the only other player, A, bids first; B may match and win."""
    state = bidding(2, 0, cubes=(3, 3))
    assert GAME.to_act(state) == [0]
    play(state, 0, "bid 2")
    assert GAME.to_act(state) == [1]
    play(state, 1, "match")
    pay_all(state)
    assert held(state) == [5, 1]
    play(state, 1, "start blue")
    assert state.round == 2 and state.start == 0


def test_every_bid_and_pass_is_shown_in_the_public_view() -> None:
    """Phase five; spec, public view ("bids": one entry per seat that has had its opportunity, None for a pass):
    the bids are made openly round the table, so the view lists each one in order, not only the highest."""
    state = bidding(4, 0)  # B is seat 1: seats 2, 3 and 0 bid first
    play(state, 2, "bid 1")
    play(state, 3, "pass")
    play(state, 0, "bid 2")
    assert GAME.view(state, None)["bids"] == [{"seat": 2, "bid": 1}, {"seat": 3, "bid": None},
                                              {"seat": 0, "bid": 2}]
