"""Transport and upgrading within one use of a transport tile (reference §6): `carry KIND FROM TO` moves one
resource along roads (each step costs one of the capacity), `upgrade TILE` flips one of one's own tiles, paid with
resources lying on it and skills from behind the screen; `done` ends the use. Moves and upgrades interleave (F-n).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from engine.core import Event
from engine.keyflower import supply as sup
from engine.keyflower import village as vg
from engine.keyflower.actions import Act, act
from engine.keyflower.components import COMPONENTS, Face
from engine.keyflower.flow import is_tile, tile
from engine.keyflower.state import KfState


@cache
def sides(tile_id: str) -> vg.Sides:
    """A tile's road and water edges, whatever kind of tile it is."""
    for t in COMPONENTS.tiles:
        if t.id == tile_id:
            return vg.Sides.of(t.roads, t.water, t.kind == "summerboat")
    for b in COMPONENTS.boats:
        if b.id == tile_id:
            return vg.Sides.of(b.roads, b.water, True)
    for o in COMPONENTS.turn_order:
        if f"order-{o.number}" == tile_id:
            return vg.Sides.of(o.roads, o.water)
    if tile_id == "key-celeste":  # it counts as a boat (module sheet, F-42)
        celeste = COMPONENTS.key_celeste
        return vg.Sides.of(celeste.roads, celeste.water, True)
    raise KeyError(tile_id)


def pos_of(key: str) -> vg.Pos:
    """(q, r) of a "q/r" key."""
    q, r = key.split("/")
    return int(q), int(r)


def key_of(pos: vg.Pos) -> str:
    """The "q/r" key of a position."""
    return f"{pos[0]}/{pos[1]}"


def village(state: KfState, seat: int) -> dict[vg.Pos, vg.Placed]:
    """A seat's village in the geometry module's terms."""
    return {pos_of(k): vg.Placed(p["tile"], bool(p["up"])) for k, p in state.villages[seat].items()}


def powers(state: KfState, seat: int) -> set[str]:
    """The summer boat powers a seat owns ('2a', '3b', ...), from the moment it wins the boat (ruling F-17)."""
    owned = [p["tile"] for p in state.villages[seat].values()] + list(state.won[seat])
    return {t[-2:] for t in owned if t.startswith("summerboat-")}


def begin(state: KfState, seat: int, face: Face, ev: list[Event]) -> None:
    """Open a transport use: its capacity and upgrades (doubled with summer boat 2b)."""
    factor = 2 if "2b" in powers(state, seat) else 1
    state.pending = {"kind": "transport", "seat": seat, "steps": face.transport * factor,
                     "upgrades": face.upgrades * factor}
    steps = sup.count_words(face.transport * factor, "step")
    ev.append(Event(f"{state.names[seat]} may move resources {steps} along roads and upgrade "
                    f"{sup.count_words(face.upgrades * factor, 'tile')}.", seat))


def actions(state: KfState, seat: int) -> list[Act]:
    """The steps of a transport use: carry, upgrade, done."""
    pending = state.pending
    assert pending is not None
    found = []
    mine = village(state, seat)
    fields = "2a" in powers(state, seat)
    if pending["steps"] > 0:
        for key, placed in sorted(state.villages[seat].items()):
            res = placed["res"]
            if not res:
                continue
            reach = vg.road_steps(mine, sides, pos_of(key), fields)
            for pos, steps in sorted(reach.items()):
                if 0 < steps <= pending["steps"]:
                    target = state.villages[seat][key_of(pos)]["tile"]
                    found += [act("carry", kind, placed["tile"], target) for kind in sorted(res) if res[kind]]
    if pending["upgrades"] > 0:
        found += [act("upgrade", p["tile"]) for p in state.villages[seat].values() if can_upgrade(state, seat, p)]
    return found + [act("done")]


def can_upgrade(state: KfState, seat: int, placed: dict[str, object]) -> bool:
    """Whether a tile can be flipped now: it has a back, is not flipped, and its cost is on it (resources) and
    behind the screen (skills); with summer boat 3a any resource stands in for another."""
    if placed["up"] or not isinstance(placed["tile"], str) or not is_tile(placed["tile"]):
        return False
    t = tile(placed["tile"])
    if t.back is None or not t.upgrade:
        return False
    res = placed["res"]
    assert isinstance(res, dict)
    return _payment(t.upgrade, res, state.skills[seat], "3a" in powers(state, seat)) is not None


def _payment(cost: Mapping[str, int], res: dict[str, int], skills: dict[str, int],
             any_resource: bool) -> tuple[dict[str, int], dict[str, int]] | None:
    """(resources, skills) paying an upgrade cost, None when it cannot be paid."""
    need_res = {k: n for k, n in cost.items() if k in sup.RESOURCES}
    anyres = cost.get("resource", 0)
    need_skill = {k: n for k, n in cost.items() if k in sup.SKILLS}
    anyskill = cost.get("skill", 0)
    pool = dict(res)
    paid: dict[str, int] = {}
    for k, n in need_res.items():
        have = pool.get(k, 0)
        use = min(have, n)
        pool[k] = have - use
        paid[k] = paid.get(k, 0) + use
        anyres += (n - use) if any_resource else 0
        if use < n and not any_resource:
            return None
    for k in sorted(pool, key=lambda x: -pool[x]):
        take = min(pool[k], anyres)
        if take:
            pool[k] -= take
            paid[k] = paid.get(k, 0) + take
            anyres -= take
    if anyres > 0:
        return None
    spool = dict(skills)
    spaid: dict[str, int] = {}
    for k, n in need_skill.items():
        if spool.get(k, 0) < n:
            return None
        spool[k] -= n
        spaid[k] = n
    for k in sorted(spool, key=lambda x: -spool[x]):
        take = min(spool[k], anyskill)
        if take:
            spool[k] -= take
            spaid[k] = spaid.get(k, 0) + take
            anyskill -= take
    if anyskill > 0:
        return None
    return paid, spaid


def step(state: KfState, seat: int, action: Act, ev: list[Event]) -> None:
    """One step of a transport use."""
    pending = state.pending
    assert pending is not None
    name = state.names[seat]
    if action.verb == "done":
        state.pending = None
        return
    if action.verb == "carry":
        kind, source, target = action.args
        src_key = _key_of_tile(state, seat, source)
        dst_key = _key_of_tile(state, seat, target)
        reach = vg.road_steps(village(state, seat), sides, pos_of(src_key), "2a" in powers(state, seat))
        pending["steps"] -= reach[pos_of(dst_key)]
        sup.take(state.villages[seat][src_key]["res"], {kind: 1})
        sup.add(state.villages[seat][dst_key]["res"], {kind: 1})
        stored = state.villages[seat][src_key]["stored"]
        if stored.get(kind):  # a resource moved off a storage tile no longer counts as stored there
            sup.take(stored, {kind: 1})
        if tile(target).front.kind == "store":
            sup.add(state.villages[seat][dst_key]["stored"], {kind: 1})
        ev.append(Event(f"{name} moves 1 {kind} from {source} to {target}.", seat))
        return
    key = _key_of_tile(state, seat, action.args[0])
    placed = state.villages[seat][key]
    t = tile(placed["tile"])
    found = _payment(t.upgrade, placed["res"], state.skills[seat], "3a" in powers(state, seat))
    assert found is not None
    res, skills = found
    sup.take(placed["res"], {k: n for k, n in res.items() if n})
    sup.add(state.supply, res)
    sup.take(state.skills[seat], skills)
    sup.add(state.skill_pile, skills)
    placed["up"] = True
    pending["upgrades"] -= 1
    named = {k: min(n, t.upgrade.get(k, 0)) for k, n in skills.items() if t.upgrade.get(k, 0)}
    anyskill = sum(skills.values()) - sum(named.values())  # "any skill": its kinds stay hidden (F-7)
    paid = ", ".join(x for x in (sup.words(res) if res else "", sup.words(named) if named else "",
                                 sup.count_words(anyskill, "other skill") if anyskill else "") if x)
    if anyskill:
        ev.append(Event(f"You pay {sup.words(skills)} for the upgrade.", seat, (seat,)))
    ev.append(Event(f"{name} upgrades {t.name}, paying {paid or 'nothing'}.", seat))


def _key_of_tile(state: KfState, seat: int, tile_id: str) -> str:
    """The "q/r" key of a tile in a seat's village; raises KeyError when it is not there."""
    for key, placed in state.villages[seat].items():
        if placed["tile"] == tile_id:
            return key
    raise KeyError(tile_id)
