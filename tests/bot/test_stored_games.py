"""Seeds (issue 39): drawn in secret with 64 bits, kept in the store, never shown; games stored before keep working.

tests/fixtures/keywood-b19d9db.db was written by the code of b19d9db, before seeds were secret: five games in the
middle of play (Keyper; Keythedral with three and four players, both stopped in a purchase window; Keyflower with
Key Celeste and the Keymelequin, and a plain two-player one), with 31-bit seeds 1000-1004 and their start messages
still naming them. It is only ever opened as a copy in tmp_path.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import games
from bot.store import Store
from bot.table import Command, Table, Where, Who, draw_seed, standin_seed
from tests.bot.helpers import ANA, BEN, CLEO, cmd, url
from tests.databases import Database

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "keywood-b19d9db.db"
OLD_GAMES = 5
WATCHER = Who("u-watcher", "Wren")


def test_a_new_seed_has_64_random_bits_and_fits_the_store() -> None:
    """DESIGN.md (Secrets and randomness): a seed is drawn from `secrets` with 64 bits, as the signed 64-bit number the
    store's BIG column holds. 64 draws all differ, stay in range, and some are far beyond 31 bits (each draw is past
    2**62 in size half the time: all 64 below it would happen once in 2**64)."""
    seeds = [draw_seed() for _ in range(64)]
    assert len(set(seeds)) == 64 and all(-(2**63) <= s < 2**63 for s in seeds)
    assert any(abs(s) >= 2**62 for s in seeds) and any(s < 0 for s in seeds) and any(s > 0 for s in seeds)


@pytest.mark.databases("sqlite", "postgresql")
@pytest.mark.parametrize("seed", [-(2**63), 2**63 - 1])
def test_a_drawn_seed_is_stored_exactly_and_never_shown(database: Database, seed: int) -> None:
    """The ends of the 64-bit range: the table stores the drawn seed as it is (SQLite and PostgreSQL), deals from it,
    says only 'The Keyper game starts.', and the log replays from it to the stored state."""
    store = Store(url(database))
    try:
        table = Table(store, images=False, draw_seed=lambda: seed)
        steps = [cmd(ANA, "new", "keyper"), cmd(BEN, "join"), cmd(CLEO, "join"), cmd(ANA, "start")]
        outcomes = [table.handle(step) for step in steps]
        assert all(o.ok for o in outcomes), [o.reply for o in outcomes]
        assert outcomes[-1].public[0] == "The Keyper game starts."
        game_id = outcomes[0].game_id
        assert game_id is not None
        with store.transaction() as tx:
            row = tx.game(game_id)
            assert row is not None and row.seed == seed
        engine, state = games.get("keyper").engine, _state(table, game_id)
        seat = engine.to_act(state)[0]  # the start player comes from the seed (K-17)
        move = engine.format(engine.legal_actions(state, seat)[0])
        assert table.handle(cmd((ANA, BEN, CLEO)[seat], "play", move)).ok
        assert table.verify(game_id)[0] == "same"
        assert all(str(seed) not in line and str(abs(seed)) not in line for o in outcomes for line in o.public)
    finally:
        store.close()


def test_the_standin_draws_from_a_keyed_hash_of_the_seed() -> None:
    """A computer seat's moves are public, so the stand-in's randomness is a BLAKE2b hash keyed with the game's seed
    and the log's length: the same for the same game and moment (its moves do not change on a replay), 64 bits, and
    with nothing that ties it to the seed (no fixed step from one action to the next, nothing shared with a game
    whose seed is one more). Seeds stored before (31 bits, or negative) work alike."""
    seeds = [standin_seed(1003, n) for n in range(100)]
    assert seeds == [standin_seed(1003, n) for n in range(100)]
    assert all(0 <= s < 2**64 for s in seeds) and len(set(seeds)) == 100
    assert len({b - a for a, b in zip(seeds, seeds[1:], strict=False)}) == 99
    assert not set(seeds) & {standin_seed(1004, n) for n in range(100)}
    assert standin_seed(-(2**63), 5) != standin_seed(2**63 - 1, 5)


@pytest.fixture
def old_table(tmp_path: Path) -> Iterator[Table]:
    """A table on a copy of the b19d9db database."""
    copy = tmp_path / "keywood.db"
    shutil.copyfile(FIXTURE, copy)
    store = Store(f"sqlite:///{copy}")
    yield Table(store, images=False)
    store.close()


def _state(table: Table, game_id: int) -> object:
    """A stored game's engine state."""
    with table.store.transaction() as tx:
        row = tx.game(game_id)
        data = tx.snapshot(game_id)
        assert row is not None and data is not None
        return games.get(row.game).engine.from_json(data)


@pytest.mark.parametrize("game_id", range(1, OLD_GAMES + 1))
def test_a_game_stored_before_seeds_were_secret_loads_replays_and_plays_on(old_table: Table, game_id: int) -> None:
    """Issue 39: existing stored games keep working. Each game of the b19d9db database (31-bit seed, stored with the
    code before) loads, its log replays from its seed to the stored state, its board shows no seed, one of its seats
    plays a legal move, and Keywood's stand-in (whose seed is now a keyed hash of the game's) plays the next
    decision; the log then still replays."""
    with old_table.store.transaction() as tx:
        row = tx.game(game_id)
        assert row is not None and row.status == "active" and 1000 <= row.seed < 2**31
        where, seats = Where(row.guild_id, row.channel_id), tx.seats(game_id)
        seed = row.seed
    replayed = old_table.verify(game_id)
    assert replayed[0] == "same", replayed
    board = old_table.handle(Command(where, WATCHER, "board"))
    assert board.ok and str(seed) not in board.reply
    engine = games.get(row.game).engine
    state = engine.from_json(engine.to_json(_state(old_table, game_id)))
    seat = engine.to_act(state)[0]
    who = Who(seats[seat].user_id, seats[seat].name)
    played = old_table.handle(Command(where, who, "play", engine.format(engine.legal_actions(state, seat)[0])))
    assert played.ok, played.reply
    state = _state(old_table, game_id)
    if not engine.is_over(state):
        seat = engine.to_act(state)[0]
        stood_in = old_table.handle(Command(where, Who(seats[seat].user_id, seats[seat].name), "standin"))
        assert stood_in.ok, stood_in.reply
    assert old_table.verify(game_id)[0] == "same"
