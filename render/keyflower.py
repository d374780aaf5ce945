"""The Keyflower table as a PNG: a pure function of the engine's public view.

``render(view)`` draws a header (season, phase, whom we wait for, the start player with the purple keyple, the
supplies), the season's tiles up for auction and the turn-order tiles with every bid on its bidder's edge and the
workers using them, the boats with their loads and takers, one panel per player (public counts, tiles won and
still to place, the village as flat-topped hexes with roads, water, resources and workers) and a legend;
``render_scoreboard(scoreboard)`` draws the score breakdown. Only keys of the public view (kf-spec.md, "The public
view as built") are read, with the component data for names, effects and edges; ``render`` refuses a seat's view
with ``ValueError``.

With the modules (the view's ``modules``): Sven and Paulo are keyples split in their pair's colours (blue|yellow
S, green|red P) wherever keyples are drawn, a group bid or use one pill a kind; the Keymelequin's card says who is
aboard, its load and the boat it replaced; Key Celeste stands beside the highest turn-order tile with its bids,
its face and the ghost (on the tile, at its holder's disc, or played beside a tile in the place of the bid it
replaced), a line on where the ghost is, a GHOST badge on its holder's panel; Key Celeste in a village is a hex
like any other. Figures resting on Keywood's own values are marked '*' (F-2): the Keymelequin's load, Key
Celeste's sides.

Every colour has a letter beside it for colour-blind players: keyples B R Y G (purple P, the start player),
resources G I S W (gold, iron, stone, wood); players are numbered discs, never colours.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engine.core import Scoreboard
from engine.keyflower import keyples as kp
from engine.keyflower import village as vg
from engine.keyflower.components import COMPONENTS, RESOURCES, SKILLS
from engine.keyflower.lookup import BOAT_SCORING, BOATS, TILES, effect_short, order_face, reconstructed_values
from render import draw as d

View = Mapping[str, Any]
Box = tuple[int, int, int, int]
Pos = tuple[int, int]
RGB = d.RGB

WIDTH = 1440
MARGIN = 16
GAP = 14
INNER = WIDTH - 2 * MARGIN
PAD = 12
SQRT3 = math.sqrt(3)

AUCTION_R = 64  # an auction tile's hex: centre to corner, in pixels
VILLAGE_R = 72  # a village tile's hex
MIN_VILLAGE_R = 44
CELL_W = 230  # an auction cell: the hex with room for a bid chip on every edge
CELL_H = 184
PANEL_MIN_W = 440  # a player's panel
PANEL_HEAD_H = 48
INFO_ROW_H = 30
BOAT_CARD_H = 112

# --- Colours and letters ----------------------------------------------------------------------------------

KEYPLE_COLOURS = ("blue", "red", "yellow", "green")
KEYPLE_FILL: dict[str, RGB] = {
    "blue": (48, 116, 220),
    "red": (214, 48, 44),
    "yellow": (250, 208, 40),
    "green": (58, 158, 70),
    "purple": (124, 60, 178),
}
KEYPLE_LETTER = {"blue": "B", "red": "R", "yellow": "Y", "green": "G", "purple": "P"}
RESOURCE_FILL: dict[str, RGB] = {
    "gold": (246, 198, 28),
    "iron": (46, 46, 52),
    "stone": (158, 160, 166),
    "wood": (150, 96, 48),
}
RESOURCE_LETTER = {"gold": "G", "iron": "I", "stone": "S", "wood": "W"}
KIND_FILL: dict[str, RGB] = {
    "home": (236, 224, 200),
    "spring": (204, 232, 178),
    "summer": (250, 234, 164),
    "autumn": (244, 204, 166),
    "winter": (204, 224, 246),
    "summerboat": (188, 230, 236),
    "boat": (172, 212, 238),
    "order": (226, 212, 240),
    "celeste": (200, 208, 232),  # Key Celeste (module): a night-sky grey-blue
    "unknown": (225, 225, 225),
}
WILD_LETTER = {"sven": "S", "paulo": "P"}  # Keymelequin's wild keyples, drawn split in their pair's two colours
GHOST_FILL: RGB = (246, 246, 250)
CELESTE_LOC = "key-celeste"
KEYMELEQUIN = "keymelequin"
ROAD: RGB = (206, 170, 118)
ROAD_EDGE: RGB = (110, 80, 46)
WATER: RGB = (48, 128, 210)
SEAT_FILL: RGB = (44, 46, 56)
SLOT_INK: RGB = (150, 144, 132)
TO_ACT_FILL: RGB = (255, 240, 248)
EDGE_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
PHASE_LABEL = {
    "turns": "Turns: bid, use a tile or pass",
    "winter-choice": "Choosing winter tiles (in secret)",
    "boats": "End of season: boats are picked",
    "place": "End of season: villages grow",
    "over": "Game over",
}
BOAT_FACE = {"spring": "a", "summer": "b", "autumn": "a", "winter": "b"}
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}


# --- The guard -----------------------------------------------------------------------------------------


def check_public(view: View) -> None:
    """Raise ValueError unless view is the public view: no viewer and nothing from behind a screen."""
    if view.get("viewer") is not None:
        raise ValueError(f"render needs the public view, not seat {view['viewer']}'s view")
    for key in ("workers", "skills", "winter_hand", "legal"):
        if key in view:
            raise ValueError(f"render needs the public view: this one shows a seat's {key.replace('_', ' ')}")


# --- Reading the view ------------------------------------------------------------------------------------


def _names(view: View) -> list[str]:
    """The seats' names."""
    return [str(n) for n in view.get("names") or []]


def _name(view: View, seat: int | None) -> str:
    """A seat's name, '?' for an unknown seat."""
    names = _names(view)
    return names[seat] if seat is not None and 0 <= seat < len(names) else "?"


def _seat_count(view: View, key: str, seat: int) -> int:
    """A per-seat public count (screens, skills_held, winter_in_hand)."""
    values: Sequence[Any] = view.get(key) or []
    return int(values[seat]) if seat < len(values) else 0


def _place(view: View, loc: str) -> Mapping[str, Any]:
    """A location's bids and uses this season ({} when nobody is there)."""
    places: Mapping[str, Any] = view.get("places") or {}
    found: Mapping[str, Any] = places.get(loc) or {}
    return found


def _flat(entry: Sequence[Any], index: int) -> bool:
    """Whether a bid ([colour, n, flat]) or a use ([seat, colour, n, flat]) lies flat (summer boats 4a, 4b)."""
    return len(entry) > index and bool(entry[index])


Parts = tuple[tuple[str, int], ...]  # a group of keyples by kind, in drawing order: (("sven", 1), ("blue", 2))
Bid = tuple[int, Parts, bool]  # seat, keyples, flat
Use = tuple[int, Parts, bool]


def _kind_order(kinds: Iterable[str]) -> list[str]:
    """Keyple kinds in drawing order: Sven and Paulo first, then blue, red, yellow, green, then anything else."""
    order = {k: i for i, k in enumerate((*kp.WILD, *KEYPLE_COLOURS))}
    return sorted(kinds, key=lambda k: (order.get(k, len(order)), k))


def _parts(label: str, count: int, group: Any) -> Parts:
    """The keyples of a bid or use entry: its group by kind when it has one ({"sven": 1, "yellow": 2}), else its
    one colour (a label such as 'blue/yellow' without a group stays one part)."""
    if isinstance(group, Mapping):
        found = {str(k): int(v) for k, v in group.items() if int(v)}
        if found:
            return tuple((k, found[k]) for k in _kind_order(found))
    return ((label, count),)


def _size(parts: Parts) -> int:
    """How many keyples a group holds."""
    return sum(n for _, n in parts)


def _bids(view: View, loc: str) -> list[Bid]:
    """The bids with workers at a location, by seat ([colour, n, flat] or [label, n, flat, group])."""
    bids: Mapping[str, Sequence[Any]] = _place(view, loc).get("bids") or {}
    found = [(int(s), _parts(str(b[0]), int(b[1]), b[3] if len(b) > 3 else None), _flat(b, 2))
             for s, b in bids.items() if int(b[1])]
    return sorted(found)


def _uses(view: View, loc: str) -> list[Use]:
    """The workers using a tile this season, in order ([seat, colour, n, flat] or [seat, label, n, flat, group]);
    none once the season's turns are over (they have gone behind the screens or into the bag by then, though the
    view still lists them)."""
    if view.get("phase") != "turns":
        return []
    uses: Sequence[Sequence[Any]] = _place(view, loc).get("uses") or []
    return [(int(u[0]), _parts(str(u[1]), int(u[2]), u[4] if len(u) > 4 else None), _flat(u, 3)) for u in uses]


def _leader(bids: Sequence[Bid]) -> int | None:
    """The seat whose bid leads (the most workers; bids never tie)."""
    return max(bids, key=lambda b: _size(b[1]))[0] if bids else None


@dataclass(frozen=True)
class Ghost:
    """Key Celeste's ghost as the view shows it (public, F-38): its holder, the tile it was played on, whether it
    left the game (played in winter)."""

    holder: int | None
    played: str | None
    gone: bool

    @property
    def on_tile(self) -> bool:
        """Whether the ghost stands on Key Celeste (nobody holds it and it is still in the game)."""
        return self.holder is None and self.played is None and not self.gone

    @property
    def held(self) -> int | None:
        """The seat keeping the ghost behind its screen (not while it stands played on a tile)."""
        return self.holder if self.played is None and not self.gone else None


def _ghost(view: View) -> Ghost | None:
    """The ghost (None without Key Celeste)."""
    ghost: Mapping[str, Any] | None = view.get("ghost")
    if not isinstance(ghost, Mapping):
        return None
    holder, played = ghost.get("holder"), ghost.get("played")
    return Ghost(int(holder) if isinstance(holder, int) else None, str(played) if played else None,
                 bool(ghost.get("gone")))


def _celeste(view: View) -> Mapping[str, Any]:
    """The Key Celeste tile's state ({'on_table': bool, 'face': 'seasons' | 'winter'}; {} without the module)."""
    found: Mapping[str, Any] | None = view.get("celeste")
    return found if isinstance(found, Mapping) else {}


def _ghost_wins_for(view: View, loc: str) -> int | None:
    """The seat a played ghost wins this tile for (the bid it replaced; a place's "ghost"), None when not shown."""
    ghost = _ghost(view)
    if ghost is None or ghost.played != loc:
        return None
    seat = _place(view, loc).get("ghost")
    return int(seat) if isinstance(seat, int) else None


def _edge_of(seat: int, players: int) -> int:
    """The edge of every season and turn-order tile that belongs to a seat (bids sit there): seats spread round
    the hex clockwise from the south edge."""
    return (3 + seat * 6 // max(1, players)) % 6


def _pos(key: str) -> Pos | None:
    """(q, r) of a 'q/r' village key, None when malformed."""
    try:
        q, r = key.split("/")
        return int(q), int(r)
    except ValueError:
        return None


# --- Component facts -------------------------------------------------------------------------------------

ORDER_ROADS: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {
    o.number: (o.roads, o.water) for o in COMPONENTS.turn_order
}


def _order_number(tile_id: str) -> int | None:
    """N of a turn-order tile 'order-N', else None."""
    if tile_id.startswith("order-") and tile_id[6:].isdigit():
        return int(tile_id[6:])
    return None


def _kind(tile_id: str) -> str:
    """What sort of piece an id names: a tile kind, 'boat', 'order', 'celeste' (Key Celeste) or 'unknown'."""
    if tile_id in TILES:
        return TILES[tile_id].kind
    if tile_id in BOATS or tile_id == KEYMELEQUIN:
        return "boat"
    if tile_id == CELESTE_LOC:
        return "celeste"
    if _order_number(tile_id) is not None:
        return "order"
    return "unknown"


def _edges(tile_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A piece's road and water edges (it never rotates)."""
    if tile_id in TILES:
        return TILES[tile_id].roads, TILES[tile_id].water
    if tile_id in BOATS:
        return BOATS[tile_id].roads, BOATS[tile_id].water
    if tile_id == CELESTE_LOC:  # reconstructed (F-42)
        return COMPONENTS.key_celeste.roads, COMPONENTS.key_celeste.water
    number = _order_number(tile_id)
    if number is not None and number in ORDER_ROADS:
        return ORDER_ROADS[number]
    return (), ()


def _sides(tile_id: str) -> vg.Sides:
    """A piece's edges in the village module's terms (unknown ids have none)."""
    roads, water = _edges(tile_id)
    return vg.Sides.of(roads, water, _kind(tile_id) in ("boat", "summerboat", "celeste"))  # Key Celeste: a boat


def _title(tile_id: str) -> str:
    """The printed name ('Turn order 2' for a turn-order tile, the id for an unknown piece)."""
    if tile_id in TILES:
        tile = TILES[tile_id]
        return f"Home {tile.number}" if tile.kind == "home" else tile.name
    if tile_id in BOATS:
        return BOATS[tile_id].name
    if tile_id == KEYMELEQUIN:
        return COMPONENTS.keymelequin.name
    if tile_id == CELESTE_LOC:
        return COMPONENTS.key_celeste.name
    number = _order_number(tile_id)
    return f"Turn order {number}" if number is not None else tile_id


def _ascii(text: str) -> str:
    """The component wording in the characters the bundled font draws: 'pay saw, get 3 wood'."""
    arrow = " \u2192 "
    if text.startswith("\u2192 "):
        text = "get " + text[2:]
    elif arrow in text:
        pay, gain = text.split(arrow, 1)
        text = f"pay {pay}, get {gain}"
    text = re.sub(r"(\w)\+(\w)", r"\1 + \2", text)  # 'iron + stone + wood' can wrap
    return text.replace("\u2019", "'").encode("latin-1", "replace").decode("latin-1")


def _effect(tile_id: str, up: bool) -> str:
    """What a piece does, in a few words; '*' when it rests on Keywood's own figures (F-2)."""
    if tile_id in TILES:
        tile = TILES[tile_id]
        face = tile.back if up and tile.back is not None else tile.front
        own = reconstructed_values(tile)
        mark = "*" if ("back" if up else "front") in own or (face.kind == "points" and "points" in own) else ""
        return _ascii(effect_short(tile, up)) + mark
    if tile_id in BOATS:
        return "boat: " + _ascii(BOAT_SCORING.get(tile_id, ("?",))[0])
    if tile_id == CELESTE_LOC:
        kc = COMPONENTS.key_celeste
        mark = "*" if kc.provenance == "reconstructed" else ""  # the sides are Keywood's (F-42)
        return f"{kc.points} pts, +{kc.ghost_points} with ghost; sides{mark}"
    number = _order_number(tile_id)
    if number is not None:
        return "1 pt per connected tile"
    return ""


def _celeste_face(view: View) -> tuple[str, str]:
    """What Key Celeste's face up gives its winner this season, in two lines."""
    if _celeste(view).get("face") == "winter":
        tile = COMPONENTS.key_celeste
        return "winter: the tile", f"{tile.points} + {tile.ghost_points} w/ ghost"
    return "spring-autumn:", "the ghost"


def _order_effect(number: int, players: int) -> tuple[str, bool]:
    """A turn-order tile up for bids: what it gives and whether it carries the start-player icon."""
    face = order_face(number, players)
    start = face is not None and face.start_icon
    return f"{ORDINAL.get(number, str(number))} boat pick", start


# --- Small pieces ------------------------------------------------------------------------------------------


def _seat_disc(draw: d.Pen, cx: float, cy: float, seat: int, r: int = 11) -> None:
    """A player's numbered disc (seat 0 is player 1): players are told apart by number, never by colour."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=SEAT_FILL, outline=(255, 255, 255), width=1)
    d.text(draw, (cx, cy), str(seat + 1), max(14, int(r * 1.25)), (255, 255, 255), bold=True, anchor="mm")


def _pill_look(kind: str, count: int | None) -> tuple[tuple[RGB, ...], str]:
    """A keyple pill's fill (two colours for Sven and Paulo, or a label like 'blue/yellow') and its label: '3R';
    'S' for Sven, 'P' for Paulo (a count only above one); '2B/Y' for a two-colour label."""
    if kind in kp.WILD:
        pair = kp.WILD[kind]
        many = count is not None and count > 1
        return (KEYPLE_FILL[pair[0]], KEYPLE_FILL[pair[1]]), f"{count if many else ''}{WILD_LETTER.get(kind, '?')}"
    colours = kind.split("/")
    number = "" if count is None else str(count)
    if len(colours) == 2 and all(c in KEYPLE_COLOURS for c in colours):
        return (KEYPLE_FILL[colours[0]], KEYPLE_FILL[colours[1]]), number + "/".join(KEYPLE_LETTER[c] for c in colours)
    return (KEYPLE_FILL.get(kind, d.FAINT),), number + KEYPLE_LETTER.get(kind, kind[:1].upper() or "?")


SPLIT_CAP = 10  # each colour's end of a two-colour pill, beside the white middle with the letter


def _worker_pill(draw: d.Pen, x: float, cy: float, colour: str, count: int | None,
                 flat: bool = False, size: int = 15) -> int:
    """Keyples of one kind: a round-ended pill in their colour with count and letter ('3R'); flat ones (summer
    boats 4a, 4b) are pale with a lower-case letter. Sven and Paulo are split in their two colours (blue|yellow,
    green|red) with the letter on a white middle ('S', 'P'). x is the left edge; returns the width."""
    fills, label = _pill_look(colour, count)
    if flat:
        fills, label = tuple(d.lighter(f, 0.6) for f in fills), label.lower()
    h = size + 6
    tw = d.text_width(label, size, True)
    if len(fills) == 1:
        w = tw + 10
        draw.rounded_rectangle((x, cy - h / 2, x + w, cy + h / 2), radius=h // 2, fill=fills[0], outline=d.INK,
                               width=1)
        d.text(draw, (x + w / 2, cy), label, size, d.ink_on(fills[0]), bold=True, anchor="mm")
        return w
    w = tw + 8 + 2 * SPLIT_CAP
    mid = x + w / 2
    box = (x, cy - h / 2, x + w, cy + h / 2)
    draw.rounded_rectangle(box, radius=h // 2, fill=fills[0])
    draw.rectangle((mid, box[1], x + w - h / 2, box[3]), fill=fills[1])
    draw.pieslice((x + w - h, box[1], x + w, box[3]), -90, 90, fill=fills[1])
    draw.rounded_rectangle((x + SPLIT_CAP, cy - h / 2 + 2, x + w - SPLIT_CAP, cy + h / 2 - 2), radius=(h - 4) // 2,
                           fill=(255, 255, 255))
    draw.rounded_rectangle(box, radius=h // 2, outline=d.INK, width=1)
    d.text(draw, (mid, cy), label, size, d.INK, bold=True, anchor="mm")
    return w


def _worker_pill_width(colour: str, count: int | None, size: int = 15) -> int:
    """The width _worker_pill draws."""
    fills, label = _pill_look(colour, count)
    return d.text_width(label, size, True) + (10 if len(fills) == 1 else 8 + 2 * SPLIT_CAP)


def _group_pills(draw: d.Pen, x: float, cy: float, parts: Parts, flat: bool, gap: int = 3) -> int:
    """A group's pills, one a kind, from x; returns the width."""
    start = x
    for kind, n in parts:
        x += _worker_pill(draw, x, cy, kind, n, flat) + gap
    return int(x - start - gap) if parts else 0


def _group_width(parts: Parts, gap: int = 3) -> int:
    """The width _group_pills draws."""
    return sum(_worker_pill_width(k, n) for k, n in parts) + gap * max(0, len(parts) - 1)


def _resource_chip(draw: d.Pen, x: float, cy: float, kind: str, count: int, stored: bool = False,
                   size: int = 15) -> int:
    """Resource counters of one kind: a square-cornered chip in their colour with count and letter ('2G'); framed
    thick when moved onto a storage tile in play. x is the left edge; returns the width."""
    fill = RESOURCE_FILL.get(kind, d.FAINT)
    label = f"{count}{RESOURCE_LETTER.get(kind, kind[:1].upper())}"
    w = d.text_width(label, size, True) + 10
    h = size + 6
    if stored:
        draw.rounded_rectangle((x - 3, cy - h / 2 - 3, x + w + 3, cy + h / 2 + 3), radius=5, fill=(255, 255, 255),
                               outline=d.INK, width=2)
    draw.rounded_rectangle((x, cy - h / 2, x + w, cy + h / 2), radius=3, fill=fill, outline=d.INK, width=1)
    d.text(draw, (x + w / 2, cy), label, size, d.ink_on(fill), bold=True, anchor="mm")
    return w


def _resource_chip_width(kind: str, count: int, size: int = 15, stored: bool = False) -> int:
    """The width _resource_chip draws (a stored chip's frame takes 3 pixels each side)."""
    return d.text_width(f"{count}{RESOURCE_LETTER.get(kind, kind[:1].upper())}", size, True) + 10 + (6 if stored
                                                                                                       else 0)


def _keyple_icon(draw: d.Pen, cx: float, cy: float, h: float, colour: str) -> None:
    """A standing keyple (the purple start-player keyple) with its letter."""
    fill = KEYPLE_FILL.get(colour, d.FAINT)
    r = h * 0.19
    top = cy - h / 2
    w = h * 0.8
    neck = top + 2 * r - 1
    bottom = cy + h / 2
    body = [(cx - w * 0.2, neck), (cx + w * 0.2, neck), (cx + w * 0.5, neck + h * 0.14),
            (cx + w * 0.5, neck + h * 0.26), (cx + w * 0.32, neck + h * 0.3), (cx + w * 0.42, bottom),
            (cx - w * 0.42, bottom), (cx - w * 0.32, neck + h * 0.3), (cx - w * 0.5, neck + h * 0.26),
            (cx - w * 0.5, neck + h * 0.14)]
    d.shape(draw, body, fill, d.INK)
    draw.ellipse((cx - r, top, cx + r, top + 2 * r), fill=fill, outline=d.INK, width=2)
    d.text(draw, (cx, cy + h * 0.17), KEYPLE_LETTER.get(colour, "?"), max(14, int(h * 0.36)), d.ink_on(fill),
           bold=True, anchor="mm")


def _ghost_icon(draw: d.Pen, cx: float, cy: float, h: float) -> None:
    """Key Celeste's ghost: a pale figure with a round head, a wavy hem and two eyes."""
    w = h * 0.74
    r = w / 2
    top = cy - h / 2 + r
    bottom = cy + h / 2
    points = [(cx + r * math.cos(math.radians(a)), top + r * math.sin(math.radians(a))) for a in range(180, 361, 20)]
    waves = 3
    for k in range(2 * waves + 1):  # the hem, right to left
        points.append((cx + r - w * k / (2 * waves), bottom - (h * 0.13 if k % 2 else 0)))
    d.shape(draw, points, GHOST_FILL, d.INK, 2)
    eye = max(2.0, h * 0.07)
    for ex in (cx - r * 0.38, cx + r * 0.38):
        draw.ellipse((ex - eye, top - eye * 1.5, ex + eye, top + eye * 1.5), fill=d.INK)


def _ghost_chip(draw: d.Pen, cx: float, cy: float, seat: int) -> None:
    """The ghost played beside a tile, in the place of the bid it replaced: framed like a winning bid, the ghost
    and the number disc of the player it wins the tile for."""
    w = GHOST_CHIP_W
    x0 = cx - w / 2
    draw.rounded_rectangle((x0 - 4, cy - 17, x0 + w + 4, cy + 17), radius=8, fill=(255, 255, 255), outline=d.INK,
                           width=3)
    _ghost_icon(draw, x0 + 11, cy, 28)
    _seat_disc(draw, x0 + w - 11, cy, seat)


GHOST_CHIP_W = 50


SIDE_ROOM = 62  # the widest bid chip that stays in one row beside a slanted edge (wider groups take two rows)


def _stacked(parts: Parts) -> bool:
    """Whether a chip beside a slanted edge takes two rows: the disc and the first pill, then the other pills."""
    return len(parts) > 1 and 24 + _group_width(parts) > SIDE_ROOM


def _chip(draw: d.Pen, cx: float, cy: float, seat: int, parts: Parts, flat: bool,
          lead: bool = False) -> None:
    """A seat's bid or use, centred on (cx, cy): the player's disc and the keyples, a pill for each kind; a
    leading bid is framed."""
    w = _chip_width(parts)
    x0 = cx - w / 2
    if lead:
        draw.rounded_rectangle((x0 - 4, cy - 15, x0 + w + 4, cy + 15), radius=8, fill=(255, 255, 255),
                               outline=d.INK, width=3)
    _seat_disc(draw, x0 + 11, cy, seat)
    _group_pills(draw, x0 + 24, cy, parts, flat)


def _chip_width(parts: Parts) -> int:
    """The width of a bid or use chip."""
    return 24 + _group_width(parts)


def _side_stack(draw: d.Pen, cx: float, cy: float, r: float, edge: int, bid: Bid, lead: bool,
                span: tuple[float, float]) -> None:
    """A wide group's bid (Sven or Paulo with his pair) for a slanted edge: in two rows (the disc and the first
    pill, then the other pills) in the cell's corner beyond that edge, above or below the hex beside the N or S
    chip, so that it keeps within its cell; a leading bid is framed."""
    seat, parts, flat = bid
    ux, uy = _outward(edge)
    widths = (24 + _group_width(parts[:1]), _group_width(parts[1:]))
    w = max(widths)
    apothem = r * SQRT3 / 2
    near = apothem - 3  # the row beside the hex's corner, then the one beyond it
    rows = (cy - near - 23, cy - near) if uy < 0 else (cy + near, cy + near + 23)
    x0 = cx + 40 if ux > 0 else cx - 40 - w
    x0 = min(max(x0, span[0] + 4), span[1] - 4 - w)
    if lead:
        draw.rounded_rectangle((x0 - 4, rows[0] - 14, x0 + w + 4, rows[1] + 14), radius=8, fill=(255, 255, 255),
                               outline=d.INK, width=3)
    _seat_disc(draw, x0 + 11, rows[0], seat)
    _group_pills(draw, x0 + 24, rows[0], parts[:1], flat)
    _group_pills(draw, x0, rows[1], parts[1:], flat)


def _pill(draw: d.Pen, x: float, cy: float, label: str, fill: RGB, ink: RGB, size: int = 14) -> int:
    """A small badge; x is its left edge; returns the width."""
    return d.pill(draw, (x, cy), label, size, fill, ink=ink, outline=d.INK, pad=6)


# --- Hexes ---------------------------------------------------------------------------------------------


def _corners(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A flat-topped hex's corners, from the east one clockwise (screen y grows downwards)."""
    return [(cx + r * math.cos(math.radians(60 * k)), cy + r * math.sin(math.radians(60 * k))) for k in range(6)]


def _edge_points(cx: float, cy: float, r: float, edge: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners of edge 0 N .. 5 NW."""
    corners = _corners(cx, cy, r)
    return corners[(4 + edge) % 6], corners[(5 + edge) % 6]


def _outward(edge: int) -> tuple[float, float]:
    """The unit vector from a hex's centre through the middle of an edge."""
    angle = math.radians(270 + 60 * edge)
    return math.cos(angle), math.sin(angle)


def _centre(pos: Pos, r: float) -> tuple[float, float]:
    """A village position's centre relative to the home tile's (axial, flat-topped)."""
    q, s = pos
    return 1.5 * r * q, SQRT3 * r * (s + q / 2)


def _half_width(r: float, dy: float) -> float:
    """Half the width of a flat-topped hex at dy from its centre."""
    return max(0.0, r - abs(dy) / SQRT3)


def _band(r: float) -> int:
    """The thickness of a road or water band along an edge."""
    return max(6, int(r * 0.12))


def _hex(draw: d.Pen, cx: float, cy: float, r: float, tile_id: str, up: bool, title: str) -> None:
    """A piece's hex and title (_hex_face: drawn once per look and place), pasted through its shape."""
    face, mask, corner = _hex_face(tile_id, up, r, title, cx, cy)
    d.paste(draw, face, corner, mask)


@d.kept(maxsize=256)
def _hex_face(tile_id: str, up: bool, r: float, title: str, cx: float,
              cy: float) -> tuple[d.Layer, Image.Image, tuple[int, int]]:
    """A piece's hex (_hex_base) with its title, centred on (cx, cy) of the table: the layer, the mask of the pixels
    it covers and where it goes. Drawn with the table's coordinates (d.canvas's origin), so in the same pixels."""
    ox, oy = 2 * math.floor((cx - r - 4) / 2), 2 * math.floor((cy - r - 4) / 2)
    size = (math.ceil(cx + r + 4) - ox + 1, math.ceil(cy + r + 4) - oy + 1)
    _, draw = d.canvas(*size, d.PANEL, origin=(ox, oy))
    _hex_base(draw, cx, cy, r, tile_id, up)
    _hex_title(draw, cx, cy, r, title)
    mask, shape = d.stencil(*size, (ox, oy))
    corners = _corners(cx, cy, r)
    shape.polygon(corners, fill=255)
    shape.line([*corners, corners[0]], fill=255, width=2, joint="curve")
    return d.layer(draw), mask, (ox, oy)


def _hex_base(draw: d.Pen, cx: float, cy: float, r: float, tile_id: str, up: bool) -> None:
    """A piece's hex: its kind's fill, a band along every road edge (tan with dark dashes) and water edge (blue),
    the outline (double when upgraded)."""
    fill = KIND_FILL[_kind(tile_id)]
    if up:
        fill = d.darker(fill, 0.88)
    corners = _corners(cx, cy, r)
    draw.polygon(corners, fill=fill)
    roads, water = _edges(tile_id)
    band = _band(r)
    for e in water:
        (ax, ay), (bx, by) = _edge_points(cx, cy, r - band / 2 - 1, e)
        draw.line((ax, ay, bx, by), fill=WATER, width=band)
    for e in roads:
        (ax, ay), (bx, by) = _edge_points(cx, cy, r - band / 2 - 1, e)
        draw.line((ax, ay, bx, by), fill=ROAD, width=band)
        for k in range(1, 8, 2):
            t0, t1 = k / 9, (k + 1) / 9
            draw.line((ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1),
                      fill=ROAD_EDGE, width=2)
    draw.line([*corners, corners[0]], fill=d.INK, width=2, joint="curve")
    if up:
        inner = _corners(cx, cy, r - band - 3)
        draw.line([*inner, inner[0]], fill=d.INK, width=2, joint="curve")


@dataclass(frozen=True)
class HexText:
    """What goes inside a hex besides its face (base and title): effect, resources, uses and a footer."""

    effect: str = ""
    res: Mapping[str, int] | None = None
    stored: Mapping[str, int] | None = None
    uses: Sequence[Use] = ()
    footer: str = ""
    up: bool = False
    start_icon: bool = False
    ghost_icon: bool = False  # Key Celeste's ghost stands on the piece (in the footer's row)


def _rows_of(widths: Sequence[int], room: float, gap: int = 4) -> list[list[int]]:
    """Indices packed into rows no wider than room (at least one item a row)."""
    rows: list[list[int]] = [[]]
    used = 0.0
    for i, w in enumerate(widths):
        if rows[-1] and used + gap + w > room:
            rows.append([])
            used = 0.0
        used += (gap if rows[-1] else 0) + w
        rows[-1].append(i)
    return rows if rows[0] else []


def _title_lines(title: str, r: float) -> tuple[int, list[str]]:
    """A hex's title: one line (17 down to 14 px) across the middle of the title zone, else two lines narrow
    enough for its top, else ellipsized."""
    band = _band(r)
    one = 2 * _half_width(r, r * 0.5) - 2 * band - 4
    two = 2 * _half_width(r, r * 0.72) - 2 * band
    for size in (16, 15, 14):
        if d.text_width(title, size, True) <= one:
            return size, [title]
        lines = d.wrap(title, size, int(two), bold=True)
        if len(lines) == 2 and all(d.text_width(x, size, True) <= one for x in lines):
            return size, lines
    lines = d.wrap(title, 14, int(two), bold=True)
    return 14, [lines[0], d.ellipsize(" ".join(lines[1:]), 14, int(one), bold=True)] if len(lines) > 1 else lines


Token = tuple[str, Any]  # ("res", (kind, count, stored)) or ("use", (seat, [(colour, count, flat), ...]))


def _tokens(body: HexText) -> list[Token]:
    """What lies on a tile: resource counters by kind (those stored apart), then the uses, a seat's uses in a row
    merged behind one disc."""
    res = {k: int(v) for k, v in (body.res or {}).items() if int(v)}
    stored = {k: min(int(v), res.get(k, 0)) for k, v in (body.stored or {}).items() if int(v)}
    tokens: list[Token] = []
    for kind in [*RESOURCES, *sorted(k for k in res if k not in RESOURCES)]:
        n, s = res.get(kind, 0), stored.get(kind, 0)
        if n - s:
            tokens.append(("res", (kind, n - s, False)))
        if s:
            tokens.append(("res", (kind, s, True)))
    for seat, parts, flat in body.uses:
        pills = [(kind, n, flat) for kind, n in parts]
        last = tokens[-1] if tokens else None
        if last is not None and last[0] == "use" and last[1][0] == seat:
            last[1][1].extend(pills)
        else:
            tokens.append(("use", (seat, pills)))
    return tokens


def _token_width(token: Token) -> int:
    """The width a token takes."""
    kind, data = token
    if kind == "res":
        return _resource_chip_width(data[0], data[1], stored=data[2])
    disc = 24 if data[0] is not None else 0
    return disc + sum(_worker_pill_width(c, n) for c, n, _ in data[1]) + 3 * (len(data[1]) - 1)


def _fitted(tokens: Sequence[Token], room: float) -> list[Token]:
    """The tokens, a use too wide for the room (a group with Sven or Paulo, or many uses) broken into pieces that
    fit: the first behind the player's disc, the rest going on without it."""
    out: list[Token] = []
    for token in tokens:
        kind, data = token
        if kind != "use" or _token_width(token) <= room or len(data[1]) < 2:
            out.append(token)
            continue
        seat: int | None = data[0]
        piece: list[Any] = []
        for pill in data[1]:
            if piece and _token_width(("use", (seat, [*piece, pill]))) > room:
                out.append(("use", (seat, piece)))
                seat, piece = None, []
            piece.append(pill)
        out.append(("use", (seat, piece)))
    return out


def _token(draw: d.Pen, x: float, cy: float, token: Token) -> None:
    """Draw a token with its left edge at x (a use's continuation has no disc)."""
    kind, data = token
    if kind == "res":
        _resource_chip(draw, x + (3 if data[2] else 0), cy, data[0], data[1], data[2])
        return
    if data[0] is not None:
        _seat_disc(draw, x + 11, cy, data[0])
        x += 24
    for colour, n, flat in data[1]:
        x += _worker_pill(draw, x, cy, colour, n, flat) + 3


def _hex_title(draw: d.Pen, cx: float, cy: float, r: float, title: str) -> None:
    """A hex's title, at the top."""
    size, lines = _title_lines(title, r)
    line_h = d.line_height(size)
    ty = cy - r * 0.48 - line_h * len(lines) / 2
    for line in lines:
        d.text(draw, (cx, ty + line_h / 2), line, size, d.INK, bold=True, anchor="mm")
        ty += line_h


def _hex_text(draw: d.Pen, cx: float, cy: float, r: float, body: HexText) -> None:
    """Under the title (on the hex's face): resources, uses and as much of the effect as fits in the middle; the
    footer (UP, coordinates) at the bottom."""
    band = _band(r)
    has_footer = bool(body.footer or body.up or body.ghost_icon)
    body_top = cy - r * 0.20
    room = 2 * _half_width(r, r * 0.3) - 2 * band - 6
    tokens = _fitted(_tokens(body), room)
    widths = [_token_width(t) for t in tokens]
    rows = _rows_of(widths, room, 5)
    row_h = 24
    needed = row_h * len(rows)
    footer_y = cy + r * 0.86 * 0.80 - 2
    body_bottom = footer_y - 11 if has_footer else cy + r * 0.66
    if has_footer and needed > body_bottom - body_top:  # what lies on the tile comes first
        has_footer = False
        body_bottom = cy + r * 0.66
    free = body_bottom - body_top - needed
    y = body_top + max(0.0, free / 2)
    icon = r * 0.28 if body.start_icon else 0.0
    if body.start_icon:
        _keyple_icon(draw, cx - r * 0.56, cy + r * 0.1, 30, "purple")
    if body.effect and free >= d.line_height(14):
        ew = 2 * _half_width(r, r * 0.35) - 2 * band - 8 - icon
        keep = min(3, int(free // d.line_height(14)))
        esize, elines = d.fit(body.effect, int(ew), keep * d.line_height(14), 15, 14)
        if elines and elines[-1].endswith("...") and tokens:
            elines = []  # a cut effect gives way to what lies on the tile
        eh = len(elines) * d.line_height(esize)
        y = body_top + max(0.0, (free - eh) / 2)
        for line in elines:
            d.text(draw, (cx + icon / 2, y), line, esize, (64, 60, 54), anchor="ma")
            y += d.line_height(esize)
        y += 2
    for row in rows:
        x = cx - (sum(widths[i] for i in row) + 5 * (len(row) - 1)) / 2
        for i in row:
            _token(draw, x, y + row_h / 2, tokens[i])
            x += widths[i] + 5
        y += row_h
    if has_footer:
        up_w = d.pill_width("UP", 14, pad=5) if body.up else 0
        text_w = d.text_width(body.footer, 14) if body.footer else 0
        ghost_w = 18 if body.ghost_icon else 0
        total = ghost_w + up_w + text_w + (4 if up_w and text_w else 0) + (4 if ghost_w and up_w + text_w else 0)
        x = cx - total / 2
        if body.ghost_icon:
            _ghost_icon(draw, x + ghost_w / 2, footer_y - 1, 22)
            x += ghost_w + 4
        if body.up:
            x += d.pill(draw, (x, footer_y), "UP", 14, d.INK, ink=(255, 255, 255), pad=5) + 4
        if body.footer:
            d.text(draw, (x, footer_y), body.footer, 14, (60, 56, 50), anchor="lm")


# --- Entry points --------------------------------------------------------------------------------------


def render(public_view: View) -> bytes:
    """The table as PNG bytes. Raises ValueError on a seat's (private) view."""
    check_public(public_view)
    view = public_view
    header_h = _header_height(view)
    auction_h = _auction_height(view)
    boats_h = _boats_height(view)
    rows = _player_rows(view)
    players_h = sum(h for _, h in rows) + GAP * max(0, len(rows) - 1)
    legend_h = _legend_height(view)
    parts = [header_h, auction_h, boats_h, players_h, legend_h]
    height = 2 * MARGIN + sum(parts) + GAP * (sum(1 for p in parts if p) - 1)
    _, draw = d.canvas(WIDTH, height)
    y = MARGIN
    _header(draw, view, (MARGIN, y, WIDTH - MARGIN, y + header_h))
    y += header_h + GAP
    if auction_h:
        _auction(draw, view, (MARGIN, y, WIDTH - MARGIN, y + auction_h))
        y += auction_h + GAP
    if boats_h:
        _boats(draw, view, (MARGIN, y, WIDTH - MARGIN, y + boats_h))
        y += boats_h + GAP
    for panels, row_h in rows:
        x = MARGIN
        spare = (INNER - sum(p.width for p in panels) - GAP * (len(panels) - 1)) // len(panels)
        for panel in panels:
            w = panel.width + spare
            _player(draw, view, panel, (x, y, x + w, y + row_h))
            x += w + GAP
        y += row_h + GAP
    _legend(draw, view, (MARGIN, y, WIDTH - MARGIN, y + legend_h))
    return d.to_png(d.finished(draw))


def render_scoreboard(scoreboard: Scoreboard) -> bytes:
    """The scoreboard as PNG bytes: players best first, each with its numbered disc, score lines and total."""
    return d.scoreboard_png(scoreboard, lambda seat: SEAT_FILL, _score_badge)


def _score_badge(draw: d.Pen, xy: tuple[float, float], seat: int, ink: RGB) -> None:
    """The player's number before a name on the scoreboard."""
    x, y = xy
    draw.ellipse((x, y, x + 32, y + 32), fill=(255, 255, 255), outline=ink, width=2)
    d.text(draw, (x + 16, y + 16), str(seat + 1), 20, SEAT_FILL, bold=True, anchor="mm")


# --- Header --------------------------------------------------------------------------------------------


def _header_height(view: View) -> int:
    """The header: title line, the waiting sentence (up to two lines), the supplies line."""
    lines = d.wrap(_waiting(view), 20, INNER - 2 * PAD)
    return 16 + 36 + 8 + 26 * min(2, max(1, len(lines))) + 8 + 34 + 12


def _waiting(view: View) -> str:
    """The engine's 'waiting for ...' sentence, capitalised."""
    text = str(view.get("waiting_for") or "")
    return text[:1].upper() + text[1:]


def _header(draw: d.Pen, view: View, box: Box) -> None:
    """Title, season and phase; the start player with the purple keyple; whom we wait for; the supplies."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    cy = y0 + 16 + 18
    x = x0 + PAD
    x += d.pill(draw, (x, cy), "KEYFLOWER", 20, (70, 40, 110), ink=(255, 255, 255), pad=10) + 10
    season = str(view.get("season") or "?")
    fill = d.SEASON_FILL.get(season, d.FAINT)
    x += d.pill(draw, (x, cy), season.capitalize(), 20, fill, pad=10) + 14
    phase = str(view.get("phase") or "")
    d.text(draw, (x, cy), PHASE_LABEL.get(phase, phase), 20, bold=True, anchor="lm")
    start = view.get("start_player")
    if isinstance(start, int):
        name = d.ellipsize(_name(view, start), 20, 260, bold=True)
        nx = x1 - PAD - d.text_width(name, 20, True)
        d.text(draw, (nx, cy), name, 20, bold=True, anchor="lm")
        _seat_disc(draw, nx - 18, cy, start, 12)
        _keyple_icon(draw, nx - 48, cy, 32, "purple")
        d.text(draw, (nx - 68, cy), "Start player", 18, d.MUTED, anchor="rm")
    y = y0 + 16 + 36 + 8
    lines = d.wrap(_waiting(view), 20, INNER - 2 * PAD)
    if len(lines) > 2:
        lines = [lines[0], d.ellipsize(" ".join(lines[1:]), 20, INNER - 2 * PAD)]
    for line in lines or [""]:
        d.text(draw, (x0 + PAD, y), line, 20)
        y += 26
    _supplies(draw, view, x0 + PAD, y + 8 + 17)


def _supplies(draw: d.Pen, view: View, x: float, cy: float) -> None:
    """The bag's size, the green supply, the skill pile, the resource supply and the stacks still to come."""
    x += d.text(draw, (x, cy), "Bag", 17, d.MUTED, anchor="lm") + 6
    x += d.text(draw, (x, cy), f"{int(view.get('bag') or 0)} workers", 18, bold=True, anchor="lm") + 22
    x += d.text(draw, (x, cy), "Green supply", 17, d.MUTED, anchor="lm") + 6
    x += _worker_pill(draw, x, cy, "green", int(view.get("greens") or 0), size=16) + 22
    x += d.text(draw, (x, cy), "Skill pile", 17, d.MUTED, anchor="lm") + 6
    x += d.text(draw, (x, cy), str(int(view.get("skill_pile") or 0)), 18, bold=True, anchor="lm") + 22
    x += d.text(draw, (x, cy), "Resources", 17, d.MUTED, anchor="lm") + 6
    supply: Mapping[str, int] = view.get("supply") or {}
    for kind in RESOURCES:
        x += _resource_chip(draw, x, cy, kind, int(supply.get(kind, 0)), size=16) + 4
        x += d.text(draw, (x, cy), kind, 15, d.MUTED, anchor="lm") + 10
    stacks: Mapping[str, int] = view.get("stacks") or {}
    coming = {"spring": ("summer", "autumn"), "summer": ("autumn",)}.get(str(view.get("season")), ())
    shown = [f"{s} {int(stacks[s])}" for s in coming if s in stacks]
    if shown:
        x += 12
        d.text(draw, (x, cy), "Tiles stacked: " + ", ".join(shown), 17, d.MUTED, anchor="lm")


# --- Auction and turn-order tiles --------------------------------------------------------------------------


def _locations(view: View) -> list[str]:
    """The locations with bids shown in the auction panel: the season's tiles, then the turn-order tiles (while
    they are bid for and until boats have been picked), then Key Celeste beside the highest of them (module)."""
    auction = [str(t) for t in view.get("auction") or []]
    phase = view.get("phase")
    orders = [f"order-{int(n)}" for n in view.get("order_tiles") or []] if phase in ("turns", "boats") else []
    celeste = [CELESTE_LOC] if orders and _celeste(view).get("on_table") else []
    return auction + orders + celeste


def _cells_per_row() -> int:
    """Auction cells side by side."""
    return (INNER - 2 * PAD) // CELL_W


CELESTE_LINE_H = 28  # the auction panel's line on Key Celeste and the ghost


def _auction_height(view: View) -> int:
    """The auction panel: title, a note, (with Key Celeste) the ghost's line, rows of cells; 0 when nothing is up."""
    locs = _locations(view)
    if not locs:
        return 90 if view.get("phase") == "winter-choice" else 0
    rows = -(-len(locs) // _cells_per_row())
    return 44 + (CELESTE_LINE_H if CELESTE_LOC in locs else 0) + rows * CELL_H + 8


def _auction(draw: d.Pen, view: View, box: Box) -> None:
    """The season's tiles up for auction and the turn-order tiles, each with its bids on the bidders' edges and
    the workers using it; Key Celeste and where its ghost is."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    season = str(view.get("season") or "")
    auction = [str(t) for t in view.get("auction") or []]
    players = len(_names(view))
    if view.get("phase") == "winter-choice" and not auction:
        d.text(draw, (x0 + PAD, y0 + 22), "WINTER TILES", 20, bold=True, anchor="lm")
        choosing = [_name(view, int(s)) for s in view.get("to_act") or []]
        note = "Each player secretly picks at least one winter tile from their hand to put up for auction"
        note += f"; still choosing: {', '.join(choosing)}." if choosing else "."
        d.text_box(draw, (x0 + PAD, y0 + 40, x1 - PAD, y1 - 8), note, 18, 15, align="left", valign="top")
        return
    title = f"UP FOR AUCTION: {season.upper()} TILES ({len(auction)})" if auction else "TURN-ORDER TILES"
    tw = d.text(draw, (x0 + PAD, y0 + 22), title, 20, bold=True, anchor="lm")
    note = ("a bid sits on its bidder's edge: disc = player number (edges in the legend); the leading bid is "
            "framed; workers on a tile are its uses")
    d.text(draw, (x0 + PAD + tw + 16, y0 + 22), d.ellipsize(note, 15, x1 - x0 - 2 * PAD - tw - 16), 15, d.MUTED,
           anchor="lm")
    per_row = _cells_per_row()
    locs = _locations(view)
    top = y0 + 44
    if CELESTE_LOC in locs:
        _celeste_line(draw, view, x0 + PAD, top + CELESTE_LINE_H / 2 - 4, x1 - PAD)
        top += CELESTE_LINE_H
    for i, loc in enumerate(locs):
        row, col = divmod(i, per_row)
        in_row = min(per_row, len(locs) - row * per_row)
        left = x0 + (x1 - x0 - in_row * CELL_W) // 2
        cx = left + col * CELL_W + CELL_W / 2
        cy = top + row * CELL_H + CELL_H / 2
        _auction_cell(draw, view, loc, cx, cy, players, (x0 + 6, x1 - 6))


def _celeste_line(draw: d.Pen, view: View, x: float, cy: float, right: float) -> None:
    """Key Celeste's line: what its face gives, and where the ghost is (who holds it is public, F-38)."""
    face = _celeste(view).get("face")
    tile = COMPONENTS.key_celeste
    x += d.text(draw, (x, cy), "Key Celeste", 17, bold=True, anchor="lm") + 8
    if face == "winter":
        what = (f"winter face: its winner takes the tile into their village ({tile.points} pts, {tile.ghost_points} "
                "more with the ghost).")
    else:
        what = "spring-autumn face: its winner takes the ghost (not the tile)."
    x += d.text(draw, (x, cy), what, 16, anchor="lm") + 14
    ghost = _ghost(view)
    if ghost is None:
        return
    _ghost_icon(draw, x + 10, cy, 26)
    x += 26
    segments: list[str | tuple[int | None, str]] = []  # words, or a seat's disc and name with what follows it
    if ghost.gone:
        segments = ["Ghost: gone (played in winter)."]
    elif ghost.played is not None:
        wins = _ghost_wins_for(view, ghost.played)
        segments = ["Ghost: played by", (ghost.holder, ""), f"on {_title(ghost.played)}; the ghost wins it for"]
        segments.append((wins, ".") if wins is not None else "the bid it replaced.")
    elif ghost.holder is not None:
        segments = ["Ghost:", (ghost.holder, ""), "holds it (public) and may play it in place of another player's "
                    "winning bid."]
    else:
        segments = ["Ghost: on Key Celeste."]
    for seg in segments:
        if isinstance(seg, tuple):
            seat, after = seg
            if seat is not None:
                _seat_disc(draw, x + 11, cy, seat)
                x += 26
            name = d.ellipsize(_name(view, seat), 16, 160, bold=True) + after
            x += d.text(draw, (x, cy), name, 16, bold=True, anchor="lm") + 5
        elif (room := int(right - x)) > 20:
            x += d.text(draw, (x, cy), d.ellipsize(seg, 16, room), 16, anchor="lm") + 5


def _auction_cell(draw: d.Pen, view: View, loc: str, cx: float, cy: float, players: int,
                  span: tuple[float, float]) -> None:
    """One location: its hex with title, effect and uses, and a chip outside each bidder's edge (kept within the
    panel's span); a played ghost in the place of the bid it replaced."""
    r = AUCTION_R
    number = _order_number(loc)
    uses = _uses(view, loc)
    start_icon = False
    ghost = _ghost(view)
    played_here = ghost is not None and ghost.played == loc
    wins_for = _ghost_wins_for(view, loc)
    if number is not None:
        effect, start_icon = _order_effect(number, players)
    elif loc == CELESTE_LOC:
        effect = ""  # its face is drawn below, in lines of its own
    else:
        effect = _effect(loc, False)
    footer = "start player" if start_icon else ""
    if uses and _usable(loc):
        placed = sum(_size(u[1]) for u in uses)
        need = _size(uses[-1][1]) + 1
        footer = f"next use {need}+" if placed + need <= 6 else "full (6)"
    if played_here:
        footer = "ghost wins"
    _hex(draw, cx, cy, r, loc, False, _title(loc))
    _hex_text(draw, cx, cy, r, HexText(effect, uses=uses, footer=footer, start_icon=start_icon))
    if loc == CELESTE_LOC:
        _celeste_cell(draw, view, cx, cy, r)
    elif played_here and wins_for is None:  # the seat it wins for is not in the view: the ghost at the east corner
        _ghost_icon(draw, cx + r + 4, cy, 30)
    bids = _bids(view, loc)
    lead = None if played_here else _leader(bids)
    for seat, parts, flat in bids:
        edge = _edge_of(seat, players)
        if edge not in (0, 3) and _stacked(parts):
            _side_stack(draw, cx, cy, r, edge, (seat, parts, flat), seat == lead, span)
            continue
        bx, by = _bid_centre(cx, cy, r, edge, _chip_width(parts), span)
        _chip(draw, bx, by, seat, parts, flat, lead=seat == lead)
    if wins_for is not None:
        bx, by = _bid_centre(cx, cy, r, _edge_of(wins_for, players), GHOST_CHIP_W, span)
        _ghost_chip(draw, bx, by, wins_for)


def _celeste_cell(draw: d.Pen, view: View, cx: float, cy: float, r: float) -> None:
    """Key Celeste's face in two lines across the hex's middle, and the ghost at its east corner: standing on the
    tile, or with the number disc of the player holding it."""
    band = _band(r)
    for line, mid in zip(_celeste_face(view), (cy - 5, cy + 11), strict=True):
        worst = abs(mid - cy) + 7
        room = int(2 * _half_width(r, worst) - 2 * band - 4)
        size = next((k for k in (14, 13) if d.text_width(line, k) <= room), 12)
        d.text(draw, (cx, mid), line, size, (64, 60, 54), anchor="mm")
    ghost = _ghost(view)
    if ghost is not None and ghost.on_tile:
        _ghost_icon(draw, cx + r + 2, cy, 32)
    elif ghost is not None and ghost.held is not None:
        _ghost_icon(draw, cx + r + 2, cy, 32)
        _seat_disc(draw, cx + r + 26, cy + 6, ghost.held)


def _bid_centre(cx: float, cy: float, r: float, edge: int, width: int,
                span: tuple[float, float] = (0, WIDTH)) -> tuple[float, float]:
    """Where a bid chip of this width sits: just outside its edge, clear of the hex, and inside span (a wide group
    with Sven or Paulo at the panel's side)."""
    ux, uy = _outward(edge)
    apothem = r * SQRT3 / 2
    if edge in (0, 3):
        return cx, cy + uy * (apothem + 19)
    side = 1 if ux > 0 else -1
    x = cx + ux * (apothem + 6) + side * (width / 2 + 4)
    return min(max(x, span[0] + width / 2 + 4), span[1] - width / 2 - 4), cy + uy * (apothem + 6)


def _usable(tile_id: str) -> bool:
    """Whether a tile up for auction may be used for its output (not winter, summer boat, storage, points)."""
    tile = TILES.get(tile_id)
    return tile is not None and tile.kind not in ("winter", "summerboat") and tile.front.kind in ("produce",
                                                                                                   "transport")


# --- Boats ---------------------------------------------------------------------------------------------


def _boats_height(view: View) -> int:
    """The boats panel (0 without boats)."""
    boats = view.get("boats") or []
    if not boats:
        return 0
    return 44 + _card_height(view) + 10


KEYMELEQUIN_LINE_H = 24


def _card_height(view: View) -> int:
    """A boat card's height: a line more when the Keymelequin (module) is among the boats."""
    boats: Sequence[Mapping[str, Any]] = view.get("boats") or []
    mele = any(str(b.get("id")) == KEYMELEQUIN for b in boats)
    return BOAT_CARD_H + (KEYMELEQUIN_LINE_H if mele else 0)


def _picking(view: View) -> list[int]:
    """Who picks a boat, in order, among those yet to pick (the view's `picking`; reference §7)."""
    return [int(s) for s in view.get("picking") or []]


def _boats(draw: d.Pen, view: View, box: Box) -> None:
    """One card per boat: its name and face, the workers by colour and skills by kind on it (in winter its
    scoring), and who took it."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    season = str(view.get("season") or "")
    face = BOAT_FACE.get(season, "a")
    winter = season == "winter"
    face_text = "summer face (b)" if season == "summer" else "winter face (b)" if winter else "spring/autumn face (a)"
    tw = d.text(draw, (x0 + PAD, y0 + 22), "BOATS", 20, bold=True, anchor="lm")
    note = face_text + ("; taken as village tiles at the end of winter" if winter else
                        "; picked in turn order at the end of the season")
    if view.get("phase") == "boats":
        order = _picking(view)
        if order:
            note += ". Picking: " + ", ".join(f"{s + 1} {_name(view, s)}" for s in order)
    d.text(draw, (x0 + PAD + tw + 14, y0 + 22), d.ellipsize(note, 16, x1 - x0 - 2 * PAD - tw - 14), 16, d.MUTED,
           anchor="lm")
    boats: Sequence[Mapping[str, Any]] = view.get("boats") or []
    n = max(4, len(boats))
    card_w = (x1 - x0 - 2 * PAD - 10 * (n - 1)) // n
    card_h = _card_height(view)
    for i, boat in enumerate(boats):
        bx = x0 + PAD + i * (card_w + 10)
        _boat_card(draw, view, boat, (bx, y0 + 44, bx + card_w, y0 + 44 + card_h), face, winter)


def _boat_card(draw: d.Pen, view: View, boat: Mapping[str, Any], box: Box, face: str,
               winter: bool) -> None:
    """A boat: name, load or winter scoring, taker; the Keymelequin also says who is aboard, its load (marked '*':
    Keywood's figures, F-2) and the boat it replaced."""
    x0, y0, x1, y1 = box
    boat_id = str(boat.get("id"))
    taken = boat.get("taken")
    fill = KIND_FILL["boat"] if taken is None else d.lighter(KIND_FILL["boat"], 0.6)
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=d.INK if taken is None else d.FAINT, width=2)
    name = _title(boat_id)
    d.text(draw, (x0 + 10, y0 + 16), d.ellipsize(name, 18, x1 - x0 - 50, bold=True), 18, bold=True, anchor="lm")
    d.text(draw, (x1 - 10, y0 + 16), face, 16, d.MUTED, bold=True, anchor="rm")
    workers: Mapping[str, int] = boat.get("workers") or {}
    raw_skills = boat.get("skills")
    skills: Mapping[str, int] = raw_skills if isinstance(raw_skills, Mapping) else {}
    skill_total = sum(int(v) for v in skills.values()) if skills else int(raw_skills or 0)
    y = y0 + 42
    if isinstance(taken, int) and not winter:
        d.text(draw, (x0 + 10, y), "load taken", 15, d.MUTED, anchor="lm")
    elif winter:
        text = "winter: " + _ascii(BOAT_SCORING.get(boat_id, ("?",))[0])
        d.text_box(draw, (x0 + 10, y0 + 30, x1 - 10, y0 + 88), text, 16, 14, align="left", valign="top")
    else:
        x = x0 + 10
        total = sum(int(v) for v in workers.values())
        x += d.text(draw, (x, y), f"{total} workers", 15, d.MUTED, anchor="lm") + 6
        for colour in _kind_order(workers):
            count = int(workers.get(colour, 0))
            if count and x + _worker_pill_width(colour, count) <= x1 - 6:
                x += _worker_pill(draw, x, y, colour, count) + 4
        y += 25
        words = ", ".join(f"{k} {int(skills[k])}" for k in [*SKILLS, *sorted(s for s in skills if s not in SKILLS)]
                          if int(skills.get(k, 0)))
        text = f"{skill_total} skill{'' if skill_total == 1 else 's'}" + (f": {words}" if words else "")
        d.text(draw, (x0 + 10, y), d.ellipsize(text, 15, x1 - x0 - 20), 15, anchor="lm")
    if boat_id == KEYMELEQUIN:
        _keymelequin_line(draw, view, workers, face, (x0 + 10, y0 + 42 + 50, x1 - 10))
    ty = y1 - 17
    if isinstance(taken, int):
        d.text(draw, (x0 + 10, ty), "taken by", 15, d.MUTED, anchor="lm")
        _seat_disc(draw, x0 + 86, ty, taken)
        d.text(draw, (x0 + 102, ty), d.ellipsize(_name(view, taken), 16, x1 - x0 - 110, bold=True), 16, bold=True,
               anchor="lm")
    else:
        d.text(draw, (x0 + 10, ty), "not taken", 15, d.MUTED, anchor="lm")


def _keymelequin_line(draw: d.Pen, view: View, workers: Mapping[str, int], face: str,
                      where: tuple[float, float, float]) -> None:
    """The Keymelequin's own line: who is aboard (Sven in spring, Paulo in summer), the load it takes from the bag
    ('*': the sheet's icons are lost, Keywood's figures, F-2) and the boat it replaced at set-up."""
    x, y, right = where
    boat = COMPONENTS.keymelequin
    load = (boat.workers_b, boat.skills_b) if face == "b" else (boat.workers_a, boat.skills_a)
    mark = "*" if boat.provenance == "reconstructed" else ""
    aboard = [kp.NAMES.get(k, k) for k in _kind_order(workers) if k in kp.WILD and int(workers.get(k, 0))]
    modules: Mapping[str, Any] = view.get("modules") or {}
    replaced = str(modules.get("keymelequin") or "")
    words = [f"{' and '.join(aboard)} aboard"] if aboard else []
    words.append(f"load {load[0]} + {load[1]} skill{mark}")
    if replaced:
        words.append(f"replaces {_title(replaced)}")
    d.text(draw, (x, y), d.ellipsize("; ".join(words), 15, int(right - x)), 15, anchor="lm")


# --- Players -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Panel:
    """One player's panel: its seat, the hex size, the village's placed and open positions, and its size."""

    seat: int
    r: float
    placed: dict[Pos, Mapping[str, Any]]
    slots: tuple[Pos, ...]
    width: int
    height: int
    info_rows: int


def _village(view: View, seat: int) -> dict[Pos, Mapping[str, Any]]:
    """A seat's placed tiles by position."""
    villages: Sequence[Mapping[str, Mapping[str, Any]]] = view.get("villages") or []
    village = villages[seat] if seat < len(villages) else {}
    found: dict[Pos, Mapping[str, Any]] = {}
    for key, placed in village.items():
        pos = _pos(str(key))
        if pos is not None:
            found[pos] = placed
    return found


def _won(view: View, seat: int) -> list[str]:
    """The tiles a seat has won and not placed yet."""
    won: Sequence[Sequence[str]] = view.get("won") or []
    return [str(t) for t in won[seat]] if seat < len(won) else []


def _open_slots(view: View, seat: int, placed: Mapping[Pos, Mapping[str, Any]]) -> tuple[Pos, ...]:
    """Where the seat's won tiles may go, while villages grow (edges matching; summer boat 2a: anywhere)."""
    won = _won(view, seat)
    if view.get("phase") != "place" or not won or not placed:
        return ()
    village = {p: vg.Placed(str(v.get("tile")), bool(v.get("up"))) for p, v in placed.items()}
    owned = [str(v.get("tile")) for v in placed.values()] + won
    free = any(t.startswith("summerboat-") and t.endswith("2a") for t in owned)
    spots: set[Pos] = set()
    for tile_id in won:
        spots.update(vg.places(village, tile_id, _sides, free) or vg.places(village, tile_id, _sides, True))
    return tuple(sorted(spots))


def _extent(positions: Sequence[Pos], r: float) -> tuple[float, float, float, float]:
    """The pixel box (left, top, right, bottom) of hexes at these positions, relative to the home tile's centre."""
    xs = [_centre(p, r)[0] for p in positions]
    ys = [_centre(p, r)[1] for p in positions]
    return min(xs) - r, min(ys) - r * SQRT3 / 2, max(xs) + r, max(ys) + r * SQRT3 / 2


def _info_rows(view: View, seat: int) -> int:
    """Rows of facts under a panel's name: the screen, and (when any) the tiles to place, the opened screen."""
    rows = 1
    if _won(view, seat):
        rows += 1
    if _opened(view, seat) is not None:
        rows += 1
    return rows


def _opened(view: View, seat: int) -> Mapping[str, Any] | None:
    """The seat's screen as opened for the final count (game over only)."""
    opened: Sequence[Mapping[str, Any]] = view.get("screens_opened") or []
    return opened[seat] if seat < len(opened) else None


def _panel(view: View, seat: int) -> Panel:
    """Measure one player's panel at the largest hex size (up to VILLAGE_R) that fits the width."""
    placed = _village(view, seat)
    slots = _open_slots(view, seat, placed)
    positions = [*placed, *slots] or [(0, 0)]
    r = float(VILLAGE_R)
    left, top, right, bottom = _extent(positions, r)
    if right - left + 2 * PAD > INNER:
        r = max(MIN_VILLAGE_R, r * (INNER - 2 * PAD) / (right - left))
        left, top, right, bottom = _extent(positions, r)
    rows = _info_rows(view, seat)
    width = max(PANEL_MIN_W, int(right - left) + 2 * PAD)
    height = PANEL_HEAD_H + rows * INFO_ROW_H + 8 + int(bottom - top) + PAD
    return Panel(seat, r, placed, slots, width, height, rows)


def _player_rows(view: View) -> list[tuple[list[Panel], int]]:
    """The panels in seat order, packed into rows of the image's width; each row with its height."""
    rows: list[tuple[list[Panel], int]] = []
    current: list[Panel] = []
    for seat in range(len(_names(view))):
        panel = _panel(view, seat)
        if current and sum(p.width for p in current) + GAP * len(current) + panel.width > INNER:
            rows.append((current, max(p.height for p in current)))
            current = []
        current.append(panel)
    if current:
        rows.append((current, max(p.height for p in current)))
    return rows


def _player(draw: d.Pen, view: View, panel: Panel, box: Box) -> None:
    """A player's panel: number, name and badges; the public counts; tiles to place; the village."""
    x0, y0, x1, y1 = box
    seat = panel.seat
    to_act = seat in {int(s) for s in view.get("to_act") or []}
    draw.rounded_rectangle(box, radius=14, fill=TO_ACT_FILL if to_act else d.PANEL,
                           outline=d.HIGHLIGHT if to_act else d.GRID, width=4 if to_act else 2)
    cy = y0 + PANEL_HEAD_H / 2 + 2
    _seat_disc(draw, x0 + PAD + 15, cy, seat, 15)
    x = x0 + PAD + 38
    name_room = x1 - x - 230
    x += d.text(draw, (x, cy), d.ellipsize(_name(view, seat), 22, max(80, name_room), bold=True), 22, bold=True,
                anchor="lm") + 10
    if to_act:
        x += _pill(draw, x, cy, "TO ACT", d.HIGHLIGHT, (255, 255, 255)) + 6
    if view.get("start_player") == seat:
        _keyple_icon(draw, x + 12, cy, 30, "purple")
        x += 28 + _pill(draw, x + 28, cy, "START", KEYPLE_FILL["purple"], (255, 255, 255)) + 6
    ghost = _ghost(view)
    if ghost is not None and ghost.held == seat:  # who holds the ghost is public (F-38)
        _ghost_icon(draw, x + 12, cy, 30)
        x += 28 + _pill(draw, x + 28, cy, "GHOST", (96, 100, 116), (255, 255, 255)) + 6
    players = len(_names(view))
    edge = EDGE_NAMES[_edge_of(seat, players)]
    d.text(draw, (x1 - PAD, cy), f"bids on edge {edge}", 15, d.MUTED, anchor="rm")
    y = y0 + PANEL_HEAD_H + INFO_ROW_H / 2
    screens = _seat_count(view, "screens", seat)
    skills = _seat_count(view, "skills_held", seat)
    winter = _seat_count(view, "winter_in_hand", seat)
    facts = [("Screen", f"{screens} worker{'' if screens == 1 else 's'}, {skills} skill{'' if skills == 1 else 's'}"),
             ("Winter tiles in hand", str(winter))]
    x = x0 + PAD
    for label, value in facts:
        x += d.text(draw, (x, y), label, 16, d.MUTED, anchor="lm") + 6
        x += d.text(draw, (x, y), value, 17, bold=True, anchor="lm") + 20
    y += INFO_ROW_H
    opened = _opened(view, seat)
    if opened is not None:
        x = x0 + PAD + d.text(draw, (x0 + PAD, y), "Opened:", 16, d.MUTED, anchor="lm") + 8
        workers: Mapping[str, int] = opened.get("workers") or {}
        for colour in _kind_order(workers):
            if int(workers.get(colour, 0)):
                x += _worker_pill(draw, x, y, colour, int(workers[colour])) + 4
        held: Mapping[str, int] = opened.get("skills") or {}
        words = ", ".join(f"{k} {int(held[k])}" for k in SKILLS if int(held.get(k, 0)))
        d.text(draw, (x + 8, y), d.ellipsize(words or "no skills", 16, max(40, int(x1 - x - 20))), 16,
               anchor="lm")
        y += INFO_ROW_H
    won = _won(view, seat)
    if won:
        x = x0 + PAD + d.text(draw, (x0 + PAD, y), "Won, to place:", 16, d.MUTED, anchor="lm") + 8
        text = ", ".join(_title(t) for t in won)
        d.text(draw, (x, y), d.ellipsize(text, 17, int(x1 - PAD - x), bold=True), 17, bold=True, anchor="lm")
    top = y0 + PANEL_HEAD_H + panel.info_rows * INFO_ROW_H + 8
    _village_hexes(draw, view, panel, (x0, top, x1, y1 - PAD))


def _village_hexes(draw: d.Pen, view: View, panel: Panel, box: Box) -> None:
    """A village centred in the box: open places (dashed, with their coordinates) and placed tiles."""
    x0, y0, x1, y1 = box
    r = panel.r
    positions = [*panel.placed, *panel.slots] or [(0, 0)]
    left, top, right, _ = _extent(positions, r)
    ox = (x0 + x1) / 2 - (left + right) / 2
    oy = y0 - top
    for pos in panel.slots:
        cx, cy = _centre(pos, r)
        corners = _corners(ox + cx, oy + cy, r - 3)
        for k in range(6):
            (ax, ay), (bx, by) = corners[k], corners[(k + 1) % 6]
            for t in range(0, 10, 2):
                draw.line((ax + (bx - ax) * t / 10, ay + (by - ay) * t / 10, ax + (bx - ax) * (t + 1) / 10,
                           ay + (by - ay) * (t + 1) / 10), fill=SLOT_INK, width=2)
        d.text(draw, (ox + cx, oy + cy), f"{pos[0]}/{pos[1]}", 16, SLOT_INK, bold=True, anchor="mm")
    tiles = sorted(panel.placed.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    for pos, placed in tiles:
        cx, cy = _centre(pos, r)
        tile_id = str(placed.get("tile"))
        _hex(draw, ox + cx, oy + cy, r, tile_id, bool(placed.get("up")), _title(tile_id))
    ghost = _ghost(view)
    with_ghost = ghost is not None and ghost.held == panel.seat  # Key Celeste scores more with its owner's ghost
    for pos, placed in tiles:
        cx, cy = _centre(pos, r)
        tile_id = str(placed.get("tile"))
        up = bool(placed.get("up"))
        body = HexText(_effect(tile_id, up), res=placed.get("res") or {},
                       stored=placed.get("stored") or {}, uses=_uses(view, tile_id), footer=f"{pos[0]}/{pos[1]}",
                       up=up, ghost_icon=with_ghost and tile_id == CELESTE_LOC)
        _hex_text(draw, ox + cx, oy + cy, r, body)


# --- Legend --------------------------------------------------------------------------------------------


def _modules(view: View) -> tuple[bool, bool]:
    """Which modules the game plays with: (Keymelequin, Key Celeste)."""
    modules: Mapping[str, Any] = view.get("modules") or {}
    return bool(modules.get("keymelequin")), bool(modules.get("key_celeste"))


def _legend_height(view: View) -> int:
    """Three lines of keys, a fourth for the modules."""
    return (4 if any(_modules(view)) else 3) * 34 + 16


def _legend(draw: d.Pen, view: View, box: Box) -> None:
    """The legend's fixed lines (_legend_keys, drawn once per place and modules), then the bid edges of each
    player."""
    x0, y0, x1, _ = box
    d.paste(draw, _legend_keys(box, _modules(view)), (x0, y0))
    y = y0 + 8 + 17 + 34 * (3 if any(_modules(view)) else 2)
    x = x0 + PAD
    x += d.text(draw, (x, y), "Bid edges", 17, bold=True, anchor="lm") + 12
    players = len(_names(view))
    for seat in range(players):
        _seat_disc(draw, x + 11, y, seat)
        label = f"{d.ellipsize(_name(view, seat), 16, 150)} {EDGE_NAMES[_edge_of(seat, players)]}"
        x += 26 + d.text(draw, (x + 26, y), label, 16, anchor="lm") + 16
    note = "q/r: village coordinates (0/0 home).  *: Keywood's own figure, not public (F-2)"
    d.text(draw, (x1 - PAD, y), d.ellipsize(note, 15, int(x1 - PAD - x - 10)), 15, d.MUTED, anchor="rm")


@d.kept(maxsize=8)
def _legend_keys(box: Box, modules: tuple[bool, bool]) -> d.Layer:
    """The legend's panel in box with the table's coordinates: keyple and resource letters, edges, badges, the
    modules' pieces."""
    x0, y0, x1, y1 = box
    _, draw = d.canvas(x1 - x0 + 1, y1 - y0 + 1, origin=(x0, y0))
    draw.rounded_rectangle(box, radius=12, fill=d.PANEL, outline=d.GRID, width=2)
    y = y0 + 8 + 17
    x = x0 + PAD
    x += d.text(draw, (x, y), "Keyples", 17, bold=True, anchor="lm") + 12
    for colour in KEYPLE_COLOURS:
        x += _worker_pill(draw, x, y, colour, None) + 5
        x += d.text(draw, (x, y), colour, 16, anchor="lm") + 14
    _keyple_icon(draw, x + 10, y, 28, "purple")
    x += 26 + d.text(draw, (x + 26, y), "purple: start player", 16, anchor="lm") + 18
    x += _worker_pill(draw, x, y, "red", 3, flat=True) + 5
    x += d.text(draw, (x, y), "lower case: laid flat (summer boat 4a/4b)", 16, anchor="lm") + 18
    _chip(draw, x + 30, y, 1, (("blue", 2),), False)
    d.text(draw, (x + 64, y), "player 2's bid or use", 16, anchor="lm")
    y += 34
    x = x0 + PAD
    x += d.text(draw, (x, y), "Resources", 17, bold=True, anchor="lm") + 12
    for kind in RESOURCES:
        x += _resource_chip(draw, x, y, kind, 1) + 5
        x += d.text(draw, (x, y), kind, 16, anchor="lm") + 14
    x += _resource_chip(draw, x + 3, y, "wood", 2, stored=True) + 11
    x += d.text(draw, (x, y), "framed: moved onto its storage tile in play (scores there)", 16, anchor="lm") + 18
    draw.line((x, y, x + 26, y), fill=ROAD, width=9)
    for k in (3, 11, 19):
        draw.line((x + k, y, x + k + 4, y), fill=ROAD_EDGE, width=2)
    x += 32 + d.text(draw, (x + 32, y), "road", 16, anchor="lm") + 14
    draw.line((x, y, x + 26, y), fill=WATER, width=7)
    x += 32 + d.text(draw, (x + 32, y), "water edge", 16, anchor="lm") + 14
    x += d.pill(draw, (x, y), "UP", 14, d.INK, ink=(255, 255, 255), pad=5) + 5
    d.text(draw, (x, y), "upgraded (double outline)", 16, anchor="lm")
    if any(modules):
        _legend_modules(draw, modules, x0 + PAD, y + 34)
    return d.layer(draw)


def _legend_modules(draw: d.Pen, modules: tuple[bool, bool], x: float, y: float) -> None:
    """The modules' pieces: Sven and Paulo (Keymelequin), the ghost and its chip (Key Celeste)."""
    mele, celeste = modules
    x += d.text(draw, (x, y), "Modules", 17, bold=True, anchor="lm") + 12
    if mele:
        for wild, words in (("sven", "Sven: blue or yellow"), ("paulo", "Paulo: green or red")):
            x += _worker_pill(draw, x, y, wild, None) + 5
            x += d.text(draw, (x, y), words, 16, anchor="lm") + 14
        x += _chip_width((("sven", 1), ("yellow", 2))) // 2
        _chip(draw, x, y, 0, (("sven", 1), ("yellow", 2)), False)
        x += _chip_width((("sven", 1), ("yellow", 2))) // 2 + 6
        x += d.text(draw, (x, y), "a bid of 3 with Sven", 16, anchor="lm") + 18
    if celeste:
        _ghost_icon(draw, x + 10, y, 28)
        x += 26 + d.text(draw, (x + 26, y), "the ghost (Key Celeste): its holder is public", 16, anchor="lm") + 18
        _ghost_chip(draw, x + GHOST_CHIP_W / 2 + 4, y, 1)
        d.text(draw, (x + GHOST_CHIP_W + 14, y), "played: wins the tile for player 2", 16, anchor="lm")


__all__ = ["check_public", "render", "render_scoreboard"]

