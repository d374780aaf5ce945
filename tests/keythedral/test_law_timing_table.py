"""Law cards played out of turn through the table (bot.table.Table.handle on a real SQLite file), as a player sends
them: a holder's "at any time" card is accepted while another player takes their turn, a seat without it is refused
with the reason, and `check` says whether, and else when, the card may be played (rules: Appendix, cards 7, 11 and
13; ruling T-13).

The game is started through the table; the test then stores a phase-3 scene (the small board of
tests/keythedral/scene_laws.py) as the game's state, as a replay or a restart from the store would load it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from bot.table import Command, Outcome, Table, Where, Who
from engine.keythedral import GAME
from engine.keythedral.pieces import Fence
from engine.keythedral.state import KState
from tests.keythedral.scene import deal_law, give
from tests.keythedral.scene_laws import actions_table

WHERE = Where("guild-laws", "channel-laws")
ANA, BEN, CLEO = Who("u-ana", "Ana"), Who("u-ben", "Ben"), Who("u-cleo", "Cleo")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """A Table on a fresh SQLite file, without images."""
    store = Store(f"sqlite:///{tmp_path / 'laws.db'}")
    yield Table(store, images=False)
    store.close()


def send(table: Table, who: Who, verb: str, arg: str = "") -> Outcome:
    """One command at the test table."""
    return table.handle(Command(WHERE, who, verb, arg))


def started(table: Table) -> int:
    """A three-player Keythedral game started through the table; its id."""
    for who, verb, arg in ((ANA, "new", "keythedral"), (BEN, "join", ""), (CLEO, "join", ""), (ANA, "start", "")):
        outcome = send(table, who, verb, arg)
        assert outcome.ok, (verb, outcome.reply)
    with table.store.transaction() as tx:
        row = tx.live_game(WHERE.guild_id, WHERE.channel_id)
        assert row is not None and row.id is not None
        return row.id


def store_state(table: Table, game_id: int, state: KState) -> None:
    """Make a scene the game's stored state."""
    with table.store.transaction() as tx:
        row = tx.game(game_id)
        assert row is not None
        tx.save_state(row, lambda: GAME.to_json_text(state))


def stored(table: Table, game_id: int) -> Any:
    """The game's stored state."""
    with table.store.transaction() as tx:
        data = tx.snapshot(game_id)
        assert data is not None
        return GAME.from_json(data)


def ben_on_turn(table: Table) -> int:
    """Ben's phase-3 turn; Cleo holds Unsafe Fence and Craft Bargain (a used white cube in the store, a black cube
    of hers), Ana holds no card; Ana's fence stands between M12+ and M12."""
    game_id = started(table)
    state = actions_table(start=1)
    state.fences.append(Fence(0, "M12+", "M12"))
    state.fences_built[0] = 1
    deal_law(state, 2, "unsafe-fence")
    deal_law(state, 2, "craft-bargain")
    state.store["white"] = 1
    give(state, 2, black=1)
    give(state, 1, black=2)
    store_state(table, game_id, state)
    return game_id


def test_a_holders_any_time_card_out_of_turn_is_accepted(table: Table) -> None:
    """rules: Appendix, card 11 ("This card can be played at any time"); ruling T-13: Cleo plays Unsafe Fence while
    Ben is on his turn; the table accepts it, tells the channel, and it is still Ben's turn."""
    game_id = ben_on_turn(table)
    outcome = send(table, CLEO, "play", "law unsafe-fence M12+ M12")
    assert outcome.ok, outcome.reply
    assert any("Cleo plays the law card Unsafe Fence" in line for line in outcome.public)
    state = stored(table, game_id)
    assert state.fences == [] and GAME.to_act(state) == [1]
    assert send(table, BEN, "play", "pass").ok


def test_a_seat_without_the_card_is_refused_with_the_reason(table: Table) -> None:
    """ruling T-13: Ana, who holds no law card, sends an out-of-turn card: refused, saying she does not hold it,
    and nothing changes."""
    game_id = ben_on_turn(table)
    before = GAME.to_json(stored(table, game_id))
    outcome = send(table, ANA, "play", "law unsafe-fence M12+ M12")
    assert not outcome.ok
    assert "You do not hold Unsafe Fence" in outcome.reply
    assert GAME.to_json(stored(table, game_id)) == before


def test_check_says_whether_and_when_an_out_of_turn_card_may_be_played(table: Table) -> None:
    """rules: Appendix, card 7 ("Play this card at any time"); ruling T-13: `check` answers yes while Ben decides,
    and, while Ben pays the trader cube by cube, that the card waits for the action to be carried out."""
    game_id = ben_on_turn(table)
    yes = send(table, CLEO, "check", "law craft-bargain black white")
    assert yes.ok and yes.reply.startswith("Yes"), yes.reply
    assert send(table, BEN, "play", "trade").ok
    no = send(table, CLEO, "check", "law craft-bargain black white")
    assert no.reply.startswith("No"), no.reply
    assert "at any time, out of turn too (not while an action is being carried out)" in no.reply
    state = stored(table, game_id)
    assert state.cubes[2]["white"] == 0 and state.pending and state.pending.seat == 1
