"""Recorded playthroughs (tests/contract/playthroughs/*.json), replayed action by action, digests compared."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot import games
from bot.games import GameEntry
from tests.contract import record
from tests.contract.kit import PLAYTHROUGHS, digest, each_game

FILES = sorted(PLAYTHROUGHS.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    """A playthrough file's data."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@each_game()
def test_every_registered_game_has_a_playthrough(entry: GameEntry) -> None:
    """contract (adding a game): each registered game has at least one recorded playthrough file."""
    mine = [p for p in FILES if load(p)["game"] == entry.id]
    assert mine, f"no playthrough for {entry.id}: run `python -m tests.contract.record {entry.id} SEED`"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_playthrough_replays_to_the_same_public_views(path: Path) -> None:
    """contract (recorded playthrough): every recorded action still parses and applies, and the public view after
    each one has the recorded digest; the game ends with the last action."""
    data = load(path)
    assert path.stem.rsplit("-", 1)[0] == data["game"]
    game = games.get(data["game"]).engine
    state = game.setup(data["players"], data["seed"], data["options"])
    assert len(data["actions"]) == len(data["digests"]) > 0
    for step, ((seat, text), expected) in enumerate(zip(data["actions"], data["digests"], strict=True), start=1):
        assert not game.is_over(state), f"the game ended before action {step}"
        game.apply_in_place(state, seat, game.parse(state, seat, text))
        assert digest(game, state) == expected, f"public view differs after action {step} ({seat}: {text})"
    assert game.is_over(state)


def test_record_writes_a_file_the_replay_accepts(tmp_path: Path) -> None:
    """contract (record.py): a recorded file has the documented fields, one digest per action, and a spoilt
    digest is caught by the replay test."""
    out = record.main(["tokens", "5", "--players", "2", "--option", "fast=yes", "--out", str(tmp_path / "t-1.json")])
    data = load(out)
    assert set(data) == {"game", "players", "seed", "options", "actions", "digests"}
    assert data["options"] == {"fast": True} and len(data["players"]) == 2
    assert record.next_path("tokens", tmp_path) == tmp_path / "tokens-1.json"
    spoilt = tmp_path / "tokens-1.json"
    data["digests"][-1] = "0" * 64
    spoilt.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(AssertionError, match="public view differs after action"):
        test_playthrough_replays_to_the_same_public_views(spoilt)
