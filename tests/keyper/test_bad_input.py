"""Bad input: unreadable text, moves the rules forbid, and moves by the wrong player never change the game."""

from __future__ import annotations

import re

import pytest

from engine.core import IllegalAction, InvalidAction
from engine.keyper import GAME
from engine.keyper.state import State
from tests.keyper.scenario import build, claim_all, end_season, give, place, play, table

RULE = re.compile(r"^rulebook pp?\.\d")


def refused(state: State, seat: int, text: str) -> IllegalAction:
    """Apply text for a seat, expecting IllegalAction; checks the state is untouched and returns the error."""
    before = GAME.to_json(state)
    with pytest.raises(IllegalAction) as info:
        play(state, seat, text)
    assert GAME.to_json(state) == before
    assert info.value.reason
    return info.value


@pytest.mark.parametrize(
    "text",
    ["", "hello", "play purple 1.pig", "keyper", "keyper two", "take unicorn", "laydown", "join", "play green",
     "hold", "display", "rest pink", "play green 1.pig +lay +lay"],
)
def test_garbage_is_invalid_and_quoted(text: str) -> None:
    """Notation (docs/notation.md): text that is no action raises InvalidAction quoting what was typed."""
    state = table(3, active=0)
    before = GAME.to_json(state)
    with pytest.raises(InvalidAction) as info:
        GAME.parse(state, 0, text)
    assert f"'{text}'" in str(info.value)
    assert GAME.to_json(state) == before


def test_a_field_holding_two_keyples_is_refused() -> None:
    """rulebook p.4, 2a Play a keyple (iv): no third keyple on a field."""
    state = table(3, active=0)
    place(state, 1, "pig", "green", "green")
    error = refused(state, 0, "play green 1.pig")
    assert "two keyples" in error.reason
    assert RULE.match(error.rule) and "2a" in error.rule


def test_a_keyple_on_a_keyp_field_is_refused() -> None:
    """rulebook p.4, 2a Play a keyple (i): keyp fields are for keypers only."""
    state = table(3, active=0)
    error = refused(state, 0, "play green 1.keyp")
    assert "keyp field" in error.reason
    assert RULE.match(error.rule)


def test_a_wrong_colour_joiner_is_refused() -> None:
    """rulebook p.5, 2b Joiners: only the first keyple's working colour or white may join."""
    state = table(3, active=0)
    give(state, 0, green=1)
    give(state, 1, green=1, brown=1)
    state, _ = play(state, 0, "play green 1.pig")
    error = refused(state, 1, "join brown")
    assert "green or white" in error.reason
    assert RULE.match(error.rule) and "2b" in error.rule


def test_a_wrong_colour_beside_an_existing_keyple_is_refused() -> None:
    """rulebook p.5, 2c Existing keyples: the newcomer must share the existing keyple's colour or be white."""
    state = table(3, active=0)
    place(state, 1, "pig", "green")
    error = refused(state, 0, "play brown 1.pig")
    assert "green or white" in error.reason
    assert RULE.match(error.rule)


def test_laying_down_a_keyple_that_already_lies_is_refused() -> None:
    """rulebook p.5, 2c Existing keyples: a keyple lying down cannot work a third time."""
    state = table(3, active=0)
    place(state, 1, "pig", "green/lying")
    error = refused(state, 0, "play green 1.pig +lay")
    assert "already lying" in error.reason
    assert RULE.match(error.rule)


def test_a_plot_without_a_building_is_refused() -> None:
    """rulebook p.4, 2a Play a keyple: a plot takes a keyple only when a building tile stands on it."""
    state = table(3, active=0)
    error = refused(state, 0, "play green v3")
    assert "v3" in error.reason
    assert RULE.match(error.rule)


def test_a_colour_not_in_the_keyp_is_refused() -> None:
    """rulebook p.4, 2a Play a keyple: a keyple is played from the player's own keyp."""
    state = table(3, active=0)
    give(state, 0, green=1)
    error = refused(state, 0, "play brown 1.pig")
    assert "no brown keyple" in error.reason
    assert RULE.match(error.rule)


def test_playing_the_keyper_twice_is_refused() -> None:
    """rulebook p.4, 1 Play a keyper: the keyper is played once per season."""
    state = table(3, active=0)
    claim_all(state)
    error = refused(state, 0, "keyper 2")
    assert "already been played" in error.reason
    assert RULE.match(error.rule) and "keyper" in error.rule


def test_a_keyper_onto_an_occupied_keyp_field_is_refused() -> None:
    """rulebook p.4, 1 (i) Play a keyper: the keyp field must be empty."""
    state = table(3, active=1)
    state.boards[0].keyper = 0
    state.players[0].keyper_home = False
    error = refused(state, 1, "keyper 1")
    assert "already holds a keyper" in error.reason
    assert RULE.match(error.rule)


def test_laying_down_while_the_keyp_holds_pieces_is_refused() -> None:
    """rulebook p.6, 3 (iii) and p.4, 1 (iv): lay-downs wait until keyper and keyples have all been played."""
    state = table(3, active=0)
    place(state, 1, "pig", "green")
    error = refused(state, 0, "laydown 1.pig")
    assert "only once your keyper and all your keyples" in error.reason
    assert RULE.match(error.rule) and "3 Lay down" in error.rule


def test_laying_down_away_from_home_while_home_has_standing_keyples_is_refused() -> None:
    """rulebook p.6, 3 (iii): the player's plots and claimed board come before other boards."""
    state = table(3, active=0)
    claim_all(state)
    give(state, 0)
    give(state, 1, grey=1)
    place(state, 1, "pig", "green")
    place(state, 2, "pig", "green")
    error = refused(state, 0, "laydown 2.pig")
    assert "claimed board" in error.reason
    assert RULE.match(error.rule)


def test_laying_down_two_where_one_stands_is_refused() -> None:
    """rulebook p.6, 3: 'x2' needs two standing keyples."""
    state = table(3, active=0)
    claim_all(state)
    give(state, 0)
    give(state, 1, grey=1)
    place(state, 1, "pig", "green/lying", "green")
    error = refused(state, 0, "laydown 1.pig x2")
    assert "one keyple" in error.reason.lower()
    assert RULE.match(error.rule)


@pytest.mark.parametrize("text", ["play green 1.pig", "keyper 1", "laydown 1.pig", "take pig"])
def test_the_wrong_player_is_told_it_is_not_their_decision(text: str) -> None:
    """rulebook p.4, A player's turn: only the seat to act may act; anyone else is refused."""
    state = table(3, active=0)
    place(state, 1, "pig", "green")
    error = refused(state, 2, text)
    assert "not your decision" in error.reason
    assert "P0" in error.reason
    assert RULE.match(error.rule)


def test_only_the_invited_player_may_answer_an_invitation() -> None:
    """rulebook p.7, 4: the invitation goes to one player at a time, clockwise; the next must wait."""
    state = table(3, active=0)
    for seat in range(3):
        give(state, seat, green=1)
    state, _ = play(state, 0, "play green 1.pig")
    error = refused(state, 2, "join green")
    assert "not your decision" in error.reason
    refused(state, 0, "join green")


def test_an_action_of_another_phase_is_refused() -> None:
    """rulebook p.4, A player's turn: a yield choice is no turn action; the reason says what is awaited."""
    state = table(3, active=0)
    error = refused(state, 0, "take pig")
    assert "waiting for P0 to take a turn" in error.reason
    assert RULE.match(error.rule)


def test_the_game_over_refuses_everything() -> None:
    """rulebook p.9, End of game: after winter no action is possible."""
    state, _ = end_season(table(3, active=0, season=3), 1)
    assert GAME.is_over(state)
    error = refused(state, 0, "keyper 1")
    assert "over" in error.reason
    assert RULE.match(error.rule)


def test_a_plot_keyple_from_another_board_is_refused_for_others() -> None:
    """rulebook p.4, 2a (iii): plots in notation are always the acting player's own; another player's built
    plot does not make 'v3' playable."""
    state = table(3, active=1)
    build(state, 0, "v3", "brickmaker")
    error = refused(state, 1, "play green v3")
    assert "v3" in error.reason


@pytest.mark.parametrize(
    ("on_plot", "text", "words"),
    [
        (("white", "white"), "play white v3", "two keyples"),
        (("white",), "play green v3", "white"),
        (("green/lying",), "play green v3 +lay", "already lying"),
    ],
)
def test_a_refused_play_onto_a_plot_says_why(on_plot: tuple[str, ...], text: str, words: str) -> None:
    """rulebook p.4, 2a Play a keyple (iv) and p.5-6, 2c: the limits on fields hold for plots too (two keyples
    at most; a white keyple on a plot is joined only by white; a lying keyple works no more), and the refusal
    should name the limit that applies, as it does for fields."""
    state = table(3, active=0)
    build(state, 0, "v3", "brickmaker", *on_plot)
    give(state, 0, green=1, white=1)
    error = refused(state, 0, text)
    assert words in error.reason
    assert RULE.match(error.rule)
