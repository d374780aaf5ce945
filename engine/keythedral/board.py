"""Questions about the board: where cottages stand, which fields a cottage reaches, where fields and cottages may go."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from engine.keythedral import geometry as geo
from engine.keythedral.state import KState

COLOURS = ("blue", "yellow", "grey", "green", "red")


@cache
def point(label: str) -> geo.Point:
    """The lattice point of a field or square label; raises ValueError on a bad label."""
    found = geo.read_label(label)
    if found is None:
        raise ValueError(f"'{label}' is not a place on the board")
    return found[0]


@cache
def square_fields(square: str) -> tuple[str, ...]:
    """The four field labels a square touches."""
    return tuple(geo.field_label(p) for p in geo.fields_of(point(square)))


@cache
def field_squares(label: str) -> tuple[str, ...]:
    """The square labels touching a field."""
    return tuple(geo.square_label(s) for s in geo.squares_of(point(label)))


@cache
def field_neighbours(label: str) -> tuple[str, ...]:
    """The field labels sharing an edge with a field."""
    return tuple(geo.field_label(p) for p in geo.orthogonal(point(label)))


def cottage_name(state: KState, seat: int, number: int) -> str:
    """'blue3'."""
    return f"{COLOURS[seat]}{number}"


def read_cottage(state: KState, text: str) -> tuple[int, int] | None:
    """(seat, number) for 'blue3'; None when no such cottage is in the game."""
    for seat in range(state.n):
        colour = COLOURS[seat]
        if text.startswith(colour) and text[len(colour):] in {"1", "2", "3", "4", "5"}:
            return seat, int(text[len(colour):])
    return None


def occupant(state: KState) -> dict[str, tuple[int, int]]:
    """Square label -> (seat, cottage number) for every cottage or house on the board."""
    return {c.at: (seat, i + 1) for seat, row in enumerate(state.cottages) for i, c in enumerate(row) if c.at}


def home(state: KState, seat: int, number: int) -> str:
    """'house 3' or 'cottage 3': a seat's cottage by what it is now."""
    return f"{'house' if state.cottages[seat][number - 1].house else 'cottage'} {number}"


def lay_cottage(state: KState, seat: int, number: int, square: str) -> None:
    """Put a seat's cottage or house on a square (laid in set-up, or moved when fenced off)."""
    row = state.cottages[seat]
    row[number - 1] = replace(row[number - 1], at=square)


def make_house(state: KState, seat: int, number: int, house: bool) -> None:
    """Turn a seat's cottage into a house (True), or a house back into a cottage (False)."""
    row = state.cottages[seat]
    row[number - 1] = replace(row[number - 1], house=house)


def remove_fence(state: KState, square: str, field: str) -> None:
    """Take the fence on this edge out of the game."""
    state.fences = [f for f in state.fences if (f.square, f.field) != (square, field)]


def fence_set(state: KState) -> set[tuple[str, str]]:
    """The (square, field) edges holding a fence."""
    return {(f.square, f.field) for f in state.fences}


def open_fields(state: KState, square: str, ignore_fences: bool = False) -> list[str]:
    """The placed fields a square reaches: touching it, with no fence on the edge between (unless ignored)."""
    fenced = set() if ignore_fences else fence_set(state)
    return [f for f in square_fields(square) if f in state.fields and (square, f) not in fenced]


def fenced_off(state: KState, square: str) -> bool:
    """Whether a square touching placed fields is fenced off from every one of them."""
    return any(f in state.fields for f in square_fields(square)) and not open_fields(state, square)


def free_fields(state: KState, seat: int, number: int) -> list[str]:
    """Fields a worker from this cottage may enter now: reachable and unoccupied (Phase one)."""
    square = state.cottages[seat][number - 1].at
    if square is None:
        return []
    reach = open_fields(state, square, ignore_fences=seat in state.broken)
    return [f for f in reach if f not in state.workers]


def empty_squares(state: KState) -> set[str]:
    """Empty squares (not the Keythedral's) touching at least one placed field."""
    taken = set(occupant(state))
    if state.keythedral:
        taken.add(state.keythedral)
    return {s for f in state.fields for s in field_squares(f) if s not in taken}


def cottage_squares(state: KState) -> list[str]:
    """Where a cottage may be laid in set-up (ruling T-5), sorted."""
    return sorted(empty_squares(state), key=_order)


def relocation_squares(state: KState) -> list[str]:
    """Where a fenced-off cottage or house may move: an empty square reaching a field (ruling T-10), sorted."""
    return sorted((s for s in empty_squares(state) if open_fields(state, s)), key=_order)


def field_spots(state: KState) -> list[str]:
    """Where the drawn field may be laid: on the lattice, touching a field or a cottage (ruling T-4), sorted."""
    spots = {n for f in state.fields for n in field_neighbours(f) if n not in state.fields}
    for square in occupant(state):
        spots.update(f for f in square_fields(square) if f not in state.fields)
    return sorted((s for s in spots if _has_room(s)), key=_order)


@cache
def _has_room(label: str) -> bool:
    """Whether a field here has all four neighbouring fields and four squares on the lattice (Set up; T-3)."""
    return len(field_neighbours(label)) == 4 and len(field_squares(label)) == 4


def fence_edges(state: KState) -> list[tuple[str, str]]:
    """Edges where a fence may be built: between a square holding a cottage and a placed field, unfenced (T-9)."""
    fenced = fence_set(state)
    edges = [(s, f) for s in occupant(state) for f in square_fields(s) if f in state.fields and (s, f) not in fenced]
    return sorted(edges, key=lambda e: (_order(e[0]), _order(e[1])))


@cache
def _order(label: str) -> tuple[int, int]:
    """Sort key: row by row from the south, west to east."""
    x, y = point(label)
    return y, x
