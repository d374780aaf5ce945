"""Computer seats (issue "Keep games moving"): `new ... computers:N` seats N players after the people, and
Keywood's stand-in (engine/standin.py) plays their decisions at once, logged as the stand-in's. Through the real
Table on a real SQLite file; nothing is sent to a computer seat."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from bot import games
from bot.store import Store
from bot.table import COMPUTER, STANDIN_AUTHOR, Table
from tests.bot.helpers import ANA, BEN, cmd, count, keywood, log_rows, url
from tests.bot.test_terminal import write
from tests.quick import QUICK_STANDIN


@pytest.fixture
def quick_table(db_path: Path) -> Table:
    """A Table whose stand-in thinks briefly (tests are about the table, not the stand-in's strength)."""
    return Table(Store(url(db_path)), images=False, standin_budget=QUICK_STANDIN)


LONG = {"keythedral": 40}  # its play-outs are slow: the stand-in's moves are checked over Ana's first 40 moves


@pytest.mark.parametrize("game", [e.id for e in games.all_games() if e.id != "tokens"])
def test_one_person_plays_a_whole_game_against_two_computers(quick_table: Table, db_path: Path, game: str) -> None:
    """Ana alone with computers:2 plays every registered game to its end (Keythedral: its first 40 of her moves);
    the computers' moves are the stand-in's in the log, each announced in the channel, and no message or decision
    ever goes to a computer seat."""
    opened = quick_table.handle(cmd(ANA, "new", game, options={"seed": 5, "computers": 2}))
    assert opened.ok, opened.reply
    started = quick_table.handle(cmd(ANA, "start"))
    assert started.ok, started.reply
    game_id = started.game_id
    assert game_id is not None
    with quick_table.store.transaction() as tx:
        assert [(s.user_id, s.name) for s in tx.seats(game_id)] == [
            (ANA.user_id, "Ana"), (f"{COMPUTER}1", "Computer 1"), (f"{COMPUTER}2", "Computer 2")]
    entry = games.get(game)

    def read() -> object:
        with quick_table.store.transaction() as tx:
            return entry.engine.from_json(tx.snapshot(game_id))

    rng = random.Random(3)
    for _ in range(LONG.get(game, 5000)):
        state = read()
        if entry.engine.is_over(state):
            break
        assert entry.engine.to_act(state) == [0], "the table waits only for Ana"
        legal = [entry.engine.format(a) for a in entry.engine.legal_actions(state, 0)]
        outcome = quick_table.handle(cmd(ANA, "play", rng.choice(legal)))
        assert outcome.ok, outcome.reply
    assert entry.engine.is_over(read()) or game in LONG
    rows = log_rows(quick_table, game_id)
    by_seat = {seat for _, seat, author, _, _ in rows if author == STANDIN_AUTHOR}
    assert by_seat == {1, 2} and all(author != STANDIN_AUTHOR for _, seat, author, _, _ in rows if seat == 0)
    assert count(db_path, f"SELECT COUNT(*) FROM outbox WHERE recipient LIKE '{COMPUTER}%'") == 0
    public = " ".join(json.loads(p)["text"] for (p,) in _rows(db_path, "SELECT payload FROM outbox WHERE "
                                                                       "recipient IS NULL"))
    assert "Keywood's stand-in plays for Computer 1: " in public
    assert count(db_path, f"SELECT COUNT(*) FROM prompts WHERE seat IN (1, 2) AND game_id = {game_id}") == 0


def _rows(db_path: Path, sql: str) -> list[tuple[str]]:
    """Rows of a query on the test database."""
    import sqlite3

    with sqlite3.connect(db_path) as db:
        return list(db.execute(sql))


def test_computers_count_toward_the_table_size(quick_table: Table) -> None:
    """A table of at most 4 with 3 computers has room for one person: a second is refused at start, and with too
    few people and computers together the start says how many there are."""
    quick_table.handle(cmd(ANA, "new", "keyper", options={"seed": 5, "computers": 3}))
    quick_table.handle(cmd(BEN, "join"))
    refused = quick_table.handle(cmd(ANA, "start"))
    assert not refused.ok and refused.reply == "2 seated and 3 computers make more than the table's 4 seats."


def test_keywood_play_with_computers_asks_only_the_person(tmp_path: Path) -> None:
    """`keywood play --names Ana --computer 2`: a three-seat game in which only Ana is asked; the computers' moves
    show as the stand-in's."""
    result = keywood("play", "--db", str(tmp_path / "c.db"), "--game", "keyflower", "--names", "Ana", "--computer",
                     "2", "--seed", "4", "--no-images", "--script", str(write(tmp_path / "s.txt", ["1: pass",
                                                                                                      "1: board"])))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("New Keyflower game for Ana, Computer 1, Computer 2.")
    assert "Keywood's stand-in plays for Computer" in result.stdout
    refused = keywood("play", "--db", str(tmp_path / "d.db"), "--game", "keyper", "--names", "Ana", "Ben",
                      "--computer", "3", "--no-images")
    assert refused.returncode == 2 and "Keyper is for 2 to 4 players; --names gives 2 (Ana, Ben) besides 3 " \
        "computers." in refused.stderr, refused.stderr
