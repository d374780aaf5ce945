"""Issue 41, item 10: the terminal's smaller edges. A database URL whose driver is not installed names the missing
module (and the extra to install) in one line; Ctrl-C quits `keywood play` cleanly, the game saved; the file that
holds the token is ignored by git."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot import cli
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


def test_ctrl_c_quits_the_terminal_game_cleanly_and_keeps_it(tmp_path: Path) -> None:
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
    again = subprocess.run([sys.executable, "-m", "bot.cli", "play", "--db", str(db), "--no-images"], cwd=ROOT,
                           env=child_env(), input="quit\n", capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and "Resuming" in again.stdout, again.stdout[-800:]


def test_the_token_file_is_ignored_by_git() -> None:
    """Issue 41 §10: config.toml (which may hold the bot token) is in .gitignore."""
    ignored = subprocess.run(["git", "check-ignore", "-q", "config.toml"], cwd=ROOT)
    assert ignored.returncode == 0
