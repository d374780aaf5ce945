"""resample_hidden depends only on what the viewer sees and the seed.

A computer stand-in decides from what its seat may see: it samples the hidden information with
game.resample_hidden(state, seat, seed) and plays from those samples (issue "Keep games moving"). Its choice is
independent of the hidden information only if resample_hidden(s, viewer, seed) is a function of the viewer's
knowledge and the seed alone. The test: s2 = resample_hidden(s, viewer, k) differs from s only in what the viewer
cannot see, so resample_hidden(s2, viewer, j) must be the very state resample_hidden(s, viewer, j) is. That the
viewer's view stays the same under resampling is checked by test_leaks.py.
"""

from __future__ import annotations

from typing import Any

from bot.games import GameEntry
from engine.core import Game
from tests.contract.kit import Setup, each_game, secret_open
from tests.contract.test_leaks import samples

FIRST = (11, 12)  # seeds k of the first redraw s2 = resample_hidden(s, viewer, k)
AGAIN = (1, 2, 3)  # seeds j of the redraws compared
STATES = 16  # sampled states checked per game, secret choices open first, the rest spread along the play-outs

def picked(game: Game[Any, Any], states: list[tuple[Setup, Any]]) -> list[tuple[Setup, Any]]:
    """Up to STATES sampled states: half with a secret choice open (if any), the rest (none open) spread over the
    play-outs."""
    secret = [p for p in states if secret_open(game, p[1])]
    found = secret[::max(1, len(secret) // (STATES // 2))][:STATES // 2]
    rest = [p for p in states if not secret_open(game, p[1])]
    return found + rest[::max(1, len(rest) // (STATES - len(found)))][:STATES - len(found)]


def first_difference(a: Any, b: Any, where: str = "state") -> str:
    """Where two JSON values first differ, as a path, for the failure message."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b), key=str):
            if a.get(key) != b.get(key):
                return first_difference(a.get(key), b.get(key), f"{where}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{where}[{i}]")
    return f"{where}: {a!r} != {b!r}"[:400]


@each_game()
def test_resample_hidden_depends_only_on_what_the_viewer_sees(entry: GameEntry) -> None:
    """contract (the stand-in's independence from hidden information, issue "Keep games moving"): for
    s2 = resample_hidden(s, viewer, k), a state the viewer cannot tell from s, resample_hidden(s2, viewer, j) is
    exactly resample_hidden(s, viewer, j), for the public and every seat, at states along play-outs (secret
    choices open among them): the redraw never depends on where the hidden things are now."""
    game = entry.engine
    compared = 0
    for setup, s in picked(game, samples(entry)):
        for viewer in [None, *range(len(setup.players))]:
            redrawn = {j: game.to_json(game.resample_hidden(s, viewer, j)) for j in AGAIN}
            for k in FIRST:
                s2 = game.resample_hidden(s, viewer, k)
                for j in AGAIN:
                    again = game.to_json(game.resample_hidden(s2, viewer, j))
                    where = f"viewer {viewer}, k {k}, j {j}, {setup}, at {game.waiting_for(s)}"
                    assert again == redrawn[j], f"{where}: {first_difference(again, redrawn[j])}"
                    compared += 1
    assert compared
