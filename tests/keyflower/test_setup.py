"""Set up (reference §2, §3.1, rulings F-4 and F-6): home tiles, boats by their minimum count, turn-order tiles,
the tiles put out per season, the winter tiles dealt, eight workers each from the bag, the lowest home tile to
start, and boats loaded from a short bag never beyond their number.

The expected figures are typed here from the reference's table, not read from the engine's data.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.keyflower import flow
from engine.keyflower.components import COMPONENTS
from engine.keyflower.game import GAME
from engine.keyflower.state import KfState
from tests.keyflower.scene import NAMES, finish_season, home_of, new_game

# reference §2: players -> (home tiles, boats, turn-order tiles, tiles per season, winter tiles dealt)
TABLE = {2: (2, 2, 1, 6, 3), 3: (3, 3, 2, 7, 3), 4: (4, 4, 3, 8, 3), 5: (5, 5, 4, 9, 2), 6: (6, 6, 4, 10, 2)}
# reference §2 step 4 / §9.3: each boat's minimum player count, in the rulebook's order
BOAT_MIN = {"keyflower": 2, "sea-bastion": 2, "sea-breese": 3, "flipper": 4, "ianvincible": 5, "white-wind": 6}
PLAYERS = (2, 3, 4, 5, 6)
SEEDS = (1, 2, 7)
BOATS = {b.id: b for b in COMPONENTS.boats}


def kind(tile_id: str) -> str:
    """A tile's season kind."""
    return flow.tile(tile_id).kind


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_each_player_gets_one_different_home_tile_at_the_village_centre(players: int, seed: int) -> None:
    """§2 step 3: home tiles are dealt at random, one per player, each the centre of its owner's village."""
    state = new_game(players, seed)
    homes = [home_of(state, s) for s in range(players)]
    assert len(set(homes)) == players == TABLE[players][0]
    assert all(kind(h) == "home" for h in homes)
    for village in state.villages:
        assert list(village) == ["0/0"]
        assert village["0/0"].up is False and not village["0/0"].res


def test_home_tiles_are_dealt_at_random() -> None:
    """§2 step 3: which home tile a seat gets depends on the shuffle, not on the seat."""
    seen = {tuple(home_of(new_game(3, seed), s) for s in range(3)) for seed in range(12)}
    assert len(seen) > 3


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_the_lowest_numbered_home_tile_starts_spring(players: int, seed: int) -> None:
    """§2 step 3, §3.1: the lowest-numbered home tile in play takes the purple keyple and acts first in spring."""
    state = new_game(players, seed)
    numbers = [flow.tile(home_of(state, s)).number for s in range(players)]
    lowest = numbers.index(min(numbers))
    assert state.start == lowest
    view = GAME.view(state, None)
    assert view["start_player"] == lowest
    assert view["season"] == "spring" and view["phase"] == "turns"
    assert GAME.to_act(state) == [lowest]


@pytest.mark.parametrize("players", PLAYERS)
def test_boats_in_play_are_those_whose_minimum_count_is_met(players: int) -> None:
    """§2 step 4: boats by their player-count mark: Keyflower 2+, Sea Bastion 2+, Sea Breese 3+, Flipper 4+,
    Ianvincible 5+, White Wind 6; as many boats as players."""
    state = new_game(players)
    ids = [b.id for b in state.boats]
    assert sorted(ids) == sorted(b for b, low in BOAT_MIN.items() if low <= players)
    assert len(ids) == TABLE[players][1]
    assert all(b.taken is None for b in state.boats)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_boats_are_loaded_with_their_spring_face_from_the_bag(players: int, seed: int) -> None:
    """§2 step 4, §3.1: each boat carries the workers (from the bag) and skills its spring/autumn face shows."""
    state = new_game(players, seed)
    for boat in state.boats:
        printed = BOATS[boat.id]
        assert sum(boat.workers.values()) == printed.workers_a
        assert sum(boat.skills.values()) == printed.skills_a
        assert set(boat.workers) <= {"blue", "red", "yellow"}  # greens are never in the bag at the start
        assert set(boat.skills) <= {"anvil", "pick", "saw"}


@pytest.mark.parametrize("players", PLAYERS)
def test_the_turn_order_tiles_in_use_depend_on_the_player_count(players: int) -> None:
    """§2 step 5, F-4: two players use tile 1; three 1-2; four 1-3; five and six all four."""
    state = new_game(players)
    assert state.order_tiles == list(range(1, TABLE[players][2] + 1))
    assert GAME.view(state, None)["order_tiles"] == state.order_tiles


@pytest.mark.parametrize("players", PLAYERS)
def test_the_start_icon_is_on_the_highest_turn_order_tile_in_use(players: int) -> None:
    """F-4: the highest-numbered turn-order tile in use carries the purple start icon, and only that one."""
    top = TABLE[players][2]
    faces = [o for o in COMPONENTS.turn_order if o.players[0] <= players <= o.players[1]]
    assert sorted(o.number for o in faces) == list(range(1, top + 1))
    assert [o.number for o in faces if o.start_icon] == [top]


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_spring_puts_out_the_count_of_tiles_for_the_players(players: int, seed: int) -> None:
    """§2 table and step 6: 6/7/8/9/10 spring tiles for 2-6 players, all different, all spring tiles."""
    state = new_game(players, seed)
    assert len(state.auction) == TABLE[players][3]
    assert len(set(state.auction)) == len(state.auction)
    assert all(kind(t) == "spring" for t in state.auction)


def test_the_spring_tiles_put_out_are_random() -> None:
    """§2 step 6: the spring tiles are put out at random (with 2 players, 6 of the 12)."""
    seen = {frozenset(new_game(2, seed).auction) for seed in range(10)}
    assert len(seen) > 1


@pytest.mark.parametrize("players", PLAYERS)
def test_summer_and_autumn_tiles_wait_in_two_piles(players: int) -> None:
    """§2 step 7: summer and autumn tiles stay in two piles; the summer pile holds the 8 summer buildings and the 4
    summer boats (reference §1: 12 per season)."""
    state = new_game(players)
    view = GAME.view(state, None)
    assert view["stacks"] == {"summer": 12, "autumn": 12}
    assert all(kind(t) == "autumn" for t in state.autumn_stack)
    boats = [t for t in state.summer_stack if t.startswith("summerboat")]
    assert len(boats) == 4
    assert sorted(t for t in state.summer_stack if t not in boats) == sorted(
        t.id for t in COMPONENTS.tiles if t.kind == "summer")


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_winter_tiles_are_dealt_secretly(players: int, seed: int) -> None:
    """§2 table and step 7: 3 winter tiles each with 2-4 players, 2 each with 5-6; each sees only their own."""
    state = new_game(players, seed)
    dealt = TABLE[players][4]
    hands = state.winter_hand
    assert [len(h) for h in hands] == [dealt] * players
    everyone = [t for h in hands for t in h]
    assert len(set(everyone)) == len(everyone)
    assert all(kind(t) == "winter" for t in everyone)
    public = GAME.view(state, None)
    assert public["winter_in_hand"] == [dealt] * players
    assert "winter_hand" not in public
    mine = GAME.view(state, 0)
    assert sorted(mine["winter_hand"]) == sorted(hands[0])
    assert not set(mine["winter_hand"]) & set(hands[1])


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", SEEDS)
def test_each_player_draws_eight_workers_from_the_bag(players: int, seed: int) -> None:
    """§2 steps 1-2: blue, red and yellow go into the bag (40 each), greens stay beside it (20); each player draws
    8 workers from the bag; the boats are loaded from the same bag."""
    state = new_game(players, seed)
    assert [sum(w.values()) for w in state.workers] == [8] * players
    assert all(set(w) <= {"blue", "red", "yellow"} for w in state.workers)
    on_boats = Counter[str]()
    for boat in state.boats:
        on_boats.update(boat.workers)
    total = Counter(state.bag) + on_boats + sum((Counter(w) for w in state.workers), Counter[str]())
    assert dict(total) == {"blue": 40, "red": 40, "yellow": 40}
    assert state.greens == 20
    assert GAME.view(state, None)["screens"] == [8] * players


def test_the_eight_workers_are_random() -> None:
    """§2 step 2: the draw is random; different games give different colours."""
    seen = {tuple(sorted(new_game(2, seed).workers[0].items())) for seed in range(10)}
    assert len(seen) > 1


@pytest.mark.parametrize("players", PLAYERS)
def test_supplies_start_full(players: int) -> None:
    """Reference §1: 48 gold, 24 iron, stone and wood; 48 skills (16 of each) less those on the boats."""
    state = new_game(players)
    assert state.supply == {"gold": 48, "iron": 24, "stone": 24, "wood": 24}
    on_boats = sum(sum(b.skills.values()) for b in state.boats)
    assert sum(state.skill_pile.values()) + on_boats == 48
    assert state.skills == [{} for _ in range(players)]


@pytest.mark.parametrize("players", (1, 7))
def test_only_two_to_six_players(players: int) -> None:
    """§2: Keyflower is for 2 to 6 players."""
    with pytest.raises(ValueError):
        GAME.setup(list(NAMES[:players]) + ["Gus"] * max(0, players - 6), 1, {})


# --- F-6: boats loaded from a short bag --------------------------------------------------------------------


def emptied(players: int) -> KfState:
    """A fresh game whose boats are emptied, ready to be loaded again."""
    state = new_game(players)
    for boat in state.boats:
        boat.workers, boat.skills = {}, {}
    return state


@pytest.mark.parametrize(("players", "bag", "expected"), [
    (2, 5, [3, 2]),                      # Keyflower 7, Sea Bastion 6: one worker each in turn
    (4, 10, [3, 3, 2, 2]),               # 7, 6, 6, 5: rounds of four, the first two get the tenth and ninth
    (3, 2, [1, 1, 0]),
    (2, 13, [7, 6]),                     # the thirteenth goes to Keyflower, the only boat with room
    (4, 23, [6, 6, 6, 5]),               # Flipper (5) is full and skipped in the sixth round
    (6, 40, [7, 6, 6, 5, 5, 4]),          # enough for everyone: exactly each printed number, no more
    (5, 27, [6, 6, 5, 5, 5]),             # five full rounds, then Keyflower and Sea Bastion
])
def test_a_short_bag_fills_boats_one_worker_at_a_time_never_above_their_number(
        players: int, bag: int, expected: list[int]) -> None:
    """§3.1, F-6: the boats are filled in the rulebook's order (Keyflower, Sea Bastion, Sea Breese, Flipper,
    Ianvincible, White Wind) one worker at a time, round and round, skipping a full boat, until the bag is empty."""
    state = emptied(players)
    state.bag = {"red": bag}
    flow.load_boats(state, "a")
    got = [sum(b.workers.values()) for b in state.boats]
    assert [b.id for b in state.boats] == [b for b in BOAT_MIN if BOAT_MIN[b] <= players]
    assert got == expected
    assert sum(state.bag.values()) == bag - sum(expected)
    for boat in state.boats:
        assert sum(boat.workers.values()) <= BOATS[boat.id].workers_a


def test_an_empty_bag_loads_nothing() -> None:
    """§3.1, reference §1: the supply is limited; with nothing in the bag the boats stay empty."""
    state = emptied(3)
    state.bag = {}
    flow.load_boats(state, "a")
    assert all(not b.workers for b in state.boats)


def test_a_short_skill_pile_is_shared_the_same_way() -> None:
    """F-6: skills are loaded one at a time round the boats when the pile runs short (2 players, face a: Keyflower
    1 skill, Sea Bastion 2)."""
    state = emptied(2)
    state.skill_pile = {"saw": 1}
    flow.load_boats(state, "a")
    assert [sum(b.skills.values()) for b in state.boats] == [1, 0]
    state = emptied(2)
    state.skill_pile = {"saw": 2}
    flow.load_boats(state, "a")
    assert [sum(b.skills.values()) for b in state.boats] == [1, 1]


def test_summer_loads_the_second_face() -> None:
    """§3.1: in summer the boats show their other face and load what it shows (Keyflower 3 workers, 2 skills)."""
    state = emptied(2)
    flow.load_boats(state, "b")
    assert [sum(b.workers.values()) for b in state.boats] == [BOATS["keyflower"].workers_b,
                                                                  BOATS["sea-bastion"].workers_b]
    assert [sum(b.skills.values()) for b in state.boats] == [BOATS["keyflower"].skills_b,
                                                                 BOATS["sea-bastion"].skills_b]


# --- the next seasons (§3.1) ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
def test_summer_and_autumn_put_out_the_same_count_from_their_piles(players: int) -> None:
    """§2 table, §3.1: summer and autumn each put out the season's count of tiles, drawn from their own pile; a
    summer boat shows one of its two faces."""
    state = new_game(players, 3)
    finish_season(state)
    assert state.season == 1 and len(state.auction) == TABLE[players][3]
    for t in state.auction:
        assert kind(t) in ("summer", "summerboat")
        if t.startswith("summerboat-"):
            assert t[-1] in "ab"
    assert GAME.view(state, None)["stacks"]["summer"] == 12 - TABLE[players][3]
    finish_season(state)
    assert state.season == 2 and len(state.auction) == TABLE[players][3]
    assert all(kind(t) == "autumn" for t in state.auction)


def test_summer_boats_show_a_random_face() -> None:
    """§3.1: a summer boat tile's face is chosen at random when it comes out."""
    faces = set()
    for seed in range(20):
        state = new_game(6, seed)
        finish_season(state)
        faces |= {t[-1] for t in state.auction if t.startswith("summerboat-")}
    assert faces == {"a", "b"}


@pytest.mark.parametrize("players", (2, 4, 6))
def test_summer_loads_the_boats_summer_face_and_autumn_the_spring_face(players: int) -> None:
    """§3.1, F-6: in summer and autumn the boats are loaded again as their face for the season shows; with six
    players the bag runs dry in autumn (81 workers out in spring, 20 more in summer), and no boat gets more than
    its number."""
    state = new_game(players, 5)
    finish_season(state)
    for boat in state.boats:
        assert sum(boat.workers.values()) == BOATS[boat.id].workers_b
        assert sum(boat.skills.values()) == BOATS[boat.id].skills_b
        assert boat.taken is None
    finish_season(state)
    loads = [(sum(b.workers.values()), BOATS[b.id].workers_a) for b in state.boats]
    assert all(got <= printed for got, printed in loads)
    full = all(got == printed for got, printed in loads)
    assert full or sum(state.bag.values()) == 0  # F-6: only a bag run dry leaves a boat short (6 players here)
    assert full == (players < 6)
    for boat in state.boats:
        assert sum(boat.skills.values()) == BOATS[boat.id].skills_a
