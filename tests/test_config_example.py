"""config.example.toml and the code agree: every setting bot/cli.py reads is in the example (so a host can find it),
and every setting in the example is read (so none is a dead letter). The keys read are found in cli.py's source."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

from bot import cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "config.example.toml"
CLI = ROOT / "bot" / "cli.py"
OLD_NAMES = {"joiner_deadline_minutes": "decision_minutes"}  # still read, no longer advertised: old name -> new
NO_DEFAULT = object()


def reads(source: str) -> dict[str, object]:
    """The literal keys of every `config.get("key", default)` and `config["key"]` in the source, each with its
    default when that is a literal (NO_DEFAULT otherwise)."""
    found: dict[str, object] = {}
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "config" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            try:
                default = ast.literal_eval(node.args[1]) if len(node.args) > 1 else NO_DEFAULT
            except ValueError:
                default = NO_DEFAULT
            found[node.args[0].value] = default
        elif (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "config"
              and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
            found.setdefault(node.slice.value, NO_DEFAULT)
    return found


def keys_read(source: str) -> set[str]:
    """The keys the source reads from config."""
    return set(reads(source))


def test_the_example_names_every_setting_the_code_reads_and_no_other() -> None:
    read = keys_read(CLI.read_text(encoding="utf-8"))
    example = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert read >= {"token", "token_env", "database_url", "dev_guild_ids", "decision_minutes", "turn_reminder_hours",
                    "tick_seconds", "log_level"}, read  # the reading is found at all
    assert sorted(read - set(example) - set(OLD_NAMES)) == [], "read by bot/cli.py but missing from the example"
    assert sorted(set(example) - read) == [], "in the example but read by nothing"
    for old, new in OLD_NAMES.items():
        assert old in read and new in example and old not in example


def test_the_example_shows_what_the_code_assumes_when_a_setting_is_left_out() -> None:
    example = cli.load_config(str(EXAMPLE))
    defaults = {k: v for k, v in reads(CLI.read_text(encoding="utf-8")).items() if v is not NO_DEFAULT}
    assert {"tick_seconds", "turn_reminder_hours", "log_level", "dev_guild_ids", "token_env"} <= set(defaults)
    for key, default in defaults.items():
        if key in example:
            assert example[key] == default, key
    assert cli.database_url(example, None) == cli.database_url({}, None)
    assert example["decision_minutes"] == reads(CLI.read_text(encoding="utf-8"))["joiner_deadline_minutes"]
    assert cli.token(example) == ""  # no token in the example: it comes from the environment


def test_keys_are_found_in_both_forms() -> None:
    source = ('def f(config):\n'
              '    return config.get("a", 1), config["b"], other.get("c"), config.get(name), config.get("d", x)\n')
    assert reads(source) == {"a": 1, "b": NO_DEFAULT, "d": NO_DEFAULT}
