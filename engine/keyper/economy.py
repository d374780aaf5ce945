"""Paying for things: cost tokens, which resources may pay them, and whether a player can pay (rulebook p.10)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache

from engine.keyper.vocab import FINISHED, FINISHED_OF_RAW, GEMS, RAW, RESOURCES, WHEAT, plural

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
    return not items or _pays({r: n for r, n in goods.items() if n > 0}, items, 0)


def _pays(left: dict[str, int], items: list[str], first: int) -> bool:
    """Whether what is left pays items[first:]: each way of paying the first of them is tried on `left` itself and
    taken back (a search, as one resource may pay several kinds of item)."""
    if first == len(items):
        return True
    for resource in accepts(items[first]):
        if left.get(resource, 0) > 0:
            left[resource] -= 1
            paid = _pays(left, items, first + 1)
            left[resource] += 1
            if paid:
                return True
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


@cache
def hand_ins(needed: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Every set of goods that may be handed in where these resources are asked for, sorted and without repeats
    (worked out once per request: it depends on the rules alone).

    A finished good may always be used as the raw material of its type (rulebook p.10, ruling K-22), so each raw
    material asked for may be the raw material itself or its finished good.
    """
    found: set[tuple[str, ...]] = {()}
    for resource in needed:
        choices = (resource, FINISHED_OF_RAW[resource]) if resource in FINISHED_OF_RAW else (resource,)
        found = {tuple(sorted(have + (c,))) for have in found for c in choices}
    return tuple(sorted(found))


def stands_for(good: str, asked: Iterable[str]) -> str | None:
    """The resource among those asked for that a good is used as: itself first, else the raw material a finished
    good stands in for (rulebook p.10); None when it serves as none of them."""
    asked = tuple(asked)
    if good in asked:
        return good
    return next((raw for raw in asked if FINISHED_OF_RAW.get(raw) == good), None)


def unpaid(goods: Mapping[str, int], items: list[str]) -> list[str]:
    """The cost items left unpaid when the goods pay as many items as they can (empty when all can be paid)."""
    units = [r for r, n in sorted(goods.items()) if n > 0 for _ in range(n)]
    owner: dict[int, int] = {}  # unit index -> item index paid with it

    def assign(item: int, seen: set[int]) -> bool:
        for unit, resource in enumerate(units):
            if resource in accepts(items[item]) and unit not in seen:
                seen.add(unit)
                if unit not in owner or assign(owner[unit], seen):
                    owner[unit] = item
                    return True
        return False

    paid = {i for i in range(len(items)) if assign(i, set())}
    return [items[i] for i in range(len(items)) if i not in paid]


_ITEM_WORDS = {
    "any_raw": "any raw material (or wheat)",
    "any_finished": "any finished good (or wheat)",
    "any_gem": "any gem",
    "finished_only": "any finished good (not wheat)",
    "three_raw": "a clay, log or rock (or its finished good, not wheat)",
    "three_finished": "a brick, wood or stone (not wheat)",
}


def items_words(items: Iterable[str], stand_ins: bool = True) -> str:
    """Words for cost items: '1 stone and 1 rock (a stone may stand in for it)', 'any raw material (or wheat)';
    without stand_ins a named raw material is not followed by the finished good that may pay it."""
    words = []
    for token, n in Counter(items).items():
        if token in _ITEM_WORDS:
            words.append(_ITEM_WORDS[token] if n == 1 else f"{n} x {_ITEM_WORDS[token]}")
        elif token in FINISHED_OF_RAW and stand_ins:
            words.append(f"{plural(token, n)} (a {FINISHED_OF_RAW[token]} may stand in for each)" if n > 1
                         else f"1 {token} (a {FINISHED_OF_RAW[token]} may stand in for it)")
        else:
            words.append(plural(token, n))
    return and_list(words) or "nothing"


def and_list(words: list[str]) -> str:
    """'a, b and c' ('' for no words)."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1] if words else ""
