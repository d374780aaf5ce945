"""What a table keeps in memory: the committed states of the games played most recently, a bounded number of them."""

from __future__ import annotations

import pytest

from bot.table import Table, Where
from bot.table import context as table_module
from engine.keyper import GAME
from tests.bot.helpers import ANA, cmd, read_state, start_game


def test_only_the_games_played_most_recently_are_kept(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for two, the third game played drops the one played least recently; the dropped game still plays,
    its state read from its snapshot, and is kept again."""
    monkeypatch.setattr(table_module, "KEPT_STATES", 2)
    channels = [Where("guild-m", f"channel-{k}") for k in range(3)]
    ids = [start_game(table, where=where).game_id for where in channels]
    assert list(table._states) == ids[1:]
    outcome = table.handle(cmd(ANA, "play", "green 1.pig", where=channels[0]))
    assert outcome.ok, outcome.reply
    assert list(table._states) == [ids[2], ids[0]]
    assert ids[0] is not None
    state, version = read_state(table, ids[0])
    kept = table._states[ids[0]]
    assert kept.version == version and GAME.to_json(kept.state) == GAME.to_json(state)
