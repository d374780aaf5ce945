"""Keyflower's actions as their words: `use alehouse red` (engine.words)."""

from __future__ import annotations

from functools import cache

from engine.words import Words, lower_words, split_words

Act = Words


@cache
def act(*words: object) -> Act:
    """Build an action from words (numbers become text); cached, as actions are immutable."""
    return Act(lower_words(words))


def read(text: str) -> Act:
    """Split typed text into an action's words (no check that it means anything)."""
    return Act(split_words(text))
