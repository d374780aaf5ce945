"""`check` in Keyflower (engine contract: check and judge; issue 39 item 6): every kind of action is answered with
what it gets, costs and changes, in the reference's terms; a move that draws or reveals something hidden (workers or
skills drawn, a season's tiles, the winter choices, the screens at the end) says so and never what.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import Event, clone
from engine.keyflower.explain import describe
from engine.keyflower.game import GAME
from engine.keyflower.lookup import display_name
from engine.keyflower.state import KfState
from tests.contract.kit import explained_verbs
from tests.keyflower.scene import (
    NAMES,
    all_pass,
    at_turns,
    auction,
    bid,
    give_wild,
    home_of,
    legal,
    module_game,
    new_game,
    play,
    put_res,
    put_tile,
    screen,
    skills,
    to_winter,
    use,
)
from tests.keyflower.scene import checked as outcome


def same_for_every_redraw(state: KfState, seat: int, text: str, hidden: Callable[[KfState, list[Event]], str]) -> str:
    """The check's text, the same on states the seat cannot tell apart (resample_hidden), though what the move
    draws or reveals (`hidden(after, events)` of playing it there) differs between them; the text contains none of
    it."""
    said = outcome(state, seat, text)
    shown = set()
    for seed in range(1, 9):
        other = GAME.resample_hidden(state, seat, seed)
        assert outcome(other, seat, text) == said
        after = clone(other)
        shown.add(hidden(after, play(after, seat, text)))
    assert len(shown) > 1, "the redraws never changed what the move draws: the test could not fail"
    for thing in shown:
        assert thing not in said
    return said


def private(seat: int) -> Callable[[KfState, list[Event]], str]:
    """The events told to the seat alone (what a draw gave it)."""
    return lambda after, events: " | ".join(e.text for e in events if e.to == (seat,))


def public(words: str) -> Callable[[KfState, list[Event]], str]:
    """The public event containing these words (what a reveal shows everyone)."""
    return lambda after, events: next(e.text for e in events if e.public and words in e.text)


def home(state: KfState, seat: int) -> str:
    """A seat's home tile as check names it ('Home tile 3')."""
    return display_name(home_of(state, seat))


def scene(season: int = 0, *tiles: str) -> KfState:
    """Three players in a season's turns, Ana (seat 0) to act, these tiles up for auction; every screen holds 3
    blue, 3 red, 3 yellow."""
    state = at_turns(new_game(3, 1), season, 0)
    auction(state, *tiles)
    for seat in range(3):
        screen(state, seat, blue=3, red=3, yellow=3)
    return state


# --- bids (reference §4) -------------------------------------------------------------------------------------------


def test_a_bid_names_the_counts_the_best_bid_and_the_prize() -> None:
    """reference §4: a bid must beat the best bid; the highest bid at the end of the season wins the tile, and its
    workers go into the bag."""
    state = scene(0, "alehouse", "keywood")
    screen(state, 0, red=4, blue=1)
    bid(state, 1, "alehouse", "red", 2)
    state.turn = 0
    prize = ("If it is the highest when spring ends, the Alehouse (gives 1 worker from the bag per use) joins your "
             "village and the bid goes into the bag.")
    assert outcome(state, 0, "bid alehouse red") == ("You bid red on the Alehouse: next you say how many, 3 to 4 (the "
                                                     f"best other bid is Ben's 2 red). {prize}")
    play(state, 0, "bid alehouse red")
    assert outcome(state, 0, "count 3") == f"You bid 3 red on the Alehouse (the best other bid is Ben's 2 red). {prize}"


def test_a_bid_on_a_turn_order_tile_names_the_boat_pick_and_the_start_player() -> None:
    """reference §4, §7 step 5, §9.2: turn-order winners pick their boats first; with three players tile 2 carries
    the start icon."""
    state = scene(0, "alehouse")
    assert outcome(state, 0, "bid order-2 blue").endswith(
        "If it is the highest when spring ends, you pick a boat before the players without a turn-order tile and "
        "take the start-player keyple.")
    assert "start-player" not in outcome(state, 0, "bid order-1 blue")


def test_moving_an_outbid_group_names_what_moves_and_the_top_up() -> None:
    """reference §4: an outbid group may move whole to bid or use elsewhere, topped up from the screen."""
    state = scene(0, "alehouse", "keywood")
    bid(state, 0, "alehouse", "red", 1)
    bid(state, 1, "alehouse", "red", 2)
    state.turn = 0
    assert outcome(state, 0, "move alehouse bid keywood").startswith(
        "You move your outbid 1 red from the Alehouse to bid on the Keywood: next you say how many to add from your "
        "screen, 0 to 2.")
    play(state, 0, "move alehouse bid keywood")
    assert outcome(state, 0, "count 1").startswith("You bid your moved 1 red and 1 red more on the Keywood (nobody "
                                                   "else has bid).")


def test_another_outbid_group_may_join_the_move() -> None:
    """reference §4 (ruling on topping up with another losing group): the groups move together."""
    state = scene(0, "alehouse", "keywood", "gold-mine")
    screen(state, 1, red=4)
    bid(state, 0, "alehouse", "red", 1)
    bid(state, 0, "keywood", "red", 1)
    bid(state, 1, "alehouse", "red", 2)
    bid(state, 1, "keywood", "red", 2)
    state.turn = 0
    play(state, 0, "move alehouse bid gold-mine")
    assert outcome(state, 0, "join keywood") == ("Your outbid 1 red on the Keywood joins the group going to the Gold "
                                                 "Mine: 2 workers so far.")


# --- uses (reference §5) -------------------------------------------------------------------------------------------


def test_a_use_names_the_output_where_it_goes_and_where_the_workers_go() -> None:
    """reference §5: a use needs one more worker than the last; resources made on an auction tile go to the user's
    home tile, and its workers go with the tile to whoever wins it."""
    state = scene(0, "keywood")
    expected = (f"You use the Keywood with blue: next you say how many, 1 to 3. It gives 1 wood onto {home(state, 0)}; "
                "the workers go with the tile to whoever wins it at the end of spring.")
    assert outcome(state, 0, "use keywood blue") == expected
    play(state, 0, "use keywood blue")
    assert outcome(state, 0, "count 2") == (f"You use the Keywood with 2 blue: it gives 1 wood onto {home(state, 0)}; "
                                            "the workers go with the tile to whoever wins it at the end of spring.")


def test_using_another_villages_tile_sends_the_workers_to_its_owner() -> None:
    """reference §5, §7 step 4: the workers used on a village tile go to its owner at the end of the season."""
    state = scene(0)
    put_tile(state, 1, "woodcutter", "1/0")
    play(state, 0, "use woodcutter red")
    assert outcome(state, 0, "count 1") == (f"You use the Woodcutter with 1 red: it gives 2 wood onto "
                                            f"{home(state, 0)}; the workers go to Ben at the end of spring.")


def test_a_use_with_an_extra_worker_names_the_payment() -> None:
    """reference §9.5 (Peddler): each use hands in an extra yellow worker for a green."""
    state = scene(0, "peddler")
    play(state, 0, "use peddler yellow")
    assert outcome(state, 0, "count 1") == ("You use the Peddler with 1 yellow: you hand in an extra yellow worker and "
                                            "it gives 1 green worker; the workers go with the tile to whoever wins it "
                                            "at the end of spring.")


def test_a_use_that_draws_workers_says_they_are_drawn_and_not_which() -> None:
    """reference §5, §9.5 (Alehouse): the worker comes out of the bag at random, so check cannot name its colour."""
    state = scene(0, "alehouse")
    play(state, 0, "use alehouse red")
    said = same_for_every_redraw(state, 0, "count 1", private(0))
    assert said.endswith("Then 1 worker from the bag is drawn for you, face down: you see which once the move is "
                         "made.")
    assert "Behind your screen" not in said


def test_handing_in_a_worker_of_choice_then_draws_unseen() -> None:
    """reference §9.6 (Tavern): the use hands in a worker of one's choice and draws 2 from the bag; the one handed
    in goes back only after the draw."""
    state = scene(1, "tavern")
    play(state, 0, "use tavern red")
    assert outcome(state, 0, "count 1").startswith("You use the Tavern with 1 red; next you choose what to hand in "
                                                   "(an extra worker of any colour).")
    play(state, 0, "count 1")
    said = same_for_every_redraw(state, 0, "pay blue", private(0))
    assert said == ("You hand in 1 blue into the bag; then the Tavern gives you 2 workers from the bag. Then 2 workers "
                    "from the bag are drawn for you, face down: you see which once the move is made.")


def test_handing_in_a_skill_then_draws_skills_unseen() -> None:
    """reference §9.6 (Hiring Fair); F-7: a skill handed in goes face down; the skills drawn are secret."""
    state = scene(1, "hiring-fair")
    skills(state, 0, saw=1)
    play(state, 0, "use hiring-fair red")
    play(state, 0, "count 1")
    said = same_for_every_redraw(state, 0, "pay saw", private(0))
    assert said == ("You hand in 1 saw face down onto the pile; then the Hiring Fair gives you 2 skills from the pile. "
                    "Then 2 skills from the pile are drawn for you, face down: you see which once the move is made.")


def test_a_resource_of_choice_names_where_it_goes() -> None:
    """reference §9.5 (Workshop): one wood, stone or iron of the user's choice, onto the home tile."""
    state = scene(0, "workshop")
    use(state, 0, "workshop", "red", 1)
    assert outcome(state, 0, "take stone") == f"You take 1 stone from the supply onto {home(state, 0)}."


# --- transport and upgrades (reference §6) -------------------------------------------------------------------------


def transport_scene() -> KfState:
    """Ana uses her home tile (1 step, 1 upgrade) with a wood on it; the Gold Mine (1 iron, 1 stone on it) is one
    road step away and the Keywood two."""
    state = scene(0)
    put_tile(state, 0, "gold-mine", "1/0", iron=1, stone=1)
    put_tile(state, 0, "keywood", "2/-1")
    put_res(state, 0, "0/0", wood=1)
    use(state, 0, home_of(state, 0), "red", 1)
    return state


def test_a_carry_names_the_steps_it_takes_and_leaves() -> None:
    """reference §6: each step along a road costs one of the use's capacity."""
    state = transport_scene()
    assert outcome(state, 0, f"carry wood {home_of(state, 0)} gold-mine") == (
        f"You move 1 wood from {home(state, 0)} to the Gold Mine: 1 step of your 1, 0 left.")


def test_an_upgrade_names_its_payment_and_the_back() -> None:
    """reference §6: an upgrade is paid with resources on the tile and skills from behind the screen; the back
    shows the new use and points."""
    state = transport_scene()
    assert outcome(state, 0, "upgrade gold-mine") == ("You flip the Gold Mine, paying 1 iron, 1 stone from it: its "
                                                      "back gives 2 gold per use, worth 3 points.")
    skills(state, 0, saw=1)
    assert outcome(state, 0, "upgrade keywood") == ("You flip the Keywood, paying 1 saw: its back gives 3 wood per "
                                                    "use, worth 3 points.")


def test_ending_a_transport_names_what_is_left_unused() -> None:
    """reference §6: a transport use may leave steps and upgrades unused."""
    state = transport_scene()
    assert outcome(state, 0, "done") == "You end the transport, leaving 1 step and 1 upgrade unused."


# --- Sven, Paulo and the ghost (modules) ---------------------------------------------------------------------------


def test_a_bid_with_sven_is_built_one_keyple_at_a_time() -> None:
    """Module sheet, Using Sven and Paulo; F-28, F-29: Sven goes first and his pair's colours join him one at a
    time; `done` places the group."""
    state = at_turns(module_game(3, 1, "keyflower", False), 0, 0)
    auction(state, "alehouse")
    screen(state, 0, blue=2)
    give_wild(state, 0, "sven")
    assert outcome(state, 0, "bid alehouse sven").startswith(
        "You build a bid on the Alehouse with Sven: next you add blue or yellow workers one at a time, 1 or more "
        "(nobody else has bid).")
    play(state, 0, "bid alehouse sven")
    assert outcome(state, 0, "add blue") == ("You add 1 blue to the group for the Alehouse: Sven, 1 blue so far (1 or "
                                             "more in all; `done` places it).")
    assert outcome(state, 0, "done").startswith("You bid Sven on the Alehouse (nobody else has bid).")


def test_the_ghost_names_whose_bid_it_takes_and_for_whom_it_wins() -> None:
    """Module sheet, The ghost; F-39, F-40: the ghost replaces another player's winning bid; those workers go
    behind the ghost player's screen and the tile is won for the replaced player."""
    state = at_turns(module_game(3, 1, "off", True), 1, 0)
    auction(state, "tavern")
    screen(state, 1, red=3)
    state.ghost_holder = 0
    bid(state, 1, "tavern", "red", 2)
    state.turn = 0
    assert outcome(state, 0, "ghost tavern") == ("You play the ghost on the Tavern: Ben's winning bid (2 red) goes "
                                                 "behind your screen, and the ghost wins the Tavern for Ben; nothing "
                                                 "more may go there this season.")


# --- passing and the end of a season (reference §3.2, §7) ---------------------------------------------------------


def test_a_pass_counts_the_passes_and_the_last_one_ends_the_season() -> None:
    """reference §3.2: the season ends when every player has passed in succession; §7: then the bids are settled
    in the open."""
    state = scene(0, "alehouse")
    bid(state, 1, "alehouse", "red", 2)
    state.turn = 0
    assert outcome(state, 0, "pass") == ("You pass (1 of 3 in a row): spring ends when everyone passes in a row, and "
                                         "you may still act on a later turn.")
    play(state, 0, "pass")
    play(state, 1, "pass")
    said = outcome(state, 2, "pass")
    assert said.startswith("You pass, and everyone has now passed in a row. ")
    assert "the end of spring" in said and "Ben wins Alehouse" in said


def boats_scene(*village: str) -> KfState:
    """Summer ends with nobody bidding; each boat holds i+1 blue and a pick; Ana (seat 0) picks first and owns
    these tiles."""
    state = scene(1)
    for i, tile_id in enumerate(village):
        put_tile(state, 0, tile_id, f"{i + 1}/0")
    all_pass(state)
    for i, boat in enumerate(state.boats):
        boat.workers, boat.skills, boat.taken = {"blue": i + 1}, {"pick": 1}, None
    state.picking = [0, 1, 2]
    return state


def test_a_boat_pick_names_its_load() -> None:
    """reference §7 step 5: the boat's workers and skills go behind the picker's screen."""
    state = boats_scene()
    assert outcome(state, 0, "boat sea-bastion") == ("You take the Sea Bastion boat's load (2 blue and 1 skill) behind "
                                                     "your screen.")


def test_summer_boat_1a_draws_two_workers_unseen_once_the_boats_are_taken() -> None:
    """reference §9.4 (1a); F-16, F-17: its owner gets 2 more workers from the bag, drawn at random once every
    winning bid of the round is in the bag, so after the last boat pick; check names neither their colours nor, to
    the others, anything behind the owner's screen."""
    state = boats_scene("summerboat-1a")
    assert outcome(state, 0, "boat keyflower") == ("You take the Keyflower boat's load (1 blue and 1 skill) behind "
                                                   "your screen; summer boat 1a brings you 2 more workers from the "
                                                   "bag once every boat is taken.")
    play(state, 0, "boat keyflower")
    play(state, 1, legal(state, 1)[0])
    said = same_for_every_redraw(state, 2, legal(state, 2)[0], lambda after, events: str(after.workers[0]))
    assert "Then Ana draws 2 workers from the bag (summer boat 1a), face down" in said


def test_the_keymelequin_is_replaced_by_a_boat_for_autumn() -> None:
    """Module sheet, Set up and the Keymelequin tile; F-34: its taker at the end of summer names the boat that
    replaces it."""
    state = at_turns(module_game(3, 1, "keyflower", False), 1, 0)
    all_pass(state)
    taker = GAME.to_act(state)[0]
    assert outcome(state, taker, "boat keymelequin").endswith(
        "Then you choose the boat that replaces the Keymelequin for autumn.")
    play(state, taker, "boat keymelequin")
    assert outcome(state, taker, "replace flipper").startswith(
        "The Flipper boat replaces the Keymelequin: in autumn it carries 5 workers and 2 skills; in winter it scores "
        "2 pts + a free flip.")


def test_placing_a_tile_and_the_last_placing_draws_the_next_season_unseen() -> None:
    """reference §7 step 6, §3.1: the tiles won go into the villages; then the next season's tiles are drawn from
    their face-down stack."""
    state = scene(0, "alehouse", "keywood")
    bid(state, 0, "alehouse", "red", 1)
    bid(state, 0, "keywood", "red", 1)
    all_pass(state)
    while state.phase == "boats":
        seat = GAME.to_act(state)[0]
        play(state, seat, legal(state, seat)[0])
    first = legal(state, 0)[0]
    assert outcome(state, 0, first) == f"You place the {display_name(first.split()[1])} at {first.split()[2]} in " \
                                       "your village; 1 more tile to place."
    play(state, 0, first)
    said = same_for_every_redraw(state, 0, legal(state, 0)[0], public("up for auction"))
    assert said.endswith("Then summer begins: its tiles are drawn from the stack and turned face up, and the boats "
                         "are loaded from the bag.")


# --- winter (reference §3.1) and the end (§8) ------------------------------------------------------------------------


def test_the_winter_choice_is_secret_and_the_last_one_reveals_them_unseen() -> None:
    """reference §3.1: the winter tiles are chosen in secret; the chosen tiles go up for auction together; the
    tiles not chosen leave the game unseen (F-9)."""
    state = to_winter(3)
    hand = sorted(state.winter_hand[0])
    assert outcome(state, 0, f"winter {hand[0]}") == (f"You put {display_name(hand[0])} into play, face down; your "
                                                      "other 2 winter tiles leave the game unseen. Once everyone has "
                                                      "chosen, all the chosen tiles go up for auction together.")
    play(state, 0, f"winter {hand[0]}")
    play(state, 1, legal(state, 1)[0])
    said = same_for_every_redraw(state, 2, legal(state, 2)[0], public("Winter tiles up for auction"))
    assert said.endswith("Then the winter choices are shown together, and the chosen tiles go up for auction in a "
                         "shuffled order.")


def test_the_last_move_of_the_game_opens_the_screens_and_check_does_not() -> None:
    """reference §8: at the end every screen is opened for the final count; check says so and shows none."""
    state = to_winter(3)
    for seat in range(3):
        play(state, seat, legal(state, seat)[0])
    all_pass(state)
    while state.phase == "boats":
        seat = GAME.to_act(state)[0]
        play(state, seat, legal(state, seat)[0])
    while sum(map(len, state.won)) > 1:
        seat = GAME.to_act(state)[0]
        play(state, seat, legal(state, seat)[0])
    seat = GAME.to_act(state)[0]
    said = outcome(state, seat, legal(state, seat)[0])
    assert said.endswith("Then the game ends: every screen is opened for the final count.")
    for other in range(3):
        assert GAME.check(GAME.resample_hidden(state, seat, other), seat,
                          GAME.legal_actions(state, seat)[0]).outcome == GAME.check(
            state, seat, GAME.legal_actions(state, seat)[0]).outcome


# --- every action --------------------------------------------------------------------------------------------------


def test_every_legal_action_of_a_random_game_is_explained() -> None:
    """engine contract (check): in random play-outs, every kind of legal action of every seat to act (a spread
    of them at each step, the first of each verb always) is answered by its own describer (the outcome's first
    line); tests/contract/test_check.py checks that the outcome is never a bare yes and blind to what is hidden."""
    tables: list[tuple[list[str], dict[str, object]]] = [
        (list(NAMES[:2 + seed % 3]), {"keymelequin": "keyflower", "key_celeste": True} if seed % 2 else {})
        for seed in range(1, 5)]
    seen = explained_verbs(GAME, describe, tables)
    assert {"bid", "use", "count", "pass", "boat", "place", "winter", "carry", "ghost", "replace"} <= seen
