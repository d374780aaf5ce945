"""Fairs: which fair sides a player could hold now, given what they already show this season (rulebook p.8)."""

from __future__ import annotations

from collections import Counter

from engine.keyper.components import FairSide
from engine.keyper.spaces import comps, season_name
from engine.keyper.state import State
from engine.keyper.vocab import FINISHED_OF_RAW


def covers(goods: dict[str, int], need: Counter[str]) -> bool:
    """Whether goods can show every item needed; a finished good may stand for its raw material (p.10)."""
    spare = dict(goods)
    for raw, finished in FINISHED_OF_RAW.items():
        if need[finished] > spare.get(finished, 0):
            return False
        spare[finished] = spare.get(finished, 0) - need[finished]
        spare[raw] = spare.get(raw, 0) + spare[finished]
    return all(spare.get(r, 0) >= n for r, n in need.items() if r not in FINISHED_OF_RAW.values())


def side_worth(fair_id: str, points: int) -> FairSide:
    """The side of a fair that scores these points; raises KeyError."""
    for side in comps().fairs[fair_id].sides:
        if side.points == points:
            return side
    raise KeyError(f"{fair_id}:{points}")


def shown_this_season(state: State, seat: int) -> Counter[str]:
    """Everything the seat already exhibits at fairs held this season."""
    shown: Counter[str] = Counter()
    for held in state.players[seat].fairground.get(season_name(state), []):
        shown.update(side_worth(held.fair, held.points).requires)
    return shown


def own_fairs(state: State, seat: int) -> list[str]:
    """Fair tiles the seat could still hold: this season's face-down fair and unheld winter fairs."""
    season = season_name(state)
    p = state.players[seat]
    return [f for f in p.hidden_fairs if comps().fairs[f].kind == season] + list(p.winter_fairs)


def holdable(state: State, seat: int) -> list[tuple[str, int, bool]]:
    """(fair, points, is_winter) for every fair side the seat may hold now."""
    season = season_name(state)
    goods = state.players[seat].goods
    shown = shown_this_season(state, seat)
    found = []
    for fair_id in own_fairs(state, seat):
        fair = comps().fairs[fair_id]
        for side in fair.sides:
            if season in side.seasons and covers(goods, shown + Counter(side.requires)):
                found.append((fair_id, side.points, fair.kind == "winter"))
    return found
