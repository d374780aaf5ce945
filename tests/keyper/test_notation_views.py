"""Notation round trips, field completion, what each seat may see, and /check (docs/notation.md, docs/engine.md)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import AmbiguousAction
from engine.keyper import GAME
from engine.keyper.actions import LayDown, PlayKeyple
from engine.keyper.state import State
from engine.playout import random_playout
from tests.keyper.scenario import claim_all, end_season, give, place, play, table


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13), (3, 14)])
def test_every_legal_action_reads_back_from_its_notation(players: int, seed: int) -> None:
    """Notation (docs/notation.md): parse(format(a)) == a for every legal action of every seat to act, at
    every step of whole random games, so every move a player sees can be typed back."""
    checked = 0

    def hook(state: Any, seat: int, action: Any) -> None:
        nonlocal checked
        assert GAME.format(action) == str(action)
        for s in GAME.to_act(state):
            for legal in GAME.legal_actions(state, s):
                assert GAME.parse(state, s, GAME.format(legal)) == legal, (s, str(legal))
                checked += 1

    final, _ = random_playout(GAME, [f"P{i}" for i in range(players)], seed, on_step=hook)
    assert GAME.is_over(final)
    assert checked > 1000


def test_notation_is_case_and_space_insensitive() -> None:
    """Notation (docs/notation.md): upper case and extra spaces are ignored."""
    state = table(2, active=0)
    assert GAME.parse(state, 0, "  PLAY   Green 1.PIG ") == PlayKeyple("green", "1.pig")


def test_a_field_without_board_number_is_completed_when_only_one_board_fits() -> None:
    """Notation (docs/notation.md): 'play green cow' names board 1 when only board 1 shows a cow field."""
    state = table(2, active=0)
    assert GAME.parse(state, 0, "play green cow") == PlayKeyple("green", "1.cow")


def test_completion_looks_only_at_boards_where_the_play_is_legal() -> None:
    """Notation (docs/notation.md): a full field does not count, so 'play green pig' means 2.pig when 1.pig
    already holds two keyples."""
    state = table(2, active=0)
    place(state, 1, "pig", "brown", "brown")
    assert GAME.parse(state, 0, "play green pig") == PlayKeyple("green", "2.pig")


def test_a_field_on_several_boards_is_ambiguous() -> None:
    """Notation (docs/notation.md): when several boards fit, parse lists the candidates instead of guessing."""
    state = table(2, active=0)
    with pytest.raises(AmbiguousAction) as info:
        GAME.parse(state, 0, "play green pig")
    assert info.value.candidates == ["play green 1.pig", "play green 2.pig"]
    assert "please say which" in str(info.value)


def test_a_lay_down_field_without_board_number_is_completed_when_only_one_board_fits() -> None:
    """Notation (docs/notation.md, Spaces): the board number may be left out wherever a field is named and
    only one board fits, so 'laydown pig' means 1.pig when that is the only standing keyple on a pig field."""
    state = table(3, active=0)
    claim_all(state)
    give(state, 0)
    give(state, 1, grey=1)
    place(state, 1, "pig", "green")
    assert GAME.parse(state, 0, "laydown pig") == LayDown("1.pig")


# --- Views --------------------------------------------------------------------------------------------


def test_a_seat_sees_its_own_fairs_and_only_counts_of_the_others() -> None:
    """rulebook p.3, set-up note 13: fair tiles are face down; the owner may look, the others may not."""
    state = table(3, active=0)
    view = GAME.view(state, 1)
    assert view["players"][1]["hidden_fairs"] == state.players[1].hidden_fairs
    assert view["players"][0]["hidden_fairs"] == 3 and view["players"][2]["hidden_fairs"] == 3
    assert view["viewer"] == 1


def test_the_bag_is_shown_only_as_a_count() -> None:
    """rulebook p.2, set-up note 2: tiles in the cloth bag are unknown to everyone; only their number shows."""
    state = table(3, active=0)
    for viewer in (0, None):
        view = GAME.view(state, viewer)
        assert view["bag"] == len(state.bag) and isinstance(view["bag"], int)
        assert "rng" not in view


def test_the_public_view_hides_every_secret() -> None:
    """rulebook p.3 note 13 and p.9 note 3: the public view shows no player's fairs, no bag order, no pending
    display choice and no legal actions."""
    state = table(3, active=0)
    state, _ = end_season(state, 1)
    state, _ = play(state, 2, "display summer-3")
    view = GAME.view(state, None)
    assert [p["hidden_fairs"] for p in view["players"]] == [len(p.hidden_fairs) for p in state.players]
    assert [p["chosen_display"] for p in view["players"]] == [False, False, True]
    assert view["bag"] == len(state.bag)
    assert view["legal"] == [] and view["viewer"] is None


def test_a_seats_view_lists_its_legal_actions() -> None:
    """Engine contract (docs/engine.md): view(state, seat) carries that seat's legal actions and no one
    else's."""
    state = table(3, active=0)
    assert GAME.view(state, 0)["legal"] == [str(a) for a in GAME.legal_actions(state, 0)]
    assert GAME.view(state, 1)["legal"] == []


def swap_hidden_fair(state: State) -> State:
    """Give seat 0 a different spring fair that nobody holds."""
    held = {f for p in state.players for f in p.hidden_fairs}
    spare = next(f"spring-{i}" for i in range(1, 7) if f"spring-{i}" not in held)
    state.players[0].hidden_fairs[0] = spare
    return state


def shuffle_bag(state: State) -> State:
    """Reverse the order of the tiles in the bag."""
    state.bag.reverse()
    return state


@pytest.mark.parametrize("change", [swap_hidden_fair, shuffle_bag])
def test_views_do_not_change_when_only_hidden_information_differs(change: Any) -> None:
    """rulebook p.3 note 13 and p.2 note 2: two games differing only in something secret look the same to
    everyone who may not see the secret."""
    one = table(3, active=0)
    two = change(table(3, active=0))
    assert GAME.to_json(one) != GAME.to_json(two)
    for viewer in (None, 1, 2):
        assert GAME.view(one, viewer) == GAME.view(two, viewer)


def test_views_do_not_change_when_only_a_pending_display_choice_differs() -> None:
    """rulebook p.9, Start of next season note 3 (ruling K-14): before all have chosen, two games that differ
    only in the display player 0 picked look the same to the other players and the public."""
    state, _ = end_season(table(3, active=0), 1)
    one, _ = play(state, 0, "display summer-1")
    two, _ = play(state, 0, "display summer-2")
    for viewer in (None, 1, 2):
        assert GAME.view(one, viewer) == GAME.view(two, viewer)


# --- /check -------------------------------------------------------------------------------------------


def test_check_of_a_legal_action_describes_the_outcome_and_changes_nothing() -> None:
    """rulebook p.4, 2a Play a keyple (engine contract, check): a legal play is reported with what it would
    earn, and the state stays as it was."""
    state = table(3, active=0)
    give(state, 1, grey=1)
    give(state, 2, grey=1)
    before = GAME.to_json(state)
    verdict = GAME.check(state, 0, GAME.parse(state, 0, "play green 1.pig"))
    assert verdict.legal
    assert any("2 pigs" in line for line in verdict.outcome)
    assert GAME.to_json(state) == before


def test_check_of_an_illegal_action_gives_the_reason_and_rule_and_changes_nothing() -> None:
    """rulebook p.4, 2a Play a keyple (iv): checking a play onto a full field says why, under which rule."""
    state = table(3, active=0)
    place(state, 1, "pig", "green", "green")
    before = GAME.to_json(state)
    verdict = GAME.check(state, 0, GAME.parse(state, 0, "play green 1.pig"))
    assert not verdict.legal
    assert "two keyples" in verdict.reason
    assert verdict.rule.startswith("rulebook p")
    assert verdict.outcome == ()
    assert GAME.to_json(state) == before


def test_the_last_placement_on_a_plot_names_its_owner() -> None:
    """The view's last_space for a keyple played onto a plot says whose plot ('f8@0'), so an image drawn after
    play has moved on outlines the right player's plot."""
    from engine.keyper.actions import PlayKeyple
    from engine.playout import random_playout

    found = []
    for seed in range(1, 6):
        _, record = random_playout(GAME, ["Ana", "Ben", "Cleo"], seed)
        state = GAME.setup(["Ana", "Ben", "Cleo"], seed)
        for seat, text in record.actions:
            action = GAME.parse(state, seat, text)
            GAME.apply_in_place(state, seat, action)
            if isinstance(action, PlayKeyple) and "." not in action.space:
                found.append((GAME.view(state, None)["last_space"], f"{action.space}@{seat}"))
    assert found, "some keyple went onto a plot"
    assert all(shown == expected for shown, expected in found)


def test_check_of_a_build_left_to_pay_says_what_is_built_and_what_is_paid_next() -> None:
    """rulebook p.13, note 4 Building and p.10 (paying a cost item by item, ruling K-21; engine contract, check): a
    build or upgrade whose cost needs the player's choices says which tile goes where and what comes to pay."""
    found: list[tuple[str, tuple[str, ...]]] = []

    def each(state: State, seat: int, action: Any) -> None:
        for s in GAME.to_act(state):
            for a in GAME.legal_actions(state, s):
                after, _ = GAME.apply(state, s, a)
                if not found and after.payment is not None and after.payment.tile and str(a).startswith("build"):
                    found.append((str(a), GAME.check(state, s, a).outcome))

    random_playout(GAME, ["Ana", "Ben", "Cleo"], 1, on_step=each)
    (text, outcome), = found
    plot = text.split()[2]
    assert outcome[-1].startswith("Building the ") and f" on {plot}: next you pay " in outcome[-1], outcome
    assert "`pay RESOURCE`" in outcome[-1]
