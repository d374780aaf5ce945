"""What every game's component data shares: the error a bad data folder raises, and the checker's command line."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
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
