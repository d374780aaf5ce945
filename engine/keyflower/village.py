"""One player's village: hex geometry, placing tiles, roads for transport, loops, the river and connections.

Spec "Village model" (kf-spec.md); reference sections 6 (transport), 7 step 6 (expanding villages), 8 (turn-order
tiles), 9.3 (Sea Bastion, Sea Breese) and 9.4 (summer boat 2a). Hexes are flat-topped in axial coordinates (q, r);
edge e (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW) of a tile meets edge (e + 3) % 6 of the neighbour across it. Tiles are
never rotated, so a tile's road and water edges are fixed data, passed in as `sides` (tile id -> its Sides) because
the component records are not this module's business. Every edge is exactly one of: road, water or field (no road).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Pos = tuple[int, int]
EdgeKind = Literal["road", "water", "field"]

HOME: Pos = (0, 0)
DIRS: tuple[Pos, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
EDGES = range(6)
EDGE_NAMES = ("N", "NE", "SE", "S", "SW", "NW")  # edge 0 .. 5 by its compass point

# Sea Breese points by the number of boats linked by river to the home tile (index = chain length). RECONSTRUCTED:
# the reference gives only "rising with the chain, at most 32"; a village holds at most 5 boats (its one winter boat
# plus the 4 summer boats), and doubling from 2 reaches exactly 32 at 5. Longer chains (impossible here) stay at 32.
SEA_BREESE_POINTS: tuple[int, ...] = (0, 2, 4, 8, 16, 32)
SEA_BREESE_MAX = 32


@dataclass(frozen=True)
class Sides:
    """A tile's fixed edges: which carry a road, which water, and whether the tile is a boat (or summer boat)."""

    roads: frozenset[int]
    water: frozenset[int]
    boat: bool = False

    def __post_init__(self) -> None:
        """Refuse edges outside 0..5 and an edge that is both road and water."""
        bad = sorted(e for e in self.roads | self.water if e not in EDGES)
        if bad:
            raise ValueError(f"edges must be 0..5, got {bad}")
        both = sorted(self.roads & self.water)
        if both:
            raise ValueError(f"edges {both} cannot be both road and water")

    @classmethod
    def of(cls, roads: Iterable[int] = (), water: Iterable[int] = (), boat: bool = False) -> Sides:
        """Sides from any iterables of edge numbers (e.g. a component record's tuples)."""
        return cls(frozenset(roads), frozenset(water), boat)

    def kind(self, edge: int) -> EdgeKind:
        """What edge `edge` of this tile is: road, water or field."""
        if edge in self.roads:
            return "road"
        if edge in self.water:
            return "water"
        return "field"


@dataclass(frozen=True)
class Placed:
    """A tile in a village: its id and whether it has been flipped to its back."""

    tile: str
    upgraded: bool = False


Village = Mapping[Pos, Placed]
SidesOf = Callable[[str], Sides]
Move = tuple[Pos, Pos, int]


def pos_of(key: str) -> Pos:
    """(q, r) of a village key "q/r"; raises ValueError for a malformed one."""
    q, r = key.split("/")
    return int(q), int(r)


def key_of(pos: Pos) -> str:
    """The village key "q/r" of a position."""
    return f"{pos[0]}/{pos[1]}"


def neighbour(pos: Pos, edge: int) -> Pos:

    """The position across edge `edge` of `pos`."""
    dq, dr = DIRS[edge]
    return pos[0] + dq, pos[1] + dr


def opposite(edge: int) -> int:
    """The neighbour's edge that meets edge `edge`."""
    return (edge + 3) % 6


def edges_match(mine: Sides, edge: int, theirs: Sides) -> bool:
    """Whether my edge `edge` may meet the neighbour's facing edge (7.6: like to like; boats ignore water)."""
    a, b = mine.kind(edge), theirs.kind(opposite(edge))
    if mine.boat or theirs.boat:
        return (a == "road") == (b == "road")
    return a == b


def _touching(village: Village, pos: Pos) -> list[tuple[int, Pos]]:
    """(edge, neighbour position) for every placed tile touching `pos`."""
    return [(e, n) for e in EDGES if (n := neighbour(pos, e)) in village]


def can_place(village: Village, pos: Pos, tile: str, sides: SidesOf, free_edges: bool = False) -> bool:
    """Whether `tile` may go at `pos`: empty, touching the village, every touching edge matching (2a: any edges)."""
    if pos in village:
        return False
    touching = _touching(village, pos)
    if not touching:
        return False
    if free_edges:
        return True
    mine = sides(tile)
    return all(edges_match(mine, e, sides(village[n].tile)) for e, n in touching)


def places(village: Village, tile: str, sides: SidesOf, free_edges: bool = False) -> list[Pos]:
    """Every position where `tile` may be placed, sorted."""
    frontier = {neighbour(p, e) for p in village for e in EDGES} - set(village)
    return sorted(p for p in frontier if can_place(village, p, tile, sides, free_edges))


def placing_spots(village: Village, tile: str, sides: SidesOf, free_edges: bool = False) -> list[Pos]:
    """Where a won tile may go (7.6): where its edges match those it touches (2a: any edges), or, when it matches
    nowhere, anywhere touching the village."""
    return places(village, tile, sides, free_edges) or places(village, tile, sides, True)


def _linked(
village: Village, sides: SidesOf, pos: Pos, across_fields: bool) -> list[Pos]:
    """Tiles a resource on `pos` can step to: by road to road, or (2a) across any shared edge."""
    if across_fields:
        return [n for _, n in _touching(village, pos)]
    mine = sides(village[pos].tile)
    return [n for e, n in _touching(village, pos) if e in mine.roads and opposite(e) in sides(village[n].tile).roads]


def road_steps(village: Village, sides: SidesOf, start: Pos, across_fields: bool = False) -> dict[Pos, int]:
    """Fewest steps from `start` to every tile reachable along roads (2a: across fields too); start is 0."""
    if start not in village:
        raise ValueError(f"no tile at {start}")
    steps = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in _linked(village, sides, here, across_fields):
            if there not in steps:
                steps[there] = steps[here] + 1
                queue.append(there)
    return steps


def transport_routes(
    village: Village, sides: SidesOf, start: Pos, capacity: int, across_fields: bool = False
) -> dict[Pos, int]:
    """Tiles (not start) one resource on `start` can reach with `capacity` resource-steps, with the steps (6)."""
    return {p: s for p, s in road_steps(village, sides, start, across_fields).items() if 0 < s <= capacity}


def transport_cost(village: Village, sides: SidesOf, moves: Sequence[Move], across_fields: bool = False) -> int:
    """Resource-steps used by moves (from, to, n): the sum of n times the road steps (6); unreachable refused."""
    total = 0
    for src, dst, n in moves:
        if n < 0:
            raise ValueError(f"cannot move {n} resources")
        steps = road_steps(village, sides, src, across_fields)
        if dst not in steps:
            raise ValueError(f"{dst} cannot be reached from {src}")
        total += n * steps[dst]
    return total


def _road_graph(village: Village, sides: SidesOf) -> dict[Pos, set[Pos]]:
    """Each tile's neighbours joined to it road to road (real roads only)."""
    return {p: set(_linked(village, sides, p, across_fields=False)) for p in village}


def _reaches(graph: Mapping[Pos, set[Pos]], src: Pos, dst: Pos, cut: frozenset[Pos]) -> bool:
    """Whether src reaches dst in the graph without using the link between the two tiles of `cut`."""
    seen = {src}
    queue = deque([src])
    while queue:
        here = queue.popleft()
        if here == dst:
            return True
        for there in graph[here]:
            if there not in seen and frozenset((here, there)) != cut:
                seen.add(there)
                queue.append(there)
    return False


def road_loop_positions(village: Village, sides: SidesOf) -> frozenset[Pos]:
    """Tiles on some road loop that returns to its start without retracing a road (9.3 Sea Bastion; 2a no help)."""
    graph = _road_graph(village, sides)
    on_loop: set[Pos] = set()
    for a, links in graph.items():
        for b in links:
            if a < b and _reaches(graph, a, b, frozenset((a, b))):
                on_loop.update((a, b))
    return frozenset(on_loop)


def road_loop_tiles(village: Village, sides: SidesOf) -> int:
    """Sea Bastion: how many tiles lie in road loops (9.3)."""
    return len(road_loop_positions(village, sides))


def river_boats(village: Village, sides: SidesOf) -> list[Pos]:
    """Sea Breese: the boats linked to the home tile by river, water edge to water edge (9.3), sorted."""
    if HOME not in village:
        return []
    seen = {HOME}
    queue = deque([HOME])
    while queue:
        here = queue.popleft()
        mine = sides(village[here].tile)
        for e, there in _touching(village, here):
            if there not in seen and e in mine.water and opposite(e) in sides(village[there].tile).water:
                seen.add(there)
                queue.append(there)
    return sorted(p for p in seen if p != HOME and sides(village[p].tile).boat)


def sea_breese_points(chain_length: int) -> int:
    """Sea Breese points for this many river-linked boats (reconstructed 0, 2, 4, 8, 16, 32; at most 32)."""
    if chain_length < 0:
        raise ValueError(f"chain length {chain_length} < 0")
    return SEA_BREESE_POINTS[min(chain_length, len(SEA_BREESE_POINTS) - 1)]


def connections(village: Village, sides: SidesOf, pos: Pos, free_edges: bool = False) -> int:
    """Turn-order tile scoring: how many tiles touch `pos` by matching edges (8; 2a: every touching tile)."""
    if pos not in village:
        raise ValueError(f"no tile at {pos}")
    touching = _touching(village, pos)
    if free_edges:
        return len(touching)
    mine = sides(village[pos].tile)
    return sum(edges_match(mine, e, sides(village[n].tile)) for e, n in touching)
