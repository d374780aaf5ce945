"""What the Keyflower table's picture reads: the public view (engine.keyflower.view.KfView, by plain subscripts) and
the pieces' names, effects and edges (engine.keyflower.pieces and lookup)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.keyflower import keyples as kp
from engine.keyflower import village as vg
from engine.keyflower.components import COMPONENTS
from engine.keyflower.flow import BOAT_FACE, SEASONS
from engine.keyflower.lookup import BOAT_SCORING, effect_short, reconstructed_values
from engine.keyflower.pieces import (
    BOATS,
    KEY_CELESTE,
    KEYMELEQUIN,
    TILES,
    edges,
    is_boat,
    order_face,
    order_number,
    shown_face,
)
from engine.keyflower.state import Bid, Use
from engine.keyflower.view import KfView, ScreenView, VillageTileView, place
from render.keyflower.look import ORDINAL

Pos = vg.Pos
Parts = tuple[tuple[str, int], ...]  # a group of keyples by kind, in drawing order: (("sven", 1), ("blue", 2))
Bidding = tuple[int, Parts, bool]  # seat, keyples, flat
Using = tuple[int, Parts, bool]


def check_public(view: Mapping[str, object]) -> None:
    """Raise ValueError unless view is the public view: no viewer and nothing from behind a screen."""
    if view["viewer"] is not None:
        raise ValueError(f"render needs the public view, not seat {view['viewer']}'s view")
    for key in ("workers", "skills", "winter_hand", "legal"):
        if key in view:
            raise ValueError(f"render needs the public view: this one shows a seat's {key.replace('_', ' ')}")


def name_of(view: KfView, seat: int | None) -> str:
    """A seat's name, '?' for an unknown seat."""
    names = view["names"]
    return str(names[seat]) if seat is not None and 0 <= seat < len(names) else "?"


def kind_order(kinds: Iterable[str]) -> list[str]:
    """Keyple kinds in drawing order: Sven and Paulo first, then blue, red, yellow, green, then anything else."""
    order = {k: i for i, k in enumerate((*kp.WILD, *kp.COLOURS))}
    return sorted(kinds, key=lambda k: (order.get(k, len(order)), k))


def parts_of(label: str, count: int, group: Mapping[str, int] | None) -> Parts:
    """The keyples of a bid or use: its group by kind when it has one ({"sven": 1, "yellow": 2}), else its one
    colour (a label such as 'blue/yellow' without a group stays one part)."""
    if group is not None:
        found = {str(k): int(v) for k, v in group.items() if int(v)}
        if found:
            return tuple((k, found[k]) for k in kind_order(found))
    return ((label, count),)


def size(parts: Parts) -> int:
    """How many keyples a group holds."""
    return sum(n for _, n in parts)


def _parts(entry: Bid | Use) -> Parts:
    """A bid's or use's keyples in drawing order."""
    return parts_of(entry.label, entry.count, entry.group)


def bids_at(view: KfView, loc: str) -> list[Bidding]:
    """The bids with workers at a location, by seat."""
    return sorted((s, _parts(b), b.flat) for s, b in place(view, loc).bids.items() if b.count)


def uses_at(view: KfView, loc: str) -> list[Using]:
    """The workers using a tile this season, in order; none once the season's turns are over (they have gone
    behind the screens or into the bag by then, though the view still lists them)."""
    if view["phase"] != "turns":
        return []
    return [(u.seat, _parts(u), u.flat) for u in place(view, loc).uses]


def leader(bids: Sequence[Bidding]) -> int | None:
    """The seat whose bid leads (the most workers; bids never tie)."""
    return max(bids, key=lambda b: size(b[1]))[0] if bids else None


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


def ghost_of(view: KfView) -> Ghost | None:
    """The ghost (None without Key Celeste)."""
    if not view["modules"]["key_celeste"]:
        return None
    ghost = view["ghost"]
    return Ghost(ghost["holder"], ghost["played"] or None, ghost["gone"])


def celeste_on_table(view: KfView) -> bool:
    """Whether Key Celeste (module) still takes bids."""
    return view["modules"]["key_celeste"] and view["celeste"]["on_table"]


def celeste_in_winter(view: KfView) -> bool:
    """Whether Key Celeste shows its winter face (its winner takes the tile itself)."""
    return view["modules"]["key_celeste"] and view["celeste"]["face"] == "winter"


def ghost_wins_for(view: KfView, loc: str) -> int | None:
    """The seat a played ghost wins this tile for (the bid it replaced), None when not shown."""
    ghost = ghost_of(view)
    return place(view, loc).ghost if ghost is not None and ghost.played == loc else None


def edge_of(seat: int, players: int) -> int:
    """The edge of every season and turn-order tile that belongs to a seat (bids sit there): seats spread round
    the hex clockwise from the south edge."""
    return (3 + seat * 6 // max(1, players)) % 6


def boat_face(view: KfView) -> str:
    """The face the boats show this season: 'a' in spring and autumn, 'b' in summer and winter."""
    return BOAT_FACE[SEASONS.index(view["season"])]


def village_of(view: KfView, seat: int) -> dict[Pos, VillageTileView]:
    """A seat's placed tiles by position."""
    return {vg.pos_of(key): placed for key, placed in view["villages"][seat].items()}


def opened_screen(view: KfView, seat: int) -> ScreenView | None:
    """The seat's screen as opened for the final count (game over only)."""
    return view["screens_opened"][seat] if view["phase"] == "over" else None


# --- Component facts -------------------------------------------------------------------------------------


def kind_of(tile_id: str) -> str:
    """What sort of piece an id names: a tile kind, 'boat', 'order', 'celeste' (Key Celeste) or 'unknown'."""
    if tile_id in TILES:
        return TILES[tile_id].kind
    if tile_id in BOATS or tile_id == KEYMELEQUIN:
        return "boat"
    if tile_id == KEY_CELESTE:
        return "celeste"
    if order_number(tile_id) is not None:
        return "order"
    return "unknown"


def edges_of(tile_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A piece's road and water edges; none for an id the data does not know."""
    try:
        return edges(tile_id)
    except KeyError:
        return (), ()


def sides_of(tile_id: str) -> vg.Sides:
    """A piece's edges in the village module's terms (unknown ids have none)."""
    roads, water = edges_of(tile_id)
    return vg.Sides.of(roads, water, is_boat(tile_id))


def title_of(tile_id: str) -> str:
    """The printed name ('Turn order 2' for a turn-order tile, the id for an unknown piece)."""
    if tile_id in TILES:
        tile = TILES[tile_id]
        return f"Home {tile.number}" if tile.kind == "home" else tile.name
    if tile_id in BOATS:
        return BOATS[tile_id].name
    if tile_id == KEYMELEQUIN:
        return COMPONENTS.keymelequin.name
    if tile_id == KEY_CELESTE:
        return COMPONENTS.key_celeste.name
    number = order_number(tile_id)
    return f"Turn order {number}" if number is not None else tile_id


def ascii_words(text: str) -> str:
    """The component wording in the characters the bundled font draws: 'pay saw, get 3 wood'."""
    arrow = " \u2192 "
    if text.startswith("\u2192 "):
        text = "get " + text[2:]
    elif arrow in text:
        pay, gain = text.split(arrow, 1)
        text = f"pay {pay}, get {gain}"
    text = re.sub(r"(\w)\+(\w)", r"\1 + \2", text)  # 'iron + stone + wood' can wrap
    return text.replace("\u2019", "'").encode("latin-1", "replace").decode("latin-1")


def effect_of(tile_id: str, up: bool) -> str:
    """What a piece does, in a few words; '*' when it rests on Keywood's own figures (F-2)."""
    if tile_id in TILES:
        tile = TILES[tile_id]
        face = shown_face(tile, up)
        own = reconstructed_values(tile)
        mark = "*" if ("back" if up else "front") in own or (face.kind == "points" and "points" in own) else ""
        return ascii_words(effect_short(tile, up)) + mark
    if tile_id in BOATS:
        return "boat: " + ascii_words(BOAT_SCORING.get(tile_id, ("?",))[0])
    if tile_id == KEY_CELESTE:
        kc = COMPONENTS.key_celeste
        mark = "*" if kc.provenance == "reconstructed" else ""  # the sides are Keywood's (F-42)
        return f"{kc.points} pts, +{kc.ghost_points} with ghost; sides{mark}"
    if order_number(tile_id) is not None:
        return "1 pt per connected tile"
    return ""


def celeste_face(view: KfView) -> tuple[str, str]:
    """What Key Celeste's face up gives its winner this season, in two lines."""
    if celeste_in_winter(view):
        tile = COMPONENTS.key_celeste
        return "winter: the tile", f"{tile.points} + {tile.ghost_points} w/ ghost"
    return "spring-autumn:", "the ghost"


def order_effect(number: int, players: int) -> tuple[str, bool]:
    """A turn-order tile up for bids: what it gives and whether it carries the start-player icon."""
    face = order_face(number, players)
    start = face is not None and face.start_icon
    return f"{ORDINAL.get(number, str(number))} boat pick", start
