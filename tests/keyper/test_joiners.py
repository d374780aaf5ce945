"""Joiners on another player's turn and keyples played beside existing keyples (rulebook pp.5-7, 2b, 2c, 4)."""

from __future__ import annotations

import pytest

from engine.keyper import GAME
from engine.keyper.state import Keyple
from tests.keyper.scenario import (
    build,
    claim,
    give,
    have,
    legal,
    pending,
    place,
    play,
    run,
    table,
    take_all,
    texts,
)

# --- 2b / 4. Joiners ----------------------------------------------------------------------------------


def test_joiners_are_invited_clockwise_from_the_active_players_left() -> None:
    """rulebook p.5, 2b Joiners and p.7, 4: the player on the left is asked first, then the others clockwise."""
    state = table(4, active=2)
    for seat in range(4):
        give(state, seat, green=1)
    state, events = play(state, 2, "play green 1.pig")
    assert state.phase == "joiner"
    assert GAME.to_act(state) == [3]
    state, _ = play(state, 3, "decline")
    assert GAME.to_act(state) == [0]
    state, _ = play(state, 0, "decline")
    assert GAME.to_act(state) == [1]
    assert any("P3, P0, P1" in t for t in texts(events))


def test_everyone_declining_leaves_the_keyple_working_alone() -> None:
    """rulebook p.7, 4: when every invited player declines, the first keyple earns its solo yield."""
    state = table(3, active=0)
    for seat in range(3):
        give(state, seat, green=1)
    state, _ = run(state, [(0, "play green 1.pig"), (1, "decline"), (2, "decline")])
    assert pending(state) == [(0, ("pig",))] * 2
    assert state.boards[0].spaces["pig"] == [Keyple("green")]


def test_only_players_holding_a_keyple_that_may_join_are_asked() -> None:
    """rulebook p.5, 2b Joiners (ruling K-4): a player with neither the working colour nor a white keyple is
    skipped in the round of invitations."""
    state = table(4, active=0)
    give(state, 0, green=1)
    give(state, 1, grey=2, brown=1)
    give(state, 2, white=1)
    give(state, 3, green=1)
    state, events = play(state, 0, "play green 1.pig")
    assert GAME.to_act(state) == [2]
    state, _ = play(state, 2, "decline")
    assert GAME.to_act(state) == [3]
    assert not any("P1" in t for t in texts(events) if t.startswith("Joiners"))


def test_nobody_is_asked_when_no_one_could_join() -> None:
    """rulebook p.5, 2b Joiners: with no possible joiner the keyple works alone at once."""
    state = table(3, active=0)
    give(state, 0, green=1)
    give(state, 1, grey=1)
    give(state, 2, brown=1)
    state, _ = play(state, 0, "play green 1.pig")
    assert state.phase == "yields"
    assert pending(state) == [(0, ("pig",))] * 2


def test_the_first_to_accept_joins_and_nobody_else_is_asked() -> None:
    """rulebook p.5, 2b Joiners: a field holds two keyples at most, so the first acceptance closes the round."""
    state = table(3, active=0)
    for seat in range(3):
        give(state, seat, green=1, white=1)
    state, events = run(state, [(0, "play green 1.pig"), (1, "join green")])
    assert state.phase == "yields"
    assert state.boards[0].spaces["pig"] == [Keyple("green"), Keyple("green")]
    assert state.players[1].keyp["green"] == 0
    assert (state.players[2].keyp["green"], state.players[2].keyp["white"]) == (1, 1)
    state, more = take_all(state)
    assert state.phase == "turn" and GAME.to_act(state) == [1]
    assert not any(t.startswith("P2") for t in texts(events + more))


def test_a_decline_passes_the_invitation_to_the_next_player() -> None:
    """rulebook p.7, 4: when the left neighbour declines the next player clockwise may join."""
    state = table(3, active=0)
    for seat in range(3):
        give(state, seat, green=1)
    state, _ = run(state, [(0, "play green 1.pig"), (1, "decline"), (2, "join green")])
    state, _ = take_all(state)
    assert (have(state, 0, "pig"), have(state, 1, "pig"), have(state, 2, "pig")) == (3, 0, 3)


def test_nobody_joins_on_a_plot() -> None:
    """rulebook p.5, 2b Joiners and p.4, 2a (iii): no one may play onto another player's board, so a keyple
    played onto the player's own plot is never joined."""
    state = table(3, active=0)
    build(state, 0, "v3", "brickmaker")
    for seat in range(3):
        give(state, seat, white=2)
    state, events = play(state, 0, "play white v3")
    assert state.phase != "joiner"
    assert not any(t.startswith("Joiners") for t in texts(events))


def test_a_white_first_keyple_on_a_coloured_field_is_joined_by_that_colour_or_white() -> None:
    """rulebook p.5, 2b Joiners: a white keyple on a coloured field works in the field's colour."""
    state = table(3, active=0)
    give(state, 0, white=1)
    give(state, 1, green=1, brown=1, white=1)
    state, _ = play(state, 0, "play white 1.pig")
    assert legal(state, 1) == ["join green", "join white", "decline"]


def test_a_white_first_keyple_on_an_uncoloured_field_is_joined_only_by_white() -> None:
    """rulebook p.5, 2b Joiners: a white keyple on a field with no colour can be joined only by white."""
    state = table(3, active=0)
    give(state, 0, white=1)
    give(state, 1, green=1, white=1)
    give(state, 2, green=1, brown=1)
    state, _ = play(state, 0, "play white 1.country_tile")
    assert state.offer is not None and state.offer.candidates == [1]
    assert legal(state, 1) == ["join white", "decline"]


def test_a_white_joiner_takes_the_first_keyples_colour_not_the_fields() -> None:
    """rulebook p.7, 4: a brown keyple on the green pig field joined by white is no match: 2 pigs each."""
    state = table(3, active=0)
    give(state, 0, brown=1)
    give(state, 1, white=1)
    give(state, 2, grey=1)
    state, _ = run(state, [(0, "play brown 1.pig"), (1, "join white")])
    state, _ = take_all(state)
    assert (have(state, 0, "pig"), have(state, 1, "pig")) == (2, 2)


@pytest.mark.parametrize(
    ("first", "joiner", "field", "each"),
    [
        ("green", "green", "pig", 3),
        ("green", "white", "pig", 3),
        ("white", "green", "pig", 3),
        ("white", "white", "pig", 3),
        ("brown", "brown", "pig", 2),
        ("grey", "grey", "rock", 3),
        ("orange", "orange", "rock", 2),
    ],
)
def test_with_a_joiner_both_earn_two_or_three(first: str, joiner: str, field: str, each: int) -> None:
    """rulebook p.5, 2b Joiners table: with a joiner both keyples earn 2 each, 3 each on a colour match."""
    state = table(3, active=0)
    give(state, 0, **{first: 1})
    give(state, 1, **{joiner: 1})
    give(state, 2, blue=1)
    state, _ = run(state, [(0, f"play {first} 1.{field}"), (1, f"join {joiner}")])
    state, _ = take_all(state)
    assert (have(state, 0, field), have(state, 1, field)) == (each, each)


def test_a_joiners_units_alternate_starting_with_the_active_player() -> None:
    """rulebook p.10, Notes on resources (ruling K-8): the active player takes first, then the joiner, in turn."""
    state = table(3, active=1)
    give(state, 1, green=1)
    give(state, 2, green=1)
    give(state, 0, grey=1)
    state, _ = run(state, [(1, "play green 1.pig"), (2, "join green")])
    assert [seat for seat, _ in pending(state)] == [1, 2, 1, 2, 1, 2]


def test_country_tiles_with_a_joiner_go_first_and_fourth_to_the_active_player() -> None:
    """rulebook p.13, note 2 Country tiles (ruling K-8): with a joiner on the uncoloured country tile field
    both take 2 tiles; the active player chooses 1st and 4th, the joiner 2nd and 3rd."""
    state = table(3, active=0)
    give(state, 0, white=1)
    give(state, 1, white=1)
    give(state, 2, grey=1)
    state, _ = run(state, [(0, "play white 1.country_tile"), (1, "join white")])
    assert [seat for seat, _ in pending(state)] == [0, 1, 1, 0]
    shown = list(state.display)
    state, _ = run(state, [(0, f"tile {shown[0]}"), (1, f"tile {shown[1]}"), (1, f"tile {shown[2]}"),
                           (0, f"tile {shown[3]}")])
    assert state.players[0].tiles[-2:] == [shown[0], shown[3]]
    assert state.players[1].tiles[-2:] == [shown[1], shown[2]]
    assert len(state.display) == 8  # refilled at the end of the turn


def test_a_short_supply_goes_to_the_active_player_first() -> None:
    """rulebook p.10, Notes on resources: with 3 pigs left and 3 earned each, alternating from the active
    player gives the active player 2 and the joiner 1; nothing is owed for the rest."""
    state = table(3, active=0)
    give(state, 0, green=1)
    give(state, 1, green=1)
    give(state, 2, grey=1)
    state.supply["pig"] = 3
    state, _ = run(state, [(0, "play green 1.pig"), (1, "join green")])
    state, events = take_all(state)
    assert (have(state, 0, "pig"), have(state, 1, "pig")) == (2, 1)
    assert state.supply["pig"] == 0
    assert any("nothing" in t.lower() for t in texts(events))


def test_unlimited_supply_option_lifts_the_limit() -> None:
    """rulebook p.10, Notes on resources, with the unlimited_supply option: both get their full yield."""
    state = table(3, active=0, options={"unlimited_supply": True})
    give(state, 0, green=1)
    give(state, 1, green=1)
    give(state, 2, grey=1)
    state.supply["pig"] = 3
    state, _ = run(state, [(0, "play green 1.pig"), (1, "join green")])
    state, _ = take_all(state)
    assert (have(state, 0, "pig"), have(state, 1, "pig")) == (3, 3)


# --- Worked examples ----------------------------------------------------------------------------------


def test_example_green_joined_by_green_on_the_pig_field_gives_three_pigs_each() -> None:
    """rulebook p.5, 2a/2b example: a light-green keyple on the light-green pig field, joined by a
    light-green keyple of the next player: both players receive 3 pigs."""
    state = table(2, active=0)
    give(state, 0, green=1)
    give(state, 1, green=1)
    state, _ = run(state, [(0, "play green 1.pig"), (1, "join green")])
    state, _ = take_all(state)
    assert (have(state, 0, "pig"), have(state, 1, "pig")) == (3, 3)


def test_example_brown_joined_on_the_pig_field_gives_two_pigs_each() -> None:
    """rulebook p.7, 4 example: a brown keyple on the light-green pig field, joined: no colour match, so
    both players receive 2 pigs."""
    state = table(2, active=0)
    give(state, 0, brown=1)
    give(state, 1, brown=1)
    state, _ = run(state, [(0, "play brown 1.pig"), (1, "join brown")])
    state, _ = take_all(state)
    assert (have(state, 0, "pig"), have(state, 1, "pig")) == (2, 2)


# --- 2c. Existing keyples -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("existing", "colour", "lay", "earned"),
    [
        ("green", "green", True, 3),
        ("green", "green", False, 2),
        ("green", "white", True, 3),
        ("white", "green", True, 3),
        ("brown", "brown", True, 2),
        ("brown", "brown", False, 1),
        ("brown", "white", False, 1),
    ],
)
def test_joining_an_existing_keyple(existing: str, colour: str, lay: bool, earned: int) -> None:
    """rulebook p.5, 2c Existing keyples table: laying the existing keyple down gives 2 (3 on a match);
    leaving it standing gives 1 (2 on a match). The yield is the player's alone."""
    state = table(3, active=0)
    place(state, 1, "pig", existing)
    give(state, 0, **{colour: 1})
    for other in (1, 2):
        give(state, other, green=1, white=1)
    state, events = play(state, 0, f"play {colour} 1.pig" + (" +lay" if lay else ""))
    assert state.phase == "yields"
    assert not any(t.startswith("Joiners") for t in texts(events))
    assert pending(state) == [(0, ("pig",))] * earned
    assert [k.lying for k in state.boards[0].spaces["pig"]] == [lay, False]
    state, _ = take_all(state)
    assert have(state, 0, "pig") == earned


@pytest.mark.parametrize(("colour", "earned"), [("green", 2), ("brown", 1)])
def test_joining_a_keyple_already_lying_gives_the_solo_yield(colour: str, earned: int) -> None:
    """rulebook p.5, 2c Existing keyples: a lying keyple cannot work a third time; the newcomer earns what it
    would alone, and laying the existing keyple down is not offered."""
    state = table(3, active=0)
    place(state, 1, "pig", f"{colour}/lying")
    give(state, 0, **{colour: 1})
    options = legal(state, 0)
    assert f"play {colour} 1.pig" in options
    assert f"play {colour} 1.pig +lay" not in options
    state, _ = play(state, 0, f"play {colour} 1.pig")
    state, _ = take_all(state)
    assert have(state, 0, "pig") == earned


@pytest.mark.parametrize(("field", "lying", "earned"), [
    ("pig", "brown", 1),   # light-green field, the lying keyple works in brown: no match
    ("pig", "green", 2),   # it works in green, the field's colour: a match
    ("pig", "white", 2),   # a lying white keyple on the green field works in green (K-5): a match
    ("country_tile", "white", 1),  # an uncoloured field: never a match
])
def test_p6_a_white_keyple_joining_a_lying_keyple_works_in_its_colour(field: str, lying: str, earned: int) -> None:
    """rulebook p.6, 2c continued (a white joiner counts as the colour of the first keyple, not the field's) and
    2c (beside a lying keyple the joiner earns what it would alone), ruling K-36: a white keyple beside a lying
    brown keyple on the light-green pig field earns 1 pig, not the 2 a white keyple alone would earn there."""
    state = table(3, active=0)
    place(state, 1, field, f"{lying}/lying")
    give(state, 0, white=1)
    for other in (1, 2):
        give(state, other, white=1, green=1)
    state, events = play(state, 0, f"play white 1.{field}")
    assert state.phase == "yields" and len(pending(state)) == earned
    working = {"brown": "brown", "green": "green", "white": "green"}[lying] if field == "pig" else "white"
    assert any("already lying" in t for t in texts(events))
    assert any(f"works as {working}" in t for t in texts(events)) == (working != "white")


def test_p6_the_white_keyple_keeps_that_colour_when_it_is_laid_down_later() -> None:
    """rulebook p.6, 3 (one keyple lying, the other laid down: 1, or 2 with a colour match between the keyple and
    the field) with ruling K-36: the white keyple that joined a lying brown keyple on the pig field still counts
    as brown when it is laid down, so it earns 1 pig."""
    state = table(3, active=0)
    place(state, 1, "pig", "brown/lying", "white")  # the white keyple joined the lying brown one earlier
    claim(state, 0, 1)
    give(state, 0)
    assert legal(state, 0) == ["laydown 1.pig"]
    state, _ = play(state, 0, "laydown 1.pig")
    assert pending(state) == [(0, ("pig",))]
    state = table(3, active=0)
    place(state, 1, "pig", "green/lying", "white")  # beside a lying green keyple it works in green: a match
    claim(state, 0, 1)
    give(state, 0)
    state, _ = play(state, 0, "laydown 1.pig")
    assert pending(state) == [(0, ("pig",))] * 2


def test_existing_keyple_is_joined_only_by_its_colour_or_white() -> None:
    """rulebook p.5, 2c Existing keyples: the keyple played beside an existing one must share its colour
    or be white."""
    state = table(3, active=0)
    place(state, 1, "pig", "green")
    give(state, 0, green=1, brown=1, white=1)
    plays = [a for a in legal(state, 0) if " 1.pig" in a]
    assert plays == ["play green 1.pig", "play green 1.pig +lay", "play white 1.pig", "play white 1.pig +lay"]


def test_existing_white_keyple_on_a_coloured_field_takes_the_field_colour() -> None:
    """rulebook p.6, 2c continued: an existing white keyple on a coloured field is joined by white or by
    the field's colour."""
    state = table(3, active=0)
    place(state, 1, "pig", "white")
    give(state, 0, green=1, brown=1, white=1)
    colours = {a.split()[1] for a in legal(state, 0) if " 1.pig" in a}
    assert colours == {"green", "white"}


def test_existing_white_keyple_on_an_uncoloured_field_or_plot_is_joined_only_by_white() -> None:
    """rulebook p.6, 2c continued: an existing white keyple on a plot or an uncoloured field is joined only
    by another white keyple. (A keyple building a new tile over the plot's tile joins nobody, ruling K-27.)"""
    state = table(3, active=0)
    place(state, 1, "country_tile", "white")
    build(state, 0, "v3", "brickmaker", "white")
    give(state, 0, green=1, brown=1, white=1)
    options = legal(state, 0)
    assert {a.split()[1] for a in options if " 1.country_tile" in a} == {"white"}
    joins = [a for a in options if a.startswith("play") and a.split()[2] == "v3" and " build " not in a]
    assert {a.split()[1] for a in joins} == {"white"}
