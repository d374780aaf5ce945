"""A whole game of every registered game through bot.table.Table.handle, on a real SQLite file."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.games import GameEntry
from bot.store import Store
from bot.table import Command, Outcome, Table, Where, Who
from tests.contract.kit import NAMES, each_game

WHERE = Where("guild-contract", "channel-contract")
SEED = 13  # both games' tables see answers given ahead with this seed
MAX_COMMANDS = 5_000
EARLY = 0.7  # how often an answer ahead is sent when one may be


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """A Table on a fresh SQLite file, without images."""
    store = Store(f"sqlite:///{tmp_path / 'contract.db'}")
    yield Table(store, images=False)
    store.close()


def send(table: Table, who: Who, verb: str, arg: str = "", **options: Any) -> Outcome:
    """Send a command at the test table and insist it was accepted."""
    outcome = table.handle(Command(WHERE, who, verb, arg, options=options))
    assert outcome.ok, (who.name, verb, arg, outcome.reply)
    return outcome


def stored(table: Table, entry: GameEntry) -> tuple[int, str, Any, dict[int, str | None]]:
    """(game id, status, engine state, {seat: kept answer} of the open prompts) read from the store."""
    with table.store.transaction() as tx:
        row = tx.live_game(WHERE.guild_id, WHERE.channel_id) or tx.latest_game(WHERE.guild_id, WHERE.channel_id,
                                                                              "finished")
        assert row is not None and row.id is not None
        data = tx.snapshot(row.id)
        assert data is not None
        prompts = {p.seat: p.answer for p in tx.open_prompts(row.id) if p.seat is not None}
        return row.id, row.status, entry.engine.from_json(data), prompts


def due_moves(game: Any, state: Any) -> tuple[list[tuple[int, Any, bool]], list[float] | None]:
    """Every (seat, action, True) the seats to act may play, and the game's play-out weights (None: uniform)."""
    moves: list[tuple[int, Any, bool]] = []
    weights: list[float] | None = []
    for seat in game.to_act(state):
        legal = game.legal_actions(state, seat)
        moves += [(seat, a, True) for a in legal]
        found = game.playout_weights(state, seat, legal)
        weights = None if found is None or weights is None else weights + found
    return moves, weights


@each_game()
def test_a_whole_game_through_the_table(entry: GameEntry, table: Table) -> None:
    """contract (table): new/join/start, then random legal plays by the seats that must act (and answers given
    ahead, when possible, by seats whose decision is not yet due; weighted as the game's play-outs are) until the
    game is finished; no private event text is posted in public; the log replays to the stored state (verify:
    same); the last message is the final score."""
    game = entry.engine
    count = min(3, entry.max_players)
    players = [Who(f"u-{k}", NAMES[k]) for k in range(count)]
    send(table, players[0], "new", entry.id, seed=SEED)
    for who in players[1:]:
        send(table, who, "join")
    outcome = send(table, players[0], "start")
    rng = random.Random(SEED)
    early = offered = 0
    for _ in range(MAX_COMMANDS):
        game_id, status, state, prompts = stored(table, entry)
        if status == "finished":
            break
        assert status == "active" and not game.is_over(state)
        moves, weights = due_moves(game, state)
        ahead = [(d.seat, a, False) for d in game.decisions(state) if not d.must and prompts.get(d.seat, "") is None
                 for a in game.pending_answers(state, d.seat)]
        assert moves, f"nobody can act: {game.waiting_for(state)}"
        offered += bool(ahead)
        early_now = ahead and rng.random() < EARLY
        if early_now or weights is None:
            seat, action, due = rng.choice(ahead if early_now else moves)
        else:
            seat, action, due = rng.choices(moves, weights)[0]
        private = [e.text for e in game.apply(state, seat, action)[1] if not e.public] if due else []
        outcome = send(table, players[seat], "play", game.format(action))
        early += not due
        assert not set(private) & set(outcome.public), "a private event was posted in public"
    else:
        pytest.fail(f"the game did not finish within {MAX_COMMANDS} commands")
    assert game.is_over(state)
    assert table.verify(game_id)[0] == "same"
    assert "Final score" in "\n".join(outcome.public)
    assert early or not offered, "answers ahead were possible but none was sent"


@each_game()
def test_what_a_table_keeps_in_memory_never_changes_a_command(entry: GameEntry, tmp_path: Path) -> None:
    """A table keeps each committed state with what it worked out from it (decisions, legal actions, the trial moves
    behind the repeat buttons) and applies the next action from there. The same 150 commands sent to a table that
    keeps one and to a new table for every command (which reads the state from the store each time) get the same
    replies, public lines, buttons and stored state."""
    game = entry.engine
    stores = [Store(f"sqlite:///{tmp_path / f'{k}.db'}") for k in range(2)]
    keeping = Table(stores[0], images=False)
    players = [Who(f"u-{k}", NAMES[k]) for k in range(min(3, entry.max_players))]
    rng = random.Random(SEED)

    def both(who: Who, verb: str, arg: str = "", **options: Any) -> Outcome:
        first = send(keeping, who, verb, arg, **options)
        second = send(Table(stores[1], images=False), who, verb, arg, **options)
        assert (first.reply, first.public, first.choices) == (second.reply, second.public, second.choices)
        return first

    both(players[0], "new", entry.id, seed=SEED)
    for who in players[1:]:
        both(who, "join")
    outcome = both(players[0], "start")
    for _ in range(150):
        _, status, state, _ = stored(keeping, entry)
        if status == "finished":
            break
        buttons = [(players[0 if not outcome.choices else next(
            k for k, p in enumerate(players) if p.user_id in outcome.choices)], text)
                   for texts in outcome.choices.values() for text in texts]
        moves = buttons or [(players[seat], game.format(a)) for seat, a, _ in due_moves(game, state)[0]]
        who, text = rng.choice(moves)
        outcome = both(who, "play", text)
    assert stored(keeping, entry)[1:3] == stored(Table(stores[1], images=False), entry)[1:3]
    for store in stores:
        store.close()
