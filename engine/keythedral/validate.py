"""Check a Keythedral data folder: python -m engine.keythedral.validate [PATH].

PATH is a folder holding fields.toml, buildings.toml, laws.toml and game.toml (for instance a copy of
engine/keythedral/data/ with the real tiles typed in); without it the packaged data is checked. Prints
"OK: ..." and exits 0, or prints one problem per line and exits 1. Edit, run, fix, repeat.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence

from engine.datacheck import check_main
from engine.keythedral.components import DATA_DIR, Components, load


def summary(c: Components) -> str:
    """Return a one-line count of what a data folder holds; raises nothing."""
    provenances = [r.provenance for r in c.fields] + [b.provenance for b in c.buildings]
    reconstructed = (provenances + [law.provenance for law in c.laws]).count("reconstructed")
    stages = Counter(b.stage for b in c.buildings)
    per_stage = "/".join(str(stages[s]) for s in sorted(stages))
    return (
        f"{len(c.fields)} field tiles, {len(c.buildings)} building tiles ({per_stage} by stage), "
        f"{len(c.laws)} law cards, {sum(c.resource_supply.values())} resource and "
        f"{sum(c.craft_supply.values())} craft cubes, {sum(c.mat_slots.values())} mat spaces; "
        f"{reconstructed} entries reconstructed"
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run the check and return the exit status (0 sound, 1 problems); raises SystemExit on bad arguments."""
    return check_main(argv, prog="python -m engine.keythedral.validate",
                      description="Check a Keythedral data folder", default=DATA_DIR, load=load, summary=summary,
                      ok="OK")


if __name__ == "__main__":
    sys.exit(main())
