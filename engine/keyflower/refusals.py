"""Why a turn's bid, use or ghost is refused, in words a player can act on (the legal actions decide; this only
names the first reason that applies). Each reason comes with the rule it rests on."""

from __future__ import annotations

from engine.keyflower import celeste
from engine.keyflower import keyples as kp
from engine.keyflower import places as pl
from engine.keyflower import transport as tr
from engine.keyflower.actions import Act
from engine.keyflower.state import KfState, MixStep
from engine.keyflower.turns import bid_needed, biddable, may_lie, may_lie_group, mix_group, usable

WILD_RULE = "module sheet, Using Sven and Paulo; F-29, F-30"


def why_not(state: KfState, seat: int, action: Act) -> tuple[str, str] | None:
    """(reason, rule) for a refused turn action naming a place, or a keyple added to a group being built; None when
    no specific reason is found."""
    if state.pending:
        return _add(state, seat, state.pending, action) if isinstance(state.pending, MixStep) and \
            action.verb == "add" else None
    if action.verb not in ("bid", "use", "ghost") or not action.args:
        return None
    loc = action.args[0]
    if action.verb == "ghost":
        return _ghost(state, seat, loc)
    places = biddable(state) if action.verb == "bid" else usable(state)
    if loc not in places:
        what = "takes no bids now (up for auction, turn-order tiles and Key Celeste only)" if action.verb == "bid" \
            else "is not a tile you may use now (village tiles and tiles up for auction that produce or transport)"
        return f"{loc} {what}.", "reference §4" if action.verb == "bid" else "reference §5"
    if pl.closed(state, loc):
        return f"the ghost is winning {loc}: nothing more may go there this season.", "F-40"
    kind = action.args[1] if len(action.args) > 1 else ""
    if kind in kp.KINDS and not state.workers[seat].get(kind):
        return f"you have no {kp.NAMES.get(kind, kind)} behind your screen.", "reference §3.2"
    current = pl.identity(state, loc)
    if kind in kp.WILD and current is not None and current.isdisjoint(kp.WILD[kind]) and not may_lie_group(
            state, seat, loc, {kind: 1}, action.verb):
        return _wild_off_colour(state, seat, action.verb, loc, kind, current)
    if kind in kp.COLOURS and current is not None and kind not in current:
        shown = "/".join(c for c in kp.COLOURS if c in current) or "no single colour"
        return f"the workers at {loc} are {shown}: a {action.verb} there must be too.", "reference §4, F-29"
    need = bid_needed(state, seat, loc) if action.verb == "bid" else pl.next_use_minimum(state, loc)
    goal = "to lead the bidding" if action.verb == "bid" else "for the next use (one more than the last)"
    rule = "reference §4" if action.verb == "bid" else "reference §5"
    screen = state.workers[seat]
    if kind in kp.WILD:
        name, pair = kp.NAMES[kind], kp.WILD[kind]
        lying = action.verb == "use" and may_lie(state, seat, loc)  # summer boat 4b: any keyples may join him
        have = sum(screen.values()) if lying else 1 + sum(screen.get(c, 0) for c in pair)
        if have < need:
            with_ = "and any others" if lying else f"and your {' and '.join(pair)}"
            return f"{name} {with_} make {have}; {need} are needed {goal}.", rule
    elif kind in kp.COLOURS and screen.get(kind, 0) < need:
        return f"you have {screen.get(kind, 0)} {kind}; {need} are needed {goal}.", rule
    return None


def _ghost(state: KfState, seat: int, loc: str) -> tuple[str, str]:
    """Why the ghost may not go there."""
    if not celeste.chosen(state):
        return "this game is played without Key Celeste: there is no ghost.", "F-35"
    if state.ghost_holder != seat or state.ghost_out:
        return "you do not hold the ghost.", "F-38"
    if state.season == 0:
        return "the ghost may be played from summer on.", "F-39"
    if state.ghost_at:
        return f"the ghost is already played this season, on {state.ghost_at}.", "F-39"
    top = pl.highest(state, loc) if loc in state.auction else None
    if top is None:
        return f"the ghost goes only beside a winning bid for a tile up for auction; {loc} has none.", "F-39"
    return "the ghost never replaces your own bid.", "F-39"


def _shown(colours: frozenset[str]) -> str:
    """'green', 'green/red'; 'no single colour' for none."""
    return "/".join(c for c in kp.COLOURS if c in colours) or "no single colour"


def _wild_off_colour(state: KfState, seat: int, verb: str, loc: str, wild: str,
                     current: frozenset[str]) -> tuple[str, str]:
    """Why Sven or Paulo may not start a bid or use at a tile none of whose colours is of his pair."""
    name, pair = kp.NAMES[wild], " or ".join(kp.WILD[wild])
    reason = f"{name} counts as {pair}, and the workers at {loc} are {_shown(current)}"
    if verb != "bid" or "4a" not in tr.powers(state, seat):
        return f"{reason}: a {verb} there must fit them.", WILD_RULE
    if pl.bid_of(state, loc, seat) is not None:
        boat = "your own bid there only grows in colours it can keep"
    elif loc not in state.auction:
        boat = "summer boat 4a counters only on a tile up for auction"
    elif "green" in current:
        boat = "summer boat 4a never counters a bid that is or may still be green (F-44)"
    else:
        boat = "summer boat 4a counters only another player's standing bid"
    return f"{reason}, and {boat}.", f"reference §9.4; {WILD_RULE}, F-44"


def _add(state: KfState, seat: int, pending: MixStep, action: Act) -> tuple[str, str] | None:
    """Why a keyple may not join the group being built (Sven's or Paulo's group must keep one colour of his pair,
    unless summer boat 4b's use may lie flat)."""
    kind = action.args[0] if action.args else ""
    if kind in kp.KINDS and not state.workers[seat].get(kind):
        return f"you have no {kp.NAMES.get(kind, kind)} behind your screen.", "reference §3.2"
    group = mix_group(state, pending)
    wild = next(iter(kp.wilds_in(group)), None)
    what = pending.what
    if wild is None or kind not in kp.KINDS or kind in kp.WILD[wild] or (what == "use" and may_lie(
            state, seat, pending.loc)):

        return None
    name, pair = kp.NAMES[wild], " or ".join(kp.WILD[wild])
    lie = " (only summer boat 4b's use may mix colours)" if what == "use" else ""
    return (f"a {what} holding {name} must count as one colour, {pair}: {kp.NAMES.get(kind, kind)} cannot join "
            f"it{lie}.", WILD_RULE)
