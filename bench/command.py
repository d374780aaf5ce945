"""Time one Discord command end to end: `python bench/command.py --commands 200 --seed 7`.

Inside one process, the Keywood bot (unmodified discord.py) is connected to the fake Discord of the tests
(tests/discord_fake) and plays a seeded Keyper game on a SQLite file: each step sends a /play slash command for the
player who must act (a random legal action) and measures the time from dispatching the interaction to the fake
receiving the turn message with its board image. The bot's deferral, the table (parse, engine, store), the render
and the upload are all inside that time; so is the fake's own work, as Discord's would be.

Prints the figures, and last the p95: `p95: X ms over N commands (median Y ms)`.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.discord_app import BotConfig, Keywood  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.table import Table  # noqa: E402
from engine.keyper import GAME  # noqa: E402
from tests.discord_fake import FakeDiscord, run_client, running_fake  # noqa: E402
from tests.discord_fake import payloads as p  # noqa: E402

NAMES = ("ana", "ben", "cleo", "dev")


class Bench:
    """The fake, the world, and the bot's table, with the few moves the benchmark needs."""

    def __init__(self, fake: FakeDiscord, world: p.World, table: Table, players: int) -> None:
        self.fake, self.world, self.table = fake, world, table
        self.names = NAMES[:players]
        self.games = world.channels["games"]

    async def command(self, name: str, verb: str, options: dict[str, Any] | None = None) -> str:
        """Send a slash command and wait for its private reply (the bot replies once it has posted everything)."""
        record = await self.fake.interact(self.fake.slash(verb, options, user=self.world.members[name],
                                                          channel=self.games, guild=self.world.guild))
        await self.fake.wait_for(lambda: record.followup_ids, timeout=30)
        return self.fake.followups(record.id)[0].content

    async def new_game(self, seed: int) -> None:
        """/new, /join and /start."""
        assert await self.command(self.names[0], "new") == "Table opened."
        for name in self.names[1:]:
            assert await self.command(name, "join") == "You are seated."
        assert await self.command(self.names[0], "start") == "Game started."

    def state(self) -> tuple[str, Any]:
        """The status and engine state of the channel's latest game."""
        with self.table.store.transaction() as tx:
            row = tx.latest_game(str(self.world.guild["id"]), self.games["id"], "active") or tx.latest_game(
                str(self.world.guild["id"]), self.games["id"], "finished")
            assert row is not None and row.id is not None
            data = tx.snapshot(row.id)
            assert data is not None
            return row.status, GAME.from_json(data)

    async def play(self, name: str, action: str) -> float:
        """Seconds from dispatching `/play action` to the fake receiving the turn message with its image."""
        posts = f"/channels/{self.games['id']}/messages"
        before = len(self.fake.requests)
        payload = self.fake.slash("play", {"action": action}, user=self.world.members[name], channel=self.games,
                                  guild=self.world.guild)
        start = time.monotonic()
        record = await self.fake.interact(payload)

        def turn_message() -> Any:
            return next((r for r in self.fake.requests[before:] if r.method == "POST" and r.path == posts
                         and r.files and r.status == 200), None)

        posted = await self.fake.wait_for(turn_message, timeout=30)
        await self.fake.wait_for(lambda: record.followup_ids, timeout=30)  # the bot has finished with it
        reply = self.fake.followups(record.id)[0].content
        assert reply.startswith("Done"), (name, action, reply)
        return float(posted.at - start)


async def run(commands: int, seed: int, players: int) -> list[float]:
    """Play until `commands` /play commands have been timed; returns their durations in seconds."""
    world = p.sample_world(NAMES[:players], admin=NAMES[0])
    rng = random.Random(seed)
    times: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'keywood.db'}")
        seeds = [seed]
        table = Table(store, draw_seed=lambda: seeds[0])
        async with running_fake(guilds=[world.guild]) as fake:
            bot = Keywood(table, BotConfig("token", [int(world.guild["id"])], tick_seconds=3600),
                          guild_ready_timeout=0.05)
            async with run_client(bot, fake):
                bench = Bench(fake, world, table, players)
                game_seed = seed
                await bench.new_game(game_seed)
                while len(times) < commands:
                    status, state = bench.state()
                    if status == "finished":
                        game_seed += 1
                        seeds[0] = game_seed
                        await bench.new_game(game_seed)
                        continue
                    seat = GAME.to_act(state)[0]
                    action = GAME.format(rng.choice(GAME.legal_actions(state, seat)))
                    times.append(await bench.play(bench.names[seat], action))
                violations = list(fake.violations)
        store.close()
    if violations:
        raise SystemExit(f"the bot broke Discord's rules: {violations}")
    return times


def main() -> None:
    """Parse arguments, run, print the figures (the p95 last)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commands", type=int, default=200, help="how many /play commands to time")
    parser.add_argument("--seed", type=int, default=7, help="game seed and choice of actions")
    parser.add_argument("--players", type=int, default=3, choices=(2, 3, 4))
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("discord").setLevel(logging.ERROR)  # no voice warnings
    times = sorted(t * 1000 for t in asyncio.run(run(args.commands, args.seed, args.players)))
    p95 = times[math.ceil(0.95 * len(times)) - 1]  # nearest rank
    print(f"{args.players} players, seed {args.seed}: {len(times)} /play commands, dispatch to turn message with image")
    print(f"min {times[0]:.0f} ms, max {times[-1]:.0f} ms, mean {statistics.mean(times):.0f} ms")
    print(f"p95: {p95:.0f} ms over {len(times)} commands (median {statistics.median(times):.0f} ms)")


if __name__ == "__main__":
    main()
