"""Hand-built public views of a Keythedral table, in the shape /work/kt-spec.md gives the engine's view(state, None).

``sample_view(scenario)`` returns a fresh JSON-ready dict for one of SCENARIOS:
- "setup": four players laying field and cottage tiles, the number-one fields and a few more down;
- "midgame": four players in round 3, phase 3, with houses, fences, workers out and stage 2 face up;
- "end": five players, the game over, every mat space taken;
- "two_player": variation one (no Keythedral tile, one new-law space) while workers are placed.

The builders place workers by the rules (one per free, unfenced field next to the cottage, two from a house), so the
views are consistent tables, not just well-typed dicts. Only keys the spec lists are written.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

View = dict[str, Any]
Pos = tuple[int, int]

SCENARIOS = ("setup", "midgame", "end", "two_player")
COLOURS = ("blue", "yellow", "grey", "green", "red")
NAMES = ("Ana", "Ben", "Cy", "Dee", "Eve")
CUBE_ORDER = ("black", "brown", "blue", "green", "red", "white", "purple", "yellow")
TERRAIN = {"Q": "quarry", "W": "woods", "L": "lake", "F": "farm", "V": "vineyard"}
MAT_SLOTS = {1: 4, 2: 4, 3: 4, 4: 3, 5: 2}
SUPPLY = {"black": 20, "brown": 20, "blue": 15, "green": 15, "red": 15}
NUMBER_ONES = {(12, 12): 1, (13, 13): 1, (13, 12): 1, (12, 13): 1}

# Made-up costs in the data's shape (sorted by CUBE_ORDER); the real costs are engine data, not needed here.
COSTS: dict[str, tuple[str, ...]] = {
    "1.1": ("black", "black", "brown", "green"),
    "1.2": ("black", "brown", "brown", "blue"),
    "1.3": ("black", "brown", "blue", "green"),
    "1.4": ("black", "black", "brown", "blue"),
    "2.1": ("black", "black", "brown", "brown", "blue", "green"),
    "2.2": ("black", "brown", "brown", "blue", "green", "red"),
    "2.3": ("black", "black", "brown", "green", "green", "red"),
    "2.4": ("black", "brown", "brown", "brown", "blue", "blue"),
    "3.1": ("brown", "brown", "blue", "blue", "green", "green", "red", "white"),
    "3.2": ("brown", "blue", "blue", "green", "green", "green", "red", "red"),
    "3.3": ("brown", "brown", "brown", "blue", "green", "green", "red", "white"),
    "3.4": ("brown", "blue", "green", "green", "red", "red", "white", "white"),
    "4.1": ("blue", "blue", "green", "green", "green", "red", "red", "white", "purple", "purple"),
    "4.2": ("blue", "blue", "blue", "green", "green", "red", "red", "red", "white", "yellow"),
    "4.3": ("blue", "green", "green", "green", "red", "red", "white", "white", "purple", "yellow"),
    "5.1": ("blue", "blue", "blue", "green", "green", "green", "red", "red", "white", "purple", "purple", "yellow"),
    "5.2": ("blue", "blue", "green", "green", "green", "red", "red", "red", "white", "white", "purple", "yellow"),
}


def label(x: int, y: int) -> str:
    """A field's label: column letter for x, row number y + 1 ('M13' is x=12, y=12)."""
    return f"{chr(65 + x)}{y + 1}"


def fields_from_map(rows: Sequence[str], x0: int, top: int) -> dict[Pos, str]:
    """Terrains from a picture: rows from north (y = top) southwards, a letter (Q W L F V) or '.' per column from x0."""
    found: dict[Pos, str] = {}
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            if ch != ".":
                found[(x0 + j, top - i)] = TERRAIN[ch]
    return found


def square_fields(square: Pos) -> list[Pos]:
    """The four field positions a square slot touches."""
    x, y = square
    return [(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)]


def field_entries(fields: Mapping[Pos, str]) -> list[dict[str, Any]]:
    """The view's "fields": number-one fields carry back 1, the rest backs 2..5 in a fixed cycle."""
    entries = []
    for i, ((x, y), terrain) in enumerate(sorted(fields.items(), key=lambda kv: (kv[0][1], kv[0][0]))):
        back = NUMBER_ONES.get((x, y), 2 + i % 4)
        entries.append({"at": label(x, y), "x": x, "y": y, "terrain": terrain, "back": back})
    return entries


def cottage_entries(
    players: int, squares: Sequence[Sequence[Pos | None]], houses: Iterable[tuple[int, int]] = ()
) -> list[dict[str, Any]]:
    """The view's "cottages": squares[seat][number - 1] (None: not laid yet); houses are (seat, number) pairs."""
    upgraded = set(houses)
    entries = []
    for seat in range(players):
        for number, square in enumerate(squares[seat], start=1):
            entry: dict[str, Any] = {"seat": seat, "colour": COLOURS[seat], "number": number, "house": False,
                                     "at": None, "x": None, "y": None}
            if square is not None:
                entry.update(at=label(*square) + "+", x=square[0], y=square[1], house=(seat, number) in upgraded)
            entries.append(entry)
    return entries


def fence_entries(fences: Iterable[tuple[int, Pos, Pos]], fields: Mapping[Pos, str]) -> list[dict[str, Any]]:
    """The view's "fences" from (builder's seat, square, field) triples; each must sit on one of the square's fields."""
    entries = []
    for seat, square, field in fences:
        assert field in square_fields(square) and field in fields, (square, field)
        entries.append({"seat": seat, "colour": COLOURS[seat], "square": label(*square) + "+", "field": label(*field)})
    return entries


def place_workers(
    cottages: Sequence[Mapping[str, Any]],
    fields: Mapping[Pos, str],
    fences: Sequence[Mapping[str, Any]],
    numbers: Sequence[int],
    order: Sequence[int],
    stop_after: int | None = None,
) -> list[dict[str, Any]]:
    """Workers as phase 1 lays them: for each chosen number, each seat in order (the chooser first, rotating) puts one
    worker (two from a house) on free fields next to that cottage that are not fenced off from it."""
    fenced = {(f["square"], f["field"]) for f in fences}
    taken: set[Pos] = set()
    workers: list[dict[str, Any]] = []
    placed = 0
    for turn, number in enumerate(numbers):
        seats = list(order[turn % len(order):]) + list(order[: turn % len(order)])
        for seat in seats:
            if stop_after is not None and placed >= stop_after:
                return workers
            placed += 1
            cottage = next((c for c in cottages if c["seat"] == seat and c["number"] == number and c["at"]), None)
            if cottage is None:
                continue
            square = (int(cottage["x"]), int(cottage["y"]))
            free = [f for f in square_fields(square)
                    if f in fields and f not in taken and (cottage["at"], label(*f)) not in fenced]
            for field in free[: 2 if cottage["house"] else 1]:
                taken.add(field)
                workers.append({"seat": seat, "colour": COLOURS[seat], "field": label(*field), "cottage": number})
    return workers


def mat_entries(taken: Mapping[str, int], face_up_stages: Iterable[int], price_change: Mapping[str, int],
                printed: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The view's "mat": spaces in taken (space -> seat) and spaces of face-up stages show their tile and cost;
    every cost is marked reconstructed except the spaces in printed."""
    up = set(face_up_stages)
    real = set(printed)
    entries = []
    for stage, count in MAT_SLOTS.items():
        for slot in range(1, count + 1):
            space = f"{stage}.{slot}"
            shown = stage in up or space in taken
            entries.append({
                "space": space, "stage": stage, "face_up": shown,
                "tile": f"b{stage}-{slot + 1}" if shown else None,
                "cost": list(COSTS[space]) if shown else None,
                "reconstructed": shown and space not in real, "taken": space in taken,
                "taken_by": taken.get(space), "price_change": price_change.get(space, 0) if shown else 0,
            })
    return entries


def player_entries(players: int, cubes: Sequence[Mapping[str, int]], mat: Sequence[Mapping[str, Any]],
                   laws_held: Sequence[int], procured: Sequence[bool] = (), passed: Sequence[bool] = ()
                   ) -> list[dict[str, Any]]:
    """The view's "players": cubes held, tiles taken on the mat with their points, law cards held (a count)."""
    entries = []
    for seat in range(players):
        held = {c: int(cubes[seat].get(c, 0)) for c in CUBE_ORDER}
        tiles = [{"space": m["space"], "stage": m["stage"]} for m in mat if m["taken_by"] == seat]
        entries.append({
            "seat": seat, "name": NAMES[seat], "colour": COLOURS[seat], "cubes": held, "cube_count": sum(held.values()),
            "tiles": tiles, "points": sum(int(t["stage"]) for t in tiles), "laws_held": laws_held[seat],
            "procured": bool(procured[seat]) if procured else False, "passed": bool(passed[seat]) if passed else False,
        })
    return entries


def store_of(players: Sequence[Mapping[str, Any]], craftsmen: Mapping[str, int], spent_crafts: Mapping[str, int]
             ) -> dict[str, int]:
    """The store: the resource supply less what players hold; spent craft cubes."""
    store = {c: n - sum(p["cubes"][c] for p in players) for c, n in SUPPLY.items()}
    store.update({c: int(spent_crafts.get(c, 0)) for c in ("white", "purple", "yellow")})
    return store


def base_view(players: int, *, two_player: bool = False) -> View:
    """The keys every scenario shares."""
    return {
        "game": "keythedral", "viewer": None, "names": list(NAMES[:players]), "colours": list(COLOURS[:players]),
        "round": 1, "variation": {"two_player": two_player, "no_laws": False, "open_tiles": False},
        "open_screens": False, "phase": "setup", "step": "field", "start_player": 0, "to_act": [0], "waiting_for": "",
        "keythedral": None if two_player else "M13+",
        "fields": [], "drawn_field": None, "field_stack": 0, "cottages": [], "fences": [],
        "fences_left": [3] * players, "workers": [], "work_order": [], "current_number": None, "mat": [],
        "stage": 1, "craftsmen": {"white": 10, "purple": 10, "yellow": 10},
        "store": {**SUPPLY, "white": 0, "purple": 0, "yellow": 0},
        "law_spaces": [True] if two_player else [True, True], "law_stack": 19 if two_player else 18,
        "laws_played": [], "players": [], "bids": [], "effects": [], "pending": None,
    }


# --- Scenarios ---------------------------------------------------------------------------------------------

MIDGAME_MAP = (  # x from 10 (K), y from 14 (row 15) southwards; M13/N14 quarries, N13/M14 woods
    ".LFV..",
    "WQWQF.",
    "VLQWLW",
    ".FWVQ.",
    ".QLFVW",
    "...W..",
)
MIDGAME_SQUARES: tuple[tuple[Pos, ...], ...] = (
    ((10, 12), (12, 13), (13, 9), (14, 11), (11, 10)),  # blue cottages 1..5
    ((11, 13), (13, 12), (10, 11), (14, 9), (12, 9)),  # yellow
    ((13, 13), (14, 12), (11, 11), (12, 10), (15, 10)),  # grey
    ((10, 13), (13, 11), (11, 12), (14, 10), (9, 12)),  # green
)
END_EXTRA = {(9, 12): "lake", (15, 13): "vineyard", (14, 14): "farm", (10, 10): "quarry", (14, 9): "woods"}
END_RED: tuple[Pos, ...] = ((9, 11), (15, 12), (13, 14), (9, 9), (13, 8))


def setup_view() -> View:
    """Four players in the second lap of set-up: ten fields and six cottages down, Cy to lay a drawn lake."""
    view = base_view(4)
    fields = {(12, 12): "quarry", (13, 13): "quarry", (13, 12): "woods", (12, 13): "woods",
              (14, 12): "lake", (11, 13): "farm", (13, 11): "vineyard", (11, 12): "woods", (14, 13): "lake",
              (12, 14): "quarry"}
    squares: list[list[Pos | None]] = [[None] * 5 for _ in range(4)]
    squares[0][2] = (13, 13)  # first lap: Ana's cottage 3 at N14+, Ben's 5, Cy's 2, Dee's 4
    squares[1][4] = (11, 12)
    squares[2][1] = (12, 10)
    squares[3][3] = (11, 13)
    squares[0][0] = (13, 11)  # second lap: Ana's 1 and Ben's 2; Cy is next
    squares[1][1] = (12, 13)
    view.update(
        round=1, phase="setup", step="field", start_player=0, to_act=[2],
        waiting_for="waiting for Cy to lay the drawn field tile (field X)",
        fields=field_entries(fields), drawn_field={"terrain": "lake", "back": 3}, field_stack=13,
        cottages=cottage_entries(4, squares), mat=mat_entries({}, (), {}),
    )
    view["players"] = player_entries(4, [{}] * 4, view["mat"], [0, 0, 0, 0])
    return view


def midgame_view() -> View:
    """Four players in round 3, phase 3: houses, three fences, workers out, stage 1 gone, stage 2 face up."""
    view = base_view(4)
    fields = fields_from_map(MIDGAME_MAP, 10, 14)
    cottages = cottage_entries(4, MIDGAME_SQUARES, houses=[(0, 2), (1, 1), (3, 3)])
    fences = fence_entries([(0, (13, 12), (14, 13)), (2, (10, 11), (11, 11)), (3, (12, 10), (13, 10))], fields)
    numbers, order = [2, 5, 1, 3, 4], [1, 2, 3, 0]
    mat = mat_entries({"1.1": 0, "1.2": 2, "1.3": 1, "1.4": 0, "2.1": 3}, (1, 2), {"2.2": 1, "2.3": -1},
                      printed=("2.4",))
    cubes = [{"black": 1, "brown": 2, "blue": 1, "green": 2, "white": 1},
             {"black": 3, "brown": 1, "red": 2},
             {"brown": 1, "blue": 2, "green": 1, "red": 1, "purple": 1},
             {"black": 2, "green": 1}]
    view.update(
        round=3, phase="actions", step="action", start_player=1, to_act=[2],
        waiting_for="waiting for Cy to take an action (buy, house, fence, smith, glass, gold, trade, procure or pass)",
        fields=field_entries(fields), field_stack=0, cottages=cottages, fences=fences, fences_left=[2, 3, 2, 2],
        workers=place_workers(cottages, fields, fences, numbers, order),
        work_order=[{"marker": i + 1, "number": n, "seat": order[i % len(order)]} for i, n in enumerate(numbers)],
        mat=mat, stage=2, craftsmen={"white": 8, "purple": 9, "yellow": 10},
        law_spaces=[True, False], law_stack=14, laws_played=["Start Order", "Broken Fences"],
        effects=["Broken Fences: Ben's workers ignore fences this round"],
    )
    view["players"] = player_entries(4, cubes, mat, [1, 0, 2, 1], procured=[False, True, False, False],
                                     passed=[True, False, False, False])
    view["store"] = store_of(view["players"], view["craftsmen"], {"white": 1})
    return view


def end_view() -> View:
    """Five players, the game over: every space taken, many houses, every fence out."""
    view = base_view(5)
    fields = fields_from_map(MIDGAME_MAP, 10, 14) | END_EXTRA
    squares = [*MIDGAME_SQUARES, END_RED]
    houses = [(0, 1), (0, 2), (1, 1), (1, 4), (2, 5), (3, 3), (4, 2), (4, 4)]
    cottages = cottage_entries(5, squares, houses=houses)
    fences = fence_entries([
        (0, (13, 12), (14, 13)), (0, (14, 10), (15, 10)), (1, (12, 10), (12, 11)), (2, (10, 11), (11, 11)),
        (2, (9, 12), (10, 12)), (3, (12, 10), (13, 10)), (3, (13, 14), (14, 14)), (4, (15, 10), (15, 10)),
        (4, (11, 10), (12, 11)), (4, (13, 8), (14, 9)),
    ], fields)
    numbers, order = [4, 1, 3, 5, 2], [3, 4, 0, 1, 2]
    owner = {"1.1": 0, "1.2": 2, "1.3": 1, "1.4": 4, "2.1": 3, "2.2": 0, "2.3": 4, "2.4": 1, "3.1": 2, "3.2": 2,
             "3.3": 0, "3.4": 3, "4.1": 4, "4.2": 1, "4.3": 0, "5.1": 2, "5.2": 4}
    mat = mat_entries(owner, (1, 2, 3, 4, 5), {})
    cubes = [{"green": 1, "yellow": 1}, {"black": 2}, {"red": 1, "white": 1}, {}, {"blue": 3, "purple": 1}]
    view.update(
        round=9, phase="over", step="over", start_player=3, to_act=[],
        waiting_for="the game is over: Eve wins with 14 points",
        fields=field_entries(fields), cottages=cottages, fences=fences, fences_left=[1, 2, 1, 1, 0],
        workers=place_workers(cottages, fields, fences, numbers, order),
        work_order=[{"marker": i + 1, "number": n, "seat": order[i % len(order)]} for i, n in enumerate(numbers)],
        mat=mat, stage=5, craftsmen={"white": 2, "purple": 4, "yellow": 7},
        law_spaces=[False, False], law_stack=0,
        laws_played=["Start Order", "Work Order", "Price Increase", "Design Change", "Good Harvest", "Sale",
                     "Unsafe Fence", "Repeal Law", "Bargain"],
    )
    view["players"] = player_entries(5, cubes, mat, [2, 1, 0, 3, 1])
    view["store"] = store_of(view["players"], view["craftsmen"], {"white": 7, "purple": 5, "yellow": 2})
    return view


def two_player_view() -> View:
    """Variation one, round 2, phase 1: no Keythedral tile, one new-law space; Ben places a worker from cottage 1."""
    view = base_view(2, two_player=True)
    fields = {(12, 12): "quarry", (13, 12): "woods", (11, 12): "lake", (14, 12): "farm", (12, 13): "vineyard",
              (13, 13): "quarry", (12, 11): "woods", (13, 11): "farm", (11, 13): "woods", (14, 11): "lake",
              (11, 11): "vineyard", (13, 14): "woods"}
    squares = (((12, 12), (10, 11), (13, 10), (14, 12), (11, 13)), ((12, 11), (11, 12), (13, 13), (10, 12), (13, 11)))
    cottages = cottage_entries(2, squares, houses=[(0, 1)])
    fences = fence_entries([(1, (12, 12), (13, 13))], fields)
    numbers, order = [3, 1], [1, 0]
    mat = mat_entries({"1.2": 1}, (1,), {"1.3": 1})
    view.update(
        round=2, phase="workers", step="worker", start_player=1, to_act=[1],
        waiting_for="waiting for Ben to place a worker from cottage 1",
        fields=field_entries(fields), cottages=cottages, fences=fences, fences_left=[3, 2],
        workers=place_workers(cottages, fields, fences, numbers, order, stop_after=3),
        work_order=[{"marker": i + 1, "number": n, "seat": order[i % len(order)]} for i, n in enumerate(numbers)],
        current_number=1, mat=mat, stage=1, law_spaces=[True], law_stack=17, laws_played=["Start Order"],
    )
    view["players"] = player_entries(2, [{"black": 2, "brown": 1, "green": 1}, {"black": 1, "blue": 2}], mat, [1, 0])
    view["store"] = store_of(view["players"], view["craftsmen"], {})
    return view


BUILDERS = {"setup": setup_view, "midgame": midgame_view, "end": end_view, "two_player": two_player_view}


def sample_view(scenario: str = "midgame") -> View:
    """A fresh public view for one of SCENARIOS (a deep copy: callers may change it freely)."""
    if scenario not in BUILDERS:
        raise ValueError(f"unknown scenario '{scenario}'; known: {', '.join(SCENARIOS)}")
    return copy.deepcopy(BUILDERS[scenario]())
