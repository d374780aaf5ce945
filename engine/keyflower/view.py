"""What a seat may see of a Keyflower game: the view's typed shape, shared by the engine that builds it and the texts
and the renderer that read it, and the building itself.

Built by listing what is shown (DESIGN.md), never by deleting what is hidden: everything on the table for all; the
screens' sizes, never their contents, until the end opens them; a seat's own view adds its screen, its winter tiles
and its legal actions. A location's bids and uses keep the stored JSON's lists (engine.keyflower.state: Bid, Use),
which `place()` reads back as records.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast

from engine.keyflower import celeste, keymelequin
from engine.keyflower.flow import SEASONS
from engine.keyflower.state import CountStep, KfState, MixStep, Place
from engine.keyflower.turns import mix_group


class VillageTileView(TypedDict):
    """A tile in a village: its id, whether it is upgraded, the resources on it and those stored there."""

    tile: str
    up: bool
    res: dict[str, int]
    stored: dict[str, int]


BidView = list[Any]  # [colour, count, flat] or [label, count, flat, keyples]: state.Bid's JSON
UseView = list[Any]  # [seat, colour, count, flat] or [seat, label, count, flat, keyples]: state.Use's JSON


class PlaceView(TypedDict):
    """A location's bids by seat ("0", "1", ...) and uses this season; ghost: the seat a played ghost wins it for."""

    bids: dict[str, BidView]
    uses: list[UseView]
    ghost: NotRequired[int]


class BoatView(TypedDict):
    """A boat: its id, its load, and who took it this season."""

    id: str
    workers: dict[str, int]
    skills: dict[str, int]
    taken: int | None


# "from" is a keyword, hence the functional form: an action under way as the viewer may see it
PendingView = TypedDict("PendingView", {
    "kind": str, "seat": int, "what": NotRequired[str], "loc": NotRequired[str], "steps": NotRequired[int],
    "upgrades": NotRequired[int], "left": NotRequired[int], "from": NotRequired[str], "colour": NotRequired[str],
    "group": NotRequired[dict[str, int]]})


class StacksView(TypedDict):
    """The sizes of the stacks of summer and autumn tiles still to come."""

    summer: int
    autumn: int


class ModulesView(TypedDict):
    """The modules: the boat the Keymelequin replaced ('' when off), and whether Key Celeste is played."""

    keymelequin: str
    key_celeste: bool


class GhostView(TypedDict):
    """Key Celeste's ghost (public, F-38): its holder, the tile it was played on this season, whether it is gone."""

    holder: int | None
    played: str | None
    gone: bool


class CelesteView(TypedDict):
    """The Key Celeste tile: whether it still takes bids, and its face ('seasons' or 'winter')."""

    on_table: bool
    face: str


class ScreenView(TypedDict):
    """A screen opened for the final count."""

    workers: dict[str, int]
    skills: dict[str, int]


class KfView(TypedDict):
    """A Keyflower view: the public table for everyone; the seat keys only in a seat's own view (viewer not None);
    ghost and celeste only with Key Celeste; screens_opened only once the game is over."""

    game: str
    viewer: int | None
    names: list[str]
    season: str
    phase: str
    start_player: int
    to_act: list[int]
    waiting_for: str
    villages: list[dict[str, VillageTileView]]
    auction: list[str]
    order_tiles: list[int]
    places: dict[str, PlaceView]
    boats: list[BoatView]
    bag: int
    greens: int
    skill_pile: int
    supply: dict[str, int]
    screens: list[int]
    skills_held: list[int]
    winter_in_hand: list[int]
    won: list[list[str]]
    stacks: StacksView
    passes: int
    picking: list[int]
    pending: PendingView | None
    modules: ModulesView
    ghost: NotRequired[GhostView]
    celeste: NotRequired[CelesteView]
    screens_opened: NotRequired[list[ScreenView]]
    workers: NotRequired[dict[str, int]]
    skills: NotRequired[dict[str, int]]
    winter_hand: NotRequired[list[str]]
    winter_played: NotRequired[list[str]]
    legal: NotRequired[list[str]]


SEAT_KEYS = ("workers", "skills", "winter_hand", "legal")  # what a seat's own view adds, read from its screen


def as_view(data: Mapping[str, Any]) -> KfView:
    """A view handed over as plain data (the engine contract's JSON), read as the typed view it is."""
    return cast(KfView, data)


def place(view: KfView, loc: str) -> Place:
    """A location's bids and uses as records (empty when nobody is there)."""
    found = view["places"].get(loc)
    return Place() if found is None else Place.from_json(found, public=True)



def stacks_to_come(view: KfView) -> list[tuple[str, int]]:
    """(season, tiles) of the stacks still to be drawn from: summer and autumn in spring, autumn in summer."""
    coming = {"spring": ("summer", "autumn"), "summer": ("autumn",)}.get(view["season"], ())
    stacks = view["stacks"]
    return [(season, stacks["summer"] if season == "summer" else stacks["autumn"]) for season in coming]


def build(state: KfState, seat: int | None, waiting_for: str, to_act: list[int], legal: list[str]) -> KfView:
    """What this seat may see (None: the public): everything on the table; a seat adds its screen, its winter tiles
    and its legal actions (legal: their notations, ignored for the public)."""
    data: KfView = {
        "game": "keyflower", "viewer": seat, "names": list(state.names), "season": SEASONS[state.season],
        "phase": state.phase, "start_player": state.start, "to_act": to_act, "waiting_for": waiting_for,
        "villages": [{key: cast(VillageTileView, t.to_json()) for key, t in v.items()} for v in state.villages],
        "auction": list(state.auction), "order_tiles": list(state.order_tiles),
        "places": {loc: cast(PlaceView, p.to_json(public=True)) for loc, p in sorted(state.places.items())},
        "boats": [cast(BoatView, b.to_json()) for b in state.boats], "bag": sum(state.bag.values()),
        "greens": state.greens, "skill_pile": sum(state.skill_pile.values()), "supply": dict(state.supply),
        "screens": [sum(w.values()) for w in state.workers], "skills_held": [sum(k.values()) for k in state.skills],
        "winter_in_hand": [len(h) for h in state.winter_hand], "won": [list(w) for w in state.won],
        "stacks": {"summer": len(state.summer_stack), "autumn": len(state.autumn_stack)},
        "passes": state.passes, "picking": list(state.picking), "pending": _pending(state, seat),
        "modules": {"keymelequin": keymelequin.replaced(state), "key_celeste": celeste.chosen(state)},
    }
    if celeste.chosen(state):  # who owns the ghost is public (F-38)
        data["ghost"] = {"holder": state.ghost_holder, "played": state.ghost_at, "gone": state.ghost_out}
        data["celeste"] = {"on_table": celeste.on_table(state), "face": "winter" if state.season == 3 else
                           "seasons"}
    if state.phase == "over":  # every screen is opened for the final count
        data["screens_opened"] = [{"workers": dict(w), "skills": dict(k)}
                                  for w, k in zip(state.workers, state.skills, strict=True)]
    if seat is not None:
        data["workers"] = dict(state.workers[seat])
        data["skills"] = dict(state.skills[seat])
        data["winter_hand"] = list(state.winter_hand[seat])
        data["winter_played"] = list(state.winter_played[seat]) if state.winter_played else []
        data["legal"] = legal
    return data


def _pending(state: KfState, viewer: int | None) -> PendingView | None:
    """An action under way, as the viewer may see it: for everyone a transport's steps and upgrades left, a count
    asked, where; the colour only of a moved group, which is on the table. Its owner also sees the colour chosen
    and the keyples gathered so far, still behind the screen (F-7)."""
    p = state.pending
    if p is None:
        return None
    stored = p.to_json()
    shown = cast(PendingView, {k: stored[k] for k in ("kind", "seat", "what", "loc", "steps", "upgrades", "left",
                                                      "from") if k in stored})
    if isinstance(p, CountStep) and (p.moved or viewer == p.seat):
        shown["colour"] = p.colour
    if isinstance(p, MixStep) and viewer == p.seat:
        shown["group"] = mix_group(state, p)
    return shown

