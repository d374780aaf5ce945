"""Summer boats 4a and 4b with Sven and Paulo (ruling F-30; reference §9.4, §10.1).

The module sheet, Using Sven and Paulo: Sven "can be used in the same way as an ordinary keyple" and counts as one
blue or one yellow keyple; "Paulo acts in the same way" with green and red. So Sven and Paulo go into a 4b use (any
colours, mixed, laid flat) and into a 4a counter-bid (all of one colour, other than the standing one, laid flat)
like ordinary keyples: a 4a counter-bid holding one of them is of one colour when the whole group can count as it.
Scenes are module games (tests/keyflower/scene.py) in summer, every seat holding 4 blue, 4 red, 4 yellow, 2 green;
every action is played through GAME in Keywood's notation.
"""

from __future__ import annotations

from engine.keyflower import places as pl
from engine.keyflower.state import KfState
from tests.keyflower.scene import (
    at_turns,
    bid,
    checked,
    give_wild,
    group,
    legal,
    module_game,
    move,
    offered,
    play,
    put_tile,
    refusal,
    screen,
    use,
)

TILES = ("alehouse", "gold-mine", "keywood", "woodcutter")


def scene(boat: str, wild: str) -> KfState:
    """Summer's turns, Ana (0) to act, owning summer boat `boat` and holding `wild` besides her 4 blue, 4 red,
    4 yellow and 2 green; Ben and Cleo hold the same plain keyples."""
    state = at_turns(module_game(3, 1, "keyflower", False), 1, 0)
    state.auction = list(TILES)
    for seat in range(3):
        screen(state, seat, blue=4, red=4, yellow=4, green=2)
    put_tile(state, 0, f"summerboat-{boat}", "0/-1")
    give_wild(state, 0, wild)
    return state


def starts(state: KfState, seat: int, what: str, loc: str) -> set[str]:
    """The kinds a seat could start a bid or use with at a location, were it its turn."""
    return {a.split()[2] for a in offered(state, seat) if a.startswith(f"{what} {loc} ")}




# --- boat 4b: uses of any colours, Sven and Paulo among them ---------------------------------------------------


def test_boat_4b_use_may_include_sven_lying_flat() -> None:
    """F-30, reference §9.4 boat 4b, §10.1: Sven "can be used in the same way as an ordinary keyple", so Ana's 4b
    use of a Keywood Ben used with red may hold him: Sven and a blue lie flat, count toward the six, and set no
    colour; the next use still needs three, in red."""
    state = scene("4b", "sven")
    use(state, 1, "keywood", "red", 1)
    assert {"sven", "mixed"} <= starts(state, 0, "use", "keywood")
    state.turn = 0
    play(state, 0, "use keywood sven")
    assert {"add blue", "add red", "add green"} <= set(legal(state, 0))  # any keyples may join him under 4b
    play(state, 0, "add blue")
    play(state, 0, "done")
    assert pl.peek(state, "keywood").uses[1].to_json() == [0, "mixed", 2, True, {"sven": 1, "blue": 1}]
    assert state.workers[0].get("sven", 0) == 0
    assert pl.identity(state, "keywood") == frozenset({"red"})
    assert pl.next_use_minimum(state, "keywood") == 3 and pl.used(state, "keywood") == 3
    assert starts(state, 2, "use", "keywood") == {"red"}


def test_boat_4b_use_may_include_paulo_in_a_mixed_use() -> None:
    """F-30, reference §9.4 boat 4b ("any coloured workers, including more than one different colour at the same
    time"), §10.1 ("Paulo acts in the same way"): Ana's mixed 4b use of a Keywood Ben used with blue takes Paulo and
    a yellow; it lies flat and the tile stays blue for everyone else."""
    state = scene("4b", "paulo")
    use(state, 1, "keywood", "blue", 1)
    assert "paulo" in starts(state, 0, "use", "keywood")
    group(state, 0, "use keywood mixed", "paulo", "yellow")
    assert pl.peek(state, "keywood").uses[1].to_json() == [0, "mixed", 2, True, {"paulo": 1, "yellow": 1}]
    assert pl.identity(state, "keywood") == frozenset({"blue"})
    assert starts(state, 2, "use", "keywood") == {"blue"}


def test_boat_4b_use_may_hold_sven_and_paulo_together() -> None:
    """F-30, reference §9.4 boat 4b (any colours, mixed): a flat 4b use needs no colour, so unlike a standing group
    (F-29) it may hold Sven and Paulo both; the tile keeps Ben's yellow."""
    state = scene("4b", "sven")
    give_wild(state, 0, "paulo")
    use(state, 1, "keywood", "yellow", 1)
    state.turn = 0
    play(state, 0, "use keywood sven")
    assert "add paulo" in legal(state, 0)
    play(state, 0, "add paulo")
    play(state, 0, "done")
    assert pl.peek(state, "keywood").uses[1].to_json() == [0, "mixed", 2, True, {"sven": 1, "paulo": 1}]
    assert pl.identity(state, "keywood") == frozenset({"blue", "yellow"})  # Ben's yellow is with the lying Sven


def test_a_use_with_sven_that_fits_stands_even_under_boat_4b() -> None:
    """F-30, F-29: a 4b use holding Sven that can follow the tile's colour is an ordinary use and stands: Sven and a
    yellow on a Keywood used with blue (the yellow is with Sven, so it may be blue)."""
    state = scene("4b", "sven")
    use(state, 1, "keywood", "blue", 1)
    group(state, 0, "use keywood sven", "yellow")
    assert pl.peek(state, "keywood").uses[1].to_json() == [0, "blue/yellow", 2, False, {"sven": 1, "yellow": 1}]


def test_keyples_on_the_tile_stay_with_sven_while_he_lies_flat() -> None:
    """F-30, F-28 (module sheet: keyples "placed (by any player) onto the same tile as Sven" are with him): Sven lying
    flat in Ana's 4b use is still on the Gold mine in Ben's village, so Ben's blue use there may count as yellow, and
    Cleo may make the next use with three yellow."""
    state = scene("4b", "sven")
    state.auction = ["alehouse"]
    put_tile(state, 1, "gold-mine", "0/-1")
    use(state, 1, "gold-mine", "blue", 1)
    group(state, 0, "use gold-mine sven", "red")
    assert pl.peek(state, "gold-mine").uses[1].flat is True
    assert pl.identity(state, "gold-mine") == frozenset({"blue", "yellow"})
    assert "yellow" in starts(state, 2, "use", "gold-mine")
    use(state, 2, "gold-mine", "yellow", 3)
    assert pl.used(state, "gold-mine") == 6


def test_check_of_a_4b_use_with_sven_says_any_keyples_join_and_it_lies_flat() -> None:
    """F-30: check of the 4b use says any colours may join Sven, and once placed off the tile's colour that it lies
    flat."""
    state = scene("4b", "sven")
    use(state, 1, "keywood", "red", 1)
    state.turn = 0
    said = checked(state, 0, "use keywood sven")
    assert "with Sven: next you add workers of any colours one at a time, 2 or more" in said
    assert "lies flat (summer boat 4b)" in said
    play(state, 0, "use keywood sven")
    play(state, 0, "add blue")
    said = checked(state, 0, "done")
    assert said.startswith("You use the Keywood with Sven, 1 blue; off the tile's colour, it lies flat "
                           "(summer boat 4b)"), said


# --- boat 4a: a counter-bid of one colour, Sven or Paulo in it ---------------------------------------------------


def test_boat_4a_counter_bid_may_include_sven_as_one_colour() -> None:
    """F-30, reference §9.4 boat 4a ("all of the workers used in the counter bid must be of the same colour"), §10.1
    (Sven "counts as either a single blue or a single yellow keyple", and blues with him may be yellow): against
    Ben's red bid Ana counters with Sven and two blue, all blue (or all yellow), three workers, lying flat; the tile
    stays red for Cleo. When Ben, outbid, moves his red away, Ana's bid stands up and, Sven in it, opens the tile
    between blue and yellow (F-10, F-29)."""
    state = scene("4a", "sven")
    bid(state, 1, "alehouse", "red", 2)
    assert "sven" in starts(state, 0, "bid", "alehouse")
    group(state, 0, "bid alehouse sven", "blue", "blue")
    assert pl.peek(state, "alehouse").bids[0].to_json() == ["blue/yellow", 3, True, {"sven": 1, "blue": 2}]
    assert pl.identity(state, "alehouse") == frozenset({"red"})
    assert starts(state, 2, "bid", "alehouse") == {"red"}
    move(state, 1, "alehouse", "bid", "gold-mine", 0)
    assert pl.identity(state, "alehouse") == frozenset({"blue", "yellow"})
    assert starts(state, 2, "bid", "alehouse") == {"blue", "yellow"}
    bid(state, 2, "alehouse", "yellow", 4)
    assert pl.identity(state, "alehouse") == frozenset({"yellow"})


def test_boat_4a_counter_bid_with_paulo_counts_as_green_against_a_blue_bid() -> None:
    """F-30, reference §9.4 boat 4a ("a different colour (including green)"), §10.1 ("Paulo acts in the same
    way"): Paulo and a red against Ben's blue bid count as one colour, green or red, neither blue: they lie flat."""
    state = scene("4a", "paulo")
    bid(state, 1, "alehouse", "blue", 1)
    group(state, 0, "bid alehouse paulo", "red")
    assert pl.peek(state, "alehouse").bids[0].to_json() == ["red/green", 2, True, {"paulo": 1, "red": 1}]
    assert pl.identity(state, "alehouse") == frozenset({"blue"})


def test_a_lying_counter_bid_grows_only_as_one_colour_the_standing_bid_is_not() -> None:
    """F-30: Ana's lying blue counter-bid against Ben's red may take Sven (all blue still) and then a yellow (with
    Sven, it may be blue), but never a red: the whole must still count as one colour other than red."""
    state = scene("4a", "sven")
    bid(state, 1, "alehouse", "red", 1)
    bid(state, 0, "alehouse", "blue", 2)
    assert pl.peek(state, "alehouse").bids[0].to_json() == ["blue", 2, True]
    assert starts(state, 0, "bid", "alehouse") == {"blue", "sven"}
    group(state, 0, "bid alehouse sven", "yellow")
    assert pl.peek(state, "alehouse").bids[0].to_json() == ["blue/yellow", 4, True, {"blue": 2, "sven": 1, "yellow": 1}]
    assert starts(state, 0, "bid", "alehouse") == {"blue", "yellow", "mixed"}


def test_a_4a_counter_bid_with_sven_fitting_no_allowed_colour_is_refused() -> None:
    """F-30, F-44, reference §9.4 boat 4a ("blue, red or yellow (but not green)"): against Ben's green bid there is
    no colour Sven's group may take: he is blue or yellow, the tile green, and 4a never counters green. Against
    Ben's red bid Sven may start a counter-bid, but a red cannot join him: the group would be of no one colour. Each
    refusal says why and changes nothing."""
    state = scene("4a", "sven")
    bid(state, 1, "alehouse", "green", 1)
    assert "sven" not in starts(state, 0, "bid", "alehouse")
    state.turn = 0
    reason, rule = refusal(state, 0, "bid alehouse sven")
    assert reason == ("'bid alehouse sven' is not possible: Sven counts as blue or yellow, and the workers at "
                      "alehouse are green, and summer boat 4a never counters a bid that is or may still be green "
                      "(F-44).")
    assert "F-30" in rule and "§9.4" in rule
    bid(state, 1, "gold-mine", "red", 1)
    state.turn = 0
    play(state, 0, "bid gold-mine sven")
    assert "add red" not in legal(state, 0)
    reason, rule = refusal(state, 0, "add red")
    assert reason == ("'add red' is not possible: a bid holding Sven must count as one colour, blue or yellow: red "
                      "cannot join it.")
    assert "F-30" in rule
    reason, _ = refusal(state, 0, "add green")
    assert reason.endswith("green cannot join it.")


def test_check_of_a_4a_counter_bid_with_sven_says_it_lies_flat() -> None:
    """F-30: check of `bid alehouse sven` against a red bid, and of the `done` that places Sven and a blue, says the
    bid is built with blue or yellow workers and lies flat under boat 4a."""
    state = scene("4a", "sven")
    bid(state, 1, "alehouse", "red", 1)
    state.turn = 0
    said = checked(state, 0, "bid alehouse sven")
    assert said.startswith("You build a bid on the Alehouse with Sven: next you add blue or yellow workers one at a "
                           "time, 2 or more; off the tile's colour, it lies flat (summer boat 4a) (the best other bid "
                           "is Ben's 1 red)."), said
    play(state, 0, "bid alehouse sven")
    play(state, 0, "add blue")
    said = checked(state, 0, "done")
    assert said.startswith("You bid Sven, 1 blue on the Alehouse (the best other bid is Ben's 1 red); off the tile's "
                           "colour, it lies flat (summer boat 4a)."), said


def test_a_moved_outbid_group_with_sven_may_become_a_4a_counter_bid() -> None:
    """F-30 and reference §4 (outbid workers move together): Ana's outbid Sven and blue on the Keywood may move to
    counter Ben's red bid on the Alehouse under 4a, topped up with a blue, lying flat."""
    state = scene("4a", "sven")
    group(state, 0, "bid keywood sven", "blue")
    bid(state, 2, "keywood", "yellow", 3)
    bid(state, 1, "alehouse", "red", 2)
    assert "move keywood bid alehouse" in offered(state, 0)
    group(state, 0, "move keywood bid alehouse", "blue")
    assert pl.peek(state, "alehouse").bids[0].to_json() == ["blue/yellow", 3, True, {"sven": 1, "blue": 2}]


# --- F-44 with F-30: 4a against a bid holding Sven or Paulo --------------------------------------------------------


def test_boat_4a_counters_a_bid_of_sven_with_a_group_holding_paulo() -> None:
    """F-44, F-30: Ben's bid of Sven is blue or yellow, never green, so Ana's boat 4a counters it; her Paulo and a
    green count as one colour, green or red, which Ben's bid cannot be: they lie flat and the tile stays open
    between blue and yellow. When Ben, outbid, moves away, her group stands up and opens the tile between green and
    red: a tile that may be green, where 4a breaks nothing any more."""
    state = scene("4a", "paulo")
    give_wild(state, 1, "sven")
    group(state, 1, "bid alehouse sven")
    assert "paulo" in starts(state, 0, "bid", "alehouse")
    group(state, 0, "bid alehouse paulo", "green")
    assert pl.peek(state, "alehouse").bids[0].to_json() == ["red/green", 2, True, {"paulo": 1, "green": 1}]
    assert pl.identity(state, "alehouse") == frozenset({"blue", "yellow"})
    group(state, 1, "move alehouse bid gold-mine", "blue", "blue")
    assert pl.identity(state, "alehouse") == frozenset({"green", "red"})
    screen(state, 2, red=4, green=4, blue=4)
    assert starts(state, 2, "bid", "alehouse") == {"green", "red"}


def test_boat_4a_gives_a_group_with_sven_nothing_against_a_bid_of_paulo() -> None:
    """F-44, F-30: Ben's bid of Paulo may still be green, so Ana's boat 4a breaks nothing there: Sven, blue or
    yellow, may not counter it, and the refusal says so."""
    state = scene("4a", "sven")
    give_wild(state, 1, "paulo")
    group(state, 1, "bid alehouse paulo")
    assert "sven" not in starts(state, 0, "bid", "alehouse")
    state.turn = 0
    reason, _ = refusal(state, 0, "bid alehouse sven")
    assert reason.endswith("Sven counts as blue or yellow, and the workers at alehouse are red/green, and summer "
                           "boat 4a never counters a bid that is or may still be green (F-44).")
