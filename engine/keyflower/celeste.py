"""The Key Celeste module: the tile bid for like a turn-order tile, the ghost its winner takes, playing the ghost,
and the tile's end of season (module sheet "Key Celeste", rulings F-38 to F-43)."""

from __future__ import annotations

from engine.core import Event
from engine.keyflower import keyples as kp
from engine.keyflower import places as pl
from engine.keyflower import supply as sup
from engine.keyflower.actions import Act, act
from engine.keyflower.components import COMPONENTS
from engine.keyflower.pieces import KEY_CELESTE
from engine.keyflower.state import KfState

LOC = KEY_CELESTE
NAME = COMPONENTS.key_celeste.name



def chosen(state: KfState) -> bool:
    """Whether the group plays with Key Celeste."""
    return state.options.key_celeste



def on_table(state: KfState) -> bool:
    """Whether the Key Celeste tile still takes bids (it leaves the table at the end of winter)."""
    return chosen(state) and not state.celeste_out


def ghost_actions(state: KfState, seat: int) -> list[Act]:
    """Where the seat may play its ghost: next to another player's winning bid for a tile up for auction, from
    summer on, once (module sheet "The ghost", F-39)."""
    if not chosen(state) or state.season == 0 or state.ghost_holder != seat or state.ghost_at or state.ghost_out:
        return []
    return [act("ghost", loc) for loc in state.auction
            if not pl.closed(state, loc) and (top := pl.highest(state, loc)) is not None and top[0] != seat]


def play_ghost(state: KfState, seat: int, loc: str, ev: list[Event]) -> None:
    """The ghost replaces the winning bid: its workers go behind the ghost player's screen, and the ghost wins the
    tile for the player whose bid it was (F-40)."""
    top = pl.highest(state, loc)
    assert top is not None
    place = pl.entry(state, loc)
    group = place.bids.pop(top[0]).keyples()
    pl.recheck_wild(place)
    sup.add(state.workers[seat], group)
    place.ghost = top[0]
    state.ghost_at = loc
    names = state.names
    ev.append(Event(f"{names[seat]} plays the ghost on {loc}: {names[top[0]]}'s winning bid ({kp.words(group)}) "
                    f"goes behind {names[seat]}'s screen, and the ghost wins {loc} for {names[top[0]]}.", seat))


def ghost_resolved(state: KfState, ev: list[Event]) -> None:
    """After its tile is claimed, a played ghost goes back onto Key Celeste, or in winter leaves the game."""
    if state.season == 3:
        state.ghost_out = True
        ev.append(Event("The ghost played in winter leaves the game."))
    else:
        ev.append(Event("The ghost goes back onto Key Celeste."))
    state.ghost_holder, state.ghost_at = None, None


def resolve(state: KfState, ev: list[Event]) -> None:
    """The last step of a season, after the boats: an unplayed ghost comes back (not in winter), then Key Celeste
    goes to its highest bidder, whose workers go into the bag: the ghost in spring to autumn, the tile itself in
    winter (module sheet, End of the season; F-41, F-43)."""
    if not on_table(state):
        return
    if state.ghost_holder is not None and state.season < 3:
        ev.append(Event(f"{state.names[state.ghost_holder]}'s unplayed ghost goes back onto Key Celeste."))
        state.ghost_holder = None
    top = pl.highest(state, LOC)
    if top is not None:
        sup.add(state.bag, pl.peek(state, LOC).bids[top[0]].keyples())
    if state.season < 3:
        if top is not None:
            state.ghost_holder = top[0]
            ev.append(Event(f"{state.names[top[0]]} wins Key Celeste and takes the ghost.", top[0]))
        return
    state.celeste_out = True
    if top is None:
        ev.append(Event("Nobody bid for Key Celeste: it leaves the game."))
        state.ghost_out = state.ghost_out or state.ghost_holder is None  # with the ghost, if it sat on it
        return
    state.won[top[0]].append(LOC)
    with_ghost = state.ghost_holder is None and not state.ghost_out  # a ghost still on the tile goes with it (F-41)
    if with_ghost:
        state.ghost_holder = top[0]
    ev.append(Event(f"{state.names[top[0]]} wins the Key Celeste tile for their village"
                    f"{', with the ghost still on it' if with_ghost else ''}.", top[0]))


def tile_line(state: KfState, seat: int) -> tuple[str, int]:
    """The Key Celeste tile's score line: its points, more when its owner also owns the ghost (F-42)."""
    tile = COMPONENTS.key_celeste
    ghost = state.ghost_holder == seat and not state.ghost_out
    return (f"{NAME}{' with the ghost' if ghost else ''}", tile.points + (tile.ghost_points if ghost else 0))


def purple_line() -> tuple[str, int]:
    """The start-player keyple standing in for a (second) ghost on Key Celeste (F-42)."""
    return "Start-player keyple as a ghost", COMPONENTS.key_celeste.ghost_points
