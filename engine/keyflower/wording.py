"""Keyflower's wording of its components, shared by every text that names them: the short and long words of a
face's use, a winter tile's scoring, a summer boat's power and a boat's winter scoring, a piece's display name, and
which of a tile's values Keywood had to make up (ruling F-2)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from engine.keyflower import keyples as kp
from engine.keyflower.components import COMPONENTS, SKILLS, Cost, Face, Tile
from engine.keyflower.holdings import BOAT_POINTS, GOLD_POINTS, POINTS, SET_OF_FIVE, WHITE_WIND_POINTS
from engine.keyflower.pieces import BOATS, KEY_CELESTE, KEYMELEQUIN, TILES, order_number, power_of, shown_face
from engine.keyflower.village import EDGE_NAMES, EDGES, SEA_BREESE_MAX

MARK = "(reconstructed)"

def _pts(n: int) -> str:
    """'1 pt', '3 pts' (the short wording)."""
    return f"{n} pt" if n == 1 else f"{n} pts"


def _points(n: int) -> str:
    """'1 point', '3 points'."""
    return f"{n} point" if n == 1 else f"{n} points"


_P, _FIVE = POINTS, SET_OF_FIVE
WINTER_SCORING: dict[str, tuple[str, str]] = {
    "apothecary": (f"{_pts(_P['apothecary'])} per {_FIVE} workers",
                   f"{_points(_P['apothecary'])} for every {_FIVE} workers you own, any colours, greens included"),
    "craftsmens-guild": (f"{_pts(_P['craftsmens-guild'])} per blue+red+yellow set",
                         f"{_points(_P['craftsmens-guild'])} for each set of one blue, one red and one yellow worker "
                         "you own; a green never fills a gap in a set"),
    "jeweller": (f"gold {_pts(_P['jeweller'])} each",
                 f"each gold you own scores {_points(_P['jeweller'])} instead of {GOLD_POINTS}"),
    "key-guild": (f"{_pts(_P['key-guild'])} per {_FIVE} skills",
                  f"{_points(_P['key-guild'])} for every {_FIVE} skills you own, any kinds"),
    "keythedral": (_pts(_P["keythedral"]),
                   f"{_points(_P['keythedral'])}, once: the only winter tile that never scores twice"),
    "key-market": (f"{_pts(_P['key-market'])} per green", f"{_points(_P['key-market'])} for each green worker you own"),
    "mercers-guild": (f"{_pts(_P['mercers-guild'])} per iron+stone+wood set",
                      f"{_points(_P['mercers-guild'])} for each set of one iron, one stone and one wood; a gold may "
                      "take the place of any of them, and then loses its own point"),
    "scholar": (f"{_pts(_P['scholar'])} per skill of one kind",
                f"{_points(_P['scholar'])} for each skill of one kind (anvil, pick or saw); Keywood picks the kind "
                "that pays best"),
    "scribes": (f"{_pts(_P['scribes'])} per anvil+pick+saw set",
                f"{_points(_P['scribes'])} for each set of one anvil, one pick and one saw"),
    "village-hall": (f"{_pts(_P['village-hall'])} per worker of one colour",
                     f"{_points(_P['village-hall'])} for each worker of one colour you own; Keywood picks the colour "
                     "that pays best"),
    "watermill": (f"{_pts(_P['watermill'])} per resource of one kind",
                  f"{_points(_P['watermill'])} for each resource of one kind you own; Keywood picks the kind (gold "
                  f"gains nothing, as it already scores {GOLD_POINTS})"),
    "windmill": (f"{_pts(_P['windmill'])} per {_FIVE} resources",
                 f"{_points(_P['windmill'])} for every {_FIVE} resources you own, any kinds"),
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
                   f"most {SEA_BREESE_MAX} in all; the figures per boat are Keywood's own {MARK} (F-2, F-23)"),
    "flipper": (f"{_pts(BOAT_POINTS['flipper'])} + a free flip", f"{_points(BOAT_POINTS['flipper'])}, and one tile "
                "of your village is flipped to its back for free at the end; Keywood picks the tile that helps most "
                "(F-19)"),
    "ianvincible": (_pts(BOAT_POINTS["ianvincible"]), _points(BOAT_POINTS["ianvincible"])),
    "white-wind": (f"{_pts(WHITE_WIND_POINTS)} per worker", f"{_points(WHITE_WIND_POINTS)} for each worker you own at "
                   "the end that the Apothecary, Craftsmen's Guild, Key Market or Village Hall has not already scored "
                   "(F-19)"),
}
"""Boat -> (short, full) winter scoring (reference §9.3)."""

_PAY_SHORT = {"any": "any worker", "skill": "any skill"}


Wording = Mapping[str, Callable[[int], str]]  # a count's words by its key ('worker': 2 -> '2 workers')
_GAIN_SHORT: Wording = {"choice": lambda n: f"{n} of wood/stone/iron", "worker": lambda n: plural(n, "worker"),
                        "green": lambda n: plural(n, "green"), "skill": lambda n: plural(n, "skill")}
_GAIN_LONG: Wording = {
    "choice": lambda n: f"{n} wood, stone or iron, your pick" if n == 1 else f"{n} of wood, stone or iron, your pick",
    "worker": lambda n: f"{plural(n, 'worker')} drawn from the bag",
    "green": lambda n: f"{plural(n, 'green worker')} from the supply",
    "skill": lambda n: f"{plural(n, 'skill')} drawn from the pile"}
_COST: Wording = {"resource": lambda n: f"{plural(n, 'resource')} of any kind",
                  "skill": lambda n: f"{plural(n, 'skill')} of any kind"}

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
_AFTER_DRAW = ("tavern", "hiring-fair")  # what they take goes back only after the use's draw (reference §9.6)


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
    return ", ".join(EDGE_NAMES[e] for e in sorted(edges) if e in EDGES) or "none"


def cost_text(cost: Cost) -> str:
    """An upgrade cost: '1 wood + 1 stone', '2 resources of any kind', '1 anvil'; 'nothing' when empty."""
    return " + ".join(worded(cost, _COST)) or "nothing"


def worded(counts: Mapping[str, int], wording: Wording) -> list[str]:
    """Each count in words, by the wording of its key when it has one, else '2 wood'."""
    return [wording[key](n) if key in wording else f"{n} {key}" for key, n in counts.items()]


def display_name(tile_id: str) -> str:
    """What a placed or offered piece is called: a tile's name, a boat's name, 'Turn-order tile 2'; else the id."""
    if tile_id in TILES:
        return TILES[tile_id].name
    if tile_id in BOATS:
        return BOATS[tile_id].name
    if order_number(tile_id) is not None:
        return f"Turn-order tile {tile_id[6:]}"
    if tile_id == KEYMELEQUIN:
        return COMPONENTS.keymelequin.name
    if tile_id == KEY_CELESTE:
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


def _pay_short(pay: Mapping[str, int]) -> str:
    """'yellow worker', 'saw', 'any skill', '2 any workers'."""
    parts = []
    for key, n in pay.items():
        word = _PAY_SHORT.get(key, f"{key} worker" if key in kp.COLOURS else key)
        parts.append(word if n == 1 else f"{n} × {word}")
    return " + ".join(parts)


def _gain_short(gain: Mapping[str, int]) -> str:
    """'2 wood', '1 iron + 1 gold', '2 workers', '1 of wood/stone/iron'."""
    return " + ".join(worded(gain, _GAIN_SHORT))


def effect_short(tile: Tile, up: bool = False) -> str:
    """A face in a few words for the table: '→ 2 wood', 'saw → 3 wood', 'transport 2, 1 upgrade', 'stores wood,
    2 pts each', 'points only, 8 pts upgraded', a winter tile's scoring, a summer boat's power."""
    face = shown_face(tile, up)
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
    power = power_of(tile_id)
    return POWERS.get(power, ("",))[0] if power is not None else ""


def pay_words(pay: Mapping[str, int]) -> str:
    """'hand in an extra yellow worker (into the bag)' and the like."""
    parts = []
    for key, n in pay.items():
        if key in kp.COLOURS:
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
    return and_list(worded(gain, _GAIN_LONG))


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

