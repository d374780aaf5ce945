"""Phase two - collect resource cubes: one cube per worker, of its field's colour, taken from the store in turn
from the start player; an exhausted colour yields nothing and earlier takers keep theirs.
"""

from __future__ import annotations

import pytest

from engine.keythedral import GAME
from engine.keythedral.state import KState
from tests.keythedral.scene import deal_law, give, play
from tests.keythedral.scene_more import hand_board

# The rules' colours, written out here rather than read from the engine (Phase two).
RULE_COLOUR = {"quarry": "black", "woods": "brown", "lake": "blue", "farm": "green", "vineyard": "red"}


def finish_phase_one(state: KState, places: dict[int, list[str]]) -> list[str]:
    """Choose numbers 1..5 in turn; for number 1 each seat places the workers listed for it. Returns event texts."""
    log: list[str] = []
    for _ in range(5):
        chooser = GAME.to_act(state)[0]
        chosen = {m.number for m in state.markers}
        log += [e.text for e in play(state, chooser, f"order {min(n for n in range(1, 6) if n not in chosen)}")]
        while state.phase == "workers" and state.step == "worker":
            seat = GAME.to_act(state)[0]
            log += [e.text for e in play(state, seat, f"worker {places[seat].pop(0)}")]
    assert state.phase == "actions", state.phase
    return log


@pytest.mark.parametrize("terrain", sorted(RULE_COLOUR))
def test_a_worker_collects_one_cube_of_its_fields_colour(terrain: str) -> None:
    """Phase two: one resource cube for each field holding the player's worker, of that field's type: black from
    a quarry, brown from woods, blue from a lake, green from a farm, red from a vineyard; it comes from the
    store."""
    state = hand_board(3, {"M12": terrain}, {(0, 1): "L11+"})  # L11+ touches M12 only
    before = dict(state.store)
    finish_phase_one(state, {0: ["m12"]})
    colour = RULE_COLOUR[terrain]
    assert {c: k for c, k in state.cubes[0].items() if k} == {colour: 1}
    assert state.store[colour] == before[colour] - 1
    assert all(sum(state.cubes[s].values()) == 0 for s in (1, 2))


def test_a_house_collects_for_each_of_its_two_workers() -> None:
    """Phase two: a cube for each and every field with a worker: a house's two workers bring two cubes."""
    state = hand_board(3, {"M12": "lake", "N12": "farm"}, {(0, 1): "M12+"}, houses=[(0, 1)])
    finish_phase_one(state, {0: ["m12", "m13"]})
    assert {c: k for c, k in state.cubes[0].items() if k} == {"blue": 1, "black": 1}


# Ana's house N13+ reaches N13 (woods) and N14 (quarry); Ben's cottage M11+ reaches M12 (quarry); Cleo's
# cottage L13+ reaches M13 (quarry) and M14 (woods). Each has one quarry worker; one black cube is left.
SHORT_FIELDS = {"M12": "quarry"}
SHORT_COTTAGES = {(0, 1): "N13+", (1, 1): "M11+", (2, 1): "L13+"}
SHORT_PLACES = {0: ["n13", "n14"], 1: ["m12"], 2: ["m13"]}


@pytest.mark.parametrize("start", [0, 1, 2])
def test_collection_runs_from_the_start_player_and_an_exhausted_colour_yields_nothing(start: int) -> None:
    """Phase two: players collect in turn from the start player; when no cube of a colour is left that worker's
    harvest fails, while a player who collected the colour earlier keeps it; other colours still come."""
    state = hand_board(3, SHORT_FIELDS, SHORT_COTTAGES, houses=[(0, 1)], start=start)
    give(state, (start + 2) % 3, black=19)
    assert state.store["black"] == 1
    before = [dict(c) for c in state.cubes]
    log = finish_phase_one(state, {k: list(v) for k, v in SHORT_PLACES.items()})
    gained = [state.cubes[s]["black"] - before[s]["black"] for s in range(3)]
    assert gained == [1 if s == start else 0 for s in range(3)]
    assert state.store["black"] == 0
    assert state.cubes[0]["brown"] - before[0]["brown"] == 1
    collects = [t for t in log if " collects " in t]
    assert [t.split()[0] for t in collects] == [state.names[(start + k) % 3] for k in range(3)]
    losers = [t for t in collects if "run out" in t]
    assert len(losers) == 2 and not any(t.startswith(state.names[start]) for t in losers)


def test_cubes_collected_equal_cubes_leaving_the_store() -> None:
    """Phase two: the cubes are taken from the store; every cube a player gains leaves it."""
    state = hand_board(3, SHORT_FIELDS, SHORT_COTTAGES, houses=[(0, 1)])
    total_before = {c: state.store[c] + sum(p[c] for p in state.cubes) for c in RULE_COLOUR.values()}
    finish_phase_one(state, {k: list(v) for k, v in SHORT_PLACES.items()})
    assert sum(sum(p.values()) for p in state.cubes) == 4  # four workers out
    assert {c: state.store[c] + sum(p[c] for p in state.cubes) for c in RULE_COLOUR.values()} == total_before


# Each seat's quarry worker in the SHORT scene (Ana's house N13+ also has a woods worker at N13).
QUARRY = {0: "N14", 1: "M12", 2: "M13"}


@pytest.mark.parametrize("start", [0, 1, 2])
@pytest.mark.parametrize(("card", "store", "gains"), [
    pytest.param("good-harvest quarry", 3, [2, 1, 0], id="good-harvest"),
    pytest.param("double-production", 2, [1, 1, 0], id="double-production"),
])
def test_a_doubled_harvest_still_runs_from_the_start_player_and_stops_at_the_store(
        start: int, card: str, store: int, gains: list[int]) -> None:
    """Phase two ¶1 and ¶3; ruling T-19: with Good Harvest (every quarry worker earns two black) or Double
    Production (the last collector's quarry worker earns two), the players still collect in turn from the start
    player and take only what the store holds: whoever comes later loses what is missing, the card's player too."""
    state = hand_board(3, SHORT_FIELDS, SHORT_COTTAGES, houses=[(0, 1)], start=start)
    last = (start + 2) % 3
    deal_law(state, last, card.split()[0])
    give(state, last, black=20 - store)
    assert state.store["black"] == store
    before = [dict(c) for c in state.cubes]
    places = {k: list(v) for k, v in SHORT_PLACES.items()}
    log: list[str] = []
    while state.phase == "workers":
        chooser = GAME.to_act(state)[0]
        chosen = {m.number for m in state.markers}
        log += [e.text for e in play(state, chooser, f"order {min(n for n in range(1, 6) if n not in chosen)}")]
        while state.phase == "workers" and state.step == "worker":
            seat = GAME.to_act(state)[0]
            log += [e.text for e in play(state, seat, f"worker {places[seat].pop(0)}")]
    assert state.phase == "harvest" and GAME.to_act(state) == [last]
    law = f"law {card}" if " " in card else f"law {card} {QUARRY[last].lower()}"
    log += [e.text for e in play(state, last, law)]
    assert state.phase == "actions"  # nobody holds a card any more: the window closes by itself (T-40)
    order = [(start + k) % 3 for k in range(3)]
    assert [state.cubes[s]["black"] - before[s]["black"] for s in order] == gains
    assert state.store["black"] == 0
    collects = [t for t in log if " collects " in t]
    assert [t.split()[0] for t in collects] == [state.names[s] for s in order]
    earned = [2 if card.startswith("good") or s == last else 1 for s in order]
    assert [("run out" in t) for t in collects] == [g < e for g, e in zip(gains, earned, strict=True)]
