"""Actions as their words: `Act(("buy", "2.3"))` is written `buy 2.3`; the notation round-trips."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Act:
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


@cache
def act(*words: object) -> Act:
    """Build an action from words (numbers become text, labels lower case); cached, as actions are immutable."""
    return Act(tuple(w.lower() if isinstance(w, str) else str(w) for w in words))


def read(text: str) -> Act:
    """Split typed text into an action's words (no check that it means anything)."""
    return Act(tuple(text.strip().lower().replace(",", " ").split()))
