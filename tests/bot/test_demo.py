"""`keywood demo`: a seeded random game of any registered game, played as play-outs choose, printed to its end."""

from __future__ import annotations

import io

import pytest

from bot import games
from bot.cli import demo


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
