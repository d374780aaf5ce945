"""Keyper's fixed vocabulary: seasons, keyple colours and resource names."""

from __future__ import annotations

SEASONS: tuple[str, ...] = ("spring", "summer", "autumn", "winter")

# Keyple colours. "blue" is the light-blue boat person, "green" the light-green farmer.
COLOURS: tuple[str, ...] = ("blue", "orange", "green", "brown", "black", "grey", "white")
FIELD_COLOURS: tuple[str, ...] = COLOURS[:-1]

RAW: tuple[str, ...] = ("clay", "log", "rock")
FINISHED: tuple[str, ...] = ("brick", "wood", "stone")
WHEAT = "wheat"
ANIMALS: tuple[str, ...] = ("chicken", "cow", "deer", "goat", "horse", "pig", "sheep", "boar")
GEMS: tuple[str, ...] = ("emerald", "gold", "ruby", "sapphire")
RESOURCES: tuple[str, ...] = RAW + FINISHED + (WHEAT,) + ANIMALS + GEMS

# A finished good may always stand in for the raw material of its type (rulebook p.10).
FINISHED_OF_RAW: dict[str, str] = {"clay": "brick", "log": "wood", "rock": "stone"}

# Field categories on the country boards (rulebook p.12).
FIELD_CATEGORIES: tuple[str, ...] = (
    "keyp",
    "river",
    "resource",
    "country_tile",
    "convert",
    "trade",
    "build",
    "discount_build",
    "upgrade",
)

AREAS: tuple[str, ...] = ("farm", "village")  # a player board's two areas; each building tile belongs to one
FARM_PLOTS = 8
VILLAGE_PLOTS = 12


def resource_group(name: str) -> str:
    """Return 'raw', 'finished', 'wheat', 'animal' or 'gem' for a resource; raises KeyError."""
    for group, members in (
        ("raw", RAW),
        ("finished", FINISHED),
        ("wheat", (WHEAT,)),
        ("animal", ANIMALS),
        ("gem", GEMS),
    ):
        if name in members:
            return group
    raise KeyError(name)


def plural(name: str, count: int) -> str:
    """Return 'a pig' / '3 pigs' style wording for a count of a resource or thing."""
    if count == 1:
        return f"1 {name.replace('_', ' ')}"
    irregular = {"sheep": "sheep", "deer": "deer", "boar": "boar", "gold": "gold", "wheat": "wheat",
                 "wood": "wood", "stone": "stone", "clay": "clay", "ruby": "rubies"}
    word = irregular.get(name, name.replace("_", " ") + "s")
    return f"{count} {word}"


def a(word: str) -> str:
    """Prefix a word with 'a' or 'an'."""
    return ("an " if word[:1] in "aeiou" else "a ") + word
