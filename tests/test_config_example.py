"""config.example.toml and the settings Keywood reads (bot/configfile.py) agree: the example shows every setting with
its default, and names no other, so a host can find each one and none is a dead letter."""

from __future__ import annotations

import tomllib
from pathlib import Path

from bot import cli, configfile

EXAMPLE = Path(__file__).resolve().parents[1] / "config.example.toml"


def test_the_example_names_every_setting_with_its_default_and_no_other() -> None:
    example = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert sorted(example) == sorted(configfile.BY_NAME), "the example and bot/configfile.py name other settings"
    for setting in configfile.SETTINGS:
        assert example[setting.name] == setting.default, setting.name
    assert not set(example) & set(configfile.OLD_NAMES), "an old name is still read but no longer shown"


def test_the_example_reads_as_no_file_at_all() -> None:
    """Read, the example gives exactly what Keywood assumes without a config.toml: no token, keywood.db."""
    assert configfile.read(str(EXAMPLE)) == {setting.name: setting.default for setting in configfile.SETTINGS}
    example = cli.load_config(str(EXAMPLE))
    assert cli.database_url(example, None) == cli.database_url({}, None) == "sqlite:///keywood.db"
    assert cli.token({**example, "token_env": "KEYWOOD_TEST_UNSET"}) == ""
