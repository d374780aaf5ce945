"""Fixtures of the Keyflower tests: the Keyflower game entry whose `/rules` answers test_texts.py and
test_module_texts.py check."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import games
from bot.games import GameEntry, Texts
from engine.keyflower.lookup import describe, names
from engine.keyflower.texts import board, hand

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def keyflower_entry() -> Iterator[GameEntry]:
    """The registered Keyflower game, or, until the lead registers it, a stand-in entry for the documents."""
    if "keyflower" in {entry.id for entry in games.all_games()}:
        yield games.get("keyflower")
        return
    from tests.toygame import GAME as STAND_IN

    entry = games.register(GameEntry(
        id="keyflower", title="Keyflower", engine=STAND_IN,
        texts=Texts(board=board, hand=hand, lookup=describe, names=names),
        rules=REPO / "docs" / "rules" / "keyflower.md", rulings=REPO / "docs" / "rulings.md"))
    yield entry
    games.unregister("keyflower")
