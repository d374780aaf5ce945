"""Paying for things: cost tokens, which resources may pay them, and whether a player can pay (rulebook p.10)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache

from engine.keyper.vocab import FINISHED, FINISHED_OF_RAW, GEMS, RAW, RESOURCES, WHEAT

# What may pay each kind of cost item. A finished good may always stand in for the raw material of its type;
# wheat may stand in for a white ("any") raw material or finished good, never for a gem (p.10).
_GROUPS: dict[str, tuple[str, ...]] = {
    "any_raw": RAW + FINISHED + (WHEAT,),
    "any_finished": FINISHED + (WHEAT,),
    "any_gem": GEMS,
    "finished_only": FINISHED,
    # The three-coloured icons: any of the three types, but never wheat (p.10).
    "three_raw": RAW + FINISHED,
    "three_finished": FINISHED,
}


def accepts(token: str) -> tuple[str, ...]:
    """The resources that may pay one cost item; raises KeyError for an unknown item."""
    if token in _GROUPS:
        return _GROUPS[token]
    if token in FINISHED_OF_RAW:
        return (token, FINISHED_OF_RAW[token])
    if token in RESOURCES:
        return (token,)
    raise KeyError(token)


def tokens(cost: Mapping[str, int]) -> list[str]:
    """A cost as a list of single items, the most constrained first (a fresh list each call)."""
    return list(_sorted_items(tuple(sorted(cost.items()))))


@cache
def _sorted_items(cost: tuple[tuple[str, int], ...]) -> tuple[str, ...]:
    """The items of a cost, most constrained first."""
    items = [t for t, n in cost for _ in range(n)]
    return tuple(sorted(items, key=lambda t: (len(accepts(t)), t)))


def can_pay(goods: Mapping[str, int], items: list[str]) -> bool:
    """Whether the goods can pay every item (each resource pays one item)."""
    if not items:
        return True
    left = Counter({r: n for r, n in goods.items() if n > 0})
    first, rest = items[0], items[1:]
    for resource in accepts(first):
        if left[resource] > 0:
            left[resource] -= 1
            if can_pay(left, rest):
                return True
            left[resource] += 1
    return False


def pay_options(goods: Mapping[str, int], items: list[str]) -> list[str]:
    """The resources that may pay the first item while the rest stays payable."""
    if not items:
        return []
    found = []
    for resource in accepts(items[0]):
        if goods.get(resource, 0) > 0:
            left = dict(goods)
            left[resource] -= 1
            if can_pay(left, items[1:]):
                found.append(resource)
    return found


def has_all(goods: Mapping[str, int], needed: Iterable[str]) -> bool:
    """Whether goods hold every resource listed (with repeats)."""
    need = Counter(needed)
    return all(goods.get(r, 0) >= n for r, n in need.items())
