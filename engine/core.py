"""The contract every Keywood game engine implements, its error family and its seeded randomness.

An engine is pure: no I/O, no clock, no global random. A game is driven by
``setup`` then repeated ``apply`` of actions from the seats that ``to_act`` names;
``legal_actions`` is the single source of truth for what may happen next.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import orjson

from engine import records

JSON = dict[str, Any]

_MASK64 = (1 << 64) - 1


class EngineError(Exception):
    """Base of the engine's error family."""


class InvalidAction(EngineError):
    """Text that cannot be read as an action at all; the message quotes the input."""


class IllegalAction(EngineError):
    """A well-formed action the rules forbid now: a human sentence, the rule it rests on, a few alternatives."""

    def __init__(self, reason: str, rule: str, alternatives: Sequence[str] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        self.alternatives = list(alternatives)

    def __str__(self) -> str:
        text = f"{self.reason} ({self.rule})"
        if self.alternatives:
            text += " You could: " + ", ".join(self.alternatives) + "."
        return text


class AmbiguousAction(EngineError):
    """Text that matches several legal actions; .candidates lists their notations."""

    def __init__(self, text: str, candidates: Sequence[str]) -> None:
        super().__init__(f"'{text}' could mean {', '.join(candidates)}; please say which.")
        self.candidates = list(candidates)


@dataclass(frozen=True)
class Event:
    """Something that happened, in words a log can show.

    seat is who it concerns (None: nobody in particular); to is who may see it: None for everyone, or the seats
    it is private to. Transports send a private event only to the current holders of those seats.
    """

    text: str
    seat: int | None = None
    to: tuple[int, ...] | None = None

    @property
    def public(self) -> bool:
        """Whether everyone may see this event."""
        return self.to is None

    def visible_to(self, seat: int | None) -> bool:
        """Whether this seat (None: the public) may see the event."""
        return self.to is None or (seat is not None and seat in self.to)


TURN = "turn"
SIMULTANEOUS = "simultaneous"
REACTION = "reaction"
DECISION_KINDS = (TURN, SIMULTANEOUS, REACTION)


@dataclass(frozen=True)
class Decision:
    """One seat's open decision, as the engine sees it now.

    kind: a turn; a simultaneous choice several seats make at once (secret until revealed together); or a
    reaction to what just happened, made before play goes on. key names the decision and stays the same while it
    is open, so a transport asks once per key. phrase says what is to be decided, without the seat's name
    ("join or decline"). must: play waits for this seat now; otherwise the seat may answer ahead (see
    pending_answers) and its answer is kept until its turn to answer comes. default is the notation applied for the
    seat when its deadline passes (None: the deadline only reminds). public_choices says whether the texts of its
    choices reveal nothing hidden (only then may they be shown to everyone, e.g. as channel buttons). secret says
    whether the choice made stays hidden until it is revealed (a display, a winter tile); by default a decision
    with private choices is secret, but a choice may be private to offer and public once made (a Keyflower turn:
    the options show what is behind the screen, the bid made is on the table).
    """

    seat: int
    kind: str
    key: str
    phrase: str
    must: bool = True
    default: str | None = None
    public_choices: bool = False
    secret: bool | None = None

    def __post_init__(self) -> None:
        if self.kind not in DECISION_KINDS:
            raise ValueError(f"unknown decision kind '{self.kind}'")

    @property
    def is_secret(self) -> bool:
        """Whether the choice made stays hidden until revealed (default: when its choices are private)."""
        return not self.public_choices if self.secret is None else self.secret


@dataclass(frozen=True)
class Verdict:
    """What apply would do: legal or not, why, under which rule, and the outcome in words."""

    legal: bool
    reason: str
    rule: str
    outcome: tuple[str, ...] = ()


@dataclass(frozen=True)
class ScoreLine:
    """One line of a player's score."""

    label: str
    points: int
    detail: str = ""


@dataclass(frozen=True)
class PlayerScore:
    """A player's score lines and total."""

    seat: int
    name: str
    lines: tuple[ScoreLine, ...]

    @property
    def total(self) -> int:
        """Sum of the lines."""
        return sum(line.points for line in self.lines)


@dataclass(frozen=True)
class Scoreboard:
    """Scores of every seat, ranked best first, with the tie-break explanation when one decided."""

    players: tuple[PlayerScore, ...]
    final: bool
    tie_break: str = ""


PLAIN_SEEDS = 2**31
"""Seeds in [0, PLAIN_SEEDS) keep the plain xorshift64* generator: every seed Keywood drew before seeds became secret
was one of them (so stored games replay exactly), and so are the small seeds typed at the terminal or in tests."""

_HASHED = 2**63  # a hashed generator's counter runs over this many values, kept as the negative numbers
_DOMAIN = b"keywood-rng"


def _splitmix64(seed: int) -> int:
    """Spread a seed over 64 bits (one splitmix64 step)."""
    z = (seed + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


class Rng:
    """A seeded generator whose whole state is one integer kept inside the game state (a JSON number).

    Two kinds, told apart by the sign of that integer. A state of 1 or more is a plain xorshift64* generator, used
    for the seeds below PLAIN_SEEDS. A negative state is a counter whose outputs are BLAKE2b hashes of it, used for
    every other seed (the secret 64-bit seeds the table draws): xorshift's outputs are linear in its state, so a
    careful watcher of public draws (a shuffle of revealed tiles) could work out the state and every draw to come;
    a hash of a counter tells nothing of the counter, so nothing short of trying 2**63 counters does.
    """

    def __init__(self, state: int) -> None:
        self.state = state if -_HASHED <= state < 0 else state & _MASK64 or 0x9E3779B97F4A7C15

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """Start a generator from a seed: plain for the seeds below PLAIN_SEEDS, hashed for every other."""
        spread = _splitmix64(seed)
        return cls(spread if 0 <= seed < PLAIN_SEEDS else -1 - (spread >> 1))

    def next64(self) -> int:
        """Advance and return 64 random bits."""
        if self.state < 0:
            count = self.state
            self.state = -1 - (-count % _HASHED)  # the next counter value, wrapping within the negative numbers
            digest = hashlib.blake2b(count.to_bytes(8, "big", signed=True), digest_size=8, person=_DOMAIN)
            return int.from_bytes(digest.digest(), "big")
        x = self.state
        x ^= x >> 12
        x ^= (x << 25) & _MASK64
        x ^= x >> 27
        self.state = x
        return (x * 0x2545F4914F6CDD1D) & _MASK64

    def below(self, n: int) -> int:
        """Return a random integer in [0, n); raises ValueError if n < 1."""
        if n < 1:
            raise ValueError("below() needs n >= 1")
        return self.next64() % n

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


S = TypeVar("S")
A = TypeVar("A")


def clone(state: S) -> S:
    """An independent deep copy of a game state (engine.records.clone: walked field by field, what cannot change
    shared)."""
    return records.clone(state)


def json_text(data: JSON) -> str:
    """JSON-ready data as JSON text, keys in their order (as a snapshot stores a state): an engine's to_json_text."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


def check_by_applying(game: Game[S, A], state: S, seat: int, action: A) -> Verdict:
    """A game's check: the action applied to a copy and judged, or the refusal apply gives."""
    try:
        after, events = game.apply(state, seat, action)
    except IllegalAction as exc:
        return Verdict(False, exc.reason, exc.rule)
    return game.judge(state, seat, action, after, events)


class Game(Protocol, Generic[S, A]):
    """The interface every game engine offers; one instance per game kind.

    Everything the table, the transports and the play-outs use is here: nothing is probed for with getattr.
    """

    name: str
    min_players: int
    max_players: int

    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> S:
        """Return the opening state; deterministic for a given seed; raises ValueError on bad options."""
        ...

    def decisions(self, state: S) -> list[Decision]:
        """Every open decision, one per seat that must or may decide now (empty only when the game is over)."""
        ...

    def to_act(self, state: S) -> list[int]:
        """Seats that must decide now: the seats of the decisions with must set."""
        ...

    def waiting_for(self, state: S) -> str:
        """A 'waiting for X to ...' phrase describing the current decision, with the engine's seat names."""
        ...

    def legal_actions(self, state: S, seat: int) -> list[A]:
        """Every action this seat may take now: its decision's answers, or, for a seat not in to_act, what the rules
        let it do out of turn unasked (an interjection, such as a Keythedral law card played "at any time"; no
        decision opens for it, and it is usually empty)."""
        ...

    def pending_answers(self, state: S, seat: int) -> list[A]:
        """Answers a seat whose decision is not yet due (must unset) may give ahead of its turn; empty otherwise."""
        ...

    def apply(self, state: S, seat: int, action: A) -> tuple[S, list[Event]]:
        """Return the next state and what happened; raises IllegalAction, leaving state untouched."""
        ...

    def apply_in_place(self, state: S, seat: int, action: A) -> list[Event]:
        """Like apply but changing state itself (replays, play-outs); raises IllegalAction before changing it."""
        ...

    def apply_choice(self, state: S, seat: int, options: list[A], index: int) -> list[Event]:
        """Apply options[index] in place, options being legal_actions(state, seat) for this very state."""
        ...

    def check(self, state: S, seat: int, action: A) -> Verdict:
        """Say what apply would do, without doing it (check_by_applying: apply on a copy, then judge)."""
        ...

    def judge(self, state: S, seat: int, action: A, after: S, events: list[Event]) -> Verdict:
        """The verdict on a legal action already tried: after and events are what apply(state, seat, action) gave (the
        table judges the trial moves it made for its buttons, rather than applying them again)."""
        ...

    def view(self, state: S, seat: int | None, legal_now: list[A] | None = None) -> JSON:
        """What this seat may see (None: the public view), with the seat's legal actions (legal_now: those of
        legal_actions, when the caller has them already).

        Built by listing what is shown, never by deleting what is hidden.
        """
        ...

    def score(self, state: S, viewer: int | None) -> Scoreboard:
        """The final score, or the projection during the game as the viewer (None: the public) may know it."""
        ...

    def parse(self, state: S, seat: int, text: str, legal_now: list[A] | None = None) -> A:
        """Read notation against the seat's legal actions (legal_now: those of legal_actions, when the caller has
        them already); raises InvalidAction, IllegalAction or AmbiguousAction."""
        ...

    def format(self, action: A) -> str:
        """Return the canonical notation of an action."""
        ...

    def public_notation(self, action: A) -> str:
        """The notation as everyone may see it (secret choices are not named)."""
        ...

    def to_json(self, state: S) -> JSON:
        """Return the state as JSON-ready data."""
        ...

    def to_json_text(self, state: S) -> str:
        """to_json's data as JSON text, keys in their order (what a snapshot stores): json_text(to_json(state)), or
        the same text written straight from the state (Keyper)."""
        ...

    def from_json(self, data: JSON) -> S:
        """Rebuild a state from to_json's output; raises ValueError on malformed data."""
        ...

    def is_over(self, state: S) -> bool:
        """Whether the game has ended."""
        ...

    def is_undo_barrier(self, before: S, after: S) -> bool:
        """Whether going from before to after drew at random or revealed hidden information."""
        ...

    def may_repeat(self, action: A) -> bool:
        """Whether the same seat could take this action again right after taking it (False only where the rules
        never allow that; a table then works out no repeat button such as 'take pig x3' for it)."""
        ...

    def playout_weights(self, state: S, seat: int, legal: list[A]) -> list[float] | None:
        """Relative weights for a random play-out's choice among legal (None: uniform).

        A game whose uniformly random play would hardly ever end (Keythedral's players would trade their cubes
        away for ever) steers its play-outs here; the choice is still only ever among the legal actions.
        """
        ...

    def playout_worth(self, state: S, seat: int) -> float:
        """Points a seat's position is worth beyond its projected total, for judging a play-out cut short.

        0.0 where the projected score says it all. A game whose points come late and all at once (Keythedral's
        seats are bought with cubes gathered over rounds) values the progress towards them here, so that the
        stand-in's short play-outs can tell a good quiet move from a bad one.
        """
        ...

    def resample_hidden(self, state: S, viewer: int | None, seed: int) -> S:
        """A state the viewer (None: the public) cannot tell from this one, its hidden information redrawn.

        Everything the viewer may see stays as it is; what it may not (others' hands, face-down stacks, the order
        of a bag, choices not yet revealed) is drawn again, consistently with what it sees. Used by the leak
        test, and by players that must reason about what they cannot see.
        """
        ...


@dataclass
class Playout:
    """A recorded game: who played, the seed and options, and every (seat, notation) in order."""

    players: list[str]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[tuple[int, str]] = field(default_factory=list)


def replay(game: Game[S, A], record: Playout, after: Callable[[S], None] | None = None) -> S:
    """Re-play a recorded game from its seed, calling `after` (if given) on the state at the start and after each
    action; raises EngineError if an action no longer applies."""
    state = game.setup(record.players, record.seed, record.options)
    if after is not None:
        after(state)
    for seat, text in record.actions:
        game.apply_in_place(state, seat, game.parse(state, seat, text))
        if after is not None:
            after(state)
    return state
