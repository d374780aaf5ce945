"""The three variations: one (two players), two (no law cards), three (all building tiles face up).

Variation one's board is also checked in test_setup.py (its fields and centre); here its law space and play.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import REACTION, SIMULTANEOUS, IllegalAction
from engine.keythedral import GAME
from engine.keythedral.components import COMPONENTS
from engine.keythedral.state import KState
from engine.playout import random_playout
from tests.keythedral.scene import NAMES, at_actions, give, legal, play, played_setup


def cost(state: KState, space: str) -> tuple[str, ...]:
    """The printed cost of the tile on a mat space."""
    tile = next(s.tile for s in state.mat if s.space == space)
    return next(b.cost for b in COMPONENTS.buildings if b.id == tile)


def give_cost(state: KState, seat: int, colours: tuple[str, ...]) -> None:
    """Hand a seat exactly these cubes."""
    for colour in colours:
        give(state, seat, **{colour: 1})


def pass_out(state: KState) -> None:
    """Everyone asked in phase three passes (law windows answered with continue) until phase three ends."""
    while state.phase == "actions":
        seat = GAME.to_act(state)[0]
        play(state, seat, "continue" if state.windows else "pass")


# --- Variation one: two players ----------------------------------------------------------------------------


def test_two_players_have_one_new_law_space() -> None:
    """Variation one, item 3: only one law card is available per round: one new-law space."""
    view = GAME.view(GAME.setup(["Ana", "Ben"], 1, {}), None)
    assert view["variation"]["two_player"] is True
    assert view["law_spaces"] == [True]
    assert view["law_stack"] == 19


def test_two_players_one_law_card_per_round_and_the_space_refills() -> None:
    """Variation one, item 3; Phase four: once the single law card is procured no other is available this
    round; phase four lays the next card from the stack on the space."""
    state = played_setup(2)
    at_actions(state, 0)
    give(state, 0, black=1)
    give(state, 1, black=1)
    assert [a for a in legal(state, 0) if a.startswith("procure")] == ["procure 1"]
    top = state.law_deck[0]
    play(state, 0, "procure 1")
    play(state, 0, "give black")
    assert GAME.to_act(state) == [1]
    assert not any(a.startswith("procure") for a in legal(state, 1))
    with pytest.raises(IllegalAction):
        GAME.parse(state, 1, "procure 1")
    pass_out(state)
    assert state.law_spaces == [top]


def test_two_player_set_up_lays_the_twelve_fields() -> None:
    """Variation one, item 2: the two number-1 fields and the ten number-2 fields, five laid by each player."""
    state = GAME.setup(["Ana", "Ben"], 3, {})
    assert len(state.fields) == 2 and len(state.field_stack) + 1 == 10
    state = played_setup(2, seed=3)
    assert len(state.fields) == 12


# --- Variation two: no law cards -----------------------------------------------------------------------------


def test_no_laws_variation_deals_no_law_cards() -> None:
    """Variation two: the law master issues no new laws: no law cards are available at all."""
    state = GAME.setup(list(NAMES[:3]), 1, {"no_laws": True})
    view = GAME.view(state, None)
    assert view["variation"]["no_laws"] is True
    assert view["law_spaces"] == [] and view["law_stack"] == 0
    assert all(p["laws_held"] == 0 for p in view["players"])


def test_no_laws_variation_offers_no_procure_action() -> None:
    """Variation two: with no law cards, phase three's action six (procure a new law) is never available."""
    state = played_setup(3, no_laws=True)
    at_actions(state, 0)
    give(state, 0, black=3, red=2)
    assert not any(a.startswith("procure") for a in legal(state, 0))
    with pytest.raises(IllegalAction):
        GAME.parse(state, 0, "procure 1")


@pytest.mark.parametrize("players", [3, 5])
def test_no_laws_variation_never_opens_a_law_window(players: int) -> None:
    """Variation two: a whole game without law cards never procures or plays one and never opens a law window
    (ruling T-13's windows are only for holders of law cards)."""
    seen: list[str] = []

    def watch(state: Any, seat: int, action: Any) -> None:
        assert not state.windows
        assert all(d.kind not in (SIMULTANEOUS, REACTION) for d in GAME.decisions(state))
        seen.append(str(action).split()[0])

    final, _ = random_playout(GAME, list(NAMES[:players]), 7, options={"no_laws": True}, on_step=watch)
    assert GAME.is_over(final)
    assert not {"procure", "law", "continue"} & set(seen)
    assert "buy" in seen


# --- Variation three: all tiles face up --------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 5])
def test_open_tiles_variation_shows_every_tile_from_the_start(players: int) -> None:
    """Variation three: in the set-up all building tiles on the mat are placed face up, every cost shown."""
    state = GAME.setup(list(NAMES[:players]), 1, {"open_tiles": True})
    mat = GAME.view(state, None)["mat"]
    assert len(mat) == 17
    for space in mat:
        assert space["face_up"] and space["cost"] == list(cost(state, space["space"]))


def test_open_tiles_variation_still_builds_stage_by_stage() -> None:
    """Variation three (as built): though every tile shows its cost, only the stage being built can be bought;
    once all four stage-1 seats are taken, stage 2 may be."""
    state = played_setup(3, open_tiles=True)
    at_actions(state, 0)
    give_cost(state, 1, cost(state, "2.1"))
    play(state, 0, "pass")
    assert not any(a.startswith("buy 2.") for a in legal(state, 1))
    with pytest.raises(IllegalAction) as refused:
        GAME.parse(state, 1, "buy 2.1")
    assert "Stage 1" in refused.value.reason
    play(state, 1, "pass")
    for k, seat in enumerate((2, 0, 1, 2)):
        space = f"1.{k + 1}"
        give_cost(state, seat, cost(state, space))
        assert GAME.to_act(state) == [seat]
        play(state, seat, f"buy {space}")
        assert state.mat[k].taken == seat
    assert GAME.to_act(state) == [0]
    play(state, 0, "pass")
    assert "buy 2.1" in legal(state, 1)
    play(state, 1, "buy 2.1")
    assert [t.space for t in state.tiles[1]] == ["1.3", "2.1"]
