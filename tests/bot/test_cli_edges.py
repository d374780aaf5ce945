"""Issue 41, item 10: the terminal's smaller edges. A database URL whose driver is not installed names the missing
module (and the extra to install) in one line; Ctrl-C quits `keywood play` cleanly, the game saved; the file that
holds the token is ignored by git."""

from __future__ import annotations

import io
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from bot import cli, dburl, export, games
from tests.bot.helpers import ROOT, child_env


def test_a_missing_database_driver_is_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 41 §10: a URL for a driver that is not installed says which module is missing; nothing is made."""
    monkeypatch.chdir(tmp_path)
    code = cli.main(["play", "--db", "postgresql+pg8000://u@localhost/x"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert "the Python module 'pg8000' is not installed" in err
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_quits_the_terminal_game_cleanly_and_keeps_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 41 §10: Ctrl-C at the prompt ends `keywood play` with exit code 130 and one line, no traceback; the
    table it opened is stored, and the next `keywood play` on the database resumes it."""
    db = tmp_path / "k.db"
    process = subprocess.Popen([sys.executable, "-m", "bot.cli", "play", "--db", str(db), "--no-images"], cwd=ROOT,
                               env=child_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    seen = ""
    while "choose a number" not in seen and time.monotonic() < deadline:
        seen += process.stdout.readline()
    assert "choose a number" in seen, seen
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err and "stopped (Ctrl-C); everything accepted so far is saved" in err
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert cli.main(["play", "--db", str(db), "--no-images"]) == 0
    assert "Resuming" in capsys.readouterr().out


def test_the_token_file_is_ignored_by_git() -> None:
    """Issue 41 §10: config.toml (which may hold the bot token) is in .gitignore."""
    ignored = subprocess.run(["git", "check-ignore", "-q", "config.toml"], cwd=ROOT)
    assert ignored.returncode == 0


@pytest.mark.parametrize("game", [entry.id for entry in games.all_games() if entry.id != "tokens"])
def test_demo_takes_every_player_count_its_game_does(game: str) -> None:
    """Issue 41 §10: `keywood demo --players N` plays N from the game's own range (Keyflower 2-6, not 2-4), and
    refuses a count outside it in one line."""
    entry = games.get(game)
    for players in (entry.min_players, entry.max_players):
        out = io.StringIO()
        assert cli.demo(players, 5, out, game=game) == 0
        assert out.getvalue().startswith(f"{entry.title} demo: {', '.join(cli.DEMO_NAMES[:players])}; seed 5.")
    with pytest.raises(cli.Refused, match=f"is for {entry.min_players} to {entry.max_players} players, not "):
        cli.demo(entry.max_players + 1, 5, io.StringIO(), game=game)


def test_a_demo_stored_with_db_is_a_finished_game_that_exports(tmp_path: Path) -> None:
    """Issue 41 §10: `keywood demo --db FILE` stores the very game it showed (same final scores) as a finished
    game, which `keywood export` can write; a FILE that exists is refused before anything is played."""
    db = tmp_path / "demo.db"
    out = io.StringIO()
    assert cli.demo(3, 4, out, game="keyper", db=str(db)) == 0
    shown = out.getvalue().splitlines()
    assert shown[-1] == f"Stored as game 1 in {db}: `keywood export 1 --db {db}` writes its replay."
    store = cli.open_store(cli.database_url({}, str(db)), must_exist=True)
    try:
        with store.transaction() as tx:
            (row,) = tx.games("finished")
            data = tx.snapshot(row.id or 0)
        assert row.seed == 4 and data is not None
        final = games.get("keyper").engine.from_json(data)
        scores = [f"  {line.name}: {line.total}" for line in games.get("keyper").engine.score(final, None).players]
        assert shown[-1 - len(scores):-1] == scores
        with store.transaction() as tx:  # what `keywood export` writes, without drawing every step's image
            replay = export.collect(tx, 1)
        assert "Ana" in export.page(replace(replay, render=None, render_scoreboard=None))
    finally:
        store.close()
    with pytest.raises(cli.Refused, match="exists already"):
        cli.demo(3, 4, io.StringIO(), game="keyper", db=str(db))


def test_each_database_has_its_own_images_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 41 §10: game 1 of a.db and game 1 of b.db write their images to keywood-images/a/ and
    keywood-images/b/, so neither overwrites the other's."""
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "s.txt"
    script.write_text("1: board\n", encoding="utf-8")
    for name, seed in (("a", "3"), ("b", "4")):
        assert cli.main(["play", "--db", f"{name}.db", "--seed", seed, "--script", str(script)]) == 0, (
            capsys.readouterr().err)
    first = {name: sorted(p.name for p in (tmp_path / "keywood-images" / name).iterdir()) for name in "ab"}
    assert first["a"] == first["b"] and "game1-0001.png" in first["a"], first
    assert ((tmp_path / "keywood-images" / "a" / "latest.png").read_bytes()
            != (tmp_path / "keywood-images" / "b" / "latest.png").read_bytes()), "two deals, two pictures"


def test_version_and_a_logged_database_url_hide_nothing_they_should_not(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 41 §3: `keywood --version` says which Keywood is installed; the startup line's database URL never
    shows its password."""
    with pytest.raises(SystemExit) as done:
        cli.main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out == f"keywood {cli.version()}\n"
    assert cli.version()[0].isdigit()
    assert dburl.shown_url("postgresql+psycopg://kw:s3cret@db.example:5432/keywood") == (
        "postgresql+psycopg://kw:***@db.example:5432/keywood")


@pytest.mark.parametrize(("line", "said"), [
    ("3: ²", "'²' is not a Keyper action"),
    ("3: ①", "'①' is not a Keyper action"),
    ("3: " + "9" * 5000, "No choice 999999999999… (5000 digits): the numbers are 1 to "),
    ("3: ٢", "Cleo plays the keyper and claims board 2."),  # an Arabic-Indic two: her second choice
])
def test_numbers_of_any_script_or_width_get_a_reply(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str], line: str, said: str) -> None:
    """Issue 41 §9: a choice typed as a superscript, a circled digit, thousands of digits or another script's digits
    is answered (refused, or taken as the number it is); `keywood play` does not crash."""
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "s.txt"
    script.write_text(line + "\n", encoding="utf-8")
    code = cli.main(["play", "--db", "k.db", "--seed", "3", "--script", str(script), "--no-images"])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    assert said in out.out, out.out[-1500:]
    assert code == (0 if said.startswith("Cleo plays") else 1)
