"""Record a playthrough of a registered game from a random play-out: `python -m tests.contract.record GAME SEED`.

The file tests/contract/playthroughs/<game>-<n>.json holds the game, players, seed, options, every action as
[seat, notation] and, after each action, the sha256 of the public view (tests/contract/kit.py digest). The
contract kit replays it action by action: a changed rule or view shows up as the first differing digest.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import tests.conftest  # noqa: F401  (registers the test-only games beside the built-in ones)
from bot import games
from engine.playout import random_playout
from tests.contract.kit import NAMES, PLAYTHROUGHS, digest


def record(game_id: str, seed: int, players: int, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A random play-out of a game as playthrough data (game, players, seed, options, actions, digests)."""
    entry = games.get(game_id)
    game = entry.engine
    names = list(NAMES[:players])
    final, played = random_playout(game, names, seed, options=options)
    state = game.setup(names, seed, options)
    digests = []
    for seat, text in played.actions:
        game.apply_in_place(state, seat, game.parse(state, seat, text))
        digests.append(digest(game, state))
    assert game.to_json(state) == game.to_json(final)
    return {"game": game_id, "players": names, "seed": seed, "options": dict(options or {}),
            "actions": [[seat, text] for seat, text in played.actions], "digests": digests}


def dumps(data: dict[str, Any]) -> str:
    """The playthrough as JSON text with one action or digest a line (readable diffs)."""
    lines = ["{"]
    for key, value in data.items():
        if isinstance(value, list) and value and key in ("actions", "digests"):
            items = ",\n".join(f"  {json.dumps(item, ensure_ascii=False)}" for item in value)
            lines.append(f" {json.dumps(key)}: [\n{items}\n ],")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},")
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join(lines) + "\n}\n"


def next_path(game_id: str, folder: Path = PLAYTHROUGHS) -> Path:
    """The first free <game>-<n>.json in the folder."""
    n = 1
    while (folder / f"{game_id}-{n}.json").exists():
        n += 1
    return folder / f"{game_id}-{n}.json"


def main(argv: list[str] | None = None) -> Path:
    """Record one playthrough and write it; returns the file written."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a registered game id")
    parser.add_argument("seed", type=int)
    parser.add_argument("--players", type=int, default=None, help="number of players (default: 3, or the most)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option, read by the game's schema (repeatable)")
    parser.add_argument("--out", type=Path, default=None, help="file to write (default: the next free name)")
    args = parser.parse_args(argv)
    entry = games.get(args.game)
    schema = {o.name: o for o in entry.options}
    options: dict[str, Any] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        if name not in schema:
            parser.error(f"{entry.title} has no option '{name}'")
        options[name] = schema[name].read(value)
    options = entry.engine_options(entry.read_options(options, {}))
    players = args.players or min(max(3, entry.min_players), entry.max_players)
    data = record(args.game, args.seed, players, options)
    path = args.out or next_path(args.game)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(data), encoding="utf-8")
    print(f"{path}: {len(data['actions'])} actions")
    return path


if __name__ == "__main__":
    main()
