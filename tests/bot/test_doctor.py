"""Issue 41, item 2: `keywood doctor` checks a configuration end to end without starting the bot, and says what to
fix: the file, the token's form, the database driver, the database's folder and its schema revision. It changes
nothing (a database it reads is left as it was)."""

from __future__ import annotations

import io
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot import cli, migrate
from bot.doctor import checks
from bot.store import Store

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "keywood-b19d9db.db"
TOKEN = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GhIjKl.abcdefghijklmnopqrstuvwxyz0123456789AB"  # a token's form, no real token


def config(tmp_path: Path, **settings: str) -> str:
    """A config file with these settings (TOML strings); returns its path."""
    path = tmp_path / "config.toml"
    path.write_text("".join(f'{key} = "{value}"\n' for key, value in settings.items()), encoding="utf-8")
    return str(path)


def test_a_good_configuration_passes_every_check_and_changes_nothing(tmp_path: Path) -> None:
    """A token of the right form and an up-to-date database: every check is fine, exit code 0, the file as before."""
    db = tmp_path / "keywood.db"
    shutil.copyfile(FIXTURE, db)
    Store(f"sqlite:///{db}").close()  # brought up to the newest revision, as the first start would
    before = db.read_bytes()
    out = io.StringIO()
    assert cli.doctor(config(tmp_path, token=TOKEN, database_url=f"sqlite:///{db}"), out) == 0
    lines = out.getvalue().splitlines()
    assert all(line.startswith("ok ") for line in lines[:-1]) and lines[-1] == "Everything Keywood needs is in place."
    assert f"schema {migrate.HEAD} (up to date)" in out.getvalue()
    assert db.read_bytes() == before


@pytest.mark.parametrize(("settings", "said"), [
    ({"token": "abc"}, "does not look like a bot token"),
    ({"token": TOKEN, "database_url": "sqlite:////no/such/folder/k.db"}, "/no/such/folder is not a folder Keywood"),
    ({"token": TOKEN, "database_url": "postgresql+pg8000://u@localhost/k"}, "needs the Python module 'pg8000'"),
    ({"databse_url": "x"}, "unknown setting 'databse_url' (did you mean 'database_url'?)"),
    ({"token": TOKEN, "database_url": "postgresql+psycopg://kw:pw@127.0.0.1:9/k"}, "database: cannot open "
                                                                                  "postgresql+psycopg://kw:***@"),
])
def test_each_problem_is_named_with_what_to_fix(tmp_path: Path, settings: dict[str, str], said: str) -> None:
    """A token of the wrong form, a folder Keywood cannot write, a database it cannot open, a misspelt setting."""
    found = checks(config(tmp_path, **settings), environ={})
    bad = [check for check in found if not check.ok]
    assert bad and any(said in check.found for check in bad), [c.line() for c in found]
    assert all(check.fix for check in bad)


def test_no_token_and_a_schema_from_a_newer_keywood_are_named(tmp_path: Path) -> None:
    """Without a token anywhere, doctor says keywood run needs one; a database a newer Keywood upgraded is named
    as such (this one will not open it)."""
    db = tmp_path / "newer.db"
    shutil.copyfile(FIXTURE, db)
    with sqlite3.connect(db) as raw:
        raw.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    found = checks(config(tmp_path, database_url=f"sqlite:///{db}"), environ={})
    bad = {check.found.split(":")[0]: check for check in found if not check.ok}
    assert set(bad) == {"token", "database"}
    assert "keywood run needs one" in bad["token"].fix
    assert "newer than this Keywood" in bad["database"].found
