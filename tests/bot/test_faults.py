"""Crashes in the middle of a command: the database fails inside the transaction, or the process is killed.

Nothing of Keywood is mocked. A trigger makes the database itself refuse one write ("disk fault") part-way
through a command; a real `keywood play --script` process is killed with SIGKILL while it plays. Everything runs on
SQLite and on PostgreSQL.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.table import Table
from tests.bot.helpers import (
    ANA,
    BEN,
    CLEO,
    PLAYERS,
    ROOT,
    T0,
    Started,
    child_env,
    cmd,
    count,
    dump,
    keywood,
    log_rows,
    script_for,
)
from tests.databases import Database

pytestmark = pytest.mark.databases("sqlite", "postgresql")

# --- the database fails inside the transaction ----------------------------------------------------------------


def add_fault(db: Database, when: str) -> None:
    """Make the database abort every `when` write (e.g. 'BEFORE UPDATE ON snapshots') with 'disk fault'."""
    if db.sqlite:
        db.execute(f"CREATE TRIGGER fault {when} BEGIN SELECT RAISE(ABORT, 'disk fault'); END")
        return
    db.execute("CREATE FUNCTION fault() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk fault'; "
               "END $$", f"CREATE TRIGGER fault {when} FOR EACH ROW EXECUTE FUNCTION fault()")


def drop_fault(db: Database, when: str) -> None:
    """Remove the fault trigger."""
    if db.sqlite:
        db.execute("DROP TRIGGER fault")
        return
    db.execute(f"DROP TRIGGER fault ON {when.split()[-1]}", "DROP FUNCTION fault()")


def fails_cleanly(path: Database, when: str, command: Callable[[], Any]) -> None:
    """Run a command while the database refuses one kind of write: it must fail and leave no trace."""
    before = dump(path)[0]
    add_fault(path, when)
    try:
        try:
            result = command()
        except Exception as exc:  # the store's error reaches the caller
            assert "disk fault" in str(exc), exc
        else:
            assert getattr(result, "ok", True) is False, f"a command whose write failed was accepted: {result}"
    finally:
        drop_fault(path, when)
    assert dump(path)[0] == before, "a failed command left something written"


PLAY_FAULTS = {
    "snapshot update": "BEFORE UPDATE ON snapshots",
    "log append": "BEFORE INSERT ON actions",
    "version bump": "BEFORE UPDATE ON games",
    "prompt insert": "BEFORE INSERT ON prompts",
}


@pytest.mark.parametrize("fault", sorted(PLAY_FAULTS))
def test_a_play_that_fails_in_the_database_leaves_nothing_half_written(started: Started, fault: str) -> None:
    """Ana's play (a log row, a snapshot, a version, two invitations) fails at one write: none of it stays,
    the log still replays to the snapshot, and the same play then goes through."""
    started.play(ANA, "keyper 1")
    started.play(BEN, "keyper 2")
    rows, snapshot = log_rows(started.table, started.game_id), started.state()
    fails_cleanly(started.db, PLAY_FAULTS[fault], lambda: started.table.handle(cmd(CLEO, "play", "play green 1.pig")))
    assert log_rows(started.table, started.game_id) == rows
    assert started.state() == snapshot
    assert started.table.verify(started.game_id)[0] == "same"
    outcome = started.play(CLEO, "play green 1.pig")
    assert len(outcome.opened) == 2
    assert len(log_rows(started.table, started.game_id)) == len(rows) + 1
    assert started.table.verify(started.game_id)[0] == "same"


def test_a_start_that_fails_leaves_the_lobby(table: Table, database: Database) -> None:
    """The first snapshot cannot be written: the game stays a lobby with its seats, then starts."""
    game_id = table.handle(cmd(ANA, "new", "keyper", options={"seed": 7})).game_id
    assert table.handle(cmd(BEN, "join")).ok
    fails_cleanly(database, "BEFORE INSERT ON snapshots", lambda: table.handle(cmd(ANA, "start")))
    assert count(database, f"SELECT count(*) FROM games WHERE id = {game_id} AND status = 'lobby'") == 1
    assert count(database, "SELECT count(*) FROM seats") == 2
    assert table.handle(cmd(ANA, "start")).ok
    assert table.verify(game_id or 0)[0] == "same"


def test_an_early_answer_that_fails_is_not_kept(invited: Started) -> None:
    """Cleo's early yes cannot be stored: it is not kept, and she can give it again."""
    fails_cleanly(invited.db, "BEFORE UPDATE ON prompts",
                  lambda: invited.table.handle(cmd(CLEO, "play", "join white")))
    assert invited.play(CLEO, "join white").reply.startswith("Answer kept")


def test_timeouts_that_fail_are_applied_on_the_next_tick(invited: Started) -> None:
    """due() hits the fault while declining for the silent invitees: nothing changes; the next due() does it all."""
    late = T0 + timedelta(days=1)
    fails_cleanly(invited.db, "BEFORE INSERT ON actions", lambda: invited.table.due(late))
    [outcome] = invited.table.due(late)
    assert "Ben did not answer in time." in outcome.public and "Cleo did not answer in time." in outcome.public
    assert [r[2:4] for r in log_rows(invited.table, invited.game_id)[-2:]] == [("timeout", "decline")] * 2
    assert invited.table.verify(invited.game_id)[0] == "same"


def test_an_undo_that_fails_keeps_the_action(invited: Started) -> None:
    """The undo's flag on the log row cannot be written: the action stands, and undo then works."""
    invited.play(BEN, "decline")
    invited.play(CLEO, "decline")
    invited.play(ANA, "take pig")
    fails_cleanly(invited.db, "BEFORE UPDATE ON actions", lambda: invited.table.handle(cmd(ANA, "undo")))
    assert log_rows(invited.table, invited.game_id)[-1][3:] == ("take pig", False)
    assert invited.table.handle(cmd(ANA, "undo")).ok


# --- the process is killed --------------------------------------------------------------------------------------

SEED = 5
HEADER = re.compile(r"^\[(\d+)\] (\w+): (.*)$")


def play_process(db: Database, script: Path) -> subprocess.Popen[str]:
    """Start `python -m bot.cli play --db DB --seed SEED --script SCRIPT` with its stdout piped to us."""
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "--db", db.url, "--seed", str(SEED), "--script", str(script),
         "--no-images"],
        cwd=ROOT, env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def kill_after(process: subprocess.Popen[str], lines: int) -> list[str]:
    """Read this many lines of the process's output, SIGKILL it, and return all it printed."""
    assert process.stdout is not None
    seen = [process.stdout.readline() for _ in range(lines)]
    assert process.poll() is None and seen[-1], "the game ended before the kill"
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    return [line.rstrip("\n") for line in seen + process.stdout.readlines()]


def check_after_kill(db: Database, printed: list[str], done_before: int) -> int:
    """The log holds every line the killed process reported done, plus at most the one in flight; the stored
    state replays. Returns how many script lines are now in the log."""
    assert not [line for line in printed if line.startswith("!")], "a script line was refused"
    headers = [(i, int(m.group(1))) for i, line in enumerate(printed) if (m := HEADER.match(line))]
    rows = count(db, "SELECT count(*) FROM actions WHERE NOT undone AND author_id != 'auto'")  # the script's own
    if headers:
        position, number = headers[-1]
        in_flight = position == len(printed) - 1  # killed after announcing the line, before reporting on it
        started = done_before + number
        assert rows in ((started - 1, started) if in_flight else (started,)), (rows, started, in_flight)
    else:
        assert rows == done_before
    result = keywood("replay", "1", "--db", db.url)
    assert result.returncode == 0 and "game 1: same" in result.stdout, result.stdout + result.stderr
    return rows


def write_script(path: Path, lines: list[str]) -> Path:
    """A script file of 'SEAT: ACTION' lines."""
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# Lines read before each SIGKILL. On PostgreSQL only the first two kills, and the game is not played to its end:
# finishing it tests the terminal, not the database, and costs half a minute.
KILLS = {"sqlite": (1, 25, 200, 450), "postgresql": (1, 25)}


def test_a_killed_game_resumes_where_it_stopped(database: Database, tmp_path: Path) -> None:
    """SIGKILL at four moments of a scripted game; each time the database replays, holds exactly the lines
    done (give or take the one in flight), and running the rest of the script finishes the game."""
    script = script_for(SEED)
    db = database
    done = 0
    for part, lines in enumerate(KILLS[database.kind]):
        process = play_process(db, write_script(tmp_path / f"part{part}.txt", script[done:]))
        printed = kill_after(process, lines)
        if part == 0:
            assert printed[0] == "New Keyper game for Ana, Ben, Cleo."
        else:
            assert printed[0] == "Resuming the game in progress."
        done = check_after_kill(db, printed, done)
    assert 0 < done < len(script)
    if not database.sqlite:
        return
    rest = write_script(tmp_path / "rest.txt", script[done:])
    finish = keywood("play", "--db", db.url, "--seed", str(SEED), "--script", str(rest), "--no-images")
    assert finish.returncode == 0, finish.stdout[-2000:] + finish.stderr[-2000:]
    assert finish.stdout.startswith("Resuming the game in progress.")
    assert "Final score:" in finish.stdout
    assert count(db, "SELECT count(*) FROM actions WHERE NOT undone AND author_id != 'auto'") == len(script)
    assert count(db, "SELECT count(*) FROM games WHERE status = 'finished'") == 1
    assert "game 1: same" in keywood("replay", "1", "--db", db.url).stdout


def test_a_lobby_left_by_a_killed_start_is_started_on_resume(database: Database, tmp_path: Path) -> None:
    """The terminal game was killed after `new` and `join` but before `start`: the next run starts it."""
    from bot.console import WHERE as TERMINAL
    from bot.store import Store
    from bot.table import Command, Who

    db = database
    store = Store(db.url)
    table = Table(store, images=False)
    names = [p.name for p in PLAYERS]
    assert table.handle(Command(TERMINAL, Who("local-1", names[0]), "new", "keyper", options={"seed": SEED})).ok
    for i, name in enumerate(names[1:], start=2):
        assert table.handle(Command(TERMINAL, Who(f"local-{i}", name), "join")).ok
    store.close()
    script = write_script(tmp_path / "s.txt", script_for(SEED)[:5])
    result = keywood("play", "--db", db.url, "--seed", str(SEED), "--script", str(script), "--no-images")
    assert result.returncode == 0, result.stdout[-1000:]
    assert count(db, "SELECT count(*) FROM actions") == 5
