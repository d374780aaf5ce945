"""Cubes: the store, the craftsmen, and payments as slots each accepting some colours."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from engine.keythedral import components
from engine.keythedral.components import CRAFTS, CRAFTSMAN_OF, CRAFTSMEN, CUBE_ORDER, RESOURCES, Craftsman
from engine.keythedral.state import KState
from engine.keythedral.steps import Slots

__all__ = ["ANY", "CRAFTS", "CRAFTSMEN", "CRAFTSMAN_OF", "CUBES", "RESOURCES", "TERRAINS", "TERRAIN_CUBE", "VALUE",
           "Craftsman", "Slots"]

CUBES = CUBE_ORDER
TERRAIN_CUBE = components.TERRAINS  # terrain -> the resource cube its workers bring
TERRAINS = tuple(TERRAIN_CUBE)
VALUE = {"white": 2, "purple": 3, "yellow": 4}  # the tie-break's cube values; resources are worth one (The winner)
ANY: tuple[str, ...] = CUBES


def count(cubes: dict[str, int]) -> int:
    """How many cubes a player holds."""
    return sum(cubes.values())


def cube_value(cubes: dict[str, int]) -> int:
    """The tie-break value of a player's cubes (The winner)."""
    return sum(n * VALUE.get(c, 1) for c, n in cubes.items())


def feasible(cubes: dict[str, int], slots: Sequence[Sequence[str]]) -> bool:
    """Whether these cubes can fill every slot (each slot takes one cube of a colour it accepts)."""
    if count(cubes) < len(slots):
        return False
    return _fill(dict(cubes), sorted((tuple(s) for s in slots), key=len))


def _fill(cubes: dict[str, int], slots: list[tuple[str, ...]]) -> bool:
    """Backtracking fill of the most constrained slots first."""
    if not slots:
        return True
    first, rest = slots[0], slots[1:]
    for colour in dict.fromkeys(first):
        if cubes.get(colour, 0) > 0:
            cubes[colour] -= 1
            ok = _fill(cubes, rest)
            cubes[colour] += 1
            if ok:
                return True
    return False


def give_options(cubes: dict[str, int], slots: Slots) -> list[str]:
    """The colours that may be given next so the rest of the payment can still be made."""
    if all(len(s) == len(ANY) for s in slots):
        return [c for c in CUBES if cubes.get(c, 0) > 0] if slots else []
    return [c for c in CUBES if cubes.get(c, 0) > 0 and take_slot(cubes, slots, c) is not None]


def take_slot(cubes: dict[str, int], slots: Slots, colour: str) -> int | None:
    """The index of a slot the colour can fill while the rest stays payable; None when there is none."""
    if slots and all(len(s) == len(ANY) for s in slots):
        return 0
    rest = dict(cubes)
    rest[colour] = rest.get(colour, 0) - 1
    for i, slot in enumerate(slots):
        if colour in slot and feasible(rest, slots[:i] + slots[i + 1:]):
            return i
    return None


def fixed_slots(colours: Iterable[str]) -> Slots:
    """One slot per colour named."""
    return [[c] for c in colours]


def any_slots(k: int) -> Slots:
    """k slots accepting any cube."""
    return [list(ANY) for _ in range(k)]


def pay(state: KState, seat: int, colours: Iterable[str], to: int | None = None) -> None:
    """Move cubes from a seat to the store (or to another seat); assumes they are held."""
    for colour, k in Counter(colours).items():
        state.cubes[seat][colour] -= k
        if to is None:
            state.store[colour] = state.store.get(colour, 0) + k
        else:
            state.cubes[to][colour] = state.cubes[to].get(colour, 0) + k


def take(state: KState, seat: int, colour: str, k: int = 1) -> int:
    """Move up to k resource cubes of a colour from the store to a seat; returns how many there were."""
    got = min(k, state.store.get(colour, 0))
    state.store[colour] -= got
    state.cubes[seat][colour] = state.cubes[seat].get(colour, 0) + got
    return got


def craft_available(state: KState, colour: str) -> bool:
    """Whether the craftsman of this colour can sell: cubes at hand or used ones in the store (T-11)."""
    return state.craftsmen[colour] > 0 or state.store.get(colour, 0) > 0


def take_craft(state: KState, seat: int, colour: str) -> bool:
    """Give a seat a craft cube from its craftsman; returns True when he had none, so one used cube of his colour
    went back to him from the store first (T-11: the rest stay there); assumes craft_available."""
    refilled = state.craftsmen[colour] == 0
    if refilled:
        state.store[colour] -= 1
        state.craftsmen[colour] += 1
    state.craftsmen[colour] -= 1
    state.cubes[seat][colour] = state.cubes[seat].get(colour, 0) + 1
    return refilled


def cubes_word(k: int) -> str:
    """'1 cube', '3 cubes'."""
    return f"{k} cube" if k == 1 else f"{k} cubes"


def words(colours: Iterable[str]) -> str:
    """'2 black, 1 brown' for a list of cube colours."""
    counted = Counter(colours)
    return ", ".join(f"{counted[c]} {c}" for c in CUBES if counted[c]) or "nothing"
