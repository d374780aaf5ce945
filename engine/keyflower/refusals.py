"""Why a turn's bid, use or ghost is refused, in words a player can act on (the legal actions decide; this only
names the first reason that applies). Each reason comes with the rule it rests on."""

from __future__ import annotations

from engine.keyflower import celeste
from engine.keyflower import keyples as kp
from engine.keyflower import places as pl
from engine.keyflower.actions import Act
from engine.keyflower.state import KfState
from engine.keyflower.turns import bid_needed, biddable, usable


def why_not(state: KfState, seat: int, action: Act) -> tuple[str, str] | None:
    """(reason, rule) for a refused turn action naming a place, or None when no specific reason is found."""
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
    if kind in kp.COLOURS and current is not None and kind not in current:
        shown = "/".join(c for c in kp.COLOURS if c in current) or "no single colour"
        return f"the workers at {loc} are {shown}: a {action.verb} there must be too.", "reference §4, F-29"
    need = bid_needed(state, seat, loc) if action.verb == "bid" else pl.next_use_minimum(state, loc)
    have = state.workers[seat].get(kind, 0)
    if kind in kp.COLOURS and have < need:
        goal = "to lead the bidding" if action.verb == "bid" else "for the next use (one more than the last)"
        return f"you have {have} {kind}; {need} are needed {goal}.", "reference §4" if action.verb == "bid" \
            else "reference §5"
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
