"""Transport and upgrading within one use of a transport tile (reference §6): `carry KIND FROM TO` moves one
resource along roads (each step costs one of the capacity), `upgrade TILE` flips one of one's own tiles, paid with
resources lying on it and skills from behind the screen; `done` ends the use. Moves and upgrades interleave (F-n).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.core import Event
from engine.keyflower import supply as sup
from engine.keyflower import village as vg
from engine.keyflower.actions import Act, act
from engine.keyflower.components import Face
from engine.keyflower.pieces import is_tile, powers_of, tile
from engine.keyflower.pieces import sides as sides
from engine.keyflower.state import KfState, TransportStep, VillageTile
from engine.keyflower.village import key_of as key_of
from engine.keyflower.village import pos_of as pos_of


def village(state: KfState, seat: int) -> dict[vg.Pos, vg.Placed]:
    """A seat's village in the geometry module's terms."""
    return {pos_of(k): vg.Placed(p.tile, p.up) for k, p in state.villages[seat].items()}


def powers(state: KfState, seat: int) -> set[str]:
    """The summer boat powers a seat owns ('2a', '3b', ...), from the moment it wins the boat (ruling F-17)."""
    return powers_of([*(p.tile for p in state.villages[seat].values()), *state.won[seat]])



def begin(state: KfState, seat: int, face: Face, ev: list[Event]) -> None:
    """Open a transport use: its capacity and upgrades (doubled with summer boat 2b)."""
    factor = 2 if "2b" in powers(state, seat) else 1
    state.pending = TransportStep(seat, face.transport * factor, face.upgrades * factor)
    steps = sup.count_words(face.transport * factor, "step")
    ev.append(Event(f"{state.names[seat]} may move resources {steps} along roads and upgrade "
                    f"{sup.count_words(face.upgrades * factor, 'tile')}.", seat))


def actions(state: KfState, pending: TransportStep) -> list[Act]:
    """The steps of a transport use: carry, upgrade, done."""
    seat = pending.seat
    found = []
    mine = village(state, seat)
    fields = "2a" in powers(state, seat)
    if pending.steps > 0:
        for key, placed in sorted(state.villages[seat].items()):
            res = placed.res
            if not res:
                continue
            reach = vg.road_steps(mine, sides, pos_of(key), fields)
            for pos, steps in sorted(reach.items()):
                if 0 < steps <= pending.steps:
                    target = state.villages[seat][key_of(pos)].tile
                    found += [act("carry", kind, placed.tile, target) for kind in sorted(res) if res[kind]]
    if pending.upgrades > 0:
        found += [act("upgrade", p.tile) for p in state.villages[seat].values() if can_upgrade(state, seat, p)]
    return found + [act("done")]


def can_upgrade(state: KfState, seat: int, placed: VillageTile) -> bool:
    """Whether a tile can be flipped now: it has a back, is not flipped, and its cost is on it (resources) and
    behind the screen (skills); with summer boat 3a any resource stands in for another."""
    if placed.up or not is_tile(placed.tile):
        return False
    t = tile(placed.tile)
    if t.back is None or not t.upgrade:
        return False
    return _payment(t.upgrade, placed.res, state.skills[seat], "3a" in powers(state, seat)) is not None


def _payment(cost: Mapping[str, int], res: dict[str, int], skills: dict[str, int],
             any_resource: bool) -> tuple[dict[str, int], dict[str, int]] | None:
    """(resources, skills) paying an upgrade cost, None when it cannot be paid; any_resource (summer boat 3a): a
    resource named but missing may be paid with any other."""
    paid = _pay_from(res, {k: n for k, n in cost.items() if k in sup.RESOURCES}, cost.get("resource", 0),
                     any_resource)
    skills_paid = _pay_from(skills, {k: n for k, n in cost.items() if k in sup.SKILLS}, cost.get("skill", 0), False)
    return None if paid is None or skills_paid is None else (paid, skills_paid)


def _pay_from(pool: Mapping[str, int], named: Mapping[str, int], extra: int,
              stand_in: bool) -> dict[str, int] | None:
    """What pays the named counts and `extra` items of any kind out of a pool, any kind taken from the largest heap
    first; stand_in: a named item missing may be paid with any other; None when the pool cannot pay."""
    left = dict(pool)
    paid: dict[str, int] = {}
    for k, n in named.items():
        use = min(left.get(k, 0), n)
        if use < n and not stand_in:
            return None
        left[k] = left.get(k, 0) - use
        paid[k] = paid.get(k, 0) + use
        extra += n - use
    for k in sorted(left, key=lambda x: -left[x]):
        take = min(left[k], extra)
        if take:
            left[k] -= take
            paid[k] = paid.get(k, 0) + take
            extra -= take
    return None if extra > 0 else paid



def step(state: KfState, pending: TransportStep, action: Act, ev: list[Event]) -> None:
    """One step of a transport use: `done`, `carry` or `upgrade`; raises ValueError for any other verb."""
    if action.verb == "done":
        state.pending = None
    elif action.verb == "carry":
        _carry(state, pending, action, ev)
    elif action.verb == "upgrade":
        _upgrade(state, pending, action.args[0], ev)
    else:
        raise ValueError(f"'{action}' is no step of a transport")


def _carry(state: KfState, pending: TransportStep, action: Act, ev: list[Event]) -> None:
    """One resource moved along the roads, paid for with its steps (reference §6)."""
    seat = pending.seat
    kind, source, target = action.args
    src_key, dst_key = _key_of_tile(state, seat, source), _key_of_tile(state, seat, target)
    src, dst = state.villages[seat][src_key], state.villages[seat][dst_key]
    reach = vg.road_steps(village(state, seat), sides, pos_of(src_key), "2a" in powers(state, seat))

    pending.steps -= reach[pos_of(dst_key)]
    sup.take(src.res, {kind: 1})
    sup.add(dst.res, {kind: 1})
    if src.stored.get(kind):  # a resource moved off a storage tile no longer counts as stored there
        sup.take(src.stored, {kind: 1})
    if tile(target).front.kind == "store":
        sup.add(dst.stored, {kind: 1})
    ev.append(Event(f"{state.names[seat]} moves 1 {kind} from {source} to {target}.", seat))


def _upgrade(state: KfState, pending: TransportStep, tile_id: str, ev: list[Event]) -> None:
    """A tile of one's village flipped, paid with resources on it and skills from behind the screen (§6)."""
    seat = pending.seat
    name = state.names[seat]
    placed = state.villages[seat][_key_of_tile(state, seat, tile_id)]
    t = tile(placed.tile)
    found = _payment(t.upgrade, placed.res, state.skills[seat], "3a" in powers(state, seat))
    assert found is not None
    res, skills = found
    sup.take(placed.res, {k: n for k, n in res.items() if n})
    sup.add(state.supply, res)
    sup.take(state.skills[seat], skills)
    sup.add(state.skill_pile, skills)
    placed.up = True
    pending.upgrades -= 1
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
        if placed.tile == tile_id:

            return key
    raise KeyError(tile_id)
