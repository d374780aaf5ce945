"""A player's turn: playing the keyper and playing keyples onto fields and plots (rulebook pp.4-5)."""

from __future__ import annotations

import pytest

from engine.keyper import GAME
from engine.keyper.components import default
from engine.keyper.state import Keyple
from tests.keyper.scenario import build, claim, give, have, legal, pending, place, play, run, table, take_all, texts


def non_keyp_fields(display: str) -> list[str]:
    """Ids of every field of a display except its keyp field."""
    return [f.id for f in default().display(display).fields if f.kind != "keyp"]


# --- 1. Play a keyper -------------------------------------------------------------------------------


def test_playing_the_keyper_claims_the_board() -> None:
    """rulebook p.4, 1 (ii) Play a keyper: the keyper goes onto a board's keyp field and that board is claimed."""
    state = table(3, active=0)
    after, events = play(state, 0, "keyper 2")
    assert after.boards[1].keyper == 0
    assert not after.players[0].keyper_home
    assert any("claims board 2" in t for t in texts(events))
    assert GAME.to_act(after) == [1]


def test_keyper_only_onto_an_empty_keyp_field() -> None:
    """rulebook p.4, 1 (i) Play a keyper: only a keyp field with no keyper on it may take the keyper."""
    state = table(3, active=0)
    claim(state, 1, 2)
    keyper_plays = [a for a in legal(state, 0) if a.startswith("keyper")]
    assert keyper_plays == ["keyper 1", "keyper 3"]


def test_keyper_is_played_once_per_season() -> None:
    """rulebook p.4, 1 (i) Play a keyper: once the keyper is out, later turns of the season offer it no more."""
    state = table(3, active=0)
    state, _ = run(state, [(0, "keyper 1"), (1, "keyper 2"), (2, "keyper 3")])
    assert GAME.to_act(state) == [0]
    assert not any(a.startswith("keyper") for a in legal(state, 0))
    assert any(a.startswith("play ") for a in legal(state, 0))


def test_keyp_tile_keyples_are_laid_down_for_one_resource_each_when_the_keyper_is_played() -> None:
    """rulebook p.4, 1 (iii) Play a keyper: resting keyples lie down as the keyper comes out, each earning one
    resource of its colour's group (raw material for orange/brown/grey, gem for green/black/blue, white either)."""
    state = table(3, active=0, season=1)
    state.players[0].keyp_tile = [Keyple("brown"), Keyple("black"), Keyple("white")]
    state, _ = play(state, 0, "keyper 1")
    raw, gems = ("clay", "log", "rock"), ("emerald", "gold", "ruby", "sapphire")
    assert pending(state) == [(0, raw), (0, gems), (0, raw + gems)]
    state, _ = run(state, [(0, "take log"), (0, "take ruby"), (0, "take emerald")])
    assert (have(state, 0, "log"), have(state, 0, "ruby"), have(state, 0, "emerald")) == (1, 1, 1)
    assert all(k.lying for k in state.players[0].keyp_tile)
    assert GAME.to_act(state) == [1]


def test_a_keyp_tile_keyple_cannot_take_from_the_other_group() -> None:
    """rulebook p.4, 1 (iii) Play a keyper: a brown keyple on the keyp tile earns a raw material, never a gem."""
    state = table(3, active=0, season=1)
    state.players[0].keyp_tile = [Keyple("brown")]
    state, _ = play(state, 0, "keyper 1")
    assert legal(state, 0) == ["take clay", "take log", "take rock", "skip"]


def test_no_lay_down_before_the_keyper_is_played() -> None:
    """rulebook p.4, 1 (iv) Play a keyper: with only the keyper left in the keyp the player must play it;
    no lay-down is offered even though standing keyples wait on the boards."""
    state = table(3, active=0)
    give(state, 0)
    place(state, 1, "pig", "green", "green")
    place(state, 1, "wheat", "brown")
    options = legal(state, 0)
    assert options and all(a.startswith("keyper ") for a in options)
    assert not any(a.startswith("laydown") for a in options)


# --- 2a. Play a keyple --------------------------------------------------------------------------------


def test_keyple_may_go_onto_any_field_of_any_board_claimed_or_not() -> None:
    """rulebook p.4, 2a Play a keyple: every field of every board (except the keyp field) is open, whether
    the board is unclaimed, claimed by the player or claimed by an opponent."""
    state = table(3, active=0)
    claim(state, 0, 1)
    claim(state, 1, 2)
    give(state, 0, grey=1)
    options = legal(state, 0)
    for board in state.boards:
        for field in non_keyp_fields(board.display):
            assert any(a.startswith(f"play grey {board.number}.{field}") for a in options), (board.number, field)


def test_keyple_may_go_onto_an_own_plot_holding_a_built_tile() -> None:
    """rulebook p.4, 2a Play a keyple: a plot of the player's own board is open only when a tile is built on it."""
    state = table(3, active=0)
    build(state, 0, "v3", "brickmaker")
    give(state, 0, grey=1)
    options = legal(state, 0)
    assert "play grey v3" in options
    assert not any(a.split()[-1] in ("v1", "v2", "v4", "f1") for a in options)


def test_keyple_cannot_go_onto_an_opponents_plot() -> None:
    """rulebook p.4, 2a Play a keyple (iii): another player's built plots are never offered."""
    state = table(3, active=1)
    build(state, 0, "v3", "brickmaker")
    give(state, 1, grey=1)
    assert not any(a.endswith(" v3") for a in legal(state, 1))


def test_keyple_never_goes_onto_a_keyp_field() -> None:
    """rulebook p.4, 2a Play a keyple (i): keyp fields take keypers only, on every board."""
    state = table(4, active=0)
    assert not any(a.startswith("play") and a.split()[2].endswith(".keyp") for a in legal(state, 0))


def test_keyple_never_goes_onto_a_space_holding_two_keyples() -> None:
    """rulebook p.4, 2a Play a keyple (iv): a field or plot already holding two keyples is full."""
    state = table(3, active=0)
    place(state, 1, "pig", "green", "green")
    build(state, 0, "v3", "brickmaker", "white", "white")
    options = legal(state, 0)
    assert not any(" 1.pig" in a for a in options)
    assert not any(a.endswith(" v3") or " v3 " in a for a in options)
    assert "play green 2.pig" in options


def test_played_keyple_stands() -> None:
    """rulebook p.4, A player's turn: a keyple played from the keyp is always placed standing."""
    state = table(3, active=0)
    give(state, 1, grey=1)
    give(state, 2, grey=1)
    state, _ = play(state, 0, "play green 1.pig")
    assert state.boards[0].spaces["pig"] == [Keyple("green", lying=False)]


@pytest.mark.parametrize(
    ("colour", "field", "earned"),
    [
        ("green", "pig", 2),  # light-green farmer on the light-green pig field: a match
        ("brown", "pig", 1),  # no match
        ("white", "pig", 2),  # a white keyple works in the colour of a coloured field
        ("orange", "clay", 2),
        ("grey", "clay", 1),
        ("brown", "deer", 2),
    ],
)
def test_colour_match_on_a_coloured_field_adds_one(colour: str, field: str, earned: int) -> None:
    """rulebook p.4, 2a Play a keyple: alone a keyple earns one unit, two when its colour matches the field's
    border; a white keyple on a coloured field counts as matching."""
    state = table(3, active=0)
    give(state, 0, **{colour: 1})
    give(state, 1, blue=1)
    give(state, 2, blue=1)
    state, events = play(state, 0, f"play {colour} 1.{field}")
    assert pending(state) == [(0, (field,))] * earned
    state, _ = take_all(state)
    assert have(state, 0, field) == earned


@pytest.mark.parametrize("colour", ["green", "blue", "white", "black"])
def test_no_colour_bonus_on_the_uncoloured_country_tile_field(colour: str) -> None:
    """rulebook p.4, 2a Play a keyple (and p.13 note 2): the country tile field has no border colour, so any
    keyple alone earns exactly one country tile."""
    state = table(3, active=0)
    give(state, 0, **{colour: 1})
    give(state, 1, grey=1)
    give(state, 2, grey=1)
    shown = list(state.display)
    state, _ = play(state, 0, f"play {colour} 1.country_tile")
    assert len(state.steps) == 1
    assert legal(state, 0) == [f"tile {t}" for t in shown] + ["skip"]
    state, _ = play(state, 0, f"tile {shown[0]}")
    assert shown[0] in state.players[0].tiles
    assert GAME.to_act(state) == [1]
