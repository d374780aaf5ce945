"""The Keymelequin module (module sheet "Keymelequin"; rulings F-27 to F-37): the boat that replaces one of the
game's boats, brings Sven (blue or yellow) in spring and Paulo (green or red) in summer, and is itself replaced for
autumn; the wild keyples in bids, uses, payments and moves; a tile's colour while it is open between two colours.

The sheet writes ♣ for any keyple of Sven's pair (blue, yellow or Sven) and ♠ for Paulo's (green, red or Paulo):
F-27. Scenes are games set up with the module (tests/keyflower/scene.py, `module_game`), the few fields a rule reads
set by hand; every action is played through GAME in Keywood's notation (`bid LOC sven`, `add yellow`, `done`, ...).
The final scoring with Sven and Paulo is tested in test_scoring_keymelequin.py.
"""

from __future__ import annotations

import copy
import json

import pytest

from engine.core import IllegalAction
from engine.keyflower import places as pl
from engine.keyflower.actions import act
from engine.keyflower.components import COMPONENTS
from engine.keyflower.game import GAME
from engine.keyflower.state import BoatInPlay, KfState
from tests.keyflower.scene import (
    all_pass,
    at_turns,
    bid,
    bid_at,
    finish_season,
    give_wild,
    group,
    keyples_of,
    legal,
    module_game,
    move,
    offered,
    place_first,
    play,
    put_tile,
    screen,
    use,
    uses_at,
)
from tests.keyflower.test_gaps import score_lines

TILES = ("alehouse", "gold-mine", "keywood", "woodcutter")
SPARE_AT_3 = ["replace keyflower", "replace flipper", "replace ianvincible", "replace white-wind"]


def scene(season: int = 0, players: int = 3) -> KfState:
    """This season's turns, start player Ana (0), with four tiles up for auction; every seat holds 4 blue, 4 red,
    4 yellow, 2 green; the Keymelequin replaced the Keyflower boat, and nobody holds Sven or Paulo yet."""
    state = at_turns(module_game(players, 1, "keyflower", False), season, 0)
    state.auction = list(TILES)
    for seat in range(players):
        screen(state, seat, blue=4, red=4, yellow=4, green=2)
    return state


def at(state: KfState, seat: int, loc: str, what: str = "bid") -> set[str]:
    """The kinds a seat could start a bid (or use) with at a location, were it its turn: 'blue', 'sven', 'mixed'."""
    return {a.split()[2] for a in offered(state, seat) if a.startswith(f"{what} {loc} ")}


def boat(state: KfState, boat_id: str) -> BoatInPlay:
    """A boat on the table by id."""
    return next(b for b in state.boats if b.id == boat_id)


def plain(workers: dict[str, int]) -> int:
    """How many plain keyples (not Sven or Paulo) a load holds."""
    return sum(n for kind, n in workers.items() if kind not in ("sven", "paulo"))


def to_boats(state: KfState) -> None:
    """Everyone passes, nobody having bid: the boats are picked next."""
    all_pass(state)
    assert state.phase == "boats"


def end_of_summer(replacement: str, players: int = 3) -> tuple[KfState, int]:
    """A real game with the Keymelequin in the Keyflower boat's place, played with nobody bidding to the end of
    summer; the first seat to pick takes the Keymelequin and names `replacement`; the others take what is left.
    Returns the state (autumn begun) and the seat that took the Keymelequin."""
    state = module_game(players, 1, "keyflower", False)
    finish_season(state)
    to_boats(state)
    taker = GAME.to_act(state)[0]
    play(state, taker, "boat keymelequin")
    play(state, taker, f"replace {replacement}")
    while state.phase == "boats":
        seat = GAME.to_act(state)[0]
        play(state, seat, legal(state, seat)[0])
    place_first(state)
    assert state.season == 2 and state.phase == "turns"
    return state, taker


# --- set-up and the Keymelequin tile ---------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "replaced"), [(2, "keyflower"), (3, "sea-breese"), (6, "white-wind")])
def test_the_keymelequin_takes_the_place_of_the_chosen_boat(players: int, replaced: str) -> None:
    """Module sheet, Set up and the Keymelequin tile; F-35: the Keymelequin replaces the boat chosen at `new`; the
    other boats in play stay."""
    state = module_game(players, 1, replaced, False)
    plain_ids = [b.id for b in module_game(players, 1, "off", False).boats]
    assert [b.id for b in state.boats] == [("keymelequin" if i == replaced else i) for i in plain_ids]
    assert replaced not in [b.id for b in state.boats]


def test_without_the_module_the_boats_are_the_base_games() -> None:
    """F-35: `keymelequin=off` leaves the module out: no Keymelequin, no Sven anywhere."""
    state = module_game(3, 1, "off", False)
    assert [b.id for b in state.boats] == ["keyflower", "sea-bastion", "sea-breese"]
    assert keyples_of(state, "sven") == 0


@pytest.mark.parametrize(("players", "boat_id"), [(3, "flipper"), (2, "sea-breese"), (5, "white-wind")])
def test_a_boat_not_in_play_at_the_player_count_cannot_be_replaced(players: int, boat_id: str) -> None:
    """F-35: the table refuses a boat not in play at the number of players who start, saying which it may be."""
    with pytest.raises(ValueError, match=boat_id) as refused:
        module_game(players, 1, boat_id, False)
    assert "keyflower, sea-bastion" in str(refused.value)
    assert f"With {players} players" in str(refused.value)


def test_the_keymelequin_is_loaded_in_spring_with_sven_aboard() -> None:
    """Module sheet, Set up: loaded as usual by its icons, Sven on board in spring; F-33: face a, its reconstructed
    numbers (workers and skills from the bag and the pile), Sven put aboard on top."""
    state = module_game(3, 1, "sea-bastion", False)
    data = COMPONENTS.keymelequin
    assert (data.workers_a, data.skills_a, data.provenance) == (5, 1, "reconstructed")
    load = boat(state, "keymelequin")
    assert plain(load.workers) == data.workers_a
    assert load.workers["sven"] == 1 and "paulo" not in load.workers
    assert sum(load.skills.values()) == data.skills_a
    assert keyples_of(state, "sven") == 1 and keyples_of(state, "paulo") == 0


def test_the_keymelequin_is_flipped_in_summer_with_paulo_aboard() -> None:
    """Module sheet, Set up: in summer the boat tile is flipped and Paulo is on board; F-33: face b, 3 workers and
    1 skill (reconstructed); F-32: Paulo was out of play until then."""
    state = module_game(3, 1, "keyflower", False)
    finish_season(state)
    assert state.season == 1
    data = COMPONENTS.keymelequin
    assert (data.workers_b, data.skills_b) == (3, 1)
    load = boat(state, "keymelequin")
    assert plain(load.workers) == data.workers_b
    assert load.workers["paulo"] == 1 and "sven" not in load.workers
    assert sum(load.skills.values()) == data.skills_b
    assert keyples_of(state, "paulo") == 1


@pytest.mark.parametrize(("season", "wild"), [(0, "sven"), (1, "paulo")])
def test_taking_the_keymelequins_load_puts_its_wild_keyple_behind_the_screen(season: int, wild: str) -> None:
    """Module sheet, Set up; F-32: whoever takes the Keymelequin's load takes Sven (spring) or Paulo (summer)
    with it, behind the screen."""
    state = module_game(3, 1, "keyflower", False)
    if season:
        finish_season(state)
    to_boats(state)
    seat = GAME.to_act(state)[0]
    before = dict(state.workers[seat])
    play(state, seat, "boat keymelequin")
    assert state.workers[seat].get(wild, 0) == before.get(wild, 0) + 1
    assert boat(state, "keymelequin").workers == {}


# --- the end of summer: the replacement ------------------------------------------------------------------------


def test_the_summer_taker_names_a_boat_not_in_the_game() -> None:
    """Module sheet, Set up: at the end of summer the player who wins the Keymelequin chooses a different boat, not
    already in the game; F-34: the one it replaced or one unused at this number of players, and nothing else."""
    state = module_game(3, 1, "keyflower", False)
    finish_season(state)
    to_boats(state)
    taker = GAME.to_act(state)[0]
    play(state, taker, "boat keymelequin")
    assert GAME.to_act(state) == [taker]
    assert legal(state, taker) == SPARE_AT_3
    with pytest.raises(IllegalAction):
        play(state, taker, "replace sea-bastion")  # still in the game


def test_the_spring_taker_names_no_replacement() -> None:
    """Module sheet, Set up: the replacement is chosen at the end of summer only; taking it in spring asks nothing."""
    state = module_game(3, 1, "keyflower", False)
    to_boats(state)
    taker = GAME.to_act(state)[0]
    play(state, taker, "boat keymelequin")
    assert state.pending is None
    assert not [a for s in range(3) for a in legal(state, s) if a.startswith("replace")]


def test_the_autumn_boat_is_the_replacement_loaded_like_any_boat() -> None:
    """Module sheet, Set up: the chosen boat replaces the Keymelequin for autumn; F-34: it is loaded in autumn like
    the others (face a: F-5, F-6)."""
    state, _ = end_of_summer("flipper")
    ids = [b.id for b in state.boats]
    assert ids == ["flipper", "sea-bastion", "sea-breese"]
    flipper = next(b for b in COMPONENTS.boats if b.id == "flipper")
    assert plain(boat(state, "flipper").workers) == flipper.workers_a
    assert sum(boat(state, "flipper").skills.values()) == flipper.skills_a


def test_in_winter_the_replacement_is_taken_and_scores_as_its_own_boat() -> None:
    """Module sheet, Set up: the replacement shapes the winter boat scoring; F-34: taken as a boat tile in winter,
    scoring by its own winter face (Ianvincible: 5 points)."""
    state, _ = end_of_summer("ianvincible")
    finish_season(state)
    for seat in GAME.to_act(state):
        play(state, seat, legal(state, seat)[0])
    all_pass(state)
    seat = GAME.to_act(state)[0]
    assert "boat ianvincible" in legal(state, seat)
    play(state, seat, "boat ianvincible")
    while state.phase == "boats":
        other = GAME.to_act(state)[0]
        play(state, other, legal(state, other)[0])
    place_first(state)
    assert state.phase == "over"
    assert "ianvincible" in {p.tile for p in state.villages[seat].values()}
    assert score_lines(state, seat)["Ianvincible"] == 5


def test_the_keymelequin_never_reaches_a_village() -> None:
    """F-34: the Keymelequin leaves the game when it is replaced; it is never taken as a boat tile in winter and
    never scores."""
    state, _ = end_of_summer("white-wind")
    assert "keymelequin" not in [b.id for b in state.boats]
    finish_season(state)
    for seat in GAME.to_act(state):
        play(state, seat, legal(state, seat)[0])
    all_pass(state)
    assert not [a for s in range(3) for a in offered(state, s) if "keymelequin" in a]
    finish_season(state)
    assert state.phase == "over"
    assert not [p for v in state.villages for p in v.values() if p.tile == "keymelequin"]
    assert not [line for s in range(3) for line in score_lines(state, s) if "Keymelequin" in line]


# --- Sven and Paulo as one keyple of their pair ------------------------------------------------------------------


def test_sven_alone_is_a_bid_of_one_worker() -> None:
    """Module sheet, Using Sven and Paulo: Sven is used like an ordinary keyple and counts as a single blue or
    yellow keyple: on his own he is a bid of one, which may stop there."""
    state = scene()
    give_wild(state, 0, "sven")
    state.turn = 0
    play(state, 0, "bid alehouse sven")
    assert "done" in legal(state, 0)
    play(state, 0, "done")
    assert bid_at(state, "alehouse", 0) == ("blue/yellow", 1)
    assert state.workers[0].get("sven", 0) == 0


def test_sven_counters_a_blue_bid_of_one_only_as_part_of_two() -> None:
    """Module sheet, Using Sven and Paulo (one blue or one yellow) and reference §4 (a counter-bid needs more
    workers): against Ben's 1 blue, Sven alone is not enough; with a yellow, which counts as blue with him, the bid
    of 2 leads."""
    state = scene()
    give_wild(state, 0, "sven")
    bid(state, 1, "alehouse", "blue", 1)
    state.turn = 0
    play(state, 0, "bid alehouse sven")
    assert "done" not in legal(state, 0)
    assert {"add blue", "add yellow"} <= set(legal(state, 0))
    play(state, 0, "add yellow")
    play(state, 0, "done")
    assert bid_at(state, "alehouse", 0) == ("blue/yellow", 2)
    assert pl.winning(state, "alehouse", 0)
    assert pl.identity(state, "alehouse") == {"blue"}


def test_paulo_counts_as_one_green_or_one_red() -> None:
    """Module sheet, Using Sven and Paulo: Paulo acts in the same way with green and red: against 1 red he counters
    with a green (green with him counts as red); he is no blue, so a blue tile does not take him."""
    state = scene(season=1)
    give_wild(state, 0, "paulo")
    bid(state, 1, "alehouse", "red", 1)
    bid(state, 2, "gold-mine", "blue", 1)
    assert "paulo" in at(state, 0, "alehouse") and "paulo" not in at(state, 0, "gold-mine")
    group(state, 0, "bid alehouse paulo", "green")
    assert bid_at(state, "alehouse", 0) == ("red/green", 2)
    assert pl.winning(state, "alehouse", 0)


# --- the sheet's examples ---------------------------------------------------------------------------------------


def test_the_bidding_example_step_by_step() -> None:
    """Module sheet, Bidding example (F-27: each ♣ is a blue, a yellow or Sven; F-29): A bids 1 blue; B counters
    with 2 blue; A adds Sven and a yellow (3, above B's 2, as a topped-up losing bid must be: F-11); C cannot bid
    4 yellow while B's blue bid stands; B moves his 2 blue to another tile, and the tile is blue or yellow again;
    C bids 4 yellow, and the tile is yellow."""
    state = scene()
    give_wild(state, 0, "sven")
    screen(state, 2, yellow=4)
    bid(state, 0, "alehouse", "blue", 1)
    bid(state, 1, "alehouse", "blue", 2)
    state.turn = 0
    play(state, 0, "bid alehouse sven")
    assert "done" not in legal(state, 0)  # 1 + Sven is no more than B's 2: a topped-up bid must lead (F-11)
    play(state, 0, "add yellow")
    play(state, 0, "done")
    assert bid_at(state, "alehouse", 0) == ("blue/yellow", 3)
    assert pl.identity(state, "alehouse") == {"blue"}  # B's plain blue bid still stands

    assert "bid alehouse yellow" not in offered(state, 2)
    state.turn = 2
    with pytest.raises(IllegalAction) as refused:
        play(state, 2, "bid alehouse yellow")
    assert refused.value.reason
    with pytest.raises(IllegalAction):
        GAME.apply_in_place(state, 2, act("bid", "alehouse", "yellow"))
    assert bid_at(state, "alehouse", 2) is None

    move(state, 1, "alehouse", "bid", "gold-mine", 0)
    assert bid_at(state, "alehouse", 1) is None and bid_at(state, "gold-mine", 1) == ("blue", 2)
    assert pl.identity(state, "alehouse") == {"blue", "yellow"}
    assert pl.colour_of(state, "alehouse") is None

    bid(state, 2, "alehouse", "yellow", 4)
    assert bid_at(state, "alehouse", 2) == ("yellow", 4) and pl.winning(state, "alehouse", 2)
    assert pl.colour_of(state, "alehouse") == "yellow"


def test_the_bidding_example_a_tops_up_with_both_colours_of_the_pair() -> None:
    """Module sheet, Bidding example; F-28, F-29: after C's 4 yellow, A's bid holds Sven, so blue and yellow added to
    it both count as yellow: A tops it up with one of each (`bid LOC mixed`) to 5 and leads again."""
    state = scene()
    give_wild(state, 0, "sven")
    bid(state, 0, "alehouse", "blue", 1)
    group(state, 0, "bid alehouse sven", "yellow")
    bid(state, 2, "alehouse", "yellow", 4)
    assert "mixed" in at(state, 0, "alehouse")
    group(state, 0, "bid alehouse mixed", "blue", "yellow")
    assert bid_at(state, "alehouse", 0) == ("blue/yellow", 5)
    assert pl.winning(state, "alehouse", 0) and pl.colour_of(state, "alehouse") == "yellow"


def production_scene() -> KfState:
    """Summer; Cleo's Keywood in her village; Ana holds 4 red and 3 green, Ben 3 red, 2 green and Paulo."""
    state = scene(season=1)
    state.auction = []
    put_tile(state, 2, "keywood", "1/-1")
    screen(state, 0, red=4, green=3)
    screen(state, 1, red=3, green=2)
    give_wild(state, 1, "paulo")
    return state


def test_the_production_example_paulo_joins_a_red_use() -> None:
    """Module sheet, Production example, first two steps (F-27: each ♠ is a green, a red or Paulo): A uses the tile
    with 1 red; B uses it with Paulo and a green (2, one more than before). F-28: A's earlier red is with Paulo, so
    the uses together may be red or green. (The sheet's red extension is not in Keywood: F-37.)"""
    state = production_scene()
    use(state, 0, "keywood", "red", 1)
    assert at(state, 1, "keywood", "use") >= {"paulo", "red"}
    assert "green" not in at(state, 1, "keywood", "use")  # without Paulo a green does not fit the red use
    group(state, 1, "use keywood paulo", "green")
    assert uses_at(state, "keywood") == [(0, "red", 1), (1, "red/green", 2)]
    assert pl.identity(state, "keywood") == {"red", "green"}
    assert at(state, 0, "keywood", "use") >= {"red", "green"}  # 3 red, or 3 green: with Paulo, green fits


def test_the_production_example_a_uses_with_two_red_and_a_green() -> None:
    """Module sheet, Production example, last step; F-28: A uses the tile with 2 red and 1 green, mixing Paulo's
    pair because Paulo stands among the uses (`use LOC mixed`); 6 workers on the tile, the season's limit."""
    state = production_scene()
    use(state, 0, "keywood", "red", 1)
    group(state, 1, "use keywood paulo", "green")
    assert "mixed" in at(state, 0, "keywood", "use")
    group(state, 0, "use keywood mixed", "red", "red", "green")
    assert [(u.seat, u.count) for u in pl.peek(state, "keywood").uses] == [(0, 1), (1, 2), (0, 3)]
    assert pl.peek(state, "keywood").uses[2].keyples() == {"red": 2, "green": 1}

    assert pl.used(state, "keywood") == pl.MAX_WORKERS


# --- "with Sven": the same bid or the same tile (F-28) -----------------------------------------------------------


def test_a_use_made_before_sven_is_with_him() -> None:
    """Module sheet, Using Sven and Paulo: keyples placed by any player onto the same tile as Sven are with him;
    F-28: in any order. Ben used the Keywood with 1 yellow; Ana's Sven and blue join it; the uses may now be blue or
    yellow, so Cleo may use it with blue."""
    state = scene()
    give_wild(state, 0, "sven")
    use(state, 1, "keywood", "yellow", 1)
    assert "blue" not in at(state, 2, "keywood", "use")
    group(state, 0, "use keywood sven", "blue")
    assert pl.identity(state, "keywood") == {"blue", "yellow"}
    assert "blue" in at(state, 2, "keywood", "use")


def test_sven_used_on_a_tile_does_not_open_the_bids_beside_it() -> None:
    """F-28: bids stand beside a tile, not on it: Sven used on the Alehouse leaves Ben's plain yellow bid yellow,
    so nobody may bid blue there."""
    state = scene()
    give_wild(state, 0, "sven")
    bid(state, 1, "alehouse", "yellow", 1)
    group(state, 0, "use alehouse sven")
    assert pl.identity(state, "alehouse") == {"yellow"}
    assert at(state, 2, "alehouse") == {"yellow"}


def test_sven_in_a_bid_does_nothing_for_the_uses() -> None:
    """F-28: Sven in a bid is with that bid only: beside Ana's Sven and blue bid, Ben's blue use sets the uses'
    colour, and Cleo may not use the tile with yellow."""
    state = scene()
    give_wild(state, 0, "sven")
    group(state, 0, "bid alehouse sven", "blue")
    use(state, 1, "alehouse", "blue", 1)
    assert pl.identity(state, "alehouse") == {"blue"}
    assert at(state, 2, "alehouse", "use") == {"blue"}


def test_without_a_wild_keyple_a_group_has_one_colour() -> None:
    """Module sheet, Using Sven and Paulo; F-29: only keyples with Sven or Paulo change colour: without one (and
    without summer boat 4b) no group mixes colours, and a blue use and a yellow use never share a tile."""
    state = scene()
    use(state, 1, "keywood", "blue", 1)
    bid(state, 1, "alehouse", "blue", 1)
    assert "mixed" not in at(state, 0, "keywood", "use") | at(state, 0, "alehouse")
    assert at(state, 0, "keywood", "use") == {"blue"}
    state.turn = 0
    with pytest.raises(IllegalAction):
        play(state, 0, "bid alehouse mixed")


def test_a_group_never_holds_both_sven_and_paulo() -> None:
    """F-29: a group holding Sven and Paulo would fit no colour and cannot be made: Ana's bid started with Sven is
    not offered Paulo, and Paulo is not offered for a use of a tile where Sven stands among the uses."""
    state = scene(season=1)
    give_wild(state, 0, "sven")
    give_wild(state, 0, "paulo")
    trial = copy.deepcopy(state)
    trial.turn = 0
    play(trial, 0, "bid alehouse sven")
    assert {"add blue", "add yellow"} <= set(legal(trial, 0))
    assert "add paulo" not in legal(trial, 0)
    assert "paulo" in at(state, 0, "keywood", "use")
    group(state, 0, "use keywood sven")
    assert "paulo" not in at(state, 0, "keywood", "use")


# --- the tile's colour while it is open (F-29) ------------------------------------------------------------------


def test_a_tile_with_only_svens_group_is_open_between_blue_and_yellow() -> None:
    """Module sheet, Using Sven and Paulo: where only Sven's group sets the colour, the tile can be blue or yellow;
    F-29: both are offered to the others, and the board shows the bid as blue/yellow."""
    state = scene()
    give_wild(state, 0, "sven")
    group(state, 0, "bid alehouse sven", "blue")
    assert pl.identity(state, "alehouse") == {"blue", "yellow"} and pl.colour_of(state, "alehouse") is None
    assert at(state, 1, "alehouse") == {"blue", "yellow"}
    assert GAME.view(state, None)["places"]["alehouse"]["bids"]["0"][:2] == ["blue/yellow", 2]


def test_a_later_placement_decides_the_open_colour() -> None:
    """Module sheet, Using Sven and Paulo: subsequent placements may determine which colour the tile becomes; F-29:
    Ben's 3 yellow narrow it to yellow for everyone."""
    state = scene()
    give_wild(state, 0, "sven")
    group(state, 0, "bid alehouse sven", "blue")
    bid(state, 1, "alehouse", "yellow", 3)
    assert pl.colour_of(state, "alehouse") == "yellow"
    assert at(state, 2, "alehouse") == {"yellow"}
    assert at(state, 2, "alehouse", "use") == {"yellow"}


def test_the_tile_opens_again_when_the_narrowing_group_moves_away() -> None:
    """F-29 (module sheet, Bidding example): Ana's Paulo and red leave the tile green or red; Ben's 3 green narrow
    it to green; Ana's red top-up counts as green with Paulo and outbids him; when Ben moves his greens away the
    tile is green or red again."""
    state = scene(season=1)
    give_wild(state, 0, "paulo")
    screen(state, 1, green=3, blue=2)
    screen(state, 2, red=5, green=5)
    group(state, 0, "bid alehouse paulo", "red")
    bid(state, 1, "alehouse", "green", 3)
    assert pl.colour_of(state, "alehouse") == "green"
    bid(state, 0, "alehouse", "red", 2)
    assert bid_at(state, "alehouse", 0) == ("red/green", 4) and pl.colour_of(state, "alehouse") == "green"
    move(state, 1, "alehouse", "bid", "gold-mine", 0)
    assert pl.identity(state, "alehouse") == {"green", "red"}
    assert at(state, 2, "alehouse") == {"green", "red"}


# --- summer boats 4a and 4b (F-30) -----------------------------------------------------------------------------


def test_boat_4a_offers_sven_for_a_counter_bid_as_it_offers_plain_blue() -> None:
    """F-30 (and F-26): against Ben's red bid, boat 4a lets Ana counter with plain blue, yellow or green lying flat,
    and with Sven as well, who "can be used in the same way as an ordinary keyple" (module sheet, Using Sven and
    Paulo); the rest of it is in test_boats_with_sven.py."""
    state = scene(season=1)
    put_tile(state, 0, "summerboat-4a", "0/-1")
    give_wild(state, 0, "sven")
    bid(state, 1, "alehouse", "red", 1)
    assert at(state, 0, "alehouse") == {"blue", "yellow", "green", "red", "sven"}
    assert "sven" not in at(state, 1, "alehouse")  # without the boat, Sven's blue or yellow does not fit red


def test_boat_4a_does_not_counter_a_bid_of_paulo_alone_off_his_colours() -> None:
    """F-44. Boat 4a: "If another player has bid for a village tile using blue, red or yellow (but not green)
    workers, then the owner of this boat may counter bid using a different colour"; the module sheet: Sven "counts
    as either a single blue or a single yellow keyple", and "Paulo acts in the same way except Paulo's colours are
    green and red". Ben's bid of Paulo alone may still be green, so Ana's boat 4a breaks nothing there: no blue or
    yellow counter-bid, flat or standing. She may counter in red or green, which fit him; her red stands and
    settles the tile as red (Paulo's bid then counts as red)."""
    state = scene(season=1)
    put_tile(state, 0, "summerboat-4a", "0/-1")
    give_wild(state, 1, "paulo")
    group(state, 1, "bid alehouse paulo")
    assert bid_at(state, "alehouse", 1) == ("red/green", 1)
    assert at(state, 0, "alehouse") == {"red", "green"}
    for colour in ("blue", "yellow"):
        state.turn = 0
        with pytest.raises(IllegalAction):
            play(state, 0, f"bid alehouse {colour}")
    bid(state, 0, "alehouse", "red", 2)
    assert pl.peek(state, "alehouse").bids[0].to_json() == ["red", 2, False]
    assert pl.identity(state, "alehouse") == {"red"}


def test_boat_4a_counters_a_bid_of_sven_alone_like_a_blue_or_yellow_one() -> None:
    """F-44, beside it: Sven alone can only be blue or yellow, never green, so boat 4a counters him as it counters a
    blue or yellow bid (F-26): Ana's 2 red lie flat, and the tile stays blue or yellow for everyone else."""
    state = scene(season=1)
    put_tile(state, 0, "summerboat-4a", "0/-1")
    give_wild(state, 1, "sven")
    group(state, 1, "bid alehouse sven")
    assert at(state, 0, "alehouse") == {"blue", "yellow", "red", "green"}
    bid(state, 0, "alehouse", "red", 2)
    assert pl.peek(state, "alehouse").bids[0].to_json() == ["red", 2, True]
    assert pl.identity(state, "alehouse") == {"blue", "yellow"}


def test_boat_4b_offers_paulo_alone_and_inside_a_mixed_use() -> None:
    """F-30 (and F-26): boat 4b lets Ana use a Keywood used with blue with red, with mixed colours, and with Paulo,
    alone or inside the mixed use ("Paulo acts in the same way" as Sven, an ordinary keyple: module sheet)."""
    state = scene(season=1)
    put_tile(state, 0, "summerboat-4b", "0/-1")
    give_wild(state, 0, "paulo")
    use(state, 1, "keywood", "blue", 1)
    assert {"red", "mixed", "paulo"} <= at(state, 0, "keywood", "use")
    state.turn = 0
    play(state, 0, "use keywood mixed")
    assert {"add red", "add yellow", "add paulo"} <= set(legal(state, 0))


# --- paying with Sven or Paulo (F-31) ------------------------------------------------------------------------------


@pytest.mark.parametrize(("tile", "colour", "wild", "with_"),
                         [("peddler", "yellow", "sven", "blue"), ("store", "blue", "sven", "red"),
                          ("fair", "red", "paulo", "blue")])
def test_a_tile_taking_a_named_colour_accepts_its_pairs_wild_keyple(tile: str, colour: str, wild: str,
                                                                     with_: str) -> None:
    """F-31 (module sheet, Using Sven and Paulo: one blue or one yellow, one green or one red): the Peddler's
    yellow, the Store's blue and the Fair's red may be paid with Sven or Paulo; holding both, the payer chooses,
    and the keyple paid goes into the bag."""
    state = scene(season=2)
    state.auction = []
    put_tile(state, 2, tile, "1/-1")
    give_wild(state, 0, wild)
    bag = state.bag.get(wild, 0)
    use(state, 0, tile, with_, 1)
    assert legal(state, 0) == sorted([f"pay {colour}", f"pay {wild}"])
    play(state, 0, f"pay {wild}")
    assert state.workers[0].get(wild, 0) == 0 and state.workers[0][colour] == 4
    assert state.bag.get(wild, 0) == bag + 1


def test_paulo_is_no_yellow_for_the_peddler() -> None:
    """F-31: only the wild keyple of the named colour's pair pays: Paulo (green or red) cannot pay the Peddler's
    yellow, so with no yellow Ana cannot use it."""
    state = scene(season=1)
    state.auction = []
    put_tile(state, 2, "peddler", "1/-1")
    screen(state, 0, blue=2)
    give_wild(state, 0, "paulo")
    assert not at(state, 0, "peddler", "use")
    give_wild(state, 0, "sven")
    assert "blue" in at(state, 0, "peddler", "use")


def test_the_tavern_takes_sven_as_its_worker_of_any_colour() -> None:
    """F-31: a payment of any worker (the Tavern) may take either wild keyple, the payer choosing; handed in, Sven
    goes into the bag after the use's draw (F-15)."""
    state = scene(season=1)
    state.auction = []
    put_tile(state, 2, "tavern", "1/-1")
    give_wild(state, 0, "sven")
    use(state, 0, "tavern", "blue", 1)
    assert "pay sven" in legal(state, 0) and "pay red" in legal(state, 0)
    play(state, 0, "pay sven")
    assert state.workers[0].get("sven", 0) == 0
    assert state.bag.get("sven", 0) == 1


# --- where Sven and Paulo go (F-32) -----------------------------------------------------------------------------


def test_a_winning_bid_with_sven_puts_him_into_the_bag() -> None:
    """F-32 (reference §7 step 3): Sven in a winning bid goes into the bag with the rest of the bid: the bag grows
    by the bid's size."""
    state = scene()
    give_wild(state, 0, "sven")
    group(state, 0, "bid alehouse sven", "blue", "yellow")
    before = dict(state.bag)
    all_pass(state)
    assert "alehouse" in state.won[0]
    assert state.bag.get("sven", 0) == before.get("sven", 0) + 1
    assert sum(state.bag.values()) == sum(before.values()) + 3


def test_sven_in_the_bag_is_drawn_like_any_keyple() -> None:
    """F-32: once in the bag Sven may be drawn from it later: the Alehouse's random worker, with only Sven in the
    bag, is Sven."""
    state = scene()
    state.bag = {"sven": 1}
    for b in state.boats:
        b.workers.pop("sven", None)
    use(state, 0, "alehouse", "blue", 1)
    assert state.workers[0].get("sven") == 1 and state.bag.get("sven", 0) == 0


def test_sven_used_on_a_tile_goes_to_its_owner_at_the_end_of_the_season() -> None:
    """F-32 (reference §7 step 4): Sven used on a village tile goes to the tile's owner when the season ends."""
    state = scene()
    state.auction = []
    put_tile(state, 2, "keywood", "1/-1")
    give_wild(state, 0, "sven")
    group(state, 0, "use keywood sven", "blue")
    all_pass(state)
    assert state.workers[2].get("sven") == 1 and state.workers[2]["blue"] == 5
    assert state.workers[0].get("sven", 0) == 0


def test_sven_behind_a_screen_is_hidden_like_any_keyple() -> None:
    """F-32 (F-7): behind a screen Sven is as hidden as any keyple: the public view and the other players' views
    give the count only; his holder sees him."""
    state = scene()
    give_wild(state, 0, "sven")
    assert "sven" not in json.dumps(GAME.view(state, None)).lower()
    assert "sven" not in json.dumps(GAME.view(state, 1)).lower()
    assert GAME.view(state, None)["screens"][0] == 15
    assert GAME.view(state, 0)["workers"]["sven"] == 1


# --- moving an outbid group with Sven (reference §4, F-29) ----------------------------------------------------------


def test_an_outbid_group_with_sven_moves_and_is_topped_up_with_his_pair() -> None:
    """Reference §4 (an outbid group moves whole, topped up from the screen), module sheet Bidding example and
    F-29: Ana's Sven and blue, outbid on the Alehouse, move to counter Cleo's 2 yellow on the Gold mine: the blue
    counts as yellow with Sven, and she adds a yellow (one keyple at a time, `done` once it leads)."""
    state = scene()
    give_wild(state, 0, "sven")
    group(state, 0, "bid alehouse sven", "blue")
    bid(state, 1, "alehouse", "blue", 3)
    bid(state, 2, "gold-mine", "yellow", 2)
    state.turn = 0
    assert "move alehouse bid gold-mine" in legal(state, 0)
    play(state, 0, "move alehouse bid gold-mine")
    steps = legal(state, 0)
    assert {"add blue", "add yellow"} <= set(steps) and "done" not in steps
    assert not [a for a in steps if a.startswith("count")]
    play(state, 0, "add yellow")
    play(state, 0, "done")
    assert bid_at(state, "alehouse", 0) is None
    assert bid_at(state, "gold-mine", 0) == ("blue/yellow", 3) and pl.winning(state, "gold-mine", 0)
    assert pl.colour_of(state, "gold-mine") == "yellow"
