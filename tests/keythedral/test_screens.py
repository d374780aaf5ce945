"""Ruling T-1, what the screens hide: each player's cubes, law cards and acquired building tiles stand behind their
screen, seen by that player alone; the others and the public see the table and the moves made in the open. The
table option open_screens shows the cubes and seats to everyone; the end of the game opens every screen.

The rules text (Contents, Player screens): "One in each of the player colours so that players may keep all of their
law cards, cubes, counters and tiles secret from the other players." Phase three, action one: "Take the building
tile and keep this behind your screen."
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot import games
from engine.keythedral import GAME, flow, texts
from engine.keythedral import supply as sup
from engine.keythedral.legal import can_buy
from engine.keythedral.state import KState
from engine.playout import random_playout
from render.keythedral import render
from tests.keythedral.scene import NAMES, deal_law, give, play, played_setup
from tests.keythedral.scene_laws import actions_table, buy_as, cost, give_cost, turn_to
from tests.keythedral.scene_more import to_bidding

SCREENED = ("cubes", "cube_count", "tiles", "points")


def bought(**options: bool) -> KState:
    """Three players in phase three: Ana took the seat on 1.1 and holds cubes and a law card; Ben and Cleo hold
    cubes too."""
    state = actions_table(**options)
    buy_as(state, 0, "1.1")
    give(state, 0, black=2, red=1)
    give(state, 1, green=2, blue=1)
    give(state, 2, brown=3)
    deal_law(state, 0, "bargain")
    return state


def settle(state: KState) -> None:
    """Every seat a law window asks lets the moment pass."""
    while state.windows:
        play(state, GAME.to_act(state)[0], "continue")


def player(view: dict[str, Any], seat: int) -> dict[str, Any]:
    """A seat's entry in a view's players."""
    entry: dict[str, Any] = view["players"][seat]
    assert entry["seat"] == seat
    return entry


def space(view: dict[str, Any], name: str) -> dict[str, Any]:
    """A mat space of a view."""
    return next(s for s in view["mat"] if s["space"] == name)


# --- who sees what ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", [None, 1, 2])
def test_another_seat_and_the_public_see_no_cubes_law_cards_or_screened_tiles(viewer: int | None) -> None:
    """rules: Contents, Player screens: "players may keep all of their law cards, cubes, counters and tiles secret
    from the other players"; Phase three, action one: "Take the building tile and keep this behind your screen"
    (ruling T-1). Another seat and the public see neither Ana's cubes, nor her law card, nor the tile she took,
    nor who took the seat on 1.1; only that it is taken."""
    state = bought()
    view = GAME.view(state, viewer)
    ana = player(view, 0)
    assert not set(SCREENED) & set(ana)
    assert ana["laws_held"] == 1 and "Bargain" not in json.dumps(view)
    taken = space(view, "1.1")
    assert taken["taken"] is True and (taken["taken_by"], taken["tile"], taken["cost"]) == (None, None, None)
    if viewer is not None:  # the viewer's own screen is in its own view
        assert set(SCREENED) <= set(player(view, viewer))


def test_the_seat_itself_sees_behind_its_own_screen() -> None:
    """rules: Contents, Player screens (ruling T-1): Ana's own view lists her cubes by colour, her law card and the
    seat she took, with its tile and points."""
    state = bought()
    view = GAME.view(state, 0)
    ana = player(view, 0)
    assert ana["cubes"] == {c: state.cubes[0][c] for c in sup.CUBES} and ana["cube_count"] == 3
    assert ana["tiles"] == [{"space": "1.1", "stage": 1}] and ana["points"] == 1
    assert view["laws"] == ["Bargain"]
    assert space(view, "1.1")["taken_by"] == 0 and space(view, "1.1")["cost"] == list(cost(state, "1.1"))
    assert not set(SCREENED) & set(player(view, 1))


def test_what_happens_in_the_open_stays_in_the_log() -> None:
    """rules: Phase three, action one: "Place the resource and craft cubes that are shown on the building tile you
    are acquiring into the store", in sight of all (ruling T-1): the purchase's event, with what was paid and the
    seat taken, is public; the board then shows the seat taken and the store refilled."""
    state = actions_table()
    turn_to(state, 1)
    give_cost(state, 1, cost(state, "1.2"))
    events = play(state, 1, "buy 1.2")
    paid = [e.text for e in events if e.public and "takes the seat on 1.2" in e.text]
    assert paid and sup.words(cost(state, "1.2")) in paid[0]
    board = texts.board(GAME.view(state, None))
    assert "1.2 taken" in board and "Ben (yellow): cubes and seats behind the screen" in board


def test_the_public_counts_law_cards_but_no_cubes_or_seats() -> None:
    """Ruling T-1: a law card enters a screen when procured from a new-law space and leaves it when played face
    up, both in the open, and Keywood asks the holders when a card may be played: the public view shows how many
    each holds. No count of cubes or seats is shown: the screen hides them and nothing asked in public depends on
    them."""
    state = bought()
    deal_law(state, 2, "repeal")
    deal_law(state, 2, "sale")
    view = GAME.view(state, None)
    assert [p["laws_held"] for p in view["players"]] == [1, 0, 2]
    assert all(not set(SCREENED) & set(p) for p in view["players"])


def test_the_hand_is_the_seats_own_screen_and_the_board_the_table() -> None:
    """Ruling T-1: `/hand` lists the seat's cubes, seats and law cards; the public board lists none of them."""
    state = bought()
    hand = texts.hand(GAME.view(state, 0), 0)
    assert "Cubes (3): black 2, red 1." in hand and "Seats: 1.1 (stage 1); 1 point." in hand and "Bargain" in hand
    board = texts.board(GAME.view(state, None))
    assert "black 2, red 1" not in board and "Bargain" not in board
    assert "- Ana (blue, start player): cubes and seats behind the screen; 1 law card" in board


# --- the table option and the end --------------------------------------------------------------------------------


def test_open_screens_is_a_table_option_off_by_default() -> None:
    """Ruling T-1: the screens hide by default, as the rules say; open_screens is a yes/no table option of the
    registry's Keythedral entry and of the engine, off unless chosen."""
    option = next(o for o in games.get("keythedral").options if o.name == "open_screens")
    assert (option.type, option.default) == (bool, False)
    assert flow.OPTIONS["open_screens"] is False
    assert GAME.setup(list(NAMES[:3]), 1, {}).options["open_screens"] is False
    assert GAME.view(GAME.setup(list(NAMES[:3]), 1, {"open_screens": True}), None)["open_screens"] is True


def test_open_screens_shows_every_players_cubes_and_seats_to_everyone() -> None:
    """Ruling T-1, table option open_screens (for groups that play with everything open): the public and every
    seat see each player's cubes, seats and points, and who took each seat; law cards still show only as a
    count."""
    state = bought(open_screens=True)
    for viewer in (None, 1, 2):
        view = GAME.view(state, viewer)
        assert view["open_screens"] is True
        assert player(view, 0)["cubes"]["black"] == state.cubes[0]["black"] and player(view, 0)["points"] == 1
        assert space(view, "1.1")["taken_by"] == 0 and "Bargain" not in json.dumps(view)
    assert "Open screens (table option)" in texts.board(GAME.view(state, None))


def test_the_end_of_the_game_opens_every_screen() -> None:
    """rules: The winner: "Each player's score is the total of the numbers on the building tiles they have
    acquired", ties broken by the cubes held (ruling T-1): at the end every screen opens, so the public view shows
    each player's cubes and seats, and the final score counts them all."""
    final, _ = random_playout(GAME, list(NAMES[:3]), 5)
    assert GAME.is_over(final)
    view = GAME.view(final, None)
    assert all(p["cubes"] == {c: final.cubes[p["seat"]][c] for c in sup.CUBES} for p in view["players"])
    assert all(s["taken_by"] is not None for s in view["mat"])
    board = GAME.score(final, None)
    assert board.final and {p.seat: p.total for p in board.players} == {
        s: sum(t.stage for t in final.tiles[s]) for s in range(3)}


def test_a_projected_score_shows_only_the_seats_the_viewer_sees() -> None:
    """Ruling T-1: before the end, the public projection counts no seat (all are behind screens) and a seat's
    projection counts only its own; with open_screens the projection counts everyone's, ranked."""
    state = bought()
    buy_as(state, 1, "1.2")
    settle(state)
    public = GAME.score(state, None)
    assert not public.final and [p.total for p in public.players] == [0, 0, 0]
    assert [p.seat for p in public.players] == [0, 1, 2] and "Ana, Ben and Cleo" in public.tie_break
    ana = GAME.score(state, 0)
    assert {p.seat: p.total for p in ana.players} == {0: 1, 1: 0, 2: 0} and "Ben and Cleo" in ana.tie_break
    state.options["open_screens"] = True
    assert {p.seat: p.total for p in GAME.score(state, None).players} == {0: 1, 1: 1, 2: 0}


# --- decisions and the choices shown -----------------------------------------------------------------------------


def test_choices_that_hang_on_a_screen_go_to_the_seat_alone() -> None:
    """Ruling T-1: a phase-3 turn offers what the seat's cubes afford, a payment the colours it holds, a bid as many
    cubes as it holds: those choices are not shown to all (no channel buttons), though the choice made is public;
    a worker's fields are on the board, so those choices stay public. With open_screens the turn's are public."""
    state = bought()
    turn = GAME.decisions(state)
    assert [(d.seat, d.public_choices, d.is_secret) for d in turn] == [(GAME.to_act(state)[0], False, False)]
    play(state, GAME.to_act(state)[0], "trade")
    (paying,) = GAME.decisions(state)
    assert not paying.public_choices and not paying.is_secret
    state.options["open_screens"] = True
    assert all(d.public_choices for d in GAME.decisions(state))
    workers = played_setup(3)
    assert workers.phase == "workers" and all(d.public_choices for d in GAME.decisions(workers) if d.must)


def test_a_bid_is_chosen_privately_and_later_bidders_may_still_pass_ahead() -> None:
    """Rules: Phase five (ruling T-1): the bid due is the bidder's private choice (how many cubes it may bid shows
    what it holds); the later bidders' pass ahead is the same for all and stays public."""
    state = played_setup(3)
    for seat in range(3):
        give(state, seat, black=2)
    to_bidding(state, 0)
    decisions = GAME.decisions(state)
    assert [(d.seat, d.must, d.public_choices) for d in decisions] == [(2, True, False), (0, False, True),
                                                                       (1, False, True)]


# --- resample_hidden ---------------------------------------------------------------------------------------------


def test_a_resample_redraws_the_other_screens_and_the_public_cannot_tell() -> None:
    """Ruling T-1 and the leak test's premise: resample_hidden deals the hidden cubes and seats again among the
    screens the viewer cannot see (each colour's total kept), and the public view, board text, image and score
    stay the same; the viewer's own screen never moves."""
    state = bought()
    buy_as(state, 2, "1.3")
    plain = GAME.view(state, None)
    moved = seats_moved = 0
    for seed in range(12):
        other = GAME.resample_hidden(state, None, seed)
        assert GAME.view(other, None) == plain and render(GAME.view(other, None)) == render(plain)
        assert GAME.score(other, None) == GAME.score(state, None)
        assert all(sum(c[k] for c in other.cubes) == sum(c[k] for c in state.cubes) for k in sup.CUBES)
        moved += other.cubes != state.cubes
        seats_moved += other.tiles != state.tiles
        own = GAME.resample_hidden(state, 0, seed)
        assert own.cubes[0] == state.cubes[0] and own.tiles[0] == state.tiles[0]
        assert GAME.view(own, 0) == GAME.view(state, 0)
    assert moved and seats_moved, "the resample never moved a hidden cube or seat"


def test_open_screens_leave_the_cubes_and_seats_where_they_are() -> None:
    """Ruling T-1, open_screens: nothing behind a screen is hidden, so a resample keeps every cube and seat (and
    a public view that showed them would differ otherwise)."""
    state = bought(open_screens=True)
    for seed in range(6):
        other = GAME.resample_hidden(state, None, seed)
        assert (other.cubes, other.tiles) == (state.cubes, state.tiles)


def test_a_resample_keeps_a_declared_purchase_payable() -> None:
    """Phase three, action one (ruling T-1): a purchase declared in the open is one the buyer could pay; while the
    law holders answer it, every redraw of the buyer's cubes still pays it, so the window closes the same way."""
    state = actions_table()
    deal_law(state, 1, "sale")
    give(state, 1, black=3, green=2)
    give(state, 2, brown=2, blue=2, red=2)
    give_cost(state, 0, cost(state, "1.1"))
    play(state, 0, "buy 1.1")
    assert state.windows and state.windows[-1].KIND == "purchase"
    tile = flow.mat_space(state, "1.1")
    redraws = [GAME.resample_hidden(state, None, seed) for seed in range(25)]
    assert all(can_buy(other, 0, flow.mat_space(other, "1.1")) for other in redraws)
    assert any(other.cubes[0] != state.cubes[0] for other in redraws), "the buyer's cubes were never redrawn"
    assert tile.inc == 0


def test_a_resample_keeps_every_bid_covered() -> None:
    """Phase five (ruling T-1): a bid is made in cubes the bidder holds; every redraw leaves the bidder at least
    that many, so the payment can be made."""
    state = played_setup(3)
    give(state, 0, red=1)
    give(state, 1, blue=1, green=1)
    give(state, 2, black=3, brown=2)
    to_bidding(state, 0)
    play(state, 2, "bid 4")
    for seed in range(25):
        other = GAME.resample_hidden(state, None, seed)
        assert sup.count(other.cubes[2]) >= 4


def test_the_end_and_a_raised_price_are_reveals_that_cannot_be_undone() -> None:
    """Ruling T-1: the last seat taken opens every screen; a purchase going on at a price a law raised shows
    whether the buyer could pay it (ruling T-29). Both are reveals (is_undo_barrier); an ordinary payment is not."""
    state = actions_table()
    turn_to(state, 0)
    give(state, 0, black=2)
    before = GAME.from_json(GAME.to_json(state))
    play(state, 0, "trade")
    assert not GAME.is_undo_barrier(before, state)
    raised = actions_table()
    give_cost(raised, 0, cost(raised, "1.1"))
    deal_law(raised, 1, "price-increase")
    deal_law(raised, 2, "sale")  # Cleo is asked after the law, so her answer closes the purchase's window
    play(raised, 0, "buy 1.1")
    play(raised, 1, "law price-increase")
    closing = []
    while raised.windows:
        before = GAME.from_json(GAME.to_json(raised))
        play(raised, GAME.to_act(raised)[0], "continue")
        closing.append(GAME.is_undo_barrier(before, raised))
    assert flow.mat_space(raised, "1.1").inc == 1
    assert closing and closing[-1] and not any(closing[:-1])
    last = actions_table()
    for seat, name in enumerate(s.space for s in last.mat[:-1]):
        buy_as(last, seat % 3, name)
    turn_to(last, 1)
    give_cost(last, 1, cost(last, "5.2"))
    before = GAME.from_json(GAME.to_json(last))
    play(last, 1, "buy 5.2")
    assert GAME.is_over(last) and GAME.is_undo_barrier(before, last)
