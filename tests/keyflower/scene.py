"""Building Keyflower test scenes: a game set up for N players, screens and skills handed out, tiles and resources
put into villages, the season and its turns reached by setting the few fields a rule reads.

Every rule test then plays the actions it is about through GAME.parse and GAME.apply_in_place, in the notation
of kf-spec.md ("bid LOC COLOUR" then "count N", "use LOC COLOUR", "move SRC bid|use LOC", "carry KIND FROM TO",
"upgrade TILE", "done", "boat ID", "place TILE Q/R", "winter TILE ...", "pass").
"""

from __future__ import annotations

import copy

import pytest

from engine.core import Event, IllegalAction
from engine.keyflower import places as pl
from engine.keyflower.game import GAME
from engine.keyflower.state import KfState, MixStep, PayStep, VillageTile

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")
HOME = "0/0"


def new_game(players: int = 3, seed: int = 1) -> KfState:
    """A game just set up (spring, the lowest home tile to act)."""
    return GAME.setup(list(NAMES[:players]), seed, {})


def home_of(state: KfState, seat: int) -> str:
    """The id of a seat's home tile."""
    return state.villages[seat][HOME].tile


def screen(state: KfState, seat: int, **workers: int) -> None:
    """Set exactly what is behind a seat's screen: its workers go back to the bag, the new ones come out of the bag
    (greens from the green supply)."""
    for colour, k in state.workers[seat].items():
        if colour == "green":
            state.greens += k
        else:
            state.bag[colour] = state.bag.get(colour, 0) + k
    state.workers[seat] = {}
    for colour, k in workers.items():
        if colour == "green":
            assert state.greens >= k, "not enough greens"
            state.greens -= k
        else:
            assert state.bag.get(colour, 0) >= k, f"not enough {colour} in the bag"
            state.bag[colour] -= k
        if k:
            state.workers[seat][colour] = k


def skills(state: KfState, seat: int, **kinds: int) -> None:
    """Set exactly a seat's skills, through the skill pile."""
    for kind, k in state.skills[seat].items():
        state.skill_pile[kind] = state.skill_pile.get(kind, 0) + k
    state.skills[seat] = {}
    for kind, k in kinds.items():
        assert state.skill_pile.get(kind, 0) >= k, f"not enough {kind} in the pile"
        state.skill_pile[kind] -= k
        if k:
            state.skills[seat][kind] = k


def _take_out(state: KfState, tile_id: str) -> None:
    """Remove a tile from wherever it waits (auction, stacks, hands, the box) so that it exists only once."""
    for pile in (state.auction, state.summer_stack, state.autumn_stack, state.winter_box, *state.winter_hand):
        if tile_id in pile:
            pile.remove(tile_id)
    base = tile_id[:-1] if tile_id.startswith("summerboat-") else None
    if base and base in state.summer_stack:
        state.summer_stack.remove(base)


def put_tile(state: KfState, seat: int, tile_id: str, pos: str, up: bool = False, **res: int) -> None:
    """Put a tile into a seat's village at "q/r" (edges are not checked), with resources from the supply on it."""
    _take_out(state, tile_id)
    state.villages[seat][pos] = VillageTile(tile_id, up)
    put_res(state, seat, pos, **res)


def put_res(state: KfState, seat: int, pos: str, **res: int) -> None:
    """Move resources from the supply onto a seat's village tile."""
    here = state.villages[seat][pos].res
    for kind, k in res.items():
        assert state.supply[kind] >= k, f"not enough {kind} in the supply"
        state.supply[kind] -= k
        if k:
            here[kind] = here.get(kind, 0) + k


def res_at(state: KfState, seat: int, pos: str) -> dict[str, int]:
    """The resources on a seat's village tile (zeros left out)."""
    return {k: n for k, n in state.villages[seat][pos].res.items() if n}


def auction(state: KfState, *tiles: str) -> None:
    """Make these the tiles up for auction now."""
    for t in tiles:
        _take_out(state, t)
    state.auction = list(tiles)


def at_turns(state: KfState, season: int = 0, start: int = 0, turn: int | None = None) -> KfState:
    """Jump to the turns of a season (0 spring .. 3 winter): no bids or uses yet, this start player, nobody has
    passed, nothing won."""
    state.season, state.phase, state.start = season, "turns", start
    state.turn = start if turn is None else turn
    state.places, state.pending, state.passes = {}, None, 0
    state.picking, state.marker_passes = [], False
    state.won = [[] for _ in range(state.n)]
    return state


def spring(players: int = 3, seed: int = 1, start: int = 0) -> KfState:
    """A spring scene: the game set up, its turns reached with this start player and seat `start` to act."""
    return at_turns(new_game(players, seed), 0, start)


def play(state: KfState, seat: int, text: str) -> list[Event]:
    """Parse and apply one action in place."""
    return GAME.apply_in_place(state, seat, GAME.parse(state, seat, text))


def legal(state: KfState, seat: int) -> list[str]:
    """A seat's legal actions as notation."""
    return [str(a) for a in GAME.legal_actions(state, seat)]


def offered(state: KfState, seat: int) -> list[str]:
    """The turn actions a seat would have if it were its turn now (the state itself is left alone)."""
    trial = copy.deepcopy(state)
    if trial.phase == "turns" and not trial.pending:
        trial.turn = seat
    return legal(trial, seat)


def counts(state: KfState, seat: int) -> list[int]:
    """The counts a pending `count` step allows."""
    return [int(a.split()[1]) for a in legal(state, seat) if a.startswith("count ")]


def bid(state: KfState, seat: int, loc: str, colour: str, n: int) -> list[Event]:
    """A whole bid as one turn: `bid LOC COLOUR`, `count N` (the seat is made the one to act)."""
    state.turn = seat
    return play(state, seat, f"bid {loc} {colour}") + play(state, seat, f"count {n}")


def use(state: KfState, seat: int, loc: str, colour: str, n: int, *then: str) -> list[Event]:
    """A use as one turn: `use LOC COLOUR`, `count N`, then the further steps given (pay, take, carry, ...)."""
    state.turn = seat
    events = play(state, seat, f"use {loc} {colour}") + play(state, seat, f"count {n}")
    for text in then:
        events += play(state, seat, text)
    return events


def move(state: KfState, seat: int, source: str, what: str, loc: str, top_up: int) -> list[Event]:
    """An outbid group moved whole: `move SRC bid|use LOC`, `count TOP_UP`."""
    state.turn = seat
    return play(state, seat, f"move {source} {what} {loc}") + play(state, seat, f"count {top_up}")


def bid_at(state: KfState, loc: str, seat: int) -> tuple[str, int] | None:
    """A seat's bid at a location: (colour, workers)."""
    return pl.bid_of(state, loc, seat)


def uses_at(state: KfState, loc: str) -> list[tuple[int, str, int]]:
    """(seat, colour, workers) of every use of a location this season, in order."""
    return [(u.seat, u.label, u.count) for u in pl.peek(state, loc).uses]


def all_pass(state: KfState) -> list[Event]:
    """Everyone passes in turn until the season's turns are over."""
    events: list[Event] = []
    while state.phase == "turns" and not state.pending:
        seat = GAME.to_act(state)[0]
        events += play(state, seat, "pass")
    return events


def pick_first_boats(state: KfState) -> list[Event]:
    """Each picking seat takes the first boat offered, until the boats are done."""
    events: list[Event] = []
    while state.phase == "boats":
        seat = GAME.to_act(state)[0]
        events += play(state, seat, legal(state, seat)[0])
    return events


def place_first(state: KfState) -> list[Event]:
    """Each seat places its won tiles on the first spot offered, until the villages are done."""
    events: list[Event] = []
    while state.phase == "place":
        seat = GAME.to_act(state)[0]
        events += play(state, seat, legal(state, seat)[0])
    return events


def finish_season(state: KfState) -> list[Event]:
    """Everyone passes, the boats are picked and the tiles placed in the first way offered."""
    return all_pass(state) + pick_first_boats(state) + place_first(state)


def to_winter(players: int = 3, seed: int = 1) -> KfState:
    """A real game played to winter with nobody bidding or using anything: the winter choice is open."""
    state = new_game(players, seed)
    for _ in range(3):
        finish_season(state)
    assert state.phase == "winter-choice"
    return state


def texts(events: list[Event], seat: int | None = None) -> str:
    """The texts of the events a seat (None: the public) may see, in one string."""
    return " | ".join(e.text for e in events if e.visible_to(seat))


# --- the modules: Keymelequin (Sven and Paulo) and Key Celeste (the ghost) -------------------------------------------


def module_game(players: int = 3, seed: int = 1, keymelequin: str = "keyflower", key_celeste: bool = True) -> KfState:
    """A game just set up with the modules: the Keymelequin in the place of this boat ('off': not played) and Key
    Celeste (or not)."""
    return GAME.setup(list(NAMES[:players]), seed, {"keymelequin": keymelequin, "key_celeste": key_celeste})


def give_wild(state: KfState, seat: int, wild: str) -> None:
    """Put Sven or Paulo behind a seat's screen, taken from wherever he waits (a boat, the bag, another screen);
    Paulo, out of play before summer, comes out of the box."""
    for pool in (*(b.workers for b in state.boats), state.bag, *state.workers):
        if pool.get(wild):
            pool[wild] -= 1
            if not pool[wild]:
                del pool[wild]
            break
    state.workers[seat][wild] = state.workers[seat].get(wild, 0) + 1


def keyples_of(state: KfState, kind: str) -> int:
    """How many keyples of a kind ('sven', 'blue', ...) are anywhere in the game: the bag, the screens, the boats,
    the bids and uses of the season, and a group or payment under way."""
    found = state.bag.get(kind, 0) + sum(w.get(kind, 0) for w in state.workers)
    found += sum(b.workers.get(kind, 0) for b in state.boats)
    for place in state.places.values():
        found += sum(b.keyples().get(kind, 0) for b in place.bids.values())
        found += sum(u.keyples().get(kind, 0) for u in place.uses)
    if isinstance(state.pending, MixStep):
        found += state.pending.added.get(kind, 0)
    if isinstance(state.pending, PayStep):
        found += state.pending.paid.get(kind, 0)
    return found


def group(state: KfState, seat: int, first: str, *kinds: str) -> list[Event]:
    """A group built one keyple at a time as one turn: FIRST (`bid LOC sven`, `use LOC mixed`, `move SRC bid LOC`),
    `add KIND` for each kind given, then `done` unless the engine placed it already, nothing more being possible
    (the seat is made the one to act)."""
    state.turn = seat
    events = play(state, seat, first)
    for kind in kinds:
        events += play(state, seat, f"add {kind}")
    return events + (play(state, seat, "done") if isinstance(state.pending, MixStep) else [])



def refusal(state: KfState, seat: int, text: str) -> tuple[str, str]:
    """The reason and the rule of a refused action; the state is unchanged."""
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, seat, GAME.parse(state, seat, text))
    assert GAME.to_json(state) == before
    return refused.value.reason, refused.value.rule


def checked(state: KfState, seat: int, text: str) -> str:
    """What check says of a legal move, as one text; the state is left as it was."""
    before = GAME.to_json(state)
    verdict = GAME.check(state, seat, GAME.parse(state, seat, text))
    assert verdict.legal, verdict.reason
    assert GAME.to_json(state) == before
    return " ".join(verdict.outcome)
