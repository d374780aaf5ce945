"""Keyflower components described by name, for `rules NAME`: village tiles, summer boat powers, boats, turn-order
tiles, resources, skills and keyple colours.

`describe(name)` answers a tile by id or printed name (`timber-yard`, "Timber Yard", `home-3`, "Home tile 3",
`summerboat-2a`, `2a`), a boat (`sea-bastion`, "Sea Breeze"), a turn-order tile (`order-2`), a resource (`gold`),
a skill (`pick`, "pick axe"), a keyple colour (`green`, "purple keyple") or a piece of the two modules (Sven, Paulo,
the Keymelequin boat, Key Celeste, the ghost; rulings F-27 to F-44), case-insensitively, with spaces, hyphens and
underscores alike; anything else gives None, so the sections of docs/rules/keyflower.md get their turn.
Each description is Keywood's own wording, shows every face (its use, upgrade cost and points), marks each value
Keywood had to make up "(reconstructed)" (ruling F-2), cites the reference section or ruling, and ends with a
`/rules` phrase that reaches the full section (a phrase this module does not answer). `names()` lists one spelling
of each base-game component, for autocomplete; `names(modules=True)` adds the module pieces, and `module_names()`
lists those alone.

The short effect texts (`effect_short`, `power_short`) and the display names are shared with
engine/keyflower/texts.py.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from engine.keyflower.components import (
    COMPONENTS,
    RESOURCES,
    SKILLS,
    Boat,
    Cost,
    Face,
    Tile,
    TurnOrderTile,
)

DISCORD_SAFE = 1800
MARK = "(reconstructed)"
EDGE_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
KEYPLE_COLOURS = ("blue", "red", "yellow", "green")

# --- Wording shared with the texts ------------------------------------------------------------------------

WINTER_SCORING: dict[str, tuple[str, str]] = {
    "apothecary": ("3 pts per 5 workers", "3 points for every 5 workers you own, any colours, greens included"),
    "craftsmens-guild": ("3 pts per blue+red+yellow set",
                         "3 points for each set of one blue, one red and one yellow worker you own; a green never "
                         "fills a gap in a set"),
    "jeweller": ("gold 2 pts each", "each gold you own scores 2 points instead of 1"),
    "key-guild": ("10 pts per 5 skills", "10 points for every 5 skills you own, any kinds"),
    "keythedral": ("12 pts", "12 points, once: the only winter tile that never scores twice"),
    "key-market": ("2 pts per green", "2 points for each green worker you own"),
    "mercers-guild": ("5 pts per iron+stone+wood set",
                      "5 points for each set of one iron, one stone and one wood; a gold may take the place of "
                      "any of them, and then loses its own point"),
    "scholar": ("3 pts per skill of one kind",
                "3 points for each skill of one kind (anvil, pick or saw); Keywood picks the kind that pays best"),
    "scribes": ("10 pts per anvil+pick+saw set", "10 points for each set of one anvil, one pick and one saw"),
    "village-hall": ("1 pt per worker of one colour",
                     "1 point for each worker of one colour you own; Keywood picks the colour that pays best"),
    "watermill": ("1 pt per resource of one kind",
                  "1 point for each resource of one kind you own; Keywood picks the kind (gold gains nothing, as "
                  "it already scores 1)"),
    "windmill": ("5 pts per 5 resources", "5 points for every 5 resources you own, any kinds"),
}
"""Winter scoring key -> (short, full) wording (reference §9.8, §8; ruling F-19)."""

POWERS: dict[str, tuple[str, str, str]] = {
    "1a": ("+2 workers with each boat",
           "each time you take a boat's load after summer and autumn, 2 more workers come to you from the bag; "
           "after winter, as you take your boat tile, 2 workers come too, while nobody else gets any. They are "
           "drawn once every boat is taken and all the season's winning bids, Key Celeste's too, are back in the "
           "bag",
           "F-16"),
    "1b": ("+1 green with each boat",
           "whenever you take a boat's load at the end of summer and autumn, and when you take your boat tile at "
           "the end of winter, you also take a green worker from the supply while any are left",
           "F-16"),
    "2a": ("move across fields, place freely",
           "your transports may carry resources across fields (sides without a road) as well as along roads; the "
           "tiles you add to your village need not match the sides they touch; every tile touching one of your "
           "turn-order tiles counts as connected to it. It adds no road: Sea Bastion loops still need real ones",
           "F-18, F-23"),
    "2b": ("double transport and upgrades",
           "each of your transport uses moves twice the printed number of steps and makes twice the printed number "
           "of upgrades; if you take the Keyflower boat in winter, its score is doubled once",
           "F-24"),
    "3a": ("any resource pays upgrades",
           "when you upgrade, any resource (gold, iron, stone, wood) may pay for any other; it must still lie on "
           "the tile you flip",
           "F-14"),
    "3b": ("any resource counts as any at the end",
           "at the final scoring each of your resources may count as any other kind: for winter tiles, on storage "
           "tiles and as gold; each still scores only once",
           "F-19, F-22"),
    "4a": ("counter-bid in another colour",
           "against another player's blue, red or yellow bid on a season tile (not a green bid, not a turn-order "
           "tile) you may counter-bid in a different colour, green included, all one colour and still more "
           "workers than the highest bid; Sven or Paulo may be in it when the whole group counts as one such "
           "colour (F-30). Your workers lie flat and set the tile's colour only once no standing worker is left "
           "there. A bid of Paulo may still be green, so it is not countered this way (F-44)",
           "F-10, F-26, F-30, F-44"),
    "4b": ("use with any colours",
           "on a tile someone has already bid on or used this season you may use it with workers of any colours, "
           "even mixed, greens, Sven and Paulo included; the off-colour workers lie flat, still count toward the "
           "six, and your use still needs more workers than the one before",
           "F-26, F-30"),
}
"""Summer boat face -> (short, full, rulings) (reference §9.4)."""

BOAT_SCORING: dict[str, tuple[str, str]] = {
    "keyflower": ("1 pt per transport capacity",
                  "1 point for each point of transport capacity printed on your transport tiles (home tile, "
                  "Stable, Farrier, Wainwright) added together; doubled once if you own summer boat 2b (F-24)"),
    "sea-bastion": ("1 pt per tile on a road loop",
                    "1 point for each tile of your village on a closed loop of roads that uses no road twice "
                    "(F-23)"),
    "sea-breese": ("points per boat on your river",
                   "points for each boat, summer boats and this one included, linked to your home tile's water "
                   "side by water sides meeting water sides; each boat further along the river scores more, at "
                   f"most 32 in all; the figures per boat are Keywood's own {MARK} (F-2, F-23)"),
    "flipper": ("2 pts + a free flip", "2 points, and one tile of your village is flipped to its back for free at "
                "the end; Keywood picks the tile that helps most (F-19)"),
    "ianvincible": ("5 pts", "5 points"),
    "white-wind": ("1 pt per worker", "1 point for each worker you own at the end that the Apothecary, Craftsmen's "
                   "Guild, Key Market or Village Hall has not already scored (F-19)"),
}
"""Boat -> (short, full) winter scoring (reference §9.3)."""

_PAY_SHORT = {"any": "any worker", "skill": "any skill"}
_GAIN_SHORT = {"worker": "worker", "green": "green", "skill": "skill"}

# Which values of a reconstructed tile are Keywood's own (ruling F-2); a reconstructed tile not listed has all
# its values marked.
_OWN_VALUES: dict[str, frozenset[str]] = {
    **{f"home-{n}": frozenset({"front", "back", "upgrade", "points"}) for n in range(1, 7)},
    "inn": frozenset({"front", "back", "upgrade", "points"}),
    "fair": frozenset({"front", "back", "upgrade", "points"}),
    "wainwright": frozenset({"front", "back", "upgrade", "points"}),
    **{t: frozenset({"upgrade", "points"}) for t in ("forge", "goldsmith", "sawmill", "sculptor", "well")},
    **{t: frozenset({"upgrade"}) for t in ("barn", "blacksmith", "stone-yard", "timber-yard")},
}
_ALL_VALUES = frozenset({"front", "back", "upgrade", "points"})
_F3_TILES = ("alehouse", "peddler", "tavern")
_AFTER_DRAW = ("tavern", "hiring-fair")  # what they take goes back only after the use's draw (reference §9.6)
_SECTIONS = {"home": "§9.1", "spring": "§9.5", "summer": "§9.6", "autumn": "§9.7", "winter": "§9.8, §8",
             "summerboat": "§9.4"}
_MORE = {"home": "home tiles", "spring": "spring tiles", "summer": "summer tiles", "autumn": "autumn tiles"}
_BOAT_MORE = {"keyflower": "keyflower boat scoring", "sea-bastion": "sea bastion scoring",
              "sea-breese": "sea breese scoring", "flipper": "flipper scoring", "ianvincible": "ianvincible points",
              "white-wind": "white wind scoring"}
_WINTER_MORE = {"craftsmens-guild": "craftsmans guild scoring", "mercers-guild": "mercers guild scoring",
                "apothecary": "apothecary workers", "keythedral": "keythedral points", "scholar": "scholar skill",
                "scribes": "scribes skill sets"}


def plural(count: int, word: str) -> str:
    """'1 worker', '2 workers', '3 greens'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def and_list(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    if not words:
        return ""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def edges_text(edges: tuple[int, ...]) -> str:
    """(0, 2, 4) as 'N, SE, SW'; 'none' when empty."""
    return ", ".join(EDGE_NAMES[e] for e in sorted(edges) if 0 <= e < 6) or "none"


def cost_text(cost: Cost) -> str:
    """An upgrade cost: '1 wood + 1 stone', '2 resources of any kind', '1 anvil'; 'nothing' when empty."""
    parts = []
    for key, n in cost.items():
        if key == "resource":
            parts.append(f"{plural(n, 'resource')} of any kind")
        elif key == "skill":
            parts.append(f"{plural(n, 'skill')} of any kind")
        else:
            parts.append(f"{n} {key}")
    return " + ".join(parts) or "nothing"


# --- Components by id ---------------------------------------------------------------------------------------

TILES: dict[str, Tile] = {t.id: t for t in COMPONENTS.tiles}
BOATS: dict[str, Boat] = {b.id: b for b in COMPONENTS.boats}


def order_faces(number: int) -> list[TurnOrderTile]:
    """The faces of one turn-order tile, lowest player count first."""
    return [o for o in COMPONENTS.turn_order if o.number == number]


def order_face(number: int, players: int) -> TurnOrderTile | None:
    """The face of a turn-order tile that a player count uses (None when that count leaves the tile out)."""
    return next((o for o in order_faces(number) if o.players[0] <= players <= o.players[1]), None)


def display_name(tile_id: str) -> str:
    """What a placed or offered piece is called: a tile's name, a boat's name, 'Turn-order tile 2'; else the id."""
    if tile_id in TILES:
        return TILES[tile_id].name
    if tile_id in BOATS:
        return BOATS[tile_id].name
    if tile_id.startswith("order-") and tile_id[6:].isdigit():
        return f"Turn-order tile {tile_id[6:]}"
    if tile_id == "keymelequin":
        return COMPONENTS.keymelequin.name
    if tile_id == "key-celeste":
        return COMPONENTS.key_celeste.name
    return tile_id


def slug(name: str) -> str:
    """A printed name as ids are spelt: 'Timber Yard' -> 'timber-yard', "Craftsmen's Guild" -> 'craftsmens-guild'."""
    folded = name.strip().lower().replace("'", "").replace("\u2019", "")
    return re.sub(r"[\s_]+", "-", folded)


def reconstructed_values(tile: Tile) -> frozenset[str]:
    """Which of a tile's values ('front', 'back', 'upgrade', 'points') are Keywood's own (F-2)."""
    if tile.provenance != "reconstructed":
        return frozenset()
    return _OWN_VALUES.get(tile.id, _ALL_VALUES)


# --- Faces in words ------------------------------------------------------------------------------------------


def _pay_short(pay: Mapping[str, int]) -> str:
    """'yellow worker', 'saw', 'any skill', '2 any workers'."""
    parts = []
    for key, n in pay.items():
        word = _PAY_SHORT.get(key, f"{key} worker" if key in KEYPLE_COLOURS else key)
        parts.append(word if n == 1 else f"{n} × {word}")
    return " + ".join(parts)


def _gain_short(gain: Mapping[str, int]) -> str:
    """'2 wood', '1 iron + 1 gold', '2 workers', '1 of wood/stone/iron'."""
    parts = []
    for key, n in gain.items():
        if key == "choice":
            parts.append(f"{n} of wood/stone/iron")
        elif key in _GAIN_SHORT:
            parts.append(plural(n, _GAIN_SHORT[key]))
        else:
            parts.append(f"{n} {key}")
    return " + ".join(parts)


def effect_short(tile: Tile, up: bool = False) -> str:
    """A face in a few words for the table: '→ 2 wood', 'saw → 3 wood', 'transport 2, 1 upgrade', 'stores wood,
    2 pts each', 'points only, 8 pts upgraded', a winter tile's scoring, a summer boat's power."""
    face = tile.back if up and tile.back is not None else tile.front
    if face.kind == "produce":
        pay = _pay_short(face.pay)
        return f"{pay} → {_gain_short(face.gain)}" if pay else f"→ {_gain_short(face.gain)}"
    if face.kind == "transport":
        return f"transport {face.transport}, {plural(face.upgrades, 'upgrade')}"
    if face.kind == "store":
        what = "any resource" if face.store == "any" else face.store
        return f"stores {what}, {plural(face.per, 'pt')} each"
    if face.kind == "points":
        back = tile.back.points if tile.back is not None else 0
        if up:
            return f"points only, {plural(face.points, 'pt')}"
        return "points only" + (f", {plural(back, 'pt')} upgraded" if back else "")
    if face.kind == "winter" and face.scoring in WINTER_SCORING:
        return WINTER_SCORING[face.scoring][0]
    if tile.kind == "summerboat":
        return power_short(tile.id)
    return "no use"


def power_short(tile_id: str) -> str:
    """A summer boat face's power in a few words ('' for anything else)."""
    return POWERS.get(tile_id[-2:], ("",))[0] if tile_id.startswith("summerboat-") else ""


def pay_words(pay: Mapping[str, int]) -> str:
    """'hand in an extra yellow worker (into the bag)' and the like."""
    parts = []
    for key, n in pay.items():
        if key in KEYPLE_COLOURS:
            parts.append(f"an extra {key} worker" if n == 1 else f"{n} extra {key} workers")
        elif key == "any":
            parts.append("an extra worker of any colour" if n == 1 else f"{n} extra workers of any colours")
        elif key == "skill":
            parts.append("a skill of any kind" if n == 1 else f"{n} skills of any kinds")
        else:
            parts.append(f"a {key}" if n == 1 else f"{n} {key}s")
    return and_list(parts)


def _gain_long(gain: Mapping[str, int]) -> str:
    """'2 workers drawn from the bag', '1 wood, stone or iron, your pick', '1 iron and 1 gold'."""
    parts = []
    for key, n in gain.items():
        if key == "choice":
            parts.append(f"{n} wood, stone or iron, your pick" if n == 1 else f"{n} of wood, stone or iron, your pick")
        elif key == "worker":
            parts.append(f"{plural(n, 'worker')} drawn from the bag")
        elif key == "green":
            parts.append(f"{plural(n, 'green worker')} from the supply")
        elif key == "skill":
            parts.append(f"{plural(n, 'skill')} drawn from the pile")
        else:
            parts.append(f"{n} {key}")
    return and_list(parts)


def effect_long(tile: Tile, face: Face) -> str:
    """What one face does, in a sentence without its points."""
    if face.kind == "produce":
        pay = pay_words(face.pay)
        what = "the pile" if any(k in SKILLS or k == "skill" for k in face.pay) else "the bag"
        when = " only after the draw" if tile.id in _AFTER_DRAW else ""
        lead = f"each use, hand in {pay} (into {what}{when}) and get " if pay else "each use gives "
        return lead + _gain_long(face.gain)
    if face.kind == "transport":
        return (f"each use moves resources {plural(face.transport, 'step')} along the user's roads and upgrades "
                f"up to {plural(face.upgrades, 'tile')} of the user's own village")
    if face.kind == "store":
        what = "resource of any kind" if face.store == "any" else str(face.store)
        return (f"cannot be used; scores {plural(face.per, 'point')} for each {what} transported onto it during "
                "play")
    if face.kind == "points":
        return "cannot be used; scores only its printed points"
    if face.kind == "winter" and face.scoring in WINTER_SCORING:
        return WINTER_SCORING[face.scoring][1]
    return "cannot be used"


# --- The descriptions ----------------------------------------------------------------------------------------


def _marked(text: str, key: str, own: frozenset[str]) -> str:
    """The text with ' (reconstructed)' when key is one of the tile's reconstructed values."""
    return f"{text} {MARK}" if key in own else text


def _face_line(label: str, tile: Tile, face: Face, own: frozenset[str], key: str) -> str:
    """'Front: each use gives 2 wood. 0 points.' with the marks that apply."""
    effect = _marked(effect_long(tile, face), key, own)
    points = _marked(plural(face.points, "point"), "points", own)
    return f"{label}: {effect}; {points}."


def _tile_source(tile: Tile) -> str:
    """'reference §9.5; ruling F-2, F-3' for a tile."""
    rulings = ["F-1", "F-2"]
    if tile.id in _F3_TILES:
        rulings.append("F-3")
    if tile.kind == "home":
        rulings.append("F-13")
    if tile.front.kind == "store":
        rulings.append("F-21")
    if tile.front.kind == "transport":
        rulings.append("F-14")
    if tile.kind == "winter":
        rulings.append("F-19")
    return f"reference {_SECTIONS[tile.kind]}; ruling {', '.join(rulings)}"


def _tile_more(tile: Tile) -> str:
    """The /rules phrase that reaches the tile's section."""
    if tile.kind == "winter":
        return _WINTER_MORE.get(tile.id, f"{tile.name.lower()} scoring")
    if tile.kind == "summerboat":
        return f"summer boat {tile.id[-2:]} power"
    if tile.front.kind == "store":
        return "storage tiles"
    return _MORE[tile.kind]


def tile_text(tile: Tile) -> str:
    """A village tile: kind, sides, each face with its use and points, the upgrade cost, what is reconstructed."""
    own = reconstructed_values(tile)
    head = f"**{tile.name}** (`{tile.id}`): "
    if tile.kind == "summerboat":
        short, full, rulings = POWERS[tile.id[-2:]]
        lines = [head + f"a face of summer boat {tile.number}, drawn at random when the tile comes out. No roads; "
                 "nobody may use or upgrade it; its owner alone has its power, from the moment it is won (F-17).",
                 f"Power ({short}): {full}.",
                 f"River sides: {edges_text(tile.water)} {MARK}.",
                 f"Source: reference §9.4; ruling F-17, {rulings}. More: `/rules {_tile_more(tile)}`."]
        return "\n".join(lines)
    sides = f"{plural(len(tile.roads), 'road')}: {edges_text(tile.roads)}"
    if tile.water:
        sides += f"; water: {edges_text(tile.water)}"
    kind = f"{tile.kind} tile" + (f" number {tile.number}" if tile.kind == "home" else "")
    lines = [head + f"{kind}. Sides, upright: {sides} {MARK}."]
    if tile.kind == "winter":
        lines.append(f"Scores: {effect_long(tile, tile.front)}. Never used or upgraded; bid for in winter only.")
    else:
        lines.append(_face_line("Front", tile, tile.front, own, "front"))
        if tile.back is not None:
            lines.append(f"Upgrade: {_marked(cost_text(tile.upgrade), 'upgrade', own)}, resources from the tile "
                         "itself, skills from behind the screen.")
            lines.append(_face_line("Back", tile, tile.back, own, "back"))
    if tile.kind == "home":
        lines.append("Resources you make outside your village arrive here (F-13).")
    lines.append(f"Source: {_tile_source(tile)}. More: `/rules {_tile_more(tile)}`.")
    return "\n".join(lines)


def _load_text(workers: int, skills: int) -> str:
    """'6 workers + 2 skills'."""
    return f"{plural(workers, 'worker')} + {plural(skills, 'skill')}"


def boat_text(boat: Boat) -> str:
    """A boat: the player counts it serves, each face's load, its winter scoring, its sides."""
    own = boat.provenance == "reconstructed"
    face_b = _load_text(boat.workers_b, boat.skills_b) + (f" {MARK}" if own else "")
    plus = "+" if boat.min_players < 6 else ""
    lines = [f"**{boat.name}** (`{boat.id}`): boat, in play with {boat.min_players}{plus} players.",
             f"Load each season, from the bag and the pile, in plain view (F-5, F-6): spring and autumn face "
             f"{_load_text(boat.workers_a, boat.skills_a)}; summer face {face_b}. A player takes the whole load at "
             "the end of the season.",
             f"In winter nothing is loaded: each player takes one boat tile into the village. This one scores "
             f"{BOAT_SCORING[boat.id][1]}.",
             f"Sides, upright: water {edges_text(boat.water)}, roads {edges_text(boat.roads)} {MARK}.",
             f"Source: reference §9.3, §7; ruling F-2, F-5, F-16. More: `/rules {_BOAT_MORE[boat.id]}`."]
    return "\n".join(lines)


def order_text(number: int) -> str:
    """A turn-order tile: what it is bid for, which player counts use it, the start icon, its winter scoring."""
    faces = order_faces(number)
    uses = []
    for face in faces:
        lo, hi = face.players
        count = f"{lo} players" if lo == hi else f"{lo}-{hi} players"
        uses.append(f"{count}: {'with' if face.start_icon else 'without'} the start icon")
    roads = faces[0].roads if faces else ()
    lines = [f"**Turn-order tile {number}** (`order-{number}`): bid for like a season tile, never used. Its winner "
             f"chooses a boat {number}{_ordinal(number)} at the end of the season; the start icon makes its winner "
             "the next start player (F-4, F-16).",
             f"Faces: {'; '.join(uses)} {MARK}.",
             "Won in winter, it joins the village and scores 1 point for each tile touching it across a matching "
             "side (F-23).",
             f"Roads, upright: {edges_text(roads)} {MARK}.",
             "Source: reference §9.2, §4, §8; ruling F-2, F-4, F-23. More: `/rules turn-order tiles at the end`."]
    return "\n".join(lines)


def _ordinal(n: int) -> str:
    """'st', 'nd', 'rd', 'th'."""
    return {1: "st", 2: "nd", 3: "rd"}.get(n, "th")


def _makers(resource: str) -> list[str]:
    """Tile names whose use gives this resource (either face)."""
    found = []
    for tile in COMPONENTS.tiles:
        faces = [tile.front] + ([tile.back] if tile.back is not None else [])
        if any(resource in f.gain or (f.gain.get("choice") and resource != "gold") for f in faces):
            found.append(tile.name)
    return found


def _upgrades_paid_with(key: str) -> list[str]:
    """Tile names whose upgrade cost names this resource or skill (the six home tiles as one)."""
    found = [t.name for t in COMPONENTS.tiles if key in t.upgrade and t.kind != "home"]
    if any(key in t.upgrade for t in COMPONENTS.tiles if t.kind == "home"):
        found.insert(0, "the home tiles")
    return found


def _paid_on_use(key: str) -> list[str]:
    """Tile names whose use asks for this skill or worker colour."""
    return [t.name for t in COMPONENTS.tiles if key in t.front.pay]


RESOURCE_USES: dict[str, str] = {
    "gold": "At the end each gold scores 1 point unless it scores elsewhere; with the Jeweller 2 instead; it may "
            "fill a Mercers' Guild set or, transported onto a storage tile in play, stand in for its kind, each "
            "gold once (F-19, F-21)",
    "iron": "At the end it scores once: on the Blacksmith, in a Mercers' Guild set, for the Watermill or the "
            "Windmill (F-19)",
    "stone": "At the end it scores once: on the Stone Yard, in a Mercers' Guild set, for the Watermill or the "
             "Windmill (F-19)",
    "wood": "At the end it scores once: on the Timber Yard, in a Mercers' Guild set, for the Watermill or the "
            "Windmill (F-19)",
}


def resource_text(resource: str) -> str:
    """A resource: supply, where it is made, what it pays, how it scores."""
    count = COMPONENTS.resources.get(resource, 0)
    upgrades = _upgrades_paid_with(resource)
    lines = [f"**{resource.capitalize()}** (resource, {count} in the supply): counters lie in the open on the tile "
             "that made them; made outside your own village they land on your home tile (F-13), and they move only "
             "by transport along roads.",
             f"Made by: {', '.join(_makers(resource))}.",
             f"Upgrades asking for it: {', '.join(upgrades) or 'none by name'}; Workshop and Farrier take any "
             "resource.",
             f"{RESOURCE_USES[resource]}.",
             "Source: reference §1, §5, §6, §8; ruling F-13, F-15, F-19. More: `/rules transport`."]
    return "\n".join(lines)


def skill_text(skill: str) -> str:
    """A skill: supply, where it comes from, what asks for it, how it scores."""
    count = COMPONENTS.skills.get(skill, 0)
    lines = [f"**{skill.capitalize()}** (skill tile, {count} in the game): kept face down in the pile and drawn at "
             "random; behind your screen only you see its kind (F-7).",
             "Comes from: Apprentice Hall, Hiring Fair and the boats' loads.",
             f"Asked for by name: uses of {', '.join(_paid_on_use(skill)) or 'none'}; upgrades of "
             f"{', '.join(_upgrades_paid_with(skill)) or 'none'}. Brewer and Hiring Fair take any skill; so do "
             "the upgrades asking for skills of any kind.",
             "At the end it scores for the Key Guild (10 per 5 skills), the Scholar (3 each, one kind) or the "
             "Scribes (10 per anvil+pick+saw), once (F-19).",
             "Source: reference §1, §5, §8, §9; ruling F-7, F-19. More: `/rules what a use gives and where it goes`."]
    return "\n".join(lines)


def keyple_text(colour: str) -> str:
    """A keyple colour: how many, where they come from, what asks for them, how they score."""
    if colour == "purple":
        return ("**Purple keyple** (one): the start-player marker. Spring's start player holds the lowest home "
                "tile; the winner of the turn-order tile with the start icon takes it, and if nobody bid for that "
                "tile it moves one seat to the left after the boats. It never bids or works. At the end its holder "
                "counts it as one resource, skill or worker of any kind, scored once (F-20).\n"
                "Source: reference §2, §7, §8; ruling F-4, F-16, F-20. More: `/rules allocating at the end`.")
    if colour == "green":
        return ("**Green keyples** (20, beside the bag): never drawn at the start; the Peddler, Store and Fair give "
                "them, and summer boat 1b. A tile's colour may be green like any other (F-10). Greens in a winning "
                "bid go into the bag and may then be drawn. At the end each scores 2 with the Key Market; they "
                "count for the Apothecary, Village Hall and White Wind, never in a Craftsmen's Guild set.\n"
                "Source: reference §1, §4, §5, §9.8; ruling F-10, F-15. More: `/rules what a use gives and where "
                "it goes`.")
    count = COMPONENTS.bag.get(colour, 0)
    pays = _paid_on_use(colour)
    takes = "takes" if len(pays) == 1 else "take"
    paid = f" The {and_list(pays)} {takes} an extra {colour} worker into the bag on each use." if pays else ""
    return (f"**{colour.capitalize()} keyples** ({count}, in the bag): drawn at random, 8 to each player at the "
            f"start, more from boats and tiles.{paid} All workers bidding on or using one tile in a season share "
            "its colour (F-10). At the end they count for the Apothecary, Craftsmen's Guild sets, the Village Hall "
            "and White Wind.\n"
            "Source: reference §1, §2, §4, §8; ruling F-7, F-10, F-19. More: `/rules colour of a tile`.")


# --- The modules: Keymelequin and Key Celeste ----------------------------------------------------------------

# The module pieces' values (engine/keyflower/data/modules.toml); these defaults, the same values, serve only while
# the component data does not carry the modules.
_KEYMELEQUIN_DEFAULT: tuple[int, int, int, int, str] = (5, 1, 3, 1, "reconstructed")
_CELESTE_DEFAULT: tuple[int, int, tuple[int, ...], tuple[int, ...], str] = (3, 3, (1, 4), (0, 3), "reconstructed")


def keymelequin_load() -> tuple[int, int, int, int, bool]:
    """The Keymelequin's (spring workers, spring skills, summer workers, summer skills, reconstructed?) (F-33)."""
    boat = getattr(COMPONENTS, "keymelequin", None)
    if boat is None:
        wa, sa, wb, sb, provenance = _KEYMELEQUIN_DEFAULT
    else:
        wa, sa, wb, sb = int(boat.workers_a), int(boat.skills_a), int(boat.workers_b), int(boat.skills_b)
        provenance = str(boat.provenance)
    return wa, sa, wb, sb, provenance == "reconstructed"


def celeste_values() -> tuple[int, int, tuple[int, ...], tuple[int, ...], bool]:
    """Key Celeste's (points, points more with the ghost, roads, water, sides reconstructed?) (F-42)."""
    tile = getattr(COMPONENTS, "key_celeste", None)
    if tile is None:
        points, ghost, roads, water, provenance = _CELESTE_DEFAULT
    else:
        points, ghost = int(tile.points), int(tile.ghost_points)
        roads = tuple(int(e) for e in tile.roads)
        water = tuple(int(e) for e in tile.water)
        provenance = str(tile.provenance)
    return points, ghost, roads, water, provenance == "reconstructed"


def wild_text(name: str) -> str:
    """Sven or Paulo, the Keymelequin's wild keyples."""
    if name == "sven":
        head = ("**Sven** (Keymelequin module): one wild keyple, blue or yellow as needed (the sheet's ♣ is any of "
                "his pair: a blue, a yellow or Sven, F-27). He comes aboard the Keymelequin in spring.")
        pays = "the yellow the Peddler asks for, the blue of the Store or the Tavern's worker of any colour"
        colours, other = "blue or yellow", "Paulo"
    else:
        head = ("**Paulo** (Keymelequin module): one wild keyple, green or red as needed (the sheet's ♠ is any of "
                "his pair: a green, a red or Paulo, F-27). He is out of play until the Keymelequin is turned over "
                "for summer, and comes aboard then.")
        pays = "the red the Fair asks for or the Tavern's worker of any colour"
        colours, other = "green or red", "Sven"
    lines = [head,
             f"Keyples in the same bid as him, or used on the same tile (before or after him, by anyone), may count "
             f"as {colours} too; bids beside a tile are not on it (F-28). A tile's colour may stay open between "
             f"the two (F-29). He shares no standing group with {other} (F-29). Summer boat 4a may lay him flat in "
             "a counter-bid that counts as one colour, 4b in a use of any keyples (F-30).",
             f"He may be paid as {pays}; the payer chooses (F-31). In a winning bid he goes into the bag, used on a "
             "tile to its owner; hidden in the bag or behind a screen like any keyple (F-32).",
             f"At the end he scores as a worker, and keyples assigned to the same winter tile may count as "
             f"{colours} (F-36).",
             "Source: reference §10.1 (module sheet); ruling F-27, F-28, F-29, F-30, F-31, F-32, F-36. More: "
             "`/rules sven and paulo`."]
    return "\n".join(lines)


def keymelequin_text() -> str:
    """The Keymelequin boat: what it replaces, its loads (reconstructed), the autumn replacement."""
    wa, sa, wb, sb, own = keymelequin_load()
    mark = f" {MARK}" if own else ""
    lines = ["**Keymelequin** (`keymelequin`, module boat): takes the place of the boat named at `new` "
             "(`keymelequin=BOAT`, a boat in play at that number of players; F-35).",
             f"Load, from the bag and the pile in plain view: spring face {_load_text(wa, sa)}{mark} with Sven on "
             f"top; summer face (turned over) {_load_text(wb, sb)}{mark} with Paulo on top (F-5, F-33). Its taker "
             "gets the wild keyple with the load.",
             "At the end of summer its taker names a boat not in the game, the replaced one or one unused at this "
             "number of players (`replace BOAT`); that boat is loaded in autumn and taken in winter, scoring by "
             "its own winter face (F-34).",
             "The Keymelequin never joins a village and never scores.",
             "Source: reference §10.1 (module sheet); ruling F-2, F-33, F-34, F-35. More: "
             "`/rules keymelequin: the boat`."]
    return "\n".join(lines)


def celeste_text() -> str:
    """The Key Celeste tile: bidding, what its winner takes, its points, its sides (reconstructed)."""
    points, ghost, roads, water, own = celeste_values()
    mark = f" {MARK}" if own else ""
    lines = ["**Key Celeste** (`key-celeste`, module tile): beside the highest turn-order tile in use, bid for like "
             "a turn-order tile (`bid key-celeste red`, `count 2`) but never used and giving no place in the boat "
             "order; settled last of all, once the turn-order tiles are dealt with and every boat is picked, its "
             "winning bid standing beside it until then (F-41).",
             "In spring, summer and autumn its winner takes the ghost; in winter the tile itself.",
             f"In a village: {plural(points, 'point')}, {ghost} more with the ghost. The purple keyple may stand "
             f"in for the ghost, or add a further {ghost} beside it, and then counts as nothing else (F-20, F-42). "
             "For Sea Breese it counts as a boat; the river still scores at most 32 (F-42).",
             f"Sides, upright: water {edges_text(water)}; roads {edges_text(roads)}{mark} (F-2, F-42).",
             "Source: reference §10.2 (module sheet); ruling F-2, F-20, F-41, F-42. More: "
             "`/rules key celeste at the end`."]
    return "\n".join(lines)


def ghost_text() -> str:
    """Key Celeste's ghost: who holds it, where it may be played, what it does."""
    lines = ["**Ghost** (Key Celeste module): an oversized grey figure, never a worker and never in the bag. It "
             "starts on Key Celeste; the season's winner of Key Celeste takes it, and everyone sees who holds it "
             "(F-38, F-41).",
             "In summer, autumn or winter, as a whole turn (`ghost LOC`), its holder puts it in place of another "
             "player's winning bid for a tile up for auction; not on a turn-order tile, Key Celeste or one's own "
             "bid (F-39). The replaced workers go behind the ghost player's screen; the tile still goes to the "
             "replaced bidder, with the workers used on it; nobody may bid, use or move there afterwards (F-40).",
             "It goes back to Key Celeste at the end of summer and autumn. Played in winter it leaves the game; "
             "kept, it scores only with Key Celeste won in winter (F-43). It never pays or scores as a worker.",
             "Source: reference §10.2 (module sheet); ruling F-38, F-39, F-40, F-41, F-43. More: "
             "`/rules playing the ghost`."]
    return "\n".join(lines)


# --- Names ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One thing describe() answers: its name for autocomplete, its text, and the other names it goes by."""

    name: str
    text: str
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
        found.append(Entry(tile.name, tile_text(tile), aliases))
    for boat in COMPONENTS.boats:
        aliases = (boat.id, f"{boat.name} boat", f"boat {boat.name}")
        if boat.id == "sea-breese":
            aliases += ("sea breeze", "sea breeze boat")
        found.append(Entry(boat.name, boat_text(boat), aliases))
    for number in sorted({o.number for o in COMPONENTS.turn_order}):
        found.append(Entry(f"Turn-order tile {number}", order_text(number),
                           (f"order-{number}", f"turn order {number}", f"order tile {number}")))
    for resource in RESOURCES:
        found.append(Entry(resource, resource_text(resource), (f"{resource} counter", f"{resource} counters")))
    skill_aliases = {"pick": ("pick axe", "pickaxe", "pickaxes", "picks"), "anvil": ("anvils",), "saw": ("saws",)}
    for skill in SKILLS:
        found.append(Entry(skill, skill_text(skill), skill_aliases[skill]))
    for colour in (*KEYPLE_COLOURS, "purple"):
        aliases = (colour, f"{colour} keyples", f"{colour} worker", f"{colour} workers", f"{colour} meeple")
        if colour == "purple":
            aliases += ("start player keyple", "start-player keyple", "purple start keyple")
        found.append(Entry(f"{colour} keyple", keyple_text(colour), aliases))
    return tuple(found)


@cache
def _module_entries() -> tuple[Entry, ...]:
    """The pieces of Keymelequin and Key Celeste, in the order module_names() lists them."""
    return (
        Entry("Sven", wild_text("sven"), ("sven keyple", "wild keyple sven")),
        Entry("Paulo", wild_text("paulo"), ("paulo keyple", "wild keyple paulo")),
        Entry("Keymelequin", keymelequin_text(), ("keymelequin boat", "keymelequin tile", "boat keymelequin")),
        Entry("Key Celeste", celeste_text(), ("key-celeste", "keyceleste", "key celeste tile", "celeste")),
        Entry("Ghost", ghost_text(), ("the ghost", "ghost keyple", "grey ghost", "key celeste ghost")),
    )


@cache
def _index() -> dict[str, str]:
    """Folded name or alias -> description."""
    index: dict[str, str] = {}
    for entry in (*_entries(), *_module_entries()):
        for name in (entry.name, *entry.aliases):
            index.setdefault(_key(name), entry.text)
    return index


def names(modules: bool = False) -> list[str]:
    """Every base-game component describe() answers, one spelling each, for /rules autocomplete; with modules=True
    the module pieces follow (module_names())."""
    found = [entry.name for entry in _entries()]
    return found + module_names() if modules else found


def module_names() -> list[str]:
    """The pieces of Keymelequin and Key Celeste describe() answers: Sven, Paulo, Keymelequin, Key Celeste, Ghost."""
    return [entry.name for entry in _module_entries()]


def describe(name: str) -> str | None:
    """A component described for chat (under DISCORD_SAFE characters), or None when the name is no component."""
    text = _index().get(_key(name))
    if text is None:
        return None
    return text if len(text) <= DISCORD_SAFE else text[: DISCORD_SAFE - 1] + "…"
