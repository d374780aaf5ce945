"""A hot-seat game in the terminal, on the same store and table as the Discord bot.

`keywood play` resumes the terminal table's game in the database if there is one, or deals a new one.
Whoever must act types a number from the list, an action in notation, or a table command
(board, hand, log, score, check ACTION, rules TOPIC, undo, help, quit). `--script FILE` reads lines
`SEAT: COMMAND` (SEAT is a player name or seat number) instead of the keyboard.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot import games
from bot.store import Store
from bot.table import Command, Outcome, Table, Where, Who

WHERE = Where("terminal", "terminal")
NAMES = ("Ana", "Ben", "Cleo", "Dev")
TABLE_VERBS = ("board", "hand", "log", "score", "check", "rules", "undo")


@dataclass
class Console:
    """A terminal table: its store, the seated players and where it prints."""

    table: Table
    out: TextIO
    images: Path | None = None

    def say(self, text: str) -> None:
        """Print a block of text."""
        print(text, file=self.out, flush=True)

    def players(self) -> list[Who]:
        """The seated players of the terminal game, as table users."""
        return self._table_state()[1]

    def _table_state(self) -> tuple[str | None, list[Who]]:
        """The terminal game's status (None when there is none) and its seated players."""
        with self.table.store.transaction() as tx:
            row = tx.live_game(WHERE.guild_id, WHERE.channel_id)
            if row is None or row.id is None:
                return None, []
            return row.status, [Who(s.user_id, s.name) for s in tx.seats(row.id)]

    def save_image(self, outcome: Outcome) -> None:
        """Write the board image after an accepted action, named by the game's version."""
        if self.images is None or outcome.image is None:
            return
        self.images.mkdir(parents=True, exist_ok=True)
        path = self.images / f"game{outcome.game_id}-{outcome.version or 0:04d}.png"
        path.write_bytes(outcome.image)
        self.say(f"(image: {path})")

    def ensure_game(self, names: list[str], seed: int | None, game: str) -> bool:
        """Resume the terminal game, finish dealing a lobby a killed run left behind, or deal a new one."""
        status, seated = self._table_state()
        if status == "active":
            self.say("Resuming the game in progress.")
            return True
        host = Who("local-1", names[0])
        options = {"seed": seed} if seed is not None else {}
        steps = [] if status else [Command(WHERE, host, "new", game, options=options)]
        have = {who.user_id for who in seated} | {host.user_id}
        steps += [Command(WHERE, Who(f"local-{i}", n), "join") for i, n in enumerate(names, start=1)
                  if f"local-{i}" not in have]
        steps.append(Command(WHERE, seated[0] if seated else host, "start"))
        for step in steps:
            outcome = self.table.handle(step)
            if not outcome.ok:
                self.say(outcome.reply)
                return False
        self.deliver()
        self.say(f"New {games.get(game).title} game for {', '.join(names)}.")
        return True

    def deliver(self) -> None:
        """Take the terminal table's queued messages off the outbox: the terminal has shown them already."""
        rows, _ = self.table.pending_messages()
        self.table.messages_sent([row.id for row in rows if row.id is not None and row.channel_id == WHERE.channel_id
                                  and row.guild_id == WHERE.guild_id])

    def run(self, who: Who, text: str) -> Outcome:
        """Send one line from a player to the table and print what happened."""
        verb, _, rest = text.strip().partition(" ")
        command = Command(WHERE, who, verb, rest) if verb in TABLE_VERBS else Command(WHERE, who, "play", text)
        outcome = self.table.handle(command)
        self.deliver()
        if not outcome.ok:
            self.say(f"! {outcome.reply}")
        elif command.verb == "play":
            self.say("\n".join(outcome.public))
            self.save_image(outcome)
        else:
            self.say("\n".join([outcome.reply] + outcome.public))
        return outcome


def interactive(console: Console, stdin: TextIO) -> int:
    """Play at the keyboard until the game ends or someone quits."""
    players = console.players()
    console.say(console.table.handle(Command(WHERE, players[0], "board")).reply)
    while True:
        turn = _whose_turn(console)
        if turn is None:
            console.say(console.table.handle(Command(WHERE, players[0], "score")).reply)
            return 0
        seat, legal = turn
        who = players[seat]
        console.say(choices_text(legal))
        console.say(f"{who.name}, choose a number or type a command (list, help, quit):")
        line = stdin.readline()
        if not line or line.strip() in ("quit", "exit"):
            console.say("Game saved; `keywood play` resumes it.")
            return 0
        text = line.strip()
        if text == "help":
            console.say(__doc__ or "")
        elif text == "list":
            console.say(choices_text(legal, limit=len(legal)))
        elif text.isdigit() and 1 <= int(text) <= len(legal):
            console.run(who, legal[int(text) - 1])
        elif text:
            console.run(who, text)


def choices_text(legal: list[str], limit: int = 40) -> str:
    """Numbered choices, or a short summary with an example when there are too many to list."""
    if len(legal) <= limit:
        return "\n".join(f"  {i:>3}. {action}" for i, action in enumerate(legal, start=1))
    kinds = sorted({action.split()[0] for action in legal})
    example = next((a for a in legal if a.startswith("play")), legal[0])
    return (f"  {len(legal)} choices ({', '.join(kinds)}). Type one in notation, e.g. '{example}', "
            "or 'list' to number them all.")


def _whose_turn(console: Console) -> tuple[int, list[str]] | None:
    """The first seat that must act and its legal actions; None when the game is over."""
    with console.table.store.transaction() as tx:
        row = tx.live_game(WHERE.guild_id, WHERE.channel_id)
        if row is None or row.id is None:
            return None
        engine = games.get(row.game).engine
        data = tx.snapshot(row.id)
        assert data is not None
        state = engine.from_json(data)
    seats = engine.to_act(state)
    if not seats:
        return None
    return seats[0], [engine.format(a) for a in engine.legal_actions(state, seats[0])]


def script_lines(lines: Iterable[str]) -> Iterator[tuple[int, str, str]]:
    """(line number, seat, command) for each non-blank, non-comment line of a script."""
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if line and not line.startswith("#"):
            seat, sep, command = line.partition(":")
            if not sep:
                raise ValueError(f"line {number}: expected 'SEAT: COMMAND', got '{line}'")
            yield number, seat.strip(), command.strip()


def scripted(console: Console, lines: Iterable[str]) -> int:
    """Run a script of 'SEAT: COMMAND' lines; returns 1 if any line was refused."""
    players = console.players()
    by_name = {p.name.lower(): p for p in players} | {str(i): p for i, p in enumerate(players)}
    failures = 0
    for number, seat, command in script_lines(lines):
        who = by_name.get(seat.lower())
        if who is None:
            console.say(f"! line {number}: no player '{seat}'")
            failures += 1
            continue
        console.say(f"[{number}] {who.name}: {command}")
        failures += 0 if console.run(who, command).ok else 1
    return 1 if failures else 0


def main(db: str, names: list[str], seed: int | None, script: str | None, out: TextIO = sys.stdout,
         images: str | None = "keywood-images", game: str | None = None) -> int:
    """Entry point of `keywood play`; board images go to the images folder (None: no images)."""
    store = Store(db if "://" in db else f"sqlite:///{db}")
    console = Console(Table(store, images=images is not None), out, Path(images) if images else None)
    if not console.ensure_game(names, seed, game or games.default().id):
        return 1
    if script:
        with open(script, encoding="utf-8") as handle:
            return scripted(console, handle)
    return interactive(console, sys.stdin)
