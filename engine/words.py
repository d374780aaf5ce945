"""Actions held as the words of their notation, for games whose actions are plain words (`buy 2.3`).

A game subclasses Words (to write some words its own way) and keeps a cached `act(*words)` factory; the notation
round-trips by construction: parse(format(a)) == a.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from engine.core import AmbiguousAction, Event, clone

AMBIGUOUS_LIST = 12  # the most candidates an ambiguous text is answered with; more: the text is refused


@dataclass(frozen=True)
class Words:
    """One action, held as the words of its notation (lower case)."""

    words: tuple[str, ...]

    @property
    def verb(self) -> str:
        """The first word: what kind of action it is."""
        return self.words[0]

    @property
    def args(self) -> tuple[str, ...]:
        """The words after the verb."""
        return self.words[1:]

    def __str__(self) -> str:
        return " ".join(self.words)


W = TypeVar("W", bound=Words)


def lower_words(words: tuple[object, ...]) -> tuple[str, ...]:
    """Words of an action: numbers become text, text is lower case."""
    return tuple(w.lower() if isinstance(w, str) else str(w) for w in words)


def split_words(text: str) -> tuple[str, ...]:
    """Split typed text into an action's words (no check that it means anything)."""
    return tuple(text.strip().lower().replace(",", " ").split())


def match_words(action: W, options: Sequence[W], text: str) -> W | None:
    """The legal action typed text names: itself, or the one option it begins (`bid alehouse` for `bid alehouse
    red` when that is the only one); None when it names none; raises AmbiguousAction when it begins several."""
    if action in options:
        return action
    partial = [a for a in options if a.words[:len(action.words)] == action.words]
    if len(partial) == 1:
        return partial[0]
    if 1 < len(partial) <= AMBIGUOUS_LIST:
        raise AmbiguousAction(text, [str(a) for a in partial])
    return None


def waiting_phrase(names: Sequence[str], seats: Sequence[int], phrase: str) -> str:
    """'waiting for Ana and Ben to PHRASE' ('waiting for nobody: the game is over' when no seat is to act)."""
    people = [names[s] for s in seats]
    if not people:
        return "waiting for nobody: the game is over"
    who = people[0] if len(people) == 1 else ", ".join(people[:-1]) + " and " + people[-1]
    return f"waiting for {who} to {phrase}"


S = TypeVar("S")


class WordsGame(Generic[S, W]):
    """The part of the engine contract every word-action game writes the same way: apply on a copy or in place,
    always after the legality check, and the notation as the words themselves."""

    def _require_legal(self, state: S, seat: int, action: W) -> None:
        """Raise IllegalAction saying why, when the action is not among the seat's legal actions."""
        raise NotImplementedError

    def _carry_out(self, state: S, seat: int, action: W) -> list[Event]:
        """Apply a legal action to the state in place and say what happened."""
        raise NotImplementedError

    def apply(self, state: S, seat: int, action: W) -> tuple[S, list[Event]]:
        """Return the next state and what happened; raises IllegalAction, leaving state untouched."""
        self._require_legal(state, seat, action)
        new = clone(state)
        return new, self._carry_out(new, seat, action)

    def apply_in_place(self, state: S, seat: int, action: W) -> list[Event]:
        """Like apply, changing state itself; raises IllegalAction before changing it."""
        self._require_legal(state, seat, action)
        return self._carry_out(state, seat, action)

    def apply_choice(self, state: S, seat: int, options: list[W], index: int) -> list[Event]:
        """Apply options[index] in place (options being this seat's legal actions now)."""
        return self._carry_out(state, seat, options[index])

    def may_repeat(self, action: W) -> bool:
        """Any action may come again unless the game says otherwise."""
        return True

    def format(self, action: W) -> str:
        """The canonical notation: the action's words."""
        return str(action)
