"""config.toml: every setting Keywood reads, with its kind, default and range, and the reading that refuses a mistake
(a missing file that was named, invalid TOML, an unknown key, a wrong kind, a value out of range) in one line,
before anything is opened. config.example.toml shows each setting with its default (tests/test_config_example.py)."""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_FILE = "config.toml"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")


class ConfigError(Exception):
    """A configuration Keywood will not run with; the message is one line that says what to fix."""


@dataclass(frozen=True)
class Setting:
    """One key of config.toml: its kind (text, a whole number, a number, a list of ids), default and limits."""

    name: str
    kind: type
    default: Any
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    def check(self, value: Any) -> Any:
        """The value as Keywood uses it; raises ConfigError saying what is wrong with it."""
        if self.kind is list:
            if not isinstance(value, list) or not all(_whole(v) or _digits(v) for v in value):
                raise ConfigError(f"{self.name} must be a list of ids (numbers), not {value!r}")
            return [int(v) for v in value]
        if self.kind is str:
            if not isinstance(value, str):
                raise ConfigError(f"{self.name} must be text in quotes, not {value!r}")
            if self.choices and value.upper() not in self.choices:
                raise ConfigError(f"{self.name} must be one of {', '.join(self.choices)}, not {value!r}")
            return value.upper() if self.choices else value
        number = _whole(value) if self.kind is int else _whole(value) or _real(value)
        if not number:
            what = "a whole number" if self.kind is int else "a number"
            raise ConfigError(f"{self.name} must be {what}, not {value!r}")
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise ConfigError(f"{self.name} must be between {self.low:g} and {self.high:g}, not {value}")
        return self.kind(value)


SETTINGS = (
    Setting("token", str, ""),
    Setting("token_env", str, "KEYWOOD_TOKEN"),
    Setting("database_url", str, "sqlite:///keywood.db"),
    Setting("dev_guild_ids", list, []),
    Setting("decision_minutes", int, 720, 1, 30 * 24 * 60),
    Setting("turn_reminder_hours", int, 24, 1, 30 * 24),
    Setting("tick_seconds", float, 30, 0.05, 3600),
    Setting("shards", str, ""),
    Setting("shard_count", int, 0, 0, 1_000_000),
    Setting("lease_seconds", float, 90, 1, 86_400),
    Setting("send_seconds", float, 2, 0.05, 3600),
    Setting("log_level", str, "INFO", choices=LOG_LEVELS),
)
BY_NAME = {setting.name: setting for setting in SETTINGS}
OLD_NAMES = {"joiner_deadline_minutes": "decision_minutes"}  # still read, no longer shown: old name -> new


def read(path: str | None) -> dict[str, Any]:
    """Every setting's value: the file's, else its default. path None: config.toml if there is one; a path given
    must exist. Raises ConfigError (one line) for a missing named file, invalid TOML, an unknown key, a wrong kind
    or a value out of range."""
    file = Path(path or DEFAULT_FILE)
    if not file.is_file():
        if path is None and not file.exists():
            return {setting.name: setting.default for setting in SETTINGS}
        raise ConfigError(f"no configuration file at {file}" + (" (it is a folder)" if file.is_dir() else ""))
    try:
        found = tomllib.loads(file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{file} is not valid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {file}: {exc}") from None
    return values(found, str(file))


def values(found: dict[str, Any], source: str = DEFAULT_FILE) -> dict[str, Any]:
    """Every setting's value from a parsed file's keys, defaults for the rest; raises ConfigError as read does."""
    chosen = {setting.name: setting.default for setting in SETTINGS}
    for key, value in found.items():
        name = OLD_NAMES.get(key, key)
        if name not in BY_NAME:
            raise ConfigError(f"{source}: unknown setting '{key}'{_nearest(key)}")
        if name != key and name in found:
            continue  # the new name wins
        try:
            chosen[name] = BY_NAME[name].check(value)
        except ConfigError as exc:
            raise ConfigError(f"{source}: {exc}") from None
    return chosen


def _nearest(key: str) -> str:
    """' (did you mean X?)' for the known setting nearest a misspelt key, or nothing when none is near."""
    near = difflib.get_close_matches(key, [*BY_NAME, *OLD_NAMES], n=1, cutoff=0.6)
    return f" (did you mean '{OLD_NAMES.get(near[0], near[0])}'?)" if near else " (config.example.toml lists them)"


def _whole(value: Any) -> bool:
    """Whether a TOML value is a whole number (TOML's booleans are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _real(value: Any) -> bool:
    """Whether a TOML value is a finite floating-point number."""
    return isinstance(value, float) and value == value and abs(value) != float("inf")


def _digits(value: Any) -> bool:
    """Whether a value is an id written as text ("1234")."""
    return isinstance(value, str) and value.isascii() and value.isdigit()
