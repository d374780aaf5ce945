"""Keyflower's pieces by id, as rules, texts and pictures all read them: village tiles (`alehouse`, `home-3`,
`summerboat-2a`), boats (the Keymelequin among them), turn-order tiles (`order-2`) and Key Celeste; the face a tile
shows, whether it can be used, its edges, and the summer boat powers among the tiles a player owns."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from engine.keyflower import village as vg
from engine.keyflower.component_records import KEY_CELESTE as KEY_CELESTE
from engine.keyflower.component_records import KEYMELEQUIN as KEYMELEQUIN
from engine.keyflower.components import COMPONENTS, Boat, Face, Tile, TurnOrderTile

ORDER = "order-"  # a turn-order tile's id: order-N
SUMMER_BOAT = "summerboat-"  # a summer boat face's id: summerboat-2a (its power: 2a)
PRODUCING = ("produce", "transport")  # the face kinds a use is for (reference §5)
UNUSABLE = ("winter", "summerboat")  # the tile kinds never used (reference §5, §9.4)

TILES: dict[str, Tile] = {t.id: t for t in COMPONENTS.tiles}
BOATS: dict[str, Boat] = {b.id: b for b in COMPONENTS.boats}


def tile(tile_id: str) -> Tile:
    """A village tile by id; raises KeyError for an unknown one."""
    return TILES[tile_id]


def is_tile(tile_id: str) -> bool:
    """Whether an id names a village tile (not a boat or a turn-order tile)."""
    return tile_id in TILES


def boat_tile(boat_id: str) -> Boat:
    """A boat tile by id, the Keymelequin included; raises KeyError for an unknown one."""
    return COMPONENTS.keymelequin if boat_id == KEYMELEQUIN else BOATS[boat_id]


def shown_face(t: Tile, up: bool) -> Face:
    """The face a tile shows: its back once upgraded (when it has one), else its front."""
    return t.back if up and t.back is not None else t.front


def usable_face(t: Tile, up: bool) -> bool:
    """Whether a tile showing this side may be used for its output: it produces or transports (never a winter tile,
    a summer boat, a storage or points-only tile; reference §5)."""
    return t.kind not in UNUSABLE and shown_face(t, up).kind in PRODUCING


def usable(tile_id: str, up: bool = False) -> bool:
    """usable_face() of a tile by id (False for anything but a village tile)."""
    return tile_id in TILES and usable_face(TILES[tile_id], up)



def order_number(tile_id: str) -> int | None:
    """N of a turn-order tile 'order-N', else None."""
    number = tile_id.removeprefix(ORDER)
    return int(number) if tile_id.startswith(ORDER) and number.isdigit() else None


def order_faces(number: int) -> list[TurnOrderTile]:
    """The faces of one turn-order tile, lowest player count first."""
    return [o for o in COMPONENTS.turn_order if o.number == number]


def order_face(number: int, players: int) -> TurnOrderTile | None:
    """The face of a turn-order tile that a player count uses (None when that count leaves the tile out)."""
    return next((o for o in order_faces(number) if o.players[0] <= players <= o.players[1]), None)


def edges(tile_id: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A piece's road edges and water edges, as its data lists them (it never rotates); raises KeyError for an
    unknown id."""
    if tile_id in TILES:
        return TILES[tile_id].roads, TILES[tile_id].water
    if tile_id in BOATS:
        return BOATS[tile_id].roads, BOATS[tile_id].water
    number = order_number(tile_id)
    for o in COMPONENTS.turn_order:
        if o.number == number:
            return o.roads, o.water
    if tile_id == KEY_CELESTE:
        return COMPONENTS.key_celeste.roads, COMPONENTS.key_celeste.water
    raise KeyError(tile_id)


def is_boat(tile_id: str) -> bool:
    """Whether a piece counts as a boat for its edges and the river: a boat, a summer boat, Key Celeste (F-42)."""
    return tile_id in BOATS or tile_id == KEYMELEQUIN or tile_id == KEY_CELESTE or (
        tile_id in TILES and TILES[tile_id].kind == "summerboat")


@cache
def sides(tile_id: str) -> vg.Sides:
    """A piece's road and water edges, whatever kind of piece it is; raises KeyError for an unknown id."""
    roads, water = edges(tile_id)
    return vg.Sides.of(roads, water, is_boat(tile_id))



def power_of(tile_id: str) -> str | None:
    """The power a summer boat face gives its owner ('2a' for summerboat-2a); None for any other tile."""
    return tile_id[-2:] if tile_id.startswith(SUMMER_BOAT) else None


def powers_of(owned: Iterable[str]) -> set[str]:
    """The summer boat powers ('2a', '3b', ...) among these tiles (a village's and those won, ruling F-17)."""
    return {power for t in owned if (power := power_of(t)) is not None}

