"""Who decides now and every action they may take: the single source of truth."""

from __future__ import annotations

from typing import assert_never

from engine.keyflower import keymelequin, season, transport
from engine.keyflower import keyples as kp
from engine.keyflower import supply as sup
from engine.keyflower.actions import Act, act
from engine.keyflower.state import (
    CountStep,
    KfState,
    MixStep,
    PayStep,
    Pending,
    ReplaceStep,
    TakeStep,
    TransportStep,
)
from engine.keyflower.turns import count_range, joinable, mix_actions, turn_actions


def to_act(state: KfState) -> list[int]:
    """Seats that must decide now, in the order they are asked."""
    if state.phase == "over":
        return []
    if state.pending:
        return [state.pending.seat]
    if state.phase == "winter-choice":
        return [s for s in range(state.n) if state.winter_choice[s] is not None]
    if state.phase == "boats":
        return state.picking[:1]
    if state.phase == "place":
        return [s for s in range(state.n) if state.won[s]]
    return [state.turn]


def pay_actions(state: KfState, seat: int, what: str) -> list[Act]:
    """What may be handed in: any worker, any skill, or a colour or the wild keyple of its pair (F-31)."""
    pool = state.skills[seat] if what == "skill" else state.workers[seat]
    allowed = (what, kp.PAIR_OF[what]) if what in kp.COLOURS else tuple(pool)
    return [act("pay", k) for k in sorted(pool) if pool[k] and k in allowed]


def legal(state: KfState, seat: int) -> list[Act]:
    """Every action this seat may take now (empty when it is not this seat's decision)."""
    if seat not in to_act(state):
        return []
    if state.pending:
        return step_actions(state, state.pending)
    if state.phase == "winter-choice":
        return season.winter_actions(state, seat)
    if state.phase == "boats":
        return season.boat_actions(state, seat)
    if state.phase == "place":
        return season.place_actions(state, seat)
    return turn_actions(state, seat)


def step_actions(state: KfState, pending: Pending) -> list[Act]:
    """The actions of the next step of an action under way, by its kind; raises AssertionError for an unknown
    kind."""
    match pending:
        case CountStep():
            return [act("count", k) for k in count_range(state, pending)] + joinable(state, pending)
        case MixStep():
            return mix_actions(state, pending)
        case PayStep():
            return pay_actions(state, pending.seat, pending.pay)
        case ReplaceStep():
            return keymelequin.replace_actions(state)
        case TakeStep():
            return [act("take", k) for k in sup.CHOICE if state.supply.get(k, 0)]

        case TransportStep():
            return transport.actions(state, pending)
        case _:
            assert_never(pending)
