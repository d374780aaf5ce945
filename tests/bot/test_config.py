"""Issue 41, item 2: a configuration with a mistake is refused with exit code 2 and one line that says what to fix,
before anything is opened (no database file appears); an old setting name still works, and a good file is used."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import cli, configfile


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | None, *args: str) -> tuple[int, str]:
    """`keywood --config FILE ARGS` from an empty folder, with FILE holding the text (None: no such file); returns
    the exit code and what was printed to stderr."""
    config = tmp_path / "settings.toml"
    if text is not None:
        config.write_text(text, encoding="utf-8")
    code = cli.main(["--config", str(config), *(args or ("play", "--script", str(tmp_path / "none.txt")))])
    return code, capsys.readouterr().err


@pytest.mark.parametrize(("text", "said"), [
    (None, "no configuration file at "),
    ("databse_url = 'sqlite:///games.db'\n", "unknown setting 'databse_url' (did you mean 'database_url'?)"),
    ("colour = 'green'\n", "unknown setting 'colour' (config.example.toml lists them)"),
    ("tick_seconds = '30'\n", "tick_seconds must be a number, not '30'"),
    ("decision_minutes = 12.5\n", "decision_minutes must be a whole number, not 12.5"),
    ("decision_minutes = true\n", "decision_minutes must be a whole number, not True"),
    ("decision_minutes = 0\n", "decision_minutes must be between 1 and 43200, not 0"),
    ("tick_seconds = inf\n", "tick_seconds must be a number, not inf"),
    ("turn_reminder_hours = 99999999999999999\n", "turn_reminder_hours must be between 1 and 720, not "),
    ("log_level = 'LOUD'\n", "log_level must be one of DEBUG, INFO, WARNING, ERROR, not 'LOUD'"),
    ("dev_guild_ids = 'all'\n", "dev_guild_ids must be a list of ids (numbers), not 'all'"),
    ("token = 5\n", "token must be text in quotes, not 5"),
    ("database_url = 'sqlite:///x.db\n", "is not valid TOML: "),
    ("[discord]\ntoken = 'x'\n", "unknown setting 'discord'"),
])
def test_a_mistake_is_refused_in_one_line_before_anything_opens(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str | None,
        said: str) -> None:
    """Issue 41 §2: exit code 2, one line naming the file and the mistake; keywood.db is not created."""
    monkeypatch.chdir(tmp_path)
    code, err = run(tmp_path, capsys, text)
    assert code == 2
    assert said in err and err.count("\n") == 1, err
    assert str(tmp_path / "settings.toml") in err
    assert not (tmp_path / "keywood.db").exists()


def test_invalid_toml_says_where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 41 §2: the line and column of a TOML mistake are given."""
    monkeypatch.chdir(tmp_path)
    code, err = run(tmp_path, capsys, "token = ''\ntick_seconds = = 3\n")
    assert code == 2 and "line 2, column" in err, err


def test_a_missing_default_file_is_no_mistake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without --config, a folder with no config.toml runs on the defaults."""
    monkeypatch.chdir(tmp_path)
    assert configfile.read(None) == {setting.name: setting.default for setting in configfile.SETTINGS}


def test_good_settings_and_an_old_name_are_read(tmp_path: Path) -> None:
    """Values of the right kind are used (ids written as text too); the old joiner_deadline_minutes still sets
    decision_minutes, unless the new name is there as well."""
    path = tmp_path / "c.toml"
    path.write_text("joiner_deadline_minutes = 90\ntick_seconds = 5\ndev_guild_ids = [12, '34']\nlog_level = 'debug'\n",
                    encoding="utf-8")
    found = configfile.read(str(path))
    assert found["decision_minutes"] == 90 and found["tick_seconds"] == 5.0
    assert found["dev_guild_ids"] == [12, 34] and found["log_level"] == "DEBUG"
    path.write_text("joiner_deadline_minutes = 90\ndecision_minutes = 30\n", encoding="utf-8")
    assert configfile.read(str(path))["decision_minutes"] == 30
