"""What building, upgrading and exchanging units may do: the options of fields and of building tiles (pp.13-19)."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement

from engine.keyper.actions import Action, Build, Exchange, Upgrade
from engine.keyper.economy import can_pay, hand_ins, has_all, tokens
from engine.keyper.spaces import comps
from engine.keyper.state import Player, State
from engine.keyper.vocab import ANIMALS, FINISHED, GEMS, RAW, WHEAT

WILD_ANIMALS = ("chicken", "deer", "goat", "boar")
KEY_MARKET = RAW + FINISHED + GEMS + (WHEAT,)


def plot_cell(plot: str) -> tuple[str, int, int]:
    """(area, row, col) of a plot id: farm f1..f8 and village v1..v12 fill their grids row by row."""
    board = comps().player_board
    cols = board.farm_cols if plot[0] == "f" else board.village_cols
    index = int(plot[1:]) - 1
    return ("farm" if plot[0] == "f" else "village"), index // cols, index % cols


def plot_at(area: str, row: int, col: int) -> str | None:
    """The plot id at a grid position, None off the grid."""
    board = comps().player_board
    rows, cols = (board.farm_rows, board.farm_cols) if area == "farm" else (board.village_rows, board.village_cols)
    if not (0 <= row < rows and 0 <= col < cols):
        return None
    return f"{area[0]}{row * cols + col + 1}"


@functools.cache
def plots_of(area: str) -> tuple[str, ...]:
    """Every plot id of an area (the same for every player board)."""
    board = comps().player_board
    count = board.farm_rows * board.farm_cols if area == "farm" else board.village_rows * board.village_cols
    return tuple(f"{area[0]}{i}" for i in range(1, count + 1))


def free_plots(player: Player) -> set[str]:
    """Plots a building plot tile lets the player build on at no cost (p.16)."""
    found = set()
    for plot_id, plot in player.plots.items():
        if plot.tile == "building_plot":
            area, row, col = plot_cell(plot_id)
            spots = [(row, col + 1)] + ([(row - 1, col), (row + 1, col)] if plot.upgraded else [])
            found |= {p for r, c in spots if (p := plot_at(area, r, c))}
    return found


def build_cost(player: Player, action: Build, rule: str) -> list[str]:
    """The items a build costs under a rule: printed, discount, builder, builder_up, or free_farm (labourer)."""
    if action.plot in free_plots(player):
        return []
    return _cost_items(action.tile, rule, action.waive)


def _cost_items(tile_id: str, rule: str, waive: str | None) -> list[str]:
    """A tile's cost under a rule, before any free plot (p.13 note 4; builder and farm labourer p.16)."""
    if rule == "free_farm":
        return []
    if rule in ("builder", "builder_up"):
        return ["finished_only" if rule == "builder" else "any_finished"]
    items = tokens(comps().tiles[tile_id].cost)
    if rule == "discount" and waive is not None and len(items) > 1:
        items.remove(waive)
    return items


Placement = tuple[str, str, str | None]  # (tile, plot, waived item)


def builds(state: State, seat: int, rule: str) -> Iterator[Action]:
    """Every build the seat can afford under a rule (p.13 note 4; builder and farm labourer, p.16), one by one: each
    tile's worked out only when the builds before it have been taken."""
    return (Build(tile, plot, waive) for found in _buildable_by_tile(state, seat, rule)
            for tile, plot, waive in found)


def buildable(state: State, seat: int, rule: str) -> list[Placement]:
    """builds as (tile, plot, waived item) triples."""
    return [triple for found in _buildable_by_tile(state, seat, rule) for triple in found]


def _buildable_by_tile(state: State, seat: int, rule: str) -> Iterator[list[Placement]]:
    """buildable's triples, tile by tile and waived item by waived item (a list each, maybe empty)."""
    player = state.players[seat]
    free = free_plots(player)
    open_plots: dict[str, list[str]] = {}  # by area: the same for every tile of the area
    affordable: dict[tuple[str, ...], bool] = {}  # by cost: tiles often cost the same
    for tile_id in dict.fromkeys(player.tiles):
        tile = comps().tiles[tile_id]
        if rule == "free_farm" and tile.area != "farm":
            continue
        if tile.area not in open_plots:  # a tile goes on a plot of its own area, empty or built only once (p.15)
            open_plots[tile.area] = [p for p in plots_of(tile.area) if (built := player.plots.get(p)) is None
                                     or built.under is None]
        plots = open_plots[tile.area]
        if not plots:
            continue
        items = tokens(tile.cost)
        waives = list(dict.fromkeys(items)) if rule == "discount" and len(items) > 1 else [None]
        for waive in waives:
            cost = tuple(_cost_items(tile_id, rule, waive))
            if cost not in affordable:
                affordable[cost] = can_pay(player.goods, list(cost))
            yield [(tile_id, p, waive) for p in plots if affordable[cost] or p in free]


def upgrade_cost(player: Player, plot_id: str, rule: str) -> list[str]:
    """One raw material or wheat for a farm tile, one finished good or wheat for a village tile (p.13 note 5)."""
    if rule == "free_farm":
        return []
    if rule == "builder_up":
        return ["any_finished"]
    return ["any_raw" if plot_cell(plot_id)[0] == "farm" else "any_finished"]


def upgrade_options(state: State, seat: int, rule: str, only: str | None = None) -> list[Action]:
    """Upgrades the seat can afford: every built, not yet upgraded tile (or just one plot)."""
    player = state.players[seat]
    found: list[Action] = []
    for plot_id, plot in player.plots.items():
        if plot.upgraded or (only and plot_id != only):
            continue
        if rule == "free_farm" and plot_cell(plot_id)[0] != "farm":
            continue
        if can_pay(player.goods, upgrade_cost(player, plot_id, rule)):
            found.append(Upgrade(plot_id))
    return found


def _pairs(kinds: tuple[str, ...]) -> list[tuple[str, str]]:
    """Every unordered pair of kinds, repeats allowed."""
    return list(combinations_with_replacement(kinds, 2))


Choices = tuple[tuple[str, ...], ...]  # sets of goods, each sorted


@functools.cache
def exchange_rules(kind: str, upgraded: bool) -> tuple[tuple[Choices, Choices], ...]:
    """(gives, gets) choices for a convert or trade field, or a converting tile (pp.12-19); worked out once per kind."""
    twice = 2 if upgraded else 1

    def each(items: tuple[str, ...], n: int) -> Choices:
        return tuple(tuple(sorted(c)) for c in combinations_with_replacement(items, n))

    rules: dict[str, list[tuple[Choices, Choices]]] = {
        "convert_clay": [((("clay",),), (("brick",),))],
        "convert_log": [((("log",),), (("wood",),))],
        "convert_rock": [((("rock",),), (("stone",),))],
        "trade_raw": [(each(RAW, 1), each(RAW, 2))],
        "trade_finished": [(each(FINISHED, 1), each(FINISHED, 2))],
        "brickmaker": [((("clay",),), (("brick",) * twice,))],
        "carpenter": [((("log",),), (("wood",) * twice,))],
        "stonemason": [((("rock",),), (("stone",) * twice,))],
        "scrapyard": [(each(RAW, 2 if not upgraded else 1), each(FINISHED, 1))],
        "alchemist": [(each(RAW, 2 if not upgraded else 1), each(GEMS, 1))],
        "jewel_cutter": [((("stone",),), each(GEMS, twice))],
        "gem_dealer": [(each(GEMS, 1), each(GEMS, twice))],
        "windmill": [(each(RAW, 1), (("wheat", "wheat"),))],
        "hop_field": [((("wheat",),), each(ANIMALS, twice))],
        "livestock_market": [(each(ANIMALS, 1), each(ANIMALS, twice))],
        "copse": [((("wood",),), each(WILD_ANIMALS, twice))],
        "key_market": [(each(KEY_MARKET, 2 if not upgraded else 1), each(KEY_MARKET, 1))],
        "trading_post": [(each(RAW, 1), each(RAW, 2)), (each(FINISHED, 1), each(FINISHED, 2))],
    }
    return tuple(rules.get(kind, []))


def exchanges(state: State, seat: int, kind: str, upgraded: bool = False) -> Iterator[Action]:
    """The exchanges a seat can make now with a field or tile of this kind (the supply must hold what it gets), each
    once, worked out only as far as they are asked for.

    Where a raw material is asked for, its finished good may be handed in instead (rulebook p.10, ruling K-22);
    an exchange that would hand in exactly what it gives back changes nothing and is not offered.
    """
    goods = state.players[seat].goods
    unlimited = bool(state.options.get("unlimited_supply"))
    seen: set[Action] = set()
    for gives, gets in exchange_rules(kind, upgraded):
        for need in gives:
            for give in hand_ins(need):
                if not has_all(goods, give):
                    continue
                supply = Counter(state.supply) + Counter(give)  # what is handed in may come straight back
                for get in gets:
                    if tuple(sorted(get)) != give and (unlimited or has_all(supply, get)):
                        exchange = Exchange(give, get)
                        if exchange not in seen:
                            seen.add(exchange)
                            yield exchange


def tile_rules(state: State, seat: int, plot_id: str) -> tuple[str, str]:
    """(build rule, upgrade rule) of a unit earned on a plot: the builder and farm labourer change costs."""
    plot = state.players[seat].plots[plot_id]
    if plot.tile == "builder":
        return ("builder_up" if plot.upgraded else "builder"), ("builder_up" if plot.upgraded else "normal")
    if plot.tile == "farm_labourer":
        return "free_farm", ("free_farm" if plot.upgraded else "normal")
    return "printed", "normal"


def tile_actions(state: State, seat: int, plot_id: str) -> list[Action]:
    """What a unit on one's own tile may do: the tile's action if it has one, or upgrading that tile (p.13)."""
    plot = state.players[seat].plots[plot_id]
    tile = comps().tiles[plot.tile]
    found: list[Action] = []
    if tile.activated and tile.id in ("builder", "farm_labourer"):
        build_rule, upgrade_rule = tile_rules(state, seat, plot_id)
        found += builds(state, seat, build_rule)
        if plot.upgraded:
            found += upgrade_options(state, seat, upgrade_rule)
    elif tile.activated:
        found += exchanges(state, seat, tile.id, plot.upgraded)
    own = upgrade_options(state, seat, "normal", only=plot_id)
    return found + [a for a in own if a not in found]
