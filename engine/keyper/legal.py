"""Keyper's legal actions: the single source of truth for validation, autocomplete, checks and play-outs."""

from __future__ import annotations

import functools
from collections.abc import Iterable

from engine.keyper import fairs, housing, works
from engine.keyper.actions import (
    Action,
    ChooseDisplay,
    Decline,
    Done,
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
)
from engine.keyper.economy import pay_options, stands_for
from engine.keyper.spaces import (
    SpaceRef,
    all_spaces,
    claimed_board,
    comps,
    keyp_empty,
    may_join,
    season_name,
    working_colour,
)
from engine.keyper.state import Keyple, State, Step
from engine.keyper.vocab import FINISHED_OF_RAW

# A turn lists hundreds of keyple plays; actions are frozen, so each distinct one is made once and shared (six times
# as fast as making it anew: a frozen record's __init__ sets each field through object.__setattr__).
_play = functools.cache(PlayKeyple)


def to_act(state: State) -> list[int]:
    """Seats that must decide now."""
    if state.phase == "turn":
        return [state.active]
    if state.phase == "joiner" and state.offer is not None:
        return [state.offer.candidates[state.offer.index]]
    if state.phase == "yields" and state.steps:
        return [state.steps[0].seat]
    if state.phase == "pay" and state.payment is not None:
        return [state.payment.seat]
    return list(state.waiting)


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every action the seat may take now; empty when the seat has no decision."""
    if seat not in to_act(state):
        return []
    phase_actions = _BY_PHASE.get(state.phase)
    return phase_actions(state, seat) if phase_actions else []


def _turn(state: State, seat: int) -> list[Action]:
    """A turn: play the keyper or a keyple while the keyp holds any; otherwise lay keyples down."""
    if keyp_empty(state, seat):
        return list(laydowns(state, seat))
    found: list[Action] = []
    if state.players[seat].keyper_home:
        found += [PlayKeyper(b.number) for b in state.boards if b.keyper is None]
    colours = [c for c, n in state.players[seat].keyp.items() if n > 0]
    return found + keyple_plays(state, seat, colours) if colours else found


def keyple_plays(state: State, seat: int, colours: list[str]) -> list[Action]:
    """Every space keyples of these colours may be played onto (rulebook pp.4-5), and every direct build."""
    found: list[Action] = []
    boats = free_boats(state)
    for board in state.boards:
        for field_id, border in _playable_fields(board.display):
            keyples = board.spaces.get(field_id, [])
            found += _plays_onto(colours, f"{board.number}.{field_id}", border, keyples, boats if field_id == "river"
                                 else None)
    player = state.players[seat]
    for plot_id in player.plots:
        found += _plays_onto(colours, plot_id, None, player.plot_keyples.get(plot_id, []), None)
    # A keyple builds directly wherever a build action could put the tile, over a tile too (p.13 note 4 v, p.15,
    # K-27), but never as a third keyple on a plot (p.4, 2a).
    builds = [(tile, plot) for tile, plot, _ in works.buildable(state, seat, "printed")
              if len(player.plot_keyples.get(plot, [])) < 2]
    return found + [_play(c, plot, build=tile) for tile, plot in builds for c in colours]


@functools.cache
def _playable_fields(display_id: str) -> tuple[tuple[str, str | None], ...]:
    """The fields of a display a keyple may be played onto (all but the keyp field), with their border colours."""
    return tuple((f.id, comps().field_kinds[f.kind].colour) for f in comps().display(display_id).fields
                 if f.kind != "keyp")


def _plays_onto(colours: list[str], space: str, border: str | None, keyples: list[Keyple],
                boats: list[str] | None) -> list[Action]:
    """The plays onto one space: into it when empty (onto the river with one of the free boats), or joining its one
    existing keyple."""
    if not keyples:
        if boats is not None:
            return [_play(c, space, boat=b) for c in colours for b in boats]
        return [_play(c, space) for c in colours]
    if len(keyples) >= 2:
        return []
    working = working_colour(keyples[0], border)
    plays: list[Action] = []
    for colour in colours:
        if may_join(colour, working):
            plays.append(_play(colour, space))
            if not keyples[0].lying:
                plays.append(_play(colour, space, lay=True))
    return plays


def free_boats(state: State) -> list[str]:
    """This season's boats not yet put on a river."""
    used = {b.boat for b in state.boards}
    return [b for b in state.boats if b not in used]


def laydown_spaces(state: State, seat: int) -> list[SpaceRef]:
    """Spaces with a standing keyple the seat may lay down: own plots and claimed board first (p.6, 3 iii)."""
    standing = [(ref, ks) for ref, ks in all_spaces(state, seat) if any(not k.lying for k in ks)]
    claimed = claimed_board(state, seat)
    own = [ref for ref, _ in standing if ref.board is None or ref.board == claimed]
    return own or [ref for ref, _ in standing]


def laydowns(state: State, seat: int) -> list[LayDown]:
    """Lay-down actions: one keyple, or both when two stand on the space."""
    found = []
    for ref in laydown_spaces(state, seat):
        found.append(LayDown(str(ref), 1))
        board_or_plots = state.boards[ref.board - 1].spaces if ref.board else state.players[seat].plot_keyples
        if sum(not k.lying for k in board_or_plots[ref.name]) == 2:
            found.append(LayDown(str(ref), 2))
    return found


def _joiner(state: State, seat: int) -> list[Action]:
    """The invited seat whose turn it is to answer: join or decline."""
    return offer_answers(state, seat)


def offer_answers(state: State, seat: int) -> list[Action]:
    """How a seat still waiting in the joiner queue may answer: a matching or white keyple, or decline (p.5, 2b).

    Transports may collect answers from every invited seat at once; apply takes them in priority order.
    """
    offer = state.offer
    if state.phase != "joiner" or offer is None or seat not in offer.candidates[offer.index:]:
        return []
    keyp = state.players[seat].keyp
    found: list[Action] = [Join(c) for c in dict.fromkeys((offer.colour, "white")) if keyp.get(c, 0) > 0]
    return found + [Decline()]


def in_supply(state: State, resource: str) -> bool:
    """Whether the general supply can give one of this resource (always, with unlimited_supply)."""
    return bool(state.options.get("unlimited_supply")) or state.supply.get(resource, 0) > 0


def step_takes(state: State, step: Step) -> list[Action]:
    """What one unit of a yield may be spent on (without the skip)."""
    return list(_takes(state, step))


def can_take(state: State, step: Step) -> bool:
    """Whether one unit of a yield may be spent on anything (stops at the first thing found: a list of builds or
    exchanges is long)."""
    return next(iter(_takes(state, step)), None) is not None


def _takes(state: State, step: Step) -> Iterable[Action]:
    """step_takes, built lazily where the list is long (builds and exchanges)."""
    if step.kind in ("resource", "keyp"):
        return [Take(r) for r in step.options if in_supply(state, r)]
    if step.kind == "tile":
        return [TakeTile(t) for t in state.display]
    if step.kind == "boat":
        took, sold = state.boat_took[step.seat], state.boat_sold[step.seat]
        goods = state.players[step.seat].goods
        takes: list[Action] = [Take(r) for r in step.options if in_supply(state, r) and r not in sold]
        return takes + [Sell(g) for g in sellable(step.options)
                        if goods.get(g, 0) > 0 and stands_for(g, step.options) not in took]
    return _work(state, step)


def sellable(shown: list[str]) -> list[str]:
    """The goods a boat showing these types buys: each type, and the finished good of a raw material it shows,
    which may always be used as that raw material (rulebook p.10, ruling K-22)."""
    found = list(shown)
    found += [FINISHED_OF_RAW[r] for r in shown if r in FINISHED_OF_RAW and FINISHED_OF_RAW[r] not in shown]
    return found


def _work(state: State, step: Step) -> Iterable[Action]:
    """Building, upgrading and exchanging units (pp.13-19)."""
    if step.kind == "build":
        return works.builds(state, step.seat, "printed")
    if step.kind == "discount_build":
        return works.builds(state, step.seat, "discount")
    if step.kind == "upgrade":
        return works.upgrade_options(state, step.seat, "normal")
    if step.kind == "exchange":
        return works.exchanges(state, step.seat, step.options[0])
    plot = state.players[step.seat].plots.get(step.options[0]) if step.kind == "plot" else None
    if plot is not None and plot.tile == step.options[-1]:  # a tile built over since earns nothing (p.16)
        return works.tile_actions(state, step.seat, step.options[0])
    return []


def _yields(state: State, seat: int) -> list[Action]:
    """The current unit of a yield: its takes, or skip the rest."""
    return step_takes(state, state.steps[0]) + [Skip()]


def _pay(state: State, seat: int) -> list[Action]:
    """The resources that may pay the next item of a cost."""
    assert state.payment is not None
    return [Pay(r) for r in pay_options(state.players[seat].goods, state.payment.items)]


def _fairs(state: State, seat: int) -> list[Action]:
    """Fairs the seat may hold now, or done."""
    found: list[Action] = [HoldFair(f, pts if winter else None) for f, pts, winter in fairs.holdable(state, seat)]
    return found + [Done()]


def releasable(state: State, seat: int) -> list[str]:
    """Animal types of which one may go without housing fewer animals in all."""
    player = state.players[seat]
    counts = housing.animal_counts(player)
    keep = housing.must_keep(counts, housing.housing_tiles(player))
    return [a for a, n in counts.items() if n > keep[a]]


def _housing(state: State, seat: int) -> list[Action]:
    """Which animal to let go when not all can be housed."""
    return [Release(a) for a in releasable(state, seat)]


def _choose_display(state: State, seat: int) -> list[Action]:
    """The displays of this season the seat may fold its board to."""
    return [ChooseDisplay(d) for d in display_choices(state)]


def display_choices(state: State) -> list[str]:
    """The ids of this season's displays, any of which a player may fold the claimed board to (p.9 note 3)."""
    return [d.id for d in comps().displays_by_season[season_name(state)]]


def _rest(state: State, seat: int) -> list[Action]:
    """Which excess keyple goes onto the keyp tile."""
    return [Rest(c) for c, n in state.players[seat].keyp.items() if n > 0]


_BY_PHASE = {
    "turn": _turn,
    "joiner": _joiner,
    "yields": _yields,
    "pay": _pay,
    "fairs": _fairs,
    "housing": _housing,
    "choose_display": _choose_display,
    "rest": _rest,
}
