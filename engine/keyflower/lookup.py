"""Keyflower components described by name, for the rules lookup: village tiles, summer boat powers, boats,
turn-order tiles, resources, skills and keyple colours (engine.keyflower.component_texts), and the pieces of the two
modules (engine.keyflower.module_texts).

`describe(name)` answers a tile by id or printed name (`timber-yard`, "Timber Yard", `home-3`, "Home tile 3",
`summerboat-2a`, `2a`), a boat (`sea-bastion`, "Sea Breeze"), a turn-order tile (`order-2`), a resource (`gold`),
a skill (`pick`, "pick axe"), a keyple colour (`green`, "purple keyple") or a piece of the two modules (Sven, Paulo,
the Keymelequin boat, Key Celeste, the ghost), case-insensitively, with spaces, hyphens and underscores alike;
anything else gives None, so the sections of docs/rules/keyflower.md get their turn; `more(name)` gives the rules
topic that says more, which the chat layer points to. `names()` lists one spelling of each base-game component, for
autocomplete; `names(modules=True)` adds the module pieces, and `module_names()` lists those alone.

The wording shared with the other texts (engine.keyflower.wording) and the pieces by id (engine.keyflower.pieces)
are re-exported here for the callers that read them from this module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from engine.keyflower import keyples as kp
from engine.keyflower.component_texts import (
    ORDER_MORE,
    RESOURCE_MORE,
    SKILL_MORE,
    boat_more,
    boat_text,
    keyple_more,
    keyple_text,
    order_text,
    resource_text,
    skill_text,
    tile_more,
    tile_text,
)
from engine.keyflower.components import COMPONENTS, RESOURCES, SKILLS
from engine.keyflower.module_texts import MORE, celeste_text, ghost_text, keymelequin_text, wild_text
from engine.keyflower.pieces import BOATS as BOATS
from engine.keyflower.pieces import TILES as TILES
from engine.keyflower.pieces import order_face as order_face
from engine.keyflower.pieces import order_faces as order_faces
from engine.keyflower.wording import BOAT_SCORING as BOAT_SCORING
from engine.keyflower.wording import MARK as MARK
from engine.keyflower.wording import POWERS as POWERS
from engine.keyflower.wording import WINTER_SCORING as WINTER_SCORING
from engine.keyflower.wording import and_list as and_list
from engine.keyflower.wording import cost_text as cost_text
from engine.keyflower.wording import display_name as display_name
from engine.keyflower.wording import effect_short as effect_short
from engine.keyflower.wording import pay_words as pay_words
from engine.keyflower.wording import plural as plural
from engine.keyflower.wording import reconstructed_values as reconstructed_values
from engine.keyflower.wording import slug as slug

DISCORD_SAFE = 1800


@dataclass(frozen=True)
class Entry:
    """One thing describe() answers: its name for autocomplete, its text, the rules topic that says more, and the
    other names it goes by."""

    name: str
    text: str
    more: str
    aliases: tuple[str, ...] = ()


def _key(name: str) -> str:
    """A name folded for matching: lower case, apostrophes dropped, spaces, hyphens and underscores alike."""
    folded = name.strip().lower().replace("'", "").replace("\u2019", "")
    return re.sub(r"[\s_\-]+", " ", folded)


_TILE_ALIASES: dict[str, tuple[str, ...]] = {
    "key-mine": ("keymine",),
    "craftsmens-guild": ("craftsman's guild", "craftsmans guild"),
    "mercers-guild": ("mercer's guild",),
    "keystone-quarry": ("keystone",),
}


@cache
def _entries() -> tuple[Entry, ...]:
    """Every component described, in the order names() lists them."""
    found: list[Entry] = []
    for tile in COMPONENTS.tiles:
        aliases: tuple[str, ...] = (tile.id, *_TILE_ALIASES.get(tile.id, ()))
        if tile.kind == "home":
            aliases += (f"home {tile.number}",)
        if tile.kind == "summerboat":
            face = tile.id[-2:]
            aliases += (face, f"boat {face}", f"summer boat tile {face}")
        found.append(Entry(tile.name, tile_text(tile), tile_more(tile), aliases))
    for boat in COMPONENTS.boats:
        aliases = (boat.id, f"{boat.name} boat", f"boat {boat.name}")
        if boat.id == "sea-breese":
            aliases += ("sea breeze", "sea breeze boat")
        found.append(Entry(boat.name, boat_text(boat), boat_more(boat), aliases))
    for number in sorted({o.number for o in COMPONENTS.turn_order}):
        found.append(Entry(f"Turn-order tile {number}", order_text(number), ORDER_MORE,
                           (f"order-{number}", f"turn order {number}", f"order tile {number}")))
    for resource in RESOURCES:
        found.append(Entry(resource, resource_text(resource), RESOURCE_MORE,
                           (f"{resource} counter", f"{resource} counters")))
    skill_aliases = {"pick": ("pick axe", "pickaxe", "pickaxes", "picks"), "anvil": ("anvils",), "saw": ("saws",)}
    for skill in SKILLS:
        found.append(Entry(skill, skill_text(skill), SKILL_MORE, skill_aliases[skill]))
    for colour in (*kp.COLOURS, "purple"):
        aliases = (colour, f"{colour} keyples", f"{colour} worker", f"{colour} workers", f"{colour} meeple")
        if colour == "purple":
            aliases += ("start player keyple", "start-player keyple", "purple start keyple")
        found.append(Entry(f"{colour} keyple", keyple_text(colour), keyple_more(colour), aliases))
    return tuple(found)


@cache
def _module_entries() -> tuple[Entry, ...]:
    """The pieces of Keymelequin and Key Celeste, in the order module_names() lists them."""
    return (
        Entry("Sven", wild_text("sven"), MORE["sven"], ("sven keyple", "wild keyple sven")),
        Entry("Paulo", wild_text("paulo"), MORE["paulo"], ("paulo keyple", "wild keyple paulo")),
        Entry("Keymelequin", keymelequin_text(), MORE["keymelequin"],
              ("keymelequin boat", "keymelequin tile", "boat keymelequin")),
        Entry("Key Celeste", celeste_text(), MORE["key-celeste"],
              ("key-celeste", "keyceleste", "key celeste tile", "celeste")),
        Entry("Ghost", ghost_text(), MORE["ghost"], ("the ghost", "ghost keyple", "grey ghost", "key celeste ghost")),
    )


@cache
def _index() -> dict[str, Entry]:
    """Folded name or alias -> what describe() answers."""
    index: dict[str, Entry] = {}
    for entry in (*_entries(), *_module_entries()):
        for name in (entry.name, *entry.aliases):
            index.setdefault(_key(name), entry)
    return index


def names(modules: bool = False) -> list[str]:
    """Every base-game component describe() answers, one spelling each, for the lookup's autocomplete; with
    modules=True the module pieces follow (module_names())."""
    found = [entry.name for entry in _entries()]
    return found + module_names() if modules else found


def module_names() -> list[str]:
    """The pieces of Keymelequin and Key Celeste describe() answers: Sven, Paulo, Keymelequin, Key Celeste, Ghost."""
    return [entry.name for entry in _module_entries()]


def describe(name: str) -> str | None:
    """A component described for chat (under DISCORD_SAFE characters), or None when the name is no component."""
    entry = _index().get(_key(name))
    if entry is None:
        return None
    return entry.text if len(entry.text) <= DISCORD_SAFE else entry.text[: DISCORD_SAFE - 1] + "…"


def more(name: str) -> str | None:
    """The rules topic that says more about a component (a rules section answers it, describe does not), or None
    when the name is no component."""
    entry = _index().get(_key(name))
    return None if entry is None else entry.more
