"""Keyflower's views as chat text: the public table in compact lines, and what one seat holds behind its screen.

Both read only the documented keys of the view (the public view of kf-spec, plus "workers", "skills",
"winter_hand" and "legal" in a seat's own view) and the component data, never the state. Tiles are named as
printed, with the id to type in backticks when it is not simply the name in lower case with hyphens. A value
shown that Keywood's data had to make up is marked with a dagger and explained in one footnote line (F-2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.keyflower import keyples as kp
from engine.keyflower.celeste import LOC as CELESTE
from engine.keyflower.components import COMPONENTS, RESOURCES, SKILLS, Tile
from engine.keyflower.lookup import (
    BOAT_SCORING,
    KEYPLE_COLOURS,
    POWERS,
    TILES,
    WINTER_SCORING,
    display_name,
    effect_short,
    order_face,
    plural,
    reconstructed_values,
    slug,
)
from engine.keyflower.places import place_identity, use_group

DAGGER = "\u2020"
RECONSTRUCTED_NOTE = (f"{DAGGER} Keywood's own figure: the printed one is not public (F-2); `/rules NAME` tells "
                      "more.")
PHASES = {
    "turns": "turns",
    "winter-choice": "choosing winter tiles",
    "boats": "end of season, boats",
    "place": "end of season, villages grow",
    "over": "game over",
}
MAX_WORKERS = 6  # workers one tile takes in a season (reference §5)
LEGAL_SHOWN = 20
HOME = "0/0"

View = Mapping[str, Any]


def capitalise(text: str) -> str:
    """Upper-case the first letter only."""
    return text[:1].upper() + text[1:]


def counts_text(counts: Mapping[str, int], order: Sequence[str] = ()) -> str:
    """'blue 2, red 1' for the non-zero entries, known keys in the given order first; 'none' when empty."""
    keys = [k for k in order if counts.get(k)] + sorted(k for k in counts if k not in order and counts[k])
    return ", ".join(f"{k} {counts[k]}" for k in keys) or "none"


def keyples_text(counts: Mapping[str, int]) -> str:
    """'Sven, blue 2, red 1' ('none' when empty)."""
    wild = [kp.NAMES[w] for w in kp.WILD if counts.get(w)]
    plain = counts_text({k: n for k, n in counts.items() if k not in kp.WILD}, KEYPLE_COLOURS)
    return ", ".join(wild + ([plain] if plain != "none" or not wild else []))


def label(tile_id: str) -> str:
    """'Timber Yard', or 'Home tile 2 `home-2`' when the id is not the name spelt as an id."""
    name = display_name(tile_id)
    return name if slug(name) == tile_id else f"{name} `{tile_id}`"


def _name(view: View, seat: int | None) -> str:
    """A seat's player name, or '?' for an unknown seat."""
    names: Sequence[str] = view.get("names") or []
    return str(names[seat]) if seat is not None and 0 <= seat < len(names) else "?"


def _flat(entry: Sequence[Any], index: int) -> bool:
    """Whether a bid ([colour, n, flat]) or use ([seat, colour, n, flat]) lies flat (summer boats 4a, 4b)."""
    return len(entry) > index and bool(entry[index])


KEY_CELESTE_POINTS = (f"{COMPONENTS.key_celeste.points} points, {COMPONENTS.key_celeste.ghost_points} more with "
                      "the ghost")

# --- Locations: bids and uses ----------------------------------------------------------------------------


def standing_colour(place: Mapping[str, Any]) -> str | None:
    """The colour every standing worker at a location shares, or the colours it is still open between
    ('blue/yellow', F-29); None while none is there (reference §4, F-10)."""
    found = place_identity(place)
    return None if found is None else "/".join(c for c in kp.COLOURS if c in found) or "?"


def group_text(entry: Sequence[Any], index: int) -> str:
    """A bid's or use's keyples when they are not one plain colour: 'Sven, 1 yellow' ('' otherwise)."""
    return kp.words(entry[index]) if len(entry) > index else ""


def usable(tile_id: str, up: bool = False) -> bool:
    """Whether a tile may be used for its output (not winter, summer boat, storage or points-only; §5)."""
    tile = TILES.get(tile_id)
    if tile is None or tile.kind in ("winter", "summerboat"):
        return False
    face = tile.back if up and tile.back is not None else tile.front
    return face.kind in ("produce", "transport")


def activity(view: View, loc: str, can_use: bool) -> str:
    """'red — bids Ana 2 (leads), Ben 1; used by Cleo 1; next use 2+' or '' when nobody is there."""
    place: Mapping[str, Any] = (view.get("places") or {}).get(loc) or {}
    bids = sorted(((int(s), b) for s, b in (place.get("bids") or {}).items() if b[1]), key=lambda x: -int(x[1][1]))
    uses: Sequence[Sequence[Any]] = place.get("uses") or []
    if not bids and not uses and "ghost" not in place:
        return ""
    colour = standing_colour(place)

    def who(seat: int, col: str, n: int, flat: bool, group: str) -> str:
        extra = f" ({group})" if group else f" {col}" if col != colour else ""
        return f"{_name(view, seat)} {n}{extra}{' flat' if flat else ''}"

    parts = []
    if bids:
        shown = [who(s, str(b[0]), int(b[1]), _flat(b, 2), group_text(b, 3)) for s, b in bids]
        shown[0] += " (leads)"
        parts.append("bids " + ", ".join(shown))
    if "ghost" in place:  # the ghost replaced the winning bid and wins the tile for that player (F-40)
        parts.insert(0, f"the ghost wins it for {_name(view, int(place['ghost']))}; closed")
    if uses:
        parts.append("used by " + ", ".join(who(int(u[0]), str(u[1]), int(u[2]), _flat(u, 3), group_text(u, 4))
                                            for u in uses))
        placed = sum(int(u[2]) for u in uses)
        if can_use and "ghost" not in place:
            need = int(uses[-1][2]) + 1
            parts.append(f"next use {need}+" if placed + need <= MAX_WORKERS else "full")
    return f"{colour or 'no colour'} \u2014 " + "; ".join(parts)


# --- The public table ------------------------------------------------------------------------------------


def board(view: View) -> str:
    """The public table: season, phase and start player; the auction; turn order; boats; players' villages;
    the supplies."""
    lines = [_headline(view)]
    auction, marked = _auction_lines(view)
    lines += auction
    order = _order_line(view)
    if order:
        lines.append(order)
    lines += _celeste_lines(view)
    boats = _boat_lines(view)
    lines += boats
    marked = marked or any(DAGGER in line for line in boats)
    lines.append("Players:")
    for seat in range(len(view.get("names") or [])):
        lines += _player_lines(view, seat)
    lines.append(_supply_line(view))
    if marked:
        lines.append(RECONSTRUCTED_NOTE)
    return "\n".join(lines)


def _headline(view: View) -> str:
    """'**Keyflower**, autumn: turns. Start player: Cleo (purple keyple). Waiting for Cleo to take a turn.'."""
    phase = PHASES.get(str(view.get("phase")), str(view.get("phase")))
    start = view.get("start_player")
    text = (f"**Keyflower**, {view.get('season', '?')}: {phase}. Start player: {_name(view, start)} "
            "(purple keyple).")
    if view.get("waiting_for"):
        text += f" {capitalise(str(view['waiting_for']))}."
    return text


def _mark(tile: Tile) -> str:
    """A dagger when the face summary shown for a tile rests on reconstructed values."""
    own = reconstructed_values(tile)
    uses_points = tile.front.kind == "points"
    return DAGGER if "front" in own or (uses_points and "points" in own) else ""


def _auction_lines(view: View) -> tuple[list[str], bool]:
    """'Up for auction (8):' and one line per tile with its front, bids and uses; whether a dagger was shown."""
    auction: Sequence[str] = view.get("auction") or []
    phase = view.get("phase")
    if not auction:
        if phase == "winter-choice":
            choosing = [_name(view, s) for s in view.get("to_act") or []]
            who = f" (still choosing: {', '.join(choosing)})" if choosing else ""
            return [f"Up for auction: nothing yet; each player secretly picks at least one winter tile to offer"
                    f"{who}."], False
        return ([] if phase in ("boats", "place", "over") else ["Up for auction: nothing."]), False
    lines = [f"Up for auction ({len(auction)}):"]
    marked = False
    for loc in auction:
        tile = TILES.get(loc)
        summary = ""
        if tile is not None:
            mark = _mark(tile)
            marked = marked or bool(mark)
            summary = f" ({effect_short(tile)}{mark})"
        doing = activity(view, loc, usable(loc))
        lines.append(f"- {label(loc)}{summary}: {doing or 'no bids'}")
    return lines, marked


def _order_line(view: View) -> str:
    """'Turn-order tiles (...): 1: blue — bids Ben 2 (leads); 2★: no bids.' or ''."""
    numbers: Sequence[int] = view.get("order_tiles") or []
    if not numbers or view.get("phase") in ("winter-choice", "over"):
        return ""
    players = len(view.get("names") or [])
    shown = []
    for number in numbers:
        face = order_face(int(number), players)
        star = "\u2605" if face is not None and face.start_icon else ""
        shown.append(f"{number}{star}: {activity(view, f'order-{number}', False) or 'no bids'}")
    return "Turn-order tiles (`order-N`; boat picks in this order; \u2605 start icon): " + "; ".join(shown) + "."


def _celeste_lines(view: View) -> list[str]:
    """Key Celeste and the ghost (module Key Celeste), when chosen: its bids and who owns the ghost (F-38)."""
    if not (view.get("modules") or {}).get("key_celeste"):
        return []
    ghost: Mapping[str, Any] = view.get("ghost") or {}
    holder, played = ghost.get("holder"), ghost.get("played")
    if ghost.get("gone"):
        where = "out of the game (played in winter)"
    elif holder is None:
        where = "on Key Celeste"
    else:
        when = {"spring": "; may be played from summer", "summer": "; may be played as a turn",
                "autumn": "; may be played as a turn"}.get(str(view.get("season")), "")
        if view.get("season") == "winter" and view.get("phase") != "over":
            when = "; may be played as a turn"
        where = f"{_name(view, int(holder))}'s" + (f", played on {label(str(played))}" if played else
                                                  f" (behind the screen{when})")
    lines = [f"Ghost: {where}."]
    if (view.get("celeste") or {}).get("on_table"):
        winter = view.get("season") == "winter"
        prize = f"the tile itself, {KEY_CELESTE_POINTS}" if winter else "the ghost"
        doing = activity(view, CELESTE, False) or "no bids"
        lines.insert(0, f"Key Celeste `{CELESTE}` (bid like a turn-order tile; wins {prize}): {doing}.")
    return lines


def picking_order(view: View) -> list[int]:
    """Who picks a boat, in order, among those yet to pick (the view's `picking`: turn-order winners by number,
    then the others clockwise from the new start player; reference §7, F-16)."""
    return [int(s) for s in view.get("picking") or []]


def _boat_lines(view: View) -> list[str]:
    """The boats with their loads (or their winter scoring), who took them; the picking order while they go."""
    boats: Sequence[Mapping[str, Any]] = view.get("boats") or []
    if not boats:
        return []
    season = view.get("season")
    winter = season == "winter"
    face = "summer" if season == "summer" else "winter" if winter else "spring and autumn"
    head = f"Boats ({face} face" + ("; taken as village tiles at the end of winter" if winter else "") + "):"
    lines = [head]
    for boat in boats:
        if winter:
            what = BOAT_SCORING.get(str(boat["id"]), ("?",))[0]
        else:
            workers = keyples_text(boat.get("workers") or {})
            skills = counts_text(boat.get("skills") or {}, SKILLS)
            what = f"workers {workers}; skills {skills}"
        taken = boat.get("taken")
        mark = DAGGER if boat["id"] == "keymelequin" else ""  # its load is Keywood's own (F-33)
        lines.append(f"- {label(str(boat['id']))}{mark}: " + (f"taken by {_name(view, taken)}" if taken is not None
                                                          else what))
    if view.get("phase") == "boats":
        order = picking_order(view)
        if order:
            lines.append("Picking: " + ", ".join(_name(view, s) for s in order) + ".")
    return lines


def _powers(village: Mapping[str, Mapping[str, Any]], won: Sequence[str]) -> list[str]:
    """'2a (move across fields, place freely)' for each summer boat owned or won."""
    owned = [str(p.get("tile")) for p in village.values()] + [str(t) for t in won]
    return [f"{t[-2:]} ({POWERS[t[-2:]][0]})" for t in owned if t.startswith("summerboat-") and t[-2:] in POWERS]


def _position_key(key: str) -> tuple[int, int]:
    """A village key 'q/r' as numbers for sorting (home first, then row by row)."""
    try:
        q, r = key.split("/")
        return int(r), int(q)
    except ValueError:
        return 0, 0


def _village_tile(view: View, key: str, placed: Mapping[str, Any]) -> str:
    """'Miner up 1/0 [iron 2; 1 stored] (red — used by Ben 1; next use 2+)'."""
    tile_id = str(placed.get("tile"))
    up = bool(placed.get("up"))
    text = f"{label(tile_id)}{' up' if up else ''} {key}"
    res: Mapping[str, int] = placed.get("res") or {}
    stored = sum((placed.get("stored") or {}).values())
    if any(res.values()):
        text += f" [{counts_text(res, RESOURCES)}" + (f"; {stored} stored" if stored else "") + "]"
    doing = activity(view, tile_id, usable(tile_id, up))
    return text + (f" ({doing})" if doing else "")


def _player_lines(view: View, seat: int) -> list[str]:
    """'- **Ana** (start player): 6 workers, 2 skills, 3 winter tiles behind the screen; powers: ...', the
    village, and the tiles won still to place."""
    def count(key: str) -> int:
        values: Sequence[int] = view.get(key) or []
        return int(values[seat]) if seat < len(values) else 0

    villages: Sequence[Mapping[str, Mapping[str, Any]]] = view.get("villages") or []
    village = villages[seat] if seat < len(villages) else {}
    won_all: Sequence[Sequence[str]] = view.get("won") or []
    won = won_all[seat] if seat < len(won_all) else []
    start = " (start player)" if view.get("start_player") == seat else ""
    head = f"- **{_name(view, seat)}**{start}: {plural(count('screens'), 'worker')}, " \
           f"{plural(count('skills_held'), 'skill')}"
    if not winter_chosen(view):  # once chosen, the tiles kept back are out of the game (F-9)
        head += f", {plural(count('winter_in_hand'), 'winter tile')} in hand"
    powers = _powers(village, won)
    if powers:
        head += "; summer boat " + ", ".join(powers)
    keys = sorted(village, key=lambda k: (k != HOME, _position_key(k)))
    tiles = "; ".join(_village_tile(view, k, village[k]) for k in keys)
    lines = [head, f"  Village: {tiles or 'empty'}"]
    opened: Sequence[Mapping[str, Mapping[str, int]]] = view.get("screens_opened") or []
    if seat < len(opened):  # after the game every screen is opened for the final count
        lines.append(f"  Screen opened: workers {keyples_text(opened[seat].get('workers') or {})}; "
                     f"skills {counts_text(opened[seat].get('skills') or {}, SKILLS)}")
    if won:
        lines.append("  To place: " + ", ".join(label(str(t)) for t in won))
    return lines


def winter_chosen(view: View) -> bool:
    """Whether the winter tiles have been chosen and shown: those left in hand are then out of the game."""
    return view.get("season") == "winter" and view.get("phase") != "winter-choice"


def _supply_line(view: View) -> str:
    """'Bag 58 workers; greens 17; skill pile 31; supply gold 46, iron 23, stone 20, wood 22; stacks ...'."""
    text = (f"Bag {plural(int(view.get('bag', 0)), 'worker')}; greens {view.get('greens', 0)}; skill pile "
            f"{view.get('skill_pile', 0)}; supply {counts_text(view.get('supply') or {}, RESOURCES)}")
    season = view.get("season")
    stacks: Mapping[str, int] = view.get("stacks") or {}
    coming = {"spring": ("summer", "autumn"), "summer": ("autumn",)}.get(str(season), ())
    shown = [f"{s} {stacks[s]}" for s in coming if s in stacks]
    if shown:
        text += f"; tiles stacked for {', '.join(shown)}"
    return text + "."


# --- One seat's screen -----------------------------------------------------------------------------------


def holdings(view: View, seat: int) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """(workers, skills, resources) a seat owns now for winter scoring: the screen's workers (in winter also the
    workers standing on its village tiles, which come to it), its skills, the resources in its village."""
    workers = {k: int(v) for k, v in (view.get("workers") or {}).items()}
    skills = {k: int(v) for k, v in (view.get("skills") or {}).items()}
    villages: Sequence[Mapping[str, Mapping[str, Any]]] = view.get("villages") or []
    village = villages[seat] if seat < len(villages) else {}
    resources: dict[str, int] = {}
    for placed in village.values():
        for kind, n in (placed.get("res") or {}).items():
            resources[kind] = resources.get(kind, 0) + int(n)
    if view.get("season") == "winter":
        places: Mapping[str, Any] = view.get("places") or {}
        for placed in village.values():
            for use in (places.get(str(placed.get("tile"))) or {}).get("uses", []):
                for kind, n in use_group(use).items():
                    workers[kind] = workers.get(kind, 0) + int(n)
    return workers, skills, resources


def winter_now(key: str, workers: Mapping[str, int], skills: Mapping[str, int],
               resources: Mapping[str, int]) -> int:
    """What a winter tile would score on its own with these holdings (each item counted here alone, F-19)."""
    res = {k: resources.get(k, 0) for k in RESOURCES}
    if key == "apothecary":
        return sum(workers.values()) // 5 * 3
    if key == "craftsmens-guild":
        return min(workers.get(c, 0) for c in ("blue", "red", "yellow")) * 3
    if key == "jeweller":
        return res["gold"] * 2
    if key == "key-guild":
        return sum(skills.values()) // 5 * 10
    if key == "keythedral":
        return 12
    if key == "key-market":
        return workers.get("green", 0) * 2
    if key == "mercers-guild":
        sets = 0
        while sum(max(0, sets + 1 - res[k]) for k in ("iron", "stone", "wood")) <= res["gold"]:
            sets += 1
        return sets * 5
    if key == "scholar":
        return max((skills.get(k, 0) for k in SKILLS), default=0) * 3
    if key == "scribes":
        return min(skills.get(k, 0) for k in SKILLS) * 10
    if key == "village-hall":
        return max((workers.get(c, 0) for c in KEYPLE_COLOURS), default=0)
    if key == "watermill":
        return max(res["iron"], res["stone"], res["wood"])
    if key == "windmill":
        return sum(res.values()) // 5 * 5
    return 0


def _under_way(view: View, seat: int) -> str | None:
    """The seat's own bid or use being made, as only it sees it: the colour chosen, or the keyples gathered so far
    (the view's `pending`; the others see neither until the workers are placed, F-7)."""
    pending: Mapping[str, Any] = view.get("pending") or {}
    if pending.get("seat") != seat or pending.get("kind") not in ("count", "mix"):
        return None
    where = f"{'bid on' if pending.get('what') == 'bid' else 'use of'} {pending.get('loc')}"
    if pending.get("kind") == "mix":
        return f"Under way, your {where}: {keyples_text(pending.get('group') or {})} so far."
    return f"Under way, your {where} with {pending.get('colour')}: say how many."


def hand(view: View, seat: int) -> str:
    """What one seat holds behind its screen: workers by colour, skills by kind, winter tiles with what each
    scores (and would score now on its own), the purple keyple, the moves open now."""
    workers = {k: int(v) for k, v in (view.get("workers") or {}).items()}
    skills = {k: int(v) for k, v in (view.get("skills") or {}).items()}
    lines = [f"{_name(view, seat)}, behind your screen:",
             f"Workers ({sum(workers.values())}): {keyples_text(workers)}.",
             f"Skills ({sum(skills.values())}): {counts_text(skills, SKILLS)}."]
    winter: Sequence[str] = view.get("winter_hand") or []
    if winter and winter_chosen(view):
        kept = ", ".join(label(str(t)) for t in winter)
        lines.append(f"Winter tiles you kept back (out of the game, F-9): {kept}.")
    elif winter:
        owned_w, owned_s, owned_r = holdings(view, seat)
        lines.append(f"Winter tiles in hand ({len(winter)}; each scores at the end only if you win it in winter):")
        for tile_id in winter:
            tile = TILES.get(str(tile_id))
            key = tile.front.scoring if tile is not None else None
            if tile is None or key not in WINTER_SCORING:
                lines.append(f"- {label(str(tile_id))}")
                continue
            now = winter_now(str(key), owned_w, owned_s, owned_r)
            lines.append(f"- **{tile.name}** `{tile.id}`: {WINTER_SCORING[str(key)][1]}. On its own with what you "
                         f"hold now: {plural(now, 'point')}.")
    else:
        lines.append("Winter tiles in hand: none.")
    under_way = _under_way(view, seat)
    if under_way:
        lines.append(under_way)
    if view.get("phase") == "winter-choice" and seat not in (view.get("to_act") or []):
        lines.append("You have chosen your winter tiles; they are shown when everyone has chosen.")
    if any(workers.get(w) for w in kp.WILD):
        lines.append("Sven counts as one blue or yellow keyple, Paulo as one green or red; start a group with "
                     "`bid TILE sven` or `use TILE paulo`, then `add COLOUR` or `add COLOUR N` and `done` "
                     "(F-28, F-29).")
    ghost: Mapping[str, Any] = view.get("ghost") or {}
    if ghost.get("holder") == seat and not ghost.get("gone"):
        lines.append("You own the ghost: " + ("played this season." if ghost.get("played") else
                     "from summer, `ghost TILE` replaces another player's winning bid there (F-39, F-40)."))
    if view.get("start_player") == seat:
        lines.append("You hold the purple keyple: start player now, and at the end one resource, skill or worker "
                     "of your choice (F-20).")
    legal: Sequence[str] = view.get("legal") or []
    if legal:
        more = f" \u2026 and {len(legal) - LEGAL_SHOWN} more" if len(legal) > LEGAL_SHOWN else ""
        lines.append(f"You may: {', '.join(legal[:LEGAL_SHOWN])}{more}")
    return "\n".join(lines)


__all__ = ["board", "hand", "holdings", "label", "picking_order", "winter_now"]
