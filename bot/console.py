"""A hot-seat game in the terminal, on the same store and table as the Discord bot.

`keywood play` resumes the terminal table's game in the database if there is one, or deals a new one.
Whoever must act types a number from the list, an action in notation, or a terminal command (see HELP; any
case). `--script FILE` reads lines `SEAT: COMMAND` instead of the keyboard, SEAT being a player's name or seat
number counted from 1; a script stops at its first refused line unless told to keep going.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot import describe, games
from bot.games import GameEntry
from bot.numbers import shorten
from bot.store import Store
from bot.table import Command, Outcome, Table, Where, Who

WHERE = Where("terminal", "terminal")
NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana")
DEFAULT_PLAYERS = 3
MAX_NAME = 32
LIST_LIMIT = 40
TABLE_VERBS = ("board", "hand", "log", "score", "check", "rules", "undo", "standin")
LATEST = "latest.png"

SUMMARY_TAIL = "\n  `check ACTION` tells what it would do; `list` numbers them all."
HELP = """Type a number from the list, or an action in notation: {examples} (`rules notation` explains them);
`ACTION x3` does one three times in a row. `rules NAME` describes {components}. Commands, in any case:
  list           number every choice (then type a number)
  board          the table, and its image
  hand           what only you see: {hand}
  log            the recent actions
  score          the score so far
  check ACTION   whether an action is allowed now, and what it would do
  rules [TOPIC]  the rules on a topic (`rules` alone lists the topics)
  undo           take back your last action, before anyone else acts
  standin        let Keywood's stand-in play your decision now
  abandon        end this game for everyone (asks you to confirm); `keywood play` then deals a new one
  help           this text
  quit           stop here; `keywood play` resumes the game"""

def help_text(entry: GameEntry) -> str:
    """The terminal's help, with the game's own notation examples and words for its components and hands."""
    texts = entry.texts
    return HELP.format(examples=texts.examples, components=texts.components, hand=texts.hand_words)


SLASHED = re.compile(r"(?<![\w/.])/(?=(?:" + "|".join((*TABLE_VERBS, "play", "new", "join", "leave", "start",
                                                        "abandon", "games")) + r")\b)")
"""A Discord command's slash, which the terminal's words do without."""


def terminal_words(text: str) -> str:
    """A table text in the terminal's words: `/rules notation` reads `rules notation`."""
    return SLASHED.sub("", text)


def lineup(entry: GameEntry, players: int | None, names: list[str] | None, computers: int = 0) -> list[str]:
    """The people's names for a new game, from --players and --names (computer seats come on top); raises
    ValueError saying what is wrong.

    The names set the count: --players with a different number of names is refused.
    """
    if not 0 <= computers < entry.max_players:
        raise ValueError(f"--computer {computers}: {entry.title} has {entry.max_players} seats, and one is yours.")
    low, high = max(1, entry.min_players - computers), entry.max_players - computers
    if names is None:
        count = players if players is not None else max(1, min(max(DEFAULT_PLAYERS, low), high) - computers)
        if not low <= count <= high:
            extra = f" besides {computers} computer{'s' if computers > 1 else ''}" if computers else ""
            raise ValueError(f"{entry.title} is for {entry.min_players} to {entry.max_players} players; "
                             f"{count}{extra} is not that." if computers else
                             f"{entry.title} is for {low} to {high} players, not {count}.")
        return [*NAMES, *(f"Player {i}" for i in range(len(NAMES) + 1, count + 1))][:count]
    cleaned = [name.strip() for name in names]
    listed = ", ".join(cleaned)
    if players is not None and players != len(cleaned):
        raise ValueError(f"--players {players} but {len(cleaned)} names ({listed}): give one name per player, "
                         "or leave --players out (the names set the count).")
    if not low <= len(cleaned) <= high:
        extra = f" besides {computers} computer{'s' if computers > 1 else ''}" if computers else ""
        raise ValueError(f"{entry.title} is for {entry.min_players} to {entry.max_players} players; --names gives "
                         f"{len(cleaned)} ({listed}){extra}.")
    seen: dict[str, str] = {}
    for name in cleaned:
        if not name:
            raise ValueError("A player's name cannot be empty.")
        if len(name) > MAX_NAME:
            raise ValueError(f"'{name}' is too long: names have at most {MAX_NAME} characters.")
        if ":" in name or name.isdigit():
            raise ValueError(f"'{name}' cannot be a name: scripts write 'SEAT: COMMAND', with a name or a seat "
                             "number before the colon.")
        if name.lower() in seen:
            same = f"'{seen[name.lower()]}'" + (f" and '{name}'" if name != seen[name.lower()] else " twice")
            raise ValueError(f"--names has {same}: each player needs a name of their own (told apart in any case).")
        seen[name.lower()] = name
    return cleaned


@dataclass(frozen=True)
class Request:
    """What `keywood play` was asked for: the players, seed and game of a new table, and which were typed
    (some of "players", "names", "seed", "game"), so a resumed game can say which it ignores."""

    names: list[str]
    seed: int | None
    game: str
    given: frozenset[str] = frozenset()
    options: dict[str, str] = field(default_factory=dict)  # --option NAME=VALUE, for a new table


@dataclass(frozen=True)
class Live:
    """The terminal table's live game: its status (lobby or active), game id, seed and seated players."""

    status: str
    game: str
    seed: int
    seated: list[Who]


@dataclass(frozen=True)
class Turn:
    """The first seat that must act, its legal actions (notation), its own view and the game it plays."""

    seat: int
    legal: list[str]
    view: dict[str, Any]
    game: str


@dataclass(frozen=True)
class Said:
    """What one typed line did: ok (False: refused, for the reason given; nothing changed) and whether the
    session ends with it ("quit", or "abandoned")."""

    ok: bool
    reason: str = ""
    stop: str | None = None


@dataclass
class Console:
    """A terminal table: its store, the seated players, where it prints and where board images go."""

    table: Table
    out: TextIO
    images: Path | None = None
    confirming: Who | None = None  # who typed `abandon`: the next line must be `yes`
    _saved: Path | None = field(default=None, repr=False)

    def say(self, text: str) -> None:
        """Print a block of text, in the terminal's words."""
        print(terminal_words(text), file=self.out, flush=True)

    def players(self) -> list[Who]:
        """The seated players of the terminal game, as table users."""
        live = self.live()
        return live.seated if live else []

    def live(self) -> Live | None:
        """The terminal table's lobby or running game; None when there is none."""
        with self.table.store.reading() as tx:
            row = tx.live_game(WHERE.guild_id, WHERE.channel_id)
            if row is None or row.id is None:
                return None
            return Live(row.status, row.game, row.seed, [Who(s.user_id, s.name) for s in tx.seats(row.id)])

    def save_image(self, outcome: Outcome, *, again: bool = True) -> None:
        """Write an outcome's image, named by the game's version, and as latest.png (always the newest).

        again=False: say nothing when this very image was just written (the board shown after the deal).
        """
        if self.images is None or outcome.image is None:
            return
        self.images.mkdir(parents=True, exist_ok=True)
        path = self.images / f"game{outcome.game_id}-{outcome.version or 0:04d}.png"
        latest = self.images / LATEST
        if path == self._saved and latest.exists() and not again:
            return
        path.write_bytes(outcome.image)
        spare = latest.with_name(f".{LATEST}.tmp")
        spare.write_bytes(outcome.image)
        os.replace(spare, latest)  # a viewer watching latest.png never sees half an image
        self._saved = path
        self.say(f"(image: {path}; the newest is always {latest})")

    def ensure_game(self, request: Request) -> bool:
        """Resume the terminal game, finish dealing a lobby a killed run left behind, or deal a new one."""
        live = self.live()
        if live is not None and live.status == "active":
            self.say("Resuming the game in progress.")
            self._say_ignored(request, live)
            return True
        seated = live.seated if live else []
        host = Who("local-1", request.names[0])
        options: dict[str, Any] = dict(request.options)
        if request.seed is not None:
            options["seed"] = request.seed
        steps = [] if live else [Command(WHERE, host, "new", request.game, options=options)]
        have = {who.user_id for who in seated} | {host.user_id}
        steps += [Command(WHERE, Who(f"local-{i}", n), "join") for i, n in enumerate(request.names, start=1)
                  if f"local-{i}" not in have]
        steps.append(Command(WHERE, seated[0] if seated else host, "start"))
        outcome = Outcome(False)
        for step in steps:
            outcome = self.table.handle(step)
            if not outcome.ok:
                self.say(outcome.reply)
                return False
        self.deliver()
        names = [who.name for who in self.players()]
        self.say(f"New {games.get(live.game if live else request.game).title} game for {', '.join(names)}.")
        self.save_image(outcome)
        return True

    def _say_ignored(self, request: Request, live: Live) -> None:
        """Tell which of --players, --names, --seed and --game differ from the game being resumed (never its seed:
        everyone at a hot-seat terminal sees what it prints)."""
        names = [who.name for who in live.seated]
        differs = {"players": len(request.names) != len(names), "names": request.names != names,
                   "seed": request.seed != live.seed, "game": request.game != live.game}
        ignored = [f"--{option}" for option in ("players", "names", "seed", "game")
                   if option in request.given and differs[option]]
        if ignored:
            title = games.get(live.game).title
            self.say(f"The {title} game in progress ({', '.join(names)}) goes on, so "
                     f"{describe.and_list(ignored)} {'is' if len(ignored) == 1 else 'are'} ignored. To deal a new "
                     "game, type `abandon` then `yes` in this one, or use another --db.")

    def deliver(self) -> None:
        """Take the terminal table's queued messages off the outbox: the terminal has shown them already."""
        rows = self.table.pending_messages()
        self.table.messages_sent([row.id for row in rows if row.id is not None and row.channel_id == WHERE.channel_id
                                  and row.guild_id == WHERE.guild_id])

    def _entry(self) -> GameEntry:
        """The running game's registry entry (the default game when none runs)."""
        found = self._state()
        return found[0] if found else games.default()

    def _state(self) -> tuple[GameEntry, Any, list[Who]] | None:
        """The running terminal game's registry entry, engine state and seated players; None when there is none."""
        with self.table.store.reading() as tx:
            row = tx.live_game(WHERE.guild_id, WHERE.channel_id)
            if row is None or row.id is None or row.status != "active":
                return None
            entry = games.get(row.game)
            data = tx.snapshot(row.id)
            seated = [Who(s.user_id, s.name) for s in tx.seats(row.id)]
        assert data is not None
        return entry, entry.engine.from_json(data), seated

    def turn(self) -> Turn | None:
        """The first seat that must act, with its choices; None when the game is over or there is none."""
        found = self._state()
        if found is None:
            return None
        entry, state, _ = found
        seats = entry.engine.to_act(state)
        if not seats:
            return None
        actions = entry.engine.legal_actions(state, seats[0])
        legal = [entry.engine.format(a) for a in actions]
        return Turn(seats[0], legal, entry.engine.view(state, seats[0], actions), entry.id)

    def legal(self, who: Who) -> list[str]:
        """A player's legal actions now (notation), in the order `list` numbers them."""
        found = self._state()
        if found is None:
            return []
        entry, state, seated = found
        seat = next((i for i, p in enumerate(seated) if p.user_id == who.user_id), None)
        return [] if seat is None else [entry.engine.format(a) for a in entry.engine.legal_actions(state, seat)]

    def choices_text(self, turn: Turn, limit: int = LIST_LIMIT) -> str:
        """The choices numbered; when too many, the game's summary of them (its `choices` text), or a count."""
        if len(turn.legal) <= limit:
            return numbered(turn.legal)
        summary = games.get(turn.game).texts.choices
        if summary is not None:
            return summary(turn.view, turn.seat, turn.legal) + SUMMARY_TAIL
        kinds = sorted({action.split()[0] for action in turn.legal})
        example = next((a for a in turn.legal if a.startswith("play")), turn.legal[0])
        return (f"  {len(turn.legal)} choices ({', '.join(kinds)}). Type one in notation, e.g. '{example}', "
                "or 'list' to number them all.")

    def line(self, who: Who, text: str) -> Said:
        """Carry out one line a player typed: a terminal command, a number from the list, or an action."""
        text = text.strip()
        verb, _, rest = text.partition(" ")
        verb = verb.lower()
        if self.confirming is not None:
            asked, self.confirming = self.confirming, None
            if text.lower() in ("yes", "y"):
                return self._abandon(asked)
            self.say("Not abandoned; the game goes on.")
            return Said(True)
        if not text:
            return Said(True)
        if verb in ("quit", "exit") and not rest:
            return Said(True, stop="quit")
        if verb == "help" and not rest:
            self.say(help_text(self._entry()))
            return Said(True)
        if verb == "list" and not rest:
            legal = self.legal(who)
            self.say(numbered(legal) if legal else f"{who.name} has nothing to choose now.")
            return Said(True)
        if verb == "abandon" and not rest:
            self.confirming = who
            self.say("Abandon this game for everyone? It ends without a score and cannot be resumed. "
                     "Type `yes` to abandon it; anything else keeps playing.")
            return Said(True)
        if text.isdecimal():  # digits of any script; '²' or '①' are not numbers here
            legal = self.legal(who)
            if len(text) > 6 or not 1 <= int(text) <= len(legal):
                span = f"1 to {len(legal)}" if legal else "none: you have nothing to choose now"
                return Said(False, f"No choice {shorten(text)}: the numbers are {span} (`list` shows them).")
            text = legal[int(text) - 1]
            verb, rest = "play", text
        outcome = self.run(who, text if verb not in TABLE_VERBS else f"{verb} {rest}".strip())
        return Said(outcome.ok, outcome.reply)

    def _abandon(self, who: Who) -> Said:
        """End the terminal game for everyone (any player at the keyboard may: they share it)."""
        outcome = self.table.handle(Command(WHERE, Who(who.user_id, who.name, is_admin=True), "abandon"))
        self.deliver()
        if not outcome.ok:
            return Said(False, outcome.reply)
        self.say("\n".join(outcome.public + ["The game is abandoned; `keywood play` deals a new one."]))
        return Said(True, stop="abandoned")

    def run(self, who: Who, text: str, *, again: bool = True) -> Outcome:
        """Send one command or action from a player to the table and print what happened (not a refusal)."""
        verb, _, rest = text.strip().partition(" ")
        verb = verb.lower()
        command = Command(WHERE, who, verb, rest) if verb in TABLE_VERBS else Command(WHERE, who, "play", text)
        outcome = self.table.handle(command)
        self.deliver()
        if not outcome.ok:
            return outcome
        if command.verb == "play":
            self.say("\n".join(outcome.public))
        else:
            self.say("\n".join([outcome.reply] + outcome.public))
        self.save_image(outcome, again=again)
        return outcome


def numbered(legal: list[str]) -> str:
    """The choices, numbered from 1."""
    return "\n".join(f"  {i:>3}. {action}" for i, action in enumerate(legal, start=1))


def interactive(console: Console, stdin: TextIO) -> int:
    """Play at the keyboard until the game ends, someone quits or the game is abandoned."""
    players = console.players()
    console.run(players[0], "board", again=False)
    while True:
        if console.confirming is not None:
            reply = stdin.readline()
            said = console.line(console.confirming, reply or "no")
            if said.stop:
                return 0
            continue
        turn = console.turn()
        if turn is None:
            console.say("The game is over; `keywood play` deals a new one.")
            return 0
        who = players[turn.seat]
        console.say(console.choices_text(turn))
        console.say(f"{who.name}, choose a number or type a command (list, help, quit):")
        line = stdin.readline()
        said = console.line(who, line) if line else Said(True, stop="quit")
        if said.stop == "quit":
            console.say("Game saved; `keywood play` resumes it.")
            return 0
        if said.stop:
            return 0
        if not said.ok:
            console.say(f"! {said.reason}")


def scripted(console: Console, lines: Iterable[str], *, keep_going: bool = False) -> int:
    """Run 'SEAT: COMMAND' lines (SEAT a name or a seat number from 1); returns 1 if a line was refused.

    The script stops at its first refused line (keep_going: it plays on and still returns 1).
    """
    players = console.players()
    by_name = {p.name.lower(): p for p in players} | {str(i): p for i, p in enumerate(players, start=1)}
    failures = 0
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        seat, sep, command = text.partition(":")
        who = by_name.get(seat.strip().lower())
        if not sep:
            said = Said(False, f"expected 'SEAT: COMMAND', got '{text}'")
        elif who is None:
            seats = ", ".join(f"{i} {p.name}" for i, p in enumerate(players, start=1))
            said = Said(False, f"no player '{seat.strip()}' (seats count from 1: {seats})")
        else:
            console.say(f"[{number}] {who.name}: {command.strip()}")
            said = console.line(who, command)
        if said.stop:
            if said.stop == "quit":
                console.say(f"Stopped at line {number}; `keywood play` resumes the game.")
            return 1 if failures else 0
        if not said.ok:
            failures += 1
            console.say(f"! line {number}: {said.reason}")
            if not keep_going:
                console.say(f"The script stops at line {number}; the lines before it were played "
                            "(--keep-going plays on past refused lines).")
                return 1
    return 1 if failures else 0


def main(store: Store, request: Request, script: list[str] | None = None, out: TextIO | None = None,
         images: str | None = "keywood-images", *, keep_going: bool = False, stdin: TextIO | None = None) -> int:
    """Entry point of `keywood play` on an open store, printing to out (standard output when None); board images go
    to the images folder (None: no images)."""
    console = Console(Table(store, images=images is not None), out or sys.stdout, Path(images) if images else None)
    if not console.ensure_game(request):
        return 1
    if script is not None:
        return scripted(console, script, keep_going=keep_going)
    return interactive(console, stdin or sys.stdin)
