"""Keyflower's views as chat text: the public table in compact lines, and what one seat holds behind its screen.

Both read only the keys of the view (engine.keyflower.view.KfView: the public table, plus "workers", "skills",
"winter_hand" and "legal" in a seat's own view) and the component data, never the state. Tiles are named as
printed, with the id to type in backticks when it is not simply the name in lower case with hyphens. A value
shown that Keywood's data had to make up is marked with a dagger and explained in one footnote line (F-2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.keyflower import keyples as kp
from engine.keyflower.components import COMPONENTS, RESOURCES, SKILLS, Tile
from engine.keyflower.flow import HOME
from engine.keyflower.holdings import POINTS, SET_OF_FIVE
from engine.keyflower.lookup import (
    BOAT_SCORING,
    POWERS,
    WINTER_SCORING,
    display_name,
    effect_short,
    plural,
    reconstructed_values,
    slug,
)
from engine.keyflower.pieces import KEY_CELESTE, KEYMELEQUIN, TILES, order_face, power_of, usable
from engine.keyflower.places import MAX_WORKERS, place_identity
from engine.keyflower.state import Bid, Place, Use
from engine.keyflower.view import KfView, PlaceView, VillageTileView, as_view, place, stacks_to_come
from engine.keyflower.village import pos_of

DAGGER = "\u2020"
RECONSTRUCTED_NOTE = (f"{DAGGER} Keywood's own figure: the printed one is not public (F-2); the piece's rules entry, "
                      "looked up by its name, tells more.")
PHASES = {
    "turns": "turns",
    "winter-choice": "choosing winter tiles",
    "boats": "end of season, boats",
    "place": "end of season, villages grow",
    "over": "game over",
}
LEGAL_SHOWN = 20


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
    plain = counts_text({k: n for k, n in counts.items() if k not in kp.WILD}, kp.COLOURS)
    return ", ".join(wild + ([plain] if plain != "none" or not wild else []))


def label(tile_id: str) -> str:
    """'Timber Yard', or 'Home tile 2 `home-2`' when the id is not the name spelt as an id."""
    name = display_name(tile_id)
    return name if slug(name) == tile_id else f"{name} `{tile_id}`"


def _name(view: KfView, seat: int | None) -> str:
    """A seat's player name, or '?' for an unknown seat."""
    names = view["names"]
    return str(names[seat]) if seat is not None and 0 <= seat < len(names) else "?"


KEY_CELESTE_POINTS = (f"{COMPONENTS.key_celeste.points} points, {COMPONENTS.key_celeste.ghost_points} more with "
                      "the ghost")

# --- Locations: bids and uses ----------------------------------------------------------------------------


def standing_colour(found: PlaceView | Place) -> str | None:
    """The colour every standing worker at a location shares, or the colours it is still open between
    ('blue/yellow', F-29); None while none is there (reference §4, F-10)."""
    colours = place_identity(found if isinstance(found, Place) else Place.from_json(found, public=True))

    return None if colours is None else "/".join(c for c in kp.COLOURS if c in colours) or "?"


def _keyples_words(entry: Bid | Use) -> str:
    """A bid's or use's keyples when they are not one plain colour: 'Sven, 1 yellow' ('' otherwise)."""
    return kp.words(entry.group) if entry.group is not None else ""


def activity(data: Mapping[str, Any], loc: str, can_use: bool) -> str:
    """'red \u2014 bids Ana 2 (leads), Ben 1; used by Cleo 1; next use 2+' or '' when nobody is there."""
    view = as_view(data)
    here = place(view, loc)
    bids = sorted(((s, b) for s, b in here.bids.items() if b.count), key=lambda x: -x[1].count)
    uses = here.uses
    if not bids and not uses and here.ghost is None:
        return ""
    colour = standing_colour(here)

    def who(seat: int, entry: Bid | Use) -> str:
        group = _keyples_words(entry)
        extra = f" ({group})" if group else f" {entry.label}" if entry.label != colour else ""
        return f"{_name(view, seat)} {entry.count}{extra}{' flat' if entry.flat else ''}"

    parts = []
    if bids:
        shown = [who(s, b) for s, b in bids]
        shown[0] += " (leads)"
        parts.append("bids " + ", ".join(shown))
    if here.ghost is not None:  # the ghost replaced the winning bid and wins the tile for that player (F-40)
        parts.insert(0, f"the ghost wins it for {_name(view, here.ghost)}; closed")
    if uses:
        parts.append("used by " + ", ".join(who(u.seat, u) for u in uses))
        placed = sum(u.count for u in uses)
        if can_use and here.ghost is None:
            need = uses[-1].count + 1
            parts.append(f"next use {need}+" if placed + need <= MAX_WORKERS else "full")
    return f"{colour or 'no colour'} \u2014 " + "; ".join(parts)


# --- The public table ------------------------------------------------------------------------------------


def board(data: Mapping[str, Any]) -> str:
    """The public table: season, phase and start player; the auction; turn order; boats; players' villages;
    the supplies."""
    view = as_view(data)
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
    for seat in range(len(view["names"])):
        lines += _player_lines(view, seat)
    lines.append(_supply_line(view))
    if marked:
        lines.append(RECONSTRUCTED_NOTE)
    return "\n".join(lines)


def _headline(view: KfView) -> str:
    """'**Keyflower**, autumn: turns. Start player: Cleo (purple keyple). Waiting for Cleo to take a turn.'."""
    phase = PHASES.get(view["phase"], view["phase"])
    text = (f"**Keyflower**, {view['season']}: {phase}. Start player: {_name(view, view['start_player'])} "
            "(purple keyple).")
    if view["waiting_for"]:
        text += f" {capitalise(view['waiting_for'])}."
    return text


def _mark(tile: Tile) -> str:
    """A dagger when the face summary shown for a tile rests on reconstructed values."""
    own = reconstructed_values(tile)
    uses_points = tile.front.kind == "points"
    return DAGGER if "front" in own or (uses_points and "points" in own) else ""


def _auction_lines(view: KfView) -> tuple[list[str], bool]:
    """'Up for auction (8):' and one line per tile with its front, bids and uses; whether a dagger was shown."""
    auction = view["auction"]
    phase = view["phase"]
    if not auction:
        if phase == "winter-choice":
            choosing = [_name(view, s) for s in view["to_act"]]
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


def _order_line(view: KfView) -> str:
    """'Turn-order tiles (...): 1: blue \u2014 bids Ben 2 (leads); 2\u2605: no bids.' or ''."""
    numbers = view["order_tiles"]
    if not numbers or view["phase"] in ("winter-choice", "over"):
        return ""
    players = len(view["names"])
    shown = []
    for number in numbers:
        face = order_face(number, players)
        star = "\u2605" if face is not None and face.start_icon else ""
        shown.append(f"{number}{star}: {activity(view, f'order-{number}', False) or 'no bids'}")
    return "Turn-order tiles (`order-N`; boat picks in this order; \u2605 start icon): " + "; ".join(shown) + "."


def _celeste_lines(view: KfView) -> list[str]:
    """Key Celeste and the ghost (module Key Celeste), when chosen: its bids and who owns the ghost (F-38)."""
    if not view["modules"]["key_celeste"]:
        return []
    ghost = view["ghost"]
    holder, played = ghost["holder"], ghost["played"]
    if ghost["gone"]:
        where = "out of the game (played in winter)"
    elif holder is None:
        where = "on Key Celeste"
    else:
        when = {"spring": "; may be played from summer", "summer": "; may be played as a turn",
                "autumn": "; may be played as a turn"}.get(view["season"], "")
        if view["season"] == "winter" and view["phase"] != "over":
            when = "; may be played as a turn"
        where = f"{_name(view, holder)}'s" + (f", played on {label(played)}" if played else
                                              f" (behind the screen{when})")
    lines = [f"Ghost: {where}."]
    if view["celeste"]["on_table"]:
        winter = view["season"] == "winter"
        prize = f"the tile itself, {KEY_CELESTE_POINTS}" if winter else "the ghost"
        doing = activity(view, KEY_CELESTE, False) or "no bids"
        lines.insert(0, f"Key Celeste `{KEY_CELESTE}` (bid like a turn-order tile; wins {prize}): {doing}.")
    return lines


def picking_order(data: Mapping[str, Any]) -> list[int]:
    """Who picks a boat, in order, among those yet to pick (the view's `picking`: turn-order winners by number,
    then the others clockwise from the new start player; reference §7, F-16)."""
    return list(as_view(data)["picking"])


def _boat_lines(view: KfView) -> list[str]:
    """The boats with their loads (or their winter scoring), who took them; the picking order while they go."""
    boats = view["boats"]
    if not boats:
        return []
    season = view["season"]
    winter = season == "winter"
    face = "summer" if season == "summer" else "winter" if winter else "spring and autumn"
    head = f"Boats ({face} face" + ("; taken as village tiles at the end of winter" if winter else "") + "):"
    lines = [head]
    for boat in boats:
        if winter:
            what = BOAT_SCORING.get(boat["id"], ("?",))[0]
        else:
            what = f"workers {keyples_text(boat['workers'])}; skills {counts_text(boat['skills'], SKILLS)}"
        taken = boat["taken"]
        mark = DAGGER if boat["id"] == KEYMELEQUIN else ""  # its load is Keywood's own (F-33)
        lines.append(f"- {label(boat['id'])}{mark}: " + (f"taken by {_name(view, taken)}" if taken is not None
                                                     else what))
    if view["phase"] == "boats":
        order = picking_order(view)
        if order:
            lines.append("Picking: " + ", ".join(_name(view, s) for s in order) + ".")
    return lines


def _powers(village: Mapping[str, VillageTileView], won: Sequence[str]) -> list[str]:
    """'2a (move across fields, place freely)' for each summer boat owned or won."""
    owned = [p["tile"] for p in village.values()] + list(won)
    return [f"{power} ({POWERS[power][0]})" for t in owned if (power := power_of(t)) in POWERS]


def _position_key(key: str) -> tuple[int, int]:
    """A village key 'q/r' as numbers for sorting (home first, then row by row)."""
    q, r = pos_of(key)
    return r, q


def _village_tile(view: KfView, key: str, placed: VillageTileView) -> str:
    """'Miner up 1/0 [iron 2; 1 stored] (red \u2014 used by Ben 1; next use 2+)'."""
    tile_id, up = placed["tile"], placed["up"]
    text = f"{label(tile_id)}{' up' if up else ''} {key}"
    res = placed["res"]
    stored = sum(placed["stored"].values())
    if any(res.values()):
        text += f" [{counts_text(res, RESOURCES)}" + (f"; {stored} stored" if stored else "") + "]"
    doing = activity(view, tile_id, usable(tile_id, up))
    return text + (f" ({doing})" if doing else "")


def _player_lines(view: KfView, seat: int) -> list[str]:
    """'- **Ana** (start player): 6 workers, 2 skills, 3 winter tiles behind the screen; powers: ...', the
    village, and the tiles won still to place."""
    village = view["villages"][seat]
    won = view["won"][seat]
    start = " (start player)" if view["start_player"] == seat else ""
    head = f"- **{_name(view, seat)}**{start}: {plural(view['screens'][seat], 'worker')}, " \
           f"{plural(view['skills_held'][seat], 'skill')}"
    if not winter_chosen(view):  # once chosen, the tiles kept back are out of the game (F-9)
        head += f", {plural(view['winter_in_hand'][seat], 'winter tile')} in hand"
    powers = _powers(village, won)
    if powers:
        head += "; summer boat " + ", ".join(powers)
    keys = sorted(village, key=lambda k: (k != HOME, _position_key(k)))
    tiles = "; ".join(_village_tile(view, k, village[k]) for k in keys)
    lines = [head, f"  Village: {tiles or 'empty'}"]
    if view["phase"] == "over":  # after the game every screen is opened for the final count
        opened = view["screens_opened"][seat]
        lines.append(f"  Screen opened: workers {keyples_text(opened['workers'])}; "
                     f"skills {counts_text(opened['skills'], SKILLS)}")
    if won:
        lines.append("  To place: " + ", ".join(label(t) for t in won))
    return lines


def winter_chosen(data: Mapping[str, Any]) -> bool:
    """Whether the winter tiles have been chosen and shown: those left in hand are then out of the game."""
    view = as_view(data)
    return view["season"] == "winter" and view["phase"] != "winter-choice"


def _supply_line(view: KfView) -> str:
    """'Bag 58 workers; greens 17; skill pile 31; supply gold 46, iron 23, stone 20, wood 22; stacks ...'."""
    text = (f"Bag {plural(view['bag'], 'worker')}; greens {view['greens']}; skill pile {view['skill_pile']}; "
            f"supply {counts_text(view['supply'], RESOURCES)}")
    shown = [f"{season} {n}" for season, n in stacks_to_come(view)]
    if shown:
        text += f"; tiles stacked for {', '.join(shown)}"
    return text + "."


# --- One seat's screen -----------------------------------------------------------------------------------


def holdings(data: Mapping[str, Any], seat: int) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """(workers, skills, resources) a seat owns now for winter scoring, from its own view: the screen's workers (in
    winter also the workers standing on its village tiles, which come to it), its skills, the resources in its
    village."""
    view = as_view(data)
    workers = dict(view["workers"])
    skills = dict(view["skills"])
    village = view["villages"][seat]
    resources: dict[str, int] = {}
    for placed in village.values():
        for kind, n in placed["res"].items():
            resources[kind] = resources.get(kind, 0) + n
    if view["season"] == "winter":
        for placed in village.values():
            for use in place(view, placed["tile"]).uses:
                for kind, n in use.keyples().items():
                    workers[kind] = workers.get(kind, 0) + n
    return workers, skills, resources


def winter_now(key: str, workers: Mapping[str, int], skills: Mapping[str, int],
               resources: Mapping[str, int]) -> int:
    """What a winter tile would score on its own with these holdings (each item counted here alone, F-19)."""
    res = {k: resources.get(k, 0) for k in RESOURCES}
    points, five = POINTS.get(key, 0), SET_OF_FIVE
    if key == "apothecary":
        return sum(workers.values()) // five * points
    if key == "craftsmens-guild":
        return min(workers.get(c, 0) for c in ("blue", "red", "yellow")) * points
    if key == "jeweller":
        return res["gold"] * points
    if key == "key-guild":
        return sum(skills.values()) // five * points
    if key == "keythedral":
        return points
    if key == "key-market":
        return workers.get("green", 0) * points
    if key == "mercers-guild":
        sets = 0
        while sum(max(0, sets + 1 - res[k]) for k in ("iron", "stone", "wood")) <= res["gold"]:
            sets += 1
        return sets * points
    if key == "scholar":
        return max((skills.get(k, 0) for k in SKILLS), default=0) * points
    if key == "scribes":
        return min(skills.get(k, 0) for k in SKILLS) * points
    if key == "village-hall":
        return max((workers.get(c, 0) for c in kp.COLOURS), default=0) * points
    if key == "watermill":
        return max(res["iron"], res["stone"], res["wood"]) * points
    if key == "windmill":
        return sum(res.values()) // five * points
    return 0


def _under_way(view: KfView, seat: int) -> str | None:
    """The seat's own bid or use being made, as only it sees it: the colour chosen, or the keyples gathered so far
    (the view's `pending`; the others see neither until the workers are placed, F-7)."""
    pending = view["pending"]
    if pending is None or pending["seat"] != seat or pending["kind"] not in ("count", "mix"):
        return None
    where = f"{'bid on' if pending['what'] == 'bid' else 'use of'} {pending['loc']}"
    if pending["kind"] == "mix":
        return f"Under way, your {where}: {keyples_text(pending['group'])} so far."
    return f"Under way, your {where} with {pending['colour']}: say how many."


def hand(data: Mapping[str, Any], seat: int) -> str:
    """What one seat holds behind its screen (from its own view): workers by colour, skills by kind, winter tiles
    with what each scores (and would score now on its own), the purple keyple, the moves open now."""
    view = as_view(data)
    workers, skills = view["workers"], view["skills"]
    lines = [f"{_name(view, seat)}, behind your screen:",
             f"Workers ({sum(workers.values())}): {keyples_text(workers)}.",
             f"Skills ({sum(skills.values())}): {counts_text(skills, SKILLS)}."]
    lines += _winter_lines(view, seat)
    under_way = _under_way(view, seat)
    if under_way:
        lines.append(under_way)
    if view["phase"] == "winter-choice" and seat not in view["to_act"]:
        lines.append("You have chosen your winter tiles; they are shown when everyone has chosen.")
    if any(workers.get(w) for w in kp.WILD):
        lines.append("Sven counts as one blue or yellow keyple, Paulo as one green or red; start a group with "
                     "`bid TILE sven` or `use TILE paulo`, then `add COLOUR` or `add COLOUR N` and `done` "
                     "(F-28, F-29).")
    if view["modules"]["key_celeste"] and view["ghost"]["holder"] == seat and not view["ghost"]["gone"]:
        lines.append("You own the ghost: " + ("played this season." if view["ghost"]["played"] else
                     "from summer, `ghost TILE` replaces another player's winning bid there (F-39, F-40)."))
    if view["start_player"] == seat:
        lines.append("You hold the purple keyple: start player now, and at the end one resource, skill or worker "
                     "of your choice (F-20).")
    legal = view["legal"]
    if legal:
        more = f" \u2026 and {len(legal) - LEGAL_SHOWN} more" if len(legal) > LEGAL_SHOWN else ""
        lines.append(f"You may: {', '.join(legal[:LEGAL_SHOWN])}{more}")
    return "\n".join(lines)


def _winter_lines(view: KfView, seat: int) -> list[str]:
    """The seat's winter tiles: kept back once chosen, else each with what it scores and would score now."""
    winter = view["winter_hand"]
    if winter and winter_chosen(view):
        return [f"Winter tiles you kept back (out of the game, F-9): {', '.join(label(t) for t in winter)}."]
    if not winter:
        return ["Winter tiles in hand: none."]
    owned_w, owned_s, owned_r = holdings(view, seat)
    lines = [f"Winter tiles in hand ({len(winter)}; each scores at the end only if you win it in winter):"]
    for tile_id in winter:
        tile = TILES.get(tile_id)
        key = tile.front.scoring if tile is not None else None
        if tile is None or key is None or key not in WINTER_SCORING:
            lines.append(f"- {label(tile_id)}")
            continue
        now = winter_now(key, owned_w, owned_s, owned_r)
        lines.append(f"- **{tile.name}** `{tile.id}`: {WINTER_SCORING[key][1]}. On its own with what you "
                     f"hold now: {plural(now, 'point')}.")
    return lines


__all__ = ["board", "hand", "holdings", "label", "picking_order", "winter_now"]
