"""Why an action is not legal now: a sentence and the rule it rests on. Used only after legal_actions refused.

Every refusal says what is wrong or missing: the resource a player lacks, the colour a space wants, the
season a fair belongs to. The generic sentence at the end of why_illegal is a last resort that the tests in
tests/keyper/test_refusals.py keep from being reached.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from engine.keyper import housing, works
from engine.keyper.actions import (
    Action,
    Build,
    ChooseDisplay,
    Decline,
    Done,
    Exchange,
    HoldFair,
    Join,
    LayDown,
    Pay,
    PlayKeyper,
    PlayKeyple,
    Release,
    Rest,
    Sell,
    Skip,
    Take,
    TakeTile,
    Upgrade,
)
from engine.keyper.economy import accepts, and_list, can_pay, hand_ins, items_words, pay_options, tokens, unpaid
from engine.keyper.fairs import own_fairs, shortfall, shown_this_season
from engine.keyper.legal import display_choices, free_boats, laydown_spaces, releasable, sellable, to_act
from engine.keyper.spaces import (
    SpaceRef,
    comps,
    field_kind,
    keyp_empty,
    keyples_on,
    may_join,
    parse_space,
    season_name,
    space_colour,
    working_colour,
)
from engine.keyper.state import Player, State, Step
from engine.keyper.vocab import ANIMALS, FINISHED_OF_RAW, RAW, SEASONS, a, plural

TURN = "rulebook p.4, A player's turn"
PLAY = "rulebook pp.4-5, 2a Play a keyple"
JOIN = "rulebook p.5, 2b Joiners"
EXISTING = "rulebook p.5, 2c Existing keyples"
LAYDOWN = "rulebook p.6, 3 Lay down a keyple(s)"
KEYPER = "rulebook p.4, 1 Play a keyper"
YIELD = "rulebook p.4, taking what a keyple earns"
BOAT = "rulebook pp.13-14, note 6 Boat tiles"
SUPPLY = "rulebook p.10, Notes on resources"
FAIRS = "rulebook p.8, End of season note 3"
WINTER_FAIRS = "rulebook p.14, Fair tiles"
HOUSING = "rulebook p.8, End of season note 4"
NEXT = "rulebook p.9, Start of next season"
BUILD = "rulebook p.13, notes 4-5 Building and upgrading"
OVERBUILD = "rulebook p.15, Overbuilding building tiles"
DISCOUNT = "rulebook p.13, note 4 and ruling K-20"
EXCHANGE = "rulebook pp.12-13 and pp.15-19, convert and trade fields and converting tiles"
TILES = "rulebook p.13, note 2 Country tiles"
RESOURCES = "rulebook p.10, Notes on resources"

_PHASE_OF: dict[type, tuple[str, str]] = {
    PlayKeyper: ("turn", TURN),
    PlayKeyple: ("turn", TURN),
    LayDown: ("turn", TURN),
    Join: ("joiner", JOIN),
    Decline: ("joiner", JOIN),
    Take: ("yields", YIELD),
    Sell: ("yields", BOAT),
    TakeTile: ("yields", YIELD),
    Skip: ("yields", YIELD),
    HoldFair: ("fairs", FAIRS),
    Done: ("fairs", FAIRS),
    Release: ("housing", HOUSING),
    ChooseDisplay: ("choose_display", NEXT),
    Rest: ("rest", NEXT),
    Build: ("yields", BUILD),
    Upgrade: ("yields", BUILD),
    Exchange: ("yields", YIELD),
    Pay: ("pay", RESOURCES),
}

# Why an action of a phase cannot be taken while the table is deciding something else.
_NOT_NOW = {
    "turn": "Playing a keyper or a keyple, or laying keyples down, is what a player does on their own turn, and no "
            "turn is being played now",
    "joiner": "There is no invitation to join open now",
    "yields": "There is no earned unit to spend now (take, sell, tile, exchange, build, upgrade and skip spend "
              "the units a keyple earns)",
    "pay": "There is no build or upgrade being paid for now",
    "fairs": "Fairs are held only at the end of a season, after the last lay-down turns",
    "housing": "Animals are let go only when they are housed at the end of a season, and only when not all fit",
    "choose_display": "Board displays are chosen only at the start of a season",
    "rest": "Keyples rest on the keyp tile only at the start of a season, when a player has more than the team "
            "limit",
}


def why_illegal(state: State, seat: int, action: Action, waiting: str) -> tuple[str, str]:
    """Return (reason, rule) for an action legal_actions did not offer."""
    if state.phase == "game_over":
        return "The game is over: no more actions are taken.", "rulebook p.9, End of game"
    phase, rule = _PHASE_OF[type(action)]
    if seat not in to_act(state):
        return f"It is not your decision now: {waiting}.", rule
    if phase != state.phase:
        return f"{_NOT_NOW[phase]}: {waiting}.", rule
    specific: Callable[[State, int, Any], tuple[str, str] | None] | None = _SPECIFIC.get(type(action))
    found = specific(state, seat, action) if specific else None
    return found or (f"'{action}' is not one of your choices now: {waiting}.", rule)


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


# --- Turn actions ----------------------------------------------------------------------------------------------


def _keyper(state: State, seat: int, action: PlayKeyper) -> tuple[str, str] | None:
    """Reasons a keyper cannot go to that board."""
    if not state.players[seat].keyper_home:
        return "Your keyper has already been played this season.", KEYPER
    if not 1 <= action.board <= len(state.boards):
        return f"There is no board {action.board}; boards are 1 to {len(state.boards)}.", KEYPER
    if state.boards[action.board - 1].keyper is not None:
        return f"The keyp field of board {action.board} already holds a keyper.", KEYPER
    return None


def _keyple(state: State, seat: int, action: PlayKeyple) -> tuple[str, str] | None:
    """Reasons a keyple cannot go to that space."""
    if state.players[seat].keyp.get(action.colour, 0) == 0:
        held = [c for c, n in state.players[seat].keyp.items() if n > 0]
        return (f"You have no {action.colour} keyple in your keyp"
                + (f" (you have {', '.join(held)})." if held else "; it is empty."), PLAY)
    ref = parse_space(action.space)
    if ref is None:
        return f"'{action.space}' names no space: use board.field like 2.pig, or a plot like v3.", PLAY
    if action.build:
        return _build_play_problem(state, seat, action, ref)
    if ref.board is None:
        return _plot_problem(state, seat, ref) or _occupancy_problem(state, seat, ref, action)
    kind = field_kind(state, ref.board, ref.name)
    if kind is None:
        if not 1 <= ref.board <= len(state.boards):
            return f"There is no board {ref.board}; boards are 1 to {len(state.boards)}.", PLAY
        return f"Board {ref.board} shows no '{ref.name}' field this season.", PLAY
    if kind.category == "keyp":
        return "Only keypers may be played onto a keyp field.", PLAY
    return _occupancy_problem(state, seat, ref, action)


def _plot_problem(state: State, seat: int, ref: SpaceRef) -> tuple[str, str] | None:
    """Reasons a plot cannot take a keyple."""
    if ref.name not in state.players[seat].plots:
        return (f"Plot {ref.name} on your board has no building tile built on it (to build one there with this "
                f"keyple, write 'play COLOUR {ref.name} build TILE').", PLAY)
    return None


def _occupancy_problem(state: State, seat: int, ref: SpaceRef, action: PlayKeyple) -> tuple[str, str] | None:
    """Reasons tied to the keyples already on the space, or the boat."""
    keyples = keyples_on(state, seat, ref)
    if len(keyples) >= 2:
        return f"{ref} already holds two keyples.", PLAY
    if keyples:
        working = working_colour(keyples[0], space_colour(state, ref))
        if not may_join(action.colour, working):
            extra = "" if working != "white" else " (a white keyple on an uncoloured space is joined only by white)"
            return f"Only {a(working)} or white keyple may join the keyple on {ref}{extra}.", EXISTING
        if action.lay and keyples[0].lying:
            return f"The keyple on {ref} is already lying down; it cannot work a third time.", EXISTING
        if action.boat:
            return f"The river on board {ref.board} already has its boat.", BOAT
    elif action.lay:
        return f"{ref} is empty, so there is no existing keyple to lay down.", EXISTING
    elif ref.name == "river" and not action.boat:
        boats = free_boats(state)
        return (f"Say which boat to put on the river, e.g. 'play {action.colour} {ref} {boats[0]}'." if boats
                else "Every boat of this season is already on a river.", BOAT)
    elif action.boat and ref.name != "river":
        return "Only the river takes a boat.", BOAT
    elif action.boat:
        boats = free_boats(state)
        return (f"{action.boat} is not one of this season's free boats"
                + (f" ({', '.join(boats)})." if boats else "; none is left."), BOAT)
    return None


def _build_play_problem(state: State, seat: int, action: PlayKeyple, ref: SpaceRef) -> tuple[str, str] | None:
    """Reasons a keyple cannot be played onto a plot to build a tile there, over any tile (p.13 note 4 v, K-27)."""
    assert action.build is not None
    if ref.board is not None:
        return ("A keyple builds a tile directly only on a plot of your own board, e.g. "
                f"'play {action.colour} v3 build {action.build}'.", BUILD)
    if action.lay or action.boat:
        return (f"A keyple that builds does only that: write 'play {action.colour} {ref.name} build {action.build}' "
                "without a boat or '+lay'.", BUILD)
    player = state.players[seat]
    if len(player.plot_keyples.get(ref.name, [])) >= 2:
        return f"Plot {ref.name} already holds two keyples: a plot takes no third, not even to build over it.", PLAY
    return _tile_problem(player, action.build, ref.name, "printed") or _cost_problem(
        player, Build(action.build, ref.name), "printed")


# --- Lay-downs and joiners -------------------------------------------------------------------------------------


def _laydown(state: State, seat: int, action: LayDown) -> tuple[str, str] | None:
    """Reasons a lay-down is refused."""
    if not keyp_empty(state, seat):
        return "You may lay keyples down only once your keyper and all your keyples have been played.", LAYDOWN
    ref = parse_space(action.space)
    if ref is None:
        return f"'{action.space}' names no space: use board.field like 2.pig, or a plot like v3.", LAYDOWN
    exists = ref.board is None or 1 <= ref.board <= len(state.boards)
    standing = sum(not k.lying for k in keyples_on(state, seat, ref)) if exists else 0
    if standing == 0:
        return f"There is no standing keyple on {ref} to lay down.", LAYDOWN
    if ref not in laydown_spaces(state, seat):
        first = ", ".join(str(r) for r in laydown_spaces(state, seat))
        return ("You must first lay down the standing keyples on your own board and your claimed board "
                f"({first}).", LAYDOWN)
    if standing < action.count:
        return f"Only one keyple stands on {ref}.", LAYDOWN
    return None


def _join(state: State, seat: int, action: Join) -> tuple[str, str] | None:
    """Reasons a join is refused."""
    assert state.offer is not None
    if state.players[seat].keyp.get(action.colour, 0) == 0:
        return f"You have no {action.colour} keyple in your keyp.", JOIN
    return f"Only {a(state.offer.colour)} or white keyple may join here, not {a(action.colour)} one.", JOIN


# --- Spending units --------------------------------------------------------------------------------------------


def _take(state: State, seat: int, action: Take) -> tuple[str, str] | None:
    """Reasons a take is refused."""
    step = _unit(state)
    if step.kind not in ("resource", "keyp", "boat"):
        return f"This unit is {unit_words(state, step)}, not a resource to take.", YIELD
    if action.resource not in step.options:
        return f"This unit offers {' or '.join(step.options)}, not {action.resource}.", YIELD
    if action.resource in state.boat_sold[seat]:
        return f"You sold {action.resource} to a boat this turn, so you cannot also take it (K-10).", BOAT
    return f"The supply has no {action.resource} left.", SUPPLY


def _sell(state: State, seat: int, action: Sell) -> tuple[str, str] | None:
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


def _tile(state: State, seat: int, action: TakeTile) -> tuple[str, str] | None:
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


def _build(state: State, seat: int, action: Build) -> tuple[str, str] | None:
    """Reasons a build is refused: the unit, the tile, the plot, the discount or the cost."""
    step = _unit(state)
    rule = _build_rule(state, seat, step)
    if rule is None:
        return f"This unit is {unit_words(state, step)}; it cannot build.", BUILD
    player = state.players[seat]
    problem = _tile_problem(player, action.tile, action.plot, rule)
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
    return _cost_problem(player, action, rule)


def _tile_problem(player: Player, tile_id: str, plot_id: str, rule: str) -> tuple[str, str] | None:
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


def _cost_problem(player: Player, action: Build, rule: str) -> tuple[str, str] | None:
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


def _upgrade(state: State, seat: int, action: Upgrade) -> tuple[str, str] | None:
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


def _exchange(state: State, seat: int, action: Exchange) -> tuple[str, str] | None:
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


def _pay(state: State, seat: int, action: Pay) -> tuple[str, str] | None:
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


# --- End and start of a season -----------------------------------------------------------------------------------


def _hold(state: State, seat: int, action: HoldFair) -> tuple[str, str] | None:
    """Reasons a fair cannot be held: whose it is, its season or side, or the resources it lacks."""
    fairs = comps().fairs
    label = f"{action.fair}{'' if action.points is None else ':' + str(action.points)}"
    if action.fair not in fairs:
        return f"There is no fair called '{action.fair}'.", FAIRS
    fair = fairs[action.fair]
    player = state.players[seat]
    season = season_name(state)
    held = [h.fair for hs in player.fairground.values() for h in hs]
    if action.fair in held:
        return f"You have already held {action.fair}; a fair is held once.", FAIRS
    if action.fair not in player.hidden_fairs and action.fair not in player.winter_fairs:
        mine = own_fairs(state, seat)
        return (f"{action.fair} is not one of your fairs" + (f"; you may hold {', '.join(mine)}." if mine
                                                                else "; you have none to hold this season."), FAIRS)
    if fair.kind != "winter":
        if fair.kind != season:
            return f"{action.fair} is a {fair.kind} fair: it can be held only at the end of {fair.kind}.", FAIRS
        if action.points is not None:
            return f"A {fair.kind} fair has one side: write 'hold {action.fair}'.", FAIRS
        side = fair.sides[0]
    else:
        sides = {s.points: s for s in fair.sides}
        fitting = [p for p, s in sides.items() if season in s.seasons]
        if not fitting:
            seasons = sorted({x for s in fair.sides for x in s.seasons}, key=SEASONS.index)
            return (f"{action.fair} is a winter fair: it can be held only at the end of {', '.join(seasons)}.",
                    WINTER_FAIRS)
        if action.points is None:
            choices = " or ".join(f"'hold {action.fair}:{p}'" for p in fitting)
            return f"Name the side of the winter fair by its points: {choices}.", WINTER_FAIRS
        if action.points not in sides:
            return (f"{action.fair} has sides worth {' and '.join(str(p) for p in sides)} points, not "
                    f"{action.points}.", WINTER_FAIRS)
        side = sides[action.points]
        if season not in side.seasons:
            return (f"The {action.points}-point side of {action.fair} can be held only at the end of "
                    f"{' or '.join(side.seasons)}.", WINTER_FAIRS)
    shown = shown_this_season(state, seat)
    short = shortfall(player.goods, shown + Counter(side.requires))
    beside = " beside what your fairs held this season already show" if shown else ""
    lacking = and_list([plural(r, n) + (f" (or {FINISHED_OF_RAW[r]} in its place)" if r in FINISHED_OF_RAW else "")
                        for r, n in short.items()])
    return (f"To hold {label} you must show {and_list([plural(r, n) for r, n in side.requires.items()])}{beside}; "
            f"you lack {lacking}.", FAIRS)


def _release(state: State, seat: int, action: Release) -> tuple[str, str] | None:
    """Reasons an animal need not be let go."""
    if action.animal not in ANIMALS:
        return f"Only animals are let go at housing, and {action.animal} is not an animal.", HOUSING
    counts = housing.animal_counts(state.players[seat])
    if counts.get(action.animal, 0) == 0:
        return f"You have no {action.animal}.", HOUSING
    options = releasable(state, seat)
    return (f"Your farm can keep every {action.animal} while housing the most animals, so none has to go; "
            f"let go one of: {', '.join(options)} (ruling K-12).", HOUSING)


def _display(state: State, seat: int, action: ChooseDisplay) -> tuple[str, str] | None:
    """Reasons a display cannot be chosen."""
    return (f"'{action.display}' is not a {season_name(state)} display; choose one of "
            f"{', '.join(display_choices(state))}.", NEXT)


def _rest(state: State, seat: int, action: Rest) -> tuple[str, str] | None:
    """Reasons a keyple cannot rest."""
    held = [c for c, n in state.players[seat].keyp.items() if n > 0]
    return f"You have no {action.colour} keyple to rest; you have {', '.join(held)}.", NEXT


_SPECIFIC: dict[type, Callable[[State, int, Any], tuple[str, str] | None]] = {
    PlayKeyper: _keyper,
    PlayKeyple: _keyple,
    LayDown: _laydown,
    Join: _join,
    Take: _take,
    Sell: _sell,
    TakeTile: _tile,
    Build: _build,
    Upgrade: _upgrade,
    Exchange: _exchange,
    Pay: _pay,
    HoldFair: _hold,
    Release: _release,
    ChooseDisplay: _display,
    Rest: _rest,
}
