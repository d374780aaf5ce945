"""Keyflower's components described in full for the rules lookup: village tiles, boats, turn-order tiles,
resources, skills and keyple colours. Each description is Keywood's own wording, shows every face (its use, upgrade
cost and points), marks each value Keywood had to make up "(reconstructed)" (ruling F-2), cites the reference section
or ruling; each kind's `..._more` gives the rules topic that says more (the chat layer points to it)."""

from __future__ import annotations

from engine.keyflower.components import COMPONENTS, START_WORKERS, Boat, Face, Tile
from engine.keyflower.pieces import order_faces
from engine.keyflower.wording import (
    BOAT_SCORING,
    MARK,
    POWERS,
    and_list,
    cost_text,
    edges_text,
    effect_long,
    plural,
    reconstructed_values,
)

_F3_TILES = ("alehouse", "peddler", "tavern")
_SECTIONS = {"home": "§9.1", "spring": "§9.5", "summer": "§9.6", "autumn": "§9.7", "winter": "§9.8, §8",
             "summerboat": "§9.4"}
_MORE = {"home": "home tiles", "spring": "spring tiles", "summer": "summer tiles", "autumn": "autumn tiles"}
_BOAT_MORE = {"keyflower": "keyflower boat scoring", "sea-bastion": "sea bastion scoring",
              "sea-breese": "sea breese scoring", "flipper": "flipper scoring", "ianvincible": "ianvincible points",
              "white-wind": "white wind scoring"}
_WINTER_MORE = {"craftsmens-guild": "craftsmans guild scoring", "mercers-guild": "mercers guild scoring",
                "apothecary": "apothecary workers", "keythedral": "keythedral points", "scholar": "scholar skill",
                "scribes": "scribes skill sets"}


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


ORDER_MORE = "turn-order tiles at the end"  # the rules topics that say more about a kind of component
RESOURCE_MORE = "transport"
SKILL_MORE = "what a use gives and where it goes"
KEYPLE_MORE = {"purple": "allocating at the end", "green": "what a use gives and where it goes"}
COLOUR_MORE = "colour of a tile"


def tile_more(tile: Tile) -> str:
    """The rules topic that says more about a tile."""
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
                 f"Source: reference §9.4; ruling F-17, {rulings}."]
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
    lines.append(f"Source: {_tile_source(tile)}.")
    return "\n".join(lines)


def boat_more(boat: Boat) -> str:
    """The rules topic that says more about a boat."""
    return _BOAT_MORE[boat.id]


def keyple_more(colour: str) -> str:
    """The rules topic that says more about keyples of a colour."""
    return KEYPLE_MORE.get(colour, COLOUR_MORE)


def load_text(workers: int, skills: int) -> str:
    """'6 workers + 2 skills'."""
    return f"{plural(workers, 'worker')} + {plural(skills, 'skill')}"


def boat_text(boat: Boat) -> str:
    """A boat: the player counts it serves, each face's load, its winter scoring, its sides."""
    own = boat.provenance == "reconstructed"
    face_b = load_text(boat.workers_b, boat.skills_b) + (f" {MARK}" if own else "")
    plus = "+" if boat.min_players < 6 else ""
    lines = [f"**{boat.name}** (`{boat.id}`): boat, in play with {boat.min_players}{plus} players.",
             f"Load each season, from the bag and the pile, in plain view (F-5, F-6): spring and autumn face "
             f"{load_text(boat.workers_a, boat.skills_a)}; summer face {face_b}. A player takes the whole load at "
             "the end of the season.",
             f"In winter nothing is loaded: each player takes one boat tile into the village. This one scores "
             f"{BOAT_SCORING[boat.id][1]}.",
             f"Sides, upright: water {edges_text(boat.water)}, roads {edges_text(boat.roads)} {MARK}.",
             "Source: reference §9.3, §7; ruling F-2, F-5, F-16."]
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
             "Source: reference §9.2, §4, §8; ruling F-2, F-4, F-23."]
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
             "Source: reference §1, §5, §6, §8; ruling F-13, F-15, F-19."]
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
             "Source: reference §1, §5, §8, §9; ruling F-7, F-19."]
    return "\n".join(lines)


def keyple_text(colour: str) -> str:
    """A keyple colour: how many, where they come from, what asks for them, how they score."""
    if colour == "purple":
        return ("**Purple keyple** (one): the start-player marker. Spring's start player holds the lowest home "
                "tile; the winner of the turn-order tile with the start icon takes it, and if nobody bid for that "
                "tile it moves one seat to the left after the boats. It never bids or works. At the end its holder "
                "counts it as one resource, skill or worker of any kind, scored once (F-20).\n"
                "Source: reference §2, §7, §8; ruling F-4, F-16, F-20.")
    if colour == "green":
        return (f"**Green keyples** ({COMPONENTS.greens}, beside the bag): never drawn at the start; the Peddler, "
                "Store and Fair give them, and summer boat 1b. A tile's colour may be green like any other (F-10). "
                "Greens in a winning bid go into the bag and may then be drawn. At the end each scores 2 with the Key "
                "Market; they count for the Apothecary, Village Hall and White Wind, never in a Craftsmen's Guild "
                "set.\n"
                "Source: reference §1, §4, §5, §9.8; ruling F-10, F-15.")
    count = COMPONENTS.bag.get(colour, 0)
    pays = _paid_on_use(colour)
    takes = "takes" if len(pays) == 1 else "take"
    paid = f" The {and_list(pays)} {takes} an extra {colour} worker into the bag on each use." if pays else ""
    return (f"**{colour.capitalize()} keyples** ({count}, in the bag): drawn at random, {START_WORKERS} to each "
            f"player at the start, more from boats and tiles.{paid} All workers bidding on or using one tile in a "
            "season share its colour (F-10). At the end they count for the Apothecary, Craftsmen's Guild sets, the "
            "Village Hall and White Wind.\n"
            "Source: reference §1, §2, §4, §8; ruling F-7, F-10, F-19.")
