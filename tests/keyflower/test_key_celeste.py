"""The Key Celeste module (module sheet "Key Celeste"; rulings F-38 to F-43): the tile bid for like a turn-order
tile, the ghost its winner takes in spring, summer and autumn, playing the ghost, the end of a season with the
ghost, Key Celeste won in winter, and its points at the end.

Scenes are games set up with Key Celeste (tests/keyflower/scene.py, `module_game`; the Keymelequin left out), the
few fields a rule reads set by hand (who holds the ghost: `state.ghost_holder`); every action is played through
GAME (`bid key-celeste red`, `count 2`, `ghost LOC`).
"""

from __future__ import annotations

import copy

import pytest

from engine.core import IllegalAction
from engine.keyflower import celeste
from engine.keyflower import places as pl
from engine.keyflower import transport as tr
from engine.keyflower import village as vg
from engine.keyflower.game import GAME
from engine.keyflower.scoring import PURPLE
from engine.keyflower.state import KfState
from engine.keyflower.turns import biddable
from tests.keyflower.scene import (
    all_pass,
    at_turns,
    bid,
    bid_at,
    counts,
    legal,
    module_game,
    offered,
    pick_first_boats,
    place_first,
    play,
    put_tile,
    screen,
    skills,
    texts,
    use,
)
from tests.keyflower.test_gaps import end_winter, score_lines, total

TILES = ("alehouse", "gold-mine", "keywood", "woodcutter")
GHOST_LINE = "Key Celeste with the ghost"
PURPLE_GHOST = "Start-player keyple as a ghost"


def scene(season: int = 1, players: int = 3) -> KfState:
    """This season's turns, start player Ana (0), four tiles up for auction, Key Celeste on the table with the
    ghost on it; every seat holds 4 blue, 4 red, 4 yellow; the boats are empty."""
    state = at_turns(module_game(players, 1, "off", True), season, 0)
    state.auction = list(TILES)
    for boat in state.boats:
        boat.workers, boat.skills = {}, {}
    for seat in range(players):
        screen(state, seat, blue=4, red=4, yellow=4)
    return state


def ghosts(state: KfState, seat: int) -> list[str]:
    """The ghost actions a seat could take, were it its turn."""
    return [a for a in offered(state, seat) if a.startswith("ghost")]


def kinds_at(state: KfState, seat: int, loc: str, what: str = "bid") -> set[str]:
    """The colours a seat could bid (or use) with at a location, were it its turn."""
    return {a.split()[2] for a in offered(state, seat) if a.startswith(f"{what} {loc} ")}


def haunted(season: int = 1) -> KfState:
    """Ana holds the ghost; Ben's 2 red lead Cleo's 1 red for the Alehouse, and Cleo used it with 1 red first; Ana
    plays the ghost there (Ben's turn next)."""
    state = scene(season)
    state.ghost_holder = 0
    use(state, 2, "alehouse", "red", 1)
    bid(state, 2, "alehouse", "red", 1)
    bid(state, 1, "alehouse", "red", 2)
    state.turn = 0
    play(state, 0, "ghost alehouse")
    return state


def index(events: list[str], words: str) -> int:
    """Where the first event containing these words is in the list (fails when none does)."""
    found = [i for i, text in enumerate(events) if words in text]
    assert found, (words, events)
    return found[0]


def settle(state: KfState) -> list[str]:
    """Everyone passes, then the boats are picked (the first offered each time): the end of the season up to the
    villages, Key Celeste resolved last; the texts of its events."""
    return [e.text for e in all_pass(state) + pick_first_boats(state)]


def winter_village(players: int = 3) -> KfState:
    """Winter's turns: nothing up for auction, Key Celeste already out of the bidding, Ana (0) bids 1 red for the
    start-player tile so that she holds the purple keyple at the end."""
    state = scene(3, players)
    state.auction = []
    state.celeste_out = True
    bid(state, 0, "order-2", "red", 1)
    return state


# --- set-up and bidding -----------------------------------------------------------------------------------------


def test_the_ghost_starts_on_key_celeste() -> None:
    """Module sheet, Set up: the ghost is placed on top of the Key Celeste tile: nobody holds it; the tile takes bids
    beside the turn-order tiles, listed after the highest."""
    state = module_game(3, 1, "off", True)
    assert (state.ghost_holder, state.ghost_at, state.ghost_out, state.celeste_out) == (None, None, False, False)
    assert biddable(state)[-3:] == ["order-1", "order-2", "key-celeste"]
    assert GAME.view(state, None)["ghost"]["holder"] is None


def test_without_the_module_there_is_no_key_celeste() -> None:
    """F-35 (the modules are options): `key_celeste=no` leaves the tile and the ghost out of the game."""
    state = at_turns(module_game(3, 1, "off", False), 1, 0)
    assert "key-celeste" not in biddable(state)
    assert "ghost" not in GAME.view(state, None)


def test_key_celeste_shows_its_winter_face_from_winter() -> None:
    """Module sheet, Set up: the tile lies with its spring, summer and autumn side up, and is turned to the
    reverse side at the beginning of winter."""
    assert GAME.view(scene(2), None)["celeste"] == {"on_table": True, "face": "seasons"}
    assert GAME.view(scene(3), None)["celeste"] == {"on_table": True, "face": "winter"}


def test_key_celeste_takes_bids_of_any_colour_like_a_turn_order_tile() -> None:
    """Module sheet, Bidding for the ghost or the Key Celeste: bid for the way a turn-order tile is; F-41: any colour
    to open."""
    state = scene(0)
    screen(state, 0, blue=1, red=1, yellow=1, green=1)
    assert kinds_at(state, 0, "key-celeste") == {"blue", "red", "yellow", "green"}
    assert kinds_at(state, 0, "key-celeste") == kinds_at(state, 0, "order-1")


def test_counter_bids_for_key_celeste_match_the_colour_and_beat_the_best() -> None:
    """F-41 (reference §4): counter-bids for Key Celeste follow the colour of the bid there and need more workers."""
    state = scene(0)
    bid(state, 0, "key-celeste", "red", 2)
    assert kinds_at(state, 1, "key-celeste") == {"red"}
    state.turn = 1
    play(state, 1, "bid key-celeste red")
    assert counts(state, 1) == [3, 4]


def test_key_celeste_is_never_used() -> None:
    """F-41: the tile has no use: nobody may place workers on it to use it."""
    state = scene(0)
    assert not [a for a in offered(state, 0) if a.startswith("use key-celeste")]
    state.turn = 0
    with pytest.raises(IllegalAction):
        play(state, 0, "use key-celeste red")


# --- spring: the winner takes the ghost --------------------------------------------------------------------------


def test_in_spring_the_winner_takes_the_ghost_not_the_tile() -> None:
    """Module sheet, Bidding for the ghost or the Key Celeste: in spring, summer and autumn the winner takes the
    ghost behind their screen, not the tile."""
    state = scene(0)
    bid(state, 1, "key-celeste", "red", 2)
    settle(state)
    assert state.ghost_holder == 1
    assert "key-celeste" not in state.won[1] and celeste.on_table(state)


def test_key_celestes_winning_workers_go_into_the_bag() -> None:
    """F-41: the winning workers for Key Celeste go into the bag, like a turn-order tile's."""
    state = scene(0)
    bid(state, 0, "alehouse", "blue", 1)  # a tile to place: the season stops before the next boats are loaded
    bid(state, 1, "key-celeste", "red", 2)
    bid(state, 2, "key-celeste", "red", 3)
    before = dict(state.bag)
    settle(state)
    assert state.bag["red"] == before.get("red", 0) + 3
    assert state.workers[1]["red"] == 4  # the losing bid came home


def test_the_ghost_cannot_be_played_in_spring() -> None:
    """Module sheet, The ghost: it is played in summer, autumn and winter; F-39: never in spring."""
    state = scene(0)
    state.ghost_holder = 0
    bid(state, 1, "alehouse", "red", 1)
    assert ghosts(state, 0) == []
    state.turn = 0
    with pytest.raises(IllegalAction):
        play(state, 0, "ghost alehouse")


# --- playing the ghost ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("season", [1, 2, 3])
def test_from_summer_the_holder_may_play_the_ghost_on_another_players_winning_bid(season: int) -> None:
    """Module sheet, The ghost: in summer, autumn and winter the holder may spend a turn to play it against another
    player's winning bid (F-39)."""
    state = scene(season)
    state.ghost_holder = 0
    bid(state, 1, "alehouse", "red", 1)
    assert ghosts(state, 0) == ["ghost alehouse"]


def test_only_the_ghosts_holder_may_play_it() -> None:
    """Module sheet, The ghost: the player who has the ghost plays it; nobody else can."""
    state = scene()
    state.ghost_holder = 0
    bid(state, 0, "alehouse", "red", 1)
    bid(state, 1, "keywood", "red", 1)
    assert ghosts(state, 1) == [] and ghosts(state, 2) == []
    state.turn = 1
    with pytest.raises(IllegalAction):
        play(state, 1, "ghost alehouse")


def test_the_ghost_goes_only_beside_another_players_winning_bid_for_a_tile_up_for_auction() -> None:
    """Module sheet, The ghost: never against the ghost player's own bid; F-39: only a winning bid for a tile up for
    auction, never a turn-order tile or Key Celeste itself."""
    state = scene()
    state.ghost_holder = 0
    bid(state, 1, "order-1", "red", 1)
    bid(state, 1, "key-celeste", "red", 1)
    bid(state, 1, "gold-mine", "red", 1)
    bid(state, 0, "gold-mine", "red", 2)  # Ana's own winning bid; Ben's there loses
    assert ghosts(state, 0) == []
    bid(state, 2, "woodcutter", "blue", 1)
    assert ghosts(state, 0) == ["ghost woodcutter"]


def test_playing_the_ghost_is_the_whole_turn() -> None:
    """Module sheet, The ghost: the holder spends a turn to play it: the turn passes on, and it is an action (the
    passes start again)."""
    state = scene()
    state.ghost_holder = 0
    bid(state, 1, "alehouse", "red", 1)
    play(state, 2, "pass")
    state.turn = 0
    play(state, 0, "ghost alehouse")
    assert state.turn == 1 and state.passes == 0 and state.pending is None


def test_the_replaced_workers_go_behind_the_ghost_players_screen() -> None:
    """Module sheet, The ghost: the ghost replaces the workers of the winning bid; the ghost player takes them
    behind their screen, free to play (F-40)."""
    state = haunted()
    assert state.workers[0] == {"blue": 4, "red": 6, "yellow": 4}
    assert bid_at(state, "alehouse", 1) is None
    assert pl.peek(state, "alehouse").ghost == 1 and state.ghost_at == "alehouse"

    bid(state, 0, "keywood", "red", 6)  # the two reds taken are hers to play
    assert bid_at(state, "keywood", 0) == ("red", 6)


def test_the_ghost_is_played_once_a_season() -> None:
    """F-39: once played, the ghost is on its tile until the season ends: no second ghost action."""
    state = haunted()
    bid(state, 1, "keywood", "blue", 1)
    assert ghosts(state, 0) == []


def test_nothing_more_joins_the_ghosts_tile() -> None:
    """Module sheet, The ghost: no workers may counter-bid the ghost, and none may be placed on its tile; F-40: no
    bid, counter-bid, use, or group moved there, for anyone."""
    state = haunted()
    bid(state, 1, "gold-mine", "blue", 1)
    bid(state, 2, "gold-mine", "blue", 2)  # Ben's gold-mine bid is now an outbid group he could move
    for seat in range(3):
        assert not [a for a in offered(state, seat) if a.split()[:2] in (["bid", "alehouse"], ["use", "alehouse"])]
        assert not [a for a in offered(state, seat) if a.startswith("move") and a.endswith(" alehouse")]
    assert "move gold-mine bid keywood" in offered(state, 1)
    for text in ("bid alehouse red", "use alehouse red", "move gold-mine bid alehouse"):
        state.turn = 1
        with pytest.raises(IllegalAction):
            play(state, 1, text)


def test_a_losing_bid_beside_the_ghost_may_move_away() -> None:
    """Module sheet, The ghost: workers of a losing bid for the ghost's tile can be moved away as a turn (F-40)."""
    state = haunted()
    assert "move alehouse bid keywood" in offered(state, 2)
    state.turn = 2
    play(state, 2, "move alehouse bid keywood")
    play(state, 2, "count 0")
    assert bid_at(state, "alehouse", 2) is None and bid_at(state, "keywood", 2) == ("red", 1)


def test_a_losing_bid_left_beside_the_ghost_comes_home_at_the_end() -> None:
    """Module sheet, The ghost: a losing bid left beside the ghost's tile is returned to its player at the end of
    the season."""
    state = haunted()
    all_pass(state)
    assert state.workers[2]["red"] == 3  # 4, less the 1 used on the Alehouse, which goes to Ben


def test_the_replaced_player_wins_the_tile_with_the_workers_used_on_it() -> None:
    """Module sheet, The ghost: the ghost always wins its tile, and at the end of the season the player whose bid it
    replaced claims the tile and the workers placed on it before the ghost came (F-40). Ben's bid itself went
    behind Ana's screen: nothing of it goes into the bag."""
    state = haunted()
    before = sum(state.bag.values())
    all_pass(state)
    assert "alehouse" in state.won[1] and "alehouse" not in state.won[0]
    assert state.workers[1]["red"] == 3  # 4 - 2 bid + 1 used by Cleo
    assert sum(state.bag.values()) == before


@pytest.mark.parametrize("season", [1, 2])
def test_a_played_ghost_goes_back_onto_key_celeste_at_the_end_of_summer_and_autumn(season: int) -> None:
    """Module sheet, End of the season: in summer and autumn the ghost returns to Key Celeste; nobody bidding for the
    tile, it waits there for the next season (F-41)."""
    state = haunted(season)
    events = texts(all_pass(state))
    assert "The ghost goes back onto Key Celeste" in events
    assert (state.ghost_holder, state.ghost_at, state.ghost_out) == (None, None, False)
    assert celeste.on_table(state)


# --- the end of the season, in the sheet's order -------------------------------------------------------------------


def test_the_end_of_a_season_with_the_ghost_follows_the_sheets_order() -> None:
    """Module sheet, End of the season: losing bids go back; the village tiles are claimed, the ghost going back onto
    Key Celeste after its tile is resolved; the turn-order tiles; Key Celeste last, its winner taking the ghost."""
    state = haunted()
    bid(state, 2, "order-2", "blue", 1)
    bid(state, 1, "key-celeste", "yellow", 1)
    bid(state, 2, "woodcutter", "yellow", 1)
    events = settle(state)
    claimed = index(events, "Ben wins Alehouse: the ghost won it")
    assert claimed < index(events, "The ghost goes back onto Key Celeste") < index(events, "won the start-player tile")
    assert index(events, "Cleo wins Woodcutter") < index(events, "won the start-player tile")
    assert index(events, "won the start-player tile") < index(events, "boat's") < index(events, "Ben wins Key Celeste")
    assert state.workers[2]["red"] == 3  # Cleo's losing bid came home
    assert state.start == 2 and state.ghost_holder == 1


def test_the_turn_order_tiles_are_settled_before_key_celeste() -> None:
    """Module sheet, End of the season: "Secondly, deal with the turn order tiles in order. ... Finally, deal with
    the Key Celeste tile" (F-41): the start-player tile is settled and every boat is picked before Key Celeste's
    winner is known; until then Ben's winning bid stays beside Key Celeste in everyone's view."""
    state = scene()
    bid(state, 2, "order-2", "blue", 1)
    bid(state, 1, "key-celeste", "yellow", 1)
    bid(state, 0, "key-celeste", "yellow", 2)
    bid(state, 1, "key-celeste", "yellow", 3)
    events = [e.text for e in all_pass(state)]
    assert "wins Key Celeste" not in " | ".join(events) and state.phase == "boats"
    assert GAME.view(state, None)["places"]["key-celeste"] == {"bids": {"1": ["yellow", 4, False]}, "uses": []}
    assert state.workers[0]["yellow"] == 4  # Ana's losing bid came home first
    picks = [e.text for e in pick_first_boats(state)]
    boats = [i for i, text in enumerate(picks) if "boat's" in text]
    assert len(boats) == 3 and max(boats) < index(picks, "Ben wins Key Celeste")
    assert index(events, "won the start-player tile") >= 0 and state.places == {}


def test_an_unplayed_ghost_goes_back_just_before_key_celeste_is_settled() -> None:
    """Module sheet, End of the season: a ghost not played returns from its holder's screen to Key Celeste
    immediately before the tile is resolved; Ben, winning Key Celeste, takes it from Ana."""
    state = scene()
    state.ghost_holder = 0
    bid(state, 1, "key-celeste", "blue", 1)
    events = settle(state)
    last_boat = max(i for i, text in enumerate(events) if "boat's" in text)
    assert last_boat < index(events, "Ana's unplayed ghost goes back") < index(events, "Ben wins Key Celeste")
    assert state.ghost_holder == 1


def test_with_no_bid_for_key_celeste_the_ghost_waits_on_it() -> None:
    """Module sheet, End of the season (the ghost always returns to Key Celeste); F-41: if nobody bid, the ghost
    stays on the tile for the next season, and nobody holds it."""
    state = scene()
    state.ghost_holder = 0
    settle(state)
    assert state.ghost_holder is None and celeste.on_table(state)
    assert "key-celeste" in biddable(state)


def test_key_celeste_gives_no_place_in_the_boat_order() -> None:
    """F-41: Key Celeste gives no place in the boat order: Cleo, winning only Key Celeste, picks in her clockwise
    turn after Ana and Ben."""
    state = scene()
    for boat in state.boats:
        boat.workers = {"blue": 1}
    bid(state, 2, "key-celeste", "blue", 1)
    all_pass(state)
    assert state.picking == [0, 1, 2]


@pytest.mark.parametrize("season", [1, 2, 3])
def test_summer_boat_1a_draws_once_key_celestes_workers_are_in_the_bag(season: int) -> None:
    """Module sheet, End of the season: "Secondly, deal with the turn order tiles in order. ... Finally, deal with
    the Key Celeste tile"; boat 1a's workers "are drawn from the bag after all of the workers ... used in winning
    bids in that round have been placed in the bag" (F-16, F-41). So 1a's draw shows the order: the bag is empty
    when Ana takes her boat, and stays so while the boats are picked; after the last pick the turn-order bid (Cleo's
    green) goes in, then Key Celeste is dealt with (Ben's 2 green), and only then Ana draws: 2 of those 3 greens,
    where a draw as she took her boat would have found nothing. In winter too, with her boat tile."""
    state = scene(season)
    put_tile(state, 0, "summerboat-1a", "0/-1")
    screen(state, 0)
    screen(state, 1, green=2)
    screen(state, 2, green=1)
    bid(state, 1, "key-celeste", "green", 2)
    bid(state, 2, "order-1", "green", 1)
    state.bag = {}
    all_pass(state)
    assert state.picking == [2, 0, 1] and sum(state.bag.values()) == 0
    play(state, 2, "boat keyflower")
    play(state, 0, "boat sea-bastion")
    assert state.workers[0] == {} and sum(state.bag.values()) == 0
    events = [e.text for e in play(state, 1, "boat sea-breese")]
    took = index(events, "Ben takes the Sea Breese boat")
    assert took < index(events, "turn-order tiles go into the bag") < index(events, "Ben wins")
    assert index(events, "Ben wins") < index(events, "Ana draws 2 workers from the bag (summer boat 1a)")
    assert state.workers[0] == {"green": 2}


def test_a_game_stored_at_the_boats_before_the_sheets_order_keeps_what_was_settled() -> None:
    """Existing stored games keep working: a state saved while the boats were picked, by the engine that settled
    Key Celeste (and the turn-order bids, and boat 1a's draw) as the boats began, has no `after_boats` field; its
    last pick settles none of them a second time: Ben keeps the ghost he won, the bag gains nothing."""
    state = scene()
    put_tile(state, 0, "summerboat-1a", "0/-1")
    bid(state, 0, "alehouse", "red", 1)  # a tile to place: the season stops before the next boats are loaded
    bid(state, 1, "key-celeste", "blue", 1)
    all_pass(state)
    old = GAME.to_json(state)
    old.update(places={}, ghost_holder=1)  # as the old engine left it: Key Celeste settled, its bid in the bag
    del old["after_boats"]
    stored = GAME.from_json(old)
    bag_before = sum(stored.bag.values())
    events = texts(pick_first_boats(stored))
    assert stored.ghost_holder == 1 and "Key Celeste" not in events and "summer boat 1a" not in events
    assert sum(stored.bag.values()) == bag_before and stored.phase == "place"


# --- winter --------------------------------------------------------------------------------------------------------


def test_in_winter_the_winner_adds_the_key_celeste_tile_to_their_village() -> None:
    """Module sheet, Bidding for the ghost or the Key Celeste: in winter the winner takes the tile into their
    village; F-42: it must be placed like any tile won (F-18)."""
    state = scene(3)
    state.auction = []
    bid(state, 1, "key-celeste", "blue", 1)
    all_pass(state)
    pick_first_boats(state)
    assert "key-celeste" in state.won[1] and not celeste.on_table(state)
    assert [a for a in legal(state, 1) if a.startswith("place key-celeste")]
    place_first(state)
    assert state.phase == "over"
    assert "key-celeste" in {p.tile for p in state.villages[1].values()}


def test_key_celeste_is_placed_as_a_boat_whose_river_needs_no_water() -> None:
    """Module sheet, Scoring (Key Celeste counts as a boat); F-42 (F-18): placed like a boat, its river sides may
    meet fields: with the Alehouse south-east of Ana's home, Key Celeste may go between them (1/-1), a spot a
    plain tile with the same sides could not take."""
    state = scene(3)
    state.auction = []
    put_tile(state, 0, "alehouse", "1/0")
    bid(state, 0, "key-celeste", "blue", 1)
    all_pass(state)
    pick_first_boats(state)
    assert "place key-celeste 1/-1" in legal(state, 0)
    celeste_sides = tr.sides("key-celeste")
    as_plain = vg.Sides.of(celeste_sides.roads, celeste_sides.water)
    assert not vg.can_place(tr.village(state, 0), (1, -1), "key-celeste",
                            lambda t: as_plain if t == "key-celeste" else tr.sides(t))


def test_a_ghost_played_in_winter_leaves_the_game() -> None:
    """Module sheet, End of the season; F-43: a ghost played in winter is removed from the game once its tile is
    settled."""
    state = haunted(3)
    all_pass(state)
    assert state.ghost_out and state.ghost_holder is None
    assert "alehouse" in state.won[1]


def test_an_unplayed_ghost_stays_with_its_holder_after_winter() -> None:
    """Module sheet, End of the season; F-43: a ghost not played in winter stays with the player who has it."""
    state = scene(3)
    state.auction = []
    state.ghost_holder = 0
    bid(state, 1, "key-celeste", "blue", 1)
    settle(state)
    assert state.ghost_holder == 0 and not state.ghost_out
    assert "key-celeste" in state.won[1]


def test_a_ghost_still_on_key_celeste_in_winter_goes_with_the_tile() -> None:
    """F-41: a ghost nobody won in autumn is still on Key Celeste in winter and goes with the tile to its winter
    winner, who owns it for scoring."""
    state = scene(3)
    state.auction = []
    bid(state, 2, "key-celeste", "blue", 1)
    settle(state)
    assert state.ghost_holder == 2 and "key-celeste" in state.won[2]


def test_unbid_in_winter_key_celeste_leaves_the_game() -> None:
    """F-41 (F-16): with no bid in winter the tile leaves the game, and a ghost on it with it."""
    state = scene(3)
    state.auction = []
    settle(state)
    assert not celeste.on_table(state) and state.ghost_out
    assert not [w for w in state.won if "key-celeste" in w]


# --- scoring at the end of the game ---------------------------------------------------------------------------------


def test_key_celeste_in_a_village_scores_3() -> None:
    """Module sheet, Scoring at the end of the game: the winner of the tile in winter gains three points (F-42)."""
    state = winter_village()
    put_tile(state, 1, "key-celeste", "1/-1")
    end_winter(state)
    assert score_lines(state, 1)["Key Celeste"] == 3


def test_with_the_ghost_key_celeste_scores_3_more() -> None:
    """Module sheet, Scoring: an owner of the tile who also owns the ghost receives a further three points (F-42)."""
    state = winter_village()
    put_tile(state, 1, "key-celeste", "1/-1")
    state.ghost_holder = 1
    end_winter(state)
    assert score_lines(state, 1)[GHOST_LINE] == 6


def test_the_start_player_keyple_stands_in_for_the_ghost() -> None:
    """Module sheet, Scoring: the start player marker may be used as a substitute for the ghost: Ana, with Key
    Celeste and the purple keyple but no ghost, scores 3 more with it, better than its 1 as a gold (F-19, F-42)."""
    state = winter_village()
    put_tile(state, 0, "key-celeste", "-1/0")
    end_winter(state)
    lines = score_lines(state, 0)
    assert lines["Key Celeste"] == 3 and lines[PURPLE_GHOST] == 3
    assert PURPLE not in lines


def test_the_start_player_keyple_is_a_second_ghost() -> None:
    """Module sheet, Scoring: the start player marker may be used as a second ghost to give a further three
    points: with the ghost too, Key Celeste gives 9 in all (F-42)."""
    state = winter_village()
    put_tile(state, 0, "key-celeste", "-1/0")
    state.ghost_holder = 0
    end_winter(state)
    lines = score_lines(state, 0)
    assert lines[GHOST_LINE] + lines[PURPLE_GHOST] == 9


def test_the_start_player_keyple_keeps_a_better_use() -> None:
    """F-42 (F-19, F-20): Keywood picks the purple keyple's best use: as the fifth skill of a Key guild set it is
    worth 10, more than 3 as a ghost, so it counts there and not as a ghost."""
    state = winter_village()
    put_tile(state, 0, "key-celeste", "-1/0")
    put_tile(state, 0, "key-guild", "1/-1")
    skills(state, 0, anvil=2, pick=1, saw=1)
    end_winter(state)
    lines = score_lines(state, 0)
    assert lines["Key guild"] == 10 and lines["Key Celeste"] == 3
    assert PURPLE_GHOST not in lines


def test_an_unplayed_ghost_without_key_celeste_scores_nothing() -> None:
    """Module sheet, End of the season: a ghost kept after winter scores only for the player who also won Key
    Celeste (F-43): Ana holds it, Ben has the tile: 3 for Ben, nothing for Ana."""
    state = winter_village()
    put_tile(state, 1, "key-celeste", "1/-1")
    state.ghost_holder = 0
    without = copy.deepcopy(state)
    without.ghost_holder = None
    end_winter(state)
    end_winter(without)
    assert score_lines(state, 1)["Key Celeste"] == 3
    assert not [line for line in score_lines(state, 0) if "ghost" in line.lower()]
    assert total(state, 0) == total(without, 0)


def test_the_ghost_is_no_worker_for_the_tavern() -> None:
    """Module sheet, The ghost: it is not a worker and cannot be given up at the Tavern: the holder's payment is
    one of her workers, and the ghost is never among them."""
    state = scene()
    state.auction = []
    put_tile(state, 2, "tavern", "1/-1")
    state.ghost_holder = 0
    use(state, 0, "tavern", "blue", 1)
    assert legal(state, 0) == ["pay blue", "pay red", "pay yellow"]
    with pytest.raises(IllegalAction):
        play(state, 0, "pay ghost")
    assert GAME.view(state, None)["screens"][0] == 11


def test_the_ghost_counts_as_no_worker_at_the_end() -> None:
    """Module sheet, Scoring: the ghost is not a worker for end scoring (Apothecary, Village hall); nor for White
    Wind: the ghost changes Key Celeste's line only."""
    state = winter_village(6)
    put_tile(state, 0, "key-celeste", "-1/0")
    for pos, tile in (("1/-1", "apothecary"), ("0/1", "village-hall")):
        put_tile(state, 0, tile, pos)
    with_ghost = copy.deepcopy(state)
    with_ghost.ghost_holder = 0
    end_winter(state, boats={0: "white-wind"})
    end_winter(with_ghost, boats={0: "white-wind"})
    plain, ghosted = score_lines(state, 0), score_lines(with_ghost, 0)
    for line in ("Apothecary", "Village hall", "White Wind"):
        assert ghosted.get(line) == plain.get(line)
    assert total(with_ghost, 0) == total(state, 0) + 3


def test_key_celeste_counts_as_a_boat_for_sea_breese() -> None:
    """Module sheet, Scoring: Key Celeste counts as a boat tile for the Sea Breeze (F-42): home, summer boat 2b, Key
    Celeste and the Sea Breese boat on one river are three boats, 8 points (F-23, F-2)."""
    state = winter_village()
    put_tile(state, 0, "summerboat-2b", "0/-1")
    put_tile(state, 0, "key-celeste", "0/-2")
    end_winter(state, boats={0: "sea-breese"}, spots={"sea-breese": "0/-3"})
    assert len(vg.river_boats(tr.village(state, 0), tr.sides)) == 3
    assert score_lines(state, 0)["Sea Breese"] == 8


def test_sea_breese_still_scores_at_most_32_with_key_celeste() -> None:
    """Module sheet, Scoring: the maximum from the Sea Breeze is still 32: four summer boats, Key Celeste and the
    Sea Breese boat, six boats on the river, score 32."""
    state = winter_village()
    for pos, tile in (("0/-1", "summerboat-1a"), ("0/-2", "summerboat-2b"), ("0/-3", "key-celeste"),
                      ("0/-5", "summerboat-3a"), ("1/-6", "summerboat-4a")):
        put_tile(state, 0, tile, pos)
    end_winter(state, boats={0: "sea-breese"}, spots={"sea-breese": "0/-4"})
    assert len(vg.river_boats(tr.village(state, 0), tr.sides)) == 6
    assert score_lines(state, 0)["Sea Breese"] == 32


# --- hidden information -------------------------------------------------------------------------------------------


def test_who_holds_the_ghost_is_public() -> None:
    """F-38: the ghost is behind its holder's screen, but who holds it is shown to everyone, and where it was played."""
    state = haunted()
    for viewer in (None, 1, 2):
        assert GAME.view(state, viewer)["ghost"] == {"holder": 0, "played": "alehouse", "gone": False}
    all_pass(state)
    assert GAME.view(state, None)["ghost"]["holder"] is None


def test_the_ghosts_tile_shows_whom_it_wins_for() -> None:
    """Module sheet, The ghost: it is placed on the side of the tile where the replaced bid stood, in everyone's
    sight (F-38, F-7): the public view of the tile says the ghost wins it for Ben."""
    state = haunted()
    assert GAME.view(state, None)["places"]["alehouse"]["ghost"] == 1
    assert "1" not in GAME.view(state, None)["places"]["alehouse"]["bids"]
