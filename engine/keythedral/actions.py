"""Actions as their words: `Act(("buy", "2.3"))` is written `buy 2.3`; the notation round-trips."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from engine.words import Words, lower_words, split_words

_LABEL = re.compile(r"[a-z]\d{1,2}\+?")  # a field or square label, written in capitals


@dataclass(frozen=True)
class Act(Words):
    """One Keythedral action; board labels are written in capitals (`worker M13`)."""

    def __str__(self) -> str:
        return " ".join(w.upper() if _LABEL.fullmatch(w) else w for w in self.words)


@cache
def act(*words: object) -> Act:
    """Build an action from words (numbers become text, labels lower case); cached, as actions are immutable."""
    return Act(lower_words(words))


def read(text: str) -> Act:
    """Split typed text into an action's words (no check that it means anything)."""
    return Act(split_words(text))
