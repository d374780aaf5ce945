"""The order of play: set-up, the start of each season, the end of a season in the rulebook's order, the end.

`advance` does everything that needs nobody's choice and stops at the next decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Event, Rng
from engine.keyflower import keymelequin
from engine.keyflower import supply as sup
from engine.keyflower import village as vg
from engine.keyflower.component_records import PLAYER_COUNTS
from engine.keyflower.components import COMPONENTS, START_WORKERS, Components
from engine.keyflower.components import SEASONS as SEASONS
from engine.keyflower.pieces import boat_tile as boat_tile
from engine.keyflower.pieces import is_tile as is_tile
from engine.keyflower.pieces import tile as tile
from engine.keyflower.state import BoatInPlay, KfState, Options, VillageTile

HOME = vg.key_of(vg.HOME)  # the home tile's village key, "0/0"
OFF = ("", "off", "no", "none")
BOAT_FACE = ("a", "b", "a", "b")  # by season: a boat shows face a in spring and autumn, face b in summer and winter



def read_options(options: Mapping[str, Any] | None) -> Options:
    """The modules chosen: keymelequin (the boat it replaces, '' when off) and key_celeste; raises ValueError on an
    unknown option."""
    keymelequin, key_celeste = "", False
    for key, value in (options or {}).items():
        if key == "keymelequin":
            keymelequin = "" if value is None or value is False or str(value).lower() in OFF else str(value)
        elif key == "key_celeste":
            key_celeste = value is True or str(value).lower() in ("1", "true", "yes", "on")
        else:
            raise ValueError(f"Unknown Keyflower option '{key}' (options: keymelequin, key_celeste).")
    return Options(keymelequin, key_celeste)


def setup(players: Sequence[str], seed: int, options: Mapping[str, Any] | None,
          comps: Components = COMPONENTS) -> KfState:
    """The opening state (reference §2; the modules' set-up, module sheet); raises ValueError on a bad player
    count or option."""
    chosen = read_options(options)
    n = len(players)
    if n not in PLAYER_COUNTS:
        raise ValueError(f"Keyflower needs 2 to 6 players, not {n}.")
    rng = Rng.from_seed(seed)
    table = comps.setup[n]
    state = KfState(names=list(players), options=chosen, rng=0, bag=dict(comps.bag), greens=comps.greens,
                    skill_pile=dict(comps.skills), supply=dict(comps.resources))
    state.workers = [sup.draw(state.bag, rng, START_WORKERS) for _ in range(n)]
    state.skills = [{} for _ in range(n)]
    homes = [t for t in comps.tiles if t.kind == "home"]
    rng.shuffle(homes)
    homes = homes[:n]
    state.villages = [{HOME: VillageTile(h.id)} for h in homes]
    state.start = min(range(n), key=lambda s: homes[s].number)
    state.boats = [BoatInPlay(b.id) for b in comps.boats if b.min_players <= n]
    if chosen.keymelequin:
        keymelequin.replace_at_setup(state, chosen.keymelequin)
    state.order_tiles = sorted({t.number for t in comps.turn_order if t.players[0] <= n <= t.players[1]})
    season_tiles = {s: [t.id for t in comps.tiles if t.kind == s] for s in SEASONS}
    season_tiles["summer"] += sorted({t.id[:-1] for t in comps.tiles if t.kind == "summerboat"})
    for s in SEASONS:
        rng.shuffle(season_tiles[s])
    state.summer_stack, state.autumn_stack = season_tiles["summer"], season_tiles["autumn"]
    dealt = table["winter_dealt"]
    winter = season_tiles["winter"]
    state.winter_hand = [winter[k * dealt:(k + 1) * dealt] for k in range(n)]
    state.winter_box = winter[n * dealt:]
    state.winter_choice = [None] * n
    state.rng = rng.state
    state.auction = season_tiles["spring"][:table["per_season"]]
    state.won = [[] for _ in range(n)]
    load_boats(state, BOAT_FACE[0])
    keymelequin.board(state)
    _open_season(state)
    return state


def load_boats(state: KfState, face: str) -> list[Event]:
    """Put the season's workers (from the bag, one at a time round the boats when short) and skills on the boats."""
    rng = Rng(state.rng)
    wanted = [(b, getattr(boat_tile(b.id), f"workers_{face}"), getattr(boat_tile(b.id), f"skills_{face}"))
              for b in state.boats if b.taken is None]
    for round_no in range(max((w for _, w, _ in wanted), default=0)):
        for boat, workers, _ in wanted:
            if round_no < workers:
                sup.add(boat.workers, sup.draw(state.bag, rng))
    for round_no in range(max((k for _, _, k in wanted), default=0)):  # skills go round the same way (F-6)
        for boat, _, skills in wanted:
            if round_no < skills:
                sup.add(boat.skills, sup.draw(state.skill_pile, rng))

    state.rng = rng.state
    return []


def _open_season(state: KfState) -> None:
    """Every location of the season starts empty; turns begin with the start player."""
    state.places = {}
    state.phase, state.turn, state.passes = "turns", state.start, 0


def seats_from(state: KfState, first: int) -> list[int]:
    """Every seat clockwise from first."""
    return [(first + k) % state.n for k in range(state.n)]
