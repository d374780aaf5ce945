"""What every game's component data shares: the error a bad data folder raises, and the checker's command line."""

from __future__ import annotations

import argparse
import sys
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any


class ComponentError(ValueError):
    """A data folder that breaks the schema or a known constraint; .problems lists every problem."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


def check_main(argv: Sequence[str] | None, *, prog: str, description: str, default: Path,
               load: Callable[[Path], Any], summary: Callable[[Any], str], ok: str = "ok") -> int:
    """Load a data folder named on the command line (default: the packaged one) and report; returns the exit status
    (0 sound, 1 problems: one per line, their count on stderr); raises SystemExit on bad arguments."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("path", nargs="?", type=Path, default=default, help="data folder (default: the packaged one)")
    args = parser.parse_args(argv)
    try:
        components = load(args.path)
    except ComponentError as exc:
        for problem in exc.problems:
            print(problem)
        count = len(exc.problems)
        print(f"{count} problem{'s' if count != 1 else ''} in {args.path}", file=sys.stderr)
        return 1
    print(f"{ok}: {summary(components)}")
    return 0


class TomlEntry:
    """Typed access to one TOML table of a data file; every problem is noted under the entry's name, none raised.

    Each game's loader subclasses it for its own kinds of values (counts, provenance rules)."""

    def __init__(self, where: str, table: object, problems: list[str]) -> None:
        self.where = where
        self.problems = problems
        self.start = len(problems)
        self.table: dict[str, Any] = table if isinstance(table, dict) else {}
        if not isinstance(table, dict):
            self.note(f"must be a table, not {table!r}")

    @property
    def ok(self) -> bool:
        """True when nothing was wrong with this entry so far."""
        return len(self.problems) == self.start

    def note(self, message: str) -> None:
        """Record a problem with this entry."""
        self.problems.append(f"{self.where}: {message}")

    def only(self, *keys: str) -> None:
        """Report keys the schema does not know (usually typos)."""
        for key in self.table:
            if key not in keys:
                self.note(f"unknown key {key!r} (expected one of {', '.join(keys)})")

    def get(self, key: str, check: Callable[[object], bool], what: str, default: Any, optional: bool = False) -> Any:
        """The value under key, or default after noting it missing (unless optional) or of the wrong type."""
        if key not in self.table:
            if not optional:
                self.note(f"missing {key!r}")
            return default
        value = self.table[key]
        if not check(value):
            self.note(f"{key!r} must be {what}, not {value!r}")
            return default
        return value

    def text(self, key: str) -> str:
        """A required string ("" when missing or wrong)."""
        return str(self.get(key, lambda v: isinstance(v, str), "a string", ""))

    def integer(self, key: str) -> int:
        """A required integer, booleans refused (0 when missing or wrong)."""
        return int(self.get(key, is_int, "an integer", 0))


def is_int(value: object) -> bool:
    """True for an integer that is not a boolean."""
    return isinstance(value, int) and not isinstance(value, bool)


def data_folder(path: Path, first_file: str) -> Path:
    """The folder holding a game's data files: path itself, its data/ subfolder, or a data file's folder."""
    if path.is_file():
        return path.parent
    if path.is_dir() and not (path / first_file).exists() and (path / "data" / first_file).exists():
        return path / "data"
    return path


def read_toml_files(folder: Path, names: Sequence[str]) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Parse NAME.toml for each name; returns the documents and the problems (missing folder or file, bad TOML)."""
    docs: dict[str, dict[str, Any]] = {}
    if not folder.is_dir():
        return docs, [f"{folder}: not a folder"]
    problems: list[str] = []
    for name in names:
        try:
            docs[name] = tomllib.loads((folder / f"{name}.toml").read_text(encoding="utf-8"))
        except FileNotFoundError:
            problems.append(f"{name}.toml: missing from {folder}")
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            problems.append(f"{name}.toml: not valid TOML ({exc})")
    return docs, problems


def duplicates(what: str, ids: Iterable[str]) -> list[str]:
    """One sentence per id used more than once."""
    return [f"{what}: the id {i!r} is used {n} times; ids must be unique." for i, n in Counter(ids).items() if n > 1]


def exact_counts(where: str, found: Mapping[Any, int], expected: Mapping[Any, int], source: str) -> list[str]:
    """One sentence per name missing, unknown or with the wrong count."""
    out = [f"{where}: {k!r} is unknown (expected {', '.join(map(str, expected))})." for k in found if k not in expected]
    for k, n in expected.items():
        if k not in found:
            out.append(f"{where}: {k} is missing; the game has {n} ({source}).")
        elif found[k] != n:
            out.append(f"{where}: {k} is {found[k]}; the game has {n} ({source}).")
    return out
