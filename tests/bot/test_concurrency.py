"""Twenty threads playing one game at once: every accepted action is applied exactly once, in one order.

Each thread repeatedly reads the stored state, picks a legal action for a seat that must act (or an early
invitation answer) and sends it with the version it saw. Racing commands must be refused as stale, never
applied twice or lost; the log must replay to the stored state.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.store import Store
from bot.table import Outcome, Table
from engine.keyper import GAME
from tests.bot.helpers import (
    PLAYERS,
    Started,
    cmd,
    moves,
    read_state,
    unanswered_joiners,
    url,
)

THREADS = 20
TARGET = 60  # accepted commands per run
TIME_LIMIT = 40.0  # seconds; a safety stop, not the expected duration

REFUSALS = ("The table has moved on", "Not allowed", "already answered", "no open invitation")


def worker(table: Table, game_id: int, seed: int, early: bool, stop: threading.Event,
           sent: list[tuple[int, Outcome]], errors: list[BaseException]) -> None:
    """Read, choose, send, until told to stop; record every (version seen, Outcome)."""
    rng = random.Random(seed)
    try:
        while not stop.is_set():
            state, version = read_state(table, game_id)
            if GAME.is_over(state):
                return
            choices = moves(state, unanswered_joiners(table, game_id) if early else [])
            seat, action = rng.choice(choices)
            outcome = table.handle(cmd(PLAYERS[seat], "play", GAME.format(action), version=version))
            sent.append((version, outcome))
    except BaseException as exc:  # pragma: no cover - reported by the test
        errors.append(exc)
        stop.set()


def race(started: Started, tables: Callable[[int], Table], early: bool) -> list[tuple[int, Outcome]]:
    """Run the threads until TARGET commands were accepted; returns everything they sent."""
    stop = threading.Event()
    sent: list[tuple[int, Outcome]] = []
    errors: list[BaseException] = []
    threads = [threading.Thread(target=worker, args=(tables(i), started.game_id, i, early, stop, sent, errors))
               for i in range(THREADS)]
    begin = time.monotonic()
    for thread in threads:
        thread.start()
    while not stop.is_set() and time.monotonic() - begin < TIME_LIMIT:
        if sum(o.ok for _, o in sent) >= TARGET or not any(t.is_alive() for t in threads):
            break
        time.sleep(0.02)
    stop.set()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    assert sum(o.ok for _, o in sent) >= TARGET, "the threads made too little progress"
    return sent


def check_exactly_once(started: Started, sent: list[tuple[int, Outcome]], early: bool) -> None:
    """Accepted commands and log rows match one to one, in one order, and the log replays to the snapshot."""
    refused = [o.reply for _, o in sent if not o.ok]
    assert all(any(r in reply for r in REFUSALS) for reply in refused), set(refused)
    assert any("The table has moved on" in reply for reply in refused), "the threads never raced"
    accepted = [(seen, o) for seen, o in sent if o.ok]
    kept = [o for _, o in accepted if o.reply.startswith("Answer kept")]
    moved = [(seen, o) for seen, o in accepted if not o.reply.startswith("Answer kept")]
    with started.table.store.transaction() as tx:
        everything = tx.actions(started.game_id, include_undone=True)
    automatic = [r for r in everything if r.author_id == "auto"]  # forced moves the table played itself
    rows = [r for r in everything if r.author_id != "auto"]
    with started.table.store.transaction() as tx:
        game = tx.game(started.game_id)
        assert game is not None
        final = game.version
    assert [r.seq for r in everything] == list(range(1, len(everything) + 1)), "no gap, no duplicate"
    assert all(r.version - 1 in {x.version for x in everything} for r in automatic), "each follows a command's row"
    assert not any(r.undone for r in rows)
    versions = [r.version for r in rows]
    assert versions == sorted(set(versions)), "each row applied to a newer version than the one before"
    seen = [v for v, _ in moved]
    assert len(seen) == len(set(seen)), "two accepted commands applied to the same version"
    assert set(seen) <= set(versions), "every accepted command's row carries the version its sender saw"
    assert {o.version for _, o in moved} <= set(versions[1:]) | {final}
    if early:
        # a kept answer becomes a row later (when released by an earlier decline) or never (invitation closed)
        assert len(moved) <= len(rows) <= len(moved) + len(kept)
    else:
        assert not kept
        assert len(moved) == len(rows), "accepted commands == log rows"
        assert sorted(seen) == versions, "one log row for each accepted command, at the version it was sent for"
    assert started.table.verify(started.game_id)[0] == "same"


@pytest.mark.parametrize("mode, early", [("own store per thread", False), ("one shared table", False),
                                         ("own store per thread", True)])
def test_twenty_threads_on_one_game(started: Started, db_path: Path, mode: str, early: bool) -> None:
    """20 threads send commands for the seats to act (and early invitation answers when early); each accepted
    action is in the log exactly once, in the order it was accepted."""
    stores: list[Store] = []

    def table_for(_: int) -> Table:
        if mode == "one shared table":
            return started.table
        store = Store(url(db_path))
        stores.append(store)
        return Table(store, images=False)

    try:
        sent = race(started, table_for, early)
    finally:
        for store in stores:
            store.close()
    check_exactly_once(started, sent, early)
