"""`keywood demo`: a seeded random game of any registered game, played as play-outs choose, printed to its end."""

from __future__ import annotations

import io

import pytest

from bot import games
from bot.cli import Refused, demo


@pytest.mark.parametrize("game", [e.id for e in games.all_games()])
def test_a_demo_plays_every_registered_game_to_its_end_and_prints_the_scores(game: str) -> None:
    entry = games.get(game)
    players = min(3, entry.max_players)
    out = io.StringIO()
    assert demo(players, 2, out, game=game) == 0
    lines = out.getvalue().splitlines()
    names = ["Ana", "Ben", "Cleo"][:players]
    assert lines[0].startswith(f"{entry.title} demo: {', '.join(names)}; seed 2.")
    scores = lines[-players:]
    assert sorted(line.split(":")[0].strip() for line in scores) == sorted(names)
    assert all(line.split(":")[1].strip().lstrip("-").isdigit() for line in scores)
    assert any(line.startswith("> ") for line in lines)


def test_a_demo_is_the_same_for_the_same_seed() -> None:
    first, second = io.StringIO(), io.StringIO()
    demo(3, 5, first, game="keythedral")
    demo(3, 5, second, game="keythedral")
    assert first.getvalue() == second.getvalue()


def test_a_demo_takes_game_options_and_plays_the_keyflower_modules() -> None:
    """`keywood demo --option`: the table options of a new game (here both Keyflower modules) reach the engine."""
    out = io.StringIO()
    assert demo(3, 4, out, game="keyflower", options={"keymelequin": "keyflower", "key_celeste": "yes"}) == 0
    text = out.getvalue()
    assert "takes the Keymelequin boat's Sven" in text and "replaces the Keymelequin with the" in text
    assert "wins Key Celeste and takes the ghost." in text and " plays the ghost on " in text


@pytest.mark.parametrize(("options", "message"), [
    ({"keymelequin": "white-wind"}, "With 3 players the Keymelequin can replace keyflower, sea-bastion, sea-breese, "
                                    "not 'white-wind'"),
    ({"keymelequin": "raft"}, "keymelequin must be one of off, keyflower"),
    ({"ghosts": "yes"}, "Keyflower has no option ghosts."),
])
def test_a_demo_refuses_an_option_the_game_does_not_take(options: dict[str, str], message: str) -> None:
    with pytest.raises(Refused, match=message):
        demo(3, 1, io.StringIO(), game="keyflower", options=options)
