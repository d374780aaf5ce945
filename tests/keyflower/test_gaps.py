"""Rules the Keyflower part of docs/rules-coverage.md found without a test: each test names the section of the
reference (shared/reference/keyflower-base-and-modules.md, sections 1-9) or the ruling (F-n, docs/rulings.md) it
checks, and plays it through GAME (engine/keyflower/game.py) with the scene helpers of tests/keyflower/scene.py.

The expected figures are typed here: from the reference's tables for the spring and summer tiles (§9.5, §9.6), from
docs/components.md ("Keyflower", the reconstruction ruled by F-2) for the home and autumn tiles and the Sea Breese
points, never read from the engine's data.

Four of these tests found engine bugs when they were written; all four were fixed (docs/rules-coverage.md).
"""

from __future__ import annotations

import copy

import pytest

from engine.core import Event
from engine.keyflower.game import GAME
from engine.keyflower.scoring import PURPLE
from engine.keyflower.state import KfState
from engine.keyflower.texts import board
from tests.keyflower.scene import (
    all_pass,
    at_turns,
    bid,
    bid_at,
    counts,
    finish_season,
    home_of,
    legal,
    new_game,
    offered,
    play,
    put_res,
    put_tile,
    res_at,
    screen,
    skills,
    texts,
    use,
    uses_at,
)

RESOURCES = ("gold", "iron", "stone", "wood")
SKILL_KINDS = ("anvil", "pick", "saw")


# --- helpers ------------------------------------------------------------------------------------------------------


def spring_scene(players: int = 3, season: int = 0) -> KfState:
    """This season's turns, nothing up for auction; every seat holds 6 blue, 6 red, 6 yellow and no skill."""
    state = at_turns(new_game(players, 1), season, 0)
    state.auction = []
    for seat in range(players):
        screen(state, seat, blue=6, red=6, yellow=6)
    return state


def winter_scene(players: int = 3) -> KfState:
    """Winter's turns (start player Ana), nothing up for auction, the boats empty as they are in winter; every seat
    holds 2 blue, 2 red, 2 yellow and no skill."""
    state = at_turns(new_game(players, 1), 3, 0)
    state.auction = []
    for boat in state.boats:
        boat.workers, boat.skills = {}, {}
    for seat in range(players):
        screen(state, seat, blue=2, red=2, yellow=2)
    return state


def end_winter(state: KfState, boats: dict[int, str] | None = None, spots: dict[str, str] | None = None) -> None:
    """Everyone passes, the boat tiles are taken (a seat named in `boats` takes that boat, the others the first
    offered) and placed (a tile named in `spots` at that spot, which must be offered; the rest at the first spot);
    the game is then over."""
    boats, spots = boats or {}, spots or {}
    all_pass(state)
    while state.phase == "boats":
        seat = GAME.to_act(state)[0]
        play(state, seat, f"boat {boats[seat]}" if seat in boats else legal(state, seat)[0])
    while state.phase == "place":
        seat = GAME.to_act(state)[0]
        options = legal(state, seat)
        wanted = [f"place {t} {spot}" for t, spot in spots.items() if t in state.won[seat]]
        if wanted:
            assert wanted[0] in options, (wanted[0], options)
        play(state, seat, wanted[0] if wanted else next(a for a in options if a.split()[1] not in spots))
    assert state.phase == "over"


def score_lines(state: KfState, seat: int) -> dict[str, int]:
    """A seat's score lines, label -> points, as GAME.score gives them."""
    player = next(p for p in GAME.score(state, None).players if p.seat == seat)
    return {line.label: line.points for line in player.lines}


def total(state: KfState, seat: int) -> int:
    """A seat's total as GAME.score gives it."""
    return next(p.total for p in GAME.score(state, None).players if p.seat == seat)


def one_turn_ends(state: KfState, seat: int, depth: int = 4) -> list[KfState]:
    """Every state a seat can reach with one turn of legal actions (its first action and the steps it opens)."""
    found: list[KfState] = []
    frontier = [state]
    for _ in range(depth):
        grown: list[KfState] = []
        for here in frontier:
            for action in legal(here, seat):
                if action == "pass":
                    continue
                there = copy.deepcopy(here)
                play(there, seat, action)
                (grown if there.pending and GAME.to_act(there) == [seat] else found).append(there)
        frontier = grown
    return found


def board_text(state: KfState) -> str:
    """The public board as the chat shows it."""
    return board(GAME.view(state, None))


def public_texts(events: list[Event]) -> str:
    """What everyone reads of these events."""
    return texts(events, None)


# --- §1 components: the supply, the bag and the greens ---------------------------------------------------------------


def test_skill_draws_are_random() -> None:
    """Reference §1: skill tiles lie face down in a pile, so a draw is random: the Apprentice hall gives different
    kinds in different games."""
    kinds = set()
    for seed in range(12):
        state = at_turns(new_game(3, seed), 0, 0)
        state.auction = ["apprentice-hall"]
        screen(state, 0, red=1)
        use(state, 0, "apprentice-hall", "red", 1)
        kinds |= set(state.skills[0])
    assert len(kinds) > 1


def test_an_empty_green_supply_is_not_refilled_from_the_bag() -> None:
    """Reference §1: nobody searches the bag for greens once the green supply is empty: the Peddler then gives no
    green, though greens lie in the bag, and the bag keeps them."""
    state = spring_scene()
    state.auction = ["peddler"]
    state.greens = 0
    state.bag["green"] = 3
    use(state, 0, "peddler", "red", 1)
    assert state.workers[0].get("green", 0) == 0
    assert state.bag["green"] == 3 and state.greens == 0


def test_greens_in_the_bag_are_drawn_like_any_worker() -> None:
    """Reference §1: greens that went into the bag with a winning bid can later be drawn at random."""
    state = spring_scene()
    state.auction = ["alehouse"]
    state.bag = {"green": 2}
    use(state, 0, "alehouse", "red", 1)
    assert state.workers[0]["green"] == 1 and state.bag == {"green": 1}


def test_the_bag_count_is_public_and_its_colours_are_not() -> None:
    """Reference §1, F-8: everyone sees how many workers the bag holds, at all times, but not their colours: two
    bags of the same size and different colours show the same public view and board."""
    state = spring_scene()
    assert GAME.view(state, None)["bag"] == sum(state.bag.values())
    other = copy.deepcopy(state)
    size = sum(other.bag.values())
    other.bag = {"blue": size - 1, "green": 1}
    for seat in (None, 0, 1):
        assert GAME.view(other, seat) == GAME.view(state, seat)
    assert board_text(other) == board_text(state)
    state.bag["red"] -= 1
    assert GAME.view(state, None)["bag"] == size - 1


# --- §3 seasons and secrecy ----------------------------------------------------------------------------------------


def test_summer_and_autumn_tiles_are_drawn_at_random() -> None:
    """Reference §3.1: the season's tiles are drawn at random from its pile (two players: 6 of the 12)."""
    summers, autumns = set(), set()
    for seed in range(6):
        state = new_game(2, seed)
        finish_season(state)
        summers.add(frozenset(t.rstrip("ab") if t.startswith("summerboat-") else t for t in state.auction))
        finish_season(state)
        autumns.add(frozenset(state.auction))
    assert len(summers) > 1 and len(autumns) > 1


def test_screens_hide_colours_and_kinds_but_show_counts() -> None:
    """Reference §3.3, F-7: behind a screen, only the owner sees the workers' colours and the skills' kinds; everyone
    sees how many of each a player holds. Ben's screen changed to other colours and kinds of the same counts leaves
    every view but his own, and the board, unchanged."""
    state = spring_scene()
    skills(state, 1, saw=2)
    other = copy.deepcopy(state)
    screen(other, 1, blue=10, red=2, yellow=6)
    skills(other, 1, anvil=1, pick=1)
    assert GAME.view(state, None)["screens"][1] == 18 and GAME.view(state, None)["skills_held"][1] == 2
    for seat in (None, 0, 2):
        assert GAME.view(other, seat) == GAME.view(state, seat)
    assert board_text(other) == board_text(state)
    assert GAME.view(other, 1)["workers"] != GAME.view(state, 1)["workers"]
    assert GAME.view(other, 1)["skills"] == {"anvil": 1, "pick": 1}


def test_a_draw_is_counted_for_everyone_and_shown_only_to_the_drawer() -> None:
    """F-7: a draw from the bag or the pile is shown to the drawer; the others see how many were drawn."""
    state = spring_scene()
    state.auction = ["alehouse", "apprentice-hall"]
    before = dict(state.workers[0])
    events = use(state, 0, "alehouse", "red", 1)
    drawn = {c: n - before.get(c, 0) + (c == "red") for c, n in state.workers[0].items()}
    drawn = {c: n for c, n in drawn.items() if n}
    assert sum(drawn.values()) == 1
    assert "1 worker" in public_texts(events)
    assert GAME.view(state, 0)["workers"] == state.workers[0]
    assert "workers" not in GAME.view(state, None) and GAME.view(state, 1)["workers"] == state.workers[1]
    events = use(state, 1, "apprentice-hall", "red", 1)
    kind = next(iter(state.skills[1]))
    assert "1 skill" in public_texts(events) and kind not in public_texts(events)
    assert GAME.view(state, 1)["skills"] == {kind: 1}


@pytest.mark.parametrize("tile", ["brewer", "hiring-fair"])
def test_a_skill_paid_face_down_is_not_named(tile: str) -> None:
    """F-7: a skill paid face down (Brewer, Hiring fair) is not named to the others: neither the events everyone
    reads nor the public notation of the step say which kind it was."""
    state = spring_scene(season=1)
    state.auction = [tile]
    skills(state, 0, saw=1)
    events = use(state, 0, tile, "red", 1)
    assert legal(state, 0) == ["pay saw"]
    action = GAME.parse(state, 0, "pay saw")
    events += play(state, 0, "pay saw")
    assert "saw" not in public_texts(events)
    assert "saw" not in GAME.public_notation(action)


def test_a_skill_of_a_named_kind_is_shown() -> None:
    """F-7: a skill of a named kind (the Carpenter's saw, an upgrade cost) is named to everyone."""
    state = spring_scene(season=1)
    put_tile(state, 0, "carpenter", "1/0")
    put_tile(state, 0, "keywood", "-1/0")
    skills(state, 0, saw=2)
    assert "saw" in public_texts(use(state, 0, "carpenter", "red", 1))
    assert "saw" in public_texts(use(state, 0, home_of(state, 1), "red", 1, "upgrade keywood"))


# --- §4 bidding ------------------------------------------------------------------------------------------------------


def test_an_outbid_group_can_be_topped_up_with_another_losing_group() -> None:
    """Reference §4: outbid workers moved as a turn may be topped up with other losing workers. Ana's two outbid
    groups of red (2 on the Alehouse, 1 on the Gold mine), with no red left behind her screen, go together onto the
    Keywood, where Cleo bids 2: 3 beat 2."""
    state = spring_scene()
    state.auction = ["alehouse", "gold-mine", "keywood"]
    bid(state, 0, "alehouse", "red", 2)
    bid(state, 0, "gold-mine", "red", 1)
    bid(state, 1, "alehouse", "red", 3)
    bid(state, 2, "gold-mine", "red", 2)
    bid(state, 2, "keywood", "red", 2)
    screen(state, 0, blue=6, yellow=6)
    state.turn = 0
    ends = one_turn_ends(state, 0)
    assert ends
    assert any(bid_at(end, "keywood", 0) == ("red", 3) and bid_at(end, "alehouse", 0) is None
               and bid_at(end, "gold-mine", 0) is None for end in ends)


# --- §5 using tiles --------------------------------------------------------------------------------------------------


def test_the_six_worker_limit_is_per_season() -> None:
    """Reference §5: a tile holds at most six workers per season: the Keywood filled by uses of 1, 2 and 3 in
    spring takes a first use of one worker again in summer."""
    state = spring_scene()
    put_tile(state, 0, "keywood", "1/-1")
    use(state, 0, "keywood", "red", 1)
    use(state, 1, "keywood", "red", 2)
    use(state, 2, "keywood", "red", 3)
    assert not [a for a in offered(state, 0) if a.startswith("use keywood")]
    finish_season(state)
    assert state.season == 1 and state.phase == "turns"
    assert uses_at(state, "keywood") == []
    state.turn = 0
    play(state, 0, "use keywood red")
    assert min(counts(state, 0)) == 1


# --- §6 upgrading and F-1: tiles never turn or move ---------------------------------------------------------------


def test_workers_on_a_tile_stay_when_it_is_upgraded() -> None:
    """Reference §6: when a tile is flipped, the workers already on it stay: Ben's use of Ana's Gold mine is still
    there after Ana upgrades it (the next use needs 2), and his worker goes to Ana at the end of the season."""
    state = spring_scene()
    put_tile(state, 0, "gold-mine", "1/-1", iron=1, stone=1)
    use(state, 1, "gold-mine", "red", 1)
    use(state, 0, home_of(state, 0), "blue", 1, "upgrade gold-mine", "done")
    assert state.villages[0]["1/-1"].up is True
    assert uses_at(state, "gold-mine") == [(1, "red", 1)]
    state.turn = 2
    play(state, 2, "use gold-mine red")
    assert min(counts(state, 2)) == 2
    play(state, 2, "count 2")
    assert res_at(state, 2, "0/0") == {"gold": 2}  # the back now: 2 gold
    all_pass(state)
    assert state.workers[0]["red"] == 6 + 1 + 2


def test_placed_tiles_never_turn_or_move() -> None:
    """F-1, reference §7 step 6: a tile is placed upright at a spot (the action names no turn) and stays there, the
    same way up, through the later seasons and its upgrade: no action ever moves a village tile."""
    state = spring_scene()
    state.phase = "place"
    state.won[0] = ["miner"]
    assert legal(state, 0) and all(len(a.split()) == 3 for a in legal(state, 0))
    play(state, 0, "place miner 1/0")
    assert state.season == 1
    skills(state, 0, anvil=1)
    use(state, 0, home_of(state, 0), "red", 1, "upgrade miner", "done")
    for _ in range(2):
        assert {a.split()[0] for a in offered(state, 0)} <= {"bid", "use", "move", "pass"}
        finish_season(state)
        assert state.villages[0]["1/0"].tile == "miner" and state.villages[0]["1/0"].up is True
    assert sum(1 for v in state.villages for p in v.values() if p.tile == "miner") == 1


# --- §7 end of season -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("power", "extra"), [("1a", 2), ("1b", 1)])
def test_summer_boat_1a_or_1b_gives_the_only_new_workers_at_the_end_of_winter(power: str, extra: int) -> None:
    """Reference §9.4, §3.1: at the end of winter the owner of boat 1a draws 2 workers (1b: takes a green) when
    taking a boat tile; these are the only new workers anyone gets then."""
    state = winter_scene()
    put_tile(state, 0, f"summerboat-{power}", "0/-1")
    before = [sum(w.values()) for w in state.workers]
    greens = state.greens
    end_winter(state)
    got = [sum(w.values()) - b for w, b in zip(state.workers, before, strict=True)]
    assert got == [extra, 0, 0]
    assert state.greens == greens - (extra if power == "1b" else 0)


def test_winter_workers_in_ones_own_village_count_at_the_end() -> None:
    """Reference §7 step 4: workers used on a village's tiles in winter, by anyone, go behind its owner's screen and
    count for the final scoring: Ana's Village hall counts her own yellow on her Keywood and Ben's two."""
    state = winter_scene()
    put_tile(state, 0, "village-hall", "0/1")
    put_tile(state, 0, "keywood", "1/-1")
    screen(state, 0, yellow=4)
    screen(state, 1, yellow=2)
    screen(state, 2)
    use(state, 0, "keywood", "yellow", 1)
    use(state, 1, "keywood", "yellow", 2)
    end_winter(state)
    assert state.workers[0] == {"yellow": 6}
    assert score_lines(state, 0)["Village hall"] == 6


def test_a_tile_placed_without_a_matching_spot_links_where_its_sides_happen_to_match() -> None:
    """F-18, F-23: a tile with no spot where every side matches goes on any touching spot, and its sides link
    where they happen to meet like sides: Ana's turn-order tile 2 (roads NE, S, NW) has no matching spot beside
    her home tile, Stable and Miner; put south of the home tile, two of its sides meet like sides and it scores 2."""
    state = winter_scene()
    put_tile(state, 0, "stable", "-1/1")
    put_tile(state, 0, "miner", "1/0")
    bid(state, 0, "order-2", "red", 1)
    all_pass(state)
    play(state, 0, "boat keyflower")
    while state.phase == "boats":
        seat = GAME.to_act(state)[0]
        play(state, seat, legal(state, seat)[0])
    assert "place order-2 0/1" in legal(state, 0)
    end_winter(state, spots={"order-2": "0/1", "keyflower": "-2/1"})
    assert score_lines(state, 0)["Turn-order tile 2"] == 2


# --- §8 the end of the game and the final score -----------------------------------------------------------------------


def test_the_game_ends_after_winter_and_every_screen_is_opened() -> None:
    """Reference §8: the game ends after winter: nobody has a decision left, every screen is opened for the count,
    and the score is final."""
    state = winter_scene()
    end_winter(state)
    assert GAME.is_over(state) and GAME.to_act(state) == [] and all(not legal(state, s) for s in range(3))
    opened = GAME.view(state, None)["screens_opened"]
    assert [o["workers"] for o in opened] == [dict(w) for w in state.workers]
    assert GAME.score(state, None).final is True


def test_the_final_score_counts_tile_points_winter_tiles_boats_and_gold() -> None:
    """Reference §8: the score is the tiles' points, the winter tiles, the boats and 1 per gold not used elsewhere:
    Ana's upgraded Gold mine (3), Keythedral (12), Keyflower boat (her home tile's transport, 1) and 2 gold (2)."""
    state = winter_scene()
    put_tile(state, 0, "gold-mine", "-1/0", up=True)
    put_tile(state, 0, "keythedral", "0/1")
    put_res(state, 0, "0/0", gold=2)
    end_winter(state, boats={0: "keyflower"})
    lines = score_lines(state, 0)
    assert (lines["Tile points"], lines["Keythedral"], lines["Keyflower"], lines["Gold"]) == (3, 12, 1, 2)
    assert total(state, 0) == 18


def test_a_turn_order_tile_in_the_village_scores_each_tile_it_is_connected_to() -> None:
    """Reference §8, §9.2: a turn-order tile won in winter joins the village and scores 1 per tile joined to it by
    matching sides: tile 1 beside Ana's home tile (road to road) and Miner (field to field) scores 2."""
    state = winter_scene()
    put_tile(state, 0, "miner", "1/0")
    bid(state, 0, "order-1", "red", 1)
    end_winter(state, boats={0: "keyflower"}, spots={"order-1": "1/-1", "keyflower": "-1/0"})
    assert score_lines(state, 0)["Turn-order tile 1"] == 2


@pytest.mark.parametrize("up", [False, True])
def test_resources_carried_onto_a_storage_tile_score_there(up: bool) -> None:
    """Reference §8, §9.7, F-21: only resources moved onto a storage tile during play score there, gold moved there
    standing in for its kind; one moved off again no longer counts. Ana carries 2 iron and 1 gold onto her
    Blacksmith (2 per iron, 3 once upgraded) and 1 iron back to the home tile: 1 iron and the gold score there."""
    state = winter_scene()
    put_tile(state, 0, "blacksmith", "1/-1", up=up)
    put_tile(state, 1, "stable", "-1/0", up=True)
    put_res(state, 0, "0/0", iron=2, gold=1)
    h = home_of(state, 0)
    use(state, 0, "stable", "red", 1, f"carry iron {h} blacksmith", f"carry iron {h} blacksmith",
        f"carry gold {h} blacksmith", f"carry iron blacksmith {h}", "done")
    assert res_at(state, 0, "1/-1") == {"iron": 1, "gold": 1} and res_at(state, 0, "0/0") == {"iron": 1}
    end_winter(state, boats={0: "sea-bastion"})
    per = 3 if up else 2
    assert score_lines(state, 0)["Blacksmith"] == 2 * per
    assert "Gold" not in score_lines(state, 0)


def test_the_purple_keyple_counts_for_its_holder_at_the_end() -> None:
    """F-20, reference §7 step 5 (winter): the winner of the start tile in winter holds the purple keyple at the end
    and counts it as one item (here a gold); nobody else does. It never bids or works during play."""
    state = winter_scene()
    for seat in range(3):
        put_res(state, seat, "0/0", gold=2)
    bid(state, 2, "order-2", "red", 1)
    assert not [a for s in range(3) for a in offered(state, s) if "purple" in a]
    end_winter(state)
    assert state.start == 2
    lines = [score_lines(state, s) for s in range(3)]
    assert [PURPLE in line for line in lines] == [False, False, True]
    assert [line["Gold"] for line in lines] == [2, 2, 3]


def test_with_nobody_on_the_start_tile_in_winter_the_keyple_passes_left_and_counts_there() -> None:
    """Reference §7 step 5, F-16, F-20: nobody bids for the start tile in winter: after the boats the marker passes
    to the left, and that player holds the purple keyple for the final count."""
    state = winter_scene()
    end_winter(state)
    assert state.start == 1
    assert [PURPLE in score_lines(state, s) for s in range(3)] == [False, True, False]


def test_equal_totals_share_the_place() -> None:
    """F-25, reference §8: there is no tie-break. Two players: Ana takes the Keyflower boat (1, her home tile's
    transport), the purple keyple passes to Ben (1 as a gold): both have 1 and share the place."""
    state = winter_scene(2)
    end_winter(state, boats={0: "keyflower"})
    board = GAME.score(state, None)
    assert [p.total for p in board.players] == [1, 1]
    assert "no tie-break" in board.tie_break and "F-25" in board.tie_break


def test_summer_boat_3b_lets_a_resource_count_as_gold_at_the_end() -> None:
    """Reference §9.4 boat 3b, F-22: for the final count any resource stands in for any other: with the Jeweller,
    Ana's 2 iron count as gold, 2 each."""
    state = winter_scene()
    put_tile(state, 0, "jeweller", "0/1")
    put_res(state, 0, "0/0", iron=2)
    without = copy.deepcopy(state)
    put_tile(state, 0, "summerboat-3b", "0/-1")
    end_winter(state)
    end_winter(without)
    assert score_lines(state, 0)["Jeweller"] == 4
    assert score_lines(without, 0)["Jeweller"] == 0


# --- §9.3 each boat's winter scoring, through the village ---------------------------------------------------------


@pytest.mark.parametrize(("with_2b", "points"), [(False, 3), (True, 6)])
def test_the_keyflower_boat_scores_the_villages_transport_doubled_once_with_2b(with_2b: bool, points: int) -> None:
    """Reference §9.3, §9.4 boat 2b, F-24: the Keyflower boat scores 1 per point of transport of the owner's tiles
    (home tile 1 + Stable 2), doubled once when the owner has summer boat 2b."""
    state = winter_scene()
    put_tile(state, 0, "stable", "1/-1")
    if with_2b:
        put_tile(state, 0, "summerboat-2b", "0/-1")
    end_winter(state, boats={0: "keyflower"})
    assert score_lines(state, 0)["Keyflower"] == points


def test_sea_bastion_scores_the_tiles_on_a_road_loop() -> None:
    """Reference §9.3, F-23: Sea Bastion scores 1 per tile on a closed road loop: home tile, Alehouse and Gold mine
    joined road to road in a triangle: 3."""
    state = winter_scene()
    put_tile(state, 0, "alehouse", "1/-1")
    put_tile(state, 0, "gold-mine", "1/0")
    end_winter(state, boats={0: "sea-bastion"}, spots={"sea-bastion": "1/-2"})
    assert score_lines(state, 0)["Sea Bastion"] == 3


def test_sea_breese_scores_the_boats_linked_by_river_to_the_home_tile() -> None:
    """Reference §9.3, F-23 (points F-2, docs/components.md: 2, 4, 8, 16, 32): summer boat 2b on the home tile's
    water side and the Sea Breese boat beyond it, water to water: two boats on the river, 4 points."""
    state = winter_scene()
    put_tile(state, 0, "summerboat-2b", "0/-1")
    end_winter(state, boats={0: "sea-breese"}, spots={"sea-breese": "0/-2"})
    assert score_lines(state, 0)["Sea Breese"] == 4


def test_the_flipper_flips_one_tile_for_free_and_scores_2() -> None:
    """Reference §9.3, §6, F-19: the Flipper flips one of the owner's tiles for free at the end (the one scoring
    most: the Forge's back, 8) and scores 2 more."""
    state = winter_scene(4)
    put_tile(state, 0, "forge", "-1/0")
    end_winter(state, boats={0: "flipper"})
    lines = score_lines(state, 0)
    assert lines["Flipper"] == 2 and lines["Tile points"] == 8
    assert state.villages[0]["-1/0"].up is False  # the flip is for the count only


def test_ianvincible_scores_5() -> None:
    """Reference §9.3: Ianvincible scores 5 points."""
    state = winter_scene(5)
    end_winter(state, boats={0: "ianvincible"})
    assert score_lines(state, 0)["Ianvincible"] == 5


def test_white_wind_scores_every_worker_owned_at_the_end() -> None:
    """Reference §9.3: White Wind scores 1 per worker owned at the end, the unused ones and those placed in one's
    own village in winter."""
    state = winter_scene(6)
    put_tile(state, 0, "keywood", "1/-1")
    screen(state, 0, blue=3, green=2)
    use(state, 0, "keywood", "blue", 1)
    end_winter(state, boats={0: "white-wind"})
    assert state.workers[0] == {"blue": 3, "green": 2}
    assert score_lines(state, 0)["White Wind"] == 5


# --- §9.4 summer boats 4a and 4b (F-26) ------------------------------------------------------------------------------


def test_summer_boat_4a_may_counter_bid_with_greens() -> None:
    """Reference §9.4 boat 4a, F-26: the off-colour counter-bid may be green; it lies flat, so the others still bid
    the standing red."""
    state = spring_scene()
    state.auction = ["alehouse"]
    put_tile(state, 2, "summerboat-4a", "0/-1")
    screen(state, 2, green=2)
    bid(state, 0, "alehouse", "red", 1)
    assert "bid alehouse green" in offered(state, 2)
    bid(state, 2, "alehouse", "green", 2)
    assert bid_at(state, "alehouse", 2) == ("green", 2)
    assert {a.split()[2] for a in offered(state, 1) if a.startswith("bid alehouse ")} == {"red"}




def test_summer_boat_4b_uses_a_tile_already_used_with_another_colour() -> None:
    """Reference §9.4 boat 4b, F-26: on a tile already used this season its owner may use other colours; they lie
    flat, count toward the six and the next use still needs more; the others keep to the standing colour. On a tile
    nobody has touched, the owner's use sets the colour as usual; 4b gives no off-colour bid."""
    state = spring_scene()
    state.auction = ["keywood", "gold-mine", "alehouse"]
    put_tile(state, 2, "summerboat-4b", "0/-1")
    screen(state, 2, red=6)
    use(state, 0, "keywood", "yellow", 1)
    use(state, 2, "keywood", "red", 2)
    assert uses_at(state, "keywood") == [(0, "yellow", 1), (2, "red", 2)]
    assert {a.split()[2] for a in offered(state, 1) if a.startswith("use keywood ")} == {"yellow"}
    state.turn = 1
    play(state, 1, "use keywood yellow")
    assert counts(state, 1) == [3]
    play(state, 1, "count 3")
    assert not [a for a in offered(state, 2) if a.startswith("use keywood")]
    use(state, 2, "gold-mine", "red", 1)
    assert {a.split()[2] for a in offered(state, 1) if a.startswith("use gold-mine ")} == {"red"}
    bid(state, 0, "alehouse", "yellow", 1)
    assert not [a for a in offered(state, 2) if a.startswith("bid alehouse ")]


def test_summer_boat_4b_may_mix_colours_in_one_use() -> None:
    """Reference §9.4 boat 4b, F-26: its owner may use a tile already used with any colours, mixed: Cleo, holding
    one red and one blue, makes the second use (2 workers) of a Keywood first used with yellow."""
    state = spring_scene()
    state.auction = ["keywood"]
    put_tile(state, 2, "summerboat-4b", "0/-1")
    screen(state, 2, red=1, blue=1)
    use(state, 0, "keywood", "yellow", 1)
    state.turn = 2
    ends = one_turn_ends(state, 2)
    assert ends
    assert any([u[0] for u in uses_at(end, "keywood")] == [0, 2] and uses_at(end, "keywood")[1][2] == 2
               and not end.workers[2].get("red") and not end.workers[2].get("blue") for end in ends)


# --- §9 every tile's front and back, its upgrade cost and its points --------------------------------------------------

# What one use gives (§9.5-9.7; home and autumn tiles: docs/components.md, F-2). Keys: a resource (on the tile in
# one's own village), "workers" drawn from the bag, "green" from the supply, "skills" drawn from the pile,
# "choice" (one of wood, stone, iron), "transport" (steps, upgrades). PAY is the extra handed in on each use.
EFFECTS: dict[str, tuple[dict[str, object], dict[str, object]]] = {
    "home": ({"transport": (1, 1)}, {"transport": (2, 1)}),
    "alehouse": ({"workers": 1}, {"workers": 2}),
    "apprentice-hall": ({"skills": 1}, {"skills": 2}),
    "gold-mine": ({"gold": 1}, {"gold": 2}),
    "key-mine": ({"iron": 1}, {"iron": 3}),
    "keystone-quarry": ({"stone": 1}, {"stone": 3}),
    "keywood": ({"wood": 1}, {"wood": 3}),
    "miner": ({"iron": 2}, {"iron": 1, "gold": 1}),
    "quarryman": ({"stone": 2}, {"stone": 1, "gold": 1}),
    "woodcutter": ({"wood": 2}, {"wood": 1, "gold": 1}),
    "peddler": ({"green": 1}, {"green": 2}),
    "stable": ({"transport": (2, 1)}, {"transport": (4, 2)}),
    "workshop": ({"choice": 1}, {"wood": 1, "stone": 1, "iron": 1}),
    "brewer": ({"workers": 2}, {"workers": 3}),
    "carpenter": ({"wood": 3}, {"gold": 3}),
    "mason": ({"stone": 3}, {"gold": 3}),
    "smelter": ({"iron": 3}, {"gold": 3}),
    "farrier": ({"transport": (3, 1)}, {"transport": (5, 2)}),
    "hiring-fair": ({"skills": 2}, {"skills": 3}),
    "store": ({"green": 1}, {"green": 2}),
    "tavern": ({"workers": 2}, {"workers": 3}),
    "inn": ({"workers": 2}, {"workers": 3}),
    "fair": ({"green": 1}, {"green": 2}),
    "wainwright": ({"transport": (4, 1)}, {"transport": (6, 2)}),
}
PAY = {"peddler": "yellow", "store": "blue", "fair": "red", "tavern": "worker", "brewer": "skill",
       "hiring-fair": "skill", "carpenter": "saw", "mason": "pick", "smelter": "anvil"}


def used_face(tile_id: str, up: bool) -> tuple[KfState, list[str], dict[str, int], dict[str, int], dict[str, int]]:
    """Ana (holding 6 of each colour and one skill of each kind) uses this tile of her village (or her home tile),
    front or back, with one worker; returns the state, her options after the worker count, and her screen, her
    skills and the skill pile before."""
    state = spring_scene()
    skills(state, 0, anvil=1, pick=1, saw=1)
    if tile_id == "home":
        tile_id = home_of(state, 0)
        state.villages[0]["0/0"].up = up
    else:
        put_tile(state, 0, tile_id, "1/0", up=up)
    workers, held, pile = dict(state.workers[0]), dict(state.skills[0]), dict(state.skill_pile)
    colour = "red" if PAY.get(tile_id) == "blue" else "blue"
    use(state, 0, tile_id, colour, 1)
    return state, legal(state, 0), workers, held, pile


@pytest.mark.parametrize("up", [False, True], ids=["front", "back"])
@pytest.mark.parametrize("tile_id", sorted(EFFECTS))
def test_each_tile_gives_what_its_face_shows(tile_id: str, up: bool) -> None:
    """Reference §9.1, §9.5-9.7 (home and autumn figures: F-2): one use of each production or transport tile, front
    and back, gives what the face shows, and takes the extra it asks (a worker of its colour or any worker into the
    bag, a skill to the pile)."""
    expected = EFFECTS[tile_id][up]
    state, options, workers, held, pile = used_face(tile_id, up)
    pay = PAY.get(tile_id)
    if "transport" in expected:
        pending = GAME.view(state, None)["pending"]
        assert (pending["steps"], pending["upgrades"]) == expected["transport"]
        play(state, 0, "done")
    elif "choice" in expected:
        assert sorted(options) == ["take iron", "take stone", "take wood"]
        play(state, 0, "take stone")
        expected = {"stone": 1}
    elif pay in ("worker", "skill"):
        assert options and all(a.startswith("pay ") for a in options)
        play(state, 0, options[0])
    pos = "0/0" if tile_id == "home" else "1/0"
    made = {k: n for k, n in expected.items() if k in RESOURCES}
    assert res_at(state, 0, pos) == made
    placed_and_paid = 1 + (pay in ("yellow", "blue", "red", "worker"))
    drawn = sum(state.workers[0].values()) - sum(workers.values()) + placed_and_paid
    greens = state.workers[0].get("green", 0) - workers.get("green", 0)
    assert (drawn - greens, greens) == (expected.get("workers", 0), expected.get("green", 0))
    skill_paid = pay in ("skill", "saw", "pick", "anvil")
    assert sum(state.skills[0].values()) - sum(held.values()) + skill_paid == expected.get("skills", 0)
    if pay in SKILL_KINDS:
        assert state.skills[0].get(pay, 0) == 0 and state.skill_pile[pay] == pile[pay] + 1
    if pay in ("yellow", "blue", "red"):
        assert state.workers[0][pay] == workers[pay] - 1


# The upgrade cost and the back's points (§9.5-9.6; home and autumn tiles: docs/components.md, F-2; the 0 of the
# Alehouse, Peddler and Tavern: F-3). "resource" and "skill" are any resources or skills.
UPGRADES: dict[str, tuple[dict[str, int], int]] = {
    "home": ({"wood": 1, "stone": 1}, 2),
    "alehouse": ({"wood": 1, "stone": 1, "iron": 1}, 0),
    "apprentice-hall": ({"wood": 1, "stone": 1}, 3),
    "gold-mine": ({"iron": 1, "stone": 1}, 3),
    "key-mine": ({"anvil": 1}, 3),
    "keystone-quarry": ({"pick": 1}, 3),
    "keywood": ({"saw": 1}, 3),
    "miner": ({"anvil": 1}, 3),
    "quarryman": ({"pick": 1}, 3),
    "woodcutter": ({"saw": 1}, 3),
    "peddler": ({"gold": 1}, 0),
    "stable": ({"wood": 1, "iron": 1}, 5),
    "workshop": ({"resource": 2}, 3),
    "brewer": ({"stone": 1, "iron": 1}, 3),
    "carpenter": ({"wood": 3}, 7),
    "mason": ({"stone": 3}, 7),
    "smelter": ({"iron": 3}, 7),
    "farrier": ({"resource": 2}, 5),
    "hiring-fair": ({"wood": 1, "iron": 1}, 5),
    "store": ({"gold": 1}, 3),
    "tavern": ({"wood": 1, "stone": 1, "iron": 1}, 0),
    "barn": ({"skill": 2}, 0),
    "blacksmith": ({"anvil": 1}, 0),
    "stone-yard": ({"pick": 1}, 0),
    "timber-yard": ({"saw": 1}, 0),
    "inn": ({"wood": 1, "stone": 1, "skill": 1}, 0),
    "fair": ({"gold": 1}, 3),
    "wainwright": ({"wood": 1, "iron": 1}, 5),
    "forge": ({"iron": 3}, 8),
    "goldsmith": ({"gold": 2, "iron": 1}, 8),
    "sawmill": ({"wood": 3}, 8),
    "sculptor": ({"stone": 4}, 10),
    "well": ({"stone": 1, "wood": 1}, 6),
}


def paid_with(cost: dict[str, int]) -> tuple[dict[str, int], dict[str, int]]:
    """(resources on the tile, skills behind the screen) that pay exactly this cost."""
    res = {k: n for k, n in cost.items() if k in RESOURCES}
    held = {k: n for k, n in cost.items() if k in SKILL_KINDS}
    if cost.get("resource"):
        res["gold"] = res.get("gold", 0) + 1
        res["wood"] = res.get("wood", 0) + cost["resource"] - 1
    if cost.get("skill"):
        held["saw"] = held.get("saw", 0) + cost["skill"]
    return res, held


def tile_points(state: KfState, seat: int) -> int:
    """The points on the faces of a seat's village tiles, as GAME.score shows them during play."""
    player = next(p for p in GAME.score(state, None).players if p.seat == seat)
    return player.total


@pytest.mark.parametrize("tile_id", sorted(UPGRADES))
def test_each_tile_upgrades_for_its_cost_to_its_back_points(tile_id: str) -> None:
    """Reference §6, §9.1, §9.5-9.7 (home and autumn figures: F-2; F-3): a tile is flipped by a transport use only
    with its whole cost (resources lying on it, skills from behind the screen), which goes back to the supply and
    the skill pile; the front is worth 0, the back its printed points."""
    cost, points = UPGRADES[tile_id]
    res, held = paid_with(cost)
    state = spring_scene()
    pos = "0/0"
    if tile_id == "home":
        tile_id = home_of(state, 0)
    else:
        pos = "1/0"
        put_tile(state, 0, tile_id, pos)
    short = next(iter(res)) if res else None
    put_res(state, 0, pos, **{k: n - (k == short) for k, n in res.items()})
    skills(state, 0, **{k: n - (short is None and k == next(iter(held))) for k, n in held.items()})
    assert tile_points(state, 0) == 0
    use(state, 0, home_of(state, 1), "red", 1)
    assert f"upgrade {tile_id}" not in legal(state, 0)  # one resource (or skill) short
    play(state, 0, "done")
    if short:
        put_res(state, 0, pos, **{short: 1})
    skills(state, 0, **held)
    supply, pile = dict(state.supply), dict(state.skill_pile)
    use(state, 0, home_of(state, 2), "red", 1, f"upgrade {tile_id}", "done")
    assert state.villages[0][pos].up is True
    assert res_at(state, 0, pos) == {} and not any(state.skills[0].values())
    assert {k: state.supply[k] - supply[k] for k in RESOURCES if state.supply[k] != supply[k]} == res
    assert {k: state.skill_pile[k] - pile[k] for k in SKILL_KINDS if state.skill_pile[k] != pile[k]} == held
    assert tile_points(state, 0) == points



def test_summer_boat_4b_mixes_colours_on_a_tile_that_asks_an_extra_worker() -> None:
    """Reference §9.4 boat 4b, F-26: a mixed use also pays the tile's extra worker. Cleo, holding one red, one blue
    and one yellow, makes the second use (2 workers: red and blue) of a Peddler first used with yellow; her yellow is
    kept back for the Peddler's price (it is never offered to the use) and buys her a green. She still says `done`
    when nothing more can join: the table must not learn that from her screen."""
    state = spring_scene()
    state.auction = ["peddler"]
    put_tile(state, 2, "summerboat-4b", "0/-1")
    screen(state, 0, yellow=2)
    screen(state, 2, red=1, blue=1, yellow=1)
    use(state, 0, "peddler", "yellow", 1)
    state.turn = 2
    play(state, 2, "use peddler mixed")
    assert legal(state, 2) == ["add blue", "add red"]
    play(state, 2, "add red")
    assert legal(state, 2) == ["add blue"]  # one worker is not yet a second use
    play(state, 2, "add blue")
    assert legal(state, 2) == ["done"]  # asked all the same: placing at once would tell what is behind her screen
    play(state, 2, "done")
    assert state.workers[2] == {"green": 1}
    assert [u[0] for u in uses_at(state, "peddler")] == [0, 2] and uses_at(state, "peddler")[1][2] == 2
