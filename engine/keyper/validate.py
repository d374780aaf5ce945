"""Check a Keyper data pack: python -m engine.keyper.validate [PATH].

PATH is a folder holding replacement TOML files (fields, displays, tiles, fairs, boats, keyp_tile, game);
without it the bundled pack is checked. Prints "ok: ..." and exits 0, or prints one problem per line
and exits 1. This is the tool for typing in the real component data: edit, run, fix, repeat.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from engine.datacheck import check_main
from engine.keyper.components import DATA_DIR, Components
from engine.keyper.loader import load_pack


def summary(c: Components) -> str:
    """A one-line count of what a pack holds."""
    home = sum(t.origin == "home" for t in c.tiles.values())
    slots = sum(len(d.seasons) for d in c.displays)
    return (
        f"{len(c.field_kinds)} field kinds, {len(c.displays)} displays ({slots} season slots), "
        f"{len(c.tiles)} tiles ({home} home, {len(c.tiles) - home} country), {len(c.fairs)} fairs, "
        f"{len(c.boats)} boats, keyp tile, supply of {sum(c.supply.values())} resources, "
        f"{sum(c.keyples.values())} keyples"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the check and return the exit status (0 sound, 1 problems); raises SystemExit on bad arguments."""
    return check_main(argv, prog="python -m engine.keyper.validate", description="Check a data pack", default=DATA_DIR,
                      load=load_pack, summary=summary, ok="ok")


if __name__ == "__main__":
    sys.exit(main())
