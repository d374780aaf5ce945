"""Final (and projected) scoring: every tile's points, with each player's best allocation (rulebook pp.9, 15-19).

Resources and keyples score only where they are allocated, each once, and a tile scores at most 4 sets.
Three groups never compete with each other: keyples (colour tiles), animals (animal tiles) and the other
resources (gem sets, yards, prospector, windmill, scrap dealer). Each group is solved exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product
from typing import Any

from engine.keyper.spaces import comps
from engine.keyper.state import Player, State
from engine.keyper.vocab import ANIMALS, FINISHED, GEMS, RAW, SEASONS, WHEAT

SETS = 4
FLAT = {  # (plain side, upgraded side) points of tiles that score a fixed amount (pp.15-19)
    "brickmaker": (0, 5), "carpenter": (0, 5), "stonemason": (0, 5), "scrapyard": (0, 3),
    "alchemist": (3, 5), "builder": (0, 3), "building_plot": (1, 3), "farm_labourer": (0, 3),
    "gem_dealer": (0, 3), "hop_field": (0, 3), "jewel_cutter": (0, 3), "livestock_market": (0, 1),
    "key_market": (3, 5), "merchant": (3, 3), "seafarer": (0, 3), "shipping_agent": (0, 3),
    "trading_post": (0, 3), "copse": (0, 3),
}
ONE_ANIMAL = {  # tile: (animal, points per animal plain, upgraded)
    "cow_shed": ("cow", 1, 2), "pig_sty": ("pig", 1, 2), "sheep_shelter": ("sheep", 1, 2),
    "stable": ("horse", 1, 2), "cluck_cluck_chicken_house": ("chicken", 2, 3), "goat_pen": ("goat", 2, 3),
    "game_wardens_cottage": ("deer", 2, 3), "hunters_lodge": ("boar", 2, 3),
}
MIXED_ANIMALS = {"farmyard": ("cow", "horse", "pig", "sheep"), "paddock": ("chicken", "deer", "goat", "boar")}
KEYPLE_TILES = {"boatman": "blue", "bricklayer": "orange", "farmer": "green", "lumberjack": "brown",
                "quarryman": "grey"}
BOARD_TILES = {  # tile: (border colour, points per field plain, upgraded)
    "farmers_cottage": ("green", 1, 3), "kiln": ("orange", 2, 4), "log_cabin": ("brown", 1, 3),
    "mine": ("black", 1, 2), "open_pit": ("grey", 1, 3),
}
GEM_SETS = {  # tile: (plain pair, upgraded triple)
    "bracelet_maker": (("emerald", "sapphire"), ("emerald", "ruby", "sapphire")),
    "emporium": (("ruby", "sapphire"), ("gold", "ruby", "sapphire")),
    "gem_merchant": (("emerald", "gold"), ("emerald", "gold", "ruby")),
    "goldsmith": (("gold", "sapphire"), ("emerald", "gold", "sapphire")),
    "jeweller": (("emerald", "ruby"), ("emerald", "ruby", "sapphire")),
    "ring_maker": (("gold", "ruby"), ("emerald", "gold", "ruby")),
}
YARDS = {"brickyard": "brick", "stoneyard": "stone", "timberyard": "wood"}
TIE_BREAK = ("gems", "finished goods", "wheat", "raw materials", "deer", "boar", "goat", "chicken", "horse", "cow",
             "pig", "sheep")


@dataclass(frozen=True)
class Line:
    """One score line: what scores, how many points, and what was allocated to it."""

    label: str
    points: int
    allocated: str = ""


@dataclass(frozen=True)
class Board:
    """What one player's score depends on, taken from the state."""

    tiles: dict[str, bool]  # built, not overbuilt tiles -> upgraded
    plots: dict[str, str]  # plot id -> tile id
    home: frozenset[str]
    goods: Mapping[str, int]
    keyples: Mapping[str, int]
    fields: Mapping[str, int]  # fields of the claimed board by border colour
    shipping: int
    fair_points: tuple[tuple[str, int], ...]  # (label, points) of every held fair
    fair_seasons: int


def player_board(state: State, seat: int) -> Board:
    """Gather a player's scoring inputs (keyples: those in the keyp plus those they would take home now)."""
    player = state.players[seat]
    keyples: Counter[str] = Counter({c: n for c, n in player.keyp.items() if n})
    keyples.update(k.colour for k in player.keyp_tile)
    keyples.update(k.colour for ks in player.plot_keyples.values() for k in ks)
    claimed = next((b for b in state.boards if b.keyper == seat), None)
    keyples.update(k.colour for ks in (claimed.spaces.values() if claimed else []) for k in ks)
    number = claimed.number if claimed else player.board
    return Board(
        tiles={p.tile: p.upgraded for p in player.plots.values()},
        plots={pid: p.tile for pid, p in player.plots.items()},
        home=frozenset(t.id for t in comps().tiles.values() if t.origin == "home"),
        goods=dict(player.goods),
        keyples=dict(keyples),
        fields=_field_colours(state, number),
        shipping=player.shipping,
        fair_points=_fairs(player),
        fair_seasons=sum(1 for s in SEASONS if player.fairground.get(s)),
    )


def _field_colours(state: State, board_number: int | None) -> dict[str, int]:
    """Border colours of the fields on a board's current display, the river and keyp field aside."""
    if board_number is None:
        return {}
    display = comps().display(state.boards[board_number - 1].display)
    colours: Counter[str] = Counter()
    for f in display.fields:
        kind = comps().field_kinds[f.kind]
        if kind.colour and kind.category != "river":
            colours[kind.colour] += 1
    return dict(colours)


def _fairs(player: Player) -> tuple[tuple[str, int], ...]:
    """Every held fair, stacked ones included (p.9 iv)."""
    return tuple((f"{season} fair {h.fair}", h.points) for season in SEASONS
                 for h in player.fairground.get(season, []))


def score_lines(board: Board) -> list[Line]:
    """Every line of a player's score with the best allocation."""
    lines = [Line("shipping track", board.shipping)]
    lines += [Line(label, points) for label, points in board.fair_points]
    lines += _fixed_lines(board)
    lines += keyple_lines(board.tiles, board.keyples)
    lines += animal_lines(board.tiles, board.goods)
    lines += resource_lines(board.tiles, board.goods)
    return [line for line in lines if line.points or line.allocated]


def _name(tile: str) -> str:
    """A tile's printed name."""
    return comps().tiles[tile].name


def _fixed_lines(board: Board) -> list[Line]:
    """Tiles whose points depend on no allocation: flat points, tile counts, fields, the dock, fairs held."""
    lines = []
    for tile, up in board.tiles.items():
        points = _fixed_points(board, tile, up)
        if points is not None:
            lines.append(Line(_name(tile) + (" (upgraded)" if up else ""), points))
    return lines


def _fixed_points(board: Board, tile: str, up: bool) -> int | None:
    """Points of a tile that needs no allocation; None for tiles scored by allocation (or not at all)."""
    if tile in FLAT:
        return FLAT[tile][up]
    if tile in BOARD_TILES:
        colour, plain, upgraded = BOARD_TILES[tile]
        return board.fields.get(colour, 0) * (upgraded if up else plain)
    counters = {
        "barn": lambda: _barn(board, up), "boarding_house": lambda: _neighbours(board, tile, up),
        "drainage": lambda: _lines_of(board, tile, up, diagonal=True),
        "pavements": lambda: _lines_of(board, tile, up, diagonal=False),
        "statue": lambda: _statue(board, up), "thatcher": lambda: _thatcher(board, up),
        "village_hall": lambda: (12 if up else 6) * _full(board, "v", 12),
        "oast_house": lambda: (8 if up else 4) * _full(board, "f", 8),
        "dock": lambda: _dock(board.shipping, up), "entertainer": lambda: board.fair_seasons * (2 if up else 1),
    }
    return counters[tile]() if tile in counters else None


def _village(board: Board) -> dict[str, str]:
    """Built village plots."""
    return {p: t for p, t in board.plots.items() if p.startswith("v")}


def _barn(board: Board, up: bool) -> int:
    """1 per farm tile, or 2 per upgraded farm tile when upgraded (p.16)."""
    farm = [t for p, t in board.plots.items() if p.startswith("f")]
    return 2 * sum(board.tiles[t] for t in farm) if up else len(farm)


def _cell(plot: str) -> tuple[int, int]:
    """Row and column of a village plot."""
    from engine.keyper.works import plot_cell

    _, row, col = plot_cell(plot)
    return row, col


def _neighbours(board: Board, tile: str, up: bool) -> int:
    """Boarding house: 2 per village tile beside it (left/right; every side when upgraded) (p.16)."""
    where = next(p for p, t in board.plots.items() if t == tile)
    row, col = _cell(where)
    sides = [(0, -1), (0, 1)] + ([(-1, 0), (1, 0)] if up else [])
    built = {_cell(p) for p in _village(board)}
    return 2 * sum((row + dr, col + dc) in built for dr, dc in sides)


def _lines_of(board: Board, tile: str, up: bool, diagonal: bool) -> int:
    """Drainage (diagonals) and pavements (row and column): a base point plus one per village tile, gaps allowed."""
    where = next(p for p, t in board.plots.items() if t == tile)
    row, col = _cell(where)
    count = 0
    for other in _village(board):
        r, c = _cell(other)
        if (r, c) == (row, col):
            continue
        on_line = abs(r - row) == abs(c - col) if diagonal else (r == row or c == col)
        count += on_line
    return (2 if up else 1) * (1 + count)


def _statue(board: Board, up: bool) -> int:
    """1 per home village tile, or 2 per upgraded home village tile when upgraded (p.17)."""
    home = [t for t in _village(board).values() if t in board.home]
    return 2 * sum(board.tiles[t] for t in home) if up else len(home)


def _thatcher(board: Board, up: bool) -> int:
    """1 per 2 village tiles, or 1 per upgraded village tile when upgraded (p.17)."""
    village = list(_village(board).values())
    return sum(board.tiles[t] for t in village) if up else len(village) // 2


def _full(board: Board, prefix: str, size: int) -> int:
    """1 when every plot of an area is built, else 0."""
    return int(sum(p.startswith(prefix) for p in board.plots) >= size)


def _dock(shipping: int, up: bool) -> int:
    """6 points from 20 shipping points; upgraded, 12 from 30 and nothing below (p.16)."""
    if up:
        return 12 if shipping >= 30 else 0
    return 6 if shipping >= 20 else 0


def keyple_lines(tiles: Mapping[str, bool], keyples: Mapping[str, int]) -> list[Line]:
    """Colour tiles score keyples of their colour, white standing for any, 4 at most each (pp.16-19)."""
    wanted = sorted(((2 if tiles[t] else 1), t) for t in KEYPLE_TILES if t in tiles)
    whites = keyples.get("white", 0)
    lines = []
    own = {t: min(SETS, keyples.get(KEYPLE_TILES[t], 0)) for _, t in wanted}
    for value, tile in reversed(wanted):  # whites go where a keyple is worth most
        extra = min(SETS - own[tile], whites)
        whites -= extra
        note = f"{own[tile]} {KEYPLE_TILES[tile]}" + (f" + {extra} white" if extra else "")
        lines.append(Line(_name(tile) + (" (upgraded)" if tiles[tile] else ""), value * (own[tile] + extra),
                          note + " keyples"))
    return lines


def animal_lines(tiles: Mapping[str, bool], goods: Mapping[str, int]) -> list[Line]:
    """Animal tiles: one kind each, or one of each of four kinds on the farmyard and paddock (pp.15-18)."""
    per_tile: dict[str, Counter[str]] = {t: Counter() for t in list(ONE_ANIMAL) + list(MIXED_ANIMALS) if t in tiles}
    for animal in ANIMALS:
        single = next((t for t, (a, _, _) in ONE_ANIMAL.items() if a == animal and t in tiles), None)
        mixed = next((t for t, kinds in MIXED_ANIMALS.items() if animal in kinds and t in tiles), None)
        for tile, n in _split_animal(goods.get(animal, 0), tiles, single, mixed):
            per_tile[tile][animal] += n
    lines = []
    for tile, held in per_tile.items():
        points = _animal_points(tile, tiles[tile], held)
        lines.append(Line(_name(tile) + (" (upgraded)" if tiles[tile] else ""), points,
                          ", ".join(f"{n} {a}" for a, n in held.items() if n)))
    return lines


def _split_animal(count: int, tiles: Mapping[str, bool], single: str | None,
                  mixed: str | None) -> list[tuple[str, int]]:
    """The best split of one kind of animal between its own tile and the mixed tile."""
    best: tuple[int, list[tuple[str, int]]] = (0, [])
    for to_mixed in (0, 1) if mixed and count else (0,):
        to_single = min(SETS, count - to_mixed) if single else 0
        value = (_animal_points(single, tiles[single], Counter({"x": to_single})) if single else 0) + (
            (2 if tiles[mixed] else 1) * to_mixed if mixed else 0)
        parts = [(t, n) for t, n in ((single, to_single), (mixed, to_mixed)) if t and n]
        if value > best[0]:
            best = (value, parts)
    return best[1]


def _animal_points(tile: str, up: bool, held: Counter[str]) -> int:
    """Points of an animal tile for the animals allocated to it."""
    if tile in MIXED_ANIMALS:
        return (2 if up else 1) * sum(1 for n in held.values() if n)
    _, plain, upgraded = ONE_ANIMAL[tile]
    return (upgraded if up else plain) * min(SETS, sum(held.values()))


def resource_lines(tiles: Mapping[str, bool], goods: Mapping[str, int]) -> list[Line]:
    """Gem sets, yards, prospector, upgraded windmill and scrap dealer, with the best allocation (pp.16-19)."""
    plan = best_resource_plan(tiles, goods)
    return [Line(_name(t) + (" (upgraded)" if tiles[t] else ""), pts, what) for t, pts, what in plan]


def _set_tiles(tiles: Mapping[str, bool]) -> list[tuple[str, tuple[str, ...], int]]:
    """(tile, gems of one set, points per set) for every gem-set tile built."""
    found = []
    for tile, (pair, triple) in GEM_SETS.items():
        if tile in tiles:
            found.append((tile, triple if tiles[tile] else pair, 6 if tiles[tile] else 4))
    return sorted(found, key=lambda x: -x[2] / len(x[1]))


def best_resource_plan(tiles: Mapping[str, bool], goods: Mapping[str, int]) -> list[tuple[str, int, str]]:
    """The allocation of gems, goods, wheat and raw materials that scores most: (tile, points, allocation).

    Branch and bound over the number of sets on each gem-set tile; what the sets leave goes to the other
    tiles, whose best score depends only on how many gems are left, so it is computed once per count.
    """
    sets = _set_tiles(tiles)
    gems = Counter({g: goods.get(g, 0) for g in GEMS})
    others = Counter({r: n for r, n in goods.items() if n > 0 and r not in ANIMALS and r not in GEMS})
    cache: dict[int, int] = {}

    def rest(gems_left: int) -> int:
        if gems_left not in cache:
            cache[gems_left] = _remainder(tiles, others + Counter({GEMS[0]: gems_left}))[0]
        return cache[gems_left]

    best: list[Any] = [-1, ()]

    def search(i: int, left: Counter[str], chosen: tuple[int, ...], points: int) -> None:
        optimistic = sum(v * min([SETS] + [left[g] for g in need]) for _, need, v in sets[i:])
        if points + optimistic + rest(sum(left.values())) <= best[0]:
            return
        if i == len(sets):
            best[:] = [points + rest(sum(left.values())), chosen]
            return
        _, need, value = sets[i]
        for n in range(min([SETS] + [left[g] for g in need]), -1, -1):
            after = left.copy()
            after.subtract({g: n for g in need})
            search(i + 1, after, (*chosen, n), points + value * n)

    search(0, gems, (), 0)
    left = Counter({r: n for r, n in goods.items() if n > 0 and r not in ANIMALS})
    plan = []
    for (tile, need, value), n in zip(sets, best[1], strict=True):
        left.subtract({g: n for g in need})
        plan.append((tile, value * n, f"{n} set(s) of {'+'.join(need)}" if n else ""))
    return plan + _remainder(tiles, left)[1]


def _remainder(tiles: Mapping[str, bool], left: Counter[str]) -> tuple[int, list[tuple[str, int, str]]]:
    """Yards, prospector, windmill and scrap dealer on what the gem sets left, solved exactly.

    Each single-kind tile takes up to 4; the scrap dealer takes the rest up to 8 and scores per pair. Taking
    more than one item from the other tiles for the scrap dealer never helps, so each keeps 4, or one less.
    """
    takers: list[tuple[str, tuple[str, ...], int]] = [(t, (YARDS[t],), 2 if tiles[t] else 1) for t in YARDS
                                                      if t in tiles]
    if "prospector" in tiles:
        takers.append(("prospector", GEMS, 2 if tiles["prospector"] else 1))
    if tiles.get("windmill"):
        takers.append(("windmill", (WHEAT,), 2))
    full = [min(SETS, sum(left[k] for k in kinds)) for _, kinds, _ in takers]
    best: tuple[int, list[tuple[str, int, str]]] = (-1, [])
    for less in product(*[(n, n - 1) if n else (0,) for n in full]):
        points = sum(v * n for (_, _, v), n in zip(takers, less, strict=True))
        used = sum(less)
        spare = sum(n for r, n in left.items() if r in RAW + FINISHED + GEMS + (WHEAT,) and n > 0) - used
        plan = [(t, v * n, f"{n} {'/'.join(kinds)}" if n else "") for (t, kinds, v), n in
                zip(takers, less, strict=True)]
        if "scrap_dealer" in tiles:
            scrap = min(2 * SETS, spare)
            per_pair = 2 if tiles["scrap_dealer"] else 1
            points += per_pair * (scrap // 2)
            plan.append(("scrap_dealer", per_pair * (scrap // 2), f"{scrap} resources" if scrap else ""))
        if points > best[0]:
            best = (points, plan)
    return best


def tie_break_key(goods: Mapping[str, int]) -> tuple[int, ...]:
    """The rulebook's tie-break order: gems, finished goods, wheat, raw materials, then each animal (p.9)."""
    groups = [sum(goods.get(g, 0) for g in GEMS), sum(goods.get(f, 0) for f in FINISHED), goods.get(WHEAT, 0),
              sum(goods.get(r, 0) for r in RAW)]
    return tuple(groups + [goods.get(a, 0) for a in TIE_BREAK[4:]])


def explain_tie(ranked: list[Any], keys: Mapping[int, tuple[int, ...]]) -> str:
    """Say which tie-break decided between players level on points, or '' when none was needed."""
    notes = []
    for first, second in zip(ranked, ranked[1:], strict=False):
        if first.total != second.total:
            continue
        a, b = keys[first.seat], keys[second.seat]
        decider = next((i for i in range(len(a)) if a[i] != b[i]), None)
        if decider is None:
            notes.append(f"{first.name} and {second.name} are tied on points and on every tie-break.")
        else:
            notes.append(f"{first.name} and {second.name} are tied on {first.total} points; {first.name} wins the "
                         f"tie-break on {TIE_BREAK[decider]} ({a[decider]} to {b[decider]}).")
    return " ".join(notes)
