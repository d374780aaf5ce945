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


def shortfall(goods: dict[str, int], need: Counter[str]) -> Counter[str]:
    """What goods lack to show every item needed, counting spare finished goods for their raw materials (p.10);
    empty exactly when covers(goods, need)."""
    short: Counter[str] = Counter()
    spare: dict[str, int] = {}
    for raw, finished in FINISHED_OF_RAW.items():
        short[finished] = max(0, need[finished] - goods.get(finished, 0))
        spare[raw] = max(0, goods.get(finished, 0) - need[finished])
    for resource, n in need.items():
        if resource not in FINISHED_OF_RAW.values():
            short[resource] = max(0, n - goods.get(resource, 0) - spare.get(resource, 0))
    return +short


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
