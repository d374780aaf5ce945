"""Shared helpers of the contract test kit: the registered games, their play-out set-ups and sampled states.

Nothing here names a game: every registered game (bot.games.all_games()) gets the same treatment.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.games import GameEntry
from engine.core import Game, Scoreboard, json_text
from engine.playout import random_playout

PLAYTHROUGHS = Path(__file__).resolve().parent / "playthroughs"
NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")
DENSE = 400  # every step of a play-out is checked up to here; after it, every SPARSE-th (long games stay quick)
SPARSE = 20


def entries() -> list[GameEntry]:
    """Every registered game, the default first."""
    return games.all_games()


def each_game() -> pytest.MarkDecorator:
    """Parametrise a test over the registered games (argument `entry`, ids = game ids)."""
    found = entries()
    return pytest.mark.parametrize("entry", found, ids=[e.id for e in found])


@dataclass(frozen=True)
class Setup:
    """One play-out to run: players, seed and the engine options."""

    players: tuple[str, ...]
    seed: int
    options: dict[str, Any]

    def __str__(self) -> str:
        return f"{len(self.players)} players, seed {self.seed}, options {self.options}"


def setups(entry: GameEntry, count: int, first_seed: int = 101) -> list[Setup]:
    """count play-outs cycling over the game's player counts, each count twice in a row: the second time every
    yes/no option is on and each option with choices takes a choice other than its default (the first the engine
    takes at that player count)."""
    counts = list(range(entry.min_players, entry.max_players + 1))
    found = []
    for k in range(count):
        players = NAMES[:counts[k // 2 % len(counts)]]
        options = {o.name: k % 2 == 1 if o.type is bool else o.default for o in entry.options}
        if k % 2:
            options |= _choices_taken(entry, players, options, k)
        found.append(Setup(players, first_seed + k, options))
    return found


def _choices_taken(entry: GameEntry, players: tuple[str, ...], options: dict[str, Any], k: int) -> dict[str, Any]:
    """For each option with choices, a non-default choice the engine accepts with these players, cycling with k."""
    chosen: dict[str, Any] = {}
    for option in (o for o in entry.options if o.choices):
        others = [c for c in option.choices if c != option.default]
        for step in range(len(others)):
            choice = others[(k // 2 + step) % len(others)]
            try:
                entry.engine.setup(list(players), 0, options | chosen | {option.name: choice})
            except ValueError:
                continue
            chosen[option.name] = choice
            break
    return chosen


def secret_open(game: Game[Any, Any], state: Any) -> bool:
    """Whether some open decision's choices are secret (a hidden choice is being made)."""
    return any(d.is_secret for d in game.decisions(state))


def copy_state(game: Game[Any, Any], state: Any) -> Any:
    """An independent copy of a state, through its JSON form."""
    return game.from_json(json.loads(json.dumps(game.to_json(state))))


def digest(game: Game[Any, Any], state: Any) -> str:
    """sha256 of the public view as sorted JSON: what a recorded playthrough compares after each action."""
    text = json.dumps(game.view(state, None), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def checked(step: int) -> bool:
    """Whether the per-step checks run at a play-out's step (counted from 1): each of the first DENSE, then every
    SPARSE-th."""
    return step <= DENSE or step % SPARSE == 0


def round_trip(game: Game[Any, Any], state: Any) -> Any:
    """JSON round-trip: to_json is JSON-ready and from_json(to_json(s)) serialises the same, and to_json_text (what a
    snapshot stores) is to_json's data as text, keys in their order; returns the data."""
    data = json.loads(json.dumps(game.to_json(state)))
    assert game.to_json_text(state) == json_text(game.to_json(state))
    assert game.to_json(game.from_json(data)) == data, "the state does not survive a JSON round-trip"
    return data


def assert_over(game: Game[Any, Any], state: Any) -> None:
    """The game has ended: nobody to decide or to act, and the public score is final."""
    assert game.is_over(state)
    assert game.decisions(state) == [] and game.to_act(state) == []
    assert game.score(state, None).final


def assert_scoreboard(board: Scoreboard, players: Sequence[str]) -> None:
    """A valid final scoreboard: final, every seat once under its player's name, ranked best first by total."""
    assert board.final, "the score at the end is not final"
    assert sorted(p.seat for p in board.players) == list(range(len(players))), "a seat is missing or repeated"
    assert all(p.name == players[p.seat] for p in board.players), "a seat's score carries another name"
    totals = [p.total for p in board.players]
    assert totals == sorted(totals, reverse=True), f"the scoreboard is not ranked best first: {totals}"


Describer = Callable[[Any, int, Any, Any], str | None]


def explained_verbs(game: Game[Any, Any], describe: Describer, tables: Sequence[tuple[list[str], dict[str, Any]]],
                    spread: int = 6) -> set[str]:
    """Play one random game per table (players, options; seeds 1, 2, ...); at every step, a spread of each acting
    seat's legal actions and the first of each verb are applied, and judge's first outcome line must be the game's
    own describer's words for it. Returns the verbs met."""
    seen: set[str] = set()

    def each(state: Any, seat: int, action: Any) -> None:
        for s in game.to_act(state):
            options = game.legal_actions(state, s)
            firsts = {a.verb: a for a in reversed(options)}
            for a in {*options[::max(1, len(options) // spread)], *firsts.values()}:
                after, events = game.apply(state, s, a)
                assert game.judge(state, s, a, after, events).outcome[0] == describe(state, s, a, after)
                seen.add(a.verb)

    for seed, (players, options) in enumerate(tables, start=1):
        random_playout(game, players, seed, options=options, on_step=each)
    return seen
