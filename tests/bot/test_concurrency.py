"""Twenty threads (and four processes) playing one game at once: every accepted action is applied exactly once, in one
order.

Each thread repeatedly reads the stored state, picks a legal action for a seat that must act (or an early
invitation answer) and sends it with the version it saw. Racing commands must be refused as stale, never
applied twice or lost; the log must replay to the stored state. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

import multiprocessing
import queue as queue_module
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from bot.store import Store
from bot.table import Outcome, Table, Who
from engine.keyper import GAME
from tests.bot.helpers import (
    PLAYERS,
    Started,
    cmd,
    count,
    moves,
    read_state,
    unanswered_joiners,
    url,
)
from tests.databases import Database

THREADS = 20
TARGET = 60  # accepted commands per run (on PostgreSQL half: each comes with some twenty refused ones, slower there)
TIME_LIMIT = 40.0  # seconds; a safety stop, not the expected duration

REFUSALS = ("The table has moved on", "Not allowed", "already answered", "no open invitation")

pytestmark = pytest.mark.databases("sqlite", "postgresql")


def worker(table: Table, game_id: int, seed: int, early: bool, stop: threading.Event,
           sent: list[tuple[int, Outcome]], errors: list[BaseException], think: float = 0.0) -> None:
    """Read, choose, wait up to `think` seconds (as a player looks before answering), send, until told to stop;
    record every (version seen, Outcome)."""
    rng = random.Random(seed)
    try:
        while not stop.is_set():
            state, version = read_state(table, game_id)
            if GAME.is_over(state):
                return
            choices = moves(state, unanswered_joiners(table, game_id) if early else [])
            seat, action = rng.choice(choices)
            if think:
                time.sleep(rng.random() * think)
            outcome = table.handle(cmd(PLAYERS[seat], "play", GAME.format(action), version=version))
            sent.append((version, outcome))
    except BaseException as exc:  # pragma: no cover - reported by the test
        errors.append(exc)
        stop.set()


def race(started: Started, tables: Callable[[int], Table], early: bool,
         target: int = TARGET) -> list[tuple[int, Outcome]]:
    """Run the threads until target commands were accepted; returns everything they sent."""
    stop = threading.Event()
    sent: list[tuple[int, Outcome]] = []
    errors: list[BaseException] = []
    threads = [threading.Thread(target=worker, args=(tables(i), started.game_id, i, early, stop, sent, errors))
               for i in range(THREADS)]
    begin = time.monotonic()
    for thread in threads:
        thread.start()
    while not stop.is_set() and time.monotonic() - begin < TIME_LIMIT:
        if sum(o.ok for _, o in sent) >= target or not any(t.is_alive() for t in threads):
            break
        time.sleep(0.02)
    stop.set()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors
    assert sum(o.ok for _, o in sent) >= target, "the threads made too little progress"
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


@pytest.mark.databases("sqlite")
@pytest.mark.parametrize("mode, early", [("own store per thread", False), ("one shared table", False),
                                         ("own store per thread", True)])
def test_twenty_threads_on_one_game(started: Started, mode: str, early: bool) -> None:
    """20 threads send commands for the seats to act (and early invitation answers when early); each accepted
    action is in the log exactly once, in the order it was accepted."""
    twenty_threads(started, mode, early)


@pytest.mark.databases("postgresql")
def test_twenty_stores_on_one_game(started: Started) -> None:
    """The same on PostgreSQL, in the variant closest to several bot processes (each thread its own store, early
    answers too); the other two variants test the table, not the database, and run on SQLite only."""
    twenty_threads(started, "own store per thread", True, TARGET // 2)


def twenty_threads(started: Started, mode: str, early: bool, target: int = TARGET) -> None:
    """Race the threads (each with its own Store and Table, or all on the started game's) and check the log."""
    stores: list[Store] = []

    def table_for(_: int) -> Table:
        if mode == "one shared table":
            return started.table
        store = Store(url(started.db))
        stores.append(store)
        return Table(store, images=False)

    try:
        sent = race(started, table_for, early, target)
    finally:
        for store in stores:
            store.close()
    check_exactly_once(started, sent, early)


def race_stores(database: Database, racers: int, body: Callable[[Table, int], object]) -> list[object]:
    """Run body(table, i) in `racers` threads at once, each on its own store; what each returned or raised."""
    stores = [Store(database.url) for _ in range(racers)]
    start = threading.Barrier(racers)
    results: list[object] = []

    def run(i: int) -> None:
        table = Table(stores[i], images=False)
        start.wait()
        try:
            results.append(body(table, i))
        except BaseException as exc:  # reported by the caller's assertions
            results.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(racers)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        for store in stores:
            store.close()
    return results


def test_racing_news_in_one_channel_open_one_table(database: Database) -> None:
    """Ten stores (as ten bot processes) send `new` to one empty channel at the same moment: exactly one table opens,
    and every other is told that a game is already open (SQLite's BEGIN IMMEDIATE; PostgreSQL's channel lock)."""
    racers = 10
    outcomes = race_stores(database, racers,
                           lambda table, i: table.handle(cmd(Who(f"u-{i}", f"P{i}"), "new", "keyper")))
    assert len(outcomes) == racers and all(isinstance(o, Outcome) for o in outcomes), outcomes
    opened = [o for o in outcomes if isinstance(o, Outcome) and o.ok]
    assert len(opened) == 1, [o.reply for o in outcomes if isinstance(o, Outcome)]
    assert all("A game is already open in this channel" in o.reply for o in outcomes
               if isinstance(o, Outcome) and not o.ok)
    assert count(database, "SELECT count(*) FROM games") == 1


def test_racing_notes_of_closed_dms_tell_the_user_once(database: Database) -> None:
    """Ten stores find one user's DMs closed at the same moment (and ten admins change one server's settings): the
    user is told once, no write fails, one record each (PostgreSQL: the user's and the server's advisory locks)."""
    racers = 10

    def note_and_settle(table: Table, i: int) -> tuple[bool, bool]:
        told = table.note_dms("u-shy", open_=False)
        changed = table.handle(cmd(Who(f"u-mod{i}", f"Mod{i}", is_admin=True), "settings",
                                   options={"reminder_hours": str(i + 1)})).ok
        return told, changed

    results = race_stores(database, racers, note_and_settle)
    assert all(isinstance(r, tuple) for r in results) and len(results) == racers, results
    assert [r[0] for r in results if isinstance(r, tuple)].count(True) == 1, results
    assert all(r[1] for r in results if isinstance(r, tuple)), "every settings change was accepted"
    assert count(database, "SELECT count(*) FROM recipients") == 1
    assert count(database, "SELECT count(*) FROM guild_settings") == 1


class Posted:
    """A list, as worker() appends to, that sends each item to the test's process instead (an Outcome cut to what
    check_exactly_once reads; an error as its repr, since not every exception pickles)."""

    def __init__(self, queue: Any) -> None:
        self.queue = queue

    def append(self, item: Any) -> None:
        if isinstance(item, BaseException):
            self.queue.put(("error", repr(item)))
            return
        seen, outcome = item
        self.queue.put((seen, Outcome(outcome.ok, outcome.reply, version=outcome.version)))


def process_worker(db_url: str, game_id: int, seed: int, go: Any, stop: Any, queue: Any) -> None:
    """worker() in a process of its own, on its own Store and Table: a bot process racing the others. It says it is
    ready and starts when all are (a process that started first could otherwise play every command before the others
    had loaded), and waits up to 5 ms between reading and sending (else one process could hold SQLite's lock turn
    after turn while the others slept in the driver's busy wait): without either, no command need go stale, and that
    race is what this test is for."""
    store = Store(db_url)
    try:
        table = Table(store, images=False)
        queue.put(("ready", seed))
        if go.wait(60):
            worker(table, game_id, seed, True, stop, Posted(queue), Posted(queue), think=0.005)
    finally:
        store.close()
        queue.put(("done", seed))


@pytest.mark.databases("sqlite", "postgresql")
def test_four_processes_on_one_game(started: Started) -> None:
    """Four OS processes, each with its own store and table (as four bot processes), race commands and early answers
    on one game: each accepted action is in the log exactly once, in order (the version check across processes)."""
    context = multiprocessing.get_context("spawn")
    go, stop, queue = context.Event(), context.Event(), context.Queue()
    racers = [context.Process(target=process_worker, args=(url(started.db), started.game_id, i, go, stop, queue))
              for i in range(4)]
    for racer in racers:
        racer.start()
    sent: list[tuple[int, Outcome]] = []
    errors: list[str] = []
    done = ready = 0
    deadline = time.monotonic() + 120
    while done < len(racers) and time.monotonic() < deadline:
        try:
            first, second = queue.get(timeout=1)
        except queue_module.Empty:
            continue
        if first == "ready":
            ready += 1
            if ready == len(racers):
                go.set()
        elif first == "done":
            done += 1
        elif first == "error":
            errors.append(second)
        else:
            sent.append((first, second))
        if sum(o.ok for _, o in sent) >= TARGET // 2:
            stop.set()
    stop.set()
    for racer in racers:
        racer.join(timeout=60)
    assert not errors, errors
    assert done == len(racers) and all(r.exitcode == 0 for r in racers)
    assert sum(o.ok for _, o in sent) >= TARGET // 2, "the processes made too little progress"
    check_exactly_once(started, sent, True)
