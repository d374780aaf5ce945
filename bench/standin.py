"""How strong and how quick the stand-in is: `python bench/standin.py --game keyflower --games 20 --opponent random`.

Seat 0 is the stand-in (engine/standin.py); the other seats play uniformly random legal moves (`random`) or the
one-step greedy move, the legal action whose immediate projected score for that seat is best (`greedy`). Prints
the stand-in's win rate (a shared first place counts as a win) against its fair share, and its decision time at
the median and at p95. Targets (issue "Keep games moving"): at least 80% against random seats; more than its share
against greedy ones; p95 under 300 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import games  # noqa: E402
from engine import standin  # noqa: E402
from engine.core import Game, Rng  # noqa: E402
from engine.playout import weighted  # noqa: E402


def greedy(game: Game[Any, Any], state: Any, seat: int, chooser: Rng) -> Any:
    """The legal action with the best immediate projected score for the seat; a tie is drawn by the game's play-out
    weights (taking the first listed would stall a game whose moves mostly score nothing, like Keythedral's)."""
    legal = game.legal_actions(state, seat)
    totals = [standin.projected(game, state, seat, legal, i) for i in range(len(legal))]
    tied = [i for i, total in enumerate(totals) if total == max(totals)]
    weights = game.playout_weights(state, seat, legal) or [1.0] * len(legal)
    return legal[tied[weighted([weights[i] for i in tied], chooser)]]


def drawn(game: Game[Any, Any], state: Any, seat: int, chooser: Rng) -> Any:
    """A random legal action drawn by the game's play-out weights (uniform for games that give none)."""
    legal = game.legal_actions(state, seat)
    weights = game.playout_weights(state, seat, legal) or [1.0] * len(legal)
    return legal[weighted(weights, chooser)]


def one_game(game: Game[Any, Any], players: int, seed: int, opponent: str, budget: standin.Budget,
             times: list[float], max_actions: int | None = None, options: dict[str, Any] | None = None) -> bool | None:
    """Play one game (with these engine options), the stand-in at seat 0; whether it finished first (alone or
    shared); None when the game did not end within max_actions actions (it is then left unfinished, neither won nor
    lost)."""
    state = game.setup([f"P{i + 1}" for i in range(players)], seed, options)
    chooser = Rng.from_seed(seed)
    actions = 0
    while not game.is_over(state):
        if max_actions is not None and actions >= max_actions:
            return None
        actions += 1
        seats = game.to_act(state)
        seat = 0 if 0 in seats else seats[chooser.below(len(seats))]
        if seat == 0:
            start = time.perf_counter()
            action = standin.choose(game, state, 0, seed=chooser.next64() >> 1, budget=budget)
            times.append(time.perf_counter() - start)
        elif opponent == "greedy":
            action = greedy(game, state, seat, chooser)
        elif opponent == "weighted":
            action = drawn(game, state, seat, chooser)
        else:
            legal = game.legal_actions(state, seat)
            action = legal[chooser.below(len(legal))]
        game.apply_in_place(state, seat, action)
    totals = {p.seat: p.total for p in game.score(state, None).players}
    return totals[0] == max(totals.values())


def main() -> None:
    """Parse arguments, play the games, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="keyflower", choices=[e.id for e in games.all_games()])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponent", default="random", choices=("random", "greedy", "weighted"),
                        help="random: uniformly random legal moves; weighted: random legal moves drawn by the game's "
                             "play-out weights (Keythedral's uniform seats never end a game); greedy: one-step greedy")
    parser.add_argument("--playouts", type=int, default=standin.Budget().playouts)
    parser.add_argument("--seconds", type=float, default=standin.Budget().seconds)
    parser.add_argument("--candidates", type=int, default=standin.Budget().candidates)
    parser.add_argument("--depth", type=int, default=standin.Budget().depth,
                        help="actions per play-out before judging (default: the Budget's)")
    parser.add_argument("--full", action="store_true", help="play-outs to the end of the game (no depth)")
    parser.add_argument("--greedy", type=float, default=standin.Budget().greedy, help="share of greedy play-out steps")
    parser.add_argument("--sample", type=int, default=standin.Budget().sample, help="actions a greedy step compares")
    parser.add_argument("--screened", type=int, default=standin.Budget().screened,
                        help="legal actions ranked by their immediate gain when there are many")
    parser.add_argument("--prior", type=float, default=standin.Budget().prior, help="weight of the immediate gain")
    parser.add_argument("--verbose", action="store_true", help="print each game's result as it ends")
    parser.add_argument("--max-actions", type=int, default=None,
                        help="leave a game unfinished after this many actions (reported apart, not counted)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option of the table, as at `keywood play` (e.g. open_screens=yes)")
    args = parser.parse_args()
    entry = games.get(args.game)
    game = entry.engine
    schema = {o.name: o for o in entry.options}
    chosen = {name: schema[name].read(value) for name, _, value in (o.partition("=") for o in args.option)}
    options = entry.engine_options(entry.read_options(chosen, {}))
    budget = standin.Budget(playouts=args.playouts, seconds=args.seconds, candidates=args.candidates,
                            depth=None if args.full else args.depth, greedy=args.greedy, sample=args.sample,
                            prior=args.prior, screened=args.screened)
    times: list[float] = []
    wins = unfinished = 0
    for k in range(args.games):
        won = one_game(game, args.players, args.seed + k, args.opponent, budget, times, args.max_actions, options)
        wins += bool(won)
        unfinished += won is None
        if args.verbose:
            result = "unfinished" if won is None else "won" if won else "lost"
            print(f"game {k + 1} (seed {args.seed + k}): {result}; {wins} of {k + 1 - unfinished} finished",
                  flush=True)
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    print(f"{args.game}, {args.players} players, {args.games} games (seeds {args.seed}..{args.seed + args.games - 1}) "
          f"against {args.opponent} seats; options {options}; budget {budget}")
    finished = args.games - unfinished
    if unfinished:
        print(f"{unfinished} of {args.games} games did not end within {args.max_actions} actions (not counted)")
    print(f"stand-in won {wins} of {finished} ({100 * wins / max(finished, 1):.0f}%; fair share "
          f"{100 / args.players:.0f}%); decisions {len(times)}, median {statistics.median(times) * 1000:.0f} ms, "
          f"p95 {p95 * 1000:.0f} ms")


if __name__ == "__main__":
    main()
