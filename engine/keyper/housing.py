"""Housing animals at the end of a season: how many fit on the farm tiles, and which must go (rulebook p.8)."""

from __future__ import annotations

from collections.abc import Sequence

from engine.keyper.spaces import comps
from engine.keyper.state import Player
from engine.keyper.vocab import ANIMALS

CAPACITY = 4


def housing_tiles(player: Player) -> list[tuple[str, ...]]:
    """The animal types each active (not overbuilt) farm tile of the player may house."""
    tiles = comps().tiles
    return [tiles[p.tile].houses for p in player.plots.values() if tiles[p.tile].houses]


def housable(counts: dict[str, int], tiles: Sequence[tuple[str, ...]]) -> int:
    """The most animals that can be housed: a max flow from animal types to tiles of capacity 4."""
    left = {a: n for a, n in counts.items() if n > 0}
    room = [CAPACITY] * len(tiles)
    # Each tile's assignment per animal, so augmenting paths can move animals between tiles.
    placed: list[dict[str, int]] = [{} for _ in tiles]
    total = 0
    for animal in list(left):
        while left[animal] > 0 and _augment(animal, tiles, room, placed, set()):
            left[animal] -= 1
            total += 1
    return total


def _augment(
    animal: str, tiles: Sequence[tuple[str, ...]], room: list[int], placed: list[dict[str, int]], seen: set[int]
) -> bool:
    """Find room for one more animal, moving housed animals to other tiles if needed."""
    for i, houses in enumerate(tiles):
        if animal not in houses or i in seen:
            continue
        seen.add(i)
        if room[i] > 0:
            room[i] -= 1
            placed[i][animal] = placed[i].get(animal, 0) + 1
            return True
        for other, n in list(placed[i].items()):
            if n > 0 and other != animal and _augment(other, tiles, room, placed, seen):
                placed[i][other] -= 1
                placed[i][animal] = placed[i].get(animal, 0) + 1
                return True
    return False


def must_keep(counts: dict[str, int], tiles: Sequence[tuple[str, ...]]) -> dict[str, int]:
    """For each animal type, how many every best housing keeps (the rest are the player's choice)."""
    best = housable(counts, tiles)
    keep = {}
    for animal in ANIMALS:
        without = {a: n for a, n in counts.items() if a != animal}
        keep[animal] = best - housable(without, tiles)
    return keep


def may_keep(counts: dict[str, int], tiles: Sequence[tuple[str, ...]]) -> dict[str, int]:
    """For each animal type, the most of it any best housing keeps."""
    return {a: housable({a: counts.get(a, 0)}, tiles) for a in ANIMALS}


def animal_counts(player: Player) -> dict[str, int]:
    """The player's animals by type."""
    return {a: player.goods.get(a, 0) for a in ANIMALS}
