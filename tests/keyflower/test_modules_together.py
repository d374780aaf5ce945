"""Keymelequin and Key Celeste in one game (module sheet, both parts; rulings F-27 to F-43): both set up together,
the ghost against a bid holding Sven, and seeded random play-outs with both modules at every player count that
reach the end, with a legal action always open, no keyple lost or made (the ghost never among them), and a score for
everyone.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.keyflower import celeste
from engine.keyflower import places as pl
from engine.keyflower.game import GAME
from engine.keyflower.keymelequin import boat_choices
from engine.keyflower.state import KfState
from engine.keyflower.turns import biddable
from engine.playout import random_playout
from tests.keyflower.scene import (
    NAMES,
    all_pass,
    at_turns,
    bid_at,
    give_wild,
    group,
    keyples_of,
    module_game,
    offered,
    pick_first_boats,
    play,
)
from tests.keyflower.test_bidding import four_tiles_and_full_screens


def scene(season: int = 1) -> KfState:
    """Both modules; this season's turns, start player Ana (0), four tiles up for auction; every seat holds
    4 blue, 4 red, 4 yellow; nobody holds Sven, Paulo or the ghost yet."""
    return four_tiles_and_full_screens(at_turns(module_game(3, 1, "sea-bastion", True), season, 0), 3)


def test_both_modules_are_set_up_in_one_game() -> None:
    """Module sheet, Set up of each module: the Keymelequin in the chosen boat's place with Sven aboard, and Key
    Celeste with the ghost on it beside the turn-order tiles (F-35: both options at `new`)."""
    state = module_game(4, 2, "flipper", True)
    ids = [b.id for b in state.boats]
    assert "keymelequin" in ids and "flipper" not in ids
    assert next(b for b in state.boats if b.id == "keymelequin").workers["sven"] == 1
    assert biddable(state)[-1] == "key-celeste" and state.ghost_holder is None
    assert GAME.view(state, None)["modules"] == {"keymelequin": "flipper", "key_celeste": True}


def test_a_ghost_replacing_a_bid_with_sven_sends_sven_behind_the_ghost_players_screen() -> None:
    """Module sheet, The ghost (the replaced workers go behind the ghost player's screen, free to play) with Sven
    (used like an ordinary keyple, F-32): Ben's winning Sven and blue are replaced; Ana takes Sven, keeps him at
    the end of the season and may bid with him; Ben still wins the tile."""
    state = scene()
    give_wild(state, 1, "sven")
    state.ghost_holder = 0
    group(state, 1, "bid alehouse sven", "blue")
    state.turn = 0
    play(state, 0, "ghost alehouse")
    assert state.workers[0]["sven"] == 1 and state.workers[0]["blue"] == 5
    assert "sven" in {a.split()[2] for a in offered(state, 0) if a.startswith("bid keywood ")}
    all_pass(state)
    assert "alehouse" in state.won[1] and state.workers[0].get("sven") == 1
    assert state.bag.get("sven", 0) == 0 and keyples_of(state, "sven") == 1


def test_sven_in_the_winning_bid_for_key_celeste_goes_into_the_bag() -> None:
    """Module sheet, Bidding for the ghost (as for a turn-order tile) with F-32 (Sven in a winning bid goes into the
    bag): Ben wins the ghost with Sven and a yellow; both go into the bag."""
    state = scene(0)
    give_wild(state, 1, "sven")
    group(state, 1, "bid key-celeste sven", "yellow")
    assert bid_at(state, "key-celeste", 1) == ("blue/yellow", 2)
    state.turn = 0
    play(state, 0, "bid alehouse red")  # a tile to place: the season stops before the next boats are loaded
    play(state, 0, "count 1")
    before = dict(state.bag)
    all_pass(state)
    pick_first_boats(state)  # Key Celeste is resolved after the boats (module sheet, End of the season)
    assert state.ghost_holder == 1
    assert state.bag.get("sven", 0) == before.get("sven", 0) + 1
    assert state.bag["yellow"] == before["yellow"] + 1 and state.phase == "place"


def _check(state: KfState, seat: int, action: Any, seen: set[str]) -> None:
    """What must hold before every action of a play-out with both modules."""
    assert action in GAME.legal_actions(state, seat)
    expected = {"blue": 40, "red": 40, "yellow": 40, "sven": 1, "paulo": 0 if state.season == 0 else 1}
    assert {kind: keyples_of(state, kind) for kind in expected} == expected
    assert keyples_of(state, "green") + state.greens == 20
    assert state.ghost_at is None or state.ghost_holder is not None
    assert state.ghost_at is None or pl.closed(state, state.ghost_at)
    assert not [p for v in state.villages for p in v.values() if p.tile == "keymelequin"]
    assert "ghost" not in state.bag and not [w for w in state.workers if "ghost" in w]  # never a keyple
    seen.add(action.verb)
    if action.verb in ("bid", "use") and action.args[1] in ("sven", "paulo", "mixed"):
        seen.add(action.args[1])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_random_game_with_both_modules_reaches_the_end(players: int) -> None:
    """Both modules at every player count: a seeded random play-out always has a legal action for whoever must act
    (random_playout fails on a dead end), never loses or makes a keyple (Sven once, Paulo from summer), keeps the
    Keymelequin out of the villages, replaces it at the end of summer (F-34), settles Key Celeste for good in
    winter (F-41), and ends with a final score for every player."""
    seen: set[str] = set()
    replaced = boat_choices(players)[-1]
    final, record = random_playout(GAME, list(NAMES[:players]), 7 + players,
                                   options={"keymelequin": replaced, "key_celeste": True},
                                   on_step=lambda state, seat, action: _check(state, seat, action, seen))
    assert GAME.is_over(final)
    assert "replace" in seen and {"sven", "paulo"} & seen
    assert not celeste.on_table(final)
    board = GAME.score(final, None)
    assert board.final and len(board.players) == players
    assert all(p.lines for p in board.players)
    assert len(record.actions) > 50
