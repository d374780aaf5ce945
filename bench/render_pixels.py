"""Pixel check of every game's table images: `python bench/render_pixels.py --save DIR` then `--compare DIR`.

Renders, in one process and in this order, bench/render.py's mid-game tables (seeds 3 and 7; Keyper's also
compact), every stored golden table input (tests/render/golden/*.json but the scoreboards) and a sequence of
states from seeded play-outs of each game (every 25th step, several player counts), so cached parts meet many
tables one after another. --save writes each image's RGB pixels as DIR/<name>.png; --compare renders again and
reports, per image, whether its RGB pixels are identical to DIR's, else how many pixels differ and by how much.
Made to compare the drawing before and after a change that should not move a pixel (e.g. caching static layers).
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.render import table  # noqa: E402
from bot import games  # noqa: E402
from engine.playout import random_playout  # noqa: E402
from render import keyflower, keyper, keythedral  # noqa: E402

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "render" / "golden"
NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]
PLAYOUTS = {"keyper": (2, 4), "keythedral": (3, 4, 5), "keyflower": (2, 4, 6)}
EVERY = 25  # a play-out's states are taken every EVERY steps


def bench_tables() -> Iterator[tuple[str, Callable[[], bytes]]]:
    """bench/render.py's tables for seeds 3 and 7, and Keyper's compact table."""
    for seed in (3, 7):
        for game_id in ("keyper", "keythedral", "keyflower"):
            yield f"bench_{game_id}_{seed}", table(game_id, seed)[1]
    view = games.get("keyper").engine.view(_keyper_mid(3), None)
    yield "bench_keyper_3_compact", lambda: keyper.render(view, size="compact")


def _keyper_mid(seed: int) -> Any:
    """bench/render.py's Keyper mid-game state."""
    from bench.render import mid_game
    return mid_game(seed)


def golden_tables() -> Iterator[tuple[str, Callable[[], bytes]]]:
    """Every stored golden table input with its game's renderer."""
    for path in sorted(GOLDEN.glob("*.json")):
        if "scoreboard" in path.stem:
            continue
        stored = json.loads(path.read_text())
        if path.stem.startswith("keythedral"):
            yield f"golden_{path.stem}", lambda v=stored: keythedral.render(v)
        elif path.stem.startswith("keyflower"):
            yield f"golden_{path.stem}", lambda v=stored: keyflower.render(v)
        else:
            yield f"golden_{path.stem}", lambda v=stored: keyper.render(v["view"], highlight=v["highlight"])


def playout_views(game_id: str, players: int) -> list[Any]:
    """The public views every EVERY steps of a seeded random play-out, and its last."""
    engine = games.get(game_id).engine
    views: list[Any] = []
    steps = [0]

    def hook(state: Any, seat: int, action: Any) -> None:
        if steps[0] % EVERY == 0:
            views.append(engine.view(state, None))
        steps[0] += 1

    final, _ = random_playout(engine, NAMES[:players], 11 + players, on_step=hook)
    return [*views, engine.view(final, None)]


def playout_tables() -> Iterator[tuple[str, Callable[[], bytes]]]:
    """Tables from seeded random play-outs of each game (playout_views), for several player counts."""
    for game_id, counts in PLAYOUTS.items():
        render = games.get(game_id).render
        assert render is not None
        for players in counts:
            for i, view in enumerate(playout_views(game_id, players)):
                yield f"playout_{game_id}_{players}p_{i:03d}", lambda v=view, r=render: r(v)


def images(match: str = "") -> Iterator[tuple[str, Image.Image]]:
    """The name and RGB image of every table whose name contains match, rendered in order."""
    for source in (bench_tables, golden_tables, playout_tables):
        for name, draw in source():
            if match in name:
                yield name, Image.open(io.BytesIO(draw())).convert("RGB")


def compare(name: str, image: Image.Image, before: Path) -> bool:
    """Print how image differs from the one saved under before; True if its pixels are identical."""
    path = before / f"{name}.png"
    if not path.exists():
        print(f"{name}: no saved image")
        return False
    old = Image.open(path).convert("RGB")
    if old.size != image.size:
        print(f"{name}: size {image.size} != {old.size}")
        return False
    diff = ImageChops.difference(old, image)
    if diff.getbbox() is None:
        return True
    grey = diff.convert("L").point(lambda v: 255 if v else 0)
    count = grey.histogram()[255]
    worst = max(high for _, high in diff.getextrema())
    print(f"{name}: {count} pixels differ (at most {worst} a channel) in {diff.getbbox()}")
    return False


def main() -> None:
    """Save or compare every table's pixels."""
    parser = argparse.ArgumentParser(description=__doc__)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--save", type=Path, metavar="DIR")
    group.add_argument("--compare", type=Path, metavar="DIR")
    parser.add_argument("--match", default="", help="only the tables whose name contains this (e.g. keyper)")
    args = parser.parse_args()
    same = total = 0
    for name, image in images(args.match):
        total += 1
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            image.save(args.save / f"{name}.png", compress_level=1)
        else:
            same += compare(name, image, args.compare)
    print(f"{total} images saved to {args.save}" if args.save else f"{same} of {total} images pixel-identical")
    if args.compare and same != total:
        sys.exit(1)


if __name__ == "__main__":
    main()
