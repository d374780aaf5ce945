"""Shared fixtures and helpers for the bot tests: real databases (a SQLite file in a temp dir, or a fresh
PostgreSQL database: tests/databases.py), the real Table and Store.

tests/bot/conftest.py makes these fixtures available. Nothing of Keywood is
mocked: a "game" here is made by sending the same Commands a transport would send. A module marked
`pytest.mark.databases("sqlite", "postgresql")` runs its tests that use `table`, `started` or `database` on both;
`dump`, `count` and `url` take a Database as well as a SQLite file's path.

Seed 7 with Ana, Ben and Cleo (in that seat order) starts with Ana to act; her `play green 1.pig` puts a
keyple into an empty field and invites Ben, then Cleo, both able to join with green or white.
"""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from bot.table import Command, Outcome, Table, Where, Who
from engine.keyper import GAME
from tests.databases import Database, sqlite_dump

ROOT = Path(__file__).resolve().parents[2]
T0 = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
WHERE = Where("guild-1", "channel-1")
ELSEWHERE = Where("guild-1", "channel-2")
ANA = Who("u-ana", "Ana")
BEN = Who("u-ben", "Ben")
CLEO = Who("u-cleo", "Cleo")
DEV = Who("u-dev", "Dev")
PLAYERS = (ANA, BEN, CLEO)
STRANGER = Who("u-zed", "Zed")
ADMIN = Who("u-mod", "Mod", is_admin=True)
SEED = 7


def url(path: Path | str | Database) -> str:
    """The store URL of a database (or of a SQLite file)."""
    return path.url if isinstance(path, Database) else f"sqlite:///{path}"


def cmd(who: Who, verb: str, arg: str = "", *, where: Where = WHERE, at: datetime = T0, **kwargs: Any) -> Command:
    """A Command at the test table, at a fixed moment unless told otherwise."""
    return Command(where, who, verb, arg, at=at, **kwargs)


def start_game(table: Table, players: tuple[Who, ...] = PLAYERS, seed: int = SEED, *, where: Where = WHERE,
               at: datetime = T0, **options: Any) -> Outcome:
    """new (by the first player, with the seed and options), join (the others) and start; returns start's Outcome."""
    steps = [cmd(players[0], "new", "keyper", where=where, at=at, options={"seed": seed, **options})]
    steps += [cmd(p, "join", where=where, at=at) for p in players[1:]]
    steps.append(cmd(players[0], "start", where=where, at=at))
    outcome = Outcome(False)
    for step in steps:
        outcome = table.handle(step)
        assert outcome.ok, (step.verb, outcome.reply)
    return outcome


@dataclass
class Started:
    """A started game: its table, database and id, and who sits where."""

    table: Table
    db: Database
    game_id: int
    players: tuple[Who, ...] = PLAYERS

    @property
    def path(self) -> Path:
        """The SQLite file (a test that reads the file directly runs on SQLite only)."""
        assert self.db.path is not None, "this test reads the SQLite file itself: mark it databases('sqlite')"
        return self.db.path

    def state(self) -> Any:
        """The stored engine state."""
        return read_state(self.table, self.game_id)[0]

    def version(self) -> int:
        """The stored game version."""
        return read_state(self.table, self.game_id)[1]

    def play(self, who: Who, text: str, **kwargs: Any) -> Outcome:
        """Send a play command and insist it was accepted."""
        outcome = self.table.handle(cmd(who, "play", text, **kwargs))
        assert outcome.ok, (who.name, text, outcome.reply)
        return outcome


def read_state(table: Table, game_id: int) -> tuple[Any, int]:
    """(engine state, version) of a game, read in one store transaction."""
    with table.store.transaction() as tx:
        row = tx.game(game_id)
        data = tx.snapshot(game_id)
        assert row is not None and data is not None
        return GAME.from_json(data), row.version


def game_status(table: Table, game_id: int) -> str:
    """A game's status column."""
    with table.store.transaction() as tx:
        row = tx.game(game_id)
        assert row is not None
        return row.status


def log_rows(table: Table, game_id: int, *, include_undone: bool = False) -> list[tuple[int, int, str, str, bool]]:
    """(seq, seat, author, notation, undone) of a game's log."""
    with table.store.transaction() as tx:
        return [(r.seq, r.seat, r.author_id, r.notation, r.undone)
                for r in tx.actions(game_id, include_undone=include_undone)]


def prompts(table: Table, game_id: int) -> list[tuple[int, str, int | None, str, str | None]]:
    """(id, kind, seat, status, answer) of every prompt of a game."""
    with table.store.transaction() as tx:
        rows = tx.execute_raw(f"SELECT id, kind, seat, status, answer FROM prompts WHERE game_id = {int(game_id)} "
                              "ORDER BY id").all()
        return [tuple(r) for r in rows]  # type: ignore[misc]


def dump(path: Path | str | Database) -> tuple[str, bytes]:
    """The whole database as text, and a part that changes on any write (SQLite: the main file's bytes after the WAL
    is checkpointed into it; PostgreSQL: every row's xmin). Uses its own connection, never the store's."""
    return path.dump() if isinstance(path, Database) else sqlite_dump(path)


def count(path: Path | str | Database, sql: str) -> int:
    """One integer from a query on its own connection."""
    if isinstance(path, Database):
        return path.count(sql)
    con = sqlite3.connect(path)
    try:
        return int(con.execute(sql).fetchone()[0])
    finally:
        con.close()


def moves(state: Any, open_joiners: list[int]) -> list[tuple[int, Any]]:
    """Every (seat, action) that could be sent now: the legal actions of the seats to act, and the early
    answers of invitees whose turn to answer has not come (open_joiners: their seats)."""
    found = [(seat, a) for seat in GAME.to_act(state) for a in GAME.legal_actions(state, seat)]
    found += [(seat, a) for seat in open_joiners if seat not in GAME.to_act(state)
              for a in GAME.pending_answers(state, seat)]
    return found


def unanswered_joiners(table: Table, game_id: int) -> list[int]:
    """Seats with an open, unanswered joiner prompt."""
    return [seat for _, kind, seat, status, answer in prompts(table, game_id)
            if kind == "reaction" and status == "open" and answer is None and seat is not None]


def random_step(game: Started, rng: random.Random, *, early_answers: bool = True) -> Outcome:
    """Send one random legal play (or an early joiner answer) and return its accepted Outcome."""
    state = game.state()
    joiners = unanswered_joiners(game.table, game.game_id) if early_answers else []
    seat, action = rng.choice(moves(state, joiners))
    return game.play(game.players[seat], GAME.format(action))


def script_for(seed: int, players: int = 3) -> list[str]:
    """A whole random game as `keywood play --script` lines ('SEAT: NOTATION', seats counted from 1 as the
    terminal counts them), for names Ana, Ben, Cleo, Dev; without the forced moves the table plays itself."""
    from engine.playout import chosen_moves, random_playout

    names = ["Ana", "Ben", "Cleo", "Dev"][:players]
    _, record = random_playout(GAME, names, seed)
    return [f"{seat + 1}: {text}" for seat, text in chosen_moves(GAME, record)]


def keywood(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run `python -m bot.cli ARGS` in the repository and capture its output."""
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=child_env())


def child_env() -> dict[str, str]:
    """The environment for a child Python: this one, with the repository importable."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PYTHONUNBUFFERED"] = "1"
    return env


# fixtures


@pytest.fixture
def db_path(database: Database) -> Path:
    """The test's SQLite file path (created by the first Store); a test using it runs on SQLite only."""
    assert database.path is not None, "db_path is a SQLite file: use `database` in a test that runs on PostgreSQL"
    return database.path


@pytest.fixture
def table(database: Database) -> Iterator[Table]:
    """A Table on its own Store over the test's database (no board images: rendering is not what these tests
    check)."""
    store = Store(database.url)
    yield Table(store, images=False)
    store.close()


@pytest.fixture
def started(table: Table, database: Database) -> Started:
    """Ana, Ben and Cleo in a started game with seed 7; Ana acts first."""
    outcome = start_game(table)
    assert outcome.game_id is not None
    game = Started(table, database, outcome.game_id)
    assert GAME.to_act(game.state()) == [0]
    return game


@pytest.fixture
def invited(started: Started) -> Started:
    """The seed-7 game after Ana's `play green 1.pig`: Ben is asked first, then Cleo."""
    started.play(ANA, "play green 1.pig")
    assert GAME.to_act(started.state()) == [1]
    return started
