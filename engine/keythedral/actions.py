"""Actions as their words: `Act(("buy", "2.3"))` is written `buy 2.3`; the notation round-trips."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

_LABEL = re.compile(r"[a-z]\d{1,2}\+?")  # a field or square label, written in capitals

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
        return " ".join(w.upper() if _LABEL.fullmatch(w) else w for w in self.words)


@cache
def act(*words: object) -> Act:
    """Build an action from words (numbers become text, labels lower case); cached, as actions are immutable."""
    return Act(tuple(w.lower() if isinstance(w, str) else str(w) for w in words))


def read(text: str) -> Act:
    """Split typed text into an action's words (no check that it means anything)."""
    return Act(tuple(text.strip().lower().replace(",", " ").split()))
