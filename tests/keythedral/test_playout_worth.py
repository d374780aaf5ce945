"""What a Keythedral position is worth to a play-out cut short (engine.keythedral.playout.worth, the engine
contract's playout_worth): the cubes held towards the seats on offer, and houses. The stand-in judges its short
play-outs by it (engine/standin.py), since Keythedral's points come late and all at once."""

from __future__ import annotations

from engine import standin
from engine.keythedral import GAME, board, flow
from engine.keythedral import supply as sup
from engine.keythedral.legal import buyable
from engine.keythedral.pieces import Space
from engine.keythedral.state import KState
from tests.keythedral.scene import give, play
from tests.keythedral.scene_laws import actions_table, give_cost


def offered(state: KState) -> Space:
    """The first seat on offer now."""
    return buyable(state)[0]


def test_a_seat_with_no_cubes_and_no_houses_is_worth_nothing_beyond_its_seats() -> None:
    state = actions_table(start=0)
    for seat in range(state.n):
        state.cubes[seat] = {c: 0 for c in sup.CUBES}
    assert [GAME.playout_worth(state, s) for s in range(state.n)] == [0.0] * state.n


def test_cubes_a_seat_on_offer_needs_are_worth_part_of_it_and_others_nothing() -> None:
    state = actions_table(start=0)
    state.cubes[0] = {c: 0 for c in sup.CUBES}
    space = offered(state)
    price = flow.tile_cost(space.tile)
    needed = {c for s in buyable(state) for c in flow.tile_cost(s.tile)}
    unwanted = [c for c in sup.RESOURCES if c not in needed]
    if unwanted:
        give(state, 0, **{unwanted[0]: 2})
        assert GAME.playout_worth(state, 0) == 0.0
    give(state, 0, **{price[0]: 1})
    one = GAME.playout_worth(state, 0)
    assert 0.0 < one
    give_cost(state, 0, price[1:])
    whole = GAME.playout_worth(state, 0)
    assert one < whole < space.stage, "a seat fully paid for is worth less than the seat itself"


def test_buying_a_seat_always_gains_on_holding_its_cubes() -> None:
    """Rules, phase three, action one: buying turns cubes into the seat's value; the worth never makes keeping the
    cubes look better than buying."""
    state = actions_table(start=0)
    space = offered(state)
    give_cost(state, 0, flow.tile_cost(space.tile))
    before = standin.value(GAME, state, 0), GAME.playout_worth(state, 0)
    play(state, 0, f"buy {space.space}")
    after_total = next(p.total for p in GAME.score(state, 0).players if p.seat == 0)
    assert after_total + GAME.playout_worth(state, 0) > before[1]
    assert standin.value(GAME, state, 0) > before[0]


def test_a_house_is_worth_more_early_than_late() -> None:
    state = actions_table(start=0)
    state.cubes[0] = {c: 0 for c in sup.CUBES}
    board.make_house(state, 0, next(i + 1 for i, c in enumerate(state.cottages[0]) if c.at), True)
    early = GAME.playout_worth(state, 0)
    assert early > 0.0
    for space in state.mat:
        if space.stage < 5:
            space.taken = 1
    assert 0.0 < GAME.playout_worth(state, 0) < early


def test_the_stand_in_judges_a_cut_short_play_out_by_the_cubes_held() -> None:
    """engine/standin.value: with no seats bought yet, the seat holding cubes towards the seats on offer leads."""
    state = actions_table(start=0)
    for seat in range(state.n):
        state.cubes[seat] = {c: 0 for c in sup.CUBES}
    give_cost(state, 1, flow.tile_cost(offered(state).tile))
    assert standin.value(GAME, state, 1) > standin.WIN - 0.01
    assert standin.value(GAME, state, 0) < 0.0
