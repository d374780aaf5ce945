"""Whether one busy table slows another: `python bench/autocomplete.py --seconds 60`.

One process, one SQLite file, one Table, as in the bot (each command in a worker thread). In one channel Ana plays
Keyper against three computer seats without pause: each of her moves makes the stand-in think for the three
computers (0.2 s a decision, the bot's default). In another channel three people play Keyper; every 50 ms one of
them asks for `/play` suggestions (the autocomplete), and every second move of theirs is played. Prints the
suggestions' p50, p95 and worst time, how many took over 3 s (Discord's deadline for an answer), the other table's
moves' p95, and how many moves the busy table made meanwhile. Target (issue 41, item 7): suggestions' p95 under
100 ms, none over 3 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.store import Store  # noqa: E402
from bot.table import Command, Table, Where, Who  # noqa: E402
from engine.keyper import GAME  # noqa: E402

BUSY, QUIET = Where("guild", "busy"), Where("guild", "quiet")
PEOPLE = [Who(f"u-{name}", name.title()) for name in ("ana", "ben", "cleo")]


def command(who: Who, verb: str, where: Where, arg: str = "", **options: object) -> Command:
    """A command from a person in a channel."""
    return Command(where, who, verb, arg, dict(options))


def open_table(table: Table, where: Where, people: list[Who], computers: int, seed: int) -> int:
    """Open and start a Keyper game in a channel; returns its id."""
    assert table.handle(command(people[0], "new", where, "keyper", seed=seed, computers=computers)).ok
    for who in people[1:]:
        assert table.handle(command(who, "join", where)).ok
    started = table.handle(command(people[0], "start", where))
    assert started.ok and started.game_id is not None, started.reply
    return started.game_id


def state_of(table: Table, game_id: int) -> object:
    """A game's stored state."""
    with table.store.reading() as tx:
        return GAME.from_json(tx.snapshot(game_id))


def play_one(table: Table, where: Where, game_id: int, rng: random.Random) -> bool:
    """The seat to act (a person) plays a random legal move; False when the game is over."""
    state = state_of(table, game_id)
    if GAME.is_over(state):
        return False
    seat = GAME.to_act(state)[0]
    move = GAME.format(rng.choice(GAME.legal_actions(state, seat)))
    table.handle(command(PEOPLE[seat], "play", where, move))
    return True


def main() -> None:
    """Run the two tables side by side and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        table = Table(Store(f"sqlite:///{folder}/bench.db"))
        busy = open_table(table, BUSY, PEOPLE[:1], 3, args.seed)
        quiet = open_table(table, QUIET, PEOPLE, 0, args.seed + 1)
        stop = time.perf_counter() + args.seconds
        busy_moves = [0]

        def keep_busy() -> None:
            rng, game = random.Random(args.seed), busy
            while time.perf_counter() < stop:
                if not play_one(table, BUSY, game, rng):
                    game = open_table(table, BUSY, PEOPLE[:1], 3, rng.randrange(10**6))
                busy_moves[0] += 1

        worker = threading.Thread(target=keep_busy)
        worker.start()
        suggest_ms, move_ms, rng = [], [], random.Random(args.seed + 2)
        while time.perf_counter() < stop:
            seat = GAME.to_act(state_of(table, quiet))[0]
            begun = time.perf_counter()
            table.suggest(QUIET, PEOPLE[seat].user_id, "")
            suggest_ms.append((time.perf_counter() - begun) * 1000)
            if len(suggest_ms) % 2 == 0:
                begun = time.perf_counter()
                if not play_one(table, QUIET, quiet, rng):
                    quiet = open_table(table, QUIET, PEOPLE, 0, rng.randrange(10**6))
                move_ms.append((time.perf_counter() - begun) * 1000)
            time.sleep(0.05)
        worker.join()
    cuts = statistics.quantiles(suggest_ms, n=20)
    print(f"suggestions: {len(suggest_ms)}, p50 {statistics.median(suggest_ms):.1f} ms, p95 {cuts[18]:.1f} ms, "
          f"worst {max(suggest_ms):.1f} ms, over 3 s: {sum(t > 3000 for t in suggest_ms)}")
    print(f"the other table's moves: {len(move_ms)}, p95 {statistics.quantiles(move_ms, n=20)[18]:.1f} ms")
    print(f"the busy table's moves meanwhile: {busy_moves[0]}")


if __name__ == "__main__":
    main()
