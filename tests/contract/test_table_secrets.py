"""Issue 39, item 1 (hidden randomness nobody can recompute), for every registered game through
bot.table.Table.handle on a real SQLite file.

- No output of a started game (replies, channel messages with their buttons and images, DMs and decision messages,
  `/log`, `/games`, `/score`, `/board`, `/hand`) contains its seed before the game has ended; the finished game's
  export shows it (so the search below would find it).
- Two tables with the same public history but other seeds and other hidden contents publish byte-identical outputs.
  Table B is made from table A: both start (in other channels, with other seeds), then B's stored state becomes the
  engine's resample_hidden of A's (everything the public cannot see drawn again, the generator included). The same
  commands then go to both. A command that draws or reveals something (engine.is_undo_barrier) may legitimately
  show other things, so it is not compared, and B is made A's public twin again.
- An undone private step is named in public by its public notation only.

The tables draw their seeds from a given function (Table's draw_seed: the source of randomness handed in, as a
clock is), so the seeds are known to the test.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot import export
from bot.games import GameEntry
from bot.store import Store, aware
from bot.table import Command, Outcome, Table, Where, Who
from tests.contract.kit import NAMES, each_game

T0 = datetime(2027, 1, 4, 9, 0, tzinfo=UTC)
GUILD = "guild-secrets"
SECRET = -0x6A09E667F3BCC909  # a 64-bit seed whose digits cannot turn up by chance
TWIN_SEEDS = (0x3C6EF372FE94F82B, -0x5BE0CD19137E2179)
WATCHER = Who("u-watcher", "Wren")  # seated nowhere: sees what the public sees
MAX_COMMANDS = 5_000
READ_EVERY = 20  # the reading commands are sent every this many plays
PICTURED = 4  # the first plays, and every READ_EVERY-th, are drawn (the table image); the others are not
TWIN_PLAYS = 80
REDRAWS = 20  # when no action is legal in both twins, B's hidden contents are drawn again up to this many times
TWIN_COMPARED = 5  # at least this many plays are compared in every game (the test would prove nothing otherwise)
UNDO_TRIES = 400


@dataclass
class Seated:
    """One channel's game at a table: where it is, who plays it, and its engine."""

    table: Table
    where: Where
    players: list[Who]
    entry: GameEntry

    def send(self, who: Who, verb: str, arg: str = "", **options: Any) -> Outcome:
        """A command at this channel, at a fixed moment; it must be accepted."""
        outcome = self.table.handle(Command(self.where, who, verb, arg, options=options, at=T0))
        assert outcome.ok, (who.name, verb, arg, outcome.reply)
        return outcome

    def stored(self) -> tuple[str, Any, list[tuple[Any, ...]]]:
        """(status, engine state, open prompts without their ids) of the channel's game, read from the store."""
        with self.table.store.transaction() as tx:
            row = tx.live_game(self.where.guild_id, self.where.channel_id) or tx.latest_game(
                self.where.guild_id, self.where.channel_id, "finished")
            assert row is not None and row.id is not None
            data = tx.snapshot(row.id)
            assert data is not None
            prompts = sorted((p.seat, p.key, p.kind, p.answer, aware(p.deadline), p.payload.to_json())
                             for p in tx.open_prompts(row.id))
            return row.status, self.entry.engine.from_json(data), prompts

    def store_state(self, state: Any) -> None:
        """Make a state the game's current one through the store's own API, in one transaction (its version moves
        on, as after a command)."""
        text = self.entry.engine.to_json_text(state)
        with self.table.store.transaction() as tx:
            row = tx.live_game(self.where.guild_id, self.where.channel_id)
            assert row is not None
            tx.save_state(row, lambda: text)

    def pick(self, rng: random.Random, state: Any) -> tuple[int, str]:
        """(seat, notation) of a random legal action of a seat that must act, weighted as the game's play-outs are
        (uniform play would never end some games)."""
        game = self.entry.engine
        moves: list[tuple[int, str]] = []
        weights: list[float] | None = []
        for seat in game.to_act(state):
            legal = game.legal_actions(state, seat)
            moves += [(seat, game.format(a)) for a in legal]
            found = game.playout_weights(state, seat, legal)
            weights = None if found is None or weights is None else weights + found
        return rng.choices(moves, weights)[0] if weights is not None else rng.choice(moves)

    def moves(self, state: Any) -> set[tuple[int, str]]:
        """(seat, notation) of every legal action of the seats that must act."""
        game = self.entry.engine
        return {(seat, game.format(a)) for seat in game.to_act(state) for a in game.legal_actions(state, seat)}


def open_game(table: Table, entry: GameEntry, channel: str) -> Seated:
    """new, join and start a game of entry with up to three players in a channel of the test server."""
    seated = Seated(table, Where(GUILD, channel), [Who(f"u-{k}", NAMES[k]) for k in range(min(3, entry.max_players))],
                    entry)
    seated.send(seated.players[0], "new", entry.id)
    for who in seated.players[1:]:
        seated.send(who, "join")
    seated.send(seated.players[0], "start")
    return seated


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A store on a fresh SQLite file."""
    opened = Store(f"sqlite:///{tmp_path / 'secrets.db'}")
    yield opened
    opened.close()


def drawing(seed: int) -> Callable[[], int]:
    """A table's source of seeds that always gives this one."""
    return lambda: seed


# the seed is never shown


def seed_forms(seed: int) -> list[bytes]:
    """The ways a seed could be written out: its digits signed or as 64 unsigned bits, and both in hexadecimal."""
    unsigned = seed % 2**64
    return [str(abs(seed)).encode(), str(unsigned).encode(), f"{abs(seed):x}".encode(), f"{unsigned:x}".encode()]


def published(outcome: Outcome) -> list[bytes]:
    """Everything an outcome says to anyone: its reply (with its buttons and attachment), the channel's lines,
    buttons and image, every DM and decision message, the public view, and every outbox row it queued."""
    texts = [outcome.reply, *outcome.public, *outcome.reply_choices, json.dumps(outcome.choices),
             json.dumps(outcome.private), json.dumps(outcome.board, default=str)]
    texts += [f"{note.text}\n{note.choices}\n{note.default}\n{note.phrase}" for note in outcome.opened]
    found = [text.encode() for text in texts]
    found += [row.payload.encode() for row in outcome.outbox] + [row.image for row in outcome.outbox if row.image]
    found += [outcome.image] if outcome.image else []
    found += [outcome.attachment[1]] if outcome.attachment else []
    return found


def shows_seed(outputs: list[bytes], seed: int) -> bool:
    """Whether any output holds the seed in any of its forms (hexadecimal in either case)."""
    forms = seed_forms(seed)
    return any(form in output.lower() for output in outputs for form in forms)


@each_game()
def test_no_public_output_of_a_started_game_contains_its_seed(entry: GameEntry, store: Store) -> None:
    """Issue 39 (DESIGN.md, Secrets and randomness): the seed decides every draw, so it is secret until the end. A
    whole game with a 64-bit seed, random legal plays by whoever must act, and every so often every reading command
    (with the table image drawn): no output holds the seed's digits, signed or unsigned, nor its hexadecimal form.
    Once the game has ended, its export shows the seed, so that anyone can check the deal."""
    pictured = open_game(Table(store, draw_seed=drawing(SECRET)), entry, "seed")
    plain = Seated(Table(store, images=False), pictured.where, pictured.players, entry)
    with store.transaction() as tx:
        row = tx.live_game(GUILD, "seed")
        assert row is not None and row.seed == SECRET, "the test's seed is the game's"
    rng = random.Random(5)
    outputs: list[bytes] = []
    for played in range(MAX_COMMANDS):
        status, state, _ = plain.stored()
        if status == "finished":
            break
        reading = played < PICTURED or played % READ_EVERY == 0
        if reading:
            outputs += reads(pictured, state)
        seat, text = plain.pick(rng, state)
        outputs += published((pictured if reading else plain).send(plain.players[seat], "play", text))
    else:
        pytest.fail(f"the game did not finish within {MAX_COMMANDS} commands")
    outputs += published(pictured.send(WATCHER, "log")) + published(pictured.send(WATCHER, "score"))
    assert not shows_seed(outputs, SECRET), "the seed was shown before the game ended"
    assert row.id is not None
    with store.transaction() as tx:
        replay = export.collect(tx, row.id)
    page = export.page(replace(replay, render=None, render_scoreboard=None))  # the images are not what is checked
    assert shows_seed([page.encode()], SECRET), "a finished game's export shows its seed"


def reads(seated: Seated, state: Any) -> list[bytes]:
    """The outputs of the reading commands: /board, /log, /score and /games by someone not playing, and each seat's
    /hand, /score, `/log since:me` and a /check of one of its legal actions."""
    watcher = [seated.send(WATCHER, verb) for verb in ("board", "log", "score", "games")]
    mine: list[Outcome] = []
    game = seated.entry.engine
    for seat, who in enumerate(seated.players):
        mine += [seated.send(who, "hand"), seated.send(who, "score"), seated.send(who, "log", "since:me")]
        legal = game.legal_actions(state, seat)
        if legal:
            mine.append(seated.send(who, "check", game.format(legal[0])))
    return [data for outcome in watcher + mine for data in published(outcome)]


# twin tables


def public_outputs(outcome: Outcome) -> tuple[Any, ...]:
    """What an outcome shows everyone: the channel's lines, buttons, mentions, public view and image, and the channel
    rows it queued (their buttons' game id left out: each table has its own)."""
    rows = []
    for row in outcome.outbox:
        if row.recipient is None:
            payload = json.loads(row.payload)
            if payload.get("buttons"):
                payload["buttons"]["game"] = "GAME"
            rows.append((row.kind, json.dumps(payload, sort_keys=True), row.image))
    board = json.dumps(outcome.board, sort_keys=True, default=str)
    return outcome.public, outcome.choices, outcome.mention, board, outcome.image, rows


def public_reads(seated: Seated, since: int) -> tuple[Any, ...]:
    """/board (text, view and image), /score and /games as someone not playing sees them, and /log's lines of the
    actions after the `since`-th, without their numbers (the lines before may tell of a draw that differs, and the
    plays Keywood made after it may be more or fewer)."""
    board = seated.send(WATCHER, "board")
    numbered = [line.partition(". ") for line in seated.send(WATCHER, "log").reply.splitlines()]
    log = [rest if seq.isdigit() else seq for seq, _, rest in numbered if not seq.isdigit() or int(seq) > since]
    return (board.reply, json.dumps(board.board, sort_keys=True), board.image, log,
            seated.send(WATCHER, "score").reply, seated.send(WATCHER, "games").reply)


def action_count(seated: Seated) -> int:
    """How many actions the channel's game has logged."""
    with seated.table.store.transaction() as tx:
        row = tx.live_game(seated.where.guild_id, seated.where.channel_id) or tx.latest_game(
            seated.where.guild_id, seated.where.channel_id, "finished")
        assert row is not None and row.id is not None
        return tx.action_count(row.id)


def twin(a: Seated, b: Seated, k: int) -> None:
    """Make B's game A's public twin: B's state becomes A's with everything hidden from the public drawn again (A's is
    stored again too, so both versions move on alike)."""
    game = a.entry.engine
    state = a.stored()[1]
    redrawn = game.resample_hidden(state, None, k)
    assert game.view(redrawn, None) == game.view(state, None)
    a.store_state(state)
    b.store_state(redrawn)


@each_game()
def test_tables_with_the_same_public_history_publish_the_same(entry: GameEntry, store: Store) -> None:
    """Issue 39: whatever a seat may not see cannot be worked out from what the table publishes. Two tables with
    the same public history, different seeds and different hidden contents (B made A's twin by resample_hidden),
    given the same commands (random among the actions legal in both), publish byte-identical outputs with images
    on: each play's channel lines, buttons, mentions, public view, image and queued channel rows, and before every
    play /board, /log, /score and /games. A play that draws or reveals is not compared, and the twins are made
    again after it; a play is compared only when the twins' open decisions are the same rows."""
    game = entry.engine
    a = open_game(Table(store, draw_seed=drawing(TWIN_SEEDS[0])), entry, "twin-a")
    b = open_game(Table(store, draw_seed=drawing(TWIN_SEEDS[1])), entry, "twin-b")
    twin(a, b, 1)
    assert game.to_json(a.stored()[1]) != game.to_json(b.stored()[1]), "the hidden contents differ"
    rng = random.Random(11)
    compared, since = 0, (0, 0)
    for played in range(TWIN_PLAYS):
        (status, state_a, prompts_a), (_, state_b, prompts_b) = a.stored(), b.stored()
        if status != "active":
            break
        same = prompts_a == prompts_b
        if same:
            assert public_reads(a, since[0]) == public_reads(b, since[1]), f"the reads differ before play {played}"
        shared = sorted(a.moves(state_a) & b.moves(state_b))
        for k in range(REDRAWS if not shared else 0):  # what a seat may do can hang on what it hides
            twin(a, b, 1_000 * played + k)
            state_b = b.stored()[1]
            shared = sorted(a.moves(state_a) & b.moves(state_b))
            if shared:
                break
        if not shared:
            break
        seat, text = rng.choice(shared)
        outcomes = [t.send(t.players[seat], "play", text) for t in (a, b)]
        after_a, after_b = a.stored()[1], b.stored()[1]
        drew = game.is_undo_barrier(state_a, after_a) or game.is_undo_barrier(state_b, after_b)
        if same and not drew:
            assert public_outputs(outcomes[0]) == public_outputs(outcomes[1]), f"play {played}: '{text}'"
            compared += 1
        if drew and a.stored()[0] == "active":
            since = (action_count(a), action_count(b))
            twin(a, b, played + 2)
    assert compared >= TWIN_COMPARED, f"only {compared} plays could be compared"


# undo


@each_game()
def test_an_undone_private_step_is_named_by_its_public_notation(entry: GameEntry, store: Store) -> None:
    """Issue 39: public texts of private steps, undone or not, say only what the public view shows. Every step that
    can be undone (a private one, its choices sent by DM, or any other) is undone, then taken again: the channel is
    told "NAME takes back 'PUBLIC NOTATION'.", never the notation itself when it names more (Keyflower's `bid TILE
    COLOUR` before the count: the colour is still behind the screen)."""
    game = entry.engine
    seated = open_game(Table(store, images=False, draw_seed=drawing(21)), entry, "undo")
    rng = random.Random(3)
    undone: list[str] = []  # the steps undone
    for _ in range(UNDO_TRIES):
        status, state, _ = seated.stored()
        if status != "active":
            break
        seat, text = rng.choice(sorted(seated.moves(state)))
        private = any(d.seat == seat and not d.public_choices for d in game.decisions(state))
        action = game.parse(state, seat, text)
        seated.send(seated.players[seat], "play", text)
        after = seated.stored()[1]
        if seat not in game.to_act(after) or game.is_undo_barrier(state, after):
            continue
        taken = seated.send(seated.players[seat], "undo")
        said = game.public_notation(action)
        assert f"{seated.players[seat].name} takes back '{said}'." in taken.public, taken.public
        assert said == text or not any(text in line for line in taken.public), taken.public
        undone.append(f"{text} (private)" if private else text)
        seated.send(seated.players[seat], "play", text)  # and on with the game
    assert undone, f"{entry.title}: no step could be undone in {UNDO_TRIES} plays, so the undo text went untested"
