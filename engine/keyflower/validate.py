"""Check a Keyflower data folder: python -m engine.keyflower.validate [PATH].

PATH is a folder holding tiles.toml, boats.toml, turn_order.toml and game.toml (for instance a copy of
engine/keyflower/data/ with the real tiles typed in); without it the packaged data is checked. Prints
"OK: ..." and exits 0, or prints one problem per line and exits 1. Edit, run, fix, repeat.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence

from engine.datacheck import check_main
from engine.keyflower.components import DATA_DIR, Components, load


def summary(c: Components) -> str:
    """Return a one-line count of what a data folder holds; raises nothing."""
    kinds = Counter(t.kind for t in c.tiles)
    provenances = [t.provenance for t in c.tiles] + [b.provenance for b in c.boats]
    reconstructed = (provenances + [t.provenance for t in c.turn_order]).count("reconstructed")
    return (
        f"{kinds['home']} home, {kinds['spring']} spring, {kinds['summer']} summer "
        f"(+ {kinds['summerboat']} summer boat faces), {kinds['autumn']} autumn and {kinds['winter']} winter tiles, "
        f"{len(c.boats)} boats, {len({t.number for t in c.turn_order})} turn-order tiles "
        f"({len(c.turn_order)} faces), {sum(c.bag.values())} keyples in the bag and {c.greens} green, "
        f"{sum(c.skills.values())} skills, {sum(c.resources.values())} resources; {reconstructed} entries reconstructed"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the check and return the exit status (0 sound, 1 problems); raises SystemExit on bad arguments."""
    return check_main(argv, prog="python -m engine.keyflower.validate",
                      description="Check a Keyflower data folder", default=DATA_DIR, load=load, summary=summary,
                      ok="OK")


if __name__ == "__main__":
    sys.exit(main())
