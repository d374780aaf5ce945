"""Why a unit of a yield or an item of a payment cannot be spent that way: take, sell, tile, build, upgrade,
exchange, pay.

Each function gives (reason, rule) for an action legal_actions refused in the yields or pay phase (why_illegal
says something generic when it gives None).
"""

from __future__ import annotations

from collections import Counter

from engine.keyper import works
from engine.keyper.actions import Build, Exchange, Pay, Sell, Take, TakeTile, Upgrade
from engine.keyper.economy import accepts, and_list, can_pay, hand_ins, items_words, pay_options, tokens, unpaid
from engine.keyper.legal import sellable
from engine.keyper.rulerefs import BOAT, BUILD, DISCOUNT, EXCHANGE, OVERBUILD, RESOURCES, SUPPLY, TILES, YIELD
from engine.keyper.spaces import comps
from engine.keyper.state import Player, State, Step
from engine.keyper.vocab import FINISHED_OF_RAW, RAW, plural

# --- What a yield unit is ------------------------------------------------------------------------------------


_UNIT_WORDS = {
    "resource": "{one} from {source} ('take {first}')",
    "keyp": "one of {options} for {source} ('take RESOURCE')",
    "tile": "a country tile from the display ('tile NAME'), earned on {source}",
    "boat": "a boat action on {source}: take or sell {either}",
    "build": "a build action from {source} ('build TILE PLOT')",
    "discount_build": "a discount build action from {source} ('build TILE PLOT -ITEM')",
    "upgrade": "an upgrade action from {source} ('upgrade PLOT')",
    "exchange": "an exchange on {source} ('exchange GIVE for GET')",
}


def unit_words(state: State, step: Step) -> str:
    """What one unit is and how it is spent, e.g. 'a build action from the build field on board 1'."""
    first = step.options[0] if step.options else ""
    return _UNIT_WORDS.get(step.kind, "an action of {source}").format(
        source=step.source, first=first, one=plural(first, 1) if first else "", options=", ".join(step.options),
        either=" or ".join(step.options))


def _unit(state: State) -> Step:
    """The unit being decided."""
    return state.steps[0]


def _cap(text: str) -> str:
    """The text with its first letter in upper case."""
    return text[:1].upper() + text[1:]


# --- Spending units --------------------------------------------------------------------------------------------


def take(state: State, seat: int, action: Take) -> tuple[str, str] | None:
    """Reasons a take is refused."""
    step = _unit(state)
    if step.kind not in ("resource", "keyp", "boat"):
        return f"This unit is {unit_words(state, step)}, not a resource to take.", YIELD
    if action.resource not in step.options:
        return f"This unit offers {' or '.join(step.options)}, not {action.resource}.", YIELD
    if action.resource in state.boat_sold[seat]:
        return f"You sold {action.resource} to a boat this turn, so you cannot also take it (K-10).", BOAT
    return f"The supply has no {action.resource} left.", SUPPLY


def sell(state: State, seat: int, action: Sell) -> tuple[str, str] | None:
    """Reasons a sale is refused."""
    step = _unit(state)
    if step.kind != "boat":
        return f"Only a boat buys goods, and this unit is {unit_words(state, step)}.", BOAT
    if action.resource not in sellable(step.options):
        stand_ins = [f"a {FINISHED_OF_RAW[r]} as {r}" for r in step.options if r in FINISHED_OF_RAW]
        extra = f" ({', '.join(stand_ins)} also sells)" if stand_ins else ""
        return f"This boat buys only {' and '.join(step.options)}{extra}, not {action.resource}.", BOAT
    as_type = action.resource if action.resource in step.options else next(
        r for r in step.options if FINISHED_OF_RAW.get(r) == action.resource)
    if as_type in state.boat_took[seat]:
        return f"You took {as_type} from a boat this turn, so you cannot also sell {as_type} (K-10).", BOAT
    how = "" if as_type == action.resource else f" to sell as {as_type}"
    return f"You have no {action.resource}{how}.", BOAT


def tile(state: State, seat: int, action: TakeTile) -> tuple[str, str] | None:
    """Reasons a tile cannot be taken."""
    step = _unit(state)
    if step.kind != "tile":
        return f"This unit is {unit_words(state, step)}, not a country tile.", YIELD
    return f"{action.tile} is not in the display, which shows {', '.join(state.display)}.", TILES


def _build_rule(state: State, seat: int, step: Step) -> str | None:
    """The cost rule of a unit that may build (printed, discount, builder, builder_up, free_farm); None if not."""
    if step.kind == "build":
        return "printed"
    if step.kind == "discount_build":
        return "discount"
    if step.kind == "plot" and _works_tile(state, seat, step) in ("builder", "farm_labourer"):
        return works.tile_rules(state, seat, step.options[0])[0]
    return None


def _works_tile(state: State, seat: int, step: Step) -> str | None:
    """The tile a plot unit works, when it still stands there (a tile built over since earns nothing, p.16)."""
    plot = state.players[seat].plots.get(step.options[0])
    return plot.tile if plot is not None and plot.tile == step.options[-1] else None


def build(state: State, seat: int, action: Build) -> tuple[str, str] | None:
    """Reasons a build is refused: the unit, the tile, the plot, the discount or the cost."""
    step = _unit(state)
    rule = _build_rule(state, seat, step)
    if rule is None:
        return f"This unit is {unit_words(state, step)}; it cannot build.", BUILD
    player = state.players[seat]
    problem = tile_problem(player, action.tile, action.plot, rule)
    if problem:
        return problem
    if action.waive is not None and rule != "discount":
        return "Only a discount build leaves out a cost item: write the build without '-ITEM'.", DISCOUNT
    if rule == "discount" and action.plot not in works.free_plots(player):
        items = tokens(comps().tiles[action.tile].cost)
        name = comps().tiles[action.tile].name
        if len(items) == 1 and action.waive is not None:
            return (f"The {name} costs a single item ({items_words(items)}), and a discount never brings a cost "
                    "below one item: write the build without '-ITEM'.", DISCOUNT)
        if len(items) > 1 and action.waive is None:
            return (f"Name the cost item the discount leaves out, e.g. 'build {action.tile} {action.plot} "
                    f"-{items[0]}' (the {name} costs {items_words(items)}).", DISCOUNT)
        if action.waive is not None and action.waive not in items:
            return (f"The {name} costs {items_words(items)}: there is no {action.waive} item to leave out.",
                    DISCOUNT)
    return cost_problem(player, action, rule)


def tile_problem(player: Player, tile_id: str, plot_id: str, rule: str) -> tuple[str, str] | None:
    """Reasons a tile cannot go on a plot: not held, wrong area, no such plot, or a plot built over already."""
    tiles = comps().tiles
    if tile_id not in tiles:
        return f"There is no building tile called '{tile_id}'.", BUILD
    tile = tiles[tile_id]
    if tile_id not in player.tiles:
        built = any(p.tile == tile_id for p in player.plots.values())
        return (f"You do not hold the {tile.name} tile{' (you have built it already)' if built else ''}: you can "
                "build only your home tiles and the country tiles you have taken.", BUILD)
    if rule == "free_farm" and tile.area != "farm":
        return f"The farm labourer builds only farm tiles, and the {tile.name} is a village tile.", BUILD
    plots = works.plots_of(tile.area)
    if plot_id not in plots:
        return (f"The {tile.name} is a {tile.area} tile: it goes on plots {plots[0]} to {plots[-1]}, "
                f"not {plot_id}.", BUILD)
    built_there = player.plots.get(plot_id)
    if built_there is not None and built_there.under is not None:
        return (f"Plot {plot_id} has already been built over once (the {tiles[built_there.tile].name} covers the "
                f"{tiles[built_there.under].name}); a plot is built over only once.", OVERBUILD)
    return None


def cost_problem(player: Player, action: Build, rule: str) -> tuple[str, str] | None:
    """The cost of a build the player cannot pay, and what is missing."""
    cost = works.build_cost(player, action, rule)
    if can_pay(player.goods, cost):
        return None
    name = comps().tiles[action.tile].name
    return (f"Building the {name} this way costs {items_words(cost, stand_ins=False)}; you are short of "
            f"{items_words(unpaid(player.goods, cost))}.", BUILD)


def _upgrade_rule(state: State, seat: int, step: Step, plot_id: str) -> str | None:
    """The cost rule of a unit that may upgrade this plot (normal, builder_up, free_farm); None if it cannot."""
    if step.kind == "upgrade":
        return "normal"
    if step.kind != "plot" or _works_tile(state, seat, step) is None:
        return None
    if step.options[0] == plot_id:
        return "normal"
    plot = state.players[seat].plots[step.options[0]]
    if plot.upgraded and plot.tile in ("builder", "farm_labourer"):
        return works.tile_rules(state, seat, step.options[0])[1]
    return None


def upgrade(state: State, seat: int, action: Upgrade) -> tuple[str, str] | None:
    """Reasons an upgrade is refused: the unit, the plot or the cost."""
    step = _unit(state)
    if step.kind not in ("upgrade", "plot"):
        return f"This unit is {unit_words(state, step)}; it cannot upgrade.", BUILD
    player = state.players[seat]
    plot = player.plots.get(action.plot)
    if plot is None:
        return f"Plot {action.plot} has no building tile to upgrade.", BUILD
    name = comps().tiles[plot.tile].name
    if plot.upgraded:
        return f"The {name} on plot {action.plot} is already upgraded.", BUILD
    rule = _upgrade_rule(state, seat, step, action.plot)
    if rule is None:
        if step.kind == "plot":
            return (f"A keyple on plot {step.options[0]} upgrades only the tile it stands on (or, from an upgraded "
                    f"builder or farm labourer, other tiles), not plot {action.plot}.", BUILD)
        return f"This unit is {unit_words(state, step)}; it cannot upgrade.", BUILD
    if rule == "free_farm" and action.plot[0] != "f":
        return f"The upgraded farm labourer upgrades only farm tiles, and the {name} is a village tile.", BUILD
    cost = works.upgrade_cost(player, action.plot, rule)
    return (f"Upgrading the {name} on plot {action.plot} costs {items_words(cost)}; you have none of that.",
            BUILD)


_EXCHANGE_WORDS: dict[str, tuple[str, str]] = {
    # kind: (plain side, upgraded side)
    "convert_clay": ("turns 1 clay into 1 brick", ""),
    "convert_log": ("turns 1 log into 1 wood", ""),
    "convert_rock": ("turns 1 rock into 1 stone", ""),
    "trade_raw": ("trades 1 raw material for 2 raw materials of any types", ""),
    "trade_finished": ("trades 1 finished good for 2 finished goods of any types", ""),
    "brickmaker": ("turns 1 clay into 1 brick", "turns 1 clay into 2 bricks"),
    "carpenter": ("turns 1 log into 1 wood", "turns 1 log into 2 wood"),
    "stonemason": ("turns 1 rock into 1 stone", "turns 1 rock into 2 stone"),
    "scrapyard": ("turns 2 raw materials into 1 finished good", "turns 1 raw material into 1 finished good"),
    "alchemist": ("turns 2 raw materials into 1 gem", "turns 1 raw material into 1 gem"),
    "jewel_cutter": ("turns 1 stone into 1 gem", "turns 1 stone into 2 gems"),
    "gem_dealer": ("turns 1 gem into 1 other gem", "turns 1 gem into 2 gems"),
    "windmill": ("turns 1 raw material into 2 wheat", "turns 1 raw material into 2 wheat"),
    "hop_field": ("turns 1 wheat into 1 animal", "turns 1 wheat into 2 animals"),
    "livestock_market": ("turns 1 animal into 1 other animal", "turns 1 animal into 2 animals"),
    "copse": ("turns 1 wood into 1 chicken, deer, goat or boar", "turns 1 wood into 2 of chicken, deer, goat, boar"),
    "key_market": ("turns 2 of raw materials, finished goods, gems and wheat into 1 of those",
                   "turns 1 raw material, finished good, gem or wheat into 1 of those"),
    "trading_post": ("trades 1 raw material for 2, or 1 finished good for 2 (never wheat)",
                     "trades 1 raw material for 2 and 1 finished good for 2 (never wheat)"),
}


def _exchange_source(state: State, seat: int, step: Step) -> tuple[str, bool] | None:
    """(kind, upgraded) of the field or tile a unit exchanges with; None when the unit makes no exchange."""
    if step.kind == "exchange":
        return step.options[0], False
    tile = _works_tile(state, seat, step) if step.kind == "plot" else None
    if tile is not None and works.exchange_rules(tile, False):
        return tile, state.players[seat].plots[step.options[0]].upgraded
    return None


def exchange(state: State, seat: int, action: Exchange) -> tuple[str, str] | None:
    """Reasons an exchange is refused: the unit, the shape of the exchange, the goods or the supply."""
    step = _unit(state)
    source = _exchange_source(state, seat, step)
    if source is None:
        return f"This unit is {unit_words(state, step)}; it makes no exchange.", YIELD
    kind, upgraded = source
    plain, up = _EXCHANGE_WORDS.get(kind, ("exchanges goods", ""))
    what = up if upgraded and up else plain
    asks_raw = any(r in RAW for gives, _ in works.exchange_rules(kind, upgraded) for need in gives for r in need)
    stand_in = " (a finished good may be handed in for a raw material of its type, K-22)" if asks_raw else ""
    fits = any(action.give in hand_ins(need) and action.get in {tuple(sorted(g)) for g in gets}
               for gives, gets in works.exchange_rules(kind, upgraded) for need in gives)
    if not fits:
        return f"{_cap(step.source)} {what}{stand_in}: '{action}' is not such an exchange.", EXCHANGE
    if action.give == action.get:
        return ("That would hand in exactly what it gives back, which changes nothing: take another exchange or "
                "skip.", EXCHANGE)
    goods = state.players[seat].goods
    lacking = Counter(action.give) - Counter({r: n for r, n in goods.items() if n > 0})
    if lacking:
        return f"You lack {and_list([plural(r, n) for r, n in lacking.items()])} to hand in.", EXCHANGE
    supply = Counter(state.supply) + Counter(action.give)  # what is handed in goes back first (K-33)
    short = {r: n for r, n in Counter(action.get).items() if supply[r] < n}
    return (f"The supply cannot give {and_list([plural(r, n) for r, n in short.items()])}: it holds only "
            f"{and_list([plural(r, supply[r]) for r in short])}, counting what you hand in.", SUPPLY)


def pay(state: State, seat: int, action: Pay) -> tuple[str, str] | None:
    """Reasons a payment is refused: what the next item accepts, or what paying this way would leave unpaid."""
    payment = state.payment
    assert payment is not None
    item, rest = payment.items[0], payment.items[1:]
    goods = state.players[seat].goods
    if action.resource not in accepts(item):
        return f"The next item to pay is {items_words([item])}: {action.resource} cannot pay it.", RESOURCES
    if goods.get(action.resource, 0) == 0:
        return f"You have no {action.resource} to pay with.", RESOURCES
    options = pay_options(goods, payment.items)
    return (f"Paying {items_words([item])} with {action.resource} would leave you unable to pay the rest "
            f"({items_words(rest)}); pay it with {' or '.join(options)}.", RESOURCES)
