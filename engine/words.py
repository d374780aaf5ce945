"""Actions held as the words of their notation, for games whose actions are plain words (`buy 2.3`).

A game subclasses Words (to write some words its own way) and keeps a cached `act(*words)` factory; the notation
round-trips by construction: parse(format(a)) == a.
"""

from __future__ import annotations

from dataclasses import dataclass


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


def lower_words(words: tuple[object, ...]) -> tuple[str, ...]:
    """Words of an action: numbers become text, text is lower case."""
    return tuple(w.lower() if isinstance(w, str) else str(w) for w in words)


def split_words(text: str) -> tuple[str, ...]:
    """Split typed text into an action's words (no check that it means anything)."""
    return tuple(text.strip().lower().replace(",", " ").split())
