"""Why a turn's play, or a choice at a season's end or start, is refused: keypers, keyples, lay-downs, joiners,
fairs, housing, displays and resting keyples.

Each function gives (reason, rule) for an action legal_actions refused (why_illegal says something generic when it
gives None).
"""

from __future__ import annotations

from collections import Counter

from engine.keyper import housing
from engine.keyper.actions import Build, ChooseDisplay, HoldFair, Join, LayDown, PlayKeyper, PlayKeyple, Release, Rest
from engine.keyper.economy import and_list
from engine.keyper.explain_units import cost_problem, tile_problem
from engine.keyper.fairs import own_fairs, shortfall, shown_this_season
from engine.keyper.legal import display_choices, free_boats, laydown_spaces, releasable
from engine.keyper.rulerefs import (
    BOAT,
    BUILD,
    EXISTING,
    FAIRS,
    HOUSING,
    JOIN,
    KEYPER,
    LAYDOWN,
    NEXT,
    PLAY,
    WINTER_FAIRS,
)
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
from engine.keyper.state import State
from engine.keyper.vocab import ANIMALS, FINISHED_OF_RAW, SEASONS, a, plural

# --- Turn actions ----------------------------------------------------------------------------------------------


def keyper(state: State, seat: int, action: PlayKeyper) -> tuple[str, str] | None:
    """Reasons a keyper cannot go to that board."""
    if not state.players[seat].keyper_home:
        return "Your keyper has already been played this season.", KEYPER
    if not 1 <= action.board <= len(state.boards):
        return f"There is no board {action.board}; boards are 1 to {len(state.boards)}.", KEYPER
    if state.boards[action.board - 1].keyper is not None:
        return f"The keyp field of board {action.board} already holds a keyper.", KEYPER
    return None


def keyple(state: State, seat: int, action: PlayKeyple) -> tuple[str, str] | None:
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
    return tile_problem(player, action.build, ref.name, "printed") or cost_problem(
        player, Build(action.build, ref.name), "printed")


# --- Lay-downs and joiners -------------------------------------------------------------------------------------


def laydown(state: State, seat: int, action: LayDown) -> tuple[str, str] | None:
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


def join(state: State, seat: int, action: Join) -> tuple[str, str] | None:
    """Reasons a join is refused."""
    assert state.offer is not None
    if state.players[seat].keyp.get(action.colour, 0) == 0:
        return f"You have no {action.colour} keyple in your keyp.", JOIN
    return f"Only {a(state.offer.colour)} or white keyple may join here, not {a(action.colour)} one.", JOIN


# --- End and start of a season -----------------------------------------------------------------------------------


def hold(state: State, seat: int, action: HoldFair) -> tuple[str, str] | None:
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


def release(state: State, seat: int, action: Release) -> tuple[str, str] | None:
    """Reasons an animal need not be let go."""
    if action.animal not in ANIMALS:
        return f"Only animals are let go at housing, and {action.animal} is not an animal.", HOUSING
    counts = housing.animal_counts(state.players[seat])
    if counts.get(action.animal, 0) == 0:
        return f"You have no {action.animal}.", HOUSING
    options = releasable(state, seat)
    return (f"Your farm can keep every {action.animal} while housing the most animals, so none has to go; "
            f"let go one of: {', '.join(options)} (ruling K-12).", HOUSING)


def display(state: State, seat: int, action: ChooseDisplay) -> tuple[str, str] | None:
    """Reasons a display cannot be chosen."""
    return (f"'{action.display}' is not a {season_name(state)} display; choose one of "
            f"{', '.join(display_choices(state))}.", NEXT)


def rest(state: State, seat: int, action: Rest) -> tuple[str, str] | None:
    """Reasons a keyple cannot rest."""
    held = [c for c, n in state.players[seat].keyp.items() if n > 0]
    return f"You have no {action.colour} keyple to rest; you have {', '.join(held)}.", NEXT
