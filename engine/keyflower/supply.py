"""Drawing from the bag and the skill pile, and moving counted things between places."""

from __future__ import annotations

from collections.abc import Mapping

from engine.core import Rng
from engine.keyflower.component_records import RESOURCES as RESOURCES
from engine.keyflower.component_records import SKILLS as SKILLS

CHOICE = ("wood", "stone", "iron")  # what a use's choice of resources takes from the supply (reference §5)



def draw(counts: dict[str, int], rng: Rng, k: int = 1) -> dict[str, int]:
    """Draw up to k items at random from a counted pool (changing it); returns what was drawn."""
    got: dict[str, int] = {}
    for _ in range(k):
        total = sum(counts.values())
        if total <= 0:
            break
        point = rng.below(total)
        for key in sorted(counts):
            if point < counts[key]:
                counts[key] -= 1
                got[key] = got.get(key, 0) + 1
                break
            point -= counts[key]
    return got


def add(into: dict[str, int], more: Mapping[str, int]) -> None:
    """Add counts into a pool."""
    for key, k in more.items():
        if k:
            into[key] = into.get(key, 0) + k


def take(out_of: dict[str, int], less: Mapping[str, int]) -> None:
    """Take counts out of a pool; raises ValueError when it holds too few."""
    for key, k in less.items():
        if out_of.get(key, 0) < k:
            raise ValueError(f"only {out_of.get(key, 0)} {key}, not {k}")
    for key, k in less.items():
        out_of[key] -= k
        if not out_of[key]:
            del out_of[key]


def words(counts: Mapping[str, int]) -> str:
    """'2 wood, 1 gold' (nothing: 'nothing')."""
    return ", ".join(f"{k} {key}" for key, k in sorted(counts.items()) if k) or "nothing"


def count_words(k: int, noun: str) -> str:
    """'1 worker', '2 workers'."""
    return f"{k} {noun}" if k == 1 else f"{k} {noun}s"
