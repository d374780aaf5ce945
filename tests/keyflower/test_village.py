"""Village geometry: placing tiles, roads for transport, Sea Bastion loops, the Sea Breese river, turn-order tiles.

Spec "Village model" (kf-spec.md); reference (keyflower-base-and-modules.md) sections 6, 7 step 6, 8, 9.3 and 9.4.
Tile edge data is made up here per test through `sides` (tile id -> Sides), the way village.py takes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from engine.keyflower.village import (
    DIRS,
    HOME,
    SEA_BREESE_MAX,
    Placed,
    Pos,
    Sides,
    can_place,
    connections,
    edges_match,
    neighbour,
    opposite,
    places,
    river_boats,
    road_loop_positions,
    road_loop_tiles,
    road_steps,
    sea_breese_points,
    transport_cost,
    transport_routes,
)

S = Sides.of
FIELD = S()
# A home tile as the reference gives it (9.1, 7.6): five roads and one water side, here the water on edge 5 (NW).
HOME_SIDES = S(roads=(0, 1, 2, 3, 4), water=(5,))


class Table:
    """A made-up tile table: tile id -> Sides, callable as the `sides` parameter."""

    def __init__(self, table: Mapping[str, Sides]) -> None:
        """Keep the table."""
        self.table = dict(table)

    def __call__(self, tile: str) -> Sides:
        """The sides of one tile id."""
        return self.table[tile]


def village_of(layout: Mapping[Pos, Sides]) -> tuple[dict[Pos, Placed], Table]:
    """A village with one made-up tile per position (id = its position) and the table of their sides."""
    village = {p: Placed(f"t{p}") for p in layout}
    return village, Table({f"t{p}": s for p, s in layout.items()})


def edge_to(a: Pos, b: Pos) -> int:
    """The edge of a that faces the adjacent position b."""
    return next(e for e in range(6) if neighbour(a, e) == b)


def roads_between(links: Iterable[tuple[Pos, Pos]], extra: Iterable[Pos] = ()) -> dict[Pos, Sides]:
    """Tiles whose only roads run along the given links (plus road-less tiles at `extra`)."""
    roads: dict[Pos, set[int]] = {p: set() for p in extra}
    for a, b in links:
        roads.setdefault(a, set()).add(edge_to(a, b))
        roads.setdefault(b, set()).add(edge_to(b, a))
    return {p: S(roads=r) for p, r in roads.items()}


def ring(centre: Pos) -> list[Pos]:
    """The six positions round `centre`, in edge order."""
    return [neighbour(centre, e) for e in range(6)]


def ring_links(centre: Pos) -> list[tuple[Pos, Pos]]:
    """The six links joining the ring round `centre` into one loop."""
    cells = ring(centre)
    return [(cells[i], cells[(i + 1) % 6]) for i in range(6)]


# --- geometry --------------------------------------------------------------------------------------------------


def test_edges_meet_their_opposite_and_ring_neighbours_touch() -> None:
    """Spec, hexes: edge e of a tile meets edge (e+3)%6 of the neighbour across it; the ring round a hex is closed."""
    for e in range(6):
        assert neighbour(neighbour((2, -3), e), opposite(e)) == (2, -3)
        assert DIRS[opposite(e)] == (-DIRS[e][0], -DIRS[e][1])
    for a, b in ring_links((0, 0)):
        assert b in ring(a)


def test_sides_refuse_bad_edges() -> None:
    """Spec, hexes: edges are 0..5 and each is one of road, water or field."""
    with pytest.raises(ValueError):
        S(roads=(6,))
    with pytest.raises(ValueError):
        S(roads=(1,), water=(1,))
    assert [HOME_SIDES.kind(e) for e in range(6)] == ["road"] * 5 + ["water"]


# --- placing tiles (7.6, 9.4) -----------------------------------------------------------------------------------


def test_road_must_meet_road() -> None:
    """Reference 7 step 6: a home road side takes only a road side."""
    village, table = village_of({HOME: HOME_SIDES})
    table.table["road"] = S(roads=(3,))  # edge 3 (S) faces the home tile from the north
    table.table["field"] = FIELD
    north = neighbour(HOME, 0)
    assert can_place(village, north, "road", table)
    assert not can_place(village, north, "field", table)


def test_no_road_must_meet_no_road() -> None:
    """Reference 7 step 6: a field (no-road) side takes only a field side."""
    village, table = village_of({HOME: FIELD})
    table.table["road"] = S(roads=(3,))
    table.table["road elsewhere"] = S(roads=(0, 1))
    north = neighbour(HOME, 0)
    assert not can_place(village, north, "road", table)
    assert can_place(village, north, "road elsewhere", table)


def test_water_must_meet_water() -> None:
    """Reference 7 step 6: the home tile's water side takes only water; neither a road nor a field may touch it."""
    village, table = village_of({HOME: HOME_SIDES})
    west = neighbour(HOME, 5)  # across the home tile's water side; the newcomer's edge 2 faces it
    table.table["field"] = FIELD
    table.table["road"] = S(roads=(2,))
    table.table["water"] = S(water=(2,))
    assert not can_place(village, west, "field", table)
    assert not can_place(village, west, "road", table)
    assert can_place(village, west, "water", table)


def test_boats_need_not_join_water_to_water_but_roads_still_match() -> None:
    """Reference 7 step 6 (and 9.3 Sea Breese note 2): boats may turn a field to the water; road still meets road."""
    village, table = village_of({HOME: HOME_SIDES})
    west = neighbour(HOME, 5)
    table.table["boat, field to the water"] = S(water=(0, 3), boat=True)
    table.table["boat, road to the water"] = S(roads=(2,), boat=True)
    table.table["boat, field to a road"] = S(boat=True)
    assert can_place(village, west, "boat, field to the water", table)
    assert not can_place(village, west, "boat, road to the water", table)
    assert not can_place(village, neighbour(HOME, 0), "boat, field to a road", table)


def test_a_boats_water_side_may_touch_an_ordinary_field() -> None:
    """Reference 7 step 6: the boat exemption belongs to the meeting of two edges, whichever tile comes second."""
    boat = S(water=(2, 5), boat=True)
    assert edges_match(boat, 5, FIELD)
    assert edges_match(FIELD, 2, boat)
    assert not edges_match(FIELD, 2, S(water=(5,)))
    village, table = village_of({HOME: FIELD, neighbour(HOME, 0): boat})
    table.table["field"] = FIELD
    # the boat at (0,-1) turns its water edge 2 (SE) to (1,-1), which also touches the home tile field to field
    assert can_place(village, (1, -1), "field", table)


def test_a_tile_touching_several_neighbours_must_match_every_one() -> None:
    """Reference 7 step 6: every touching edge must match, not just one."""
    east = neighbour(HOME, 1)  # (1,-1), joined to the home tile by road
    village, table = village_of({HOME: HOME_SIDES, east: S(roads=(4,))})  # east has a field on edge 5
    target = neighbour(HOME, 0)  # (0,-1): its edge 3 faces HOME (road), its edge 2 faces east's edge 5 (field)
    assert neighbour(target, 2) == east
    table.table["both match"] = S(roads=(3,))
    table.table["home only"] = S(roads=(3, 2))
    table.table["east only"] = FIELD
    assert can_place(village, target, "both match", table)
    assert not can_place(village, target, "home only", table)
    assert not can_place(village, target, "east only", table)


def test_places_lists_only_matching_free_positions() -> None:
    """Reference 7 step 6: a tile with one road to the south fits only north of a five-road home with water."""
    village, table = village_of({HOME: HOME_SIDES})
    table.table["south road"] = S(roads=(3,))
    assert places(village, "south road", table) == [neighbour(HOME, 0)]
    assert places({}, "south road", table) == []


def test_boat_2a_places_anywhere_touching_but_not_on_or_away_from_tiles() -> None:
    """Reference 9.4, 2a: placed tiles need not match edges; they still go on an empty space touching the village."""
    village, table = village_of({HOME: HOME_SIDES})
    table.table["field"] = FIELD
    assert places(village, "field", table) == []
    assert places(village, "field", table, free_edges=True) == sorted(ring(HOME))
    assert not can_place(village, HOME, "field", table, free_edges=True)
    assert not can_place(village, (0, -2), "field", table, free_edges=True)


# --- transport (6, 9.4) -----------------------------------------------------------------------------------------


def line_village() -> tuple[dict[Pos, Placed], Table]:
    """Home with a north-south road of two tiles north of it, and a road-less tile north-east (placed under 2a)."""
    return village_of(
        {
            HOME: HOME_SIDES,
            (0, -1): S(roads=(0, 3)),
            (0, -2): S(roads=(3,)),
            (1, -1): FIELD,
        }
    )


def test_road_steps_follow_roads_only() -> None:
    """Reference 6: resources move along roads; a tile reached only over a field is out of reach."""
    village, table = line_village()
    assert road_steps(village, table, HOME) == {HOME: 0, (0, -1): 1, (0, -2): 2}
    with pytest.raises(ValueError):
        road_steps(village, table, (5, 5))


def test_boat_2a_moves_across_fields() -> None:
    """Reference 6 and 9.4, 2a: resources may also move across fields (no-road sides)."""
    village, table = line_village()
    steps = road_steps(village, table, HOME, across_fields=True)
    assert steps == {HOME: 0, (0, -1): 1, (0, -2): 2, (1, -1): 1}
    assert road_steps(village, table, (1, -1)) == {(1, -1): 0}
    assert transport_routes(village, table, (1, -1), 2, across_fields=True)[(0, -2)] == 2


def test_transport_capacity_splits_into_resource_steps() -> None:
    """Reference 6: with capacity 2, two resources one step or one resource two steps."""
    village, table = line_village()
    one_step, two_steps = (0, -1), (0, -2)
    assert transport_cost(village, table, [(HOME, one_step, 2)]) == 2
    assert transport_cost(village, table, [(HOME, two_steps, 1)]) == 2
    assert transport_cost(village, table, [(HOME, one_step, 1), (one_step, two_steps, 1)]) == 2
    assert transport_cost(village, table, [(HOME, two_steps, 2)]) == 4
    assert transport_cost(village, table, [(two_steps, HOME, 1)]) == 2
    assert transport_routes(village, table, HOME, 2) == {one_step: 1, two_steps: 2}
    assert transport_routes(village, table, HOME, 1) == {one_step: 1}
    assert transport_routes(village, table, HOME, 0) == {}


def test_transport_refuses_moves_off_the_roads() -> None:
    """Reference 6: a move to a tile no road reaches is refused (allowed with 2a)."""
    village, table = line_village()
    with pytest.raises(ValueError):
        transport_cost(village, table, [(HOME, (1, -1), 1)])
    with pytest.raises(ValueError):
        transport_cost(village, table, [(HOME, (0, -1), -1)])
    assert transport_cost(village, table, [(HOME, (1, -1), 1)], across_fields=True) == 1


# --- Sea Bastion loops (9.3) ------------------------------------------------------------------------------------


def test_a_ring_of_six_round_a_centre_counts_six() -> None:
    """Reference 9.3, Sea Bastion: the six ring tiles are in a loop; a road-less centre is not."""
    village, table = village_of({**roads_between(ring_links(HOME), extra=[HOME])})
    assert road_loop_tiles(village, table) == 6
    assert road_loop_positions(village, table) == frozenset(ring(HOME))


def test_a_centre_joined_by_road_to_its_ring_is_in_loops_too() -> None:
    """Reference 9.3, Sea Bastion: with spokes to the ring, the centre lies on triangles and counts."""
    spokes = [(HOME, p) for p in ring(HOME)]
    village, table = village_of(roads_between(ring_links(HOME) + spokes))
    assert road_loop_tiles(village, table) == 7


def test_a_dead_end_does_not_count() -> None:
    """Reference 9.3, Sea Bastion: a spur off the loop goes out and must come back the same way."""
    spur = neighbour(neighbour(HOME, 0), 0)  # north of the ring's northern tile
    spur2 = neighbour(spur, 0)
    links = ring_links(HOME) + [(neighbour(HOME, 0), spur), (spur, spur2)]
    village, table = village_of(roads_between(links))
    assert road_loop_tiles(village, table) == 6
    assert spur not in road_loop_positions(village, table)


def test_a_plain_road_and_a_triangle() -> None:
    """Reference 9.3, Sea Bastion: a road with no loop scores nothing; three mutually touching tiles make a loop."""
    path = [((0, 0), (0, -1)), ((0, -1), (0, -2)), ((0, -2), (1, -3))]
    village, table = village_of(roads_between(path))
    assert road_loop_tiles(village, table) == 0
    a, b, c = (0, 0), (1, 0), (0, 1)
    village, table = village_of(roads_between([(a, b), (b, c), (c, a)]))
    assert road_loop_tiles(village, table) == 3


def test_a_figure_of_two_loops_sharing_one_tile() -> None:
    """Reference 9.3, Sea Bastion: two rings through one shared tile count every tile once (11)."""
    right = (2, 0)
    assert set(ring(HOME)) & set(ring(right)) == {(1, 0)}
    village, table = village_of(roads_between(ring_links(HOME) + ring_links(right)))
    assert road_loop_tiles(village, table) == 11


def test_two_loops_joined_by_a_road_leave_the_road_out() -> None:
    """Reference 9.3, Sea Bastion: the road between two loops is crossed both ways, so its tiles do not count."""
    far = (0, 5)
    bridge = [((0, 1), (0, 2)), ((0, 2), (0, 3)), ((0, 3), (0, 4))]
    village, table = village_of(roads_between(ring_links(HOME) + ring_links(far) + bridge))
    assert road_loop_tiles(village, table) == 12
    assert not {(0, 2), (0, 3)} & road_loop_positions(village, table)


def test_sea_bastion_needs_real_roads_even_with_2a() -> None:
    """Reference 9.4, 2a: a ring closed by a road meeting a field (placed under 2a) is no loop."""
    layout = roads_between(ring_links(HOME))
    cells = ring(HOME)
    layout[cells[0]] = S(roads=[edge_to(cells[0], cells[5])])  # its road towards cells[1] is gone
    village, table = village_of(layout)
    assert road_loop_tiles(village, table) == 0


# --- Sea Breese river (9.3) -------------------------------------------------------------------------------------

WEST = neighbour(HOME, 5)  # across the home tile's water side
WEST2 = neighbour(WEST, 5)
WEST3 = neighbour(WEST2, 5)
RIVER_BOAT = S(water=(2, 5), boat=True)  # river running SE-NW through the boat


def test_boats_linked_by_river_to_home() -> None:
    """Reference 9.3, Sea Breese: boats joined water to water, on from the home tile's water side, form the chain."""
    village, table = village_of(
        {HOME: HOME_SIDES, WEST: RIVER_BOAT, WEST2: RIVER_BOAT, WEST3: S(water=(2,), boat=True)}
    )
    chain = river_boats(village, table)
    assert chain == sorted([WEST, WEST2, WEST3])
    assert sea_breese_points(len(chain)) == 8


def test_a_gap_breaks_the_chain() -> None:
    """Reference 9.3, Sea Breese: a boat beyond a tile without water (or an empty space) is not linked."""
    village, table = village_of({HOME: HOME_SIDES, WEST: RIVER_BOAT, WEST2: FIELD, WEST3: RIVER_BOAT})
    assert river_boats(village, table) == [WEST]
    village, table = village_of({HOME: HOME_SIDES, WEST: RIVER_BOAT, WEST3: RIVER_BOAT})
    assert river_boats(village, table) == [WEST]


def test_a_boat_turned_away_from_the_water_scores_nothing() -> None:
    """Reference 7 step 6 and 9.3 note 2: a boat not joined water to water is legal but outside the chain."""
    village, table = village_of({HOME: HOME_SIDES})
    table.table["dry boat"] = S(water=(0, 3), boat=True)
    assert can_place(village, WEST, "dry boat", table)
    village[WEST] = Placed("dry boat")
    assert river_boats(village, table) == []
    village, table = village_of(
        {HOME: HOME_SIDES, WEST: S(water=(0, 3), boat=True), neighbour(WEST, 0): S(water=(3,), boat=True)}
    )
    assert river_boats(village, table) == []


def test_only_boats_count_in_the_river_and_no_home_means_no_chain() -> None:
    """Reference 9.3, Sea Breese: points are for boats; our reading lets a non-boat tile with water carry the river."""
    watery = S(water=(2, 5))  # e.g. a turn-order tile whose river sides line up (its sides are unknown, 7.6)
    village, table = village_of({HOME: HOME_SIDES, WEST: watery, WEST2: RIVER_BOAT})
    assert river_boats(village, table) == [WEST2]
    village, table = village_of({WEST: RIVER_BOAT})
    assert river_boats(village, table) == []


def test_sea_breese_points_rise_to_32() -> None:
    """Reference 9.3, Sea Breese: points rise with the chain to at most 32 (sequence reconstructed: doubling from 2)."""
    points = [sea_breese_points(n) for n in range(8)]
    assert points == [0, 2, 4, 8, 16, 32, 32, 32]
    assert all(a < b for a, b in zip(points[:5], points[1:6], strict=True))
    assert max(points) == SEA_BREESE_MAX
    with pytest.raises(ValueError):
        sea_breese_points(-1)


# --- turn-order tiles (8) ---------------------------------------------------------------------------------------


def turn_order_village() -> tuple[dict[Pos, Placed], Table]:
    """A turn-order tile north of home, matching home (road) and its west neighbour (field), not its east one."""
    tile = neighbour(HOME, 0)  # (0,-1)
    west, east = neighbour(tile, 4), neighbour(tile, 2)  # (-1,0) and (1,-1); both also touch HOME
    layout = {
        HOME: S(roads=(0,)),  # fields on edges 1 and 5, facing east and west
        tile: S(roads=(3,)),  # road to home; fields to west (edge 4) and east (edge 2)
        west: FIELD,  # its edge 1 (field) meets the tile's edge 4 (field): matches
        east: S(roads=(5,)),  # its edge 5 (road) meets the tile's edge 2 (field): mismatch, placed under 2a
    }
    return village_of(layout)


def test_turn_order_tile_counts_tiles_joined_by_matching_edges() -> None:
    """Reference 8: 1 VP per other tile the turn-order tile is connected to; edges must match."""
    village, table = turn_order_village()
    assert connections(village, table, (0, -1)) == 2


def test_boat_2a_lets_every_touching_tile_count() -> None:
    """Reference 8 and 9.4: with summer boat 2a the sides need not match, so all three touching tiles count."""
    village, table = turn_order_village()
    assert connections(village, table, (0, -1), free_edges=True) == 3
    with pytest.raises(ValueError):
        connections(village, table, (4, 4))


def test_a_boat_touching_a_turn_order_tile_by_water_and_field_counts() -> None:
    """Reference 8: the boat exemption from water matching holds for turn-order connections too."""
    tile = neighbour(HOME, 0)
    village, table = village_of({HOME: HOME_SIDES, tile: S(roads=(3,)), neighbour(tile, 0): S(water=(3,), boat=True)})
    assert connections(village, table, tile) == 2
